#include "webhooks/dispatcher.h"
#include "webhooks/webhookslogging.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/jsonwriter.h"
#include "core/writequeue.h"
#include "webhooks/httpclient.h"
#include "webhooks/signer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QUrl>

#include <algorithm>

namespace Gatehouse::Webhooks {

namespace {
constexpr qint64 KeyCacheMs = 5'000;
const QString ManualPrefix = QStringLiteral("manual:");
} // namespace

Dispatcher::Dispatcher(Core::Database &database, Core::WriteQueue &writer, Core::EventBus &events,
                       const Core::Clock &clock, Options options, Core::EventQueue *eventQueue)
    : m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_options(std::move(options)), m_eventQueue(eventQueue), m_retry(m_options.retry),
      m_policy(m_options.urlPolicy)
{
    if (!m_options.trustedOrigin.isEmpty()) {
        const QUrl origin(m_options.trustedOrigin);
        m_trustedHost = origin.host();
        m_trustedPort = origin.port();
    }
    m_thread = std::make_unique<QThread>();
    m_thread->setObjectName(QStringLiteral("webhooks"));
    m_ctx = new QObject;
    m_ctx->moveToThread(m_thread.get());
    QObject::connect(m_thread.get(), &QThread::finished, m_ctx, &QObject::deleteLater);
    m_thread->start();
}

Dispatcher::~Dispatcher()
{
    stop();
}

qint64 Dispatcher::nowMs() const
{
    return m_clock.now().toMSecsSinceEpoch();
}

void Dispatcher::start()
{
    QMetaObject::invokeMethod(
        m_ctx, [this] { doStart(); }, Qt::QueuedConnection);
}

void Dispatcher::stop()
{
    if (!m_thread || !m_thread->isRunning())
        return;
    // In-flight attempts are abandoned: their deliveries stay pending in the database and
    // go out again (same webhook-id) after the next start.
    QMetaObject::invokeMethod(
        m_ctx,
        [this] {
            flushRecords(); // results already known are written; the writer stops after us
            m_stopped = true;
            delete m_client;
            m_client = nullptr;
            delete m_timer;
            m_timer = nullptr;
            m_queues.clear();
            m_timeline.clear();
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void Dispatcher::add(const Delivery &delivery)
{
    add(QList<Delivery>{delivery});
}

void Dispatcher::add(QList<Delivery> deliveries)
{
    if (deliveries.isEmpty())
        return;
    QMetaObject::invokeMethod(
        m_ctx,
        [this, deliveries = std::move(deliveries)] {
            if (m_stopped || !m_client)
                return;
            for (const Delivery &delivery : deliveries) {
                // Manual redeliveries are few and explicit: always taken. Others wait in the
                // database while in overflow, so no order's later status overtakes an earlier
                // one.
                if (!delivery.manual && (m_overflow || m_known.size() >= m_options.maxInMemory)) {
                    m_overflow = true;
                    continue;
                }
                enqueueLocal(delivery);
            }
            pump();
        },
        Qt::QueuedConnection);
}

void Dispatcher::endpointChanged(const Endpoint &endpoint)
{
    QMetaObject::invokeMethod(
        m_ctx, [this, endpoint] { m_endpoints.insert(endpoint.id, endpoint); },
        Qt::QueuedConnection);
}

void Dispatcher::secretsChanged(const QString &ownerId)
{
    QMetaObject::invokeMethod(
        m_ctx, [this, ownerId] { m_keys.remove(ownerId); }, Qt::QueuedConnection);
}

void Dispatcher::doStart()
{
    if (m_stopped || m_client)
        return;
    m_client = new HttpClient(m_ctx);
    // As many kept-alive connections per receiver as attempts may run at once: with fewer,
    // a burst to one receiver closed all but 8 of its connections after each round and
    // opened them again (a TCP handshake per delivery, on both sides).
    m_client->setMaxIdleConnectionsPerTarget(m_retry.settings().maxInFlight);
    m_timer = new QTimer(m_ctx);
    m_timer->setSingleShot(true);
    QObject::connect(m_timer, &QTimer::timeout, m_ctx, [this] { pump(); });
    QSqlDatabase db = m_database.connection();
    for (const Endpoint &e : WebhookStore::endpoints(db))
        m_endpoints.insert(e.id, e);
    reload();
    qCInfo(lcWebhooks) << "dispatcher started;" << m_known.size() << "pending deliveries loaded"
                       << (m_overflow ? "(more wait in the database)" : "");
    pump();
}

void Dispatcher::reload()
{
    // Read forward from the cursor until something new was taken or nothing is left.
    for (;;) {
        const QList<Delivery> pending = WebhookStore::pending(m_database.connection(), m_cursor,
                                                              m_options.maxInMemory, &m_cursor);
        const qsizetype before = m_known.size();
        for (const Delivery &d : pending)
            if (!m_recording.contains(d.id)) // finished; its result is being written
                enqueueLocal(d);
        // Everything pending was read: new deliveries may be taken directly again.
        m_overflow = pending.size() >= m_options.maxInMemory;
        if (!m_overflow || m_known.size() > before)
            return;
    }
}

void Dispatcher::maybeReload()
{
    if (!m_stopped && m_timer && m_overflow && m_known.size() < m_options.maxInMemory / 2 + 1) {
        reload();
        pump();
    }
}

void Dispatcher::enqueueLocal(const Delivery &d)
{
    if (d.state != QLatin1String("pending") || m_known.contains(d.id))
        return;
    m_known.insert(d.id);
    // A manual redelivery is one attempt outside the order's sequence.
    const QString key = d.manual ? ManualPrefix + d.id : d.subjectId;
    Queue &q = m_queues[key];
    const bool wasEmpty = q.items.empty();
    auto pos = std::upper_bound(q.items.begin(), q.items.end(), d.seq,
                                [](qint64 seq, const Delivery &x) { return seq < x.seq; });
    const bool atFront = pos == q.items.begin();
    q.items.insert(pos, d);
    if (wasEmpty || (atFront && !q.inFlight))
        m_timeline.emplace(d.nextAttemptAt, key);
    m_queuedSubjects.store(int(m_queues.size()));
}

void Dispatcher::pump()
{
    if (m_stopped || !m_timer)
        return;
    const qint64 now = nowMs();
    while (!m_timeline.empty() && m_inFlight < m_retry.settings().maxInFlight) {
        auto it = m_timeline.begin();
        if (it->first > now)
            break;
        const QString key = it->second;
        const qint64 due = it->first;
        m_timeline.erase(it);
        auto q = m_queues.find(key);
        if (q == m_queues.end() || q->items.empty() || q->inFlight ||
            q->items.front().nextAttemptAt != due)
            continue; // stale entry
        begin(key);
    }
    if (!m_timeline.empty() && m_inFlight < m_retry.settings().maxInFlight) {
        const qint64 wait = std::max<qint64>(0, m_timeline.begin()->first - now);
        m_timer->start(int(std::min<qint64>(wait, 60'000)));
    }
}

Endpoint &Dispatcher::endpointFor(const QString &id)
{
    auto it = m_endpoints.find(id);
    if (it == m_endpoints.end()) {
        Endpoint e;
        e.id = id;
        if (auto loaded = WebhookStore::endpoint(m_database.connection(), id))
            e = *loaded;
        it = m_endpoints.insert(id, e);
    }
    return *it;
}

QList<QByteArray> Dispatcher::keysFor(const QString &ownerId)
{
    const qint64 now = nowMs();
    auto it = m_keys.find(ownerId);
    if (it == m_keys.end() || now - it->loadedAt > KeyCacheMs) {
        Keys k{WebhookStore::activeKeys(m_database, ownerId, now), now};
        it = m_keys.insert(ownerId, k);
    }
    return it->keys;
}

bool Dispatcher::trusted(const CallbackTarget &t) const
{
    return !m_trustedHost.isEmpty() && !t.tls && t.host == m_trustedHost &&
           int(t.port) == m_trustedPort;
}

void Dispatcher::begin(const QString &key)
{
    Queue &q = m_queues[key];
    q.inFlight = true;
    ++m_inFlight;
    m_inFlightCount.store(m_inFlight);
    Attempt a;
    a.key = key;
    a.delivery = q.items.front();
    a.startedAt = nowMs();
    a.trigger = a.delivery.manual ? QStringLiteral("manual") : QStringLiteral("scheduled");

    const Endpoint &endpoint = endpointFor(a.delivery.endpointId);
    if (!endpoint.enabled) {
        const QString why = QStringLiteral("endpoint disabled: %1").arg(endpoint.disabledReason);
        QMetaObject::invokeMethod(
            m_ctx, [this, a, why] { finish(a, 0, why, -1, {}, std::nullopt, false); },
            Qt::QueuedConnection);
        return;
    }
    auto target = m_policy.parse(a.delivery.url);
    if (!target) {
        const QString why = target.error().message;
        QMetaObject::invokeMethod(
            m_ctx, [this, a, why] { finish(a, 0, why, 0, {}, std::nullopt, true); },
            Qt::QueuedConnection);
        return;
    }
    if (trusted(*target)) {
        send(std::move(a), QHostAddress(target->host), *target);
        return;
    }
    // An IP literal needs no lookup: checked here, at once (the same rules as below).
    if (auto literal = m_policy.checkLiteral(*target)) {
        if (*literal) {
            send(std::move(a), **literal, *target);
            return;
        }
        const QString why = literal->error().message;
        QMetaObject::invokeMethod(
            m_ctx, [this, a, why] { finish(a, 0, why, 0, {}, std::nullopt, true); },
            Qt::QueuedConnection);
        return;
    }
    // Resolved and checked again at every attempt: DNS may have changed since the order
    // was accepted. The connection goes to the address that was checked.
    const CallbackTarget t = *target;
    m_policy.resolve(t, m_ctx, [this, a, t](Core::Result<QHostAddress> address) mutable {
        if (m_stopped)
            return;
        if (!address) {
            finish(a, 0, address.error().message, 0, {}, std::nullopt, true);
            return;
        }
        send(std::move(a), *address, t);
    });
}

void Dispatcher::send(Attempt a, const QHostAddress &address, const CallbackTarget &target)
{
    if (!m_client)
        return;
    const qint64 timestamp = nowMs() / 1000;
    const QByteArray id = a.delivery.id.toLatin1();
    const QByteArray signature =
        Signer::signatureHeader(keysFor(a.delivery.ownerId), id, timestamp, a.delivery.payload);
    OutboundRequest req;
    req.address = address;
    req.port = target.port;
    req.tls = target.tls;
    req.tlsPeerName = target.host;
    req.pathAndQuery = target.pathAndQuery;
    req.hostHeader = target.hostHeader;
    req.body = a.delivery.payload;
    req.timeoutMs = m_retry.settings().timeoutMs;
    req.headers = {{"Content-Type", "application/json"},
                   {"webhook-id", id},
                   {"webhook-timestamp", QByteArray::number(timestamp)},
                   {"webhook-signature", signature}};
    // Serialized here, not on the database writer's thread, which every service shares.
    // (Members in the order QJsonObject kept them, so the stored text is as before.)
    a.requestHeaders = Core::JsonObjectWriter()
                           .add("connected-to", address.toString())
                           .add("content-type", u"application/json")
                           .add("host", QString::fromLatin1(target.hostHeader))
                           .add("webhook-id", QString::fromLatin1(id))
                           .add("webhook-signature", QString::fromLatin1(signature))
                           .add("webhook-timestamp", QString::number(timestamp))
                           .finish();
    m_client->send(std::move(req), [this, a = std::move(a)](const OutboundResponse &resp) mutable {
        if (m_stopped)
            return;
        std::optional<qint64> retryAfter;
        if (resp.status == 429 || resp.status == 503)
            retryAfter = RetryPolicy::parseRetryAfter(resp.header("retry-after"), m_clock.now());
        QString error = resp.error;
        if (error.isEmpty() && !resp.ok()) {
            error = QStringLiteral("answered %1 %2")
                        .arg(resp.status)
                        .arg(QString::fromLatin1(Core::reasonPhrase(resp.status)));
            if (resp.status >= 300 && resp.status < 400)
                error += QStringLiteral(" (redirects are not followed; update the callback URL)");
        }
        finish(a, resp.status, error, resp.latencyMs, resp.body, retryAfter, true);
    });
}

void Dispatcher::finish(const Attempt &a, int status, const QString &error, double latencyMs,
                        const QByteArray &responseBody, std::optional<qint64> retryAfterMs,
                        bool attempted)
{
    const qint64 now = nowMs();
    Delivery d = a.delivery;
    Endpoint &endpoint = endpointFor(d.endpointId);
    const Endpoint endpointBefore = endpoint;
    const bool success = attempted && status >= 200 && status < 300;
    AttemptRecord rec;
    if (attempted) {
        ++d.attempts;
        m_attemptsMade.fetch_add(1);
        rec.deliveryId = d.id;
        rec.number = d.attempts;
        rec.at = a.startedAt;
        rec.url = d.url;
        rec.trigger = a.trigger;
        rec.requestHeaders = a.requestHeaders;
        rec.status = status;
        rec.latencyMs = latencyMs;
        rec.responseBody = responseBody;
        rec.error = error;
    }
    if (success) {
        d.state = QStringLiteral("succeeded");
        m_succeeded.fetch_add(1);
        endpoint.failingSince = 0;
        endpoint.lastSuccessAt = now;
    } else if (!attempted) {
        d.state = QStringLiteral("failed"); // endpoint disabled
    } else if (status == 410) {
        // The receiver says the endpoint is gone for good (Standard Webhooks): stop.
        d.state = QStringLiteral("failed");
        endpoint.enabled = false;
        endpoint.disabledReason = QStringLiteral("the receiver answered 410 Gone");
        endpoint.disabledAt = now;
    } else {
        if (endpoint.failingSince == 0)
            endpoint.failingSince = now;
        std::optional<qint64> delay;
        if (!d.manual) {
            std::uniform_real_distribution<double> uni(0.0, 1.0);
            delay = m_retry.nextDelayMs(d.attempts, retryAfterMs, uni(m_rng));
        }
        if (delay) {
            d.state = QStringLiteral("pending");
            d.nextAttemptAt = now + *delay;
        } else {
            d.state = QStringLiteral("failed");
        }
        if (endpoint.enabled && now - endpoint.failingSince >= m_retry.settings().disableAfterMs) {
            endpoint.enabled = false;
            endpoint.disabledReason = QStringLiteral("failing without a success since %1")
                                          .arg(isoTime(endpoint.failingSince));
            endpoint.disabledAt = now;
        }
    }
    const bool endpointChanged = endpoint.enabled != endpointBefore.enabled ||
                                 endpoint.failingSince != endpointBefore.failingSince ||
                                 endpoint.lastSuccessAt != endpointBefore.lastSuccessAt;
    const Endpoint endpointNow = endpoint;
    const qint64 completedAt = d.state == QLatin1String("pending") ? 0 : now;
    m_recording.insert(d.id);
    m_records.push_back(Record{d, rec, attempted, status, error, latencyMs, completedAt,
                               endpointChanged, endpointNow, endpointBefore.enabled});
    if (!m_flushQueued) {
        // Results are written together, one job per turn of the event loop.
        m_flushQueued = true;
        QMetaObject::invokeMethod(
            m_ctx, [this] { flushRecords(); }, Qt::QueuedConnection);
    }

    auto qit = m_queues.find(a.key);
    if (qit != m_queues.end()) {
        Queue &q = *qit;
        q.inFlight = false;
        // Found by id: an older delivery read back from the database may have been put in
        // front of it while it was in flight.
        auto it = std::find_if(q.items.begin(), q.items.end(),
                               [&d](const Delivery &x) { return x.id == d.id; });
        if (it != q.items.end()) {
            if (d.state == QLatin1String("pending")) {
                *it = d;
            } else {
                m_known.remove(d.id);
                q.items.erase(it);
            }
        }
        if (q.items.empty())
            m_queues.erase(qit);
        else // the next status change of this order may go now (or when its retry is due)
            m_timeline.emplace(q.items.front().nextAttemptAt, a.key);
    }
    m_queuedSubjects.store(int(m_queues.size()));
    --m_inFlight;
    m_inFlightCount.store(m_inFlight);
    maybeReload();
    pump();
}

} // namespace Gatehouse::Webhooks

namespace Gatehouse::Webhooks {

void Dispatcher::flushRecords()
{
    m_flushQueued = false;
    if (m_records.empty())
        return;
    auto records = std::make_shared<std::vector<Record>>(std::move(m_records));
    m_records.clear();
    Core::EventBus *events = &m_events;
    Core::Database *database = &m_database;
    QObject *ctx = m_ctx;
    m_writer.submit(
        [records](Core::WriteTransaction &tx) -> Core::Result<void> {
            for (const Record &r : *records) {
                if (r.attempted) {
                    if (auto ok = WebhookStore::recordAttempt(tx, r.rec); !ok)
                        return ok;
                }
                if (auto ok = WebhookStore::updateDelivery(
                        tx, r.d, r.status, r.error, r.attempted ? r.latencyMs : -1, r.completedAt);
                    !ok)
                    return ok;
                if (r.endpointChanged) {
                    if (auto ok = WebhookStore::updateEndpoint(tx, r.endpointNow); !ok)
                        return ok;
                }
            }
            return {};
        },
        [this, ctx, events, database, records,
         queue = m_eventQueue](const Core::Result<void> &result) {
            QStringList ids;
            ids.reserve(qsizetype(records->size()));
            for (const Record &r : *records)
                ids.append(r.d.id);
            QMetaObject::invokeMethod(
                ctx,
                [this, ids] {
                    for (const QString &id : ids)
                        m_recording.remove(id);
                    maybeReload();
                },
                Qt::QueuedConnection);
            if (!result) {
                qCWarning(lcWebhooks) << "could not record" << records->size()
                                      << "attempts:" << result.error().message;
                return;
            }
            auto publish = [events, database, records] {
                for (const Record &r : *records)
                    publishRecord(*events, *database, r);
            };
            Core::EventQueue::postOrRun(queue, std::move(publish));
        });
}

void Dispatcher::publishRecord(Core::EventBus &events, Core::Database &database, const Record &r)
{
    const Delivery &d = r.d;
    // Written as text: several events per delivery, and filling QJsonObjects was most of the
    // events thread's time under load.
    Core::JsonObjectWriter out;
    out.add("deliveryId", d.id)
        .add("orderId", d.subjectId)
        .add("customerId", d.ownerId)
        .add("orderStatus", d.label)
        .add("number", qint64(r.attempted ? r.rec.number : d.attempts));
    if (r.status > 0)
        out.add("status", qint64(r.status));
    else
        out.addNull("status");
    if (r.attempted)
        out.addDouble("latencyMs", r.latencyMs);
    else
        out.addNull("latencyMs");
    out.addTextOrNull("error", r.error).add("state", d.state).addBool("attempted", r.attempted);
    events.publishJson(QStringLiteral("delivery.attempt"), out.finish());
    if (d.state != QLatin1String("pending")) {
        d.writeJson(out);
        if (r.status > 0)
            out.add("lastStatus", qint64(r.status));
        else
            out.addNull("lastStatus");
        out.addTextOrNull("lastError", r.error).add("completedAt", isoTime(r.completedAt));
        events.publishJson(QStringLiteral("delivery.state"), out.finish());
    }
    if (r.endpointChanged && r.endpointNow.enabled != r.enabledBefore)
        events.publish(QStringLiteral("endpoint.state"),
                       WebhookStore::endpointJson(database.connection(), r.endpointNow));
}

} // namespace Gatehouse::Webhooks
