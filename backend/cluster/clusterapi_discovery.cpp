// Requests that are not for a resource: discovery (/api, /apis, aggregated), /version,
// health checks, OpenAPI v3, the service-account issuer's documents.
#include "cluster/clusterapi_p.h"

namespace Gatehouse::Cluster {

using namespace ApiInternal;

void ClusterApi::handleNonResource(const std::shared_ptr<Context> &ctx)
{
    const Core::HttpRequest &req = ctx->request;
    const QString &path = req.path;
    const bool get = req.method == "GET" || req.method == "HEAD";
    const QByteArray accept = req.header("accept");
    auto text = [&](int status, const QByteArray &body) {
        finish(ctx, Core::HttpResponse::text(status, body));
    };
    auto json = [&](const QJsonObject &o, bool alwaysPretty = false,
                    const QByteArray &type = "application/json") {
        finish(ctx, objectResponse(200, o, alwaysPretty || ctx->pretty, type));
    };

    static const QStringList health{QStringLiteral("/healthz"), QStringLiteral("/livez"),
                                    QStringLiteral("/readyz")};
    for (const QString &h : health) {
        if (path == h || path == h + QStringLiteral("/ping") ||
            (h == QLatin1String("/readyz") && path == QLatin1String("/readyz/shutdown"))) {
            if (!get) {
                finish(ctx, Status::methodNotAllowed().response(ctx->pretty));
                return;
            }
            text(200, "ok");
            return;
        }
    }
    if (!get) {
        // Known discovery paths answer 405 for other methods, like go-restful does.
        static const QStringList known{QStringLiteral("/"), QStringLiteral("/version"),
                                       QStringLiteral("/api"), QStringLiteral("/apis")};
        if (known.contains(path) || path.startsWith(QLatin1String("/api/")) ||
            path.startsWith(QLatin1String("/apis/")))
            finish(ctx, Status::methodNotAllowed().response(ctx->pretty));
        else
            text(404, "404 page not found\n");
        return;
    }
    if (path == QLatin1String("/")) {
        QStringList paths{QStringLiteral("/.well-known/openid-configuration"),
                          QStringLiteral("/api"),
                          QStringLiteral("/api/v1"),
                          QStringLiteral("/apis"),
                          QStringLiteral("/apis/"),
                          QStringLiteral("/healthz"),
                          QStringLiteral("/healthz/ping"),
                          QStringLiteral("/livez"),
                          QStringLiteral("/livez/ping"),
                          QStringLiteral("/openapi/v3"),
                          QStringLiteral("/openapi/v3/"),
                          QStringLiteral("/openid/v1/jwks"),
                          QStringLiteral("/readyz"),
                          QStringLiteral("/readyz/ping"),
                          QStringLiteral("/readyz/shutdown"),
                          QStringLiteral("/version")};
        for (const QString &g : servedGroups())
            if (!g.isEmpty())
                paths << QStringLiteral("/apis/") + g << QStringLiteral("/apis/%1/v1").arg(g);
        paths.sort();
        JsonWriter w(true);
        w.beginObject().key(QStringLiteral("paths")).beginArray();
        for (const QString &p : std::as_const(paths))
            w.value(p);
        w.endArray().endObject();
        Core::HttpResponse r;
        r.body = w.take();
        r.setHeader("Content-Type", "application/json");
        finish(ctx, std::move(r));
        return;
    }
    if (path == QLatin1String("/version") || path == QLatin1String("/version/")) {
        JsonWriter w(true);
        w.beginObject()
            .field(QStringLiteral("major"), QStringLiteral("1"))
            .field(QStringLiteral("minor"), QStringLiteral("32"))
            .field(QStringLiteral("gitVersion"), QStringLiteral("v1.32.4"))
            .field(QStringLiteral("gitCommit"),
                   QStringLiteral("59526cd4867447956156ae3a602fcbac10a2c335"))
            .field(QStringLiteral("gitTreeState"), QStringLiteral("clean"))
            .field(QStringLiteral("buildDate"), QStringLiteral("2025-04-22T16:02:27Z"))
            .field(QStringLiteral("goVersion"), QStringLiteral("go1.23.6"))
            .field(QStringLiteral("compiler"), QStringLiteral("gc"))
            .field(QStringLiteral("platform"), QStringLiteral("linux/amd64"))
            .endObject();
        Core::HttpResponse r;
        r.body = w.take();
        r.setHeader("Content-Type", "application/json");
        finish(ctx, std::move(r));
        return;
    }
    if (auto answer = openApiV3Response(req)) {
        finish(ctx, std::move(*answer));
        return;
    }
    const QByteArray aggregated =
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    if (path == QLatin1String("/api") || path == QLatin1String("/api/")) {
        if (wantsAggregatedDiscovery(accept))
            json(aggregatedDiscovery(true), false, aggregated);
        else
            json(apiVersions(m_options.serverAddress));
        return;
    }
    if (path == QLatin1String("/apis") || path == QLatin1String("/apis/")) {
        if (wantsAggregatedDiscovery(accept))
            json(aggregatedDiscovery(false), false, aggregated);
        else
            json(apiGroupList());
        return;
    }
    if (path == QLatin1String("/api/v1") || path == QLatin1String("/api/v1/")) {
        json(apiResourceList(QString(), QStringLiteral("v1")));
        return;
    }
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.value(0) == QLatin1String("apis") && servedGroups().contains(parts.value(1)) &&
        !parts.value(1).isEmpty()) {
        if (parts.size() == 2) {
            json(apiGroup(parts[1]));
            return;
        }
        if (parts.size() == 3 && parts[2] == QLatin1String("v1")) {
            json(apiResourceList(parts[1], QStringLiteral("v1")));
            return;
        }
    }
    if (path == QLatin1String("/.well-known/openid-configuration") ||
        path == QLatin1String("/openid/v1/jwks")) {
        const QString issuer = QStringLiteral("https://kubernetes.default.svc.cluster.local");
        if (path.startsWith(QLatin1String("/openid")))
            json(m_serviceAccounts ? m_serviceAccounts->jwks()
                                   : QJsonObject{{QStringLiteral("keys"), QJsonArray()}},
                 false, "application/jwk-set+json");
        else
            json(QJsonObject{
                {QStringLiteral("issuer"), issuer},
                {QStringLiteral("jwks_uri"),
                 QStringLiteral("https://%1/openid/v1/jwks").arg(m_options.serverAddress)},
                {QStringLiteral("response_types_supported"),
                 QJsonArray{QStringLiteral("id_token")}},
                {QStringLiteral("subject_types_supported"), QJsonArray{QStringLiteral("public")}},
                {QStringLiteral("id_token_signing_alg_values_supported"),
                 QJsonArray{QStringLiteral("ES256")}}});
        return;
    }
    if (path.startsWith(QLatin1String("/api/")) || path.startsWith(QLatin1String("/apis/"))) {
        finish(ctx, Status::routeNotFound().response(ctx->pretty));
        return;
    }
    text(404, "404 page not found\n");
}

} // namespace Gatehouse::Cluster
