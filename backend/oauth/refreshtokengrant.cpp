#include "oauth/refreshtokengrant.h"

#include "core/database.h"
#include "core/writequeue.h"

#include <QSqlQuery>

namespace Gatehouse::OAuth {

GrantResult RefreshTokenGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return grantFailed(unauthorizedClient(
            QStringLiteral("refresh_token is not among this client's grant_types")));
    const QString token = req.params.value(QStringLiteral("refresh_token"));
    if (token.isEmpty())
        return grantFailed(invalidRequest(QStringLiteral("refresh_token is required")));
    const QString hash = TokenIssuer::storageKey(token);
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return grantReadFailed(db, nullptr);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT kind, client_id, subject, scope, expires_at, revoked_at, "
                             "family, code_hash, auth_time, rotated_at FROM oauth_tokens WHERE "
                             "hash = ?"));
    q.addBindValue(hash);
    if (!q.exec())
        return grantReadFailed(db, &q);
    if (!q.next() || q.value(0).toString() != QLatin1String("refresh") ||
        q.value(1).toString() != c.clientId)
        return grantFailed(invalidGrant(
            QStringLiteral("the refresh token is unknown or was issued to another client")));
    const qint64 now = req.now;
    const QString family = q.value(6).toString();
    if (!q.value(9).isNull()) {
        GrantResult r;
        const OAuthError e = invalidGrant(
            QStringLiteral("the refresh token was already used; its family is revoked"));
        r.consume = [family, now, e](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
            if (!revokeFamily(tx, family, now))
                return serverError(QStringLiteral("the refresh token's family could not be "
                                                  "revoked"));
            return e;
        };
        return r;
    }
    // A refresh token is offline access (issued only for offline_access): a client that an
    // administrator took it from keeps no family alive. Said before "revoked": taking it
    // revoked the client's refresh tokens as well, for good (giving it back brings none back).
    if (!c.scopes.contains(QStringLiteral("offline_access")))
        return grantFailed(
            invalidGrant(QStringLiteral("offline_access is no longer among this client's scopes")));
    if (!q.value(5).isNull())
        return grantFailed(invalidGrant(QStringLiteral("the refresh token was revoked")));
    if (q.value(4).toLongLong() <= now)
        return grantFailed(invalidGrant(QStringLiteral("the refresh token has expired")));
    // Issued before oauth-refresh-max-lifetime was lowered: the limit holds for it too.
    if (m_issuer.signInTooOld(q.value(8).toLongLong(), now))
        return grantFailed(invalidGrant(QStringLiteral(
            "the sign-in of this refresh token is older than the server allows; sign in again")));
    // What was granted, within what the client may still have: an administrator who takes a
    // scope from a client takes it from the client's refresh tokens too (the seed: a request
    // outside the client record is rejected).
    QStringList granted = q.value(3).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const bool grantedAny = !granted.isEmpty();
    granted.removeIf([&c](const QString &s) { return !c.scopes.contains(s); });
    QStringList scopes = granted;
    if (req.params.contains(QStringLiteral("scope"))) {
        scopes =
            req.params.value(QStringLiteral("scope")).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        scopes.removeDuplicates();
        for (const QString &s : std::as_const(scopes)) {
            if (!c.scopes.contains(s))
                return grantFailed(invalidScope(
                    QStringLiteral("scope '%1' is not allowed for this client").arg(s)));
            if (!granted.contains(s))
                return grantFailed(invalidScope(
                    QStringLiteral("scope '%1' was not granted to this refresh token").arg(s)));
        }
    }
    if (scopes.isEmpty() && (grantedAny || req.params.contains(QStringLiteral("scope"))))
        return grantFailed(invalidScope(
            req.params.contains(QStringLiteral("scope"))
                ? QStringLiteral("scope must not be empty")
                : QStringLiteral("none of the scopes granted to this refresh token is still "
                                 "allowed for this client")));
    const auto userRead = m_users.lookup(q.value(2).toString());
    if (!userRead) // not read: try again (the grant is not spent), not "no longer exists"
        return grantFailed(
            storageError(userRead.error(), QStringLiteral("the user could not be read")));
    const std::optional<User> &user = *userRead;
    if (!user)
        return grantFailed(invalidGrant(QStringLiteral("the user of this token no longer exists")));
    GrantResult out;
    UserTokenRequest utr;
    utr.client = &c;
    utr.user = &*user;
    utr.scopes = scopes;
    utr.authTime = q.value(8).toLongLong();
    utr.family = family;
    utr.codeHash = q.value(7).toString();
    utr.now = now;
    utr.rotation = true;
    issueUserTokens(m_issuer, utr, &out);
    if (out.error)
        return out;
    // The new refresh token keeps the scope granted (RFC 6749 §6), less what the client lost.
    for (IssuedToken &t : out.tokens)
        if (t.kind == QLatin1String("refresh"))
            t.scope = granted.join(QLatin1Char(' '));
    const QString userId = user->id;
    out.consume = [hash, family, now,
                   userId](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
        if (auto refused = userRefusal(tx, userId))
            return refused;
        Core::Statement &u = tx.stmt("UPDATE oauth_tokens SET rotated_at = ?, revoked_at = ? "
                                     "WHERE hash = ? AND rotated_at IS NULL AND revoked_at IS "
                                     "NULL");
        if (!u.bind(1, now).bind(2, now).bind(3, hash).exec())
            return serverError(QStringLiteral("the refresh token could not be rotated"));
        if (u.changes() == 1)
            return std::nullopt;
        if (!revokeFamily(tx, family, now))
            return serverError(QStringLiteral("the refresh token's family could not be revoked"));
        return invalidGrant(
            QStringLiteral("the refresh token was already used; its family is revoked"));
    };
    return out;
}

} // namespace Gatehouse::OAuth
