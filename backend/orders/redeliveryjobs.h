#pragma once

#include "core/database.h"
#include "core/result.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace Gatehouse::Core {
class Clock;
class EventBus;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::Orders {

class OrderService;

// Safe bulk redelivery (docs/orders.md): a filter over finished deliveries, a preview of the
// count and payloads, then a job that redelivers them one by one through the same path as a
// single redelivery, at most `ratePerSecond`, with its progress persisted and published
// (`redelivery.progress`) and a cancel. A job still running when the process stops resumes
// where it was at the next start. Finished jobs, and finished deliveries with their attempt
// logs, are kept `historyDays` (0: forever).
class RedeliveryJobs : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxDeliveries = 10'000;

    RedeliveryJobs(Core::Database &database, Core::WriteQueue &writer, Core::EventBus &events,
                   const Core::Clock &clock, OrderService &orders, int historyDays);
    ~RedeliveryJobs() override;

    static Core::Migration migration(); // schema version 10

    // Resumes jobs left running, prunes history, and prunes again every hour.
    Core::Result<void> start();

    // {"state"?: "failed" (default) | "succeeded" | "any", "customerId"?, "endpointId"?,
    //  "orderId"?, "from"?, "to"? (ISO 8601 creation times)}. Answers {count, capped,
    //  deliveries: the first `sample` with their payloads}.
    Core::Result<QJsonObject> preview(const QJsonObject &filter, int sample = 20) const;
    // {"filter": {...}, "ratePerSecond": 1..1000 (default 10), "actor"?}: 201 with the job.
    void create(const QJsonObject &request, std::function<void(Core::Result<QJsonObject>)> done);
    void cancel(const QString &id, const std::function<void(Core::Result<QJsonObject>)> &done);
    QJsonArray list(int limit) const;
    std::optional<QJsonObject> job(const QString &id) const;

    // Deletes finished jobs, and finished deliveries with their attempts, completed before
    // now - historyDays. Pending deliveries are never deleted. Returns how many deliveries.
    Core::Result<int> prune(qint64 nowMs);

private:
    struct Running;
    void run(const QString &id);
    void tick(const QString &id);
    void persist(const Running &r, std::function<void()> after = {});
    void finish(const QString &id, const QString &state);
    QJsonObject jobJson(const Running &r) const;
    qint64 nowMs() const;

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Core::EventBus &m_events;
    const Core::Clock &m_clock;
    OrderService &m_orders;
    int m_historyDays;
    QHash<QString, std::shared_ptr<Running>> m_running;
    QTimer m_pruneTimer;
};

} // namespace Gatehouse::Orders
