#include "orderdetail.h"

#include "orderstatus.h"

#include <QJsonArray>

namespace Gatehouse::Console {

OrderDetail::OrderDetail(AdminClient *client, BeerListModel *beers, QObject *parent)
    : SelectedDetail(client, parent), m_lines(this), m_history(this),
      m_deliveries(client, this, /*orderScoped=*/true)
{
    m_lines.setBeers(beers);
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &OrderDetail::handleEvent);
}

void OrderDetail::setOrderId(const QString &orderId)
{
    if (m_orderId == orderId)
        return;
    m_orderId = orderId;
    selectionChanged(); // answers for the previous order are dropped
    m_order = {};
    m_lines.setLines({});
    m_history.setHistory({});
    m_deliveries.scopeToOrder(orderId);
    m_deliveries.resetFrom({});
    emit orderIdChanged();
    emit changed();
    reload();
}

QString OrderDetail::field(const char *key) const
{
    return m_order.value(QLatin1String(key)).toString();
}

QString OrderDetail::shortId() const
{
    return ConsoleFormat::shortId(m_orderId);
}

QString OrderDetail::statusText() const
{
    return status().isEmpty() ? QString() : OrderStatus::displayName(status());
}

QString OrderDetail::statusFamily() const
{
    return OrderStatus::family(status());
}

int OrderDetail::version() const
{
    return m_order.value(QLatin1String("version")).toInt();
}

QString OrderDetail::createdText() const
{
    return ConsoleFormat::time(m_order.value(QLatin1String("createdDate")));
}

QString OrderDetail::modifiedText() const
{
    return ConsoleFormat::time(m_order.value(QLatin1String("lastModifiedDate")));
}

bool OrderDetail::canPickup() const
{
    return !busy() && OrderStatus::canPickup(status());
}

bool OrderDetail::canDeliver() const
{
    return !busy() && OrderStatus::canDeliver(status());
}

bool OrderDetail::canCancel() const
{
    return !busy() && OrderStatus::canCancel(status());
}

void OrderDetail::pickup()
{
    runOrderAction(QStringLiteral("pickup"));
}

void OrderDetail::deliver()
{
    runOrderAction(QStringLiteral("deliver"));
}

void OrderDetail::cancel()
{
    runOrderAction(QStringLiteral("cancel"));
}

void OrderDetail::handleEvent(const AdminEvent &event)
{
    if (m_orderId.isEmpty() || event.type != QLatin1String("order.status") ||
        event.data.value(QLatin1String("orderId")).toString() != m_orderId)
        return;
    if (loading()) {
        reload(); // the answer under way may predate this change: read it again after it
        return;
    }
    applyStatus(event.data.value(QLatin1String("orderStatus")).toString(),
                event.data.value(QLatin1String("version")).toInt(),
                event.data.value(QLatin1String("at")));
}

void OrderDetail::apply(const QJsonObject &detail)
{
    QJsonObject order = detail;
    order.remove(QStringLiteral("history"));
    order.remove(QStringLiteral("deliveries"));
    m_order = order;
    m_lines.setLines(order.value(QLatin1String("beerOrderLines")).toArray());
    m_history.setHistory(detail.value(QLatin1String("history")).toArray());
    m_deliveries.resetFrom(detail.value(QLatin1String("deliveries")).toArray());
    emit changed();
}

void OrderDetail::applyStatus(const QString &status, int version, const QJsonValue &at)
{
    if (m_order.isEmpty() || status.isEmpty())
        return;
    const int current = this->version();
    if (version <= current)
        return; // already shown
    if (version > current + 1) {
        reload(); // we missed a change in between; the server has the whole history
        return;
    }
    m_order.insert(QStringLiteral("orderStatus"), status);
    m_order.insert(QStringLiteral("version"), version);
    if (at.isString())
        m_order.insert(QStringLiteral("lastModifiedDate"), at);
    m_history.append(status, at);
    emit changed();
}

QString OrderDetail::detailPath() const
{
    return m_orderId.isEmpty() ? QString() : QStringLiteral("/orders/%1").arg(m_orderId);
}

void OrderDetail::runOrderAction(const QString &action)
{
    SelectedDetail::runAction(QStringLiteral("/orders/%1/%2").arg(m_orderId, action),
                              [this](const QJsonObject &order, bool stillSelected) {
                                  emit orderUpdated(order);
                                  if (stillSelected) // another order may be selected by now
                                      applyStatus(
                                          order.value(QLatin1String("orderStatus")).toString(),
                                          order.value(QLatin1String("version")).toInt(),
                                          order.value(QLatin1String("lastModifiedDate")));
                              });
}

} // namespace Gatehouse::Console
