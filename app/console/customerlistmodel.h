#pragma once

#include "livelistmodel.h"

#include <QVariantList>

namespace Gatehouse::Console {

// The customers (GET /admin/v1/customers) by name; customer.created inserts. Creating a
// customer and rotating its secret hand the new whsec_ secret to QML once, through
// secretIssued(); the model never keeps it.
class CustomerListModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT
    // [{value, text}] for a customer filter combo box: "All customers" first.
    Q_PROPERTY(QVariantList filterOptions READ filterOptions NOTIFY filterOptionsChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        NameRole,
        ShortIdRole,
        CreatedTextRole,
        OrderCountRole,
        SecretRotatedTextRole,         // "" when never rotated
        PreviousSecretExpiresTextRole, // "" unless the previous secret still works
    };
    Q_ENUM(Role)

    explicit CustomerListModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    QVariantList filterOptions() const;
    void retranslate() override;
    bool busy() const { return m_busy; }

    Q_INVOKABLE QString nameOf(const QString &customerId) const;
    // POST /customers; on success customerCreated() and secretIssued().
    Q_INVOKABLE void create(const QString &name);
    // POST /customers/{id}/rotate-secret; on success secretIssued().
    Q_INVOKABLE void rotateSecret(const QString &customerId);
    // For the secret dialog's copy button: marked for clipboard managers to leave out and
    // cleared again (secretclipboard.h).
    Q_INVOKABLE void copySecretToClipboard(const QString &secret) const;

signals:
    void filterOptionsChanged();
    void busyChanged();
    void customerCreated(const QString &customerId);
    // secret is shown once and not kept; previousSecretExpiresText is "" for a new customer.
    void secretIssued(const QString &customerId, const QString &customerName, const QString &secret,
                      const QString &previousSecretExpiresText);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    ApiCall listCall() const override;
    bool listedBefore(const QJsonObject &a, const QJsonObject &b) const override;
    void applyEvent(const AdminEvent &event) override;

private:
    void setBusy(bool busy);

    bool m_busy = false;
};

} // namespace Gatehouse::Console
