#include "core/eventbus.h"

#include "core/clock.h"
#include "core/jsonwriter.h"

#include <QJsonDocument>
#include <algorithm>

namespace Gatehouse::Core {

QJsonObject Event::data() const
{
    if (m_dataJson.isEmpty())
        return m_data;
    return QJsonDocument::fromJson(m_dataJson).object();
}

QByteArray Event::dataJson() const
{
    if (!m_dataJson.isEmpty())
        return m_dataJson;
    return QJsonDocument(m_data).toJson(QJsonDocument::Compact);
}

QJsonValue Event::value(QLatin1StringView key) const
{
    if (m_dataJson.isEmpty())
        return m_data.value(key);
    return jsonObjectMember(m_dataJson, key).value_or(QJsonValue(QJsonValue::Undefined));
}

void Event::setData(const QJsonObject &data)
{
    m_data = data;
    m_dataJson.clear();
}

void Event::setDataJson(const QByteArray &json)
{
    Q_ASSERT_X(json.isEmpty() || (json.startsWith('{') && json.endsWith('}')), "setDataJson",
               "the data must be one JSON object's compact text");
    m_data = {};
    m_dataJson = json.isEmpty() ? QByteArrayLiteral("{}") : json;
}

QJsonObject Event::toJson() const
{
    QJsonObject o{{QStringLiteral("seq"), seq},
                  {QStringLiteral("type"), type},
                  {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
                  {QStringLiteral("data"), data()}};
    if (!instance.isEmpty())
        o.insert(QStringLiteral("instance"), instance);
    return o;
}

QByteArray Event::toJsonText() const
{
    if (m_dataJson.isEmpty())
        return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
    // The members in the order QJsonObject sorts them, as toJson() comes out.
    JsonObjectWriter w;
    w.addRaw("data", m_dataJson);
    if (!instance.isEmpty())
        w.add("instance", instance);
    return w.add("seq", seq)
        .add("time", time.toUTC().toString(Qt::ISODateWithMs))
        .add("type", type)
        .finish();
}

EventBus::EventBus(const Clock &clock, int historySize, QObject *parent)
    : QObject(parent), m_clock(clock), m_historySize(historySize)
{
    qRegisterMetaType<Gatehouse::Core::Event>();
}

Event EventBus::publish(const QString &type, const QJsonObject &data)
{
    Event e;
    e.type = type;
    e.setData(data);
    return record(std::move(e));
}

Event EventBus::publishJson(const QString &type, const QByteArray &json)
{
    Event e;
    e.type = type;
    e.setDataJson(json);
    return record(std::move(e));
}

void EventBus::setInstance(const QString &instance)
{
    QMutexLocker lock(&m_mutex);
    m_instance = instance;
}

Event EventBus::publishRelayed(Event e)
{
    e.relayed = true;
    return record(std::move(e));
}

Event EventBus::record(Event e)
{
    {
        QMutexLocker lock(&m_mutex);
        e.seq = ++m_seq;
        if (!e.relayed) {
            e.time = m_clock.now();
            e.instance = m_instance;
            ++m_published;
        }
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
    QMutexLocker lock(&m_mutex);
    return m_published;
}

} // namespace Gatehouse::Core
