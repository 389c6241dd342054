#pragma once

#include "cluster/authenticator.h"
#include "core/result.h"
#include "crypto/privatekey.h"

#include <QJsonObject>
#include <QString>

#include <functional>

namespace Gatehouse::Core {
class Clock;
}

namespace Gatehouse::Cluster {

class ObjectStore;

// kube-apiserver's --oidc-* flags: JWTs from one issuer become users.
struct OidcOptions
{
    QString issuer;
    QString clientId = QStringLiteral("kubernetes"); // a required "aud" entry
    QString usernameClaim = QStringLiteral("sub");
    QString usernamePrefix; // empty: "<issuer>#" unless the claim is email; "-": none
    QString groupsClaim = QStringLiteral("groups");
    QString groupsPrefix;
    // "oidc-group=cluster-group" pairs, read on every token (live): the only way a system:
    // group reaches the cluster from a token.
    std::function<QStringList()> groupMappings;
    // The issuer's own check of a verified token (recorded, not revoked, its client allowed
    // to act for the cluster): a refusal's reason, TokenUnavailable when its records could not
    // be read, or nullopt. It removes from `claims` what the token no longer carries (the
    // claims of a scope an administrator took from its client since it was issued: groups,
    // email, profile).
    std::function<std::optional<std::variant<QString, TokenUnavailable>>(const QString &token,
                                                                         QJsonObject &claims)>
        vet;
};

// The cluster groups of an OIDC token's groups claim: a mapped group becomes its mapping
// (verbatim), any other gets the prefix; a result beginning with system: is dropped (into
// *dropped) unless it came from a mapping (docs/cluster.md, "Bearer tokens").
QStringList oidcClusterGroups(const QStringList &tokenGroups, const QString &prefix,
                              const QStringList &mappings, QStringList *dropped);

// The prefix put in front of the username claim: oidc-username-prefix, "<issuer>#" when
// empty (unless the claim is email), nothing for "-".
QString oidcUsernamePrefix(const OidcOptions &options);

// JWTs whose (unverified) "iss" is options.issuer are this authenticator's: verified against
// jwks() (the issuer's current keys), then exp/nbf (60 s leeway), aud, the issuer's own
// check (options.vet) and the claims.
TokenAuthenticator oidcAuthenticator(OidcOptions options, std::function<QJsonObject()> jwks,
                                     const Core::Clock &clock);

// Service-account tokens: ES256 JWTs this server signs with its own key (pki/sa.key), bound
// to a service account that must still exist with the same uid (TokenRequest).
class ServiceAccountTokens
{
public:
    static constexpr char kIssuer[] = "https://kubernetes.default.svc.cluster.local";

    ServiceAccountTokens(Crypto::PrivateKey key, const ObjectStore &store,
                         const Core::Clock &clock);
    // Loads <dir>/sa.key (0600) or creates it.
    static Result<Crypto::PrivateKey> loadOrCreateKey(const QString &directory);

    // A token for namespace/name (the account's uid) valid for seconds, audiences default to
    // the issuer; bound: the object it is bound to ({"pod": {name, uid}, "node": {...}} or
    // {"node": ...}), whose deletion ends it. notAfterMs (0: none): the end of the credential
    // that asked (UserInfo::credentialsUntilMs), kept in the token as kNotAfterClaim so that
    // a TokenRequest made with it does not outlive that either. Returns {token,
    // expirationTimestamp}.
    Result<QJsonObject> issue(const QString &namespaceName, const QString &name, const QString &uid,
                              qint64 seconds, const QStringList &audiences,
                              const QJsonObject &bound = {}, qint64 notAfterMs = 0) const;
    static constexpr char kNotAfterClaim[] = "gatehouse.io/not-after"; // seconds since the epoch
    TokenAuthenticator authenticator() const;
    QJsonObject jwks() const;

private:
    Crypto::PrivateKey m_key;
    QString m_kid;
    QJsonObject m_jwks;
    const ObjectStore &m_store;
    const Core::Clock &m_clock;
};

} // namespace Gatehouse::Cluster
