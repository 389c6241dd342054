#pragma once

#include "webhooks/retrypolicy.h"
#include "webhooks/urlpolicy.h"
#include "webhooks/webhookstore.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <deque>
#include <map>
#include <random>
#include <vector>

class QSqlDatabase;

namespace Gatehouse::Core {
class Clock;
class PostGuard;
class Database;
class EventBus;
class EventQueue;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::Webhooks {

class HttpClient;
struct OutboundResponse;

// Delivers the outbox. Lives on its own thread; the public slots may be called from any
// thread (they queue onto it). The database is the truth: the dispatcher loads what is
// pending at start and is told about new deliveries after their transaction committed.
class Dispatcher
{
public:
    struct Options
    {
        RetrySettings retry;
        UrlPolicySettings urlPolicy;
        QString trustedOrigin; // the built-in demo receiver, "http://127.0.0.1:<port>"
        int maxInMemory = 50'000;
        // Several instances on one PostgreSQL database (docs/storage.md "Several
        // instances"): a subject's deliveries go out from the instance holding its lease in
        // webhook_leases, named by this holder, unique per process. Empty: no leases (SQLite,
        // where one process owns the database).
        QString leaseHolder;
        // How long a lease lasts unless renewed (every third of it); an instance that stops
        // renewing loses its subjects to the others this long after its last renewal.
        qint64 leaseTtlMs = 15'000;
        // While an endpoint keeps succeeding, its last success is written at most once per
        // step (its first success, and the first after a failure, at once): every success
        // changed the endpoint's row, and on PostgreSQL the instances' result writers took
        // turns on that one row, each until its commit.
        qint64 lastSuccessStepMs = 1'000;
        // Idle leases are given up this many per statement, one statement per turn of the
        // dispatcher's event loop: after a burst a tick gives up thousands (about 10 µs each),
        // and attempts go on between the statements.
        int leaseReleaseChunk = 1'000;
        // Deliveries nobody ever leased are looked for among this many pending ones a tick,
        // from where the last tick stopped (WebhookStore::claimOrphans): with every pending
        // delivery looked at, a tick took 0.33 s with 300,000 pending (a receiver down for
        // hours). With more pending than this, such a delivery may wait a few ticks longer.
        int orphanScan = 10'000;
        // Once a holder is seen to go (its process ended on this machine, or it stopped and
        // gave its leases up), deliveries nobody leased are looked for from the next tick
        // on for a lease time, due this long ago rather than a lease time ago: those that the
        // instance gone wrote but had not yet leased went out 15 s late after a kill -9
        // (the fleet test). Not zero: a live instance leases what it writes within
        // milliseconds of its commit, and should keep its own orders.
        qint64 unleasedGraceMs = 1'000;
        // The row of a holder that died stays while it holds leases (they are taken over by
        // it), then until this long after its time ran out (one row per process killed,
        // looked at by every instance at each tick), as Instances keeps an instance's row; an
        // ended process of this machine, whose time ends at once, is forgotten once its
        // leases are taken over. Looked for once a minute.
        qint64 holderForgetMs = 3'600'000;
    };

    Dispatcher(Core::Database &database, Core::WriteQueue &writer, Core::EventBus &events,
               const Core::Clock &clock, Options options, Core::EventQueue *eventQueue = nullptr);
    ~Dispatcher();
    Dispatcher(const Dispatcher &) = delete;
    Dispatcher &operator=(const Dispatcher &) = delete;

    // Thread-safe.
    void start();
    void stop(); // blocks until the dispatcher thread has stopped its work
    void add(const Delivery &delivery);
    void add(QList<Delivery> deliveries); // in order; one hop to the dispatcher's thread
    void endpointChanged(const Endpoint &endpoint);
    // Another instance changed the endpoint's state (the change feed; empty: any endpoint may
    // have changed): read again from the database.
    void endpointChangedElsewhere(const QString &endpointId);
    void secretsChanged(const QString &ownerId);

    qint64 attemptsMade() const { return m_attemptsMade.load(); }
    qint64 succeeded() const { return m_succeeded.load(); }
    int inFlight() const { return m_inFlightCount.load(); }
    int queuedSubjects() const { return m_queuedSubjects.load(); }
    // Endpoints held in memory: those of the attempts of the last minute or so, read from the
    // database as they are needed (not all of them: every callback URL is one).
    int endpointsHeld() const;

private:
    struct Queue
    {
        std::deque<Delivery> items;
        bool inFlight = false;
    };
    struct Attempt
    {
        QString key;
        Delivery delivery;
        qint64 startedAt = 0;
        QByteArray requestHeaders; // JSON, as the attempt log stores it
        QString trigger;
        qint64 fence = 0; // the subject's lease it went out under (0: no leases)
    };

    struct Record
    {
        Delivery d;
        AttemptRecord rec;
        bool attempted = false;
        int status = 0;
        QString error;
        double latencyMs = 0;
        qint64 completedAt = 0;
        bool endpointChanged = false;
        Endpoint endpointNow;
        bool enabledBefore = true;
        qint64 fence = 0;
        bool refused = false; // set by the writer: another instance holds the lease now
        int changed = -1;     // the writer's: rows its fenced update changed
    };
    void flushRecords();
    static void publishRecord(Core::EventBus &events, Core::Database &database, const Record &r);
    void doStart();
    void reload();
    void maybeReload();
    // A customer's share of the deliveries held in memory (a quarter of maxInMemory): past it,
    // its new deliveries wait in the database and are read back, in creation order, as its
    // own go out. One customer whose receivers fail (orders placed by anyone who knows its id,
    // each retried for a day) can thus never fill the memory queue that every customer's
    // deliveries pass through.
    int ownerQueueShare() const;
    // How many of one customer's deliveries may be held in memory now: its share, and, once
    // three quarters of maxInMemory are taken, an eighth of it, at most kLightOwner (the last
    // quarter is kept for customers holding few). Customers whose receivers fail (each
    // delivery retried for days) thus fill three quarters with three of them, and the rest
    // only with hundreds more; a customer whose receivers answer holds few at any time, so it
    // still gets in. Four such customers used to fill it all, and every other customer's
    // deliveries waited in the database for days.
    int ownerHoldLimit() const;
    static constexpr int kLightOwner = 64;
    // Whether d waits in the database for its customer's own read-back (the customer may hold
    // no more, or could not and has not read everything back yet); manual redeliveries never.
    bool leftForOwnerRead(const Delivery &d);
    void maybeReloadOwner(const QString &owner);
    void reloadOwner(const QString &owner);
    void forget(const QString &id); // out of m_known (and its owner's count)
    void enqueueLocal(const Delivery &d);
    void pump();
    void begin(const QString &key);
    // A name's addresses for an attempt (checked by the URL policy), then send(); see the
    // constants below.
    void lookUp(Attempt attempt, const CallbackTarget &target);
    // The resolver's part of lookUp(), asked again every kBusyLookupRetryMs while the process's
    // lookups are all taken.
    void askResolver(Attempt attempt, const CallbackTarget &target,
                     const std::shared_ptr<bool> &answered);
    static constexpr int kBusyLookupRetryMs = 200;
    void looked(Attempt attempt, const CallbackTarget &target, const QList<QHostAddress> &addresses,
                const QString &error);
    void send(Attempt attempt, const QHostAddress &address, const CallbackTarget &target);
    void finish(const Attempt &attempt, int status, const QString &error, double latencyMs,
                const QByteArray &responseBody, std::optional<qint64> retryAfterMs, bool attempted);
    // Null when it is not held and could not be read (nothing is kept then).
    Endpoint *endpointFor(const QString &id);
    // An attempt that could not go out because what it needs could not be read (its
    // endpoint's state, its customer's secrets): not sent, not counted, tried again in
    // kHeldBackMs. Never sent as if the endpoint were enabled or the customer had no secret.
    void holdBack(const Attempt &attempt);
    void noteHeldBack(const QString &why); // logged at most every 10 s
    static constexpr qint64 kHeldBackMs = 2'000;
    qint64 m_heldBackLoggedAt = 0;
    // Beyond kEndpointsHeld, those unused for kEndpointIdleMs go (a sweep every
    // kEndpointSweepMs at most).
    void forgetIdleEndpoints(qint64 now);
    static constexpr qsizetype kEndpointsHeld = 4096;
    static constexpr qint64 kEndpointIdleMs = 60'000;
    static constexpr qint64 kEndpointSweepMs = 5'000;
    std::optional<QList<QByteArray>> keysFor(const QString &ownerId); // nullopt: not read
    bool trusted(const CallbackTarget &t,
                 const QString &ownerId) const; // the demo receiver's, for ownerId
    QUrl m_trustedOrigin; // m_options.trustedOrigin, parsed once (empty: none)
    qint64 nowMs() const;

    // Leases (Options::leaseHolder set).
    bool leasing() const { return !m_options.leaseHolder.isEmpty(); }
    // Ends the time of lease holders that were processes of this machine and have ended.
    // Answers whether a holder whose time ran at the last tick is gone now (ended here,
    // stopped, or its time ran out).
    bool endHoldersGone(const QSqlDatabase &db, qint64 now);
    bool holds(const QString &subject, qint64 now) const;
    bool busy(const QString &subject) const; // a queue of the subject is here
    void queueAcquire();
    void acquireWanted();
    // A lease tick: give idle leases up (releaseStep, a chunk per turn of the event loop),
    // then renew the rest and take over what nobody sends (finishTick).
    void leaseTick();
    void releaseStep();
    void finishTick();
    // Moves this holder's time on (WebhookStore::renewHolder); false if that failed.
    bool renewHolder(qint64 now);
    // Records leases taken and reads their subjects' pending deliveries (older ones than
    // those known here may have been added by another instance).
    void takeUp(const QList<WebhookStore::Lease> &leases, qint64 now);
    void dropSubject(const QString &subject); // another instance holds it now
    QHash<QString, Queue>::iterator eraseQueue(QHash<QString, Queue>::iterator it,
                                               const QString &subject);

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Core::EventBus &m_events;
    const Core::Clock &m_clock;
    Options m_options;
    Core::EventQueue *m_eventQueue; // results' events are published there; null: inline
    RetryPolicy m_retry;
    UrlPolicy m_policy;
    std::unique_ptr<QThread> m_thread;
    QObject *m_ctx = nullptr;                 // lives on m_thread: everything below runs there
    std::shared_ptr<Core::PostGuard> m_guard; // lets the writer's answers reach m_ctx
    HttpClient *m_client = nullptr;           // child of m_ctx
    QTimer *m_timer = nullptr;
    QHash<QString, Queue> m_queues;
    QHash<QString, QString> m_known;        // delivery id -> owner, of every delivery held here
    QHash<QString, int> m_knownOf;          // owner -> deliveries held here
    QHash<QString, qint64> m_ownerOverflow; // owner past its share -> rowid of its last read
    QSet<QString> m_recording; // finished here, their result not yet committed: not read back
    std::multimap<qint64, QString> m_timeline; // due time -> queue key (stale entries skipped)
    QHash<QString, Endpoint> m_endpoints;
    QHash<QString, qint64> m_endpointUsed; // id -> when endpointFor() last gave it
    qint64 m_endpointSweepAt = 0;
    std::atomic<int> m_endpointsHeld{0};
    struct Keys
    {
        QList<QByteArray> keys;
        qint64 loadedAt = 0;
        qint64 firstEnd = 0; // when one of them stops signing: read again then
    };
    QHash<QString, Keys> m_keys;
    int m_inFlight = 0;
    // Each customer's share of the attempts in flight (a quarter of webhook-max-in-flight):
    // one customer's receivers that answer slowly or never (orders placed by anyone who knows
    // the customer's id, each with a callback URL of its own) cannot hold every slot while
    // the other customers' deliveries wait. Queues of a customer at its share wait here, in
    // the order they were due, until one of its attempts ends.
    int ownerShare() const;
    // Whether the customer's next attempt waits: at its share; or the last eighth of the slots
    // is all that is free and it has attempts in flight (that eighth is for customers with
    // none: four customers whose receivers never answer took every slot); or two of its
    // lookups are unanswered.
    bool mustWait(const QString &owner) const;
    void releaseOwnerSlot(const QString &owner);
    void refillOwner(const QString &owner); // parked queues back on the timeline, up to its share
    // A customer's parked queues, by endpoint, taken back in turn: one endpoint of the customer
    // whose receiver never answers (orders placed by anyone who knows the customer's id, with
    // a callback that hangs) takes every other free slot, not all of them, and its other
    // endpoints' deliveries go out meanwhile. In turn within an endpoint: oldest first.
    struct OwnerWaiting
    {
        std::deque<QString> endpoints;            // the turn: endpoints with parked queues
        QHash<QString, std::deque<QString>> keys; // endpoint -> its parked queues
    };
    void park(const QString &owner, const QString &endpointId, const QString &key);
    QHash<QString, int> m_ownerInFlight;
    QHash<QString, OwnerWaiting> m_ownerWaiting;
    // Name lookups (Core::Resolver: c-ares, no thread each), at most kOwnerLookups a customer
    // at once: a customer whose callback names resolve slowly (a DNS server that never
    // answers) holds up its own deliveries only. A lookup counts until the resolver answers;
    // its attempt fails at the attempt timeout before that (and is retried). Answers are kept
    // a minute.
    static constexpr int kOwnerLookups = 2;
    static constexpr qint64 kLookupCacheMs = 60'000;
    QHash<QString, int> m_ownerLookups; // owner -> lookups the resolver has not answered
    struct CachedLookup
    {
        QList<QHostAddress> addresses;
        qint64 until = 0;
    };
    QHash<QString, CachedLookup> m_lookupCache; // host -> its addresses
    bool m_stopped = false;
    // Memory stays bounded when deliveries are created faster than they go out: past
    // maxInMemory new ones are left in the database (overflow) and read back, oldest first,
    // once an eighth of the queue is free again (not half: customers whose receivers fail may
    // hold three quarters for days).
    bool m_overflow = false;
    std::vector<Record> m_records; // results waiting to be written (flushRecords)
    bool m_flushQueued = false;
    qint64 m_cursor = 0; // rowid of the last delivery read back
    struct HeldLease
    {
        qint64 fence = 0;
    };
    QHash<QString, HeldLease> m_leases; // subject -> lease held
    // Local time: new attempts under any lease only before it (the holder's last renewal).
    qint64 m_holderValidUntil = 0;
    // Whether the database may hold leases of this holder that m_leases does not know of, or
    // not hold some that it does (a statement whose outcome is unknown): the next renewal
    // reads them all.
    bool m_leaseDoubt = true;
    QString m_orphanCursor;         // where the next look for unleased deliveries starts
    QSet<QString> m_timelyHolders;  // the other holders whose time ran at the last tick
    qint64 m_quickLookUntil = 0;    // unleased deliveries are looked for sooner until then
    qint64 m_forgetHoldersAt = 0;   // the next look for holders gone long ago
    QSet<QString> m_wanted;         // queue keys waiting for their subject's lease
    QHash<QString, int> m_manualOf; // subject -> its manual redeliveries queued here
    // The highest seq known here of each subject leased; a delivery added with a higher one
    // than the next means another instance added those between: read before going on.
    QHash<QString, qint64> m_lastSeq;
    QSet<QString> m_gaps; // leased subjects to read again before their next attempt
    QTimer *m_leaseTimer = nullptr;
    bool m_acquireQueued = false;
    // The lease tick under way (leaseTick to finishTick): its idle subjects, those still to
    // give up, those given up, and whether giving up failed.
    bool m_ticking = false;
    QStringList m_tickIdle;
    QStringList m_toRelease;
    QSet<QString> m_released;
    bool m_releaseFailed = false;
    std::mt19937_64 m_rng{std::random_device{}()};
    std::atomic<qint64> m_attemptsMade{0};
    std::atomic<qint64> m_succeeded{0};
    std::atomic<int> m_inFlightCount{0};
    std::atomic<int> m_queuedSubjects{0};
};

} // namespace Gatehouse::Webhooks
