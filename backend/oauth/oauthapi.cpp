#include "oauth/oauthapi.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/httpserver.h"
#include "core/writequeue.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QUrlQuery>

namespace Gatehouse::OAuth {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

// application/x-www-form-urlencoded, every parameter at most once (RFC 6749 §3.2).
std::optional<OAuthError> parseForm(const HttpRequest &req, QHash<QString, QString> *out)
{
    const QByteArray type = req.header("content-type").split(';').first().trimmed().toLower();
    if (type != "application/x-www-form-urlencoded")
        return invalidRequest(QStringLiteral("the body must be application/x-www-form-urlencoded"));
    QByteArray body = req.body;
    body.replace('+', "%20");
    const QUrlQuery q(QString::fromLatin1(body));
    for (const auto &item : q.queryItems(QUrl::FullyDecoded)) {
        if (out->contains(item.first))
            return invalidRequest(QStringLiteral("parameter '%1' is repeated").arg(item.first));
        out->insert(item.first, item.second);
    }
    return std::nullopt;
}

QString formDecode(const QByteArray &v)
{
    QByteArray b = v;
    b.replace('+', "%20");
    return QUrl::fromPercentEncoding(b);
}

} // namespace

OAuthApi::OAuthApi(Core::HttpServer &server, Core::Database &database, Core::WriteQueue &writer,
                   Core::EventBus &events, const Core::Clock &clock, QString issuer)
    : m_server(server), m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_issuer(std::move(issuer)), m_keys(database), m_clients(database, writer),
      m_issuerImpl(m_keys, m_issuer)
{
    m_grants.push_back(std::make_unique<ClientCredentialsGrant>(m_issuerImpl));
    registerRoutes();
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
    return QJsonObject{
        {QStringLiteral("issuer"), m_issuer},
        {QStringLiteral("token_endpoint"), m_issuer + QStringLiteral("/oauth2/token")},
        {QStringLiteral("jwks_uri"), m_issuer + QStringLiteral("/oauth2/jwks")},
        {QStringLiteral("introspection_endpoint"), m_issuer + QStringLiteral("/oauth2/introspect")},
        {QStringLiteral("revocation_endpoint"), m_issuer + QStringLiteral("/oauth2/revoke")},
        {QStringLiteral("grant_types_supported"), grants},
        {QStringLiteral("response_types_supported"), QJsonArray()},
        {QStringLiteral("token_endpoint_auth_methods_supported"), authMethods},
        {QStringLiteral("introspection_endpoint_auth_methods_supported"), authMethods},
        {QStringLiteral("revocation_endpoint_auth_methods_supported"), authMethods},
        {QStringLiteral("subject_types_supported"), QJsonArray{QStringLiteral("public")}},
        {QStringLiteral("id_token_signing_alg_values_supported"),
         QJsonArray{QStringLiteral("RS256")}},
        {QStringLiteral("token_endpoint_auth_signing_alg_values_supported"),
         QJsonArray{QStringLiteral("RS256")}}};
}

void OAuthApi::registerRoutes()
{
    for (const char *path :
         {"/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"})
        m_server.route("GET", QLatin1String(path), [this](const HttpRequest &) {
            return HttpResponse::json(200, discovery());
        });
    m_server.route("GET", QStringLiteral("/oauth2/jwks"), [this](const HttpRequest &) {
        return HttpResponse::text(200, QJsonDocument(m_keys.jwks()).toJson(QJsonDocument::Compact),
                                  "application/jwk-set+json");
    });

    // Client authentication (RFC 6749 §2.3.1): Basic or client_secret in the form, the way the
    // client registered; a public client names itself with client_id and proves nothing.
    auto authenticate = [this](const HttpRequest &req, const QHash<QString, QString> &form,
                               Client *client) -> std::optional<OAuthError> {
        const QByteArray authz = req.header("authorization");
        const bool basic = authz.left(6).compare("Basic ", Qt::CaseInsensitive) == 0;
        QString id;
        QString secret;
        QString method;
        if (basic) {
            const QByteArray decoded = QByteArray::fromBase64(authz.mid(6).trimmed());
            const qsizetype colon = decoded.indexOf(':');
            if (colon < 0)
                return invalidClient(QStringLiteral("malformed Basic credentials"), true);
            id = formDecode(decoded.left(colon));
            secret = formDecode(decoded.mid(colon + 1));
            method = QStringLiteral("client_secret_basic");
            if (form.contains(QStringLiteral("client_secret")))
                return invalidRequest(
                    QStringLiteral("use one client authentication method, not two"));
        } else if (form.contains(QStringLiteral("client_secret"))) {
            id = form.value(QStringLiteral("client_id"));
            secret = form.value(QStringLiteral("client_secret"));
            method = QStringLiteral("client_secret_post");
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

    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/token"),
        [this, authenticate](const HttpRequest &req, const Responder &respond) {
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
            TokenRequest tr;
            tr.params = form;
            if (auto e = authenticate(req, form, &tr.client))
                return respond(e->toResponse());
            tr.now = m_clock.now().toMSecsSinceEpoch();
            GrantResult result = handler->handle(tr);
            if (result.error)
                return respond(result.error->toResponse());
            auto shared = std::make_shared<GrantResult>(std::move(result));
            Core::EventBus *events = &m_events;
            m_writer.submit(
                [shared](Core::WriteTransaction &tx) -> Core::Result<void> {
                    for (const IssuedToken &t : shared->tokens)
                        if (auto r = TokenIssuer::store(tx, t); !r)
                            return r;
                    return {};
                },
                [shared, respond, events, grantType](const Core::Result<void> &r) {
                    if (!r)
                        return respond(OAuthError{QStringLiteral("server_error"),
                                                  QStringLiteral("the token could not be stored"),
                                                  500}
                                           .toResponse());
                    respond(noStore(HttpResponse::json(200, shared->response)));
                    for (const IssuedToken &t : shared->tokens)
                        events->publish(
                            QStringLiteral("oauth.token.issued"),
                            QJsonObject{
                                {QStringLiteral("clientId"), t.clientId},
                                {QStringLiteral("grantType"), grantType},
                                {QStringLiteral("format"), t.format},
                                {QStringLiteral("scope"), t.scope},
                                {QStringLiteral("tokenHashPrefix"), t.hash.left(8)},
                                {QStringLiteral("expiresAt"), Core::isoTimeMs(t.expiresAt)}});
                });
        });

    m_server.route(
        "POST", QStringLiteral("/oauth2/introspect"), [this, authenticate](const HttpRequest &req) {
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
            QSqlQuery q(m_database.connection());
            q.prepare(
                QStringLiteral("SELECT client_id, subject, scope, audience, issued_at, expires_at, "
                               "revoked_at FROM oauth_tokens WHERE hash = ?"));
            q.addBindValue(TokenIssuer::hashToken(token));
            const qint64 now = m_clock.now().toMSecsSinceEpoch();
            if (!q.exec() || !q.next() || !q.value(6).isNull() || q.value(5).toLongLong() <= now)
                return noStore(
                    HttpResponse::json(200, QJsonObject{{QStringLiteral("active"), false}}));
            QJsonObject o{{QStringLiteral("active"), true},
                          {QStringLiteral("client_id"), q.value(0).toString()},
                          {QStringLiteral("sub"), q.value(1).toString()},
                          {QStringLiteral("aud"), q.value(3).toString()},
                          {QStringLiteral("iat"), q.value(4).toLongLong() / 1000},
                          {QStringLiteral("exp"), q.value(5).toLongLong() / 1000},
                          {QStringLiteral("iss"), m_issuer},
                          {QStringLiteral("token_type"), QStringLiteral("Bearer")}};
            if (!q.value(2).toString().isEmpty())
                o.insert(QStringLiteral("scope"), q.value(2).toString());
            return noStore(HttpResponse::json(200, o));
        });

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
            const QString hash = TokenIssuer::hashToken(token);
            const QString clientId = caller.clientId;
            const qint64 now = m_clock.now().toMSecsSinceEpoch();
            auto refused = std::make_shared<bool>(false);
            m_writer.submit(
                [hash, clientId, now, refused](Core::WriteTransaction &tx) -> Core::Result<void> {
                    Core::Statement &q =
                        tx.stmt("SELECT client_id FROM oauth_tokens WHERE hash = ?");
                    q.bind(1, hash);
                    if (!q.next())
                        return {}; // unknown tokens: 200 all the same (RFC 7009 §2.2)
                    if (q.text(0) != clientId) {
                        *refused = true;
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
}

} // namespace Gatehouse::OAuth
