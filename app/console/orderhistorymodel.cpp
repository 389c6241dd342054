#include "orderhistorymodel.h"

#include "orderstatus.h"

namespace Gatehouse::Console {

OrderHistoryModel::OrderHistoryModel(QObject *parent) : JsonListModel(parent) {}

QHash<int, QByteArray> OrderHistoryModel::roleNames() const
{
    return {
        {StatusRole, "status"}, {StatusTextRole, "statusText"}, {StatusFamilyRole, "statusFamily"},
        {AtRole, "at"},         {AtTextRole, "atText"},         {CurrentRole, "current"},
    };
}

QVariant OrderHistoryModel::data(const QModelIndex &index, int role) const
{
    if (role == CurrentRole &&
        checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return index.row() == count() - 1;
    return JsonListModel::data(index, role);
}

void OrderHistoryModel::setHistory(const QJsonArray &history)
{
    QList<QJsonObject> next;
    next.reserve(history.size());
    for (const QJsonValue entry : history)
        next.append(entry.toObject());
    if (next != rows())
        setRows(std::move(next));
}

void OrderHistoryModel::append(const QString &status, const QJsonValue &at)
{
    const int previousLast = count() - 1;
    insertRowAt(count(), QJsonObject{{"status", status}, {"at", at}});
    if (previousLast >= 0) // no longer the current one
        emit dataChanged(index(previousLast), index(previousLast), {CurrentRole});
}

QVariant OrderHistoryModel::value(const QJsonObject &row, int role) const
{
    const QString status = row.value(QLatin1String("status")).toString();
    switch (role) {
    case StatusRole:
        return status;
    case StatusTextRole:
    case Qt::DisplayRole:
        return OrderStatus::displayName(status);
    case StatusFamilyRole:
        return OrderStatus::family(status);
    case AtRole:
        return ConsoleFormat::parseTime(row.value(QLatin1String("at")));
    case AtTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("at")));
    default: // CurrentRole depends on the position: data()
        return {};
    }
}

QString OrderHistoryModel::idOf(const QJsonObject &row) const
{
    return row.value(QLatin1String("status")).toString() + QLatin1Char('@') +
           row.value(QLatin1String("at")).toString();
}

} // namespace Gatehouse::Console
