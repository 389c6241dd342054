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

Result<void> ObjectStore::load(Core::Database &database)
{
    QSqlQuery q(database.connection());
    if (!q.exec(QStringLiteral("SELECT revision FROM cluster_state WHERE id = 1")) || !q.next())
        return makeError(QStringLiteral("database-error"),
                         QStringLiteral("cannot read the cluster revision"));
    const qint64 revision = q.value(0).toLongLong();
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

QList<ObjectChange> ObjectStore::applyLocked(QList<ObjectChange> changes, QList<QByteArray> *bodies)
{
    QWriteLocker lock(&m_lock);
    for (ObjectChange &c : changes) {
        const QString key = keyOf(c.namespaceName, c.name);
        ++m_revision;
        QJsonObject meta = c.object.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("resourceVersion"), QString::number(m_revision));
        c.object.insert(QStringLiteral("metadata"), meta);
        // Stored compact: an object edited in place keeps the bytes of what it replaced (Qt's
        // containers only append), and each version made from the last would carry them on,
        // growing with every change.
        bodies->append(QJsonDocument(c.object).toJson(QJsonDocument::Compact));
        c.object = QJsonDocument::fromJson(bodies->last()).object();
        c.previous = m_objects[c.resource].value(key);
        if (c.kind == ObjectChange::Kind::Deleted)
            m_objects[c.resource].remove(key);
        else
            m_objects[c.resource].insert(key, c.object);
    }
    return changes;
}

void ObjectStore::commit(const Compute &compute, Done done)
{
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
    for (const ObjectChange &c : std::as_const(applied))
        for (const Listener &l : std::as_const(m_listeners))
            l(c);
    lock.unlock();

    m_writer.submit(
        [applied, bodies, revision](Core::WriteTransaction &tx) -> Result<void> {
            for (qsizetype i = 0; i < applied.size(); ++i) {
                const ObjectChange &c = applied.at(i);
                // Cluster-scoped objects have namespace "" (a null QString would bind NULL).
                const QString ns = c.namespaceName.isNull() ? QStringLiteral("") : c.namespaceName;
                if (c.kind == ObjectChange::Kind::Deleted) {
                    Core::Statement &s = tx.stmt("DELETE FROM cluster_objects WHERE resource = ?1 "
                                                 "AND namespace = ?2 AND name = ?3");
                    s.bind(1, c.resource).bind(2, ns).bind(3, c.name);
                    if (!s.exec())
                        return Core::WriteTransaction::sqlError(s, "delete cluster object");
                    continue;
                }
                Core::Statement &s =
                    tx.stmt("INSERT INTO cluster_objects (resource, namespace, name, "
                            "resource_version, body) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT "
                            "(resource, namespace, name) DO UPDATE SET resource_version = "
                            "excluded.resource_version, body = excluded.body");
                s.bind(1, c.resource)
                    .bind(2, ns)
                    .bind(3, c.name)
                    .bind(4, c.object.value(QLatin1String("metadata"))
                                 .toObject()
                                 .value(QLatin1String("resourceVersion"))
                                 .toString()
                                 .toLongLong())
                    .bindBlob(5, bodies.at(i));
                if (!s.exec())
                    return Core::WriteTransaction::sqlError(s, "store cluster object");
            }
            Core::Statement &s =
                tx.stmt("UPDATE cluster_state SET revision = ?1 WHERE id = 1 AND revision < ?1");
            s.bind(1, revision);
            if (!s.exec())
                return Core::WriteTransaction::sqlError(s, "store cluster revision");
            return {};
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
