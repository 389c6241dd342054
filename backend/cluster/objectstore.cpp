#include "cluster/objectstore.h"
#include "cluster/clusterlogging.h"

#include "core/writequeue.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSqlQuery>

#include <future>

namespace Gatehouse::Cluster {

namespace {

QString keyOf(const QString &ns, const QString &name)
{
    return ns + QLatin1Char('/') + name;
}

QString encodeContinue(qint64 revision, const QString &key)
{
    const QByteArray json =
        QJsonDocument(QJsonObject{{QStringLiteral("rv"), revision}, {QStringLiteral("start"), key}})
            .toJson(QJsonDocument::Compact);
    return QString::fromLatin1(
        json.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

std::optional<QString> decodeContinue(const QString &token)
{
    const auto decoded = QByteArray::fromBase64Encoding(
        token.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(*decoded).object();
    if (!o.value(QLatin1String("start")).isString())
        return std::nullopt;
    return o.value(QLatin1String("start")).toString();
}

qint64 storedRevisionOf(const QJsonObject &object)
{
    return object.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("resourceVersion"))
        .toString()
        .toLongLong();
}

// The log's kind column.
int kindCode(ObjectChange::Kind kind)
{
    switch (kind) {
    case ObjectChange::Kind::Added:
        return 0;
    case ObjectChange::Kind::Modified:
        return 1;
    case ObjectChange::Kind::Deleted:
        return 2;
    }
    return 1;
}

std::optional<ObjectChange::Kind> kindOf(qint64 code)
{
    switch (code) {
    case 0:
        return ObjectChange::Kind::Added;
    case 1:
        return ObjectChange::Kind::Modified;
    case 2:
        return ObjectChange::Kind::Deleted;
    default:
        return std::nullopt;
    }
}

// Writes applied changes (their compact bodies in `bodies`) and the revision they reach;
// `log`: into the change log too (shared).
Result<void> storeChanges(Core::WriteTransaction &tx, const QList<ObjectChange> &applied,
                          const QList<QByteArray> &bodies, qint64 revision, bool log)
{
    for (qsizetype i = 0; i < applied.size(); ++i) {
        const ObjectChange &c = applied.at(i);
        // Cluster-scoped objects have namespace "" (a null QString would bind NULL).
        const QString ns = c.namespaceName.isNull() ? QStringLiteral("") : c.namespaceName;
        const qint64 version = storedRevisionOf(c.object);
        if (c.kind == ObjectChange::Kind::Deleted) {
            Core::Statement &s = tx.stmt("DELETE FROM cluster_objects WHERE resource = ?1 "
                                         "AND namespace = ?2 AND name = ?3");
            s.bind(1, c.resource).bind(2, ns).bind(3, c.name);
            if (!s.exec())
                return Core::WriteTransaction::sqlError(s, "delete cluster object");
        } else {
            Core::Statement &s =
                tx.stmt("INSERT INTO cluster_objects (resource, namespace, name, "
                        "resource_version, body) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT "
                        "(resource, namespace, name) DO UPDATE SET resource_version = "
                        "excluded.resource_version, body = excluded.body");
            s.bind(1, c.resource)
                .bind(2, ns)
                .bind(3, c.name)
                .bind(4, version)
                .bindBlob(5, bodies.at(i));
            if (!s.exec())
                return Core::WriteTransaction::sqlError(s, "store cluster object");
        }
        if (log) {
            Core::Statement &s =
                tx.stmt("INSERT INTO cluster_changes (revision, kind, resource, namespace, name, "
                        "body) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
            s.bind(1, version)
                .bind(2, kindCode(c.kind))
                .bind(3, c.resource)
                .bind(4, ns)
                .bind(5, c.name)
                .bindBlob(6, bodies.at(i));
            if (!s.exec())
                return Core::WriteTransaction::sqlError(s, "log cluster change");
        }
    }
    Core::Statement &s =
        tx.stmt("UPDATE cluster_state SET revision = ?1 WHERE id = 1 AND revision < ?1");
    s.bind(1, revision);
    if (!s.exec())
        return Core::WriteTransaction::sqlError(s, "store cluster revision");
    // Shared: the row is locked and behind this write, or the objects here were not the ones
    // the database holds.
    if (log && s.changes() != 1)
        return makeError(QStringLiteral("database-error"),
                         QStringLiteral("the cluster revision moved under a write"));
    return {};
}

std::optional<QJsonObject> objectOf(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        return std::nullopt;
    return doc.object();
}

} // namespace

ObjectStore::ObjectStore(Core::WriteQueue &writer) : m_writer(writer) {}

Core::Migration ObjectStore::migration()
{
    return {
        9,
        QStringLiteral("cluster: objects and the resourceVersion counter"),
        {QStringLiteral("CREATE TABLE cluster_objects (resource TEXT NOT NULL, namespace TEXT "
                        "NOT NULL, name TEXT NOT NULL, resource_version INTEGER NOT NULL, body "
                        "BLOB NOT NULL, PRIMARY KEY (resource, namespace, name)) WITHOUT ROWID"),
         QStringLiteral("CREATE TABLE cluster_state (id INTEGER PRIMARY KEY CHECK (id = 1), "
                        "revision INTEGER NOT NULL)"),
         QStringLiteral("INSERT INTO cluster_state (id, revision) VALUES (1, 0)")}};
}

Core::Migration ObjectStore::changeLogMigration()
{
    // Every change with its revision, kept for LogKeep revisions: what the other instances
    // of a PostgreSQL database read to follow (written only there). The revision row's
    // change is announced on the change feed.
    return {26,
            QStringLiteral("cluster: a log of recent changes, for several instances on one "
                           "database"),
            {QStringLiteral("CREATE TABLE cluster_changes (revision BIGINT PRIMARY KEY, kind "
                            "INTEGER NOT NULL, resource TEXT NOT NULL, namespace TEXT NOT NULL, "
                            "name TEXT NOT NULL, body BLOB NOT NULL)")},
            {Core::Database::notifyFunction(),
             QStringLiteral("CREATE TRIGGER cluster_state_changed AFTER UPDATE ON cluster_state "
                            "FOR EACH ROW EXECUTE FUNCTION gatehouse_notify('id')")}};
}

Result<void> ObjectStore::load(Core::Database &database)
{
    if (m_shared) {
        // As any later reload: the revision and the objects in one snapshot.
        return m_writer.run([this](Core::WriteTransaction &tx) -> Result<void> {
            Step step;
            return reload(tx, step);
        });
    }
    QSqlQuery q(database.connection());
    if (!q.exec(QStringLiteral("SELECT revision FROM cluster_state WHERE id = 1")) || !q.next())
        return makeError(QStringLiteral("database-error"),
                         QStringLiteral("cannot read the cluster revision"));
    const qint64 revision = q.value(0).toLongLong() + StartStep;
    if (!q.exec(QStringLiteral("SELECT resource, namespace, name, body FROM cluster_objects")))
        return makeError(QStringLiteral("database-error"),
                         QStringLiteral("cannot read the cluster objects"));
    QWriteLocker lock(&m_lock);
    m_revision = revision;
    while (q.next()) {
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(q.value(3).toByteArray(), &err);
        if (!doc.isObject()) {
            qCWarning(lcCluster).noquote()
                << "skipping unreadable stored object" << q.value(0).toString()
                << q.value(1).toString() << q.value(2).toString() << err.errorString();
            continue;
        }
        m_objects[q.value(0).toString()].insert(keyOf(q.value(1).toString(), q.value(2).toString()),
                                                doc.object());
    }
    return {};
}

std::optional<QJsonObject> ObjectStore::get(const QString &resource, const QString &namespaceName,
                                            const QString &name) const
{
    QReadLocker lock(&m_lock);
    const auto r = m_objects.constFind(resource);
    if (r == m_objects.constEnd())
        return std::nullopt;
    const auto it = r->constFind(keyOf(namespaceName, name));
    if (it == r->constEnd())
        return std::nullopt;
    return *it;
}

std::variant<ObjectStore::Page, Status>
ObjectStore::list(const QString &resource, const QString &namespaceName,
                  const std::function<bool(const QJsonObject &)> &keep, int limit,
                  const QString &continueToken) const
{
    QString start;
    if (!continueToken.isEmpty()) {
        const std::optional<QString> s = decodeContinue(continueToken);
        if (!s)
            return Status::badRequest(
                QStringLiteral("continue key is not valid: illegal base64 data or encoding"));
        start = *s;
    }
    Page page;
    QReadLocker lock(&m_lock);
    page.resourceVersion = QString::number(m_revision);
    const auto r = m_objects.constFind(resource);
    if (r == m_objects.constEnd())
        return page;
    const QString prefix = namespaceName.isEmpty() ? QString() : namespaceName + QLatin1Char('/');
    auto it = start.isEmpty() ? (prefix.isEmpty() ? r->constBegin() : r->lowerBound(prefix))
                              : r->upperBound(start);
    QString lastKey;
    for (; it != r->constEnd(); ++it) {
        if (!prefix.isEmpty() && !it.key().startsWith(prefix))
            break;
        if (keep && !keep(*it))
            continue;
        if (limit > 0 && page.items.size() == limit) {
            // Count what remains for remainingItemCount, then stop.
            qint64 remaining = 0;
            for (; it != r->constEnd(); ++it) {
                if (!prefix.isEmpty() && !it.key().startsWith(prefix))
                    break;
                if (!keep || keep(*it))
                    ++remaining;
            }
            page.remaining = remaining;
            page.continueToken = encodeContinue(m_revision, lastKey);
            break;
        }
        page.items.append(*it);
        lastKey = it.key();
    }
    return page;
}

int ObjectStore::count(const QString &resource) const
{
    QReadLocker lock(&m_lock);
    return int(m_objects.value(resource).size());
}

QString ObjectStore::resourceVersion() const
{
    QReadLocker lock(&m_lock);
    return QString::number(m_revision);
}

void ObjectStore::addListener(Listener listener)
{
    QMutexLocker lock(&m_writeMutex);
    m_listeners.append(std::move(listener));
}

void ObjectStore::addReloadListener(ReloadListener listener)
{
    QMutexLocker lock(&m_writeMutex);
    m_reloadListeners.append(std::move(listener));
}

qint64 ObjectStore::revisionNow() const
{
    QReadLocker lock(&m_lock);
    return m_revision;
}

void ObjectStore::tellLocked(const QList<ObjectChange> &changes)
{
    for (const ObjectChange &c : changes)
        for (const Listener &l : std::as_const(m_listeners))
            l(c);
}

QList<ObjectChange> ObjectStore::stampLocked(QList<ObjectChange> changes, qint64 revision,
                                             QList<QByteArray> *bodies) const
{
    QReadLocker lock(&m_lock);
    // What the changes before made of an object, for the `previous` of one changed twice.
    QHash<QString, std::optional<QJsonObject>> changed;
    for (ObjectChange &c : changes) {
        const QString key = c.resource + QLatin1Char('\n') + keyOf(c.namespaceName, c.name);
        ++revision;
        QJsonObject meta = c.object.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("resourceVersion"), QString::number(revision));
        c.object.insert(QStringLiteral("metadata"), meta);
        // Stored compact: an object edited in place keeps the bytes of what it replaced (Qt's
        // containers only append), and each version made from the last would carry them on,
        // growing with every change.
        bodies->append(QJsonDocument(c.object).toJson(QJsonDocument::Compact));
        c.object = QJsonDocument::fromJson(bodies->last()).object();
        c.bodySize = bodies->last().size();
        const auto before = changed.constFind(key);
        c.previous = before != changed.constEnd()
                         ? before->value_or(QJsonObject())
                         : m_objects.value(c.resource).value(keyOf(c.namespaceName, c.name));
        changed.insert(key, c.kind == ObjectChange::Kind::Deleted
                                ? std::nullopt
                                : std::optional<QJsonObject>(c.object));
    }
    return changes;
}

QList<ObjectChange> ObjectStore::applyLocked(QList<ObjectChange> changes, QList<QByteArray> *bodies)
{
    QList<ObjectChange> stamped = stampLocked(std::move(changes), m_revision, bodies);
    QWriteLocker lock(&m_lock);
    for (const ObjectChange &c : stamped) {
        const QString key = keyOf(c.namespaceName, c.name);
        if (c.kind == ObjectChange::Kind::Deleted)
            m_objects[c.resource].remove(key);
        else
            m_objects[c.resource].insert(key, c.object);
    }
    m_revision += stamped.size();
    return stamped;
}

void ObjectStore::commit(const Compute &compute, Done done)
{
    if (m_shared) {
        commitShared(compute, std::move(done));
        return;
    }
    QMutexLocker lock(&m_writeMutex);
    Outcome outcome = compute();
    auto *changes = std::get_if<QList<ObjectChange>>(&outcome);
    if (!changes || changes->isEmpty()) {
        lock.unlock();
        if (done)
            done(outcome);
        return;
    }
    QList<QByteArray> bodies;
    QList<ObjectChange> applied = applyLocked(std::move(*changes), &bodies);
    qint64 revision = 0;
    {
        QReadLocker r(&m_lock);
        revision = m_revision;
    }
    tellLocked(applied);
    lock.unlock();

    m_writer.submit(
        [applied, bodies, revision](Core::WriteTransaction &tx) {
            return storeChanges(tx, applied, bodies, revision, false);
        },
        [applied, done = std::move(done)](const Result<void> &r) {
            if (!done)
                return;
            if (!r) {
                qCWarning(lcCluster).noquote()
                    << "persisting cluster objects failed:" << r.error().message;
                done(Status::internalError(QStringLiteral("the change could not be stored: ") +
                                           r.error().message));
                return;
            }
            done(applied);
        });
}

// ---- Shared: several instances on one PostgreSQL database --------------------------------
//
// Only the cluster writer's thread changes the objects here (its jobs and their `done`), one
// job per transaction: a write is computed on what is committed, written, and applied here
// once it committed, so that readers never see what may not commit.

Result<void> ObjectStore::reload(Core::WriteTransaction &tx, Step &step)
{
    // The revision and every object in one statement, so one snapshot: each write changes
    // both in one transaction.
    Core::Statement &s =
        tx.stmt("SELECT s.revision, o.resource, o.namespace, o.name, o.body FROM cluster_state s "
                "LEFT JOIN cluster_objects o ON 1 = 1 WHERE s.id = 1");
    QHash<QString, QMap<QString, QJsonObject>> objects;
    qint64 revision = -1;
    while (s.next()) {
        revision = s.int64(0);
        if (s.isNull(1))
            continue;
        const std::optional<QJsonObject> object = objectOf(s.blob(4));
        if (!object) {
            qCWarning(lcCluster).noquote()
                << "skipping unreadable stored object" << s.text(1) << s.text(2) << s.text(3);
            continue;
        }
        objects[s.text(1)].insert(keyOf(s.text(2), s.text(3)), *object);
    }
    if (!s.ok())
        return Core::WriteTransaction::sqlError(s, "read the cluster objects");
    if (revision < 0)
        return makeError(QStringLiteral("database-error"),
                         QStringLiteral("cannot read the cluster revision"));
    QMutexLocker write(&m_writeMutex); // no compute (dry runs) sees half of it
    QWriteLocker lock(&m_lock);
    m_objects = std::move(objects);
    m_revision = revision;
    step.reloadedAt = revision;
    return {};
}

Result<void> ObjectStore::follow(Core::WriteTransaction &tx, Step &step, bool lockRow)
{
    // A write locks the row every write changes: until it commits, no other instance writes,
    // and what it computes on is what the database holds. Not for ever: an instance stalled
    // while it holds the row fails this write rather than every write here.
    if (lockRow) {
        // And an instance that stalls while it holds the row loses its session, and the row.
        Core::Statement &timeout =
            tx.stmt("SELECT set_config('lock_timeout', '10s', true), "
                    "set_config('idle_in_transaction_session_timeout', '30s', true)");
        if (!timeout.exec())
            return Core::WriteTransaction::sqlError(timeout, "set the lock timeout");
    }
    Core::Statement &s = lockRow
                             ? tx.stmt("SELECT revision FROM cluster_state WHERE id = 1 FOR UPDATE")
                             : tx.stmt("SELECT revision FROM cluster_state WHERE id = 1");
    if (!s.next())
        return s.ok() ? makeError(QStringLiteral("database-error"),
                                  QStringLiteral("cannot read the cluster revision"))
                      : Core::WriteTransaction::sqlError(s, "read the cluster revision");
    const qint64 stored = s.int64(0);
    const qint64 cached = revisionNow();
    if (stored == cached)
        return {};
    if (stored < cached) // the database was restored from a backup, or changed by hand
        return reload(tx, step);
    // Committed with the revision in one transaction: the log holds every change up to it,
    // unless it was pruned past this instance's revision.
    Core::Statement &log =
        tx.stmt("SELECT revision, kind, resource, namespace, name, body FROM cluster_changes "
                "WHERE revision > ?1 AND revision <= ?2 ORDER BY revision");
    log.bind(1, cached).bind(2, stored);
    QList<ObjectChange> changes;
    qint64 expected = cached + 1;
    while (log.next()) {
        const std::optional<ObjectChange::Kind> kind = kindOf(log.int64(1));
        const QByteArray body = log.blob(5);
        const std::optional<QJsonObject> object = objectOf(body);
        if (log.int64(0) != expected || !kind || !object)
            break;
        ++expected;
        changes.append(
            ObjectChange{*kind, log.text(2), log.text(3), log.text(4), *object, {}, body.size()});
    }
    if (!log.ok())
        return Core::WriteTransaction::sqlError(log, "read the cluster's change log");
    if (expected != stored + 1)
        return reload(tx, step);
    // Committed by others: applied now (the write computes on them), told in `done`.
    QMutexLocker write(&m_writeMutex);
    QWriteLocker lock(&m_lock);
    for (ObjectChange &c : changes) {
        QMap<QString, QJsonObject> &objects = m_objects[c.resource];
        const QString key = keyOf(c.namespaceName, c.name);
        c.previous = objects.value(key);
        if (c.kind == ObjectChange::Kind::Deleted)
            objects.remove(key);
        else
            objects.insert(key, c.object);
    }
    m_revision = stored;
    step.followed += changes;
    return {};
}

void ObjectStore::finishStep(Step &step)
{
    QMutexLocker lock(&m_writeMutex);
    if (step.reloadedAt) {
        ++m_reloads;
        for (const ReloadListener &l : std::as_const(m_reloadListeners))
            l(*step.reloadedAt);
    }
    m_followed += step.followed.size();
    tellLocked(step.followed);
    if (step.committed.isEmpty())
        return;
    {
        QWriteLocker write(&m_lock);
        for (const ObjectChange &c : std::as_const(step.committed)) {
            QMap<QString, QJsonObject> &objects = m_objects[c.resource];
            const QString key = keyOf(c.namespaceName, c.name);
            if (c.kind == ObjectChange::Kind::Deleted)
                objects.remove(key);
            else
                objects.insert(key, c.object);
            m_revision = storedRevisionOf(c.object);
        }
    }
    tellLocked(step.committed);
}

void ObjectStore::commitShared(const Compute &compute, Done done)
{
    auto step = std::make_shared<Step>();
    m_writer.submit(
        [this, compute, step](Core::WriteTransaction &tx) -> Result<void> {
            if (auto r = follow(tx, *step, true); !r)
                return r;
            QMutexLocker lock(&m_writeMutex);
            Outcome outcome = compute();
            auto *changes = std::get_if<QList<ObjectChange>>(&outcome);
            if (!changes || changes->isEmpty()) {
                step->outcome = std::move(outcome);
                return {};
            }
            const qint64 before = revisionNow();
            QList<QByteArray> bodies;
            QList<ObjectChange> stamped = stampLocked(std::move(*changes), before, &bodies);
            lock.unlock();
            const qint64 revision = before + stamped.size();
            if (auto r = storeChanges(tx, stamped, bodies, revision, true); !r)
                return r;
            if (before / LogPruneEvery != revision / LogPruneEvery) {
                Core::Statement &prune =
                    tx.stmt("DELETE FROM cluster_changes WHERE revision <= ?1");
                prune.bind(1, revision - LogKeep);
                if (!prune.exec())
                    return Core::WriteTransaction::sqlError(prune,
                                                            "prune the cluster's change log");
            }
            step->committed = stamped; // once the transaction commits, which `done` says
            step->outcome = Outcome(std::move(stamped));
            return {};
        },
        [this, step, done = std::move(done)](const Result<void> &r) {
            if (!r)
                step->committed.clear();
            finishStep(*step); // what others committed is told either way
            if (!r) {
                qCWarning(lcCluster).noquote()
                    << "storing cluster objects failed:" << r.error().message;
                if (done)
                    done(Status::internalError(QStringLiteral("the change could not be stored: ") +
                                               r.error().message));
                return;
            }
            if (done)
                done(step->outcome.value_or(Outcome(QList<ObjectChange>())));
        });
}

void ObjectStore::sync()
{
    if (!m_shared || m_syncQueued.exchange(true))
        return;
    auto step = std::make_shared<Step>();
    m_writer.submit(
        [this, step](Core::WriteTransaction &tx) -> Result<void> {
            m_syncQueued.store(false); // a change announced from now on queues another
            return follow(tx, *step, false);
        },
        [this, step](const Result<void> &r) {
            // A job the writer could not run (no connection) never cleared it; the change
            // feed calls again once it hears the database again.
            m_syncQueued.store(false);
            finishStep(*step);
            if (!r)
                qCWarning(lcCluster).noquote()
                    << "cannot read what other instances changed in the cluster:"
                    << r.error().message;
        });
}

ObjectStore::Outcome ObjectStore::dryRun(const Compute &compute)
{
    QMutexLocker lock(&m_writeMutex);
    return compute();
}

ObjectStore::Outcome ObjectStore::commitAndWait(const Compute &compute)
{
    auto promise = std::make_shared<std::promise<Outcome>>();
    std::future<Outcome> result = promise->get_future();
    commit(compute, [promise](const Outcome &o) { promise->set_value(o); });
    Core::WriteQueue::wakeDeferred(); // inside an HTTP request the writer may wait for the pass
    return result.get();
}

} // namespace Gatehouse::Cluster
