#include "admin/oauthadmin.h"

#include "core/httpserver.h"
#include "oauth/oauthapi.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::Admin {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

HttpResponse secretAnswer(int status, const OAuth::ClientRegistry::Registered &r)
{
    QJsonObject o = r.client.toJson();
    if (!r.secret.isEmpty()) {
        o.insert(QStringLiteral("client_secret"), r.secret);
        o.insert(QStringLiteral("client_secret_expires_at"), 0);
    }
    HttpResponse resp = HttpResponse::json(status, o);
    resp.setHeader("Cache-Control", "no-store");
    return resp;
}

} // namespace

OAuthAdminApi::OAuthAdminApi(Core::HttpServer &server, OAuth::OAuthApi &oauth)
    : m_server(server), m_oauth(oauth)
{
    m_server.route("GET", QStringLiteral("/admin/v1/clients"), [this](const HttpRequest &) {
        QJsonArray items;
        for (const OAuth::Client &c : m_oauth.clients().all())
            items.append(c.toJson());
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
    });
    m_server.route("GET", QStringLiteral("/admin/v1/clients/{id}"), [this](const HttpRequest &req) {
        const auto c = m_oauth.clients().find(req.pathParam(QStringLiteral("id")));
        if (!c)
            return HttpResponse::error(
                404, QStringLiteral("client-not-found"),
                QStringLiteral("no client %1").arg(req.pathParam(QStringLiteral("id"))));
        return HttpResponse::json(200, c->toJson());
    });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/clients"),
        [this](const HttpRequest &req, const Responder &respond) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
            if (pe.error != QJsonParseError::NoError || !doc.isObject())
                return respond(HttpResponse::error(400, QStringLiteral("malformed-json"),
                                                   QStringLiteral("the body must be a JSON object "
                                                                  "of client metadata")));
            auto client = OAuth::ClientRegistry::fromMetadata(doc.object());
            if (!client)
                return respond(
                    HttpResponse::error(400, client.error().code, client.error().message));
            m_oauth.clients().registerClient(
                *client, [respond](const Core::Result<OAuth::ClientRegistry::Registered> &r) {
                    if (!r)
                        return respond(HttpResponse::error(r.error().httpStatus, r.error().code,
                                                           r.error().message));
                    respond(secretAnswer(201, *r));
                });
        });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/clients/{id}/rotate-secret"),
        [this](const HttpRequest &req, const Responder &respond) {
            m_oauth.clients().rotateSecret(
                req.pathParam(QStringLiteral("id")),
                [respond](const Core::Result<OAuth::ClientRegistry::Registered> &r) {
                    if (!r)
                        return respond(HttpResponse::error(r.error().httpStatus, r.error().code,
                                                           r.error().message));
                    respond(secretAnswer(200, *r));
                });
        });
    m_server.routeDeferred(
        "DELETE", QStringLiteral("/admin/v1/clients/{id}"),
        [this](const HttpRequest &req, const Responder &respond) {
            m_oauth.clients().remove(
                req.pathParam(QStringLiteral("id")), [respond](const Core::Result<void> &r) {
                    if (!r)
                        return respond(HttpResponse::error(r.error().httpStatus, r.error().code,
                                                           r.error().message));
                    respond(HttpResponse{204, {}, {}, {}});
                });
        });
    m_server.route("GET", QStringLiteral("/admin/v1/signing-keys"), [this](const HttpRequest &) {
        QJsonArray items;
        for (const QJsonObject &k : m_oauth.keys().list())
            items.append(k);
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
    });
}

} // namespace Gatehouse::Admin
