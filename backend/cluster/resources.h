#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace Gatehouse::Cluster {

struct Subresource
{
    QString name;
    QString kind;
    QStringList verbs;
};

// One resource the cluster API serves: its discovery entry and how it is stored.
struct ResourceType
{
    QString group; // "" for core
    QString version;
    QString name; // plural: "nodes"
    QString singular;
    QString kind;
    bool namespaced = false;
    QStringList verbs;
    QStringList shortNames;
    QStringList categories;
    QList<Subresource> subresources;
    bool stored = true; // false: a review, answered on create and never stored
    // Another version's view of objects stored under the same plural (events.k8s.io/v1 Events
    // are core/v1 Events in another shape, as in kube-apiserver): read through servedObject,
    // written through storedObject, never listed twice where every stored object is visited.
    bool view = false;

    QString apiVersion() const { return group.isEmpty() ? version : group + '/' + version; }
    bool hasSubresource(const QString &sub) const;
    bool hasStatus() const { return hasSubresource(QStringLiteral("status")); }
};

// The served API groups with their versions, in discovery order ("" first).
QStringList servedGroups();
const QList<ResourceType> &servedResources();
const ResourceType *findResource(const QString &group, const QString &version, const QString &name);
const ResourceType *findStoredResource(const QString &name); // by plural, any group

// An object as stored, in t's shape (a view converts; every other type is the same object),
// and the reverse for an object written through t.
QJsonObject servedObject(const ResourceType &t, const QJsonObject &stored);
QJsonObject storedObject(const ResourceType &t, const QJsonObject &served);

// Discovery documents (reference kube.md §6.3).
QJsonObject apiVersions(const QString &serverAddress);
QJsonObject apiGroupList();
QJsonObject apiGroup(const QString &group);
QJsonObject apiResourceList(const QString &group, const QString &version);
QJsonObject aggregatedDiscovery(bool legacyCore);

// Tables for kubectl get (Accept: ...;as=Table;...).
QJsonObject tableFor(const ResourceType &type, const QList<QJsonObject> &objects,
                     const QString &resourceVersion, const QString &continueToken, qint64 nowMs);
// Pieces of a meta.k8s.io/v1 Table, for kinds with columns of their own (events.cpp).
QJsonObject tableColumn(const char *name, const char *description, int priority = 0,
                        const char *format = "");
QJsonObject tableRow(const QJsonArray &cells, const QJsonObject &metadata);
QJsonObject table(const QJsonArray &columns, const QJsonArray &rows, const QString &resourceVersion,
                  const QString &continueToken);
// "5d", "3h12m" as kubectl prints ages.
QString humanDuration(qint64 seconds);

} // namespace Gatehouse::Cluster
