// Reviews (TokenReview, SubjectAccessReview and their self/local forms, SelfSubjectReview,
// SelfSubjectRulesReview) and TokenRequest: answered, never stored.
#include "cluster/clusterapi_p.h"
#include "core/jsontypename.h"

namespace Gatehouse::Cluster {

using namespace ApiInternal;

namespace {

// The admission webhooks of one TokenRequest (a create of serviceaccounts/token, as
// kube-apiserver sends it to them): the mutating ones one after the other, each seeing the
// last one's patch, then the validating ones side by side. Callbacks run on the webhook
// caller's thread, one at a time.
struct TokenRequestAdmission
{
    WebhookCaller *caller = nullptr;
    WebhookAttributes attributes;
    QList<AdmissionWebhook> mutating, validating;
    QList<AdmissionStep> steps;
    QStringList warnings;
    std::function<void(TokenRequestAdmission &, const std::optional<WebhookAnswer> &denial)> done;
};

// spec.boundObjectRef of a TokenRequest, as kube's TokenREST checks it: a Pod running as the
// account (with its Node, when scheduled) or a Node, which must exist with the uid given. The
// claims go under the token's "kubernetes.io", and the token dies with the object.
std::variant<QJsonObject, Status> boundObjectClaims(const ObjectStore &store, const QString &ns,
                                                    const QString &account, const QJsonObject &ref)
{
    const QString apiVersion = ref.value(QLatin1String("apiVersion")).toString();
    const QString kind = ref.value(QLatin1String("kind")).toString();
    const QString name = ref.value(QLatin1String("name")).toString();
    // schema.FromAPIVersionAndKind: "v1" is the core group.
    const qsizetype slash = apiVersion.indexOf(QLatin1Char('/'));
    const QString group = slash < 0 ? QString() : apiVersion.left(slash);
    const QString version = slash < 0 ? apiVersion : apiVersion.mid(slash + 1);
    const auto uidOf = [](const QJsonObject &o) {
        return fieldValue(o, QStringLiteral("metadata.uid"));
    };
    QJsonObject claims;
    QString uid;
    if (group.isEmpty() && kind == QLatin1String("Pod")) {
        const auto pod = store.get(QStringLiteral("pods"), ns, name);
        if (!pod)
            return Status::notFound(QString(), QStringLiteral("pods"), name);
        // Exactly the pod's own account, as kube compares it: ServiceAccount admission names
        // "default" in every pod but a mirror pod, which runs as no account at all. Reading an
        // empty name as "default" let a node mint the default account's token of any namespace
        // through a mirror pod it may create there.
        // Only a string names an account: fieldValue reads 123 as "123", while admission read
        // a number as no account at all (a pod stored before types were checked).
        const QJsonValue runsAsValue =
            pod->value(QLatin1String("spec")).toObject().value(QLatin1String("serviceAccountName"));
        const QString runsAs = runsAsValue.isString() ? runsAsValue.toString() : QString();
        if (runsAs.isEmpty() || runsAs != account)
            return Status::badRequest(QStringLiteral("cannot bind token for serviceaccount \"%1\" "
                                                     "to pod running with different "
                                                     "serviceaccount name.")
                                          .arg(account));
        uid = uidOf(*pod);
        claims.insert(QStringLiteral("pod"),
                      QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("uid"), uid}});
        const QString nodeName = fieldValue(*pod, QStringLiteral("spec.nodeName"));
        if (!nodeName.isEmpty()) {
            QJsonObject node{{QStringLiteral("name"), nodeName}};
            if (const auto n = store.get(QStringLiteral("nodes"), QString(), nodeName))
                node.insert(QStringLiteral("uid"), uidOf(*n));
            claims.insert(QStringLiteral("node"), node);
        }
    } else if (group.isEmpty() && kind == QLatin1String("Node")) {
        const auto node = store.get(QStringLiteral("nodes"), QString(), name);
        if (!node)
            return Status::notFound(QString(), QStringLiteral("nodes"), name);
        uid = uidOf(*node);
        claims.insert(QStringLiteral("node"),
                      QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("uid"), uid}});
    } else if (group.isEmpty() && kind == QLatin1String("Secret")) {
        return Status::notFound(QString(), QStringLiteral("secrets"), name); // none are served
    } else {
        return Status::badRequest(QStringLiteral("cannot bind token to object of type %1/%2, "
                                                 "Kind=%3")
                                      .arg(group, version, kind));
    }
    const QString wanted = ref.value(QLatin1String("uid")).toString();
    if (!wanted.isEmpty() && wanted != uid)
        return Status::conflict(QString(), kind, name,
                                QStringLiteral("the UID in the bound object reference (%1) does "
                                               "not match the UID in record. The object might "
                                               "have been deleted and then recreated")
                                    .arg(wanted));
    return claims;
}

// A mutating webhook's JSONPatch on the TokenRequest; what it may not change, as for objects.
std::optional<QString> patchTokenRequest(QJsonObject &object, const QByteArray &patch)
{
    auto patched = applyPatch(PatchType::Json, object, patch);
    if (const auto *e = std::get_if<PatchError>(&patched))
        return QStringLiteral("returned a patch that cannot be applied: ") + e->message;
    const QJsonObject &after = std::get<QJsonObject>(patched);
    for (const char *key : {"apiVersion", "kind"})
        if (after.value(QLatin1String(key)) != object.value(QLatin1String(key)))
            return QStringLiteral("changed the object's apiVersion or kind");
    if (nameOf(after) != nameOf(object))
        return QStringLiteral("changed metadata.name");
    object = after;
    return std::nullopt;
}

void validateTokenRequest(const std::shared_ptr<TokenRequestAdmission> &run)
{
    QList<AdmissionWebhook> asked;
    for (const AdmissionWebhook &h : std::as_const(run->validating))
        if (matches(h, run->attributes))
            asked.append(h);
    if (asked.isEmpty()) {
        run->done(*run, std::nullopt);
        return;
    }
    auto answers = std::make_shared<QList<std::optional<WebhookAnswer>>>(asked.size());
    auto left = std::make_shared<int>(int(asked.size()));
    for (int i = 0; i < asked.size(); ++i)
        run->caller->call(asked[i], run->attributes, [run, answers, left, i](WebhookAnswer a) {
            (*answers)[i] = std::move(a);
            if (--*left > 0)
                return;
            std::optional<WebhookAnswer> denial;
            for (const std::optional<WebhookAnswer> &x : std::as_const(*answers)) {
                run->steps.append(x->step());
                run->warnings += x->warnings;
                if (!x->allowed && !denial)
                    denial = *x;
            }
            run->done(*run, denial);
        });
}

void mutateTokenRequest(const std::shared_ptr<TokenRequestAdmission> &run, int from)
{
    int i = from;
    while (i < run->mutating.size() && !matches(run->mutating[i], run->attributes))
        ++i;
    if (i >= run->mutating.size()) {
        validateTokenRequest(run);
        return;
    }
    run->caller->call(run->mutating[i], run->attributes, [run, i](WebhookAnswer a) {
        run->warnings += a.warnings;
        if (a.allowed && !a.patch.isEmpty())
            if (const auto error = patchTokenRequest(run->attributes.object, a.patch)) {
                a.allowed = false;
                a.callFailed = true;
                a.error = QStringLiteral("admission webhook \"%1\" %2").arg(a.webhook, *error);
                a.status = Status::internalError(a.error);
            }
        run->steps.append(a.step());
        if (!a.allowed) {
            run->done(*run, a);
            return;
        }
        mutateTokenRequest(run, i + 1);
    });
}

} // namespace

void ClusterApi::handleTokenRequest(const std::shared_ptr<Context> &ctx)
{
    const RequestInfo &info = ctx->trace.info;
    const bool pretty = ctx->pretty;
    auto parsed = requestObject(ctx->request, true, true);
    if (const auto *st = std::get_if<Status>(&parsed)) {
        finish(ctx, st->response(pretty));
        return;
    }
    // A dry run goes through admission and the checks, and signs nothing.
    if (auto refused = dryRunOption(ctx->request, QStringLiteral("CreateOptions"), &ctx->dryRun)) {
        finish(ctx, refused->response(pretty));
        return;
    }
    const std::optional<QJsonObject> account =
        m_store.get(QStringLiteral("serviceaccounts"), info.namespaceName, info.name);
    if (!account) {
        finish(ctx, Status::notFound(QString(), QStringLiteral("serviceaccounts"), info.name)
                        .response(pretty));
        return;
    }
    const QJsonObject tokenRequest{
        {QStringLiteral("kind"), QStringLiteral("TokenRequest")},
        {QStringLiteral("apiVersion"), QStringLiteral("authentication.k8s.io/v1")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), info.name},
                     {QStringLiteral("namespace"), info.namespaceName},
                     {QStringLiteral("creationTimestamp"), QJsonValue::Null}}},
        {QStringLiteral("spec"),
         std::get<QJsonObject>(parsed).value(QLatin1String("spec")).toObject()},
        {QStringLiteral("status"), QJsonObject()}};
    const QString uid = fieldValue(*account, QStringLiteral("metadata.uid"));

    // The built-in plugins first, as for any create: NodeRestriction narrows a node to tokens
    // bound to its own pods, NamespaceLifecycle and AlwaysDeny hold here too.
    const AdmissionVerdict builtin = ctx->admission->admit(
        AdmissionRequest{QStringLiteral("CREATE"), ctx->attributes, info.name, {}, tokenRequest});
    ctx->trace.admission = builtin;
    if (!builtin.allowed) {
        finish(ctx, builtin.status.response(pretty));
        return;
    }

    // Policy webhooks decide on token minting too (kube sends serviceaccounts/token creates):
    // a configuration that names it is never bypassed.
    const QStringList &plugins = ctx->admission->plugins();
    auto run = std::make_shared<TokenRequestAdmission>();
    WebhookAttributes &a = run->attributes;
    a.operation = QStringLiteral("CREATE");
    a.version = QStringLiteral("v1");
    a.resource = QStringLiteral("serviceaccounts");
    a.subresource = QStringLiteral("token");
    a.kind = QStringLiteral("TokenRequest");
    a.kindGroup = QStringLiteral("authentication.k8s.io");
    a.kindVersion = QStringLiteral("v1");
    a.namespaceName = info.namespaceName;
    a.name = info.name;
    a.object = tokenRequest;
    a.user = ctx->attributes.user;
    a.dryRun = ctx->dryRun;
    if (const auto n = m_store.get(QStringLiteral("namespaces"), QString(), info.namespaceName))
        a.namespaceLabels = metaOf(*n).value(QLatin1String("labels")).toObject();
    if (ctx->webhooks) {
        if (plugins.contains(QLatin1String(AdmissionChain::kMutatingWebhook)))
            for (const AdmissionWebhook &h : ctx->webhooks->mutating)
                if (matchesRules(h, a))
                    run->mutating.append(h);
        if (plugins.contains(QLatin1String(AdmissionChain::kValidatingWebhook)))
            for (const AdmissionWebhook &h : ctx->webhooks->validating)
                if (matchesRules(h, a))
                    run->validating.append(h);
    }
    if (run->mutating.isEmpty() && run->validating.isEmpty()) {
        issueToken(ctx, tokenRequest, uid);
        return;
    }
    run->caller = m_webhookCaller.get();
    run->steps = builtin.steps;
    run->done = [this, ctx, uid](TokenRequestAdmission &r,
                                 const std::optional<WebhookAnswer> &denial) {
        ctx->warnings += r.warnings;
        AdmissionVerdict v;
        v.steps = r.steps;
        if (denial) {
            v.allowed = false;
            v.plugin = QLatin1String(denial->mutating ? AdmissionChain::kMutatingWebhook
                                                      : AdmissionChain::kValidatingWebhook);
            v.webhook = denial->webhook;
            v.status = denial->status;
        }
        ctx->trace.admission = v;
        if (denial) {
            if (!ctx->dryRun)
                recordEvent({QStringLiteral("Warning"), QStringLiteral("AdmissionDenied"),
                             QStringLiteral("token request by %1 denied: %2")
                                 .arg(ctx->attributes.user.name, denial->status.message),
                             QJsonObject{{QStringLiteral("kind"), QStringLiteral("ServiceAccount")},
                                         {QStringLiteral("name"), r.attributes.name},
                                         {QStringLiteral("namespace"), r.attributes.namespaceName},
                                         {QStringLiteral("uid"), uid},
                                         {QStringLiteral("apiVersion"), QStringLiteral("v1")}}});
            finish(ctx, denial->status.response(ctx->pretty));
            return;
        }
        // What the mutating webhooks made of the request is judged as well, as kube's
        // validating NodeRestriction sees the final object: a webhook that drops the binding
        // to the node's pod does not mint an unbound token for the node.
        if (!r.mutating.isEmpty()) {
            const AdmissionVerdict final =
                ctx->admission->admit(AdmissionRequest{QStringLiteral("CREATE"),
                                                       ctx->attributes,
                                                       ctx->trace.info.name,
                                                       {},
                                                       r.attributes.object});
            if (!final.allowed) {
                ctx->trace.admission = final;
                finish(ctx, final.status.response(ctx->pretty));
                return;
            }
        }
        issueToken(ctx, r.attributes.object, uid);
    };
    mutateTokenRequest(run, 0);
}

void ClusterApi::issueToken(const std::shared_ptr<Context> &ctx, const QJsonObject &tokenRequest,
                            const QString &accountUid)
{
    const RequestInfo &info = ctx->trace.info;
    const bool pretty = ctx->pretty;
    const QJsonObject spec = tokenRequest.value(QLatin1String("spec")).toObject();
    // Absent or null: an hour (kube's default). Not a whole number ("3600", 600.5, true): 400
    // as kube's decoder answers, never read as 0 or rounded.
    const std::optional<qint64> asked =
        Core::integerOr(spec.value(QLatin1String("expirationSeconds")), 3600);
    if (!asked) {
        finish(ctx, Status::badRequest(QStringLiteral("TokenRequest in version \"v1\" cannot be "
                                                      "handled as a TokenRequest: "
                                                      "spec.expirationSeconds is not an integer"))
                        .response(pretty));
        return;
    }
    qint64 seconds = *asked;
    if (seconds < 600 || seconds > 48 * 3600) {
        finish(ctx,
               Status::invalid(QStringLiteral("authentication.k8s.io"),
                               QStringLiteral("TokenRequest"), info.name,
                               {StatusCause{QStringLiteral("FieldValueInvalid"),
                                            QStringLiteral("Invalid value: %1: may not specify "
                                                           "a duration less than 10 minutes "
                                                           "or more than 48 hours")
                                                .arg(seconds),
                                            QStringLiteral("spec.expirationSeconds")}})
                   .response(pretty));
        return;
    }
    if (!m_serviceAccounts) {
        finish(ctx,
               Status::internalError(QStringLiteral("service account tokens are not configured"))
                   .response(pretty));
        return;
    }
    // Asked through an admin token that expires (or a scoped one: a day), or with a credential
    // that ends (a client certificate, a token issued under such a bound): the token ends with
    // it at the latest, as kube's --service-account-max-token-expiration shortens a request
    // (the answer's expirationSeconds and expirationTimestamp say what was issued), and
    // carries that end on (ServiceAccountTokens::kNotAfterClaim). No credential outlives the
    // admin token that asked for it, however many times it is renewed with itself
    // (docs/cluster.md).
    if (ctx->credentialsUntilMs > 0) {
        const qint64 left = (ctx->credentialsUntilMs - m_clock.now().toMSecsSinceEpoch()) / 1000;
        if (left < 1) {
            finish(ctx, Status::unauthorized().response(pretty));
            return;
        }
        seconds = std::min(seconds, left);
    }
    const QJsonValue ref = spec.value(QLatin1String("boundObjectRef"));
    QJsonObject bound;
    if (ref.isObject()) {
        auto claims = boundObjectClaims(m_store, info.namespaceName, info.name, ref.toObject());
        if (const auto *st = std::get_if<Status>(&claims)) {
            finish(ctx, st->response(pretty));
            return;
        }
        bound = std::get<QJsonObject>(claims);
    }
    const QStringList audiences = toStrings(spec.value(QLatin1String("audiences")));
    QJsonObject status{{QStringLiteral("token"), QString()},
                       {QStringLiteral("expirationTimestamp"), QJsonValue::Null}};
    if (!ctx->dryRun) {
        auto token = m_serviceAccounts->issue(info.namespaceName, info.name, accountUid, seconds,
                                              audiences, bound, ctx->credentialsUntilMs);
        if (!token) {
            finish(ctx, Status::internalError(token.error().message).response(pretty));
            return;
        }
        status = *token;
    }
    QJsonObject outSpec{
        {QStringLiteral("audiences"),
         QJsonArray::fromStringList(
             audiences.isEmpty() ? QStringList{QString::fromLatin1(ServiceAccountTokens::kIssuer)}
                                 : audiences)},
        {QStringLiteral("expirationSeconds"), seconds},
        {QStringLiteral("boundObjectRef"), ref.isObject() ? ref : QJsonValue(QJsonValue::Null)}};
    finish(ctx,
           typedResponse(
               ctx->request, 201,
               QJsonObject{
                   {QStringLiteral("kind"), QStringLiteral("TokenRequest")},
                   {QStringLiteral("apiVersion"), QStringLiteral("authentication.k8s.io/v1")},
                   {QStringLiteral("metadata"),
                    QJsonObject{{QStringLiteral("name"), info.name},
                                {QStringLiteral("namespace"), info.namespaceName},
                                {QStringLiteral("creationTimestamp"), timestamp(m_clock.now())}}},
                   {QStringLiteral("spec"), outSpec},
                   {QStringLiteral("status"), status}},
               pretty));
}

void ClusterApi::handleReview(const std::shared_ptr<Context> &ctx, const ResourceType &type)
{
    const Core::HttpRequest &req = ctx->request;
    const bool pretty = ctx->pretty;
    auto parsed = requestObject(req, true, false);
    if (const auto *st = std::get_if<Status>(&parsed)) {
        finish(ctx, st->response(pretty));
        return;
    }
    const QJsonObject body = std::get<QJsonObject>(parsed);
    // The Python client sends neither apiVersion nor kind: the URL tells.
    const QString kind = body.value(QLatin1String("kind")).toString();
    if (!kind.isEmpty() && kind != type.kind) {
        finish(ctx, Status::badRequest(QStringLiteral("the kind in the data (%1) does not match "
                                                      "the expected kind (%2)")
                                           .arg(kind, type.kind))
                        .response(pretty));
        return;
    }
    QJsonObject spec = body.value(QLatin1String("spec")).toObject();
    const UserInfo &self = ctx->attributes.user;
    auto invalid = [&](const QString &field, const QString &message) {
        finish(ctx,
               Status::invalid(type.group, type.kind, QString(),
                               {StatusCause{QStringLiteral("FieldValueInvalid"), message, field}})
                   .response(pretty));
    };
    // A review's metadata is empty; a LocalSubjectAccessReview's may name its namespace, as
    // client-go and the Python client do (kube fills it from the URL and refuses another one).
    QJsonObject meta = metaOf(body);
    const bool local = type.name == QLatin1String("localsubjectaccessreviews");
    if (local) {
        const QString bodyNs = meta.value(QLatin1String("namespace")).toString();
        if (!bodyNs.isEmpty() && bodyNs != ctx->trace.info.namespaceName) {
            finish(ctx, Status::badRequest(QStringLiteral("the namespace of the provided object "
                                                          "does not match the namespace sent "
                                                          "on the request"))
                            .response(pretty));
            return;
        }
        meta.remove(QLatin1String("namespace"));
    }
    if (meta.value(QLatin1String("creationTimestamp")).isNull())
        meta.remove(QLatin1String("creationTimestamp"));
    if (!meta.isEmpty()) {
        invalid(
            QStringLiteral("metadata"),
            QStringLiteral("Invalid value: %1: must be empty%2")
                .arg(QString::fromUtf8(QJsonDocument(metaOf(body)).toJson(QJsonDocument::Compact)),
                     local ? QStringLiteral(" except for namespace") : QString()));
        return;
    }
    QJsonObject status;
    const QString name = type.name;
    if (name.endsWith(QLatin1String("subjectaccessreviews"))) {
        const bool hasRes = spec.value(QLatin1String("resourceAttributes")).isObject();
        const bool hasNonRes = spec.value(QLatin1String("nonResourceAttributes")).isObject();
        if (hasRes == hasNonRes) {
            if (!hasRes)
                invalid(
                    QStringLiteral("spec.resourceAttributes"),
                    QStringLiteral("Invalid value: \"null\": exactly one of nonResourceAttributes "
                                   "or resourceAttributes must be specified"));
            else
                invalid(QStringLiteral("spec.nonResourceAttributes"),
                        QStringLiteral("Invalid value: \"{}\": cannot be specified in combination "
                                       "with resourceAttributes"));
            return;
        }
        Attributes a;
        if (name == QLatin1String("selfsubjectaccessreviews")) {
            a.user = self;
        } else {
            a.user.name = spec.value(QLatin1String("user")).toString();
            a.user.groups = toStrings(spec.value(QLatin1String("groups")));
            a.user.uid = spec.value(QLatin1String("uid")).toString();
            if (a.user.name.isEmpty() && a.user.groups.isEmpty()) {
                invalid(QStringLiteral("spec.user"),
                        QStringLiteral("Invalid value: \"\": at least one of user or group must "
                                       "be specified"));
                return;
            }
        }
        if (hasRes) {
            const QJsonObject r = spec.value(QLatin1String("resourceAttributes")).toObject();
            a.resourceRequest = true;
            a.namespaceName = r.value(QLatin1String("namespace")).toString();
            a.verb = r.value(QLatin1String("verb")).toString();
            a.apiGroup = r.value(QLatin1String("group")).toString();
            a.apiVersion = r.value(QLatin1String("version")).toString();
            if (a.apiVersion.isEmpty())
                a.apiVersion = QStringLiteral("*");
            a.resource = r.value(QLatin1String("resource")).toString();
            a.subresource = r.value(QLatin1String("subresource")).toString();
            a.name = r.value(QLatin1String("name")).toString();
            if (name == QLatin1String("localsubjectaccessreviews") &&
                a.namespaceName != ctx->trace.info.namespaceName) {
                invalid(QStringLiteral("spec.resourceAttributes.namespace"),
                        QStringLiteral("Invalid value: \"%1\": must match metadata.namespace")
                            .arg(a.namespaceName));
                return;
            }
        } else {
            const QJsonObject r = spec.value(QLatin1String("nonResourceAttributes")).toObject();
            a.path = r.value(QLatin1String("path")).toString();
            a.verb = r.value(QLatin1String("verb")).toString();
            // A namespace's review asks about that namespace only: URLs are the cluster's
            // (kube's ValidateLocalSubjectAccessReview), or a namespace admin could probe
            // anybody's cluster-wide rights.
            if (name == QLatin1String("localsubjectaccessreviews")) {
                invalid(
                    QStringLiteral("spec.nonResourceAttributes"),
                    QStringLiteral("Invalid value: authorization.NonResourceAttributes{Path:%1, "
                                   "Verb:%2}: disallowed on this kind of request")
                        .arg(Validation::goQuoted(a.path), Validation::goQuoted(a.verb)));
                return;
            }
        }
        const AuthorizationResult result = ctx->authorizer->authorize(a);
        status.insert(QStringLiteral("allowed"), result.allowed());
        if (result.decision == Decision::Deny)
            status.insert(QStringLiteral("denied"), true);
        if (!result.reason.isEmpty())
            status.insert(QStringLiteral("reason"), result.reason);
    } else if (name == QLatin1String("selfsubjectrulesreviews")) {
        const QString ns = spec.value(QLatin1String("namespace")).toString();
        QJsonArray resourceRules, nonResourceRules;
        bool incomplete = false;
        for (const PolicyRule &r : ctx->authorizer->rbac().rulesFor(self, ns)) {
            if (r.nonResourceURLs.isEmpty())
                resourceRules.append(r.toJson());
            else
                nonResourceRules.append(
                    QJsonObject{{QStringLiteral("verbs"), toArray(r.verbs)},
                                {QStringLiteral("nonResourceURLs"), toArray(r.nonResourceURLs)}});
        }
        // The Node authorizer's rules depend on the object graph: not listable.
        if (isNodeUser(self) && settings().authorizationModes.contains(QLatin1String("Node")))
            incomplete = true;
        status = QJsonObject{{QStringLiteral("resourceRules"), resourceRules},
                             {QStringLiteral("nonResourceRules"), nonResourceRules},
                             {QStringLiteral("incomplete"), incomplete}};
        if (incomplete)
            status.insert(QStringLiteral("evaluationError"),
                          QStringLiteral("node authorizer does not support user rule resolution"));
    } else if (name == QLatin1String("selfsubjectreviews")) {
        status = QJsonObject{{QStringLiteral("userInfo"), userJson(self)}};
    } else if (name == QLatin1String("tokenreviews")) {
        const QString token = spec.value(QLatin1String("token")).toString();
        if (token.isEmpty()) {
            invalid(QStringLiteral("spec.token"),
                    QStringLiteral("Required value: token must not be empty"));
            return;
        }
        // Reviewed for the audiences asked (a service's own, say), else this API server's:
        // a token for the API server is no token for a service that asks for its own.
        const QStringList audiences = toStrings(spec.value(QLatin1String("audiences")));
        const AuthenticationResult r = m_authenticator.authenticateToken(token, audiences);
        status.insert(QStringLiteral("authenticated"), r.ok());
        if (r.ok()) {
            status.insert(QStringLiteral("user"), userJson(r.user));
            status.insert(QStringLiteral("audiences"), toArray(r.user.audiences));
        } else {
            status.insert(QStringLiteral("error"), r.reason);
        }
        spec.remove(QStringLiteral("token")); // never echo a token
    }
    QJsonObject answer{{QStringLiteral("kind"), type.kind},
                       {QStringLiteral("apiVersion"), type.apiVersion()},
                       {QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("creationTimestamp"), QJsonValue::Null}}},
                       {QStringLiteral("status"), status}};
    if (!spec.isEmpty() || name != QLatin1String("selfsubjectreviews"))
        answer.insert(QStringLiteral("spec"), spec);
    finish(ctx, typedResponse(ctx->request, 201, answer, pretty));
}

} // namespace Gatehouse::Cluster
