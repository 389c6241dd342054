#pragma once

#include "adminclient.h"

#include <QMap>
#include <QObject>
#include <QPointer>

namespace Gatehouse::Console {

// The "Place test order" dialog's state: a customer, an optional customerRef and a quantity
// per catalog UPC; submit() posts POST /admin/v1/test-orders, whose order reports its status
// to the built-in demo receiver.
class TestOrderForm : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString customerId READ customerId WRITE setCustomerId NOTIFY changed)
    Q_PROPERTY(QString customerRef READ customerRef WRITE setCustomerRef NOTIFY changed)
    Q_PROPERTY(int lineCount READ lineCount NOTIFY changed)
    Q_PROPERTY(int totalQuantity READ totalQuantity NOTIFY changed)
    Q_PROPERTY(bool canSubmit READ canSubmit NOTIFY changed)
    Q_PROPERTY(bool busy READ busy NOTIFY changed)
    // The last refusal's message as the API wrote it (never translated).
    Q_PROPERTY(QString error READ error NOTIFY changed)

public:
    static constexpr int MaxQuantity = 999; // per line, docs/orders.md
    static constexpr int MaxLines = 100;
    static constexpr int MaxCustomerRefLength = 255;

    explicit TestOrderForm(AdminClient *client, QObject *parent = nullptr);

    QString customerId() const { return m_customerId; }
    void setCustomerId(const QString &customerId);
    QString customerRef() const { return m_customerRef; }
    void setCustomerRef(const QString &customerRef);
    int lineCount() const { return int(m_quantities.size()); }
    int totalQuantity() const;
    bool canSubmit() const;
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }

    // 0 removes the line; clamped to 0..MaxQuantity.
    Q_INVOKABLE void setQuantity(const QString &upc, int quantity);
    Q_INVOKABLE int quantity(const QString &upc) const { return m_quantities.value(upc); }
    // Empties the form (keeps the customer).
    Q_INVOKABLE void reset();
    Q_INVOKABLE void submit();
    // The body submit() posts; without chosen beers it has no "lines".
    QJsonObject requestBody() const;

signals:
    void changed();
    // The order was created (an AdminOrder); the form is empty again.
    void placed(const QJsonObject &order);

private:
    QPointer<AdminClient> m_client;
    QString m_customerId;
    QString m_customerRef;
    QMap<QString, int> m_quantities; // upc -> quantity, sorted so the body is stable
    bool m_busy = false;
    QString m_error;
};

} // namespace Gatehouse::Console
