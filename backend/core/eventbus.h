#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMutex>
#include <QObject>

namespace Gatehouse::Core {

class Clock;

// A typed event for the console's live views ("order.created", "delivery.attempted",
// "token.issued", "cluster.decision", ...). Never carries secrets or tokens.
struct Event
{
    qint64 seq = 0;
    QString type;
    QDateTime time;
    // The instance it happened on, where several share a database (EventBus::setInstance,
    // EventRelay); empty with one instance. `relayed`: it happened on another instance.
    QString instance;
    bool relayed = false;

    // The data is held as an object or as the object's compact JSON text: publishers on hot
    // paths (an order makes some twenty events) write text, which the SSE stream sends as it
    // is, and which is parsed only when somebody asks for the object.
    QJsonObject data() const;
    QByteArray dataJson() const;
    // One member of the data (Undefined when absent), without parsing the rest of a text.
    QJsonValue value(QLatin1StringView key) const;
    void setData(const QJsonObject &data);
    void setDataJson(const QByteArray &json); // one JSON object's text

    QJsonObject toJson() const;
    // {"data":{...},"seq":N,"time":"...","type":"..."}: toJson() as compact text.
    QByteArray toJsonText() const;

private:
    QJsonObject m_data;
    QByteArray m_dataJson;
};

// Thread-safe publish/subscribe with a bounded history so a reconnecting client can
// resume from the last sequence number it saw (SSE Last-Event-ID).
class EventBus : public QObject
{
    Q_OBJECT
public:
    explicit EventBus(const Clock &clock, int historySize = 1000, QObject *parent = nullptr);

    // Events published here from now on name this instance (several on one database).
    void setInstance(const QString &instance);
    Event publish(const QString &type, const QJsonObject &data = {});
    // `json` is the data object's compact text (e.g. from JsonObjectWriter).
    Event publishJson(const QString &type, const QByteArray &json);
    // An event of another instance (EventRelay): its type, time, instance and data kept, a
    // sequence number of this bus given.
    Event publishRelayed(Event event);
    QList<Event> since(qint64 seq) const;
    qint64 lastSeq() const;
    qint64 publishedCount() const; // this instance's own events (relayed ones not counted)

signals:
    void published(const Gatehouse::Core::Event &event);

private:
    Event record(Event e); // numbers, keeps and announces it

    const Clock &m_clock;
    const int m_historySize;
    mutable QMutex m_mutex;
    QList<Event> m_history;
    qint64 m_seq = 0;
    QString m_instance;
    qint64 m_published = 0; // this instance's own (not relayed)
};

} // namespace Gatehouse::Core

Q_DECLARE_METATYPE(Gatehouse::Core::Event)
