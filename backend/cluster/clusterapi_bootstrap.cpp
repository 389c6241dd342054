// What a new cluster has: namespaces, the kubernetes service, the bootstrap RBAC policy
// (reconciled at every start), default service accounts, demo nodes.
#include "cluster/clusterapi_p.h"

namespace Gatehouse::Cluster {

using namespace ApiInternal;

Result<void> ClusterApi::bootstrap()
{
    const QDateTime now = m_clock.now();
    auto outcome = m_store.commitAndWait([&]() -> ObjectStore::Outcome {
        QList<ObjectChange> changes;
        auto ensure = [&](const QString &resource, const QString &ns, QJsonObject object) {
            const QString name = nameOf(object);
            if (m_store.get(resource, ns, name))
                return;
            setMeta(object, QStringLiteral("uid"), Crypto::Random::uuid());
            setMeta(object, QStringLiteral("creationTimestamp"), timestamp(now));
            if (!ns.isEmpty())
                setMeta(object, QStringLiteral("namespace"), ns);
            changes.append(ObjectChange{ObjectChange::Kind::Added, resource, ns, name, object});
        };
        const auto superseded = supersededBootstrapRules();
        for (const QJsonObject &r : bootstrapClusterRoles()) {
            ensure(QStringLiteral("clusterroles"), QString(), r);
            // A role as an earlier version stored it gets today's rules (an administrator's
            // own change, or autoupdate "false", is left alone).
            const QString name = nameOf(r);
            const auto old = superseded.constFind(name);
            if (old == superseded.cend())
                continue;
            const auto stored = m_store.get(QStringLiteral("clusterroles"), QString(), name);
            const QString autoupdate =
                stored ? stored->value(QStringLiteral("metadata"))
                             .toObject()
                             .value(QStringLiteral("annotations"))
                             .toObject()
                             .value(QStringLiteral("rbac.authorization.kubernetes.io/"
                                                   "autoupdate"))
                             .toString()
                       : QString();
            if (!stored || autoupdate != QLatin1String("true") ||
                stored->value(QStringLiteral("rules")).toArray() != *old)
                continue;
            QJsonObject updated = *stored;
            updated.insert(QStringLiteral("rules"), r.value(QStringLiteral("rules")));
            changes.append(ObjectChange{ObjectChange::Kind::Modified,
                                        QStringLiteral("clusterroles"), QString(), name, updated});
        }
        for (const QJsonObject &b : bootstrapClusterRoleBindings())
            ensure(QStringLiteral("clusterrolebindings"), QString(), b);
        for (const char *ns : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
            ensure(QStringLiteral("namespaces"), QString(),
                   QJsonObject{
                       {QStringLiteral("kind"), QStringLiteral("Namespace")},
                       {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("name"), QLatin1String(ns)},
                                    {QStringLiteral("labels"),
                                     QJsonObject{{QStringLiteral("kubernetes.io/metadata.name"),
                                                  QLatin1String(ns)}}}}},
                       {QStringLiteral("spec"),
                        QJsonObject{{QStringLiteral("finalizers"),
                                     QJsonArray{QStringLiteral("kubernetes")}}}},
                       {QStringLiteral("status"),
                        QJsonObject{{QStringLiteral("phase"), QStringLiteral("Active")}}}});
            ensure(QStringLiteral("serviceaccounts"), QLatin1String(ns),
                   QJsonObject{{QStringLiteral("kind"), QStringLiteral("ServiceAccount")},
                               {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                               {QStringLiteral("metadata"),
                                QJsonObject{{QStringLiteral("name"), QStringLiteral("default")}}},
                               {QStringLiteral("automountServiceAccountToken"), false}});
        }
        ensure(QStringLiteral("services"), QStringLiteral("default"),
               QJsonObject{
                   {QStringLiteral("kind"), QStringLiteral("Service")},
                   {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                   {QStringLiteral("metadata"),
                    QJsonObject{
                        {QStringLiteral("name"), kServiceName},
                        {QStringLiteral("labels"),
                         QJsonObject{{QStringLiteral("component"), QStringLiteral("apiserver")},
                                     {QStringLiteral("provider"), QStringLiteral("kubernetes")}}}}},
                   {QStringLiteral("spec"),
                    QJsonObject{
                        {QStringLiteral("type"), QStringLiteral("ClusterIP")},
                        {QStringLiteral("clusterIP"), QStringLiteral("10.96.0.1")},
                        {QStringLiteral("clusterIPs"), QJsonArray{QStringLiteral("10.96.0.1")}},
                        {QStringLiteral("ipFamilies"), QJsonArray{QStringLiteral("IPv4")}},
                        {QStringLiteral("ipFamilyPolicy"), QStringLiteral("SingleStack")},
                        {QStringLiteral("sessionAffinity"), QStringLiteral("None")},
                        {QStringLiteral("internalTrafficPolicy"), QStringLiteral("Cluster")},
                        {QStringLiteral("ports"),
                         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("https")},
                                                {QStringLiteral("protocol"), QStringLiteral("TCP")},
                                                {QStringLiteral("port"), 443},
                                                {QStringLiteral("targetPort"), 6443}}}}}},
                   {QStringLiteral("status"),
                    QJsonObject{{QStringLiteral("loadBalancer"), QJsonObject()}}}});
        // Demo nodes only on a brand-new cluster, so deleting them stays deleted.
        if (m_options.demoData && m_store.count(QStringLiteral("nodes")) == 0 &&
            !m_store.get(QStringLiteral("namespaces"), QString(), QStringLiteral("default"))) {
            int i = 0;
            for (const char *n : {"node-1", "node-2", "node-3"}) {
                ++i;
                ensure(
                    QStringLiteral("nodes"), QString(),
                    QJsonObject{
                        {QStringLiteral("kind"), QStringLiteral("Node")},
                        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                        {QStringLiteral("metadata"),
                         QJsonObject{
                             {QStringLiteral("name"), QLatin1String(n)},
                             {QStringLiteral("labels"),
                              QJsonObject{
                                  {QStringLiteral("kubernetes.io/hostname"), QLatin1String(n)},
                                  {QStringLiteral("kubernetes.io/os"), QStringLiteral("linux")},
                                  {QStringLiteral("kubernetes.io/arch"), QStringLiteral("amd64")},
                                  {QStringLiteral("topology.kubernetes.io/zone"),
                                   i == 3 ? QStringLiteral("zone-b")
                                          : QStringLiteral("zone-a")}}}}},
                        {QStringLiteral("spec"),
                         QJsonObject{
                             {QStringLiteral("podCIDR"), QStringLiteral("10.244.%1.0/24").arg(i)}}},
                        {QStringLiteral("status"), nodeStatus(QLatin1String(n), i)}});
            }
        }
        return changes;
    });
    if (const auto *s = std::get_if<Status>(&outcome))
        return makeError(QStringLiteral("cluster-bootstrap"), s->message);
    return {};
}

} // namespace Gatehouse::Cluster
