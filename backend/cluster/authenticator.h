#pragma once

#include "cluster/requestinfo.h"
#include "core/httpmessage.h"

#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>
#include <variant>

namespace Gatehouse::Cluster {

struct AuthenticationResult
{
    enum class Outcome { Authenticated, Anonymous, Unauthorized };
    Outcome outcome = Outcome::Unauthorized;
    UserInfo user;
    QString reason; // how the user was found, or why the request is refused (never a secret)
    // Refused only because the credential could not be checked now (its issuer's records could
    // not be read): a request gets the 401 all the same; an open watch is not ended for it.
    bool unavailable = false;

    bool ok() const { return outcome != Outcome::Unauthorized; }
};

// This API server's audience: what a request's token must be for, and what a TokenReview
// without spec.audiences asks.
inline constexpr char kApiAudience[] = "https://kubernetes.default.svc.cluster.local";

// A token an authenticator knows but could not check now (its issuer's records could not be
// read), and why.
struct TokenUnavailable
{
    QString reason;
};

// A bearer-token authenticator: nullopt when the token is not one it knows, else the user (with
// user.audiences: those of `audiences` the token is for), why the token is refused, or that it
// could not be checked now. `audiences` is never empty: [kApiAudience] for a request, a
// TokenReview's spec.audiences.
using TokenVerdict = std::variant<UserInfo, QString, TokenUnavailable>;
using TokenAuthenticator =
    std::function<std::optional<TokenVerdict>(const QString &token, const QStringList &audiences)>;

// Kubernetes' union of authenticators (reference kube.md §2): x509 client certificates, then
// bearer tokens; a failed credential is a 401 even while anonymous access is on; nothing
// presented is system:anonymous, or a 401 when anonymous access is off.
class Authenticator
{
public:
    void addTokenAuthenticator(QString name, TokenAuthenticator authenticator);
    void setAnonymousEnabled(bool enabled) { m_anonymous.store(enabled); }
    bool anonymousEnabled() const { return m_anonymous.load(); }

    AuthenticationResult authenticate(const Core::PeerIdentity &peer,
                                      const QString &bearerToken) const;
    // Token authenticators only; audiences as TokenReview's spec.audiences (empty: this API
    // server's).
    AuthenticationResult authenticateToken(const QString &token,
                                           const QStringList &audiences = {}) const;

private:
    struct Named
    {
        QString name;
        TokenAuthenticator authenticate;
    };
    QList<Named> m_tokens;
    std::atomic<bool> m_anonymous{true};
};

} // namespace Gatehouse::Cluster
