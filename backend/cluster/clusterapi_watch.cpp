// Watch requests: RBAC for the watch verb, then a stream from the watch hub (watch.cpp).
#include "cluster/clusterapi_p.h"

namespace Gatehouse::Cluster {

using namespace ApiInternal;

void ClusterApi::handleWatch(const std::shared_ptr<Context> &ctx, const ResourceType &type,
                             std::function<bool(const QJsonObject &)> matches)
{
    const Core::HttpRequest &req = ctx->request;
    const RequestInfo &info = ctx->trace.info;
    const QUrlQuery &q = req.query;
    WatchOptions options;
    options.resource = type.name;
    options.namespaceName = type.namespaced ? info.namespaceName : QString();
    options.name = info.name;
    options.matches = std::move(matches);
    // Admitted again every few seconds and whenever RBAC or the settings change: a credential
    // revoked or expired, a binding taken away, anonymous access turned off end the stream
    // with the 401 or 403 a new request would get, not at its timeout (kube goes on to it).
    // The request (its token among its headers) stays in memory for as long as the stream.
    options.recheck = [gate = m_watchGate, request = req,
                       actAs = ctx->actAs]() -> std::optional<QJsonObject> {
        QReadLocker lock(&gate->lock);
        return gate->api ? gate->api->recheckWatch(request, actAs) : std::nullopt;
    };
    const QString rv = q.queryItemValue(QStringLiteral("resourceVersion"));
    if (!rv.isEmpty() && rv != QLatin1String("0")) {
        bool ok = false;
        const qint64 n = rv.toLongLong(&ok);
        if (!ok || n < 0) {
            finish(ctx, Status::badRequest(QStringLiteral("invalid resource version: %1").arg(rv))
                            .response(ctx->pretty));
            return;
        }
        // From a revision this store has not reached: kube's watch cache waits up to 3 s for
        // it, then answers 504 ResourceVersionTooLarge and the client lists again. Taken as a
        // start, every change up to it was skipped without a word: after the database was put
        // back (a backup), a resumed watch missed what the revisions it named now are.
        const qint64 current = m_store.resourceVersion().toLongLong();
        if (n > current) {
            finish(ctx, Status::tooLargeResourceVersion(n, current).response(ctx->pretty));
            return;
        }
        options.since = n;
    }
    options.bookmarks =
        q.queryItemValue(QStringLiteral("allowWatchBookmarks")) == QLatin1String("true");
    options.sendInitialEvents =
        q.queryItemValue(QStringLiteral("sendInitialEvents")) == QLatin1String("true");
    if (q.hasQueryItem(QStringLiteral("sendInitialEvents"))) {
        // kube's ListOptions validation for streaming lists.
        QStringList errors;
        if (q.queryItemValue(QStringLiteral("resourceVersionMatch")) !=
            QLatin1String("NotOlderThan"))
            errors.append(
                QStringLiteral("resourceVersionMatch: Forbidden: sendInitialEvents requires "
                               "setting resourceVersionMatch to NotOlderThan"));
        if (!options.bookmarks)
            errors.append(QStringLiteral("allowWatchBookmarks: Required value: sendInitialEvents "
                                         "requires allowWatchBookmarks=true"));
        if (!errors.isEmpty()) {
            Status s;
            s.code = 422;
            s.reason = QStringLiteral("Invalid");
            s.message = QStringLiteral("ListOptions.meta.k8s.io \"\" is invalid: ") +
                        (errors.size() == 1 ? errors.first()
                                            : QLatin1Char('[') + errors.join(QStringLiteral(", ")) +
                                                  QLatin1Char(']'));
            finish(ctx, s.response(ctx->pretty));
            return;
        }
        if (rv.isEmpty())
            options.since.reset(); // "" with sendInitialEvents: the current state first
    }
    const QString timeout = q.queryItemValue(QStringLiteral("timeoutSeconds"));
    if (!timeout.isEmpty()) {
        bool ok = false;
        const int seconds = timeout.toInt(&ok);
        // 0 is no timeout asked for: the default, as kube-apiserver takes it. More than the
        // default is cut to it (kube takes any value; a client watches again when its stream
        // ends, as after any timeout).
        if (ok && seconds > 0)
            options.timeoutSeconds = std::min(seconds, WatchOptions::kMaxTimeoutSeconds);
        if (!ok || seconds < 0) {
            finish(ctx,
                   Status::badRequest(QStringLiteral("invalid timeoutSeconds: %1").arg(timeout))
                       .response(ctx->pretty));
            return;
        }
    }
    const QByteArray accept = req.header("accept");
    const bool table = wantsTable(accept);
    // client-go's typed clients ask for protobuf first; their watch then reads length-prefixed
    // WatchEvent frames, as kube-apiserver writes them for application/vnd.kubernetes.protobuf.
    const bool protobuf = !table && prefersProtobuf(accept) && KubeSchemas::loaded() &&
                          KubeSchemas::forKind(type.apiVersion(), type.kind);
    Core::Clock *clock = &m_clock;
    if (protobuf) {
        options.encode = [type](const WatchEvent &e) {
            const QJsonObject object = e.type == QLatin1String("ERROR")
                                           ? e.object
                                           : typed(type, servedObject(type, e.object));
            auto frame = encodeProtobufWatchFrame(e.type, object);
            if (auto *bytes = std::get_if<QByteArray>(&frame))
                return std::move(*bytes);
            // A stored object that does not fit its own schema is a bug: say so in the stream
            // (a Status always has its form) rather than skip the change silently.
            qCWarning(lcCluster).noquote()
                << "watch: the protobuf form failed:" << std::get<ProtobufError>(frame).message;
            const QJsonObject status =
                QJsonDocument::fromJson(
                    Status::internalError(QStringLiteral("the object could not be encoded"))
                        .body(false))
                    .object();
            return std::get<QByteArray>(encodeProtobufWatchFrame(QStringLiteral("ERROR"), status));
        };
    } else {
        options.encode = [type, table, clock](const WatchEvent &e) {
            QJsonObject object;
            if (e.type == QLatin1String("ERROR"))
                object = e.object;
            else if (table && e.type != QLatin1String("BOOKMARK"))
                object = tableFor(type, {e.object},
                                  fieldValue(e.object, QStringLiteral("metadata.resourceVersion")),
                                  QString(), clock->now().toMSecsSinceEpoch());
            else
                object = typed(type, servedObject(type, e.object));
            QByteArray line = JsonWriter::encode(
                QJsonObject{{QStringLiteral("type"), e.type}, {QStringLiteral("object"), object}},
                false);
            line.append('\n');
            return line;
        };
    }
    options.encoding = (protobuf ? QStringLiteral("protobuf:")
                        : table  ? QStringLiteral("table:")
                                 : QStringLiteral("json:")) +
                       type.apiVersion() + QLatin1Char('/') + type.name;
    Core::HttpResponse r;
    r.setHeader("Content-Type", protobuf ? kProtobufWatchContentType : "application/json");
    WatchHub *hub = &m_watch;
    r.stream = [hub, options](Core::HttpStream *stream) { hub->start(stream, options); };
    finish(ctx, std::move(r));
}

} // namespace Gatehouse::Cluster
