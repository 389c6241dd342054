#include "oauth/passwordgrant.h"

#include "core/writequeue.h"
#include "crypto/random.h"

namespace Gatehouse::OAuth {

GrantResult PasswordGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return grantFailed(unauthorizedClient(
            QStringLiteral("the password grant is not enabled for this client")));
    const QString username = req.params.value(QStringLiteral("username"));
    const QString password = req.params.value(QStringLiteral("password"));
    if (username.isEmpty() || password.isEmpty())
        return grantFailed(invalidRequest(QStringLiteral("username and password are required")));
    QStringList scopes;
    if (auto e = requestedScopes(c, req.params.value(QStringLiteral("scope")), &scopes))
        return grantFailed(*e);
    const qint64 now = req.now;
    // The login page's limit per address: a token endpoint is no side door for guessing.
    qint64 retryMs = 0;
    if (m_rateLimit && !req.sources && m_rateLimit(req.address, now, &retryMs)) {
        OAuthError e{QStringLiteral("invalid_request"),
                     QStringLiteral("too many sign-in attempts from this address; wait a minute"),
                     429};
        e.retryAfterS = int(std::max<qint64>(1, (retryMs + 999) / 1000));
        return grantFailed(e);
    }
    // Counted before the password is checked (UserStore::signIn).
    const UserStore::Attempt attempt = m_users.signIn(username, password.toUtf8(), now, m_policy);
    if (attempt.outcome == UserStore::Outcome::Unavailable) {
        OAuthError busy{QStringLiteral("temporarily_unavailable"),
                        QStringLiteral("the sign-in could not be checked at the moment; try again"),
                        503};
        busy.retryAfterS = Core::kDatabaseRetryAfterS;
        return grantFailed(busy);
    }
    // Locked after failed sign-ins: the answer to a wrong password (UserStore::signIn).
    if (attempt.outcome == UserStore::Outcome::Locked && attempt.byAdministrator)
        return grantFailed(
            invalidGrant(QStringLiteral("the account is locked by an administrator")));
    if (attempt.outcome == UserStore::Outcome::PasswordEnded)
        return grantFailed(
            invalidGrant(QStringLiteral("the password ended with the admin token that set it: an "
                                        "administrator can reset it")));
    if (attempt.outcome != UserStore::Outcome::Ok)
        return grantFailed(invalidGrant(QStringLiteral("wrong username or password")));
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
    // Locked, deleted or changed (a new password) by an administrator since the password was
    // checked: nothing.
    const QString userId = attempt.user.id;
    const qint64 updatedAt = attempt.user.updatedAt;
    out.consume = [userId, updatedAt](Core::WriteTransaction &tx) {
        return userRefusal(tx, userId, updatedAt);
    };
    return out;
}

} // namespace Gatehouse::OAuth
