#include "cluster/admission.h"

#include "cluster/authorizer.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <limits>

namespace Gatehouse::Cluster {

namespace {

QString prefixOf(const QString &key)
{
    const qsizetype slash = key.indexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : key.left(slash);
}

bool isOrEndsWith(const QString &prefix, const char *domain)
{
    const QLatin1String d(domain);
    return prefix == d || prefix.endsWith(QLatin1Char('.') + QString(d));
}

bool isKubeletLabel(const QString &key)
{
    static const QSet<QString> exact{QStringLiteral("kubernetes.io/hostname"),
                                     QStringLiteral("kubernetes.io/os"),
                                     QStringLiteral("kubernetes.io/arch"),
                                     QStringLiteral("beta.kubernetes.io/os"),
                                     QStringLiteral("beta.kubernetes.io/arch"),
                                     QStringLiteral("beta.kubernetes.io/instance-type"),
                                     QStringLiteral("node.kubernetes.io/instance-type"),
                                     QStringLiteral("topology.kubernetes.io/zone"),
                                     QStringLiteral("topology.kubernetes.io/region"),
                                     QStringLiteral("failure-domain.beta.kubernetes.io/zone"),
                                     QStringLiteral("failure-domain.beta.kubernetes.io/region")};
    if (exact.contains(key))
        return true;
    const QString prefix = prefixOf(key);
    return isOrEndsWith(prefix, "kubelet.kubernetes.io") ||
           isOrEndsWith(prefix, "node.kubernetes.io");
}

QJsonObject labelsOf(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
}

QStringList forbiddenLabelChanges(const QJsonObject &oldLabels, const QJsonObject &newLabels)
{
    QSet<QString> keys;
    for (auto it = oldLabels.begin(); it != oldLabels.end(); ++it)
        if (newLabels.value(it.key()) != it.value())
            keys.insert(it.key());
    for (auto it = newLabels.begin(); it != newLabels.end(); ++it)
        if (oldLabels.value(it.key()) != it.value())
            keys.insert(it.key());
    QStringList out;
    for (const QString &k : std::as_const(keys))
        if (isForbiddenNodeLabel(k))
            out.append(k);
    std::sort(out.begin(), out.end());
    return out;
}

QJsonValue specField(const QJsonObject &o, const char *field)
{
    return o.value(QLatin1String("spec")).toObject().value(QLatin1String(field));
}

// A pod the kubelet mirrors from a static manifest (kubernetes.io/config.mirror).
bool isMirrorPod(const QJsonObject &pod)
{
    return pod.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("annotations"))
        .toObject()
        .contains(QLatin1String("kubernetes.io/config.mirror"));
}

// A create of a pod itself (core group, not a subresource): what ServiceAccount admission sees.
bool isPodCreate(const AdmissionRequest &r)
{
    const Attributes &a = r.attributes;
    return r.operation == QLatin1String("CREATE") && a.resource == QLatin1String("pods") &&
           a.subresource.isEmpty() && a.apiGroup.isEmpty();
}

// What of other API objects a mirror pod's spec would reach, as kube's admitPodCreate words it
// ("reference secrets", "use generic ephemeral volumes"), or empty when nothing. Secrets and
// configmaps as Kubernetes' VisitPodSecretNames and VisitPodConfigmapNames walk the spec (every
// container, every volume source that takes a secret, projected sources); then projected
// clusterTrustBundles, claims, generic ephemeral volumes (their claim is made for the pod, and
// the Node authorizer would then let the node read it) and resource claims. A mirror pod may
// reach none (a node could otherwise read them).
QString referencedObjects(const QJsonObject &spec)
{
    auto any = [](const QJsonValue &v) { return !v.isUndefined() && !v.isNull(); };
    bool secrets = !spec.value(QLatin1String("imagePullSecrets")).toArray().isEmpty();
    bool configMaps = false;
    for (const char *list : {"initContainers", "containers", "ephemeralContainers"})
        for (const QJsonValue c : spec.value(QLatin1String(list)).toArray()) {
            for (const QJsonValue e : c.toObject().value(QLatin1String("env")).toArray()) {
                const QJsonObject from = e.toObject().value(QLatin1String("valueFrom")).toObject();
                secrets = secrets || any(from.value(QLatin1String("secretKeyRef")));
                configMaps = configMaps || any(from.value(QLatin1String("configMapKeyRef")));
            }
            for (const QJsonValue e : c.toObject().value(QLatin1String("envFrom")).toArray()) {
                secrets = secrets || any(e.toObject().value(QLatin1String("secretRef")));
                configMaps = configMaps || any(e.toObject().value(QLatin1String("configMapRef")));
            }
        }
    bool claims = false;
    bool ephemeral = false;
    bool trustBundles = false;
    for (const QJsonValue v : spec.value(QLatin1String("volumes")).toArray()) {
        const QJsonObject vol = v.toObject();
        secrets = secrets || vol.contains(QLatin1String("secret"));
        configMaps = configMaps || vol.contains(QLatin1String("configMap"));
        claims = claims || vol.contains(QLatin1String("persistentVolumeClaim"));
        ephemeral = ephemeral || any(vol.value(QLatin1String("ephemeral")));
        for (const char *source :
             {"cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos"})
            secrets =
                secrets ||
                any(vol.value(QLatin1String(source)).toObject().value(QLatin1String("secretRef")));
        secrets = secrets || any(vol.value(QLatin1String("azureFile"))
                                     .toObject()
                                     .value(QLatin1String("secretName")));
        secrets = secrets || any(vol.value(QLatin1String("csi"))
                                     .toObject()
                                     .value(QLatin1String("nodePublishSecretRef")));
        const QJsonObject projected = vol.value(QLatin1String("projected")).toObject();
        for (const QJsonValue p : projected.value(QLatin1String("sources")).toArray()) {
            secrets = secrets || p.toObject().contains(QLatin1String("secret"));
            configMaps = configMaps || p.toObject().contains(QLatin1String("configMap"));
            trustBundles =
                trustBundles || any(p.toObject().value(QLatin1String("clusterTrustBundle")));
        }
    }
    if (secrets)
        return QStringLiteral("reference secrets");
    if (configMaps)
        return QStringLiteral("reference configmaps");
    if (trustBundles)
        return QStringLiteral("reference clustertrustbundles");
    if (claims)
        return QStringLiteral("reference persistentvolumeclaims");
    if (ephemeral)
        return QStringLiteral("use generic ephemeral volumes");
    if (!spec.value(QLatin1String("resourceClaims")).toArray().isEmpty())
        return QStringLiteral("reference resourceclaims");
    return {};
}

// NodeRestriction's text for a node user's request, or empty when it may go ahead.
QString nodeRestriction(const AdmissionRequest &r, const AdmissionContext &ctx)
{
    QString node;
    if (!isNodeUser(r.attributes.user, &node))
        return {};
    if (node.isEmpty())
        return QStringLiteral("could not determine node from user \"%1\"")
            .arg(r.attributes.user.name);
    const Attributes &a = r.attributes;
    if (!a.apiGroup.isEmpty())
        return {};
    if (a.resource == QLatin1String("nodes")) {
        if (r.name != node)
            return QStringLiteral("node \"%1\" is not allowed to modify node \"%2\"")
                .arg(node, r.name);
        if (r.operation == QLatin1String("CREATE")) {
            if (!specField(r.newObject, "configSource").isNull() &&
                !specField(r.newObject, "configSource").isUndefined())
                return QStringLiteral("node \"%1\" is not allowed to create pods with a non-nil "
                                      "configSource")
                    .arg(node);
            const QStringList forbidden = forbiddenLabelChanges({}, labelsOf(r.newObject));
            if (!forbidden.isEmpty())
                return QStringLiteral("node \"%1\" is not allowed to set the following labels: %2")
                    .arg(node, forbidden.join(QStringLiteral(", ")));
        } else if (r.operation == QLatin1String("UPDATE")) {
            const QJsonValue newSource = specField(r.newObject, "configSource");
            if (!newSource.isNull() && !newSource.isUndefined() &&
                newSource != specField(r.oldObject, "configSource"))
                return QStringLiteral("node \"%1\" is not allowed to update configSource to a new "
                                      "non-nil configSource")
                    .arg(node);
            if (specField(r.oldObject, "taints").toArray() !=
                specField(r.newObject, "taints").toArray())
                return QStringLiteral("node \"%1\" is not allowed to modify taints").arg(node);
            const QStringList forbidden =
                forbiddenLabelChanges(labelsOf(r.oldObject), labelsOf(r.newObject));
            if (!forbidden.isEmpty())
                return QStringLiteral("is not allowed to modify labels: %1")
                    .arg(forbidden.join(QStringLiteral(", ")));
        }
        return {};
    }
    if (a.resource == QLatin1String("serviceaccounts")) {
        // kube's admitServiceAccount: a node mints only tokens bound to a pod of its own (the
        // kubelet's role grants serviceaccounts/token; this is what narrows it).
        if (a.subresource != QLatin1String("token") || r.operation != QLatin1String("CREATE"))
            return {};
        const QJsonObject ref = specField(r.newObject, "boundObjectRef").toObject();
        const QString podName = ref.value(QLatin1String("name")).toString();
        if (ref.value(QLatin1String("apiVersion")).toString() != QLatin1String("v1") ||
            ref.value(QLatin1String("kind")).toString() != QLatin1String("Pod") ||
            podName.isEmpty())
            return QStringLiteral("node requested token not bound to a pod");
        const QString uid = ref.value(QLatin1String("uid")).toString();
        if (uid.isEmpty())
            return QStringLiteral("node requested token with a pod binding without a uid");
        const std::optional<QJsonObject> pod =
            ctx.pod ? ctx.pod(a.namespaceName, podName) : std::nullopt;
        if (!pod)
            return QStringLiteral("pods \"%1\" not found").arg(podName);
        if (pod->value(QLatin1String("metadata")).toObject().value(QLatin1String("uid")) != uid)
            return QStringLiteral("the UID in the bound object reference (%1) does not match the "
                                  "UID in record. The object might have been deleted and then "
                                  "recreated")
                .arg(uid);
        if (specField(*pod, "nodeName").toString() != node)
            return QStringLiteral("node requested token bound to a pod scheduled on a different "
                                  "node");
        return {};
    }
    if (a.resource != QLatin1String("pods"))
        return {};
    const QJsonObject &pod = r.operation == QLatin1String("DELETE") ? r.oldObject : r.newObject;
    const QString podNode = specField(pod, "nodeName").toString();
    if (a.subresource.isEmpty()) {
        if (r.operation == QLatin1String("CREATE")) {
            if (!isMirrorPod(pod))
                return QStringLiteral("pod does not have \"kubernetes.io/config.mirror\" "
                                      "annotation, node \"%1\" can only create mirror pods")
                    .arg(node);
            if (podNode != node)
                return QStringLiteral("node \"%1\" can only create pods with spec.nodeName set "
                                      "to itself")
                    .arg(node);
            const QJsonArray owners = pod.value(QLatin1String("metadata"))
                                          .toObject()
                                          .value(QLatin1String("ownerReferences"))
                                          .toArray();
            const QJsonObject owner = owners.first().toObject();
            const QString uid = ctx.nodeUid ? ctx.nodeUid(node) : QString();
            if (owners.size() != 1 ||
                owner.value(QLatin1String("apiVersion")) != QLatin1String("v1") ||
                owner.value(QLatin1String("kind")) != QLatin1String("Node") ||
                owner.value(QLatin1String("name")) != node ||
                !owner.value(QLatin1String("controller")).toBool() ||
                owner.value(QLatin1String("blockOwnerDeletion")).toBool() || uid.isEmpty() ||
                owner.value(QLatin1String("uid")).toString() != uid)
                return QStringLiteral("node \"%1\" can only create pods with an owner reference "
                                      "set to itself")
                    .arg(node);
            // The deprecated serviceAccount counts too: kube reads it as serviceAccountName.
            if (!podServiceAccount(pod.value(QLatin1String("spec")).toObject()).isEmpty())
                return QStringLiteral("node \"%1\" can not create pods that reference a service "
                                      "account")
                    .arg(node);
            if (const QString named =
                    referencedObjects(pod.value(QLatin1String("spec")).toObject());
                !named.isEmpty())
                return QStringLiteral("node \"%1\" can not create pods that %2").arg(node, named);
            return {};
        }
        if (r.operation == QLatin1String("DELETE")) {
            if (podNode != node)
                return QStringLiteral("node \"%1\" can only delete pods with spec.nodeName set "
                                      "to itself")
                    .arg(node);
            return {};
        }
        return QStringLiteral("unexpected operation \"%1\", node \"%2\" can only create and "
                              "delete mirror pods")
            .arg(r.operation, node);
    }
    if (a.subresource == QLatin1String("status")) {
        if (specField(r.oldObject, "nodeName").toString() != node)
            return QStringLiteral("node \"%1\" can only update pod status for pods with "
                                  "spec.nodeName set to itself")
                .arg(node);
        if (labelsOf(r.oldObject) != labelsOf(r.newObject))
            return QStringLiteral("node \"%1\" cannot update labels through pod status").arg(node);
        return {};
    }
    if (a.subresource == QLatin1String("eviction")) {
        if (podNode != node)
            return QStringLiteral("node \"%1\" can only evict pods with spec.nodeName set to "
                                  "itself")
                .arg(node);
        return {};
    }
    return QStringLiteral("unexpected pod subresource \"%1\", only 'status' and 'eviction' are "
                          "allowed")
        .arg(a.subresource);
}

} // namespace

bool isForbiddenNodeLabel(const QString &key)
{
    const QString prefix = prefixOf(key);
    if (isOrEndsWith(prefix, "node-restriction.kubernetes.io"))
        return true;
    if (isOrEndsWith(prefix, "kubernetes.io") || isOrEndsWith(prefix, "k8s.io"))
        return !isKubeletLabel(key);
    return false;
}

QString podServiceAccount(const QJsonObject &spec)
{
    const QString name = spec.value(QLatin1String("serviceAccountName")).toString();
    return name.isEmpty() ? spec.value(QLatin1String("serviceAccount")).toString() : name;
}

void convertDeprecatedFields(const QString &resource, QJsonObject &object)
{
    QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    if (resource == QLatin1String("pods")) {
        // Convert_v1_PodSpec_To_core_PodSpec, and back: both name the account.
        const QString account = podServiceAccount(spec);
        if (account.isEmpty())
            return;
        spec.insert(QStringLiteral("serviceAccountName"), account);
        spec.insert(QStringLiteral("serviceAccount"), account);
    } else if (resource == QLatin1String("nodes")) {
        // Convert_v1_NodeSpec_To_core_NodeSpec, and back: podCIDR is podCIDRs[0].
        QJsonArray cidrs = spec.value(QLatin1String("podCIDRs")).toArray();
        const QString cidr = spec.value(QLatin1String("podCIDR")).toString();
        if (cidrs.isEmpty() && !cidr.isEmpty())
            cidrs = QJsonArray{cidr};
        if (cidrs.isEmpty())
            return;
        spec.insert(QStringLiteral("podCIDRs"), cidrs);
        spec.insert(QStringLiteral("podCIDR"), cidrs.first());
    } else {
        return;
    }
    object.insert(QStringLiteral("spec"), spec);
}

QStringList AdmissionChain::supportedPlugins()
{
    return {QStringLiteral("NamespaceLifecycle"), QStringLiteral("NodeRestriction"),
            QStringLiteral("ServiceAccount"),     QLatin1String(kMutatingWebhook),
            QLatin1String(kValidatingWebhook),    QStringLiteral("AlwaysDeny")};
}

QStringList AdmissionChain::defaultPlugins()
{
    return {QStringLiteral("NamespaceLifecycle"), QStringLiteral("NodeRestriction"),
            QStringLiteral("ServiceAccount"), QLatin1String(kMutatingWebhook),
            QLatin1String(kValidatingWebhook)};
}

QString AdmissionChain::validatePlugins(const QStringList &plugins)
{
    QStringList seen;
    for (const QString &p : plugins) {
        if (!supportedPlugins().contains(p))
            return QStringLiteral("admission plugin \"%1\" is not supported (supported: %2)")
                .arg(p, supportedPlugins().join(QStringLiteral(", ")));
        if (seen.contains(p))
            return QStringLiteral("admission plugin \"%1\" is listed twice").arg(p);
        seen.append(p);
    }
    return {};
}

AdmissionChain::AdmissionChain(QStringList plugins, AdmissionContext context)
    : m_plugins(std::move(plugins)), m_context(std::move(context))
{}

void AdmissionChain::mutate(const AdmissionRequest &request, QJsonObject &object) const
{
    if (!m_plugins.contains(QLatin1String("ServiceAccount")) || !isPodCreate(request))
        return;
    QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    if (!isMirrorPod(object) && podServiceAccount(spec).isEmpty()) {
        spec.insert(QStringLiteral("serviceAccountName"), QStringLiteral("default"));
        spec.insert(QStringLiteral("serviceAccount"), QStringLiteral("default"));
    }
    if (!spec.contains(QLatin1String("automountServiceAccountToken")))
        spec.insert(QStringLiteral("automountServiceAccountToken"), false);
    object.insert(QStringLiteral("spec"), spec);
}

QString AdmissionChain::serviceAccountRefusal(const AdmissionRequest &r) const
{
    if (!isPodCreate(r))
        return {};
    const QJsonObject spec = r.newObject.value(QLatin1String("spec")).toObject();
    const QString account = podServiceAccount(spec);
    if (isMirrorPod(r.newObject)) {
        // Whoever creates it (kube's Validate): a mirror pod runs as no account and holds no
        // secret nor token, else a token bound to it would run as the account it names (one
        // created later by that name included).
        if (!account.isEmpty())
            return QStringLiteral("a mirror pod may not reference service accounts");
        if (referencedObjects(spec) == QLatin1String("reference secrets"))
            return QStringLiteral("a mirror pod may not reference secrets");
        for (const QJsonValue v : spec.value(QLatin1String("volumes")).toArray())
            for (const QJsonValue p : v.toObject()
                                          .value(QLatin1String("projected"))
                                          .toObject()
                                          .value(QLatin1String("sources"))
                                          .toArray())
                if (p.toObject().contains(QLatin1String("serviceAccountToken")))
                    return QStringLiteral(
                        "a mirror pod may not use ServiceAccountToken volume projections");
        return {};
    }
    if (account.isEmpty() || !m_context.serviceAccountExists ||
        m_context.serviceAccountExists(r.attributes.namespaceName, account))
        return {};
    return QStringLiteral("error looking up service account %1/%2: serviceaccount \"%2\" not found")
        .arg(r.attributes.namespaceName, account);
}

AdmissionVerdict AdmissionChain::admit(const AdmissionRequest &r) const
{
    AdmissionVerdict v;
    const Attributes &a = r.attributes;
    for (const QString &plugin : m_plugins) {
        // The webhooks are asked by the write chain itself (admissionwebhooks.h).
        if (plugin == QLatin1String(kMutatingWebhook) ||
            plugin == QLatin1String(kValidatingWebhook))
            continue;
        AdmissionStep step;
        step.plugin = plugin;
        std::optional<Status> refusal;
        if (plugin == QLatin1String("NodeRestriction")) {
            step.message = nodeRestriction(r, m_context);
            if (!step.message.isEmpty())
                refusal = Status::forbidden(a.apiGroup, a.resource, r.name, step.message);
        } else if (plugin == QLatin1String("NamespaceLifecycle")) {
            const bool isNamespace =
                a.apiGroup.isEmpty() && a.resource == QLatin1String("namespaces");
            if (isNamespace && r.operation == QLatin1String("DELETE") &&
                (r.name == QLatin1String("default") || r.name == QLatin1String("kube-system") ||
                 r.name == QLatin1String("kube-public"))) {
                step.message = QStringLiteral("this namespace may not be deleted");
                refusal = Status::forbidden(a.apiGroup, a.resource, r.name, step.message);
            } else if (!isNamespace && !a.namespaceName.isEmpty() &&
                       r.operation == QLatin1String("CREATE") && m_context.namespacePhase) {
                const std::optional<QString> phase = m_context.namespacePhase(a.namespaceName);
                if (!phase) {
                    step.message =
                        QStringLiteral("namespaces \"%1\" not found").arg(a.namespaceName);
                    refusal =
                        Status::notFound(QString(), QStringLiteral("namespaces"), a.namespaceName);
                } else if (*phase == QLatin1String("Terminating")) {
                    step.message = QStringLiteral("unable to create new content in namespace %1 "
                                                  "because it is being terminated")
                                       .arg(a.namespaceName);
                    refusal = Status::forbidden(a.apiGroup, a.resource, r.name, step.message);
                }
            }
        } else if (plugin == QLatin1String("ServiceAccount")) {
            // kube's ServiceAccount plugin: a pod runs as an account that exists (else one
            // created later by that name would find the pod running as it, its tokens bound to
            // the pod); a mirror pod runs as none.
            step.message = serviceAccountRefusal(r);
            if (!step.message.isEmpty())
                refusal = Status::forbidden(a.apiGroup, a.resource, r.name, step.message);
        } else if (plugin == QLatin1String("AlwaysDeny")) {
            step.message = QStringLiteral("admission control is denying all modifications");
            refusal = Status::forbidden(a.apiGroup, a.resource, r.name, step.message);
        }
        if (refusal) {
            step.allowed = false;
            v.steps.append(step);
            v.allowed = false;
            v.plugin = plugin;
            v.status = *refusal;
            return v;
        }
        v.steps.append(step);
    }
    return v;
}

namespace Validation {

namespace {

const QString kSubdomainMsg = QStringLiteral(
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");

bool matches(const QRegularExpression &re, const QString &v)
{
    return re.match(v).hasMatch();
}

} // namespace

QString goQuoted(const QString &v)
{
    QString q = v;
    q.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

StatusCause invalidCause(const QString &field, const QString &value, const QString &detail)
{
    return StatusCause{QStringLiteral("FieldValueInvalid"),
                       QStringLiteral("Invalid value: %1: %2").arg(goQuoted(value), detail), field};
}

QString specialIp(const QString &ip)
{
    static const QRegularExpression dotted(QStringLiteral("^[0-9]{1,3}(\\.[0-9]{1,3}){3}\\z"));
    QHostAddress a;
    if (ip.contains(QLatin1Char('%')) || !a.setAddress(ip) ||
        (a.protocol() == QAbstractSocket::IPv4Protocol && !dotted.match(ip).hasMatch()))
        return QStringLiteral("must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
    // Before the IPv4-mapped form is taken apart: Qt converts "::" to 0.0.0.0 too.
    if (a.protocol() == QAbstractSocket::IPv6Protocol &&
        a.isEqual(QHostAddress::AnyIPv6, QHostAddress::StrictConversion))
        return QStringLiteral("may not be unspecified (::)");
    bool mapped = false;
    const quint32 v4 = a.toIPv4Address(&mapped);
    if (mapped)
        a = QHostAddress(v4);
    if (a.protocol() == QAbstractSocket::IPv4Protocol && a.toIPv4Address() == 0)
        return QStringLiteral("may not be unspecified (0.0.0.0)");
    if (a.isLoopback())
        return QStringLiteral("may not be in the loopback range (127.0.0.0/8, ::1/128)");
    if (a.isInSubnet(QHostAddress(QStringLiteral("169.254.0.0")), 16) ||
        a.isInSubnet(QHostAddress(QStringLiteral("fe80::")), 10))
        return QStringLiteral("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
    if (a.isInSubnet(QHostAddress(QStringLiteral("224.0.0.0")), 24) ||
        a.isInSubnet(QHostAddress(QStringLiteral("ff02::")), 16))
        return QStringLiteral("may not be in the link-local multicast range (224.0.0.0/24, "
                              "ff02::/10)");
    return {};
}

StatusCause requiredCause(const QString &field, const QString &detail)
{
    return StatusCause{QStringLiteral("FieldValueRequired"),
                       detail.isEmpty() ? QStringLiteral("Required value")
                                        : QStringLiteral("Required value: ") + detail,
                       field};
}

StatusCause unsupportedCause(const QString &field, const QString &value, QStringList supported)
{
    for (QString &v : supported)
        v = goQuoted(v);
    return StatusCause{QStringLiteral("FieldValueNotSupported"),
                       QStringLiteral("Unsupported value: %1: supported values: %2")
                           .arg(goQuoted(value), supported.join(QStringLiteral(", "))),
                       field};
}

StatusCause forbiddenCause(const QString &field, const QString &detail)
{
    return StatusCause{QStringLiteral("FieldValueForbidden"),
                       QStringLiteral("Forbidden: ") + detail, field};
}

QStringList dnsSubdomain(const QString &value)
{
    static const QRegularExpression re(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\z"));
    QStringList errs;
    if (value.size() > 253)
        errs.append(QStringLiteral("must be no more than 253 characters"));
    if (!matches(re, value))
        errs.append(kSubdomainMsg);
    return errs;
}

QStringList dnsLabel(const QString &value)
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?\\z"));
    QStringList errs;
    if (value.size() > 63)
        errs.append(QStringLiteral("must be no more than 63 characters"));
    if (!matches(re, value))
        errs.append(QStringLiteral(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
            "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
    return errs;
}

QStringList dns1035Label(const QString &value)
{
    static const QRegularExpression re(QStringLiteral("^[a-z]([-a-z0-9]*[a-z0-9])?\\z"));
    QStringList errs;
    if (value.size() > 63)
        errs.append(QStringLiteral("must be no more than 63 characters"));
    if (!matches(re, value))
        errs.append(QStringLiteral(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
            "with an alphabetic character, and end with an alphanumeric character (e.g. "
            "'my-name',  or 'abc-123', regex used for validation is "
            "'[a-z]([-a-z0-9]*[a-z0-9])?')"));
    return errs;
}

QStringList pathSegmentName(const QString &value)
{
    if (value == QLatin1String(".") || value == QLatin1String(".."))
        return {QStringLiteral("may not be '%1'").arg(value)};
    for (const char *bad : {"/", "%"})
        if (value.contains(QLatin1String(bad)))
            return {QStringLiteral("may not contain '%1'").arg(QLatin1String(bad))};
    // Beyond kube's rule: a name every client can put in a URL here. A control character
    // (NUL: no request target may hold one) or a name longer than a request line allows made
    // roles and bindings that nobody could delete by name, and a binding named "b\0" shows as
    // "b" in a terminal. 253, as a DNS subdomain name.
    if (value.size() > 253)
        return {QStringLiteral("must be no more than 253 characters")};
    for (const QChar c : value)
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format ||
            c.category() == QChar::Separator_Line || c.category() == QChar::Separator_Paragraph)
            return {QStringLiteral("may not contain control or format characters")};
    // Nor half a character: an unpaired surrogate ("\ud800") became "?" in the URL, and no
    // request could name the object again.
    if (QString::fromUtf8(value.toUtf8()) != value)
        return {QStringLiteral("must be valid Unicode (no unpaired surrogates)")};
    return {};
}

QStringList qualifiedName(const QString &value)
{
    static const QRegularExpression re(
        QStringLiteral("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\\z"));
    QStringList errs;
    QString name = value;
    const QStringList parts = value.split(QLatin1Char('/'));
    if (parts.size() == 2) {
        const QString &prefix = parts[0];
        name = parts[1];
        if (prefix.isEmpty())
            errs.append(QStringLiteral("prefix part must be non-empty"));
        else
            for (const QString &e : dnsSubdomain(prefix))
                errs.append(QStringLiteral("prefix part ") + e);
    } else if (parts.size() > 2) {
        return {QStringLiteral(
            "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must "
            "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
            "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') "
            "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")};
    }
    if (name.isEmpty())
        errs.append(QStringLiteral("name part must be non-empty"));
    else if (name.size() > 63)
        errs.append(QStringLiteral("name part must be no more than 63 characters"));
    if (!name.isEmpty() && !matches(re, name))
        errs.append(QStringLiteral(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start "
            "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
            "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"));
    return errs;
}

QStringList labelValue(const QString &value)
{
    static const QRegularExpression re(
        QStringLiteral("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\\z"));
    QStringList errs;
    if (value.size() > 63)
        errs.append(QStringLiteral("must be no more than 63 characters"));
    if (!matches(re, value))
        errs.append(QStringLiteral(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', "
            "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  "
            "or 'my_value',  or '12345', regex used for validation is "
            "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"));
    return errs;
}

namespace {

// Go's %#v of a *bool: nil, or the value (Go prints the address, which says nothing).
QString goBoolPointer(const QJsonValue &v)
{
    return v.isBool() ? QStringLiteral("(*bool)(%1)").arg(v.toBool() ? "true" : "false")
                      : QStringLiteral("(*bool)(nil)");
}

QString goOwnerReference(const QJsonObject &r)
{
    return QStringLiteral("v1.OwnerReference{APIVersion:%1, Kind:%2, Name:%3, UID:%4, "
                          "Controller:%5, BlockOwnerDeletion:%6}")
        .arg(goQuoted(r.value(QLatin1String("apiVersion")).toString()),
             goQuoted(r.value(QLatin1String("kind")).toString()),
             goQuoted(r.value(QLatin1String("name")).toString()),
             goQuoted(r.value(QLatin1String("uid")).toString()),
             goBoolPointer(r.value(QLatin1String("controller"))),
             goBoolPointer(r.value(QLatin1String("blockOwnerDeletion"))));
}

} // namespace

QList<StatusCause> ownerReferences(const QJsonArray &refs)
{
    // apimachinery's ValidateOwnerReferences: the field is the list's (no index), an owner needs
    // a version, kind, name and uid, an Event owns nothing, and one owner at most is the
    // controller. Bounded where kube is not: at most kMaxCauses causes, one for a second
    // controller however many follow (kube repeats the whole list for each, which grows as the
    // square of the list), and that list shown up to kShown references.
    constexpr qsizetype kMaxCauses = 100;
    constexpr qsizetype kShown = 20;
    const QString field = QStringLiteral("metadata.ownerReferences");
    QList<StatusCause> causes;
    QString firstController;
    bool secondController = false;
    for (const QJsonValue v : refs) {
        if (causes.size() >= kMaxCauses)
            break;
        const QJsonObject r = v.toObject();
        const QString apiVersion = r.value(QLatin1String("apiVersion")).toString();
        const QStringList gv = apiVersion.split(QLatin1Char('/'));
        // schema.ParseGroupVersion: "v1", "group/v1"; anything else has no version.
        const QString version = gv.size() == 1 ? gv[0] : gv.size() == 2 ? gv[1] : QString();
        const QString group = gv.size() == 2 ? gv[0] : QString();
        const QString kind = r.value(QLatin1String("kind")).toString();
        if (version.isEmpty())
            causes.append(invalidCause(field + QStringLiteral(".apiVersion"), apiVersion,
                                       QStringLiteral("version must not be empty")));
        for (const char *member : {"kind", "name", "uid"}) {
            const QString value = r.value(QLatin1String(member)).toString();
            if (value.isEmpty())
                causes.append(invalidCause(field + QLatin1Char('.') + QLatin1String(member), value,
                                           QStringLiteral("must not be empty")));
        }
        if (group.isEmpty() && version == QLatin1String("v1") && kind == QLatin1String("Event"))
            causes.append(StatusCause{
                QStringLiteral("FieldValueInvalid"),
                QStringLiteral("Invalid value: %1: /v1, Kind=Event is disallowed from being an "
                               "owner")
                    .arg(goOwnerReference(r)),
                field});
        if (!r.value(QLatin1String("controller")).toBool() || secondController)
            continue;
        const QString current = kind + QLatin1Char('/') + r.value(QLatin1String("name")).toString();
        if (firstController.isEmpty()) {
            firstController = current;
            continue;
        }
        secondController = true;
        QStringList shown;
        for (qsizetype i = 0; i < std::min(refs.size(), kShown); ++i)
            shown.append(goOwnerReference(refs[i].toObject()));
        if (refs.size() > kShown)
            shown.append(QStringLiteral("..."));
        causes.append(StatusCause{
            QStringLiteral("FieldValueInvalid"),
            QStringLiteral("Invalid value: []v1.OwnerReference{%1}: Only one reference can have "
                           "Controller set to true. Found \"true\" in references for %2 and %3")
                .arg(shown.join(QStringLiteral(", ")), firstController, current),
            field});
    }
    if (causes.size() > kMaxCauses)
        causes.resize(kMaxCauses);
    return causes;
}

QList<StatusCause> objectMeta(const QJsonObject &object, const QString &resource, bool requireName)
{
    QList<StatusCause> causes;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    const QString name = meta.value(QLatin1String("name")).toString();
    if (name.isEmpty()) {
        if (requireName)
            causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                      QStringLiteral("Required value: name or generateName is "
                                                     "required"),
                                      QStringLiteral("metadata.name")});
    } else {
        QStringList errs;
        if (resource == QLatin1String("namespaces"))
            errs = dnsLabel(name);
        else if (resource == QLatin1String("services"))
            errs = dns1035Label(name);
        else if (resource.endsWith(QLatin1String("roles")) ||
                 resource.endsWith(QLatin1String("rolebindings")))
            errs = pathSegmentName(name);
        else
            errs = dnsSubdomain(name);
        for (const QString &e : std::as_const(errs))
            causes.append(invalidCause(QStringLiteral("metadata.name"), name, e));
    }
    const QJsonValue labels = meta.value(QLatin1String("labels"));
    if (!labels.isUndefined() && !labels.isNull() && !labels.isObject()) {
        causes.append(StatusCause{QStringLiteral("FieldValueInvalid"),
                                  QStringLiteral("Invalid value: must be a map of strings"),
                                  QStringLiteral("metadata.labels")});
    } else {
        const QJsonObject l = labels.toObject();
        for (auto it = l.begin(); it != l.end(); ++it) {
            for (const QString &e : qualifiedName(it.key()))
                causes.append(invalidCause(QStringLiteral("metadata.labels"), it.key(), e));
            if (!it.value().isString()) {
                causes.append(StatusCause{QStringLiteral("FieldValueInvalid"),
                                          QStringLiteral("Invalid value: label values must be "
                                                         "strings"),
                                          QStringLiteral("metadata.labels")});
                continue;
            }
            for (const QString &e : labelValue(it.value().toString()))
                causes.append(
                    invalidCause(QStringLiteral("metadata.labels"), it.value().toString(), e));
        }
    }
    causes += ownerReferences(meta.value(QLatin1String("ownerReferences")).toArray());
    const QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
    qsizetype total = 0;
    for (auto it = annotations.begin(); it != annotations.end(); ++it) {
        for (const QString &e : qualifiedName(it.key()))
            causes.append(invalidCause(QStringLiteral("metadata.annotations"), it.key(), e));
        total += it.key().size() + it.value().toString().size();
    }
    if (total > 256 * 1024)
        causes.append(StatusCause{QStringLiteral("FieldValueTooLong"),
                                  QStringLiteral("Too long: must have at most 262144 bytes"),
                                  QStringLiteral("metadata.annotations")});
    return causes;
}

QList<StatusCause> object(const QString &resource, const QJsonObject &object)
{
    QList<StatusCause> causes;
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    if (resource == QLatin1String("nodes")) {
        const QJsonArray taints = spec.value(QLatin1String("taints")).toArray();
        static const QStringList effects{QStringLiteral("NoExecute"), QStringLiteral("NoSchedule"),
                                         QStringLiteral("PreferNoSchedule")};
        for (int i = 0; i < taints.size(); ++i) {
            const QJsonObject t = taints[i].toObject();
            const QString field = QStringLiteral("spec.taints[%1]").arg(i);
            const QString key = t.value(QLatin1String("key")).toString();
            if (key.isEmpty())
                causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                          QStringLiteral("Required value"),
                                          field + QStringLiteral(".key")});
            else
                for (const QString &e : qualifiedName(key))
                    causes.append(invalidCause(field + QStringLiteral(".key"), key, e));
            const QString effect = t.value(QLatin1String("effect")).toString();
            if (effect.isEmpty())
                causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                          QStringLiteral("Required value"),
                                          field + QStringLiteral(".effect")});
            else if (!effects.contains(effect))
                causes.append(StatusCause{
                    QStringLiteral("FieldValueNotSupported"),
                    QStringLiteral("Unsupported value: %1: supported values: \"NoExecute\", "
                                   "\"NoSchedule\", \"PreferNoSchedule\"")
                        .arg(goQuoted(effect)),
                    field + QStringLiteral(".effect")});
        }
    } else if (resource == QLatin1String("services")) {
        static const QStringList types{QStringLiteral("ClusterIP"), QStringLiteral("NodePort"),
                                       QStringLiteral("LoadBalancer"),
                                       QStringLiteral("ExternalName")};
        const QString type = spec.value(QLatin1String("type")).toString();
        if (!types.contains(type))
            causes.append(StatusCause{
                QStringLiteral("FieldValueNotSupported"),
                QStringLiteral("Unsupported value: %1: supported values: \"ClusterIP\", "
                               "\"ExternalName\", \"LoadBalancer\", \"NodePort\"")
                    .arg(goQuoted(type)),
                QStringLiteral("spec.type")});
        if (type == QLatin1String("ExternalName")) {
            // As kube validates it (a CNAME, a trailing dot allowed). An IP literal is one of
            // this server's targets too (a webhook's service reference): held to what
            // externalIPs are.
            QString cname = spec.value(QLatin1String("externalName")).toString();
            if (cname.endsWith(QLatin1Char('.')))
                cname.chop(1);
            const QString field = QStringLiteral("spec.externalName");
            const QStringList nameErrors = cname.isEmpty() ? QStringList() : dnsSubdomain(cname);
            for (const QString &e : nameErrors)
                causes.append(invalidCause(field, cname, e));
            if (cname.isEmpty())
                causes.append(requiredCause(field, QString()));
            else if (QHostAddress literal; nameErrors.isEmpty() && literal.setAddress(cname))
                if (const QString e = specialIp(cname); !e.isEmpty())
                    causes.append(invalidCause(field, cname, e));
        }
        const QJsonArray externalIPs = spec.value(QLatin1String("externalIPs")).toArray();
        for (int i = 0; i < externalIPs.size(); ++i) {
            const QString ip = externalIPs[i].toString();
            if (const QString e = specialIp(ip); !e.isEmpty())
                causes.append(invalidCause(QStringLiteral("spec.externalIPs[%1]").arg(i), ip, e));
        }
        const QJsonArray ports = spec.value(QLatin1String("ports")).toArray();
        for (int i = 0; i < ports.size(); ++i) {
            const QJsonObject p = ports[i].toObject();
            const QString field = QStringLiteral("spec.ports[%1]").arg(i);
            const int port = p.value(QLatin1String("port")).toInt();
            if (port < 1 || port > 65535)
                causes.append(StatusCause{
                    QStringLiteral("FieldValueInvalid"),
                    QStringLiteral("Invalid value: %1: must be between 1 and 65535, inclusive")
                        .arg(port),
                    field + QStringLiteral(".port")});
            if (p.contains(QLatin1String("nodePort"))) {
                const int np = p.value(QLatin1String("nodePort")).toInt();
                if (type != QLatin1String("NodePort") && type != QLatin1String("LoadBalancer")) {
                    if (np != 0)
                        causes.append(forbiddenCause(
                            field + QStringLiteral(".nodePort"),
                            QStringLiteral("may not be used when `type` is '%1'").arg(type)));
                } else if (np != 0 && (np < 30000 || np > 32767)) {
                    causes.append(StatusCause{
                        QStringLiteral("FieldValueInvalid"),
                        QStringLiteral("Invalid value: %1: provided port is not in the valid "
                                       "range. The range of valid ports is 30000-32767")
                            .arg(np),
                        field + QStringLiteral(".nodePort")});
                }
            }
        }
    } else if (resource == QLatin1String("roles") || resource == QLatin1String("clusterroles")) {
        const QJsonArray rules = object.value(QLatin1String("rules")).toArray();
        for (int i = 0; i < rules.size(); ++i) {
            const QJsonObject r = rules[i].toObject();
            const QString field = QStringLiteral("rules[%1]").arg(i);
            if (r.value(QLatin1String("verbs")).toArray().isEmpty())
                causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                          QStringLiteral("Required value: verbs must contain at "
                                                         "least one value"),
                                          field + QStringLiteral(".verbs")});
            // kube's ValidatePolicyRule: a rule is about non-resource URLs or about resources.
            const QJsonArray urls = r.value(QLatin1String("nonResourceURLs")).toArray();
            auto empty = [&r](const char *key) {
                return r.value(QLatin1String(key)).toArray().isEmpty();
            };
            if (!urls.isEmpty()) {
                // Go's %#v of a []string, as field.Invalid prints it.
                QStringList quoted;
                for (const QJsonValue u : urls)
                    quoted.append(goQuoted(u.toString()));
                const QString value =
                    QStringLiteral("[]string{%1}").arg(quoted.join(QStringLiteral(", ")));
                if (resource == QLatin1String("roles"))
                    causes.append(StatusCause{
                        QStringLiteral("FieldValueInvalid"),
                        QStringLiteral("Invalid value: %1: namespaced rules cannot apply to "
                                       "non-resource URLs")
                            .arg(value),
                        field + QStringLiteral(".nonResourceURLs")});
                if (!empty("apiGroups") || !empty("resources") || !empty("resourceNames"))
                    causes.append(StatusCause{
                        QStringLiteral("FieldValueInvalid"),
                        QStringLiteral("Invalid value: %1: rules cannot apply to both regular "
                                       "resources and non-resource URLs")
                            .arg(value),
                        field + QStringLiteral(".nonResourceURLs")});
                continue;
            }
            // A rule without apiGroups matched nothing here, but kube refuses it: so do we.
            if (empty("apiGroups"))
                causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                          QStringLiteral("Required value: resource rules must "
                                                         "supply at least one api group"),
                                          field + QStringLiteral(".apiGroups")});
            if (empty("resources"))
                causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                          QStringLiteral("Required value: resource rules must "
                                                         "supply at least one resource"),
                                          field + QStringLiteral(".resources")});
        }
    } else if (resource == QLatin1String("rolebindings") ||
               resource == QLatin1String("clusterrolebindings")) {
        const QJsonObject ref = object.value(QLatin1String("roleRef")).toObject();
        const QString kind = ref.value(QLatin1String("kind")).toString();
        if (ref.value(QLatin1String("name")).toString().isEmpty())
            causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                      QStringLiteral("Required value"),
                                      QStringLiteral("roleRef.name")});
        const QStringList kinds =
            resource == QLatin1String("rolebindings")
                ? QStringList{QStringLiteral("Role"), QStringLiteral("ClusterRole")}
                : QStringList{QStringLiteral("ClusterRole")};
        if (!kinds.contains(kind))
            causes.append(StatusCause{
                QStringLiteral("FieldValueNotSupported"),
                QStringLiteral("Unsupported value: %1: supported values: %2")
                    .arg(goQuoted(kind), resource == QLatin1String("rolebindings")
                                             ? QStringLiteral("\"Role\", \"ClusterRole\"")
                                             : QStringLiteral("\"ClusterRole\"")),
                QStringLiteral("roleRef.kind")});
        const QJsonArray subjects = object.value(QLatin1String("subjects")).toArray();
        for (int i = 0; i < subjects.size(); ++i) {
            const QJsonObject s = subjects[i].toObject();
            const QString field = QStringLiteral("subjects[%1]").arg(i);
            const QString k = s.value(QLatin1String("kind")).toString();
            if (k != QLatin1String("User") && k != QLatin1String("Group") &&
                k != QLatin1String("ServiceAccount"))
                causes.append(StatusCause{
                    QStringLiteral("FieldValueNotSupported"),
                    QStringLiteral("Unsupported value: %1: supported values: \"ServiceAccount\", "
                                   "\"User\", \"Group\"")
                        .arg(goQuoted(k)),
                    field + QStringLiteral(".kind")});
            if (s.value(QLatin1String("name")).toString().isEmpty())
                causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                          QStringLiteral("Required value"),
                                          field + QStringLiteral(".name")});
            if (k == QLatin1String("ServiceAccount") &&
                resource == QLatin1String("clusterrolebindings") &&
                s.value(QLatin1String("namespace")).toString().isEmpty())
                causes.append(StatusCause{QStringLiteral("FieldValueRequired"),
                                          QStringLiteral("Required value"),
                                          field + QStringLiteral(".namespace")});
        }
    }
    return causes;
}

namespace {

// A value as apimachinery's Semantic.DeepEqual compares it: Go's nil and empty slice, map and
// string are one (absent, null, [], {} and "" here). false and 0 stay: a pointer's false is not
// its nil (allowPrivilegeEscalation: false against unset is a real change).
QJsonValue semantic(const QJsonValue &v)
{
    auto absent = [](const QJsonValue &x) {
        return x.isUndefined() || x.isNull() || (x.isString() && x.toString().isEmpty()) ||
               (x.isArray() && x.toArray().isEmpty()) || (x.isObject() && x.toObject().isEmpty());
    };
    if (v.isObject()) {
        QJsonObject out;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (const QJsonValue s = semantic(it.value()); !absent(s))
                out.insert(it.key(), s);
        return out;
    }
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue e : v.toArray())
            out.append(semantic(e));
        return out;
    }
    return absent(v) ? QJsonValue() : v;
}

// ValidatePodUpdate's message for a spec change, without the cmp.Diff of the two specs that
// kube appends after a newline: Go's struct diff cannot be reproduced faithfully
// and a partial one would echo the spec back. The prefix is kube's, to the character.
const QString kPodUpdateForbidden = QStringLiteral(
    "pod updates may not change fields other than `spec.containers[*].image`,"
    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only "
    "additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set "
    "to 1 if it was previously negative)");

// ValidatePodSpecificAnnotationUpdates: the mirror pod annotation is set at create or never.
QList<StatusCause> mirrorAnnotationUpdate(const QJsonObject &pod, const QJsonObject &old)
{
    const QString key = QStringLiteral("kubernetes.io/config.mirror");
    const QString field = QStringLiteral("metadata.annotations[%1]").arg(key);
    auto annotations = [](const QJsonObject &o) {
        return o.value(QLatin1String("metadata"))
            .toObject()
            .value(QLatin1String("annotations"))
            .toObject();
    };
    const QJsonObject now = annotations(pod);
    const QJsonObject before = annotations(old);
    if (before.contains(key) && now.value(key) != before.value(key))
        return {forbiddenCause(field, QStringLiteral("may not remove or update mirror pod "
                                                     "annotation"))};
    if (!before.contains(key) && now.contains(key))
        return {forbiddenCause(field, QStringLiteral("may not add mirror pod annotation"))};
    return {};
}

// kube's ValidatePodUpdate (pkg/apis/core/validation), for the spec, in its order. Left out:
// the additions to nodeSelector and node affinity that kube allows while a pod has scheduling
// gates (refused here as any spec change), and in-place resize (alpha, off, in 1.32).
QList<StatusCause> podUpdate(const QJsonObject &pod, const QJsonObject &old)
{
    QList<StatusCause> causes = mirrorAnnotationUpdate(pod, old);
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    const QJsonObject oldSpec = old.value(QLatin1String("spec")).toObject();
    QJsonObject munged = spec;
    for (const char *list : {"containers", "initContainers"}) {
        const QString field = QStringLiteral("spec.") + QLatin1String(list);
        const QJsonArray now = spec.value(QLatin1String(list)).toArray();
        const QJsonArray before = oldSpec.value(QLatin1String(list)).toArray();
        if (now.size() != before.size()) {
            causes.append(forbiddenCause(field, QStringLiteral("pod updates may not add or remove "
                                                               "containers")));
            return causes;
        }
        QJsonArray kept;
        for (qsizetype i = 0; i < now.size(); ++i) {
            QJsonObject c = now[i].toObject();
            const QString image = c.value(QLatin1String("image")).toString();
            const QString imageField = QStringLiteral("%1[%2].image").arg(field).arg(i);
            if (image.isEmpty())
                causes.append(requiredCause(imageField));
            if (image.trimmed().size() != image.size())
                causes.append(invalidCause(imageField, image,
                                           QStringLiteral("must not have leading or trailing "
                                                          "whitespace")));
            // The image is what may change: the rest of the container is compared.
            const QJsonValue oldImage = before[i].toObject().value(QLatin1String("image"));
            if (oldImage.isUndefined())
                c.remove(QStringLiteral("image"));
            else
                c.insert(QStringLiteral("image"), oldImage);
            kept.append(c);
        }
        if (!now.isEmpty())
            munged.insert(QLatin1String(list), kept);
    }
    // activeDeadlineSeconds: set from nil to a positive value, or lowered.
    const QString deadlineField = QStringLiteral("spec.activeDeadlineSeconds");
    const QJsonValue deadline = spec.value(QLatin1String("activeDeadlineSeconds"));
    const QJsonValue oldDeadline = oldSpec.value(QLatin1String("activeDeadlineSeconds"));
    auto invalidNumber = [&](const QString &value, const char *detail) {
        causes.append(
            StatusCause{QStringLiteral("FieldValueInvalid"),
                        QStringLiteral("Invalid value: %1: %2").arg(value, QLatin1String(detail)),
                        deadlineField});
    };
    if (deadline.isDouble()) {
        const qint64 n = deadline.toInteger();
        if (n < 0 || n > std::numeric_limits<qint32>::max()) {
            invalidNumber(QString::number(n), "must be between 0 and 2147483647, inclusive");
            return causes;
        }
        if (oldDeadline.isDouble() && oldDeadline.toInteger() < n) {
            invalidNumber(QString::number(n), "must be less than or equal to previous value");
            return causes;
        }
    } else if (oldDeadline.isDouble()) {
        invalidNumber(QStringLiteral("\"null\""), "must not update from a positive integer to nil "
                                                  "value");
    }
    // tolerations: each old one still there (its tolerationSeconds may change); additions.
    const QJsonArray tolerations = spec.value(QLatin1String("tolerations")).toArray();
    for (const QJsonValue o : oldSpec.value(QLatin1String("tolerations")).toArray()) {
        QJsonObject was = o.toObject();
        was.remove(QStringLiteral("tolerationSeconds"));
        const bool kept =
            std::any_of(tolerations.begin(), tolerations.end(), [&](const QJsonValue &t) {
                QJsonObject now = t.toObject();
                now.remove(QStringLiteral("tolerationSeconds"));
                return semantic(now) == semantic(was);
            });
        if (!kept) {
            causes.append(forbiddenCause(QStringLiteral("spec.tolerations"),
                                         QStringLiteral("existing toleration can not be modified "
                                                        "except its tolerationSeconds")));
            break;
        }
    }
    // schedulingGates: only removed.
    QSet<QString> oldGates;
    for (const QJsonValue g : oldSpec.value(QLatin1String("schedulingGates")).toArray())
        oldGates.insert(g.toObject().value(QLatin1String("name")).toString());
    const QJsonArray gates = spec.value(QLatin1String("schedulingGates")).toArray();
    for (qsizetype i = 0; i < gates.size(); ++i) {
        const QString gate = gates[i].toObject().value(QLatin1String("name")).toString();
        if (!oldGates.contains(gate))
            causes.append(forbiddenCause(
                QStringLiteral("spec.schedulingGates[%1].name").arg(i),
                QStringLiteral("only deletion is allowed, but found new scheduling gate '%1'")
                    .arg(gate)));
    }
    // What remains must be the old spec (the account as kube reads it: one field).
    for (const char *field : {"activeDeadlineSeconds", "schedulingGates", "tolerations"}) {
        if (oldSpec.contains(QLatin1String(field)))
            munged.insert(QLatin1String(field), oldSpec.value(QLatin1String(field)));
        else
            munged.remove(QLatin1String(field));
    }
    const QJsonValue grace = munged.value(QLatin1String("terminationGracePeriodSeconds"));
    const QJsonValue oldGrace = oldSpec.value(QLatin1String("terminationGracePeriodSeconds"));
    if (oldGrace.isDouble() && oldGrace.toInteger() < 0 && grace.isDouble() &&
        grace.toInteger() == 1)
        munged.insert(QStringLiteral("terminationGracePeriodSeconds"), oldGrace);
    auto account = [](QJsonObject s) {
        const QString name = podServiceAccount(s);
        s.remove(QStringLiteral("serviceAccount"));
        s.insert(QStringLiteral("serviceAccountName"), name);
        return semantic(s);
    };
    if (account(munged) != account(oldSpec))
        causes.append(forbiddenCause(QStringLiteral("spec"), kPodUpdateForbidden));
    return causes;
}

// kube's ValidateNodeUpdate: podCIDRs and providerID are set once ("" to a value), by whoever
// allocates them, and never change after (routes and cloud identity hang on them).
QList<StatusCause> nodeUpdate(const QJsonObject &node, const QJsonObject &old)
{
    QList<StatusCause> causes;
    auto cidrs = [](const QJsonObject &n) {
        const QJsonObject spec = n.value(QLatin1String("spec")).toObject();
        const QJsonArray list = spec.value(QLatin1String("podCIDRs")).toArray();
        const QString one = spec.value(QLatin1String("podCIDR")).toString();
        return list.isEmpty() && !one.isEmpty() ? QJsonArray{one} : list;
    };
    const QJsonArray now = cidrs(node);
    const QJsonArray before = cidrs(old);
    const StatusCause cidrChanged =
        forbiddenCause(QStringLiteral("spec.podCIDRs"),
                       QStringLiteral("node updates may not change podCIDR except from \"\" to "
                                      "valid"));
    if (!before.isEmpty()) {
        if (before.size() != now.size())
            causes.append(cidrChanged);
        else
            for (qsizetype i = 0; i < before.size(); ++i)
                if (before[i] != now[i])
                    causes.append(cidrChanged);
    }
    const QString provider = specField(old, "providerID").toString();
    if (!provider.isEmpty() && provider != specField(node, "providerID").toString())
        causes.append(forbiddenCause(QStringLiteral("spec.providerID"),
                                     QStringLiteral("node updates may not change providerID "
                                                    "except from \"\" to valid")));
    return causes;
}

} // namespace

QList<StatusCause> update(const QString &resource, const QJsonObject &object,
                          const QJsonObject &old)
{
    if (resource == QLatin1String("pods"))
        return podUpdate(object, old);
    if (resource == QLatin1String("nodes"))
        return nodeUpdate(object, old);
    return {};
}

} // namespace Validation

} // namespace Gatehouse::Cluster
