#pragma once

#include "livelistmodel.h"

#include <QVariantList>

namespace Gatehouse::Console {

// The admin API's orders (GET /admin/v1/orders), newest first, live: order.created inserts,
// order.status updates the row in place. Filtered by status and customer. Reads 1,000 at a
// time; scrolling to the end reads the next 1,000 older ones (LiveListModel's paging).
class OrderListModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT
    // An order status ("ALLOCATED", ...) or "" for all.
    Q_PROPERTY(
        QString statusFilter READ statusFilter WRITE setStatusFilter NOTIFY statusFilterChanged)
    // A customer id or "" for all.
    Q_PROPERTY(QString customerFilter READ customerFilter WRITE setCustomerFilter NOTIFY
                   customerFilterChanged)
    // [{value, text}] for the status combo box, "All statuses" first.
    Q_PROPERTY(QVariantList statusOptions READ statusOptions NOTIFY statusOptionsChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        ShortIdRole,
        CustomerIdRole,
        CustomerNameRole,
        CustomerRefRole, // "" when none
        StatusRole,
        StatusTextRole,
        StatusFamilyRole, // progress, ok, waiting, exception, cancelled
        LineCountRole,
        QuantityRole, // ordered items over all lines
        VersionRole,
        CreatedRole, // QDateTime
        CreatedTextRole,
        ModifiedTextRole,
        CallbackUrlRole,
        CanPickupRole,
        CanDeliverRole,
        CanCancelRole,
    };
    Q_ENUM(Role)

    explicit OrderListModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;

    QString statusFilter() const { return m_statusFilter; }
    void setStatusFilter(const QString &status);
    QString customerFilter() const { return m_customerFilter; }
    void setCustomerFilter(const QString &customerId);
    QVariantList statusOptions() const;
    void retranslate() override;

    // An AdminOrder from an action's or a test order's answer; ignored when older than the row.
    void applyOrder(const QJsonObject &order);

signals:
    void statusOptionsChanged(); // the language changed
    void statusFilterChanged();
    void customerFilterChanged();

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    ApiCall listCall() const override;
    bool accepts(const QJsonObject &row) const override;
    void applyEvent(const AdminEvent &event) override;
    // Pages back with GET /orders?before=<id of the last row>.
    QString olderCursorParam() const override { return QStringLiteral("before"); }
    // A row keeps its lines' count and total quantity, not the lines (the detail reads the
    // order itself): with 100,000 orders listed that is most of the memory.
    QJsonObject normalize(const QJsonObject &object) const override;

private:
    QString m_statusFilter;
    QString m_customerFilter;
};

} // namespace Gatehouse::Console
