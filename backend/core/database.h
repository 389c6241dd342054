#pragma once

#include "core/repeatedfailure.h"
#include "core/result.h"
#include "core/writequeue.h"

#include <QHash>
#include <QMutex>
#include <QSqlDatabase>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <unordered_map>

class QThread;
struct sqlite3;
struct pg_conn;

namespace Gatehouse::Core {

class Clock;

// The Error of kDatabaseUnavailable (core/result.h).
Error databaseUnavailable();

// A read statement of the calling thread's connection (Database::read): prepared once per
// thread, bound and stepped through Statement, and reset when this goes out of scope so that
// no read transaction stays open (it would hold back WAL checkpoints). While one lives, its
// thread's connection is not replaced (Database::connection), even when found lost: the
// statements go with a replaced connection, this one's too.
class ReadStatement
{
public:
    explicit ReadStatement(Statement *statement);
    ~ReadStatement();
    ReadStatement(const ReadStatement &) = delete;
    ReadStatement &operator=(const ReadStatement &) = delete;
    Statement *operator->() const { return m_statement; }
    Statement &operator*() const { return *m_statement; }

private:
    Statement *m_statement;
};

// A numbered schema change. Versions are global across modules and strictly increasing;
// each migration runs in one transaction and is recorded in schema_migrations. The statements
// are SQLite's; on PostgreSQL their types are translated (pgDdl in postgres.h) and
// `postgres` runs after them, for what has no translation (SQLite's implicit rowid).
struct Migration
{
    int version = 0;
    QString description;
    QStringList statements;
    QStringList postgres = {};
};

// SQLite (WAL, the default) or PostgreSQL through QtSql with one connection per thread.
// Callers use store interfaces on top of this; SQL stays inside Sql* store implementations and
// is written once for both engines (docs/storage.md says which subset that is).
class Database
{
public:
    enum class Engine { SQLite, PostgreSQL };

    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    // Opens (creating if needed) the SQLite file, or the PostgreSQL database of a
    // postgresql:// URL, and applies pending migrations (recorded with the clock's time; on
    // PostgreSQL under an advisory lock, so that instances starting together migrate once).
    // Refuses a database whose schema is newer than the newest migration known here.
    //
    // On PostgreSQL a database that instances run on is not migrated: database-in-use, before
    // anything changed (an instance must not find its schema changed under it by a newer
    // build). Instances are seen by their heartbeats (gatehouse_instances, the last 15 s) and,
    // with Role::Instance (the backend), by the instance lock: every instance holds it shared
    // until it closes, on a connection of its own, and a build that migrates takes it
    // exclusively first. Builds before several instances were supported took it exclusively
    // for as long as they ran: neither kind starts beside the other.
    enum class Role { Tool, Instance };
    static Result<std::unique_ptr<Database>> open(const QString &target,
                                                  const QList<Migration> &migrations,
                                                  const Clock &clock, Role role = Role::Tool);

    // The calling thread's connection (created on first use). Not valid (isValid() false)
    // while the database cannot be reached: it is tried again after a pause.
    QSqlDatabase connection();
    // What a failed read on `db` answers: database-unavailable (503: the connection could not
    // be opened or was lost, as when the server is down or restarting; try again) or
    // database-error (500, with `failure`, the statement's error, for the log).
    static Error readFailed(const QSqlDatabase &db, const QString &failure);
    // The same for a statement of read(), judged by its own connection: never call
    // connection() while a ReadStatement lives (a lost connection is replaced there, and this
    // thread's statements go with it).
    static Error readFailed(const Statement &s);
    // A statement on the calling thread's connection, prepared on first use and kept until
    // the thread ends or the database closes; `sql` must be a string literal (its address is
    // the key). For hot reads, where QSqlQuery would parse the SQL on every request.
    ReadStatement read(const char *sql);
    // The sqlite3 handle under Qt's QSQLITE driver (QSqlDriver::handle()), or nullptr.
    static sqlite3 *handleOf(const QSqlDatabase &db);
    // The SQLite file, or the PostgreSQL URL without its password.
    QString path() const { return m_display; }
    Engine engine() const { return m_engine; }
    QString driverName() const
    {
        return m_engine == Engine::PostgreSQL ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE");
    }
    int schemaVersion() const { return m_schemaVersion; }
    void close();

    static QList<Migration> coreMigrations();
    // Schema version 20, PostgreSQL only: the trigger function gatehouse_notify() that
    // announces a changed row to every instance (ChangeFeed), attached to `settings`; each
    // other table that instances cache attaches it in its own migration, naming its key column.
    static Migration changeFeedMigration();
    // Its CREATE OR REPLACE statement, repeated by each migration that attaches the function
    // (so that each stands on its own).
    static QString notifyFunction();

    // Secrets kept in columns (OAuth signing keys) are sealed with a key kept outside the
    // database (Crypto::SealingKey, which the backend installs before the stores load); without
    // a sealer (tests) they are stored as they are. `context` is the row's id.
    struct Sealer
    {
        std::function<QByteArray(const QByteArray &, const QByteArray &)> seal;
        std::function<Result<QByteArray>(const QByteArray &, const QByteArray &)> open;
    };
    void setSealer(Sealer sealer) { m_sealer = std::move(sealer); }
    bool seals() const { return bool(m_sealer.seal); }
    QByteArray seal(const QByteArray &plain, const QByteArray &context) const
    {
        return m_sealer.seal ? m_sealer.seal(plain, context) : plain;
    }
    Result<QByteArray> unseal(const QByteArray &stored, const QByteArray &context) const
    {
        return m_sealer.open ? m_sealer.open(stored, context) : Result<QByteArray>(stored);
    }

    // PostgreSQL: a new connection of the caller's own (ChangeFeed's LISTEN), nullptr with
    // `error` set when it cannot be opened; close it with pgClose. SQLite: nullptr.
    pg_conn *connectPostgres(QString *error) const;
    // The same, LISTENing on `channel` (ChangeFeed, EventRelay); nullptr with `error` set when
    // either fails.
    pg_conn *connectListening(const char *channel, QString *error) const;

    // The instance lock of open(..., Role::Instance) still holds: its connection is checked,
    // reopened if it broke (the lock taken again), and database-in-use returned when an older
    // build took the database meanwhile. Call it now and then (Backend: every 5 s).
    Result<void> checkInstanceLock();

private:
    explicit Database(QString target);
    Result<QSqlDatabase> openConnection(const QString &name);
    Result<void> migrate(const QList<Migration> &migrations, const Clock &clock);
    QString ddl(const QString &sql) const; // a migration's statement in this engine's dialect
    Result<void> refuseUpgradeUnderRunningInstances(int current, int newest, const Clock &clock);
    Result<void> takeInstanceLock();
    pg_conn *m_instanceLock = nullptr; // PostgreSQL, Role::Instance: holds the lock shared
    Sealer m_sealer;

    QString m_path; // the SQLite file or the PostgreSQL URL (with its password)
    QString m_display;
    Engine m_engine = Engine::SQLite;
    QString m_prefix;
    int m_schemaVersion = 0;
    // Shared with the thread-finished handlers, which may run after this object is gone.
    struct Connections
    {
        QMutex mutex;
        QHash<QThread *, QString> names;
        std::atomic<int> opened{0}; // connections opened: each gets a name of its own
        // Node-based maps: a Statement's address stays valid while others are added.
        std::unordered_map<QThread *, std::unordered_map<const void *, Statement>> statements;
        void finalize(QThread *thread); // with mutex held, before the connection closes
        // A connection that cannot be opened (the server is down, restarting, refusing) is
        // tried again after a pause, 25 ms and doubling up to 1 s, whichever thread asks:
        // tried at every statement of every thread, it took a core (with the log below).
        int failedOpens = 0;                            // in a row; with mutex held
        std::chrono::steady_clock::time_point nextOpen; // no try before (with mutex held)
        RepeatedFailure openFailures;                   // the log's
    };
    std::shared_ptr<Connections> m_connections = std::make_shared<Connections>();
};

} // namespace Gatehouse::Core
