#include "listenermodel.h"

namespace Gatehouse::Console {

int ListenerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_listeners.size());
}

QVariant ListenerModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Listener &l = m_listeners.at(index.row());
    switch (role) {
    case NameRole:
        return l.name;
    case TitleRole:
    case Qt::DisplayRole:
        return m_titleOf ? m_titleOf(l.name) : l.title;
    case AddressRole:
        return l.address;
    case PortRole:
        return l.port;
    case TlsRole:
        return l.tls;
    case UrlRole:
        return l.url;
    case RequestsRole:
        return l.requests;
    default:
        return {};
    }
}

QHash<int, QByteArray> ListenerModel::roleNames() const
{
    return {
        {NameRole, "name"}, {TitleRole, "title"}, {AddressRole, "address"},   {PortRole, "port"},
        {TlsRole, "tls"},   {UrlRole, "url"},     {RequestsRole, "requests"},
    };
}

void ListenerModel::retranslate()
{
    if (!m_listeners.isEmpty())
        emit dataChanged(index(0), index(count() - 1), {TitleRole, Qt::DisplayRole});
}

void ListenerModel::setListeners(const QVariantList &listeners)
{
    QList<Listener> next;
    next.reserve(listeners.size());
    for (const QVariant &entry : listeners) {
        const QVariantMap map = entry.toMap();
        next.append(Listener{
            map.value(QStringLiteral("name")).toString(),
            map.value(QStringLiteral("title")).toString(),
            map.value(QStringLiteral("address")).toString(),
            map.value(QStringLiteral("port")).toInt(),
            map.value(QStringLiteral("tls")).toBool(),
            map.value(QStringLiteral("url")).toString(),
            map.value(QStringLiteral("requests")).toLongLong(),
        });
    }
    if (next == m_listeners)
        return;

    bool sameRows = next.size() == m_listeners.size();
    for (qsizetype i = 0; sameRows && i < next.size(); ++i)
        sameRows = next.at(i).name == m_listeners.at(i).name;
    if (!sameRows) {
        beginResetModel();
        m_listeners = std::move(next);
        endResetModel();
        emit countChanged();
        return;
    }
    for (qsizetype i = 0; i < next.size(); ++i) {
        if (next.at(i) == m_listeners.at(i))
            continue;
        m_listeners[i] = next.at(i);
        emit dataChanged(index(int(i)), index(int(i)));
    }
}

} // namespace Gatehouse::Console
