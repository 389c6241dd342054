#pragma once

#include "oauth/assertions.h"
#include "oauth/authorize.h"
#include "oauth/clientregistry.h"
#include "oauth/granthandler.h"
#include "oauth/signingkeys.h"
#include "oauth/tokenissuer.h"
#include "oauth/trustsettings.h"
#include "oauth/userstore.h"

#include <QJsonArray>

#include <functional>
#include <memory>
#include <vector>

namespace Gatehouse::Core {
class Clock;
class Database;
class EventBus;
class EventQueue;
class HttpServer;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

// The authorization server's endpoints on the service listener (docs/oauth.md): discovery,
// JWKS, authorization (with login and consent pages), token (one GrantHandler per grant_type),
// introspection, revocation, userinfo. Composed here.
class OAuthApi
{
public:
    OAuthApi(Core::HttpServer &server, Core::Database &database, Core::WriteQueue &writer,
             Core::EventBus &events, const Core::Clock &clock, QString issuer,
             AuthorizeSettings authorize = {});
    ~OAuthApi();

    Core::Result<void> start(); // loads (or creates) the signing keys
    // Token events are then built on this queue's thread rather than the writer's.
    void setEventQueue(Core::EventQueue *queue) { m_eventQueue = queue; }
    ClientRegistry &clients() { return m_clients; }
    UserStore &users() { return m_users; }
    TrustedIssuers &trustedIssuers() { return m_trusted; }
    SigningKeys &keys() { return m_keys; }
    // The audiences of the other services and the live registration policy (docs/oauth.md,
    // "Trust boundaries"); the audiences are set before the server starts.
    TrustSettings &trust() { return m_trust; }
    // The cluster API's check of a JWT this issuer signed, after its signature, times and
    // audience: the token is recorded here and still alive, and its client may act for the
    // cluster. A refusal's reason (never the token), or nullopt.
    std::optional<QString> clusterTokenRefusal(const QString &token,
                                               const QJsonObject &claims) const;
    const QString &issuer() const { return m_issuer; }
    QJsonObject discovery() const;

    // Admin: a client_credentials token for a confidential client without its secret
    // (console demos), the active tokens (newest first), revoking one by its id (the hash).
    void mintClientCredentials(const QString &clientId, const QHash<QString, QString> &params,
                               const Core::Responder &respond);
    QJsonArray activeTokens(const QString &clientId, const QString &subject, int limit) const;
    // What this server knows of a JWT (the server-aware inspector): whether it issued it, its
    // signing key (active, next, retired, or no longer published), whether the token is stored
    // and still active, revoked or expired (by the hash of its value; `id` revokes it through
    // DELETE /admin/v1/tokens/{id}), and whether its client and user still exist.
    QJsonObject tokenStatus(const QByteArray &token, const QJsonObject &header,
                            const QJsonObject &payload) const;
    // The token preview: a dry run of the real issuing code for a client and grant type.
    // request: {"client_id", "grant_type", "scope"?, "resource"?, "audience"?, "username"?
    // (user grants), "subject_token"/"subject_token_type"/"actor_token"/"actor_token_type"
    // (token exchange)}. Answers the access token's header and claims, each claim with its
    // source, and what else would be issued; nothing is stored, no event says "issued", the
    // signed value never leaves this function. An error: {"error", "error_description"}.
    QJsonObject previewToken(const QJsonObject &request) const;
    // Effective access of an OAuth user ({"username"}) or client ({"client_id"}): every scope
    // and claim it can obtain, each with its source, read off token previews with every
    // allowed scope (so from the real issuing code). An error: {"error", "error_description"}.
    QJsonObject effectiveAccess(const QJsonObject &request) const;
    void revokeById(const QString &id, std::function<void(Core::Result<void>)> done);
    // Signs a user out of every browser (user deleted, locked or password reset).
    void endSessions(const QString &userId) { m_authorize.endSessions(userId); }
    void publishKeyRotated(const QString &alg);
    void publish(const QString &type, const QJsonObject &data); // on the admin event stream
    // For HttpServer::addFilter on /v1/: orders:read for reads, orders:write for changes;
    // RFC 6750 answers (401 / 403 with WWW-Authenticate: Bearer ...).
    Core::Filter resourceServerFilter();

private:
    void registerRoutes();
    void registerRegistrationRoutes(bool openRegistration);
    std::optional<OAuthError> authenticateAssertion(const Core::HttpRequest &req,
                                                    const QHash<QString, QString> &form,
                                                    Client *client);
    QJsonObject registrationResponse(const ClientRegistry::Registered &r) const;
    // Runs the grant's consume step and stores its tokens in one transaction, then answers.
    void commit(GrantResult result, const QString &grantType, const Core::Responder &respond);

    Core::HttpServer &m_server;
    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Core::EventBus &m_events;
    const Core::Clock &m_clock;
    QString m_issuer;
    TrustSettings m_trust;
    SigningKeys m_keys;
    ClientRegistry m_clients;
    UserStore m_users;
    TokenIssuer m_issuerImpl;
    TrustedIssuers m_trusted;
    JtiCache m_jti;
    qint64 m_deviceCodeLifetimeMs;
    QByteArray m_discoveryJson; // fixed once the grants are known
    Core::EventQueue *m_eventQueue = nullptr;
    std::vector<std::unique_ptr<GrantHandler>> m_grants;
    AuthorizeEndpoint m_authorize;
};

} // namespace Gatehouse::OAuth
