#include "core/eventrelay.h"

#include "core/database.h"
#include "core/eventbus.h"
#include "core/jsonwriter.h"
#include "core/logging.h"
#include "core/postgres.h"
#include "core/threadstate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThread>

#include <chrono>
#include <vector>

namespace Gatehouse::Core {

namespace {

constexpr auto kRelayPollInterval = std::chrono::milliseconds(50);
constexpr auto kRelayReconnectInterval = std::chrono::seconds(1);

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// One event as it travels: {"data":{...},"seq":N,"time":"...","type":"..."} (its seq is the
// sender's, kept for nobody but a reader of the payload).
QByteArray travelling(const Event &e)
{
    Event copy = e;
    copy.instance.clear();
    return copy.toJsonText();
}

} // namespace

EventRelay::EventRelay(Database &database, EventBus &bus, QString instance,
                       std::shared_ptr<const std::atomic<int>> watchers)
    : m_database(database), m_bus(bus), m_instance(std::move(instance)),
      m_watchers(std::move(watchers))
{}

EventRelay::~EventRelay()
{
    stop();
}

QList<EventRelay::Payload> EventRelay::payloads(const QString &instance, const QList<Event> &events)
{
    QByteArray head = JsonObjectWriter().add("i", instance).finish();
    head.chop(1);
    head += ",\"e\":[";
    QList<Payload> out;
    QByteArray current;
    int count = 0;
    for (const Event &e : events) {
        QByteArray one = travelling(e);
        if (head.size() + one.size() + 2 > kMaxPayload) {
            Event stub = e;
            stub.setData(QJsonObject{{QStringLiteral("truncated"), true}});
            one = travelling(stub);
            if (head.size() + one.size() + 2 > kMaxPayload)
                continue; // a type name of several kilobytes: nothing to send
        }
        if (!current.isEmpty() && current.size() + 1 + one.size() + 2 > kMaxPayload) {
            out.append({current + "]}", count});
            current.clear();
            count = 0;
        }
        current += current.isEmpty() ? head + one : "," + one;
        ++count;
    }
    if (!current.isEmpty())
        out.append({current + "]}", count});
    return out;
}

bool EventRelay::isRelayed(const QString &type)
{
    // The dashboard's counters ("stats", "stats.series") are each instance's own.
    return type != QLatin1String("stats") && !type.startsWith(QLatin1String("stats."));
}

QList<Event> EventRelay::eventsOf(const QByteArray &payload, const QString &self)
{
    // What the code publishes: a lower-case dotted name (it becomes an SSE "event:" line, so
    // nothing else, never a line break, may pass).
    static const QRegularExpression typeName(QStringLiteral("^[a-z][a-z0-9_.-]{0,79}\\z"));
    // An instance id (host/pid/random): printable, no spaces.
    static const QRegularExpression instanceId(QStringLiteral("^[\\x21-\\x7e]{1,200}\\z"));
    const QJsonObject o = QJsonDocument::fromJson(payload).object();
    const QString from = o.value(QLatin1String("i")).toString();
    if (from == self || !instanceId.match(from).hasMatch())
        return {};
    QList<Event> out;
    for (const QJsonValue v : o.value(QLatin1String("e")).toArray()) {
        const QJsonObject j = v.toObject();
        Event e;
        e.type = j.value(QLatin1String("type")).toString();
        e.time =
            QDateTime::fromString(j.value(QLatin1String("time")).toString(), Qt::ISODateWithMs);
        if (!typeName.match(e.type).hasMatch() || !isRelayed(e.type) || !e.time.isValid() ||
            !j.value(QLatin1String("data")).isObject())
            continue;
        e.setData(j.value(QLatin1String("data")).toObject());
        e.instance = from;
        out.append(std::move(e));
    }
    return out;
}

Result<void> EventRelay::start()
{
    if (m_database.engine() != Database::Engine::PostgreSQL || m_thread)
        return {};
    QString error;
    pg_conn *conn = m_database.connectListening(kChannel, &error);
    // A database that stops answering holds nothing up for long (a stop waits for this thread).
    if (conn && !pgExec(conn, "SET statement_timeout = 5000", &error)) {
        pgClose(conn);
        conn = nullptr;
    }
    if (!conn) {
        return makeError(
            QStringLiteral("database-open-failed"),
            QStringLiteral("cannot listen for events on %1: %2").arg(m_database.path(), error));
    }
    m_bus.setInstance(m_instance);
    m_subscription = QObject::connect(
        &m_bus, &EventBus::published, &m_bus, [this](const Event &e) { queue(e); },
        Qt::DirectConnection);
    m_stopping = false;
    m_thread.reset(QThread::create([this, conn] { run(conn); }));
    m_thread->setObjectName(QStringLiteral("event-relay"));
    m_thread->start();
    return {};
}

void EventRelay::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread) {
        QObject::disconnect(m_subscription);
        m_thread->wait();
        m_thread.reset();
    }
}

void EventRelay::queue(const Event &event)
{
    // Relayed ones are at home elsewhere.
    if (event.relayed || m_othersWatchUntil.load() < steadyMs() || !isRelayed(event.type))
        return;
    std::lock_guard lock(m_mutex);
    if (m_queue.size() >= kMaxQueued) {
        m_dropped.fetch_add(1);
        return;
    }
    m_queue.append(event);
}

QByteArray EventRelay::wrap(const QByteArray &json) const
{
    return m_database.seals() ? m_database.seal(json, kContext) : json;
}

std::optional<QByteArray> EventRelay::unwrap(const QByteArray &payload) const
{
    if (!m_database.seals())
        return payload;
    // Anyone who may connect to the database may NOTIFY: only what the instances sealed with
    // the database key is believed (a value that is not sealed "opens" as it is).
    auto opened = m_database.unseal(payload, kContext);
    if (!opened || *opened == payload)
        return std::nullopt;
    return *opened;
}

bool EventRelay::notify(pg_conn *conn, const QByteArray &json, bool *connected)
{
    QString why;
    if (pgNotify(conn, kChannel, wrap(json), &why))
        return true;
    // A refused NOTIFY (a full notification queue) on a good connection costs this batch only.
    *connected = pgConnected(conn);
    qCWarning(lcDb).noquote() << "cannot relay events:" << why;
    return false;
}

void EventRelay::run(pg_conn *conn)
{
    pg_conn *c = conn;
    std::vector<QByteArray> heard;
    qint64 lastAnnounce = 0;
    bool announcedWatching = false;
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        QList<Event> outgoing;
        outgoing.swap(m_queue);
        lock.unlock();
        bool connected = c && pgNotifications(c, &heard);
        const qint64 now = steadyMs();
        const bool watching = m_watchers->load() > 0;
        for (const QByteArray &p : heard) {
            const auto json = unwrap(p);
            if (!json) {
                m_refused.fetch_add(1);
                continue;
            }
            if (json->startsWith("{\"w\":")) {
                const QString who =
                    QJsonDocument::fromJson(*json).object().value(QLatin1String("w")).toString();
                if (!who.isEmpty() && who != m_instance)
                    m_othersWatchUntil.store(now + kWatchMs);
                continue;
            }
            if (!watching)
                continue; // nobody here to show them to
            for (Event &e : eventsOf(*json, m_instance))
                m_bus.publishRelayed(std::move(e));
        }
        heard.clear();
        if (connected && watching && (!announcedWatching || now - lastAnnounce >= kAnnounceMs)) {
            announcedWatching =
                notify(c, JsonObjectWriter().add("w", m_instance).finish(), &connected);
            lastAnnounce = now;
        }
        announcedWatching = announcedWatching && watching && connected;
        if (!outgoing.isEmpty()) {
            qint64 sent = 0;
            for (const Payload &payload : payloads(m_instance, outgoing)) {
                if (!connected || !notify(c, payload.text, &connected))
                    break;
                sent += payload.events;
            }
            m_sent.fetch_add(sent);
            m_dropped.fetch_add(outgoing.size() - sent);
        }
        if (!connected) {
            QString why;
            pgClose(c);
            if ((c = m_database.connectListening(kChannel, &why)) &&
                pgExec(c, "SET statement_timeout = 5000", &why)) {
                qCInfo(lcDb) << "relaying events again";
                connected = true;
            } else {
                qCWarning(lcDb).noquote() << "cannot relay events:" << why;
                pgClose(c);
                c = nullptr;
            }
        }
        lock.lock();
        m_wake.wait_for(lock,
                        connected ? std::chrono::milliseconds(kRelayPollInterval)
                                  : std::chrono::milliseconds(kRelayReconnectInterval),
                        [this] { return m_stopping; });
    }
    lock.unlock();
    pgClose(c);
    ThreadState::release();
}

} // namespace Gatehouse::Core
