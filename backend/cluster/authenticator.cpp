#include "cluster/authenticator.h"

namespace Gatehouse::Cluster {

void Authenticator::addTokenAuthenticator(QString name, TokenAuthenticator authenticator)
{
    m_tokens.append(Named{std::move(name), std::move(authenticator)});
}

AuthenticationResult Authenticator::authenticateToken(const QString &token,
                                                      const QStringList &audiences) const
{
    AuthenticationResult r;
    QStringList errors;
    const QStringList wanted =
        audiences.isEmpty() ? QStringList{QString::fromLatin1(kApiAudience)} : audiences;
    for (const Named &t : m_tokens) {
        std::optional<TokenVerdict> got = t.authenticate(token, wanted);
        if (!got)
            continue;
        if (const auto *unavailable = std::get_if<TokenUnavailable>(&*got)) {
            r.unavailable = true;
            errors.append(unavailable->reason);
            continue;
        }
        if (auto *user = std::get_if<UserInfo>(&*got)) {
            r.outcome = AuthenticationResult::Outcome::Authenticated;
            r.unavailable = false;
            r.user = *user;
            r.user.authenticator = t.name;
            addAuthenticatedGroup(r.user);
            r.reason = QStringLiteral("bearer token accepted by the %1 authenticator").arg(t.name);
            if (!r.user.droppedGroups.isEmpty())
                r.reason += QStringLiteral("; token groups dropped (a system: group reaches the "
                                           "cluster only through an oidc-group-mappings "
                                           "entry): %1")
                                .arg(r.user.droppedGroups.join(QStringLiteral(", ")));
            return r;
        }
        errors.append(std::get<QString>(*got));
    }
    r.reason = errors.isEmpty() ? QStringLiteral("the bearer token is not one this server knows")
                                : errors.join(QStringLiteral("; "));
    return r;
}

AuthenticationResult Authenticator::authenticate(const Core::PeerIdentity &peer,
                                                 const QString &bearerToken) const
{
    AuthenticationResult r;
    QStringList errors;
    if (peer.state == Core::PeerIdentity::State::Verified && !peer.commonName.isEmpty()) {
        r.outcome = AuthenticationResult::Outcome::Authenticated;
        r.user.name = peer.commonName;
        r.user.groups = peer.organizations;
        r.user.authenticator = QStringLiteral("x509");
        r.user.credentialsUntilMs = peer.notAfterMs;
        addAuthenticatedGroup(r.user);
        r.reason = QStringLiteral("client certificate verified by the cluster CA");
        return r;
    }
    if (peer.state == Core::PeerIdentity::State::Invalid)
        errors.append(QStringLiteral("client certificate rejected: ") + peer.invalidReason);
    if (!bearerToken.isEmpty()) {
        AuthenticationResult t = authenticateToken(bearerToken);
        if (t.ok())
            return t;
        r.unavailable = t.unavailable;
        errors.append(t.reason);
    }
    if (!errors.isEmpty()) {
        r.reason = errors.join(QStringLiteral("; "));
        return r;
    }
    if (!m_anonymous.load()) {
        r.reason = QStringLiteral("no credentials presented and anonymous access is off");
        return r;
    }
    r.outcome = AuthenticationResult::Outcome::Anonymous;
    r.user.name = QLatin1String(kAnonymousUser);
    r.user.groups = {QLatin1String(kUnauthenticatedGroup)};
    r.user.authenticator = QStringLiteral("anonymous");
    r.reason = QStringLiteral("no credentials presented; anonymous access is on");
    return r;
}

} // namespace Gatehouse::Cluster
