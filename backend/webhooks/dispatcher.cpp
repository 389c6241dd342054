#include "webhooks/dispatcher.h"
#include "webhooks/webhookslogging.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/instances.h"
#include "core/jsonwriter.h"
#include "core/postguard.h"
#include "core/resolver.h"
#include "core/threadstate.h"
#include "core/writequeue.h"
#include "webhooks/demoreceiver.h"
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
// What is left of a lease's time when this instance stops starting attempts under it: the
// renewal was sent before this (its round trip), and clocks of instances differ a little.
qint64 validFor(qint64 ttlMs)
{
    return ttlMs - ttlMs / 5;
}
} // namespace

Dispatcher::Dispatcher(Core::Database &database, Core::WriteQueue &writer, Core::EventBus &events,
                       const Core::Clock &clock, Options options, Core::EventQueue *eventQueue)
    : m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_options(std::move(options)), m_eventQueue(eventQueue), m_retry(m_options.retry),
      m_policy(m_options.urlPolicy)
{
    if (!m_options.trustedOrigin.isEmpty())
        m_trustedOrigin = QUrl(m_options.trustedOrigin);
    m_thread = std::make_unique<QThread>();
    m_thread->setObjectName(QStringLiteral("webhooks"));
    m_ctx = new QObject;
    m_guard = std::make_shared<Core::PostGuard>(m_ctx);
    m_ctx->moveToThread(m_thread.get());
    Core::ThreadState::deleteThenReleaseAtFinish(*m_thread, m_ctx); // TLS, message ids
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
            if (leasing() && m_client) {
                // After those results: other instances take this one's subjects at once.
                m_writer.submit([holder = m_options.leaseHolder](Core::WriteTransaction &tx) {
                    return WebhookStore::releaseAllLeases(tx, holder);
                });
            }
            m_stopped = true;
            delete m_client;
            m_client = nullptr;
            delete m_timer;
            m_timer = nullptr;
            delete m_leaseTimer;
            m_leaseTimer = nullptr;
            m_queues.clear();
            m_timeline.clear();
            m_ownerInFlight.clear();
            m_ownerWaiting.clear();
            m_ownerLookups.clear();
            m_known.clear();
            m_knownOf.clear();
            m_ownerOverflow.clear();
            m_leases.clear();
            m_wanted.clear();
            m_manualOf.clear();
            m_lastSeq.clear();
            m_gaps.clear();
        },
        Qt::BlockingQueuedConnection);
    m_guard->release(); // the writer's answers from now on are dropped
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
                if (!m_known.contains(delivery.id) && leftForOwnerRead(delivery))
                    continue;
                // Leased here, and a seq skipped: another instance added the deliveries
                // between, and they go first.
                if (leasing() && !delivery.manual && m_leases.contains(delivery.subjectId) &&
                    delivery.seq > m_lastSeq.value(delivery.subjectId) + 1)
                    m_gaps.insert(delivery.subjectId);
                enqueueLocal(delivery);
            }
            pump();
        },
        Qt::QueuedConnection);
}

void Dispatcher::endpointChanged(const Endpoint &endpoint)
{
    QMetaObject::invokeMethod(
        m_ctx,
        [this, endpoint] {
            // Committed: one not held here is read when it is next needed.
            if (auto it = m_endpoints.find(endpoint.id); it != m_endpoints.end())
                *it = endpoint;
        },
        Qt::QueuedConnection);
}

void Dispatcher::endpointChangedElsewhere(const QString &endpointId)
{
    QMetaObject::invokeMethod(
        m_ctx,
        [this, endpointId] {
            // Read again when next needed (all of them: the change feed lost its connection).
            if (endpointId.isEmpty()) {
                m_endpoints.clear();
                m_endpointUsed.clear();
            } else {
                m_endpoints.remove(endpointId);
                m_endpointUsed.remove(endpointId);
            }
            m_endpointsHeld.store(int(m_endpoints.size()));
        },
        Qt::QueuedConnection);
}

void Dispatcher::secretsChanged(const QString &ownerId)
{
    // Empty: anyone's may have changed (the change feed, after its connection was lost).
    QMetaObject::invokeMethod(
        m_ctx,
        [this, ownerId] {
            if (ownerId.isEmpty())
                m_keys.clear();
            else
                m_keys.remove(ownerId);
        },
        Qt::QueuedConnection);
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
    // And as many in all: every callback URL is a target of its own, chosen by whoever places
    // an order.
    m_client->setMaxIdleConnections(m_retry.settings().maxInFlight);
    m_timer = new QTimer(m_ctx);
    m_timer->setSingleShot(true);
    QObject::connect(m_timer, &QTimer::timeout, m_ctx, [this] { pump(); });
    if (leasing()) {
        // The holder's row and time first: leases count only while it has time. Its first
        // renewal finds no row (the holder is this process's own id), which counts as time
        // having run out; a holder that holds no lease has nothing to doubt, though, and its
        // attempts start now instead of after the first tick (a third of the lease time: for
        // 5 s after every start on PostgreSQL nothing was sent, and an order placed then
        // waited as long for its first callback).
        const qint64 now = nowMs();
        if (renewHolder(now) && m_leaseDoubt && m_leases.isEmpty()) {
            auto held = WebhookStore::heldLeases(m_database.connection(), m_options.leaseHolder);
            if (!held)
                qCWarning(lcWebhooks).noquote() << held.error().message;
            else if (held->isEmpty()) {
                m_leaseDoubt = false;
                m_holderValidUntil = now + validFor(m_options.leaseTtlMs);
            }
        }
        m_leaseTimer = new QTimer(m_ctx);
        m_leaseTimer->setInterval(int(std::max<qint64>(m_options.leaseTtlMs / 3, 1)));
        QObject::connect(m_leaseTimer, &QTimer::timeout, m_ctx, [this] { leaseTick(); });
        m_leaseTimer->start();
    }
    reload();
    qCInfo(lcWebhooks) << "dispatcher started;" << m_known.size() << "pending deliveries loaded"
                       << (m_overflow ? "(more wait in the database)" : "");
    pump();
}

void Dispatcher::reload()
{
    // Read forward from the cursor until something new was taken or nothing is left.
    for (;;) {
        // No more than there is room for (at least a few): the memory bound holds.
        const int room = std::max(16, m_options.maxInMemory - int(m_known.size()));
        const QList<Delivery> pending =
            WebhookStore::pending(m_database.connection(), m_cursor, room, &m_cursor);
        const qsizetype before = m_known.size();
        for (const Delivery &d : pending) {
            if (m_recording.contains(d.id) || m_known.contains(d.id))
                continue; // finished (its result is being written), or held here
            if (!leftForOwnerRead(d))
                enqueueLocal(d);
        }
        // Everything pending was read: new deliveries may be taken directly again.
        m_overflow = pending.size() >= room;
        if (!m_overflow || m_known.size() > before)
            return;
    }
}

void Dispatcher::maybeReload()
{
    const int max = m_options.maxInMemory;
    if (!m_stopped && m_timer && m_overflow && m_known.size() <= max - std::max(1, max / 8)) {
        reload();
        pump();
    }
}

int Dispatcher::ownerQueueShare() const
{
    return std::max(1, m_options.maxInMemory / 4);
}

int Dispatcher::ownerHoldLimit() const
{
    const int max = m_options.maxInMemory;
    if (m_known.size() < max - std::max(1, max / 4))
        return ownerQueueShare();
    return std::clamp(ownerQueueShare() / 8, 1, kLightOwner); // the last quarter
}

bool Dispatcher::leftForOwnerRead(const Delivery &d)
{
    if (d.manual)
        return false;
    if (!m_ownerOverflow.contains(d.ownerId)) {
        if (m_knownOf.value(d.ownerId) < ownerHoldLimit())
            return false;
        // Read back from the start of the customer's pending rows (reloadOwner): those held
        // here are skipped then.
        m_ownerOverflow.insert(d.ownerId, 0);
    }
    return true;
}

void Dispatcher::maybeReloadOwner(const QString &owner)
{
    if (!m_stopped && m_timer && m_ownerOverflow.contains(owner) &&
        m_knownOf.value(owner) < ownerHoldLimit() / 2 + 1 && m_known.size() < m_options.maxInMemory)
        reloadOwner(owner);
}

void Dispatcher::reloadOwner(const QString &owner)
{
    for (;;) {
        const auto cursor = m_ownerOverflow.constFind(owner);
        if (cursor == m_ownerOverflow.constEnd())
            return;
        qint64 last = *cursor;
        // As many as it may hold now (at least a few): in the last quarter that is 64 at
        // most, not a whole share's rows read for a handful taken.
        const int page = std::max(16, ownerHoldLimit() - m_knownOf.value(owner));
        auto rows = WebhookStore::pendingOfOwner(m_database.connection(), owner, last, page);
        if (!rows) {
            qCWarning(lcWebhooks).noquote() << rows.error().message; // read at its next finish
            return;
        }
        for (const auto &[rowid, d] : std::as_const(*rows)) {
            const bool skip = m_recording.contains(d.id) || m_known.contains(d.id);
            if (!skip && (m_knownOf.value(owner) >= ownerHoldLimit() ||
                          m_known.size() >= m_options.maxInMemory)) {
                m_ownerOverflow.insert(owner, last); // full again: the rest later, from here
                return;
            }
            last = rowid;
            if (!skip)
                enqueueLocal(d);
        }
        if (rows->size() < page) {
            m_ownerOverflow.remove(owner); // all read: new deliveries are taken directly again
            return;
        }
        m_ownerOverflow.insert(owner, last);
    }
}

void Dispatcher::forget(const QString &id)
{
    const auto it = m_known.constFind(id);
    if (it == m_known.constEnd())
        return;
    if (auto n = m_knownOf.find(*it); n != m_knownOf.end() && --*n <= 0)
        m_knownOf.erase(n);
    m_known.erase(it);
}

void Dispatcher::enqueueLocal(const Delivery &d)
{
    if (d.state != QLatin1String("pending") || m_known.contains(d.id))
        return;
    m_known.insert(d.id, d.ownerId);
    ++m_knownOf[d.ownerId];
    // A manual redelivery is one attempt outside the order's sequence.
    const QString key = d.manual ? ManualPrefix + d.id : d.subjectId;
    if (d.manual && !m_queues.contains(key))
        ++m_manualOf[d.subjectId];
    if (leasing() && !d.manual && d.seq > m_lastSeq.value(d.subjectId))
        m_lastSeq.insert(d.subjectId, d.seq);
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
        if (const QString &owner = q->items.front().ownerId; mustWait(owner)) {
            // Back on the timeline when a slot frees or a lookup answers.
            park(owner, q->items.front().endpointId, key);
            continue;
        }
        begin(key);
    }
    if (!m_timeline.empty() && m_inFlight < m_retry.settings().maxInFlight) {
        const qint64 wait = std::max<qint64>(0, m_timeline.begin()->first - now);
        m_timer->start(int(std::min<qint64>(wait, 60'000)));
    }
}

Endpoint *Dispatcher::endpointFor(const QString &id)
{
    const qint64 now = nowMs();
    auto it = m_endpoints.find(id);
    if (it == m_endpoints.end()) {
        if (m_endpoints.size() >= kEndpointsHeld)
            forgetIdleEndpoints(now);
        Endpoint e;
        e.id = id;
        const auto loaded = WebhookStore::endpoint(m_database.connection(), id);
        if (!loaded) {
            // Not "enabled" by default: an administrator may have disabled it.
            noteHeldBack(loaded.error().message);
            return nullptr;
        }
        if (*loaded)
            e = **loaded;
        it = m_endpoints.insert(id, e);
        m_endpointsHeld.store(int(m_endpoints.size()));
    }
    m_endpointUsed.insert(id, now);
    return &*it;
}

void Dispatcher::forgetIdleEndpoints(qint64 now)
{
    // At most once every few seconds: a sweep reads every entry.
    if (m_endpointSweepAt > 0 && now - m_endpointSweepAt < kEndpointSweepMs)
        return;
    m_endpointSweepAt = now;
    // Unused for a minute: every attempt's result has been written since (they are written
    // within a turn of the event loop), so the database has what the entry held.
    for (auto it = m_endpointUsed.begin(); it != m_endpointUsed.end();) {
        if (now - it.value() >= kEndpointIdleMs) {
            m_endpoints.remove(it.key());
            it = m_endpointUsed.erase(it);
        } else {
            ++it;
        }
    }
    m_endpointsHeld.store(int(m_endpoints.size()));
}

int Dispatcher::endpointsHeld() const
{
    return m_endpointsHeld.load();
}

std::optional<QList<QByteArray>> Dispatcher::keysFor(const QString &ownerId)
{
    const qint64 now = nowMs();
    auto it = m_keys.find(ownerId);
    // Read again after KeyCacheMs, and as soon as a rotated-out secret's overlap ends (it
    // signed up to 5 s past previousSecretExpiresAt).
    if (it == m_keys.end() || now - it->loadedAt > KeyCacheMs ||
        (it->firstEnd > 0 && now >= it->firstEnd)) {
        Keys k;
        auto read = WebhookStore::activeKeys(m_database, ownerId, now, &k.firstEnd);
        if (!read) { // nothing kept: read again at the next attempt
            m_keys.remove(ownerId);
            noteHeldBack(read.error().message);
            return std::nullopt;
        }
        k.keys = std::move(*read);
        k.loadedAt = now;
        it = m_keys.insert(ownerId, k);
    }
    return it->keys;
}

void Dispatcher::noteHeldBack(const QString &why)
{
    // At most one line every 10 s: during an outage every attempt would write one.
    const qint64 now = nowMs();
    if (m_heldBackLoggedAt > 0 && now - m_heldBackLoggedAt < 10'000 && now >= m_heldBackLoggedAt)
        return;
    m_heldBackLoggedAt = now;
    qCWarning(lcWebhooks).noquote()
        << "deliveries wait, unsent and not counted as attempts:" << why;
}

void Dispatcher::holdBack(const Attempt &a)
{
    // Not sent, not counted and nothing written: the delivery is tried again shortly, as if
    // it had not been due yet.
    const qint64 retryAt = nowMs() + kHeldBackMs;
    if (auto qit = m_queues.find(a.key); qit != m_queues.end()) {
        Queue &q = *qit;
        q.inFlight = false;
        auto it = std::find_if(q.items.begin(), q.items.end(),
                               [&a](const Delivery &x) { return x.id == a.delivery.id; });
        if (it != q.items.end())
            it->nextAttemptAt = std::max(it->nextAttemptAt, retryAt);
        if (!q.items.empty())
            m_timeline.emplace(q.items.front().nextAttemptAt, a.key);
    }
    --m_inFlight;
    m_inFlightCount.store(m_inFlight);
    releaseOwnerSlot(a.delivery.ownerId);
    pump();
}

bool Dispatcher::trusted(const CallbackTarget &t, const QString &ownerId) const
{
    return DemoReceiver::isHookOf(m_trustedOrigin, t, ownerId);
}

void Dispatcher::begin(const QString &key)
{
    Queue &q = m_queues[key];
    qint64 fence = 0;
    if (leasing()) {
        // Only the holder of the subject's lease sends its deliveries (in order, one at a time).
        const QString &subject = q.items.front().subjectId;
        if (!holds(subject, nowMs()) || m_gaps.contains(subject)) {
            m_wanted.insert(key);
            queueAcquire();
            // It took no slot: another queue of the customer may have one.
            refillOwner(q.items.front().ownerId);
            return;
        }
        fence = m_leases.value(subject).fence;
    }
    q.inFlight = true;
    ++m_inFlight;
    ++m_ownerInFlight[q.items.front().ownerId];
    m_inFlightCount.store(m_inFlight);
    Attempt a;
    a.key = key;
    a.delivery = q.items.front();
    a.startedAt = nowMs();
    a.trigger = a.delivery.manual ? QStringLiteral("manual") : QStringLiteral("scheduled");
    a.fence = fence;

    const Endpoint *endpoint = endpointFor(a.delivery.endpointId);
    if (!endpoint) { // not read: whether it may be sent to is not known
        QMetaObject::invokeMethod(
            m_ctx, [this, a] { holdBack(a); }, Qt::QueuedConnection);
        return;
    }
    if (!endpoint->enabled) {
        const QString why = QStringLiteral("endpoint disabled: %1").arg(endpoint->disabledReason);
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
    if (trusted(*target, a.delivery.ownerId)) {
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
    // Resolved and checked again at every attempt (within the minute an answer is kept): DNS
    // may have changed since the order was accepted. The connection goes to the address that
    // was checked.
    lookUp(std::move(a), *target);
}

void Dispatcher::lookUp(Attempt a, const CallbackTarget &target)
{
    const qint64 now = nowMs();
    if (const auto c = m_lookupCache.constFind(target.host);
        c != m_lookupCache.cend() && c->until > now) {
        looked(std::move(a), target, c->addresses, QString());
        return;
    }
    const QString owner = a.delivery.ownerId;
    ++m_ownerLookups[owner];
    // Whichever comes first answers the attempt: the resolver, or the attempt's timeout.
    auto answered = std::make_shared<bool>(false);
    const qint64 deadlineMs = m_retry.settings().timeoutMs;
    QTimer::singleShot(int(deadlineMs), m_ctx, [this, a, answered, deadlineMs, host = target.host] {
        if (m_stopped || std::exchange(*answered, true))
            return;
        finish(a, 0,
               QStringLiteral("the lookup of %1 did not answer within %2 s")
                   .arg(host)
                   .arg(deadlineMs / 1000.0),
               0, {}, std::nullopt, true);
    });
    askResolver(std::move(a), target, answered);
}

void Dispatcher::askResolver(Attempt a, const CallbackTarget &target,
                             const std::shared_ptr<bool> &answered)
{
    const QString owner = a.delivery.ownerId;
    // The lookup's place is given back; the customer's parked queues may go again (pump()
    // takes them).
    auto giveBack = [this, owner] {
        if (auto n = m_ownerLookups.find(owner); n != m_ownerLookups.end() && --*n <= 0)
            m_ownerLookups.erase(n);
    };
    Core::Resolver::lookup(
        target.host, m_ctx,
        [this, a = std::move(a), target, answered, owner,
         giveBack](const QList<QHostAddress> &addresses, const QString &error) mutable {
            if (m_stopped)
                return;
            // Every lookup of the process was taken (Resolver::MaxPending): nothing was learnt
            // about the name, and no attempt is counted against the endpoint. Asked again
            // shortly, until the attempt's timeout answers it.
            if (Core::Resolver::isBusy(error) && !*answered) {
                QTimer::singleShot(
                    kBusyLookupRetryMs, m_ctx,
                    [this, a = std::move(a), target, answered, owner, giveBack]() mutable {
                        if (m_stopped)
                            return;
                        if (!*answered)
                            return askResolver(std::move(a), target, answered);
                        giveBack();
                        refillOwner(owner);
                        pump();
                    });
                return;
            }
            giveBack();
            if (!addresses.isEmpty()) {
                if (m_lookupCache.size() >= 10'000)
                    m_lookupCache.clear();
                m_lookupCache.insert(target.host,
                                     CachedLookup{addresses, nowMs() + kLookupCacheMs});
            }
            if (!std::exchange(*answered, true))
                looked(a, target, addresses, error);
            refillOwner(owner);
            pump();
        });
}

void Dispatcher::looked(Attempt a, const CallbackTarget &target,
                        const QList<QHostAddress> &addresses, const QString &error)
{
    const auto address = m_policy.decide(target.host, addresses, error);
    if (!address) {
        finish(a, 0, address.error().message, 0, {}, std::nullopt, true);
        return;
    }
    send(std::move(a), *address, target);
}

void Dispatcher::send(Attempt a, const QHostAddress &address, const CallbackTarget &target)
{
    if (!m_client)
        return;
    const auto keys = keysFor(a.delivery.ownerId);
    if (!keys) { // never unsigned because the secrets could not be read
        QMetaObject::invokeMethod(
            m_ctx, [this, a = std::move(a)] { holdBack(a); }, Qt::QueuedConnection);
        return;
    }
    const qint64 timestamp = nowMs() / 1000;
    const QByteArray id = a.delivery.id.toLatin1();
    const QByteArray signature = Signer::signatureHeader(*keys, id, timestamp, a.delivery.payload);
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
    a.requestHeaders =
        Core::JsonObjectWriter()
            .add("connected-to", address.toString())
            .add("content-type", u"application/json")
            .add("host", QString::fromLatin1(target.hostHeader))
            .add("webhook-id", QString::fromLatin1(id))
            .add("webhook-signature", QString::fromUtf8(Signer::redactedSignatureHeader(signature)))
            .add("webhook-timestamp", QString::number(timestamp))
            .finish();
    qCDebug(lcWebhooks).noquote() << "attempt of" << a.delivery.id << "(order"
                                  << a.delivery.subjectId << "fence" << a.fence << ")";
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
    // Held here since the attempt began, unless it was forgotten since and cannot be read now:
    // then the attempt's result is recorded without a change to the endpoint's row.
    Endpoint *held = endpointFor(d.endpointId);
    Endpoint unread;
    unread.id = d.endpointId;
    Endpoint &endpoint = held ? *held : unread;
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
        if (endpoint.failingSince != 0 || endpoint.lastSuccessAt <= 0 ||
            now - endpoint.lastSuccessAt >= m_options.lastSuccessStepMs ||
            now < endpoint.lastSuccessAt)
            endpoint.lastSuccessAt = now; // else within the step: the row is left alone
        endpoint.failingSince = 0;
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
    const bool endpointChanged = held && (endpoint.enabled != endpointBefore.enabled ||
                                          endpoint.failingSince != endpointBefore.failingSince ||
                                          endpoint.lastSuccessAt != endpointBefore.lastSuccessAt);
    const Endpoint endpointNow = endpoint;
    const qint64 completedAt = d.state == QLatin1String("pending") ? 0 : now;
    m_recording.insert(d.id);
    m_records.push_back(Record{d, rec, attempted, status, error, latencyMs, completedAt,
                               endpointChanged, endpointNow, endpointBefore.enabled, a.fence});
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
                forget(d.id);
                q.items.erase(it);
            }
        }
        if (q.items.empty())
            eraseQueue(qit, d.subjectId);
        else // the next status change of this order may go now (or when its retry is due)
            m_timeline.emplace(q.items.front().nextAttemptAt, a.key);
    }
    if (leasing()) {
        // Sent under a lease this instance no longer holds (or holds again under another
        // fence): its result is refused, and what is queued here for the order may have been
        // sent by the instance that held it meanwhile. The holder reads the database.
        const auto held = m_leases.constFind(d.subjectId);
        if (held == m_leases.constEnd() || held->fence != a.fence) {
            forget(d.id);
            if (const auto stale = m_queues.find(a.key);
                stale != m_queues.end() && !stale->inFlight) {
                for (const Delivery &x : stale->items)
                    forget(x.id);
                m_wanted.remove(a.key);
                eraseQueue(stale, d.subjectId);
            }
        }
    }
    m_queuedSubjects.store(int(m_queues.size()));
    --m_inFlight;
    m_inFlightCount.store(m_inFlight);
    releaseOwnerSlot(d.ownerId);
    maybeReload();
    for (const QString &owner : m_ownerOverflow.keys())
        maybeReloadOwner(owner);
    pump();
}

int Dispatcher::ownerShare() const
{
    return std::max(1, m_retry.settings().maxInFlight / 4);
}

bool Dispatcher::mustWait(const QString &owner) const
{
    const int max = m_retry.settings().maxInFlight;
    const int mine = m_ownerInFlight.value(owner);
    // The last eighth of the slots only for customers with nothing in flight.
    const int reserve = std::max(1, max / 8);
    return mine >= ownerShare() || (mine > 0 && m_inFlight >= max - reserve) ||
           m_ownerLookups.value(owner) >= kOwnerLookups;
}

void Dispatcher::releaseOwnerSlot(const QString &owner)
{
    if (auto n = m_ownerInFlight.find(owner); n != m_ownerInFlight.end() && --*n <= 0)
        m_ownerInFlight.erase(n);
    refillOwner(owner);
}

void Dispatcher::park(const QString &owner, const QString &endpointId, const QString &key)
{
    OwnerWaiting &w = m_ownerWaiting[owner];
    std::deque<QString> &keys = w.keys[endpointId];
    if (keys.empty())
        w.endpoints.push_back(endpointId);
    keys.push_back(key);
}

void Dispatcher::refillOwner(const QString &owner)
{
    auto w = m_ownerWaiting.find(owner);
    if (w == m_ownerWaiting.end())
        return;
    // As many of the customer's waiting queues as it has free slots go back on the timeline,
    // an endpoint at a time in turn, each endpoint's oldest first, at their due time: pump()
    // takes them as any other (and parks them again should the slots be gone by then).
    int free = ownerShare() - m_ownerInFlight.value(owner);
    while (free > 0 && !w->endpoints.empty()) {
        const QString endpoint = w->endpoints.front();
        w->endpoints.pop_front();
        auto keys = w->keys.find(endpoint);
        if (keys == w->keys.end())
            continue;
        const QString key = keys->front();
        keys->pop_front();
        if (keys->empty())
            w->keys.erase(keys);
        else
            w->endpoints.push_back(endpoint); // its next turn after the others'
        const auto q = m_queues.constFind(key);
        if (q != m_queues.constEnd() && !q->items.empty() && !q->inFlight) {
            m_timeline.emplace(q->items.front().nextAttemptAt, key);
            --free;
        }
    }
    if (w->endpoints.empty())
        m_ownerWaiting.erase(w);
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
    m_writer.submit(
        [records,
         holder = m_options.leaseHolder](Core::WriteTransaction &tx) -> Core::Result<void> {
            // Written only under the lease it went out under: after a takeover the new
            // holder's results count, not those of an instance that stalled. All of them sent
            // at once and their answers read together: one round trip for the batch, where
            // waiting for each was five per order on PostgreSQL. (The counts live in the
            // records, which outlive the transaction: the writer reads what is queued.)
            bool fenced = false;
            for (Record &r : *records) {
                r.refused = false;
                if (r.fence <= 0)
                    continue;
                fenced = true;
                if (auto queued = WebhookStore::queueDeliveryFenced(
                        tx, r.d, r.status, r.error, r.attempted ? r.latencyMs : -1, r.completedAt,
                        holder, r.fence, &r.changed);
                    !queued)
                    return queued;
            }
            if (fenced)
                if (auto read = tx.readQueued(); !read)
                    return read;
            for (Record &r : *records) {
                const double latency = r.attempted ? r.latencyMs : -1;
                if (r.fence > 0) {
                    if (r.changed <= 0) {
                        r.refused = true; // nor published
                        qCInfo(lcWebhooks).noquote()
                            << "the result of" << r.d.id
                            << "is not recorded: another instance holds its order's lease now";
                        continue;
                    }
                } else if (auto ok = WebhookStore::updateDelivery(tx, r.d, r.status, r.error,
                                                                  latency, r.completedAt);
                           !ok) {
                    return ok;
                }
                if (r.attempted) {
                    if (auto ok = WebhookStore::recordAttempt(tx, r.rec); !ok)
                        return ok;
                }
                if (r.endpointChanged) {
                    if (auto ok = WebhookStore::recordEndpointOutcome(
                            tx, r.endpointNow, r.enabledBefore && !r.endpointNow.enabled);
                        !ok)
                        return ok;
                }
            }
            return {};
        },
        [this, guard = std::weak_ptr<Core::PostGuard>(m_guard), events, database, records,
         queue = m_eventQueue](const Core::Result<void> &result) {
            QStringList ids;
            ids.reserve(qsizetype(records->size()));
            for (const Record &r : *records)
                ids.append(r.d.id);
            // Dropped once the dispatcher stopped (its thread's objects may be gone).
            Core::PostGuard::post(guard, [this, ids] {
                for (const QString &id : ids)
                    m_recording.remove(id);
                maybeReload();
            });
            if (!result) {
                qCWarning(lcWebhooks) << "could not record" << records->size()
                                      << "attempts:" << result.error().message;
                return;
            }
            auto publish = [events, database, records] {
                for (const Record &r : *records)
                    if (!r.refused)
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

// --- leases: several instances on one PostgreSQL database -----------------------------------
namespace Gatehouse::Webhooks {

bool Dispatcher::holds(const QString &subject, qint64 now) const
{
    return m_holderValidUntil > now && m_leases.contains(subject);
}

bool Dispatcher::busy(const QString &subject) const
{
    return m_queues.contains(subject) || m_manualOf.value(subject) > 0;
}

QHash<QString, Dispatcher::Queue>::iterator
Dispatcher::eraseQueue(QHash<QString, Queue>::iterator it, const QString &subject)
{
    if (it.key().startsWith(ManualPrefix)) {
        if (--m_manualOf[subject] <= 0)
            m_manualOf.remove(subject);
    }
    return m_queues.erase(it); // the next one (others moved: QHash's open addressing)
}

void Dispatcher::queueAcquire()
{
    if (m_acquireQueued)
        return;
    // Once per turn of the event loop: the subjects begun meanwhile are taken together.
    m_acquireQueued = true;
    QMetaObject::invokeMethod(
        m_ctx, [this] { acquireWanted(); }, Qt::QueuedConnection);
}

void Dispatcher::acquireWanted()
{
    m_acquireQueued = false;
    if (m_stopped || !m_timer || m_wanted.isEmpty())
        return;
    QSet<QString> subjects;
    for (const QString &key : std::as_const(m_wanted)) {
        const auto q = m_queues.constFind(key);
        if (q != m_queues.constEnd() && !q->items.empty())
            subjects.insert(q->items.front().subjectId);
    }
    const qint64 now = nowMs();
    auto taken =
        WebhookStore::acquireLeases(m_database, subjects.values(), m_options.leaseHolder, now);
    if (!taken) {
        // Tried again at the next renewal, which reads what this holder holds (the statement
        // may have taken some).
        qCWarning(lcWebhooks).noquote() << taken.error().message;
        m_leaseDoubt = true;
        return;
    }
    takeUp(*taken, now);
    QSet<QString> refused;
    QSet<QString> waiting; // held, but this holder's time ran out: after the next renewal
    for (const QString &key : std::as_const(m_wanted)) {
        const auto q = m_queues.constFind(key);
        if (q == m_queues.constEnd() || q->items.empty())
            continue;
        const QString &subject = q->items.front().subjectId;
        if (!m_leases.contains(subject))
            refused.insert(subject);
        else if (holds(subject, now))
            m_timeline.emplace(q->items.front().nextAttemptAt, key);
        else
            waiting.insert(key);
    }
    m_wanted = std::move(waiting);
    // Held by another instance that is alive: it sends them (it reads what was added for its
    // subjects before it gives a lease up).
    for (const QString &subject : std::as_const(refused))
        dropSubject(subject);
    pump();
}

void Dispatcher::takeUp(const QList<WebhookStore::Lease> &leases, qint64 now)
{
    if (leases.isEmpty())
        return;
    QStringList subjects;
    subjects.reserve(leases.size());
    QSet<QString> newFence; // taken again under another fence: results in flight are refused
    for (const WebhookStore::Lease &l : leases) {
        const auto before = m_leases.constFind(l.subjectId);
        if (before == m_leases.constEnd() || before->fence != l.fence)
            newFence.insert(l.subjectId);
        m_leases.insert(l.subjectId, HeldLease{l.fence});
        subjects.append(l.subjectId);
        qCDebug(lcWebhooks).noquote() << "holds order" << l.subjectId << "fence" << l.fence;
    }
    auto pending = WebhookStore::pendingOf(m_database.connection(), subjects);
    if (!pending) {
        // Held, but nothing goes out before the read succeeds (the next acquisition).
        qCWarning(lcWebhooks).noquote() << pending.error().message;
        for (const QString &subject : std::as_const(subjects))
            m_gaps.insert(subject);
        return;
    }
    for (const QString &subject : std::as_const(subjects))
        m_gaps.remove(subject); // read now
    // What waits here is what the database has pending: an item it no longer has was sent by
    // an instance that held the order meanwhile.
    QSet<QString> ids;
    for (const Delivery &d : std::as_const(*pending))
        ids.insert(d.id);
    for (const QString &subject : std::as_const(subjects)) {
        const auto q = m_queues.find(subject);
        if (q == m_queues.end())
            continue;
        auto &items = q->items;
        for (auto it = items.begin(); it != items.end();) {
            const bool sending = q->inFlight && it == items.begin();
            if (sending || ids.contains(it->id)) {
                ++it;
                continue;
            }
            forget(it->id);
            it = items.erase(it);
        }
        if (items.empty())
            eraseQueue(q, subject);
        else if (!q->inFlight) // its front may have changed
            m_timeline.emplace(items.front().nextAttemptAt, subject);
    }
    // One finished here whose result is being written is not sent again, unless that result
    // carries a fence that no longer holds (it will be refused; the delivery goes first again).
    for (const Delivery &d : std::as_const(*pending))
        if (!m_recording.contains(d.id) || newFence.contains(d.subjectId))
            enqueueLocal(d);
}

void Dispatcher::dropSubject(const QString &subject)
{
    m_leases.remove(subject);
    m_lastSeq.remove(subject);
    m_gaps.remove(subject);
    for (auto it = m_queues.begin(); it != m_queues.end();) {
        if (it->inFlight || it->items.empty() || it->items.front().subjectId != subject) {
            ++it; // one in flight: its result is fenced; what follows it is dropped after it
            continue;
        }
        for (const Delivery &d : it->items)
            forget(d.id);
        m_wanted.remove(it.key());
        it = eraseQueue(it, subject);
    }
    m_queuedSubjects.store(int(m_queues.size()));
}

void Dispatcher::leaseTick()
{
    if (m_stopped || !m_timer || m_ticking)
        return; // (ticking: the last tick still gives leases up)
    // Idle leases are given up first, and only those still in use are renewed. A burst leaves
    // thousands of orders idle at every tick, and renewing them just before giving them up
    // rewrote each of their rows for nothing, while this thread waited (77 ms a tick with
    // 12k leases, measured). Only rows still this holder's are given up; a lease that expired
    // and was taken meanwhile is seen as lost by the renewal.
    m_ticking = true;
    m_tickIdle.clear();
    for (auto it = m_leases.cbegin(); it != m_leases.cend(); ++it)
        if (!busy(it.key()))
            m_tickIdle.append(it.key());
    m_toRelease = m_tickIdle;
    m_released.clear();
    m_releaseFailed = false;
    releaseStep();
}

void Dispatcher::releaseStep()
{
    if (m_stopped || !m_timer) {
        m_ticking = false;
        return;
    }
    const qsizetype n =
        std::min<qsizetype>(std::max(1, m_options.leaseReleaseChunk), m_toRelease.size());
    const QStringList chunk = m_toRelease.mid(0, n);
    m_toRelease.remove(0, n);
    if (!chunk.isEmpty()) {
        auto r =
            WebhookStore::releaseIdleLeases(m_database.connection(), chunk, m_options.leaseHolder);
        if (!r) {
            qCWarning(lcWebhooks).noquote() << r.error().message;
            m_releaseFailed = true;
            m_leaseDoubt = true; // (it may have given some up)
            m_toRelease.clear();
        } else {
            for (const QString &subject : std::as_const(*r)) {
                m_leases.remove(subject);
                m_lastSeq.remove(subject);
                m_released.insert(subject);
            }
        }
    }
    if (!m_toRelease.isEmpty()) {
        // The next chunk after what waits on this thread (attempts' answers, new deliveries).
        QMetaObject::invokeMethod(
            m_ctx, [this] { releaseStep(); }, Qt::QueuedConnection);
        return;
    }
    finishTick();
}

bool Dispatcher::renewHolder(qint64 now)
{
    auto alive = WebhookStore::renewHolder(m_database.connection(), m_options.leaseHolder, now,
                                           now + m_options.leaseTtlMs);
    if (!alive) {
        // Not renewed: attempts stop once the holder's time here is up (holds()).
        qCWarning(lcWebhooks).noquote() << alive.error().message;
        return false;
    }
    // Its time had run out: others may have taken some leases. Attempts go on only once the
    // leases still its own were read (finishTick), not on the strength of this renewal alone.
    if (*alive)
        m_holderValidUntil = now + validFor(m_options.leaseTtlMs);
    else
        m_leaseDoubt = true;
    return true;
}

bool Dispatcher::endHoldersGone(const QSqlDatabase &db, qint64 now)
{
    // A holder that was a process of this machine and no longer runs (a crash, restarted at
    // once; instances of one machine) will not renew: its time ends now, and its orders are
    // taken over at this tick instead of when its time runs out (15 s). One row per process.
    auto timely = WebhookStore::timelyHolders(db, now);
    if (!timely) {
        qCWarning(lcWebhooks).noquote() << timely.error().message;
        return false;
    }
    QSet<QString> running;
    bool gone = false; // a holder ended here at this tick, or one of the last tick's is gone
    for (const QString &holder : std::as_const(*timely)) {
        if (holder == m_options.leaseHolder)
            continue;
        if (!Core::Instances::ranHereAndEnded(holder)) {
            running.insert(holder);
            continue;
        }
        if (auto r = WebhookStore::endHolder(db, holder); !r) {
            qCWarning(lcWebhooks).noquote() << r.error().message;
            running.insert(holder); // (tried again at the next tick)
            continue;
        }
        qCInfo(lcWebhooks).noquote()
            << "the process" << holder << "has ended: its orders are taken over now";
        gone = true;
    }
    for (auto it = m_timelyHolders.cbegin(); !gone && it != m_timelyHolders.cend(); ++it)
        gone = !running.contains(*it); // stopped, or its time ran out
    m_timelyHolders = std::move(running);
    return gone;
}

void Dispatcher::finishTick()
{
    m_ticking = false;
    const QSqlDatabase db = m_database.connection();
    const qint64 now = nowMs();
    // One row, however many leases are held (each lease's row was rewritten at every renewal:
    // 0.31 s a tick with 60,000 leases, measured). While the holder's time never ran out, no
    // other instance could take any of its leases, and every lease it knows of is still its
    // own; otherwise, or after a statement whose outcome is unknown, they are read.
    if (renewHolder(now)) {
        std::optional<QHash<QString, qint64>> fences; // the leases read, when in doubt
        if (m_leaseDoubt) {
            if (auto held = WebhookStore::heldLeases(db, m_options.leaseHolder)) {
                fences.emplace();
                for (const WebhookStore::Lease &l : std::as_const(*held))
                    fences->insert(l.subjectId, l.fence);
                m_leaseDoubt = false;
                m_holderValidUntil = now + validFor(m_options.leaseTtlMs);
            } else {
                qCWarning(lcWebhooks).noquote() << held.error().message;
            }
        }
        QStringList unknown;
        if (fences) {
            QStringList lost;
            for (auto it = m_leases.cbegin(); it != m_leases.cend(); ++it)
                if (fences->value(it.key(), -1) != it->fence)
                    lost.append(it.key()); // its time ran out, and another instance took it
            for (const QString &subject : std::as_const(lost)) {
                qCInfo(lcWebhooks).noquote()
                    << "order" << subject << "is delivered by another instance now";
                dropSubject(subject);
            }
            // Rows of this holder that it does not know of (an acquisition whose answer was
            // lost): given up too, when idle (few: at once).
            for (auto it = fences->cbegin(); it != fences->cend(); ++it)
                if (!m_leases.contains(it.key()) && !busy(it.key()))
                    unknown.append(it.key());
        }
        if (!unknown.isEmpty() && !m_releaseFailed) {
            if (auto r = WebhookStore::releaseIdleLeases(db, unknown, m_options.leaseHolder)) {
                for (const QString &subject : std::as_const(*r)) {
                    m_lastSeq.remove(subject);
                    m_released.insert(subject);
                }
            } else {
                qCWarning(lcWebhooks).noquote() << r.error().message;
                m_releaseFailed = true;
                m_leaseDoubt = true;
            }
        }
        if (!m_releaseFailed) {
            // Kept: deliveries were added (by another instance) while it was held here.
            QList<WebhookStore::Lease> kept;
            for (const QString &subject : std::as_const(m_tickIdle)) {
                const auto held = m_leases.constFind(subject);
                if (!m_released.contains(subject) && held != m_leases.constEnd())
                    kept.append(WebhookStore::Lease{subject, held->fence});
            }
            for (const QString &subject : std::as_const(unknown))
                if (!m_released.contains(subject))
                    kept.append(WebhookStore::Lease{subject, fences->value(subject)});
            if (m_known.size() < m_options.maxInMemory)
                takeUp(kept, now);
        }
    }
    m_tickIdle.clear();
    m_released.clear();
    // Take over what nobody sends: leases expired with deliveries due, and deliveries due for
    // a lease's time that nobody ever leased.
    const int room = m_options.maxInMemory - int(m_known.size());
    if (room > 0 && m_holderValidUntil > now) {
        if (endHoldersGone(db, now)) {
            // What the holder gone wrote and had not leased yet is due now: looked for from
            // the start, with the next ticks' looks too (the scan is a chunk a tick).
            m_quickLookUntil = now + m_options.leaseTtlMs;
            m_orphanCursor.clear();
        }
        const qint64 unleasedDueBefore =
            now < m_quickLookUntil ? now - m_options.unleasedGraceMs : now - m_options.leaseTtlMs;
        auto claimed =
            WebhookStore::claimOrphans(db, m_options.leaseHolder, now, unleasedDueBefore,
                                       std::min(room, 500), &m_orphanCursor, m_options.orphanScan);
        if (!claimed) {
            qCWarning(lcWebhooks).noquote() << claimed.error().message;
            m_leaseDoubt = true; // (it may have taken some)
        } else if (!claimed->isEmpty()) {
            qCInfo(lcWebhooks) << "took over the deliveries of" << claimed->size()
                               << "orders that no instance was sending";
            takeUp(*claimed, now);
        }
    }
    if (now >= m_forgetHoldersAt) {
        m_forgetHoldersAt = now + 60'000;
        if (auto r = WebhookStore::forgetHolders(db, now - m_options.holderForgetMs); !r)
            qCWarning(lcWebhooks).noquote() << r.error().message;
        else if (*r > 0)
            qCInfo(lcWebhooks) << "forgot" << *r << "lease holders long gone";
    }
    if (!m_wanted.isEmpty())
        queueAcquire();
    pump();
}

} // namespace Gatehouse::Webhooks
