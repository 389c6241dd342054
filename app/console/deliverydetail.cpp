#include "deliverydetail.h"

#include "deliverylistmodel.h"

#include <QJsonArray>

namespace Gatehouse::Console {

DeliveryDetail::DeliveryDetail(AdminClient *client, QObject *parent)
    : SelectedDetail(client, parent), m_attempts(this)
{
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &DeliveryDetail::handleEvent);
}

void DeliveryDetail::setDeliveryId(const QString &deliveryId)
{
    if (m_deliveryId == deliveryId)
        return;
    m_deliveryId = deliveryId;
    selectionChanged();
    m_delivery = {};
    m_attempts.setAttempts({});
    emit deliveryIdChanged();
    emit changed();
    reload();
}

QVariant DeliveryDetail::role(int role) const
{
    return DeliveryListModel::deliveryValue(m_delivery, role);
}

QString DeliveryDetail::orderId() const
{
    return role(DeliveryListModel::OrderIdRole).toString();
}

QString DeliveryDetail::shortOrderId() const
{
    return role(DeliveryListModel::ShortOrderIdRole).toString();
}

QString DeliveryDetail::url() const
{
    return role(DeliveryListModel::UrlRole).toString();
}

QString DeliveryDetail::orderStatusText() const
{
    return role(DeliveryListModel::OrderStatusTextRole).toString();
}

int DeliveryDetail::seq() const
{
    return role(DeliveryListModel::SeqRole).toInt();
}

QString DeliveryDetail::state() const
{
    return role(DeliveryListModel::StateRole).toString();
}

QString DeliveryDetail::stateText() const
{
    return role(DeliveryListModel::StateTextRole).toString();
}

QString DeliveryDetail::stateFamily() const
{
    return role(DeliveryListModel::StateFamilyRole).toString();
}

bool DeliveryDetail::failed() const
{
    return role(DeliveryListModel::FailedRole).toBool();
}

int DeliveryDetail::attemptCount() const
{
    return role(DeliveryListModel::AttemptsRole).toInt();
}

QString DeliveryDetail::nextAttemptText() const
{
    return role(DeliveryListModel::NextAttemptTextRole).toString();
}

int DeliveryDetail::lastStatus() const
{
    return role(DeliveryListModel::LastStatusRole).toInt();
}

QString DeliveryDetail::lastStatusText() const
{
    return role(DeliveryListModel::LastStatusTextRole).toString();
}

QString DeliveryDetail::lastError() const
{
    return role(DeliveryListModel::LastErrorRole).toString();
}

QString DeliveryDetail::latencyText() const
{
    return role(DeliveryListModel::LatencyTextRole).toString();
}

QString DeliveryDetail::createdText() const
{
    return role(DeliveryListModel::CreatedTextRole).toString();
}

QString DeliveryDetail::completedText() const
{
    return role(DeliveryListModel::CompletedTextRole).toString();
}

QString DeliveryDetail::detailPath() const
{
    return m_deliveryId.isEmpty() ? QString() : QStringLiteral("/deliveries/%1").arg(m_deliveryId);
}

void DeliveryDetail::redeliver()
{
    runAction(QStringLiteral("/deliveries/%1/redeliver").arg(m_deliveryId),
              [this](const QJsonObject &delivery, bool stillSelected) {
                  emit deliveryUpdated(delivery);
                  if (stillSelected)
                      reload(); // the answer has no attempt log
              });
}

void DeliveryDetail::handleEvent(const AdminEvent &event)
{
    if (m_deliveryId.isEmpty() || !event.type.startsWith(QLatin1String("delivery.")))
        return;
    const QString id = event.type == QLatin1String("delivery.attempt")
                           ? event.data.value(QLatin1String("deliveryId")).toString()
                           : event.data.value(QLatin1String("id")).toString();
    if (id == m_deliveryId)
        reload(); // events carry no attempt records; the detail has them
}

void DeliveryDetail::apply(const QJsonObject &detail)
{
    const QJsonArray attempts = detail.value(QLatin1String("attempts")).toArray();
    QJsonObject delivery = detail;
    delivery.insert(QStringLiteral("attempts"), attempts.size());
    m_delivery = delivery;
    m_attempts.setAttempts(attempts);
    emit changed();
}

} // namespace Gatehouse::Console
