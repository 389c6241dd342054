// The authorization server's endpoints and their routing (docs/oauth.md); the grants are in
// *grant.cpp, client authentication in clientauthenticator.cpp, the console's questions in
// oauthconsole.cpp.
#include "oauth/oauthapi.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/httpserver.h"
#include "core/jsonwriter.h"
#include "core/writequeue.h"
#include "crypto/random.h"
#include "oauth/authorizationcodegrant.h"
#include "oauth/clientcredentialsgrant.h"
#include "oauth/devicecodegrant.h"
#include "oauth/form.h"
#include "oauth/jwtbearergrant.h"
#include "oauth/passwordgrant.h"
#include "oauth/refreshtokengrant.h"
#include "oauth/tokenexchangegrant.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>

namespace Gatehouse::OAuth {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

OAuthApi::OAuthApi(Core::HttpServer &server, Core::Database &database, Core::WriteQueue &writer,
                   Core::EventBus &events, const Core::Clock &clock, QString issuer,
                   AuthorizeSettings authorize)
    : m_server(server), m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_issuer(std::move(issuer)), m_keys(database, writer), m_clients(database, writer, clock),
      m_users(database, writer, clock, authorize.passwordHashing), m_issuerImpl(m_keys, m_issuer),
      m_trusted(database, writer, clock), m_jti(database, writer),
      m_clientAuth(m_clients, m_jti, clock, m_issuer),
      m_deviceCodeLifetimeMs(authorize.deviceCodeLifetimeMs),
      m_authorize(server, database, writer, events, clock, m_clients, m_users, m_keys, m_issuer,
                  authorize),
      m_console(database, writer, events, clock, m_issuer, m_clients, m_users, m_keys, m_issuerImpl,
                m_grants,
                [this](GrantResult result, const QString &grantType, const Responder &respond) {
                    commit(std::move(result), grantType, respond);
                })
{
    m_issuerImpl.setRefreshLifetimeMs(authorize.refreshLifetimeMs);
    m_issuerImpl.setRefreshMaxLifetimeMs(authorize.refreshMaxLifetimeMs);
    m_issuerImpl.setTrust(&m_trust);
    m_grants.push_back(std::make_unique<AuthorizationCodeGrant>(m_issuerImpl, m_database, m_users));
    m_grants.push_back(std::make_unique<ClientCredentialsGrant>(m_issuerImpl));
    m_grants.push_back(std::make_unique<RefreshTokenGrant>(m_issuerImpl, m_database, m_users));
    m_grants.push_back(std::make_unique<PasswordGrant>(
        m_issuerImpl, m_users, authorize.lockout,
        [this](const QString &address, qint64 now, qint64 *retryAfterMs) {
            return m_authorize.rateLimited(address, now, retryAfterMs);
        }));
    m_grants.push_back(std::make_unique<DeviceCodeGrant>(m_issuerImpl, m_database, m_users));
    m_grants.push_back(std::make_unique<JwtBearerGrant>(m_issuerImpl, m_trusted, m_jti, m_users));
    m_grants.push_back(std::make_unique<TokenExchangeGrant>(
        m_issuerImpl, m_trusted, m_jti, m_keys, m_database, m_users, m_clients, m_trust));
    m_discoveryJson = QJsonDocument(discovery()).toJson(QJsonDocument::Compact);
    registerRoutes();
    registerRegistrationRoutes(authorize.openRegistration);
}

OAuthApi::~OAuthApi() = default;

Core::Result<void> OAuthApi::start()
{
    return m_keys.load(m_clock.now().toMSecsSinceEpoch());
}

QJsonObject OAuthApi::discovery() const
{
    QJsonArray grants;
    for (const auto &g : m_grants)
        grants.append(g->grantType());
    // Introspection answers confidential clients only (RFC 7662 §2.1), with any of their methods.
    const QJsonArray authMethods{QStringLiteral("client_secret_basic"),
                                 QStringLiteral("client_secret_post"),
                                 QStringLiteral("private_key_jwt")};
    const QJsonArray clientAuthMethods{QStringLiteral("client_secret_basic"),
                                       QStringLiteral("client_secret_post"),
                                       QStringLiteral("private_key_jwt"), QStringLiteral("none")};
    const QString e = m_issuer + QStringLiteral("/oauth2/");
    return QJsonObject{
        {QStringLiteral("issuer"), m_issuer},
        {QStringLiteral("authorization_endpoint"), e + QStringLiteral("authorize")},
        {QStringLiteral("token_endpoint"), e + QStringLiteral("token")},
        {QStringLiteral("userinfo_endpoint"), e + QStringLiteral("userinfo")},
        {QStringLiteral("jwks_uri"), e + QStringLiteral("jwks")},
        {QStringLiteral("introspection_endpoint"), e + QStringLiteral("introspect")},
        {QStringLiteral("revocation_endpoint"), e + QStringLiteral("revoke")},
        {QStringLiteral("device_authorization_endpoint"),
         e + QStringLiteral("device_authorization")},
        {QStringLiteral("registration_endpoint"), e + QStringLiteral("register")},
        {QStringLiteral("end_session_endpoint"), e + QStringLiteral("logout")},
        {QStringLiteral("grant_types_supported"), grants},
        {QStringLiteral("response_types_supported"), QJsonArray{QStringLiteral("code")}},
        {QStringLiteral("response_modes_supported"), QJsonArray{QStringLiteral("query")}},
        {QStringLiteral("code_challenge_methods_supported"), QJsonArray{QStringLiteral("S256")}},
        {QStringLiteral("authorization_response_iss_parameter_supported"), true},
        {QStringLiteral("scopes_supported"),
         QJsonArray::fromStringList(AuthorizeEndpoint::knownScopes())},
        {QStringLiteral("claims_supported"),
         QJsonArray{QStringLiteral("sub"), QStringLiteral("iss"), QStringLiteral("aud"),
                    QStringLiteral("exp"), QStringLiteral("iat"), QStringLiteral("auth_time"),
                    QStringLiteral("nonce"), QStringLiteral("at_hash"), QStringLiteral("email"),
                    QStringLiteral("email_verified"), QStringLiteral("name"),
                    QStringLiteral("preferred_username"), QStringLiteral("groups")}},
        {QStringLiteral("prompt_values_supported"),
         QJsonArray{QStringLiteral("none"), QStringLiteral("login"), QStringLiteral("consent")}},
        {QStringLiteral("token_endpoint_auth_methods_supported"), clientAuthMethods},
        {QStringLiteral("introspection_endpoint_auth_methods_supported"), authMethods},
        {QStringLiteral("revocation_endpoint_auth_methods_supported"), clientAuthMethods},
        {QStringLiteral("subject_types_supported"), QJsonArray{QStringLiteral("public")}},
        {QStringLiteral("id_token_signing_alg_values_supported"),
         QJsonArray{QStringLiteral("RS256"), QStringLiteral("ES256")}},
        {QStringLiteral("token_endpoint_auth_signing_alg_values_supported"),
         QJsonArray{QStringLiteral("RS256"), QStringLiteral("PS256"), QStringLiteral("ES256")}},
        {QStringLiteral("claims_parameter_supported"), false},
        {QStringLiteral("request_parameter_supported"), false},
        {QStringLiteral("request_uri_parameter_supported"), false}};
}

void OAuthApi::commit(GrantResult result, const QString &grantType, const Responder &respond)
{
    auto shared = std::make_shared<GrantResult>(std::move(result));
    // The writer's thread is the one serial point: the answer is serialized here, and the
    // events are built on the event queue's thread (in commit order).
    auto answer = std::make_shared<HttpResponse>(
        noStore(shared->responseBody.isEmpty()
                    ? HttpResponse::json(200, shared->response)
                    : HttpResponse::text(200, shared->responseBody, "application/json")));
    Core::EventBus *events = &m_events;
    Core::EventQueue *queue = m_eventQueue;
    m_writer.submit(
        [shared](Core::WriteTransaction &tx) -> Core::Result<void> {
            // First, so that a refusal spends nothing: the code or token can be sent again.
            if ((shared->error = scopesTakenMeanwhile(tx, shared->tokens)))
                return {};
            if (shared->consume) {
                shared->error = shared->consume(tx);
                if (shared->error)
                    return {}; // commit what consume did (revocations), store nothing
            }
            for (const IssuedToken &t : shared->tokens)
                if (auto r = TokenIssuer::store(tx, t); !r)
                    return r;
            return {};
        },
        [shared, answer, respond, events, queue, grantType](const Core::Result<void> &r) {
            if (!r)
                return respond(
                    storageError(r.error(), QStringLiteral("the token could not be stored"))
                        .toResponse());
            if (shared->error)
                return respond(shared->error->toResponse());
            respond(*answer);
            // Written as text (one or more events per token response).
            auto publish = [shared, events, grantType] {
                for (const IssuedToken &t : shared->tokens)
                    if (t.kind != QLatin1String("id")) // recorded, not handed out on its own
                        events->publishJson(
                            QStringLiteral("oauth.token.issued"),
                            Core::JsonObjectWriter()
                                .add("clientId", t.clientId)
                                .add("grantType", grantType)
                                .add("kind", t.kind)
                                .add("format", t.format)
                                .add("scope", t.scope)
                                .add("tokenHashPrefix", TokenIssuer::keyPrefix(t.hash))
                                .add("expiresAt", Core::isoTimeMs(t.expiresAt))
                                .finish());
            };
            Core::EventQueue::postOrRun(queue, std::move(publish));
        });
}

std::optional<QString> OAuthApi::clusterTokenRefusal(const QString &token, QJsonObject &claims,
                                                     bool *unavailable) const
{
    // The client the token was issued to: an access token names it (client_id), an id_token
    // is addressed to it (aud).
    QString clientId = claims.value(QLatin1String("client_id")).toString();
    if (clientId.isEmpty())
        clientId = claims.value(QLatin1String("azp")).toString();
    if (clientId.isEmpty() && claims.value(QLatin1String("aud")).isString())
        clientId = claims.value(QLatin1String("aud")).toString();
    const auto client = m_clients.find(clientId);
    if (!client)
        return QStringLiteral("the token's client \"%1\" no longer exists").arg(clientId);
    if (!client->clusterAccess)
        return QStringLiteral("the token's client \"%1\" is not allowed to act for the cluster "
                              "(cluster access is off for it)")
            .arg(client->clientName);
    const Core::ReadStatement q = m_database.read(
        "SELECT kind, expires_at, revoked_at, origin, scope FROM oauth_tokens WHERE hash = ?");
    q->bind(1, TokenIssuer::storageKey(token));
    const bool found = q->next();
    if (!found && !q->ok()) {
        if (unavailable)
            *unavailable = true;
        return QStringLiteral("the issuer's token records could not be read: ") +
               Core::Database::readFailed(*q).message;
    }
    if (!found || (q->text(0) != QLatin1String("access") && q->text(0) != QLatin1String("id")))
        return QStringLiteral("the token is not one its issuer recorded");
    if (!q->isNull(2))
        return QStringLiteral("the token was revoked");
    // Another issuer's assertion never becomes a cluster identity, however many exchanges
    // away (the grants refuse the audience; this holds should one not).
    if (!q->isNull(3) && !q->text(3).isEmpty())
        return QStringLiteral("the token descends from another issuer's (%1)").arg(q->text(3));
    if (q->int64(1) <= m_clock.now().toMSecsSinceEpoch())
        return QStringLiteral("the token has expired");
    // The scopes in force: the token's as stored (narrowed when an administrator took one from
    // the client: narrowClientGrants) that its client still has.
    QStringList inForce = q->text(4).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    inForce.removeIf([&client](const QString &s) { return !client->scopes.contains(s); });
    removeClaimsOfScopesTaken(claims, inForce);
    return std::nullopt;
}

void OAuthApi::publish(const QString &type, const QJsonObject &data)
{
    m_events.publish(type, data);
}

void OAuthApi::publishKeyRotated(const QString &alg)
{
    const auto k = m_keys.active(alg);
    m_events.publish(
        QStringLiteral("oauth.key.rotated"),
        QJsonObject{{QStringLiteral("alg"), alg}, {QStringLiteral("activeKid"), k.kid}});
}

void OAuthApi::registerRoutes()
{
    for (const char *path :
         {"/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"})
        m_server.route("GET", QLatin1String(path), [this](const HttpRequest &) {
            return HttpResponse::text(200, m_discoveryJson, "application/json");
        });
    m_server.route("GET", QStringLiteral("/oauth2/jwks"), [this](const HttpRequest &) {
        return HttpResponse::text(200, m_keys.jwksJson(), "application/jwk-set+json");
    });

    // The form endpoints take at most 64 KiB: their largest parameters are JWTs (assertions,
    // subject tokens) of a few KiB. The listener's 1 MiB let anyone send 100,000 parameters,
    // parsed on the server's thread (0.6 CPU-s each under the sanitizers).
    constexpr qint64 FormBodyBytes = 64 * 1024;
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/token"),
        [this](const HttpRequest &req, const Responder &respond) { tokenEndpoint(req, respond); },
        Core::RouteOptions{FormBodyBytes});
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/device_authorization"),
        [this](const HttpRequest &req, const Responder &respond) {
            deviceAuthorizationEndpoint(req, respond);
        },
        Core::RouteOptions{FormBodyBytes});
    m_server.route(
        "POST", QStringLiteral("/oauth2/introspect"),
        [this](const HttpRequest &req) { return introspectionEndpoint(req); },
        // On the pool: client authentication, the look-up and the answer use every core
        // instead of the connection thread's one.
        Core::RouteOptions{FormBodyBytes, true});
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/revoke"),
        [this](const HttpRequest &req, const Responder &respond) {
            revocationEndpoint(req, respond);
        },
        Core::RouteOptions{FormBodyBytes});
    auto userinfo = [this](const HttpRequest &req) { return userinfoEndpoint(req); };
    m_server.route("GET", QStringLiteral("/oauth2/userinfo"), userinfo);
    m_server.route("POST", QStringLiteral("/oauth2/userinfo"), userinfo);
}

std::optional<OAuthError> OAuthApi::authenticatedForm(const HttpRequest &req,
                                                      QHash<QString, QString> *form,
                                                      Client *client) const
{
    if (auto e = parseForm(req, form))
        return e;
    return m_clientAuth.authenticate(req, *form, client);
}

// RFC 6749 §3.2: the grant's handler, chosen by grant_type.
void OAuthApi::tokenEndpoint(const HttpRequest &req, const Responder &respond)
{
    QHash<QString, QString> form;
    if (auto e = parseForm(req, &form))
        return respond(e->toResponse());
    const QString grantType = form.value(QStringLiteral("grant_type"));
    if (grantType.isEmpty())
        return respond(invalidRequest(QStringLiteral("grant_type is required")).toResponse());
    const GrantHandler *handler = grantHandlerFor(m_grants, grantType);
    if (!handler)
        return respond(
            unsupportedGrantType(QStringLiteral("grant_type '%1' is not supported").arg(grantType))
                .toResponse());
    if (!handler->takesResource())
        if (auto e = resourceNotTaken(form))
            return respond(e->toResponse());
    // Signing (RSA, ECDSA), password hashing (argon2id) and client assertions run on the
    // server's pool; a request its handler makes for less than waking a pool thread is made
    // here (an opaque client_credentials token: ClientCredentialsGrant::runsInline).
    if (handler->runsInline(form, NamedClient(m_clientAuth, req, form)))
        return tokenRequest(req, form, *handler, grantType, respond);
    // A password (argon2id) is checked on the isolated pool, as the sign-in pages do.
    if (handler->checksPasswords()) {
        auto work = [this, req, form, handler, grantType, respond] {
            tokenRequest(req, form, *handler, grantType, respond);
        };
        if (!m_server.tryRunIsolated(std::move(work))) {
            OAuthError busy{QStringLiteral("temporarily_unavailable"),
                            QStringLiteral("too many sign-ins are being checked; try again in "
                                           "a moment"),
                            503};
            busy.retryAfterS = 1;
            respond(busy.toResponse());
        }
        return;
    }
    m_server.runOnPool([this, req, form = std::move(form), handler, grantType, respond] {
        tokenRequest(req, form, *handler, grantType, respond);
    });
}

void OAuthApi::tokenRequest(const HttpRequest &req, const QHash<QString, QString> &form,
                            const GrantHandler &handler, const QString &grantType,
                            const Responder &respond)
{
    TokenRequest tr;
    tr.params = form;
    if (auto e = m_clientAuth.authenticate(req, form, &tr.client))
        return respond(e->toResponse());
    tr.now = m_clock.now().toMSecsSinceEpoch();
    tr.address = addressKey(req.peerAddress);
    GrantResult result = handler.handle(tr);
    if (result.error)
        return respond(result.error->toResponse());
    commit(std::move(result), grantType, respond);
}

std::optional<OAuthError> OAuthApi::perAddressLimit(const QString &window, const QString &what,
                                                    const HttpRequest &req)
{
    qint64 retryMs = 0;
    if (!m_authorize.rateLimited(window + QLatin1Char(' ') + addressKey(req.peerAddress),
                                 m_clock.now().toMSecsSinceEpoch(), &retryMs))
        return std::nullopt;
    OAuthError e{QStringLiteral("invalid_request"),
                 QStringLiteral("too many %1 from this address; wait a minute").arg(what), 429};
    e.retryAfterS = int(std::max<qint64>(1, (retryMs + 999) / 1000));
    return e;
}

// RFC 8628 §3.1–3.2.
void OAuthApi::deviceAuthorizationEndpoint(const HttpRequest &req, const Responder &respond)
{
    // Each request stores a device code (kept an hour after it expired unless it gave a token)
    // for any public client: per address, as many a minute as sign-ins (oauth-login-rate), in
    // a window of their own.
    if (auto limited = perAddressLimit(QStringLiteral("device_authorization"),
                                       QStringLiteral("device authorizations"), req))
        return respond(limited->toResponse());
    QHash<QString, QString> form;
    Client client;
    if (auto e = authenticatedForm(req, &form, &client))
        return respond(e->toResponse());
    if (!client.grantTypes.contains(QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")))
        return respond(unauthorizedClient(QStringLiteral("the device_code grant is not "
                                                         "among this client's "
                                                         "grant_types"))
                           .toResponse());
    if (auto e = resourceNotTaken(form))
        return respond(e->toResponse());
    QStringList scopes;
    if (auto e = requestedScopes(client, form.value(QStringLiteral("scope")), &scopes))
        return respond(e->toResponse());
    const QString deviceCode = Crypto::Random::token(32);
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const int kLifetimeS = int(m_deviceCodeLifetimeMs / 1000);
    static constexpr int kIntervalS = 5;
    auto userCode = std::make_shared<QString>();
    const QString clientId = client.clientId;
    // Not null when empty (a client without scopes): the column is NOT NULL, and a null
    // QString is bound as NULL.
    const QString scope = scopes.isEmpty() ? QStringLiteral("") : scopes.join(QLatin1Char(' '));
    m_writer.submit(
        [deviceCode, now, userCode, clientId, scope, kLifetimeS](Core::WriteTransaction &tx) {
            static constexpr const char *kInsert =
                "INSERT INTO oauth_device_codes (hash, user_code, client_id, scope, status, "
                "issued_at, expires_at, interval_s) VALUES (?, ?, ?, ?, 'pending', ?, ?, ?) "
                "ON CONFLICT DO NOTHING";
            for (int attempt = 0; attempt < 5; ++attempt) { // a user code collision
                Core::Statement &q = tx.stmt(kInsert);
                *userCode = newUserCode();
                q.bind(1, TokenIssuer::hashToken(deviceCode)).bind(2, *userCode);
                q.bind(3, clientId).bind(4, scope).bind(5, now);
                q.bind(6, now + kLifetimeS * 1000).bind(7, kIntervalS);
                if (!q.exec())
                    return Core::Result<void>(Core::WriteTransaction::sqlError(q, "device code"));
                if (q.changes() == 1)
                    return Core::Result<void>();
            }
            return Core::Result<void>(Core::makeError(QStringLiteral("server_error"),
                                                      QStringLiteral("no free user code"), 500));
        },
        [this, deviceCode, userCode, respond, kLifetimeS](const Core::Result<void> &r) {
            if (!r)
                return respond(
                    storageError(r.error(), QStringLiteral("the device code could not be stored"))
                        .toResponse());
            const QString uri = m_issuer + QStringLiteral("/oauth2/device");
            const QString shown = formatUserCode(*userCode);
            respond(noStore(
                HttpResponse::json(200, QJsonObject{{QStringLiteral("device_code"), deviceCode},
                                                    {QStringLiteral("user_code"), shown},
                                                    {QStringLiteral("verification_uri"), uri},
                                                    {QStringLiteral("verification_uri_complete"),
                                                     uri + QStringLiteral("?user_code=") + shown},
                                                    {QStringLiteral("expires_in"), kLifetimeS},
                                                    {QStringLiteral("interval"), kIntervalS}})));
        });
}

// A resource server (marked so by an administrator) is the audience `aud` names: its own
// client id, one of its allowed_resources, or the orders API's for a client holding an orders
// scope (the resources its client_credentials tokens may name). It learns about other
// clients' access tokens for those only: not about tokens for another resource, which it
// might otherwise take for its own, nor about refresh tokens, which only their client uses.
bool OAuthApi::serves(const Client &caller, const QString &audience) const
{
    if (!caller.resourceServer || audience.isEmpty())
        return false;
    if (audience == caller.clientId || caller.allowedResources.contains(audience))
        return true;
    return audience == m_trust.ordersResource() &&
           std::any_of(caller.scopes.begin(), caller.scopes.end(),
                       [](const QString &s) { return s.startsWith(QLatin1String("orders:")); });
}

// RFC 7662.
HttpResponse OAuthApi::introspectionEndpoint(const HttpRequest &req) const
{
    QHash<QString, QString> form;
    Client caller;
    if (auto e = authenticatedForm(req, &form, &caller))
        return e->toResponse();
    if (!caller.confidential())
        return invalidClient(QStringLiteral("introspection needs a confidential client"), false)
            .toResponse();
    const QString token = form.value(QStringLiteral("token"));
    if (token.isEmpty())
        return invalidRequest(QStringLiteral("token is required")).toResponse();
    const Core::ReadStatement q = m_database.read(
        "SELECT client_id, subject, scope, audience, issued_at, expires_at, revoked_at, "
        "kind, auth_time, act FROM oauth_tokens WHERE hash = ?");
    q->bind(1, TokenIssuer::storageKey(token));
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    // RFC 7662 §2.2 / §4: an id_token is not an OAuth token, and a client learns about its
    // own tokens only, except a resource server about the access tokens meant for it (anything
    // else answers inactive, as an unknown token would: no oracle for other clients' tokens).
    // A refresh token whose sign-in is older than oauth-refresh-max-lifetime (lowered since it
    // was issued) is refused by the refresh grant: inactive here too.
    // A token that could not be read is not inactive (its holder would throw it away).
    const bool found = q->next();
    if (!found && !q->ok())
        return storageError(Core::Database::readFailed(*q),
                            QStringLiteral("the token could not be read"))
            .toResponse();
    if (!found || !q->isNull(6) || q->int64(5) <= now || q->text(7) == QLatin1String("id") ||
        (q->text(0) != caller.clientId &&
         (q->text(7) != QLatin1String("access") || !serves(caller, q->text(3)))) ||
        (q->text(7) == QLatin1String("refresh") &&
         m_issuerImpl.signInTooOld(q->isNull(8) ? 0 : q->int64(8), now)))
        return noStore(HttpResponse::json(200, QJsonObject{{QStringLiteral("active"), false}}));
    const QString clientId = q->text(0);
    const QString subject = q->text(1);
    const QString kind = q->text(7);
    const QString storedScope = q->text(2);
    const QString audience = q->text(3);
    const qint64 issuedAt = q->int64(4);
    const qint64 expiresAt = q->int64(5);
    const QByteArray act = q->isNull(9) ? QByteArray() : q->text(9).toUtf8();
    // What the token's client may still have (the resource guard and the refresh grant decide
    // alike): a scope an administrator took from the client is no longer the token's, and a
    // refresh token of a client without offline_access is no longer usable.
    const auto lookedUp = m_clients.lookup(clientId);
    if (!lookedUp)
        return storageError(lookedUp.error(),
                            QStringLiteral("the token's client could not be read"))
            .toResponse();
    const std::optional<Client> &tokenClient = *lookedUp;
    if (!tokenClient || (kind == QLatin1String("refresh") &&
                         !tokenClient->scopes.contains(QStringLiteral("offline_access"))))
        return noStore(HttpResponse::json(200, QJsonObject{{QStringLiteral("active"), false}}));
    QStringList scopes = storedScope.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    scopes.removeIf([&](const QString &s) { return !tokenClient->scopes.contains(s); });
    const QString scope = scopes.join(QLatin1Char(' '));
    QJsonObject o{
        {QStringLiteral("active"), true},         {QStringLiteral("client_id"), clientId},
        {QStringLiteral("sub"), subject},         {QStringLiteral("aud"), audience},
        {QStringLiteral("iat"), issuedAt / 1000}, {QStringLiteral("exp"), expiresAt / 1000},
        {QStringLiteral("iss"), m_issuer}};
    if (kind == QLatin1String("access"))
        o.insert(QStringLiteral("token_type"), QStringLiteral("Bearer"));
    if (subject != clientId)
        if (const auto user = m_users.findById(subject))
            o.insert(QStringLiteral("username"), user->username);
    if (!scope.isEmpty())
        o.insert(QStringLiteral("scope"), scope);
    // Who acts for the subject (RFC 8693 §2.2.1 / §4.1, registered for introspection answers
    // in §7.6.2): a resource server told only the subject would take a delegated token, an
    // opaque one above all, for the user's own.
    if (!act.isEmpty())
        if (const QJsonObject chain = QJsonDocument::fromJson(act).object(); !chain.isEmpty())
            o.insert(QStringLiteral("act"), chain);
    return noStore(HttpResponse::json(200, o));
}

// RFC 7009.
void OAuthApi::revocationEndpoint(const HttpRequest &req, const Responder &respond)
{
    QHash<QString, QString> form;
    Client caller;
    if (auto e = authenticatedForm(req, &form, &caller))
        return respond(e->toResponse());
    const QString token = form.value(QStringLiteral("token"));
    if (token.isEmpty())
        return respond(invalidRequest(QStringLiteral("token is required")).toResponse());
    const QString hash = TokenIssuer::storageKey(token);
    const QString clientId = caller.clientId;
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    auto refused = std::make_shared<bool>(false);
    m_writer.submit(
        [hash, clientId, now, refused](Core::WriteTransaction &tx) -> Core::Result<void> {
            Core::Statement &q =
                tx.stmt("SELECT client_id, kind, family FROM oauth_tokens WHERE hash = ?");
            q.bind(1, hash);
            if (!q.next()) {
                // A read that failed is not an unknown token: 200 would say "revoked" while
                // the token lives on.
                if (!q.ok())
                    return Core::WriteTransaction::sqlError(q, "find token");
                return {}; // unknown tokens: 200 all the same (RFC 7009 §2.2)
            }
            if (q.text(0) != clientId) {
                *refused = true;
                return {};
            }
            // A refresh token takes its family (the access tokens it begot) with it.
            const QString family = q.text(2);
            if (q.text(1) == QLatin1String("refresh") && !family.isEmpty()) {
                if (!revokeFamily(tx, family, now))
                    return Core::makeError(QStringLiteral("server_error"),
                                           QStringLiteral("revocation failed"), 500);
                return {};
            }
            Core::Statement &u = tx.stmt("UPDATE oauth_tokens SET revoked_at = ? WHERE "
                                         "hash = ? AND revoked_at IS NULL");
            if (!u.bind(1, now).bind(2, hash).exec())
                return Core::WriteTransaction::sqlError(u, "revoke");
            // What was exchanged from it dies with it.
            if (!revokeDescendants(tx, hash, now))
                return Core::makeError(QStringLiteral("server_error"),
                                       QStringLiteral("revocation failed"), 500);
            return {};
        },
        [respond, refused](const Core::Result<void> &r) {
            if (!r)
                return respond(
                    storageError(r.error(), QStringLiteral("the revocation could not be stored"))
                        .toResponse());
            if (*refused) // RFC 7009 §2.1: only the client it was issued to may revoke it
                return respond(
                    unauthorizedClient(QStringLiteral("the token was issued to another client"))
                        .toResponse());
            respond(noStore(HttpResponse{200, {}, {}, {}}));
        });
}

// OIDC Core §5.3: claims about the user the access token stands for, by its scopes.
HttpResponse OAuthApi::userinfoEndpoint(const HttpRequest &req) const
{
    auto challenge = [](int status, const QByteArray &error, const QString &description) {
        HttpResponse r =
            status == 401 && error.isEmpty()
                ? HttpResponse{401, {}, {}, {}}
                : HttpResponse::json(
                      status, QJsonObject{{QStringLiteral("error"), QString::fromLatin1(error)},
                                          {QStringLiteral("error_description"), description}});
        QByteArray h = "Bearer realm=\"gatehouse\"";
        if (!error.isEmpty())
            h += ", error=\"" + error + "\", error_description=\"" + description.toUtf8() + "\"";
        r.setHeader("WWW-Authenticate", h);
        return noStore(r);
    };
    const QString token = req.bearerToken();
    if (token.isEmpty())
        return challenge(401, {}, {});
    // A token that could not be read is not invalid (its holder would throw it away).
    const QSqlDatabase db = m_database.connection();
    const auto unreadable = [&db](const QSqlQuery *failed) {
        return noStore(storageError(Core::Database::readFailed(
                                        db, failed ? failed->lastError().text() : QString()),
                                    QStringLiteral("the token could not be read"))
                           .toResponse());
    };
    if (!db.isOpen())
        return unreadable(nullptr);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT kind, client_id, subject, scope, expires_at, revoked_at, "
                             "audience FROM oauth_tokens WHERE hash = ?"));
    q.addBindValue(TokenIssuer::storageKey(token));
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    if (!q.exec())
        return unreadable(&q);
    if (!q.next() || q.value(0).toString() != QLatin1String("access") || !q.value(5).isNull() ||
        q.value(4).toLongLong() <= now)
        return challenge(401, "invalid_token",
                         QStringLiteral("the access token is unknown, expired or revoked"));
    // A token for another resource server (resource=, token exchange) is that server's: it
    // would read the user's claims here with what the user gave the client (as node
    // oidc-provider, which answers a token with an audience so). The client's own tokens and
    // the orders API's (this server) are userinfo's.
    if (const QString audience = q.value(6).toString();
        audience != q.value(1).toString() && audience != m_trust.ordersResource())
        return challenge(401, "invalid_token",
                         QStringLiteral("token audience prevents accessing the userinfo endpoint"));
    QStringList scopes = q.value(3).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    // Less what an administrator took from the token's client since it was issued.
    const auto lookedUp = m_clients.lookup(q.value(1).toString());
    if (!lookedUp)
        return noStore(
            storageError(lookedUp.error(), QStringLiteral("the token's client could not be read"))
                .toResponse());
    const std::optional<Client> &client = *lookedUp;
    if (!client)
        return challenge(401, "invalid_token",
                         QStringLiteral("the access token's client no longer exists"));
    scopes.removeIf([&client](const QString &s) { return !client->scopes.contains(s); });
    if (!scopes.contains(QStringLiteral("openid")))
        return challenge(403, "insufficient_scope",
                         QStringLiteral("the access token lacks the openid scope"));
    const auto userRead = m_users.lookupById(q.value(2).toString());
    if (!userRead)
        return noStore(storageError(userRead.error(), QStringLiteral("the user could not be read"))
                           .toResponse());
    const std::optional<User> &user = *userRead;
    if (!user)
        return challenge(401, "invalid_token",
                         QStringLiteral("the user of this token no longer exists"));
    QJsonObject claims = scopedUserClaims(*user, scopes, false);
    claims.insert(QStringLiteral("sub"), user->id);
    return noStore(HttpResponse::json(200, claims));
}

} // namespace Gatehouse::OAuth
