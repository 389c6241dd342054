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

#include <atomic>

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
    qsizetype bodySize = -1;   // set by the store: the object's stored (compact JSON) size
};

// The cluster's objects: all in memory (reads never touch the disk), every change written
// through the database writer before it is acknowledged. One global resourceVersion counter,
// as etcd's revision, persisted with the objects.
//
// Shared (PostgreSQL, several instances on one database; docs/storage.md "Cluster objects
// across instances"): a write is computed and stored as a job of its own writer, holding the
// cluster's revision row locked until it commits, so that writes are one at a time across
// instances, each computed on the objects as the last one left them, and applied here once
// committed. What other instances wrote is read from a log of recent changes
// (cluster_changes) and told to the listeners in revision order, as this instance's own
// writes are.
class ObjectStore
{
public:
    using Outcome = std::variant<QList<ObjectChange>, Status>;
    using Compute = std::function<Outcome()>;
    using Done = std::function<void(const Outcome &)>;
    using Listener = std::function<void(const ObjectChange &)>;
    // The objects were read anew from the database (a write that failed after it was applied
    // here, a log that no longer reaches back far enough): what the listeners were told may
    // not be all that happened. `revision` is the store's revision now.
    using ReloadListener = std::function<void(qint64 revision)>;

    explicit ObjectStore(Core::WriteQueue &writer);

    static Core::Migration migration();
    static Core::Migration changeLogMigration();
    // Shared: set before load(); `writer` then writes the cluster's tables only, one job per
    // transaction (maxBatch 1): a write holds the cluster's row lock until it commits (with
    // other tables' row locks in its transaction it could deadlock with another instance's),
    // and is applied here only once it committed.
    void setShared(bool shared) { m_shared = shared; }
    bool isShared() const { return m_shared; }
    Result<void> load(Core::Database &database);
    // Shared: reads what other instances wrote since this store's revision (a writer job; at
    // most one queued). The change feed calls it when the revision row changes.
    void sync();

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
    void addReloadListener(ReloadListener listener);

    // Shared: how many changes of other instances were read from the log, and how many times
    // everything was read anew (tests, status).
    qint64 followedChanges() const { return m_followed.load(); }
    qint64 reloads() const { return m_reloads.load(); }

    // Shared: the log keeps the changes of the last LogKeep revisions; an instance further
    // behind reads everything anew. Pruned every LogPruneEvery revisions.
    // One process alone (SQLite): the revision a start continues from is the stored one plus
    // this. A database put back from a backup numbers its changes again from an older revision;
    // a client that resumes a watch from one it saw before would miss what those numbers now
    // are. Past the jump, its revision is too old (410) or, from far ahead, too large (504):
    // either way it lists again (etcd's --bump-revision after a restore, at every start).
    static constexpr qint64 StartStep = 1'000'000;
    static constexpr qint64 LogKeep = 10'000;
    static constexpr qint64 LogPruneEvery = 500;

private:
    // What a shared job did: told (and applied, for its own write) in its `done`.
    struct Step
    {
        QList<ObjectChange> followed; // other instances' changes, read from the log
        std::optional<qint64> reloadedAt;
        QList<ObjectChange> committed; // this write's, once its transaction committed
        std::optional<Outcome> outcome;
    };
    // The changes with the revisions after `revision` and their compact JSON in `bodies`
    // (what the database stores), in the same order; `previous` set from the objects here.
    QList<ObjectChange> stampLocked(QList<ObjectChange> changes, qint64 revision,
                                    QList<QByteArray> *bodies) const;
    // Stamps and applies (SQLite: before the write is durable).
    QList<ObjectChange> applyLocked(QList<ObjectChange> changes, QList<QByteArray> *bodies);
    void tellLocked(const QList<ObjectChange> &changes);
    void commitShared(const Compute &compute, Done done);
    // Shared, in a cluster writer job: brings the objects up to the database's revision
    // (`lockRow`: and locks the revision row, for a write).
    Result<void> follow(Core::WriteTransaction &tx, Step &step, bool lockRow);
    Result<void> reload(Core::WriteTransaction &tx, Step &step);
    void finishStep(Step &step);
    qint64 revisionNow() const;

    Core::WriteQueue &m_writer;
    QMutex m_writeMutex; // one compute-and-apply at a time
    mutable QReadWriteLock m_lock;
    QHash<QString, QMap<QString, QJsonObject>> m_objects; // resource -> "ns/name" -> object
    qint64 m_revision = 0;
    QList<Listener> m_listeners;
    QList<ReloadListener> m_reloadListeners;
    bool m_shared = false;
    std::atomic<bool> m_syncQueued{false};
    std::atomic<qint64> m_followed{0};
    std::atomic<qint64> m_reloads{0};
};

} // namespace Gatehouse::Cluster
