#pragma once

#include "cluster/requestinfo.h"
#include "cluster/status.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Gatehouse::Cluster {

// What admission plugins may look up in the cluster's current state.
struct AdmissionContext
{
    // "Active", "Terminating", or nullopt when the namespace does not exist.
    std::function<std::optional<QString>(const QString &name)> namespacePhase;
    // The UID of a node, empty when it does not exist.
    std::function<QString(const QString &name)> nodeUid;
    // A pod (namespace, name), nullopt when it does not exist: a node's TokenRequest.
    std::function<std::optional<QJsonObject>(const QString &ns, const QString &name)> pod;
    // Whether a service account (namespace, name) exists: a pod's ServiceAccount admission.
    std::function<bool(const QString &ns, const QString &name)> serviceAccountExists;
};

struct AdmissionRequest
{
    QString operation; // CREATE, UPDATE, DELETE
    Attributes attributes;
    QString name; // the object's name (on create: metadata.name, else generateName)
    QJsonObject oldObject;
    QJsonObject newObject;
};

struct AdmissionStep
{
    QString plugin;
    bool allowed = true;
    QString message; // the plugin's own text when it refused
    // Admission webhooks: which one, how long it took, whether it changed the object, and
    // when the call failed, whether failurePolicy Ignore let the request through.
    QString webhook;
    double latencyMs = -1;
    bool patched = false;
    bool callFailed = false;
    bool ignored = false;
};

struct AdmissionVerdict
{
    bool allowed = true;
    QString plugin;
    QString webhook; // the admission webhook that refused (plugin is then *AdmissionWebhook)
    Status status;   // the answer when refused
    QList<AdmissionStep> steps;
};

// kube's v1 conversion of deprecated fields, as every write is read: a pod's serviceAccount is
// the default of serviceAccountName (and shown as it), a node's podCIDR is podCIDRs[0] (and
// podCIDRs is [podCIDR] when only that is given).
void convertDeprecatedFields(const QString &resource, QJsonObject &object);
// The account a pod spec runs as: serviceAccountName, else the deprecated serviceAccount.
QString podServiceAccount(const QJsonObject &spec);

// Kubernetes' NodeRestriction label rule (reference kube.md §4.1): true when a node may not
// set, change or remove the label key.
bool isForbiddenNodeLabel(const QString &key);

class AdmissionChain
{
public:
    static QStringList supportedPlugins();
    static constexpr char kMutatingWebhook[] = "MutatingAdmissionWebhook";
    static constexpr char kValidatingWebhook[] = "ValidatingAdmissionWebhook";
    static QStringList defaultPlugins();
    static QString validatePlugins(const QStringList &plugins);

    AdmissionChain(QStringList plugins, AdmissionContext context);
    // Mutating and validating admission in the configured order; the first refusal wins.
    AdmissionVerdict admit(const AdmissionRequest &request) const;
    // ServiceAccount admission's defaults (pod serviceAccountName, no token automount).
    void mutate(const AdmissionRequest &request, QJsonObject &object) const;
    const QStringList &plugins() const { return m_plugins; }

private:
    // The ServiceAccount plugin's refusal (kube's words) of a pod naming an account that does
    // not exist, or of a mirror pod naming an account, a secret or a token projection; empty
    // when it has nothing to say.
    QString serviceAccountRefusal(const AdmissionRequest &r) const;
    QStringList m_plugins;
    AdmissionContext m_context;
};

// Field validation with Kubernetes' messages (422 causes).
namespace Validation {
QStringList dnsSubdomain(const QString &value);
QStringList dnsLabel(const QString &value);
QStringList dns1035Label(const QString &value);
QStringList pathSegmentName(const QString &value);
QStringList qualifiedName(const QString &value);
QStringList labelValue(const QString &value);
// metadata checks shared by every kind: name (with the kind's rule), labels, ownerReferences,
// annotations.
QList<StatusCause> objectMeta(const QJsonObject &object, const QString &resource,
                              bool requireName = true);
// apimachinery's ValidateOwnerReferences: apiVersion with a version, kind, name and uid present,
// no Event as owner, at most one controller.
QList<StatusCause> ownerReferences(const QJsonArray &refs);
// Kubernetes' IsValidIP and ValidateNonSpecialIP (a Service's externalIPs): the error, empty for
// an IP literal that is not unspecified, loopback, link-local or link-local multicast. An
// admission webhook named by a Service is reached at its first external IP, so this also keeps
// whoever may edit the Service from pointing the server at itself or the metadata address.
QString specialIp(const QString &ip);
// Kind-specific checks (taints of nodes, ports and external IPs of services, rules of roles...).
QList<StatusCause> object(const QString &resource, const QJsonObject &object);
// A Go %q of v, and the causes kube's field.Invalid, field.Required and field.NotSupported make.
QString goQuoted(const QString &v);
StatusCause invalidCause(const QString &field, const QString &value, const QString &detail);
StatusCause requiredCause(const QString &field, const QString &detail = QString());
StatusCause unsupportedCause(const QString &field, const QString &value, QStringList supported);
StatusCause forbiddenCause(const QString &field, const QString &detail);
// What an update (not of a subresource) may not change: kube's ValidatePodUpdate (the spec but
// for images, activeDeadlineSeconds, added tolerations, removed scheduling gates; the mirror pod
// annotation) and ValidateNodeUpdate (podCIDRs and providerID once set).
QList<StatusCause> update(const QString &resource, const QJsonObject &object,
                          const QJsonObject &old);
} // namespace Validation

} // namespace Gatehouse::Cluster
