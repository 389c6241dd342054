// What several grants share: scopes, the user grants' tokens, the checks and revocations in
// the writer's transaction.
#include "oauth/granthandler.h"
#include "core/sqlwhere.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/writequeue.h"
#include "oauth/assertions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>

namespace Gatehouse::OAuth {

const GrantHandler *grantHandlerFor(const GrantHandlers &grants, const QString &grantType)
{
    for (const auto &g : grants)
        if (g->grantType() == grantType)
            return g.get();
    return nullptr;
}

GrantResult grantFailed(const OAuthError &e)
{
    GrantResult r;
    r.error = e;
    return r;
}

GrantResult grantReadFailed(const QSqlDatabase &db, const QSqlQuery *q)
{
    const QString failure = q ? q->lastError().text() : QString();
    return grantFailed(storageError(Core::Database::readFailed(db, failure),
                                    QStringLiteral("the grant could not be read")));
}

std::optional<OAuthError> resourceNotTaken(const QHash<QString, QString> &params)
{
    if (!params.contains(QStringLiteral("resource")))
        return std::nullopt;
    return OAuthError{QStringLiteral("invalid_target"),
                      QStringLiteral("resource is taken only by the client_credentials and "
                                     "token exchange grants; a user's token is for the client "
                                     "(or the orders API, for orders scopes)")};
}

std::optional<OAuthError> requestedScopes(const Client &client, const QString &scope,
                                          QStringList *scopes)
{
    *scopes = scope.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    scopes->removeDuplicates();
    for (const QString &s : std::as_const(*scopes))
        if (!client.scopes.contains(s))
            return invalidScope(QStringLiteral("scope '%1' is not allowed for this client").arg(s));
    if (scopes->isEmpty())
        *scopes = client.scopes;
    return std::nullopt;
}

void issueUserTokens(const TokenIssuer &issuer, const UserTokenRequest &r, GrantResult *out)
{
    const Client &c = *r.client;
    const QString scope = r.scopes.join(QLatin1Char(' '));
    if (r.sources)
        noteSource(r.sources, QStringLiteral("sub"), QStringLiteral("userAttribute"),
                   QStringLiteral("the id of user \"%1\"").arg(r.user->username));
    // A password an expiring admin token set ends with it (docs/admin-tokens.md): nothing is
    // issued from a sign-in with it after that (a code, a session, a refresh token), and nothing
    // issued before lasts longer.
    if (r.user->passwordEnded(r.now)) {
        out->error = invalidGrant(
            QStringLiteral("the user's password ended at %1, with the admin token that set it")
                .arg(Core::isoTimeMs(r.user->passwordUntil)));
        return;
    }
    auto access = issuer.accessToken(
        c, r.user->id, scope, issuer.defaultAudience(c, r.scopes, r.sources), r.now,
        scopedUserClaims(*r.user, r.scopes, true, r.sources), r.sources, r.user->passwordUntil);
    if (!access) {
        out->error =
            issuingError(access.error().code, access.error().message, access.error().httpStatus);
        return;
    }
    access->family = r.family;
    access->codeHash = r.codeHash;
    access->authTime = r.authTime;
    out->response = QJsonObject{{QStringLiteral("access_token"), access->value},
                                {QStringLiteral("token_type"), QStringLiteral("Bearer")},
                                {QStringLiteral("expires_in"), access->expiresIn(r.now)},
                                {QStringLiteral("scope"), scope}};
    out->tokens.append(*access);
    // None from a sign-in older than oauth-refresh-max-lifetime (a browser session can be): it
    // would be dead on arrival.
    const bool offline = r.rotation || r.scopes.contains(QStringLiteral("offline_access"));
    if (offline && c.grantTypes.contains(QStringLiteral("refresh_token")) &&
        !issuer.signInTooOld(r.authTime, r.now)) {
        const IssuedToken refresh = issuer.refreshToken(c, *access, r.now, r.user->passwordUntil);
        out->response.insert(QStringLiteral("refresh_token"), refresh.value);
        out->tokens.append(refresh);
    }
    if (r.scopes.contains(QStringLiteral("openid"))) {
        auto id = issuer.idToken(c, *r.user, r.scopes, r.nonce, r.authTime, *access, r.now);
        if (!id) {
            out->error = issuingError(id.error().code, id.error().message, id.error().httpStatus);
            return;
        }
        out->response.insert(QStringLiteral("id_token"), id->value);
        out->tokens.append(*id);
    }
}

std::optional<OAuthError> userRefusal(Core::WriteTransaction &tx, const QString &userId,
                                      qint64 expectedUpdatedAt)
{
    const QString refused = UserStore::refusal(tx, userId, expectedUpdatedAt);
    if (refused.isEmpty())
        return std::nullopt;
    return invalidGrant(refused);
}

std::function<std::optional<OAuthError>(Core::WriteTransaction &)>
stillTrusted(const QString &issuer, const QString &userId, qint64 expectedUpdatedAt,
             const QStringList &scopes, const QStringList &subjectNames)
{
    return [issuer, userId, expectedUpdatedAt, scopes,
            subjectNames](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
        // Locked for share on PostgreSQL: an administrator's narrowing on another instance
        // (which locks the row for update, then revokes the issuer's tokens) waits for this
        // token to be stored, or this read waits for the narrowing; either way the new token
        // is refused or revoked. A plain read under READ COMMITTED let it slip between them.
        Core::Statement &q =
            tx.isPostgres()
                ? tx.stmt("SELECT scopes, subjects, any_subject FROM oauth_trusted_issuers WHERE "
                          "issuer = ? FOR SHARE")
                : tx.stmt("SELECT scopes, subjects, any_subject FROM oauth_trusted_issuers WHERE "
                          "issuer = ?");
        if (!q.bind(1, issuer).next())
            return invalidGrant(QStringLiteral("the issuer is no longer trusted"));
        TrustedIssuer now;
        const QStringList allowed = q.text(0).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const QJsonValue v : QJsonDocument::fromJson(q.text(1).toUtf8()).array())
            now.subjects.append(v.toString());
        now.anySubject = q.int64(2) != 0;
        q.next(); // done with it
        for (const QString &s : scopes)
            if (!allowed.contains(s))
                return invalidScope(
                    QStringLiteral("scope '%1' is no longer allowed for this issuer").arg(s));
        if (!now.mayAssert(subjectNames))
            return invalidGrant(QStringLiteral("the issuer may no longer assert this subject"));
        if (!userId.isEmpty())
            return userRefusal(tx, userId, expectedUpdatedAt);
        return std::nullopt;
    };
}

namespace {

// The client's scopes as its stored record names them, or nullopt when it no longer exists.
std::optional<QStringList> storedClientScopes(Core::WriteTransaction &tx, const QString &clientId)
{
    Core::Statement &q = tx.stmt("SELECT record FROM oauth_clients WHERE client_id = ?");
    if (!q.bind(1, clientId).next())
        return std::nullopt;
    const QStringList allowed = QJsonDocument::fromJson(q.text(0).toUtf8())
                                    .object()
                                    .value(QStringLiteral("scope"))
                                    .toString()
                                    .split(QLatin1Char(' '), Qt::SkipEmptyParts);
    q.next(); // done with it
    return allowed;
}

} // namespace

std::optional<OAuthError> scopesStillAllowed(Core::WriteTransaction &tx, const QString &clientId,
                                             const QStringList &scopes)
{
    const auto allowed = storedClientScopes(tx, clientId);
    if (!allowed)
        return invalidGrant(QStringLiteral("the subject token's client no longer exists"));
    for (const QString &s : scopes)
        if (!allowed->contains(s))
            return invalidScope(QStringLiteral("scope '%1' exceeds what the subject token was "
                                               "granted (less what an administrator took from "
                                               "its client since)")
                                    .arg(s));
    return std::nullopt;
}

std::optional<OAuthError> scopesTakenMeanwhile(Core::WriteTransaction &tx,
                                               const QList<IssuedToken> &tokens)
{
    QHash<QString, std::optional<QStringList>> clients;
    for (const IssuedToken &t : tokens) {
        auto known = clients.find(t.clientId);
        if (known == clients.end())
            known = clients.insert(t.clientId, storedClientScopes(tx, t.clientId));
        if (!*known)
            return invalidGrant(QStringLiteral("the client was deleted while the request was "
                                               "handled"));
        for (const QString &s : t.scope.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            if (!(*known)->contains(s))
                return invalidGrant(QStringLiteral("scope '%1' was taken from the client while "
                                                   "the request was handled; send it again")
                                        .arg(s));
    }
    return std::nullopt;
}

QStringList subjectNames(const QString &sub, const User *user)
{
    // A sub that names a local user (usernames match in any case) is that user, known by its
    // id and stored username only: an entry meant as another issuer's own sub ("Admin") does
    // not let it assert the local user "admin".
    if (user)
        return {user->id, user->username};
    return {sub};
}

std::optional<OAuthError> subjectRefused(const TrustedIssuer &issuer, const QString &sub,
                                         const User *user)
{
    if (issuer.mayAssert(subjectNames(sub, user)))
        return std::nullopt;
    return invalidGrant(QStringLiteral("issuer %1 may not assert the subject '%2' (an "
                                       "administrator lists whom it may assert in its subjects)")
                            .arg(issuer.issuer, sub.left(255)));
}

QJsonObject subjectClaims(const User *user, QString *sub, const QStringList &scopes,
                          ClaimSources *sources)
{
    if (!user)
        return {};
    *sub = user->id;
    return scopedUserClaims(*user, scopes, true, sources);
}

bool revokeFamily(Core::WriteTransaction &tx, const QString &family, qint64 now)
{
    Core::Statement &q =
        tx.stmt("UPDATE oauth_tokens SET revoked_at = ? WHERE family = ? AND revoked_at IS NULL");
    return q.bind(1, now).bind(2, family).exec();
}

bool revokeDescendants(Core::WriteTransaction &tx, const QString &hash, qint64 now)
{
    Core::Statement &q = tx.stmt(
        "WITH RECURSIVE d(h) AS (SELECT hash FROM oauth_tokens WHERE parent = ?1 UNION SELECT "
        "t.hash FROM oauth_tokens t JOIN d ON t.parent = d.h) UPDATE oauth_tokens SET "
        "revoked_at = ?2 WHERE hash IN (SELECT h FROM d) AND revoked_at IS NULL");
    return q.bind(1, hash).bind(2, now).exec();
}

bool revokeClientDescendants(Core::WriteTransaction &tx, const QString &clientId, qint64 now)
{
    Core::Statement &q = tx.stmt(
        "WITH RECURSIVE d(h) AS (SELECT t.hash FROM oauth_tokens t JOIN oauth_tokens s ON "
        "t.parent = s.hash WHERE s.client_id = ?1 AND t.client_id <> ?1 UNION SELECT t.hash "
        "FROM oauth_tokens t JOIN d ON t.parent = d.h) UPDATE oauth_tokens SET revoked_at = ?2 "
        "WHERE hash IN (SELECT h FROM d) AND revoked_at IS NULL");
    return q.bind(1, clientId).bind(2, now).exec();
}

bool revokeClientRefreshTokens(Core::WriteTransaction &tx, const QString &clientId, qint64 now)
{
    Core::Statement &q = tx.stmt("UPDATE oauth_tokens SET revoked_at = ? WHERE client_id = ? AND "
                                 "kind = 'refresh' AND revoked_at IS NULL");
    return q.bind(1, now).bind(2, clientId).exec();
}

bool narrowClientGrants(Core::WriteTransaction &tx, const QString &clientId,
                        const QStringList &removed)
{
    for (const QString &scope : removed) {
        // ' a b c ' holds ' b ': its LIKE pattern with the scope's own wildcards escaped.
        const QString pattern =
            QLatin1String("% ") + Core::likeLiteral(scope) + QLatin1String(" %");
        const QString word = QStringLiteral(" %1 ").arg(scope);
        Core::Statement &tokens = tx.stmt(
            "UPDATE oauth_tokens SET scope = TRIM(REPLACE(' ' || scope || ' ', ?1, ' ')) WHERE "
            "client_id = ?2 AND revoked_at IS NULL AND ' ' || scope || ' ' LIKE ?3 ESCAPE '!'");
        if (!tokens.bind(1, word).bind(2, clientId).bind(3, pattern).exec())
            return false;
        Core::Statement &codes = tx.stmt(
            "UPDATE oauth_codes SET scope = TRIM(REPLACE(' ' || scope || ' ', ?1, ' ')) WHERE "
            "client_id = ?2 AND used_at IS NULL AND ' ' || scope || ' ' LIKE ?3 ESCAPE '!'");
        if (!codes.bind(1, word).bind(2, clientId).bind(3, pattern).exec())
            return false;
        Core::Statement &consents = tx.stmt(
            "UPDATE oauth_consents SET scope = TRIM(REPLACE(' ' || scope || ' ', ?1, ' ')) WHERE "
            "client_id = ?2 AND ' ' || scope || ' ' LIKE ?3 ESCAPE '!'");
        if (!consents.bind(1, word).bind(2, clientId).bind(3, pattern).exec())
            return false;
        // A device code waiting for its user (or approved, not yet redeemed) keeps only what
        // stayed: giving the scope back within its ten minutes does not give it back to it.
        Core::Statement &devices = tx.stmt(
            "UPDATE oauth_device_codes SET scope = TRIM(REPLACE(' ' || scope || ' ', ?1, ' ')) "
            "WHERE client_id = ?2 AND ' ' || scope || ' ' LIKE ?3 ESCAPE '!'");
        if (!devices.bind(1, word).bind(2, clientId).bind(3, pattern).exec())
            return false;
    }
    Core::Statement &empty =
        tx.stmt("DELETE FROM oauth_consents WHERE client_id = ? AND scope = ''");
    return empty.bind(1, clientId).exec();
}

Core::Result<QStringList> tokenChainClients(Core::Database &database, const QString &hash)
{
    const Core::ReadStatement q = database.read(
        "WITH RECURSIVE a(h, p, c) AS (SELECT hash, parent, client_id FROM oauth_tokens WHERE "
        "hash = ? UNION SELECT t.hash, t.parent, t.client_id FROM oauth_tokens t JOIN a ON "
        "t.hash = a.p) SELECT DISTINCT c FROM a");
    q->bind(1, hash);
    QStringList clients;
    while (q->next())
        clients.append(q->text(0));
    if (!q->ok())
        return Core::Database::readFailed(*q);
    return clients;
}

bool revokeCodeTokens(Core::WriteTransaction &tx, const QString &codeHash, qint64 now)
{
    Core::Statement &q = tx.stmt(
        "UPDATE oauth_tokens SET revoked_at = ? WHERE code_hash = ? AND revoked_at IS NULL");
    return q.bind(1, now).bind(2, codeHash).exec();
}

} // namespace Gatehouse::OAuth
