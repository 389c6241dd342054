#include "deliverylistmodel.h"
#include "fields.h"

#include "orderstatus.h"

namespace Gatehouse::Console {

DeliveryListModel::DeliveryListModel(AdminClient *client, QObject *parent, bool orderScoped)
    : LiveListModel(client, parent), m_orderScoped(orderScoped)
{
    connect(this, &QAbstractItemModel::rowsInserted, this, &DeliveryListModel::updateCounts);
    connect(this, &QAbstractItemModel::rowsRemoved, this, &DeliveryListModel::updateCounts);
    connect(this, &QAbstractItemModel::modelReset, this, &DeliveryListModel::updateCounts);
    connect(this, &QAbstractItemModel::dataChanged, this, &DeliveryListModel::updateCounts);
}

QHash<int, QByteArray> DeliveryListModel::roleNames() const
{
    return {
        {IdRole, "deliveryId"},
        {ShortIdRole, "shortId"},
        {OrderIdRole, "orderId"},
        {ShortOrderIdRole, "shortOrderId"},
        {CustomerIdRole, "customerId"},
        {EndpointIdRole, "endpointId"},
        {UrlRole, "url"},
        {OrderStatusRole, "orderStatus"},
        {OrderStatusTextRole, "orderStatusText"},
        {SeqRole, "seq"},
        {StateRole, "state"},
        {StateTextRole, "stateText"},
        {StateFamilyRole, "stateFamily"},
        {FailedRole, "failed"},
        {AttemptsRole, "attempts"},
        {NextAttemptTextRole, "nextAttemptText"},
        {LastStatusRole, "lastStatus"},
        {LastStatusTextRole, "lastStatusText"},
        {LastErrorRole, "lastError"},
        {LastLatencyRole, "lastLatencyMs"},
        {LatencyTextRole, "latencyText"},
        {CreatedTextRole, "createdText"},
        {CompletedTextRole, "completedText"},
    };
}

QVariant DeliveryListModel::deliveryValue(const QJsonObject &d, int role)
{
    const QString state = str(d, "state");
    switch (role) {
    case IdRole:
        return str(d, "id");
    case ShortIdRole:
    case Qt::DisplayRole:
        return str(d, "id").left(12);
    case OrderIdRole:
        return str(d, "orderId");
    case ShortOrderIdRole:
        return ConsoleFormat::shortId(str(d, "orderId"));
    case CustomerIdRole:
        return str(d, "customerId");
    case EndpointIdRole:
        return str(d, "endpointId");
    case UrlRole:
        return str(d, "url");
    case OrderStatusRole:
        return str(d, "orderStatus");
    case OrderStatusTextRole:
        return OrderStatus::displayName(str(d, "orderStatus"));
    case SeqRole:
        return d.value(QLatin1String("seq")).toInt();
    case StateRole:
        return state;
    case StateTextRole:
        return DeliveryState::displayName(state);
    case StateFamilyRole:
        return DeliveryState::family(state);
    case FailedRole:
        return state == QLatin1String("failed");
    case AttemptsRole:
        return d.value(QLatin1String("attempts")).toInt();
    case NextAttemptTextRole: {
        const QDateTime next = ConsoleFormat::parseTime(d.value(QLatin1String("nextAttemptAt")));
        return next.isValid() && state == QLatin1String("pending") ? ConsoleFormat::time(next)
                                                                   : QString();
    }
    case LastStatusRole:
        return d.value(QLatin1String("lastStatus")).toInt();
    case LastStatusTextRole: {
        const int status = d.value(QLatin1String("lastStatus")).toInt();
        return status > 0 ? QString::number(status) : QStringLiteral("–");
    }
    case LastErrorRole:
        return str(d, "lastError");
    case LastLatencyRole: {
        const QJsonValue latency = d.value(QLatin1String("lastLatencyMs"));
        return latency.isDouble() ? latency.toInteger() : qint64(-1);
    }
    case LatencyTextRole: {
        const QJsonValue latency = d.value(QLatin1String("lastLatencyMs"));
        return ConsoleFormat::latency(latency.isDouble() ? latency.toInteger() : -1);
    }
    case CreatedTextRole:
        return ConsoleFormat::time(d.value(QLatin1String("createdAt")));
    case CompletedTextRole: {
        const QDateTime completed = ConsoleFormat::parseTime(d.value(QLatin1String("completedAt")));
        return completed.isValid() ? ConsoleFormat::time(completed) : QString();
    }
    default:
        return {};
    }
}

QVariant DeliveryListModel::value(const QJsonObject &row, int role) const
{
    return deliveryValue(row, role);
}

void DeliveryListModel::setStateFilter(const QString &state)
{
    if (m_stateFilter == state)
        return;
    m_stateFilter = state;
    emit stateFilterChanged();
    filtersChanged();
}

void DeliveryListModel::setOrderFilter(const QString &orderId)
{
    if (m_orderFilter == orderId)
        return;
    m_orderFilter = orderId;
    emit orderFilterChanged();
    filtersChanged();
}

void DeliveryListModel::scopeToOrder(const QString &orderId)
{
    if (m_orderFilter == orderId)
        return;
    m_orderFilter = orderId;
    emit orderFilterChanged();
}

QVariantList DeliveryListModel::stateOptions() const
{
    return DeliveryState::filterOptions();
}

void DeliveryListModel::retranslate()
{
    LiveListModel::retranslate();
    emit stateOptionsChanged();
}

void DeliveryListModel::redeliver(const QString &deliveryId)
{
    if (deliveryId.isEmpty())
        return;
    runAction({"POST", QStringLiteral("/deliveries/%1/redeliver").arg(deliveryId), {}, {}},
              [this](const QJsonObject &delivery) {
                  applyDelivery(delivery);
                  emit deliveryChanged(delivery);
              });
}

void DeliveryListModel::applyDelivery(const QJsonObject &delivery)
{
    upsert(delivery);
}

ApiCall DeliveryListModel::listCall() const
{
    ApiCall call{"GET", QStringLiteral("/deliveries"), {}, {}};
    if (!m_stateFilter.isEmpty())
        call.query.addQueryItem(QStringLiteral("state"), m_stateFilter);
    if (!m_orderFilter.isEmpty())
        call.query.addQueryItem(QStringLiteral("orderId"), m_orderFilter);
    call.query.addQueryItem(QStringLiteral("limit"), QString::number(capacity()));
    return call;
}

bool DeliveryListModel::accepts(const QJsonObject &row) const
{
    if (m_orderScoped && m_orderFilter.isEmpty())
        return false;
    return (m_stateFilter.isEmpty() || str(row, "state") == m_stateFilter) &&
           (m_orderFilter.isEmpty() || str(row, "orderId") == m_orderFilter);
}

QJsonObject DeliveryListModel::normalize(const QJsonObject &object) const
{
    // GET /deliveries/{id} answers the attempt log under "attempts", where a list has the
    // count: a row keeps the count.
    const QJsonValue attempts = object.value(QLatin1String("attempts"));
    if (!attempts.isArray())
        return object;
    QJsonObject row = object;
    row.insert(QStringLiteral("attempts"), attempts.toArray().size());
    return row;
}

void DeliveryListModel::applyEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("delivery.created") ||
        event.type == QLatin1String("delivery.state")) {
        // Events replayed after a reload can be older than the list: a created event only
        // adds, a state event never goes back to fewer attempts.
        const int row = indexOfId(str(event.data, "id"));
        if (row >= 0 && (event.type == QLatin1String("delivery.created") ||
                         event.data.value(QLatin1String("attempts")).toInt() <
                             rowAt(row).value(QLatin1String("attempts")).toInt()))
            return;
        upsert(event.data);
        return;
    }
    if (event.type != QLatin1String("delivery.attempt"))
        return;
    const QJsonObject &a = event.data;
    const QString id = str(a, "deliveryId");
    const int row = indexOfId(id);
    if (row < 0) {
        const QJsonObject probe{{"state", a.value(QLatin1String("state"))},
                                {"orderId", a.value(QLatin1String("orderId"))}};
        if (!id.isEmpty() && accepts(probe) && (!m_orderScoped || !m_orderFilter.isEmpty()))
            fetchAndUpsert(QStringLiteral("/deliveries/%1").arg(id));
        return;
    }
    QJsonObject delivery = rowAt(row);
    const int number = a.value(QLatin1String("number")).toInt();
    if (number < delivery.value(QLatin1String("attempts")).toInt())
        return; // an older attempt (replayed after a reload)
    // A record without a request (e.g. the endpoint is disabled) says so with
    // "attempted": false; it keeps the last answer and only brings the error and the state.
    if (a.value(QLatin1String("attempted")).toBool(true)) {
        delivery.insert(QStringLiteral("attempts"), number);
        delivery.insert(QStringLiteral("lastStatus"), a.value(QLatin1String("status")));
        delivery.insert(QStringLiteral("lastLatencyMs"), a.value(QLatin1String("latencyMs")));
    }
    delivery.insert(QStringLiteral("lastError"), a.value(QLatin1String("error")));
    if (const QString state = str(a, "state"); !state.isEmpty())
        delivery.insert(QStringLiteral("state"), state);
    upsert(delivery);
}

void DeliveryListModel::updateCounts()
{
    int failed = 0;
    for (const QJsonObject &row : rows())
        failed += str(row, "state") == QLatin1String("failed") ? 1 : 0;
    if (failed == m_failedCount)
        return;
    m_failedCount = failed;
    emit countsChanged();
}

} // namespace Gatehouse::Console
