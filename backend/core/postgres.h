#pragma once

// PostgreSQL through libpq, for core's Database and WriteQueue only: the statements of
// Core::Statement, the dialect translation of migrations, and the connection's URL. Stores
// never include this; their SQL runs on both engines (docs/storage.md).

#include "core/result.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QString>

#include <vector>

struct pg_conn;
struct pg_result;

namespace Gatehouse::Core {

class Statement;

// One prepared statement of one connection: its server-side name, the values bound for the
// next execution, and the result being read.
struct PgStatement
{
    ~PgStatement();
    pg_conn *conn = nullptr;
    QByteArray name;
    int params = 0;
    std::vector<QByteArray> values;
    std::vector<char> isNull;
    std::vector<char> isBinary;
    pg_result *result = nullptr;
    int row = -1;
    int rows = 0;
    bool executed = false;
    bool bindFailed = false; // a value could not be bound (error says why)
    int changes = 0;
    QString error;
    QByteArray sqlState; // the last failure's SQLSTATE (empty: none, or not the server's)

    // A statement prepared on `conn` (`?` and `?N` placeholders become $N); on failure the
    // statement's ok() is false and error() says why.
    static Statement prepare(pg_conn *conn, const char *sql);
    void set(int i, QByteArray value, bool binary);
    void setNull(int i);
    bool run();  // executes with the bound values
    bool send(); // sends the execution in pipeline mode (PgPipeline::queue)
    void clear();
    const char *cell(int col) const;
    bool isBytea(int col) const;
    QByteArray bytes(int col) const; // a bytea's bytes, or a text's UTF-8
};

// The writer's pipeline on its connection (libpq's pipeline mode, docs/storage.md "Speed"):
// what nobody waits for (SAVEPOINT, RELEASE, Statement::execLater()) is queued, and travels
// with the next statement whose answer is waited for, or with drain(): one round trip instead
// of one per statement. Between drains the connection is in pipeline mode; drain() leaves it,
// so that QSqlQuery and pgExec work on it again.
class PgPipeline
{
public:
    explicit PgPipeline(pg_conn *conn) : m_conn(conn) {}
    ~PgPipeline();
    PgPipeline(const PgPipeline &) = delete;
    PgPipeline &operator=(const PgPipeline &) = delete;
    // Queues a statement without parameters; false if it could not be sent.
    bool queue(const char *sql);
    // Queues a prepared statement's execution with the values bound to it; `changes` (if
    // given) receives the count of rows it changed when its answer is read.
    bool queue(PgStatement &st, int *changes = nullptr);
    int queued() const { return int(m_items.size()); }
    // Sends a Sync and reads the answers of all that was queued. False when one failed:
    // error() is the first failure's message. `last` (if given) receives the last answer.
    bool drain(pg_result **last = nullptr);
    QString error() const { return m_error; }
    // The first failure read since resetFailure() (the writer resets it as each job begins):
    // what a job reports when a statement of it failed, whoever read the answer.
    QString failure() const { return m_failure; }
    // That failure's SQLSTATE (empty: none, or not the server's).
    QByteArray failureState() const { return m_failureState; }
    // The SQLSTATE of error().
    QByteArray errorState() const { return m_errorState; }
    void resetFailure()
    {
        m_failure.clear();
        m_failureState.clear();
    }
    // The connection could not leave pipeline mode: unusable until it is reset (pgReset).
    bool stuck() const { return m_stuck; }
    // The pipeline of this thread on `conn` (the writer's), or nullptr.
    static PgPipeline *of(pg_conn *conn);
    // Makes `p` (or none) this thread's pipeline.
    static void setCurrent(PgPipeline *p);

private:
    bool enter();
    bool leave();
    pg_conn *m_conn;
    std::vector<QByteArray> m_items; // what each queued statement is, for messages
    std::vector<int *> m_changes;    // where each one's count of changed rows goes, or nullptr
    QString m_error;
    QByteArray m_errorState;
    QString m_failure;
    QByteArray m_failureState;
    bool m_stuck = false;
};

// SQLSTATE 25006, read_only_sql_transaction: a write refused by a database that accepts none
// at the moment (a standby, default_transaction_read_only); the writer answers it as
// database-unavailable (503, try again), not as a failed write.
inline constexpr char kPgReadOnlyState[] = "25006";

// The libpq connection under Qt's QPSQL driver, or nullptr (another driver, or closed).
pg_conn *pgHandleOf(const QSqlDatabase &db);
// Runs `sql` (no parameters) to completion; false with `error` set when it failed.
bool pgExec(pg_conn *conn, const char *sql, QString *error);
// What every connection sets once open (and again after a reset). NOTICEs (an IF NOT EXISTS
// that found it) are not worth a log line each. No JIT compilation: Gatehouse's statements
// each touch a few rows by key, and a plan costed high (statistics that lag behind a burst)
// spent 10-30 ms compiling itself, many times what running it took.
inline constexpr char PgSessionSetup[] = "SET client_min_messages = warning; SET jit = off";
// True when `r` is the answer of a COMMIT that committed (not one that rolled back).
bool pgCommitted(pg_result *r);
void pgClear(pg_result *r); // PQclear (nullptr is fine)
// True when the connection is not inside a transaction (one that failed, was rolled back).
bool pgIdle(pg_conn *conn);
// True when a statement failed inside the current transaction (nothing runs until a rollback).
bool pgFailed(pg_conn *conn);
// False once libpq has seen the connection break (it is not reopened by itself).
bool pgConnected(pg_conn *conn);
// The same, after reading what the server sent meanwhile without waiting (libpq's sockets do
// not block): a session the server ended (a restart, pg_terminate_backend, a failover) sent
// its FATAL and closed, which libpq sees only when it reads. One recv() that finds nothing.
bool pgStillConnected(pg_conn *conn);
// Error messages without DETAIL and CONTEXT lines (they quote rows and keys).
void pgSetTerse(pg_conn *conn);

// `sql` written for SQLite rewritten in PostgreSQL's dialect: `?` placeholders as $N (the
// count in `params`). String literals and quoted names are left alone.
QByteArray pgPlaceholders(const char *sql, int *params);
// A migration's DDL written for SQLite, in PostgreSQL's types: INTEGER as BIGINT (an INTEGER
// PRIMARY KEY as an identity), REAL as DOUBLE PRECISION, BLOB as BYTEA, COLLATE NOCASE as
// citext; WITHOUT ROWID dropped. Statements other than CREATE and ALTER TABLE are unchanged.
QString pgDdl(const QString &sql);

// A connection of its own (libpq parses the URL itself; connect_timeout 10 s unless it says),
// or nullptr with `error` set. PQfinish it with pgClose.
pg_conn *pgConnect(const QString &url, QString *error);
void pgClose(pg_conn *conn);
// Reopens a connection libpq saw break; false if it stays broken.
bool pgReset(pg_conn *conn);
// LISTEN channel (a plain name) on this connection.
bool pgListen(pg_conn *conn, const char *channel, QString *error);
// The payloads of the notifications that arrived, without waiting; false once the connection
// broke (what was sent meanwhile is lost: reset and LISTEN again).
bool pgNotifications(pg_conn *conn, std::vector<QByteArray> *payloads);
// NOTIFY channel with this payload (shorter than 8000 bytes), committed at once.
bool pgNotify(pg_conn *conn, const char *channel, const QByteArray &payload, QString *error);
// pg_try_advisory_lock(key), or its _shared form: `held` says whether this session holds it now.
bool pgTryLock(pg_conn *conn, qint64 key, bool shared, bool *held, QString *error);

// A postgresql:// (or postgres://) URL: the parts QPSQL takes, the rest (sslmode, passfile,
// connect_timeout, ...) as connect options. Credentials may also come from PG* variables.
struct PgTarget
{
    QString host;
    int port = -1;
    QString user;
    QString password;
    QString database;
    QString options; // "key=value;key=value"
    QString display; // the URL without its password, for messages
};
bool isPostgresUrl(const QString &target);
Result<PgTarget> parsePostgresUrl(const QString &url);

} // namespace Gatehouse::Core
