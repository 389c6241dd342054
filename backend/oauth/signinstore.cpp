#include "oauth/signinstore.h"

#include "core/database.h"
#include "core/writequeue.h"
#include "oauth/userstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <memory>

namespace Gatehouse::OAuth {

using Core::Result;
using Core::WriteTransaction;

namespace {

QByteArray requestJson(const SignInRequest &r)
{
    return QJsonDocument(
               QJsonObject{{QStringLiteral("clientId"), r.clientId},
                           {QStringLiteral("redirectUri"), r.redirectUri},
                           {QStringLiteral("redirectUriGiven"), r.redirectUriGiven},
                           {QStringLiteral("scopes"), QJsonArray::fromStringList(r.scopes)},
                           {QStringLiteral("state"), r.state},
                           {QStringLiteral("nonce"), r.nonce},
                           {QStringLiteral("codeChallenge"), r.codeChallenge},
                           {QStringLiteral("prompt"), QJsonArray::fromStringList(r.prompt)},
                           {QStringLiteral("hintedUser"), r.hintedUser}})
        .toJson(QJsonDocument::Compact);
}

SignInRequest requestFrom(const QByteArray &json)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    SignInRequest r;
    r.clientId = o.value(QStringLiteral("clientId")).toString();
    r.redirectUri = o.value(QStringLiteral("redirectUri")).toString();
    r.redirectUriGiven = o.value(QStringLiteral("redirectUriGiven")).toBool();
    r.scopes = o.value(QStringLiteral("scopes")).toVariant().toStringList();
    r.state = o.value(QStringLiteral("state")).toString();
    r.nonce = o.value(QStringLiteral("nonce")).toString();
    r.codeChallenge = o.value(QStringLiteral("codeChallenge")).toString();
    r.prompt = o.value(QStringLiteral("prompt")).toVariant().toStringList();
    r.hintedUser = o.value(QStringLiteral("hintedUser")).toString();
    return r;
}

// The number of rows a one-column COUNT(*) statement answers (-1: failed).
qint64 count(Core::Statement &s)
{
    return s.next() ? s.int64(0) : -1;
}

// Ends session `hash` inside `tx` (SignInStore::endSession): the tokens its codes brought,
// its codes not yet redeemed, and the session. *revoked: the tokens revoked.
Result<void> endSessionIn(WriteTransaction &tx, const QString &hash, qint64 now, int *revoked)
{
    // What the user gave offline_access to stays, where it brought a refresh token (a client
    // without the refresh_token grant gets none: its tokens end here too).
    Core::Statement &t = tx.stmt(
        "UPDATE oauth_tokens SET revoked_at = ?1 WHERE revoked_at IS NULL AND code_hash IN "
        "(SELECT c.hash FROM oauth_codes c WHERE c.session_hash = ?2 AND ((' ' || c.scope || ' ') "
        "NOT LIKE '% offline_access %' OR NOT EXISTS (SELECT 1 FROM oauth_tokens r WHERE "
        "r.code_hash = c.hash AND r.kind = 'refresh')))");
    if (!t.bind(1, now).bind(2, hash).exec())
        return WriteTransaction::sqlError(t, "revoke the session's tokens");
    if (revoked)
        *revoked = t.changes();
    // Expired at 0, not at `now`: a redemption that read the code before this commits checks
    // the expiry against its own, earlier, time (as UserStore::revokeUserTokens does for the
    // same reason).
    Core::Statement &c = tx.stmt("UPDATE oauth_codes SET expires_at = 0 WHERE session_hash = ?1 "
                                 "AND used_at IS NULL AND expires_at > 0");
    if (!c.bind(1, hash).exec())
        return WriteTransaction::sqlError(c, "end the session's codes");
    Core::Statement &s = tx.stmt("DELETE FROM oauth_sessions WHERE hash = ?");
    if (!s.bind(1, hash).exec())
        return WriteTransaction::sqlError(s, "end the session");
    return {};
}

// Sessions past a cap go as a sign-out ends them (endSessionIn): only the row deleted, what
// was issued in them outlived it, and a sign-out in that browser, which ends the session its
// cookie names, found none left to end.
Result<void> endOldestSessions(WriteTransaction &tx, const QString &userId, qint64 excess,
                               qint64 now)
{
    Core::Statement &oldest =
        userId.isEmpty() ? tx.stmt("SELECT hash FROM oauth_sessions ORDER BY expires_at LIMIT ?")
                         : tx.stmt("SELECT hash FROM oauth_sessions WHERE user_id = ? ORDER BY "
                                   "expires_at LIMIT ?");
    if (userId.isEmpty())
        oldest.bind(1, excess);
    else
        oldest.bind(1, userId).bind(2, excess);
    QStringList hashes;
    while (oldest.next())
        hashes.append(oldest.text(0));
    if (!oldest.ok())
        return WriteTransaction::sqlError(oldest, "find the oldest sessions");
    for (const QString &hash : std::as_const(hashes))
        if (auto r = endSessionIn(tx, hash, now, nullptr); !r)
            return r;
    return {};
}

Result<void> insertSession(WriteTransaction &tx, const QString &hash, const QString &userId,
                           qint64 authTime, qint64 expiresAt, qint64 now, int cap, int perUser)
{
    Core::Statement &expired = tx.stmt("DELETE FROM oauth_sessions WHERE expires_at <= ?");
    if (!expired.bind(1, now).exec())
        return WriteTransaction::sqlError(expired, "drop expired sessions");
    // The user's own oldest first, at their cap: then the one below is reached only by many
    // users, not by one signing in again and again from many addresses.
    Core::Statement &mine = tx.stmt("SELECT COUNT(*) FROM oauth_sessions WHERE user_id = ?");
    const qint64 own = count(mine.bind(1, userId));
    if (own < 0)
        return WriteTransaction::sqlError(mine, "count the user's sessions");
    if (own >= perUser)
        if (auto r = endOldestSessions(tx, userId, own - perUser + 1, now); !r)
            return r;
    Core::Statement &n = tx.stmt("SELECT COUNT(*) FROM oauth_sessions");
    const qint64 held = count(n);
    if (held < 0)
        return WriteTransaction::sqlError(n, "count sessions");
    if (held >= cap)
        if (auto r = endOldestSessions(tx, QString(), held - cap + 1, now); !r)
            return r;
    Core::Statement &ins = tx.stmt("INSERT INTO oauth_sessions (hash, user_id, auth_time, "
                                   "expires_at) VALUES (?, ?, ?, ?)");
    ins.bind(1, hash).bind(2, userId).bind(3, authTime).bind(4, expiresAt);
    if (!ins.exec())
        return WriteTransaction::sqlError(ins, "store session");
    return {};
}

// A browser that signs in again (prompt=login, max_age, another user) replaces the session it
// had (`previous`, from its cookie) with `next`: otherwise the old row lived on for its
// lifetime, and a sign-out, which ends the session its cookie names, left what was issued in
// the old one (a cookie kept from before reached it too). The user's own codes, and so the
// tokens they brought, move to the new session; what another user signed in to there ends as
// a sign-out ends it.
Result<void> replaceSession(WriteTransaction &tx, const QString &previous, const QString &next,
                            const QString &userId, qint64 now)
{
    if (previous.isEmpty() || previous == next)
        return {};
    Core::Statement &move =
        tx.stmt("UPDATE oauth_codes SET session_hash = ? WHERE session_hash = ? AND user_id = ?");
    if (!move.bind(1, next).bind(2, previous).bind(3, userId).exec())
        return WriteTransaction::sqlError(move, "move the session's codes");
    return endSessionIn(tx, previous, now, nullptr);
}

// Whether the user may hold a session: they exist, no administrator locked them, and no
// administrator changed them since `updatedAt` (the user as read when their password was
// checked): a lock, a deletion or a new password that committed while the password was being
// checked ends it here.
Result<bool> mayHoldSession(WriteTransaction &tx, const QString &userId, qint64 updatedAt)
{
    Core::Statement &u = tx.stmt("SELECT locked_until, updated_at FROM oauth_users WHERE id = ?");
    if (!u.bind(1, userId).next())
        return u.ok() ? Result<bool>(false)
                      : Result<bool>(WriteTransaction::sqlError(u, "read user"));
    const bool locked = !u.isNull(0) && u.int64(0) >= User::kLockedByAdministrator;
    const bool changed = u.int64(1) != updatedAt;
    u.next(); // done with it
    return !locked && !changed;
}

// Submits a job that answers yes or no (`answer`), and hands that on once it committed.
void submitAnswering(Core::WriteQueue &writer,
                     std::function<Result<void>(WriteTransaction &, bool &answer)> job,
                     std::function<void(Result<bool>)> done)
{
    auto answer = std::make_shared<bool>(false);
    writer.submit([job = std::move(job), answer](WriteTransaction &tx) { return job(tx, *answer); },
                  [done = std::move(done), answer](const Result<void> &r) {
                      if (!r)
                          return done(r.error());
                      done(*answer);
                  });
}

} // namespace

SignInStore::SignInStore(Core::Database &database, Core::WriteQueue &writer)
    : m_database(database), m_writer(writer)
{}

Core::Migration SignInStore::migration()
{
    return {
        19,
        QStringLiteral("oauth: pending sign-ins and browser sessions"),
        {QStringLiteral("CREATE TABLE oauth_interactions (id TEXT PRIMARY KEY, address TEXT NOT "
                        "NULL, cookie_hash TEXT NOT NULL, csrf TEXT NOT NULL, request TEXT NOT "
                        "NULL, user_id TEXT, auth_time INTEGER NOT NULL DEFAULT 0, expires_at "
                        "INTEGER NOT NULL)"),
         QStringLiteral("CREATE INDEX oauth_interactions_address ON "
                        "oauth_interactions(address, expires_at)"),
         QStringLiteral(
             "CREATE INDEX oauth_interactions_expires ON oauth_interactions(expires_at)"),
         QStringLiteral("CREATE INDEX oauth_interactions_user ON oauth_interactions(user_id) "
                        "WHERE user_id IS NOT NULL"),
         QStringLiteral("CREATE TABLE oauth_sessions (hash TEXT PRIMARY KEY, user_id TEXT NOT "
                        "NULL, auth_time INTEGER NOT NULL, expires_at INTEGER NOT NULL)"),
         QStringLiteral("CREATE INDEX oauth_sessions_user ON oauth_sessions(user_id)"),
         QStringLiteral("CREATE INDEX oauth_sessions_expires ON oauth_sessions(expires_at)")}};
}

void SignInStore::create(const Interaction &ia, qint64 now, std::function<void(Result<bool>)> done)
{
    const Limits limits = m_limits;
    const QByteArray request = requestJson(ia.request);
    submitAnswering(
        m_writer,
        [ia, now, limits, request](WriteTransaction &tx, bool &stored) -> Result<void> {
            Core::Statement &expired =
                tx.stmt("DELETE FROM oauth_interactions WHERE expires_at <= ?");
            if (!expired.bind(1, now).exec())
                return WriteTransaction::sqlError(expired, "drop expired sign-ins");
            Core::Statement &mine =
                tx.stmt("SELECT COUNT(*) FROM oauth_interactions WHERE address = ?");
            const qint64 own = count(mine.bind(1, ia.address));
            if (own < 0)
                return WriteTransaction::sqlError(mine, "count sign-ins");
            if (own >= limits.perAddress)
                return {}; // a flood from one address stops at its own cap
            Core::Statement &all = tx.stmt("SELECT COUNT(*) FROM oauth_interactions");
            const qint64 total = count(all);
            if (total < 0)
                return WriteTransaction::sqlError(all, "count sign-ins");
            if (total >= limits.total) {
                // The heaviest address makes room for a lighter one.
                Core::Statement &heaviest =
                    tx.stmt("SELECT address, COUNT(*) AS n FROM oauth_interactions GROUP BY "
                            "address ORDER BY n DESC LIMIT 1");
                if (!heaviest.next())
                    return heaviest.ok() ? Result<void>()
                                         : Result<void>(WriteTransaction::sqlError(
                                               heaviest, "find the heaviest address"));
                if (heaviest.int64(1) <= own)
                    return {};
                const QString address = heaviest.text(0);
                heaviest.next(); // done with it (LIMIT 1) before the table changes
                Core::Statement &evict =
                    tx.stmt("DELETE FROM oauth_interactions WHERE id = (SELECT id FROM "
                            "oauth_interactions WHERE address = ? ORDER BY expires_at LIMIT 1)");
                if (!evict.bind(1, address).exec())
                    return WriteTransaction::sqlError(evict, "evict a sign-in");
            }
            Core::Statement &ins = tx.stmt(
                "INSERT INTO oauth_interactions (id, address, cookie_hash, csrf, request, user_id, "
                "auth_time, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
            ins.bind(1, ia.id).bind(2, ia.address).bind(3, ia.cookieHash).bind(4, ia.csrf);
            ins.bindUtf8(5, request).bindTextOrNull(6, ia.userId).bind(7, ia.authTime);
            if (!ins.bind(8, ia.expiresAt).exec())
                return WriteTransaction::sqlError(ins, "store sign-in");
            stored = true;
            return {};
        },
        std::move(done));
}

int SignInStore::pendingOf(const QString &address, qint64 now)
{
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral(
        "SELECT COUNT(*) FROM oauth_interactions WHERE address = ? AND expires_at > ?"));
    q.addBindValue(address);
    q.addBindValue(now);
    return q.exec() && q.next() ? q.value(0).toInt() : 0; // create() decides when unsure
}

std::optional<Interaction> SignInStore::interaction(const QString &id, const QString &cookieHash,
                                                    qint64 now)
{
    if (id.isEmpty() || cookieHash.isEmpty())
        return std::nullopt;
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT address, cookie_hash, csrf, request, user_id, auth_time, "
                             "expires_at FROM oauth_interactions WHERE id = ? AND expires_at > ?"));
    q.addBindValue(id);
    q.addBindValue(now);
    if (!q.exec() || !q.next() || q.value(1).toString() != cookieHash)
        return std::nullopt;
    Interaction ia;
    ia.id = id;
    ia.address = q.value(0).toString();
    ia.cookieHash = cookieHash;
    ia.csrf = q.value(2).toString();
    ia.request = requestFrom(q.value(3).toString().toUtf8());
    ia.userId = q.value(4).toString();
    ia.authTime = q.value(5).toLongLong();
    ia.expiresAt = q.value(6).toLongLong();
    return ia;
}

void SignInStore::signIn(const QString &id, const QString &userId, qint64 userUpdatedAt, qint64 now,
                         const QString &sessionHash, const QString &replacedHash,
                         qint64 sessionExpiresAt, bool finished,
                         std::function<void(Result<bool>)> done)
{
    const int cap = m_limits.sessions;
    const int perUser = std::max(1, m_limits.sessionsPerUser);
    submitAnswering(
        m_writer,
        [id, userId, userUpdatedAt, now, sessionHash, replacedHash, sessionExpiresAt, finished, cap,
         perUser](WriteTransaction &tx, bool &pending) -> Result<void> {
            // Checked first: a sign-in marked for a locked user would pass the consent page.
            auto may = mayHoldSession(tx, userId, userUpdatedAt);
            if (!may)
                return may.error();
            if (!*may)
                return {};
            Core::Statement &mark = tx.stmt("UPDATE oauth_interactions SET user_id = ?, auth_time "
                                            "= ? WHERE id = ? AND expires_at > ?");
            if (!mark.bind(1, userId).bind(2, now).bind(3, id).bind(4, now).exec())
                return WriteTransaction::sqlError(mark, "mark sign-in");
            if (mark.changes() != 1)
                return {};
            if (finished) {
                Core::Statement &del = tx.stmt("DELETE FROM oauth_interactions WHERE id = ?");
                if (!del.bind(1, id).exec())
                    return WriteTransaction::sqlError(del, "end sign-in");
            }
            if (auto r = replaceSession(tx, replacedHash, sessionHash, userId, now); !r)
                return r;
            if (auto r = insertSession(tx, sessionHash, userId, now, sessionExpiresAt, now, cap,
                                       perUser);
                !r)
                return r;
            pending = true;
            return {};
        },
        std::move(done));
}

void SignInStore::consume(const QString &id, std::function<void(Result<bool>)> done)
{
    submitAnswering(
        m_writer,
        [id](WriteTransaction &tx, bool &removed) -> Result<void> {
            Core::Statement &del = tx.stmt("DELETE FROM oauth_interactions WHERE id = ?");
            if (!del.bind(1, id).exec())
                return WriteTransaction::sqlError(del, "end sign-in");
            removed = del.changes() == 1;
            return {};
        },
        std::move(done));
}

void SignInStore::createSession(const QString &sessionHash, const QString &replacedHash,
                                const QString &userId, qint64 userUpdatedAt, qint64 now,
                                qint64 expiresAt, std::function<void(Result<bool>)> done)
{
    const int cap = m_limits.sessions;
    const int perUser = std::max(1, m_limits.sessionsPerUser);
    submitAnswering(
        m_writer,
        [sessionHash, replacedHash, userId, userUpdatedAt, now, expiresAt, cap,
         perUser](WriteTransaction &tx, bool &stored) -> Result<void> {
            auto may = mayHoldSession(tx, userId, userUpdatedAt);
            if (!may)
                return may.error();
            if (!*may)
                return {};
            if (auto r = replaceSession(tx, replacedHash, sessionHash, userId, now); !r)
                return r;
            if (auto r = insertSession(tx, sessionHash, userId, now, expiresAt, now, cap, perUser);
                !r)
                return r;
            stored = true;
            return {};
        },
        std::move(done));
}

std::optional<BrowserSession> SignInStore::session(const QString &sessionHash, qint64 now)
{
    auto found = lookupSession(sessionHash, now);
    return found ? *found : std::nullopt;
}

Result<std::optional<BrowserSession>> SignInStore::lookupSession(const QString &sessionHash,
                                                                 qint64 now)
{
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return Core::Database::readFailed(db, QString());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT user_id, auth_time, expires_at FROM oauth_sessions WHERE hash "
                             "= ? AND expires_at > ?"));
    q.addBindValue(sessionHash);
    q.addBindValue(now);
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    if (!q.next())
        return std::optional<BrowserSession>();
    return std::optional<BrowserSession>(
        BrowserSession{q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toLongLong()});
}

void SignInStore::endSessions(const QString &userId, std::function<void(Result<void>)> done)
{
    m_writer.submit(
        [userId](WriteTransaction &tx) -> Result<void> {
            Core::Statement &s = tx.stmt("DELETE FROM oauth_sessions WHERE user_id = ?");
            if (!s.bind(1, userId).exec())
                return WriteTransaction::sqlError(s, "end sessions");
            Core::Statement &i = tx.stmt("DELETE FROM oauth_interactions WHERE user_id = ?");
            if (!i.bind(1, userId).exec())
                return WriteTransaction::sqlError(i, "end sign-ins");
            return {};
        },
        std::move(done));
}

void SignInStore::endSession(const QString &sessionHash, qint64 now,
                             std::function<void(Result<int>)> done)
{
    // A consent still pending on it fails when its code would be stored (finish() needs the
    // session then).
    auto revoked = std::make_shared<int>(0);
    m_writer.submit(
        [sessionHash, now, revoked](WriteTransaction &tx) -> Result<void> {
            return endSessionIn(tx, sessionHash, now, revoked.get());
        },
        [revoked, done = std::move(done)](const Result<void> &r) {
            if (!r)
                return done(r.error());
            done(*revoked);
        });
}

} // namespace Gatehouse::OAuth
