// The verdict explainer: the stage-by-stage trace of a request (RequestTrace), and the
// admin API's explain, act-as, effective access and perform.
#include "cluster/clusterapi_p.h"

namespace Gatehouse::Cluster {

using namespace ApiInternal;

QJsonObject RequestTrace::toJson() const
{
    QJsonObject authn{{QStringLiteral("decision"),
                       authentication.outcome == AuthenticationResult::Outcome::Authenticated
                           ? QStringLiteral("authenticated")
                       : authentication.outcome == AuthenticationResult::Outcome::Anonymous
                           ? QStringLiteral("anonymous")
                           : QStringLiteral("unauthorized")},
                      {QStringLiteral("reason"), authentication.reason}};
    if (authentication.ok()) {
        authn.insert(QStringLiteral("authenticator"), authentication.user.authenticator);
        authn.insert(QStringLiteral("user"), userJson(authentication.user));
    }
    QJsonObject out{{QStringLiteral("method"), method},
                    {QStringLiteral("path"), path},
                    {QStringLiteral("authentication"), authn},
                    {QStringLiteral("code"), code}};
    if (!authentication.ok())
        return out.insert(QStringLiteral("status"), status), out;
    QJsonObject request{{QStringLiteral("verb"), info.verb},
                        {QStringLiteral("resourceRequest"), info.isResourceRequest}};
    if (info.isResourceRequest) {
        request.insert(QStringLiteral("apiGroup"), info.apiGroup);
        request.insert(QStringLiteral("apiVersion"), info.apiVersion);
        request.insert(QStringLiteral("resource"), info.resource);
        if (!info.subresource.isEmpty())
            request.insert(QStringLiteral("subresource"), info.subresource);
        if (!info.namespaceName.isEmpty())
            request.insert(QStringLiteral("namespace"), info.namespaceName);
        if (!info.name.isEmpty())
            request.insert(QStringLiteral("name"), info.name);
    }
    out.insert(QStringLiteral("request"), request);
    QJsonArray steps;
    for (const AuthorizerStep &s : authorization.steps)
        steps.append(QJsonObject{{QStringLiteral("authorizer"), s.authorizer},
                                 {QStringLiteral("decision"), decisionName(s.decision)},
                                 {QStringLiteral("reason"), s.reason}});
    QJsonObject authz{
        {QStringLiteral("decision"), authorized ? QStringLiteral("allow") : QStringLiteral("deny")},
        {QStringLiteral("decidedBy"), authorization.decidedBy},
        {QStringLiteral("reason"), authorization.reason},
        {QStringLiteral("steps"), steps}};
    if (authorization.rbac.allowed)
        authz.insert(
            QStringLiteral("rbac"),
            QJsonObject{{QStringLiteral("bindingKind"), authorization.rbac.bindingKind},
                        {QStringLiteral("bindingName"), authorization.rbac.bindingName},
                        {QStringLiteral("bindingNamespace"), authorization.rbac.bindingNamespace},
                        {QStringLiteral("roleKind"), authorization.rbac.roleKind},
                        {QStringLiteral("roleName"), authorization.rbac.roleName},
                        {QStringLiteral("ruleIndex"), authorization.rbac.ruleIndex},
                        {QStringLiteral("subject"),
                         QJsonObject{{QStringLiteral("kind"), authorization.rbac.subject.kind},
                                     {QStringLiteral("name"), authorization.rbac.subject.name}}}});
    if (!authorized) {
        QJsonArray misses;
        for (const NearMiss &n : authorization.nearMisses)
            misses.append(n.toJson());
        authz.insert(QStringLiteral("nearMisses"), misses);
    }
    out.insert(QStringLiteral("authorization"), authz);
    if (admission) {
        QJsonArray plugins;
        for (const AdmissionStep &s : admission->steps) {
            QJsonObject step{{QStringLiteral("plugin"), s.plugin},
                             {QStringLiteral("decision"),
                              s.allowed ? QStringLiteral("allow") : QStringLiteral("deny")},
                             {QStringLiteral("message"), s.message}};
            if (!s.webhook.isEmpty()) {
                step.insert(QStringLiteral("webhook"), s.webhook);
                step.insert(QStringLiteral("latencyMs"), qRound(s.latencyMs * 10) / 10.0);
                step.insert(QStringLiteral("patched"), s.patched);
                if (s.callFailed)
                    step.insert(QStringLiteral("callFailed"), true);
                if (s.ignored)
                    step.insert(QStringLiteral("ignored"), true);
            }
            plugins.append(step);
        }
        QJsonObject adm{{QStringLiteral("decision"),
                         admission->allowed ? QStringLiteral("allow") : QStringLiteral("deny")},
                        {QStringLiteral("steps"), plugins}};
        if (!admission->allowed) {
            adm.insert(QStringLiteral("plugin"), admission->plugin);
            adm.insert(QStringLiteral("message"), admission->status.message);
            if (!admission->webhook.isEmpty())
                adm.insert(QStringLiteral("webhook"), admission->webhook);
        }
        out.insert(QStringLiteral("admission"), adm);
    }
    if (!validation.isEmpty()) {
        QJsonArray causes;
        for (const StatusCause &c : validation)
            causes.append(QJsonObject{{QStringLiteral("reason"), c.reason},
                                      {QStringLiteral("message"), c.message},
                                      {QStringLiteral("field"), c.field}});
        out.insert(QStringLiteral("validation"), causes);
    }
    if (!status.isEmpty())
        out.insert(QStringLiteral("status"), status);
    if (const QJsonObject d = denial(); !d.isEmpty())
        out.insert(QStringLiteral("denial"), d);
    return out;
}

QJsonObject RequestTrace::denial() const
{
    const QString statusMessage = status.value(QLatin1String("message")).toString();
    if (!authentication.ok())
        return QJsonObject{{QStringLiteral("stage"), QStringLiteral("authentication")},
                           {QStringLiteral("message"), authentication.reason}};
    if (!authorized) {
        // Which authorizers refused, each quoted; RBAC's near misses say why no binding applied.
        QJsonArray quotes;
        QStringList by;
        for (const AuthorizerStep &s : authorization.steps) {
            by.append(s.authorizer);
            if (!s.reason.isEmpty())
                quotes.append(QJsonObject{{QStringLiteral("authorizer"), s.authorizer},
                                          {QStringLiteral("decision"), decisionName(s.decision)},
                                          {QStringLiteral("reason"), s.reason}});
        }
        QJsonObject d{{QStringLiteral("stage"), QStringLiteral("authorization")},
                      {QStringLiteral("by"), authorization.decidedBy.isEmpty()
                                                 ? by.join(QStringLiteral(", "))
                                                 : authorization.decidedBy},
                      {QStringLiteral("message"), statusMessage},
                      {QStringLiteral("quotes"), quotes},
                      {QStringLiteral("nearMisses"), int(authorization.nearMisses.size())}};
        // Groups the token claimed but the cluster did not take: often the reason itself.
        if (!authentication.user.droppedGroups.isEmpty()) {
            d.insert(QStringLiteral("droppedGroups"), toArray(authentication.user.droppedGroups));
            d.insert(QStringLiteral("droppedGroupsReason"),
                     QStringLiteral("groups from an OIDC token that begin with system: reach the "
                                    "cluster only through an oidc-group-mappings entry"));
        }
        return d;
    }
    if (admission && !admission->allowed) {
        QJsonObject d{{QStringLiteral("stage"), QStringLiteral("admission")},
                      {QStringLiteral("by"), admission->plugin},
                      {QStringLiteral("message"),
                       statusMessage.isEmpty() ? admission->status.message : statusMessage}};
        // The webhook that said no, by its name: the operator's own service to look at.
        if (!admission->webhook.isEmpty()) {
            d.insert(QStringLiteral("by"),
                     QStringLiteral("admission webhook \"%1\"").arg(admission->webhook));
            d.insert(QStringLiteral("webhook"), admission->webhook);
        }
        return d;
    }
    if (!validation.isEmpty() || code == 422)
        return QJsonObject{{QStringLiteral("stage"), QStringLiteral("validation")},
                           {QStringLiteral("message"), statusMessage}};
    if (code >= 400)
        return QJsonObject{{QStringLiteral("stage"), QStringLiteral("handler")},
                           {QStringLiteral("message"), statusMessage}};
    return {};
}

std::variant<UserInfo, QString> ClusterApi::identityFrom(const QJsonObject &request) const
{
    UserInfo user;
    if (request.value(QLatin1String("anonymous")).toBool() ||
        request.value(QLatin1String("user")).toString() == QLatin1String(kAnonymousUser)) {
        user.name = QLatin1String(kAnonymousUser);
        user.groups = {QLatin1String(kUnauthenticatedGroup)};
        user.authenticator = QStringLiteral("anonymous");
        return user;
    }
    user.name = request.value(QLatin1String("user")).toString();
    if (user.name.isEmpty())
        return QStringLiteral("give \"user\" (with optional \"groups\") or \"anonymous\": true");
    if (!request.value(QLatin1String("groups")).isUndefined() &&
        !request.value(QLatin1String("groups")).isArray())
        return QStringLiteral("\"groups\" must be an array of strings");
    user.groups = toStrings(request.value(QLatin1String("groups")));
    user.authenticator = QStringLiteral("admin-api");
    addAuthenticatedGroup(user);
    return user;
}

std::variant<QJsonObject, QString> ClusterApi::buildRequest(const QJsonObject &request,
                                                            std::shared_ptr<Context> &ctx)
{
    ctx = std::make_shared<Context>();
    auto identity = identityFrom(request);
    if (auto *e = std::get_if<QString>(&identity))
        return *e;
    const UserInfo user = std::get<UserInfo>(identity);
    if (user.authenticator == QLatin1String("anonymous")) {
        ctx->anonymousRefused = !m_authenticator.anonymousEnabled();
        if (ctx->anonymousRefused)
            ctx->trace.authentication.reason =
                QStringLiteral("no credentials presented and anonymous access is off");
    }
    ctx->actAs = user;
    Core::HttpRequest &req = ctx->request;
    req.listener = QStringLiteral("cluster");
    req.requestId = Crypto::Random::token(12);
    if (request.contains(QLatin1String("node"))) {
        const QString node = request.value(QLatin1String("node")).toString();
        if (node.isEmpty() || !request.value(QLatin1String("labels")).isObject())
            return QStringLiteral("a label change needs \"node\" and a \"labels\" object");
        req.method = "PATCH";
        req.path = QStringLiteral("/api/v1/nodes/") + node;
        req.headers.append(
            qMakePair(QByteArray("content-type"), QByteArray("application/merge-patch+json")));
        req.body =
            QJsonDocument(QJsonObject{{QStringLiteral("metadata"),
                                       QJsonObject{{QStringLiteral("labels"),
                                                    request.value(QLatin1String("labels"))}}}})
                .toJson(QJsonDocument::Compact);
    } else {
        const QString path = request.value(QLatin1String("path")).toString();
        if (!path.startsWith(QLatin1Char('/')))
            return QStringLiteral("\"path\" must be an absolute path such as /api/v1/nodes");
        const QJsonValue method = request.value(QLatin1String("method"));
        if (!method.isUndefined() && !method.isString()) // a number performed a GET
            return QStringLiteral("\"method\" must be a string such as GET or PATCH");
        req.method = method.toString(QStringLiteral("GET")).toUpper().toLatin1();
        const QUrl url(QStringLiteral("http://x") + path);
        req.path = url.path();
        req.query = QUrlQuery(url);
        const QJsonValue b = request.value(QLatin1String("body"));
        if (b.isObject() || b.isArray())
            req.body = b.isObject() ? QJsonDocument(b.toObject()).toJson(QJsonDocument::Compact)
                                    : QJsonDocument(b.toArray()).toJson(QJsonDocument::Compact);
        else if (b.isString())
            req.body = b.toString().toUtf8();
        QString ct = request.value(QLatin1String("contentType")).toString();
        if (ct.isEmpty() && !req.body.isEmpty())
            ct = req.method == "PATCH" ? QStringLiteral("application/merge-patch+json")
                                       : QStringLiteral("application/json");
        if (!ct.isEmpty())
            req.headers.append(qMakePair(QByteArray("content-type"), ct.toLatin1()));
    }
    req.target = req.path.toUtf8();
    return QJsonObject();
}

void ClusterApi::explain(const QJsonObject &request,
                         std::function<void(std::variant<QJsonObject, QString>)> done,
                         bool askWebhooks)
{
    std::shared_ptr<Context> ctx;
    auto built = buildRequest(request, ctx);
    if (auto *e = std::get_if<QString>(&built)) {
        done(*e);
        return;
    }
    ctx->dryRun = true;
    ctx->explaining = true;
    // Not asked: the verdict is the built-in chain's (the answer says so).
    ctx->askWebhooks = askWebhooks;
    bool skipped = false;
    if (!askWebhooks) {
        QMutexLocker lock(&m_mutex);
        skipped =
            m_webhooks && (!m_webhooks->mutating.isEmpty() || !m_webhooks->validating.isEmpty());
    }
    ctx->onDone = [done = std::move(done), skipped](const Core::HttpResponse &r,
                                                    const RequestTrace &trace) {
        QJsonObject result = trace.toJson();
        result.insert(QStringLiteral("dryRun"), true);
        result.insert(QStringLiteral("code"), r.status);
        if (skipped)
            result.insert(QStringLiteral("webhooksNotAsked"),
                          QStringLiteral("admission webhooks are configured but were not asked: "
                                         "asking them needs cluster:write"));
        done(result);
    };
    if (ctx->anonymousRefused) {
        ctx->trace.method = QString::fromLatin1(ctx->request.method);
        ctx->trace.path = ctx->request.path;
        finish(ctx, Status::unauthorized().response(false));
    } else {
        process(ctx);
    }
}

std::variant<QJsonObject, QString> ClusterApi::explainAuthorization(const QJsonObject &request)
{
    std::shared_ptr<Context> ctx;
    auto built = buildRequest(request, ctx);
    if (auto *e = std::get_if<QString>(&built))
        return *e;
    ctx->dryRun = true;
    ctx->explaining = true;
    ctx->authorizationOnly = true;
    QJsonObject result;
    ctx->onDone = [&result](const Core::HttpResponse &r, const RequestTrace &trace) {
        result = trace.toJson();
        result.insert(QStringLiteral("code"), r.status);
    };
    if (ctx->anonymousRefused) {
        ctx->trace.method = QString::fromLatin1(ctx->request.method);
        ctx->trace.path = ctx->request.path;
        finish(ctx, Status::unauthorized().response(false));
    } else {
        process(ctx); // finishes before it returns: nothing after authorization runs
    }
    return result;
}

std::variant<QJsonObject, QString> ClusterApi::access(const QJsonObject &request) const
{
    auto identity = identityFrom(request);
    if (auto *e = std::get_if<QString>(&identity))
        return *e;
    const UserInfo user = std::get<UserInfo>(identity);
    QJsonObject out{{QStringLiteral("user"), userJson(user)}};
    QJsonArray notes;
    if (user.authenticator == QLatin1String("anonymous") && !m_authenticator.anonymousEnabled())
        notes.append(QStringLiteral("anonymous access is off: every request without credentials "
                                    "is answered 401 before authorization"));
    std::shared_ptr<const AuthorizerChain> chain;
    {
        QMutexLocker lock(&m_mutex);
        chain = m_authorizer;
    }
    const bool privileged = user.groups.contains(QLatin1String(kMastersGroup));
    out.insert(QStringLiteral("privileged"), privileged);
    if (privileged)
        notes.append(QStringLiteral("member of system:masters: every request is allowed before "
                                    "the authorizers run"));
    QString node;
    if (isNodeUser(user, &node) && chain->modes().contains(QLatin1String("Node")))
        notes.append(QStringLiteral("the Node authorizer also grants node \"%1\" its own Node "
                                    "object (and its status), creating and updating nodes, "
                                    "and reading the pods bound to it")
                         .arg(node));
    QJsonArray cells;
    if (chain->modes().contains(QLatin1String("RBAC")))
        for (const AccessCell &c : chain->rbac().effectiveAccess(user))
            cells.append(c.toJson());
    out.insert(QStringLiteral("notes"), notes);
    out.insert(QStringLiteral("access"), cells);
    return out;
}

void ClusterApi::perform(const QJsonObject &request, std::function<void(QJsonObject)> done,
                         qint64 credentialsUntilMs)
{
    std::shared_ptr<Context> ctx;
    auto built = buildRequest(request, ctx);
    if (auto *e = std::get_if<QString>(&built)) {
        done(QJsonObject{{QStringLiteral("error"), *e}});
        return;
    }
    ctx->credentialsUntilMs = credentialsUntilMs;
    ctx->onDone = [done = std::move(done)](const Core::HttpResponse &r, const RequestTrace &trace) {
        QJsonObject out{{QStringLiteral("code"), r.status},
                        {QStringLiteral("trace"), trace.toJson()}};
        const QJsonDocument doc = QJsonDocument::fromJson(r.body);
        if (doc.isObject())
            out.insert(QStringLiteral("body"), doc.object());
        else
            out.insert(QStringLiteral("body"), QString::fromUtf8(r.body));
        done(out);
    };
    if (ctx->anonymousRefused) {
        ctx->trace.method = QString::fromLatin1(ctx->request.method);
        ctx->trace.path = ctx->request.path;
        finish(ctx, Status::unauthorized().response(false));
        return;
    }
    process(ctx);
}

} // namespace Gatehouse::Cluster
