#include "oauth/authorizationcodegrant.h"

#include "core/database.h"
#include "core/writequeue.h"
#include "crypto/digest.h"
#include "crypto/random.h"

#include <QRegularExpression>
#include <QSqlQuery>

namespace Gatehouse::OAuth {

namespace {

// RFC 7636 §4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~].
bool verifierSyntaxOk(const QString &v)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9._~-]{43,128}\\z"));
    return re.match(v).hasMatch();
}

QString s256(const QString &verifier)
{
    return QString::fromLatin1(
        Crypto::Digest::sha256(verifier.toLatin1())
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace

GrantResult AuthorizationCodeGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return grantFailed(unauthorizedClient(
            QStringLiteral("authorization_code is not among this client's grant_types")));
    const QString code = req.params.value(QStringLiteral("code"));
    if (code.isEmpty())
        return grantFailed(invalidRequest(QStringLiteral("code is required")));
    const QString codeHash = TokenIssuer::hashToken(code);
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return grantReadFailed(db, nullptr);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT client_id, user_id, redirect_uri, scope, nonce, "
                             "code_challenge, auth_time, expires_at, used_at, "
                             "implied_redirect_uri FROM oauth_codes WHERE hash = ?"));
    q.addBindValue(codeHash);
    if (!q.exec())
        return grantReadFailed(db, &q);
    if (!q.next() || q.value(0).toString() != c.clientId)
        return grantFailed(
            invalidGrant(QStringLiteral("the code is unknown or was issued to another "
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
        return grantFailed(invalidGrant(QStringLiteral("the code has expired")));
    if (!q.value(2).isNull() &&
        req.params.value(QStringLiteral("redirect_uri")) != q.value(2).toString())
        return grantFailed(invalidGrant(
            QStringLiteral("redirect_uri must be the one of the authorization request")));
    // The client as it is now (the code may be up to its lifetime old): a redirect URI an
    // administrator removed takes its codes with it (whether the request named it or not), a
    // scope taken away is not issued.
    const QVariant issuedFor = q.value(2).isNull() ? q.value(9) : q.value(2);
    if (!issuedFor.isNull() && !c.allowsRedirectUri(issuedFor.toString()))
        return grantFailed(invalidGrant(
            QStringLiteral("the code's redirect_uri is no longer registered for this client")));
    const QString challenge = q.value(5).toString();
    const bool hasVerifier = req.params.contains(QStringLiteral("code_verifier"));
    const QString verifier = req.params.value(QStringLiteral("code_verifier"));
    if (!challenge.isEmpty()) {
        if (!hasVerifier)
            return grantFailed(invalidGrant(QStringLiteral("code_verifier is required (PKCE)")));
        if (!verifierSyntaxOk(verifier))
            return grantFailed(invalidGrant(QStringLiteral(
                "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")));
        if (!Crypto::Digest::equalInConstantTime(s256(verifier).toLatin1(), challenge.toLatin1()))
            return grantFailed(invalidGrant(QStringLiteral("code_verifier does not match the "
                                                           "code_challenge")));
    } else if (hasVerifier) {
        return grantFailed(
            invalidGrant(QStringLiteral("code_verifier sent, but the authorization request had no "
                                        "code_challenge")));
    }
    const auto userRead = m_users.lookup(q.value(1).toString());
    if (!userRead) // not read: try again (the grant is not spent), not "no longer exists"
        return grantFailed(
            storageError(userRead.error(), QStringLiteral("the user could not be read")));
    const std::optional<User> &user = *userRead;
    if (!user)
        return grantFailed(invalidGrant(QStringLiteral("the user of this code no longer exists")));
    GrantResult out;
    UserTokenRequest utr;
    utr.client = &c;
    utr.user = &*user;
    utr.scopes = q.value(3).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    utr.scopes.removeIf([&c](const QString &s) { return !c.scopes.contains(s); });
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
        if (auto refused = userRefusal(tx, userId))
            return refused;
        // Still unexpired in this transaction: a consent revocation, password change or group
        // removal that committed since the code was read ends it by its expiry
        // (UserStore::revokeUserTokens), and the tokens signed from the old read must not be
        // stored after it.
        Core::Statement &u = tx.stmt("UPDATE oauth_codes SET used_at = ? WHERE hash = ? AND "
                                     "used_at IS NULL AND expires_at > ?");
        if (!u.bind(1, now).bind(2, codeHash).bind(3, now).exec())
            return serverError(QStringLiteral("the code could not be marked used"));
        if (u.changes() == 1)
            return std::nullopt;
        Core::Statement &used = tx.stmt("SELECT used_at FROM oauth_codes WHERE hash = ?");
        if (!used.bind(1, codeHash).next())
            return invalidGrant(QStringLiteral("the code has expired"));
        const bool neverUsed = used.isNull(0);
        used.next(); // done with it
        if (neverUsed)
            return invalidGrant(QStringLiteral("the code has expired"));
        // Used concurrently by another request: that one wins, and both lose their tokens.
        revokeCodeTokens(tx, codeHash, now);
        return invalidGrant(QStringLiteral("the code was already used; the tokens issued from "
                                           "it are revoked"));
    };
    return out;
}

} // namespace Gatehouse::OAuth
