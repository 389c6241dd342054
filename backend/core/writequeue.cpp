#include "core/writequeue.h"

#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_set>
#include <vector>

#include "core/database.h"
#include "core/logging.h"
#include "core/postgres.h"
#include "core/repeatedfailure.h"
#include "core/threadstate.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QSqlDriver>
#include <QSqlError>
#include <QThread>

#include <sqlite3.h>

namespace Gatehouse::Core {

namespace {

thread_local int t_deferDepth = 0;
thread_local std::vector<WriteQueue *> t_deferred;
// The queues that exist: a queue gone before the deferring thread's wakeDeferred() is skipped.
std::mutex g_aliveMutex;
std::unordered_set<const WriteQueue *> g_alive;

// A write refused because the database accepts none at the moment (kPgReadOnlyState): a
// standby after a failover, or one set read-only. Like a database that cannot be reached,
// try again (503), rather than a failed write (500).
Error readOnly()
{
    return Error{QString::fromLatin1(kDatabaseUnavailable),
                 QStringLiteral("the database accepts no writes at the moment (read-only); try "
                                "again"),
                 503};
}

} // namespace

QSqlDatabase WriteTransaction::database() const
{
    // QPSQL cannot run in pipeline mode: what is queued is read first (a failure there fails
    // the job when it ends, with its own message: PgPipeline::failure()).
    if (PgPipeline *p = m_pg ? PgPipeline::of(m_pg) : nullptr)
        p->drain();
    return m_db;
}

Result<void> WriteTransaction::readQueued()
{
    PgPipeline *p = m_pg ? PgPipeline::of(m_pg) : nullptr;
    if (!p || p->drain())
        return {};
    if (p->errorState() == kPgReadOnlyState)
        return readOnly();
    return makeError(QStringLiteral("database-error"),
                     QStringLiteral("a write failed: %1").arg(p->error()), 500);
}

QSqlQuery &WriteTransaction::query(const QString &sql)
{
    (void)database(); // reads what is queued
    auto it = m_cache->find(sql);
    if (it == m_cache->end() || m_failed->contains(sql)) {
        QSqlQuery q(m_db);
        if (!q.prepare(sql)) {
            qCCritical(lcDb) << "cannot prepare" << sql << q.lastError().text();
            m_failed->insert(sql); // prepared again next time: the cause may have passed
        } else {
            m_failed->remove(sql);
        }
        it = m_cache->insert(sql, q);
    }
    it->finish();
    return *it;
}

Statement &Statement::bind(int i, qint64 v)
{
    if (m_pg) {
        m_pg->set(i, QByteArray::number(v), false);
        return *this;
    }
    m_ok = m_ok && sqlite3_bind_int64(m_stmt, i, v) == SQLITE_OK;
    return *this;
}

Statement &Statement::bind(int i, double v)
{
    if (m_pg) {
        m_pg->set(i, QByteArray::number(v, 'g', 17), false);
        return *this;
    }
    m_ok = m_ok && sqlite3_bind_double(m_stmt, i, v) == SQLITE_OK;
    return *this;
}

Statement &Statement::bind(int i, const QString &v)
{
    if (v.isNull())
        return bindNull(i);
    if (m_pg) {
        m_pg->set(i, v.toUtf8(), false);
        return *this;
    }
    m_ok = m_ok && sqlite3_bind_text16(m_stmt, i, v.constData(), int(v.size() * 2),
                                       SQLITE_TRANSIENT) == SQLITE_OK;
    return *this;
}

Statement &Statement::bindBlob(int i, const QByteArray &v)
{
    if (m_pg) {
        m_pg->set(i, v, true);
        return *this;
    }
    m_ok = m_ok && sqlite3_bind_blob(m_stmt, i, v.constData(), int(v.size()), SQLITE_TRANSIENT) ==
                       SQLITE_OK;
    return *this;
}

Statement &Statement::bindUtf8(int i, const QByteArray &v)
{
    if (v.isNull())
        return bindNull(i);
    if (m_pg) {
        m_pg->set(i, v, false);
        return *this;
    }
    m_ok = m_ok && sqlite3_bind_text(m_stmt, i, v.constData(), int(v.size()), SQLITE_TRANSIENT) ==
                       SQLITE_OK;
    return *this;
}

Statement &Statement::bindNull(int i)
{
    if (m_pg) {
        m_pg->setNull(i);
        return *this;
    }
    m_ok = m_ok && sqlite3_bind_null(m_stmt, i) == SQLITE_OK;
    return *this;
}

bool Statement::exec()
{
    if (!m_ok)
        return false;
    if (m_pg)
        return m_ok = m_pg->run();
    int rc = SQLITE_ROW;
    while (rc == SQLITE_ROW)
        rc = sqlite3_step(m_stmt);
    m_ok = rc == SQLITE_DONE;
    return m_ok;
}

bool Statement::execLater()
{
    return execLater(nullptr);
}

bool Statement::execLater(int *changes)
{
    if (changes)
        *changes = -1;
    if (!m_ok)
        return false;
    if (m_pg) {
        if (PgPipeline *p = PgPipeline::of(m_pg->conn)) {
            // A long queue is read before it grows further: results the server cannot send
            // (nobody reads them yet) would stop it reading what is sent to it.
            if (p->queued() >= MaxQueued && !p->drain()) {
                m_pg->error = p->error();
                return m_ok = false;
            }
            m_pg->clear();
            m_pg->executed = true;
            m_pg->changes = -1;
            if (!p->queue(*m_pg, changes)) {
                m_pg->error = p->error();
                return m_ok = false;
            }
            return true;
        }
    }
    if (!exec())
        return false;
    if (changes)
        *changes = this->changes();
    return true;
}

int Statement::changes() const
{
    if (m_pg)
        return m_pg->changes;
    return sqlite3_changes(m_db);
}

bool Statement::next()
{
    if (!m_ok)
        return false;
    if (m_pg) {
        if (!m_pg->executed && !(m_ok = m_pg->run()))
            return false;
        return ++m_pg->row < m_pg->rows;
    }
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    m_ok = rc == SQLITE_DONE;
    return false;
}

bool Statement::isNull(int col) const
{
    if (m_pg)
        return m_pg->cell(col) == nullptr;
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

qint64 Statement::int64(int col) const
{
    if (m_pg) {
        const char *c = m_pg->cell(col);
        if (!c)
            return 0;
        if (c[0] == 't' && c[1] == 0) // a boolean expression: SQLite's 1 and 0
            return 1;
        return std::strtoll(c, nullptr, 10); // a numeric's fraction (SUM) is cut, as in SQLite
    }
    return sqlite3_column_int64(m_stmt, col);
}

double Statement::real(int col) const
{
    if (m_pg) {
        const char *c = m_pg->cell(col);
        return c ? std::strtod(c, nullptr) : 0.0;
    }
    return sqlite3_column_double(m_stmt, col);
}

QString Statement::text(int col) const
{
    if (m_pg) {
        if (m_pg->isBytea(col))
            return QString::fromUtf8(blob(col));
        const char *c = m_pg->cell(col);
        return c ? QString::fromUtf8(c) : QString();
    }
    const auto *p = static_cast<const char16_t *>(sqlite3_column_text16(m_stmt, col));
    if (!p)
        return {};
    return QString::fromUtf16(p, sqlite3_column_bytes16(m_stmt, col) / 2);
}

QByteArray Statement::blob(int col) const
{
    if (m_pg) {
        return m_pg->bytes(col);
    }
    const void *p = sqlite3_column_blob(m_stmt, col);
    return QByteArray(static_cast<const char *>(p), sqlite3_column_bytes(m_stmt, col));
}

QString Statement::error() const
{
    if (m_pg)
        return m_pg->error;
    return QString::fromUtf8(sqlite3_errmsg(m_db));
}

bool Statement::violatedUnique() const
{
    if (m_ok)
        return false;
    if (m_pg)
        return m_pg->sqlState == "23505";
    const int code = m_db ? sqlite3_extended_errcode(m_db) : SQLITE_OK;
    return code == SQLITE_CONSTRAINT_UNIQUE || code == SQLITE_CONSTRAINT_PRIMARYKEY;
}

void Statement::reset()
{
    if (m_pg) {
        m_ok = !m_pg->name.isEmpty(); // empty: its prepare failed (error() says why)
        m_pg->clear();
        m_pg->bindFailed = false;
        if (m_ok)
            m_pg->error.clear();
        for (int i = 1; i <= m_pg->params; ++i)
            m_pg->setNull(i);
        return;
    }
    if (m_stmt) {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }
    m_ok = m_stmt != nullptr;
}

Statement &WriteTransaction::stmt(const char *sql)
{
    auto it = m_statements->find(sql);
    // On PostgreSQL one that failed to prepare is prepared again: the cause may have passed
    // (the transaction a failed statement ended, a connection that was down).
    if (m_pg && (it == m_statements->end() || it->m_pg->name.isEmpty())) {
        // PQprepare waits for its answer, which pipeline mode does not allow: what is queued
        // is read first (a failure there fails the job when it ends).
        if (PgPipeline *p = PgPipeline::of(m_pg))
            p->drain();
        it = m_statements->insert(sql, PgStatement::prepare(m_pg, sql));
        return *it;
    }
    if (it == m_statements->end()) {
        Statement s;
        s.m_db = m_handle;
        if (sqlite3_prepare_v3(m_handle, sql, -1, SQLITE_PREPARE_PERSISTENT, &s.m_stmt, nullptr) !=
            SQLITE_OK) {
            qCCritical(lcDb) << "cannot prepare" << sql << sqlite3_errmsg(m_handle);
            s.m_ok = false;
        }
        it = m_statements->insert(sql, s);
    }
    Statement &s = *it;
    if (s.m_stmt || s.m_pg)
        s.reset();
    return s;
}

Result<void> WriteTransaction::takeTurn(qint64 key, const char *what)
{
    if (!isPostgres())
        return {};
    Statement &timeout = stmt("SELECT set_config('lock_timeout', '10s', true), "
                              "set_config('idle_in_transaction_session_timeout', '30s', true)");
    if (!timeout.exec())
        return sqlError(timeout, "set the lock timeout");
    Statement &q = stmt("SELECT pg_advisory_xact_lock(?1)");
    q.bind(1, key);
    if (!q.exec())
        return sqlError(q, what);
    return {};
}

Error WriteTransaction::sqlError(const Statement &s, const char *what)
{
    if (s.m_pg && s.m_pg->sqlState == kPgReadOnlyState)
        return readOnly();
    return Error{QStringLiteral("database-error"),
                 QStringLiteral("%1: %2").arg(QString::fromLatin1(what), s.error()), 500};
}

Error WriteTransaction::sqlError(const QSqlQuery &q, const char *what)
{
    if (q.lastError().nativeErrorCode() == QLatin1String(kPgReadOnlyState))
        return readOnly();
    return Error{QStringLiteral("database-error"),
                 QStringLiteral("%1: %2").arg(QString::fromLatin1(what), q.lastError().text()),
                 500};
}

WriteQueue::WriteQueue(Database &database, QString name, int maxBatch)
    : m_database(database), m_name(std::move(name)), m_maxBatch(maxBatch)
{
    {
        std::lock_guard alive(g_aliveMutex);
        g_alive.insert(this);
    }
    m_checkpointer.reset(QThread::create([this] {
        checkpointLoop();
        ThreadState::release();
    }));
    m_checkpointer->setObjectName(m_name + QStringLiteral("-checkpoint"));
    m_checkpointer->start();
    m_thread.reset(QThread::create([this] {
        loop();
        ThreadState::release(); // jobs draw random bytes, seal keys
    }));
    m_thread->setObjectName(m_name);
    m_thread->start();
}

int WriteQueue::walHook(void *queue, sqlite3 *db, const char *, int pages)
{
    auto *q = static_cast<WriteQueue *>(queue);
    if (pages < CheckpointPages)
        return SQLITE_OK;
    // The checkpoint thread has copied everything up to its last pass: what is left is the
    // few commits since. Copied here, on the writer's connection between two transactions,
    // the next transaction starts the WAL from its beginning again (SQLite restarts the log
    // only for a writer that began reading with every frame copied, which a checkpoint
    // running beside a busy writer never sees).
    if (pages >= WalLimitPages) {
        {
            QMutexLocker lock(&q->m_checkpointMutex);
            while (q->m_checkpointRunning)
                q->m_checkpointDone.wait(&q->m_checkpointMutex);
        }
        q->m_caughtUp.store(true);
    }
    if (q->m_caughtUp.exchange(false)) {
        const int rc =
            sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        if (rc == SQLITE_BUSY)
            q->m_caughtUp.store(true); // a pass of the checkpoint thread: the next commit again
        else if (rc != SQLITE_OK)
            qCWarning(lcDb) << q->m_name << "checkpoint failed:" << sqlite3_errmsg(db);
        return SQLITE_OK;
    }
    QMutexLocker lock(&q->m_checkpointMutex);
    // A pass under way is not asked for another: one right behind it would take the
    // checkpoint lock again just when the writer copies the rest (above), and neither would
    // restart the WAL (under load it grew past 24 MB that way).
    if (!q->m_checkpointRunning) {
        q->m_walPages = pages;
        q->m_checkpointWake.wakeOne();
    }
    return SQLITE_OK;
}

void WriteQueue::checkpointLoop()
{
    // SQLite's WAL only: PostgreSQL checkpoints by itself (and needs no idle connection here).
    sqlite3 *handle = m_database.engine() == Database::Engine::SQLite
                          ? Database::handleOf(m_database.connection())
                          : nullptr;
    QMutexLocker lock(&m_checkpointMutex);
    for (;;) {
        while (!m_checkpointStop && m_walPages < CheckpointPages)
            m_checkpointWake.wait(&m_checkpointMutex);
        if (m_checkpointStop)
            break;
        m_walPages = 0;
        m_checkpointRunning = true;
        lock.unlock();
        // PASSIVE: copies what no reader still needs into the database file and syncs it,
        // never waits and never blocks the writer.
        int logFrames = -1;
        int copied = -1;
        if (handle && sqlite3_wal_checkpoint_v2(handle, nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                                &logFrames, &copied) != SQLITE_OK)
            qCWarning(lcDb) << m_name << "checkpoint failed:" << sqlite3_errmsg(handle);
        else if (copied >= 0 && copied == logFrames)
            m_caughtUp.store(true); // the writer finishes it (walHook)
        lock.relock();
        m_checkpointRunning = false;
        m_checkpointDone.wakeAll();
    }
}

WriteQueue::DeferWakes::DeferWakes()
{
    ++t_deferDepth;
}

WriteQueue::DeferWakes::~DeferWakes()
{
    --t_deferDepth;
}

bool WriteQueue::hasDeferred()
{
    return !t_deferred.empty();
}

void WriteQueue::wakeDeferred()
{
    if (t_deferred.empty())
        return;
    std::vector<WriteQueue *> queues;
    queues.swap(t_deferred);
    std::lock_guard alive(g_aliveMutex);
    for (WriteQueue *q : queues) {
        if (!g_alive.count(q))
            continue;
        QMutexLocker lock(&q->m_mutex);
        if (q->m_wakeDeferred) {
            q->m_wakeDeferred = false;
            q->m_wake.wakeOne();
        }
    }
}

WriteQueue::~WriteQueue()
{
    stop();
    std::lock_guard alive(g_aliveMutex);
    g_alive.erase(this);
}

void WriteQueue::stop()
{
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
        m_wake.wakeAll();
    }
    if (m_thread && m_thread->isRunning())
        m_thread->wait();
    {
        QMutexLocker lock(&m_checkpointMutex);
        m_checkpointStop = true;
        m_checkpointWake.wakeAll();
    }
    if (m_checkpointer && m_checkpointer->isRunning())
        m_checkpointer->wait();
}

void WriteQueue::submit(Work work, Done done)
{
    enqueue(Job{std::move(work), std::move(done)}, true);
}

void WriteQueue::submitAtStart(Work work, Done done)
{
    enqueue(Job{std::move(work), std::move(done), true}, true);
}

void WriteQueue::enqueue(Job job, bool mayDefer)
{
    QMutexLocker lock(&m_mutex);
    if (m_stopping) {
        lock.unlock();
        if (job.done)
            job.done(makeError(QStringLiteral("shutting-down"),
                               QStringLiteral("the server is shutting down"), 503));
        return;
    }
    m_jobs.push_back(std::move(job));
    if (m_delaying && int(m_jobs.size()) >= SmallBatch) { // the batch the writer waits for
        m_delaying = false;
        m_wake.wakeOne();
        return;
    }
    if (m_jobs.size() > 1 && !m_wakeDeferred)
        return; // the writer is busy and takes it next
    if (mayDefer && t_deferDepth > 0) {
        if (!m_wakeDeferred) {
            m_wakeDeferred = true;
            t_deferred.push_back(this);
        }
        return;
    }
    m_wakeDeferred = false;
    m_wake.wakeOne();
}

Result<void> WriteQueue::run(Work work)
{
    QMutex mutex;
    QWaitCondition cond;
    bool finished = false;
    Result<void> result;
    enqueue(Job{std::move(work),
                [&](const Result<void> &r) {
                    QMutexLocker lock(&mutex);
                    result = r;
                    finished = true;
                    cond.wakeAll();
                }},
            false);
    QMutexLocker lock(&mutex);
    while (!finished)
        cond.wait(&mutex);
    return result;
}

qint64 WriteQueue::committedBatches() const
{
    QMutexLocker lock(&m_mutex);
    return m_batches;
}

qint64 WriteQueue::committedJobs() const
{
    QMutexLocker lock(&m_mutex);
    return m_committed;
}

int WriteQueue::queued() const
{
    QMutexLocker lock(&m_mutex);
    return int(m_jobs.size());
}

void WriteQueue::loop()
{
    QSqlDatabase db = m_database.connection();
    QHash<QString, QSqlQuery> cache;
    QSet<QString> failed;
    QHash<const void *, Statement> statements;
    sqlite3 *handle = Database::handleOf(db);
    pg_conn *pg = pgHandleOf(db);
    const bool postgres = m_database.engine() == Database::Engine::PostgreSQL;
    // What nobody waits for travels in libpq's pipeline (PgPipeline): SAVEPOINT and RELEASE,
    // and the jobs' execLater() writes.
    std::unique_ptr<PgPipeline> pipeline;
    auto usePipeline = [&] {
        pipeline.reset(pg ? new PgPipeline(pg) : nullptr);
        PgPipeline::setCurrent(pipeline.get());
    };
    usePipeline();
    // PostgreSQL went away (a restart, a failover, an ended session): the statements of the
    // old connection go with it, and the writer takes the new one connection() opens.
    auto reconnect = [&] {
        cache.clear();
        failed.clear();
        statements.clear();
        PgPipeline::setCurrent(nullptr);
        pipeline.reset(); // its queue went with the old connection
        db = m_database.connection();
        pg = pgHandleOf(db);
        usePipeline();
        return pgConnected(pg);
    };
    if (handle) {
        sqlite3_wal_hook(handle, &WriteQueue::walHook, this); // replaces the automatic checkpoint
        // Each job's SAVEPOINT journal in memory, whatever its size. An order with its lines,
        // history and delivery changes 20 to 40 existing pages (more when a B-tree page
        // splits); past 128 KiB (the most a journal may hold in memory before SQLite writes
        // it to a file: Database::open) the journal became a temporary file, written a page
        // at a time for the rest of the batch (31k writes, 134 MB in 6 s under strace). Held
        // lifecycle, Release, wrk 10 s: c64 6.2-6.6k -> 7.8-8.5k orders/s, c16 5.9k ->
        // 6.3-6.7k (A/B, 2 pairs each).
        // The cost is memory for the pages a job changes, which the writer's jobs bound
        // (retention and redelivery jobs work in chunks of 2,000 rows). Sorts and temporary
        // tables of this connection's statements are held in memory too; its jobs make only
        // small ones.
        if (sqlite3_exec(handle, "PRAGMA temp_store=MEMORY", nullptr, nullptr, nullptr) !=
            SQLITE_OK)
            qCWarning(lcDb) << m_name << "keeps its journals on disk:" << sqlite3_errmsg(handle);
    } else if (!pg)
        qCCritical(lcDb) << m_name << "has no database handle";
    // The transaction's own statements, prepared once: each was a prepare, a step and a
    // finalize per job through QSqlQuery::exec(QString).
    QSqlQuery control(db);
    std::vector<std::pair<const char *, sqlite3_stmt *>> prepared;
    QString controlError;
    RepeatedFailure beginFailures; // logged once, then every 10 s
    auto run = [&](const char *sql) {
        if (pg) {
            // BEGIN IMMEDIATE: PostgreSQL's writer takes its row locks as it goes. BEGIN waits
            // for its answer (a connection that broke while idle is seen there, and taken
            // again); SAVEPOINT, RELEASE and ROLLBACK TO go with the next answer waited for;
            // COMMIT and ROLLBACK read everything.
            if (std::strcmp(sql, "BEGIN IMMEDIATE") == 0) {
                if (!pipeline->drain()) {
                    controlError = pipeline->error();
                    return false;
                }
                return pgExec(pg, "BEGIN", &controlError);
            }
            if (std::strcmp(sql, "COMMIT") == 0 || std::strcmp(sql, "ROLLBACK") == 0) {
                pg_result *last = nullptr;
                const bool queued = pipeline->queue(sql);
                bool ok = pipeline->drain(&last) && queued;
                // COMMIT of a transaction that an error ended succeeds, as a ROLLBACK.
                if (ok && std::strcmp(sql, "COMMIT") == 0 && !pgCommitted(last)) {
                    ok = false;
                    controlError = QStringLiteral("the transaction was rolled back after an error");
                } else if (!ok) {
                    controlError = pipeline->error();
                }
                pgClear(last);
                return ok;
            }
            if (!pipeline->queue(sql)) {
                controlError = pipeline->error();
                return false;
            }
            return true;
        }
        if (!handle) {
            const bool ok = control.exec(QString::fromLatin1(sql));
            if (!ok)
                controlError = control.lastError().text();
            return ok;
        }
        sqlite3_stmt *st = nullptr;
        for (const auto &[text, s] : prepared)
            if (std::strcmp(text, sql) == 0)
                st = s;
        if (!st) {
            if (sqlite3_prepare_v3(handle, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, nullptr) !=
                SQLITE_OK) {
                controlError = QString::fromUtf8(sqlite3_errmsg(handle));
                return false;
            }
            prepared.emplace_back(sql, st);
        }
        const int rc = sqlite3_step(st);
        if (rc != SQLITE_DONE)
            controlError = QString::fromUtf8(sqlite3_errmsg(handle));
        sqlite3_reset(st);
        return rc == SQLITE_DONE;
    };
    std::vector<Job> batch;
    std::vector<Result<void>> results;
    std::vector<std::vector<std::function<void()>>> after;
    QElapsedTimer sinceCommit; // invalid until the first commit
    for (;;) {
        batch.clear();
        {
            QMutexLocker lock(&m_mutex);
            while (m_jobs.empty() && !m_stopping)
                m_wake.wait(&m_mutex);
            if (m_jobs.empty() && m_stopping)
                break;
            // Busy: let a few more jobs join (until SmallBatch are there, the delay is over,
            // or stop() or a deferred wake ends it).
            if (!m_stopping && int(m_jobs.size()) < SmallBatch && sinceCommit.isValid() &&
                sinceCommit.nsecsElapsed() < BusyWindowNs) {
                m_delaying = true;
                m_wake.wait(&m_mutex, QDeadlineTimer(std::chrono::microseconds(CommitDelayUs)));
                m_delaying = false;
            }
            while (!m_jobs.empty() && int(batch.size()) < m_maxBatch) {
                // On PostgreSQL a job that takes the instances' shared lock begins a transaction
                // (submitAtStart), and only such jobs join it: the lock is held until the
                // commit, and other instances' turns wait for it, so it is not held while
                // the writer runs the rest of a batch.
                if (postgres && !batch.empty() && m_jobs.front().atStart != batch.front().atStart)
                    break;
                batch.push_back(std::move(m_jobs.front()));
                m_jobs.pop_front();
            }
        }
        results.assign(batch.size(), Result<void>());
        after.assign(batch.size(), {});
        bool committed = false;
        // A job whose error made SQLite end the whole transaction (SQLITE_FULL, SQLITE_IOERR,
        // SQLITE_NOMEM can): the jobs before it are undone and the rest cannot run in it.
        std::optional<size_t> endedBy;
        // A connection left in pipeline mode (PgPipeline::stuck, never seen) is opened again.
        if (pipeline && pipeline->stuck()) {
            qCCritical(lcDb) << m_name << "resets its connection, left in pipeline mode";
            pgReset(pg);
            pgExec(pg, PgSessionSetup, nullptr);
            reconnect();
        }
        bool begun = (!postgres || pgConnected(pg) || reconnect()) && run("BEGIN IMMEDIATE");
        if (!begun && postgres && !pgConnected(pg)) // it broke while idle: seen only now
            begun = reconnect() && run("BEGIN IMMEDIATE");
        if (begun) {
            for (size_t i = 0; i < batch.size(); ++i) {
                WriteTransaction tx;
                tx.m_db = db;
                tx.m_cache = &cache;
                tx.m_failed = &failed;
                tx.m_statements = &statements;
                tx.m_handle = handle;
                tx.m_pg = pg;
                if (pipeline)
                    pipeline->resetFailure();
                run("SAVEPOINT job");
                Result<void> r = batch[i].work(tx);
                // What the job queued is read now. A job that carried on past a failed
                // statement (or whose queued write failed): on SQLite the rest of it is kept,
                // on PostgreSQL nothing of it could be (the transaction refuses all until the
                // rollback below), so it fails, with the first failure read.
                const bool drained = !pg || pipeline->drain();
                if (r && pg && (!drained || pgFailed(pg)) &&
                    pipeline->failureState() == kPgReadOnlyState)
                    r = readOnly();
                else if (r && pg && (!drained || pgFailed(pg)))
                    r = makeError(
                        QStringLiteral("database-error"),
                        pipeline->failure().isEmpty()
                            ? QStringLiteral("a statement of this write failed")
                            : QStringLiteral("a write failed: %1").arg(pipeline->failure()),
                        500);
                if (r) {
                    run("RELEASE job");
                    after[i] = std::move(tx.m_after);
                } else if ((handle && sqlite3_get_autocommit(handle)) || (pg && pgIdle(pg))) {
                    results[i] = std::move(r);
                    endedBy = i;
                    break;
                } else {
                    run("ROLLBACK TO job");
                    run("RELEASE job");
                }
                results[i] = std::move(r);
            }
            for (auto &q : cache)
                q.finish();
            for (Statement &st : statements) {
                if (st.m_stmt)
                    sqlite3_reset(st.m_stmt);
                else if (st.m_pg)
                    st.m_pg->clear();
            }
            if (endedBy) {
                controlError = results[*endedBy].error().message;
                qCCritical(lcDb) << m_name << "a write ended its batch of" << batch.size()
                                 << "jobs:" << controlError;
            } else {
                committed = run("COMMIT");
                if (!committed) {
                    qCCritical(lcDb) << m_name << "commit failed:" << controlError;
                    run("ROLLBACK");
                }
            }
            sinceCommit.start();
        } else if (const auto seen = beginFailures.failed(); seen.first) {
            qCCritical(lcDb).noquote() << m_name << "cannot begin a write:" << controlError
                                       << "(its writes fail until it can; logged every 10 s)";
        } else if (seen.log) {
            qCCritical(lcDb).noquote()
                << m_name << "still cannot begin a write (for" << seen.lastedMs / 1000 << "s;"
                << seen.unlogged << "more batches failed since the last line):" << controlError;
        }
        if (qint64 lasted = 0; begun && beginFailures.succeeded(&lasted))
            qCWarning(lcDb).noquote() << m_name << "writes again, after" << lasted << "ms";
        if (!committed) {
            // Not begun: the database cannot be reached (its connection could not be opened,
            // or broke), and nothing was tried: the caller may try again (503).
            const Error e = begun
                                ? Error{QStringLiteral("database-error"),
                                        QStringLiteral("the database did not accept the write: %1")
                                            .arg(controlError),
                                        500}
                                : databaseUnavailable();
            for (size_t i = 0; i < results.size(); ++i)
                if (i != endedBy)
                    results[i] = e; // the job that ended the batch keeps its own error
            for (auto &a : after)
                a.clear();
        }
        int ok = 0;
        for (size_t i = 0; i < batch.size(); ++i) {
            if (results[i])
                ++ok;
            for (auto &fn : after[i])
                fn();
            if (batch[i].done)
                batch[i].done(results[i]);
        }
        QMutexLocker lock(&m_mutex);
        if (committed) {
            ++m_batches;
            m_committed += ok;
        }
    }
    if (pipeline)
        pipeline->drain();
    PgPipeline::setCurrent(nullptr);
    pipeline.reset();
    cache.clear();
    for (Statement &st : statements)
        sqlite3_finalize(st.m_stmt);
    statements.clear();
    for (const auto &p : prepared)
        sqlite3_finalize(p.second);
    control = QSqlQuery();
}

} // namespace Gatehouse::Core
