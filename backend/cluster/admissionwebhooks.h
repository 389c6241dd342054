#pragma once

#include "cluster/admission.h"
#include "cluster/requestinfo.h"
#include "cluster/status.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace Gatehouse::Webhooks {
class HttpClient;
}

namespace Gatehouse::Cluster {

// Admission webhooks (admissionregistration.k8s.io/v1): the operator's own policy services,
// asked about each write as kube-apiserver asks them (docs/cluster.md, "Admission webhooks").
// Mutating webhooks run one after the other before the built-in validation; validating
// webhooks run side by side after it. The webhook dispatcher's URL policy does not apply (these
// are the operator's own services, configured by a cluster administrator), timeouts and
// response limits do.

// metav1.LabelSelector in its JSON form: matchLabels and matchExpressions.
class LabelSelector
{
public:
    static LabelSelector fromJson(const QJsonObject &selector);
    // Causes (field paths under `path`) for a malformed selector, with kube's messages.
    static QList<StatusCause> validate(const QJsonValue &selector, const QString &path);
    bool isEmpty() const { return m_labels.isEmpty() && m_expressions.isEmpty(); }
    bool matches(const QJsonObject &labels) const;

private:
    struct Expression
    {
        QString key, op;
        QStringList values;
    };
    QHash<QString, QString> m_labels;
    QList<Expression> m_expressions;
};

struct WebhookRule
{
    QStringList operations, apiGroups, apiVersions, resources;
    QString scope = QStringLiteral("*");
};

// One webhook of a stored configuration, defaults applied.
struct AdmissionWebhook
{
    bool mutating = false;
    QString configuration; // the configuration's name
    QString name;
    QString url; // clientConfig.url; empty when it names a service
    QString serviceNamespace, serviceName, servicePath;
    int servicePort = 443;
    QByteArray caBundle; // PEM; empty: the system's certificate authorities
    QList<WebhookRule> rules;
    bool failOpen = false; // failurePolicy Ignore
    LabelSelector namespaceSelector, objectSelector;
    int timeoutSeconds = 10;
    bool reinvokeIfNeeded = false;
    bool matchEquivalent = true; // matchPolicy Equivalent (kube's default), not Exact
    // Chosen through the equivalent resource (events.k8s.io/v1 events for core v1 events and
    // back): asked with the request in that resource's form.
    bool sendEquivalent = false;

    // The address as kube-apiserver names it in its errors ("https://svc.ns.svc:443/path").
    QString displayUrl() const;
};

// Kube's defaults for a configuration written through the API (failurePolicy Fail,
// matchPolicy Equivalent, empty selectors, timeoutSeconds 10, scope "*", service port 443,
// reinvocationPolicy Never).
void defaultWebhookConfiguration(QJsonObject &configuration, bool mutating);
// Kube's validation (422 causes) of a defaulted configuration.
QList<StatusCause> validateWebhookConfiguration(const QJsonObject &configuration, bool mutating);
QList<AdmissionWebhook> webhooksOf(const QJsonObject &configuration, bool mutating);

// What a write is, as the webhooks' rules and selectors see it.
struct WebhookAttributes
{
    QString operation; // CREATE, UPDATE, DELETE
    QString group, version, resource, subresource, kind;
    // The kind's own group and version when they are not the resource's (a TokenRequest,
    // authentication.k8s.io/v1, is written to core/v1 serviceaccounts/token).
    QString kindGroup, kindVersion;
    // What the client asked for, when it is not what the webhook is sent (matchPolicy
    // Equivalent): the review's requestKind and requestResource.
    QString requestGroup, requestVersion, requestResource, requestKind;
    QString namespaceName, name;
    QJsonObject object, oldObject; // with apiVersion and kind; empty when there is none
    QJsonObject namespaceLabels;   // of the namespace the object is in (or the namespace itself)
    UserInfo user;
    bool dryRun = false;
};

// The same request in the form of the equivalent resource, as kube's matchPolicy Equivalent
// sends it (core v1 Events and events.k8s.io/v1 Events are one store): the object converted,
// requestKind/requestResource naming what the client asked. None for other resources.
std::optional<WebhookAttributes> equivalentAttributes(const WebhookAttributes &a);
// A mutating webhook's answer to equivalentAttributes(a): the object back in a's form.
QJsonObject fromEquivalent(const WebhookAttributes &a, const QJsonObject &equivalent);

// kube's rules.Matcher: operation, group, version, resource/subresource and scope.
bool matchesRules(const AdmissionWebhook &webhook, const WebhookAttributes &a);
// Rules, then the namespace selector and the object selector (new or old object).
bool matches(const AdmissionWebhook &webhook, const WebhookAttributes &a);

// What one webhook answered.
struct WebhookAnswer
{
    QString webhook;
    bool mutating = false;
    bool allowed = true;
    bool callFailed = false; // no valid answer: error says why
    bool ignored = false;    // ...and failurePolicy Ignore let the request through
    QString error;           // "failed calling webhook ..."
    Status status;           // the refusal (denied, or a failure under failurePolicy Fail)
    QByteArray patch;        // a JSONPatch (mutating webhooks), decoded
    QStringList warnings;
    double latencyMs = 0;

    AdmissionStep step() const;
};

// Where a service reference leads: the address to connect to (an IP or a DNS name) or why
// there is none.
struct ServiceTarget
{
    QString host;
    QString error;
};

// Calls webhooks on a thread of its own. Thread-safe.
class WebhookCaller
{
public:
    using ServiceResolver =
        std::function<ServiceTarget(const QString &namespaceName, const QString &name)>;

    explicit WebhookCaller(ServiceResolver resolver);
    ~WebhookCaller();
    WebhookCaller(const WebhookCaller &) = delete;
    WebhookCaller &operator=(const WebhookCaller &) = delete;

    // The AdmissionReview v1 for a and the request uid it carries.
    static QJsonObject review(const WebhookAttributes &a, const QString &uid);
    // Asks webhook; done runs once, on the caller's thread.
    void call(const AdmissionWebhook &webhook, const WebhookAttributes &a,
              std::function<void(WebhookAnswer)> done);
    // The answer to a response (what the client got back), for tests and the fuzz target.
    static WebhookAnswer interpret(const AdmissionWebhook &webhook, const QString &uid, int status,
                                   const QByteArray &body);

    static constexpr qint64 kMaxResponseBytes = 3 * 1024 * 1024;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Gatehouse::Cluster
