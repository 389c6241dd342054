#pragma once

#include "jsonlistmodel.h"

#include <QJsonArray>

namespace Gatehouse::Console {

// An order's status history ({"status", "at"}), oldest first: the timeline. The last entry
// is the current status.
class OrderHistoryModel : public Gatehouse::Console::JsonListModel
{
    Q_OBJECT

public:
    enum Role {
        StatusRole = Qt::UserRole + 1,
        StatusTextRole,
        StatusFamilyRole,
        AtRole, // QDateTime
        AtTextRole,
        CurrentRole, // the last entry
    };
    Q_ENUM(Role)

    explicit OrderHistoryModel(QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    QVariant data(const QModelIndex &index, int role) const override;
    void setHistory(const QJsonArray &history);
    // A new status at the end (a live order.status).
    void append(const QString &status, const QJsonValue &at);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    QString idOf(const QJsonObject &row) const override;
};

} // namespace Gatehouse::Console
