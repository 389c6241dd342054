// Reviews (TokenReview, SubjectAccessReview and their self/local forms, SelfSubjectReview,
// SelfSubjectRulesReview) and TokenRequest: answered, never stored.
#include "cluster/clusterapi_p.h"

namespace Gatehouse::Cluster {

using namespace ApiInternal;

void ClusterApi::handleTokenRequest(const std::shared_ptr<Context> &ctx)
{
    const RequestInfo &info = ctx->trace.info;
    const bool pretty = ctx->pretty;
    auto parsed = requestObject(ctx->request, true, true);
    if (const auto *st = std::get_if<Status>(&parsed)) {
        finish(ctx, st->response(pretty));
        return;
    }
    const QJsonObject spec = std::get<QJsonObject>(parsed).value(QLatin1String("spec")).toObject();
    const std::optional<QJsonObject> account =
        m_store.get(QStringLiteral("serviceaccounts"), info.namespaceName, info.name);
    if (!account) {
        finish(ctx, Status::notFound(QString(), QStringLiteral("serviceaccounts"), info.name)
                        .response(pretty));
        return;
    }
    const qint64 seconds = spec.contains(QLatin1String("expirationSeconds"))
                               ? Core::jsonSeconds(spec.value(QLatin1String("expirationSeconds")))
                               : 3600;
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
    const QStringList audiences = toStrings(spec.value(QLatin1String("audiences")));
    auto token = m_serviceAccounts->issue(info.namespaceName, info.name,
                                          fieldValue(*account, QStringLiteral("metadata.uid")),
                                          seconds, audiences);
    if (!token) {
        finish(ctx, Status::internalError(token.error().message).response(pretty));
        return;
    }
    QJsonObject outSpec{
        {QStringLiteral("audiences"),
         QJsonArray::fromStringList(
             audiences.isEmpty() ? QStringList{QString::fromLatin1(ServiceAccountTokens::kIssuer)}
                                 : audiences)},
        {QStringLiteral("expirationSeconds"), seconds},
        {QStringLiteral("boundObjectRef"), QJsonValue::Null}};
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
                   {QStringLiteral("status"), *token}},
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
    if (!metaOf(body).isEmpty() &&
        !(metaOf(body).size() == 1 &&
          metaOf(body).value(QLatin1String("creationTimestamp")).isNull())) {
        invalid(QStringLiteral("metadata"),
                QStringLiteral("Invalid value: %1: must be empty")
                    .arg(QString::fromUtf8(
                        QJsonDocument(metaOf(body)).toJson(QJsonDocument::Compact))));
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
        const AuthenticationResult r = m_authenticator.authenticateToken(token);
        status.insert(QStringLiteral("authenticated"), r.ok());
        if (r.ok())
            status.insert(QStringLiteral("user"), userJson(r.user));
        else
            status.insert(QStringLiteral("error"), r.reason);
        spec = QJsonObject(); // never echo a token
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
