#pragma once

#include "core/result.h"

#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace Gatehouse::Core {
class Clock;
class Database;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

struct Client;

// What a dynamically registered client (RFC 7591) may ask for: grant types, scopes and the
// audiences of token_exchange_audiences / allowed_resources. Anything outside it is refused
// with invalid_client_metadata naming the field, never dropped (docs/oauth.md).
struct RegistrationPolicy
{
    QStringList grantTypes;
    QStringList scopes;
    QStringList audiences;
    // The redirect URIs allowed; nullopt: any the metadata rules allow. An administrator's
    // change of a registered client sets this policy to what the administrator left it.
    std::optional<QStringList> redirectUris;
    // The customers a registrant may bind its client to (orders_customers, canonical UUIDs). A
    // client with an orders scope must be bound to some of them: a registrant never chooses
    // whose orders it reaches, nor reaches everyone's (an administrator's change that left a
    // client unbound stays the administrator's).
    QStringList customers;
    // The audiences allowed_resources may name, where they differ from those of
    // token_exchange_audiences; nullopt: `audiences` bounds both. An administrator's change of
    // a registered client bounds each list by what the administrator left in it, so that its
    // registrant cannot move an audience from one to the other.
    std::optional<QStringList> resources;
    // The public keys its jwks may hold (RFC 7638 thumbprints); nullopt: any. An
    // administrator's change of a registered client fixes them: a key is a credential, as a
    // secret is, so its registrant may drop keys, never add one.
    std::optional<QStringList> keys;

    static RegistrationPolicy defaults();
    // {"grantTypes", "scopes", "audiences", "redirectUris"?, "customers"?, "resources"?,
    // "keys"?}
    QJsonObject toJson() const;
    // Validates {"grantTypes"?, "scopes"?, "audiences"?, "redirectUris"?, "customers"?,
    // "resources"?, "keys"?} (missing members: base's).
    static Core::Result<RegistrationPolicy> fromJson(const QJsonValue &v,
                                                     const RegistrationPolicy &base);
    // The first field of `client` this policy does not allow, as invalid_client_metadata;
    // values the client had already (`current`, an RFC 7592 update) stay allowed.
    std::optional<Core::Error> check(const Client &client, const Client *current = nullptr) const;
};

// A registered client (seed 001's registration record, RFC 7591 metadata names).
struct Client
{
    QString clientId;
    QString secretHash; // SHA-256 (base64url) of the secret; empty for public clients
    QString clientName;
    QStringList redirectUris;
    // OpenID Connect RP-Initiated Logout 1.0 §3.1: where /oauth2/logout may send the browser
    // back to (exact match; the same rules as redirect_uris).
    QStringList postLogoutRedirectUris;
    QStringList grantTypes;
    QStringList scopes;              // allowed scopes
    QString tokenEndpointAuthMethod; // client_secret_basic | client_secret_post | none
    QString logoUri;
    QStringList contacts;
    QString accessTokenFormat = QStringLiteral("jwt");       // jwt | opaque
    int accessTokenLifetime = 3600;                          // seconds
    QString accessTokenSigningAlg = QStringLiteral("RS256"); // access_token_signed_response_alg
    QString idTokenSigningAlg = QStringLiteral("RS256");     // id_token_signed_response_alg
    qint64 createdAt = 0;

    QJsonObject jwks;                   // public keys for private_key_jwt (RFC 7523 §2.2)
    QString jwksUri;                    // recorded; keys are taken from `jwks`
    QStringList tokenExchangeAudiences; // RFC 8693 audiences this client may exchange for
    // RFC 8707 resource indicators client_credentials may name (besides the orders API, which
    // a client holding an orders scope may always name).
    QStringList allowedResources;
    // The orders API's customers (ids, lower case) this client's tokens act for, when the API
    // requires tokens (--orders-require-token); empty: every customer. A client's own RFC 7592
    // update may narrow it, never widen it (RegistrationPolicy::check).
    QStringList ordersCustomers;
    // RFC 7662 §4: a resource server may introspect tokens issued to other clients; any other
    // client only its own.
    bool resourceServer = false;
    // Tokens for the cluster API's audience (oidc-client-id) are issued only for clients an
    // administrator allowed to act for the cluster: not metadata, set through
    // PUT /admin/v1/clients/{id}/cluster-access (docs/oauth.md, "Trust boundaries").
    bool clusterAccess = false;
    // The policy of the initial access token a dynamic registration was made with, when it
    // carried one: the client's own RFC 7592 updates are held to it, not to the server's
    // (docs/oauth.md). Stored beside the metadata, never shown as metadata.
    std::optional<RegistrationPolicy> registrationPolicy;
    // Registered through RFC 7591 (it holds a registration access token), not by an
    // administrator. Derived from the stored row, never metadata.
    bool selfRegistered = false;
    // When the client's credentials (its secret, or its keys for private_key_jwt) stop
    // authenticating it, ms since the epoch; 0: never. Set when an admin token that expires
    // issued them, to its end, so that no credential outlives the admin token that asked for
    // it (docs/admin-tokens.md); its tokens end by then too. RFC 7591's
    // client_secret_expires_at (seconds); not metadata a caller sets.
    // A public client has no credential to end (a registrant's change to "none" keeps the end
    // in the record for the way back).
    qint64 credentialsUntil = 0;
    qint64 credentialsEnd() const { return confidential() ? credentialsUntil : 0; }
    bool credentialsEnded(qint64 now) const
    {
        return credentialsEnd() > 0 && now >= credentialsEnd();
    }

    // Whether the browser is sent to this client's redirect URIs without asking (RFC 9700
    // §4.11.2): an administrator's client, or a registered one whose redirect URIs an
    // administrator or its initial access token fixed (registrationPolicy->redirectUris). A
    // stranger's open registration is not: errors, a refusal and a sign-out show a page with a
    // link instead of redirecting, so that this server's address does not vouch for theirs.
    bool redirectsVetted() const
    {
        return !selfRegistered || (registrationPolicy && registrationPolicy->redirectUris);
    }
    bool confidential() const { return tokenEndpointAuthMethod != QLatin1String("none"); }
    // Whether an authorization request may name `uri` as its redirect URI: one of redirectUris
    // byte for byte, or (RFC 8252 §7.3, native apps) a registered loopback IP literal URI
    // (http://127.0.0.1/..., http://[::1]/...) with any port, the rest byte for byte. Not
    // `localhost` (§8.3): a name may resolve elsewhere.
    bool allowsRedirectUri(const QString &uri) const;
    bool usesSecret() const
    {
        return tokenEndpointAuthMethod == QLatin1String("client_secret_basic") ||
               tokenEndpointAuthMethod == QLatin1String("client_secret_post");
    }
    QJsonObject toJson() const;   // metadata as RFC 7591 names it, never the secret
    QJsonObject toRecord() const; // toJson() and what is stored beside it
};

class ClientRegistry
{
public:
    ClientRegistry(Core::Database &database, Core::WriteQueue &writer, const Core::Clock &clock);

    static const QStringList &supportedGrantTypes();
    static const QStringList &supportedAuthMethods();

    // Validates metadata (RFC 7591 §2); error code invalid_client_metadata or
    // invalid_redirect_uri with the field named. cluster_access is refused: it is not metadata
    // (setClusterAccess).
    static Core::Result<Client> fromMetadata(const QJsonObject &metadata);

    struct Registered
    {
        Client client;
        QString secret;            // shown once; empty for public clients
        QString registrationToken; // RFC 7592, dynamic registrations only; shown once
    };
    // Admin registration. dynamic: also a registration access token (RFC 7592), and
    // initialAccessTokenHash (when not empty) is spent in the same transaction; an unknown,
    // expired or used-up one fails with invalid_token.
    // client.credentialsUntil: the caller's bound on what it issues (an admin token's end);
    // a dynamic registration takes its initial access token's (credentials_until).
    void registerClient(Client client, std::function<void(Core::Result<Registered>)> done,
                        bool dynamic = false, const QString &initialAccessTokenHash = {});
    // Who asks for a change: an administrator, or the holder of the client's registration
    // access token (RFC 7592), who may change no client allowed to act for the cluster (checked
    // against the stored record in the writer's transaction).
    enum class By { Admin, Registrant };
    // What a registrant's change of such a client answers (RFC 7592 §2.2: 403).
    static Core::Error clusterClientRefused();
    // What the caller may do to a client, checked again in the writer's transaction against the
    // client as stored then: a check at the request sees the client before a change another
    // administrator commits meanwhile (allowing it for the cluster, giving it the orders API's
    // scopes). An error refuses the change; nothing is written.
    using StoredCheck = std::function<std::optional<Core::Error>(const Client &stored)>;
    // Replaces the metadata (RFC 7592 §2.2, admin update). Becoming confidential issues a
    // secret (returned once); becoming public drops it. metadata.credentialsUntil: the
    // administrator's bound (an admin token's end; 0: none). A change that issues a credential
    // (a secret, a key not registered before) under a bound ends the client's credentials by
    // then; one without a bound that replaces them all (a new secret, keys none of which were
    // registered) lifts it; a registrant's change keeps what is stored.
    // By::Registrant: `registrationToken` is the one the caller was authorized with, checked
    // again in the writer's transaction (a rotation may have committed since).
    void update(const QString &clientId, Client metadata,
                std::function<void(Core::Result<Registered>)> done, By by = By::Admin,
                const QString &registrationToken = {}, StoredCheck recheck = {});
    // The client whose registration access token this is (constant-time hash compare).
    // A read that failed is an error (database-unavailable while the database cannot be
    // reached), not "no such client or token": that answers 401, and the holder drops it.
    Core::Result<std::optional<Client>> findByRegistrationToken(const QString &clientId,
                                                                const QString &token) const;

    // RFC 7591 initial access tokens, issued through the admin API.
    struct InitialAccessToken
    {
        QString id;
        QString token; // shown once, at creation
        qint64 createdAt = 0;
        qint64 expiresAt = 0;
        int maxUses = 1;
        int usedCount = 0;
        // The registrations it allows instead of the server's policy (nullopt: the server's).
        std::optional<RegistrationPolicy> policy;
        qint64 credentialsUntil = 0; // the clients it registers: their credentials' end
        QJsonObject toJson() const;
    };
    // credentialsUntil (0: none): the creator's bound (an admin token's end): the token
    // expires by then, and the credentials of the clients registered with it end then.
    void createInitialAccessToken(qint64 lifetimeMs, int maxUses,
                                  std::optional<RegistrationPolicy> policy, qint64 credentialsUntil,
                                  std::function<void(Core::Result<InitialAccessToken>)> done);
    // A read that failed is an error, not an empty list (as for all()).
    Core::Result<QList<InitialAccessToken>> initialAccessTokens() const;
    // The initial access token with this hash while it is usable (not expired, not used up).
    Core::Result<std::optional<InitialAccessToken>> usableInitialAccessToken(const QString &hash,
                                                                             qint64 now) const;
    void deleteInitialAccessToken(const QString &id, std::function<void(Core::Result<void>)> done);
    void remove(const QString &clientId, std::function<void(Core::Result<void>)> done,
                By by = By::Admin, const QString &registrationToken = {}, StoredCheck recheck = {});
    // credentialsUntil: the administrator's bound, as for update() (a new secret replaces
    // every credential of a secret client).
    void rotateSecret(const QString &clientId, std::function<void(Core::Result<Registered>)> done,
                      StoredCheck recheck = {}, qint64 credentialsUntil = 0);
    // The admin-only flag that lets a client's tokens reach the cluster API (docs/oauth.md).
    void setClusterAccess(const QString &clientId, bool allowed,
                          std::function<void(Core::Result<Registered>)> done);

    std::optional<Client> find(const QString &clientId) const; // cached
    // The same, telling a read that failed (database-unavailable while the database cannot
    // be reached) from a client that does not exist.
    Core::Result<std::optional<Client>> lookup(const QString &clientId) const;
    // Another instance changed the client (ChangeFeed): read it again; empty id: every client.
    void changedElsewhere(const QString &clientId);
    Core::Result<QList<Client>> all() const;
    static QString hashSecret(const QString &secret);
    static bool secretMatches(const Client &c, const QString &secret); // constant time

private:
    // The writer's done callback of the jobs above: forgets the cached record, then answers.
    std::function<void(const Core::Result<void> &)>
    committed(std::shared_ptr<Registered> reg, std::function<void(Core::Result<Registered>)> done);
    // Forgets a cached record after a change committed (under m_mutex).
    void forget(const QString &clientId);
    // Writes a changed record (secret hash and metadata) in the writer.
    void rewrite(const std::shared_ptr<Registered> &reg,
                 std::function<void(Core::Result<Registered>)> done, By by = By::Admin,
                 const QString &registrationToken = {}, StoredCheck recheck = {});

    qint64 nowMs() const;

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    const Core::Clock &m_clock; // record times, initial access tokens' creation and expiry
    mutable QMutex m_mutex;
    mutable QHash<QString, std::optional<Client>> m_cache;
    // Bumped by every forget(): a find() that read the database before a change committed
    // does not put what it read into the cache (it would bring back a deleted or rotated
    // client until the next change).
    mutable quint64 m_generation = 0;
};

} // namespace Gatehouse::OAuth
