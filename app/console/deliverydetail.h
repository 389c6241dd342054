#pragma once

#include "adminclient.h"
#include "attemptlistmodel.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace Gatehouse::Console {

// The delivery the Deliveries page has selected: GET /admin/v1/deliveries/{id} with its
// attempt log, read again whenever an event says it changed; and Redeliver.
class DeliveryDetail : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString deliveryId READ deliveryId WRITE setDeliveryId NOTIFY deliveryIdChanged)
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY changed)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    // The last failed call's message as the API wrote it (never translated).
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
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
    bool loading() const { return m_loading; }
    bool loaded() const { return !m_delivery.isEmpty(); }
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }

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
    bool canRedeliver() const { return loaded() && !m_busy && state() != QLatin1String("pending"); }
    AttemptListModel *attempts() { return &m_attempts; }

    Q_INVOKABLE void reload();
    // POST /deliveries/{id}/redeliver: pending again, same webhook-id.
    Q_INVOKABLE void redeliver();
    Q_INVOKABLE void clearError();

    void handleEvent(const AdminEvent &event);

    // The language changed: every text did (they are made when read).
    void retranslate() { emit changed(); }

signals:
    void deliveryIdChanged();
    void loadingChanged();
    void busyChanged();
    void errorChanged();
    void changed();
    // Redeliver's answer (a Delivery), for the delivery lists.
    void deliveryUpdated(const QJsonObject &delivery);

private:
    QVariant role(int role) const;
    void apply(const QJsonObject &detail);
    void setLoading(bool loading);
    void setBusy(bool busy);
    void setError(const QString &error);

    QPointer<AdminClient> m_client;
    QString m_deliveryId;
    QJsonObject m_delivery; // with the attempt count under "attempts"
    AttemptListModel m_attempts;
    quint64 m_generation = 0; // counts selections; answers for an earlier one are dropped
    bool m_loading = false;
    bool m_reloadAgain = false;
    bool m_busy = false;
    QString m_error;
};

} // namespace Gatehouse::Console
