#include "orders/orderservice.h"
#include "orders/orderslogging.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/jsonwriter.h"
#include "core/writequeue.h"
#include "crypto/random.h"
#include "orders/orderstore.h"
#include "webhooks/dispatcher.h"
#include "webhooks/signer.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSet>

#include <algorithm>
#include <limits>

namespace Gatehouse::Orders {

using Core::Result;
using Core::WriteTransaction;

namespace {

constexpr int AdvanceBatch = 256;
// A batch that failed is tried again one order per job, after a pause (a busy database, a
// commit that failed for the whole group); an order that fails this often on its own is left
// in the database, taken up at the next start.
constexpr int AdvanceAttempts = 5;
constexpr std::chrono::milliseconds AdvanceRetryPause{100}; // doubled at every attempt
constexpr int StalledTakeUp = 4 * AdvanceBatch;             // at most this many per takeUpStalled
// A batch holds the single writer: while other jobs (orders placed, deliveries recorded) wait
// behind it, it stops after this long and leaves the rest of its orders first in line for the
// next batch. A backlog (a lifecycle released after a hold, orders taken up at a start) then
// shares the writer with the intake instead of answering every POST a whole batch late.
constexpr qint64 AdvanceSliceNs = 2'000'000;
// A lifecycle batch that found the instances' turn taken (PostgreSQL) comes again after this.
constexpr std::chrono::milliseconds TurnPause{2};

// Puts ids[from..] back first in line, in their order. One prepend at a time, which a QList
// whose first elements were taken off does in the room they left: `ids + queue` copied the
// whole backlog at every batch that ended its time slice (3 % of the writer's time with 27,000
// orders waiting, more the longer the backlog).
void putBackFirst(QStringList &queue, const QStringList &ids, qsizetype from = 0)
{
    for (qsizetype i = ids.size(); i-- > from;)
        queue.prepend(ids.at(i));
}

struct DemoBeer
{
    const char *name;
    const char *style;
    const char *upc;
    const char *price;
    int onHand;
};

// The first three are the reference project's BeerLoader seed data.
constexpr DemoBeer DemoCatalog[] = {
    {"Mango Bobs", "IPA", "0631234200036", "12.95", 500},
    {"Galaxy Cat", "PALE_ALE", "0631234300019", "12.95", 500},
    {"Pinball Porter", "PORTER", "0083783375213", "12.95", 500},
    {"Golden Budda", "IPA", "0083783375214", "11.50", 250},
    {"Cage Blond", "ALE", "0083783375215", "10.95", 250},
    {"No Hammers On The Bar", "WHEAT", "0083783375216", "9.95", 120},
    {"Blessed", "STOUT", "0083783375217", "13.25", 80},
    {"Adjunct Trail", "STOUT", "0083783375218", "14.00", 40},
    {"Very GGGreenn", "IPA", "0083783375219", "12.50", 60},
    {"Double Barrel Hunahpu's", "STOUT", "0083783375220", "19.95", 10},
    {"Cactus Lager", "LAGER", "0083783375221", "8.95", 300},
    {"Salty Shore", "GOSE", "0083783375222", "10.50", 0},
};

QByteArray callbackPayload(const Order &o)
{
    // Exactly {"orderId": "...", "orderStatus": "..."}; both values need no escaping.
    return "{\"orderId\":\"" + o.id.toLatin1() + "\",\"orderStatus\":\"" +
           statusName(o.status).toLatin1() + "\"}";
}

Core::Error notFound(const QString &code, const QString &what)
{
    return Core::Error{code, what, 404};
}

} // namespace

struct OrderService::Effects
{
    struct StatusChange
    {
        QString orderId;
        QString customerId;
        OrderStatus to;
        OrderStatus from;
        int version;
        qint64 at;
        qint64 created; // the order's createdDate: lets a list tell where the order belongs
    };
    QList<StatusChange> statusChanges;
    QList<Webhooks::Delivery> deliveries;
    QSet<QString> beersChanged;
    QStringList toAdvance;
    // Within one job only: beers read or changed by it (by id; and by UPC what a lookup
    // answered, absent ones included), and endpoints it looked up.
    QHash<QString, Beer> beers;
    QHash<QString, std::optional<QString>> beerIdByUpc;
    Webhooks::EndpointCache endpoints;
    // The lifecycle's batches write a beer's stock once, at the end of the batch, instead of
    // once per order line that took from it (allocate() keeps it in `beers` meanwhile).
    bool deferStock = false;
    QSet<QString> stockDirty;
};

template <typename T>
void OrderService::commit(std::function<Result<void>(WriteTransaction &, Effects &, T &)> work,
                          std::function<void(Result<T>)> done,
                          std::function<void(const T &)> afterCommit, Turn turn)
{
    auto fx = std::make_shared<Effects>();
    auto result = std::make_shared<T>();
    Core::WriteQueue::Work job = [fx, result, work = std::move(work)](WriteTransaction &tx) {
        return work(tx, *fx, *result);
    };
    Core::WriteQueue::Done answer = [this, fx, result, done = std::move(done),
                                     afterCommit = std::move(afterCommit)](const Result<void> &r) {
        if (!r) {
            done(r.error());
            return;
        }
        if (afterCommit)
            afterCommit(*result);
        done(*result);
        apply(*fx);
    };
    // A job that takes the instances' turn (OrderStore::lockLifecycle) begins its transaction.
    if (turn == Turn::Taken)
        m_writer.submitAtStart(std::move(job), std::move(answer));
    else
        m_writer.submit(std::move(job), std::move(answer));
}

OrderService::OrderService(Core::Database &database, Core::WriteQueue &writer,
                           Core::EventBus &events, const Core::Clock &clock,
                           Webhooks::Dispatcher *dispatcher, Core::EventQueue *eventQueue)
    : m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_dispatcher(dispatcher), m_eventQueue(eventQueue)
{}

qint64 OrderService::nowMs() const
{
    return m_clock.now().toMSecsSinceEpoch();
}

Result<void> OrderService::start(bool demoData)
{
    const qint64 now = nowMs();
    QStringList unfinished;
    // Shared: the orders of instances gone (read before; those of an instance whose heartbeat
    // is still fresh are taken up by takeUpStalled() once it is not), and those that name none.
    std::optional<QSet<QString>> alive;
    if (!m_instance.isEmpty()) {
        alive = m_alive();
        if (!alive)
            qCWarning(lcOrders) << "the instances alive could not be read: the orders of those "
                                   "gone are taken up later";
    }
    auto r = m_writer.run([&](WriteTransaction &tx) -> Result<void> {
        if (demoData) {
            auto beers = OrderStore::countBeers(tx);
            if (!beers)
                return beers.error();
            if (*beers == 0) {
                for (const DemoBeer &d : DemoCatalog) {
                    Beer b{Crypto::Random::uuid(),
                           QString::fromUtf8(d.name),
                           QString::fromLatin1(d.style),
                           QString::fromLatin1(d.upc),
                           QString::fromLatin1(d.price),
                           d.onHand,
                           false};
                    if (auto ins = OrderStore::insertBeer(tx, b, now); !ins)
                        return ins;
                }
                qCInfo(lcOrders) << "demo catalog created:" << std::size(DemoCatalog) << "beers";
            }
            auto customers = OrderStore::countCustomers(tx);
            if (!customers)
                return customers.error();
            if (*customers == 0) {
                Customer c{Crypto::Random::uuid(), QStringLiteral("Demo Taproom"), now};
                if (auto ins = OrderStore::insertCustomer(tx, c); !ins)
                    return ins;
                if (auto s = Webhooks::WebhookStore::addSecret(
                        tx, m_database, c.id, Webhooks::Signer::generateSecret(), now);
                    !s)
                    return s;
                qCInfo(lcOrders) << "demo customer created:" << c.id;
            }
        }
        auto ids = m_instance.isEmpty() ? OrderStore::unfinishedOrders(tx)
                                        : takeUp(tx, alive, std::numeric_limits<qint64>::max(),
                                                 std::numeric_limits<int>::max());
        if (!ids)
            return ids.error();
        unfinished = *ids;
        return {};
    });
    if (!r)
        return r;
    if (!unfinished.isEmpty()) {
        qCInfo(lcOrders) << "taking up" << unfinished.size() << "interrupted orders";
        scheduleAdvance(unfinished);
    }
    return {};
}

Result<void> OrderService::transition(WriteTransaction &tx, Order &order, OrderStatus to,
                                      qint64 now, Effects &fx)
{
    // The order row itself is written once by the caller (saveOrder) after its transitions;
    // each transition has its history row and, with a callback URL, its delivery.
    const OrderStatus from = order.status;
    order.status = to;
    ++order.version;
    order.updatedAt = std::max(now, order.updatedAt);
    if (auto r = OrderStore::insertHistory(tx, order); !r)
        return r;
    if (!order.callbackUrl.isEmpty()) {
        auto d = Webhooks::WebhookStore::enqueue(
            tx,
            Webhooks::NewDelivery{order.customerId, order.id, order.version,
                                  QStringLiteral("order.status_changed"), statusName(to),
                                  order.callbackUrl, callbackPayload(order)},
            now, &fx.endpoints);
        if (!d)
            return d.error();
        fx.deliveries.append(*d);
    }
    fx.statusChanges.append(Effects::StatusChange{order.id, order.customerId, to, from,
                                                  order.version, order.updatedAt, order.createdAt});
    return {};
}

Result<std::optional<Beer>> OrderService::beer(WriteTransaction &tx, Effects &fx, const QString &id)
{
    if (auto it = fx.beers.constFind(id); it != fx.beers.constEnd())
        return std::optional<Beer>(*it);
    auto b = OrderStore::beerById(tx, id);
    if (b && *b)
        fx.beers.insert(id, **b);
    return b;
}

Result<std::optional<Beer>> OrderService::beerByUpc(WriteTransaction &tx, Effects &fx,
                                                    const QString &upc)
{
    if (auto it = fx.beerIdByUpc.constFind(upc); it != fx.beerIdByUpc.constEnd()) {
        if (!*it)
            return std::optional<Beer>();
        if (auto b = fx.beers.constFind(**it); b != fx.beers.constEnd())
            return std::optional<Beer>(*b);
    }
    auto b = OrderStore::beerByUpc(tx, upc);
    if (!b)
        return b;
    if (*b) {
        // What this job changed already (stock) wins over the row read again.
        auto known = fx.beers.constFind((*b)->id);
        if (known != fx.beers.constEnd())
            *b = *known;
        else
            fx.beers.insert((*b)->id, **b);
        fx.beerIdByUpc.insert(upc, (*b)->id);
    } else {
        fx.beerIdByUpc.insert(upc, std::nullopt);
    }
    return b;
}

Result<bool> OrderService::allocate(WriteTransaction &tx, Order &order, Effects &fx)
{
    // Discontinued beers can't be supplied: the order fails allocation before it reserves.
    for (const OrderLine &l : std::as_const(order.lines)) {
        auto b = beer(tx, fx, l.beerId);
        if (!b)
            return b.error();
        if (!*b || (*b)->discontinued)
            return false;
    }
    bool complete = true;
    for (OrderLine &l : order.lines) {
        const int missing = l.orderQuantity - l.quantityAllocated;
        if (missing <= 0)
            continue;
        Beer &b = fx.beers[l.beerId];
        const int take = std::min(missing, b.quantityOnHand);
        if (take > 0) {
            b.quantityOnHand -= take;
            l.quantityAllocated += take;
            if (fx.deferStock)
                fx.stockDirty.insert(b.id);
            else if (auto r = OrderStore::setStock(tx, b.id, b.quantityOnHand); !r)
                return r.error();
            if (auto r = OrderStore::updateLine(tx, l); !r)
                return r.error();
            fx.beersChanged.insert(b.id);
        }
        if (l.quantityAllocated < l.orderQuantity)
            complete = false;
    }
    return complete;
}

Result<void> OrderService::advance(WriteTransaction &tx, Order &order, qint64 now, Effects &fx)
{
    const int versionBefore = order.version;
    auto save = [&]() -> Result<void> {
        return order.version == versionBefore ? Result<void>() : OrderStore::updateOrder(tx, order);
    };
    for (;;) {
        switch (order.status) {
        case OrderStatus::New:
            if (auto r = transition(tx, order, OrderStatus::ValidationPending, now, fx); !r)
                return r;
            break;
        case OrderStatus::ValidationPending: {
            bool valid = true;
            for (OrderLine &l : order.lines) {
                auto b = beerByUpc(tx, fx, l.upc);
                if (!b)
                    return b.error();
                if (!*b) {
                    valid = false;
                    continue;
                }
                if (l.beerId != (*b)->id) {
                    l.beerId = (*b)->id;
                    if (auto r = OrderStore::updateLine(tx, l); !r)
                        return r;
                }
            }
            if (auto r = transition(
                    tx, order, valid ? OrderStatus::Validated : OrderStatus::ValidationException,
                    now, fx);
                !r)
                return r;
            break;
        }
        case OrderStatus::Validated:
            if (auto r = transition(tx, order, OrderStatus::AllocationPending, now, fx); !r)
                return r;
            break;
        case OrderStatus::AllocationPending: {
            // A discontinued beer: allocate() answers false before reserving anything.
            bool discontinued = false;
            for (const OrderLine &l : std::as_const(order.lines)) {
                auto b = beer(tx, fx, l.beerId);
                if (!b)
                    return b.error();
                if (!*b || (*b)->discontinued)
                    discontinued = true;
            }
            OrderStatus next = OrderStatus::AllocationException;
            if (!discontinued) {
                auto complete = allocate(tx, order, fx);
                if (!complete)
                    return complete.error();
                next = *complete ? OrderStatus::Allocated : OrderStatus::PendingInventory;
            }
            if (auto r = transition(tx, order, next, now, fx); !r)
                return r;
            return save();
        }
        default:
            return save();
        }
    }
}

Result<void> OrderService::allocateWaiting(WriteTransaction &tx, const QString &beerId, qint64 now,
                                           Effects &fx, bool reinstated)
{
    auto waiting = OrderStore::ordersWaitingFor(tx, beerId, reinstated);
    if (!waiting)
        return waiting.error();
    for (const QString &id : std::as_const(*waiting)) {
        auto stocked = beer(tx, fx, beerId);
        if (!stocked)
            return stocked.error();
        if (!reinstated && (!*stocked || (*stocked)->quantityOnHand <= 0))
            break; // nothing left to hand out
        auto loaded = OrderStore::loadOrder(tx, id);
        if (!loaded)
            return loaded.error();
        if (!*loaded)
            continue;
        Order order = **loaded;
        if (order.status != OrderStatus::PendingInventory)
            continue; // changed in this transaction (an order being cancelled is no taker)
        auto complete = allocate(tx, order, fx);
        if (!complete)
            return complete.error();
        if (*complete) {
            if (auto r = transition(tx, order, OrderStatus::Allocated, now, fx); !r)
                return r;
            if (auto r = OrderStore::updateOrder(tx, order); !r)
                return r;
        }
    }
    return {};
}

void OrderService::apply(Effects &fx)
{
    // On the writer thread only what must keep the commit order cheap: hand deliveries to
    // the dispatcher, queue follow-up work. Building and publishing the events (JSON) runs on
    // the events thread, in the same order. The events are queued before the dispatcher has
    // the deliveries: on PostgreSQL their results have a writer of their own, and an
    // attempt's events never come before its delivery's.
    QList<Webhooks::Delivery> pending;
    if (m_dispatcher) {
        pending.reserve(fx.deliveries.size());
        for (const Webhooks::Delivery &d : std::as_const(fx.deliveries))
            if (d.state == QLatin1String("pending"))
                pending.append(d);
    }
    auto events = std::make_shared<Effects>();
    events->statusChanges = std::move(fx.statusChanges);
    events->deliveries = std::move(fx.deliveries);
    events->beersChanged = std::move(fx.beersChanged);
    Core::EventQueue::postOrRun(m_eventQueue, [this, events] { publish(*events); });
    if (m_dispatcher)
        m_dispatcher->add(std::move(pending));
    if (!fx.toAdvance.isEmpty())
        scheduleAdvance(fx.toAdvance);
}

void OrderService::emitEvent(const QString &type, const QJsonObject &data)
{
    Core::EventQueue::postOrRun(m_eventQueue, [this, type, data] { m_events.publish(type, data); });
}

void OrderService::publish(const Effects &fx)
{
    // Written as text: filling QJsonObjects was most of this thread's time under load.
    Core::JsonObjectWriter out;
    for (const Effects::StatusChange &c : fx.statusChanges)
        m_events.publishJson(QStringLiteral("order.status"),
                             out.add("orderId", c.orderId)
                                 .add("customerId", c.customerId)
                                 .add("orderStatus", statusName(c.to))
                                 .add("previousStatus", statusName(c.from))
                                 .add("version", qint64(c.version))
                                 .add("at", isoTime(c.at))
                                 .add("createdDate", isoTime(c.created))
                                 .finish());
    for (const Webhooks::Delivery &d : fx.deliveries) {
        d.writeJson(out);
        m_events.publishJson(QStringLiteral("delivery.created"), out.finish());
    }
    if (!fx.beersChanged.isEmpty()) {
        QSqlDatabase db = m_database.connection();
        for (const QString &id : fx.beersChanged)
            if (const auto b = OrderStore::beer(db, id, false); b && *b)
                m_events.publish(QStringLiteral("beer.stock"), (*b)->toJson(true));
    }
}

void OrderService::scheduleAdvance(const QStringList &orderIds)
{
    QMutexLocker lock(&m_advanceMutex);
    m_toAdvance.append(orderIds);
    if (m_advanceQueued || m_held)
        return;
    m_advanceQueued = true;
    lock.unlock();
    submitAdvanceBatch();
}

void OrderService::setLifecycleHeld(bool held)
{
    QMutexLocker lock(&m_advanceMutex);
    if (m_held == held)
        return;
    m_held = held;
    const int backlog = int(m_toAdvance.size() + m_advancing.size());
    // Held: the batch under way finishes and no other starts (its done callback looks, and a
    // batch still queued takes nothing).
    const bool submit = !held && !m_advanceQueued && !m_toAdvance.isEmpty();
    if (submit)
        m_advanceQueued = true;
    lock.unlock();
    qCInfo(lcOrders).noquote() << (held ? "order lifecycle held;" : "order lifecycle released;")
                               << backlog << "orders wait for it";
    emitEvent(QStringLiteral("order.lifecycle"),
              QJsonObject{{QStringLiteral("held"), held}, {QStringLiteral("backlog"), backlog}});
    if (submit)
        submitAdvanceBatch();
}

bool OrderService::lifecycleHeld() const
{
    QMutexLocker lock(&m_advanceMutex);
    return m_held;
}

int OrderService::lifecycleBacklog() const
{
    QMutexLocker lock(&m_advanceMutex);
    return int(m_toAdvance.size() + m_advancing.size());
}

void OrderService::submitAdvanceBatch()
{
    auto fx = std::make_shared<Effects>();
    fx->deferStock = true;
    auto ids = std::make_shared<QStringList>();
    auto turnTaken = std::make_shared<bool>(false); // another instance had the turn
    m_writer.submitAtStart(
        [this, fx, ids, turnTaken](WriteTransaction &tx) -> Result<void> {
            {
                QMutexLocker lock(&m_advanceMutex);
                if (m_held) // held since this job was queued: it takes nothing
                    return {};
                // After a batch failed, its orders go one per job: one that fails again (a
                // row the lifecycle cannot handle) holds up no other order.
                const qsizetype take = m_isolate > 0 ? 1 : AdvanceBatch;
                *ids = m_toAdvance.mid(0, take);
                m_toAdvance.remove(0, ids->size());
                m_advancing = *ids;
                if (m_isolate > 0)
                    --m_isolate;
            }
            if (ids->isEmpty())
                return {};
            // Not waited for: while another instance's batch has the turn, waiting would hold
            // up this writer's other jobs (orders placed, results) for as long. The orders go
            // back first in line, and the batch comes again after TurnPause.
            auto turn = OrderStore::tryLockLifecycle(tx);
            if (!turn)
                return turn.error();
            if (!*turn) {
                QMutexLocker lock(&m_advanceMutex);
                putBackFirst(m_toAdvance, *ids);
                m_advancing.clear(); // not counted twice in the backlog until the job is done
                ids->clear();
                *turnTaken = true;
                return {};
            }
            const qint64 now = nowMs();
            QElapsedTimer slice;
            slice.start();
            for (qsizetype i = 0; i < ids->size(); ++i) {
                if (i > 0 && slice.nsecsElapsed() > AdvanceSliceNs && m_writer.queued() > 0) {
                    QMutexLocker lock(&m_advanceMutex);
                    putBackFirst(m_toAdvance, *ids, i);
                    ids->resize(i);
                    m_advancing = *ids;
                    break;
                }
                const QString &id = ids->at(i);
                auto loaded = OrderStore::loadOrder(tx, id);
                if (!loaded)
                    return loaded.error();
                if (!*loaded)
                    continue;
                Order order = **loaded;
                if (auto r = advance(tx, order, now, *fx); !r)
                    return r;
            }
            for (const QString &beerId : std::as_const(fx->stockDirty))
                if (auto r =
                        OrderStore::setStock(tx, beerId, fx->beers.value(beerId).quantityOnHand);
                    !r)
                    return r;
            return {};
        },
        [this, fx, ids, turnTaken](const Result<void> &r) {
            const bool shuttingDown = !r && r.error().code == QLatin1String("shutting-down");
            QMutexLocker lock(&m_advanceMutex);
            m_advancing.clear();
            if (r) {
                if (!m_failures.isEmpty())
                    for (const QString &id : std::as_const(*ids))
                        m_failures.remove(id);
                if (m_writerRefusals > 0) {
                    qCInfo(lcOrders) << "the lifecycle goes on: the database took its write";
                    m_writerRefusals = 0;
                }
                lock.unlock();
                apply(*fx);
                lock.relock();
            } else if (!shuttingDown && ids->isEmpty()) {
                // The job did not run (the writer could not begin: the database cannot be
                // reached), so no order was tried: none is counted against, and the next job
                // waits, 0.2 s and doubling up to 6.4 s. Submitted again at once, the lifecycle
                // spun with the writer: 32,000 failed jobs and log lines a second, 270 MB of
                // log in a 10 s outage of PostgreSQL.
                if (m_writerRefusals++ == 0)
                    qCWarning(lcOrders).noquote()
                        << "the lifecycle waits for the database:" << r.error().message;
                if (m_toAdvance.isEmpty() || m_held) {
                    m_advanceQueued = false;
                    return;
                }
                const auto pause = AdvanceRetryPause * (1 << std::min(m_writerRefusals, 6));
                lock.unlock();
                Core::EventQueue::postAfterOrRun(m_eventQueue, pause,
                                                 [this] { submitAdvanceBatch(); });
                return; // still queued
            } else if (!shuttingDown) {
                // Put back first in line, so that they keep their order, and tried again one
                // by one after a pause.
                int attempt = 1;
                if (ids->size() == 1) {
                    attempt = ++m_failures[ids->first()];
                    if (attempt >= AdvanceAttempts) {
                        qCWarning(lcOrders).noquote()
                            << "advancing order" << ids->first() << "failed" << attempt
                            << "times; it waits in the database for the next start:"
                            << r.error().message;
                        m_failures.remove(ids->first());
                        m_givenUp.insert(ids->first()); // not taken up again by this process
                        ids->clear();
                    }
                } else {
                    qCWarning(lcOrders)
                        << "advancing" << ids->size()
                        << "orders failed, retrying them one by one:" << r.error().message;
                }
                if (!ids->isEmpty()) {
                    putBackFirst(m_toAdvance, *ids);
                    m_isolate += int(ids->size());
                    lock.unlock();
                    Core::EventQueue::postAfterOrRun(m_eventQueue,
                                                     AdvanceRetryPause * (1 << attempt),
                                                     [this] { submitAdvanceBatch(); });
                    return; // still queued: the retry goes on from there
                }
            }
            // Shutting down (the job was refused, its orders are still listed): they are taken
            // up again at the next start. Submitting again would be refused again, at once.
            if (m_toAdvance.isEmpty() || shuttingDown || m_held) {
                m_advanceQueued = false;
                return;
            }
            lock.unlock();
            if (r && *turnTaken) {
                Core::EventQueue::postAfterOrRun(m_eventQueue, TurnPause,
                                                 [this] { submitAdvanceBatch(); });
                return;
            }
            submitAdvanceBatch();
        });
}

void OrderService::setInstance(QString id, std::function<std::optional<QSet<QString>>()> alive)
{
    m_instance = std::move(id);
    m_alive = std::move(alive);
}

Result<QStringList> OrderService::takeUp(WriteTransaction &tx,
                                         const std::optional<QSet<QString>> &alive,
                                         qint64 updatedBefore, int limit) const
{
    auto runners = OrderStore::lifecycleRunners(tx);
    if (!runners)
        return runners.error();
    std::sort(runners->begin(), runners->end()); // "" (none named) first
    QStringList taken;
    for (const QString &runner : std::as_const(*runners)) {
        if (taken.size() >= limit)
            break;
        if (runner == m_instance || (!runner.isEmpty() && (!alive || alive->contains(runner))))
            continue;
        auto ids = OrderStore::takeUpOrders(tx, runner, m_instance, updatedBefore,
                                            limit - int(taken.size()));
        if (!ids)
            return ids.error();
        if (!ids->isEmpty())
            qCInfo(lcOrders).noquote()
                << "taking up" << ids->size() << "orders whose lifecycle"
                << (runner.isEmpty() ? QStringLiteral("names no instance")
                                     : QStringLiteral("ran on %1, gone").arg(runner));
        taken += *ids;
    }
    return taken;
}

void OrderService::takeUpStalled(qint64 idleMs)
{
    if (lifecycleHeld() || m_instance.isEmpty())
        return; // held for all instances (nothing is stalled), or alone on the database
    const std::optional<QSet<QString>> alive = m_alive();
    if (!alive)
        return; // nobody is taken for gone on a read that failed; tried again at the next call
    auto found = std::make_shared<QStringList>();
    const qint64 before = nowMs() - idleMs;
    m_writer.submit(
        [this, found, before, alive](WriteTransaction &tx) -> Result<void> {
            auto ids = takeUp(tx, alive, before, StalledTakeUp);
            if (!ids)
                return ids.error();
            *found = std::move(*ids);
            return {};
        },
        [this, found](const Result<void> &r) {
            if (!r) {
                if (r.error().code != QLatin1String("shutting-down"))
                    qCWarning(lcOrders).noquote()
                        << "taking up the orders of instances gone failed:" << r.error().message;
                return;
            }
            QStringList fresh;
            {
                // Not what waits here already (taken up at this start, and found gone since).
                QMutexLocker lock(&m_advanceMutex);
                QSet<QString> known(m_toAdvance.cbegin(), m_toAdvance.cend());
                known.unite(QSet<QString>(m_advancing.cbegin(), m_advancing.cend()));
                known.unite(m_givenUp);
                for (const QString &id : std::as_const(*found))
                    if (!known.contains(id))
                        fresh.append(id);
            }
            if (fresh.isEmpty())
                return;
            scheduleAdvance(fresh);
        });
}

void OrderService::create(const QString &customerId, const OrderRequest &request,
                          const QString &idempotencyKey, const QByteArray &bodyHash,
                          std::function<void(Result<Created>)> done)
{
    auto fx = std::make_shared<Effects>();
    auto created = std::make_shared<Created>();
    m_writer.submit(
        [this, fx, created, customerId, request, idempotencyKey,
         bodyHash](WriteTransaction &tx) -> Result<void> {
            auto name = OrderStore::customerName(tx, customerId);
            if (!name)
                return name.error();
            if (!*name)
                return notFound(QStringLiteral("customer-not-found"),
                                QStringLiteral("no customer with id %1").arg(customerId));
            created->customerName = **name;
            // The request is answered as the one that stored the key did (its 201 body, byte for
            // byte), or refused when the body differs.
            auto replay = [&](const OrderStore::IdempotencyRecord &prior) -> Result<void> {
                if (prior.bodyHash != bodyHash)
                    return Core::Error{QStringLiteral("idempotency-key-reused"),
                                       QStringLiteral("the Idempotency-Key was used before with a "
                                                      "different request body (order %1)")
                                           .arg(prior.orderId),
                                       409};
                *fx = Effects{}; // nothing of this request is kept or published
                created->replayed = true;
                created->body = prior.response;
                created->order = Order{};
                created->order.id = prior.orderId;
                created->order.customerId = customerId;
                return {};
            };
            if (!idempotencyKey.isEmpty()) {
                auto prior = OrderStore::idempotency(tx, customerId, idempotencyKey, nowMs());
                if (!prior)
                    return prior.error();
                if (*prior)
                    return replay(**prior);
            }
            if (request.customerRef) {
                auto used = OrderStore::customerRefUsed(tx, customerId, *request.customerRef);
                if (!used)
                    return used.error();
                if (*used)
                    return OrderStore::duplicateCustomerRef(customerId, *request.customerRef);
            }
            const qint64 now = nowMs();
            Order &o = created->order;
            o.id = Crypto::Random::uuidV7(now);
            o.customerId = customerId;
            o.customerRef = request.customerRef;
            o.callbackUrl = request.callbackUrl;
            o.status = OrderStatus::New;
            o.version = 1;
            o.createdAt = now;
            o.updatedAt = now;
            for (const OrderRequest::Line &l : request.lines) {
                OrderLine line;
                line.id = Crypto::Random::uuidV7(now);
                line.upc = l.upc;
                line.orderQuantity = l.orderQuantity;
                auto beer = beerByUpc(tx, *fx, l.upc);
                if (!beer)
                    return beer.error();
                if (*beer)
                    line.beerId = (*beer)->id;
                o.lines.append(line);
            }
            created->body = o.toJsonText();
            // The key first: another instance's request with the same key may have stored it
            // since the lookup above (PostgreSQL; the insert waits for its transaction). Then
            // this one is its replay, and nothing of it is written.
            if (!idempotencyKey.isEmpty()) {
                auto stored = OrderStore::insertIdempotency(
                    tx, customerId, idempotencyKey,
                    OrderStore::IdempotencyRecord{bodyHash, created->body, o.id}, now);
                if (!stored)
                    return stored.error();
                if (!*stored) {
                    auto prior = OrderStore::idempotency(tx, customerId, idempotencyKey, now);
                    if (!prior)
                        return prior.error();
                    if (!*prior)
                        return Core::Error{QStringLiteral("idempotency-key-reused"),
                                           QStringLiteral("the Idempotency-Key is being used by "
                                                          "another request at this moment"),
                                           409};
                    return replay(**prior);
                }
            }
            if (auto r = OrderStore::insertHistory(tx, o); !r)
                return r;
            if (!o.callbackUrl.isEmpty()) {
                auto d = Webhooks::WebhookStore::enqueue(
                    tx,
                    Webhooks::NewDelivery{o.customerId, o.id, o.version,
                                          QStringLiteral("order.status_changed"),
                                          statusName(o.status), o.callbackUrl, callbackPayload(o)},
                    now, &fx->endpoints);
                if (!d)
                    return d.error();
                fx->deliveries.append(*d);
            }
            // Intake first: the order is durable in NEW with its NEW delivery, and that is all
            // the request waits for. Validation and allocation run behind it, in batches
            // (submitAdvanceBatch), each transition committed with its history row and delivery.
            fx->toAdvance.append(o.id);
            return OrderStore::insertOrderRows(tx, o, m_instance);
        },
        [this, fx, created, done = std::move(done)](const Result<void> &r) {
            if (!r) {
                done(r.error());
                return;
            }
            if (!created->replayed) {
                // Built where the events are published, not on the writer's thread.
                // The event is the order as answered (its 201 body) and the customer's name.
                auto publishCreated = [this, created] {
                    m_events.publishJson(QStringLiteral("order.created"),
                                         Core::JsonObjectWriter::extending(created->body)
                                             .add("customerName", created->customerName)
                                             .finish());
                };
                Core::EventQueue::postOrRun(m_eventQueue, std::move(publishCreated));
            }
            // First: once the client has its 201, the order is in lifecycleBacklog (or past it).
            apply(*fx);
            done(*created);
        });
}

void OrderService::act(const QString &orderId, const QString &customerId, Action action,
                       std::function<void(Result<Order>)> done)
{
    commit<Order>(
        [this, orderId, customerId, action](WriteTransaction &tx, Effects &fx,
                                            Order &result) -> Result<void> {
            if (auto turn = OrderStore::lockLifecycle(tx); !turn)
                return turn;
            auto loaded = OrderStore::loadOrder(tx, orderId);
            if (!loaded)
                return loaded.error();
            if (!*loaded || (!customerId.isEmpty() && (*loaded)->customerId != customerId))
                return notFound(QStringLiteral("order-not-found"),
                                customerId.isEmpty()
                                    ? QStringLiteral("no order with id %1").arg(orderId)
                                    : QStringLiteral("customer %1 has no order with id %2")
                                          .arg(customerId, orderId));
            Order order = **loaded;
            const qint64 now = nowMs();
            auto refuse = [&order](const char *verb) {
                return Core::Error{QStringLiteral("invalid-state-transition"),
                                   QStringLiteral("an order in status %1 cannot be %2")
                                       .arg(statusName(order.status), QLatin1String(verb)),
                                   409};
            };
            switch (action) {
            case Action::Pickup:
                if (order.status != OrderStatus::Allocated)
                    return refuse("picked up (only ALLOCATED orders can)");
                if (auto r = transition(tx, order, OrderStatus::PickedUp, now, fx); !r)
                    return r;
                break;
            case Action::Deliver:
                if (order.status != OrderStatus::PickedUp)
                    return refuse("delivered (only PICKED_UP orders can)");
                if (auto r = transition(tx, order, OrderStatus::Delivered, now, fx); !r)
                    return r;
                break;
            case Action::Cancel: {
                if (!isCancellable(order.status))
                    return refuse("cancelled");
                // Reserved stock goes back to the shelf, then to orders waiting for it.
                QSet<QString> released;
                for (OrderLine &l : order.lines) {
                    if (l.quantityAllocated <= 0)
                        continue;
                    auto beer = OrderStore::beerById(tx, l.beerId);
                    if (!beer)
                        return beer.error();
                    if (*beer) {
                        if (auto r = OrderStore::setStock(
                                tx, l.beerId, (*beer)->quantityOnHand + l.quantityAllocated);
                            !r)
                            return r;
                        released.insert(l.beerId);
                        fx.beersChanged.insert(l.beerId);
                    }
                    l.quantityAllocated = 0;
                    if (auto r = OrderStore::updateLine(tx, l); !r)
                        return r;
                }
                if (auto r = transition(tx, order, OrderStatus::Cancelled, now, fx); !r)
                    return r;
                // Stored as cancelled before the waiting orders are served: it was one of them
                // while PENDING_INVENTORY and must not take back what it just released.
                if (auto r = OrderStore::updateOrder(tx, order); !r)
                    return r;
                for (const QString &beerId : std::as_const(released))
                    if (auto r = allocateWaiting(tx, beerId, now, fx); !r)
                        return r;
                break;
            }
            }
            if (auto r = OrderStore::updateOrder(tx, order); !r)
                return r;
            result = order;
            return {};
        },
        std::move(done), {}, Turn::Taken);
}

void OrderService::restock(const QString &beerId, int quantity,
                           std::function<void(Result<Beer>)> done)
{
    commit<Beer>(
        [this, beerId, quantity](WriteTransaction &tx, Effects &fx, Beer &result) -> Result<void> {
            if (auto turn = OrderStore::lockLifecycle(tx); !turn)
                return turn;
            auto beer = OrderStore::beerById(tx, beerId);
            if (!beer)
                return beer.error();
            if (!*beer)
                return notFound(QStringLiteral("beer-not-found"),
                                QStringLiteral("no beer with id %1").arg(beerId));
            const qint64 total = qint64((*beer)->quantityOnHand) + quantity;
            if (total > 100'000'000)
                return Core::Error{QStringLiteral("out-of-range"),
                                   QStringLiteral("stock would exceed 100000000"), 400};
            if (auto r = OrderStore::setStock(tx, beerId, int(total)); !r)
                return r;
            fx.beersChanged.insert(beerId);
            if (auto r = allocateWaiting(tx, beerId, nowMs(), fx); !r)
                return r;
            auto after = OrderStore::beerById(tx, beerId);
            if (!after)
                return after.error();
            result = **after;
            return {};
        },
        std::move(done), {}, Turn::Taken);
}

void OrderService::setDiscontinued(const QString &beerId, bool discontinued,
                                   std::function<void(Result<Beer>)> done)
{
    commit<Beer>(
        [this, beerId, discontinued](WriteTransaction &tx, Effects &fx,
                                     Beer &result) -> Result<void> {
            if (auto turn = OrderStore::lockLifecycle(tx); !turn)
                return turn;
            auto beer = OrderStore::beerById(tx, beerId);
            if (!beer)
                return beer.error();
            if (!*beer)
                return notFound(QStringLiteral("beer-not-found"),
                                QStringLiteral("no beer with id %1").arg(beerId));
            if (auto r = OrderStore::setDiscontinued(tx, beerId, discontinued); !r)
                return r;
            fx.beersChanged.insert(beerId);
            // Back on sale: the orders that waited for it take what is on the shelf.
            if ((*beer)->discontinued && !discontinued) {
                if (auto r = allocateWaiting(tx, beerId, nowMs(), fx, true); !r)
                    return r;
            }
            auto after = OrderStore::beerById(tx, beerId);
            if (!after)
                return after.error();
            result = **after;
            return {};
        },
        std::move(done), {}, Turn::Taken);
}

void OrderService::createCustomer(const QString &name, const QString &id,
                                  std::function<void(Result<NewSecret>)> done)
{
    const qint64 now = nowMs();
    const Customer customer{id.isEmpty() ? Crypto::Random::uuid() : id, name, now};
    const QString secret = Webhooks::Signer::generateSecret();
    commit<NewSecret>(
        [this, customer, secret, now](WriteTransaction &tx, Effects &,
                                      NewSecret &result) -> Result<void> {
            result.customer = customer;
            result.secret = secret;
            if (auto r = OrderStore::insertCustomer(tx, customer); !r)
                return r;
            return Webhooks::WebhookStore::addSecret(tx, m_database, customer.id, secret, now);
        },
        std::move(done),
        [this](const NewSecret &result) {
            emitEvent(QStringLiteral("customer.created"),
                      QJsonObject{{QStringLiteral("id"), result.customer.id},
                                  {QStringLiteral("name"), result.customer.name},
                                  {QStringLiteral("createdAt"), isoTime(result.customer.createdAt)},
                                  {QStringLiteral("orderCount"), 0}});
        });
}

} // namespace Gatehouse::Orders
