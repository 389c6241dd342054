#include "core/database.h"
#include "core/writequeue.h"
#include "crypto/digest.h"
#include "crypto/random.h"
#include "oauth/granthandler.h"
#include "oauth/userstore.h"

#include <QRegularExpression>
#include <QSqlQuery>

namespace Gatehouse::OAuth {

namespace {

OAuthError serverError(const QString &d)
{
    return {QStringLiteral("server_error"), d, 500};
}

// RFC 7636 §4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~].
bool verifierSyntaxOk(const QString &v)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9._~-]{43,128}$"));
    return re.match(v).hasMatch();
}

QString s256(const QString &verifier)
{
    return QString::fromLatin1(
        Crypto::Digest::sha256(verifier.toLatin1())
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool constantTimeEquals(const QString &a, const QString &b)
{
    const QByteArray x = a.toLatin1();
    const QByteArray y = b.toLatin1();
    if (x.size() != y.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < x.size(); ++i)
        diff |= static_cast<unsigned char>(x[i] ^ y[i]);
    return diff == 0;
}

GrantResult failed(const OAuthError &e)
{
    GrantResult r;
    r.error = e;
    return r;
}

// In the transaction that stores the tokens: the user still exists and is not locked (an
// administrator's lock or delete may have committed since the grant was checked).
std::optional<OAuthError> userRefusal(Core::WriteTransaction &tx, const QString &userId, qint64 now)
{
    const QString refused = UserStore::refusal(tx, userId, now);
    if (refused.isEmpty())
        return std::nullopt;
    return invalidGrant(refused);
}

} // namespace

bool revokeFamily(Core::WriteTransaction &tx, const QString &family, qint64 now)
{
    Core::Statement &q =
        tx.stmt("UPDATE oauth_tokens SET revoked_at = ? WHERE family = ? AND revoked_at IS NULL");
    return q.bind(1, now).bind(2, family).exec();
}

bool revokeCodeTokens(Core::WriteTransaction &tx, const QString &codeHash, qint64 now)
{
    Core::Statement &q = tx.stmt(
        "UPDATE oauth_tokens SET revoked_at = ? WHERE code_hash = ? AND revoked_at IS NULL");
    return q.bind(1, now).bind(2, codeHash).exec();
}

void issueUserTokens(const TokenIssuer &issuer, const UserTokenRequest &r, GrantResult *out)
{
    const Client &c = *r.client;
    const QString scope = r.scopes.join(QLatin1Char(' '));
    if (r.sources)
        noteSource(r.sources, QStringLiteral("sub"), QStringLiteral("userAttribute"),
                   QStringLiteral("the id of user \"%1\"").arg(r.user->username));
    auto access =
        issuer.accessToken(c, r.user->id, scope, issuer.defaultAudience(c, r.scopes, r.sources),
                           r.now, scopedUserClaims(*r.user, r.scopes, true, r.sources), r.sources);
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
                                {QStringLiteral("expires_in"), c.accessTokenLifetime},
                                {QStringLiteral("scope"), scope}};
    out->tokens.append(*access);
    if (r.withRefresh && c.grantTypes.contains(QStringLiteral("refresh_token"))) {
        const IssuedToken refresh = issuer.refreshToken(c, *access, r.now);
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

GrantResult AuthorizationCodeGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return failed(unauthorizedClient(
            QStringLiteral("authorization_code is not among this client's grant_types")));
    const QString code = req.params.value(QStringLiteral("code"));
    if (code.isEmpty())
        return failed(invalidRequest(QStringLiteral("code is required")));
    const QString codeHash = TokenIssuer::hashToken(code);
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT client_id, user_id, redirect_uri, scope, nonce, "
                             "code_challenge, auth_time, expires_at, used_at FROM oauth_codes "
                             "WHERE hash = ?"));
    q.addBindValue(codeHash);
    if (!q.exec() || !q.next() || q.value(0).toString() != c.clientId)
        return failed(invalidGrant(QStringLiteral("the code is unknown or was issued to another "
                                                  "client")));
    const qint64 now = req.now;
    if (!q.value(8).isNull()) {
        // RFC 6749 §4.1.2: a code used twice revokes what the first use got; the revocation
        // commits, then the error is answered.
        GrantResult r;
        const OAuthError e =
            invalidGrant(QStringLiteral("the code was already used; the tokens issued from it "
                                        "are revoked"));
        r.consume = [codeHash, now, e](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
            revokeCodeTokens(tx, codeHash, now);
            return e;
        };
        return r;
    }
    if (q.value(7).toLongLong() <= now)
        return failed(invalidGrant(QStringLiteral("the code has expired")));
    if (!q.value(2).isNull() &&
        req.params.value(QStringLiteral("redirect_uri")) != q.value(2).toString())
        return failed(invalidGrant(
            QStringLiteral("redirect_uri must be the one of the authorization request")));
    const QString challenge = q.value(5).toString();
    const bool hasVerifier = req.params.contains(QStringLiteral("code_verifier"));
    const QString verifier = req.params.value(QStringLiteral("code_verifier"));
    if (!challenge.isEmpty()) {
        if (!hasVerifier)
            return failed(invalidGrant(QStringLiteral("code_verifier is required (PKCE)")));
        if (!verifierSyntaxOk(verifier))
            return failed(invalidGrant(QStringLiteral(
                "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")));
        if (!constantTimeEquals(s256(verifier), challenge))
            return failed(invalidGrant(QStringLiteral("code_verifier does not match the "
                                                      "code_challenge")));
    } else if (hasVerifier) {
        return failed(
            invalidGrant(QStringLiteral("code_verifier sent, but the authorization request had no "
                                        "code_challenge")));
    }
    const auto user = m_users.find(q.value(1).toString());
    if (!user)
        return failed(invalidGrant(QStringLiteral("the user of this code no longer exists")));
    GrantResult out;
    UserTokenRequest utr;
    utr.client = &c;
    utr.user = &*user;
    utr.scopes = q.value(3).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    utr.nonce = q.value(4).toString();
    utr.authTime = q.value(6).toLongLong();
    utr.family = Crypto::Random::uuid();
    utr.codeHash = codeHash;
    utr.now = now;
    issueUserTokens(m_issuer, utr, &out);
    if (out.error)
        return out;
    const QString userId = user->id;
    out.consume = [codeHash, now, userId](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
        if (auto refused = userRefusal(tx, userId, now))
            return refused;
        Core::Statement &u =
            tx.stmt("UPDATE oauth_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL");
        if (!u.bind(1, now).bind(2, codeHash).exec())
            return serverError(QStringLiteral("the code could not be marked used"));
        if (u.changes() == 1)
            return std::nullopt;
        // Used concurrently by another request: that one wins, and both lose their tokens.
        revokeCodeTokens(tx, codeHash, now);
        return invalidGrant(QStringLiteral("the code was already used; the tokens issued from "
                                           "it are revoked"));
    };
    return out;
}

GrantResult RefreshTokenGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return failed(unauthorizedClient(
            QStringLiteral("refresh_token is not among this client's grant_types")));
    const QString token = req.params.value(QStringLiteral("refresh_token"));
    if (token.isEmpty())
        return failed(invalidRequest(QStringLiteral("refresh_token is required")));
    const QString hash = TokenIssuer::storageKey(token);
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT kind, client_id, subject, scope, expires_at, revoked_at, "
                             "family, code_hash, auth_time, rotated_at FROM oauth_tokens WHERE "
                             "hash = ?"));
    q.addBindValue(hash);
    if (!q.exec() || !q.next() || q.value(0).toString() != QLatin1String("refresh") ||
        q.value(1).toString() != c.clientId)
        return failed(invalidGrant(
            QStringLiteral("the refresh token is unknown or was issued to another client")));
    const qint64 now = req.now;
    const QString family = q.value(6).toString();
    if (!q.value(9).isNull()) {
        GrantResult r;
        const OAuthError e = invalidGrant(
            QStringLiteral("the refresh token was already used; its family is revoked"));
        r.consume = [family, now, e](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
            revokeFamily(tx, family, now);
            return e;
        };
        return r;
    }
    if (!q.value(5).isNull())
        return failed(invalidGrant(QStringLiteral("the refresh token was revoked")));
    if (q.value(4).toLongLong() <= now)
        return failed(invalidGrant(QStringLiteral("the refresh token has expired")));
    const QStringList granted = q.value(3).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QStringList scopes = granted;
    if (req.params.contains(QStringLiteral("scope"))) {
        scopes =
            req.params.value(QStringLiteral("scope")).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        scopes.removeDuplicates();
        for (const QString &s : std::as_const(scopes))
            if (!granted.contains(s))
                return failed(invalidScope(
                    QStringLiteral("scope '%1' was not granted to this refresh token").arg(s)));
        if (scopes.isEmpty())
            return failed(invalidScope(QStringLiteral("scope must not be empty")));
    }
    const auto user = m_users.find(q.value(2).toString());
    if (!user)
        return failed(invalidGrant(QStringLiteral("the user of this token no longer exists")));
    GrantResult out;
    UserTokenRequest utr;
    utr.client = &c;
    utr.user = &*user;
    utr.scopes = scopes;
    utr.authTime = q.value(8).toLongLong();
    utr.family = family;
    utr.codeHash = q.value(7).toString();
    utr.now = now;
    issueUserTokens(m_issuer, utr, &out);
    if (out.error)
        return out;
    // The new refresh token keeps the scope originally granted (RFC 6749 §6).
    for (IssuedToken &t : out.tokens)
        if (t.kind == QLatin1String("refresh"))
            t.scope = granted.join(QLatin1Char(' '));
    const QString userId = user->id;
    out.consume = [hash, family, now,
                   userId](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
        if (auto refused = userRefusal(tx, userId, now))
            return refused;
        Core::Statement &u = tx.stmt("UPDATE oauth_tokens SET rotated_at = ?, revoked_at = ? "
                                     "WHERE hash = ? AND rotated_at IS NULL AND revoked_at IS "
                                     "NULL");
        if (!u.bind(1, now).bind(2, now).bind(3, hash).exec())
            return serverError(QStringLiteral("the refresh token could not be rotated"));
        if (u.changes() == 1)
            return std::nullopt;
        revokeFamily(tx, family, now);
        return invalidGrant(
            QStringLiteral("the refresh token was already used; its family is revoked"));
    };
    return out;
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

GrantResult PasswordGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return failed(unauthorizedClient(
            QStringLiteral("the password grant is not enabled for this client")));
    const QString username = req.params.value(QStringLiteral("username"));
    const QString password = req.params.value(QStringLiteral("password"));
    if (username.isEmpty() || password.isEmpty())
        return failed(invalidRequest(QStringLiteral("username and password are required")));
    QStringList scopes;
    if (auto e = requestedScopes(c, req.params.value(QStringLiteral("scope")), &scopes))
        return failed(*e);
    const qint64 now = req.now;
    // The login page's limit per address: a token endpoint is no side door for guessing.
    qint64 retryMs = 0;
    if (m_rateLimit && !req.sources && m_rateLimit(req.address, now, &retryMs)) {
        OAuthError e{QStringLiteral("invalid_request"),
                     QStringLiteral("too many sign-in attempts from this address; wait a minute"),
                     429};
        e.retryAfterS = int(std::max<qint64>(1, (retryMs + 999) / 1000));
        return failed(e);
    }
    // Counted before the password is checked (UserStore::signIn).
    const UserStore::Attempt attempt = m_users.signIn(username, password.toUtf8(), now, m_policy);
    if (attempt.outcome == UserStore::Outcome::Locked)
        return failed(invalidGrant(
            attempt.byAdministrator
                ? QStringLiteral("the account is locked by an administrator")
                : QStringLiteral("the account is temporarily locked after repeated failed "
                                 "sign-ins")));
    if (attempt.outcome == UserStore::Outcome::Wrong)
        return failed(invalidGrant(QStringLiteral("wrong username or password")));
    GrantResult out;
    UserTokenRequest utr;
    utr.client = &c;
    utr.user = &attempt.user;
    utr.scopes = scopes;
    utr.authTime = now;
    utr.family = Crypto::Random::uuid();
    utr.now = now;
    issueUserTokens(m_issuer, utr, &out);
    if (out.error)
        return out;
    // Locked (or deleted) by an administrator since the password was checked: nothing.
    const QString userId = attempt.user.id;
    out.consume = [userId, now](Core::WriteTransaction &tx) {
        return userRefusal(tx, userId, now);
    };
    return out;
}

GrantResult DeviceCodeGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return failed(unauthorizedClient(
            QStringLiteral("the device_code grant is not among this client's grant_types")));
    const QString deviceCode = req.params.value(QStringLiteral("device_code"));
    if (deviceCode.isEmpty())
        return failed(invalidRequest(QStringLiteral("device_code is required")));
    const QString hash = TokenIssuer::hashToken(deviceCode);
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT client_id, scope, status, user_id, auth_time, expires_at, "
                             "interval_s, last_poll_at FROM oauth_device_codes WHERE hash = ?"));
    q.addBindValue(hash);
    if (!q.exec() || !q.next() || q.value(0).toString() != c.clientId)
        return failed(invalidGrant(
            QStringLiteral("the device_code is unknown or was issued to another client")));
    const QString status = q.value(2).toString();
    const qint64 now = req.now;
    if (status == QLatin1String("used"))
        return failed(invalidGrant(QStringLiteral("the device_code was already used")));
    if (q.value(5).toLongLong() <= now)
        return failed({QStringLiteral("expired_token"),
                       QStringLiteral("the device_code has expired; start again")});
    if (status == QLatin1String("denied"))
        return failed({QStringLiteral("access_denied"), QStringLiteral("the user denied access")});
    if (status == QLatin1String("pending")) {
        const qint64 interval = q.value(6).toLongLong();
        const bool tooFast =
            !q.value(7).isNull() && now - q.value(7).toLongLong() < interval * 1000;
        const OAuthError e =
            tooFast ? OAuthError{QStringLiteral("slow_down"),
                                 QStringLiteral("polling faster than every %1 s; the interval is "
                                                "now %2 s")
                                     .arg(interval)
                                     .arg(interval + 5)}
                    : OAuthError{QStringLiteral("authorization_pending"),
                                 QStringLiteral("the user has not answered yet")};
        GrantResult r;
        r.consume = [hash, now, tooFast, e](Core::WriteTransaction &tx) {
            Core::Statement &u = tx.stmt(
                "UPDATE oauth_device_codes SET last_poll_at = ?, interval_s = interval_s + ? "
                "WHERE hash = ?");
            u.bind(1, now).bind(2, tooFast ? 5 : 0).bind(3, hash).exec();
            return std::optional<OAuthError>(e);
        };
        return r;
    }
    const auto user = m_users.find(q.value(3).toString());
    if (!user)
        return failed(
            invalidGrant(QStringLiteral("the user of this device_code no longer exists")));
    GrantResult out;
    UserTokenRequest utr;
    utr.client = &c;
    utr.user = &*user;
    utr.scopes = q.value(1).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    utr.authTime = q.value(4).toLongLong();
    utr.family = Crypto::Random::uuid();
    utr.now = now;
    issueUserTokens(m_issuer, utr, &out);
    if (out.error)
        return out;
    const QString userId = user->id;
    out.consume = [hash, now, userId](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
        if (auto refused = userRefusal(tx, userId, now))
            return refused;
        Core::Statement &u = tx.stmt(
            "UPDATE oauth_device_codes SET status = 'used' WHERE hash = ? AND status = 'approved'");
        if (!u.bind(1, hash).exec())
            return serverError(QStringLiteral("the device_code could not be marked used"));
        if (u.changes() != 1)
            return invalidGrant(QStringLiteral("the device_code was already used"));
        return std::nullopt;
    };
    return out;
}

} // namespace Gatehouse::OAuth
