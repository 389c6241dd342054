#pragma once

#include "core/result.h"
#include "oauth/clientregistry.h"

#include <QJsonObject>
#include <QMap>

namespace Gatehouse::Core {
class WriteTransaction;
}

namespace Gatehouse::OAuth {

class SigningKeys;

struct User;

struct IssuedToken
{
    QString value;                           // the token, shown to the client only
    QString hash;                            // what is stored
    QString kind = QStringLiteral("access"); // access | refresh
    QString format;                          // jwt | opaque
    QString clientId;
    QString subject;
    QString scope;
    QString audience;
    qint64 issuedAt = 0; // ms
    qint64 expiresAt = 0;
    QString family;      // tokens descended from one authorization code
    QString codeHash;    // the code they came from
    qint64 authTime = 0; // ms; when the user logged in (0: no user)
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
QJsonObject scopedUserClaims(const User &user, const QStringList &scopes, bool accessToken,
                             ClaimSources *sources = nullptr);

// Access tokens: RFC 9068 JWTs (typ at+jwt, signed with the active key) or opaque values of
// 256 random bits. Either way only the SHA-256 hash is stored.
class TokenIssuer
{
public:
    TokenIssuer(SigningKeys &keys, QString issuer);
    const QString &issuer() const { return m_issuer; }
    // sources, when given, receives where iss, exp, iat, jti and client_id came from; the
    // caller notes sub, aud, scope and its extra claims.
    Core::Result<IssuedToken> accessToken(const Client &client, const QString &subject,
                                          const QString &scope, const QString &audience, qint64 now,
                                          const QJsonObject &extraClaims = {},
                                          ClaimSources *sources = nullptr) const;
    // Opaque, 256 bits, rotated on use (docs/oauth.md).
    IssuedToken refreshToken(const Client &client, const IssuedToken &access, qint64 now) const;
    // OIDC Core §2: signed with the active key; at_hash of accessToken.
    Core::Result<QString> idToken(const Client &client, const User &user, const QStringList &scopes,
                                  const QString &nonce, qint64 authTime, const QString &accessToken,
                                  qint64 now) const;
    static QString hashToken(const QString &token);
    static Core::Result<void> store(Core::WriteTransaction &tx, const IssuedToken &t);

    void setRefreshLifetimeMs(qint64 ms) { m_refreshLifetimeMs = ms; }

private:
    Core::Result<QString> sign(const QJsonObject &claims, const char *typ,
                               const QString &alg) const;
    SigningKeys &m_keys;
    QString m_issuer;
    qint64 m_refreshLifetimeMs = 14LL * 24 * 3600 * 1000;
};

} // namespace Gatehouse::OAuth
