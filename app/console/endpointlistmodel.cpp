#include "endpointlistmodel.h"
#include "fields.h"

#include "customerlistmodel.h"
#include "orderstatus.h"

namespace Gatehouse::Console {

EndpointListModel::EndpointListModel(AdminClient *client, QObject *parent)
    : LiveListModel(client, parent)
{}

QHash<int, QByteArray> EndpointListModel::roleNames() const
{
    return {
        {IdRole, "endpointId"},
        {CustomerIdRole, "customerId"},
        {CustomerNameRole, "customerName"},
        {UrlRole, "url"},
        {StateRole, "state"},
        {StateTextRole, "stateText"},
        {DisabledRole, "disabled"},
        {DisabledReasonRole, "disabledReason"},
        {DisabledAtTextRole, "disabledAtText"},
        {FailingSinceTextRole, "failingSinceText"},
        {LastSuccessTextRole, "lastSuccessText"},
        {PendingDeliveriesRole, "pendingDeliveries"},
    };
}

void EndpointListModel::setCustomers(CustomerListModel *customers)
{
    if (m_customers)
        m_customers->disconnect(this);
    m_customers = customers;
    if (!customers)
        return;
    // Names arrive with the customer list, which may load after us.
    auto refreshNames = [this] {
        if (count() > 0)
            emit dataChanged(index(0), index(count() - 1), {CustomerNameRole});
    };
    connect(customers, &QAbstractItemModel::modelReset, this, refreshNames);
    connect(customers, &QAbstractItemModel::rowsInserted, this, refreshNames);
}

void EndpointListModel::setDisabledOnly(bool disabledOnly)
{
    if (m_disabledOnly == disabledOnly)
        return;
    m_disabledOnly = disabledOnly;
    emit disabledOnlyChanged();
    filtersChanged();
}

void EndpointListModel::enable(const QString &endpointId)
{
    if (endpointId.isEmpty())
        return;
    runAction({"POST", QStringLiteral("/endpoints/%1/enable").arg(endpointId), {}, {}},
              [this](const QJsonObject &endpoint) { upsert(endpoint); });
}

void EndpointListModel::disable(const QString &endpointId)
{
    if (endpointId.isEmpty())
        return;
    runAction({"POST", QStringLiteral("/endpoints/%1/disable").arg(endpointId), {}, {}},
              [this](const QJsonObject &endpoint) { upsert(endpoint); });
}

QVariant EndpointListModel::value(const QJsonObject &row, int role) const
{
    const QString state = str(row, "state");
    auto timeOrEmpty = [&row](const char *key) {
        const QDateTime at = ConsoleFormat::parseTime(row.value(QLatin1String(key)));
        return at.isValid() ? ConsoleFormat::time(at) : QString();
    };
    switch (role) {
    case IdRole:
        return str(row, "id");
    case CustomerIdRole:
        return str(row, "customerId");
    case CustomerNameRole:
        return m_customers ? m_customers->nameOf(str(row, "customerId")) : QString();
    case UrlRole:
    case Qt::DisplayRole:
        return str(row, "url");
    case StateRole:
        return state;
    case StateTextRole:
        return state == QLatin1String("disabled")  ? tr("Disabled")
               : state == QLatin1String("enabled") ? tr("Enabled")
                                                   : state;
    case DisabledRole:
        return state == QLatin1String("disabled");
    case DisabledReasonRole:
        return str(row, "disabledReason");
    case DisabledAtTextRole:
        return timeOrEmpty("disabledAt");
    case FailingSinceTextRole:
        return timeOrEmpty("failingSince");
    case LastSuccessTextRole:
        return timeOrEmpty("lastSuccessAt");
    case PendingDeliveriesRole:
        return row.value(QLatin1String("pendingDeliveries")).toInt();
    default:
        return {};
    }
}

ApiCall EndpointListModel::listCall() const
{
    ApiCall call{"GET", QStringLiteral("/endpoints"), {}, {}};
    if (m_disabledOnly)
        call.query.addQueryItem(QStringLiteral("state"), QStringLiteral("disabled"));
    call.query.addQueryItem(QStringLiteral("limit"), QString::number(capacity()));
    return call;
}

bool EndpointListModel::accepts(const QJsonObject &row) const
{
    return !m_disabledOnly || str(row, "state") == QLatin1String("disabled");
}

void EndpointListModel::applyEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("endpoint.state"))
        upsert(event.data);
}

} // namespace Gatehouse::Console
