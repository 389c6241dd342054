#pragma once

#include "core/database.h"
#include "core/result.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace Gatehouse::Core {
class Clock;
class EventBus;
class PostGuard;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::Webhooks {

class WebhookService;

// Safe bulk redelivery (docs/orders.md): a filter over finished deliveries, a preview of the
// count and payloads, then a job that redelivers them one by one through the same path as a
// single redelivery, at most `ratePerSecond`, with its progress persisted and published
// (`redelivery.progress`) and a cancel. A job still running when the process stops resumes
// where it was at the next start. Finished jobs, and finished deliveries with their attempt
// logs, are kept `historyDays` (0: forever); they are deleted by a pass at start and every hour,
// a chain of writer jobs of at most `pruneChunk` deliveries each, so that the other modules'
// commits go on between them.
// Who started a bulk redelivery job (RedeliveryJobs::create).
struct RedeliveryStarter
{
    QString tokenId;   // the scoped admin token's id; empty: the root token
    qint64 endsAt = 0; // its expiry, ms since the epoch; 0: never
};

class RedeliveryJobs : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxDeliveries = 10'000;
    // Jobs running at once, on all instances: with kMaxDeliveries each at up to 1,000 a second,
    // this bounds what the bulk redelivery of one writer token can send to customers' receivers.
    static constexpr int kMaxRunning = 4;

    RedeliveryJobs(Core::Database &database, Core::WriteQueue &writer, Core::EventBus &events,
                   const Core::Clock &clock, WebhookService &webhooks, int historyDays,
                   int pruneChunk = 2000);
    ~RedeliveryJobs() override;

    static Core::Migration migration(); // schema version 10
    // Schema version 28: the instance that runs a job (`holder`).
    static Core::Migration holderMigration();
    // Schema version 40: the admin token that started a job, and when it ends (`admin_token`,
    // `ends_at`).
    static Core::Migration starterMigration();

    // This process's instance id, recorded with the jobs it runs (docs/storage.md "Bulk
    // redelivery jobs across instances"); and, when other instances may share the database
    // (PostgreSQL), who is alive now (their ids). Set before start().
    // `alive` answers nullopt when it cannot tell (nothing is taken over then).
    void setInstance(QString id, std::function<std::optional<QSet<QString>>()> alive = {});

    // Resumes jobs left running (without an `alive` function all of them, since this process
    // has the database alone; else those whose instance is gone, as adoptOrphans), starts a
    // pass over the history, and another every hour.
    Core::Result<void> start();
    // Jobs still running whose instance is gone are taken over here, one instance each (a
    // conditional update of the holder), and go on where their last progress was written.
    // Backend: every 5 s on the instance that leads.
    void adoptOrphans();

    // {"state"?: "failed" (default) | "succeeded" | "any", "customerId"?, "endpointId"?,
    //  "orderId"?, "from"?, "to"? (ISO 8601 creation times)}. Answers {count, capped,
    //  deliveries: the first `sample` with their payloads}.
    Core::Result<QJsonObject> preview(const QJsonObject &filter, int sample = 20) const;
    // {"filter": {...}, "ratePerSecond": 1..1000 (default 10), "actor"?}: 201 with the job.
    // A job ends with the admin token that started it (docs/admin-tokens.md, "Nothing it
    // issues outlives it"): `startedBy` its id (empty: the root token), `endsAt` its expiry
    // (ms; 0: never). The job is cancelled when the token has expired or is gone.
    using Starter = RedeliveryStarter;
    void create(const QJsonObject &request, std::function<void(Core::Result<QJsonObject>)> done,
                const Starter &startedBy = {});
    // Whether an admin token still exists (Backend: AdminTokens); asked once a second for each
    // running job a scoped token started. Set before start().
    void setTokenAlive(std::function<bool(const QString &)> alive)
    {
        m_tokenAlive = std::move(alive);
    }
    // A job running on another instance is cancelled in the database; that instance stops it at
    // its next write of progress (within a tick, 50 ms, of its next redelivery).
    void cancel(const QString &id, const std::function<void(Core::Result<QJsonObject>)> &done);
    QJsonArray list(int limit) const;
    std::optional<QJsonObject> job(const QString &id) const;

    // One pass: deletes finished deliveries with their attempts, then finished jobs, completed
    // before nowMs - historyDays, oldest first. Pending deliveries are never deleted. `done`
    // gets how many deliveries, on this object's thread; a call while a pass runs joins it.
    using PruneDone = std::function<void(const Core::Result<int> &)>;
    void prune(qint64 nowMs, PruneDone done = {});
    // The passes at start and every hour run only while `scheduled` answers true (Backend:
    // while this instance leads the periodic jobs), when one is set. Set before start().
    void setScheduled(std::function<bool()> scheduled) { m_scheduled = std::move(scheduled); }

private:
    struct Running;
    struct PrunePass;
    void pruneStep();
    void pruneChunkDone(int removed, bool last, const Core::Result<void> &r);
    void finishPrune(const Core::Result<int> &r);
    void run(const QString &id);
    void tick(const QString &id);
    void persist(const Running &r, std::function<void()> after = {});
    void stoppedElsewhere(const QString &id);
    void finish(const QString &id, const QString &state);
    QJsonObject jobJson(const Running &r) const;
    qint64 nowMs() const;

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Core::EventBus &m_events;
    const Core::Clock &m_clock;
    WebhookService &m_webhooks;
    int m_historyDays;
    const int m_pruneChunk;
    std::function<bool(const QString &)> m_tokenAlive;
    QHash<QString, std::shared_ptr<Running>> m_running;
    std::function<bool()> m_scheduled;
    QString m_instance = QStringLiteral("this-process");
    std::function<std::optional<QSet<QString>>()> m_alive; // null: the database is ours alone
    QTimer m_pruneTimer;
    std::unique_ptr<PrunePass> m_prune;       // the pass running, if any
    std::shared_ptr<Core::PostGuard> m_guard; // lets the writer's callbacks reach this object
};

} // namespace Gatehouse::Webhooks
