#include "orderdetail.h"

#include "orderstatus.h"

#include <QJsonArray>

namespace Gatehouse::Console {

OrderDetail::OrderDetail(AdminClient *client, BeerListModel *beers, QObject *parent)
    : QObject(parent), m_client(client), m_lines(this), m_history(this),
      m_deliveries(client, this, /*orderScoped=*/true)
{
    m_lines.setBeers(beers);
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &OrderDetail::handleEvent);
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload();
    });
}

void OrderDetail::setOrderId(const QString &orderId)
{
    if (m_orderId == orderId)
        return;
    m_orderId = orderId;
    ++m_generation; // answers for the previous order are dropped
    m_reloadAgain = false;
    setLoading(false);
    setError(QString());
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
    return !m_busy && OrderStatus::canPickup(status());
}

bool OrderDetail::canDeliver() const
{
    return !m_busy && OrderStatus::canDeliver(status());
}

bool OrderDetail::canCancel() const
{
    return !m_busy && OrderStatus::canCancel(status());
}

void OrderDetail::reload()
{
    if (m_orderId.isEmpty() || !m_client)
        return;
    if (m_loading) {
        m_reloadAgain = true;
        return;
    }
    const quint64 generation = m_generation;
    setLoading(true);
    m_client->callApi({"GET", QStringLiteral("/orders/%1").arg(m_orderId), {}, {}}, this,
                      [this, generation](const ApiResult &result) {
                          if (generation != m_generation)
                              return;
                          setLoading(false);
                          if (result.ok()) {
                              setError(QString());
                              apply(result.object());
                          } else if (!result.canceled) {
                              setError(result.errorMessage);
                          }
                          if (std::exchange(m_reloadAgain, false))
                              reload();
                      });
}

void OrderDetail::pickup()
{
    runAction(QStringLiteral("pickup"));
}

void OrderDetail::deliver()
{
    runAction(QStringLiteral("deliver"));
}

void OrderDetail::cancel()
{
    runAction(QStringLiteral("cancel"));
}

void OrderDetail::clearError()
{
    setError(QString());
}

void OrderDetail::handleEvent(const AdminEvent &event)
{
    if (m_orderId.isEmpty() || event.type != QLatin1String("order.status") ||
        event.data.value(QLatin1String("orderId")).toString() != m_orderId)
        return;
    if (m_loading) {
        m_reloadAgain = true; // the answer under way may predate this change
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

void OrderDetail::runAction(const QString &action)
{
    if (m_orderId.isEmpty() || !m_client || m_busy)
        return;
    setBusy(true);
    const quint64 generation = m_generation;
    m_client->callApi({"POST", QStringLiteral("/orders/%1/%2").arg(m_orderId, action), {}, {}},
                      this, [this, generation](const ApiResult &result) {
                          setBusy(false);
                          if (result.canceled)
                              return;
                          if (!result.ok()) {
                              if (generation == m_generation)
                                  setError(result.errorMessage);
                              return;
                          }
                          const QJsonObject order = result.object();
                          emit orderUpdated(order);
                          if (generation != m_generation)
                              return; // another order is selected by now
                          setError(QString());
                          applyStatus(order.value(QLatin1String("orderStatus")).toString(),
                                      order.value(QLatin1String("version")).toInt(),
                                      order.value(QLatin1String("lastModifiedDate")));
                      });
}

void OrderDetail::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    emit loadingChanged();
}

void OrderDetail::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
    emit changed(); // the can* properties
}

void OrderDetail::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

} // namespace Gatehouse::Console
