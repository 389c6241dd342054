// RFC 7523 §2.1: a JWT from elsewhere as an authorization grant.
#include "oauth/jwtbearergrant.h"
#include "core/clock.h"

#include "oauth/assertions.h"
#include "oauth/trustsettings.h"

namespace Gatehouse::OAuth {

GrantResult JwtBearerGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return grantFailed(unauthorizedClient(
            QStringLiteral("the jwt-bearer grant is not among this client's grant_types")));
    const QByteArray assertion = req.params.value(QStringLiteral("assertion")).toUtf8();
    if (assertion.isEmpty())
        return grantFailed(invalidRequest(QStringLiteral("assertion is required")));
    const QString iss = peekIssuer(assertion);
    const auto trusted = m_trusted.find(iss, req.now); // its trust not ended
    if (!trusted)
        return grantFailed(invalidGrant(QStringLiteral("the assertion's issuer is not trusted")));
    const QString self = m_issuer.issuer();
    auto claims = verifyAssertion(assertion, trusted->jwks, iss, {},
                                  {self, self + QStringLiteral("/oauth2/token")}, req.now);
    if (!claims)
        return grantFailed(invalidGrant(claims.error().message));
    QStringList scopes;
    if (auto e = requestedScopes(c, req.params.value(QStringLiteral("scope")), &scopes))
        return grantFailed(*e);
    // At most what an administrator allows for this issuer, never the client's whole
    // registration.
    if (req.params.contains(QStringLiteral("scope"))) {
        for (const QString &s : std::as_const(scopes))
            if (!trusted->scopes.contains(s))
                return grantFailed(invalidScope(
                    QStringLiteral("scope '%1' is not allowed for assertions of this issuer")
                        .arg(s)));
    } else {
        scopes.removeIf([&trusted](const QString &s) { return !trusted->scopes.contains(s); });
    }
    // Whom it names must be whom the issuer may assert (before the assertion is spent).
    QString sub = claims->value(QStringLiteral("sub")).toString();
    // Not read: refused (fail closed), never taken for "no such user" (whose lock below would
    // not be looked at).
    const auto userRead = m_users.lookup(sub);
    if (!userRead)
        return grantFailed(
            storageError(userRead.error(), QStringLiteral("the user could not be read")));
    const std::optional<User> &user = *userRead;
    const QStringList names = subjectNames(sub, user ? &*user : nullptr);
    if (auto e = subjectRefused(*trusted, sub, user ? &*user : nullptr))
        return grantFailed(*e);
    if (!m_jti.claim(iss, claims->value(QStringLiteral("jti")).toString(), jtiKeptUntilMs(*claims),
                     req.now))
        return grantFailed(invalidGrant(QStringLiteral("this assertion was already used (jti)")));
    if (user && user->lockedByAdministrator())
        return grantFailed(
            invalidGrant(QStringLiteral("the user's account is locked by an administrator")));
    const QJsonObject extra = subjectClaims(user ? &*user : nullptr, &sub, scopes);
    const QString audience = m_issuer.defaultAudience(c, scopes);
    // Another issuer's assertion never becomes a cluster identity (docs/oauth.md).
    if (m_issuer.trust() && m_issuer.trust()->isClusterAudience(audience))
        return grantFailed(unauthorizedClient(
            QStringLiteral("an assertion from another issuer never becomes a token for the cluster "
                           "API's audience")));
    auto token =
        m_issuer.accessToken(c, sub, scopes.join(QLatin1Char(' ')), audience, req.now, extra,
                             nullptr, trusted->expiresAt); // not past the trust in its keys
    if (!token)
        return grantFailed(
            issuingError(token.error().code, token.error().message, token.error().httpStatus));
    token->origin = iss;
    GrantResult out;
    out.response = QJsonObject{{QStringLiteral("access_token"), token->value},
                               {QStringLiteral("token_type"), QStringLiteral("Bearer")},
                               {QStringLiteral("expires_in"), token->expiresIn(req.now)},
                               {QStringLiteral("scope"), token->scope}};
    out.tokens.append(*token);
    // Read before the writer's transaction: the issuer still trusted, and the user (when one of
    // this server's) not deleted, locked or changed by an administrator meanwhile.
    out.consume =
        stillTrusted(iss, user ? user->id : QString(), user ? user->updatedAt : -1, scopes, names);
    return out;
}

} // namespace Gatehouse::OAuth
