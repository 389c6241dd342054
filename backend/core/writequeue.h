#pragma once

#include "core/result.h"

#include <QHash>
#include <QMutex>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QWaitCondition>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>

class QThread;
struct sqlite3;
struct sqlite3_stmt;
struct pg_conn;

namespace Gatehouse::Core {
struct PgStatement; // database_pg.cpp
}

namespace Gatehouse::Core {

class Database;

// A prepared statement used directly through the engine's C API: the writer's hot paths
// bind and step tens of thousands of rows a second, where QSqlQuery's per-bind overhead
// (QVariant, placeholder names) costs more than SQLite itself. Parameters are 1-based and
// written `?` (or `?N`); the SQL must run on both SQLite and PostgreSQL (docs/storage.md).
// On PostgreSQL (libpq) the statement is prepared on the server once per connection,
// parameters travel as text (blobs as binary), and next() walks the result of one execution.
class Statement
{
public:
    Statement &bind(int i, qint64 v);
    Statement &bind(int i, int v) { return bind(i, qint64(v)); }
    Statement &bind(int i, double v);
    Statement &bind(int i, const QString &v); // a null QString binds NULL
    Statement &bindBlob(int i, const QByteArray &v);
    Statement &bindUtf8(int i, const QByteArray &v); // text already in UTF-8; null binds NULL
    Statement &bindNull(int i);
    Statement &bindTextOrNull(int i, const QString &v) // empty binds NULL
    {
        return v.isEmpty() ? bindNull(i) : bind(i, v);
    }
    bool exec(); // runs to completion (writes)
    // exec() for a write whose outcome the job does not read (neither changes() nor a
    // constraint it answers for: any failure is a database error). On PostgreSQL, in the
    // writer, it is sent without waiting: its answer is read with the next statement whose
    // answer is waited for, or when the job ends, and a failure then fails the job.
    // Elsewhere, exec(). False only when it could not be sent (error() says why).
    bool execLater();
    // execLater() for a write whose count of changed rows the job reads, later: `*changes` is
    // set (-1 until then) when its answer is read, by WriteTransaction::readQueued() or with
    // the next statement whose answer is waited for. Elsewhere exec(), and `*changes` at once.
    bool execLater(int *changes);
    bool next();         // the next row (reads)
    int changes() const; // rows changed by the last exec() on this connection
    bool isNull(int col) const;
    qint64 int64(int col) const;
    double real(int col) const;
    QString text(int col) const;
    QByteArray blob(int col) const;
    QString error() const;
    bool ok() const { return m_ok; }
    // The last exec() failed on a unique index or primary key (SQLSTATE 23505 on PostgreSQL,
    // SQLITE_CONSTRAINT_UNIQUE or _PRIMARYKEY on SQLite): a row another transaction committed
    // first, which the job may answer for (a 409) instead of a database error. On PostgreSQL
    // the transaction refuses everything after it until the job ends (and its savepoint is
    // rolled back): the job must end with an error.
    bool violatedUnique() const;

private:
    friend class WriteTransaction;
    friend class WriteQueue;
    friend class Database;
    friend class ReadStatement;
    friend struct PgStatement;
    void reset();                         // ready for new bindings (keeps the prepared statement)
    static constexpr int MaxQueued = 256; // execLater(): the pipeline is read at this length
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_stmt = nullptr;
    std::shared_ptr<PgStatement> m_pg; // set on PostgreSQL instead of m_db/m_stmt
    bool m_ok = true;
};

// One job's view of the batch transaction it runs in.
class WriteTransaction
{
public:
    // A statement prepared once per writer connection; `sql` must be a string literal (its
    // address is the cache key). Reset and unbound on every call.
    Statement &stmt(const char *sql);
    static Error sqlError(const Statement &s, const char *what);
    // A prepared statement, prepared once per writer connection and reused. On PostgreSQL
    // what execLater() queued is read first (QPSQL waits on libpq's answers, which a pipeline
    // holds back until it is read: it would wait forever). So exec it at once, before another
    // execLater(), as with database() below.
    QSqlQuery &query(const QString &sql);
    QSqlDatabase database() const;
    // Reads the answers of what execLater() queued, so that their counts are set: one round
    // trip for all of them. An error (HTTP 500) if one failed. Nothing to read on SQLite.
    Result<void> readQueued();
    // The transaction runs on PostgreSQL (shared with other instances: row locks matter).
    bool isPostgres() const { return m_pg != nullptr; }
    // On PostgreSQL, waits for this transaction's turn at `key` among all instances (an
    // advisory lock held until the commit), so that a check and the write it guards are one
    // step for the whole fleet: under READ COMMITTED a count sees only what the others have
    // committed, and two instances both passed a limit. At most 10 s (then the job fails), and
    // an instance that stalls while it holds the turn loses its session after 30 s. Nothing on
    // SQLite, where the one writer is that step already. A job that takes a turn is submitted
    // with WriteQueue::submitAtStart.
    Result<void> takeTurn(qint64 key, const char *what);
    // Runs on the writer thread after the batch committed, only if this job succeeded.
    void afterCommit(std::function<void()> fn) { m_after.push_back(std::move(fn)); }
    // A failed statement as an Error value (machine code "database-error", HTTP 500).
    static Error sqlError(const QSqlQuery &q, const char *what);

private:
    friend class WriteQueue;
    QSqlDatabase m_db;
    QHash<QString, QSqlQuery> *m_cache = nullptr;
    QSet<QString> *m_failed = nullptr; // queries of m_cache whose prepare failed
    QHash<const void *, Statement> *m_statements = nullptr;
    sqlite3 *m_handle = nullptr;
    pg_conn *m_pg = nullptr;
    std::vector<std::function<void()>> m_after;
};

// The single writer of the database: jobs from any thread are run on one thread, many
// per transaction (group commit). Each job runs inside its own SAVEPOINT, so a job that
// fails (a constraint, a business rule) is rolled back alone. `done` runs on the writer
// thread once the batch committed (or failed); it must not block.
class WriteQueue
{
public:
    using Work = std::function<Result<void>(WriteTransaction &)>;
    using Done = std::function<void(const Result<void> &)>;

    WriteQueue(Database &database, QString name, int maxBatch = 512);
    ~WriteQueue(); // finishes queued jobs, then stops
    WriteQueue(const WriteQueue &) = delete;
    WriteQueue &operator=(const WriteQueue &) = delete;

    void submit(Work work, Done done = {});
    // A job that, on PostgreSQL, waits for a lock other instances take too (a transaction-level
    // advisory lock: OrderStore::lockLifecycle) as its first statement: it runs first in its
    // transaction (after another such job at most), so that it never waits for that lock while
    // this transaction holds row locks another instance, holding the lock, may wait for (a
    // deadlock across instances, broken only after deadlock_timeout). Only such jobs share its
    // transaction, so that the lock is held no longer than they take. On SQLite, submit().
    void submitAtStart(Work work, Done done = {});
    // Blocks the caller until the job has committed; for start-up and tools.
    Result<void> run(Work work);
    void stop();

    // Group commit across the requests of one event-loop pass: while a DeferWakes lives on a
    // thread, a submit from that thread that finds the writer idle does not wake it; the
    // thread calls wakeDeferred() once its pass is done (HttpServer: a queued call, run after
    // the socket events of the pass), and the jobs of the whole pass commit together. Woken one by
    // one, an idle writer committed each request of the pass alone. A submit from any other thread,
    // and run(), still wake the writer at once (and with it whatever was deferred). Code
    // that blocks its thread for a job it submitted calls wakeDeferred() first (run() does
    // not need to).
    class DeferWakes
    {
    public:
        DeferWakes();
        ~DeferWakes();
        DeferWakes(const DeferWakes &) = delete;
        DeferWakes &operator=(const DeferWakes &) = delete;
    };
    static void wakeDeferred(); // on the thread that deferred
    static bool hasDeferred();  // this thread deferred a wake that is still due

    qint64 committedBatches() const;
    qint64 committedJobs() const;
    int queued() const;

private:
    struct Job
    {
        Work work;
        Done done;
        bool atStart = false; // submitAtStart
    };
    void enqueue(Job job, bool mayDefer);
    void loop();
    void checkpointLoop();
    static int walHook(void *queue, sqlite3 *db, const char *name, int pages);

    Database &m_database;
    QString m_name;
    int m_maxBatch;
    mutable QMutex m_mutex;
    QWaitCondition m_wake;
    std::deque<Job> m_jobs;
    bool m_stopping = false;
    bool m_wakeDeferred = false; // jobs wait for a wakeDeferred() (DeferWakes)
    bool m_delaying = false;     // the writer waits CommitDelayUs for a batch (below)
    qint64 m_batches = 0;
    qint64 m_committed = 0;
    std::unique_ptr<QThread> m_thread;
    // WAL checkpoints on their own thread and connection (PASSIVE: they never block the
    // writer), woken by the writer's commits once the WAL holds CheckpointPages pages; once a
    // pass has copied everything, the writer copies the few commits since itself so that the
    // WAL starts over (walHook). SQLite's automatic checkpoint would do all of the copying and
    // the sync inside the writer's commits, holding up every request of the batch.
    static constexpr int CheckpointPages = 1000;
    // Group commit under load (PostgreSQL's commit_delay): when the last commit ended less
    // than BusyWindowNs ago and fewer than SmallBatch jobs are waiting, the writer waits
    // CommitDelayUs for more to join, so that a commit's fixed cost (WAL frames of the same
    // index pages, waking the threads it answers) is shared; the job that makes SmallBatch
    // ends the wait early. Idle, a job commits at once.
    static constexpr qint64 BusyWindowNs = 1'000'000;
    static constexpr int CommitDelayUs = 200;
    static constexpr int SmallBatch = 4;
    // A pass so slow (a disk busy with others' writes) that the WAL reached this many pages
    // holds the writer until it is done: the writer then copies the rest, and the WAL
    // restarts near 12 MB at most instead of growing for as long as the pass takes.
    static constexpr int WalLimitPages = 3 * CheckpointPages;
    QMutex m_checkpointMutex;
    QWaitCondition m_checkpointWake;
    QWaitCondition m_checkpointDone;
    int m_walPages = 0;
    bool m_checkpointStop = false;
    bool m_checkpointRunning = false;    // a pass is under way: commits need not wake it again
    std::atomic<bool> m_caughtUp{false}; // a pass copied every frame there was
    std::unique_ptr<QThread> m_checkpointer;
};

} // namespace Gatehouse::Core
