#include "cluster/admissionwebhooks.h"

#include "cluster/clusterlogging.h"
#include "cluster/events.h"
#include "core/resolver.h"
#include "core/threadstate.h"
#include "webhooks/httpclient.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <QUuid>

namespace Gatehouse::Cluster {

using namespace Validation;

namespace {

QStringList hookStrings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue s : v.toArray())
        out.append(s.toString());
    return out;
}

QJsonArray hookArray(const QStringList &l)
{
    QJsonArray a;
    for (const QString &s : l)
        a.append(s);
    return a;
}

// Go's %#v of a []string, as kube's field.Invalid prints one.
QString goStrings(const QStringList &l)
{
    QStringList quoted;
    for (const QString &s : l)
        quoted.append(goQuoted(s));
    return QStringLiteral("[]string{%1}").arg(quoted.join(QStringLiteral(", ")));
}

StatusCause invalidList(const QString &field, const QStringList &value, const QString &detail)
{
    return StatusCause{QStringLiteral("FieldValueInvalid"),
                       QStringLiteral("Invalid value: %1: %2").arg(goStrings(value), detail),
                       field};
}

QByteArray caBundleOf(const QJsonObject &clientConfig)
{
    return QByteArray::fromBase64(
        clientConfig.value(QLatin1String("caBundle")).toString().toLatin1());
}

QJsonObject objectLabels(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
}

} // namespace

// ---- LabelSelector ----------------------------------------------------------------------

LabelSelector LabelSelector::fromJson(const QJsonObject &selector)
{
    LabelSelector s;
    const QJsonObject labels = selector.value(QLatin1String("matchLabels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        s.m_labels.insert(it.key(), it.value().toString());
    for (const QJsonValue v : selector.value(QLatin1String("matchExpressions")).toArray()) {
        const QJsonObject e = v.toObject();
        s.m_expressions.append(Expression{e.value(QLatin1String("key")).toString(),
                                          e.value(QLatin1String("operator")).toString(),
                                          hookStrings(e.value(QLatin1String("values")))});
    }
    return s;
}

QList<StatusCause> LabelSelector::validate(const QJsonValue &selector, const QString &path)
{
    QList<StatusCause> causes;
    if (selector.isUndefined() || selector.isNull())
        return causes;
    const QJsonObject s = selector.toObject();
    const QJsonObject labels = s.value(QLatin1String("matchLabels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        for (const QString &e : qualifiedName(it.key()))
            causes.append(invalidCause(path + QStringLiteral(".matchLabels"), it.key(), e));
        for (const QString &e : labelValue(it.value().toString()))
            causes.append(
                invalidCause(path + QStringLiteral(".matchLabels"), it.value().toString(), e));
    }
    const QJsonArray expressions = s.value(QLatin1String("matchExpressions")).toArray();
    for (int i = 0; i < expressions.size(); ++i) {
        const QJsonObject e = expressions[i].toObject();
        const QString at = QStringLiteral("%1.matchExpressions[%2]").arg(path).arg(i);
        const QString op = e.value(QLatin1String("operator")).toString();
        const QStringList values = hookStrings(e.value(QLatin1String("values")));
        if (op == QLatin1String("In") || op == QLatin1String("NotIn")) {
            if (values.isEmpty())
                causes.append(requiredCause(at + QStringLiteral(".values"),
                                            QStringLiteral("must be specified when `operator` is "
                                                           "'In' or 'NotIn'")));
        } else if (op == QLatin1String("Exists") || op == QLatin1String("DoesNotExist")) {
            if (!values.isEmpty())
                causes.append(forbiddenCause(at + QStringLiteral(".values"),
                                             QStringLiteral("may not be specified when "
                                                            "`operator` is 'Exists' or "
                                                            "'DoesNotExist'")));
        } else {
            causes.append(invalidCause(at + QStringLiteral(".operator"), op,
                                       QStringLiteral("not a valid selector operator")));
        }
        const QString key = e.value(QLatin1String("key")).toString();
        for (const QString &err : qualifiedName(key))
            causes.append(invalidCause(at + QStringLiteral(".key"), key, err));
    }
    return causes;
}

bool LabelSelector::matches(const QJsonObject &labels) const
{
    for (auto it = m_labels.begin(); it != m_labels.end(); ++it)
        if (!labels.contains(it.key()) || labels.value(it.key()).toString() != it.value())
            return false;
    for (const Expression &e : m_expressions) {
        const bool present = labels.contains(e.key);
        const QString value = labels.value(e.key).toString();
        if (e.op == QLatin1String("In") && !(present && e.values.contains(value)))
            return false;
        if (e.op == QLatin1String("NotIn") && present && e.values.contains(value))
            return false;
        if (e.op == QLatin1String("Exists") && !present)
            return false;
        if (e.op == QLatin1String("DoesNotExist") && present)
            return false;
    }
    return true;
}

// ---- Configurations ---------------------------------------------------------------------

QString AdmissionWebhook::displayUrl() const
{
    if (!url.isEmpty())
        return url;
    return QStringLiteral("https://%1.%2.svc:%3%4")
        .arg(serviceName, serviceNamespace)
        .arg(servicePort)
        .arg(servicePath);
}

void defaultWebhookConfiguration(QJsonObject &configuration, bool mutating)
{
    QJsonArray webhooks = configuration.value(QLatin1String("webhooks")).toArray();
    for (int i = 0; i < webhooks.size(); ++i) {
        QJsonObject w = webhooks[i].toObject();
        auto setDefault = [&w](const char *key, const QJsonValue &v) {
            if (!w.contains(QLatin1String(key)) || w.value(QLatin1String(key)).isNull())
                w.insert(QLatin1String(key), v);
        };
        setDefault("failurePolicy", QStringLiteral("Fail"));
        setDefault("matchPolicy", QStringLiteral("Equivalent"));
        setDefault("namespaceSelector", QJsonObject());
        setDefault("objectSelector", QJsonObject());
        setDefault("timeoutSeconds", 10);
        if (mutating)
            setDefault("reinvocationPolicy", QStringLiteral("Never"));
        QJsonArray rules = w.value(QLatin1String("rules")).toArray();
        for (int j = 0; j < rules.size(); ++j) {
            QJsonObject r = rules[j].toObject();
            if (r.value(QLatin1String("scope")).toString().isEmpty())
                r.insert(QStringLiteral("scope"), QStringLiteral("*"));
            rules[j] = r;
        }
        if (w.contains(QLatin1String("rules")))
            w.insert(QStringLiteral("rules"), rules);
        QJsonObject client = w.value(QLatin1String("clientConfig")).toObject();
        if (client.value(QLatin1String("service")).isObject()) {
            QJsonObject service = client.value(QLatin1String("service")).toObject();
            if (!service.contains(QLatin1String("port")))
                service.insert(QStringLiteral("port"), 443);
            client.insert(QStringLiteral("service"), service);
            w.insert(QStringLiteral("clientConfig"), client);
        }
        webhooks[i] = w;
    }
    if (configuration.contains(QLatin1String("webhooks")))
        configuration.insert(QStringLiteral("webhooks"), webhooks);
}

QList<StatusCause> validateWebhookConfiguration(const QJsonObject &configuration, bool mutating)
{
    QList<StatusCause> causes;
    const QJsonArray webhooks = configuration.value(QLatin1String("webhooks")).toArray();
    QStringList names;
    static const QStringList operations{QStringLiteral("*"), QStringLiteral("CONNECT"),
                                        QStringLiteral("CREATE"), QStringLiteral("DELETE"),
                                        QStringLiteral("UPDATE")};
    for (int i = 0; i < webhooks.size(); ++i) {
        const QJsonObject w = webhooks[i].toObject();
        const QString at = QStringLiteral("webhooks[%1]").arg(i);
        const QString name = w.value(QLatin1String("name")).toString();
        if (name.isEmpty()) {
            causes.append(requiredCause(at + QStringLiteral(".name")));
        } else {
            QStringList errs = dnsSubdomain(name);
            if (errs.isEmpty() && name.count(QLatin1Char('.')) < 2)
                errs.append(QStringLiteral("should be a domain with at least three segments "
                                           "separated by dots"));
            for (const QString &e : std::as_const(errs))
                causes.append(invalidCause(at + QStringLiteral(".name"), name, e));
            if (names.contains(name))
                causes.append(StatusCause{QStringLiteral("FieldValueDuplicate"),
                                          QStringLiteral("Duplicate value: %1").arg(goQuoted(name)),
                                          at + QStringLiteral(".name")});
            names.append(name);
        }

        const QJsonArray rules = w.value(QLatin1String("rules")).toArray();
        for (int j = 0; j < rules.size(); ++j) {
            const QJsonObject r = rules[j].toObject();
            const QString rat = QStringLiteral("%1.rules[%2]").arg(at).arg(j);
            const QStringList ops = hookStrings(r.value(QLatin1String("operations")));
            if (ops.isEmpty())
                causes.append(requiredCause(rat + QStringLiteral(".operations")));
            for (int k = 0; k < ops.size(); ++k)
                if (!operations.contains(ops[k]))
                    causes.append(unsupportedCause(
                        QStringLiteral("%1.operations[%2]").arg(rat).arg(k), ops[k], operations));
            if (ops.size() > 1 && ops.contains(QLatin1String("*")))
                causes.append(invalidList(rat + QStringLiteral(".operations"), ops,
                                          QStringLiteral("if '*' is present, must not specify "
                                                         "other operations")));
            for (const char *key : {"apiGroups", "apiVersions", "resources"})
                if (hookStrings(r.value(QLatin1String(key))).isEmpty())
                    causes.append(requiredCause(rat + QLatin1Char('.') + QLatin1String(key)));
            const QStringList resources = hookStrings(r.value(QLatin1String("resources")));
            for (int k = 0; k < resources.size(); ++k)
                if (resources[k].isEmpty() || resources[k].count(QLatin1Char('/')) > 1)
                    causes.append(invalidCause(QStringLiteral("%1.resources[%2]").arg(rat).arg(k),
                                               resources[k],
                                               QStringLiteral("must be a resource or "
                                                              "resource/subresource")));
            const QString scope = r.value(QLatin1String("scope")).toString(QStringLiteral("*"));
            if (scope != QLatin1String("*") && scope != QLatin1String("Cluster") &&
                scope != QLatin1String("Namespaced"))
                causes.append(unsupportedCause(rat + QStringLiteral(".scope"), scope,
                                               {QStringLiteral("*"), QStringLiteral("Cluster"),
                                                QStringLiteral("Namespaced")}));
        }

        const QString failure = w.value(QLatin1String("failurePolicy")).toString();
        if (failure != QLatin1String("Fail") && failure != QLatin1String("Ignore"))
            causes.append(unsupportedCause(at + QStringLiteral(".failurePolicy"), failure,
                                           {QStringLiteral("Fail"), QStringLiteral("Ignore")}));
        const QString match = w.value(QLatin1String("matchPolicy")).toString();
        if (match != QLatin1String("Equivalent") && match != QLatin1String("Exact"))
            causes.append(
                unsupportedCause(at + QStringLiteral(".matchPolicy"), match,
                                 {QStringLiteral("Equivalent"), QStringLiteral("Exact")}));
        const QString sideEffects = w.value(QLatin1String("sideEffects")).toString();
        if (sideEffects.isEmpty())
            causes.append(requiredCause(at + QStringLiteral(".sideEffects"),
                                        QStringLiteral("must specify one of None, NoneOnDryRun")));
        else if (sideEffects != QLatin1String("None") &&
                 sideEffects != QLatin1String("NoneOnDryRun"))
            causes.append(
                unsupportedCause(at + QStringLiteral(".sideEffects"), sideEffects,
                                 {QStringLiteral("None"), QStringLiteral("NoneOnDryRun")}));
        const QStringList versions = hookStrings(w.value(QLatin1String("admissionReviewVersions")));
        if (versions.isEmpty())
            causes.append(requiredCause(at + QStringLiteral(".admissionReviewVersions"),
                                        QStringLiteral("must specify one of v1")));
        else if (!versions.contains(QLatin1String("v1")))
            causes.append(invalidList(at + QStringLiteral(".admissionReviewVersions"), versions,
                                      QStringLiteral("must include at least one of v1")));
        const int timeout = w.value(QLatin1String("timeoutSeconds")).toInt();
        if (timeout < 1 || timeout > 30)
            causes.append(StatusCause{
                QStringLiteral("FieldValueInvalid"),
                QStringLiteral("Invalid value: %1: the timeout value must be between 1 and 30 "
                               "seconds")
                    .arg(timeout),
                at + QStringLiteral(".timeoutSeconds")});
        if (mutating) {
            const QString reinvocation = w.value(QLatin1String("reinvocationPolicy")).toString();
            if (reinvocation != QLatin1String("Never") && reinvocation != QLatin1String("IfNeeded"))
                causes.append(
                    unsupportedCause(at + QStringLiteral(".reinvocationPolicy"), reinvocation,
                                     {QStringLiteral("IfNeeded"), QStringLiteral("Never")}));
        }
        if (!w.value(QLatin1String("matchConditions")).toArray().isEmpty())
            causes.append(forbiddenCause(
                at + QStringLiteral(".matchConditions"),
                QStringLiteral("CEL match conditions are not supported by this server; select "
                               "requests with rules, namespaceSelector and objectSelector")));
        causes += LabelSelector::validate(w.value(QLatin1String("namespaceSelector")),
                                          at + QStringLiteral(".namespaceSelector"));
        causes += LabelSelector::validate(w.value(QLatin1String("objectSelector")),
                                          at + QStringLiteral(".objectSelector"));

        const QJsonObject client = w.value(QLatin1String("clientConfig")).toObject();
        const QString cat = at + QStringLiteral(".clientConfig");
        const bool hasUrl =
            client.contains(QLatin1String("url")) && !client.value(QLatin1String("url")).isNull();
        const bool hasService = client.value(QLatin1String("service")).isObject();
        if (hasUrl == hasService) {
            causes.append(requiredCause(cat, QStringLiteral("exactly one of url or service is "
                                                            "required")));
        } else if (hasUrl) {
            const QString text = client.value(QLatin1String("url")).toString();
            const QUrl url(text, QUrl::StrictMode);
            const QString field = cat + QStringLiteral(".url");
            if (!url.isValid())
                causes.append(invalidCause(field, text, QStringLiteral("must be a valid URL")));
            else if (url.scheme() != QLatin1String("https"))
                causes.append(invalidCause(field, text,
                                           QStringLiteral("'https' is the only allowed URL "
                                                          "scheme")));
            else if (url.host().isEmpty())
                causes.append(invalidCause(field, text, QStringLiteral("host must be specified")));
            else if (!url.userInfo().isEmpty())
                causes.append(invalidCause(field, text,
                                           QStringLiteral("user information is not permitted in "
                                                          "the URL")));
            else if (url.hasFragment())
                causes.append(invalidCause(field, text,
                                           QStringLiteral("fragments are not permitted in the "
                                                          "URL")));
            else if (url.hasQuery())
                causes.append(invalidCause(field, text,
                                           QStringLiteral("query parameters are not permitted in "
                                                          "the URL")));
        } else {
            const QJsonObject s = client.value(QLatin1String("service")).toObject();
            const QString sat = cat + QStringLiteral(".service");
            if (s.value(QLatin1String("name")).toString().isEmpty())
                causes.append(requiredCause(sat + QStringLiteral(".name"),
                                            QStringLiteral("service name is required")));
            if (s.value(QLatin1String("namespace")).toString().isEmpty())
                causes.append(requiredCause(sat + QStringLiteral(".namespace"),
                                            QStringLiteral("service namespace is required")));
            const QString path = s.value(QLatin1String("path")).toString();
            if (!path.isEmpty() && !path.startsWith(QLatin1Char('/')))
                causes.append(invalidCause(sat + QStringLiteral(".path"), path,
                                           QStringLiteral("must start with a '/'")));
            const int port = s.value(QLatin1String("port")).toInt(443);
            if (port < 1 || port > 65535)
                causes.append(StatusCause{
                    QStringLiteral("FieldValueInvalid"),
                    QStringLiteral("Invalid value: %1: port is not valid: must be between 1 and "
                                   "65535, inclusive")
                        .arg(port),
                    sat + QStringLiteral(".port")});
        }
        if (client.contains(QLatin1String("caBundle")) &&
            QSslCertificate::fromData(caBundleOf(client), QSsl::Pem).isEmpty())
            causes.append(StatusCause{QStringLiteral("FieldValueInvalid"),
                                      QStringLiteral("Invalid value: \"...\": no PEM-encoded "
                                                     "certificate found"),
                                      cat + QStringLiteral(".caBundle")});
    }
    return causes;
}

QList<AdmissionWebhook> webhooksOf(const QJsonObject &configuration, bool mutating)
{
    QList<AdmissionWebhook> out;
    const QString configName = configuration.value(QLatin1String("metadata"))
                                   .toObject()
                                   .value(QLatin1String("name"))
                                   .toString();
    for (const QJsonValue v : configuration.value(QLatin1String("webhooks")).toArray()) {
        const QJsonObject w = v.toObject();
        AdmissionWebhook h;
        h.mutating = mutating;
        h.configuration = configName;
        h.name = w.value(QLatin1String("name")).toString();
        const QJsonObject client = w.value(QLatin1String("clientConfig")).toObject();
        h.url = client.value(QLatin1String("url")).toString();
        const QJsonObject service = client.value(QLatin1String("service")).toObject();
        h.serviceNamespace = service.value(QLatin1String("namespace")).toString();
        h.serviceName = service.value(QLatin1String("name")).toString();
        h.servicePath = service.value(QLatin1String("path")).toString();
        h.servicePort = service.value(QLatin1String("port")).toInt(443);
        h.caBundle = caBundleOf(client);
        for (const QJsonValue r : w.value(QLatin1String("rules")).toArray()) {
            const QJsonObject rule = r.toObject();
            h.rules.append(
                WebhookRule{hookStrings(rule.value(QLatin1String("operations"))),
                            hookStrings(rule.value(QLatin1String("apiGroups"))),
                            hookStrings(rule.value(QLatin1String("apiVersions"))),
                            hookStrings(rule.value(QLatin1String("resources"))),
                            rule.value(QLatin1String("scope")).toString(QStringLiteral("*"))});
        }
        h.failOpen = w.value(QLatin1String("failurePolicy")).toString() == QLatin1String("Ignore");
        h.namespaceSelector =
            LabelSelector::fromJson(w.value(QLatin1String("namespaceSelector")).toObject());
        h.objectSelector =
            LabelSelector::fromJson(w.value(QLatin1String("objectSelector")).toObject());
        h.timeoutSeconds = std::clamp(w.value(QLatin1String("timeoutSeconds")).toInt(10), 1, 30);
        h.reinvokeIfNeeded =
            w.value(QLatin1String("reinvocationPolicy")).toString() == QLatin1String("IfNeeded");
        h.matchEquivalent =
            w.value(QLatin1String("matchPolicy")).toString() != QLatin1String("Exact");
        out.append(h);
    }
    return out;
}

// ---- Matching ---------------------------------------------------------------------------

namespace {
bool isEventsV1(const WebhookAttributes &a)
{
    return a.group == QLatin1String("events.k8s.io") && a.resource == QLatin1String("events");
}
bool isCoreEvents(const WebhookAttributes &a)
{
    return a.group.isEmpty() && a.resource == QLatin1String("events");
}
} // namespace

std::optional<WebhookAttributes> equivalentAttributes(const WebhookAttributes &a)
{
    const bool v1 = isEventsV1(a);
    if ((!v1 && !isCoreEvents(a)) || !a.subresource.isEmpty())
        return std::nullopt;
    WebhookAttributes e = a;
    e.requestGroup = a.group;
    e.requestVersion = a.version;
    e.requestResource = a.resource;
    e.requestKind = a.kind;
    e.group = v1 ? QString() : QStringLiteral("events.k8s.io");
    e.version = QStringLiteral("v1");
    e.kind = QStringLiteral("Event");
    const auto convert = [v1](const QJsonObject &o) {
        if (o.isEmpty())
            return o;
        QJsonObject c = v1 ? coreFromEventsV1(o) : eventsV1FromCore(o);
        c.insert(QStringLiteral("apiVersion"),
                 v1 ? QStringLiteral("v1") : QStringLiteral("events.k8s.io/v1"));
        return c;
    };
    e.object = convert(a.object);
    e.oldObject = convert(a.oldObject);
    return e;
}

QJsonObject fromEquivalent(const WebhookAttributes &a, const QJsonObject &equivalent)
{
    QJsonObject back = isEventsV1(a) ? eventsV1FromCore(equivalent) : coreFromEventsV1(equivalent);
    back.insert(QStringLiteral("apiVersion"),
                isEventsV1(a) ? QStringLiteral("events.k8s.io/v1") : QStringLiteral("v1"));
    return back;
}

bool matchesRules(const AdmissionWebhook &webhook, const WebhookAttributes &a)
{
    auto any = [](const QStringList &list, const QString &v) {
        return list.contains(QLatin1String("*")) || list.contains(v);
    };
    for (const WebhookRule &r : webhook.rules) {
        if (!any(r.operations, a.operation) || !any(r.apiGroups, a.group) ||
            !any(r.apiVersions, a.version))
            continue;
        bool resource = false;
        for (const QString &entry : r.resources) {
            const QString res = entry.section(QLatin1Char('/'), 0, 0);
            const QString sub =
                entry.contains(QLatin1Char('/')) ? entry.section(QLatin1Char('/'), 1) : QString();
            if ((res == QLatin1String("*") || res == a.resource) &&
                (sub == QLatin1String("*") || sub == a.subresource)) {
                resource = true;
                break;
            }
        }
        if (!resource)
            continue;
        const bool isNamespace = a.group.isEmpty() && a.resource == QLatin1String("namespaces");
        if (r.scope == QLatin1String("Namespaced") && (isNamespace || a.namespaceName.isEmpty()))
            continue;
        if (r.scope == QLatin1String("Cluster") && !isNamespace && !a.namespaceName.isEmpty())
            continue;
        return true;
    }
    return false;
}

bool matches(const AdmissionWebhook &webhook, const WebhookAttributes &a)
{
    if (!matchesRules(webhook, a))
        return false;
    const bool isNamespace = a.group.isEmpty() && a.resource == QLatin1String("namespaces");
    if ((isNamespace || !a.namespaceName.isEmpty()) && !webhook.namespaceSelector.isEmpty() &&
        !webhook.namespaceSelector.matches(a.namespaceLabels))
        return false;
    if (webhook.objectSelector.isEmpty())
        return true;
    return (!a.object.isEmpty() && webhook.objectSelector.matches(objectLabels(a.object))) ||
           (!a.oldObject.isEmpty() && webhook.objectSelector.matches(objectLabels(a.oldObject)));
}

// ---- Answers ----------------------------------------------------------------------------

AdmissionStep WebhookAnswer::step() const
{
    AdmissionStep s;
    s.plugin = QLatin1String(mutating ? AdmissionChain::kMutatingWebhook
                                      : AdmissionChain::kValidatingWebhook);
    s.webhook = webhook;
    s.allowed = allowed;
    s.latencyMs = latencyMs;
    s.patched = !patch.isEmpty();
    s.callFailed = callFailed;
    s.ignored = ignored;
    s.message = callFailed ? error : (allowed ? QString() : status.message);
    return s;
}

namespace {

WebhookAnswer failed(const AdmissionWebhook &webhook, const QString &reason)
{
    WebhookAnswer a;
    a.webhook = webhook.name;
    a.mutating = webhook.mutating;
    a.callFailed = true;
    a.error = QStringLiteral("failed calling webhook \"%1\": %2").arg(webhook.name, reason);
    if (webhook.failOpen) {
        a.ignored = true;
    } else {
        a.allowed = false;
        a.status = Status::internalError(a.error);
    }
    return a;
}

QString postError(const AdmissionWebhook &webhook, const QString &why)
{
    return QStringLiteral("failed to call webhook: Post \"%1?timeout=%2s\": %3")
        .arg(webhook.displayUrl())
        .arg(webhook.timeoutSeconds)
        .arg(why);
}

} // namespace

WebhookAnswer WebhookCaller::interpret(const AdmissionWebhook &webhook, const QString &uid,
                                       int status, const QByteArray &body)
{
    if (status < 200 || status > 299)
        return failed(webhook, postError(webhook, QStringLiteral("the server responded with the "
                                                                 "status code %1 but did not "
                                                                 "return an AdmissionReview")
                                                      .arg(status)));
    auto invalid = [&webhook](const QString &why) {
        return failed(webhook, QStringLiteral("received invalid webhook response: ") + why);
    };
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (!doc.isObject())
        return invalid(error.error != QJsonParseError::NoError
                           ? QStringLiteral("malformed JSON: %1 at offset %2")
                                 .arg(error.errorString())
                                 .arg(error.offset)
                           : QStringLiteral("not a JSON object"));
    const QJsonObject review = doc.object();
    // What the webhook wrote, echoed in an error (kept in the trace, the recent requests and
    // an Event): 128 characters of it at most, as the webhook's other words are bounded below.
    const auto echoed = [](const QString &text) { return text.left(128); };
    const QString apiVersion = review.value(QLatin1String("apiVersion")).toString();
    const QString kind = review.value(QLatin1String("kind")).toString();
    if (apiVersion != QLatin1String("admission.k8s.io/v1") ||
        kind != QLatin1String("AdmissionReview"))
        return invalid(QStringLiteral("expected webhook response of admission.k8s.io/v1, "
                                      "Kind=AdmissionReview, got %1, Kind=%2")
                           .arg(echoed(apiVersion), echoed(kind)));
    const QJsonValue responseValue = review.value(QLatin1String("response"));
    if (!responseValue.isObject())
        return invalid(QStringLiteral("webhook response was absent"));
    const QJsonObject response = responseValue.toObject();
    const QString gotUid = response.value(QLatin1String("uid")).toString();
    if (gotUid != uid)
        return invalid(QStringLiteral("expected response.uid=%1, got %2")
                           .arg(goQuoted(uid), goQuoted(echoed(gotUid))));
    const QJsonValue allowedValue = response.value(QLatin1String("allowed"));
    if (!allowedValue.isBool())
        return invalid(QStringLiteral("response.allowed must be true or false"));

    WebhookAnswer a;
    a.webhook = webhook.name;
    a.mutating = webhook.mutating;
    a.allowed = allowedValue.toBool();
    // At most 10 warnings of 256 characters, without control characters (they become headers).
    for (const QJsonValue w : response.value(QLatin1String("warnings")).toArray()) {
        if (a.warnings.size() >= 10)
            break;
        QString text = w.toString().left(256);
        text.removeIf([](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
        if (!text.isEmpty())
            a.warnings.append(text);
    }
    const QString patch = response.value(QLatin1String("patch")).toString();
    if (!patch.isEmpty()) {
        if (!webhook.mutating)
            return invalid(QStringLiteral("validating webhook may not return a patch"));
        const QString patchType = response.value(QLatin1String("patchType")).toString();
        if (patchType.isEmpty())
            return invalid(QStringLiteral("webhook returned response.patch but not "
                                          "response.patchType"));
        if (patchType != QLatin1String("JSONPatch"))
            return invalid(QStringLiteral("webhook returned invalid response.patchType of %1")
                               .arg(goQuoted(echoed(patchType))));
        const auto decoded = QByteArray::fromBase64Encoding(
            patch.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return invalid(QStringLiteral("response.patch is not base64"));
        if (a.allowed)
            a.patch = *decoded;
    }
    if (a.allowed)
        return a;

    // kube's webhookerrors.ToStatusErr.
    const QJsonObject result = response.value(QLatin1String("status")).toObject();
    const QString deniedBy =
        QStringLiteral("admission webhook \"%1\" denied the request").arg(webhook.name);
    Status s;
    s.code = result.value(QLatin1String("code")).toInt();
    if (s.code < 400 || s.code > 599)
        s.code = 400;
    // Kept in the trace, the recent requests and an Event: 4 KiB of the webhook's words at most.
    s.reason = result.value(QLatin1String("reason")).toString().left(256);
    const QString message = result.value(QLatin1String("message")).toString().left(4096);
    if (!message.isEmpty())
        s.message = deniedBy + QStringLiteral(": ") + message;
    else if (!s.reason.isEmpty())
        s.message = deniedBy + QStringLiteral(": ") + s.reason;
    else
        s.message = deniedBy + QStringLiteral(" without explanation");
    a.status = s;
    return a;
}

QJsonObject WebhookCaller::review(const WebhookAttributes &a, const QString &uid)
{
    const QJsonObject kind{
        {QStringLiteral("group"), a.kindGroup.isEmpty() ? a.group : a.kindGroup},
        {QStringLiteral("version"), a.kindVersion.isEmpty() ? a.version : a.kindVersion},
        {QStringLiteral("kind"), a.kind}};
    const QJsonObject resource{{QStringLiteral("group"), a.group},
                               {QStringLiteral("version"), a.version},
                               {QStringLiteral("resource"), a.resource}};
    QJsonObject user{{QStringLiteral("username"), a.user.name},
                     {QStringLiteral("groups"), hookArray(a.user.groups)}};
    if (!a.user.uid.isEmpty())
        user.insert(QStringLiteral("uid"), a.user.uid);
    const QString optionsKind =
        a.operation == QLatin1String("CREATE")   ? QStringLiteral("CreateOptions")
        : a.operation == QLatin1String("DELETE") ? QStringLiteral("DeleteOptions")
                                                 : QStringLiteral("UpdateOptions");
    QJsonObject request{
        {QStringLiteral("uid"), uid},
        {QStringLiteral("kind"), kind},
        {QStringLiteral("resource"), resource},
        {QStringLiteral("requestKind"),
         a.requestKind.isEmpty() ? kind
                                 : QJsonObject{{QStringLiteral("group"), a.requestGroup},
                                               {QStringLiteral("version"), a.requestVersion},
                                               {QStringLiteral("kind"), a.requestKind}}},
        {QStringLiteral("requestResource"),
         a.requestResource.isEmpty()
             ? resource
             : QJsonObject{{QStringLiteral("group"), a.requestGroup},
                           {QStringLiteral("version"), a.requestVersion},
                           {QStringLiteral("resource"), a.requestResource}}},
        {QStringLiteral("name"), a.name},
        {QStringLiteral("operation"), a.operation},
        {QStringLiteral("userInfo"), user},
        {QStringLiteral("object"), a.object.isEmpty() ? QJsonValue() : QJsonValue(a.object)},
        {QStringLiteral("oldObject"),
         a.oldObject.isEmpty() ? QJsonValue() : QJsonValue(a.oldObject)},
        {QStringLiteral("dryRun"), a.dryRun},
        {QStringLiteral("options"),
         QJsonObject{{QStringLiteral("kind"), optionsKind},
                     {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")}}}};
    if (!a.subresource.isEmpty()) {
        request.insert(QStringLiteral("subResource"), a.subresource);
        request.insert(QStringLiteral("requestSubResource"), a.subresource);
    }
    if (!a.namespaceName.isEmpty())
        request.insert(QStringLiteral("namespace"), a.namespaceName);
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")},
                       {QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
                       {QStringLiteral("request"), request}};
}

// ---- Calling ----------------------------------------------------------------------------

struct WebhookCaller::Private
{
    ServiceResolver resolver;
    QThread thread;
    QObject *ctx = nullptr; // lives on thread: the clients below are used there only
    QHash<QByteArray, Webhooks::HttpClient *> clients; // per CA bundle (hash)
    QHash<Webhooks::HttpClient *, int> inFlight;       // calls not answered yet, per client
    // The webhooks' host names are looked up with Core::Resolver (c-ares), not in Qt's
    // process-wide lookup pool of 20 threads: names an unauthenticated order placer chooses
    // (and makes resolve slowly) must not hold up a policy webhook until its deadline, which
    // would skip it under failurePolicy Ignore and fail every matching write under Fail.

    Webhooks::HttpClient *client(const QByteArray &caBundle)
    {
        const QByteArray key = QCryptographicHash::hash(caBundle, QCryptographicHash::Sha256);
        if (Webhooks::HttpClient *c = clients.value(key))
            return c;
        if (clients.size() >= 64) {
            // Configurations come and go: those of the past are let go, once idle (a client
            // deleted with a call in flight would never answer it).
            for (auto it = clients.begin(); it != clients.end();) {
                if (inFlight.value(it.value()) == 0) {
                    inFlight.remove(it.value());
                    it.value()->deleteLater();
                    it = clients.erase(it);
                } else {
                    ++it;
                }
            }
        }
        auto *c = new Webhooks::HttpClient(ctx);
        c->setMaxKeptBodyBytes(kMaxResponseBytes);
        c->setMaxResponseBytes(kMaxResponseBytes + 64 * 1024);
        c->setMaxIdleConnectionsPerTarget(4);
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        if (!caBundle.isEmpty())
            ssl.setCaCertificates(QSslCertificate::fromData(caBundle, QSsl::Pem));
        ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
        c->setSslConfiguration(ssl);
        clients.insert(key, c);
        return c;
    }
};

WebhookCaller::WebhookCaller(ServiceResolver resolver) : d(std::make_unique<Private>())
{
    d->resolver = std::move(resolver);
    d->thread.setObjectName(QStringLiteral("admission-webhooks"));
    d->ctx = new QObject;
    d->ctx->moveToThread(&d->thread);
    Core::ThreadState::deleteThenReleaseAtFinish(d->thread, d->ctx); // TLS to the webhooks
    d->thread.start();
}

WebhookCaller::~WebhookCaller()
{
    d->thread.quit();
    d->thread.wait();
}

void WebhookCaller::call(const AdmissionWebhook &webhook, const WebhookAttributes &a,
                         std::function<void(WebhookAnswer)> done)
{
    const QString uid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QByteArray body = QJsonDocument(review(a, uid)).toJson(QJsonDocument::Compact);
    QMetaObject::invokeMethod(
        d->ctx,
        [this, webhook, uid, body = std::move(body), done = std::move(done)]() mutable {
            auto timer = std::make_shared<QElapsedTimer>();
            timer->start();
            QString host;
            quint16 port = 443;
            QByteArray path;
            QString peerName;
            if (!webhook.url.isEmpty()) {
                const QUrl url(webhook.url);
                host = url.host();
                port = quint16(url.port(443));
                path = url.path(QUrl::FullyEncoded).toUtf8();
            } else {
                const ServiceTarget target =
                    d->resolver(webhook.serviceNamespace, webhook.serviceName);
                if (!target.error.isEmpty()) {
                    WebhookAnswer answer = failed(webhook, postError(webhook, target.error));
                    answer.latencyMs = timer->nsecsElapsed() / 1e6;
                    done(answer);
                    return;
                }
                host = target.host;
                port = quint16(webhook.servicePort);
                path = webhook.servicePath.toUtf8();
                peerName =
                    QStringLiteral("%1.%2.svc").arg(webhook.serviceName, webhook.serviceNamespace);
            }
            if (path.isEmpty())
                path = "/";
            path += "?timeout=" + QByteArray::number(webhook.timeoutSeconds) + 's';
            const qint64 deadlineMs = qint64(webhook.timeoutSeconds) * 1000;

            auto send = [this, webhook, uid, body, timer, port, path, peerName, deadlineMs,
                         done](const QHostAddress &address, const QString &name) mutable {
                Webhooks::OutboundRequest r;
                r.address = address;
                r.port = port;
                r.tls = true;
                r.tlsPeerName = peerName.isEmpty() ? name : peerName;
                r.pathAndQuery = path;
                if (!peerName.isEmpty())
                    r.hostHeader = (peerName + QLatin1Char(':') + QString::number(port)).toUtf8();
                r.headers = {{"Content-Type", "application/json"},
                             {"Accept", "application/json"},
                             {"User-Agent", "Gatehouse-Admission/1"}};
                r.body = body;
                r.timeoutMs = int(std::max<qint64>(1, deadlineMs - timer->elapsed()));
                Webhooks::HttpClient *client = d->client(webhook.caBundle);
                ++d->inFlight[client];
                client->send(std::move(r), [this, client, webhook, uid, timer, address, port,
                                            done](const Webhooks::OutboundResponse &response) {
                    --d->inFlight[client];
                    WebhookAnswer answer;
                    if (!response.error.isEmpty() && response.status == 0) {
                        QString why = response.error;
                        if (why.startsWith(QLatin1String("timed out")))
                            why = QStringLiteral("context deadline exceeded");
                        else if (why == QLatin1String("connection refused"))
                            why = QStringLiteral("dial tcp %1:%2: connect: connection refused")
                                      .arg(address.protocol() == QAbstractSocket::IPv6Protocol
                                               ? QLatin1Char('[') + address.toString() +
                                                     QLatin1Char(']')
                                               : address.toString())
                                      .arg(port);
                        else if (why.startsWith(QLatin1String("TLS handshake failed: ")))
                            why =
                                QStringLiteral("tls: failed to verify certificate: ") + why.mid(22);
                        answer = failed(webhook, postError(webhook, why));
                    } else if (response.bodyBytes > kMaxResponseBytes) {
                        answer =
                            failed(webhook, QStringLiteral("received invalid webhook response: "
                                                           "the response is larger than %1 bytes")
                                                .arg(kMaxResponseBytes));
                    } else {
                        answer = interpret(webhook, uid, response.status, response.body);
                    }
                    answer.latencyMs = timer->nsecsElapsed() / 1e6;
                    qCDebug(lcCluster).noquote() << "admission webhook" << webhook.name
                                                 << "answered in" << answer.latencyMs << "ms:"
                                                 << (answer.callFailed ? answer.error
                                                     : answer.allowed  ? QStringLiteral("allowed")
                                                                       : QStringLiteral("denied"));
                    done(answer);
                });
            };

            QHostAddress literal;
            if (literal.setAddress(host)) {
                send(literal, QString());
                return;
            }
            // The lookup counts against timeoutSeconds too: whichever comes first answers.
            auto answered = std::make_shared<bool>(false);
            QTimer::singleShot(int(deadlineMs), d->ctx, [webhook, timer, done, answered] {
                if (std::exchange(*answered, true))
                    return;
                WebhookAnswer answer = failed(
                    webhook, postError(webhook, QStringLiteral("context deadline exceeded")));
                answer.latencyMs = timer->nsecsElapsed() / 1e6;
                done(answer);
            });
            Core::Resolver::lookup(
                host, d->ctx,
                [webhook, host, send, timer, done, answered](const QList<QHostAddress> &addresses,
                                                             const QString &error) mutable {
                    if (std::exchange(*answered, true))
                        return;
                    QHostAddress chosen;
                    for (const QHostAddress &a : addresses)
                        if (chosen.isNull() ||
                            (chosen.protocol() == QAbstractSocket::IPv6Protocol &&
                             a.protocol() == QAbstractSocket::IPv4Protocol))
                            chosen = a;
                    if (chosen.isNull()) {
                        // A full resolver (Resolver::isBusy) learnt nothing of the name.
                        WebhookAnswer answer =
                            failed(webhook,
                                   postError(webhook,
                                             QStringLiteral("dial tcp: lookup %1: %2")
                                                 .arg(host, Core::Resolver::isBusy(error)
                                                                ? error
                                                                : QStringLiteral("no such host"))));
                        answer.latencyMs = timer->nsecsElapsed() / 1e6;
                        done(answer);
                        return;
                    }
                    send(chosen, host);
                });
        },
        Qt::QueuedConnection);
}

} // namespace Gatehouse::Cluster
