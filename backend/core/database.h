#pragma once

#include "core/result.h"
#include "core/writequeue.h"

#include <QHash>
#include <QMutex>
#include <QSqlDatabase>
#include <QStringList>

#include <memory>
#include <unordered_map>

class QThread;
struct sqlite3;

namespace Gatehouse::Core {

class Clock;

// A read statement of the calling thread's connection (Database::read): prepared once per
// thread, bound and stepped through Statement, and reset when this goes out of scope so that
// no read transaction stays open (it would hold back WAL checkpoints).
class ReadStatement
{
public:
    explicit ReadStatement(Statement *statement) : m_statement(statement) {}
    ~ReadStatement();
    ReadStatement(const ReadStatement &) = delete;
    ReadStatement &operator=(const ReadStatement &) = delete;
    Statement *operator->() const { return m_statement; }
    Statement &operator*() const { return *m_statement; }

private:
    Statement *m_statement;
};

// A numbered schema change. Versions are global across modules and strictly increasing;
// each migration runs in one transaction and is recorded in schema_migrations.
struct Migration
{
    int version = 0;
    QString description;
    QStringList statements;
};

// SQLite (WAL) through QtSql with one connection per thread. Callers use store
// interfaces on top of this; SQL stays inside Sql* store implementations.
class Database
{
public:
    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    // Opens (creating if needed) the SQLite file and applies pending migrations (recorded with
    // the clock's time). Refuses a database whose schema is newer than the newest migration
    // known here.
    static Result<std::unique_ptr<Database>>
    open(const QString &path, const QList<Migration> &migrations, const Clock &clock);

    // The calling thread's connection (created on first use).
    QSqlDatabase connection();
    // A statement on the calling thread's connection, prepared on first use and kept until
    // the thread ends or the database closes; `sql` must be a string literal (its address is
    // the key). For hot reads, where QSqlQuery would parse the SQL on every request.
    ReadStatement read(const char *sql);
    // The sqlite3 handle under Qt's QSQLITE driver (QSqlDriver::handle()), or nullptr.
    static sqlite3 *handleOf(const QSqlDatabase &db);
    QString path() const { return m_path; }
    QString driverName() const { return QStringLiteral("QSQLITE"); }
    int schemaVersion() const { return m_schemaVersion; }
    void close();

    static QList<Migration> coreMigrations();

private:
    explicit Database(QString path);
    Result<QSqlDatabase> openConnection(const QString &name);
    Result<void> migrate(const QList<Migration> &migrations, const Clock &clock);

    QString m_path;
    QString m_prefix;
    int m_schemaVersion = 0;
    // Shared with the thread-finished handlers, which may run after this object is gone.
    struct Connections
    {
        QMutex mutex;
        QHash<QThread *, QString> names;
        // Node-based maps: a Statement's address stays valid while others are added.
        std::unordered_map<QThread *, std::unordered_map<const void *, Statement>> statements;
        void finalize(QThread *thread); // with mutex held, before the connection closes
    };
    std::shared_ptr<Connections> m_connections = std::make_shared<Connections>();
};

} // namespace Gatehouse::Core
