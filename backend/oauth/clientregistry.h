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
class Database;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

// A registered client (seed 001's registration record, RFC 7591 metadata names).
struct Client
{
    QString clientId;
    QString secretHash; // SHA-256 (base64url) of the secret; empty for public clients
    QString clientName;
    QStringList redirectUris;
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

    bool confidential() const { return tokenEndpointAuthMethod != QLatin1String("none"); }
    bool usesSecret() const
    {
        return tokenEndpointAuthMethod == QLatin1String("client_secret_basic") ||
               tokenEndpointAuthMethod == QLatin1String("client_secret_post");
    }
    QJsonObject toJson() const; // metadata as RFC 7591 names it, never the secret
};

class ClientRegistry
{
public:
    ClientRegistry(Core::Database &database, Core::WriteQueue &writer);

    static const QStringList &supportedGrantTypes();
    static const QStringList &supportedAuthMethods();

    // Validates metadata (RFC 7591 §2); error code invalid_client_metadata or
    // invalid_redirect_uri with the field named.
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
    void registerClient(Client client, std::function<void(Core::Result<Registered>)> done,
                        bool dynamic = false, const QString &initialAccessTokenHash = {});
    // Replaces the metadata (RFC 7592 §2.2, admin update). Becoming confidential issues a
    // secret (returned once); becoming public drops it.
    void update(const QString &clientId, Client metadata,
                std::function<void(Core::Result<Registered>)> done);
    // The client whose registration access token this is (constant-time hash compare).
    std::optional<Client> findByRegistrationToken(const QString &clientId,
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
        QJsonObject toJson() const;
    };
    void createInitialAccessToken(qint64 lifetimeMs, int maxUses,
                                  std::function<void(Core::Result<InitialAccessToken>)> done);
    QList<InitialAccessToken> initialAccessTokens() const;
    void deleteInitialAccessToken(const QString &id, std::function<void(Core::Result<void>)> done);
    void remove(const QString &clientId, std::function<void(Core::Result<void>)> done);
    void rotateSecret(const QString &clientId, std::function<void(Core::Result<Registered>)> done);

    std::optional<Client> find(const QString &clientId) const; // cached
    QList<Client> all() const;
    static QString hashSecret(const QString &secret);
    static bool secretMatches(const Client &c, const QString &secret); // constant time

private:
    // The writer's done callback of the jobs above: forgets the cached record, then answers.
    std::function<void(const Core::Result<void> &)>
    committed(std::shared_ptr<Registered> reg, std::function<void(Core::Result<Registered>)> done);

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    mutable QMutex m_mutex;
    mutable QHash<QString, std::optional<Client>> m_cache;
};

} // namespace Gatehouse::OAuth
