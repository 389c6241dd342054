#pragma once

#include "core/database.h"
#include "core/result.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <optional>

namespace Gatehouse::Core {
class JsonObjectWriter;
class WriteTransaction;
} // namespace Gatehouse::Core

namespace Gatehouse::Webhooks {

// A message waiting in (or handed to) the dispatcher. Times are ms since the epoch.
struct Delivery
{
    QString id; // the webhook-id, "msg_..."
    QString endpointId;
    QString ownerId;   // the customer whose secret signs it
    QString subjectId; // the order: deliveries of one subject go out in seq order
    qint64 seq = 0;
    QString eventType;
    QString label; // the order status, for people
    QString url;
    QByteArray payload;
    QString state; // pending | succeeded | failed
    int attempts = 0;
    qint64 nextAttemptAt = 0;
    qint64 createdAt = 0;
    bool manual = false; // a redelivery asked for by an administrator: one attempt, not ordered

    QJsonObject toJson() const; // without the payload bytes
    // The members of toJson() into `out` (for the events published as text).
    void writeJson(Core::JsonObjectWriter &out) const;
};

struct NewDelivery
{
    QString ownerId;
    QString subjectId;
    qint64 seq = 0;
    QString eventType;
    QString label;
    QString url;
    QByteArray payload;
};

struct AttemptRecord
{
    QString deliveryId;
    int number = 0;
    qint64 at = 0;
    QString url;
    QString trigger;           // scheduled | manual
    QByteArray requestHeaders; // a JSON object (compact, UTF-8) built by the dispatcher;
                               // empty: none sent
    int status = 0;            // 0: no answer
    double latencyMs = 0;
    QByteArray responseBody;
    QString error;
};

struct Endpoint
{
    QString id;
    QString ownerId;
    QString url;
    bool enabled = true;
    QString disabledReason;
    qint64 disabledAt = 0;
    qint64 failingSince = 0;
    qint64 lastSuccessAt = 0;
};

// Endpoints one writer job already looked up, by owner and URL (see enqueue).
struct EndpointRef
{
    QString id;
    bool enabled = true;
    QString disabledReason;
};
using EndpointCache = QHash<QString, EndpointRef>;

// SQL of the webhooks module. Writes take the writer's transaction; reads take a
// connection of the calling thread.
class WebhookStore
{
public:
    static Core::Migration migration(); // schema version 2

    // --- writes (inside a WriteQueue job) ---
    static Core::Result<Delivery> enqueue(Core::WriteTransaction &tx, const NewDelivery &d,
                                          qint64 now, EndpointCache *cache = nullptr);
    // Signing secrets are stored sealed with the database's sealer (Core::Database::seal),
    // bound to their owner: a secret copied into another owner's row does not open.
    static Core::Result<void> addSecret(Core::WriteTransaction &tx, const Core::Database &database,
                                        const QString &ownerId, const QString &secret, qint64 now);
    // Keeps the current secrets valid until now + overlapMs, adds the new one.
    static Core::Result<qint64> rotateSecret(Core::WriteTransaction &tx,
                                             const Core::Database &database, const QString &ownerId,
                                             const QString &secret, qint64 now, qint64 overlapMs);
    // At start-up, before the writer runs: seals the secrets an older build stored in the
    // clear, and stops (an error naming the ways out) when a sealed secret does not open with
    // this database key.
    static Core::Result<void> sealStoredSecrets(Core::Database &database);
    static Core::Result<void> recordAttempt(Core::WriteTransaction &tx, const AttemptRecord &a);
    static Core::Result<void> updateDelivery(Core::WriteTransaction &tx, const Delivery &d,
                                             int lastStatus, const QString &lastError,
                                             double lastLatencyMs, qint64 completedAt);
    static Core::Result<void> updateEndpoint(Core::WriteTransaction &tx, const Endpoint &e);
    // The dispatcher's result for an endpoint: failing_since and last_success_at, and, when
    // `disables` (its own decision: 410 Gone, failing too long), the disabled state, reason and
    // time, only if the endpoint is still enabled. Never writes a state read earlier.
    static Core::Result<void> recordEndpointOutcome(Core::WriteTransaction &tx, const Endpoint &e,
                                                    bool disables);
    static Core::Result<Delivery> markForRedelivery(Core::WriteTransaction &tx,
                                                    const QString &deliveryId, qint64 now);
    static Core::Result<Endpoint> setEndpointEnabled(Core::WriteTransaction &tx,
                                                     const QString &endpointId, bool enabled,
                                                     const QString &reason, qint64 now);

    // --- reads ---
    // The owner's secrets that still sign, newest first, as key bytes; one that does not open
    // is left out (logged without its value). `firstEnd`: when the first of them stops
    // signing (ms since the epoch; 0: none ends). An error when they could not be read, or
    // when the owner has secrets and none of them opens: never an empty list then, which
    // would send a delivery unsigned.
    static Core::Result<QList<QByteArray>> activeKeys(Core::Database &database,
                                                      const QString &ownerId, qint64 now,
                                                      qint64 *firstEnd = nullptr);
    // Pending deliveries created after `afterRowid`, in creation order (so every order's
    // deliveries come as a prefix), at most limit; *lastRowid is the last one read.
    static QList<Delivery> pending(const QSqlDatabase &db, qint64 afterRowid, int limit,
                                   qint64 *lastRowid);
    // The same for one owner, each with its rowid.
    static Core::Result<QList<std::pair<qint64, Delivery>>>
    pendingOfOwner(const QSqlDatabase &db, const QString &ownerId, qint64 afterRowid, int limit);
    // An index for pendingOfOwner.
    static Core::Migration ownerPendingMigration();
    // An error when it could not be read (never read as "no such endpoint").
    static Core::Result<std::optional<Endpoint>> endpoint(const QSqlDatabase &db,
                                                          const QString &id);
    static QJsonObject endpointJson(const QSqlDatabase &db, const Endpoint &e);
    static QJsonObject endpointJson(const Endpoint &e, qint64 pendingDeliveries);
    // GET /admin/v1/endpoints: newest first, a page of `limit` older than endpoint `before`
    // (when set), by customer and state (enabled, disabled); each with its pending deliveries
    // counted in the same statement.
    struct EndpointFilter
    {
        QString customerId;
        QString state;
        QString before;
        int limit = 100;
    };
    // An error when they could not be read (never an empty list then).
    static Core::Result<QList<QJsonObject>> endpointList(const QSqlDatabase &db,
                                                         const EndpointFilter &f);
    struct DeliveryFilter
    {
        QString subjectId;
        QString state;
        QString endpointId;
        int limit = 100;
    };
    static QList<QJsonObject> deliveries(const QSqlDatabase &db, const DeliveryFilter &f);
    static std::optional<QJsonObject> delivery(const QSqlDatabase &db, const QString &id,
                                               bool withAttempts);
    static QJsonObject secretInfo(Core::Database &database, const QString &ownerId, qint64 now);

    // --- leases (PostgreSQL, docs/storage.md "Webhook deliveries and leases") ---
    // A subject's pending deliveries go out only from the instance that holds its lease: one
    // row per subject with the holder and a fencing token that grows whenever another holder
    // takes the lease. A lease lasts as long as its holder: one row per holder with an expiry
    // the holder keeps moving (renewHolder), whatever it holds. Results are recorded only
    // under the fence they were attempted under. Reads and claims run on the calling thread's
    // connection (autocommit); the release and the fenced results in the writer's transaction.
    static Core::Migration leaseMigration(); // schema version 24
    // Schema version 35: the holders' rows (webhook_lease_holders), and no expiry per lease.
    static Core::Migration holderMigration();
    // Schema version 36: the row of kHandedOver.
    static Core::Migration handOverMigration();
    // Schema version 29, PostgreSQL only: endpoint state changes and secrets announced on the
    // change feed (ChangeFeed), so that every instance's dispatcher reads them again.
    static Core::Migration changesMigration();
    struct Lease
    {
        QString subjectId;
        qint64 fence = 0;
    };
    // Takes the leases of `subjects` that are free, held by `holder` already (its fence
    // unchanged then), or held by a holder whose time ran out at `now`; those held by another
    // live holder are left out of the answer. A holder without a row gets one whose time has
    // run out: its leases count once renewHolder() gave it time.
    static Core::Result<QList<Lease>> acquireLeases(Core::Database &database,
                                                    const QStringList &subjects,
                                                    const QString &holder, qint64 now);
    // Gives `holder` (every lease it holds) time until `expiresAt`; answers whether its time
    // had not run out at `now`. If it had, other instances may have taken some of its leases
    // (heldLeases() says which are left).
    static Core::Result<bool> renewHolder(const QSqlDatabase &db, const QString &holder, qint64 now,
                                          qint64 expiresAt);
    // The leases `holder` holds.
    static Core::Result<QList<Lease>> heldLeases(const QSqlDatabase &db, const QString &holder);
    // The holders whose time has not run out at `now`.
    static Core::Result<QStringList> timelyHolders(const QSqlDatabase &db, qint64 now);
    // Ends `holder`'s time now: a process known to have ended (Instances::ranHereAndEnded),
    // whose leases are then taken over at once rather than when its time runs out.
    static Core::Result<void> endHolder(const QSqlDatabase &db, const QString &holder);
    // Deletes the rows of holders whose time ran out before `expiredBefore` and that hold no
    // lease (processes that died), except the hand-over holder's. Answers how many.
    static Core::Result<int> forgetHolders(const QSqlDatabase &db, qint64 expiredBefore);
    // Subjects with deliveries due and nobody to send them, at most `limit`: their holder's
    // time ran out (it died or stalled), or they have no lease and were due before
    // `unleasedDueBefore`. A holder's row stays after it died (one row per process that did
    // not stop) until forgetHolders(). Leases are locked with SKIP LOCKED, so that instances taking
    // over at once share the work instead of queueing on each other's rows. Unleased ones are
    // looked for among the `scan` pending deliveries after `*cursor` (a subject id; empty: the
    // first), which is moved on (cleared at the end).
    static Core::Result<QList<Lease>> claimOrphans(const QSqlDatabase &db, const QString &holder,
                                                   qint64 now, qint64 unleasedDueBefore, int limit,
                                                   QString *cursor, int scan);
    // The pending deliveries of `subjects`, in seq order per subject.
    static Core::Result<QList<Delivery>> pendingOf(const QSqlDatabase &db,
                                                   const QStringList &subjects);
    // The result of an attempt under `fence`: false (nothing written) when the lease moved on.
    static Core::Result<bool> updateDeliveryFenced(Core::WriteTransaction &tx, const Delivery &d,
                                                   int lastStatus, const QString &lastError,
                                                   double lastLatencyMs, qint64 completedAt,
                                                   const QString &holder, qint64 fence);
    // The same, not waited for (Statement::execLater): `*changed` is 1 once the queue was read
    // (WriteTransaction::readQueued()) if it was written, 0 if the lease moved on. `changed`
    // must outlive the job's transaction: the writer reads what is queued when the job ends.
    static Core::Result<void> queueDeliveryFenced(Core::WriteTransaction &tx, const Delivery &d,
                                                  int lastStatus, const QString &lastError,
                                                  double lastLatencyMs, qint64 completedAt,
                                                  const QString &holder, qint64 fence,
                                                  int *changed);
    // Gives up `holder`'s leases on those of `subjects` with nothing pending; answers the
    // subjects given up. One not given up still has pending deliveries (rows another instance
    // added while this one held the lease): the holder reads them and goes on.
    static Core::Result<QStringList>
    releaseIdleLeases(const QSqlDatabase &db, const QStringList &subjects, const QString &holder);
    // A stop, after its last results: `holder`'s leases with deliveries pending go to
    // kHandedOver (taken over by the next instance that looks, as a dead holder's are), the
    // others are given up, and its row is deleted.
    static Core::Result<void> releaseAllLeases(Core::WriteTransaction &tx, const QString &holder);
    // The holder of the leases handed over at a stop: a row whose time has always run out
    // (schema 36). No instance is named so (Options::leaseHolder empty: no leases).
    static constexpr const char *kHandedOver = "";
};

QString isoTime(qint64 msSinceEpoch); // "" for 0

} // namespace Gatehouse::Webhooks
