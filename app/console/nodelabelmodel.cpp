#include "nodelabelmodel.h"

#include <QStringList>

namespace Gatehouse::Console {

NodeLabelModel::NodeLabelModel(QObject *parent) : QAbstractListModel(parent) {}

int NodeLabelModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QString NodeLabelModel::state(const Label &label)
{
    if (!label.existed)
        return QStringLiteral("added");
    if (label.removed)
        return QStringLiteral("removed");
    return label.value == label.original ? QStringLiteral("unchanged") : QStringLiteral("changed");
}

QVariant NodeLabelModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Label &label = m_rows.at(index.row());
    switch (role) {
    case KeyRole:
    case Qt::DisplayRole:
        return label.key;
    case ValueRole:
        return label.removed ? QString() : label.value;
    case OriginalValueRole:
        return label.original;
    case StateRole:
        return state(label);
    case StateTextRole: {
        const QString s = state(label);
        if (s == QLatin1String("added"))
            return tr("added");
        if (s == QLatin1String("removed"))
            return tr("removed");
        if (s == QLatin1String("changed"))
            return tr("changed");
        return QString();
    }
    case IsNewRole:
        return !label.existed;
    case IsRemovedRole:
        return label.removed;
    default:
        return {};
    }
}

QHash<int, QByteArray> NodeLabelModel::roleNames() const
{
    return {
        {KeyRole, "key"},
        {ValueRole, "value"},
        {OriginalValueRole, "originalValue"},
        {StateRole, "state"},
        {StateTextRole, "stateText"},
        {IsNewRole, "isNew"},
        {IsRemovedRole, "isRemoved"},
    };
}

QList<NodeLabelModel::Label> NodeLabelModel::rowsFor(const QJsonObject &labels)
{
    QList<Label> rows;
    for (auto it = labels.begin(); it != labels.end(); ++it) { // QJsonObject: sorted by key
        const QString value = it.value().toString();
        rows.append(Label{it.key(), value, value, true, false});
    }
    return rows;
}

void NodeLabelModel::replaceRows(QList<Label> rows)
{
    bool sameKeys = rows.size() == m_rows.size();
    for (qsizetype i = 0; sameKeys && i < rows.size(); ++i)
        sameKeys = rows.at(i).key == m_rows.at(i).key;
    if (sameKeys) {
        // In place: the delegates (and a field being typed in) stay.
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const Label &a = rows.at(i);
            const Label &b = m_rows.at(i);
            if (a.value == b.value && a.original == b.original && a.existed == b.existed &&
                a.removed == b.removed)
                continue;
            m_rows[i] = a;
            emit dataChanged(index(int(i)), index(int(i)));
        }
        return;
    }
    const qsizetype before = m_rows.size();
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
    if (m_rows.size() != before)
        emit countChanged();
}

void NodeLabelModel::reset(const QJsonObject &labels)
{
    m_original = labels;
    replaceRows(rowsFor(labels));
    emit changed();
}

void NodeLabelModel::rebase(const QJsonObject &labels)
{
    QList<Label> rows = rowsFor(labels);
    for (const Label &old : std::as_const(m_rows)) {
        const bool edited = state(old) != QLatin1String("unchanged");
        auto it = std::find_if(rows.begin(), rows.end(),
                               [&old](const Label &l) { return l.key == old.key; });
        if (it != rows.end()) {
            if (old.removed) {
                it->removed = true;
            } else if (edited) {
                it->value = old.value; // equal to the new value: no longer a change
            }
        } else if (edited && !old.removed) {
            // The node lost this key, or never had it: the value is to be added.
            rows.append(Label{old.key, old.value, QString(), false, false});
        }
    }
    m_original = labels;
    replaceRows(std::move(rows));
    emit changed();
}

bool NodeLabelModel::setValue(int row, const QString &value)
{
    if (row < 0 || row >= count())
        return false;
    Label &label = m_rows[row];
    if (label.value == value && !label.removed)
        return false;
    label.value = value;
    label.removed = false;
    emit dataChanged(index(row), index(row));
    emit changed();
    return true;
}

void NodeLabelModel::add(const QString &key, const QString &value)
{
    if (key.isEmpty())
        return;
    if (const int row = indexOfKey(key); row >= 0) {
        setValue(row, value);
        return;
    }
    const int row = count();
    beginInsertRows({}, row, row);
    m_rows.append(Label{key, value, QString(), false, false});
    endInsertRows();
    emit countChanged();
    emit changed();
}

void NodeLabelModel::remove(int row)
{
    if (row < 0 || row >= count())
        return;
    Label &label = m_rows[row];
    if (!label.existed) {
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
        emit countChanged();
        emit changed();
        return;
    }
    if (label.removed)
        return;
    label.removed = true;
    label.value = label.original;
    emit dataChanged(index(row), index(row));
    emit changed();
}

void NodeLabelModel::restore(int row)
{
    if (row < 0 || row >= count() || !m_rows.at(row).existed)
        return;
    Label &label = m_rows[row];
    if (!label.removed && label.value == label.original)
        return;
    label.removed = false;
    label.value = label.original;
    emit dataChanged(index(row), index(row));
    emit changed();
}

int NodeLabelModel::indexOfKey(const QString &key) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).key == key)
            return int(i);
    return -1;
}

QJsonObject NodeLabelModel::changes() const
{
    QJsonObject patch;
    for (const Label &label : m_rows) {
        if (label.removed)
            patch.insert(label.key, QJsonValue::Null);
        else if (!label.existed || label.value != label.original)
            patch.insert(label.key, label.value);
    }
    return patch;
}

void NodeLabelModel::retranslate()
{
    if (!m_rows.isEmpty())
        emit dataChanged(index(0), index(int(m_rows.size()) - 1), {StateTextRole});
}

} // namespace Gatehouse::Console
