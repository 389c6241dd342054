#pragma once

#include "livelistmodel.h"

#include <QVariantList>

namespace Gatehouse::Console {

// Webhook deliveries (GET /admin/v1/deliveries), newest first, live: delivery.created
// inserts, delivery.attempt and delivery.state update the row in place. Filtered by state and
// order. With orderScoped set (an order's detail) it lists nothing until orderFilter is set.
class DeliveryListModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT
    // "pending", "succeeded", "failed" or "" for all.
    Q_PROPERTY(QString stateFilter READ stateFilter WRITE setStateFilter NOTIFY stateFilterChanged)
    // An order id or "" for all (orderScoped: for none).
    Q_PROPERTY(QString orderFilter READ orderFilter WRITE setOrderFilter NOTIFY orderFilterChanged)
    // [{value, text}] for the state combo box, "All states" first.
    Q_PROPERTY(QVariantList stateOptions READ stateOptions NOTIFY stateOptionsChanged)
    Q_PROPERTY(int failedCount READ failedCount NOTIFY countsChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1, // the webhook-id, "msg_…"
        ShortIdRole,
        OrderIdRole,
        ShortOrderIdRole,
        CustomerIdRole,
        EndpointIdRole,
        UrlRole,
        OrderStatusRole, // the status this delivery reports
        OrderStatusTextRole,
        SeqRole,
        StateRole,
        StateTextRole,
        StateFamilyRole, // progress, ok, exception
        FailedRole,
        AttemptsRole,
        NextAttemptTextRole, // "" when none is scheduled
        LastStatusRole,      // HTTP status of the last attempt, 0 when none
        LastStatusTextRole,  // "503", "–"
        LastErrorRole,
        LastLatencyRole, // ms, -1 when none
        LatencyTextRole,
        CreatedTextRole,
        CompletedTextRole, // "" while pending
    };
    Q_ENUM(Role)

    explicit DeliveryListModel(AdminClient *client, QObject *parent = nullptr,
                               bool orderScoped = false);

    QHash<int, QByteArray> roleNames() const override;

    QString stateFilter() const { return m_stateFilter; }
    void setStateFilter(const QString &state);
    QString orderFilter() const { return m_orderFilter; }
    void setOrderFilter(const QString &orderId);
    // Sets the order without reloading, for an owner that has the rows already (resetFrom).
    void scopeToOrder(const QString &orderId);
    QVariantList stateOptions() const;
    void retranslate() override;
    int failedCount() const { return m_failedCount; }

    // POST /deliveries/{id}/redeliver; the row turns pending.
    Q_INVOKABLE void redeliver(const QString &deliveryId);
    // A Delivery from an answer elsewhere (the delivery detail's redeliver).
    void applyDelivery(const QJsonObject &delivery);

    // The summary role values for one Delivery object (shared with DeliveryDetail).
    static QVariant deliveryValue(const QJsonObject &delivery, int role);

signals:
    void stateOptionsChanged(); // the language changed
    void stateFilterChanged();
    void orderFilterChanged();
    void countsChanged();
    void deliveryChanged(const QJsonObject &delivery);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    ApiCall listCall() const override;
    bool accepts(const QJsonObject &row) const override;
    bool canLoad() const override { return !m_orderScoped || !m_orderFilter.isEmpty(); }
    QString sortTimeKey() const override { return QStringLiteral("createdAt"); }
    QJsonObject normalize(const QJsonObject &object) const override;
    void applyEvent(const AdminEvent &event) override;

private:
    void updateCounts();

    bool m_orderScoped;
    QString m_stateFilter;
    QString m_orderFilter;
    int m_failedCount = 0;
};

} // namespace Gatehouse::Console
