#include "webhooks/redeliveryjobs.h"
#include "webhooks/webhookslogging.h"

#include "core/clock.h"
#include "core/eventbus.h"
#include "core/postguard.h"
#include "core/writequeue.h"
#include "crypto/random.h"
#include "webhooks/webhookservice.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QPointer>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

namespace Gatehouse::Webhooks {

using Core::Result;
using Core::WriteTransaction;

namespace {

constexpr int kTickMs = 50;

// The filter as SQL over webhook_deliveries d JOIN webhook_endpoints e. Pending deliveries
// are never selected: they are already on their way.
struct Selection
{
    QString where;
    QVariantList binds;
};

Result<Selection> selection(const QJsonObject &filter)
{
    Selection s;
    s.where = QStringLiteral("d.state != 'pending'");
    for (auto it = filter.begin(); it != filter.end(); ++it)
        if (!it.value().isString())
            return Core::makeError(QStringLiteral("invalid-filter"),
                                   QStringLiteral("filter.%1 must be a string").arg(it.key()), 400);
    const QString state = filter.value(QLatin1String("state")).toString(QStringLiteral("failed"));
    if (state == QLatin1String("failed") || state == QLatin1String("succeeded")) {
        s.where += QStringLiteral(" AND d.state = ?");
        s.binds << state;
    } else if (state != QLatin1String("any")) {
        return Core::makeError(QStringLiteral("invalid-filter"),
                               QStringLiteral("filter.state must be failed, succeeded or any "
                                              "(pending deliveries are already on their way)"),
                               400);
    }
    const std::pair<const char *, const char *> columns[] = {
        {"customerId", "d.owner_id"}, {"endpointId", "d.endpoint_id"}, {"orderId", "d.subject_id"}};
    for (const auto &[key, column] : columns) {
        const QString v = filter.value(QLatin1String(key)).toString();
        if (v.isEmpty())
            continue;
        s.where += QStringLiteral(" AND %1 = ?").arg(QLatin1String(column));
        s.binds << v;
    }
    for (const char *key : {"from", "to"}) {
        const QString v = filter.value(QLatin1String(key)).toString();
        if (v.isEmpty())
            continue;
        const QDateTime t = QDateTime::fromString(v, Qt::ISODateWithMs);
        if (!t.isValid())
            return Core::makeError(
                QStringLiteral("invalid-filter"),
                QStringLiteral("filter.%1 must be an ISO 8601 time, e.g. 2026-11-21T10:00:00Z")
                    .arg(QLatin1String(key)),
                400);
        s.where += QLatin1String(key) == QLatin1String("from")
                       ? QStringLiteral(" AND d.created_at >= ?")
                       : QStringLiteral(" AND d.created_at < ?");
        s.binds << t.toMSecsSinceEpoch();
    }
    for (auto it = filter.begin(); it != filter.end(); ++it) {
        static const QStringList known{QStringLiteral("state"),      QStringLiteral("customerId"),
                                       QStringLiteral("endpointId"), QStringLiteral("orderId"),
                                       QStringLiteral("from"),       QStringLiteral("to")};
        if (!known.contains(it.key()))
            return Core::makeError(QStringLiteral("invalid-filter"),
                                   QStringLiteral("unknown filter field '%1' (known: %2)")
                                       .arg(it.key(), known.join(QStringLiteral(", "))),
                                   400);
    }
    return s;
}

QSqlQuery select(const QSqlDatabase &db, const Selection &s, const QString &columns, int limit)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM webhook_deliveries d JOIN webhook_endpoints e ON "
                             "e.id = d.endpoint_id WHERE %2 ORDER BY d.created_at, d.rowid LIMIT ?")
                  .arg(columns, s.where));
    for (const QVariant &b : s.binds)
        q.addBindValue(b);
    q.addBindValue(limit);
    return q;
}

} // namespace

struct RedeliveryJobs::Running
{
    QString id;
    QJsonObject filter;
    double rate = 10;
    QStringList ids;
    int next = 0;   // index of the next delivery to redeliver
    int done = 0;   // redelivered (marked for a new attempt)
    int failed = 0; // refused (e.g. pending again, or removed since)
    int inFlight = 0;
    QString state = QStringLiteral("running");
    qint64 createdAt = 0;
    qint64 startedAt = 0;
    qint64 finishedAt = 0;
    QString actor;
    QString adminToken; // the scoped admin token that started it (empty: root)
    qint64 endsAt = 0;  // when that token expires (0: never)
    QElapsedTimer tokenChecked;
    QString lastError;
    QString instance;     // who runs it (its holder)
    double allowance = 1; // token bucket: the first one goes at once
    QElapsedTimer clock;
    std::unique_ptr<QTimer> timer;
};

RedeliveryJobs::RedeliveryJobs(Core::Database &database, Core::WriteQueue &writer,
                               Core::EventBus &events, const Core::Clock &clock,
                               WebhookService &webhooks, int historyDays, int pruneChunk)
    : m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_webhooks(webhooks), m_historyDays(historyDays), m_pruneChunk(std::max(pruneChunk, 1)),
      m_guard(std::make_shared<Core::PostGuard>(this))
{
    m_pruneTimer.setInterval(3600 * 1000);
    connect(&m_pruneTimer, &QTimer::timeout, this, [this] {
        if (!m_scheduled || m_scheduled())
            prune(nowMs());
    });
}

RedeliveryJobs::~RedeliveryJobs()
{
    m_guard->release();
}

qint64 RedeliveryJobs::nowMs() const
{
    return m_clock.now().toMSecsSinceEpoch();
}

Core::Migration RedeliveryJobs::migration()
{
    return {10,
            QStringLiteral("webhooks: bulk redelivery jobs"),
            {QStringLiteral("CREATE TABLE webhook_redelivery_jobs (id TEXT PRIMARY KEY, created_at "
                            "INTEGER NOT NULL, actor TEXT, filter TEXT NOT NULL, rate REAL NOT "
                            "NULL, delivery_ids TEXT NOT NULL, total INTEGER NOT NULL, next_index "
                            "INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0, failed "
                            "INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL, started_at INTEGER, "
                            "finished_at INTEGER, last_error TEXT)"),
             QStringLiteral("CREATE INDEX webhook_deliveries_completed ON "
                            "webhook_deliveries(completed_at) WHERE state != 'pending'")}};
}

Core::Migration RedeliveryJobs::starterMigration()
{
    return {40,
            QStringLiteral("webhooks: the admin token that started a redelivery job, and its end"),
            {QStringLiteral("ALTER TABLE webhook_redelivery_jobs ADD COLUMN admin_token TEXT"),
             QStringLiteral("ALTER TABLE webhook_redelivery_jobs ADD COLUMN ends_at INTEGER")}};
}

Core::Migration RedeliveryJobs::holderMigration()
{
    return {28,
            QStringLiteral("webhooks: the instance that runs a bulk redelivery job"),
            {QStringLiteral("ALTER TABLE webhook_redelivery_jobs ADD COLUMN holder TEXT")}};
}

void RedeliveryJobs::setInstance(QString id, std::function<std::optional<QSet<QString>>()> alive)
{
    m_instance = std::move(id);
    m_alive = std::move(alive);
}

Result<void> RedeliveryJobs::start()
{
    if (!m_scheduled || m_scheduled())
        prune(nowMs());
    adoptOrphans();
    m_pruneTimer.start();
    return {};
}

void RedeliveryJobs::adoptOrphans()
{
    // Read here (the caller's thread), not on the writer.
    const std::optional<QSet<QString>> read = m_alive ? m_alive() : QSet<QString>();
    if (!read) {
        qCWarning(lcWebhooks) << "the instances alive cannot be read: no redelivery job is "
                                 "taken over now";
        return;
    }
    const QSet<QString> &alive = *read;
    const bool all = !m_alive; // alone: whoever ran them is gone
    QSet<QString> here;
    for (auto it = m_running.cbegin(); it != m_running.cend(); ++it)
        here.insert(it.key());
    const QString me = m_instance;
    auto adopted = std::make_shared<QList<std::shared_ptr<Running>>>();
    const std::weak_ptr<Core::PostGuard> guard = m_guard;
    m_writer.submit(
        [=](WriteTransaction &tx) -> Result<void> {
            QSqlQuery &q = tx.query(QStringLiteral(
                "SELECT id, created_at, actor, filter, rate, delivery_ids, next_index, done, "
                "failed, started_at, COALESCE(holder, ''), COALESCE(admin_token, ''), "
                "COALESCE(ends_at, 0) FROM webhook_redelivery_jobs WHERE state = 'running' "
                "ORDER BY created_at"));
            if (!q.exec())
                return WriteTransaction::sqlError(q, "find running redelivery jobs");
            QList<std::shared_ptr<Running>> orphans;
            while (q.next()) {
                const QString id = q.value(0).toString();
                const QString holder = q.value(10).toString();
                if (here.contains(id) || (!all && (holder == me || alive.contains(holder))))
                    continue;
                auto r = std::make_shared<Running>();
                r->id = id;
                r->createdAt = q.value(1).toLongLong();
                r->actor = q.value(2).toString();
                r->filter = QJsonDocument::fromJson(q.value(3).toByteArray()).object();
                r->rate = q.value(4).toDouble();
                for (const QJsonValue v : QJsonDocument::fromJson(q.value(5).toByteArray()).array())
                    r->ids.append(v.toString());
                r->next = q.value(6).toInt();
                r->done = q.value(7).toInt();
                r->failed = q.value(8).toInt();
                r->startedAt = q.value(9).toLongLong();
                r->adminToken = q.value(11).toString();
                r->endsAt = q.value(12).toLongLong();
                r->instance = holder; // the one it is taken from, until the claim below
                orphans.append(r);
            }
            // Each taken only if still running under the holder read: of two instances taking
            // over at once, one gets it.
            QSqlQuery &claim = tx.query(
                QStringLiteral("UPDATE webhook_redelivery_jobs SET holder = ? WHERE id = ? AND "
                               "state = 'running' AND COALESCE(holder, '') = ?"));
            for (const auto &r : std::as_const(orphans)) {
                claim.addBindValue(me);
                claim.addBindValue(r->id);
                claim.addBindValue(r->instance);
                if (!claim.exec())
                    return WriteTransaction::sqlError(claim, "take over a redelivery job");
                if (claim.numRowsAffected() == 1)
                    adopted->append(r);
            }
            return {};
        },
        [this, guard, adopted, me](const Result<void> &result) {
            if (!result) {
                if (result.error().code != QLatin1String("shutting-down"))
                    qCWarning(lcWebhooks).noquote()
                        << "looking for redelivery jobs to resume failed:"
                        << result.error().message;
                return;
            }
            if (adopted->isEmpty())
                return;
            // Back on the jobs' thread (the runners' timers live there), while this object is.
            Core::PostGuard::post(guard, [this, adopted, me] {
                for (const auto &r : std::as_const(*adopted)) {
                    if (m_running.contains(r->id))
                        continue;
                    qCInfo(lcWebhooks).noquote()
                        << "resuming bulk redelivery" << r->id << "at" << r->next << "of"
                        << r->ids.size()
                        << (r->instance.isEmpty()
                                ? QString()
                                : QStringLiteral("(left by %1)").arg(r->instance));
                    r->instance = me;
                    m_running.insert(r->id, r);
                    run(r->id);
                }
            });
        });
}

Result<QJsonObject> RedeliveryJobs::preview(const QJsonObject &filter, int sample) const
{
    auto s = selection(filter);
    if (!s)
        return s.error();
    const QSqlDatabase db = m_database.connection();
    QSqlQuery count(db);
    count.prepare(QStringLiteral("SELECT count(*) FROM webhook_deliveries d JOIN "
                                 "webhook_endpoints e ON e.id = d.endpoint_id WHERE ") +
                  s->where);
    for (const QVariant &b : s->binds)
        count.addBindValue(b);
    if (!count.exec() || !count.next())
        return Core::makeError(QStringLiteral("database-error"), count.lastError().text(), 500);
    const int matching = count.value(0).toInt();
    QSqlQuery q = select(db, *s,
                         QStringLiteral("d.id, d.subject_id, d.owner_id, d.label, d.state, "
                                        "d.attempts, d.created_at, e.url, d.payload, d.last_error"),
                         sample);
    if (!q.exec())
        return Core::makeError(QStringLiteral("database-error"), q.lastError().text(), 500);
    QJsonArray deliveries;
    while (q.next())
        deliveries.append(
            QJsonObject{{QStringLiteral("id"), q.value(0).toString()},
                        {QStringLiteral("orderId"), q.value(1).toString()},
                        {QStringLiteral("customerId"), q.value(2).toString()},
                        {QStringLiteral("orderStatus"), q.value(3).toString()},
                        {QStringLiteral("state"), q.value(4).toString()},
                        {QStringLiteral("attempts"), q.value(5).toInt()},
                        {QStringLiteral("createdAt"), Core::isoTimeMs(q.value(6).toLongLong())},
                        {QStringLiteral("url"), q.value(7).toString()},
                        {QStringLiteral("payload"), QString::fromUtf8(q.value(8).toByteArray())},
                        {QStringLiteral("lastError"), q.value(9).isNull()
                                                          ? QJsonValue(QJsonValue::Null)
                                                          : QJsonValue(q.value(9).toString())}});
    return QJsonObject{{QStringLiteral("count"), std::min(matching, kMaxDeliveries)},
                       {QStringLiteral("matching"), matching},
                       {QStringLiteral("capped"), matching > kMaxDeliveries},
                       {QStringLiteral("deliveries"), deliveries}};
}

void RedeliveryJobs::create(const QJsonObject &request,
                            std::function<void(Result<QJsonObject>)> done, const Starter &startedBy)
{
    const QJsonValue filterValue = request.value(QLatin1String("filter"));
    if (!filterValue.isUndefined() && !filterValue.isObject())
        return done(Core::makeError(QStringLiteral("invalid-filter"),
                                    QStringLiteral("filter must be an object"), 400));
    const QJsonObject filter = filterValue.toObject();
    const QJsonValue rateValue = request.value(QLatin1String("ratePerSecond"));
    if (!rateValue.isUndefined() &&
        (!rateValue.isDouble() || rateValue.toDouble() < 0.1 || rateValue.toDouble() > 1000))
        return done(Core::makeError(QStringLiteral("invalid-rate"),
                                    QStringLiteral("ratePerSecond must be a number from 0.1 to "
                                                   "1000"),
                                    400));
    auto s = selection(filter);
    if (!s)
        return done(s.error());
    QSqlQuery q = select(m_database.connection(), *s, QStringLiteral("d.id"), kMaxDeliveries);
    if (!q.exec())
        return done(Core::makeError(QStringLiteral("database-error"), q.lastError().text(), 500));
    auto r = std::make_shared<Running>();
    while (q.next())
        r->ids.append(q.value(0).toString());
    if (r->ids.isEmpty())
        return done(Core::makeError(QStringLiteral("nothing-to-redeliver"),
                                    QStringLiteral("no finished delivery matches the filter"),
                                    422));
    r->id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    r->filter = filter;
    r->rate = rateValue.isUndefined() ? 10.0 : rateValue.toDouble();
    // A label for people (who started it is the audit log's actor): printable, 100 at most.
    QString actor = request.value(QLatin1String("actor")).toString(QStringLiteral("admin-api"));
    actor.removeIf([](QChar c) { return !c.isPrint(); });
    r->actor = actor.trimmed().left(100);
    if (r->actor.isEmpty())
        r->actor = QStringLiteral("admin-api");
    r->createdAt = nowMs();
    r->startedAt = r->createdAt;
    r->instance = m_instance;
    r->adminToken = startedBy.tokenId;
    r->endsAt = startedBy.endsAt;
    const QByteArray ids =
        QJsonDocument(QJsonArray::fromStringList(r->ids)).toJson(QJsonDocument::Compact);
    const QByteArray filterJson = QJsonDocument(filter).toJson(QJsonDocument::Compact);
    QPointer<RedeliveryJobs> self(this);
    // At the start of its transaction: it waits for a turn other instances take too.
    m_writer.submitAtStart(
        [r, ids, filterJson](WriteTransaction &tx) -> Result<void> {
            // Counted in the writing transaction, in the fleet's turn (several instances on
            // PostgreSQL): two requests at once cannot both pass it.
            if (auto turn = tx.takeTurn(7418235100420, "wait for the redelivery jobs' turn"); !turn)
                return turn;
            Core::Statement &running =
                tx.stmt("SELECT count(*) FROM webhook_redelivery_jobs WHERE state = 'running'");
            if (!running.next())
                return WriteTransaction::sqlError(running, "count redelivery jobs");
            if (running.int64(0) >= kMaxRunning)
                return Core::makeError(
                    QStringLiteral("too-many-redelivery-jobs"),
                    QStringLiteral("%1 redelivery jobs are running (at most %2): wait for one to "
                                   "finish, or cancel one")
                        .arg(running.int64(0))
                        .arg(kMaxRunning),
                    409);
            QSqlQuery &i = tx.query(QStringLiteral(
                "INSERT INTO webhook_redelivery_jobs (id, created_at, actor, filter, rate, "
                "delivery_ids, total, state, started_at, holder, admin_token, ends_at) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)"));
            i.addBindValue(r->id);
            i.addBindValue(r->createdAt);
            i.addBindValue(r->actor);
            i.addBindValue(QString::fromUtf8(filterJson));
            i.addBindValue(r->rate);
            i.addBindValue(QString::fromUtf8(ids));
            i.addBindValue(int(r->ids.size()));
            i.addBindValue(r->startedAt);
            i.addBindValue(r->instance);
            i.addBindValue(r->adminToken.isEmpty() ? QVariant(QMetaType::fromType<QString>())
                                                   : QVariant(r->adminToken));
            i.addBindValue(r->endsAt > 0 ? QVariant(r->endsAt)
                                         : QVariant(QMetaType::fromType<qint64>()));
            if (!i.exec())
                return WriteTransaction::sqlError(i, "insert redelivery job");
            return {};
        },
        [self, r, done = std::move(done)](const Result<void> &result) {
            // Back on the jobs' thread: the runner's timers live there.
            QMetaObject::invokeMethod(
                self ? static_cast<QObject *>(self.data()) : QCoreApplication::instance(),
                [self, r, done, result] {
                    if (!result)
                        return done(result.error());
                    if (!self)
                        return done(Core::makeError(QStringLiteral("shutting-down"),
                                                    QStringLiteral("the server is stopping"), 503));
                    self->m_running.insert(r->id, r);
                    self->m_events.publish(QStringLiteral("redelivery.progress"),
                                           self->jobJson(*r));
                    self->run(r->id);
                    done(self->jobJson(*r));
                },
                Qt::QueuedConnection);
        });
}

void RedeliveryJobs::run(const QString &id)
{
    const auto r = m_running.value(id);
    if (!r)
        return;
    r->clock.start();
    r->timer = std::make_unique<QTimer>();
    r->timer->setInterval(kTickMs);
    connect(r->timer.get(), &QTimer::timeout, this, [this, id] { tick(id); });
    r->timer->start();
    tick(id);
}

void RedeliveryJobs::tick(const QString &id)
{
    const auto r = m_running.value(id);
    if (!r || r->state != QLatin1String("running"))
        return;
    // It ends with the admin token that started it: expired, or revoked (gone; looked up once
    // a second). Before, a job of an `orders:write` token that expired in a minute sent its
    // 10,000 redeliveries for a day after.
    const bool expired = r->endsAt > 0 && nowMs() >= r->endsAt;
    bool revoked = false;
    if (!expired && !r->adminToken.isEmpty() && m_tokenAlive &&
        (!r->tokenChecked.isValid() || r->tokenChecked.hasExpired(1000))) {
        r->tokenChecked.start();
        revoked = !m_tokenAlive(r->adminToken);
    }
    if (expired || revoked) {
        r->lastError = expired ? QStringLiteral("the admin token that started it has expired")
                               : QStringLiteral("the admin token that started it was revoked");
        finish(id, QStringLiteral("cancelled"));
        return;
    }
    // Token bucket: `rate` a second, at most one tick's worth of burst.
    const double elapsed = double(r->clock.restart()) / 1000.0;
    r->allowance =
        std::min(r->allowance + elapsed * r->rate, std::max(1.0, r->rate * kTickMs / 1000.0));
    int sent = 0;
    while (r->allowance >= 1.0 && r->next < r->ids.size()) {
        r->allowance -= 1.0;
        const QString deliveryId = r->ids[r->next++];
        ++r->inFlight;
        ++sent;
        QPointer<RedeliveryJobs> self(this);
        // Counted in the transaction that marks the delivery: the writer runs jobs in order, so
        // whatever this job's stored progress says was sent was marked, and counted, before it
        // (a crash loses no count; the in-memory count below only follows).
        const auto countDone = [id](WriteTransaction &tx) -> Result<void> {
            QSqlQuery &q = tx.query(
                QStringLiteral("UPDATE webhook_redelivery_jobs SET done = done + 1 WHERE id = ?"));
            q.addBindValue(id);
            if (!q.exec())
                return WriteTransaction::sqlError(q, "count a redelivery");
            return {};
        };
        m_webhooks.redeliver(
            deliveryId,
            [self, id](const Result<Delivery> &result) {
                const bool ok = bool(result);
                const QString why = ok ? QString() : result.error().message;
                QMetaObject::invokeMethod(
                    self ? static_cast<QObject *>(self.data()) : QCoreApplication::instance(),
                    [self, id, ok, why] {
                        if (!self)
                            return;
                        const auto r = self->m_running.value(id);
                        if (!r)
                            return;
                        --r->inFlight;
                        if (ok) {
                            ++r->done;
                        } else {
                            ++r->failed;
                            r->lastError = why;
                        }
                        if (r->inFlight > 0)
                            return;
                        if (r->state == QLatin1String("running") && r->next >= r->ids.size()) {
                            self->finish(id, QStringLiteral("completed"));
                        } else if (r->state != QLatin1String("running")) {
                            // Cancelled while these were in flight: record the final counts.
                            self->persist(*r);
                            self->m_running.remove(id);
                        }
                    },
                    Qt::QueuedConnection);
            },
            countDone);
    }
    if (sent > 0) {
        persist(*r);
        m_events.publish(QStringLiteral("redelivery.progress"), jobJson(*r));
    }
}

void RedeliveryJobs::persist(const Running &r, std::function<void()> after)
{
    const QString id = r.id;
    const int next = r.next;
    const int done = r.done;
    const int failed = r.failed;
    const QString state = r.state;
    const qint64 finishedAt = r.finishedAt;
    const QString lastError = r.lastError;
    const QString instance = r.instance;
    auto lost = std::make_shared<bool>(false);
    const std::weak_ptr<Core::PostGuard> guard = m_guard;
    m_writer.submit(
        [=](WriteTransaction &tx) -> Result<void> {
            // Only while it is still this instance's and running (or already in the state
            // written: a cancelled job's last counts); else it was cancelled on another
            // instance, or taken over, and stops here.
            QSqlQuery &u = tx.query(QStringLiteral(
                "UPDATE webhook_redelivery_jobs SET next_index = ?, done = CASE WHEN done > ? "
                "THEN done ELSE ? END, failed = ?, state = "
                "?, finished_at = ?, last_error = ? WHERE id = ? AND COALESCE(holder, '') = ? AND "
                "state IN ('running', ?)"));
            u.addBindValue(next);
            // Never below what the marking transactions counted (they may be ahead of the
            // in-memory count this was taken from).
            u.addBindValue(done);
            u.addBindValue(done);
            u.addBindValue(failed);
            u.addBindValue(state);
            u.addBindValue(finishedAt > 0 ? QVariant(finishedAt)
                                          : QVariant(QMetaType::fromType<qint64>()));
            u.addBindValue(lastError.isEmpty() ? QVariant(QMetaType::fromType<QString>())
                                               : QVariant(lastError));
            u.addBindValue(id);
            u.addBindValue(instance);
            u.addBindValue(state);
            if (!u.exec())
                return WriteTransaction::sqlError(u, "update redelivery job");
            *lost = u.numRowsAffected() == 0;
            return {};
        },
        [this, guard, id, lost, after = std::move(after)](const Result<void> &result) {
            if (result && *lost)
                Core::PostGuard::post(guard, [this, id] { stoppedElsewhere(id); });
            if (after)
                after();
        });
}

void RedeliveryJobs::stoppedElsewhere(const QString &id)
{
    const auto r = m_running.value(id);
    if (!r)
        return;
    if (r->timer)
        r->timer->stop();
    r->state = QStringLiteral("stopped");
    m_running.remove(id);
    qCInfo(lcWebhooks).noquote() << "bulk redelivery" << id
                                 << "was cancelled or taken over by another instance; stopped here";
}

void RedeliveryJobs::finish(const QString &id, const QString &state)
{
    const auto r = m_running.value(id);
    if (!r)
        return;
    r->state = state;
    r->finishedAt = nowMs();
    if (r->timer)
        r->timer->stop();
    persist(*r);
    m_events.publish(QStringLiteral("redelivery.progress"), jobJson(*r));
    // Cancelled jobs keep their redeliveries in flight counted; the record stays in history.
    if (r->inFlight == 0)
        m_running.remove(id);
}

void RedeliveryJobs::cancel(const QString &id, const std::function<void(Result<QJsonObject>)> &done)
{
    const auto existing = job(id);
    if (!existing)
        return done(Core::makeError(QStringLiteral("job-not-found"),
                                    QStringLiteral("no redelivery job %1").arg(id), 404));
    if (existing->value(QLatin1String("state")).toString() != QLatin1String("running"))
        return done(
            Core::makeError(QStringLiteral("job-finished"),
                            QStringLiteral("redelivery job %1 is already %2")
                                .arg(id, existing->value(QLatin1String("state")).toString()),
                            409));
    // Cancelled in the database first, wherever it runs (here, or on another instance, which
    // finds it there at its next write of progress, or one that took it over meanwhile);
    // then stopped here if it runs here.
    const qint64 now = nowMs();
    auto cancelled = std::make_shared<bool>(false);
    const std::weak_ptr<Core::PostGuard> guard = m_guard;
    m_writer.submit(
        [id, now, cancelled](WriteTransaction &tx) -> Result<void> {
            QSqlQuery &u =
                tx.query(QStringLiteral("UPDATE webhook_redelivery_jobs SET state = 'cancelled', "
                                        "finished_at = ? WHERE id = ? AND state = 'running'"));
            u.addBindValue(now);
            u.addBindValue(id);
            if (!u.exec())
                return WriteTransaction::sqlError(u, "cancel redelivery job");
            *cancelled = u.numRowsAffected() == 1;
            return {};
        },
        [this, guard, id, cancelled, done](const Result<void> &result) {
            if (!result && result.error().code == QLatin1String("shutting-down"))
                return done(result.error());
            Core::PostGuard::post(guard, [this, id, cancelled, done, result] {
                if (!result)
                    return done(result.error());
                if (!*cancelled) { // it ended meanwhile: answered as it ended
                    const auto now = job(id);
                    return done(Core::makeError(
                        QStringLiteral("job-finished"),
                        QStringLiteral("redelivery job %1 is already %2")
                            .arg(id, now ? now->value(QLatin1String("state")).toString()
                                         : QStringLiteral("gone")),
                        409));
                }
                if (const auto r = m_running.value(id); r && r->state == QLatin1String("running")) {
                    finish(id, QStringLiteral("cancelled")); // its last counts, and the event
                    return done(jobJson(*r));
                }
                const auto now = job(id);
                if (!now)
                    return done(Core::makeError(QStringLiteral("job-not-found"),
                                                QStringLiteral("no redelivery job %1").arg(id),
                                                404));
                m_events.publish(QStringLiteral("redelivery.progress"), *now);
                done(*now);
            });
        });
}

QJsonObject RedeliveryJobs::jobJson(const Running &r) const
{
    QJsonObject o{{QStringLiteral("id"), r.id},
                  {QStringLiteral("state"), r.state},
                  {QStringLiteral("filter"), r.filter},
                  {QStringLiteral("ratePerSecond"), r.rate},
                  {QStringLiteral("total"), int(r.ids.size())},
                  {QStringLiteral("sent"), r.next},
                  {QStringLiteral("done"), r.done},
                  {QStringLiteral("failed"), r.failed},
                  {QStringLiteral("actor"), r.actor},
                  {QStringLiteral("createdAt"), Core::isoTimeMs(r.createdAt)}};
    o.insert(QStringLiteral("finishedAt"), r.finishedAt > 0
                                               ? QJsonValue(Core::isoTimeMs(r.finishedAt))
                                               : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("lastError"),
             r.lastError.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.lastError));
    // The instance that runs (or ran) it; null for a job from before instances were recorded.
    o.insert(QStringLiteral("instance"),
             r.instance.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.instance));
    return o;
}

QJsonArray RedeliveryJobs::list(int limit) const
{
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT id FROM webhook_redelivery_jobs ORDER BY created_at DESC, "
                             "id LIMIT ?"));
    q.addBindValue(limit);
    QJsonArray out;
    if (!q.exec())
        return out;
    QStringList ids;
    while (q.next())
        ids.append(q.value(0).toString());
    for (const QString &id : std::as_const(ids))
        if (const auto j = job(id))
            out.append(*j);
    return out;
}

std::optional<QJsonObject> RedeliveryJobs::job(const QString &id) const
{
    // A running job's counters are ahead of its row.
    if (const auto r = m_running.value(id))
        return jobJson(*r);
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT id, created_at, actor, filter, rate, total, next_index, done, "
                             "failed, state, finished_at, last_error, holder FROM "
                             "webhook_redelivery_jobs WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec() || !q.next())
        return std::nullopt;
    Running r;
    r.id = q.value(0).toString();
    r.createdAt = q.value(1).toLongLong();
    r.actor = q.value(2).toString();
    r.filter = QJsonDocument::fromJson(q.value(3).toByteArray()).object();
    r.rate = q.value(4).toDouble();
    QJsonObject o;
    r.next = q.value(6).toInt();
    r.done = q.value(7).toInt();
    r.failed = q.value(8).toInt();
    r.state = q.value(9).toString();
    r.finishedAt = q.value(10).toLongLong();
    r.lastError = q.value(11).toString();
    r.instance = q.value(12).toString();
    o = jobJson(r);
    o.insert(QStringLiteral("total"), q.value(5).toInt());
    return o;
}

struct RedeliveryJobs::PrunePass
{
    qint64 before = 0; // completed before this (ms since the epoch)
    int removed = 0;
    int endpointsRemoved = 0;
    bool deliveriesDone = false; // the pass is on to the endpoints
    // The endpoints are looked at in primary key order, `chunk` of them per writer job: the
    // last one looked at (not null: every id is greater than it).
    QString endpointCursor = QStringLiteral("");
    std::vector<PruneDone> done;
};

void RedeliveryJobs::prune(qint64 now, PruneDone done)
{
    if (m_historyDays <= 0) {
        if (done)
            done(0);
        return;
    }
    if (m_prune) { // joins the pass running
        if (done)
            m_prune->done.push_back(std::move(done));
        return;
    }
    m_prune = std::make_unique<PrunePass>();
    m_prune->before = now - qint64(m_historyDays) * 24 * 3600 * 1000;
    if (done)
        m_prune->done.push_back(std::move(done));
    pruneStep();
}

void RedeliveryJobs::pruneStep()
{
    struct Chunk
    {
        int removed = 0;
        int endpointsRemoved = 0;
        bool deliveriesDone = false;
        QString endpointCursor;
        bool last = false; // nothing more to delete
    };
    auto chunk = std::make_shared<Chunk>();
    chunk->deliveriesDone = m_prune->deliveriesDone;
    chunk->endpointCursor = m_prune->endpointCursor;
    const qint64 before = m_prune->before;
    const int limit = m_pruneChunk;
    auto work = [chunk, before, limit](WriteTransaction &tx) -> Result<void> {
        if (!chunk->deliveriesDone) {
            // Oldest first, through the index of finished deliveries (completed_at).
            Core::Statement &read = tx.stmt("SELECT id FROM webhook_deliveries WHERE state != "
                                            "'pending' AND completed_at < ? ORDER BY "
                                            "completed_at LIMIT ?");
            read.bind(1, before).bind(2, limit);
            QStringList ids;
            while (read.next())
                ids.append(read.text(0));
            if (!read.ok())
                return WriteTransaction::sqlError(read, "prune deliveries");
            for (const QString &id : std::as_const(ids)) {
                Core::Statement &a = tx.stmt("DELETE FROM webhook_attempts WHERE delivery_id = ?");
                if (!a.bind(1, id).exec())
                    return WriteTransaction::sqlError(a, "prune attempts");
                Core::Statement &d = tx.stmt("DELETE FROM webhook_deliveries WHERE id = ?");
                if (!d.bind(1, id).exec())
                    return WriteTransaction::sqlError(d, "prune deliveries");
            }
            chunk->removed = int(ids.size());
            if (chunk->removed == limit)
                return {};
            chunk->deliveriesDone = true;
        }
        // Then the endpoints no delivery refers to any more, made before the window: every
        // callback URL an order names is an endpoint, and without this they would pile up for
        // as long as the database lives. Kept: a disabled endpoint (an administrator's or the
        // dispatcher's decision, which a new order to the same URL must still meet) and a
        // failing one (its failure clock). A new order to a removed URL makes it again.
        // `limit` endpoints per job, after the cursor in primary key order: a job looks at no
        // more rows than that however many endpoints are kept (a job that searched the table
        // for `limit` removable ones read every kept one before them, each time).
        Core::Statement &window = tx.stmt("SELECT MAX(id), COUNT(*) FROM (SELECT id FROM "
                                          "webhook_endpoints WHERE id > ? ORDER BY id LIMIT ?) w");
        window.bind(1, chunk->endpointCursor).bind(2, limit);
        if (!window.next())
            return WriteTransaction::sqlError(window, "prune endpoints");
        const qint64 looked = window.int64(1);
        const QString last = window.text(0);
        if (looked > 0) {
            // On PostgreSQL an endpoint another instance's enqueue has just read (it locks the
            // row, WebhookStore::enqueue) is skipped: its delivery is on the way.
            Core::Statement &e =
                tx.isPostgres()
                    ? tx.stmt("DELETE FROM webhook_endpoints WHERE id IN (SELECT e.id FROM "
                              "webhook_endpoints e WHERE e.id > ? AND e.id <= ? AND e.state = "
                              "'enabled' AND e.failing_since IS NULL AND e.created_at < ? AND "
                              "NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE "
                              "d.endpoint_id = e.id) FOR UPDATE SKIP LOCKED)")
                    : tx.stmt("DELETE FROM webhook_endpoints WHERE id IN (SELECT e.id FROM "
                              "webhook_endpoints e WHERE e.id > ? AND e.id <= ? AND e.state = "
                              "'enabled' AND e.failing_since IS NULL AND e.created_at < ? AND "
                              "NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE "
                              "d.endpoint_id = e.id))");
            if (!e.bind(1, chunk->endpointCursor).bind(2, last).bind(3, before).exec())
                return WriteTransaction::sqlError(e, "prune endpoints");
            chunk->endpointsRemoved = e.changes();
            chunk->endpointCursor = last;
        }
        chunk->last = looked < limit;
        if (chunk->last) {
            Core::Statement &j = tx.stmt("DELETE FROM webhook_redelivery_jobs WHERE state != "
                                         "'running' AND finished_at < ?");
            if (!j.bind(1, before).exec())
                return WriteTransaction::sqlError(j, "prune redelivery jobs");
        }
        return {};
    };
    // The writer's `done` runs on its thread, possibly after this object is gone.
    m_writer.submit(std::move(work),
                    [this, guard = std::weak_ptr(m_guard), chunk](const Result<void> &r) {
                        Core::PostGuard::post(guard, [this, chunk, r] {
                            if (m_prune && r) {
                                m_prune->endpointsRemoved += chunk->endpointsRemoved;
                                m_prune->deliveriesDone = chunk->deliveriesDone;
                                m_prune->endpointCursor = chunk->endpointCursor;
                            }
                            pruneChunkDone(chunk->removed, chunk->last, r);
                        });
                    });
}

void RedeliveryJobs::pruneChunkDone(int removed, bool last, const Result<void> &r)
{
    if (!m_prune)
        return;
    if (!r)
        return finishPrune(r.error());
    m_prune->removed += removed;
    if (last)
        return finishPrune(m_prune->removed);
    pruneStep();
}

void RedeliveryJobs::finishPrune(const Result<int> &r)
{
    const std::unique_ptr<PrunePass> pass = std::move(m_prune);
    if (!r)
        qCWarning(lcWebhooks) << "pruning delivery history failed:" << r.error().message;
    else if (*r > 0 || pass->endpointsRemoved > 0)
        qCInfo(lcWebhooks) << "pruned" << *r << "deliveries older than" << m_historyDays
                           << "days and" << pass->endpointsRemoved
                           << "endpoints no delivery refers to";
    for (const PruneDone &done : pass->done)
        done(r);
}

} // namespace Gatehouse::Webhooks
