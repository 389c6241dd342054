#include "core/eventbus.h"

#include "core/clock.h"
#include <algorithm>

namespace Gatehouse::Core {

QJsonObject Event::toJson() const
{
    return QJsonObject{{QStringLiteral("seq"), seq},
                       {QStringLiteral("type"), type},
                       {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
                       {QStringLiteral("data"), data}};
}

EventBus::EventBus(const Clock &clock, int historySize, QObject *parent)
    : QObject(parent), m_clock(clock), m_historySize(historySize)
{
    qRegisterMetaType<Gatehouse::Core::Event>();
}

Event EventBus::publish(const QString &type, const QJsonObject &data)
{
    Event e;
    {
        QMutexLocker lock(&m_mutex);
        e.seq = ++m_seq;
        e.type = type;
        e.time = m_clock.now();
        e.data = data;
        m_history.append(e);
        if (m_history.size() > m_historySize)
            m_history.remove(0, m_history.size() - m_historySize);
    }
    emit published(e);
    return e;
}

QList<Event> EventBus::since(qint64 seq) const
{
    QMutexLocker lock(&m_mutex);
    // The history holds consecutive sequence numbers: start right after `seq`.
    if (m_history.isEmpty())
        return {};
    const qint64 first = m_history.first().seq;
    const qint64 start = std::clamp<qint64>(seq - first + 1, 0, m_history.size());
    return m_history.mid(start);
}

qint64 EventBus::lastSeq() const
{
    QMutexLocker lock(&m_mutex);
    return m_seq;
}

qint64 EventBus::publishedCount() const
{
    return lastSeq();
}

} // namespace Gatehouse::Core
