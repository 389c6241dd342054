#pragma once

#include "core/result.h"
#include "oauth/clientregistry.h"

#include <QJsonObject>
#include <QMap>

#include <optional>

namespace Gatehouse::Core {
class WriteTransaction;
}

namespace Gatehouse::OAuth {

class SigningKeys;
class TrustSettings;

struct User;

struct IssuedToken
{
    QString value;                           // the token, shown to the client only
    QString hash;                            // what is stored: storageKey(value)
    QString kind = QStringLiteral("access"); // access | refresh | id
    QString format;                          // jwt | opaque
    QString clientId;
    QString subject;
    QString scope;
    QString audience;
    qint64 issuedAt = 0; // ms
    qint64 expiresAt = 0;
    // Seconds left at `now`, rounded up (expires_in).
    qint64 expiresIn(qint64 now) const { return (expiresAt - now + 999) / 1000; }
    QString family;      // tokens descended from one authorization code
    QString codeHash;    // the code they came from
    qint64 authTime = 0; // ms; when the user logged in (0: no user)
    // The other issuer whose assertion or token this one came from (a jwt-bearer grant, an
    // exchange of a trusted issuer's token, or any exchange descending from one); empty: this
    // server's own. Such a token never leads into the cluster API (docs/oauth.md).
    QString origin;
    QString parent; // the stored key of the subject token it was exchanged from
    // The chain of delegation of an exchanged token (its `act` claim, RFC 8693 §4.1) as compact
    // JSON; empty: nobody acts for the subject. Stored so that an opaque token shows it too:
    // introspection answers it, and exchanging the token again keeps it.
    QByteArray act;
};

// Where a claim of an issued token came from, for the token preview (issue 8): `source` is
// one of server, clientRecord, request, requestedScope, userAttribute, group, subjectToken,
// actorToken, exchangePolicy, time, random; `detail` says which field or value.
struct ClaimSource
{
    QString source;
    QString detail;
};
using ClaimSources = QMap<QString, ClaimSource>;
inline void noteSource(ClaimSources *sources, const QString &claim, const QString &source,
                       const QString &detail)
{
    if (sources)
        sources->insert(claim, ClaimSource{source, detail});
}

// Claims about a user that the scopes grant (OIDC Core §5.4): email, email_verified
// (email), name, preferred_username (profile), groups (groups). Access tokens carry only
// email, email_verified and groups.
// Removes from `claims` the user claims that scopedUserClaims() adds for a scope not among
// `scopesInForce` (email: email, email_verified; profile: name, preferred_username; groups:
// groups): what a token carries by a scope an administrator took from its client since.
void removeClaimsOfScopesTaken(QJsonObject &claims, const QStringList &scopesInForce);
QJsonObject scopedUserClaims(const User &user, const QStringList &scopes, bool accessToken,
                             ClaimSources *sources = nullptr);

// Access tokens: RFC 9068 JWTs (typ at+jwt, signed with the active key) or opaque values of
// 256 random bits. Either way only the SHA-256 hash is stored, behind the issue time.
//
// Stored tokens are found by storageKey(value): "<issue time>.<SHA-256 of the value>", the
// time as 12 lowercase hex digits of ms since the epoch, read from the value itself (an
// opaque value is "<time>.<256 random bits>", a JWT's jti is "<time>.<128 random bits>").
// The keys of new tokens therefore grow with time, and a commit of many tokens appends to
// one page of the key's index instead of writing a random page per token (docs/oauth.md,
// "Stored tokens"). A value without the time (a token of an older build) keys by its hash
// alone, as it was stored.
class TokenIssuer
{
public:
    TokenIssuer(SigningKeys &keys, QString issuer);
    const QString &issuer() const { return m_issuer; }
    // sources, when given, receives where iss, exp, iat, jti and client_id came from; the
    // caller notes sub, aud, scope and its extra claims.
    // notAfter (ms, when not 0): the token expires then at the latest (an exchanged token never
    // outlives its subject token).
    Core::Result<IssuedToken> accessToken(const Client &client, const QString &subject,
                                          const QString &scope, const QString &audience, qint64 now,
                                          const QJsonObject &extraClaims = {},
                                          ClaimSources *sources = nullptr,
                                          qint64 notAfter = 0) const;
    // Opaque, 256 bits, rotated on use (docs/oauth.md).
    // notAfter (ms, when not 0): it expires then at the latest (a password's end).
    IssuedToken refreshToken(const Client &client, const IssuedToken &access, qint64 now,
                             qint64 notAfter = 0) const;
    // OIDC Core §2: signed with the active key; at_hash of access. Recorded like the access
    // token (kind "id", its family, code and scope), so that token exchange can tell whether
    // the grant behind an id_token is still alive; its jti is time-ordered like an access
    // token's.
    Core::Result<IssuedToken> idToken(const Client &client, const User &user,
                                      const QStringList &scopes, const QString &nonce,
                                      qint64 authTime, const IssuedToken &access, qint64 now) const;
    static QString hashToken(const QString &token);
    // The key of a presented access or refresh token in oauth_tokens (above).
    static QString storageKey(const QString &token);
    // "<12 hex digits of ms since the epoch>.<random>": an opaque value or a jti.
    static QString timeOrderedValue(qint64 nowMs, int randomBytes);
    // The shortest prefix of a storage key that names one token in events: the time and
    // 8 characters of the hash.
    static QString keyPrefix(const QString &key);
    static Core::Result<void> store(Core::WriteTransaction &tx, const IssuedToken &t);

    void setRefreshLifetimeMs(qint64 ms) { m_refreshLifetimeMs = ms; }
    // No refresh token outlives its user's sign-in (authTime) by more than this, however
    // often it was rotated (oauth-refresh-max-lifetime; 0: no limit).
    void setRefreshMaxLifetimeMs(qint64 ms) { m_refreshMaxLifetimeMs = ms; }
    qint64 refreshMaxLifetimeMs() const { return m_refreshMaxLifetimeMs; }
    // Whether a refresh token from a sign-in at authTime (ms; 0: none) may no longer be used.
    bool signInTooOld(qint64 authTime, qint64 now) const
    {
        return m_refreshMaxLifetimeMs > 0 && authTime > 0 &&
               authTime + m_refreshMaxLifetimeMs <= now;
    }
    // The cluster's audience: accessToken and idToken refuse it (unauthorized_client, 400) for
    // a client without cluster access, whichever grant asked (fail closed in one place).
    void setTrust(const TrustSettings *trust) { m_trust = trust; }
    // The refusal for a token with this audience issued to this client, if any.
    std::optional<Core::Error> audienceRefusal(const Client &client, const QString &audience) const;
    // The audience of an access token for which no resource was requested (RFC 9068 §3: a
    // default resource): the orders API's resource indicator when the scopes include an
    // orders scope (so that the orders API, which checks aud, accepts it), else the client's
    // own id. sources, when given, receives where aud came from.
    QString defaultAudience(const Client &client, const QStringList &scopes,
                            ClaimSources *sources = nullptr) const;
    const TrustSettings *trust() const { return m_trust; }
    // A resource (RFC 8707) the client may name for a token of its own (client_credentials):
    // the orders API's for a client holding an orders scope, else one of its allowed_resources.
    // Token exchange applies it to the client's own token too (tokenexchangegrant.cpp).
    bool mayRequestResource(const Client &client, const QString &resource) const;

private:
    Core::Result<QString> sign(const QJsonObject &claims, const char *typ,
                               const QString &alg) const;
    // The same for claims already serialized (compact JSON).
    Core::Result<QString> signPayload(const QByteArray &payload, const char *typ,
                                      const QString &alg) const;
    SigningKeys &m_keys;
    QString m_issuer;
    const TrustSettings *m_trust = nullptr;
    qint64 m_refreshLifetimeMs = 14LL * 24 * 3600 * 1000;
    qint64 m_refreshMaxLifetimeMs = 90LL * 24 * 3600 * 1000;
};

} // namespace Gatehouse::OAuth
