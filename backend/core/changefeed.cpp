#include "core/changefeed.h"

#include "core/database.h"
#include "core/logging.h"
#include "core/postgres.h"
#include "core/threadstate.h"

#include <QThread>

#include <algorithm>
#include <chrono>
#include <vector>

namespace Gatehouse::Core {

namespace {

// How often the listening connection is read: the latency of a change reaching this
// instance's caches. libpq reads without blocking, so a wait between reads costs nothing.
constexpr auto kPollInterval = std::chrono::milliseconds(50);
// Rows of one table announced in one poll past which the table is read again once (an empty
// key) rather than row by row. Any role that may connect to the database may NOTIFY: a flood
// of distinct keys cost a reload each (2,000 of them kept two cores busy for minutes).
constexpr qsizetype kMaxKeysPerPoll = 32;
// Keys are ids and names; anything longer is no row of ours.
constexpr qsizetype kMaxKeyBytes = 256;
// How long a lost connection waits before it is opened again.
constexpr auto kReconnectInterval = std::chrono::seconds(1);

} // namespace

ChangeFeed::ChangeFeed(Database &database) : m_database(database) {}

ChangeFeed::~ChangeFeed()
{
    stop();
}

void ChangeFeed::subscribe(const QString &table, Handler handler)
{
    m_handlers[table].append(std::move(handler));
}

void ChangeFeed::subscribeTable(const QString &table, Handler handler)
{
    m_wholeTables.insert(table);
    subscribe(table, std::move(handler));
}

Result<void> ChangeFeed::start()
{
    if (m_database.engine() != Database::Engine::PostgreSQL || m_thread)
        return {};
    // The first connection here, so that a database that refuses it stops the start.
    QString error;
    pg_conn *conn = m_database.connectListening(kChannel, &error);
    if (!conn) {
        return makeError(
            QStringLiteral("database-open-failed"),
            QStringLiteral("cannot listen for changes on %1: %2").arg(m_database.path(), error));
    }
    // What changed between this instance reading its caches and LISTEN starting was not
    // heard: everything is read again once, now.
    dispatchAll();
    m_stopping = false;
    m_thread.reset(QThread::create([this, conn] {
        pg_conn *c = conn;
        std::vector<QByteArray> payloads;
        std::unique_lock lock(m_mutex);
        while (!m_stopping) {
            lock.unlock();
            bool connected = c && pgNotifications(c, &payloads);
            // One change often announces itself several times (a rotation: four rows).
            std::sort(payloads.begin(), payloads.end());
            payloads.erase(std::unique(payloads.begin(), payloads.end()), payloads.end());
            QHash<QString, QStringList> byTable;
            for (const QByteArray &p : payloads) {
                const qsizetype colon = p.indexOf(':');
                if (colon <= 0 || p.size() - colon - 1 > kMaxKeyBytes)
                    continue;
                const QString table = QString::fromUtf8(p.left(colon));
                if (m_handlers.contains(table))
                    byTable[table].append(QString::fromUtf8(p.mid(colon + 1)));
            }
            if (!byTable.isEmpty())
                probeReadConnection();
            for (auto it = byTable.cbegin(); it != byTable.cend(); ++it) {
                if (m_wholeTables.contains(it.key()) || it->size() > kMaxKeysPerPoll) {
                    dispatch(it.key(), QString()); // the whole table, once
                    continue;
                }
                for (const QString &key : *it)
                    dispatch(it.key(), key);
            }
            payloads.clear();
            // What a handler could not read: read again, once its second has passed.
            QSet<QString> again;
            {
                std::lock_guard guard(m_mutex);
                if (!m_readAgain.isEmpty() && std::chrono::steady_clock::now() >= m_readAgainAt)
                    again.swap(m_readAgain);
            }
            if (!again.isEmpty())
                probeReadConnection();
            for (const QString &table : std::as_const(again))
                dispatch(table, QString());
            if (!connected) {
                // Notifications sent while it was down are lost: every cache starts again.
                QString why;
                pgClose(c);
                if ((c = m_database.connectListening(kChannel, &why))) {
                    qCInfo(lcDb) << "listening for changes again";
                    probeReadConnection();
                    dispatchAll();
                    connected = true;
                } else {
                    qCWarning(lcDb).noquote() << "cannot listen for changes:" << why;
                }
            }
            lock.lock();
            m_wake.wait_for(lock,
                            connected ? std::chrono::milliseconds(kPollInterval)
                                      : std::chrono::milliseconds(kReconnectInterval),
                            [this] { return m_stopping; });
        }
        lock.unlock();
        pgClose(c);
        // libpq's TLS and the signing keys read again used OpenSSL here.
        ThreadState::release();
    }));
    m_thread->setObjectName(QStringLiteral("change-feed"));
    m_thread->start();
    return {};
}

void ChangeFeed::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread) {
        m_thread->wait();
        m_thread.reset();
    }
}

void ChangeFeed::readAgainLater(const QString &table)
{
    std::lock_guard lock(m_mutex);
    if (m_readAgain.isEmpty())
        m_readAgainAt = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    m_readAgain.insert(table);
}

void ChangeFeed::dispatch(const QString &table, const QString &key)
{
    const auto it = m_handlers.constFind(table);
    if (it == m_handlers.constEnd())
        return;
    for (const Handler &h : *it)
        h(key);
}

void ChangeFeed::probeReadConnection()
{
    // The handlers read on this thread's connection, which a restart of PostgreSQL (or an
    // administrator) may have ended while it was idle: its status stays OK until a query
    // fails, and a handler whose read fails does not read again (a revoked admin token would
    // stay good here until the table changes once more). One query first: if it fails,
    // connection() opens a new one for the handlers.
    pgExec(pgHandleOf(m_database.connection()), "SELECT 1", nullptr);
}

void ChangeFeed::dispatchAll()
{
    for (const QList<Handler> &handlers : std::as_const(m_handlers))
        for (const Handler &h : handlers)
            h(QString());
}

} // namespace Gatehouse::Core
