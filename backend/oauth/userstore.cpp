#include "oauth/userstore.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/text.h"
#include "core/writequeue.h"
#include "crypto/password.h"
#include "crypto/random.h"
#include "oauth/oauthstore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

#include <algorithm>

namespace Gatehouse::OAuth {

namespace {

constexpr const char *kColumns = "id, username, email, email_verified, name, groups, "
                                 "failed_logins, locked_until, created_at, updated_at, "
                                 "password_until";

Core::Error invalid(const QString &message)
{
    return Core::Error{QStringLiteral("validation-failed"), message, 400};
}

Core::Error notFound(const QString &idOrName)
{
    return Core::Error{QStringLiteral("user-not-found"), QStringLiteral("no user %1").arg(idOrName),
                       404};
}

User fromQuery(const QSqlQuery &q)
{
    User u;
    u.id = q.value(0).toString();
    u.username = q.value(1).toString();
    u.email = q.value(2).toString();
    u.emailVerified = q.value(3).toBool();
    u.name = q.value(4).toString();
    for (const auto &g : QJsonDocument::fromJson(q.value(5).toByteArray()).array())
        u.groups.append(g.toString());
    u.failedLogins = q.value(6).toInt();
    u.lockedUntil = q.value(7).toLongLong();
    u.createdAt = q.value(8).toLongLong();
    u.updatedAt = q.value(9).toLongLong();
    u.passwordUntil = q.value(10).toLongLong();
    return u;
}

QString selectByKey()
{
    return QStringLiteral("SELECT %1 FROM oauth_users WHERE id = ? OR username = ?")
        .arg(QLatin1String(kColumns));
}

// The same in a write that stores the user as read (update, lock, password): on PostgreSQL the
// row stays locked until the transaction ends, so that another instance's change committed
// meanwhile (a group taken away) is seen here or waits for this one, never written back over.
// (SQLite's one writer runs them one after the other.)
QString selectByKeyToChange(const Core::WriteTransaction &tx)
{
    return tx.isPostgres() ? selectByKey() + QStringLiteral(" FOR UPDATE") : selectByKey();
}

std::optional<User> findIn(QSqlQuery &q, const QString &idOrName)
{
    q.addBindValue(idOrName);
    q.addBindValue(idOrName);
    if (q.exec() && q.next())
        return fromQuery(q);
    return std::nullopt;
}

QString groupsJson(const QStringList &groups)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(groups)).toJson(QJsonDocument::Compact));
}

} // namespace

QJsonObject User::toJson(qint64 now) const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("username"), username},
        {QStringLiteral("email"), email},
        {QStringLiteral("email_verified"), emailVerified},
        {QStringLiteral("name"), name},
        {QStringLiteral("groups"), QJsonArray::fromStringList(groups)},
        {QStringLiteral("createdAt"), Core::isoTimeMs(createdAt)},
        {QStringLiteral("locked"), locked(now)},
        // Consecutive failed sign-ins (the answers do not tell a user or a guesser:
        // docs/oauth.md); a lock that has run out starts the count afresh.
        {QStringLiteral("failedSignIns"), lockedUntil != 0 && !locked(now) ? 0 : failedLogins}};
    if (locked(now))
        o.insert(QStringLiteral("lockedUntil"), Core::isoTimeMs(lockedUntil));
    if (passwordUntil > 0)
        o.insert(QStringLiteral("passwordEndsAt"), Core::isoTimeMs(passwordUntil));
    return o;
}

Core::Result<UserInput> UserInput::fromJson(const QJsonObject &o, bool create)
{
    static const QStringList known{QStringLiteral("username"), QStringLiteral("password"),
                                   QStringLiteral("email"),    QStringLiteral("email_verified"),
                                   QStringLiteral("name"),     QStringLiteral("groups")};
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            return invalid(QStringLiteral("unknown field '%1'").arg(it.key()));
    UserInput in;
    static const QRegularExpression usernameRe(QStringLiteral("^[A-Za-z0-9._@-]{1,64}\\z"));
    if (o.contains(QStringLiteral("username"))) {
        const QJsonValue v = o.value(QStringLiteral("username"));
        if (!v.isString() || !usernameRe.match(v.toString()).hasMatch())
            return invalid(
                QStringLiteral("username: 1 to 64 characters of A-Z a-z 0-9 . _ @ - required"));
        // Users are found by id or username (a token's subject is the id): a username that
        // is a UUID could be taken for another user's id.
        if (!QUuid::fromString(v.toString()).isNull())
            return invalid(QStringLiteral("username: may not be a UUID (user ids are)"));
        in.username = v.toString();
    } else if (create) {
        return invalid(QStringLiteral("username is required"));
    }
    if (o.contains(QStringLiteral("password"))) {
        const QJsonValue v = o.value(QStringLiteral("password"));
        const QByteArray p = v.toString().toUtf8();
        if (!v.isString() || p.size() < 8 || p.size() > 1024)
            return invalid(QStringLiteral("password: a string of 8 to 1024 bytes required"));
        in.password = p;
    } else if (create) {
        return invalid(QStringLiteral("password is required"));
    }
    auto optionalString = [&o](const char *key, std::optional<QString> *out,
                               qsizetype max) -> std::optional<Core::Error> {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return std::nullopt;
        if (!(v.isString() || v.isNull()) || v.toString().size() > max)
            return invalid(QStringLiteral("%1: a string of at most %2 characters required")
                               .arg(QLatin1String(key))
                               .arg(max));
        // Shown to people and put into tokens (name; email): no control or bidi characters,
        // no lone surrogates.
        if (const QString problem = Core::textProblem(v.toString(), true); !problem.isEmpty())
            return invalid(QStringLiteral("%1 %2").arg(QLatin1String(key), problem));
        *out = v.toString();
        return std::nullopt;
    };
    if (auto e = optionalString("email", &in.email, 254))
        return *e;
    if (in.email && !in.email->isEmpty() &&
        (!in.email->contains(QLatin1Char('@')) || in.email->contains(QLatin1Char(' '))))
        return invalid(QStringLiteral("email: an address like name@example.com required"));
    if (auto e = optionalString("name", &in.name, 200))
        return *e;
    if (o.contains(QStringLiteral("email_verified"))) {
        if (!o.value(QStringLiteral("email_verified")).isBool())
            return invalid(QStringLiteral("email_verified: true or false required"));
        in.emailVerified = o.value(QStringLiteral("email_verified")).toBool();
    }
    if (o.contains(QStringLiteral("groups"))) {
        const QJsonValue v = o.value(QStringLiteral("groups"));
        if (!v.isArray())
            return invalid(QStringLiteral("groups: an array of strings required"));
        QStringList groups;
        for (const auto &g : v.toArray()) {
            if (!g.isString() || g.toString().isEmpty() || g.toString().size() > 200)
                return invalid(QStringLiteral("groups: an array of non-empty strings required"));
            // In id_tokens and the cluster's RBAC: "ops" followed by U+202E reads as "ops".
            if (const QString problem = Core::textProblem(g.toString(), true); !problem.isEmpty())
                return invalid(QStringLiteral("groups: each group ") + problem);
            groups.append(g.toString());
        }
        groups.removeDuplicates();
        in.groups = groups;
    }
    return in;
}

UserStore::UserStore(Core::Database &database, Core::WriteQueue &writer, const Core::Clock &clock,
                     Crypto::Password::Parameters hashing)
    : m_database(database), m_writer(writer), m_clock(clock), m_hashing(hashing)
{}

qint64 UserStore::nowMs() const
{
    return m_clock.now().toMSecsSinceEpoch();
}

QString UserStore::passwordEndedMessage()
{
    return QStringLiteral("This password ended with the admin token that set it: ask an "
                          "administrator to reset it.");
}

void UserStore::create(const UserInput &input, std::function<void(Core::Result<User>)> done)
{
    auto hash = Crypto::Password::hash(input.password.value_or(QByteArray()), m_hashing);
    if (!hash)
        return done(hash.error());
    const qint64 now = nowMs();
    auto user = std::make_shared<User>();
    user->id = Crypto::Random::uuid();
    user->username = input.username.value_or(QString());
    user->email = input.email.value_or(QString());
    user->emailVerified = input.emailVerified.value_or(false);
    user->name = input.name.value_or(QString());
    user->groups = input.groups.value_or(QStringList());
    user->createdAt = now;
    user->updatedAt = now;
    user->passwordUntil = input.passwordUntil;
    const QString passwordHash = *hash;
    m_writer.submit(
        [user, passwordHash, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            QSqlQuery &dup =
                tx.query(QStringLiteral("SELECT 1 FROM oauth_users WHERE username = ?"));
            dup.addBindValue(user->username);
            if (dup.exec() && dup.next())
                return Core::Error{QStringLiteral("duplicate-username"),
                                   QStringLiteral("a user named '%1' exists").arg(user->username),
                                   409};
            QSqlQuery &q = tx.query(QStringLiteral(
                "INSERT INTO oauth_users (id, username, password_hash, email, email_verified, "
                "name, groups, created_at, updated_at, password_until) VALUES (?, ?, ?, ?, ?, ?, "
                "?, ?, ?, ?)"));
            for (const QVariant &v :
                 {QVariant(user->id), QVariant(user->username), QVariant(passwordHash),
                  QVariant(user->email), QVariant(user->emailVerified ? 1 : 0),
                  QVariant(user->name), QVariant(groupsJson(user->groups)), QVariant(now),
                  QVariant(now),
                  user->passwordUntil > 0 ? QVariant(user->passwordUntil) : QVariant()})
                q.addBindValue(v);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "insert user");
            return {};
        },
        [user, done = std::move(done)](const Core::Result<void> &r) {
            if (!r)
                return done(r.error());
            done(*user);
        });
}

void UserStore::update(const QString &idOrName, const UserInput &input,
                       std::function<void(Core::Result<User>)> done)
{
    QString passwordHash;
    if (input.password) {
        auto hash = Crypto::Password::hash(*input.password, m_hashing);
        if (!hash)
            return done(hash.error());
        passwordHash = *hash;
    }
    auto user = std::make_shared<User>();
    const qint64 now = nowMs();
    m_writer.submit(
        [user, idOrName, input, passwordHash,
         now](Core::WriteTransaction &tx) -> Core::Result<void> {
            auto found = findIn(tx.query(selectByKeyToChange(tx)), idOrName);
            if (!found)
                return notFound(idOrName);
            User &u = *found;
            if (input.username && input.username->compare(u.username, Qt::CaseInsensitive)) {
                QSqlQuery &dup = tx.query(
                    QStringLiteral("SELECT 1 FROM oauth_users WHERE username = ? AND id <> ?"));
                dup.addBindValue(*input.username);
                dup.addBindValue(u.id);
                if (dup.exec() && dup.next())
                    return Core::Error{
                        QStringLiteral("duplicate-username"),
                        QStringLiteral("a user named '%1' exists").arg(*input.username), 409};
            }
            const User before = u;
            u.username = input.username.value_or(u.username);
            u.email = input.email.value_or(u.email);
            u.emailVerified = input.emailVerified.value_or(u.emailVerified);
            u.name = input.name.value_or(u.name);
            u.groups = input.groups.value_or(u.groups);
            // The tokens issued so far carry the old identity as claims (preferred_username,
            // email, email_verified, name, groups), and the cluster takes the user's name and
            // groups from the token (oidc-username-claim may read any of the names): a removed
            // group or another name ends them, as a new password does.
            const bool identityChanged =
                u.username != before.username || u.email != before.email || u.name != before.name ||
                u.emailVerified != before.emailVerified ||
                std::any_of(before.groups.cbegin(), before.groups.cend(),
                            [&u](const QString &g) { return !u.groups.contains(g); });
            QSqlQuery &q = tx.query(QStringLiteral(
                "UPDATE oauth_users SET username = ?, email = ?, email_verified = ?, name = ?, "
                "groups = ?, password_hash = COALESCE(?, password_hash), password_until = CASE "
                "WHEN ? = 1 THEN ? ELSE password_until END, updated_at = CASE WHEN ? > updated_at "
                "THEN ? ELSE updated_at + 1 END WHERE id = ?"));
            // updated_at always moves (two changes within a millisecond too): grants compare it
            // (UserStore::refusal).
            for (const QVariant &v :
                 {QVariant(u.username), QVariant(u.email), QVariant(u.emailVerified ? 1 : 0),
                  QVariant(u.name), QVariant(groupsJson(u.groups)),
                  passwordHash.isEmpty() ? QVariant() : QVariant(passwordHash),
                  QVariant(passwordHash.isEmpty() ? 0 : 1),
                  input.passwordUntil > 0 ? QVariant(input.passwordUntil) : QVariant(),
                  QVariant(now), QVariant(now), QVariant(u.id)})
                q.addBindValue(v);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "update user");
            // A new password ends what the old one got (refresh tokens and their families), and
            // the browser sessions with it, in this transaction: a device approval or a code
            // from a session read before would otherwise be stored after it.
            if (!passwordHash.isEmpty() || identityChanged) {
                if (auto r = revokeUserTokens(tx, u.id, now); !r)
                    return r;
                if (auto r = endUserSessions(tx, u.id); !r)
                    return r;
            }
            if (!passwordHash.isEmpty())
                u.passwordUntil = input.passwordUntil;
            *user = u;
            return {};
        },
        [user, done = std::move(done)](const Core::Result<void> &r) {
            if (!r)
                return done(r.error());
            done(*user);
        });
}

void UserStore::remove(const QString &idOrName, std::function<void(Core::Result<QString>)> done)
{
    auto removed = std::make_shared<QString>();
    const qint64 now = nowMs();
    m_writer.submit(
        [idOrName, removed, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            auto found = findIn(tx.query(selectByKeyToChange(tx)), idOrName);
            if (!found)
                return notFound(idOrName);
            *removed = found->id;
            for (const char *sql : {"DELETE FROM oauth_users WHERE id = ?",
                                    "DELETE FROM oauth_consents WHERE user_id = ?"}) {
                QSqlQuery &q = tx.query(QLatin1String(sql));
                q.addBindValue(found->id);
                if (!q.exec())
                    return Core::WriteTransaction::sqlError(q, "delete user");
            }
            // As a lock does: its tokens, codes not yet redeemed, approved device codes, its
            // browser sessions and sign-ins under way (no row of a deleted user is left for a
            // later user to inherit).
            if (auto r = revokeUserTokens(tx, found->id, now); !r)
                return r;
            return endUserSessions(tx, found->id);
        },
        [removed, done = std::move(done)](const Core::Result<void> &r) {
            if (!r)
                return done(r.error());
            done(*removed);
        });
}

Core::Result<void> UserStore::revokeUserTokens(Core::WriteTransaction &tx, const QString &userId,
                                               qint64 now, const QString &clientId, int *ended)
{
    // The partial subject index (subject <> client_id) finds a user's tokens.
    // For one client: its tokens, and those other clients got by exchanging them (same family).
    const QString client = clientId.isNull() ? QString(QLatin1String("")) : clientId;
    if (ended) { // the live ones (expired ones are revoked too, but ended nothing)
        Core::Statement &live = tx.stmt(
            "SELECT COUNT(*) FROM oauth_tokens WHERE subject = ?2 AND subject <> client_id AND "
            "revoked_at IS NULL AND expires_at > ?1 AND (?3 = '' OR client_id = ?3 OR family IN "
            "(SELECT family FROM oauth_tokens WHERE subject = ?2 AND subject <> client_id AND "
            "client_id = ?3 AND family IS NOT NULL))");
        if (!live.bind(1, now).bind(2, userId).bind(3, client).next())
            return Core::WriteTransaction::sqlError(live, "count user tokens");
        *ended = int(live.int64(0));
        live.next(); // done with it
    }
    Core::Statement &q = tx.stmt(
        "UPDATE oauth_tokens SET revoked_at = ?1 WHERE subject = ?2 AND subject <> client_id AND "
        "revoked_at IS NULL AND (?3 = '' OR client_id = ?3 OR family IN (SELECT family FROM "
        "oauth_tokens WHERE subject = ?2 AND subject <> client_id AND client_id = ?3 AND family "
        "IS NOT NULL))");
    q.bind(1, now).bind(2, userId).bind(3, client);
    if (!q.exec())
        return Core::WriteTransaction::sqlError(q, "revoke user tokens");
    // And what is still on its way to becoming a token: unredeemed codes expire (at 0, not
    // now: a redemption read before this commits checks the expiry against its own earlier
    // time in the transaction that stores its tokens), approved device codes are denied.
    Core::Statement &codes = tx.stmt("UPDATE oauth_codes SET expires_at = 0 WHERE user_id = ?2 AND "
                                     "used_at IS NULL AND expires_at > ?1 AND (?3 = '' OR "
                                     "client_id = ?3)");
    if (!codes.bind(1, now).bind(2, userId).bind(3, client).exec())
        return Core::WriteTransaction::sqlError(codes, "expire user codes");
    if (ended)
        *ended += codes.changes();
    Core::Statement &devices =
        tx.stmt("UPDATE oauth_device_codes SET status = 'denied' WHERE user_id = ?1 AND status = "
                "'approved' AND (?2 = '' OR client_id = ?2)");
    if (!devices.bind(1, userId).bind(2, client).exec())
        return Core::WriteTransaction::sqlError(devices, "deny user device codes");
    if (ended)
        *ended += devices.changes();
    return {};
}

Core::Result<void> UserStore::endUserSessions(Core::WriteTransaction &tx, const QString &userId)
{
    Core::Statement &s = tx.stmt("DELETE FROM oauth_sessions WHERE user_id = ?");
    if (!s.bind(1, userId).exec())
        return Core::WriteTransaction::sqlError(s, "end sessions");
    Core::Statement &i = tx.stmt("DELETE FROM oauth_interactions WHERE user_id = ?");
    if (!i.bind(1, userId).exec())
        return Core::WriteTransaction::sqlError(i, "end sign-ins");
    return {};
}

QString UserStore::refusal(Core::WriteTransaction &tx, const QString &userId,
                           qint64 expectedUpdatedAt)
{
    Core::Statement &q = tx.stmt("SELECT locked_until, updated_at FROM oauth_users WHERE id = ?");
    q.bind(1, userId);
    if (!q.next())
        return QStringLiteral("the user no longer exists");
    // Only an administrator's lock: a lock after failed sign-ins guards the password, and
    // must not let whoever types wrong passwords for a name cut its tokens off.
    if (!q.isNull(0) && q.int64(0) >= User::kLockedByAdministrator)
        return QStringLiteral("the user's account is locked by an administrator");
    // Changed while the grant was deciding (a password checked against the old hash, claims
    // read before a group was taken away): what the change revoked would otherwise be issued
    // after it.
    if (expectedUpdatedAt >= 0 && q.int64(1) != expectedUpdatedAt)
        return QStringLiteral("the user's account changed while signing in; sign in again");
    return {};
}

void UserStore::lock(const QString &idOrName, std::function<void(Core::Result<User>)> done)
{
    auto user = std::make_shared<User>();
    const qint64 now = nowMs();
    m_writer.submit(
        [user, idOrName, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            auto found = findIn(tx.query(selectByKeyToChange(tx)), idOrName);
            if (!found)
                return notFound(idOrName);
            // Until an administrator unlocks it (year 9999). The count starts afresh: it now
            // counts the guesses against the lock (UserStore::signIn); locking again does not
            // restart it.
            constexpr qint64 kForever = User::kLockedByAdministrator;
            QSqlQuery &q = tx.query(
                QStringLiteral("UPDATE oauth_users SET failed_logins = CASE WHEN locked_until >= ? "
                               "THEN failed_logins ELSE 0 END, locked_until = ? WHERE id = ?"));
            q.addBindValue(kForever);
            q.addBindValue(kForever);
            q.addBindValue(found->id);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "lock user");
            if (auto r = revokeUserTokens(tx, found->id, now); !r)
                return r;
            if (auto r = endUserSessions(tx, found->id); !r)
                return r;
            if (!found->lockedByAdministrator())
                found->failedLogins = 0;
            *user = *found;
            user->lockedUntil = kForever;
            return {};
        },
        [user, done = std::move(done)](const Core::Result<void> &r) {
            if (!r)
                return done(r.error());
            done(*user);
        });
}

void UserStore::unlock(const QString &idOrName, std::function<void(Core::Result<User>)> done)
{
    auto user = std::make_shared<User>();
    m_writer.submit(
        [user, idOrName](Core::WriteTransaction &tx) -> Core::Result<void> {
            auto found = findIn(tx.query(selectByKeyToChange(tx)), idOrName);
            if (!found)
                return notFound(idOrName);
            QSqlQuery &q = tx.query(QStringLiteral(
                "UPDATE oauth_users SET failed_logins = 0, locked_until = NULL WHERE id = ?"));
            q.addBindValue(found->id);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "unlock user");
            *user = *found;
            user->failedLogins = 0;
            user->lockedUntil = 0;
            return {};
        },
        [user, done = std::move(done)](const Core::Result<void> &r) {
            if (!r)
                return done(r.error());
            done(*user);
        });
}

std::optional<User> UserStore::find(const QString &idOrName) const
{
    QSqlQuery q(m_database.connection());
    q.prepare(selectByKey());
    return findIn(q, idOrName);
}

namespace {
// The user `sql` selects with `key` bound `binds` times; a read that failed is an error.
Core::Result<std::optional<User>> readUser(const QSqlDatabase &db, const QString &sql,
                                           const QString &key, int binds)
{
    if (!db.isOpen())
        return Core::Database::readFailed(db, QString());
    QSqlQuery q(db);
    q.prepare(sql);
    for (int i = 0; i < binds; ++i)
        q.addBindValue(key);
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    if (!q.next())
        return std::optional<User>();
    return std::optional<User>(fromQuery(q));
}
} // namespace

Core::Result<std::optional<User>> UserStore::lookup(const QString &idOrName) const
{
    return readUser(m_database.connection(), selectByKey(), idOrName, 2);
}

Core::Result<std::optional<User>> UserStore::lookupById(const QString &id) const
{
    return readUser(
        m_database.connection(),
        QStringLiteral("SELECT %1 FROM oauth_users WHERE id = ?").arg(QLatin1String(kColumns)), id,
        1);
}

std::optional<User> UserStore::findById(const QString &id) const
{
    QSqlQuery q(m_database.connection());
    q.prepare(
        QStringLiteral("SELECT %1 FROM oauth_users WHERE id = ?").arg(QLatin1String(kColumns)));
    q.addBindValue(id);
    if (q.exec() && q.next())
        return fromQuery(q);
    return std::nullopt;
}

Core::Result<QList<User>> UserStore::all() const
{
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return Core::Database::readFailed(db, QString());
    QList<User> out;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT %1 FROM oauth_users ORDER BY username")
                    .arg(QLatin1String(kColumns))))
        return Core::Database::readFailed(db, q.lastError().text());
    while (q.next())
        out.append(fromQuery(q));
    return out;
}

QList<QJsonObject> UserStore::consents(const QString &userId, const QString &clientId) const
{
    QList<QJsonObject> out;
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT c.user_id, u.username, c.client_id, c.scope, c.granted_at "
                             "FROM oauth_consents c LEFT JOIN oauth_users u ON u.id = c.user_id "
                             "WHERE (? = '' OR c.user_id = ?) AND (? = '' OR c.client_id = ?) "
                             "ORDER BY c.granted_at"));
    for (const QString &v : {userId, userId, clientId, clientId})
        q.addBindValue(v.isNull() ? QString(QLatin1String("")) : v);
    if (q.exec())
        while (q.next())
            out.append(QJsonObject{
                {QStringLiteral("userId"), q.value(0).toString()},
                {QStringLiteral("username"), q.value(1).toString()},
                {QStringLiteral("clientId"), q.value(2).toString()},
                {QStringLiteral("scope"), q.value(3).toString()},
                {QStringLiteral("grantedAt"), Core::isoTimeMs(q.value(4).toLongLong())}});
    return out;
}

void UserStore::revokeConsent(const QString &userId, const QString &clientId,
                              std::function<void(Core::Result<void>)> done)
{
    const qint64 now = nowMs();
    m_writer.submit(
        [userId, clientId, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            Core::Statement &del =
                tx.stmt("DELETE FROM oauth_consents WHERE user_id = ? AND client_id = ?");
            if (!del.bind(1, userId).bind(2, clientId).exec())
                return Core::WriteTransaction::sqlError(del, "revoke consent");
            const int consents = del.changes();
            // What the consent let the client obtain goes with it: its refresh tokens, the
            // access tokens and id_tokens issued beside them. Also where no consent is stored:
            // a device the user allowed (RFC 8628) or a password grant leaves none, and this is
            // how an administrator ends one client's access to one user.
            int ended = 0;
            if (auto r = revokeUserTokens(tx, userId, now, clientId, &ended); !r)
                return r;
            if (consents == 0 && ended == 0)
                return Core::Error{QStringLiteral("consent-not-found"),
                                   QStringLiteral("user %1 has no consent and no tokens for "
                                                  "client %2")
                                       .arg(userId, clientId),
                                   404};
            return {};
        },
        std::move(done));
}

UserStore::Attempt UserStore::signIn(const QString &username, const QByteArray &password,
                                     qint64 now, const LockoutPolicy &policy)
{
    // 1. Count first (in the writer, so attempts are serialized): locked, or one more failure
    //    reserved for this attempt.
    struct Reserved
    {
        bool known = false;
        bool locked = false;
        bool judged = false; // an administrator's lock: the password may tell the lock
        User user;
        QString passwordHash;
    };
    auto reserved = std::make_shared<Reserved>();
    const auto counted = m_writer.run([reserved, username, now,
                                       policy](Core::WriteTransaction &tx) -> Core::Result<void> {
        QSqlQuery &q =
            tx.query(QStringLiteral("SELECT %1, password_hash FROM oauth_users WHERE username = ?")
                         .arg(QLatin1String(kColumns)));
        q.addBindValue(username);
        if (!q.exec())
            return Core::WriteTransaction::sqlError(q, "find user");
        if (!q.next())
            return {};
        reserved->known = true;
        reserved->user = fromQuery(q);
        reserved->passwordHash = q.value(11).toString();
        if (reserved->user.locked(now)) {
            reserved->locked = true;
            // Whoever types the right password is told of an administrator's lock, but only
            // within the lockout threshold of attempts (counted here, reset by unlock): else
            // the lock's own answer would let anyone guess on without limit.
            if (reserved->user.lockedByAdministrator() &&
                reserved->user.failedLogins < policy.threshold) {
                reserved->judged = true;
                Core::Statement &c = tx.stmt(
                    "UPDATE oauth_users SET failed_logins = failed_logins + 1 WHERE id = ?");
                if (!c.bind(1, reserved->user.id).exec())
                    return Core::WriteTransaction::sqlError(c, "count sign-in");
            }
            return {};
        }
        // A lock that has run out starts the count afresh.
        Core::Statement &u = tx.stmt(
            "UPDATE oauth_users SET failed_logins = CASE WHEN locked_until IS NOT NULL AND "
            "locked_until <= ?1 THEN 1 ELSE failed_logins + 1 END, locked_until = CASE WHEN "
            "locked_until IS NOT NULL AND locked_until <= ?1 THEN NULL WHEN failed_logins + 1 >= "
            "?2 THEN ?3 ELSE locked_until END WHERE id = ?4");
        u.bind(1, now).bind(2, policy.threshold).bind(3, now + policy.durationMs);
        if (!u.bind(4, reserved->user.id).exec())
            return Core::WriteTransaction::sqlError(u, "count sign-in");
        return {};
    });
    Attempt a;
    if (!counted) { // not counted (no database, shutting down): no sign-in, and not "wrong"
        a.outcome = Outcome::Unavailable;
        return a;
    }
    if (reserved->locked) {
        // Verified like any other attempt, so that the time of the answer does not tell a
        // locked account from an unknown name or a wrong password. An administrator's lock is
        // told only to whoever gives the right password; a lock after failed sign-ins is not
        // judged by it (guessing on through the lock would learn nothing), and the sign-in
        // pages answer it as they answer a wrong password.
        const bool right = Crypto::Password::verify(reserved->passwordHash, password);
        a.userId = reserved->user.id;
        a.locked = true;
        if (reserved->user.lockedByAdministrator() && !(right && reserved->judged))
            return a; // Wrong
        a.outcome = Outcome::Locked;
        a.byAdministrator = reserved->user.lockedByAdministrator();
        return a;
    }
    // 2. Verify; an unknown user costs what a known one's hash at the current cost does. (A
    // hash made with another cost, before password-hash-memory or -iterations changed, costs
    // its own until the user's next sign-in makes it again: docs/oauth.md.)
    if (!reserved->known) {
        std::call_once(m_dummyOnce, [this] {
            if (auto h = Crypto::Password::hash(Crypto::Random::bytes(16), m_hashing))
                m_dummyHash = *h;
        });
        Crypto::Password::verify(m_dummyHash, password);
        return a;
    }
    a.userId = reserved->user.id;
    if (!Crypto::Password::verify(reserved->passwordHash, password))
        return a; // counted already
    // 3. A success clears the count (and a lock this very attempt's reservation set). A hash
    // made with another cost (password-hash-memory, -iterations changed since) is made again
    // with the current one, unless the password changed meanwhile: a sign-in of a user with an
    // older hash then costs what an unknown name's does.
    const QString id = reserved->user.id;
    QString rehashed;
    if (!Crypto::Password::madeWith(reserved->passwordHash, m_hashing))
        if (auto h = Crypto::Password::hash(password, m_hashing))
            rehashed = *h;
    const QString old = reserved->passwordHash;
    m_writer.submit([id](Core::WriteTransaction &tx) -> Core::Result<void> {
        Core::Statement &u =
            tx.stmt("UPDATE oauth_users SET failed_logins = 0, locked_until = NULL WHERE id = ? "
                    "AND (locked_until IS NULL OR locked_until < 253402300799000)");
        if (!u.bind(1, id).exec())
            return Core::WriteTransaction::sqlError(u, "record sign-in");
        return {};
    });
    if (!rehashed.isEmpty()) // a job of its own: if it fails, the sign-in still counts
        m_writer.submit([id, rehashed, old](Core::WriteTransaction &tx) -> Core::Result<void> {
            Core::Statement &h = tx.stmt("UPDATE oauth_users SET password_hash = ? WHERE id = ? "
                                         "AND password_hash = ?");
            if (!h.bind(1, rehashed).bind(2, id).bind(3, old).exec())
                return Core::WriteTransaction::sqlError(h, "store the password hash again");
            return {};
        });
    // The right password, which an expiring admin token set: it ended with that token.
    if (reserved->user.passwordEnded(now)) {
        a.outcome = Outcome::PasswordEnded;
        return a;
    }
    a.outcome = Outcome::Ok;
    a.user = reserved->user;
    a.user.failedLogins = 0;
    a.user.lockedUntil = 0;
    return a;
}

void UserStore::authenticate(const QString &username, const QByteArray &password, qint64 now,
                             const LockoutPolicy &policy, const std::function<void(Attempt)> &done)
{
    done(signIn(username, password, now, policy));
}

} // namespace Gatehouse::OAuth
