#include "cluster/schemas.h"

#include "cluster/clusterlogging.h"
#include "cluster/resources.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/logging.h>

#include <QFile>
#include <QHash>
#include <QSet>
#include <QStringDecoder>
#include <QStringList>

namespace pb = google::protobuf;

namespace Gatehouse::Cluster::KubeSchemas {

namespace {

constexpr char kMetaV1[] = "k8s.io.apimachinery.pkg.apis.meta.v1.";

// Go pointers to a scalar in the served kinds: a zero value on the wire was set by the
// client and is kept (for every other scalar, zero is Go's omitempty default).
const QSet<QString> &pointerScalars()
{
    static const QSet<QString> fields = {
        QStringLiteral("ServiceAccount.automountServiceAccountToken"),
        QStringLiteral("ValidatingWebhook.timeoutSeconds"),
        QStringLiteral("MutatingWebhook.timeoutSeconds"),
        QStringLiteral("ServiceReference.port"),
        QStringLiteral("PodSpec.terminationGracePeriodSeconds"),
        QStringLiteral("PodSpec.activeDeadlineSeconds"),
        QStringLiteral("PodSpec.automountServiceAccountToken"),
        QStringLiteral("PodSpec.shareProcessNamespace"),
        QStringLiteral("PodSpec.priority"),
        QStringLiteral("PodSpec.enableServiceLinks"),
        QStringLiteral("PodSpec.preemptionPolicy"),
        QStringLiteral("PodSpec.runtimeClassName"),
        QStringLiteral("PodSpec.setHostnameAsFQDN"),
        QStringLiteral("PodSpec.hostUsers"),
        QStringLiteral("PodSecurityContext.runAsUser"),
        QStringLiteral("PodSecurityContext.runAsGroup"),
        QStringLiteral("PodSecurityContext.runAsNonRoot"),
        QStringLiteral("PodSecurityContext.fsGroup"),
        QStringLiteral("PodSecurityContext.fsGroupChangePolicy"),
        QStringLiteral("PodSecurityContext.supplementalGroupsPolicy"),
        QStringLiteral("SecurityContext.privileged"),
        QStringLiteral("SecurityContext.runAsUser"),
        QStringLiteral("SecurityContext.runAsGroup"),
        QStringLiteral("SecurityContext.runAsNonRoot"),
        QStringLiteral("SecurityContext.readOnlyRootFilesystem"),
        QStringLiteral("SecurityContext.allowPrivilegeEscalation"),
        QStringLiteral("SecurityContext.procMount"),
        QStringLiteral("Container.restartPolicy"),
        QStringLiteral("Probe.terminationGracePeriodSeconds"),
        QStringLiteral("Toleration.tolerationSeconds"),
        QStringLiteral("ConfigMapVolumeSource.defaultMode"),
        QStringLiteral("ConfigMapVolumeSource.optional"),
        QStringLiteral("SecretVolumeSource.defaultMode"),
        QStringLiteral("SecretVolumeSource.optional"),
        QStringLiteral("ProjectedVolumeSource.defaultMode"),
        QStringLiteral("DownwardAPIVolumeSource.defaultMode"),
        QStringLiteral("DownwardAPIVolumeFile.mode"),
        QStringLiteral("KeyToPath.mode"),
        QStringLiteral("ConfigMapKeySelector.optional"),
        QStringLiteral("SecretKeySelector.optional"),
        QStringLiteral("ConfigMapEnvSource.optional"),
        QStringLiteral("SecretEnvSource.optional"),
        QStringLiteral("ConfigMapProjection.optional"),
        QStringLiteral("SecretProjection.optional"),
        QStringLiteral("ServiceAccountTokenProjection.expirationSeconds"),
        QStringLiteral("CSIVolumeSource.readOnly"),
        QStringLiteral("ContainerStatus.started"),
        QStringLiteral("ServiceSpec.allocateLoadBalancerNodePorts"),
        QStringLiteral("ServiceSpec.ipFamilyPolicy"),
        QStringLiteral("ServiceSpec.internalTrafficPolicy"),
        QStringLiteral("ServiceSpec.loadBalancerClass"),
        QStringLiteral("ServiceSpec.trafficDistribution"),
        QStringLiteral("ServicePort.appProtocol"),
        QStringLiteral("ClientIPConfig.timeoutSeconds"),
        QStringLiteral("TokenRequestSpec.expirationSeconds"),
        QStringLiteral("DeleteOptions.gracePeriodSeconds"),
        QStringLiteral("DeleteOptions.orphanDependents"),
        QStringLiteral("DeleteOptions.propagationPolicy"),
        QStringLiteral("DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential"),
        QStringLiteral("ObjectMeta.deletionGracePeriodSeconds"),
        QStringLiteral("OwnerReference.controller"),
        QStringLiteral("OwnerReference.blockOwnerDeletion"),
        QStringLiteral("ListMeta.remainingItemCount"),
        QStringLiteral("Status.code"),
    };
    return fields;
}

// The loaded schemas, and a prototype for every message (made once: read-only after).
class Registry
{
public:
    static const Registry &instance()
    {
        static const Registry schemas;
        return schemas;
    }

    pb::DescriptorPool pool;
    const pb::Descriptor *unknown = nullptr;
    bool loaded = false;

    std::unique_ptr<pb::Message> make(const pb::Descriptor *d) const
    {
        return std::unique_ptr<pb::Message>(m_factory.GetPrototype(d)->New());
    }

    const pb::Descriptor *forKind(const QString &apiVersion, const QString &kind) const
    {
        return m_kinds.value(apiVersion + QLatin1Char('\n') + kind);
    }

private:
    Registry()
    {
        // libprotobuf logs what a client sent (invalid UTF-8 in a string, for example) to
        // stderr: that is the client's business, kept out of the operator's log.
        pb::SetLogHandler([](pb::LogLevel level, const char *, int, const std::string &text) {
            if (level >= pb::LOGLEVEL_FATAL)
                qCCritical(lcCluster) << "libprotobuf:" << text.c_str();
            else
                qCDebug(lcCluster) << "libprotobuf:" << text.c_str();
        });
        QFile file(QStringLiteral(":/gatehouse/cluster/k8s.desc"));
        pb::FileDescriptorSet set;
        const QByteArray data = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        if (!set.ParseFromArray(data.constData(), int(data.size()))) {
            qCCritical(lcCluster) << "the Kubernetes protobuf schemas are missing from the build";
            return;
        }
        for (const pb::FileDescriptorProto &proto : set.file()) {
            const pb::FileDescriptor *built = pool.BuildFile(proto);
            if (!built) {
                qCCritical(lcCluster)
                    << "the Kubernetes protobuf schema" << proto.name().c_str() << "does not build";
                return;
            }
            for (int i = 0; i < built->message_type_count(); ++i)
                m_factory.GetPrototype(built->message_type(i));
        }
        unknown = pool.FindMessageTypeByName("k8s.io.apimachinery.pkg.runtime.Unknown");
        registerKinds();
        loaded = unknown != nullptr;
    }

    void add(const QString &apiVersion, const QString &kind, const std::string &message)
    {
        if (const pb::Descriptor *d = pool.FindMessageTypeByName(message))
            m_kinds.insert(apiVersion + QLatin1Char('\n') + kind, d);
        else
            qCCritical(lcCluster) << "no protobuf message" << message.c_str() << "for" << kind;
    }

    void registerKinds()
    {
        const std::string meta = kMetaV1;
        QSet<QString> apiVersions{QStringLiteral("v1"), QStringLiteral("meta.k8s.io/v1")};
        for (const ResourceType &t : servedResources()) {
            const QString group = t.group.isEmpty() ? QStringLiteral("core")
                                                    : t.group.section(QLatin1Char('.'), 0, 0);
            const std::string package =
                QStringLiteral("k8s.io.api.%1.%2.").arg(group, t.version).toStdString();
            add(t.apiVersion(), t.kind, package + t.kind.toStdString());
            if (t.stored)
                add(t.apiVersion(), t.kind + QStringLiteral("List"),
                    package + t.kind.toStdString() + "List");
            for (const Subresource &s : t.subresources)
                if (s.kind != t.kind && s.kind != QLatin1String("TokenRequest"))
                    add(t.apiVersion(), s.kind, package + s.kind.toStdString());
            apiVersions.insert(t.apiVersion());
        }
        // Earlier versions of SelfSubjectReview have the same message.
        for (const char *version : {"v1beta1", "v1alpha1"})
            add(QStringLiteral("authentication.k8s.io/") + QLatin1String(version),
                QStringLiteral("SelfSubjectReview"),
                "k8s.io.api.authentication.v1.SelfSubjectReview");
        // serviceaccounts/token takes and answers an authentication.k8s.io/v1 TokenRequest
        // (kubectl create token sends it in protobuf).
        add(QStringLiteral("authentication.k8s.io/v1"), QStringLiteral("TokenRequest"),
            "k8s.io.api.authentication.v1.TokenRequest");
        add(QStringLiteral("v1"), QStringLiteral("Status"), meta + "Status");
        add(QStringLiteral("v1"), QStringLiteral("Event"), "k8s.io.api.core.v1.Event");
        add(QStringLiteral("v1"), QStringLiteral("EventList"), "k8s.io.api.core.v1.EventList");
        // Every group version has DeleteOptions (client-go's typed Delete sends one).
        for (const QString &apiVersion : std::as_const(apiVersions))
            add(apiVersion, QStringLiteral("DeleteOptions"), meta + "DeleteOptions");
    }

    mutable pb::DynamicMessageFactory m_factory{&pool};
    QHash<QString, const pb::Descriptor *> m_kinds;
};

QString stripTags(const std::string &comment)
{
    QStringList kept;
    for (const QString &line : fromStd(comment).split(QLatin1Char('\n'))) {
        const QString t = line.trimmed();
        if (t == QLatin1String("---")) // what follows is for Go readers only
            break;
        if (!t.startsWith(QLatin1Char('+')))
            kept.append(t);
    }
    return kept.join(QLatin1Char('\n')).trimmed();
}

} // namespace

QString fromStd(const std::string &s)
{
    QStringDecoder decoder(QStringConverter::Utf8, QStringConverter::Flag::ConvertInitialBom);
    return decoder(QByteArrayView(s.data(), qsizetype(s.size())));
}

std::string toStd(const QString &s)
{
    const QByteArray utf8 = s.toUtf8();
    return {utf8.constData(), size_t(utf8.size())};
}

bool loaded()
{
    return Registry::instance().loaded;
}

const pb::DescriptorPool &pool()
{
    return Registry::instance().pool;
}

const pb::Descriptor *unknownEnvelope()
{
    return Registry::instance().unknown;
}

const pb::Descriptor *forKind(const QString &apiVersion, const QString &kind)
{
    return Registry::instance().forKind(apiVersion, kind);
}

std::unique_ptr<pb::Message> make(const pb::Descriptor *d)
{
    return Registry::instance().make(d);
}

bool isInline(const pb::FieldDescriptor *f)
{
    static const QSet<QString> fields = {
        QStringLiteral("Probe.handler"),
        QStringLiteral("Volume.volumeSource"),
        QStringLiteral("EphemeralContainer.ephemeralContainerCommon"),
        QStringLiteral("RuleWithOperations.rule"),
    };
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE || f->is_repeated())
        return false;
    if (f->name() == "localObjectReference")
        return true;
    return fields.contains(fromStd(f->containing_type()->name()) + QLatin1Char('.') +
                           fromStd(f->name()));
}

Special specialOf(const pb::Descriptor *d)
{
    static const QHash<std::string, Special> specials = {
        {std::string(kMetaV1) + "Time", Special::Time},
        {std::string(kMetaV1) + "MicroTime", Special::MicroTime},
        {std::string(kMetaV1) + "Duration", Special::Duration},
        {std::string(kMetaV1) + "FieldsV1", Special::FieldsV1},
        {"k8s.io.apimachinery.pkg.runtime.RawExtension", Special::RawExtension},
        {"k8s.io.apimachinery.pkg.util.intstr.IntOrString", Special::IntOrString},
        {"k8s.io.apimachinery.pkg.api.resource.Quantity", Special::Quantity},
        {"k8s.io.api.authentication.v1.ExtraValue", Special::StringList},
        {"k8s.io.api.authorization.v1.ExtraValue", Special::StringList},
    };
    return specials.value(d->full_name(), Special::None);
}

bool isPointerScalar(const pb::FieldDescriptor *f)
{
    return pointerScalars().contains(fromStd(f->containing_type()->name()) + QLatin1Char('.') +
                                     fromStd(f->name()));
}

QMultiHash<QString, QString> goTags(const pb::FieldDescriptor *f)
{
    QMultiHash<QString, QString> out;
    pb::SourceLocation location;
    if (!f->GetSourceLocation(&location))
        return out;
    for (const QString &line : fromStd(location.leading_comments).split(QLatin1Char('\n'))) {
        const QString t = line.trimmed();
        if (!t.startsWith(QLatin1Char('+')))
            continue;
        const qsizetype eq = t.indexOf(QLatin1Char('='));
        if (eq > 0)
            out.insert(t.mid(1, eq - 1), t.mid(eq + 1));
    }
    return out;
}

namespace {
// The fields whose Go JSON tag is not their protobuf name: {protobuf name, JSON name}.
constexpr std::pair<const char *, const char *> kRenamedFields[] = {
    {"Webhooks", "webhooks"}, // admissionregistration's configurations
    {"uID", "uid"},           // authentication's BoundObjectReference
};
} // namespace

QString jsonName(const pb::FieldDescriptor *f)
{
    for (const auto &[proto, json] : kRenamedFields)
        if (f->name() == proto)
            return QString::fromLatin1(json);
    return fromStd(f->name());
}

const pb::FieldDescriptor *fieldByJsonName(const pb::Descriptor *d, const QString &name)
{
    for (const auto &[proto, json] : kRenamedFields) {
        if (name == QLatin1String(json))
            if (const pb::FieldDescriptor *f = d->FindFieldByName(proto))
                return f;
        if (name == QLatin1String(proto) && d->FindFieldByName(proto))
            return nullptr; // only by its JSON name
    }
    return d->FindFieldByName(name.toStdString());
}

const pb::FieldDescriptor *jsonField(const pb::Descriptor *d, const QString &name)
{
    if (!d)
        return nullptr;
    if (const pb::FieldDescriptor *f = fieldByJsonName(d, name); f && !isInline(f))
        return f;
    for (int i = 0; i < d->field_count(); ++i)
        if (isInline(d->field(i)))
            if (const pb::FieldDescriptor *f = jsonField(d->field(i)->message_type(), name))
                return f;
    return nullptr;
}

QString description(const pb::Descriptor *d)
{
    pb::SourceLocation location;
    return d->GetSourceLocation(&location) ? stripTags(location.leading_comments) : QString();
}

QString description(const pb::FieldDescriptor *f)
{
    pb::SourceLocation location;
    return f->GetSourceLocation(&location) ? stripTags(location.leading_comments) : QString();
}

bool isOptional(const pb::FieldDescriptor *f)
{
    pb::SourceLocation location;
    return f->GetSourceLocation(&location) &&
           QString::fromStdString(location.leading_comments).contains(QLatin1String("+optional"));
}

} // namespace Gatehouse::Cluster::KubeSchemas
