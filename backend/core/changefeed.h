#pragma once

#include "core/result.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

class QThread;

namespace Gatehouse::Core {

class Database;

// Changes to rows that an instance keeps in memory (clients, admin tokens), made by any
// instance sharing the database: on PostgreSQL, triggers (changeFeedMigration()) send
// NOTIFY gatehouse_changes 'table:key' when such a row is written, and the feed LISTENs on a
// connection of its own and calls the table's handlers, on its own thread, within about
// 50 ms. When the connection was lost (notifications may have been missed) every handler is
// called with an empty key: anything may have changed. On SQLite (one instance) there is
// nothing to hear and start() does nothing. docs/storage.md, "Several instances".
class ChangeFeed
{
public:
    explicit ChangeFeed(Database &database);
    ~ChangeFeed(); // stops
    ChangeFeed(const ChangeFeed &) = delete;
    ChangeFeed &operator=(const ChangeFeed &) = delete;

    // key: the changed row's key (the table's key column); empty: everything may have changed.
    // Handlers run on the feed's thread and must be thread-safe. Subscribe before start().
    using Handler = std::function<void(const QString &key)>;
    void subscribe(const QString &table, Handler handler);
    // For a handler that reads the whole table again whatever the key: called at most once
    // per poll (50 ms), with an empty key, however many rows were announced.
    void subscribeTable(const QString &table, Handler handler);
    // For a handler whose read failed (the database went away for a moment): the table's
    // handlers are called again, with an empty key, about a second later, and again after
    // every failure that asks for it. Otherwise a change heard once and not read (a revoked
    // admin token) stayed unread here until the table changed once more. Thread-safe.
    void readAgainLater(const QString &table);
    // PostgreSQL: opens the listening connection (an error if it cannot) and starts the thread.
    Result<void> start();
    void stop();

    // The channel and the tables whose rows are announced (with their key columns).
    static constexpr const char *kChannel = "gatehouse_changes";

private:
    void dispatch(const QString &table, const QString &key);
    // On the feed's thread, before handlers read: a connection that broke while idle is
    // replaced (see the definition).
    void probeReadConnection();
    void dispatchAll();

    Database &m_database;
    QHash<QString, QList<Handler>> m_handlers;
    QSet<QString> m_wholeTables;       // subscribeTable()
    std::unique_ptr<QThread> m_thread; // a QThread: Database gives it a connection of its own
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    QSet<QString> m_readAgain; // readAgainLater(), under m_mutex
    std::chrono::steady_clock::time_point m_readAgainAt;
};

} // namespace Gatehouse::Core
