#pragma once

#include "oauth/clientregistry.h"
#include "oauth/oautherror.h"
#include "oauth/tokenissuer.h"
#include "oauth/userstore.h"

#include <QHash>
#include <QJsonObject>

#include <functional>
#include <optional>

namespace Gatehouse::Core {
class Database;
class WriteTransaction;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

struct TokenRequest
{
    QHash<QString, QString> params;  // the form, each parameter once
    Client client;                   // authenticated (or identified, for public clients)
    qint64 now = 0;                  // ms
    ClaimSources *sources = nullptr; // the token preview: where each claim came from
    QString address;                 // the client's address (rate limits)
};

// Sign-in attempts per client address: true (and the wait) when over the limit. The login
// page's limiter, shared with the password grant.
using LoginRateLimit =
    std::function<bool(const QString &address, qint64 now, qint64 *retryAfterMs)>;

struct GrantResult
{
    std::optional<OAuthError> error;
    QJsonObject response;      // the token response (RFC 6749 §5.1)
    QByteArray responseBody;   // or it already serialized (client_credentials builds only this)
    QList<IssuedToken> tokens; // to store before answering
    // Runs first in the writer's transaction (e.g. marks a code used). An error it returns
    // is answered instead and the tokens are not stored, but its own writes (revoking a
    // replayed code's tokens) are committed.
    std::function<std::optional<OAuthError>(Core::WriteTransaction &)> consume;
};

// One per grant type (ORY fosite's shape): the token endpoint knows no grant itself.
class GrantHandler
{
public:
    virtual ~GrantHandler() = default;
    virtual QString grantType() const = 0;
    virtual GrantResult handle(const TokenRequest &request) const = 0;
};

// RFC 6749 §4.4: a confidential client on its own behalf.
class ClientCredentialsGrant final : public GrantHandler
{
public:
    explicit ClientCredentialsGrant(const TokenIssuer &issuer) : m_issuer(issuer) {}
    QString grantType() const override { return QStringLiteral("client_credentials"); }
    GrantResult handle(const TokenRequest &request) const override;

private:
    const TokenIssuer &m_issuer;
};

inline OAuthError invalidGrant(const QString &d)
{
    return {QStringLiteral("invalid_grant"), d};
}

// RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.6): single use; a replayed code revokes every token
// issued from it.
class AuthorizationCodeGrant final : public GrantHandler
{
public:
    AuthorizationCodeGrant(const TokenIssuer &issuer, Core::Database &database,
                           const UserStore &users)
        : m_issuer(issuer), m_database(database), m_users(users)
    {}
    QString grantType() const override { return QStringLiteral("authorization_code"); }
    GrantResult handle(const TokenRequest &request) const override;

private:
    const TokenIssuer &m_issuer;
    Core::Database &m_database;
    const UserStore &m_users;
};

// RFC 6749 §6 with rotation: a used refresh token presented again revokes its family.
class RefreshTokenGrant final : public GrantHandler
{
public:
    RefreshTokenGrant(const TokenIssuer &issuer, Core::Database &database, const UserStore &users)
        : m_issuer(issuer), m_database(database), m_users(users)
    {}
    QString grantType() const override { return QStringLiteral("refresh_token"); }
    GrantResult handle(const TokenRequest &request) const override;

private:
    const TokenIssuer &m_issuer;
    Core::Database &m_database;
    const UserStore &m_users;
};

// RFC 6749 §4.3, only for clients registered with it (obsolete in OAuth 2.1). The same
// per-address rate limit and account lockout as the login page (counted before the password
// is checked, so parallel guesses cannot pass the threshold).
class PasswordGrant final : public GrantHandler
{
public:
    PasswordGrant(const TokenIssuer &issuer, UserStore &users, LockoutPolicy policy,
                  LoginRateLimit rateLimit)
        : m_issuer(issuer), m_users(users), m_policy(policy), m_rateLimit(std::move(rateLimit))
    {}
    QString grantType() const override { return QStringLiteral("password"); }
    GrantResult handle(const TokenRequest &request) const override;

private:
    const TokenIssuer &m_issuer;
    UserStore &m_users;
    LockoutPolicy m_policy;
    LoginRateLimit m_rateLimit;
};

// RFC 8628 §3.4–3.5: polls answer authorization_pending, slow_down (polling faster than the
// interval, which then grows by 5 s), access_denied, expired_token; an approved code gives
// tokens once.
class DeviceCodeGrant final : public GrantHandler
{
public:
    DeviceCodeGrant(const TokenIssuer &issuer, Core::Database &database, const UserStore &users)
        : m_issuer(issuer), m_database(database), m_users(users)
    {}
    QString grantType() const override
    {
        return QStringLiteral("urn:ietf:params:oauth:grant-type:device_code");
    }
    GrantResult handle(const TokenRequest &request) const override;

private:
    const TokenIssuer &m_issuer;
    Core::Database &m_database;
    const UserStore &m_users;
};

class TrustedIssuers;
class JtiCache;
class SigningKeys;
class TrustSettings;

// RFC 7523 §2.1: a JWT from a trusted issuer (signature, iss, sub, aud, exp, jti; a replayed
// jti is refused) becomes an access token for its subject, with at most the scopes an
// administrator set for that issuer.
class JwtBearerGrant final : public GrantHandler
{
public:
    JwtBearerGrant(const TokenIssuer &issuer, const TrustedIssuers &trusted, JtiCache &jti,
                   const UserStore &users)
        : m_issuer(issuer), m_trusted(trusted), m_jti(jti), m_users(users)
    {}
    QString grantType() const override
    {
        return QStringLiteral("urn:ietf:params:oauth:grant-type:jwt-bearer");
    }
    GrantResult handle(const TokenRequest &request) const override;

private:
    const TokenIssuer &m_issuer;
    const TrustedIssuers &m_trusted;
    JtiCache &m_jti;
    const UserStore &m_users;
};

// RFC 8693: a subject token (and optionally an actor token) of type access_token, jwt or
// id_token, from this server or a trusted issuer, exchanged for an access token for an
// audience the client's record allows (token_exchange_audiences); `act` for delegation.
// The result never carries more than the subject token was granted while that grant is still
// alive (docs/oauth.md, "Trust boundaries"): this server's tokens are looked up (not revoked,
// not expired; an id_token's recorded grant, for the client it was issued to), their `typ`
// must match the type named; a trusted issuer's token is bounded by the scopes an
// administrator set for that issuer. The cluster's audience needs a client with cluster
// access and a subject token issued for the cluster.
class TokenExchangeGrant final : public GrantHandler
{
public:
    TokenExchangeGrant(const TokenIssuer &issuer, const TrustedIssuers &trusted,
                       const SigningKeys &keys, Core::Database &database, const UserStore &users,
                       const ClientRegistry &clients, const TrustSettings &trust)
        : m_issuer(issuer), m_trusted(trusted), m_keys(keys), m_database(database), m_users(users),
          m_clients(clients), m_trust(trust)
    {}
    QString grantType() const override
    {
        return QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange");
    }
    GrantResult handle(const TokenRequest &request) const override;

private:
    struct Subject
    {
        QString sub;
        QString iss;
        QStringList scopes; // what the subject token was granted: the exchange's bound
        bool local = false; // issued by this server (then the fields below are known)
        QString clientId;   // the client it was issued to
        QString audience;
        QString hash;   // its storage key
        QString family; // the grant it came from: an exchanged token shares its fate
        QString codeHash;
        qint64 expiresAt = 0;
    };
    std::optional<OAuthError> resolve(const QString &token, const QString &type,
                                      const Client &client, qint64 now, Subject *out) const;

    const TokenIssuer &m_issuer;
    const TrustedIssuers &m_trusted;
    const SigningKeys &m_keys;
    Core::Database &m_database;
    const UserStore &m_users;
    const ClientRegistry &m_clients;
    const TrustSettings &m_trust;
};

// Scopes asked for (the `scope` parameter), each allowed to the client; none asked for: all
// the client's.
std::optional<OAuthError> requestedScopes(const Client &client, const QString &scope,
                                          QStringList *scopes);

// Shared by the user grants: the access token, a refresh token when the client may refresh,
// and an id_token for `openid`. Fills result.response and result.tokens.
struct UserTokenRequest
{
    const Client *client = nullptr;
    const User *user = nullptr;
    QStringList scopes;
    QString nonce;
    qint64 authTime = 0;
    QString family;
    QString codeHash;
    qint64 now = 0;
    bool withRefresh = true;
    ClaimSources *sources = nullptr; // the token preview: where each claim came from
};
void issueUserTokens(const TokenIssuer &issuer, const UserTokenRequest &request,
                     GrantResult *result);

// Revoke every live token of a family, or issued from a code (in the writer's transaction).
bool revokeFamily(Core::WriteTransaction &tx, const QString &family, qint64 now);
bool revokeCodeTokens(Core::WriteTransaction &tx, const QString &codeHash, qint64 now);

} // namespace Gatehouse::OAuth
