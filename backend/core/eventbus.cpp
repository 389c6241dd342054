#include "core/eventbus.h"
#include "core/clock.h"

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
    QList<Event> out;
    for (const Event &e : m_history)
        if (e.seq > seq)
            out.append(e);
    return out;
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
