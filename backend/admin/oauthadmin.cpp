#include "admin/oauthadmin.h"

#include "admin/adminbody.h"
#include "admin/admintokens.h"
#include "core/clock.h"
#include "core/httpserver.h"
#include "oauth/jwtinspector.h"
#include "oauth/oauthapi.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace Gatehouse::Admin {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

// A client as administrators see it: its metadata, and whether it registered itself and
// whose word its redirect URIs have (docs/oauth.md, "Redirects a stranger registered").
QJsonObject adminView(const OAuth::Client &c)
{
    QJsonObject o = c.toJson();
    o.insert(QStringLiteral("self_registered"), c.selfRegistered);
    o.insert(QStringLiteral("redirects_vetted"), c.redirectsVetted());
    return o;
}

HttpResponse secretAnswer(int status, const OAuth::ClientRegistry::Registered &r)
{
    QJsonObject o = adminView(r.client);
    if (!r.secret.isEmpty()) // with client_secret_expires_at, in the client's metadata
        o.insert(QStringLiteral("client_secret"), r.secret);
    // A registered client's rotated registration access token (rotate-secret).
    if (!r.registrationToken.isEmpty())
        o.insert(QStringLiteral("registration_access_token"), r.registrationToken);
    HttpResponse resp = HttpResponse::json(status, o);
    resp.setHeader("Cache-Control", "no-store");
    return resp;
}

// 204 on success, the error otherwise.
std::function<void(const Core::Result<void> &)> noContent(const Responder &respond)
{
    return [respond](const Core::Result<void> &r) {
        respond(r ? HttpResponse{204, {}, {}, {}} : errorAnswer(r.error()));
    };
}

HttpResponse notAnObject()
{
    return HttpResponse::error(400, QStringLiteral("malformed-json"),
                               QStringLiteral("the body must be a JSON object"));
}

} // namespace

std::optional<Core::Error> OAuthAdminApi::areaRefusal(const HttpRequest &req, const QString &area,
                                                      bool write, const QString &what) const
{
    const auto principal = m_tokens.authenticate(req.bearerToken());
    if (principal && principal->may(area, write))
        return std::nullopt;
    // Fail closed: a change that reaches into another area needs that area too.
    return Core::Error{
        QStringLiteral("forbidden"),
        QStringLiteral("%1 %2: that also needs %3:%4")
            .arg(principal ? principal->describe() : QStringLiteral("this admin token"), what, area,
                 write ? QStringLiteral("write") : QStringLiteral("read")),
        403};
}

std::optional<HttpResponse> OAuthAdminApi::needsArea(const HttpRequest &req, const QString &area,
                                                     bool write, const QString &what) const
{
    if (auto e = areaRefusal(req, area, write, what))
        return errorAnswer(*e);
    return std::nullopt;
}

OAuth::ClientRegistry::StoredCheck OAuthAdminApi::storedClientCheck(const HttpRequest &req,
                                                                    const QString &verb) const
{
    // What this caller could not do, decided now, applied to the client as stored then.
    auto cluster =
        areaRefusal(req, QStringLiteral("cluster"), true,
                    QStringLiteral("may not %1 a client allowed to act for the cluster").arg(verb));
    const QString orders =
        QStringLiteral("may not %1 a client with the orders API's scopes").arg(verb);
    auto ordersWrite = areaRefusal(req, QStringLiteral("orders"), true, orders);
    auto ordersRead = areaRefusal(req, QStringLiteral("orders"), false, orders);
    return [cluster = std::move(cluster), ordersWrite = std::move(ordersWrite),
            ordersRead =
                std::move(ordersRead)](const OAuth::Client &stored) -> std::optional<Core::Error> {
        if (stored.clusterAccess && cluster)
            return cluster;
        if (stored.scopes.contains(QStringLiteral("orders:write")) && ordersWrite)
            return ordersWrite;
        if (stored.scopes.contains(QStringLiteral("orders:read")) && ordersRead)
            return ordersRead;
        return std::nullopt;
    };
}

qint64 OAuthAdminApi::credentialsUntil(const HttpRequest &req) const
{
    const auto by = m_tokens.authenticate(req.bearerToken());
    if (!by)
        return 1;
    return by->root ? 0 : by->expiresAt;
}

std::optional<HttpResponse> OAuthAdminApi::needsClusterWrite(const HttpRequest &req,
                                                             const QString &what) const
{
    return needsArea(req, QStringLiteral("cluster"), true, what);
}

std::optional<HttpResponse> OAuthAdminApi::needsOrdersArea(const HttpRequest &req,
                                                           const QStringList &scopes,
                                                           const QString &what) const
{
    const bool writes = scopes.contains(QStringLiteral("orders:write"));
    if (!writes && !scopes.contains(QStringLiteral("orders:read")))
        return std::nullopt;
    return needsArea(req, QStringLiteral("orders"), writes, what);
}

std::optional<HttpResponse> OAuthAdminApi::needsOrdersAreaForUsers(const HttpRequest &req,
                                                                   const QString &what) const
{
    static const QStringList userGrants{
        QStringLiteral("authorization_code"), QStringLiteral("password"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:device_code"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange")};
    const auto takesUsers = [](const QStringList &grants) {
        return std::any_of(grants.begin(), grants.end(),
                           [](const QString &g) { return userGrants.contains(g); });
    };
    QStringList scopes;
    QString through; // the first client or policy that makes it so, for the message
    const auto note = [&](const QStringList &granted, const QString &source) {
        for (const char *s : {"orders:read", "orders:write"})
            if (granted.contains(QLatin1String(s))) {
                scopes.append(QLatin1String(s));
                if (through.isEmpty())
                    through = source;
            }
    };
    // Not read (the database cannot be reached): refused, never taken for "no such client".
    const auto clients = m_oauth.clients().all();
    if (!clients)
        return errorAnswer(clients.error());
    for (const OAuth::Client &c : *clients)
        if (takesUsers(c.grantTypes))
            note(c.scopes, QStringLiteral("client \"%1\" (%2)").arg(c.clientName, c.clientId));
    if (const auto p = m_oauth.trust().registrationPolicy(); takesUsers(p.grantTypes))
        note(p.scopes, QStringLiteral("the registration policy"));
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const auto tokens = m_oauth.clients().initialAccessTokens();
    if (!tokens)
        return errorAnswer(tokens.error());
    for (const auto &t : *tokens)
        if (t.policy && t.expiresAt > now && t.usedCount < t.maxUses &&
            takesUsers(t.policy->grantTypes))
            note(t.policy->scopes,
                 QStringLiteral("initial access token %1's registration policy").arg(t.id));
    if (scopes.isEmpty())
        return std::nullopt;
    return needsOrdersArea(req, scopes,
                           QStringLiteral("%1: users sign in to %2, which has the orders API's "
                                          "scopes")
                               .arg(what, through));
}

std::optional<HttpResponse> OAuthAdminApi::needsAreasOfClient(const HttpRequest &req,
                                                              const QString &clientId,
                                                              const QString &verb) const
{
    const auto lookedUp = m_oauth.clients().lookup(clientId);
    if (!lookedUp) // not read: refused (fail closed), not let through as "no such client"
        return errorAnswer(lookedUp.error());
    const std::optional<OAuth::Client> &current = *lookedUp;
    if (!current)
        return std::nullopt;
    if (current->clusterAccess)
        if (auto refused = needsClusterWrite(
                req,
                QStringLiteral("may not %1 a client allowed to act for the cluster").arg(verb)))
            return refused;
    return needsOrdersArea(
        req, current->scopes,
        QStringLiteral("may not %1 a client with the orders API's scopes").arg(verb));
}

OAuthAdminApi::OAuthAdminApi(Core::HttpServer &server, OAuth::OAuthApi &oauth,
                             const AdminTokens &tokens, const Core::Clock &clock)
    : m_server(server), m_oauth(oauth), m_tokens(tokens), m_clock(clock)
{
    m_server.route("GET", QStringLiteral("/admin/v1/clients"), [this](const HttpRequest &) {
        const auto clients = m_oauth.clients().all();
        if (!clients)
            return errorAnswer(clients.error());
        QJsonArray items;
        for (const OAuth::Client &c : *clients)
            items.append(adminView(c));
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
    });
    m_server.route("GET", QStringLiteral("/admin/v1/clients/{id}"), [this](const HttpRequest &req) {
        const auto read = m_oauth.clients().lookup(req.pathParam(QStringLiteral("id")));
        if (!read) // not read (503): no "no such client"
            return errorAnswer(read.error());
        const std::optional<OAuth::Client> &c = *read;
        if (!c)
            return HttpResponse::error(
                404, QStringLiteral("client-not-found"),
                QStringLiteral("no client %1").arg(req.pathParam(QStringLiteral("id"))));
        return HttpResponse::json(200, adminView(*c));
    });
    auto parseMetadata = [](const HttpRequest &req) -> Core::Result<OAuth::Client> {
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
        if (pe.error != QJsonParseError::NoError || !doc.isObject())
            return Core::Error{QStringLiteral("malformed-json"),
                               QStringLiteral("the body must be a JSON object of client metadata"),
                               400};
        return OAuth::ClientRegistry::fromMetadata(doc.object());
    };
    // Answers with the client (and a secret, once) and tells the console (oauth.client.*).
    auto answer = [this](const Responder &respond, int status, const char *event) {
        return [this, respond, status,
                event](const Core::Result<OAuth::ClientRegistry::Registered> &r) {
            if (!r)
                return respond(errorAnswer(r.error()));
            m_oauth.publish(QLatin1String(event),
                            QJsonObject{{QStringLiteral("clientId"), r->client.clientId},
                                        {QStringLiteral("clientName"), r->client.clientName},
                                        {QStringLiteral("via"), QStringLiteral("admin")}});
            respond(secretAnswer(status, *r));
        };
    };
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/clients"),
        [this, parseMetadata, answer](const HttpRequest &req, const Responder &respond) {
            auto client = parseMetadata(req);
            if (!client)
                return respond(
                    HttpResponse::error(400, client.error().code, client.error().message));
            if (auto refused = needsOrdersArea(
                    req, client->scopes,
                    QStringLiteral("may not register a client with the orders API's scopes")))
                return respond(*refused);
            client->credentialsUntil = credentialsUntil(req);
            m_oauth.clients().registerClient(*client,
                                             answer(respond, 201, "oauth.client.registered"));
        });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/clients/{id}/rotate-secret"),
        [this, answer](const HttpRequest &req, const Responder &respond) {
            const QString id = req.pathParam(QStringLiteral("id"));
            if (auto refused = needsAreasOfClient(req, id, QStringLiteral("rotate the secret of")))
                return respond(*refused);
            m_oauth.clients().rotateSecret(
                id, answer(respond, 200, "oauth.client.secret-rotated"),
                storedClientCheck(req, QStringLiteral("rotate the secret of")),
                credentialsUntil(req));
        });
    m_server.routeDeferred(
        "PUT", QStringLiteral("/admin/v1/clients/{id}"),
        [this, answer](const HttpRequest &req, const Responder &respond) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
            QJsonObject body = doc.object();
            if (pe.error != QJsonParseError::NoError || !doc.isObject())
                return respond(HttpResponse::error(
                    400, QStringLiteral("malformed-json"),
                    QStringLiteral("the body must be a JSON object of client metadata")));
            // The client as read back carries cluster_access; sending it unchanged is no
            // request to change it (that has its own call, below).
            // Read failing closed: a client that could not be read is not "no client", which
            // would skip the checks below (the writer checks the stored client again).
            const auto read = m_oauth.clients().lookup(req.pathParam(QStringLiteral("id")));
            if (!read)
                return respond(errorAnswer(read.error()));
            const std::optional<OAuth::Client> &current = *read;
            // A client allowed to act for the cluster mints cluster identities: its grants,
            // redirect URIs and secret are the cluster's business too.
            if (current && current->clusterAccess)
                if (auto refused = needsClusterWrite(
                        req, QStringLiteral("may not change a client allowed to act for the "
                                            "cluster")))
                    return respond(*refused);
            if (current && body.value(QStringLiteral("cluster_access")).isBool() &&
                body.value(QStringLiteral("cluster_access")).toBool() == current->clusterAccess)
                body.remove(QStringLiteral("cluster_access"));
            auto client = OAuth::ClientRegistry::fromMetadata(body);
            if (!client)
                return respond(
                    HttpResponse::error(400, client.error().code, client.error().message));
            // Before and after: giving a client the orders API's scopes, and changing one that
            // has them (its grants, redirect URIs, bound customers), both need the orders area.
            QStringList scopes = client->scopes;
            if (current)
                scopes += current->scopes;
            if (auto refused = needsOrdersArea(
                    req, scopes,
                    QStringLiteral("may not change a client with the orders API's scopes")))
                return respond(*refused);
            client->credentialsUntil = credentialsUntil(req);
            m_oauth.clients().update(req.pathParam(QStringLiteral("id")), *client,
                                     answer(respond, 200, "oauth.client.updated"),
                                     OAuth::ClientRegistry::By::Admin, {},
                                     storedClientCheck(req, QStringLiteral("change")));
        });
    // {"allowed": true|false}: whether the client's tokens may reach the cluster API (tokens
    // for oidc-client-id). Needs cluster:write besides oauth:write; audited (docs/oauth.md).
    m_server.routeDeferred(
        "PUT", QStringLiteral("/admin/v1/clients/{id}/cluster-access"),
        [this, answer](const HttpRequest &req, const Responder &respond) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
            const QJsonValue allowed = doc.object().value(QStringLiteral("allowed"));
            if (pe.error != QJsonParseError::NoError || !doc.isObject() || !allowed.isBool() ||
                doc.object().size() != 1)
                return respond(HttpResponse::error(
                    400, QStringLiteral("malformed-json"),
                    QStringLiteral("the body must be {\"allowed\": true} or {\"allowed\": "
                                   "false}")));
            if (auto refused = needsClusterWrite(
                    req, QStringLiteral("may not let a client act for the cluster")))
                return respond(*refused);
            m_oauth.clients().setClusterAccess(req.pathParam(QStringLiteral("id")),
                                               allowed.toBool(),
                                               answer(respond, 200, "oauth.client.updated"));
        });
    m_server.routeDeferred(
        "DELETE", QStringLiteral("/admin/v1/clients/{id}"),
        [this](const HttpRequest &req, const Responder &respond) {
            const QString id = req.pathParam(QStringLiteral("id"));
            // As for a change: a client allowed to act for the cluster is the cluster's, one
            // with the orders API's scopes the orders area's (deleting either ends their
            // users' access, and a new client of that id could be registered in its place).
            if (auto refused = needsAreasOfClient(req, id, QStringLiteral("delete")))
                return respond(*refused);
            m_oauth.clients().remove(
                id,
                [this, id, respond](const Core::Result<void> &r) {
                    if (!r)
                        return respond(errorAnswer(r.error()));
                    m_oauth.publish(QStringLiteral("oauth.client.deleted"),
                                    QJsonObject{{QStringLiteral("clientId"), id}});
                    respond(HttpResponse{204, {}, {}, {}});
                },
                OAuth::ClientRegistry::By::Admin, {},
                storedClientCheck(req, QStringLiteral("delete")));
        });
    // {"alg": "RS256" (default) | "ES256"}: next -> active, active -> retired, a new next.
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/signing-keys/rotate"),
        [this](const HttpRequest &req, const Responder &respond) {
            const auto body = objectBody(req);
            if (!body)
                return respond(notAnObject());
            if (auto unknown = unknownMember(*body, {"alg"}))
                return respond(*unknown);
            const QJsonValue algValue = body->value(QStringLiteral("alg"));
            if (!algValue.isUndefined() && !algValue.isString()) // ["ES256"] rotated RS256
                return respond(HttpResponse::error(400, QStringLiteral("validation-failed"),
                                                   QStringLiteral("alg must be RS256 or ES256")));
            const QString alg = algValue.toString(QStringLiteral("RS256"));
            m_oauth.keys().rotate(
                alg, m_clock.now().toMSecsSinceEpoch(),
                [this, alg, respond](const Core::Result<void> &r) {
                    if (!r)
                        return respond(errorAnswer(r.error()));
                    m_oauth.publishKeyRotated(alg);
                    QJsonArray items;
                    for (const QJsonObject &k : m_oauth.keys().list())
                        items.append(k);
                    respond(HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}}));
                });
        });
    m_server.route("GET", QStringLiteral("/admin/v1/signing-keys"), [this](const HttpRequest &) {
        QJsonArray items;
        for (const QJsonObject &k : m_oauth.keys().list())
            items.append(k);
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
    });

    registerUserRoutes();
    registerTokenRoutes();
}

void OAuthAdminApi::registerUserRoutes()
{
    auto parseUser = [](const HttpRequest &req, bool create) -> Core::Result<OAuth::UserInput> {
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
        if (pe.error != QJsonParseError::NoError || !doc.isObject())
            return Core::Error{QStringLiteral("malformed-json"),
                               QStringLiteral("the body must be a JSON object"), 400};
        return OAuth::UserInput::fromJson(doc.object(), create);
    };
    auto now = [this] { return m_clock.now().toMSecsSinceEpoch(); };
    auto userAnswer = [now](const Responder &respond, int status) {
        return [respond, status, now](const Core::Result<OAuth::User> &r) {
            if (!r)
                return respond(errorAnswer(r.error()));
            respond(HttpResponse::json(status, r->toJson(now())));
        };
    };
    m_server.route("GET", QStringLiteral("/admin/v1/users"), [this, now](const HttpRequest &) {
        const auto users = m_oauth.users().all();
        if (!users)
            return errorAnswer(users.error());
        QJsonArray items;
        for (const OAuth::User &u : *users)
            items.append(u.toJson(now()));
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
    });
    m_server.route("GET", QStringLiteral("/admin/v1/users/{id}"),
                   [this, now](const HttpRequest &req) {
                       const QString id = req.pathParam(QStringLiteral("id"));
                       const auto read = m_oauth.users().lookup(id);
                       if (!read) // not read (503): no "no such user"
                           return errorAnswer(read.error());
                       const std::optional<OAuth::User> &u = *read;
                       if (!u)
                           return HttpResponse::error(404, QStringLiteral("user-not-found"),
                                                      QStringLiteral("no user %1").arg(id));
                       return HttpResponse::json(200, u->toJson(now()));
                   });
    // Creating a user or changing a password hashes with argon2id: on the pool.
    Core::RouteOptions pool;
    pool.async = true;
    pool.maxBodyBytes = 64 * 1024;
    // A user in a privileged cluster group (system:*, or a group oidc-group-mappings maps), or
    // one whom an RBAC binding names (as the cluster username their id_token gives, or through
    // one of their groups), is a cluster identity: making a user one, or changing such a user
    // (a password reset lets whoever reset it sign in as them), needs cluster:write as well
    // (fail closed).
    auto clusterReach =
        [this](const HttpRequest &req, const OAuth::UserInput &in, const QString &existing,
               const QString &verb = QStringLiteral("change")) -> std::optional<HttpResponse> {
        if (in.groups)
            for (const QString &g : *in.groups)
                if (privilegedGroup(g))
                    return needsClusterWrite(
                        req, QStringLiteral("may not give a user the group \"%1\"").arg(g));
        OAuth::User after;
        std::optional<OAuth::User> before;
        if (!existing.isEmpty()) {
            const auto lookedUp = m_oauth.users().lookup(existing);
            if (!lookedUp) // not read: refused (fail closed), not let through as "no such user"
                return errorAnswer(lookedUp.error());
            const std::optional<OAuth::User> &user = *lookedUp;
            if (!user)
                return std::nullopt; // the store answers 404
            for (const QString &g : user->groups)
                if (privilegedGroup(g))
                    return needsClusterWrite(
                        req, QStringLiteral("may not %1 user \"%2\", who is in the cluster "
                                            "group \"%3\"")
                                 .arg(verb, user->username, g));
            if (m_clusterBinding)
                if (const QString why = m_clusterBinding(*user); !why.isEmpty())
                    return needsClusterWrite(req, QStringLiteral("may not %1 user \"%2\" (%3)")
                                                      .arg(verb, user->username, why));
            after = *user;
            before = *user;
        }
        // The identity the user has after the change (a new username, email or group may be
        // one a binding names).
        after.username = in.username.value_or(after.username);
        after.email = in.email.value_or(after.email);
        after.name = in.name.value_or(after.name);
        after.groups = in.groups.value_or(after.groups);
        if (m_clusterBinding)
            if (const QString why = m_clusterBinding(after); !why.isEmpty())
                return needsClusterWrite(
                    req, QStringLiteral("may not make user \"%1\" a cluster identity (%2)")
                             .arg(after.username, why));
        // Two users whose tokens give the cluster one username would both get every binding
        // made to it later, whoever asks (a twin made ahead of the binding it waits for).
        if (m_clusterTwin) {
            const auto twin = m_clusterTwin(before ? &*before : nullptr, after);
            if (!twin)
                return errorAnswer(twin.error());
            if (!twin->isEmpty())
                return HttpResponse::error(409, QStringLiteral("cluster-username-taken"), *twin);
        }
        return std::nullopt;
    };
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/users"),
        [this, parseUser, userAnswer, clusterReach](const HttpRequest &req,
                                                    const Responder &respond) {
            auto in = parseUser(req, true);
            if (!in)
                return respond(errorAnswer(in.error()));
            if (auto refused = clusterReach(req, *in, {}))
                return respond(*refused);
            if (auto refused =
                    needsOrdersAreaForUsers(req, QStringLiteral("may not create a user")))
                return respond(*refused);
            in->passwordUntil = credentialsUntil(req); // the password ends with the token
            m_oauth.users().create(*in, userAnswer(respond, 201));
        },
        pool);
    m_server.routeDeferred(
        "PATCH", QStringLiteral("/admin/v1/users/{id}"),
        [this, parseUser, now, clusterReach](const HttpRequest &req, const Responder &respond) {
            auto in = parseUser(req, false);
            if (!in)
                return respond(errorAnswer(in.error()));
            if (auto refused = clusterReach(req, *in, req.pathParam(QStringLiteral("id"))))
                return respond(*refused);
            const bool passwordReset = in->password.has_value();
            if (passwordReset)
                if (auto refused = needsOrdersAreaForUsers(
                        req, QStringLiteral("may not reset a user's password")))
                    return respond(*refused);
            in->passwordUntil = credentialsUntil(req); // a new password ends with the token
            m_oauth.users().update(
                req.pathParam(QStringLiteral("id")), *in,
                [this, respond, now, passwordReset](const Core::Result<OAuth::User> &r) {
                    if (!r)
                        return respond(errorAnswer(r.error()));
                    // A password reset signs the user out everywhere (its tokens are revoked
                    // in the same transaction).
                    const QJsonObject user = r->toJson(now());
                    if (!passwordReset)
                        return respond(HttpResponse::json(200, user));
                    m_oauth.endSessions(r->id, [respond, user](const Core::Result<void> &ended) {
                        respond(ended ? HttpResponse::json(200, user) : errorAnswer(ended.error()));
                    });
                });
        },
        pool);
    // Lifting an administrator's lock gives a cluster identity its cluster access back: that
    // needs cluster:write as well, as changing the user would. A lock after failed sign-ins
    // only lets the user try again sooner (oauth:write, the help desk's case).
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/users/{id}/unlock"),
        [this, userAnswer, clusterReach](const HttpRequest &req, const Responder &respond) {
            const QString id = req.pathParam(QStringLiteral("id"));
            const auto user = m_oauth.users().lookup(id);
            if (!user) // not read: refused, never unlocked unchecked
                return respond(errorAnswer(user.error()));
            if (*user && (*user)->lockedByAdministrator()) {
                if (auto refused = clusterReach(req, OAuth::UserInput{}, id))
                    return respond(*refused);
                if (auto refused = needsOrdersAreaForUsers(
                        req, QStringLiteral("may not lift an administrator's lock")))
                    return respond(*refused);
            }
            m_oauth.users().unlock(id, userAnswer(respond, 200));
        });
    // Until unlocked: the user is signed out everywhere and every token held for them revoked.
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/users/{id}/lock"),
        [this, now](const HttpRequest &req, const Responder &respond) {
            m_oauth.users().lock(
                req.pathParam(QStringLiteral("id")),
                [this, respond, now](const Core::Result<OAuth::User> &r) {
                    if (!r)
                        return respond(errorAnswer(r.error()));
                    m_oauth.endSessions(r->id, [respond, user = r->toJson(now())](
                                                   const Core::Result<void> &ended) {
                        respond(ended ? HttpResponse::json(200, user) : errorAnswer(ended.error()));
                    });
                });
        });
    // Deleting a cluster identity, or a user who reaches the orders API, ends that access for
    // good: the area's write too, as changing them does. A lock (above) is the help desk's
    // brake: oauth:write alone, and lifting an administrator's lock is not.
    m_server.routeDeferred(
        "DELETE", QStringLiteral("/admin/v1/users/{id}"),
        [this, clusterReach](const HttpRequest &req, const Responder &respond) {
            if (auto refused =
                    clusterReach(req, OAuth::UserInput{}, req.pathParam(QStringLiteral("id")),
                                 QStringLiteral("delete")))
                return respond(*refused);
            if (auto refused =
                    needsOrdersAreaForUsers(req, QStringLiteral("may not delete a user")))
                return respond(*refused);
            m_oauth.users().remove(
                req.pathParam(QStringLiteral("id")),
                [this, respond](const Core::Result<QString> &removed) {
                    if (!removed)
                        return respond(errorAnswer(removed.error()));
                    m_oauth.endSessions(*removed, [respond](const Core::Result<void> &ended) {
                        respond(ended ? HttpResponse{204, {}, {}, {}} : errorAnswer(ended.error()));
                    });
                });
        });
    m_server.route("GET", QStringLiteral("/admin/v1/consents"), [this](const HttpRequest &req) {
        QJsonArray items;
        for (const QJsonObject &c :
             m_oauth.users().consents(req.query.queryItemValue(QStringLiteral("user")),
                                      req.query.queryItemValue(QStringLiteral("client"))))
            items.append(c);
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
    });
    m_server.routeDeferred("DELETE", QStringLiteral("/admin/v1/consents/{userId}/{clientId}"),
                           [this](const HttpRequest &req, const Responder &respond) {
                               m_oauth.users().revokeConsent(
                                   req.pathParam(QStringLiteral("userId")),
                                   req.pathParam(QStringLiteral("clientId")), noContent(respond));
                           });
}

void OAuthAdminApi::registerTokenRoutes()
{
    // RFC 7523 / RFC 8693 trusted issuers: {"issuer", "jwks", "scopes", "subjects" |
    // "anySubject"}; adding again replaces the keys (and what else is given).
    m_server.route("GET", QStringLiteral("/admin/v1/trusted-issuers"), [this](const HttpRequest &) {
        QJsonArray items;
        for (const auto &t : m_oauth.trustedIssuers().all())
            items.append(t.toJson());
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
    });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/trusted-issuers"),
        [this](const HttpRequest &req, const Responder &respond) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
            if (pe.error != QJsonParseError::NoError || !doc.isObject())
                return respond(HttpResponse::error(400, QStringLiteral("malformed-json"),
                                                   QStringLiteral("the body must be a JSON "
                                                                  "object")));
            auto issuer = OAuth::TrustedIssuer::fromJson(doc.object());
            if (!issuer)
                return respond(
                    HttpResponse::error(400, issuer.error().code, issuer.error().message));
            // Not an outside issuer: this server's own tokens (its access tokens, a pod's
            // service-account token) would become jwt-bearer assertions and subject tokens,
            // with none of the checks their own consumers make.
            if (issuer->issuer == m_oauth.issuer() ||
                issuer->issuer == QLatin1String("https://kubernetes.default.svc.cluster.local"))
                return respond(HttpResponse::error(
                    400, QStringLiteral("validation-failed"),
                    QStringLiteral("issuer: %1 is this server's own issuer (its tokens are no "
                                   "outside assertions)")
                        .arg(issuer->issuer)));
            // What its assertions may carry (the scopes given, or those it keeps when only its
            // keys are replaced): the orders API's need that area too.
            const auto current = m_oauth.trustedIssuers().find(issuer->issuer);
            // Whom a new issuer may assert is the administrator's explicit choice (re-adding
            // one keeps its subjects when none are given).
            if (!current && !issuer->subjectsGiven)
                return respond(HttpResponse::error(
                    400, QStringLiteral("validation-failed"),
                    QStringLiteral("subjects: name whom this issuer may assert (each a `sub`, or "
                                   "a local user's id or username), or set anySubject: true")));
            QStringList scopes = issuer->scopes;
            if (!issuer->scopesGiven && current)
                scopes = current->scopes;
            if (auto refused = needsOrdersArea(
                    req, scopes,
                    QStringLiteral("may not let an issuer's assertions carry the orders API's "
                                   "scopes")))
                return respond(*refused);
            // Taking them away revokes what its assertions carried of them: the orders area's
            // business as well, as deleting an orders client is.
            if (current)
                if (auto refused = needsOrdersArea(
                        req, current->scopes,
                        QStringLiteral("may not change an issuer whose assertions carry the "
                                       "orders API's scopes")))
                    return respond(*refused);
            issuer->expiresAt = credentialsUntil(req);
            const OAuth::TrustedIssuer added = *issuer;
            m_oauth.trustedIssuers().add(
                added, [this, added, respond](const Core::Result<void> &r) {
                    if (!r)
                        return respond(errorAnswer(r.error()));
                    const auto stored = m_oauth.trustedIssuers().find(added.issuer);
                    respond(HttpResponse::json(201, stored ? stored->toJson() : added.toJson()));
                });
        });
    // The issuer is a URL: named by the query (?issuer=...), not the path.
    m_server.routeDeferred(
        "DELETE", QStringLiteral("/admin/v1/trusted-issuers"),
        [this](const HttpRequest &req, const Responder &respond) {
            const QString issuer =
                req.query.queryItemValue(QStringLiteral("issuer"), QUrl::FullyDecoded);
            if (issuer.isEmpty())
                return respond(HttpResponse::error(400, QStringLiteral("invalid-query-parameter"),
                                                   QStringLiteral("?issuer= is required")));
            if (const auto current = m_oauth.trustedIssuers().find(issuer))
                if (auto refused = needsOrdersArea(
                        req, current->scopes,
                        QStringLiteral("may not remove an issuer whose assertions carry the "
                                       "orders API's scopes")))
                    return respond(*refused);
            m_oauth.trustedIssuers().remove(issuer, noContent(respond));
        });
    // RFC 7591 initial access tokens: {"expiresIn": seconds (default 86400), "maxUses": n
    // (default 1)} -> the token, shown once.
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/initial-access-tokens"),
        [this](const HttpRequest &req, const Responder &respond) {
            const auto body = objectBody(req);
            if (!body)
                return respond(notAnObject());
            const QJsonObject &o = *body;
            const QJsonValue expiresIn = o.value(QStringLiteral("expiresIn"));
            const QJsonValue maxUses = o.value(QStringLiteral("maxUses"));
            if ((!expiresIn.isUndefined() &&
                 (!expiresIn.isDouble() || expiresIn.toDouble() < 60 ||
                  expiresIn.toDouble() > 365.0 * 86400 ||
                  expiresIn.toDouble() != double(expiresIn.toInteger()))) ||
                (!maxUses.isUndefined() &&
                 (!maxUses.isDouble() || maxUses.toDouble() < 1 || maxUses.toDouble() > 100000 ||
                  maxUses.toDouble() != double(maxUses.toInteger()))))
                return respond(HttpResponse::error(
                    400, QStringLiteral("validation-failed"),
                    QStringLiteral("expiresIn: whole seconds, 60 to 31536000; maxUses: 1 to "
                                   "100000")));
            // Its own registration policy, when given: what registrations with this token may
            // ask for instead of the server's policy (members left out: the server's).
            std::optional<OAuth::RegistrationPolicy> policy;
            if (o.contains(QStringLiteral("policy")) &&
                !o.value(QStringLiteral("policy")).isNull()) {
                auto p = OAuth::RegistrationPolicy::fromJson(o.value(QStringLiteral("policy")),
                                                             m_oauth.trust().registrationPolicy());
                if (!p)
                    return respond(errorAnswer(p.error()));
                policy = *p;
            }
            // Without one of its own the token registers under the server's policy: the same
            // check for what that lets registrations ask for (today the server's policy cannot
            // bind a registration to customers, which refuses orders scopes on its own).
            if (auto refused = needsOrdersArea(
                    req, policy ? policy->scopes : m_oauth.trust().registrationPolicy().scopes,
                    QStringLiteral("may not let registrations ask for the orders API's scopes")))
                return respond(*refused);
            for (auto it = o.begin(); it != o.end(); ++it)
                if (it.key() != QLatin1String("expiresIn") &&
                    it.key() != QLatin1String("maxUses") && it.key() != QLatin1String("policy"))
                    return respond(HttpResponse::error(
                        400, QStringLiteral("validation-failed"),
                        QStringLiteral("unknown field '%1' (expiresIn, maxUses, policy)")
                            .arg(it.key().left(64))));
            m_oauth.clients().createInitialAccessToken(
                expiresIn.isUndefined() ? 86'400'000 : expiresIn.toInteger() * 1000,
                maxUses.isUndefined() ? 1 : int(maxUses.toInteger()), std::move(policy),
                credentialsUntil(req),
                [respond](const Core::Result<OAuth::ClientRegistry::InitialAccessToken> &r) {
                    if (!r)
                        return respond(errorAnswer(r.error()));
                    HttpResponse resp = HttpResponse::json(201, r->toJson());
                    resp.setHeader("Cache-Control", "no-store");
                    respond(resp);
                });
        });
    m_server.route(
        "GET", QStringLiteral("/admin/v1/initial-access-tokens"), [this](const HttpRequest &) {
            const auto tokens = m_oauth.clients().initialAccessTokens();
            if (!tokens)
                return errorAnswer(tokens.error());
            QJsonArray items;
            for (const auto &t : *tokens)
                items.append(t.toJson());
            return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
        });
    m_server.routeDeferred("DELETE", QStringLiteral("/admin/v1/initial-access-tokens/{id}"),
                           [this](const HttpRequest &req, const Responder &respond) {
                               m_oauth.clients().deleteInitialAccessToken(
                                   req.pathParam(QStringLiteral("id")), noContent(respond));
                           });
    m_server.route("GET", QStringLiteral("/admin/v1/tokens"), [this](const HttpRequest &req) {
        bool ok = true;
        const QString limitText = req.query.queryItemValue(QStringLiteral("limit"));
        const int limit = limitText.isEmpty() ? 200 : limitText.toInt(&ok);
        if (!ok || limit < 1 || limit > 1000)
            return HttpResponse::error(400, QStringLiteral("invalid-query-parameter"),
                                       QStringLiteral("limit must be 1 to 1000"));
        return HttpResponse::json(
            200, QJsonObject{{QStringLiteral("items"),
                              m_oauth.console().activeTokens(
                                  req.query.queryItemValue(QStringLiteral("client")),
                                  req.query.queryItemValue(QStringLiteral("user")), limit)}});
    });
    // A client_credentials token for a demo: {"client_id", "scope"?, "resource"?}.
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/tokens"),
        [this](const HttpRequest &req, const Responder &respond) {
            QJsonParseError pe;
            const QJsonObject o = QJsonDocument::fromJson(req.body, &pe).object();
            if (pe.error != QJsonParseError::NoError ||
                !o.value(QStringLiteral("client_id")).isString())
                return respond(HttpResponse::error(
                    400, QStringLiteral("malformed-json"),
                    QStringLiteral("the body must be a JSON object with client_id (and "
                                   "optionally scope and resource)")));
            // A client allowed to act for the cluster mints cluster identities: a token for
            // it is the cluster's business too, as changing the client is.
            // Read once, and failing closed: the token is minted from the client checked here
            // (a read that failed is not "no client", which would skip both checks).
            const QString clientId = o.value(QStringLiteral("client_id")).toString();
            const auto lookedUp = m_oauth.clients().lookup(clientId);
            if (!lookedUp)
                return respond(errorAnswer(lookedUp.error()));
            const std::optional<OAuth::Client> &client = *lookedUp;
            if (!client)
                return respond(HttpResponse::error(404, QStringLiteral("client-not-found"),
                                                   QStringLiteral("no client %1").arg(clientId)));
            if (client->clusterAccess)
                if (auto refused = needsClusterWrite(
                        req, QStringLiteral("may not mint a token for a client allowed to act for "
                                            "the cluster")))
                    return respond(*refused);
            // The same for the orders API: the token carries the client's orders scopes.
            if (auto refused = needsOrdersArea(
                    req, client->scopes,
                    QStringLiteral("may not mint a token for a client with the orders API's "
                                   "scopes")))
                return respond(*refused);
            QHash<QString, QString> params;
            for (const char *k : {"scope", "resource"}) {
                const QJsonValue v = o.value(QLatin1String(k));
                if (!v.isUndefined() && !v.isString())
                    return respond(
                        HttpResponse::error(400, QStringLiteral("validation-failed"),
                                            QStringLiteral("%1 must be a string").arg(k)));
                if (v.isString())
                    params.insert(QLatin1String(k), v.toString());
            }
            // Nothing it mints outlives the admin token that asked, or the client's credentials.
            OAuth::Client minting = *client;
            const qint64 now = m_clock.now().toMSecsSinceEpoch();
            if (minting.credentialsEnded(now))
                return respond(HttpResponse::error(
                    409, QStringLiteral("credentials-ended"),
                    QStringLiteral("client %1's credentials ended at %2: rotate its secret first")
                        .arg(clientId, Core::isoTimeMs(minting.credentialsUntil))));
            if (const qint64 until = credentialsUntil(req); until > 0)
                minting.credentialsUntil = minting.credentialsEnd() > 0
                                               ? std::min(minting.credentialsEnd(), until)
                                               : until;
            m_oauth.console().mintClientCredentials(minting, params, respond);
        });
    // The token preview: a dry run of the real issuing code (docs/oauth.md).
    m_server.route(
        "POST", QStringLiteral("/admin/v1/tokens/preview"), [this](const HttpRequest &req) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
            if (pe.error != QJsonParseError::NoError || !doc.isObject() ||
                !doc.object().value(QStringLiteral("client_id")).isString())
                return HttpResponse::error(
                    400, QStringLiteral("malformed-json"),
                    QStringLiteral("the body must be a JSON object with client_id and "
                                   "grant_type (and the grant's parameters)"));
            const QJsonObject preview = m_oauth.console().previewToken(doc.object());
            if (preview.contains(QLatin1String("error")))
                return HttpResponse::error(
                    preview.value(QLatin1String("error")) == QLatin1String("invalid_client") ? 404
                                                                                             : 400,
                    preview.value(QLatin1String("error")).toString(),
                    preview.value(QLatin1String("error_description")).toString());
            HttpResponse r = HttpResponse::json(200, preview);
            r.setHeader("Cache-Control", "no-store");
            return r;
        });
    // Effective access: every scope and claim a user or client can obtain, and why.
    m_server.route(
        "POST", QStringLiteral("/admin/v1/oauth/access"), [this](const HttpRequest &req) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
            if (pe.error != QJsonParseError::NoError || !doc.isObject())
                return HttpResponse::error(
                    400, QStringLiteral("malformed-json"),
                    QStringLiteral("the body must be a JSON object with username or client_id"));
            QJsonObject access = m_oauth.console().effectiveAccess(doc.object());
            // The user's cluster identity (groups mapped by the cluster's settings) only to a
            // token that may read the cluster area: an oauth-only token is told nothing of it.
            const auto principal = m_tokens.authenticate(req.bearerToken());
            if (m_clusterIdentity && principal &&
                principal->may(QStringLiteral("cluster"), false) &&
                !access.contains(QLatin1String("error")) &&
                access.value(QLatin1String("subject")).toObject().value(QLatin1String("kind")) ==
                    QLatin1String("user"))
                access.insert(QStringLiteral("cluster"),
                              m_clusterIdentity(access.value(QLatin1String("subject"))
                                                    .toObject()
                                                    .value(QLatin1String("username"))
                                                    .toString()));
            if (access.contains(QLatin1String("error")))
                return HttpResponse::error(
                    access.value(QLatin1String("error")) == QLatin1String("invalid_client") ? 404
                                                                                            : 400,
                    access.value(QLatin1String("error")).toString(),
                    access.value(QLatin1String("error_description")).toString());
            return HttpResponse::json(200, access);
        });
    m_server.routeDeferred("DELETE", QStringLiteral("/admin/v1/tokens/{id}"),
                           [this](const HttpRequest &req, const Responder &respond) {
                               m_oauth.console().revokeById(req.pathParam(QStringLiteral("id")),
                                                            noContent(respond));
                           });
    // The console's JWT decoder: {"token", "jwks"? (object), "pem"? (string), "issuer"?,
    // "audience"?}; the issuer defaults to this server's when no key is pasted.
    m_server.route("POST", QStringLiteral("/admin/v1/jwt/inspect"), [this](const HttpRequest &req) {
        QJsonParseError pe;
        const QJsonObject o = QJsonDocument::fromJson(req.body, &pe).object();
        if (pe.error != QJsonParseError::NoError || !o.value(QStringLiteral("token")).isString())
            return HttpResponse::error(400, QStringLiteral("malformed-json"),
                                       QStringLiteral("the body must be a JSON object with token"));
        const QJsonValue jwks = o.value(QStringLiteral("jwks"));
        const QJsonValue pem = o.value(QStringLiteral("pem"));
        if ((!jwks.isUndefined() && !jwks.isObject() && !jwks.isNull()) ||
            (!pem.isUndefined() && !pem.isString() && !pem.isNull()))
            return HttpResponse::error(400, QStringLiteral("validation-failed"),
                                       QStringLiteral("jwks must be an object, pem a string"));
        OAuth::JwtKeySource keys{m_oauth.keys().jwks(), jwks.toObject(), pem.toString()};
        OAuth::JwtExpectations expect;
        const bool pasted = !keys.jwks.isEmpty() || !keys.pem.trimmed().isEmpty();
        expect.issuer =
            o.value(QStringLiteral("issuer")).toString(pasted ? QString() : m_oauth.issuer());
        expect.audience = o.value(QStringLiteral("audience")).toString();
        expect.now = m_clock.now().toMSecsSinceEpoch();
        const QByteArray token = o.value(QStringLiteral("token")).toString().toUtf8();
        QJsonObject answer = OAuth::inspectJwt(token, keys, expect);
        // Server-aware: the key's state, the stored token's, and its client and user.
        if (answer.value(QLatin1String("payload")).isObject())
            answer.insert(QStringLiteral("server"),
                          m_oauth.console().tokenStatus(
                              token.trimmed(), answer.value(QLatin1String("header")).toObject(),
                              answer.value(QLatin1String("payload")).toObject()));
        return HttpResponse::json(200, answer);
    });
}

} // namespace Gatehouse::Admin
