#include "jsonlistmodel.h"

namespace Gatehouse::Console {

int JsonListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant JsonListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return value(m_rows.at(index.row()), role);
}

int JsonListModel::indexOfId(const QString &id) const
{
    if (id.isEmpty())
        return -1;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (idOf(m_rows.at(i)) == id)
            return int(i);
    }
    return -1;
}

QString JsonListModel::idAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? idOf(m_rows.at(row)) : QString();
}

void JsonListModel::setRows(QList<QJsonObject> rows)
{
    const qsizetype before = m_rows.size();
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
    if (m_rows.size() != before)
        emit countChanged();
}

QString JsonListModel::idOf(const QJsonObject &row) const
{
    return row.value(QLatin1String("id")).toString();
}

void JsonListModel::insertRowAt(int row, const QJsonObject &object)
{
    row = std::clamp(row, 0, count());
    beginInsertRows({}, row, row);
    m_rows.insert(row, object);
    endInsertRows();
    emit countChanged();
}

void JsonListModel::appendRows(QList<QJsonObject> rows)
{
    if (rows.isEmpty())
        return;
    const int first = count();
    beginInsertRows({}, first, first + int(rows.size()) - 1);
    m_rows.append(std::move(rows));
    endInsertRows();
    emit countChanged();
}

void JsonListModel::replaceRowAt(int row, const QJsonObject &object)
{
    if (row < 0 || row >= count() || m_rows.at(row) == object)
        return;
    m_rows[row] = object;
    emit dataChanged(index(row), index(row));
}

void JsonListModel::removeRowAt(int row)
{
    if (row < 0 || row >= count())
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    emit countChanged();
}

void JsonListModel::retranslate()
{
    if (!m_rows.isEmpty())
        emit dataChanged(index(0), index(count() - 1));
}

} // namespace Gatehouse::Console
