#include "orderlistmodel.h"
#include "fields.h"

#include "orderrowstore.h"
#include "orderstatus.h"

#include <QJsonArray>

namespace Gatehouse::Console {

OrderListModel::OrderListModel(AdminClient *client, QObject *parent) : LiveListModel(client, parent)
{
    setRowStore(std::make_unique<OrderRowStore>());
}

QHash<int, QByteArray> OrderListModel::roleNames() const
{
    return {
        {IdRole, "orderId"},
        {ShortIdRole, "shortId"},
        {CustomerIdRole, "customerId"},
        {CustomerNameRole, "customerName"},
        {CustomerRefRole, "customerRef"},
        {StatusRole, "status"},
        {StatusTextRole, "statusText"},
        {StatusFamilyRole, "statusFamily"},
        {LineCountRole, "lineCount"},
        {QuantityRole, "quantity"},
        {VersionRole, "version"},
        {CreatedRole, "created"},
        {CreatedTextRole, "createdText"},
        {ModifiedTextRole, "modifiedText"},
        {CallbackUrlRole, "callbackUrl"},
        {CanPickupRole, "canPickup"},
        {CanDeliverRole, "canDeliver"},
        {CanCancelRole, "canCancel"},
    };
}

QVariant OrderListModel::value(const QJsonObject &row, int role) const
{
    const QString status = str(row, "orderStatus");
    switch (role) {
    case IdRole:
        return str(row, "id");
    case ShortIdRole:
    case Qt::DisplayRole:
        return ConsoleFormat::shortId(str(row, "id"));
    case CustomerIdRole:
        return str(row, "customerId");
    case CustomerNameRole:
        return str(row, "customerName");
    case CustomerRefRole:
        return str(row, "customerRef");
    case StatusRole:
        return status;
    case StatusTextRole:
        return OrderStatus::displayName(status);
    case StatusFamilyRole:
        return OrderStatus::family(status);
    case LineCountRole:
        return row.value(QLatin1String("lineCount")).toInt();
    case QuantityRole:
        return row.value(QLatin1String("quantity")).toInt();
    case VersionRole:
        return row.value(QLatin1String("version")).toInt();
    case CreatedRole:
        return ConsoleFormat::parseTime(row.value(QLatin1String("createdDate")));
    case CreatedTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("createdDate")));
    case ModifiedTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("lastModifiedDate")));
    case CallbackUrlRole:
        return str(row, "orderStatusCallbackUrl");
    case CanPickupRole:
        return OrderStatus::canPickup(status);
    case CanDeliverRole:
        return OrderStatus::canDeliver(status);
    case CanCancelRole:
        return OrderStatus::canCancel(status);
    default:
        return {};
    }
}

void OrderListModel::setStatusFilter(const QString &status)
{
    if (m_statusFilter == status)
        return;
    m_statusFilter = status;
    emit statusFilterChanged();
    filtersChanged();
}

void OrderListModel::setCustomerFilter(const QString &customerId)
{
    if (m_customerFilter == customerId)
        return;
    m_customerFilter = customerId;
    emit customerFilterChanged();
    filtersChanged();
}

QVariantList OrderListModel::statusOptions() const
{
    return OrderStatus::filterOptions();
}

void OrderListModel::retranslate()
{
    LiveListModel::retranslate();
    emit statusOptionsChanged();
}

void OrderListModel::applyOrder(const QJsonObject &order)
{
    const int row = indexOfId(str(order, "id"));
    if (row >= 0 && rowAt(row).value(QLatin1String("version")).toInt() >
                        order.value(QLatin1String("version")).toInt())
        return; // we already show a newer state
    upsert(order);
}

QJsonObject OrderListModel::normalize(const QJsonObject &object) const
{
    if (!object.contains(QLatin1String("beerOrderLines")))
        return object; // already a row
    QJsonObject row = object;
    const QJsonArray lines = row.take(QLatin1String("beerOrderLines")).toArray();
    int quantity = 0;
    for (const QJsonValue line : lines)
        quantity += line.toObject().value(QLatin1String("orderQuantity")).toInt();
    row.insert(QStringLiteral("lineCount"), int(lines.size()));
    row.insert(QStringLiteral("quantity"), quantity);
    // Kept by the detail view, not by the list.
    row.remove(QLatin1String("history"));
    row.remove(QLatin1String("deliveries"));
    return row;
}

ApiCall OrderListModel::listCall() const
{
    ApiCall call{"GET", QStringLiteral("/orders"), {}, {}};
    if (!m_statusFilter.isEmpty())
        call.query.addQueryItem(QStringLiteral("status"), m_statusFilter);
    if (!m_customerFilter.isEmpty())
        call.query.addQueryItem(QStringLiteral("customerId"), m_customerFilter);
    call.query.addQueryItem(QStringLiteral("limit"), QString::number(capacity()));
    return call;
}

bool OrderListModel::accepts(const QJsonObject &row) const
{
    return (m_statusFilter.isEmpty() || str(row, "orderStatus") == m_statusFilter) &&
           (m_customerFilter.isEmpty() || str(row, "customerId") == m_customerFilter);
}

void OrderListModel::applyEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("order.created")) {
        // Only news: an event replayed after a reload must not put back the NEW state over
        // the newer one the list already shows.
        if (indexOfId(str(event.data, "id")) < 0)
            applyOrder(event.data);
        return;
    }
    if (event.type != QLatin1String("order.status"))
        return;
    const QString orderId = str(event.data, "orderId");
    if (orderId.isEmpty())
        return;
    const int row = indexOfId(orderId);
    if (row < 0) {
        // Not listed: either it now enters the filter, or it is older than our window. We
        // only know its id, so ask for the whole order.
        QJsonObject probe{{"orderStatus", event.data.value(QLatin1String("orderStatus"))},
                          {"customerId", event.data.value(QLatin1String("customerId"))},
                          {"createdDate", event.data.value(QLatin1String("createdDate"))}};
        if (!accepts(probe))
            return;
        // Older than every order the list keeps (the backend's workflow moves many old
        // orders at once): nothing to ask, it is read when the list pages back to it.
        if (probe.value(QLatin1String("createdDate")).isString() && beyondWindow(probe)) {
            markOlder();
            return;
        }
        fetchAndUpsert(QStringLiteral("/orders/%1").arg(orderId));
        return;
    }
    QJsonObject order = rowAt(row);
    const int version = event.data.value(QLatin1String("version")).toInt();
    if (version != 0 && version < order.value(QLatin1String("version")).toInt())
        return; // older than what we show (a replay after a reload)
    order.insert(QStringLiteral("orderStatus"), event.data.value(QLatin1String("orderStatus")));
    if (version != 0)
        order.insert(QStringLiteral("version"), version);
    if (const QJsonValue at = event.data.value(QLatin1String("at")); at.isString())
        order.insert(QStringLiteral("lastModifiedDate"), at);
    upsert(order);
}

} // namespace Gatehouse::Console
