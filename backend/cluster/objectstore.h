#pragma once

#include "cluster/status.h"
#include "core/database.h"
#include "core/result.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMutex>
#include <QReadWriteLock>
#include <QString>

#include <functional>
#include <optional>
#include <variant>

namespace Gatehouse::Core {
class WriteQueue;
}

namespace Gatehouse::Cluster {

// One write to the store: an object put (created or replaced) or deleted.
struct ObjectChange
{
    enum class Kind { Added, Modified, Deleted };
    Kind kind = Kind::Added;
    QString resource; // plural, e.g. "nodes"
    QString namespaceName;
    QString name;
    QJsonObject object;        // the new object (Deleted: the last state)
    QJsonObject previous = {}; // set by the store: the object before (empty: it did not exist)
};

// The cluster's objects: all in memory (reads never touch the disk), every change written
// through the database writer before it is acknowledged. One global resourceVersion counter,
// as etcd's revision, persisted with the objects.
class ObjectStore
{
public:
    using Outcome = std::variant<QList<ObjectChange>, Status>;
    using Compute = std::function<Outcome()>;
    using Done = std::function<void(const Outcome &)>;
    using Listener = std::function<void(const ObjectChange &)>;

    explicit ObjectStore(Core::WriteQueue &writer);

    static Core::Migration migration();
    Result<void> load(Core::Database &database);

    std::optional<QJsonObject> get(const QString &resource, const QString &namespaceName,
                                   const QString &name) const;

    struct Page
    {
        QList<QJsonObject> items;
        QString continueToken;
        qint64 remaining = 0; // items after this page (when a continue token is given)
        QString resourceVersion;
    };
    // Objects of resource in namespaceName (empty: every namespace) that pass `keep`, in
    // namespace/name order; limit 0 means all. continueToken is one this store returned.
    std::variant<Page, Status> list(const QString &resource, const QString &namespaceName,
                                    const std::function<bool(const QJsonObject &)> &keep, int limit,
                                    const QString &continueToken) const;
    int count(const QString &resource) const;
    QString resourceVersion() const;

    // Runs compute with every other write held off (it may read the store), applies the
    // changes it returns (assigning resourceVersions), tells the listeners, and calls done once
    // the changes are durable; done gets the changes as applied, or compute's Status. done runs
    // on the database writer's thread.
    void commit(const Compute &compute, Done done);
    // Runs compute as commit would, applies nothing (dry runs).
    Outcome dryRun(const Compute &compute);
    // The same, waiting for the disk (start-up and tools).
    Outcome commitAndWait(const Compute &compute);

    void addListener(Listener listener);

private:
    // Applies changes, and gives each changed object's compact JSON in `bodies` (what the
    // database stores), in the same order.
    QList<ObjectChange> applyLocked(QList<ObjectChange> changes, QList<QByteArray> *bodies);

    Core::WriteQueue &m_writer;
    QMutex m_writeMutex; // one compute-and-apply at a time
    mutable QReadWriteLock m_lock;
    QHash<QString, QMap<QString, QJsonObject>> m_objects; // resource -> "ns/name" -> object
    qint64 m_revision = 0;
    QList<Listener> m_listeners;
};

} // namespace Gatehouse::Cluster
