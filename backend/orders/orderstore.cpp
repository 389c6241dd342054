#include "orders/orderstore.h"
#include "core/sqlwhere.h"

#include "core/writequeue.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

namespace Gatehouse::Orders {

using Core::Result;
using Core::WriteTransaction;

namespace {

const QString OrderColumns = QStringLiteral(
    "id, customer_id, customer_ref, callback_url, status, version, created_at, updated_at");
const QString BeerColumns =
    QStringLiteral("id, beer_name, beer_style, upc, price, quantity_on_hand, discontinued");

// One reading of each row shape for both ways a row arrives: a QSqlQuery (reads on any
// thread) and the writer's Statement. SqlRow gives QSqlQuery the Statement's accessors.
struct SqlRow
{
    const QSqlQuery &q;
    QString text(int i) const { return q.value(i).toString(); }
    qint64 int64(int i) const { return q.value(i).toLongLong(); }
    bool isNull(int i) const { return q.value(i).isNull(); }
};

template <typename Row> Order orderFrom(const Row &r)
{
    Order o;
    o.id = r.text(0);
    o.customerId = r.text(1);
    if (!r.isNull(2))
        o.customerRef = r.text(2);
    o.callbackUrl = r.text(3);
    o.status = parseStatus(r.text(4)).value_or(OrderStatus::New);
    o.version = int(r.int64(5));
    o.createdAt = r.int64(6);
    o.updatedAt = r.int64(7);
    return o;
}

template <typename Row> OrderLine lineFrom(const Row &r)
{
    OrderLine l;
    l.id = r.text(0);
    l.beerId = r.text(1);
    l.upc = r.text(2);
    l.orderQuantity = int(r.int64(3));
    l.quantityAllocated = int(r.int64(4));
    return l;
}

template <typename Row> Beer beerFrom(const Row &r)
{
    Beer b;
    b.id = r.text(0);
    b.beerName = r.text(1);
    b.beerStyle = r.text(2);
    b.upc = r.text(3);
    b.price = r.text(4);
    b.quantityOnHand = int(r.int64(5));
    b.discontinued = r.int64(6) != 0;
    return b;
}

Order orderFromRow(const QSqlQuery &q)
{
    return orderFrom(SqlRow{q});
}

Beer beerFromRow(const QSqlQuery &q)
{
    return beerFrom(SqlRow{q});
}

const QString LinesSql = QStringLiteral(
    "SELECT id, beer_id, upc, order_quantity, quantity_allocated FROM order_lines WHERE "
    "order_id = ? ORDER BY position");

QList<OrderLine> readLines(QSqlQuery &q)
{
    QList<OrderLine> lines;
    while (q.next())
        lines.append(lineFrom(SqlRow{q}));
    return lines;
}

} // namespace

Core::Migration OrderStore::migration()
{
    return {3,
            QStringLiteral("orders: customers, beers, orders, lines, history, idempotency keys"),
            {QStringLiteral("CREATE TABLE customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
                            "created_at INTEGER NOT NULL)"),
             QStringLiteral("CREATE TABLE beers (id TEXT PRIMARY KEY, beer_name TEXT NOT NULL, "
                            "beer_style TEXT NOT NULL, upc TEXT NOT NULL UNIQUE, price TEXT NOT "
                            "NULL, quantity_on_hand INTEGER NOT NULL, discontinued INTEGER NOT "
                            "NULL DEFAULT 0, created_at INTEGER NOT NULL)"),
             QStringLiteral("CREATE TABLE orders (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL "
                            "REFERENCES customers(id), customer_ref TEXT, callback_url TEXT, "
                            "status TEXT NOT NULL, version INTEGER NOT NULL, created_at INTEGER "
                            "NOT NULL, updated_at INTEGER NOT NULL)"),
             QStringLiteral("CREATE UNIQUE INDEX orders_customer_ref ON orders(customer_id, "
                            "customer_ref) WHERE customer_ref IS NOT NULL"),
             QStringLiteral("CREATE INDEX orders_customer ON orders(customer_id)"),
             QStringLiteral("CREATE INDEX orders_status ON orders(status)"),
             QStringLiteral("CREATE TABLE order_lines (id TEXT PRIMARY KEY, order_id TEXT NOT "
                            "NULL, position INTEGER NOT NULL, upc TEXT NOT NULL, beer_id TEXT, "
                            "order_quantity INTEGER NOT NULL, quantity_allocated INTEGER NOT NULL "
                            "DEFAULT 0)"),
             QStringLiteral("CREATE INDEX order_lines_order ON order_lines(order_id, position)"),
             QStringLiteral("CREATE INDEX order_lines_beer ON order_lines(beer_id)"),
             QStringLiteral("CREATE TABLE order_history (order_id TEXT NOT NULL, version INTEGER "
                            "NOT NULL, status TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY "
                            "(order_id, version)) WITHOUT ROWID"),
             QStringLiteral("CREATE TABLE idempotency_keys (customer_id TEXT NOT NULL, key TEXT "
                            "NOT NULL, body_hash BLOB NOT NULL, order_id TEXT NOT NULL, response "
                            "BLOB NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY "
                            "(customer_id, key)) WITHOUT ROWID")},
            // SQLite's rowid (insertion order: lists, waiting orders) as a column; SQLite's
            // orders_customer index holds it implicitly.
            {QStringLiteral("ALTER TABLE orders ADD COLUMN rowid BIGINT GENERATED ALWAYS AS "
                            "IDENTITY UNIQUE"),
             QStringLiteral("CREATE INDEX orders_customer_rowid ON orders(customer_id, rowid)")}};
}

Result<void> OrderStore::insertCustomer(WriteTransaction &tx, const Customer &c)
{
    // ON CONFLICT rather than a failed INSERT: on PostgreSQL a failed statement ends the
    // transaction, and the engines word the error differently.
    QSqlQuery &q = tx.query(QStringLiteral("INSERT INTO customers (id, name, created_at) VALUES "
                                           "(?, ?, ?) ON CONFLICT (id) DO NOTHING"));
    q.addBindValue(c.id);
    q.addBindValue(c.name);
    q.addBindValue(c.createdAt);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "insert customer");
    if (q.numRowsAffected() == 0)
        return Core::makeError(QStringLiteral("customer-exists"),
                               QStringLiteral("a customer with id %1 exists").arg(c.id), 409);
    return {};
}

Result<bool> OrderStore::customerExists(WriteTransaction &tx, const QString &id)
{
    Core::Statement &q = tx.stmt("SELECT 1 FROM customers WHERE id = ?");
    q.bind(1, id);
    const bool found = q.next();
    if (!q.ok())
        return WriteTransaction::sqlError(q, "find customer");
    return found;
}

Result<std::optional<QString>> OrderStore::customerName(WriteTransaction &tx, const QString &id)
{
    Core::Statement &q = tx.stmt("SELECT name FROM customers WHERE id = ?");
    q.bind(1, id);
    std::optional<QString> name;
    if (q.next())
        name = q.text(0);
    if (!q.ok())
        return WriteTransaction::sqlError(q, "find customer");
    return name;
}

Result<void> OrderStore::insertBeer(WriteTransaction &tx, const Beer &b, qint64 now)
{
    QSqlQuery &q = tx.query(QStringLiteral(
        "INSERT INTO beers (id, beer_name, beer_style, upc, price, quantity_on_hand, "
        "discontinued, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(b.id);
    q.addBindValue(b.beerName);
    q.addBindValue(b.beerStyle);
    q.addBindValue(b.upc);
    q.addBindValue(b.price);
    q.addBindValue(b.quantityOnHand);
    q.addBindValue(b.discontinued ? 1 : 0);
    q.addBindValue(now);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "insert beer");
    return {};
}

Result<void> OrderStore::lockLifecycle(WriteTransaction &tx)
{
    return tx.takeTurn(7418235100419, "wait for the orders' turn");
}

Result<bool> OrderStore::tryLockLifecycle(WriteTransaction &tx)
{
    if (!tx.isPostgres())
        return true;
    Core::Statement &q =
        tx.stmt("SELECT set_config('idle_in_transaction_session_timeout', '30s', true), "
                "pg_try_advisory_xact_lock(7418235100419)");
    if (!q.next())
        return WriteTransaction::sqlError(q, "take the orders' turn");
    return q.int64(1) != 0;
}

Result<std::optional<Beer>> OrderStore::beerByUpc(WriteTransaction &tx, const QString &upc)
{
    Core::Statement &q = tx.stmt(
        "SELECT id, beer_name, beer_style, upc, price, quantity_on_hand, discontinued FROM beers "
        "WHERE upc = ?");
    q.bind(1, upc);
    std::optional<Beer> b;
    if (q.next())
        b = beerFrom(q);
    if (!q.ok())
        return WriteTransaction::sqlError(q, "find beer");
    return b;
}

Result<std::optional<Beer>> OrderStore::beerById(WriteTransaction &tx, const QString &id)
{
    Core::Statement &q = tx.stmt(
        "SELECT id, beer_name, beer_style, upc, price, quantity_on_hand, discontinued FROM beers "
        "WHERE id = ?");
    q.bind(1, id);
    std::optional<Beer> b;
    if (q.next())
        b = beerFrom(q);
    if (!q.ok())
        return WriteTransaction::sqlError(q, "find beer");
    return b;
}

Result<void> OrderStore::setStock(WriteTransaction &tx, const QString &beerId, int quantityOnHand)
{
    Core::Statement &q = tx.stmt("UPDATE beers SET quantity_on_hand = ? WHERE id = ?");
    if (!q.bind(1, quantityOnHand).bind(2, beerId).execLater())
        return WriteTransaction::sqlError(q, "update stock");
    return {};
}

Result<void> OrderStore::setDiscontinued(WriteTransaction &tx, const QString &beerId,
                                         bool discontinued)
{
    QSqlQuery &q = tx.query(QStringLiteral("UPDATE beers SET discontinued = ? WHERE id = ?"));
    q.addBindValue(discontinued ? 1 : 0);
    q.addBindValue(beerId);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "update beer");
    return {};
}

Result<bool> OrderStore::customerRefUsed(WriteTransaction &tx, const QString &customerId,
                                         const QString &ref)
{
    Core::Statement &q = tx.stmt("SELECT 1 FROM orders WHERE customer_id = ? AND customer_ref = ?");
    q.bind(1, customerId).bind(2, ref);
    const bool used = q.next();
    if (!q.ok())
        return WriteTransaction::sqlError(q, "find customerRef");
    return used;
}

Result<void> OrderStore::insertOrder(WriteTransaction &tx, const Order &o)
{
    if (auto r = insertOrderRows(tx, o); !r)
        return r;
    return insertHistory(tx, o);
}

Result<void> OrderStore::insertOrderRows(WriteTransaction &tx, const Order &o,
                                         const QString &lifecycleBy)
{
    Core::Statement &q =
        tx.stmt("INSERT INTO orders (id, customer_id, customer_ref, callback_url, status, version, "
                "created_at, updated_at, lifecycle_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q.bind(1, o.id).bind(2, o.customerId);
    if (o.customerRef)
        q.bind(3, *o.customerRef);
    else
        q.bindNull(3);
    q.bindTextOrNull(4, o.callbackUrl)
        .bind(5, statusName(o.status))
        .bind(6, o.version)
        .bind(7, o.createdAt)
        .bind(8, o.updatedAt)
        .bindTextOrNull(9, lifecycleBy);
    // Not waited for (Statement::execLater) without a customerRef: nothing to answer for, a
    // failure is a database error. With one, waited for: customerRefUsed() looked first, but
    // another instance (PostgreSQL) may have committed the same one since; the insert waits
    // for that transaction and then fails on the unique index.
    if (o.customerRef) {
        if (!q.exec()) {
            if (q.violatedUnique())
                return duplicateCustomerRef(o.customerId, *o.customerRef);
            return WriteTransaction::sqlError(q, "insert order");
        }
    } else if (!q.execLater()) {
        return WriteTransaction::sqlError(q, "insert order");
    }
    for (qsizetype i = 0; i < o.lines.size(); ++i) {
        const OrderLine &line = o.lines[i];
        Core::Statement &l = tx.stmt(
            "INSERT INTO order_lines (id, order_id, position, upc, beer_id, order_quantity, "
            "quantity_allocated) VALUES (?, ?, ?, ?, ?, ?, ?)");
        l.bind(1, line.id)
            .bind(2, o.id)
            .bind(3, int(i))
            .bind(4, line.upc)
            .bindTextOrNull(5, line.beerId)
            .bind(6, line.orderQuantity)
            .bind(7, line.quantityAllocated);
        if (!l.execLater())
            return WriteTransaction::sqlError(l, "insert order line");
    }
    return {};
}

Result<void> OrderStore::updateOrder(WriteTransaction &tx, const Order &o)
{
    Core::Statement &q =
        tx.stmt("UPDATE orders SET status = ?, version = ?, updated_at = ? WHERE id = ?");
    if (!q.bind(1, statusName(o.status))
             .bind(2, o.version)
             .bind(3, o.updatedAt)
             .bind(4, o.id)
             .execLater())
        return WriteTransaction::sqlError(q, "update order");
    return {};
}

Result<void> OrderStore::updateLine(WriteTransaction &tx, const OrderLine &l)
{
    Core::Statement &q =
        tx.stmt("UPDATE order_lines SET beer_id = ?, quantity_allocated = ? WHERE id = ?");
    if (!q.bindTextOrNull(1, l.beerId).bind(2, l.quantityAllocated).bind(3, l.id).execLater())
        return WriteTransaction::sqlError(q, "update order line");
    return {};
}

Result<void> OrderStore::insertHistory(WriteTransaction &tx, const Order &o)
{
    Core::Statement &q =
        tx.stmt("INSERT INTO order_history (order_id, version, status, at) VALUES (?, ?, ?, ?)");
    if (!q.bind(1, o.id)
             .bind(2, o.version)
             .bind(3, statusName(o.status))
             .bind(4, o.updatedAt)
             .execLater())
        return WriteTransaction::sqlError(q, "insert history");
    return {};
}

Result<std::optional<Order>> OrderStore::loadOrder(WriteTransaction &tx, const QString &id)
{
    Core::Statement &q = tx.stmt("SELECT id, customer_id, customer_ref, callback_url, status, "
                                 "version, created_at, updated_at FROM orders WHERE id = ?");
    q.bind(1, id);
    if (!q.next()) {
        if (!q.ok())
            return WriteTransaction::sqlError(q, "load order");
        return std::optional<Order>();
    }
    Order o = orderFrom(q);
    Core::Statement &l = tx.stmt("SELECT id, beer_id, upc, order_quantity, quantity_allocated "
                                 "FROM order_lines WHERE order_id = ? ORDER BY position");
    l.bind(1, id);
    while (l.next())
        o.lines.append(lineFrom(l));
    if (!l.ok())
        return WriteTransaction::sqlError(l, "load order lines");
    return std::optional<Order>(std::move(o));
}

Result<QStringList> OrderStore::ordersWaitingFor(WriteTransaction &tx, const QString &beerId,
                                                 bool anyLine)
{
    QSqlQuery &q = tx.query(
        anyLine ? QStringLiteral("SELECT o.id FROM orders o WHERE o.status = 'PENDING_INVENTORY' "
                                 "AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = "
                                 "o.id AND l.beer_id = ?) ORDER BY o.rowid")
                : QStringLiteral(
                      "SELECT o.id FROM orders o WHERE o.status = 'PENDING_INVENTORY' AND EXISTS "
                      "(SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.beer_id = ? "
                      "AND l.quantity_allocated < l.order_quantity) ORDER BY o.rowid"));
    q.addBindValue(beerId);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "find waiting orders");
    QStringList ids;
    while (q.next())
        ids.append(q.value(0).toString());
    return ids;
}

Result<std::optional<OrderStore::IdempotencyRecord>>
OrderStore::idempotency(WriteTransaction &tx, const QString &customerId, const QString &key,
                        qint64 now)
{
    Core::Statement &q = tx.stmt("SELECT body_hash, response, order_id FROM idempotency_keys "
                                 "WHERE customer_id = ? AND key = ? AND created_at > ?");
    q.bind(1, customerId).bind(2, key).bind(3, now - kIdempotencyKeptMs);
    std::optional<IdempotencyRecord> r;
    if (q.next())
        r = IdempotencyRecord{q.blob(0), q.blob(1), q.text(2)};
    if (!q.ok())
        return WriteTransaction::sqlError(q, "find idempotency key");
    return r;
}

Result<bool> OrderStore::insertIdempotency(WriteTransaction &tx, const QString &customerId,
                                           const QString &key, const IdempotencyRecord &r,
                                           qint64 now)
{
    const qint64 expired = now - kIdempotencyKeptMs;
    Core::Statement &prune = tx.stmt(
        "DELETE FROM idempotency_keys WHERE customer_id = ? AND key IN (SELECT key FROM "
        "idempotency_keys WHERE customer_id = ? AND created_at <= ? ORDER BY created_at LIMIT ?)");
    prune.bind(1, customerId).bind(2, customerId).bind(3, expired);
    if (!prune.bind(4, kIdempotencyPrunedPerInsert).exec())
        return WriteTransaction::sqlError(prune, "prune idempotency keys");
    // An expired row of the same key (not pruned yet) is replaced; a live one is never (the
    // lookup found none: only another instance's request in the same moment stored it).
    Core::Statement &q = tx.stmt(
        "INSERT INTO idempotency_keys (customer_id, key, body_hash, order_id, response, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (customer_id, key) DO UPDATE SET "
        "body_hash = excluded.body_hash, order_id = excluded.order_id, response = "
        "excluded.response, created_at = excluded.created_at WHERE idempotency_keys.created_at "
        "<= ?");
    q.bind(1, customerId).bind(2, key).bindBlob(3, r.bodyHash).bind(4, r.orderId);
    q.bindBlob(5, r.response).bind(6, now).bind(7, expired);
    if (!q.exec())
        return WriteTransaction::sqlError(q, "insert idempotency key");
    return q.changes() == 1;
}

Core::Error OrderStore::duplicateCustomerRef(const QString &customerId, const QString &ref)
{
    return Core::Error{QStringLiteral("duplicate-customer-ref"),
                       QStringLiteral("customer %1 already has an order with customerRef '%2'")
                           .arg(customerId, ref),
                       409};
}

Core::Migration OrderStore::idempotencyExpiryMigration()
{
    return {31,
            QStringLiteral("orders: idempotency keys by age, kept a day"),
            {QStringLiteral("CREATE INDEX idempotency_keys_customer_created ON "
                            "idempotency_keys(customer_id, created_at)")}};
}

Result<int> OrderStore::countBeers(WriteTransaction &tx)
{
    QSqlQuery &q = tx.query(QStringLiteral("SELECT COUNT(*) FROM beers"));
    if (!q.exec() || !q.next())
        return WriteTransaction::sqlError(q, "count beers");
    const int n = q.value(0).toInt();
    q.finish();
    return n;
}

Result<int> OrderStore::countCustomers(WriteTransaction &tx)
{
    QSqlQuery &q = tx.query(QStringLiteral("SELECT COUNT(*) FROM customers"));
    if (!q.exec() || !q.next())
        return WriteTransaction::sqlError(q, "count customers");
    const int n = q.value(0).toInt();
    q.finish();
    return n;
}

Result<QStringList> OrderStore::unfinishedOrders(WriteTransaction &tx)
{
    QSqlQuery &q = tx.query(QStringLiteral(
        "SELECT id FROM orders WHERE status IN ('NEW', 'VALIDATION_PENDING', 'VALIDATED', "
        "'ALLOCATION_PENDING') ORDER BY rowid"));
    if (!q.exec())
        return WriteTransaction::sqlError(q, "find unfinished orders");
    QStringList ids;
    while (q.next())
        ids.append(q.value(0).toString());
    return ids;
}

Core::Migration OrderStore::lifecycleByMigration()
{
    return {37,
            QStringLiteral("orders: the instance that runs each order's lifecycle"),
            {QStringLiteral("ALTER TABLE orders ADD COLUMN lifecycle_by TEXT")}};
}

Result<QStringList> OrderStore::lifecycleRunners(WriteTransaction &tx)
{
    Core::Statement &q =
        tx.stmt("SELECT DISTINCT COALESCE(lifecycle_by, '') FROM orders WHERE status IN ('NEW', "
                "'VALIDATION_PENDING', 'VALIDATED', 'ALLOCATION_PENDING')");
    QStringList runners;
    while (q.next())
        runners.append(q.text(0));
    if (!q.ok())
        return WriteTransaction::sqlError(q, "find the lifecycle's instances");
    return runners;
}

Result<QStringList> OrderStore::takeUpOrders(WriteTransaction &tx, const QString &from,
                                             const QString &to, qint64 updatedBefore, int limit)
{
    // COALESCE: "" stands for none named (a NULL is equal to nothing). The runner is checked
    // again on the row itself: on PostgreSQL, a row another instance took up meanwhile is read
    // again once that one commits, and left to it.
    Core::Statement &q = tx.stmt(
        "UPDATE orders SET lifecycle_by = ? WHERE id IN (SELECT id FROM orders WHERE status IN "
        "('NEW', 'VALIDATION_PENDING', 'VALIDATED', 'ALLOCATION_PENDING') AND "
        "COALESCE(lifecycle_by, '') = ? AND (? <> '' OR updated_at < ?) ORDER BY rowid LIMIT ?) "
        "AND COALESCE(lifecycle_by, '') = ? RETURNING id, rowid");
    q.bindTextOrNull(1, to)
        .bind(2, from)
        .bind(3, from)
        .bind(4, updatedBefore)
        .bind(5, limit)
        .bind(6, from);
    QList<std::pair<qint64, QString>> taken;
    while (q.next())
        taken.append({q.int64(1), q.text(0)});
    if (!q.ok())
        return WriteTransaction::sqlError(q, "take up orders");
    std::sort(taken.begin(), taken.end()); // RETURNING comes in no particular order
    QStringList ids;
    ids.reserve(taken.size());
    for (const auto &[rowid, id] : std::as_const(taken))
        ids.append(id);
    return ids;
}

Result<std::optional<Order>> OrderStore::order(const QSqlDatabase &db, const QString &id)
{
    if (!db.isOpen()) // cannot be reached: not even a statement (Qt warns of each)
        return Core::Database::readFailed(db, QString());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT ") + OrderColumns +
              QStringLiteral(" FROM orders WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    if (!q.next())
        return std::optional<Order>();
    Order o = orderFromRow(q);
    QSqlQuery l(db);
    l.prepare(LinesSql);
    l.addBindValue(id);
    if (!l.exec())
        return Core::Database::readFailed(db, l.lastError().text());
    o.lines = readLines(l);
    return std::optional<Order>(std::move(o));
}

Result<OrderStore::Page> OrderStore::customerOrders(const QSqlDatabase &db,
                                                    const QString &customerId, int pageNumber,
                                                    int pageSize)
{
    if (!db.isOpen()) // cannot be reached: not even a statement (Qt warns of each)
        return Core::Database::readFailed(db, QString());
    Page page;
    QSqlQuery c(db);
    c.prepare(QStringLiteral("SELECT COUNT(*) FROM orders WHERE customer_id = ?"));
    c.addBindValue(customerId);
    if (!c.exec() || !c.next())
        return Core::Database::readFailed(db, c.lastError().text());
    page.total = c.value(0).toLongLong();
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("SELECT ") + OrderColumns +
        QStringLiteral(" FROM orders WHERE customer_id = ? ORDER BY rowid DESC LIMIT ? OFFSET ?"));
    q.addBindValue(customerId);
    q.addBindValue(pageSize);
    q.addBindValue(qint64(pageNumber) * pageSize);
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    QSqlQuery l(db);
    l.prepare(LinesSql);
    while (q.next()) {
        Order o = orderFromRow(q);
        l.addBindValue(o.id);
        if (!l.exec())
            return Core::Database::readFailed(db, l.lastError().text());
        o.lines = readLines(l);
        page.items.append(o.toJson());
    }
    if (q.lastError().isValid())
        return Core::Database::readFailed(db, q.lastError().text());
    return page;
}

QList<QJsonObject> OrderStore::adminOrders(const QSqlDatabase &db, const OrderFilter &f)
{
    Core::SqlWhere where;
    where.equalIfSet("o.customer_id", f.customerId).equalIfSet("o.status", f.status);
    if (!f.before.isEmpty())
        where.add(u"o.rowid < (SELECT rowid FROM orders WHERE id = ?)", {f.before});
    // Not forward-only: the lines are read while walking these rows, and QPSQL's forward-only
    // mode would lose the rest of them to that second query.
    QSqlQuery q(db);
    QList<QJsonObject> out;
    if (!where.exec(q,
                    QStringLiteral("SELECT o.id, o.customer_id, o.customer_ref, o.callback_url, "
                                   "o.status, o.version, o.created_at, o.updated_at, c.name FROM "
                                   "orders o LEFT JOIN customers c ON c.id = o.customer_id"),
                    u" ORDER BY o.rowid DESC LIMIT ?", {f.limit}))
        return out;
    QSqlQuery l(db);
    l.prepare(LinesSql);
    while (q.next()) {
        Order o = orderFromRow(q);
        l.addBindValue(o.id);
        if (l.exec())
            o.lines = readLines(l);
        QJsonObject j = o.toJson();
        j.insert(QStringLiteral("customerName"), q.value(8).toString());
        out.append(j);
    }
    return out;
}

QList<QJsonObject> OrderStore::history(const QSqlDatabase &db, const QString &orderId)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "SELECT version, status, at FROM order_history WHERE order_id = ? ORDER BY version"));
    q.addBindValue(orderId);
    QList<QJsonObject> out;
    if (!q.exec())
        return out;
    while (q.next())
        out.append(QJsonObject{{QStringLiteral("version"), q.value(0).toInt()},
                               {QStringLiteral("status"), q.value(1).toString()},
                               {QStringLiteral("at"), isoTime(q.value(2).toLongLong())}});
    return out;
}

Result<std::optional<Customer>> OrderStore::customer(const QSqlDatabase &db, const QString &id)
{
    if (!db.isOpen()) // cannot be reached: not even a statement (Qt warns of each)
        return Core::Database::readFailed(db, QString());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT id, name, created_at FROM customers WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    if (!q.next())
        return std::optional<Customer>();
    return std::optional<Customer>(
        Customer{q.value(0).toString(), q.value(1).toString(), q.value(2).toLongLong()});
}

QList<QJsonObject> OrderStore::customers(const QSqlDatabase &db)
{
    QSqlQuery q(db);
    QList<QJsonObject> out;
    if (!q.exec(
            QStringLiteral("SELECT c.id, c.name, c.created_at, (SELECT COUNT(*) FROM orders o "
                           "WHERE o.customer_id = c.id) FROM customers c ORDER BY c.created_at, "
                           "c.id")))
        return out;
    while (q.next())
        out.append(QJsonObject{{QStringLiteral("id"), q.value(0).toString()},
                               {QStringLiteral("name"), q.value(1).toString()},
                               {QStringLiteral("createdAt"), isoTime(q.value(2).toLongLong())},
                               {QStringLiteral("orderCount"), q.value(3).toLongLong()}});
    return out;
}

QHash<QString, QString> OrderStore::customerNames(const QSqlDatabase &db)
{
    QHash<QString, QString> names;
    QSqlQuery q(db);
    if (q.exec(QStringLiteral("SELECT id, name FROM customers")))
        while (q.next())
            names.insert(q.value(0).toString(), q.value(1).toString());
    return names;
}

Result<OrderStore::Page> OrderStore::beers(const QSqlDatabase &db, const BeerFilter &f,
                                           int pageNumber, int pageSize, bool admin)
{
    if (!db.isOpen()) // cannot be reached: not even a statement (Qt warns of each)
        return Core::Database::readFailed(db, QString());
    Core::SqlWhere where;
    // A substring match on lower() of both (LIKE's case rules differ between the engines),
    // the name's own wildcards escaped.
    if (!f.name.isEmpty()) {
        where.add(u"lower(beer_name) LIKE '%' || lower(?) || '%' ESCAPE '!'",
                  {Core::likeLiteral(f.name)});
    }
    where.equalIfSet("beer_style", f.style);
    Page page;
    QSqlQuery c(db);
    if (!where.exec(c, QStringLiteral("SELECT COUNT(*) FROM beers")) || !c.next())
        return Core::Database::readFailed(db, c.lastError().text());
    page.total = c.value(0).toLongLong();
    QSqlQuery q(db);
    if (!where.exec(q, QStringLiteral("SELECT ") + BeerColumns + QStringLiteral(" FROM beers"),
                    u" ORDER BY beer_name, id LIMIT ? OFFSET ?",
                    {pageSize, qint64(pageNumber) * pageSize}))
        return Core::Database::readFailed(db, q.lastError().text());
    while (q.next())
        page.items.append(beerFromRow(q).toJson(admin));
    if (q.lastError().isValid())
        return Core::Database::readFailed(db, q.lastError().text());
    return page;
}

Result<std::optional<Beer>> OrderStore::beer(const QSqlDatabase &db, const QString &key, bool byUpc)
{
    if (!db.isOpen()) // cannot be reached: not even a statement (Qt warns of each)
        return Core::Database::readFailed(db, QString());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT ") + BeerColumns + QStringLiteral(" FROM beers WHERE ") +
              (byUpc ? QStringLiteral("upc = ?") : QStringLiteral("id = ?")));
    q.addBindValue(key);
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    if (!q.next())
        return std::optional<Beer>();
    return std::optional<Beer>(beerFromRow(q));
}

} // namespace Gatehouse::Orders
