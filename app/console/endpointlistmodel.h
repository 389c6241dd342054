#pragma once

#include "livelistmodel.h"

#include <QPointer>

namespace Gatehouse::Console {

class CustomerListModel;

// Webhook endpoints (customer + URL, GET /admin/v1/endpoints); endpoint.state updates them
// in place. With disabledOnly, only disabled endpoints are listed (those need an operator).
class EndpointListModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT
    Q_PROPERTY(bool disabledOnly READ disabledOnly WRITE setDisabledOnly NOTIFY disabledOnlyChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        CustomerIdRole,
        CustomerNameRole, // from the customer list; "" when unknown
        UrlRole,
        StateRole, // "enabled", "disabled"
        StateTextRole,
        DisabledRole,
        DisabledReasonRole,
        DisabledAtTextRole,
        FailingSinceTextRole, // "" when not failing
        LastSuccessTextRole,
        PendingDeliveriesRole,
    };
    Q_ENUM(Role)

    explicit EndpointListModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    // Where customer names come from (optional).
    void setCustomers(CustomerListModel *customers);

    bool disabledOnly() const { return m_disabledOnly; }
    void setDisabledOnly(bool disabledOnly);

    Q_INVOKABLE void enable(const QString &endpointId);
    Q_INVOKABLE void disable(const QString &endpointId);

signals:
    void disabledOnlyChanged();

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    ApiCall listCall() const override;
    // Pages back by the last row's id (GET /endpoints?before=), newest first.
    QString olderCursorParam() const override { return QStringLiteral("before"); }
    bool accepts(const QJsonObject &row) const override;
    bool listedBefore(const QJsonObject &, const QJsonObject &) const override { return false; }
    void applyEvent(const AdminEvent &event) override;

private:
    QPointer<CustomerListModel> m_customers;
    bool m_disabledOnly = false;
};

} // namespace Gatehouse::Console
