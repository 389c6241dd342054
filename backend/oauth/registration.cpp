// RFC 7591 dynamic client registration and RFC 7592 client configuration (read, update,
// delete with the registration access token).
#include "core/clock.h"
#include "core/eventbus.h"
#include "core/httpserver.h"
#include "oauth/oauthapi.h"

#include <QJsonDocument>

namespace Gatehouse::OAuth {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

// RFC 6750 §3 challenge for a missing or bad initial / registration access token.
HttpResponse invalidToken(const QString &description, bool tokenSent)
{
    HttpResponse r =
        tokenSent ? OAuthError{QStringLiteral("invalid_token"), description, 401}.toResponse()
                  : noStore(HttpResponse{401, {}, {}, {}});
    QByteArray challenge = "Bearer realm=\"gatehouse\"";
    if (tokenSent)
        challenge += ", error=\"invalid_token\"";
    r.setHeader("WWW-Authenticate", challenge);
    return r;
}

Core::Result<QJsonObject> jsonBody(const HttpRequest &req)
{
    const QByteArray type = req.header("content-type").split(';').first().trimmed().toLower();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
    if (type != "application/json" || pe.error != QJsonParseError::NoError || !doc.isObject())
        return Core::Error{QStringLiteral("invalid_client_metadata"),
                           QStringLiteral("the body must be a JSON object (application/json)"),
                           400};
    return doc.object();
}

HttpResponse metadataError(const Core::Error &e)
{
    // A storage failure says what could not be done, not the database's own text.
    if (e.httpStatus >= 500)
        return storageError(e, QStringLiteral("the client could not be stored")).toResponse();
    return OAuthError{e.code, e.message, e.httpStatus}.toResponse();
}

} // namespace

QJsonObject OAuthApi::registrationResponse(const ClientRegistry::Registered &r) const
{
    QJsonObject o = r.client.toJson();
    if (r.client.usesSecret() && !r.secret.isEmpty())
        o.insert(QStringLiteral("client_secret"), r.secret);
    if (!r.registrationToken.isEmpty())
        o.insert(QStringLiteral("registration_access_token"), r.registrationToken);
    o.insert(QStringLiteral("registration_client_uri"),
             m_issuer + QStringLiteral("/oauth2/register/") + r.client.clientId);
    return o;
}

void OAuthApi::registerRegistrationRoutes(bool openRegistration)
{
    Core::RouteOptions small;
    small.maxBodyBytes = 64 * 1024;
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/register"),
        [this, openRegistration](const HttpRequest &req, const Responder &respond) {
            const QString iat = req.bearerToken();
            if (iat.isEmpty() && !openRegistration)
                return respond(
                    invalidToken(QStringLiteral("an initial access token is required"), false));
            // Open registration stores a client (up to 64 KiB) for anyone: per address, as many
            // a minute as sign-ins (oauth-login-rate), in a window of their own.
            if (iat.isEmpty())
                if (auto limited = perAddressLimit(QStringLiteral("register"),
                                                   QStringLiteral("registrations"), req))
                    return respond(limited->toResponse());
            auto body = jsonBody(req);
            if (!body)
                return respond(metadataError(body.error()));
            // The policy that applies: the initial access token's own, else the server's. An
            // unusable token is refused before the metadata is looked at.
            RegistrationPolicy policy = m_trust.registrationPolicy();
            std::optional<RegistrationPolicy> tokenPolicy;
            if (!iat.isEmpty()) {
                const auto usable = m_clients.usableInitialAccessToken(
                    ClientRegistry::hashSecret(iat), m_clock.now().toMSecsSinceEpoch());
                if (!usable) // not read: try again, not "unknown"
                    return respond(storageError(usable.error(),
                                                QStringLiteral("the initial access token could "
                                                               "not be read"))
                                       .toResponse());
                const auto &token = *usable;
                if (!token)
                    return respond(invalidToken(
                        QStringLiteral("the initial access token is unknown, expired or used up"),
                        true));
                tokenPolicy = token->policy;
                if (tokenPolicy)
                    policy = *tokenPolicy;
            }
            auto client = ClientRegistry::fromMetadata(*body);
            if (!client)
                return respond(metadataError(client.error()));
            // Anything outside the policy is refused, naming the field; nothing is dropped.
            if (auto e = policy.check(*client))
                return respond(metadataError(*e));
            // A token's own policy stays the client's for its later updates (RFC 7592).
            client->registrationPolicy = tokenPolicy;
            m_clients.registerClient(
                *client,
                [this, respond](const Core::Result<ClientRegistry::Registered> &r) {
                    if (!r && r.error().code == QLatin1String("invalid_token"))
                        return respond(invalidToken(r.error().message, true));
                    if (!r)
                        return respond(metadataError(r.error()));
                    m_events.publish(
                        QStringLiteral("oauth.client.registered"),
                        QJsonObject{{QStringLiteral("clientId"), r->client.clientId},
                                    {QStringLiteral("clientName"), r->client.clientName},
                                    {QStringLiteral("via"), QStringLiteral("dynamic")}});
                    respond(noStore(HttpResponse::json(201, registrationResponse(*r))));
                },
                true, iat.isEmpty() ? QString() : ClientRegistry::hashSecret(iat));
        },
        small);

    // RFC 7592: the registration access token names exactly one client; any mismatch is 401.
    auto authorized = [this](const HttpRequest &req) -> Core::Result<std::optional<Client>> {
        return m_clients.findByRegistrationToken(req.pathParam(QStringLiteral("clientId")),
                                                 req.bearerToken());
    };
    // Not read (the database cannot be reached): try again, not 401 (the holder would drop its
    // registration access token).
    auto unreadable = [](const Core::Error &e) {
        return storageError(e, QStringLiteral("the client could not be read")).toResponse();
    };
    auto refused = [](const HttpRequest &req) {
        return invalidToken(
            QStringLiteral("the registration access token is not valid for this client"),
            !req.bearerToken().isEmpty());
    };
    m_server.route("GET", QStringLiteral("/oauth2/register/{clientId}"),
                   [this, authorized, refused, unreadable](const HttpRequest &req) {
                       const auto found = authorized(req);
                       if (!found)
                           return unreadable(found.error());
                       const std::optional<Client> &client = *found;
                       if (!client)
                           return refused(req);
                       return noStore(HttpResponse::json(
                           200, registrationResponse(ClientRegistry::Registered{*client, {}, {}})));
                   });
    m_server.routeDeferred(
        "PUT", QStringLiteral("/oauth2/register/{clientId}"),
        [this, authorized, refused, unreadable](const HttpRequest &req, const Responder &respond) {
            const auto found = authorized(req);
            if (!found)
                return respond(unreadable(found.error()));
            const std::optional<Client> &current = *found;
            if (!current)
                return respond(refused(req));
            // A client an administrator allowed to act for the cluster mints cluster
            // identities: its redirect URIs, grants and secret are changed through the admin
            // API with cluster:write only, never by the holder of its registration token
            // (RFC 7592 §2.2: 403 when the client may not update itself).
            if (current->clusterAccess)
                return respond(metadataError(ClientRegistry::clusterClientRefused()));
            auto body = jsonBody(req);
            if (!body)
                return respond(metadataError(body.error()));
            if (body->value(QStringLiteral("client_id")).toString() != current->clientId)
                return respond(metadataError(
                    {QStringLiteral("invalid_client_metadata"),
                     QStringLiteral("client_id must be present and equal this client's"), 400}));
            const QJsonValue secret = body->value(QStringLiteral("client_secret"));
            if (!secret.isUndefined() &&
                !ClientRegistry::secretMatches(*current, secret.toString()))
                return respond(
                    metadataError({QStringLiteral("invalid_client_metadata"),
                                   QStringLiteral("client_secret does not match"), 400}));
            for (const char *k : {"registration_access_token", "registration_client_uri",
                                  "client_secret_expires_at", "client_id_issued_at"})
                if (body->contains(QLatin1String(k)))
                    return respond(metadataError(
                        {QStringLiteral("invalid_client_metadata"),
                         QStringLiteral("%1 must not be sent in an update").arg(k), 400}));
            // The flag an administrator set is shown in the client's metadata; sending it back
            // unchanged is not a request to change it.
            if (body->value(QStringLiteral("cluster_access")).isBool() &&
                body->value(QStringLiteral("cluster_access")).toBool() == current->clusterAccess)
                body->remove(QStringLiteral("cluster_access"));
            auto client = ClientRegistry::fromMetadata(*body);
            if (!client)
                return respond(metadataError(client.error()));
            // The policy the client was registered under (its initial access token's, else the
            // server's as it is now), or what the client holds already (given at registration
            // or by an administrator).
            const RegistrationPolicy policy =
                current->registrationPolicy.value_or(m_trust.registrationPolicy());
            if (auto e = policy.check(*client, &*current))
                return respond(metadataError(*e));
            m_clients.update(
                current->clientId, *client,
                [this, respond](const Core::Result<ClientRegistry::Registered> &r) {
                    // The registration access token withdrawn meanwhile (a rotation): 401 with
                    // its challenge (RFC 6750 §3), as when it was refused before.
                    if (!r && r.error().code == QLatin1String("invalid_token"))
                        return respond(invalidToken(r.error().message, true));
                    if (!r)
                        return respond(metadataError(r.error()));
                    respond(noStore(HttpResponse::json(200, registrationResponse(*r))));
                },
                ClientRegistry::By::Registrant, req.bearerToken());
        },
        small);
    m_server.routeDeferred(
        "DELETE", QStringLiteral("/oauth2/register/{clientId}"),
        [this, authorized, refused, unreadable](const HttpRequest &req, const Responder &respond) {
            const auto found = authorized(req);
            if (!found)
                return respond(unreadable(found.error()));
            const std::optional<Client> &current = *found;
            if (!current)
                return respond(refused(req));
            // Deleting a cluster client would revoke every user's cluster tokens it issued:
            // the administrator's call, as any other change of it.
            if (current->clusterAccess)
                return respond(metadataError(ClientRegistry::clusterClientRefused()));
            m_clients.remove(
                current->clientId,
                [respond](const Core::Result<void> &r) {
                    if (!r && r.error().code == QLatin1String("invalid_token"))
                        return respond(invalidToken(r.error().message, true));
                    if (!r)
                        return respond(metadataError(r.error()));
                    respond(noStore(HttpResponse{204, {}, {}, {}}));
                },
                ClientRegistry::By::Registrant, req.bearerToken());
        });
}

} // namespace Gatehouse::OAuth
