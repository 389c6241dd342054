#pragma once

#include "deliverylistmodel.h"
#include "orderhistorymodel.h"
#include "orderlinemodel.h"
#include "selecteddetail.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace Gatehouse::Console {

class BeerListModel;

// The order the Orders page has selected: GET /admin/v1/orders/{id} with its lines, status
// history and deliveries, kept live (order.status appends to the history, delivery events
// update the deliveries), and the actions the status allows.
class OrderDetail : public Gatehouse::Console::SelectedDetail
{
    Q_OBJECT
    Q_PROPERTY(QString orderId READ orderId WRITE setOrderId NOTIFY orderIdChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY changed) // the order's data is here
    // The last failed call's message as the API wrote it (never translated).
    Q_PROPERTY(QString shortId READ shortId NOTIFY changed)
    Q_PROPERTY(QString customerId READ customerId NOTIFY changed)
    Q_PROPERTY(QString customerName READ customerName NOTIFY changed)
    Q_PROPERTY(QString customerRef READ customerRef NOTIFY changed)
    Q_PROPERTY(QString status READ status NOTIFY changed)
    Q_PROPERTY(QString statusText READ statusText NOTIFY changed)
    Q_PROPERTY(QString statusFamily READ statusFamily NOTIFY changed)
    Q_PROPERTY(int version READ version NOTIFY changed)
    Q_PROPERTY(QString createdText READ createdText NOTIFY changed)
    Q_PROPERTY(QString modifiedText READ modifiedText NOTIFY changed)
    Q_PROPERTY(QString callbackUrl READ callbackUrl NOTIFY changed)
    Q_PROPERTY(bool canPickup READ canPickup NOTIFY changed)
    Q_PROPERTY(bool canDeliver READ canDeliver NOTIFY changed)
    Q_PROPERTY(bool canCancel READ canCancel NOTIFY changed)
    Q_PROPERTY(Gatehouse::Console::OrderLineModel *lines READ lines CONSTANT)
    Q_PROPERTY(Gatehouse::Console::OrderHistoryModel *history READ history CONSTANT)
    Q_PROPERTY(Gatehouse::Console::DeliveryListModel *deliveries READ deliveries CONSTANT)

public:
    // beers (optional) names the lines.
    OrderDetail(AdminClient *client, BeerListModel *beers, QObject *parent = nullptr);

    QString orderId() const { return m_orderId; }
    // Selects an order ("" for none) and loads it.
    void setOrderId(const QString &orderId);
    bool loaded() const { return !m_order.isEmpty(); }

    QString shortId() const;
    QString customerId() const { return field("customerId"); }
    QString customerName() const { return field("customerName"); }
    QString customerRef() const { return field("customerRef"); }
    QString status() const { return field("orderStatus"); }
    QString statusText() const;
    QString statusFamily() const;
    int version() const;
    QString createdText() const;
    QString modifiedText() const;
    QString callbackUrl() const { return field("orderStatusCallbackUrl"); }
    bool canPickup() const;
    bool canDeliver() const;
    bool canCancel() const;
    OrderLineModel *lines() { return &m_lines; }
    OrderHistoryModel *history() { return &m_history; }
    DeliveryListModel *deliveries() { return &m_deliveries; }

    Q_INVOKABLE void pickup();
    Q_INVOKABLE void deliver();
    Q_INVOKABLE void cancel();

    void handleEvent(const AdminEvent &event);

signals:
    void orderIdChanged();
    // An action's answer (an AdminOrder), for the order list.
    void orderUpdated(const QJsonObject &order);

private:
    QString detailPath() const override;
    void apply(const QJsonObject &detail) override;
    void runOrderAction(const QString &action);
    QString field(const char *key) const;
    // A newer status of this order, from an event or an action's answer.
    void applyStatus(const QString &status, int version, const QJsonValue &at);

    QString m_orderId;
    QJsonObject m_order; // without history and deliveries
    OrderLineModel m_lines;
    OrderHistoryModel m_history;
    DeliveryListModel m_deliveries;
};

} // namespace Gatehouse::Console
