#include "cluster/resources.h"

#include "cluster/events.h"

#include <QDateTime>
#include <QJsonArray>

namespace Gatehouse::Cluster {

bool ResourceType::hasSubresource(const QString &sub) const
{
    for (const Subresource &s : subresources)
        if (s.name == sub)
            return true;
    return false;
}

namespace {

const QStringList kAllVerbs{QStringLiteral("create"), QStringLiteral("delete"),
                            QStringLiteral("get"),    QStringLiteral("list"),
                            QStringLiteral("patch"),  QStringLiteral("update")};
const QStringList kStatusVerbs{QStringLiteral("get"), QStringLiteral("patch"),
                               QStringLiteral("update")};

ResourceType makeType(const char *group, const char *name, const char *singular, const char *kind,
                      bool namespaced, QStringList shortNames = {}, QList<Subresource> subs = {})
{
    ResourceType t;
    t.group = QString::fromLatin1(group);
    t.version = QStringLiteral("v1");
    t.name = QString::fromLatin1(name);
    t.singular = QString::fromLatin1(singular);
    t.kind = QString::fromLatin1(kind);
    t.namespaced = namespaced;
    t.verbs = kAllVerbs;
    t.shortNames = std::move(shortNames);
    t.subresources = std::move(subs);
    return t;
}

ResourceType review(const char *group, const char *name, const char *singular, const char *kind,
                    bool namespaced = false)
{
    ResourceType t = makeType(group, name, singular, kind, namespaced);
    t.verbs = {QStringLiteral("create")};
    t.stored = false;
    return t;
}

} // namespace

const QList<ResourceType> &servedResources()
{
    static const QList<ResourceType> all = [] {
        QList<ResourceType> r;
        r.append(makeType(
            "", "namespaces", "namespace", "Namespace", false, {QStringLiteral("ns")},
            {{QStringLiteral("finalize"), QStringLiteral("Namespace"), {QStringLiteral("update")}},
             {QStringLiteral("status"), QStringLiteral("Namespace"), kStatusVerbs}}));
        r.append(makeType("", "nodes", "node", "Node", false, {QStringLiteral("no")},
                          {{QStringLiteral("status"), QStringLiteral("Node"), kStatusVerbs}}));
        r.append(makeType("", "events", "event", "Event", true, {QStringLiteral("ev")}));
        r.append(makeType("", "pods", "pod", "Pod", true, {QStringLiteral("po")},
                          {{QStringLiteral("status"), QStringLiteral("Pod"), kStatusVerbs}}));
        r.last().categories = {QStringLiteral("all")};
        r.append(makeType("", "serviceaccounts", "serviceaccount", "ServiceAccount", true,
                          {QStringLiteral("sa")},
                          {{QStringLiteral("token"),
                            QStringLiteral("TokenRequest"),
                            {QStringLiteral("create")}}}));
        r.append(makeType("", "services", "service", "Service", true, {QStringLiteral("svc")},
                          {{QStringLiteral("status"), QStringLiteral("Service"), kStatusVerbs}}));
        r.last().categories = {QStringLiteral("all")};
        // events.k8s.io/v1: the same Events in the shape client-go's event recorders write.
        r.append(
            makeType("events.k8s.io", "events", "event", "Event", true, {QStringLiteral("ev")}));
        r.last().view = true;
        r.append(makeType("rbac.authorization.k8s.io", "clusterrolebindings", "clusterrolebinding",
                          "ClusterRoleBinding", false));
        r.append(makeType("rbac.authorization.k8s.io", "clusterroles", "clusterrole", "ClusterRole",
                          false));
        r.append(makeType("rbac.authorization.k8s.io", "rolebindings", "rolebinding", "RoleBinding",
                          true));
        r.append(makeType("rbac.authorization.k8s.io", "roles", "role", "Role", true));
        // Admission webhooks (admissionwebhooks.cpp): the operator's own policy services.
        for (const char *kind :
             {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}) {
            const QByteArray singular = QByteArray(kind).toLower();
            const QByteArray plural = singular + 's';
            r.append(makeType("admissionregistration.k8s.io", plural.constData(),
                              singular.constData(), kind, false));
            r.last().categories = {QStringLiteral("api-extensions")};
        }
        r.append(review("authorization.k8s.io", "localsubjectaccessreviews",
                        "localsubjectaccessreview", "LocalSubjectAccessReview", true));
        r.append(review("authorization.k8s.io", "selfsubjectaccessreviews",
                        "selfsubjectaccessreview", "SelfSubjectAccessReview"));
        r.append(review("authorization.k8s.io", "selfsubjectrulesreviews", "selfsubjectrulesreview",
                        "SelfSubjectRulesReview"));
        r.append(review("authorization.k8s.io", "subjectaccessreviews", "subjectaccessreview",
                        "SubjectAccessReview"));
        r.append(review("authentication.k8s.io", "selfsubjectreviews", "selfsubjectreview",
                        "SelfSubjectReview"));
        r.append(review("authentication.k8s.io", "tokenreviews", "tokenreview", "TokenReview"));
        return r;
    }();
    return all;
}

QStringList servedGroups()
{
    return {QString(),
            QStringLiteral("events.k8s.io"),
            QStringLiteral("rbac.authorization.k8s.io"),
            QStringLiteral("admissionregistration.k8s.io"),
            QStringLiteral("authorization.k8s.io"),
            QStringLiteral("authentication.k8s.io")};
}

const ResourceType *findResource(const QString &group, const QString &version, const QString &name)
{
    for (const ResourceType &t : servedResources())
        if (t.group == group && t.version == version && t.name == name)
            return &t;
    return nullptr;
}

const ResourceType *findStoredResource(const QString &name)
{
    for (const ResourceType &t : servedResources())
        if (t.stored && !t.view && t.name == name)
            return &t;
    return nullptr;
}

QJsonObject servedObject(const ResourceType &t, const QJsonObject &stored)
{
    if (t.view && t.group == QLatin1String("events.k8s.io"))
        return eventsV1FromCore(stored);
    return stored;
}

QJsonObject storedObject(const ResourceType &t, const QJsonObject &served)
{
    if (t.view && t.group == QLatin1String("events.k8s.io"))
        return coreFromEventsV1(served);
    return served;
}

QJsonObject apiVersions(const QString &serverAddress)
{
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("APIVersions")},
        {QStringLiteral("versions"), QJsonArray{QStringLiteral("v1")}},
        {QStringLiteral("serverAddressByClientCIDRs"),
         QJsonArray{QJsonObject{{QStringLiteral("clientCIDR"), QStringLiteral("0.0.0.0/0")},
                                {QStringLiteral("serverAddress"), serverAddress}}}}};
}

namespace {

QJsonObject groupEntry(const QString &group)
{
    const QJsonObject gv{{QStringLiteral("groupVersion"), group + QStringLiteral("/v1")},
                         {QStringLiteral("version"), QStringLiteral("v1")}};
    return QJsonObject{{QStringLiteral("name"), group},
                       {QStringLiteral("versions"), QJsonArray{gv}},
                       {QStringLiteral("preferredVersion"), gv}};
}

QJsonArray strings(const QStringList &l)
{
    return QJsonArray::fromStringList(l);
}

} // namespace

QJsonObject apiGroupList()
{
    QJsonArray groups;
    for (const QString &g : servedGroups())
        if (!g.isEmpty())
            groups.append(groupEntry(g));
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIGroupList")},
                       {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("groups"), groups}};
}

QJsonObject apiGroup(const QString &group)
{
    QJsonObject g = groupEntry(group);
    g.insert(QStringLiteral("kind"), QStringLiteral("APIGroup"));
    g.insert(QStringLiteral("apiVersion"), QStringLiteral("v1"));
    return g;
}

QJsonObject apiResourceList(const QString &group, const QString &version)
{
    QJsonArray resources;
    for (const ResourceType &t : servedResources()) {
        if (t.group != group || t.version != version)
            continue;
        QJsonObject r{{QStringLiteral("name"), t.name},
                      {QStringLiteral("singularName"), t.singular},
                      {QStringLiteral("namespaced"), t.namespaced},
                      {QStringLiteral("kind"), t.kind},
                      {QStringLiteral("verbs"), strings(t.verbs)}};
        if (!t.shortNames.isEmpty())
            r.insert(QStringLiteral("shortNames"), strings(t.shortNames));
        if (!t.categories.isEmpty())
            r.insert(QStringLiteral("categories"), strings(t.categories));
        resources.append(r);
        for (const Subresource &s : t.subresources)
            resources.append(QJsonObject{{QStringLiteral("name"), t.name + '/' + s.name},
                                         {QStringLiteral("singularName"), QString()},
                                         {QStringLiteral("namespaced"), t.namespaced},
                                         {QStringLiteral("kind"), s.kind},
                                         {QStringLiteral("verbs"), strings(s.verbs)}});
    }
    QJsonObject list{
        {QStringLiteral("kind"), QStringLiteral("APIResourceList")},
        {QStringLiteral("groupVersion"), group.isEmpty() ? version : group + '/' + version},
        {QStringLiteral("resources"), resources}};
    // Core lists carry no apiVersion; group lists do (reference kube.md §6.3).
    if (!group.isEmpty())
        list.insert(QStringLiteral("apiVersion"), QStringLiteral("v1"));
    return list;
}

QJsonObject aggregatedDiscovery(bool legacyCore)
{
    QJsonArray items;
    for (const QString &g : servedGroups()) {
        if (legacyCore != g.isEmpty())
            continue;
        QJsonArray resources;
        for (const ResourceType &t : servedResources()) {
            if (t.group != g)
                continue;
            QJsonObject r{
                {QStringLiteral("resource"), t.name},
                {QStringLiteral("responseKind"), QJsonObject{{QStringLiteral("group"), t.group},
                                                             {QStringLiteral("version"), t.version},
                                                             {QStringLiteral("kind"), t.kind}}},
                {QStringLiteral("scope"),
                 t.namespaced ? QStringLiteral("Namespaced") : QStringLiteral("Cluster")},
                {QStringLiteral("singularResource"), t.singular},
                {QStringLiteral("verbs"), strings(t.verbs)}};
            if (!t.shortNames.isEmpty())
                r.insert(QStringLiteral("shortNames"), strings(t.shortNames));
            if (!t.categories.isEmpty())
                r.insert(QStringLiteral("categories"), strings(t.categories));
            QJsonArray subs;
            for (const Subresource &s : t.subresources)
                subs.append(QJsonObject{{QStringLiteral("subresource"), s.name},
                                        {QStringLiteral("responseKind"),
                                         QJsonObject{{QStringLiteral("group"), t.group},
                                                     {QStringLiteral("version"), t.version},
                                                     {QStringLiteral("kind"), s.kind}}},
                                        {QStringLiteral("verbs"), strings(s.verbs)}});
            if (!subs.isEmpty())
                r.insert(QStringLiteral("subresources"), subs);
            resources.append(r);
        }
        QJsonObject meta{{QStringLiteral("creationTimestamp"), QJsonValue::Null}};
        if (!g.isEmpty())
            meta.insert(QStringLiteral("name"), g);
        items.append(QJsonObject{
            {QStringLiteral("metadata"), meta},
            {QStringLiteral("versions"),
             QJsonArray{QJsonObject{{QStringLiteral("version"), QStringLiteral("v1")},
                                    {QStringLiteral("freshness"), QStringLiteral("Current")},
                                    {QStringLiteral("resources"), resources}}}}});
    }
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIGroupDiscoveryList")},
                       {QStringLiteral("apiVersion"), QStringLiteral("apidiscovery.k8s.io/v2")},
                       {QStringLiteral("metadata"), QJsonObject()},
                       {QStringLiteral("items"), items}};
}

QString humanDuration(qint64 s)
{
    if (s < 0)
        s = 0;
    if (s < 120)
        return QStringLiteral("%1s").arg(s);
    const qint64 m = s / 60;
    if (m < 10 && s % 60 != 0)
        return QStringLiteral("%1m%2s").arg(m).arg(s % 60);
    if (m < 180)
        return QStringLiteral("%1m").arg(m);
    const qint64 h = m / 60;
    if (h < 8 && m % 60 != 0)
        return QStringLiteral("%1h%2m").arg(h).arg(m % 60);
    if (h < 48)
        return QStringLiteral("%1h").arg(h);
    const qint64 d = h / 24;
    if (h < 24 * 8 && h % 24 != 0)
        return QStringLiteral("%1d%2h").arg(d).arg(h % 24);
    if (d < 365 * 2)
        return QStringLiteral("%1d").arg(d);
    const qint64 y = d / 365;
    if (y < 8 && d % 365 != 0)
        return QStringLiteral("%1y%2d").arg(y).arg(d % 365);
    return QStringLiteral("%1y").arg(y);
}

namespace {

QJsonObject column(const char *name, const char *description, int priority = 0,
                   const char *format = "")
{
    return tableColumn(name, description, priority, format);
}

QString age(const QJsonObject &meta, qint64 nowMs)
{
    const QDateTime created = QDateTime::fromString(
        meta.value(QLatin1String("creationTimestamp")).toString(), Qt::ISODate);
    if (!created.isValid())
        return QStringLiteral("<unknown>");
    return humanDuration((nowMs - created.toMSecsSinceEpoch()) / 1000);
}

QString orNone(const QString &s)
{
    return s.isEmpty() ? QStringLiteral("<none>") : s;
}

QStringList nodeRoles(const QJsonObject &labels)
{
    QStringList roles;
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        if (it.key().startsWith(QLatin1String("node-role.kubernetes.io/")))
            roles.append(it.key().mid(24));
        else if (it.key() == QLatin1String("kubernetes.io/role"))
            roles.append(it.value().toString());
    }
    roles.removeAll(QString());
    roles.sort();
    return roles;
}

QString nodeAddress(const QJsonObject &status, const char *type)
{
    for (const QJsonValue a : status.value(QLatin1String("addresses")).toArray())
        if (a.toObject().value(QLatin1String("type")) == QLatin1String(type))
            return a.toObject().value(QLatin1String("address")).toString();
    return {};
}

QStringList subjectNames(const QJsonObject &binding, const char *kind)
{
    QStringList out;
    for (const QJsonValue v : binding.value(QLatin1String("subjects")).toArray()) {
        const QJsonObject s = v.toObject();
        if (s.value(QLatin1String("kind")) != QLatin1String(kind))
            continue;
        out.append(qstrcmp(kind, "ServiceAccount") == 0
                       ? s.value(QLatin1String("namespace")).toString() + ':' +
                             s.value(QLatin1String("name")).toString()
                       : s.value(QLatin1String("name")).toString());
    }
    return out;
}

} // namespace

QJsonObject tableFor(const ResourceType &type, const QList<QJsonObject> &objects,
                     const QString &resourceVersion, const QString &continueToken, qint64 nowMs)
{
    const char *nameDescription =
        "Name must be unique within a namespace. Is required when creating resources, although "
        "some resources may allow a client to request the generation of an appropriate name "
        "automatically. Name is primarily intended for creation idempotence and configuration "
        "definition. Cannot be updated. More info: "
        "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
    const char *ageDescription =
        "CreationTimestamp is a timestamp representing the server time when this object was "
        "created. It is not guaranteed to be set in happens-before order across separate "
        "operations. Clients may not set this value. It is represented in RFC3339 form and is in "
        "UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: "
        "https://git.k8s.io/community/contributors/devel/sig-architecture/"
        "api-conventions.md#metadata";
    const QString &r = type.name;
    if (r == QLatin1String("events"))
        return eventsTable(objects, resourceVersion, continueToken, nowMs);
    QJsonArray columns{column("Name", nameDescription, 0, "name")};
    if (r == QLatin1String("nodes")) {
        columns.append(column("Status", "The status of the node"));
        columns.append(column("Roles", "The roles of the node"));
        columns.append(column("Age", ageDescription));
        columns.append(column("Version", "Kubelet Version reported by the node."));
        columns.append(column("Internal-IP", "List of internal IPs for the node.", 1));
        columns.append(column("External-IP", "List of external IPs for the node.", 1));
        columns.append(column("OS-Image",
                              "OS Image reported by the node from /etc/os-release (e.g. Debian "
                              "GNU/Linux 7 (wheezy)).",
                              1));
        columns.append(column(
            "Kernel-Version",
            "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1));
        columns.append(column("Container-Runtime",
                              "ContainerRuntime Version reported by the node through runtime "
                              "remote API (e.g. containerd://1.4.2).",
                              1));
    } else if (r == QLatin1String("namespaces")) {
        columns.append(column("Status", "The status of the namespace"));
        columns.append(column("Age", ageDescription));
    } else if (r == QLatin1String("pods")) {
        columns.append(
            column("Ready", "The aggregate readiness state of this pod for accepting traffic."));
        columns.append(column("Status", "The aggregate status of the containers in this pod."));
        columns.append(column("Restarts",
                              "The number of times the containers in this pod have been restarted "
                              "and when the last container in this pod has restarted."));
        columns.append(column("Age", ageDescription));
        columns.append(column("IP",
                              "IP address allocated to the pod. Routable at least within the "
                              "cluster. Empty if not yet allocated.",
                              1));
        columns.append(
            column("Node", "NodeName is a request to schedule this pod onto a specific node.", 1));
    } else if (r == QLatin1String("services")) {
        columns.append(column("Type", "type determines how the Service is exposed."));
        columns.append(column("Cluster-IP", "clusterIP is the IP address of the service."));
        columns.append(column("External-IP", "List of IP addresses for which nodes in the cluster "
                                             "will also accept traffic for this service."));
        columns.append(column("Port(s)", "The list of ports that are exposed by this service."));
        columns.append(column("Age", ageDescription));
    } else if (r == QLatin1String("rolebindings") || r == QLatin1String("clusterrolebindings")) {
        columns.append(column("Role", "Role of the binding."));
        columns.append(column("Age", ageDescription));
        columns.append(column("Users", "Users in the binding.", 1));
        columns.append(column("Groups", "Groups in the binding.", 1));
        columns.append(column("ServiceAccounts", "ServiceAccounts in the binding.", 1));
    } else if (r == QLatin1String("roles") || r == QLatin1String("clusterroles")) {
        columns.append(column("Created At", ageDescription, 0, "date"));
    } else if (r.endsWith(QLatin1String("webhookconfigurations"))) {
        columns.append(
            column("Webhooks", "Webhooks indicates the number of webhooks.", 0, "integer"));
        columns.append(column("Age", ageDescription));
    } else {
        columns.append(column("Age", ageDescription));
    }

    QJsonArray rows;
    for (const QJsonObject &o : objects) {
        const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
        const QJsonObject spec = o.value(QLatin1String("spec")).toObject();
        const QJsonObject status = o.value(QLatin1String("status")).toObject();
        const QString name = meta.value(QLatin1String("name")).toString();
        QJsonArray cells{name};
        if (r == QLatin1String("nodes")) {
            QString ready = QStringLiteral("Unknown");
            for (const QJsonValue c : status.value(QLatin1String("conditions")).toArray())
                if (c.toObject().value(QLatin1String("type")) == QLatin1String("Ready"))
                    ready = c.toObject().value(QLatin1String("status")) == QLatin1String("True")
                                ? QStringLiteral("Ready")
                                : QStringLiteral("NotReady");
            if (spec.value(QLatin1String("unschedulable")).toBool())
                ready += QStringLiteral(",SchedulingDisabled");
            const QJsonObject info = status.value(QLatin1String("nodeInfo")).toObject();
            cells.append(ready);
            cells.append(
                orNone(nodeRoles(meta.value(QLatin1String("labels")).toObject()).join(',')));
            cells.append(age(meta, nowMs));
            cells.append(info.value(QLatin1String("kubeletVersion")).toString());
            cells.append(orNone(nodeAddress(status, "InternalIP")));
            cells.append(orNone(nodeAddress(status, "ExternalIP")));
            cells.append(info.value(QLatin1String("osImage")).toString());
            cells.append(info.value(QLatin1String("kernelVersion")).toString());
            cells.append(info.value(QLatin1String("containerRuntimeVersion")).toString());
        } else if (r.endsWith(QLatin1String("webhookconfigurations"))) {
            cells.append(o.value(QLatin1String("webhooks")).toArray().size());
            cells.append(age(meta, nowMs));
        } else if (r == QLatin1String("namespaces")) {
            cells.append(status.value(QLatin1String("phase")).toString());
            cells.append(age(meta, nowMs));
        } else if (r == QLatin1String("pods")) {
            const int containers = spec.value(QLatin1String("containers")).toArray().size();
            const QString phase = status.value(QLatin1String("phase")).toString();
            const int ready = phase == QLatin1String("Running") ? containers : 0;
            cells.append(QStringLiteral("%1/%2").arg(ready).arg(containers));
            cells.append(meta.contains(QLatin1String("deletionTimestamp"))
                             ? QStringLiteral("Terminating")
                             : phase);
            cells.append(0);
            cells.append(age(meta, nowMs));
            cells.append(orNone(status.value(QLatin1String("podIP")).toString()));
            cells.append(orNone(spec.value(QLatin1String("nodeName")).toString()));
        } else if (r == QLatin1String("services")) {
            QStringList ports;
            for (const QJsonValue v : spec.value(QLatin1String("ports")).toArray()) {
                const QJsonObject p = v.toObject();
                QString s = QString::number(p.value(QLatin1String("port")).toInt());
                if (p.value(QLatin1String("nodePort")).toInt() > 0)
                    s += ':' + QString::number(p.value(QLatin1String("nodePort")).toInt());
                s += '/' + p.value(QLatin1String("protocol")).toString(QStringLiteral("TCP"));
                ports.append(s);
            }
            cells.append(spec.value(QLatin1String("type")).toString());
            cells.append(orNone(spec.value(QLatin1String("clusterIP")).toString()));
            cells.append(QStringLiteral("<none>"));
            cells.append(orNone(ports.join(',')));
            cells.append(age(meta, nowMs));
        } else if (r == QLatin1String("rolebindings") ||
                   r == QLatin1String("clusterrolebindings")) {
            const QJsonObject ref = o.value(QLatin1String("roleRef")).toObject();
            cells.append(ref.value(QLatin1String("kind")).toString() + '/' +
                         ref.value(QLatin1String("name")).toString());
            cells.append(age(meta, nowMs));
            cells.append(subjectNames(o, "User").join(QStringLiteral(", ")));
            cells.append(subjectNames(o, "Group").join(QStringLiteral(", ")));
            cells.append(subjectNames(o, "ServiceAccount").join(QStringLiteral(", ")));
        } else if (r == QLatin1String("roles") || r == QLatin1String("clusterroles")) {
            cells.append(meta.value(QLatin1String("creationTimestamp")).toString());
        } else {
            cells.append(age(meta, nowMs));
        }
        rows.append(tableRow(cells, meta));
    }
    return table(columns, rows, resourceVersion, continueToken);
}

QJsonObject tableColumn(const char *name, const char *description, int priority, const char *format)
{
    return QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                       {QStringLiteral("type"), QStringLiteral("string")},
                       {QStringLiteral("format"), QLatin1String(format)},
                       {QStringLiteral("description"), QLatin1String(description)},
                       {QStringLiteral("priority"), priority}};
}

QJsonObject tableRow(const QJsonArray &cells, const QJsonObject &metadata)
{
    return QJsonObject{
        {QStringLiteral("cells"), cells},
        {QStringLiteral("object"),
         QJsonObject{{QStringLiteral("kind"), QStringLiteral("PartialObjectMetadata")},
                     {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
                     {QStringLiteral("metadata"), metadata}}}};
}

QJsonObject table(const QJsonArray &columns, const QJsonArray &rows, const QString &resourceVersion,
                  const QString &continueToken)
{
    QJsonObject listMeta{{QStringLiteral("resourceVersion"), resourceVersion}};
    if (!continueToken.isEmpty())
        listMeta.insert(QStringLiteral("continue"), continueToken);
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("Table")},
                       {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
                       {QStringLiteral("metadata"), listMeta},
                       {QStringLiteral("columnDefinitions"), columns},
                       {QStringLiteral("rows"), rows}};
}

} // namespace Gatehouse::Cluster
