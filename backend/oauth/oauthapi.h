#pragma once

#include "oauth/assertions.h"
#include "oauth/authorize.h"
#include "oauth/clientauthenticator.h"
#include "oauth/clientregistry.h"
#include "oauth/granthandler.h"
#include "oauth/oauthconsole.h"
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
    // cluster. A refusal's reason (never the token), or nullopt. The user claims of a scope
    // its client no longer has are removed from `claims` (a removed groups scope ends the
    // token's groups at once, as a removed orders scope ends its orders access). When the
    // token's record could not be read, *unavailable is set (the reason says so): no decision.
    std::optional<QString> clusterTokenRefusal(const QString &token, QJsonObject &claims,
                                               bool *unavailable = nullptr) const;
    const QString &issuer() const { return m_issuer; }
    QJsonObject discovery() const;

    // What the admin console asks: token previews, effective access, token status, active
    // tokens, revocation by id, minted client_credentials tokens.
    OAuthConsole &console() { return m_console; }
    // Signs a user out of every browser (user deleted, locked or password reset).
    void endSessions(const QString &userId, std::function<void(Core::Result<void>)> done)
    {
        m_authorize.endSessions(userId, std::move(done));
    }
    void publishKeyRotated(const QString &alg);
    void publish(const QString &type, const QJsonObject &data); // on the admin event stream
    // For HttpServer::addFilter on /v1/: orders:read for reads, orders:write for changes;
    // RFC 6750 answers (401 / 403 with WWW-Authenticate: Bearer ...).
    // forClient, when given, sees every request whose token passed, with the client the token
    // was issued to and, for an exchanged token, the client of every token up its chain (each
    // call may refuse it: the orders API's customers, ordersCustomers).
    using ClientCheck =
        std::function<std::optional<Core::HttpResponse>(const Core::HttpRequest &, const Client &)>;
    Core::Filter resourceServerFilter(const ClientCheck &forClient = {});

private:
    // oauth-login-rate requests a minute per client address, in a window of its own: 429
    // "too many <what> from this address" with Retry-After beyond.
    std::optional<OAuthError> perAddressLimit(const QString &window, const QString &what,
                                              const Core::HttpRequest &req);
    void registerRoutes();
    void registerRegistrationRoutes(bool openRegistration);
    // The endpoints of registerRoutes; those a client calls with its credentials
    // authenticate it through m_clientAuth.
    void tokenEndpoint(const Core::HttpRequest &req, const Core::Responder &respond);
    // A token request once its form is parsed and its grant known: client authentication,
    // the grant's handler, storing.
    void tokenRequest(const Core::HttpRequest &req, const QHash<QString, QString> &form,
                      const GrantHandler &handler, const QString &grantType,
                      const Core::Responder &respond);
    void deviceAuthorizationEndpoint(const Core::HttpRequest &req, const Core::Responder &respond);
    Core::HttpResponse introspectionEndpoint(const Core::HttpRequest &req) const;
    bool serves(const Client &caller, const QString &audience) const;
    void revocationEndpoint(const Core::HttpRequest &req, const Core::Responder &respond);
    Core::HttpResponse userinfoEndpoint(const Core::HttpRequest &req) const;
    // The form of a request that carries client credentials, and its authenticated client.
    std::optional<OAuthError> authenticatedForm(const Core::HttpRequest &req,
                                                QHash<QString, QString> *form,
                                                Client *client) const;
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
    ClientAuthenticator m_clientAuth;
    qint64 m_deviceCodeLifetimeMs;
    QByteArray m_discoveryJson; // fixed once the grants are known
    Core::EventQueue *m_eventQueue = nullptr;
    GrantHandlers m_grants;
    AuthorizeEndpoint m_authorize;
    OAuthConsole m_console;
};

} // namespace Gatehouse::OAuth
