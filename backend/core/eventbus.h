#pragma once

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
    QJsonObject data;

    QJsonObject toJson() const;
};

// Thread-safe publish/subscribe with a bounded history so a reconnecting client can
// resume from the last sequence number it saw (SSE Last-Event-ID).
class EventBus : public QObject
{
    Q_OBJECT
public:
    explicit EventBus(const Clock &clock, int historySize = 1000, QObject *parent = nullptr);

    Event publish(const QString &type, const QJsonObject &data = {});
    QList<Event> since(qint64 seq) const;
    qint64 lastSeq() const;
    qint64 publishedCount() const;

signals:
    void published(const Gatehouse::Core::Event &event);

private:
    const Clock &m_clock;
    const int m_historySize;
    mutable QMutex m_mutex;
    QList<Event> m_history;
    qint64 m_seq = 0;
};

} // namespace Gatehouse::Core

Q_DECLARE_METATYPE(Gatehouse::Core::Event)
