#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

class QThread;
struct pg_conn;

namespace Gatehouse::Core {

class Database;
class EventBus;
struct Event;

// The events of every instance of one PostgreSQL database on each instance's bus, so that a
// console watching one instance watches the deployment (docs/storage.md, "Events across
// instances"). Each instance has a connection of its own that LISTENs on gatehouse_events:
//   - An instance with event streams open says so every few seconds ({"w": id}).
//   - While somebody else watches (heard in the last kWatchMs), an instance sends its own
//     events, batched every 50 ms into NOTIFY payloads under 8000 bytes ({"i": id, "e": [...]}).
//     Nobody watching, nothing is sent: the orders' hot path does not feed the database's
//     notification queue for nobody.
//   - Events of the others are published on this bus (EventBus::publishRelayed) with their
//     instance, time and data, while a stream here is open.
// Live views only: what is sent while nobody listens, or beyond kMaxQueued waiting, or while the
// connection is lost, is not sent later (each instance's own bus keeps its own history). Every
// payload is sealed with the database key (Database::seal): a role that may connect to the
// database can neither read the events nor slip one in. On SQLite (one instance) start() does
// nothing.
class EventRelay
{
public:
    // `watchers`: how many event streams are open on this instance (the admin API counts
    // them); read every 50 ms.
    EventRelay(Database &database, EventBus &bus, QString instance,
               std::shared_ptr<const std::atomic<int>> watchers);
    ~EventRelay(); // stops
    EventRelay(const EventRelay &) = delete;
    EventRelay &operator=(const EventRelay &) = delete;

    // PostgreSQL: opens the connection (an error if it cannot), names the bus's events after
    // this instance and starts relaying.
    Result<void> start();
    void stop();

    // How many of this instance's events were sent, and dropped (queue full, too big, or the
    // connection lost), since the start.
    qint64 sentCount() const { return m_sent.load(); }
    qint64 droppedCount() const { return m_dropped.load(); }

    static constexpr const char *kChannel = "gatehouse_events";
    static constexpr qint64 kAnnounceMs = 5'000; // a watching instance says so this often
    static constexpr qint64 kWatchMs = 15'000;   // and is believed to watch this long
    // NOTIFY takes payloads under 8000 bytes; sealed (nonce, tag, base64) this much JSON fits.
    static constexpr int kMaxPayload = 5'800;
    static constexpr const char *kContext = "gatehouse_events"; // of the sealing
    static constexpr int kMaxQueued = 20'000; // events waiting to be sent; more are dropped

    // The NOTIFY payloads that carry `events` of `instance`, each under kMaxPayload bytes. An
    // event too big on its own goes with its data replaced by {"truncated": true}.
    struct Payload
    {
        QByteArray text;
        int events = 0;
    };
    static QList<Payload> payloads(const QString &instance, const QList<Event> &events);
    // The events of a payload (opened) of another instance than `self`: empty for its own, a
    // watch announcement, or anything malformed; an event whose type is not a plain dotted
    // name, or is not relayed, is left out.
    static QList<Event> eventsOf(const QByteArray &payload, const QString &self);
    // Whether events of this type travel ("stats" and "stats.series" stay at home).
    static bool isRelayed(const QString &type);
    // Payloads heard that were not sealed with the database key (or did not open).
    qint64 refusedCount() const { return m_refused.load(); }

private:
    void queue(const Event &event);
    void run(::pg_conn *conn);
    // Sealed with the database key when the database seals (the backend's always does).
    QByteArray wrap(const QByteArray &json) const;
    std::optional<QByteArray> unwrap(const QByteArray &payload) const;
    // NOTIFY one payload; false when refused (`connected` says whether the connection lived).
    bool notify(::pg_conn *conn, const QByteArray &json, bool *connected);

    Database &m_database;
    EventBus &m_bus;
    const QString m_instance;
    std::unique_ptr<QThread> m_thread;
    QMetaObject::Connection m_subscription;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    QList<Event> m_queue; // this instance's events waiting to be sent
    const std::shared_ptr<const std::atomic<int>> m_watchers; // event streams open here
    std::atomic<qint64> m_othersWatchUntil{0};                // steady clock, ms
    std::atomic<qint64> m_sent{0};
    std::atomic<qint64> m_dropped{0};
    std::atomic<qint64> m_refused{0};
};

} // namespace Gatehouse::Core
