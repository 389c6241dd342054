#include "oauth/oauthapi.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/httpserver.h"
#include "core/jsonwriter.h"
#include "core/writequeue.h"
#include "crypto/jws.h"
#include "crypto/random.h"
#include "oauth/form.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QUrlQuery>

namespace Gatehouse::OAuth {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

// The client id and secret of HTTP Basic credentials (RFC 6749 §2.3.1: form-encoded, then
// Base64); nullopt when the header is not Basic, the pair without a colon: malformed.
std::optional<std::pair<QString, QString>> basicCredentials(const HttpRequest &req, bool *malformed)
{
    *malformed = false;
    const QByteArray authz = req.header("authorization");
    if (authz.left(6).compare("Basic ", Qt::CaseInsensitive) != 0)
        return std::nullopt;
    const QByteArray decoded = QByteArray::fromBase64(authz.mid(6).trimmed());
    const qsizetype colon = decoded.indexOf(':');
    if (colon < 0) {
        *malformed = true;
        return std::pair<QString, QString>();
    }
    return std::pair{formDecode(decoded.left(colon)), formDecode(decoded.mid(colon + 1))};
}

// The client a token request names (Basic or client_id), before it is authenticated.
QString namedClientId(const HttpRequest &req, const QHash<QString, QString> &form)
{
    bool malformed = false;
    if (const auto basic = basicCredentials(req, &malformed))
        return basic->first;
    return form.value(QStringLiteral("client_id"));
}

} // namespace

OAuthApi::OAuthApi(Core::HttpServer &server, Core::Database &database, Core::WriteQueue &writer,
                   Core::EventBus &events, const Core::Clock &clock, QString issuer,
                   AuthorizeSettings authorize)
    : m_server(server), m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_issuer(std::move(issuer)), m_keys(database, writer), m_clients(database, writer, clock),
      m_users(database, writer, clock), m_issuerImpl(m_keys, m_issuer),
      m_trusted(database, writer, clock), m_jti(database, writer),
      m_deviceCodeLifetimeMs(authorize.deviceCodeLifetimeMs),
      m_authorize(server, database, writer, events, clock, m_clients, m_users, m_issuer, authorize)
{
    m_issuerImpl.setRefreshLifetimeMs(authorize.refreshLifetimeMs);
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
        m_issuerImpl, m_trusted, m_keys, m_database, m_users, m_clients, m_trust));
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
    const QJsonArray authMethods{QStringLiteral("client_secret_basic"),
                                 QStringLiteral("client_secret_post")};
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
                return respond(OAuthError{QStringLiteral("server_error"),
                                          QStringLiteral("the token could not be stored"), 500}
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
            if (queue)
                queue->post(publish);
            else
                publish();
        });
}

void OAuthApi::mintClientCredentials(const QString &clientId, const QHash<QString, QString> &params,
                                     const Responder &respond)
{
    const auto client = m_clients.find(clientId);
    if (!client)
        return respond(OAuthError{QStringLiteral("client-not-found"),
                                  QStringLiteral("no client %1").arg(clientId), 404}
                           .toResponse());
    TokenRequest tr;
    tr.params = params;
    tr.client = *client;
    tr.now = m_clock.now().toMSecsSinceEpoch();
    for (const auto &g : m_grants)
        if (g->grantType() == QLatin1String("client_credentials")) {
            GrantResult result = g->handle(tr);
            if (result.error)
                return respond(result.error->toResponse());
            return commit(std::move(result), QStringLiteral("client_credentials"), respond);
        }
}

QJsonObject OAuthApi::previewToken(const QJsonObject &request) const
{
    auto failure = [](const QString &error, const QString &description) {
        return QJsonObject{{QStringLiteral("error"), error},
                           {QStringLiteral("error_description"), description}};
    };
    QHash<QString, QString> params;
    for (auto it = request.begin(); it != request.end(); ++it) {
        if (!it.value().isString())
            return failure(QStringLiteral("invalid_request"),
                           QStringLiteral("%1 must be a string").arg(it.key()));
        params.insert(it.key(), it.value().toString());
    }
    const auto client = m_clients.find(params.value(QStringLiteral("client_id")));
    if (!client)
        return failure(
            QStringLiteral("invalid_client"),
            QStringLiteral("no client '%1'").arg(params.value(QStringLiteral("client_id"))));
    const QString grant =
        params.value(QStringLiteral("grant_type"), QStringLiteral("client_credentials"));
    ClaimSources sources;
    GrantResult result;
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    static const QStringList userGrants{
        QStringLiteral("authorization_code"), QStringLiteral("password"),
        QStringLiteral("refresh_token"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")};
    if (grant == QLatin1String("client_credentials") ||
        grant == QLatin1String("urn:ietf:params:oauth:grant-type:token-exchange")) {
        // The grant's own handler, as the token endpoint runs it, minus storing.
        TokenRequest tr;
        tr.params = params;
        tr.client = *client;
        tr.now = now;
        tr.sources = &sources;
        for (const auto &g : m_grants)
            if (g->grantType() == grant)
                result = g->handle(tr);
    } else if (userGrants.contains(grant)) {
        // The user grants differ in how they establish the user (a code, a password, a
        // device approval, a refresh token) and share the issuing: issueUserTokens.
        if (!client->grantTypes.contains(grant))
            return failure(QStringLiteral("unauthorized_client"),
                           QStringLiteral("%1 is not among this client's grant_types").arg(grant));
        const auto user = m_users.find(params.value(QStringLiteral("username")));
        if (!user)
            return failure(QStringLiteral("invalid_request"),
                           QStringLiteral("a user grant needs \"username\" of an existing user"));
        UserTokenRequest utr;
        utr.client = &*client;
        utr.user = &*user;
        if (auto e = requestedScopes(*client, params.value(QStringLiteral("scope")), &utr.scopes))
            return failure(e->error, e->description);
        noteSource(&sources, QStringLiteral("scope"),
                   params.value(QStringLiteral("scope")).isEmpty()
                       ? QStringLiteral("clientRecord")
                       : QStringLiteral("requestedScope"),
                   params.value(QStringLiteral("scope")).isEmpty()
                       ? QStringLiteral("no scope requested: all the client's allowed scopes")
                       : QStringLiteral("the scope parameter (consented), each allowed by the "
                                        "client record"));
        utr.authTime = now;
        utr.now = now;
        utr.sources = &sources;
        issueUserTokens(m_issuerImpl, utr, &result);
        // The id_token's user claims come from the same function with the id_token's rules
        // (profile included): note their sources too.
        scopedUserClaims(*user, utr.scopes, false, &sources);
    } else if (grant == QLatin1String("urn:ietf:params:oauth:grant-type:jwt-bearer")) {
        return failure(QStringLiteral("unsupported_grant_type"),
                       QStringLiteral("a dry run of jwt-bearer would spend the assertion's jti; "
                                      "preview it as the token exchange of the same JWT"));
    } else {
        return failure(QStringLiteral("unsupported_grant_type"),
                       QStringLiteral("unknown grant_type '%1'").arg(grant));
    }
    if (result.error)
        return failure(result.error->error, result.error->description);
    if (result.tokens.isEmpty())
        return failure(QStringLiteral("server_error"), QStringLiteral("nothing would be issued"));
    const IssuedToken &access = result.tokens.first();
    QJsonObject out{{QStringLiteral("clientId"), client->clientId},
                    {QStringLiteral("grantType"), grant},
                    {QStringLiteral("format"), access.format},
                    {QStringLiteral("stored"), false}};
    QJsonObject claims;
    if (access.format == QLatin1String("jwt")) {
        // Header and claims only: the signed value would be a valid token nobody recorded.
        const auto decoded = Crypto::Jws::decodeUnverified(access.value.toLatin1());
        if (!decoded)
            return failure(QStringLiteral("server_error"), decoded.error().message);
        out.insert(QStringLiteral("header"), decoded->value(QLatin1String("header")));
        claims = decoded->value(QLatin1String("payload")).toObject();
        out.insert(QStringLiteral("note"),
                   QStringLiteral("a dry run of the real issuing code: the signature is withheld "
                                  "and nothing is stored; iat, exp and jti differ in a real "
                                  "token"));
    } else {
        // Opaque: what introspection would answer for it.
        claims = QJsonObject{{QStringLiteral("iss"), m_issuer},
                             {QStringLiteral("sub"), access.subject},
                             {QStringLiteral("aud"), access.audience},
                             {QStringLiteral("client_id"), access.clientId},
                             {QStringLiteral("iat"), access.issuedAt / 1000},
                             {QStringLiteral("exp"), access.expiresAt / 1000}};
        if (!access.scope.isEmpty())
            claims.insert(QStringLiteral("scope"), access.scope);
        out.insert(QStringLiteral("note"),
                   QStringLiteral("an opaque token: these are the fields introspection would "
                                  "answer; the value is withheld and nothing is stored"));
    }
    out.insert(QStringLiteral("claims"), claims);
    QJsonObject src;
    for (auto it = claims.begin(); it != claims.end(); ++it) {
        const ClaimSource cs =
            sources.value(it.key(), ClaimSource{QStringLiteral("unknown"), QString()});
        src.insert(it.key(), QJsonObject{{QStringLiteral("source"), cs.source},
                                         {QStringLiteral("detail"), cs.detail}});
    }
    out.insert(QStringLiteral("sources"), src);
    QJsonArray also;
    for (const char *k : {"refresh_token", "id_token"})
        if (result.response.contains(QLatin1String(k)))
            also.append(QLatin1String(k));
    out.insert(QStringLiteral("alsoIssued"), also);
    // The id_token's claims too (openid): the user claims share the access token's sources.
    if (const QString id = result.response.value(QLatin1String("id_token")).toString();
        !id.isEmpty()) {
        const auto decoded = Crypto::Jws::decodeUnverified(id.toLatin1());
        if (decoded) {
            const QJsonObject idClaims = decoded->value(QLatin1String("payload")).toObject();
            static const QHash<QString, std::pair<QString, QString>> fixed{
                {QStringLiteral("aud"),
                 {QStringLiteral("clientRecord"), QStringLiteral("the client's client_id")}},
                {QStringLiteral("exp"),
                 {QStringLiteral("clientRecord"),
                  QStringLiteral("issue time + the client's access_token_lifetime")}},
                {QStringLiteral("auth_time"),
                 {QStringLiteral("time"), QStringLiteral("when the user signed in")}},
                {QStringLiteral("at_hash"),
                 {QStringLiteral("server"),
                  QStringLiteral("the left half of SHA-256 of the access token")}},
                {QStringLiteral("nonce"),
                 {QStringLiteral("request"), QStringLiteral("the nonce of the authorization "
                                                            "request")}},
                {QStringLiteral("jti"),
                 {QStringLiteral("random"), QStringLiteral("the time of issue (ms, hex) and 128 "
                                                           "random bits, new for every token")}}};
            QJsonObject idSources;
            for (auto it = idClaims.begin(); it != idClaims.end(); ++it) {
                ClaimSource cs = sources.value(it.key());
                if (const auto f = fixed.constFind(it.key()); f != fixed.constEnd())
                    cs = ClaimSource{f->first, f->second};
                if (cs.source.isEmpty())
                    cs = ClaimSource{QStringLiteral("unknown"), QString()};
                idSources.insert(it.key(), QJsonObject{{QStringLiteral("source"), cs.source},
                                                       {QStringLiteral("detail"), cs.detail}});
            }
            out.insert(QStringLiteral("idToken"),
                       QJsonObject{{QStringLiteral("claims"), idClaims},
                                   {QStringLiteral("sources"), idSources}});
        }
    }
    return out;
}

QJsonObject OAuthApi::effectiveAccess(const QJsonObject &request) const
{
    auto failure = [](const QString &error, const QString &description) {
        return QJsonObject{{QStringLiteral("error"), error},
                           {QStringLiteral("error_description"), description}};
    };
    static const QStringList userGrants{
        QStringLiteral("authorization_code"), QStringLiteral("password"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")};
    auto scopeRows = [](const Client &c) {
        QJsonArray rows;
        for (const QString &s : c.scopes)
            rows.append(QJsonObject{
                {QStringLiteral("scope"), s},
                {QStringLiteral("source"), QStringLiteral("clientRecord")},
                {QStringLiteral("detail"),
                 QStringLiteral("allowed by the scope of client \"%1\"").arg(c.clientName)}});
        return rows;
    };
    const QString username = request.value(QLatin1String("username")).toString();
    const QString clientId = request.value(QLatin1String("client_id")).toString();
    if (username.isEmpty() == clientId.isEmpty())
        return failure(QStringLiteral("invalid_request"),
                       QStringLiteral("give either \"username\" or \"client_id\""));
    if (!username.isEmpty()) {
        const auto user = m_users.find(username);
        if (!user)
            return failure(QStringLiteral("invalid_request"),
                           QStringLiteral("no user '%1'").arg(username));
        QJsonArray clients;
        for (const Client &c : m_clients.all()) {
            QString grant;
            for (const QString &g : userGrants)
                if (c.grantTypes.contains(g)) {
                    grant = g;
                    break;
                }
            if (grant.isEmpty())
                continue; // a client without a user grant never acts for a user
            QJsonObject entry{
                {QStringLiteral("clientId"), c.clientId},
                {QStringLiteral("clientName"), c.clientName},
                {QStringLiteral("grantTypes"), QJsonArray::fromStringList(c.grantTypes)},
                {QStringLiteral("scopes"), scopeRows(c)}};
            const QList<QJsonObject> consent = m_users.consents(user->id, c.clientId);
            entry.insert(QStringLiteral("consent"), consent.isEmpty()
                                                        ? QJsonValue(QJsonValue::Null)
                                                        : QJsonValue(consent.first()));
            // Every allowed scope at once: every claim the user can reach through this client.
            const QJsonObject p = previewToken(
                QJsonObject{{QStringLiteral("client_id"), c.clientId},
                            {QStringLiteral("grant_type"), grant},
                            {QStringLiteral("username"), user->username},
                            {QStringLiteral("scope"), c.scopes.join(QLatin1Char(' '))}});
            if (p.contains(QLatin1String("error"))) {
                entry.insert(QStringLiteral("error"), p.value(QLatin1String("error_description")));
            } else {
                entry.insert(
                    QStringLiteral("accessToken"),
                    QJsonObject{{QStringLiteral("claims"), p.value(QLatin1String("claims"))},
                                {QStringLiteral("sources"), p.value(QLatin1String("sources"))}});
                if (p.contains(QLatin1String("idToken")))
                    entry.insert(QStringLiteral("idToken"), p.value(QLatin1String("idToken")));
            }
            clients.append(entry);
        }
        return QJsonObject{
            {QStringLiteral("subject"),
             QJsonObject{{QStringLiteral("kind"), QStringLiteral("user")},
                         {QStringLiteral("id"), user->id},
                         {QStringLiteral("username"), user->username},
                         {QStringLiteral("groups"), QJsonArray::fromStringList(user->groups)}}},
            {QStringLiteral("clients"), clients}};
    }
    const auto c = m_clients.find(clientId);
    if (!c)
        return failure(QStringLiteral("invalid_client"),
                       QStringLiteral("no client '%1'").arg(clientId));
    QJsonArray audiences{
        QJsonObject{{QStringLiteral("audience"), c->clientId},
                    {QStringLiteral("source"), QStringLiteral("clientRecord")},
                    {QStringLiteral("detail"), QStringLiteral("the default: its own client_id")}}};
    if (c->grantTypes.contains(QStringLiteral("client_credentials")))
        audiences.append(
            QJsonObject{{QStringLiteral("audience"), QStringLiteral("any absolute URI")},
                        {QStringLiteral("source"), QStringLiteral("request")},
                        {QStringLiteral("detail"),
                         QStringLiteral("client_credentials: the resource parameter (RFC 8707)")}});
    for (const QString &a : c->tokenExchangeAudiences)
        audiences.append(QJsonObject{{QStringLiteral("audience"), a},
                                     {QStringLiteral("source"), QStringLiteral("exchangePolicy")},
                                     {QStringLiteral("detail"),
                                      QStringLiteral("token exchange: token_exchange_audiences")}});
    QJsonObject out{
        {QStringLiteral("subject"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("client")},
                                                {QStringLiteral("clientId"), c->clientId},
                                                {QStringLiteral("clientName"), c->clientName}}},
        {QStringLiteral("grantTypes"), QJsonArray::fromStringList(c->grantTypes)},
        {QStringLiteral("scopes"), scopeRows(*c)},
        {QStringLiteral("audiences"), audiences},
        {QStringLiteral("actsForUsers"),
         std::any_of(userGrants.begin(), userGrants.end(),
                     [&c](const QString &g) { return c->grantTypes.contains(g); })}};
    if (c->grantTypes.contains(QStringLiteral("client_credentials"))) {
        const QJsonObject p = previewToken(
            QJsonObject{{QStringLiteral("client_id"), c->clientId},
                        {QStringLiteral("grant_type"), QStringLiteral("client_credentials")}});
        if (!p.contains(QLatin1String("error")))
            out.insert(QStringLiteral("clientCredentials"),
                       QJsonObject{{QStringLiteral("claims"), p.value(QLatin1String("claims"))},
                                   {QStringLiteral("sources"), p.value(QLatin1String("sources"))}});
    }
    return out;
}

QJsonObject OAuthApi::tokenStatus(const QByteArray &token, const QJsonObject &header,
                                  const QJsonObject &payload) const
{
    const bool here = payload.value(QLatin1String("iss")).toString() == m_issuer;
    QJsonObject out{{QStringLiteral("issuedHere"), here}};
    // The signing key: one of ours (and in which state), or unknown.
    const QString kid = header.value(QLatin1String("kid")).toString();
    QJsonObject key{{QStringLiteral("kid"), kid}, {QStringLiteral("known"), false}};
    for (const QJsonObject &k : m_keys.list())
        if (!kid.isEmpty() && k.value(QLatin1String("kid")).toString() == kid) {
            key = k;
            key.insert(QStringLiteral("known"), true);
            key.insert(QStringLiteral("detail"),
                       k.value(QLatin1String("state")) == QLatin1String("retired")
                           ? QStringLiteral("a retired key, still published until every token "
                                            "it signed has expired")
                       : k.value(QLatin1String("state")) == QLatin1String("next")
                           ? QStringLiteral("the next key: published, but it signs nothing yet")
                           : QStringLiteral("the active signing key"));
        }
    if (!key.value(QLatin1String("known")).toBool())
        key.insert(QStringLiteral("detail"),
                   here ? QStringLiteral("not among this server's published keys (rotated out, "
                                         "or never ours)")
                        : QStringLiteral("not a key of this server"));
    out.insert(QStringLiteral("key"), key);

    // The stored token, found by its storage key (issue time and hash; never the value).
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const QString hash = TokenIssuer::storageKey(QString::fromLatin1(token));
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT kind, client_id, subject, expires_at, revoked_at FROM "
                             "oauth_tokens WHERE hash = ?"));
    q.addBindValue(hash);
    if (q.exec() && q.next()) {
        const bool revoked = !q.value(4).isNull();
        const bool expired = q.value(3).toLongLong() <= now;
        QJsonObject stored{{QStringLiteral("id"), hash},
                           {QStringLiteral("kind"), q.value(0).toString()},
                           {QStringLiteral("state"), revoked   ? QStringLiteral("revoked")
                                                     : expired ? QStringLiteral("expired")
                                                               : QStringLiteral("active")},
                           {QStringLiteral("expiresAt"), Core::isoTimeMs(q.value(3).toLongLong())},
                           {QStringLiteral("revocable"), !revoked && !expired}};
        if (revoked)
            stored.insert(QStringLiteral("revokedAt"), Core::isoTimeMs(q.value(4).toLongLong()));
        out.insert(QStringLiteral("stored"), stored);
    } else {
        out.insert(
            QStringLiteral("stored"),
            QJsonObject{{QStringLiteral("state"), QStringLiteral("notStored")},
                        {QStringLiteral("revocable"), false},
                        {QStringLiteral("detail"),
                         !here ? QStringLiteral("not issued by this server")
                         : header.value(QLatin1String("typ")) == QLatin1String("at+jwt") ||
                                 payload.contains(QLatin1String("at_hash"))
                             ? QStringLiteral("no stored token has this value: not issued here, "
                                              "or removed after it expired")
                             : QStringLiteral("assertions are not stored")}});
    }

    // Its client and user: do they still exist?
    if (here) {
        QString clientId = payload.value(QLatin1String("client_id")).toString();
        if (clientId.isEmpty() && payload.value(QLatin1String("aud")).isString())
            clientId = payload.value(QLatin1String("aud")).toString(); // an id_token
        if (!clientId.isEmpty()) {
            const auto c = m_clients.find(clientId);
            QJsonObject client{{QStringLiteral("clientId"), clientId},
                               {QStringLiteral("exists"), c.has_value()}};
            if (c)
                client.insert(QStringLiteral("clientName"), c->clientName);
            out.insert(QStringLiteral("client"), client);
        }
        const QString sub = payload.value(QLatin1String("sub")).toString();
        if (!sub.isEmpty() && sub != clientId) {
            const auto u = m_users.find(sub);
            QJsonObject user{{QStringLiteral("id"), sub},
                             {QStringLiteral("exists"), u.has_value()}};
            if (u)
                user.insert(QStringLiteral("username"), u->username);
            out.insert(QStringLiteral("user"), user);
        }
    }
    return out;
}

QJsonArray OAuthApi::activeTokens(const QString &clientId, const QString &subject, int limit) const
{
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral(
        "SELECT t.hash, t.kind, t.format, t.client_id, t.subject, u.username, t.scope, "
        "t.audience, t.issued_at, t.expires_at FROM oauth_tokens t LEFT JOIN oauth_users u ON "
        "u.id = t.subject WHERE t.revoked_at IS NULL AND t.expires_at > ? AND t.kind <> 'id' AND "
        "(? = '' OR "
        "t.client_id = ?) AND (? = '' OR t.subject = ?) ORDER BY t.id DESC LIMIT ?"));
    q.addBindValue(m_clock.now().toMSecsSinceEpoch());
    for (const QString &v : {clientId, clientId, subject, subject})
        q.addBindValue(v.isNull() ? QString(QLatin1String("")) : v);
    q.addBindValue(limit);
    QJsonArray items;
    if (q.exec())
        while (q.next()) {
            QJsonObject o{{QStringLiteral("id"), q.value(0).toString()},
                          {QStringLiteral("kind"), q.value(1).toString()},
                          {QStringLiteral("format"), q.value(2).toString()},
                          {QStringLiteral("clientId"), q.value(3).toString()},
                          {QStringLiteral("subject"), q.value(4).toString()},
                          {QStringLiteral("scope"), q.value(6).toString()},
                          {QStringLiteral("audience"), q.value(7).toString()},
                          {QStringLiteral("issuedAt"), Core::isoTimeMs(q.value(8).toLongLong())},
                          {QStringLiteral("expiresAt"), Core::isoTimeMs(q.value(9).toLongLong())}};
            if (!q.value(5).isNull())
                o.insert(QStringLiteral("username"), q.value(5).toString());
            items.append(o);
        }
    return items;
}

void OAuthApi::revokeById(const QString &id, std::function<void(Core::Result<void>)> done)
{
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    Core::EventBus *events = &m_events;
    m_writer.submit(
        [id, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            Core::Statement &q = tx.stmt(
                "SELECT kind, family FROM oauth_tokens WHERE hash = ? AND revoked_at IS NULL");
            q.bind(1, id);
            if (!q.next())
                return Core::Error{QStringLiteral("token-not-found"),
                                   QStringLiteral("no active token %1").arg(id), 404};
            const QString family = q.text(1);
            if (q.text(0) == QLatin1String("refresh") && !family.isEmpty())
                revokeFamily(tx, family, now);
            Core::Statement &u = tx.stmt("UPDATE oauth_tokens SET revoked_at = ? WHERE hash = ? "
                                         "AND revoked_at IS NULL");
            if (!u.bind(1, now).bind(2, id).exec())
                return Core::WriteTransaction::sqlError(u, "revoke token");
            return {};
        },
        [id, events, done = std::move(done)](const Core::Result<void> &r) {
            if (r)
                events->publish(
                    QStringLiteral("oauth.token.revoked"),
                    QJsonObject{{QStringLiteral("tokenHashPrefix"), TokenIssuer::keyPrefix(id)},
                                {QStringLiteral("by"), QStringLiteral("admin")}});
            done(r);
        });
}

std::optional<OAuthError> OAuthApi::authenticateAssertion(const HttpRequest &req,
                                                          const QHash<QString, QString> &form,
                                                          Client *client)
{
    // RFC 7523 §2.2 / RFC 7521 §4.2: a JWT signed with one of the client's registered keys.
    if (form.value(QStringLiteral("client_assertion_type")) !=
        QLatin1String("urn:ietf:params:oauth:client-assertion-type:jwt-bearer"))
        return invalidClient(
            QStringLiteral("client_assertion_type must be "
                           "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            false);
    if (form.contains(QStringLiteral("client_secret")))
        return invalidRequest(QStringLiteral("use one client authentication method, not two"));
    const QByteArray assertion = form.value(QStringLiteral("client_assertion")).toUtf8();
    if (assertion.isEmpty())
        return invalidClient(QStringLiteral("client_assertion is required"), false);
    const QString id = peekIssuer(assertion);
    const QString named = form.value(QStringLiteral("client_id"));
    if (id.isEmpty() || (!named.isEmpty() && named != id))
        return invalidClient(QStringLiteral("the assertion's iss must be the client_id"), false);
    const auto found = m_clients.find(id);
    if (!found || found->tokenEndpointAuthMethod != QLatin1String("private_key_jwt"))
        return invalidClient(QStringLiteral("unknown client or not a private_key_jwt client"),
                             false);
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const QStringList audiences{m_issuer, m_issuer + QStringLiteral("/oauth2/token"),
                                m_issuer + req.path};
    auto claims = verifyAssertion(assertion, found->jwks, id, id, audiences, now, 600);
    if (!claims)
        return invalidClient(claims.error().message, false);
    if (!m_jti.claim(id, claims->value(QStringLiteral("jti")).toString(),
                     qint64(claims->value(QStringLiteral("exp")).toDouble()) * 1000 + 60'000, now))
        return invalidClient(QStringLiteral("this client_assertion was already used (jti)"), false);
    *client = *found;
    return std::nullopt;
}

std::optional<QString> OAuthApi::clusterTokenRefusal(const QString &token,
                                                     const QJsonObject &claims) const
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
    const Core::ReadStatement q =
        m_database.read("SELECT kind, expires_at, revoked_at FROM oauth_tokens WHERE hash = ?");
    q->bind(1, TokenIssuer::storageKey(token));
    if (!q->next() || (q->text(0) != QLatin1String("access") && q->text(0) != QLatin1String("id")))
        return QStringLiteral("the token is not one its issuer recorded");
    if (!q->isNull(2))
        return QStringLiteral("the token was revoked");
    if (q->int64(1) <= m_clock.now().toMSecsSinceEpoch())
        return QStringLiteral("the token has expired");
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

    // Client authentication (RFC 6749 §2.3.1): Basic or client_secret in the form, the way the
    // client registered; a public client names itself with client_id and proves nothing.
    auto authenticate = [this](const HttpRequest &req, const QHash<QString, QString> &form,
                               Client *client) -> std::optional<OAuthError> {
        bool malformed = false;
        const auto credentials = basicCredentials(req, &malformed);
        const bool basic = credentials.has_value();
        QString id;
        QString secret;
        QString method;
        if (basic) {
            if (malformed)
                return invalidClient(QStringLiteral("malformed Basic credentials"), true);
            id = credentials->first;
            secret = credentials->second;
            method = QStringLiteral("client_secret_basic");
            if (form.contains(QStringLiteral("client_secret")) ||
                form.contains(QStringLiteral("client_assertion")))
                return invalidRequest(
                    QStringLiteral("use one client authentication method, not two"));
        } else if (form.contains(QStringLiteral("client_secret"))) {
            id = form.value(QStringLiteral("client_id"));
            secret = form.value(QStringLiteral("client_secret"));
            method = QStringLiteral("client_secret_post");
        } else if (form.contains(QStringLiteral("client_assertion_type")) ||
                   form.contains(QStringLiteral("client_assertion"))) {
            return authenticateAssertion(req, form, client);
        } else {
            id = form.value(QStringLiteral("client_id"));
            method = QStringLiteral("none");
        }
        if (id.isEmpty())
            return invalidClient(QStringLiteral("client authentication is required"), basic);
        const auto found = m_clients.find(id);
        // Fail closed with one answer for an unknown client and a wrong secret.
        if (!found)
            return invalidClient(QStringLiteral("unknown client or wrong credentials"), basic);
        if (found->tokenEndpointAuthMethod != method)
            return invalidClient(QStringLiteral("this client authenticates with %1")
                                     .arg(found->tokenEndpointAuthMethod),
                                 basic);
        if (method != QLatin1String("none") && !ClientRegistry::secretMatches(*found, secret))
            return invalidClient(QStringLiteral("unknown client or wrong credentials"), basic);
        *client = *found;
        return std::nullopt;
    };

    // A token request once its form is parsed and its grant known: client authentication,
    // the grant's handler, storing.
    auto tokenRequest = [this, authenticate](const HttpRequest &req,
                                             const QHash<QString, QString> &form,
                                             const GrantHandler *handler, const QString &grantType,
                                             const Responder &respond) {
        TokenRequest tr;
        tr.params = form;
        if (auto e = authenticate(req, form, &tr.client))
            return respond(e->toResponse());
        tr.now = m_clock.now().toMSecsSinceEpoch();
        tr.address = addressKey(req.peerAddress);
        GrantResult result = handler->handle(tr);
        if (result.error)
            return respond(result.error->toResponse());
        commit(std::move(result), grantType, respond);
    };
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/token"),
        [this, tokenRequest](const HttpRequest &req, const Responder &respond) {
            QHash<QString, QString> form;
            if (auto e = parseForm(req, &form))
                return respond(e->toResponse());
            const QString grantType = form.value(QStringLiteral("grant_type"));
            if (grantType.isEmpty())
                return respond(
                    invalidRequest(QStringLiteral("grant_type is required")).toResponse());
            const GrantHandler *handler = nullptr;
            for (const auto &g : m_grants)
                if (g->grantType() == grantType)
                    handler = g.get();
            if (!handler)
                return respond(
                    unsupportedGrantType(
                        QStringLiteral("grant_type '%1' is not supported").arg(grantType))
                        .toResponse());
            // Signing (RSA, ECDSA), password hashing (argon2id) and client assertions run on
            // the server's pool. An opaque client_credentials token needs none of them (a
            // SHA-256 of the secret, random bytes, a hash) and is made here: handing it to
            // the pool cost more than making it (a thread woken per request).
            if (grantType == QLatin1String("client_credentials") &&
                !form.contains(QStringLiteral("client_assertion"))) {
                const auto client = m_clients.find(namedClientId(req, form));
                if (client && client->accessTokenFormat == QLatin1String("opaque"))
                    return tokenRequest(req, form, handler, grantType, respond);
            }
            m_server.runOnPool([tokenRequest, req, form = std::move(form), handler, grantType,
                                respond] { tokenRequest(req, form, handler, grantType, respond); });
        });

    // RFC 8628 §3.1–3.2.
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/device_authorization"),
        [this, authenticate](const HttpRequest &req, const Responder &respond) {
            QHash<QString, QString> form;
            if (auto e = parseForm(req, &form))
                return respond(e->toResponse());
            Client client;
            if (auto e = authenticate(req, form, &client))
                return respond(e->toResponse());
            if (!client.grantTypes.contains(
                    QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")))
                return respond(unauthorizedClient(QStringLiteral("the device_code grant is not "
                                                                 "among this client's "
                                                                 "grant_types"))
                                   .toResponse());
            QStringList scopes;
            if (auto e = requestedScopes(client, form.value(QStringLiteral("scope")), &scopes))
                return respond(e->toResponse());
            const QString deviceCode = Crypto::Random::token(32);
            const qint64 now = m_clock.now().toMSecsSinceEpoch();
            const int kLifetimeS = int(m_deviceCodeLifetimeMs / 1000);
            static constexpr int kIntervalS = 5;
            auto userCode = std::make_shared<QString>();
            const QString clientId = client.clientId;
            const QString scope = scopes.join(QLatin1Char(' '));
            m_writer.submit(
                [deviceCode, now, userCode, clientId, scope,
                 kLifetimeS](Core::WriteTransaction &tx) {
                    static constexpr const char *kInsert =
                        "INSERT OR IGNORE INTO oauth_device_codes (hash, user_code, client_id, "
                        "scope, status, issued_at, expires_at, interval_s) VALUES (?, ?, ?, ?, "
                        "'pending', ?, ?, ?)";
                    for (int attempt = 0; attempt < 5; ++attempt) { // a user code collision
                        Core::Statement &q = tx.stmt(kInsert);
                        *userCode = newUserCode();
                        q.bind(1, TokenIssuer::hashToken(deviceCode)).bind(2, *userCode);
                        q.bind(3, clientId).bind(4, scope).bind(5, now);
                        q.bind(6, now + kLifetimeS * 1000).bind(7, kIntervalS);
                        if (!q.exec())
                            return Core::Result<void>(
                                Core::WriteTransaction::sqlError(q, "device code"));
                        if (q.changes() == 1)
                            return Core::Result<void>();
                    }
                    return Core::Result<void>(Core::makeError(
                        QStringLiteral("server_error"), QStringLiteral("no free user code"), 500));
                },
                [this, deviceCode, userCode, respond, kLifetimeS](const Core::Result<void> &r) {
                    if (!r)
                        return respond(
                            OAuthError{QStringLiteral("server_error"), r.error().message, 500}
                                .toResponse());
                    const QString uri = m_issuer + QStringLiteral("/oauth2/device");
                    const QString shown = formatUserCode(*userCode);
                    respond(noStore(HttpResponse::json(
                        200, QJsonObject{{QStringLiteral("device_code"), deviceCode},
                                         {QStringLiteral("user_code"), shown},
                                         {QStringLiteral("verification_uri"), uri},
                                         {QStringLiteral("verification_uri_complete"),
                                          uri + QStringLiteral("?user_code=") + shown},
                                         {QStringLiteral("expires_in"), kLifetimeS},
                                         {QStringLiteral("interval"), kIntervalS}})));
                });
        });

    m_server.route(
        "POST", QStringLiteral("/oauth2/introspect"),
        [this, authenticate](const HttpRequest &req) {
            QHash<QString, QString> form;
            if (auto e = parseForm(req, &form))
                return e->toResponse();
            Client caller;
            if (auto e = authenticate(req, form, &caller))
                return e->toResponse();
            if (!caller.confidential())
                return invalidClient(QStringLiteral("introspection needs a confidential client"),
                                     false)
                    .toResponse();
            const QString token = form.value(QStringLiteral("token"));
            if (token.isEmpty())
                return invalidRequest(QStringLiteral("token is required")).toResponse();
            const Core::ReadStatement q = m_database.read(
                "SELECT client_id, subject, scope, audience, issued_at, expires_at, revoked_at, "
                "kind FROM oauth_tokens WHERE hash = ?");
            q->bind(1, TokenIssuer::storageKey(token));
            const qint64 now = m_clock.now().toMSecsSinceEpoch();
            // RFC 7662 §2.2 / §4: an id_token is not an OAuth token, and a client that is not
            // a resource server learns only about its own tokens (anything else answers
            // inactive, as an unknown token would: no oracle for other clients' tokens).
            if (!q->next() || !q->isNull(6) || q->int64(5) <= now ||
                q->text(7) == QLatin1String("id") ||
                (!caller.resourceServer && q->text(0) != caller.clientId))
                return noStore(
                    HttpResponse::json(200, QJsonObject{{QStringLiteral("active"), false}}));
            const QString clientId = q->text(0);
            const QString subject = q->text(1);
            const QString scope = q->text(2);
            QJsonObject o{{QStringLiteral("active"), true},
                          {QStringLiteral("client_id"), clientId},
                          {QStringLiteral("sub"), subject},
                          {QStringLiteral("aud"), q->text(3)},
                          {QStringLiteral("iat"), q->int64(4) / 1000},
                          {QStringLiteral("exp"), q->int64(5) / 1000},
                          {QStringLiteral("iss"), m_issuer}};
            if (q->text(7) == QLatin1String("access"))
                o.insert(QStringLiteral("token_type"), QStringLiteral("Bearer"));
            if (subject != clientId)
                if (const auto user = m_users.find(subject))
                    o.insert(QStringLiteral("username"), user->username);
            if (!scope.isEmpty())
                o.insert(QStringLiteral("scope"), scope);
            return noStore(HttpResponse::json(200, o));
        },
        // On the pool: client authentication, the look-up and the answer use every core
        // instead of the connection thread's one.
        Core::RouteOptions{-1, true});

    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/revoke"),
        [this, authenticate](const HttpRequest &req, const Responder &respond) {
            QHash<QString, QString> form;
            if (auto e = parseForm(req, &form))
                return respond(e->toResponse());
            Client caller;
            if (auto e = authenticate(req, form, &caller))
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
                    if (!q.next())
                        return {}; // unknown tokens: 200 all the same (RFC 7009 §2.2)
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
                    return {};
                },
                [respond, refused](const Core::Result<void> &r) {
                    if (!r)
                        return respond(
                            OAuthError{QStringLiteral("server_error"), r.error().message, 500}
                                .toResponse());
                    if (*refused) // RFC 7009 §2.1: only the client it was issued to may revoke it
                        return respond(unauthorizedClient(
                                           QStringLiteral("the token was issued to another client"))
                                           .toResponse());
                    respond(noStore(HttpResponse{200, {}, {}, {}}));
                });
        });

    // OIDC Core §5.3: claims about the user the access token stands for, by its scopes.
    auto userinfo = [this](const HttpRequest &req) {
        auto challenge = [](int status, const QByteArray &error, const QString &description) {
            HttpResponse r =
                status == 401 && error.isEmpty()
                    ? HttpResponse{401, {}, {}, {}}
                    : HttpResponse::json(
                          status, QJsonObject{{QStringLiteral("error"), QString::fromLatin1(error)},
                                              {QStringLiteral("error_description"), description}});
            QByteArray h = "Bearer realm=\"gatehouse\"";
            if (!error.isEmpty())
                h +=
                    ", error=\"" + error + "\", error_description=\"" + description.toUtf8() + "\"";
            r.setHeader("WWW-Authenticate", h);
            return noStore(r);
        };
        const QString token = req.bearerToken();
        if (token.isEmpty())
            return challenge(401, {}, {});
        QSqlQuery q(m_database.connection());
        q.prepare(QStringLiteral("SELECT kind, client_id, subject, scope, expires_at, revoked_at "
                                 "FROM oauth_tokens WHERE hash = ?"));
        q.addBindValue(TokenIssuer::storageKey(token));
        const qint64 now = m_clock.now().toMSecsSinceEpoch();
        if (!q.exec() || !q.next() || q.value(0).toString() != QLatin1String("access") ||
            !q.value(5).isNull() || q.value(4).toLongLong() <= now)
            return challenge(401, "invalid_token",
                             QStringLiteral("the access token is unknown, expired or revoked"));
        const QStringList scopes =
            q.value(3).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (!scopes.contains(QStringLiteral("openid")))
            return challenge(403, "insufficient_scope",
                             QStringLiteral("the access token lacks the openid scope"));
        const auto user = m_users.find(q.value(2).toString());
        if (!user)
            return challenge(401, "invalid_token",
                             QStringLiteral("the user of this token no longer exists"));
        QJsonObject claims = scopedUserClaims(*user, scopes, false);
        claims.insert(QStringLiteral("sub"), user->id);
        return noStore(HttpResponse::json(200, claims));
    };
    m_server.route("GET", QStringLiteral("/oauth2/userinfo"), userinfo);
    m_server.route("POST", QStringLiteral("/oauth2/userinfo"), userinfo);
}

} // namespace Gatehouse::OAuth
