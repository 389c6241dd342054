#pragma once

#include "core/database.h"
#include "core/result.h"
#include "orders/order.h"

#include <QHash>
#include <QSqlDatabase>

#include <optional>

namespace Gatehouse::Core {
class WriteTransaction;
}

namespace Gatehouse::Orders {

// SQL of the orders module. Writes take the writer's transaction, reads a connection of
// the calling thread. Times are ms since the epoch.
class OrderStore
{
public:
    static Core::Migration migration(); // schema version 3

    // --- writes ---
    // On PostgreSQL, where several instances share the orders: taken first by every job that
    // reads and then changes an order or a beer's stock (the lifecycle, an order's actions,
    // restock, discontinue), and held until the writer's transaction ends, so that the
    // instances take turns and each computes on what the others committed (a transaction-level
    // advisory lock; waits at most 10 s). Such jobs are submitted with submitAtStart, so that
    // this is their transaction's first wait. Creating an order needs no turn. Nothing on
    // SQLite, whose one writer is the only one.
    static Core::Result<void> lockLifecycle(Core::WriteTransaction &tx);
    // The turn if it is free, without waiting: false while another transaction holds it (a
    // lifecycle batch then leaves its orders for a moment later instead of holding up its
    // writer). True on SQLite.
    static Core::Result<bool> tryLockLifecycle(Core::WriteTransaction &tx);
    static Core::Result<void> insertCustomer(Core::WriteTransaction &tx, const Customer &c);
    static Core::Result<bool> customerExists(Core::WriteTransaction &tx, const QString &id);
    static Core::Result<std::optional<QString>> customerName(Core::WriteTransaction &tx,
                                                             const QString &id);
    static Core::Result<void> insertBeer(Core::WriteTransaction &tx, const Beer &b, qint64 now);
    static Core::Result<std::optional<Beer>> beerByUpc(Core::WriteTransaction &tx,
                                                       const QString &upc);
    static Core::Result<std::optional<Beer>> beerById(Core::WriteTransaction &tx,
                                                      const QString &id);
    static Core::Result<void> setStock(Core::WriteTransaction &tx, const QString &beerId,
                                       int quantityOnHand);
    static Core::Result<void> setDiscontinued(Core::WriteTransaction &tx, const QString &beerId,
                                              bool discontinued);
    static Core::Result<bool> customerRefUsed(Core::WriteTransaction &tx, const QString &customerId,
                                              const QString &ref);
    static Core::Error duplicateCustomerRef(const QString &customerId, const QString &ref);
    // The order row and its lines, then its history row for o's status.
    static Core::Result<void> insertOrder(Core::WriteTransaction &tx, const Order &o);
    // The order row and its lines only (as they are in o). `lifecycleBy`: the instance that
    // runs its lifecycle (null when empty). An order with a customerRef another order of the
    // customer has (committed by another instance since customerRefUsed() looked): 409
    // duplicate-customer-ref, and the job must end with it.
    static Core::Result<void> insertOrderRows(Core::WriteTransaction &tx, const Order &o,
                                              const QString &lifecycleBy = {});
    static Core::Result<void> updateOrder(Core::WriteTransaction &tx, const Order &o);
    static Core::Result<void> updateLine(Core::WriteTransaction &tx, const OrderLine &l);
    static Core::Result<void> insertHistory(Core::WriteTransaction &tx, const Order &o);
    static Core::Result<std::optional<Order>> loadOrder(Core::WriteTransaction &tx,
                                                        const QString &id);
    // PENDING_INVENTORY orders missing beerId (anyLine: with any line of it), oldest first.
    static Core::Result<QStringList> ordersWaitingFor(Core::WriteTransaction &tx,
                                                      const QString &beerId, bool anyLine = false);
    struct IdempotencyRecord
    {
        QByteArray bodyHash;
        QByteArray response;
        QString orderId;
    };
    // An Idempotency-Key is remembered this long (Stripe's 24 hours): then the same key places
    // a new order. Each key stored deletes up to kIdempotencyPrunedPerInsert of the customer's
    // expired ones, so that what is kept stays about a day's keys.
    static constexpr qint64 kIdempotencyKeptMs = 24LL * 3600 * 1000;
    static constexpr int kIdempotencyPrunedPerInsert = 8;
    static Core::Result<std::optional<IdempotencyRecord>> idempotency(Core::WriteTransaction &tx,
                                                                      const QString &customerId,
                                                                      const QString &key,
                                                                      qint64 now);
    // False (nothing stored): a live record of the key exists, which another instance's
    // request stored since idempotency() looked (on PostgreSQL it waits for that request's
    // transaction to end); idempotency() reads it now.
    static Core::Result<bool> insertIdempotency(Core::WriteTransaction &tx,
                                                const QString &customerId, const QString &key,
                                                const IdempotencyRecord &r, qint64 now);
    // The index for pruning a customer's expired keys.
    static Core::Migration idempotencyExpiryMigration();
    static Core::Result<int> countBeers(Core::WriteTransaction &tx);
    static Core::Result<int> countCustomers(Core::WriteTransaction &tx);
    static Core::Result<QStringList> unfinishedOrders(Core::WriteTransaction &tx);
    // Schema version 37: which instance runs each order's lifecycle (orders.lifecycle_by), so
    // that the orders of an instance gone are taken up as soon as it is known to be gone.
    static Core::Migration lifecycleByMigration();
    // The instances named as running the lifecycle of unfinished orders ("" for orders that
    // name none: written before schema 37, or by a process that has no name).
    static Core::Result<QStringList> lifecycleRunners(Core::WriteTransaction &tx);
    // Takes up to `limit` unfinished orders whose lifecycle `from` runs ("": none named, and
    // then only those not changed since `updatedBefore`) for `to`: they name `to` from now
    // on. Their ids, oldest first.
    static Core::Result<QStringList> takeUpOrders(Core::WriteTransaction &tx, const QString &from,
                                                  const QString &to, qint64 updatedBefore,
                                                  int limit);

    // --- reads ---
    // The reads the /v1 API answers from fail with Database::readFailed (503 while the
    // database cannot be reached): a read that failed is never taken for "not found".
    static Core::Result<std::optional<Order>> order(const QSqlDatabase &db, const QString &id);
    struct Page
    {
        QList<QJsonObject> items;
        qint64 total = 0;
    };
    static Core::Result<Page> customerOrders(const QSqlDatabase &db, const QString &customerId,
                                             int pageNumber, int pageSize);
    struct OrderFilter
    {
        QString customerId;
        QString status;
        QString before; // order id: only older ones
        int limit = 100;
    };
    static QList<QJsonObject> adminOrders(const QSqlDatabase &db, const OrderFilter &f);
    static QList<QJsonObject> history(const QSqlDatabase &db, const QString &orderId);
    static Core::Result<std::optional<Customer>> customer(const QSqlDatabase &db,
                                                          const QString &id);
    static QList<QJsonObject> customers(const QSqlDatabase &db);
    static QHash<QString, QString> customerNames(const QSqlDatabase &db);
    struct BeerFilter
    {
        QString name;
        QString style;
    };
    static Core::Result<Page> beers(const QSqlDatabase &db, const BeerFilter &f, int pageNumber,
                                    int pageSize, bool admin);
    static Core::Result<std::optional<Beer>> beer(const QSqlDatabase &db, const QString &id,
                                                  bool byUpc);
};

} // namespace Gatehouse::Orders
