#pragma once

#include "adminclient.h"
#include "jsonlistmodel.h"
#include "livestate.h"

#include <QPointer>
#include <QTimer>

namespace Gatehouse::Console {

// RBAC objects of two kinds (the cluster-wide one and the namespaced one, e.g. ClusterRole and
// Role), read from the cluster API through the admin API (.../apis/rbac.authorization.k8s.io/v1/
// <resource>, for all namespaces) and shown together: cluster-wide first, then by namespace, by
// name. Read again on every (re)connect and shortly after a cluster.object.changed event for
// either resource.
class RbacListModel : public Gatehouse::Console::JsonListModel
{
    Q_OBJECT
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY loadingChanged)
    // The last failed read's message as the API wrote it (never translated); "" when none.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(Gatehouse::Console::LiveState *live READ live CONSTANT)

public:
    static constexpr int ReloadDelayMs = 250; // coalesces a burst of changes

    RbacListModel(AdminClient *client, QString clusterResource, QString namespacedResource,
                  QObject *parent);

    LiveState *live() { return &m_live; }
    bool loading() const { return m_loading; }
    bool loaded() const { return m_loaded; }
    QString error() const { return m_error; }

    Q_INVOKABLE void reload();
    Q_INVOKABLE void clearError();
    // Both lists' items (tests and the reload's answer).
    void resetFrom(const QJsonArray &clusterItems, const QJsonArray &namespacedItems);

    // "/cluster/k8s/apis/rbac.authorization.k8s.io/v1/<resource>"
    static QString collectionPath(const QString &resource);

signals:
    void loadingChanged();
    void errorChanged();

protected:
    QString idOf(const QJsonObject &row) const override; // kind/namespace/name
    static QString kindOf(const QJsonObject &row);
    static QString nameOf(const QJsonObject &row);
    static QString namespaceOf(const QJsonObject &row);

private:
    void handleEvent(const AdminEvent &event);
    void setLoading(bool loading);
    void setError(const QString &error);

    QPointer<AdminClient> m_client;
    LiveState m_live;
    QString m_clusterResource;
    QString m_namespacedResource;
    QTimer m_reloadSoon;
    quint64 m_generation = 0;
    bool m_loading = false;
    bool m_loaded = false;
    QString m_error;
};

// ClusterRoles and Roles with their rules.
class RbacRoleModel : public Gatehouse::Console::RbacListModel
{
    Q_OBJECT

public:
    enum Role {
        KindRole = Qt::UserRole + 1, // ClusterRole, Role
        NameRole,
        NamespaceRole, // "" for a ClusterRole
        ScopeTextRole, // "cluster-wide", "namespace shop"
        RuleCountRole,
        RulesRole,   // QStringList, one line per rule: "get, list on pods, services (core)"
        BuiltInRole, // part of the bootstrap policy (kubernetes.io/bootstrapping)
    };
    Q_ENUM(Role)

    explicit RbacRoleModel(AdminClient *client, QObject *parent = nullptr);
    QHash<int, QByteArray> roleNames() const override;

    // One rule as a line: verbs "on" resources (API groups), resource names, non-resource URLs.
    static QString ruleText(const QJsonObject &rule);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
};

// ClusterRoleBindings and RoleBindings: which role, to whom.
class RbacBindingModel : public Gatehouse::Console::RbacListModel
{
    Q_OBJECT

public:
    enum Role {
        KindRole = Qt::UserRole + 1, // ClusterRoleBinding, RoleBinding
        NameRole,
        NamespaceRole,
        ScopeTextRole,
        RoleRefKindRole,
        RoleRefNameRole,
        RoleRefTextRole, // "ClusterRole cluster-admin"
        SubjectsRole,    // QStringList: "Group system:masters", "ServiceAccount shop/default"
        SubjectCountRole,
    };
    Q_ENUM(Role)

    explicit RbacBindingModel(AdminClient *client, QObject *parent = nullptr);
    QHash<int, QByteArray> roleNames() const override;

protected:
    QVariant value(const QJsonObject &row, int role) const override;
};

} // namespace Gatehouse::Console
