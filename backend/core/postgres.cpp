#include "core/postgres.h"
#include "core/logging.h"
#include "core/writequeue.h"

#include <QRegularExpression>
#include <QSqlDriver>
#include <QUrl>
#include <QUrlQuery>

#include <atomic>
#include <cstdlib>

#include <libpq-fe.h>

namespace Gatehouse::Core {

namespace {
constexpr Oid kByteaOid = 17;
std::atomic<quint64> g_statementNumber{0};
} // namespace

PgStatement::~PgStatement()
{
    clear();
}

void PgStatement::clear()
{
    if (result)
        PQclear(result);
    result = nullptr;
    row = -1;
    rows = 0;
    executed = false;
}

Statement PgStatement::prepare(pg_conn *conn, const char *sql)
{
    Statement s;
    auto st = std::make_shared<PgStatement>();
    st->conn = conn;
    st->name = "gh_" + QByteArray::number(++g_statementNumber);
    const QByteArray text = pgPlaceholders(sql, &st->params);
    st->values.resize(size_t(st->params));
    st->isNull.assign(size_t(st->params), 1);
    st->isBinary.assign(size_t(st->params), 0);
    if (!conn) {
        st->error = QStringLiteral("no PostgreSQL connection");
        st->name.clear();
        s.m_ok = false;
    } else {
        PGresult *r = PQprepare(conn, st->name.constData(), text.constData(), 0, nullptr);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            st->error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
            qCCritical(lcDb) << "cannot prepare" << sql << st->error;
            st->name.clear();
            s.m_ok = false;
        }
        PQclear(r);
    }
    s.m_pg = std::move(st);
    return s;
}

void PgStatement::set(int i, QByteArray value, bool binary)
{
    if (i < 1 || i > params) {
        error = QStringLiteral("parameter %1 of %2 does not exist").arg(i).arg(params);
        bindFailed = true;
        return;
    }
    // Text travels NUL-terminated: what follows a NUL would be lost (SQLite keeps it).
    if (!binary && value.contains('\0')) {
        error = QStringLiteral("parameter %1 holds a NUL character").arg(i);
        bindFailed = true;
        return;
    }
    values[size_t(i - 1)] = std::move(value);
    isNull[size_t(i - 1)] = 0;
    isBinary[size_t(i - 1)] = binary ? 1 : 0;
}

void PgStatement::setNull(int i)
{
    if (i < 1 || i > params)
        return;
    values[size_t(i - 1)].clear();
    isNull[size_t(i - 1)] = 1;
}

namespace {
// The bound values as libpq takes them.
struct PgValues
{
    std::vector<const char *> v;
    std::vector<int> lengths;
    std::vector<int> formats;
    explicit PgValues(const PgStatement &st)
        : v(size_t(st.params)), lengths(size_t(st.params)), formats(size_t(st.params))
    {
        for (size_t i = 0; i < size_t(st.params); ++i) {
            v[i] = st.isNull[i] ? nullptr : st.values[i].constData();
            lengths[i] = int(st.values[i].size());
            formats[i] = st.isBinary[i] != 0 ? 1 : 0;
        }
    }
};
thread_local PgPipeline *t_pipeline = nullptr;
} // namespace

bool PgStatement::run()
{
    clear();
    executed = true;
    if (bindFailed)
        return false;
    // Statements are queued in the writer's pipeline: this one goes with them, and its answer
    // comes after theirs (a failure among them fails this one too).
    if (PgPipeline *p = PgPipeline::of(conn); p && p->queued() > 0) {
        if (!p->queue(*this)) {
            error = p->error();
            return false;
        }
        const bool ok = p->drain(&result);
        const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
        if (!ok || (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)) {
            error = p->error();
            sqlState = p->errorState();
            clear();
            executed = true;
            return false;
        }
    } else {
        const PgValues v(*this);
        result = PQexecPrepared(conn, name.constData(), params, v.v.data(), v.lengths.data(),
                                v.formats.data(), 0);
        const ExecStatusType status = PQresultStatus(result);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
            error = QString::fromUtf8(PQresultErrorMessage(result)).trimmed();
            sqlState = PQresultErrorField(result, PG_DIAG_SQLSTATE);
            clear();
            executed = true;
            return false;
        }
    }
    rows = PQntuples(result);
    changes = std::atoi(PQcmdTuples(result));
    return true;
}

bool PgStatement::send()
{
    const PgValues p(*this);
    return PQsendQueryPrepared(conn, name.constData(), params, p.v.data(), p.lengths.data(),
                               p.formats.data(), 0) == 1;
}

PgPipeline::~PgPipeline()
{
    if (t_pipeline == this)
        t_pipeline = nullptr;
    if (!m_items.empty() && PQstatus(m_conn) == CONNECTION_OK)
        drain();
}

PgPipeline *PgPipeline::of(pg_conn *conn)
{
    return t_pipeline && t_pipeline->m_conn == conn ? t_pipeline : nullptr;
}

void PgPipeline::setCurrent(PgPipeline *p)
{
    t_pipeline = p;
}

bool PgPipeline::enter()
{
    if (PQpipelineStatus(m_conn) != PQ_PIPELINE_OFF)
        return true;
    if (PQenterPipelineMode(m_conn) == 1)
        return true;
    m_error = QString::fromUtf8(PQerrorMessage(m_conn)).trimmed();
    return false;
}

bool PgPipeline::leave()
{
    if (PQpipelineStatus(m_conn) == PQ_PIPELINE_OFF || PQexitPipelineMode(m_conn) == 1)
        return true;
    if (PQstatus(m_conn) != CONNECTION_OK)
        return false; // broken: the writer takes a new connection
    qCCritical(lcDb) << "cannot leave pipeline mode:" << PQerrorMessage(m_conn);
    m_stuck = true;
    return false;
}

bool PgPipeline::queue(const char *sql)
{
    if (!enter())
        return false;
    if (PQsendQueryParams(m_conn, sql, 0, nullptr, nullptr, nullptr, nullptr, 0) != 1) {
        m_error = QString::fromUtf8(PQerrorMessage(m_conn)).trimmed();
        if (m_items.empty())
            leave();
        return false;
    }
    m_items.emplace_back(sql);
    m_changes.push_back(nullptr);
    return true;
}

bool PgPipeline::queue(PgStatement &st, int *changes)
{
    if (st.bindFailed) {
        m_error = st.error;
        return false;
    }
    if (!enter())
        return false;
    if (!st.send()) {
        m_error = QString::fromUtf8(PQerrorMessage(m_conn)).trimmed();
        if (m_items.empty())
            leave();
        return false;
    }
    m_items.push_back(st.name);
    m_changes.push_back(changes);
    return true;
}

bool PgPipeline::drain(pg_result **last)
{
    if (last)
        *last = nullptr;
    if (m_items.empty())
        return leave();
    bool ok = true;
    m_error.clear();
    m_errorState.clear();
    auto fail = [&](const QString &why, const QByteArray &state = {}) {
        if (ok) {
            m_error = why;
            m_errorState = state;
        }
        if (m_failure.isEmpty()) {
            m_failure = why;
            m_failureState = state;
        }
        ok = false;
    };
    if (PQpipelineSync(m_conn) != 1) {
        fail(QString::fromUtf8(PQerrorMessage(m_conn)).trimmed());
    } else {
        // Each queued statement's answer, then the end of its answers (nullptr); then the
        // Sync's. After a failure the rest answer PGRES_PIPELINE_ABORTED.
        bool synced = false;
        for (size_t i = 0; i < m_items.size() && !synced;) {
            PGresult *r = PQgetResult(m_conn);
            if (!r) {
                if (PQstatus(m_conn) != CONNECTION_OK) {
                    fail(QString::fromUtf8(PQerrorMessage(m_conn)).trimmed());
                    break;
                }
                ++i;
                continue;
            }
            switch (PQresultStatus(r)) {
            case PGRES_COMMAND_OK:
            case PGRES_TUPLES_OK:
                if (m_changes[i])
                    *m_changes[i] = std::atoi(PQcmdTuples(r));
                break;
            case PGRES_PIPELINE_SYNC: // the answers ended early (a broken connection)
                synced = true;
                fail(QStringLiteral("the answers of the pipeline ended early"));
                break;
            case PGRES_PIPELINE_ABORTED:
                fail(QStringLiteral("not run: a statement before it in the pipeline failed"));
                break;
            default:
                fail(QStringLiteral("%1: %2").arg(
                         QString::fromUtf8(m_items[i].startsWith("gh_") ? QByteArray("a statement")
                                                                        : m_items[i]),
                         QString::fromUtf8(PQresultErrorMessage(r)).trimmed()),
                     PQresultErrorField(r, PG_DIAG_SQLSTATE));
                break;
            }
            if (last && i + 1 == m_items.size() && !*last && !synced)
                *last = r;
            else
                PQclear(r);
        }
        while (!synced && PQstatus(m_conn) == CONNECTION_OK) {
            PGresult *r = PQgetResult(m_conn);
            if (!r)
                break;
            synced = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
            PQclear(r);
        }
    }
    m_items.clear();
    m_changes.clear();
    if (!leave())
        fail(QString::fromUtf8(PQerrorMessage(m_conn)).trimmed());
    return ok;
}

const char *PgStatement::cell(int col) const
{
    if (!result || row < 0 || row >= rows || col < 0 || col >= PQnfields(result))
        return nullptr;
    if (PQgetisnull(result, row, col))
        return nullptr;
    return PQgetvalue(result, row, col);
}

bool PgStatement::isBytea(int col) const
{
    return result && PQftype(result, col) == kByteaOid;
}

QByteArray PgStatement::bytes(int col) const
{
    const char *c = cell(col);
    if (!c)
        return {};
    if (!isBytea(col))
        return QByteArray(c);
    size_t length = 0;
    unsigned char *raw = PQunescapeBytea(reinterpret_cast<const unsigned char *>(c), &length);
    QByteArray out(reinterpret_cast<const char *>(raw), qsizetype(length));
    PQfreemem(raw);
    return out;
}

pg_conn *pgHandleOf(const QSqlDatabase &db)
{
    if (!db.isValid() || !db.driver())
        return nullptr;
    if (const QVariant v = db.driver()->handle();
        v.isValid() &&
        (qstrcmp(v.typeName(), "PGconn*") == 0 || qstrcmp(v.typeName(), "pg_conn*") == 0))
        return *static_cast<PGconn *const *>(v.constData());
    return nullptr;
}

bool pgExec(pg_conn *conn, const char *sql, QString *error)
{
    PGresult *r = PQexec(conn, sql);
    const ExecStatusType status = PQresultStatus(r);
    bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
    if (!ok && error)
        *error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
    // COMMIT of a transaction that an error ended succeeds, as a ROLLBACK.
    if (ok && qstrcmp(sql, "COMMIT") == 0 && qstrcmp(PQcmdStatus(r), "COMMIT") != 0) {
        ok = false;
        if (error)
            *error = QStringLiteral("the transaction was rolled back after an error");
    }
    PQclear(r);
    return ok;
}

bool pgCommitted(pg_result *r)
{
    return r && PQresultStatus(r) == PGRES_COMMAND_OK && qstrcmp(PQcmdStatus(r), "COMMIT") == 0;
}

void pgClear(pg_result *r)
{
    if (r)
        PQclear(r);
}

bool pgIdle(pg_conn *conn)
{
    return PQtransactionStatus(conn) == PQTRANS_IDLE;
}

pg_conn *pgConnect(const QString &url, QString *error)
{
    const QByteArray dbname = url.toUtf8();
    // Earlier keywords are overridden by what the expanded URL says. These connections stay
    // open and mostly idle (the claim, the change feed's LISTEN): TCP keepalives find one that
    // died without a word (a NAT or firewall timeout) within about a minute, not two hours.
    const char *keywords[] = {"connect_timeout",  "keepalives_idle", "keepalives_interval",
                              "keepalives_count", "dbname",          nullptr};
    const char *values[] = {"10", "30", "10", "3", dbname.constData(), nullptr};
    PGconn *conn = PQconnectdbParams(keywords, values, 1);
    if (PQstatus(conn) != CONNECTION_OK) {
        if (error)
            *error = QString::fromUtf8(PQerrorMessage(conn)).trimmed();
        PQfinish(conn);
        return nullptr;
    }
    pgSetTerse(conn);
    return conn;
}

void pgClose(pg_conn *conn)
{
    if (conn)
        PQfinish(conn);
}

bool pgReset(pg_conn *conn)
{
    if (!conn)
        return false;
    PQreset(conn);
    pgSetTerse(conn);
    return PQstatus(conn) == CONNECTION_OK;
}

bool pgListen(pg_conn *conn, const char *channel, QString *error)
{
    return pgExec(conn, (QByteArrayLiteral("LISTEN ") + channel).constData(), error);
}

bool pgNotifications(pg_conn *conn, std::vector<QByteArray> *payloads)
{
    if (!conn || PQconsumeInput(conn) == 0 || PQstatus(conn) != CONNECTION_OK)
        return false;
    while (PGnotify *n = PQnotifies(conn)) {
        payloads->emplace_back(n->extra);
        PQfreemem(n);
    }
    return true;
}

bool pgNotify(pg_conn *conn, const char *channel, const QByteArray &payload, QString *error)
{
    const char *values[2] = {channel, payload.constData()};
    const int lengths[2] = {int(qstrlen(channel)), int(payload.size())};
    PGresult *r =
        PQexecParams(conn, "SELECT pg_notify($1, $2)", 2, nullptr, values, lengths, nullptr, 0);
    const bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok && error)
        *error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
    PQclear(r);
    return ok;
}

bool pgTryLock(pg_conn *conn, qint64 key, bool shared, bool *held, QString *error)
{
    const QByteArray sql = QByteArray(shared ? "SELECT pg_try_advisory_lock_shared("
                                             : "SELECT pg_try_advisory_lock(") +
                           QByteArray::number(key) + ")";
    PGresult *r = PQexec(conn, sql.constData());
    const bool ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    if (ok)
        *held = qstrcmp(PQgetvalue(r, 0, 0), "t") == 0;
    else if (error)
        *error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
    PQclear(r);
    return ok;
}

bool pgConnected(pg_conn *conn)
{
    return conn && PQstatus(conn) == CONNECTION_OK;
}

bool pgStillConnected(pg_conn *conn)
{
    // Twice: a session the server ended sent its FATAL, then closed; one read may take only
    // the message, and libpq marks the connection bad when a read finds the end.
    for (int i = 0; i < 2; ++i)
        if (!pgConnected(conn) || PQconsumeInput(conn) == 0)
            return false;
    return pgConnected(conn);
}

void pgSetTerse(pg_conn *conn)
{
    if (conn)
        PQsetErrorVerbosity(conn, PQERRORS_TERSE);
}

bool pgFailed(pg_conn *conn)
{
    return PQtransactionStatus(conn) == PQTRANS_INERROR;
}

QByteArray pgPlaceholders(const char *sql, int *params)
{
    QByteArray out;
    int next = 0;
    int highest = 0;
    char quote = 0;
    for (const char *p = sql; *p; ++p) {
        const char c = *p;
        if (quote) {
            out += c;
            if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            out += c;
            continue;
        }
        if (c != '?') {
            out += c;
            continue;
        }
        int n = 0;
        while (p[1] >= '0' && p[1] <= '9')
            n = n * 10 + (*++p - '0');
        // As SQLite numbers them: a bare ? is one more than the largest number so far.
        if (n == 0)
            n = ++next;
        else
            next = std::max(next, n);
        highest = std::max(highest, n);
        out += '$' + QByteArray::number(n);
    }
    *params = highest;
    return out;
}

QString pgDdl(const QString &sql)
{
    const QString t = sql.trimmed();
    if (!t.startsWith(QLatin1String("CREATE TABLE")) && !t.startsWith(QLatin1String("ALTER TABLE")))
        return sql;
    static const QRegularExpression identity(
        QStringLiteral("\\bINTEGER PRIMARY KEY( AUTOINCREMENT)?\\b"));
    static const QRegularExpression integer(QStringLiteral("\\bINTEGER\\b"));
    static const QRegularExpression real(QStringLiteral("\\bREAL\\b"));
    static const QRegularExpression blob(QStringLiteral("\\bBLOB\\b"));
    static const QRegularExpression nocase(QStringLiteral("\\bTEXT\\b([^,()]*) COLLATE NOCASE"));
    static const QRegularExpression withoutRowid(QStringLiteral("\\s*WITHOUT ROWID\\s*$"));
    static const QRegularExpression text(QStringLiteral("\\bTEXT\\b"));
    QString out = sql;
    out.replace(identity, QStringLiteral("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"));
    out.replace(integer, QStringLiteral("BIGINT"));
    out.replace(real, QStringLiteral("DOUBLE PRECISION"));
    out.replace(blob, QStringLiteral("BYTEA"));
    out.replace(nocase, QStringLiteral("CITEXT\\1"));
    // Byte-wise order and ASCII-only case folding, as SQLite's, whatever the database's locale.
    out.replace(text, QStringLiteral("TEXT COLLATE \"C\""));
    out.replace(withoutRowid, QString());
    return out;
}

bool isPostgresUrl(const QString &target)
{
    return target.startsWith(QLatin1String("postgresql://")) ||
           target.startsWith(QLatin1String("postgres://"));
}

Result<PgTarget> parsePostgresUrl(const QString &url)
{
    const QUrl u(url, QUrl::StrictMode);
    if (!isPostgresUrl(url) || !u.isValid())
        return makeError(QStringLiteral("invalid-config"),
                         QStringLiteral("expected postgresql://[user[:password]@][host][:port]/"
                                        "database[?option=value...]"),
                         400);
    PgTarget t;
    t.host = u.host();
    t.port = u.port(-1);
    t.user = u.userName(QUrl::FullyDecoded);
    t.password = u.password(QUrl::FullyDecoded);
    t.database = u.path(QUrl::FullyDecoded).mid(1);
    if (t.database.isEmpty() || t.database.contains(QLatin1Char('/')))
        return makeError(QStringLiteral("invalid-config"),
                         QStringLiteral("the URL names no database: postgresql://host/database"),
                         400);
    // Each option becomes a libpq conninfo keyword, unquoted (QPSQL passes connect options as
    // they are): only these keys, and values that cannot end one keyword and start another
    // (libpq splits on any white space). No password or sslpassword: they would be shown with
    // the URL.
    static const QStringList known{QStringLiteral("host"),
                                   QStringLiteral("user"),
                                   QStringLiteral("sslmode"),
                                   QStringLiteral("sslrootcert"),
                                   QStringLiteral("sslcert"),
                                   QStringLiteral("sslkey"),
                                   QStringLiteral("sslcrl"),
                                   QStringLiteral("sslcrldir"),
                                   QStringLiteral("sslsni"),
                                   QStringLiteral("passfile"),
                                   QStringLiteral("connect_timeout"),
                                   QStringLiteral("application_name"),
                                   QStringLiteral("target_session_attrs"),
                                   QStringLiteral("keepalives"),
                                   QStringLiteral("keepalives_idle"),
                                   QStringLiteral("keepalives_interval"),
                                   QStringLiteral("keepalives_count"),
                                   QStringLiteral("tcp_user_timeout"),
                                   QStringLiteral("channel_binding"),
                                   QStringLiteral("gssencmode"),
                                   QStringLiteral("krbsrvname")};
    static const QRegularExpression plainValue(QStringLiteral("^[A-Za-z0-9._/:@+,-]*\\z"));
    QStringList options;
    bool timeout = false;
    for (const auto &[key, value] : QUrlQuery(u).queryItems(QUrl::FullyDecoded)) {
        if (key == QLatin1String("password") || key == QLatin1String("sslpassword"))
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("give the password in the URL's user part, a "
                                            "passfile or PGPASSWORD"),
                             400);
        if (!known.contains(key))
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("unsupported option '%1' in the database URL (known: "
                                            "%2)")
                                 .arg(key, known.join(QStringLiteral(", "))),
                             400);
        if (!plainValue.match(value).hasMatch())
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("the value of '%1' in the database URL may hold only "
                                            "letters, digits and . _ / : @ + , -")
                                 .arg(key),
                             400);
        timeout = timeout || key == QLatin1String("connect_timeout");
        options.append(key + QLatin1Char('=') + value);
    }
    // A database host that does not answer must not hold a thread for TCP's own timeout.
    if (!timeout)
        options.append(QStringLiteral("connect_timeout=10"));
    t.options = options.join(QLatin1Char(';'));
    QUrl shown = u;
    shown.setPassword(QString());
    t.display = shown.toString();
    return t;
}

} // namespace Gatehouse::Core
