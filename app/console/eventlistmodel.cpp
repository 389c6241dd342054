#include "eventlistmodel.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::Console {

namespace {

constexpr qsizetype MaxSummaryLength = 200;

QString compactValue(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 15);
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

QString elide(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (text.size() > MaxSummaryLength)
        text = text.left(MaxSummaryLength - 1) + QChar(0x2026);
    return text;
}

} // namespace

EventListModel::EventListModel(QObject *parent) : EventListModel(DefaultCapacity, parent) {}

EventListModel::EventListModel(int capacity, QObject *parent)
    : QAbstractListModel(parent), m_capacity(std::max(1, capacity))
{}

int EventListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant EventListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case SeqRole:
        return row.seq;
    case TypeRole:
        return row.type;
    case TimeRole:
        return row.time;
    case TimeTextRole:
        return row.time.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
    case SummaryRole:
    case Qt::DisplayRole:
        return row.summary;
    case InstanceRole:
        return row.event.instance;
    default:
        return {};
    }
}

QHash<int, QByteArray> EventListModel::roleNames() const
{
    return {
        {SeqRole, "seq"},           {TypeRole, "type"},       {TimeRole, "time"},
        {TimeTextRole, "timeText"}, {SummaryRole, "summary"}, {InstanceRole, "instance"},
    };
}

void EventListModel::setShowStats(bool show)
{
    if (m_showStats == show)
        return;
    beginResetModel();
    m_showStats = show;
    m_rows.clear();
    for (const Row &row : m_all) {
        if (isVisible(row))
            m_rows.append(row);
    }
    endResetModel();
    emit showStatsChanged();
    emit countChanged();
}

void EventListModel::addEvent(const AdminEvent &event)
{
    Row row{event.seq, event.type, event.time, summarize(event), event};
    const int before = count();
    if (m_all.size() >= size_t(m_capacity)) {
        const bool droppedVisible = isVisible(m_all.back());
        m_all.pop_back();
        if (droppedVisible) {
            const int last = int(m_rows.size()) - 1;
            beginRemoveRows({}, last, last);
            m_rows.removeLast();
            endRemoveRows();
        }
    }
    const bool visible = isVisible(row);
    m_all.push_front(row);
    if (visible) {
        beginInsertRows({}, 0, 0);
        m_rows.prepend(std::move(row));
        endInsertRows();
        m_live.noteChange();
    }
    if (count() != before)
        emit countChanged();
}

void EventListModel::clear()
{
    if (m_all.empty())
        return;
    beginResetModel();
    m_all.clear();
    m_rows.clear();
    endResetModel();
    emit countChanged();
}

void EventListModel::retranslate()
{
    for (Row &row : m_all)
        row.summary = summarize(row.event);
    for (Row &row : m_rows)
        row.summary = summarize(row.event);
    if (!m_rows.isEmpty())
        emit dataChanged(index(0), index(count() - 1), {SummaryRole, Qt::DisplayRole});
}

bool EventListModel::isVisible(const Row &row) const
{
    // stats and stats.series (the dashboard's counters): about once a second each.
    return m_showStats ||
           (row.type != QLatin1String("stats") && !row.type.startsWith(QLatin1String("stats.")));
}

QString EventListModel::summarize(const AdminEvent &event)
{
    if (!event.rawData.isEmpty())
        return elide(QString::fromUtf8(event.rawData));

    const QJsonObject &data = event.data;
    if (event.type == QLatin1String("backend.started")) {
        const QString version = data.value(QLatin1String("version")).toString();
        return version.isEmpty() ? tr("Backend started") : tr("Backend %1 started").arg(version);
    }
    if (event.type == QLatin1String("stats")) {
        const QJsonObject requests = data.value(QLatin1String("requests")).toObject();
        QStringList parts;
        for (auto it = requests.begin(); it != requests.end(); ++it)
            parts.append(QStringLiteral("%1 %2").arg(it.key()).arg(it.value().toInteger()));
        return tr("Requests: %1").arg(parts.join(QStringLiteral(" · ")));
    }
    if (event.type == QLatin1String("stats.series")) {
        const QJsonObject bucket = data.value(QLatin1String("bucket")).toObject();
        QStringList parts;
        for (auto it = bucket.begin(); it != bucket.end(); ++it) {
            if (it.value().isDouble())
                parts.append(QStringLiteral("%1 %2").arg(it.key()).arg(it.value().toInteger()));
        }
        return tr("This minute: %1").arg(parts.join(QStringLiteral(" · ")));
    }

    // Unknown to this console version: show what the server sent.
    QStringList parts;
    for (auto it = data.begin(); it != data.end(); ++it)
        parts.append(it.key() + QLatin1Char('=') + compactValue(it.value()));
    return parts.isEmpty() ? QStringLiteral("–") : elide(parts.join(QStringLiteral(", ")));
}

} // namespace Gatehouse::Console
