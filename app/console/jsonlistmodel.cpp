#include "jsonlistmodel.h"

namespace Gatehouse::Console {

int JsonListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : count();
}

QVariant JsonListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (!m_store)
        return value(m_rows.at(index.row()), role);
    if (m_cachedRow != index.row()) {
        m_cached = m_store->at(index.row());
        m_cachedRow = index.row();
    }
    return value(m_cached, role);
}

const QList<QJsonObject> &JsonListModel::rows() const
{
    Q_ASSERT_X(!m_store, "JsonListModel::rows", "the rows are in a row store: use rowAt()");
    return m_rows;
}

QJsonObject JsonListModel::rowAt(int row) const
{
    if (!m_store)
        return m_rows.value(row);
    return row >= 0 && row < m_store->size() ? m_store->at(row) : QJsonObject();
}

int JsonListModel::indexOfId(const QString &id) const
{
    if (id.isEmpty())
        return -1;
    if (m_store)
        return int(m_store->indexOfId(id));
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (idOf(m_rows.at(i)) == id)
            return int(i);
    }
    return -1;
}

QString JsonListModel::idAt(int row) const
{
    if (row < 0 || row >= count())
        return {};
    return m_store ? m_store->idAt(row) : idOf(m_rows.at(row));
}

void JsonListModel::setRowStore(std::unique_ptr<JsonRowStore> store)
{
    Q_ASSERT(count() == 0);
    m_store = std::move(store);
    rowsChanged();
}

void JsonListModel::setRows(QList<QJsonObject> rows)
{
    const int before = count();
    beginResetModel();
    if (m_store)
        m_store->reset(rows);
    else
        m_rows = std::move(rows);
    rowsChanged();
    endResetModel();
    if (count() != before)
        emit countChanged();
}

bool JsonListModel::hasRows(const QList<QJsonObject> &rows) const
{
    if (!m_store)
        return m_rows == rows;
    if (rows.size() != m_store->size())
        return false;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if (!m_store->equals(i, rows.at(i)))
            return false;
    }
    return true;
}

QString JsonListModel::idOf(const QJsonObject &row) const
{
    return row.value(QLatin1String("id")).toString();
}

void JsonListModel::insertRowAt(int row, const QJsonObject &object)
{
    row = std::clamp(row, 0, count());
    beginInsertRows({}, row, row);
    if (m_store)
        m_store->insert(row, object);
    else
        m_rows.insert(row, object);
    rowsChanged();
    endInsertRows();
    emit countChanged();
}

void JsonListModel::appendRows(QList<QJsonObject> rows)
{
    if (rows.isEmpty())
        return;
    const int first = count();
    beginInsertRows({}, first, first + int(rows.size()) - 1);
    if (m_store) {
        for (const QJsonObject &object : std::as_const(rows))
            m_store->insert(m_store->size(), object);
    } else {
        m_rows.append(std::move(rows));
    }
    rowsChanged();
    endInsertRows();
    emit countChanged();
}

void JsonListModel::replaceRowAt(int row, const QJsonObject &object)
{
    if (row < 0 || row >= count())
        return;
    if (m_store) {
        if (m_store->equals(row, object))
            return;
        m_store->replace(row, object);
    } else {
        if (m_rows.at(row) == object)
            return;
        m_rows[row] = object;
    }
    rowsChanged();
    emit dataChanged(index(row), index(row));
}

void JsonListModel::removeRowAt(int row)
{
    if (row < 0 || row >= count())
        return;
    beginRemoveRows({}, row, row);
    if (m_store)
        m_store->remove(row);
    else
        m_rows.removeAt(row);
    rowsChanged();
    endRemoveRows();
    emit countChanged();
}

void JsonListModel::retranslate()
{
    if (count() > 0)
        emit dataChanged(index(0), index(count() - 1));
}

} // namespace Gatehouse::Console
