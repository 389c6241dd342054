#include "core/database.h"
#include "core/clock.h"
#include "core/instances.h"
#include "core/logging.h"
#include "core/postgres.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QUuid>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <utility>

#include <sqlite3.h>

namespace Gatehouse::Core {

namespace {
// Bytes. At most 0x1ffff: when a journal outgrows this it is written to a temporary file in one
// write of everything held so far, and SQLite's unix VFS writes at most 0x1ffff bytes per call
// (seekAndWriteFd masks the length): anything larger came back as a short write, SQLITE_FULL
// ("database or disk is full"), which rolled back the whole batch. With 4 MiB that happened to
// every job that changed more than about 1,000 pages, such as deleting 6,000 deliveries at once
// (SQLite 3.40.1, Debian 12; tst_core's writerJobsJournalInMemory).
constexpr int kStatementJournalInMemory = 0x1ffff;
} // namespace

Database::Database(QString target)
    : m_path(std::move(target)), m_display(m_path),
      m_engine(isPostgresUrl(m_path) ? Engine::PostgreSQL : Engine::SQLite),
      m_prefix(QStringLiteral("gatehouse-") + QUuid::createUuid().toString(QUuid::Id128))
{
    if (m_engine == Engine::PostgreSQL) {
        const auto target = parsePostgresUrl(m_path);
        m_display = target ? target->display : QStringLiteral("postgresql://(invalid URL)");
    }
}

Database::~Database()
{
    close();
}

QList<Migration> Database::coreMigrations()
{
    return {
        {1,
         QStringLiteral("core: settings"),
         {QStringLiteral(
             "CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL, "
             "updated_at TEXT NOT NULL)")}},
    };
}

QString Database::notifyFunction()
{
    return QStringLiteral(
        "CREATE OR REPLACE FUNCTION gatehouse_notify() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN PERFORM pg_notify('gatehouse_changes', TG_TABLE_NAME || ':' || "
        "COALESCE(to_jsonb(NEW) ->> TG_ARGV[0], to_jsonb(OLD) ->> TG_ARGV[0], '')); RETURN NULL; "
        "END $$");
}

Migration Database::changeFeedMigration()
{
    return {20,
            QStringLiteral("core: changes announced to other instances"),
            {},
            {notifyFunction(),
             QStringLiteral("CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE ON "
                            "settings FOR EACH ROW EXECUTE FUNCTION gatehouse_notify('key')")}};
}

Result<QSqlDatabase> Database::openConnection(const QString &name)
{
    if (m_engine == Engine::PostgreSQL) {
        const auto target = parsePostgresUrl(m_path);
        if (!target)
            return target.error();
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        if (!db.isValid()) {
            QSqlDatabase::removeDatabase(name);
            return makeError(QStringLiteral("database-open-failed"),
                             QStringLiteral("Qt's PostgreSQL driver (QPSQL) is not installed: on "
                                            "Debian, the package libqt6sql6-psql"));
        }
        db.setHostName(target->host);
        db.setPort(target->port);
        db.setUserName(target->user);
        db.setPassword(target->password);
        db.setDatabaseName(target->database);
        db.setConnectOptions(target->options);
        if (!db.open()) {
            const QString msg = db.lastError().text();
            db = QSqlDatabase();
            QSqlDatabase::removeDatabase(name);
            return makeError(QStringLiteral("database-open-failed"),
                             QStringLiteral("cannot open database %1: %2").arg(m_display, msg));
        }
        // Errors without DETAIL lines: those quote rows ("Failing row contains (...)", a key's
        // value), which may hold secrets, and error texts reach logs and answers.
        pgSetTerse(pgHandleOf(db));
        if (QString error; !pgExec(pgHandleOf(db), PgSessionSetup, &error)) {
            db.close();
            db = QSqlDatabase();
            QSqlDatabase::removeDatabase(name);
            return makeError(QStringLiteral("database-open-failed"),
                             QStringLiteral("cannot set up %1: %2").arg(m_display, error));
        }
        return db;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        const QString msg = db.lastError().text();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        return makeError(QStringLiteral("database-open-failed"),
                         QStringLiteral("cannot open database %1: %2").arg(m_path, msg));
    }
    QSqlQuery q(db);
    for (const char *pragma :
         {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
          // Reads through a memory map instead of read() copies, and a 16 MiB page cache
          // (the default 2 MiB thrashes on random-keyed inserts such as token hashes).
          "PRAGMA mmap_size=268435456", "PRAGMA cache_size=-16384"}) {
        if (!q.exec(QString::fromLatin1(pragma)))
            return makeError(QStringLiteral("database-open-failed"),
                             QStringLiteral("%1 failed on %2: %3")
                                 .arg(QString::fromLatin1(pragma), m_path, q.lastError().text()));
    }
    return db;
}

namespace {
thread_local int t_liveReads = 0; // ReadStatements of this thread (ReadStatement)
} // namespace

Error databaseUnavailable()
{
    return Error{QString::fromLatin1(kDatabaseUnavailable),
                 QStringLiteral("the database cannot be reached at the moment; try again"), 503};
}

Error Database::readFailed(const QSqlDatabase &db, const QString &failure)
{
    pg_conn *pg = db.isValid() ? pgHandleOf(db) : nullptr;
    if (!db.isValid() || !db.isOpen() || (pg && !pgConnected(pg)))
        return databaseUnavailable();
    return Error{QStringLiteral("database-error"), failure, 500};
}

Error Database::readFailed(const Statement &s)
{
    if (s.m_pg && !pgConnected(s.m_pg->conn))
        return databaseUnavailable();
    return Error{QStringLiteral("database-error"), s.error(), 500};
}

QSqlDatabase Database::connection()
{
    QThread *thread = QThread::currentThread();
    QString lost;
    {
        QMutexLocker lock(&m_connections->mutex);
        if (auto it = m_connections->names.constFind(thread);
            it != m_connections->names.constEnd()) {
            QSqlDatabase db = QSqlDatabase::database(*it, false);
            if (m_engine == Engine::SQLite)
                return db;
            // A connection idle for a while is asked whether the server ended it meanwhile
            // (read without waiting): else the first query of each thread after a restart
            // failed, and was answered 503. One in use is not (it costs a system call).
            thread_local std::chrono::steady_clock::time_point lastUse;
            const auto now = std::chrono::steady_clock::now();
            const bool idle = now - std::exchange(lastUse, now) > std::chrono::milliseconds(20);
            if (pg_conn *pg = pgHandleOf(db); idle ? pgStillConnected(pg) : pgConnected(pg))
                return db;
            if (t_liveReads > 0)
                return db; // lost, but a read of this thread holds one of its statements
                           // (replaced at the next call without one; queries fail meanwhile)
            // PostgreSQL went away (a restart, a failover, an ended session): this thread's
            // connection goes with its prepared statements, and a new one is opened below.
            lost = *it;
            m_connections->finalize(thread);
            m_connections->names.remove(thread);
        }
    }
    if (!lost.isEmpty()) {
        qCWarning(lcDb) << "the connection to" << m_display << "was lost: opening a new one";
        QSqlDatabase::database(lost, false).close();
        QSqlDatabase::removeDatabase(lost);
    }
    {
        QMutexLocker lock(&m_connections->mutex);
        if (m_connections->failedOpens > 0 &&
            std::chrono::steady_clock::now() < m_connections->nextOpen)
            return QSqlDatabase(); // tried moments ago by some thread: not again yet
    }
    // Opened outside the lock: a database host that is slow to answer holds up this thread
    // only, not every other thread's connection().
    const QString name = m_prefix + QLatin1Char('-') + QString::number(quintptr(thread), 16) +
                         QLatin1Char('-') + QString::number(++m_connections->opened);
    auto db = openConnection(name);
    if (!db) {
        {
            QMutexLocker lock(&m_connections->mutex);
            const int shift = std::min(m_connections->failedOpens++, 6);
            m_connections->nextOpen =
                std::chrono::steady_clock::now() +
                std::min(std::chrono::milliseconds(25 << shift), std::chrono::milliseconds(1'000));
        }
        const auto seen = m_connections->openFailures.failed();
        if (seen.first)
            qCCritical(lcDb).noquote() << db.error().message << "(tried again within a second "
                                       << "while it fails; logged every 10 s)";
        else if (seen.log)
            qCCritical(lcDb).noquote()
                << "still:" << db.error().message << "(for" << seen.lastedMs / 1000 << "s;"
                << seen.unlogged << "more failures since the last line)";
        return QSqlDatabase();
    }
    if (qint64 lasted = 0; m_connections->openFailures.succeeded(&lasted))
        qCWarning(lcDb).noquote() << "the database" << m_display << "answers again, after" << lasted
                                  << "ms";
    QMutexLocker lock(&m_connections->mutex);
    m_connections->failedOpens = 0;
    m_connections->names.insert(thread, name);
    if (!lost.isEmpty())
        return *db; // the handler below is connected already
    // A pool thread that ends takes its connection with it. The handler may run after this
    // Database is destroyed (found by ASan), so it holds only a weak reference.
    QObject::connect(
        thread, &QThread::finished, thread,
        [weak = std::weak_ptr<Connections>(m_connections), thread] {
            const auto state = weak.lock();
            if (!state)
                return;
            QMutexLocker l(&state->mutex);
            state->finalize(thread);
            if (const QString current = state->names.take(thread); !current.isEmpty()) {
                QSqlDatabase::database(current, false).close();
                QSqlDatabase::removeDatabase(current);
            }
        },
        Qt::DirectConnection);
    return *db;
}

void Database::Connections::finalize(QThread *thread)
{
    const auto it = statements.find(thread);
    if (it == statements.end())
        return;
    for (auto &[sql, statement] : it->second)
        sqlite3_finalize(statement.m_stmt); // a null statement is a no-op
    statements.erase(it);
}

sqlite3 *Database::handleOf(const QSqlDatabase &db)
{
    if (!db.isValid() || !db.driver())
        return nullptr;
    if (const QVariant v = db.driver()->handle();
        v.isValid() && qstrcmp(v.typeName(), "sqlite3*") == 0)
        return *static_cast<sqlite3 *const *>(v.constData());
    return nullptr;
}

ReadStatement Database::read(const char *sql)
{
    QThread *thread = QThread::currentThread();
    const QSqlDatabase db = connection(); // opens this thread's connection if needed
    QMutexLocker lock(&m_connections->mutex);
    auto &cache = m_connections->statements[thread];
    auto it = cache.find(sql);
    if (m_engine == Engine::PostgreSQL && (it == cache.end() || it->second.m_pg->name.isEmpty())) {
        // Prepared (a round trip) outside the lock; only this thread uses its own cache. One
        // that failed (the connection was down, say) is prepared again next time.
        lock.unlock();
        Statement prepared = PgStatement::prepare(pgHandleOf(db), sql);
        lock.relock();
        auto &mine = m_connections->statements[thread];
        it = mine.insert_or_assign(sql, std::move(prepared)).first;
    }
    if (it == cache.end()) {
        Statement s;
        s.m_db = handleOf(db);
        if (!s.m_db || sqlite3_prepare_v3(s.m_db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s.m_stmt,
                                          nullptr) != SQLITE_OK) {
            qCCritical(lcDb) << "cannot prepare" << sql
                             << (s.m_db ? sqlite3_errmsg(s.m_db) : "no SQLite handle");
            s.m_ok = false;
        }
        it = cache.emplace(sql, s).first;
    }
    return ReadStatement(&it->second);
}

ReadStatement::ReadStatement(Statement *statement) : m_statement(statement)
{
    ++t_liveReads;
}

ReadStatement::~ReadStatement()
{
    m_statement->reset();
    --t_liveReads;
}

void Database::close()
{
    QMutexLocker lock(&m_connections->mutex);
    while (!m_connections->statements.empty())
        m_connections->finalize(m_connections->statements.begin()->first);
    for (const QString &name : std::as_const(m_connections->names)) {
        {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
    m_connections->names.clear();
    pgClose(m_instanceLock); // gives the instance lock up
    m_instanceLock = nullptr;
}

Result<std::unique_ptr<Database>> Database::open(const QString &target,
                                                 const QList<Migration> &migrations,
                                                 const Clock &clock, Role role)
{
    if (isPostgresUrl(target)) {
        if (auto t = parsePostgresUrl(target); !t)
            return t.error();
        std::unique_ptr<Database> db(new Database(target));
        if (role == Role::Instance)
            if (auto r = db->takeInstanceLock(); !r)
                return r.error();
        // A first connection on its own, for the reason when it fails (connection() logs it).
        const QString probe = db->m_prefix + QStringLiteral("-probe");
        {
            auto c = db->openConnection(probe);
            if (!c)
                return c.error();
            c->close();
        }
        QSqlDatabase::removeDatabase(probe);
        if (!db->connection().isOpen())
            return makeError(QStringLiteral("database-open-failed"),
                             QStringLiteral("cannot open database %1").arg(db->m_display));
        if (auto r = db->migrate(migrations, clock); !r)
            return r.error();
        return db;
    }
    const QString &path = target;
    const QFileInfo fi(path);
    if (!QDir().mkpath(fi.absolutePath()))
        return makeError(QStringLiteral("database-open-failed"),
                         QStringLiteral("cannot create directory %1").arg(fi.absolutePath()));
    // Before SQLite's first connection in the process: no global memory statistics. Every
    // allocation would otherwise take one process-wide mutex, which the request threads
    // reading at once contend on (about 10 % of an introspection's time). Nobody reads the
    // statistics. Once SQLite is initialised this is refused (SQLITE_MISUSE) and changes nothing.
    //
    // And statement journals stay in memory up to 128 KiB (SQLite's default is 64 KiB). Every
    // writer job runs in its own SAVEPOINT, so SQLite copies each page the job changes into a
    // statement journal. A new order with its lines, history and delivery changes more than
    // 16 pages, so its journal went to a temporary file: a pwrite per page and a file closed
    // per batch, a quarter of the writer thread's time in perf. In memory: the writer's CPU per
    // order with a callback 176-182 -> 118-136 us, orders 3.6-3.7k -> 4.1-4.5k/s at c16 (A/B
    // with tests/bench/run.sh orders, 2 pairs).
    // Unlike `PRAGMA temp_store=MEMORY` this leaves sorts and temporary tables where they were.
    // The writer's own connection goes further and never writes its journals to a file
    // (WriteQueue::loop); this bound holds for every other connection, migrations included.
    static std::once_flag quietAllocator;
    std::call_once(quietAllocator, [] {
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
        if (sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, kStatementJournalInMemory) != SQLITE_OK)
            qCWarning(lcDb) << "SQLite was initialised before the first database: statement "
                               "journals spill to disk above 64 KiB";
    });
    std::unique_ptr<Database> db(new Database(fi.absoluteFilePath()));
    if (!db->connection().isOpen())
        return makeError(QStringLiteral("database-open-failed"),
                         QStringLiteral("cannot open database %1").arg(path));
    if (auto r = db->migrate(migrations, clock); !r)
        return r.error();
    return db;
}

pg_conn *Database::connectPostgres(QString *error) const
{
    return m_engine == Engine::PostgreSQL ? pgConnect(m_path, error) : nullptr;
}

pg_conn *Database::connectListening(const char *channel, QString *error) const
{
    pg_conn *conn = connectPostgres(error);
    if (conn && pgListen(conn, channel, error))
        return conn;
    pgClose(conn);
    return nullptr;
}

namespace {
// Held shared by every running instance, exclusively by one that migrates (and, for as long as
// they ran, by builds from before several instances were supported).
constexpr qint64 kInstanceLock = 7418235100418;
} // namespace

Result<void> Database::takeInstanceLock()
{
    QString error;
    if (!m_instanceLock && !(m_instanceLock = pgConnect(m_path, &error)))
        return makeError(QStringLiteral("database-open-failed"),
                         QStringLiteral("cannot open database %1: %2").arg(m_display, error));
    bool held = false;
    if (!pgTryLock(m_instanceLock, kInstanceLock, true, &held, &error))
        return makeError(QStringLiteral("database-open-failed"), error);
    if (!held)
        return makeError(QStringLiteral("database-in-use"),
                         QStringLiteral("the database %1 is used by a Gatehouse instance that "
                                        "runs only alone (an older build) or that is changing "
                                        "its schema; stop it first, or start this instance "
                                        "once it is done")
                             .arg(m_display));
    return {};
}

Result<void> Database::checkInstanceLock()
{
    if (!m_instanceLock)
        return {};
    if (pgExec(m_instanceLock, "SELECT 1", nullptr))
        return {}; // the session, and with it the lock, is alive
    qCWarning(lcDb) << "the connection holding the instance lock on" << m_display
                    << "was lost: taking it again";
    if (!pgReset(m_instanceLock))
        return {}; // the database is down for every instance: checked again next time
    return takeInstanceLock();
}

Result<void> Database::refuseUpgradeUnderRunningInstances(int current, int newest,
                                                          const Clock &clock)
{
    // The instances' heartbeats (Instances, schema 25): a schema older than that has none.
    QSqlQuery q(connection());
    if (!q.exec(QStringLiteral("SELECT to_regclass('gatehouse_instances') IS NOT NULL")) ||
        !q.next())
        return makeError(QStringLiteral("migration-failed"), q.lastError().text());
    if (!q.value(0).toBool())
        return {};
    q.prepare(QStringLiteral("SELECT id, version FROM gatehouse_instances WHERE heartbeat_at > ? "
                             "ORDER BY heartbeat_at DESC"));
    q.addBindValue(clock.now().toMSecsSinceEpoch() - Instances::kAliveMs);
    if (!q.exec())
        return makeError(QStringLiteral("migration-failed"), q.lastError().text());
    QStringList running;
    while (q.next()) {
        // A process of this machine that has ended (killed, then this build started at once)
        // runs nothing: not waited for.
        if (Instances::ranHereAndEnded(q.value(0).toString()))
            continue;
        running.append(QStringLiteral("%1 (%2)").arg(q.value(0).toString(), q.value(1).toString()));
    }
    if (running.isEmpty())
        return {};
    return makeError(
        QStringLiteral("database-in-use"),
        QStringLiteral("the database %1 has schema version %2 and this Gatehouse build changes it "
                       "to %3, which the instances running on it do not know: %4. Stop them "
                       "first, then start this build, then the others with it (an instance "
                       "that died on another machine counts as running until %5 s after its "
                       "last heartbeat)")
            .arg(m_display)
            .arg(current)
            .arg(newest)
            .arg(running.join(QStringLiteral(", ")))
            .arg(Instances::kAliveMs / 1000));
}

QString Database::ddl(const QString &sql) const
{
    return m_engine == Engine::PostgreSQL ? pgDdl(sql) : sql;
}

Result<void> Database::migrate(const QList<Migration> &migrations, const Clock &clock)
{
    QSqlDatabase db = connection();
    QSqlQuery q(db);
    const bool pg = m_engine == Engine::PostgreSQL;
    // Instances starting together: one migrates, the others wait here and then find nothing
    // left to do. The lock is the session's, released below or when the connection ends.
    constexpr const char *kLock = "SELECT pg_advisory_lock(7418235100417)";
    constexpr const char *kUnlock = "SELECT pg_advisory_unlock(7418235100417)";
    QString lockError;
    if (pg && !pgExec(pgHandleOf(db), kLock, &lockError))
        return makeError(QStringLiteral("migration-failed"), lockError);
    const auto unlock = qScopeGuard([&] {
        if (pg)
            pgExec(pgHandleOf(db), kUnlock, nullptr);
    });
    // COLLATE NOCASE columns are citext there (pgDdl); the extension is trusted, so the
    // database's owner may create it.
    if (pg && !q.exec(QStringLiteral("CREATE EXTENSION IF NOT EXISTS citext")))
        return makeError(QStringLiteral("migration-failed"),
                         QStringLiteral("cannot create the citext extension (postgresql-contrib): "
                                        "%1")
                             .arg(q.lastError().text()));
    if (!q.exec(ddl(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_migrations (version "
                                   "INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at "
                                   "TEXT NOT NULL)"))))
        return makeError(QStringLiteral("migration-failed"), q.lastError().text());
    if (!q.exec(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")) ||
        !q.next())
        return makeError(QStringLiteral("migration-failed"), q.lastError().text());
    const int current = q.value(0).toInt();

    QList<Migration> sorted = migrations;
    std::sort(sorted.begin(), sorted.end(),
              [](const Migration &a, const Migration &b) { return a.version < b.version; });
    const int newest = sorted.isEmpty() ? 0 : sorted.last().version;
    if (current > newest) // fail closed: an older binary must not write a newer schema
        return makeError(QStringLiteral("database-too-new"),
                         QStringLiteral("the database %1 has schema version %2, newer than this "
                                        "Gatehouse build supports (up to %3); run a newer "
                                        "Gatehouse or choose another --data-dir or --database")
                             .arg(m_display)
                             .arg(current)
                             .arg(newest));
    bool exclusive = false; // the instance lock taken exclusively here, given back below
    const auto shareAgain = qScopeGuard([&] {
        if (exclusive)
            pgExec(m_instanceLock,
                   ("SELECT pg_advisory_unlock(" + QByteArray::number(kInstanceLock) + ")")
                       .constData(),
                   nullptr);
    });
    if (pg && newest > current) {
        if (m_instanceLock) {
            // Held shared here already: exclusively only when no other session holds it.
            QString error;
            if (!pgTryLock(m_instanceLock, kInstanceLock, false, &exclusive, &error))
                return makeError(QStringLiteral("migration-failed"), error);
        }
        if (auto r = refuseUpgradeUnderRunningInstances(current, newest, clock); !r)
            return r;
        if (m_instanceLock && !exclusive)
            return makeError(
                QStringLiteral("database-in-use"),
                QStringLiteral("the database %1 has schema version %2 and this Gatehouse build "
                               "changes it to %3, which the instances running on it do not know "
                               "(one is starting, or has not written its heartbeat yet). Stop "
                               "them first, then start this build, then the others with it")
                    .arg(m_display)
                    .arg(current)
                    .arg(newest));
    }
    for (const Migration &m : std::as_const(sorted)) {
        if (m.version <= current)
            continue;
        if (!db.transaction())
            return makeError(QStringLiteral("migration-failed"), db.lastError().text());
        const QStringList statements =
            m.statements + (m_engine == Engine::PostgreSQL ? m.postgres : QStringList());
        for (const QString &stmt : statements) {
            if (!q.exec(ddl(stmt))) {
                const QString err = q.lastError().text();
                db.rollback();
                return makeError(QStringLiteral("migration-failed"),
                                 QStringLiteral("migration %1 (%2) failed: %3")
                                     .arg(m.version)
                                     .arg(m.description, err));
            }
        }
        q.prepare(QStringLiteral("INSERT INTO schema_migrations (version, description, applied_at) "
                                 "VALUES (?, ?, ?)"));
        q.addBindValue(m.version);
        q.addBindValue(m.description);
        q.addBindValue(clock.now().toString(Qt::ISODateWithMs));
        if (!q.exec() || !db.commit()) {
            const QString err = q.lastError().text();
            db.rollback();
            return makeError(QStringLiteral("migration-failed"), err);
        }
        qCInfo(lcDb) << "applied migration" << m.version << m.description;
    }
    m_schemaVersion = std::max(current, newest);
    return {};
}

} // namespace Gatehouse::Core
