#pragma once

#include "oauth/granthandler.h"

namespace Gatehouse::OAuth {

class JtiCache;
class SigningKeys;
class TrustSettings;
class TrustedIssuers;

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
    TokenExchangeGrant(const TokenIssuer &issuer, const TrustedIssuers &trusted, JtiCache &jti,
                       const SigningKeys &keys, Core::Database &database, const UserStore &users,
                       const ClientRegistry &clients, const TrustSettings &trust)
        : m_issuer(issuer), m_trusted(trusted), m_jti(jti), m_keys(keys), m_database(database),
          m_users(users), m_clients(clients), m_trust(trust)
    {}
    QString grantType() const override
    {
        return QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange");
    }
    GrantResult handle(const TokenRequest &request) const override;
    bool takesResource() const override { return true; }

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
        QString origin;  // a local token's: the other issuer it descends from, if any
        QJsonObject act; // a local token's delegation (RFC 8693 §4.1): who acted, nested
        QString jti;     // a trusted issuer's subject token's: spent when the result is stored
        qint64 jtiKeptUntil = 0;
        QStringList names; // a trusted issuer's subject: subjectNames() of its sub
    };
    enum class Role { Subject, Actor };
    // A trusted issuer's subject token is an assertion as for jwt-bearer (an hour at most, a
    // jti, spent once); its actor token only names the actor.
    std::optional<OAuthError> resolve(const QString &token, const QString &type,
                                      const Client &client, qint64 now, Role role,
                                      Subject *out) const;
    // The first client in the chain of tokens the stored token `hash` was exchanged from (it
    // included) that may not act for the cluster; empty when every one may.
    QString ancestorWithoutClusterAccess(const QString &hash) const;

    const TokenIssuer &m_issuer;
    const TrustedIssuers &m_trusted;
    JtiCache &m_jti;
    const SigningKeys &m_keys;
    Core::Database &m_database;
    const UserStore &m_users;
    const ClientRegistry &m_clients;
    const TrustSettings &m_trust;
};

} // namespace Gatehouse::OAuth
