#include "webhooks/webhookstore.h"
#include "core/sqlwhere.h"

#include "core/jsonwriter.h"
#include "core/writequeue.h"
#include "crypto/random.h"
#include "webhooks/signer.h"
#include "webhooks/webhookslogging.h"

#include "core/clock.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimeZone>
#include <QVariant>

#include <string_view>

namespace Gatehouse::Webhooks {

using Core::Result;
using Core::WriteTransaction;

QString isoTime(qint64 ms)
{
    if (ms <= 0)
        return {};
    return Core::isoTimeMs(ms);
}

namespace {

// What a secret's seal is bound to: its owner, apart from every other kind of sealed value.
QByteArray secretContext(const QString &ownerId)
{
    return QByteArrayLiteral("webhook-secret/") + ownerId.toUtf8();
}

// The stored secrets of an owner that still sign, newest first, opened; *unopened counts those
// that do not open (logged without their value). An error when they could not be read.
Core::Result<QList<QString>> openSecrets(Core::Database &database, const QString &ownerId,
                                         qint64 now, QList<qint64> *createdAt = nullptr,
                                         QList<qint64> *expiresAt = nullptr,
                                         int *unopened = nullptr)
{
    QList<QString> out;
    const QSqlDatabase db = database.connection();
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT secret, created_at, expires_at FROM webhook_secrets WHERE "
                             "owner_id = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY "
                             "created_at DESC"));
    q.addBindValue(ownerId);
    q.addBindValue(now);
    if (!q.exec())
        return Core::Database::readFailed(db, QStringLiteral("reading a customer's webhook "
                                                             "secrets: ") +
                                                  q.lastError().text());
    while (q.next()) {
        auto plain = database.unseal(q.value(0).toByteArray(), secretContext(ownerId));
        if (!plain) {
            qCWarning(lcWebhooks).noquote()
                << "a webhook secret of" << ownerId << "cannot be read:" << plain.error().message;
            if (unopened)
                ++*unopened;
            continue;
        }
        out.append(QString::fromUtf8(*plain));
        if (createdAt)
            createdAt->append(q.value(1).toLongLong());
        if (expiresAt)
            expiresAt->append(q.value(2).toLongLong());
    }
    return out;
}

QJsonValue timeOrNull(qint64 ms)
{
    return ms > 0 ? QJsonValue(isoTime(ms)) : QJsonValue(QJsonValue::Null);
}

QJsonValue textOrNull(const QVariant &v)
{
    return v.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(v.toString());
}

const QString DeliveryColumns = QStringLiteral(
    "d.id, d.endpoint_id, d.owner_id, d.subject_id, d.seq, d.event_type, d.label, e.url, "
    "d.state, d.attempts, d.next_attempt_at, d.created_at, d.completed_at, d.last_status, "
    "d.last_error, d.last_latency_ms, d.payload");

Delivery deliveryFromRow(const QSqlQuery &q)
{
    Delivery d;
    d.id = q.value(0).toString();
    d.endpointId = q.value(1).toString();
    d.ownerId = q.value(2).toString();
    d.subjectId = q.value(3).toString();
    d.seq = q.value(4).toLongLong();
    d.eventType = q.value(5).toString();
    d.label = q.value(6).toString();
    d.url = q.value(7).toString();
    d.state = q.value(8).toString();
    d.attempts = q.value(9).toInt();
    d.nextAttemptAt = q.value(10).toLongLong();
    d.createdAt = q.value(11).toLongLong();
    d.payload = q.value(16).toByteArray();
    return d;
}

QJsonObject deliveryJsonFromRow(const QSqlQuery &q)
{
    const Delivery d = deliveryFromRow(q);
    QJsonObject o = d.toJson();
    o.insert(QStringLiteral("completedAt"), timeOrNull(q.value(12).toLongLong()));
    o.insert(QStringLiteral("lastStatus"),
             q.value(13).isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(q.value(13).toInt()));
    o.insert(QStringLiteral("lastError"), textOrNull(q.value(14)));
    o.insert(QStringLiteral("lastLatencyMs"), q.value(15).isNull()
                                                  ? QJsonValue(QJsonValue::Null)
                                                  : QJsonValue(q.value(15).toDouble()));
    return o;
}

Endpoint endpointFromRow(const QSqlQuery &q)
{
    Endpoint e;
    e.id = q.value(0).toString();
    e.ownerId = q.value(1).toString();
    e.url = q.value(2).toString();
    e.enabled = q.value(3).toString() == QLatin1String("enabled");
    e.disabledReason = q.value(4).toString();
    e.disabledAt = q.value(5).toLongLong();
    e.failingSince = q.value(6).toLongLong();
    e.lastSuccessAt = q.value(7).toLongLong();
    return e;
}

const QString EndpointColumns = QStringLiteral(
    "id, owner_id, url, state, disabled_reason, disabled_at, failing_since, last_success_at");

} // namespace

QJsonObject Delivery::toJson() const
{
    // One list of members: writeJson (the events' text), read back.
    Core::JsonObjectWriter out;
    writeJson(out);
    return QJsonDocument::fromJson(out.finish()).object();
}

void Delivery::writeJson(Core::JsonObjectWriter &out) const
{
    out.add("id", id)
        .add("orderId", subjectId)
        .add("customerId", ownerId)
        .add("endpointId", endpointId)
        .add("url", url)
        .add("orderStatus", label)
        .add("seq", seq)
        .add("state", state)
        .add("attempts", qint64(attempts))
        .add("createdAt", isoTime(createdAt));
    if (state == QLatin1String("pending") && nextAttemptAt > 0)
        out.add("nextAttemptAt", isoTime(nextAttemptAt));
    else
        out.addNull("nextAttemptAt");
}

Core::Migration WebhookStore::migration()
{
    return {
        2,
        QStringLiteral("webhooks: secrets, endpoints, deliveries (outbox), attempts"),
        {QStringLiteral("CREATE TABLE webhook_secrets (owner_id TEXT NOT NULL, secret TEXT NOT "
                        "NULL, created_at INTEGER NOT NULL, expires_at INTEGER, PRIMARY KEY "
                        "(owner_id, created_at))"),
         QStringLiteral("CREATE TABLE webhook_endpoints (id TEXT PRIMARY KEY, owner_id TEXT NOT "
                        "NULL, url TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'enabled', "
                        "disabled_reason TEXT, disabled_at INTEGER, failing_since INTEGER, "
                        "last_success_at INTEGER, created_at INTEGER NOT NULL, UNIQUE "
                        "(owner_id, url))"),
         QStringLiteral("CREATE TABLE webhook_deliveries (id TEXT PRIMARY KEY, endpoint_id TEXT "
                        "NOT NULL REFERENCES webhook_endpoints(id), owner_id TEXT NOT NULL, "
                        "subject_id TEXT NOT NULL, seq INTEGER NOT NULL, event_type TEXT NOT "
                        "NULL, label TEXT NOT NULL, payload BLOB NOT NULL, state TEXT NOT NULL, "
                        "attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER, "
                        "created_at INTEGER NOT NULL, completed_at INTEGER, last_status "
                        "INTEGER, last_error TEXT, last_latency_ms REAL)"),
         QStringLiteral("CREATE INDEX webhook_deliveries_pending ON "
                        "webhook_deliveries(subject_id, seq) WHERE state = 'pending'"),
         QStringLiteral(
             "CREATE INDEX webhook_deliveries_subject ON webhook_deliveries(subject_id, seq)"),
         QStringLiteral(
             "CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id)"),
         QStringLiteral("CREATE TABLE webhook_attempts (delivery_id TEXT NOT NULL, number "
                        "INTEGER NOT NULL, at INTEGER NOT NULL, url TEXT NOT NULL, trigger TEXT "
                        "NOT NULL, request_headers TEXT NOT NULL, status INTEGER, latency_ms "
                        "REAL, response_body BLOB, error TEXT, PRIMARY KEY (delivery_id, "
                        "number)) WITHOUT ROWID")},
        // SQLite's rowid (insertion order: the dispatcher's cursor, newest first) as a column.
        {QStringLiteral("ALTER TABLE webhook_deliveries ADD COLUMN rowid BIGINT GENERATED ALWAYS "
                        "AS IDENTITY UNIQUE")}};
}

Result<Delivery> WebhookStore::enqueue(WriteTransaction &tx, const NewDelivery &n, qint64 now,
                                       EndpointCache *cache)
{
    const QString cacheKey = n.ownerId + QLatin1Char('\n') + n.url;
    EndpointRef endpoint;
    if (cache && cache->contains(cacheKey)) {
        endpoint = cache->value(cacheKey);
    } else {
        const auto find = [&]() -> Result<bool> {
            // Locked on PostgreSQL as the delivery's foreign key will lock it: retention
            // (RedeliveryJobs::pruneStep) on another instance removes an endpoint no delivery
            // refers to, skipping rows so locked; one it locked first is gone once this read
            // returns, and a new endpoint is made below.
            Core::Statement &q =
                tx.isPostgres()
                    ? tx.stmt("SELECT id, state, disabled_reason FROM webhook_endpoints WHERE "
                              "owner_id = ? AND url = ? FOR KEY SHARE")
                    : tx.stmt("SELECT id, state, disabled_reason FROM webhook_endpoints WHERE "
                              "owner_id = ? AND url = ?");
            q.bind(1, n.ownerId).bind(2, n.url);
            if (!q.next())
                return q.ok() ? Result<bool>(false)
                              : WriteTransaction::sqlError(q, "find endpoint");
            endpoint.id = q.text(0);
            endpoint.enabled = q.text(1) == QLatin1String("enabled");
            endpoint.disabledReason = q.text(2);
            return true;
        };
        auto found = find();
        if (!found)
            return found.error();
        if (!*found) {
            // Another instance (PostgreSQL) may add the same endpoint at the same time: its row
            // wins, and is read once it committed.
            const QString id = Crypto::Random::uuidV7(now);
            Core::Statement &ins = tx.stmt(
                "INSERT INTO webhook_endpoints (id, owner_id, url, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (owner_id, url) DO NOTHING");
            if (!ins.bind(1, id).bind(2, n.ownerId).bind(3, n.url).bind(4, now).exec())
                return WriteTransaction::sqlError(ins, "insert endpoint");
            if (ins.changes() == 1) {
                endpoint.id = id;
            } else {
                found = find();
                if (!found)
                    return found.error();
                if (!*found)
                    return Core::makeError(
                        QStringLiteral("database-error"),
                        QStringLiteral("the webhook endpoint %1 vanished").arg(n.url));
            }
        }
        if (cache)
            cache->insert(cacheKey, endpoint);
    }
    const QString endpointId = endpoint.id;
    const bool enabled = endpoint.enabled;
    const QString disabledReason = endpoint.disabledReason;

    Delivery d;
    d.id = QStringLiteral("msg_") + Crypto::Random::uuidV7(now).remove(QLatin1Char('-'));
    d.endpointId = endpointId;
    d.ownerId = n.ownerId;
    d.subjectId = n.subjectId;
    d.seq = n.seq;
    d.eventType = n.eventType;
    d.label = n.label;
    d.url = n.url;
    d.payload = n.payload;
    d.createdAt = now;
    d.nextAttemptAt = now;
    // A disabled endpoint gets no attempts; the delivery is kept, failed, for redelivery.
    d.state = enabled ? QStringLiteral("pending") : QStringLiteral("failed");
    Core::Statement &ins = tx.stmt(
        "INSERT INTO webhook_deliveries (id, endpoint_id, owner_id, subject_id, seq, event_type, "
        "label, payload, state, next_attempt_at, created_at, completed_at, last_error) VALUES "
        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    ins.bind(1, d.id).bind(2, d.endpointId).bind(3, d.ownerId).bind(4, d.subjectId);
    ins.bind(5, d.seq).bind(6, d.eventType).bind(7, d.label).bindBlob(8, d.payload);
    ins.bind(9, d.state).bind(11, now);
    if (enabled) {
        ins.bind(10, now).bindNull(12).bindNull(13);
    } else {
        ins.bindNull(10).bind(12, now).bind(
            13, QStringLiteral("endpoint disabled: %1").arg(disabledReason));
    }
    if (!ins.execLater()) // not waited for (Statement::execLater)
        return WriteTransaction::sqlError(ins, "insert delivery");
    return d;
}

Result<void> WebhookStore::addSecret(WriteTransaction &tx, const Core::Database &database,
                                     const QString &ownerId, const QString &secret, qint64 now)
{
    QSqlQuery &q = tx.query(QStringLiteral(
        "INSERT INTO webhook_secrets (owner_id, secret, created_at) VALUES (?, ?, ?)"));
    q.addBindValue(ownerId);
    q.addBindValue(QString::fromLatin1(database.seal(secret.toUtf8(), secretContext(ownerId))));
    q.addBindValue(now);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "insert secret");
    return {};
}

Result<qint64> WebhookStore::rotateSecret(WriteTransaction &tx, const Core::Database &database,
                                          const QString &ownerId, const QString &secret, qint64 now,
                                          qint64 overlapMs)
{
    const qint64 expires = now + overlapMs;
    QSqlQuery &q =
        tx.query(QStringLiteral("UPDATE webhook_secrets SET expires_at = ? WHERE owner_id = ? AND "
                                "(expires_at IS NULL OR expires_at > ?)"));
    q.addBindValue(expires);
    q.addBindValue(ownerId);
    q.addBindValue(expires);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "expire secrets");
    // Secrets past their overlap are of no use any more.
    QSqlQuery &del = tx.query(QStringLiteral(
        "DELETE FROM webhook_secrets WHERE owner_id = ? AND expires_at IS NOT NULL AND "
        "expires_at <= ?"));
    del.addBindValue(ownerId);
    del.addBindValue(now);
    if (!del.exec())
        return WriteTransaction::sqlError(del, "delete expired secrets");
    // created_at is part of the key: two rotations within one millisecond stay distinct.
    QSqlQuery &last = tx.query(QStringLiteral(
        "SELECT COALESCE(MAX(created_at), 0) FROM webhook_secrets WHERE owner_id = ?"));
    last.addBindValue(ownerId);
    if (!last.exec() || !last.next())
        return WriteTransaction::sqlError(last, "read secrets");
    const qint64 created = std::max(now, last.value(0).toLongLong() + 1);
    last.finish();
    auto r = addSecret(tx, database, ownerId, secret, created);
    if (!r)
        return r.error();
    return expires;
}

Result<void> WebhookStore::recordAttempt(WriteTransaction &tx, const AttemptRecord &a)
{
    Core::Statement &q =
        tx.stmt("INSERT INTO webhook_attempts (delivery_id, number, at, url, trigger, "
                "request_headers, status, latency_ms, response_body, error) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (delivery_id, number) DO UPDATE SET "
                "at = excluded.at, url = excluded.url, trigger = excluded.trigger, "
                "request_headers = excluded.request_headers, status = excluded.status, "
                "latency_ms = excluded.latency_ms, response_body = excluded.response_body, "
                "error = excluded.error");
    q.bind(1, a.deliveryId).bind(2, a.number).bind(3, a.at).bind(4, a.url).bind(5, a.trigger);
    // No request was sent (refused by the URL policy, say): no headers, an empty object.
    q.bindUtf8(6, a.requestHeaders.isEmpty() ? QByteArrayLiteral("{}") : a.requestHeaders);
    if (a.status > 0)
        q.bind(7, a.status);
    else
        q.bindNull(7);
    q.bind(8, a.latencyMs).bindBlob(9, a.responseBody).bindTextOrNull(10, a.error);
    if (!q.execLater())
        return WriteTransaction::sqlError(q, "insert attempt");
    return {};
}

namespace {

// Binds 1..8 of the delivery result statements (the state, the last attempt, the id).
void bindResult(Core::Statement &q, const Delivery &d, int lastStatus, const QString &lastError,
                double lastLatencyMs, qint64 completedAt)
{
    q.bind(1, d.state).bind(2, d.attempts);
    if (d.state == QLatin1String("pending"))
        q.bind(3, d.nextAttemptAt);
    else
        q.bindNull(3);
    if (lastStatus > 0)
        q.bind(4, lastStatus);
    else
        q.bindNull(4);
    q.bindTextOrNull(5, lastError);
    if (lastLatencyMs >= 0)
        q.bind(6, lastLatencyMs);
    else
        q.bindNull(6);
    if (completedAt > 0)
        q.bind(7, completedAt);
    else
        q.bindNull(7);
    q.bind(8, d.id);
}

} // namespace

Result<void> WebhookStore::updateDelivery(WriteTransaction &tx, const Delivery &d, int lastStatus,
                                          const QString &lastError, double lastLatencyMs,
                                          qint64 completedAt)
{
    Core::Statement &q = tx.stmt(
        "UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_at = ?, "
        "last_status = ?, last_error = ?, last_latency_ms = ?, completed_at = ? WHERE id = ?");
    bindResult(q, d, lastStatus, lastError, lastLatencyMs, completedAt);
    if (!q.execLater())
        return WriteTransaction::sqlError(q, "update delivery");
    return {};
}

Result<void> WebhookStore::updateEndpoint(WriteTransaction &tx, const Endpoint &e)
{
    Core::Statement &q =
        tx.stmt("UPDATE webhook_endpoints SET state = ?, disabled_reason = ?, disabled_at = ?, "
                "failing_since = ?, last_success_at = ? WHERE id = ?");
    auto bindTime = [&q](int i, qint64 ms) { ms > 0 ? q.bind(i, ms) : q.bindNull(i); };
    q.bind(1, e.enabled ? QStringLiteral("enabled") : QStringLiteral("disabled"));
    if (e.enabled) {
        q.bindNull(2).bindNull(3);
    } else {
        q.bind(2, e.disabledReason); // a null reason binds NULL
        bindTime(3, e.disabledAt);
    }
    bindTime(4, e.failingSince);
    bindTime(5, e.lastSuccessAt);
    q.bind(6, e.id);
    if (!q.execLater())
        return WriteTransaction::sqlError(q, "update endpoint");
    return {};
}

Result<void> WebhookStore::recordEndpointOutcome(WriteTransaction &tx, const Endpoint &e,
                                                 bool disables)
{
    // Never the state the dispatcher read before: an administrator's change that committed
    // since (another instance's, or this one's not yet reloaded) would be undone by the result
    // of an attempt that was in flight. Its own decision to disable applies only to an
    // endpoint that is still enabled. (Every expression reads the row as it was.)
    Core::Statement &q = tx.stmt(
        "UPDATE webhook_endpoints SET failing_since = ?, last_success_at = ?, "
        "disabled_reason = CASE WHEN ? = 1 AND state = 'enabled' THEN ? ELSE disabled_reason END, "
        "disabled_at = CASE WHEN ? = 1 AND state = 'enabled' THEN ? ELSE disabled_at END, "
        "state = CASE WHEN ? = 1 AND state = 'enabled' THEN 'disabled' ELSE state END WHERE id = "
        "?");
    auto bindTime = [&q](int i, qint64 ms) { ms > 0 ? q.bind(i, ms) : q.bindNull(i); };
    bindTime(1, e.failingSince);
    bindTime(2, e.lastSuccessAt);
    const qint64 flag = disables ? 1 : 0;
    q.bind(3, flag).bind(4, e.disabledReason).bind(5, flag);
    bindTime(6, e.disabledAt);
    q.bind(7, flag).bind(8, e.id);
    if (!q.execLater())
        return WriteTransaction::sqlError(q, "update endpoint");
    return {};
}

Result<Delivery> WebhookStore::markForRedelivery(WriteTransaction &tx, const QString &deliveryId,
                                                 qint64 now)
{
    QSqlQuery &q = tx.query(QStringLiteral("SELECT ") + DeliveryColumns +
                            QStringLiteral(" FROM webhook_deliveries d JOIN webhook_endpoints e ON "
                                           "e.id = d.endpoint_id WHERE d.id = ?"));
    q.addBindValue(deliveryId);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "read delivery");
    if (!q.next())
        return Core::makeError(QStringLiteral("delivery-not-found"),
                               QStringLiteral("no delivery %1").arg(deliveryId), 404);
    Delivery d = deliveryFromRow(q);
    q.finish();
    if (d.state == QLatin1String("pending"))
        return Core::makeError(QStringLiteral("delivery-pending"),
                               QStringLiteral("delivery %1 is still pending; it will be "
                                              "attempted on its schedule")
                                   .arg(deliveryId),
                               409);
    d.state = QStringLiteral("pending");
    d.nextAttemptAt = now;
    d.manual = true;
    QSqlQuery &u = tx.query(QStringLiteral(
        "UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?, completed_at = "
        "NULL WHERE id = ?"));
    u.addBindValue(now);
    u.addBindValue(deliveryId);
    if (!u.exec())
        return WriteTransaction::sqlError(u, "update delivery");
    return d;
}

Result<Endpoint> WebhookStore::setEndpointEnabled(WriteTransaction &tx, const QString &endpointId,
                                                  bool enabled, const QString &reason, qint64 now)
{
    QSqlQuery &q = tx.query(QStringLiteral("SELECT ") + EndpointColumns +
                            QStringLiteral(" FROM webhook_endpoints WHERE id = ?"));
    q.addBindValue(endpointId);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "read endpoint");
    if (!q.next())
        return Core::makeError(QStringLiteral("endpoint-not-found"),
                               QStringLiteral("no endpoint %1").arg(endpointId), 404);
    Endpoint e = endpointFromRow(q);
    q.finish();
    e.enabled = enabled;
    if (enabled) {
        e.disabledReason.clear();
        e.disabledAt = 0;
        e.failingSince = 0;
    } else {
        e.disabledReason = reason;
        e.disabledAt = now;
    }
    auto r = updateEndpoint(tx, e);
    if (!r)
        return r.error();
    return e;
}

Result<void> WebhookStore::sealStoredSecrets(Core::Database &database)
{
    if (!database.seals())
        return {};
    QSqlDatabase db = database.connection();
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT owner_id, created_at, secret FROM webhook_secrets")))
        return Core::makeError(QStringLiteral("database-error"), q.lastError().text());
    struct Plain
    {
        QString ownerId;
        qint64 createdAt;
        QByteArray secret;
    };
    QList<Plain> plain;
    while (q.next()) {
        const QString owner = q.value(0).toString();
        const QByteArray stored = q.value(2).toByteArray();
        auto opened = database.unseal(stored, secretContext(owner));
        if (!opened)
            return Core::makeError(
                QStringLiteral("webhook-secret"),
                QStringLiteral("a webhook secret of customer %1 cannot be read: %2. Start with the "
                               "database key that sealed it (docs/storage.md), or delete the "
                               "customer's rows of webhook_secrets and rotate its secret (its "
                               "receivers then need the new one)")
                    .arg(owner, opened.error().message));
        if (*opened == stored)
            plain.append({owner, q.value(1).toLongLong(), stored});
    }
    q.finish();
    for (const Plain &p : std::as_const(plain)) {
        QSqlQuery seal(db);
        seal.prepare(QStringLiteral(
            "UPDATE webhook_secrets SET secret = ? WHERE owner_id = ? AND created_at = ?"));
        seal.addBindValue(QString::fromLatin1(database.seal(p.secret, secretContext(p.ownerId))));
        seal.addBindValue(p.ownerId);
        seal.addBindValue(p.createdAt);
        if (!seal.exec())
            return Core::makeError(QStringLiteral("database-error"), seal.lastError().text());
    }
    if (!plain.isEmpty())
        qCInfo(lcWebhooks) << "sealed" << plain.size() << "webhook secrets stored in the clear";
    return {};
}

Core::Result<QList<QByteArray>> WebhookStore::activeKeys(Core::Database &database,
                                                         const QString &ownerId, qint64 now,
                                                         qint64 *firstEnd)
{
    QList<QByteArray> keys;
    QList<qint64> expires;
    int unopened = 0;
    const auto secrets = openSecrets(database, ownerId, now, nullptr, &expires, &unopened);
    if (!secrets)
        return secrets.error();
    if (firstEnd)
        *firstEnd = 0;
    for (qsizetype i = 0; i < secrets->size(); ++i) {
        if (auto k = Signer::decodeSecret(secrets->at(i)))
            keys.append(*k);
        else
            ++unopened;
        if (firstEnd && expires[i] > 0 && (*firstEnd == 0 || expires[i] < *firstEnd))
            *firstEnd = expires[i];
    }
    if (keys.isEmpty() && unopened > 0)
        return Core::makeError(QStringLiteral("webhook-secret-unreadable"),
                               QStringLiteral("none of the customer's webhook secrets opens "
                                              "(another database key?)"));
    return keys;
}

QList<Delivery> WebhookStore::pending(const QSqlDatabase &db, qint64 afterRowid, int limit,
                                      qint64 *lastRowid)
{
    QList<Delivery> out;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT ") + DeliveryColumns +
              QStringLiteral(", d.rowid FROM webhook_deliveries d JOIN webhook_endpoints e ON "
                             "e.id = d.endpoint_id WHERE d.state = 'pending' AND d.rowid > ? "
                             "ORDER BY d.rowid LIMIT ?"));
    q.addBindValue(afterRowid);
    q.addBindValue(limit);
    if (!q.exec())
        return out;
    while (q.next()) {
        out.append(deliveryFromRow(q));
        *lastRowid = q.value(17).toLongLong();
    }
    return out;
}

Result<QList<std::pair<qint64, Delivery>>> WebhookStore::pendingOfOwner(const QSqlDatabase &db,
                                                                        const QString &ownerId,
                                                                        qint64 afterRowid,
                                                                        int limit)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT ") + DeliveryColumns +
              QStringLiteral(", d.rowid FROM webhook_deliveries d JOIN webhook_endpoints e ON "
                             "e.id = d.endpoint_id WHERE d.state = 'pending' AND d.owner_id = ? "
                             "AND d.rowid > ? ORDER BY d.rowid LIMIT ?"));
    q.addBindValue(ownerId);
    q.addBindValue(afterRowid);
    q.addBindValue(limit);
    if (!q.exec())
        return Core::makeError(QStringLiteral("database-error"),
                               QStringLiteral("reading a customer's pending deliveries: ") +
                                   q.lastError().text());
    QList<std::pair<qint64, Delivery>> out;
    while (q.next())
        out.append({q.value(17).toLongLong(), deliveryFromRow(q)});
    return out;
}

Core::Migration WebhookStore::ownerPendingMigration()
{
    return {30,
            QStringLiteral("webhooks: a customer's pending deliveries by creation"),
            {QStringLiteral("CREATE INDEX webhook_deliveries_owner_pending ON "
                            "webhook_deliveries(owner_id) WHERE state = 'pending'")}};
}

Core::Result<std::optional<Endpoint>> WebhookStore::endpoint(const QSqlDatabase &db,
                                                             const QString &id)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT ") + EndpointColumns +
              QStringLiteral(" FROM webhook_endpoints WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return Core::Database::readFailed(db, QStringLiteral("reading a webhook endpoint: ") +
                                                  q.lastError().text());
    if (!q.next())
        return std::optional<Endpoint>();
    return std::optional<Endpoint>(endpointFromRow(q));
}

QJsonObject WebhookStore::endpointJson(const QSqlDatabase &db, const Endpoint &e)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "SELECT COUNT(*) FROM webhook_deliveries WHERE endpoint_id = ? AND state = 'pending'"));
    q.addBindValue(e.id);
    qint64 pendingCount = 0;
    if (q.exec() && q.next())
        pendingCount = q.value(0).toLongLong();
    return endpointJson(e, pendingCount);
}

Core::Result<QList<QJsonObject>> WebhookStore::endpointList(const QSqlDatabase &db,
                                                            const EndpointFilter &f)
{
    Core::SqlWhere where;
    where.equalIfSet("owner_id", f.customerId).equalIfSet("state", f.state);
    if (!f.before.isEmpty())
        where.add(u"(created_at, id) < (SELECT created_at, id FROM webhook_endpoints WHERE id = ?)",
                  {f.before});
    QSqlQuery q(db);
    q.setForwardOnly(true);
    QList<QJsonObject> out;
    if (!where.exec(q,
                    QStringLiteral("SELECT ") + EndpointColumns +
                        QStringLiteral(", (SELECT COUNT(*) FROM webhook_deliveries d WHERE "
                                       "d.endpoint_id = webhook_endpoints.id AND d.state = "
                                       "'pending') FROM webhook_endpoints"),
                    u" ORDER BY created_at DESC, id DESC LIMIT ?", {f.limit}))
        return Core::Database::readFailed(db, QStringLiteral("listing webhook endpoints: ") +
                                                  q.lastError().text());
    while (q.next())
        out.append(endpointJson(endpointFromRow(q), q.value(8).toLongLong()));
    return out;
}

QJsonObject WebhookStore::endpointJson(const Endpoint &e, qint64 pendingCount)
{
    return QJsonObject{{QStringLiteral("id"), e.id},
                       {QStringLiteral("customerId"), e.ownerId},
                       {QStringLiteral("url"), e.url},
                       {QStringLiteral("state"),
                        e.enabled ? QStringLiteral("enabled") : QStringLiteral("disabled")},
                       {QStringLiteral("disabledReason"),
                        e.enabled ? QJsonValue(QJsonValue::Null) : QJsonValue(e.disabledReason)},
                       {QStringLiteral("disabledAt"), timeOrNull(e.enabled ? 0 : e.disabledAt)},
                       {QStringLiteral("failingSince"), timeOrNull(e.failingSince)},
                       {QStringLiteral("lastSuccessAt"), timeOrNull(e.lastSuccessAt)},
                       {QStringLiteral("pendingDeliveries"), pendingCount}};
}

QList<QJsonObject> WebhookStore::deliveries(const QSqlDatabase &db, const DeliveryFilter &f)
{
    Core::SqlWhere where;
    where.equalIfSet("d.subject_id", f.subjectId)
        .equalIfSet("d.state", f.state)
        .equalIfSet("d.endpoint_id", f.endpointId);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    QList<QJsonObject> out;
    if (!where.exec(q,
                    QStringLiteral("SELECT ") + DeliveryColumns +
                        QStringLiteral(" FROM webhook_deliveries d JOIN webhook_endpoints e ON "
                                       "e.id = d.endpoint_id"),
                    f.subjectId.isEmpty() ? u" ORDER BY d.rowid DESC LIMIT ?"
                                          : u" ORDER BY d.seq ASC LIMIT ?",
                    {f.limit}))
        return out;
    while (q.next())
        out.append(deliveryJsonFromRow(q));
    return out;
}

std::optional<QJsonObject> WebhookStore::delivery(const QSqlDatabase &db, const QString &id,
                                                  bool withAttempts)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT ") + DeliveryColumns +
              QStringLiteral(" FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = "
                             "d.endpoint_id WHERE d.id = ?"));
    q.addBindValue(id);
    if (!q.exec() || !q.next())
        return std::nullopt;
    QJsonObject o = deliveryJsonFromRow(q);
    o.insert(QStringLiteral("payload"), QString::fromUtf8(q.value(16).toByteArray()));
    if (!withAttempts)
        return o;
    QSqlQuery a(db);
    a.prepare(QStringLiteral("SELECT number, at, url, trigger, request_headers, status, "
                             "latency_ms, response_body, error FROM webhook_attempts WHERE "
                             "delivery_id = ? ORDER BY number"));
    a.addBindValue(id);
    QJsonArray attempts;
    // Stored cut since the dispatcher cuts it; an attempt recorded before still holds the whole
    // signature: cut here too (cutting again changes nothing).
    auto shownHeaders = [](const QByteArray &stored) {
        QJsonObject h = QJsonDocument::fromJson(stored).object();
        const QString sig = QStringLiteral("webhook-signature");
        if (h.contains(sig))
            h.insert(sig, QString::fromUtf8(
                              Signer::redactedSignatureHeader(h.value(sig).toString().toUtf8())));
        return h;
    };
    if (a.exec()) {
        while (a.next()) {
            attempts.append(QJsonObject{
                {QStringLiteral("number"), a.value(0).toInt()},
                {QStringLiteral("at"), isoTime(a.value(1).toLongLong())},
                {QStringLiteral("url"), a.value(2).toString()},
                {QStringLiteral("trigger"), a.value(3).toString()},
                {QStringLiteral("requestHeaders"), shownHeaders(a.value(4).toByteArray())},
                {QStringLiteral("status"), a.value(5).isNull() ? QJsonValue(QJsonValue::Null)
                                                               : QJsonValue(a.value(5).toInt())},
                {QStringLiteral("latencyMs"), a.value(6).toDouble()},
                {QStringLiteral("responseBody"), QString::fromUtf8(a.value(7).toByteArray())},
                {QStringLiteral("error"), textOrNull(a.value(8))}});
        }
    }
    o.insert(QStringLiteral("attemptCount"), o.value(QStringLiteral("attempts")));
    o.insert(QStringLiteral("attempts"), attempts);
    return o;
}

QJsonObject WebhookStore::secretInfo(Core::Database &database, const QString &ownerId, qint64 now)
{
    QList<qint64> created, expires;
    // Shown as none while they cannot be read (the admin answer is informational).
    const auto read = openSecrets(database, ownerId, now, &created, &expires);
    const QList<QString> secrets = read ? *read : QList<QString>();
    QJsonObject info;
    QJsonArray fingerprints;
    qint64 previousExpires = 0;
    for (qsizetype i = 0; i < secrets.size(); ++i) {
        fingerprints.append(Signer::fingerprint(secrets[i]));
        if (i == 0)
            info.insert(QStringLiteral("secretCreatedAt"), isoTime(created[i]));
        else
            previousExpires = std::max(previousExpires, expires[i]);
    }
    info.insert(QStringLiteral("secretFingerprints"), fingerprints);
    info.insert(QStringLiteral("previousSecretExpiresAt"), timeOrNull(previousExpires));
    return info;
}

} // namespace Gatehouse::Webhooks

namespace Gatehouse::Webhooks {

namespace {

QString jsonList(const QStringList &items)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(items)).toJson(QJsonDocument::Compact));
}

Result<QList<WebhookStore::Lease>> leasesOf(QSqlQuery &q)
{
    QList<WebhookStore::Lease> out;
    while (q.next())
        out.append(WebhookStore::Lease{q.value(0).toString(), q.value(1).toLongLong()});
    return out;
}

} // namespace

Core::Migration WebhookStore::leaseMigration()
{
    return {24,
            QStringLiteral("webhooks: leases on subjects, for several instances on one database"),
            {QStringLiteral("CREATE TABLE webhook_leases (subject_id TEXT PRIMARY KEY, holder "
                            "TEXT NOT NULL, fence BIGINT NOT NULL, expires_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX webhook_leases_holder ON webhook_leases(holder)")}};
}

Core::Migration WebhookStore::holderMigration()
{
    // A lease's time is its holder's: renewing is one row, whatever the holder holds (every
    // row was rewritten at every renewal: 60,000 leases, 0.31 s a renewal). The existing
    // leases keep the latest time their holder gave any of them.
    return {35,
            QStringLiteral("webhooks: a lease lasts as long as its holder renews itself"),
            {QStringLiteral("CREATE TABLE webhook_lease_holders (holder TEXT PRIMARY KEY, "
                            "expires_at BIGINT NOT NULL)"),
             QStringLiteral("INSERT INTO webhook_lease_holders (holder, expires_at) SELECT holder, "
                            "MAX(expires_at) FROM webhook_leases GROUP BY holder"),
             QStringLiteral("ALTER TABLE webhook_leases DROP COLUMN expires_at")}};
}

Core::Migration WebhookStore::handOverMigration()
{
    // The holder of the leases an instance handed over when it stopped (releaseAllLeases()):
    // its time has always run out, and it never renews.
    return {36,
            QStringLiteral("webhooks: an instance that stops hands its pending leases over"),
            {QStringLiteral("INSERT INTO webhook_lease_holders (holder, expires_at) VALUES ('', "
                            "0)")}};
}

Core::Migration WebhookStore::changesMigration()
{
    // An endpoint's state (enabled or disabled by an administrator or the failing rule) and a
    // customer's secrets, which every instance's dispatcher keeps in memory.
    return {29,
            QStringLiteral("webhooks: endpoint states and secrets announced to other instances"),
            {},
            {Core::Database::notifyFunction(),
             QStringLiteral("CREATE TRIGGER webhook_endpoints_changed AFTER UPDATE ON "
                            "webhook_endpoints FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM "
                            "NEW.state) EXECUTE FUNCTION gatehouse_notify('id')"),
             QStringLiteral("CREATE TRIGGER webhook_secrets_changed AFTER INSERT OR UPDATE OR "
                            "DELETE ON webhook_secrets FOR EACH ROW EXECUTE FUNCTION "
                            "gatehouse_notify('owner_id')")}};
}

Result<QList<WebhookStore::Lease>> WebhookStore::acquireLeases(Core::Database &database,
                                                               const QStringList &subjects,
                                                               const QString &holder, qint64 now)
{
    if (subjects.isEmpty())
        return QList<Lease>{};
    // Kept by its holder with the same fence; taken from another only once that holder's time
    // ran out (or it has no row), with the next fence. A new row's fence is the time it was
    // taken: a lease given up (its row deleted) and taken again never repeats a fence that
    // results may still carry. Rows are locked in subject order, so that instances taking
    // leases at once do not deadlock. A holder without a row gets one whose time has run out:
    // only renewHolder() gives time (and tells the holder when it had run out).
    // Prepared once per connection (Database::read): the dispatcher takes leases on every
    // turn of its event loop under load.
    const Core::ReadStatement q = database.read(
        "WITH h AS (INSERT INTO webhook_lease_holders (holder, expires_at) VALUES (CAST(? AS "
        "text), 0) ON CONFLICT (holder) DO NOTHING) "
        "INSERT INTO webhook_leases (subject_id, holder, fence) SELECT value, CAST(? AS text), "
        "CAST(? AS bigint) FROM json_array_elements_text(CAST(? AS json)) ORDER BY value ON "
        "CONFLICT (subject_id) DO UPDATE SET "
        "fence = CASE WHEN webhook_leases.holder = excluded.holder THEN webhook_leases.fence "
        "ELSE webhook_leases.fence + 1 END, holder = excluded.holder WHERE "
        "webhook_leases.holder = excluded.holder OR NOT EXISTS (SELECT 1 FROM "
        "webhook_lease_holders o WHERE o.holder = webhook_leases.holder AND o.expires_at >= "
        "CAST(? AS bigint)) RETURNING subject_id, fence");
    q->bind(1, holder).bind(2, holder).bind(3, now).bind(4, jsonList(subjects)).bind(5, now);
    QList<Lease> out;
    while (q->next())
        out.append(Lease{q->text(0), q->int64(1)});
    if (!q->ok())
        return WriteTransaction::sqlError(*q, "acquire leases");
    return out;
}

Result<bool> WebhookStore::renewHolder(const QSqlDatabase &db, const QString &holder, qint64 now,
                                       qint64 expiresAt)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // The time it had (the joined row is read as it was before the update).
    q.prepare(QStringLiteral(
        "UPDATE webhook_lease_holders h SET expires_at = ? FROM webhook_lease_holders o WHERE "
        "h.holder = ? AND o.holder = h.holder RETURNING o.expires_at"));
    q.addBindValue(expiresAt);
    q.addBindValue(holder);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "renew leases");
    if (q.next())
        return q.value(0).toLongLong() >= now;
    // No row: the holder's first renewal (its row is deleted only when it stops).
    QSqlQuery u(db);
    u.prepare(QStringLiteral(
        "INSERT INTO webhook_lease_holders (holder, expires_at) VALUES (?, ?) ON CONFLICT "
        "(holder) DO UPDATE SET expires_at = excluded.expires_at"));
    u.addBindValue(holder);
    u.addBindValue(expiresAt);
    if (!u.exec())
        return WriteTransaction::sqlError(u, "renew leases");
    return false;
}

Result<QList<WebhookStore::Lease>> WebhookStore::heldLeases(const QSqlDatabase &db,
                                                            const QString &holder)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT subject_id, fence FROM webhook_leases WHERE holder = ?"));
    q.addBindValue(holder);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "read leases");
    return leasesOf(q);
}

Result<QStringList> WebhookStore::timelyHolders(const QSqlDatabase &db, qint64 now)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT holder FROM webhook_lease_holders WHERE expires_at >= ?"));
    q.addBindValue(now);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "read the lease holders");
    QStringList holders;
    while (q.next())
        holders.append(q.value(0).toString());
    return holders;
}

Result<void> WebhookStore::endHolder(const QSqlDatabase &db, const QString &holder)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE webhook_lease_holders SET expires_at = 0 WHERE holder = ?"));
    q.addBindValue(holder);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "end a lease holder's time");
    return {};
}

Result<int> WebhookStore::forgetHolders(const QSqlDatabase &db, qint64 expiredBefore)
{
    // A holder that still runs renews its row long before (and makes it again if it is gone:
    // renewHolder()); one whose leases are taken over meanwhile keeps its row until they are.
    QSqlQuery q(db);
    static_assert(std::string_view(kHandedOver).empty()); // the '' below
    q.prepare(QStringLiteral(
        "DELETE FROM webhook_lease_holders h WHERE h.expires_at < ? AND h.holder <> '' AND NOT "
        "EXISTS (SELECT 1 FROM webhook_leases l WHERE l.holder = h.holder)"));
    q.addBindValue(expiredBefore);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "forget lease holders gone");
    return q.numRowsAffected();
}

Result<QList<WebhookStore::Lease>> WebhookStore::claimOrphans(const QSqlDatabase &db,
                                                              const QString &holder, qint64 now,
                                                              qint64 unleasedDueBefore, int limit,
                                                              QString *cursor, int scan)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // Leases whose holder's time ran out, with something due: taken, each by one instance.
    // Found from the holders (every lease's holder has a row: acquireLeases() makes it in the
    // statement that takes the lease; releaseAllLeases() deletes it with the holder's leases,
    // forgetHolders() only when it holds none), so a tick with every holder alive looks at no lease
    // (0.05 ms), and one with a holder gone looks at its leases only, each by its key. Each step is
    // written so that the planner cannot start elsewhere: with statistics from when few deliveries
    // were pending, it read every pending delivery first (14-31 ms a tick with 70,000
    // pending). A lease locked here is taken only if it still has the holder that was gone
    // (checked again on the row locked), never from an instance that took it meanwhile.
    q.prepare(QStringLiteral(
        "UPDATE webhook_leases SET holder = ?, fence = fence + 1 WHERE subject_id = ANY "
        "(ARRAY(WITH gone AS MATERIALIZED (SELECT g.subject_id, g.holder FROM "
        "webhook_lease_holders h CROSS JOIN LATERAL (SELECT l.subject_id, l.holder FROM "
        "webhook_leases l WHERE l.holder = h.holder OFFSET 0) g WHERE h.expires_at < ?) SELECT "
        "l.subject_id FROM gone g JOIN LATERAL (SELECT 1 FROM webhook_deliveries d WHERE "
        "d.subject_id = g.subject_id AND d.state || '' = 'pending' AND d.next_attempt_at <= ? "
        "LIMIT 1) due ON true JOIN webhook_leases l ON l.subject_id = g.subject_id AND l.holder "
        "= g.holder ORDER BY l.subject_id LIMIT ? FOR UPDATE OF l SKIP LOCKED)) RETURNING "
        "subject_id, fence"));
    q.addBindValue(holder);
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(limit);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "claim expired leases");
    auto claimed = leasesOf(q);
    if (!claimed)
        return claimed;
    if (claimed->size() >= limit)
        return claimed;
    // Due for a while and never leased: an instance that died before it took the lease, or
    // stopped with deliveries pending. Looked for among the next `scan` pending deliveries
    // after the cursor, in order of subject: all of them at each tick took a scan of every
    // pending delivery, leased or not (a receiver down for hours: 300,000 pending, 0.33 s a
    // tick on each instance's dispatcher thread, measured in psql). The candidates are the
    // first ones in that order, and are locked in it (no deadlock between instances). Each
    // is looked up in the leases by its key (LIMIT 1 keeps the planner from hashing every
    // lease instead: 60,000 leases, 22 ms a tick).
    QSqlQuery u(db);
    u.setForwardOnly(true);
    u.prepare(QStringLiteral(
        "WITH examined AS MATERIALIZED (SELECT subject_id, next_attempt_at FROM "
        "webhook_deliveries WHERE state = 'pending' AND subject_id > COALESCE(CAST(? AS text), '') "
        "ORDER BY "
        "subject_id, seq LIMIT ?), candidates AS MATERIALIZED (SELECT s.subject_id FROM (SELECT "
        "DISTINCT subject_id FROM examined WHERE next_attempt_at < ?) s LEFT JOIN LATERAL "
        "(SELECT 1 AS held FROM webhook_leases l WHERE l.subject_id = s.subject_id LIMIT 1) h "
        "ON true WHERE h.held IS NULL ORDER BY 1 LIMIT ?), claimed AS (INSERT INTO "
        "webhook_leases (subject_id, holder, fence) SELECT subject_id, CAST(? AS text), CAST(? "
        "AS bigint) FROM candidates ORDER BY subject_id ON CONFLICT (subject_id) DO NOTHING "
        "RETURNING subject_id, fence) SELECT 0, subject_id, fence FROM claimed UNION ALL SELECT "
        "1, MAX(subject_id), COUNT(*) FROM examined UNION ALL SELECT 2, MAX(subject_id), "
        "COUNT(*) FROM candidates"));
    const int wanted = limit - int(claimed->size());
    u.addBindValue(*cursor);
    u.addBindValue(std::max(1, scan));
    u.addBindValue(unleasedDueBefore);
    u.addBindValue(wanted);
    u.addBindValue(holder);
    u.addBindValue(now); // the fence of a new row (acquireLeases)
    if (!u.exec())
        return WriteTransaction::sqlError(u, "claim unleased subjects");
    QString lastExamined;
    qint64 examined = 0;
    QString lastCandidate;
    qint64 candidates = 0;
    while (u.next()) {
        switch (u.value(0).toInt()) {
        case 0:
            claimed->append(Lease{u.value(1).toString(), u.value(2).toLongLong()});
            break;
        case 1:
            lastExamined = u.value(1).toString();
            examined = u.value(2).toLongLong();
            break;
        default:
            lastCandidate = u.value(1).toString();
            candidates = u.value(2).toLongLong();
        }
    }
    // On after the last candidate if there were more than were wanted, else after the last
    // delivery looked at, else (the end) from the start again.
    if (candidates >= wanted)
        *cursor = lastCandidate;
    else if (examined >= std::max(1, scan))
        *cursor = lastExamined;
    else
        cursor->clear();
    return claimed;
}

Result<QList<Delivery>> WebhookStore::pendingOf(const QSqlDatabase &db, const QStringList &subjects)
{
    QList<Delivery> out;
    if (subjects.isEmpty())
        return out;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // Looked up subject by subject in the index of all deliveries, whatever the statistics say:
    // in a burst they lag far behind the table. A subquery with OFFSET 0 is not merged into a
    // join (with no statistics yet, the join's plan scanned the whole table: 41 ms a call);
    // `state || ''` keeps it off the partial indexes of pending deliveries, whose statistics
    // date from when few were pending (it scanned all of them for each subject: 7,000 pending,
    // 43 ms, against 0.8 ms). Planned for each call's values (QSqlQuery prepares it anew): a
    // plan kept from the first calls, made while the table was a page or two, scans it.
    q.prepare(QStringLiteral("SELECT ") + DeliveryColumns +
              QStringLiteral(" FROM json_array_elements_text(CAST(? AS json)) AS k(id) CROSS "
                             "JOIN LATERAL (SELECT * FROM webhook_deliveries WHERE subject_id = "
                             "k.id AND state || '' = 'pending' OFFSET 0) d JOIN "
                             "webhook_endpoints e ON e.id = d.endpoint_id ORDER BY d.subject_id, "
                             "d.seq"));
    q.addBindValue(jsonList(subjects));
    if (!q.exec())
        return WriteTransaction::sqlError(q, "read pending deliveries");
    while (q.next())
        out.append(deliveryFromRow(q));
    return out;
}

Result<bool> WebhookStore::updateDeliveryFenced(WriteTransaction &tx, const Delivery &d,
                                                int lastStatus, const QString &lastError,
                                                double lastLatencyMs, qint64 completedAt,
                                                const QString &holder, qint64 fence)
{
    int changed = -1;
    if (auto r = queueDeliveryFenced(tx, d, lastStatus, lastError, lastLatencyMs, completedAt,
                                     holder, fence, &changed);
        !r)
        return r.error(); // not queued: nothing will write into `changed`
    if (auto r = tx.readQueued(); !r)
        return r.error();
    return changed > 0;
}

Result<void> WebhookStore::queueDeliveryFenced(WriteTransaction &tx, const Delivery &d,
                                               int lastStatus, const QString &lastError,
                                               double lastLatencyMs, qint64 completedAt,
                                               const QString &holder, qint64 fence, int *changed)
{
    Core::Statement &q = tx.stmt(
        "UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_at = ?, "
        "last_status = ?, last_error = ?, last_latency_ms = ?, completed_at = ? WHERE id = ? AND "
        "EXISTS (SELECT 1 FROM webhook_leases WHERE subject_id = ? AND holder = ? AND fence = "
        "?)"); // no row lock: held across the writer's batch, it deadlocked with the leases'
               // takers; a takeover between the check and the commit sends it once more
    bindResult(q, d, lastStatus, lastError, lastLatencyMs, completedAt);
    q.bind(9, d.subjectId).bind(10, holder).bind(11, fence);
    if (!q.execLater(changed))
        return WriteTransaction::sqlError(q, "update delivery");
    return {};
}

Result<QStringList> WebhookStore::releaseIdleLeases(const QSqlDatabase &db,
                                                    const QStringList &subjects,
                                                    const QString &holder)
{
    QStringList released;
    if (subjects.isEmpty())
        return released;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // `state || ''`: not a partial index of pending deliveries. After a burst their
    // statistics (from the last ANALYZE, when few were pending) are far too small, and the
    // planner scanned all of them for each subject: 3,000 idle leases against 7,000 pending
    // deliveries took 4.5 s, and 51 ms through the index of all deliveries by subject.
    // The rows are locked in order first (no deadlock between instances), in a CTE joined
    // with the list; the DELETE then finds each by its key. Written as `IN (subquery)` the
    // planner, misled by the same statistics, compared every lease with every id twice over:
    // 12,000 idle leases took 22.7 s (psql, EXPLAIN ANALYZE), and take 0.19 s this way.
    q.prepare(QStringLiteral(
        "WITH locked AS MATERIALIZED (SELECT l.subject_id FROM (SELECT value AS id FROM "
        "json_array_elements_text(CAST(? AS json)) ORDER BY 1) k JOIN webhook_leases l ON "
        "l.subject_id = k.id WHERE l.holder = ? ORDER BY l.subject_id FOR UPDATE OF l) DELETE "
        "FROM webhook_leases l USING locked k WHERE l.subject_id = k.subject_id AND NOT EXISTS "
        "(SELECT 1 FROM webhook_deliveries d WHERE d.subject_id = l.subject_id AND d.state || "
        "'' = 'pending') RETURNING l.subject_id"));
    q.addBindValue(jsonList(subjects));
    q.addBindValue(holder);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "release leases");
    while (q.next())
        released.append(q.value(0).toString());
    return released;
}

Result<void> WebhookStore::releaseAllLeases(WriteTransaction &tx, const QString &holder)
{
    // A lease with deliveries pending goes to the holder whose time always ran out, with the
    // next fence: another instance takes it over at its next look (claimOrphans(), a third of
    // a lease time), by the holders' rows. Deleted, it waited to be found unleased, which
    // looks only at deliveries due for a lease time, a chunk of them at a tick.
    Core::Statement &p = tx.stmt(
        "UPDATE webhook_leases SET holder = ?, fence = fence + 1 WHERE holder = ? AND EXISTS "
        "(SELECT 1 FROM webhook_deliveries d WHERE d.subject_id = webhook_leases.subject_id AND "
        "d.state || '' = 'pending')"); // `|| ''`: by subject (releaseIdleLeases() says why)
    if (!p.bind(1, QString::fromLatin1(kHandedOver)).bind(2, holder).exec())
        return WriteTransaction::sqlError(p, "hand leases over");
    Core::Statement &q = tx.stmt("DELETE FROM webhook_leases WHERE holder = ?");
    if (!q.bind(1, holder).exec())
        return WriteTransaction::sqlError(q, "release leases");
    Core::Statement &h = tx.stmt("DELETE FROM webhook_lease_holders WHERE holder = ?");
    if (!h.bind(1, holder).exec())
        return WriteTransaction::sqlError(h, "release leases");
    return {};
}

} // namespace Gatehouse::Webhooks
