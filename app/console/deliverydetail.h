#pragma once

#include "attemptlistmodel.h"
#include "selecteddetail.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace Gatehouse::Console {

// The delivery the Deliveries page has selected: GET /admin/v1/deliveries/{id} with its
// attempt log, read again whenever an event says it changed; and Redeliver.
class DeliveryDetail : public Gatehouse::Console::SelectedDetail
{
    Q_OBJECT
    Q_PROPERTY(QString deliveryId READ deliveryId WRITE setDeliveryId NOTIFY deliveryIdChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY changed)
    // The last failed call's message as the API wrote it (never translated).
    Q_PROPERTY(QString orderId READ orderId NOTIFY changed)
    Q_PROPERTY(QString shortOrderId READ shortOrderId NOTIFY changed)
    Q_PROPERTY(QString url READ url NOTIFY changed)
    Q_PROPERTY(QString orderStatusText READ orderStatusText NOTIFY changed)
    Q_PROPERTY(int seq READ seq NOTIFY changed)
    Q_PROPERTY(QString state READ state NOTIFY changed)
    Q_PROPERTY(QString stateText READ stateText NOTIFY changed)
    Q_PROPERTY(QString stateFamily READ stateFamily NOTIFY changed)
    Q_PROPERTY(bool failed READ failed NOTIFY changed)
    Q_PROPERTY(int attemptCount READ attemptCount NOTIFY changed)
    Q_PROPERTY(QString nextAttemptText READ nextAttemptText NOTIFY changed)
    Q_PROPERTY(int lastStatus READ lastStatus NOTIFY changed) // 0: no answer
    Q_PROPERTY(QString lastStatusText READ lastStatusText NOTIFY changed)
    Q_PROPERTY(QString lastError READ lastError NOTIFY changed)
    Q_PROPERTY(QString latencyText READ latencyText NOTIFY changed)
    Q_PROPERTY(QString createdText READ createdText NOTIFY changed)
    Q_PROPERTY(QString completedText READ completedText NOTIFY changed)
    Q_PROPERTY(bool canRedeliver READ canRedeliver NOTIFY changed)
    Q_PROPERTY(Gatehouse::Console::AttemptListModel *attempts READ attempts CONSTANT)

public:
    explicit DeliveryDetail(AdminClient *client, QObject *parent = nullptr);

    QString deliveryId() const { return m_deliveryId; }
    void setDeliveryId(const QString &deliveryId);
    bool loaded() const { return !m_delivery.isEmpty(); }

    QString orderId() const;
    QString shortOrderId() const;
    QString url() const;
    QString orderStatusText() const;
    int seq() const;
    QString state() const;
    QString stateText() const;
    QString stateFamily() const;
    bool failed() const;
    int attemptCount() const;
    QString nextAttemptText() const;
    int lastStatus() const;
    QString lastStatusText() const;
    QString lastError() const;
    QString latencyText() const;
    QString createdText() const;
    QString completedText() const;
    // Pending deliveries are retried anyway; finished ones can go out again.
    bool canRedeliver() const { return loaded() && !busy() && state() != QLatin1String("pending"); }
    AttemptListModel *attempts() { return &m_attempts; }

    // POST /deliveries/{id}/redeliver: pending again, same webhook-id.
    Q_INVOKABLE void redeliver();

    void handleEvent(const AdminEvent &event);

signals:
    void deliveryIdChanged();
    // Redeliver's answer (a Delivery), for the delivery lists.
    void deliveryUpdated(const QJsonObject &delivery);

private:
    QString detailPath() const override;
    void apply(const QJsonObject &detail) override;
    QVariant role(int role) const;

    QString m_deliveryId;
    QJsonObject m_delivery; // with the attempt count under "attempts"
    AttemptListModel m_attempts;
};

} // namespace Gatehouse::Console
