#pragma once

#include "core/result.h"
#include "orders/order.h"
#include "webhooks/webhookstore.h"

#include <QJsonObject>
#include <QMutex>
#include <QSet>
#include <QStringList>
#include <QThread>

#include <functional>
#include <memory>
#include <optional>

namespace Gatehouse::Core {
class Clock;
class Database;
class EventBus;
class EventQueue;
class WriteQueue;
class WriteTransaction;
} // namespace Gatehouse::Core

namespace Gatehouse::Webhooks {
class Dispatcher;
}

namespace Gatehouse::Orders {

// The order domain: creation, the lifecycle (validation, allocation, pickup, delivery,
// cancellation), the catalog's stock and the customer registry. Every change goes through
// the single database writer; each status change is written together with its history row
// and, when the order has a callback URL, its webhook delivery (transactional outbox).
// Completion callbacks run on the writer thread after the commit.
class OrderService
{
public:
    OrderService(Core::Database &database, Core::WriteQueue &writer, Core::EventBus &events,
                 const Core::Clock &clock, Webhooks::Dispatcher *dispatcher,
                 Core::EventQueue *eventQueue = nullptr);

    // Several instances on one database (PostgreSQL): this process's instance id, written on
    // the orders it creates and takes up as the one that runs their lifecycle, and who is
    // alive now (their ids; nullopt when it cannot tell). Set before start(). Unset, this
    // process has the database alone: orders name nobody, and start() takes up every one.
    void setInstance(QString id, std::function<std::optional<QSet<QString>>()> alive);

    // At start (blocking): the demo catalog and a demo customer on an empty database, then
    // orders a crash interrupted are taken up again (with setInstance(): those of instances
    // gone, and those that name none).
    Core::Result<void> start(bool demoData);

    struct Created
    {
        Order order;
        QByteArray body; // the 201 body
        bool replayed = false;
        QString customerName;
    };
    void create(const QString &customerId, const OrderRequest &request,
                const QString &idempotencyKey, const QByteArray &bodyHash,
                std::function<void(Core::Result<Created>)> done);

    enum class Action { Pickup, Deliver, Cancel };
    // customerId empty: any customer (admin).
    void act(const QString &orderId, const QString &customerId, Action action,
             std::function<void(Core::Result<Order>)> done);

    // Orders whose lifecycle (validation, allocation) has yet to run: new orders (the 201
    // answers once the order is durable in NEW; the lifecycle runs behind it, in batches) and
    // those a stop or a crash interrupted, taken up at start.
    int lifecycleBacklog() const;

    // Several instances on one PostgreSQL database (setInstance()): orders still in the
    // lifecycle's first steps whose instance is gone (no heartbeat: it died or stopped), and
    // those that name no instance and were not changed for `idleMs`, are taken up here and
    // name this one from then on (each order to one instance, whoever comes first); every
    // instance calls it now and then. An order given up by a live instance waits for that
    // instance's next start. Advancing an order another instance advances too (an instance
    // believed gone that comes back) does no harm: each takes its turn
    // (OrderStore::lockLifecycle) and an order already past these steps is left as it is. Not
    // while the lifecycle is held.
    void takeUpStalled(qint64 idleMs);

    // Holding the lifecycle: orders are still accepted (201 in NEW, with their NEW callback) but
    // stay there until it is released; then they run oldest first. For a stock-take or a
    // catalog fix, and to show the queue in a demo. Not persisted here: the admin API keeps
    // it as a setting and sets it again before start().
    void setLifecycleHeld(bool held);
    bool lifecycleHeld() const;

    void restock(const QString &beerId, int quantity, std::function<void(Core::Result<Beer>)> done);
    void setDiscontinued(const QString &beerId, bool discontinued,
                         std::function<void(Core::Result<Beer>)> done);

    struct NewSecret
    {
        Customer customer;
        QString secret; // shown once
    };
    void createCustomer(const QString &name, const QString &id,
                        std::function<void(Core::Result<NewSecret>)> done);

private:
    struct Effects;
    Core::Result<void> transition(Core::WriteTransaction &tx, Order &order, OrderStatus to,
                                  qint64 now, Effects &fx);
    Core::Result<void> advance(Core::WriteTransaction &tx, Order &order, qint64 now, Effects &fx);
    Core::Result<bool> allocate(Core::WriteTransaction &tx, Order &order, Effects &fx);
    // The PENDING_INVENTORY orders still missing beerId, oldest first, take what is on the
    // shelf. reinstated: every such order with a line of beerId (discontinued, it held them
    // all back), whatever beerId's own stock.
    Core::Result<void> allocateWaiting(Core::WriteTransaction &tx, const QString &beerId,
                                       qint64 now, Effects &fx, bool reinstated = false);
    void apply(Effects &fx);
    void publish(const Effects &fx);
    void emitEvent(const QString &type, const QJsonObject &data); // in commit order
    Core::Result<std::optional<Beer>> beer(Core::WriteTransaction &tx, Effects &fx,
                                           const QString &id);
    Core::Result<std::optional<Beer>> beerByUpc(Core::WriteTransaction &tx, Effects &fx,
                                                const QString &upc);
    // Runs `work` on the writer; after the commit runs `afterCommit`, answers `done` with what
    // `work` filled in and publishes its effects (events, deliveries to the dispatcher).
    // Turn::Taken: `work` begins with OrderStore::lockLifecycle (WriteQueue::submitAtStart).
    enum class Turn { None, Taken };
    template <typename T>
    void commit(std::function<Core::Result<void>(Core::WriteTransaction &, Effects &, T &)> work,
                std::function<void(Core::Result<T>)> done,
                std::function<void(const T &)> afterCommit = {}, Turn turn = Turn::None);
    void scheduleAdvance(const QStringList &orderIds);
    // The orders of the instances not in `alive` (all but this one's; none when nullopt), and
    // of none named and not changed since `updatedBefore`, taken for this instance: at most
    // `limit`, in order of their runner, each runner's oldest first.
    Core::Result<QStringList> takeUp(Core::WriteTransaction &tx,
                                     const std::optional<QSet<QString>> &alive,
                                     qint64 updatedBefore, int limit) const;
    void submitAdvanceBatch();
    qint64 nowMs() const;

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Core::EventBus &m_events;
    const Core::Clock &m_clock;
    Webhooks::Dispatcher *m_dispatcher;

    Core::EventQueue *m_eventQueue; // events built and published there; null: inline
    QString m_instance;             // setInstance(); empty: alone on the database
    std::function<std::optional<QSet<QString>>()> m_alive;

    mutable QMutex m_advanceMutex;
    QStringList m_toAdvance;
    QStringList m_advancing;        // taken by the batch under way
    QSet<QString> m_givenUp;        // failed AdvanceAttempts times here: left for a restart
    int m_isolate = 0;              // the next this many orders go one per job (a batch failed)
    bool m_held = false;            // setLifecycleHeld
    QHash<QString, int> m_failures; // orders whose job failed on its own, and how often
    // Jobs in a row that the writer could not run (the database cannot be reached): the next
    // waits longer each time, up to a few seconds, and only the first is logged.
    int m_writerRefusals = 0;
    bool m_advanceQueued = false;
};

} // namespace Gatehouse::Orders
