// TestAdminServer's cluster administration (backend/admin/clusteradmin.cpp): nodes and RBAC
// objects through /admin/v1/cluster/k8s, explain and perform of node label changes, recent
// requests, who-can, kubeconfigs and the live settings. Answers with the real backend's
// shapes, decisions and messages (backend/cluster: the privileged-group, Node and RBAC
// authorizers, NodeRestriction, label validation, Kubernetes Status bodies, the denial
// explainer's "denial" and RBAC near misses), for the one kind of request the console makes: a
// label change of a node.

#include "testadminserver.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTcpSocket>

#include <algorithm>

namespace {

constexpr auto K8sPrefix = "/cluster/k8s";
constexpr auto RbacPrefix = "/cluster/k8s/apis/rbac.authorization.k8s.io/v1/";
const QString RbacApiVersion = QStringLiteral("rbac.authorization.k8s.io/v1");
const QStringList DefaultVerbs{"get", "list", "watch", "create", "update", "patch", "delete"};

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

QJsonObject obj(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toObject();
}

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue v : value.toArray())
        out.append(v.toString());
    return out;
}

QString iso(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODate);
}

QString nameOf(const QJsonObject &o)
{
    return str(obj(o, "metadata"), "name");
}

QJsonObject kubeStatus(int code, const QString &reason, const QString &message,
                       const QJsonObject &details = {})
{
    QJsonObject s{{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", QJsonObject()},
                  {"status", "Failure"}, {"message", message}, {"reason", reason},
                  {"code", code}};
    if (!details.isEmpty())
        s.insert("details", details);
    return s;
}

QJsonObject node(const QString &name, int index, bool ready, const QJsonObject &extraLabels)
{
    QJsonObject labels{{"kubernetes.io/hostname", name},
                       {"kubernetes.io/os", "linux"},
                       {"kubernetes.io/arch", "amd64"},
                       {"topology.kubernetes.io/zone", index == 3 ? "zone-b" : "zone-a"}};
    for (auto it = extraLabels.begin(); it != extraLabels.end(); ++it)
        labels.insert(it.key(), it.value());
    return QJsonObject{
        {"kind", "Node"},
        {"apiVersion", "v1"},
        {"metadata",
         QJsonObject{{"name", name},
                     {"labels", labels},
                     {"creationTimestamp", "2026-11-21T08:00:00Z"},
                     {"resourceVersion", QString::number(20 + index)},
                     {"uid", QStringLiteral("d9cec2fd-a17c-41ef-ba40-e8e43a20%1aba").arg(index)}}},
        {"spec", QJsonObject{{"podCIDR", QStringLiteral("10.244.%1.0/24").arg(index)}}},
        {"status",
         QJsonObject{
             {"conditions",
              QJsonArray{QJsonObject{{"type", "Ready"},
                                     {"status", ready ? "True" : "False"},
                                     {"reason", ready ? "KubeletReady" : "KubeletNotReady"},
                                     {"message", ready ? "kubelet is posting ready status"
                                                       : "container runtime network not ready"}}}},
             {"addresses",
              QJsonArray{QJsonObject{{"type", "InternalIP"},
                                     {"address", QStringLiteral("10.0.0.1%1").arg(index)}},
                         QJsonObject{{"type", "Hostname"}, {"address", name}}}},
             {"nodeInfo", QJsonObject{{"kubeletVersion", "v1.32.4"},
                                      {"osImage", "Debian GNU/Linux 12 (bookworm)"},
                                      {"architecture", "amd64"},
                                      {"operatingSystem", "linux"}}}}}};
}

QJsonObject rule(const QStringList &groups, const QStringList &resources, const QStringList &verbs)
{
    return {{"apiGroups", QJsonArray::fromStringList(groups)},
            {"resources", QJsonArray::fromStringList(resources)},
            {"verbs", QJsonArray::fromStringList(verbs)}};
}

QJsonObject rbacObject(const char *kind, const QString &name, const QString &ns, bool bootstrap)
{
    QJsonObject meta{
        {"name", name},
        {"creationTimestamp", "2026-11-21T08:00:00Z"},
        {"resourceVersion", "2"},
        {"uid",
         QStringLiteral("57381c4b-3408-4753-a548-%1").arg(qHash(name), 12, 16, QLatin1Char('0'))}};
    if (!ns.isEmpty())
        meta.insert("namespace", ns);
    if (bootstrap) {
        meta.insert("labels", QJsonObject{{"kubernetes.io/bootstrapping", "rbac-defaults"}});
        meta.insert("annotations",
                    QJsonObject{{"rbac.authorization.kubernetes.io/autoupdate", "true"}});
    }
    return {{"kind", kind}, {"apiVersion", RbacApiVersion}, {"metadata", meta}};
}

QJsonObject role(const char *kind, const QString &name, const QString &ns, bool bootstrap,
                 const QJsonArray &rules)
{
    QJsonObject r = rbacObject(kind, name, ns, bootstrap);
    r.insert("rules", rules);
    return r;
}

QJsonObject subject(const char *kind, const QString &name, const QString &ns = {})
{
    QJsonObject s{{"kind", kind}, {"name", name}};
    if (QLatin1String(kind) == QLatin1String("ServiceAccount"))
        s.insert("namespace", ns);
    else
        s.insert("apiGroup", "rbac.authorization.k8s.io");
    return s;
}

QJsonObject binding(const char *kind, const QString &name, const QString &ns, bool bootstrap,
                    const char *roleKind, const QString &roleName, const QJsonArray &subjects)
{
    QJsonObject b = rbacObject(kind, name, ns, bootstrap);
    b.insert("roleRef", QJsonObject{{"apiGroup", "rbac.authorization.k8s.io"},
                                    {"kind", roleKind},
                                    {"name", roleName}});
    if (!subjects.isEmpty())
        b.insert("subjects", subjects);
    return b;
}

QJsonObject list(const char *kind, const QString &apiVersion, const QList<QJsonObject> &items,
                 qint64 version)
{
    QJsonArray array;
    for (const QJsonObject &item : items)
        array.append(item);
    return {{"kind", kind},
            {"apiVersion", apiVersion},
            {"metadata", QJsonObject{{"resourceVersion", QString::number(version)}}},
            {"items", array}};
}

bool contains(const QJsonValue &list, const QString &value)
{
    const QStringList values = strings(list);
    return values.contains(value) || values.contains(QStringLiteral("*"));
}

// Label key and value syntax (apimachinery validation), with the real messages.
QString labelKeyProblem(const QString &key)
{
    static const QRegularExpression name(
        QStringLiteral("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$"));
    static const QRegularExpression dns(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    const qsizetype slash = key.indexOf(QLatin1Char('/'));
    const QString prefix = slash < 0 ? QString() : key.left(slash);
    const QString part = slash < 0 ? key : key.mid(slash + 1);
    if (slash >= 0 && (prefix.isEmpty() || !dns.match(prefix).hasMatch()))
        return QStringLiteral(
            "prefix part a lowercase RFC 1123 subdomain must consist of lower "
            "case alphanumeric characters, '-' or '.', and must start and end "
            "with an alphanumeric character (e.g. 'example.com', regex used for "
            "validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    if (part.isEmpty())
        return QStringLiteral("name part must be non-empty");
    if (part.size() > 63)
        return QStringLiteral("name part must be no more than 63 characters");
    if (!name.match(part).hasMatch())
        return QStringLiteral(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start "
            "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
            "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
    return {};
}

QString labelValueProblem(const QString &value)
{
    static const QRegularExpression re(
        QStringLiteral("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"));
    if (value.size() > 63)
        return QStringLiteral("must be no more than 63 characters");
    if (!re.match(value).hasMatch())
        return QStringLiteral(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', "
            "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  "
            "or 'my_value',  or '12345', regex used for validation is "
            "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
    return {};
}

// RbacPolicy's texts for the denial explainer: "[get list]", "\"\" (core)" for the core group.
QString listText(const QStringList &l)
{
    QStringList quoted;
    for (const QString &s : l)
        quoted.append(s.isEmpty() ? QStringLiteral("\"\" (core)") : s);
    return QLatin1Char('[') + quoted.join(QLatin1Char(' ')) + QLatin1Char(']');
}

// PolicyRule::describe(): "verbs=[get list] apiGroups=[""] resources=[nodes]".
QString describeRule(const QJsonObject &rule)
{
    QStringList parts;
    for (const char *key : {"verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"})
        if (QStringList l = strings(rule.value(QLatin1String(key))); !l.isEmpty()) {
            for (QString &s : l)
                if (s.isEmpty())
                    s = QStringLiteral("\"\"");
            parts.append(QStringLiteral("%1=[%2]").arg(QLatin1String(key), l.join(' ')));
        }
    return parts.join(' ');
}

bool isOrEndsWith(const QString &prefix, const QString &domain)
{
    return prefix == domain || prefix.endsWith(QLatin1Char('.') + domain);
}

// NodeRestriction: the labels a kubelet may not set on its own node.
bool isForbiddenNodeLabel(const QString &key)
{
    static const QStringList kubelet{"kubernetes.io/hostname",
                                     "kubernetes.io/os",
                                     "kubernetes.io/arch",
                                     "beta.kubernetes.io/os",
                                     "beta.kubernetes.io/arch",
                                     "beta.kubernetes.io/instance-type",
                                     "node.kubernetes.io/instance-type",
                                     "topology.kubernetes.io/zone",
                                     "topology.kubernetes.io/region",
                                     "failure-domain.beta.kubernetes.io/zone",
                                     "failure-domain.beta.kubernetes.io/region"};
    const qsizetype slash = key.indexOf(QLatin1Char('/'));
    const QString prefix = slash < 0 ? QString() : key.left(slash);
    if (isOrEndsWith(prefix, "node-restriction.kubernetes.io"))
        return true;
    if (isOrEndsWith(prefix, "kubernetes.io") || isOrEndsWith(prefix, "k8s.io"))
        return !kubelet.contains(key) && !isOrEndsWith(prefix, "kubelet.kubernetes.io") &&
               !isOrEndsWith(prefix, "node.kubernetes.io");
    return false;
}

} // namespace

void TestAdminServer::resetClusterData()
{
    m_clusterVersion = 100;
    m_admissionWebhooks = {};
    m_webhooksNotAsked = false;
    m_nodes = {node("node-1", 1, true, {{"example.com/rack", "r1"}}), node("node-2", 2, true, {}),
               node("node-3", 3, false, {})};
    m_clusterSettings = {{"anonymousAuth", true},
                         {"authorizationModes", QJsonArray{"Node", "RBAC"}},
                         {"admissionPlugins",
                          QJsonArray{"NamespaceLifecycle", "NodeRestriction", "ServiceAccount"}}};
    const QStringList readVerbs{"get", "list", "watch"};
    m_clusterRoles = {
        role("ClusterRole", "cluster-admin", {}, true,
             {rule({"*"}, {"*"}, {"*"}),
              QJsonObject{{"nonResourceURLs", QJsonArray{"*"}}, {"verbs", QJsonArray{"*"}}}}),
        role("ClusterRole", "node-labeler", {}, false,
             {rule({""}, {"nodes"}, {"get", "list", "patch"})}),
        role("ClusterRole", "system:basic-user", {}, true,
             {rule({"authorization.k8s.io"},
                   {"selfsubjectaccessreviews", "selfsubjectrulesreviews"}, {"create"})}),
        role(
            "ClusterRole", "system:node", {}, true,
            {rule({""}, {"nodes"}, {"create", "get", "list", "watch", "delete", "patch", "update"}),
             rule({""}, {"nodes/status", "pods/status"}, {"patch", "update"})}),
        role("ClusterRole", "view", {}, true,
             {rule({""}, {"pods", "services", "configmaps", "namespaces"}, readVerbs)}),
    };
    m_clusterRoleBindings = {
        binding("ClusterRoleBinding", "cluster-admin", {}, true, "ClusterRole", "cluster-admin",
                {subject("Group", "system:masters")}),
        binding("ClusterRoleBinding", "devs-label-nodes", {}, false, "ClusterRole", "node-labeler",
                {subject("Group", "devs")}),
        binding("ClusterRoleBinding", "system:basic-user", {}, true, "ClusterRole",
                "system:basic-user", {subject("Group", "system:authenticated")}),
        binding("ClusterRoleBinding", "system:node", {}, true, "ClusterRole", "system:node", {}),
    };
    m_roles = {role("Role", "pod-reader", "shop", false, {rule({""}, {"pods"}, readVerbs)})};
    m_roleBindings = {
        binding("RoleBinding", "read-pods", "shop", false, "Role", "pod-reader",
                {subject("User", "alice"), subject("ServiceAccount", "default", "shop")})};

    auto entry = [](const char *time, const char *method, const QString &path, const char *user,
                    const QStringList &groups, const char *verb, int code, const char *stage,
                    const QString &reason) {
        return QJsonObject{{"time", QLatin1String(time)},
                           {"method", method},
                           {"path", path},
                           {"user", user},
                           {"groups", QJsonArray::fromStringList(groups)},
                           {"verb", verb},
                           {"resource", "nodes"},
                           {"namespace", ""},
                           {"name", path.section(QLatin1Char('/'), 4)},
                           {"code", code},
                           {"verdict", code < 400 ? "allowed" : "denied"},
                           {"stage", stage},
                           {"reason", reason}};
    };
    m_clusterRequests = {
        entry("2026-11-21T08:01:00.120Z", "GET", "/api/v1/nodes", "gatehouse-admin",
              {"system:masters", "system:authenticated"}, "list", 200, "ok", {}),
        entry("2026-11-21T08:01:02.480Z", "PATCH", "/api/v1/nodes/node-1", "system:node:node-1",
              {"system:nodes", "system:authenticated"}, "patch", 200, "ok", {}),
        entry("2026-11-21T08:01:03.015Z", "PATCH", "/api/v1/nodes/node-2", "system:node:node-1",
              {"system:nodes", "system:authenticated"}, "patch", 403, "admission",
              "nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to modify node "
              "\"node-2\""),
    };
    m_clusterRequests.last().insert("deniedBy", "NodeRestriction");
}

QJsonObject TestAdminServer::clusterNode(const QString &name) const
{
    for (const QJsonObject &n : m_nodes)
        if (nameOf(n) == name)
            return n;
    return {};
}

QJsonObject TestAdminServer::bumpNode(QJsonObject node)
{
    QJsonObject meta = obj(node, "metadata");
    meta.insert("resourceVersion", QString::number(++m_clusterVersion));
    node.insert("metadata", meta);
    for (QJsonObject &n : m_nodes)
        if (nameOf(n) == nameOf(node))
            n = node;
    sendEvent(QStringLiteral("cluster.object.changed"),
              {{"type", "MODIFIED"},
               {"resource", "nodes"},
               {"namespace", ""},
               {"name", nameOf(node)},
               {"resourceVersion", str(meta, "resourceVersion")}});
    return node;
}

void TestAdminServer::setClusterNodeLabel(const QString &name, const QString &key,
                                          const QJsonValue &value)
{
    QJsonObject n = clusterNode(name);
    if (n.isEmpty())
        return;
    QJsonObject meta = obj(n, "metadata");
    QJsonObject labels = obj(meta, "labels");
    if (value.isNull())
        labels.remove(key);
    else
        labels.insert(key, value);
    meta.insert("labels", labels);
    n.insert("metadata", meta);
    bumpNode(n);
}

QJsonObject TestAdminServer::explainCluster(const QJsonObject &request, QString *error) const
{
    // ClusterApi::buildRequest
    const bool anonymous = request.value("anonymous").toBool();
    QString user;
    QStringList groups;
    if (anonymous) {
        user = QStringLiteral("system:anonymous");
        groups = {QStringLiteral("system:unauthenticated")};
    } else {
        user = str(request, "user");
        if (user.isEmpty()) {
            *error =
                QStringLiteral("give \"user\" (with optional \"groups\") or \"anonymous\": true");
            return {};
        }
        if (!request.value("groups").isUndefined() && !request.value("groups").isArray()) {
            *error = QStringLiteral("\"groups\" must be an array of strings");
            return {};
        }
        groups = strings(request.value("groups"));
        if (!groups.contains(QStringLiteral("system:authenticated")))
            groups.append(QStringLiteral("system:authenticated"));
    }
    const QString nodeName = str(request, "node");
    const QJsonValue labels = request.value("labels");
    if (nodeName.isEmpty() || !labels.isObject()) {
        *error = QStringLiteral("a label change needs \"node\" and a \"labels\" object");
        return {};
    }
    const QString path = QStringLiteral("/api/v1/nodes/") + nodeName;
    QJsonObject trace{{"method", "PATCH"}, {"path", path}, {"dryRun", true}};
    const QJsonObject nodeDetails{{"name", nodeName}, {"kind", "nodes"}};
    const QString forbiddenPrefix = QStringLiteral("nodes \"%1\" is forbidden: ").arg(nodeName);

    // Authentication.
    if (anonymous && !m_clusterSettings.value("anonymousAuth").toBool()) {
        trace.insert(
            "authentication",
            QJsonObject{{"decision", "unauthorized"},
                        {"reason", "no credentials presented and anonymous access is off"}});
        trace.insert("code", 401);
        trace.insert("status", kubeStatus(401, "Unauthorized", "Unauthorized"));
        trace.insert(
            "denial",
            QJsonObject{{"stage", "authentication"},
                        {"message", "no credentials presented and anonymous access is off"}});
        return trace;
    }
    trace.insert(
        "authentication",
        QJsonObject{{"decision", anonymous ? "anonymous" : "authenticated"},
                    {"authenticator", anonymous ? "anonymous" : "admin-api"},
                    {"reason", "acting as this identity through the admin API"},
                    {"user", QJsonObject{{"username", user},
                                         {"groups", QJsonArray::fromStringList(groups)}}}});
    trace.insert("request", QJsonObject{{"verb", "patch"},
                                        {"resourceRequest", true},
                                        {"apiGroup", ""},
                                        {"apiVersion", "v1"},
                                        {"resource", "nodes"},
                                        {"name", nodeName}});

    // Authorization: privileged group, then the configured modes.
    QJsonArray steps;
    QJsonObject authz{{"decision", "deny"}, {"decidedBy", ""}, {"reason", ""}};
    const bool nodeUser =
        user.startsWith(QLatin1String("system:node:")) && groups.contains("system:nodes");
    if (groups.contains(QStringLiteral("system:masters"))) {
        steps.append(QJsonObject{{"authorizer", "privileged-group"},
                                 {"decision", "allow"},
                                 {"reason", "member of system:masters"}});
        authz.insert("decision", "allow");
        authz.insert("decidedBy", "privileged-group");
    } else {
        for (const QString &mode : strings(m_clusterSettings.value("authorizationModes"))) {
            if (mode == QLatin1String("Node")) {
                steps.append(QJsonObject{{"authorizer", "Node"},
                                         {"decision", nodeUser ? "allow" : "no-opinion"},
                                         {"reason", ""}});
                if (nodeUser) {
                    authz.insert("decision", "allow");
                    authz.insert("decidedBy", "Node");
                    break;
                }
            } else if (mode == QLatin1String("RBAC")) {
                QJsonObject match;
                for (const QJsonObject &b : m_clusterRoleBindings) {
                    QJsonObject roleObject;
                    for (const QJsonObject &r : m_clusterRoles)
                        if (nameOf(r) == str(obj(b, "roleRef"), "name"))
                            roleObject = r;
                    const QJsonArray rules = roleObject.value("rules").toArray();
                    for (const QJsonValue s : b.value("subjects").toArray()) {
                        const QJsonObject sub = s.toObject();
                        const bool matches = (str(sub, "kind") == QLatin1String("User") &&
                                              str(sub, "name") == user) ||
                                             (str(sub, "kind") == QLatin1String("Group") &&
                                              groups.contains(str(sub, "name")));
                        if (!matches)
                            continue;
                        for (qsizetype i = 0; i < rules.size() && match.isEmpty(); ++i) {
                            const QJsonObject r = rules.at(i).toObject();
                            const QStringList names = strings(r.value("resourceNames"));
                            if (contains(r.value("apiGroups"), QString()) &&
                                contains(r.value("resources"), "nodes") &&
                                contains(r.value("verbs"), "patch") &&
                                (names.isEmpty() || names.contains(nodeName)))
                                match = QJsonObject{
                                    {"bindingKind", "ClusterRoleBinding"},
                                    {"bindingName", nameOf(b)},
                                    {"bindingNamespace", ""},
                                    {"roleKind", "ClusterRole"},
                                    {"roleName", nameOf(roleObject)},
                                    {"ruleIndex", int(i)},
                                    {"subject", QJsonObject{{"kind", str(sub, "kind")},
                                                            {"name", str(sub, "name")}}}};
                        }
                    }
                }
                if (match.isEmpty()) {
                    steps.append(QJsonObject{
                        {"authorizer", "RBAC"}, {"decision", "no-opinion"}, {"reason", ""}});
                    continue;
                }
                const QString reason =
                    QStringLiteral("RBAC: allowed by ClusterRoleBinding \"%1\" of ClusterRole "
                                   "\"%2\" to %3 \"%4\"")
                        .arg(str(match, "bindingName"), str(match, "roleName"),
                             str(obj(match, "subject"), "kind"),
                             str(obj(match, "subject"), "name"));
                steps.append(
                    QJsonObject{{"authorizer", "RBAC"}, {"decision", "allow"}, {"reason", reason}});
                authz.insert("decision", "allow");
                authz.insert("decidedBy", "RBAC");
                authz.insert("reason", reason);
                authz.insert("rbac", match);
                break;
            } else if (mode == QLatin1String("AlwaysAllow")) {
                steps.append(QJsonObject{
                    {"authorizer", "AlwaysAllow"}, {"decision", "allow"}, {"reason", ""}});
                authz.insert("decision", "allow");
                authz.insert("decidedBy", "AlwaysAllow");
                break;
            } else if (mode == QLatin1String("AlwaysDeny")) {
                steps.append(QJsonObject{{"authorizer", "AlwaysDeny"},
                                         {"decision", "deny"},
                                         {"reason", "Everything is forbidden."}});
                authz.insert("decidedBy", "AlwaysDeny");
                authz.insert("reason", "Everything is forbidden.");
                break;
            }
        }
    }
    authz.insert("steps", steps);
    const bool authorized = str(authz, "decision") == QLatin1String("allow");
    QJsonArray nearMisses;
    if (!authorized) {
        if (strings(m_clusterSettings.value("authorizationModes")).contains("RBAC"))
            nearMisses = clusterNearMisses(user, groups, "patch", "nodes", nodeName);
        authz.insert("nearMisses", nearMisses);
    }
    trace.insert("authorization", authz);
    if (!authorized) {
        const QString message =
            forbiddenPrefix + QStringLiteral("User \"%1\" cannot patch resource \"nodes\" in API "
                                             "group \"\" at the cluster scope")
                                  .arg(user);
        trace.insert("code", 403);
        trace.insert("status", kubeStatus(403, "Forbidden", message, nodeDetails));
        // RequestTrace::denial: the authorizers that ran (or the one that said deny), each
        // one's own words.
        QStringList by;
        QJsonArray quotes;
        for (const QJsonValue s : std::as_const(steps)) {
            by.append(str(s.toObject(), "authorizer"));
            if (!str(s.toObject(), "reason").isEmpty())
                quotes.append(QJsonObject{{"authorizer", str(s.toObject(), "authorizer")},
                                          {"decision", str(s.toObject(), "decision")},
                                          {"reason", str(s.toObject(), "reason")}});
        }
        const QString decidedBy = str(authz, "decidedBy");
        trace.insert(
            "denial",
            QJsonObject{{"stage", "authorization"},
                        {"by", decidedBy.isEmpty() ? by.join(QStringLiteral(", ")) : decidedBy},
                        {"message", message},
                        {"quotes", quotes},
                        {"nearMisses", int(nearMisses.size())}});
        return trace;
    }

    const QJsonObject target = clusterNode(nodeName);
    if (target.isEmpty()) {
        trace.insert("code", 404);
        const QString message = QStringLiteral("nodes \"%1\" not found").arg(nodeName);
        trace.insert("status", kubeStatus(404, "NotFound", message, nodeDetails));
        trace.insert("denial", QJsonObject{{"stage", "handler"}, {"message", message}});
        return trace;
    }

    // Admission, in the configured order; the first refusal ends it.
    const QJsonObject oldLabels = obj(obj(target, "metadata"), "labels");
    const QJsonObject patch = labels.toObject();
    QJsonObject newLabels = oldLabels;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        if (it.value().isNull())
            newLabels.remove(it.key());
        else
            newLabels.insert(it.key(), it.value());
    }
    QJsonArray admissionSteps;
    QJsonObject admission{{"decision", "allow"}};
    for (const QString &plugin : strings(m_clusterSettings.value("admissionPlugins"))) {
        QString message;
        if (plugin == QLatin1String("NodeRestriction") && nodeUser) {
            const QString self = user.mid(int(qstrlen("system:node:")));
            if (self != nodeName) {
                message = QStringLiteral("node \"%1\" is not allowed to modify node \"%2\"")
                              .arg(self, nodeName);
            } else {
                QStringList forbidden;
                for (auto it = patch.begin(); it != patch.end(); ++it)
                    if (oldLabels.value(it.key()) != newLabels.value(it.key()) &&
                        isForbiddenNodeLabel(it.key()))
                        forbidden.append(it.key());
                std::sort(forbidden.begin(), forbidden.end());
                if (!forbidden.isEmpty())
                    message = QStringLiteral("is not allowed to modify labels: %1")
                                  .arg(forbidden.join(QStringLiteral(", ")));
            }
        } else if (plugin == QLatin1String("AlwaysDeny")) {
            message = QStringLiteral("admission control is denying all modifications");
        }
        admissionSteps.append(QJsonObject{{"plugin", plugin},
                                          {"decision", message.isEmpty() ? "allow" : "deny"},
                                          {"message", message}});
        if (!message.isEmpty()) {
            admission.insert("decision", "deny");
            admission.insert("plugin", plugin);
            admission.insert("message", forbiddenPrefix + message);
            admission.insert("steps", admissionSteps);
            trace.insert("admission", admission);
            trace.insert("code", 403);
            trace.insert("status",
                         kubeStatus(403, "Forbidden", forbiddenPrefix + message, nodeDetails));
            trace.insert("denial", QJsonObject{{"stage", "admission"},
                                               {"by", plugin},
                                               {"message", forbiddenPrefix + message}});
            return trace;
        }
    }
    admission.insert("steps", admissionSteps);
    trace.insert("admission", admission);

    // Validation of the labels after the patch.
    QJsonArray causes;
    QStringList messages;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        QStringList problems;
        if (const QString p = labelKeyProblem(it.key()); !p.isEmpty())
            problems.append(QStringLiteral("Invalid value: \"%1\": %2").arg(it.key(), p));
        if (it.value().isString())
            if (const QString p = labelValueProblem(it.value().toString()); !p.isEmpty())
                problems.append(
                    QStringLiteral("Invalid value: \"%1\": %2").arg(it.value().toString(), p));
        for (const QString &p : std::as_const(problems)) {
            causes.append(QJsonObject{
                {"reason", "FieldValueInvalid"}, {"message", p}, {"field", "metadata.labels"}});
            messages.append(QStringLiteral("metadata.labels: ") + p);
        }
    }
    if (!causes.isEmpty()) {
        trace.insert("validation", causes);
        trace.insert("code", 422);
        const QString message =
            messages.size() == 1
                ? QStringLiteral("Node \"%1\" is invalid: %2").arg(nodeName, messages.first())
                : QStringLiteral("Node \"%1\" is invalid: [%2]")
                      .arg(nodeName, messages.join(QStringLiteral(", ")));
        trace.insert("status",
                     kubeStatus(422, "Invalid", message,
                                {{"name", nodeName}, {"kind", "Node"}, {"causes", causes}}));
        trace.insert("denial", QJsonObject{{"stage", "validation"}, {"message", message}});
        return trace;
    }

    // Validating admission webhooks (ClusterApi::askValidatingWebhooks): every one is asked;
    // the first refusal in order answers, in kube's words.
    QJsonObject denial;
    if (m_webhooksNotAsked)
        trace.insert("webhooksNotAsked", "admission webhooks are configured but were not asked: "
                                         "asking them needs cluster:write");
    for (const QJsonValue v : m_webhooksNotAsked ? QJsonArray() : m_admissionWebhooks) {
        const QJsonObject w = v.toObject();
        const bool denies = newLabels.contains(str(w, "denyKey"));
        const QString message = denies ? QStringLiteral("admission webhook \"%1\" denied the "
                                                        "request: %2")
                                             .arg(str(w, "name"), str(w, "message"))
                                       : QString();
        admissionSteps.append(QJsonObject{{"plugin", "ValidatingAdmissionWebhook"},
                                          {"webhook", str(w, "name")},
                                          {"decision", denies ? "deny" : "allow"},
                                          {"message", message},
                                          {"latencyMs", w.value("latencyMs").toDouble()},
                                          {"patched", false}});
        if (denies && denial.isEmpty())
            denial =
                QJsonObject{{"stage", "admission"},
                            {"by", QStringLiteral("admission webhook \"%1\"").arg(str(w, "name"))},
                            {"webhook", str(w, "name")},
                            {"message", message}};
    }
    admission.insert("steps", admissionSteps);
    if (!denial.isEmpty()) {
        admission.insert("decision", "deny");
        admission.insert("plugin", "ValidatingAdmissionWebhook");
        admission.insert("webhook", denial.value("webhook"));
        admission.insert("message", denial.value("message"));
        trace.insert("admission", admission);
        trace.insert("code", 400);
        trace.insert("status", kubeStatus(400, "", str(denial, "message")));
        trace.insert("denial", denial);
        return trace;
    }
    trace.insert("admission", admission);
    trace.insert("code", 200);
    return trace;
}

QJsonObject TestAdminServer::performCluster(const QJsonObject &request)
{
    QString error;
    QJsonObject trace = explainCluster(request, &error);
    if (!error.isEmpty())
        return {{"error", error}};
    trace.remove("dryRun");
    const int code = trace.value("code").toInt();
    QJsonValue body = trace.value("status");
    if (code == 200) {
        QJsonObject n = clusterNode(str(request, "node"));
        QJsonObject meta = obj(n, "metadata");
        QJsonObject labels = obj(meta, "labels");
        const QJsonObject patch = request.value("labels").toObject();
        for (auto it = patch.begin(); it != patch.end(); ++it) {
            if (it.value().isNull())
                labels.remove(it.key());
            else
                labels.insert(it.key(), it.value());
        }
        meta.insert("labels", labels);
        n.insert("metadata", meta);
        body = bumpNode(n);
    }
    recordClusterRequest(trace);
    return {{"code", code}, {"body", body}, {"trace", trace}};
}

void TestAdminServer::recordClusterRequest(const QJsonObject &trace)
{
    // ClusterApi::record: the denial's stage and words, who refused, and the near misses.
    const QJsonObject authn = obj(trace, "authentication");
    const QJsonObject user = obj(authn, "user");
    const QJsonObject denial = obj(trace, "denial");
    const int code = trace.value("code").toInt();
    const QString stage = denial.isEmpty() ? QStringLiteral("ok") : str(denial, "stage");
    const QString reason =
        denial.isEmpty() ? str(obj(trace, "authorization"), "reason") : str(denial, "message");
    const QString path = str(trace, "path");
    QJsonObject entry{{"time", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                      {"method", str(trace, "method")},
                      {"path", path},
                      {"user", str(user, "username")},
                      {"groups", user.value("groups")},
                      {"verb", "patch"},
                      {"resource", "nodes"},
                      {"namespace", ""},
                      {"name", path.section(QLatin1Char('/'), 4)},
                      {"code", code},
                      {"verdict", code < 400 ? "allowed" : "denied"},
                      {"stage", stage},
                      {"reason", reason}};
    if (!str(denial, "by").isEmpty())
        entry.insert("deniedBy", str(denial, "by"));
    if (!denial.value("quotes").toArray().isEmpty())
        entry.insert("quotes", denial.value("quotes"));
    if (stage == QLatin1String("authorization"))
        entry.insert("nearMisses", obj(trace, "authorization").value("nearMisses").toArray());
    m_clusterRequests.append(entry);
    sendEvent(QStringLiteral("cluster.requests"), {{"requests", QJsonArray{entry}},
                                                   {"allowed", code < 400 ? 1 : 0},
                                                   {"denied", code < 400 ? 0 : 1}});
}

QJsonArray TestAdminServer::clusterNearMisses(const QString &user, const QStringList &groups,
                                              const QString &verb, const QString &resource,
                                              const QString &name) const
{
    QJsonArray out;
    auto names = [&](const QJsonObject &sub, const QString &bindingNamespace) {
        const QString kind = str(sub, "kind");
        if (kind == QLatin1String("User"))
            return str(sub, "name") == user;
        if (kind == QLatin1String("Group"))
            return groups.contains(str(sub, "name"));
        if (kind == QLatin1String("ServiceAccount")) {
            const QString ns =
                str(sub, "namespace").isEmpty() ? bindingNamespace : str(sub, "namespace");
            return user == QStringLiteral("system:serviceaccount:%1:%2").arg(ns, str(sub, "name"));
        }
        return false;
    };
    // Cluster role bindings by name, then role bindings (any namespace) by namespace and name.
    QList<QJsonObject> bindings = m_clusterRoleBindings;
    bindings.append(m_roleBindings);
    std::stable_sort(bindings.begin(), bindings.end(),
                     [](const QJsonObject &a, const QJsonObject &b) {
                         const QString na = str(obj(a, "metadata"), "namespace");
                         const QString nb = str(obj(b, "metadata"), "namespace");
                         if (na.isEmpty() != nb.isEmpty())
                             return na.isEmpty();
                         return na != nb ? na < nb : nameOf(a) < nameOf(b);
                     });
    for (const QJsonObject &b : std::as_const(bindings)) {
        const QString ns = str(obj(b, "metadata"), "namespace");
        QJsonObject subject;
        for (const QJsonValue s : b.value("subjects").toArray()) {
            if (names(s.toObject(), ns)) {
                subject = QJsonObject{{"kind", str(s.toObject(), "kind")},
                                      {"name", str(s.toObject(), "name")}};
                if (!str(s.toObject(), "namespace").isEmpty())
                    subject.insert("namespace", str(s.toObject(), "namespace"));
                break;
            }
        }
        if (subject.isEmpty())
            continue;
        const QJsonObject roleRef = obj(b, "roleRef");
        QJsonObject n{{"bindingKind", ns.isEmpty() ? "ClusterRoleBinding" : "RoleBinding"},
                      {"bindingName", nameOf(b)},
                      {"roleKind", str(roleRef, "kind")},
                      {"roleName", str(roleRef, "name")},
                      {"subject", subject}};
        if (!ns.isEmpty())
            n.insert("bindingNamespace", ns);
        QJsonObject role;
        const bool namespacedRole = str(roleRef, "kind") == QLatin1String("Role");
        for (const QJsonObject &r : namespacedRole ? m_roles : m_clusterRoles)
            if (nameOf(r) == str(roleRef, "name") &&
                (!namespacedRole || str(obj(r, "metadata"), "namespace") == ns))
                role = r;
        QJsonArray ruleMisses;
        if (!ns.isEmpty()) {
            // (Only cluster-scoped requests come here: nodes.)
            n.insert("code", "namespace");
            n.insert("message",
                     QStringLiteral("a RoleBinding grants only inside namespace \"%1\"; the "
                                    "request is cluster-wide")
                         .arg(ns));
        } else if (role.isEmpty()) {
            n.insert("code", "roleNotFound");
            n.insert("message", QStringLiteral("roleRef names %1 \"%2\", which does not exist")
                                    .arg(str(roleRef, "kind"), str(roleRef, "name")));
        } else {
            const QJsonArray rules = role.value("rules").toArray();
            for (qsizetype i = 0; i < rules.size(); ++i) {
                const QJsonObject r = rules.at(i).toObject();
                QStringList codes;
                QStringList messages;
                const QStringList resources = strings(r.value("resources"));
                const QStringList urls = strings(r.value("nonResourceURLs"));
                if (resources.isEmpty() && !urls.isEmpty()) {
                    codes.append("nonResourceRule");
                    messages.append(QStringLiteral("the rule covers URL paths %1, not resources")
                                        .arg(listText(urls)));
                } else {
                    if (!contains(r.value("verbs"), verb)) {
                        codes.append("verb");
                        messages.append(QStringLiteral("verb \"%1\" is not in %2")
                                            .arg(verb, listText(strings(r.value("verbs")))));
                    }
                    if (!contains(r.value("apiGroups"), QString())) {
                        codes.append("apiGroup");
                        messages.append(QStringLiteral("API group \"\" (core) is not in %1")
                                            .arg(listText(strings(r.value("apiGroups")))));
                    }
                    if (!contains(r.value("resources"), resource)) {
                        codes.append("resource");
                        messages.append(QStringLiteral("resource \"%1\" is not in %2")
                                            .arg(resource, listText(resources)));
                    }
                    const QStringList resourceNames = strings(r.value("resourceNames"));
                    if (!resourceNames.isEmpty() && !resourceNames.contains(name)) {
                        codes.append("resourceName");
                        messages.append(QStringLiteral("name \"%1\" is not in resourceNames %2")
                                            .arg(name, listText(resourceNames)));
                    }
                }
                if (codes.isEmpty())
                    return {}; // RBAC allows it: nothing was missed
                ruleMisses.append(QJsonObject{{"ruleIndex", int(i)},
                                              {"rule", describeRule(r)},
                                              {"codes", QJsonArray::fromStringList(codes)},
                                              {"messages", QJsonArray::fromStringList(messages)}});
            }
            n.insert("code", "noRuleMatches");
            n.insert("message", rules.isEmpty()
                                    ? QStringLiteral("%1 \"%2\" has no rules")
                                          .arg(str(roleRef, "kind"), str(roleRef, "name"))
                                    : QStringLiteral("no rule of %1 \"%2\" allows the request")
                                          .arg(str(roleRef, "kind"), str(roleRef, "name")));
        }
        n.insert("rules", ruleMisses);
        out.append(n);
        if (out.size() >= 20)
            break;
    }
    return out;
}

void TestAdminServer::importClusterRbac(const QJsonObject &object)
{
    const QString kind = str(object, "kind");
    QList<QJsonObject> *pool = kind == QLatin1String("ClusterRole") ? &m_clusterRoles
                               : kind == QLatin1String("ClusterRoleBinding")
                                   ? &m_clusterRoleBindings
                               : kind == QLatin1String("Role")        ? &m_roles
                               : kind == QLatin1String("RoleBinding") ? &m_roleBindings
                                                                      : nullptr;
    if (!pool)
        return;
    const QString ns = str(obj(object, "metadata"), "namespace");
    QString type = QStringLiteral("ADDED");
    for (QJsonObject &existing : *pool) {
        if (nameOf(existing) == nameOf(object) &&
            str(obj(existing, "metadata"), "namespace") == ns) {
            existing = object;
            type = QStringLiteral("MODIFIED");
        }
    }
    if (type == QLatin1String("ADDED"))
        pool->append(object);
    ++m_clusterVersion;
    sendEvent(QStringLiteral("cluster.object.changed"),
              {{"type", type},
               {"resource", kind.toLower() + QLatin1Char('s')},
               {"namespace", ns},
               {"name", nameOf(object)},
               {"resourceVersion", QString::number(m_clusterVersion)}});
}

void TestAdminServer::changeClusterSettings(const QJsonObject &changes)
{
    for (auto it = changes.begin(); it != changes.end(); ++it)
        m_clusterSettings.insert(it.key(), it.value());
    sendEvent(QStringLiteral("cluster.settings.changed"), m_clusterSettings);
}

QJsonObject TestAdminServer::whoCan(const QUrlQuery &query) const
{
    const QString resource = query.queryItemValue("resource");
    const QString ns = query.queryItemValue("namespace");
    const QString group = query.queryItemValue("group");
    QStringList verbs = query.queryItemValue("verbs").split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (verbs.isEmpty())
        verbs = DefaultVerbs;
    // Every subject a binding names (cluster bindings, then role bindings), once.
    QList<QJsonObject> subjects;
    auto collect = [&subjects](const QList<QJsonObject> &bindings) {
        for (const QJsonObject &b : bindings) {
            for (const QJsonValue s : b.value("subjects").toArray()) {
                QJsonObject sub{{"kind", str(s.toObject(), "kind")},
                                {"name", str(s.toObject(), "name")}};
                if (const QString n = str(s.toObject(), "namespace"); !n.isEmpty())
                    sub.insert("namespace", n);
                if (!subjects.contains(sub))
                    subjects.append(sub);
            }
        }
    };
    collect(m_clusterRoleBindings);
    collect(m_roleBindings);
    auto allows = [&](const QJsonObject &sub, const QString &verb) {
        if (str(sub, "kind") == QLatin1String("Group") &&
            str(sub, "name") == QLatin1String("system:masters"))
            return true; // privileged group
        auto grants = [&](const QList<QJsonObject> &bindings, const QList<QJsonObject> &roles,
                          bool namespaced) {
            for (const QJsonObject &b : bindings) {
                if (namespaced && str(obj(b, "metadata"), "namespace") != ns)
                    continue;
                bool named = false;
                for (const QJsonValue s : b.value("subjects").toArray())
                    named = named || (str(s.toObject(), "kind") == str(sub, "kind") &&
                                      str(s.toObject(), "name") == str(sub, "name"));
                if (!named)
                    continue;
                const QString roleName = str(obj(b, "roleRef"), "name");
                const QList<QJsonObject> &pool =
                    str(obj(b, "roleRef"), "kind") == QLatin1String("Role") ? roles
                                                                            : m_clusterRoles;
                for (const QJsonObject &r : pool) {
                    if (nameOf(r) != roleName)
                        continue;
                    for (const QJsonValue rv : r.value("rules").toArray()) {
                        const QJsonObject rl = rv.toObject();
                        if (contains(rl.value("apiGroups"), group) &&
                            contains(rl.value("resources"), resource) &&
                            contains(rl.value("verbs"), verb))
                            return true;
                    }
                }
            }
            return false;
        };
        return grants(m_clusterRoleBindings, {}, false) ||
               (!ns.isEmpty() && grants(m_roleBindings, m_roles, true));
    };
    QJsonArray rows;
    for (QJsonObject sub : std::as_const(subjects)) {
        QJsonObject allowed;
        for (const QString &verb : std::as_const(verbs))
            allowed.insert(verb, allows(sub, verb));
        sub.insert("verbs", allowed);
        rows.append(sub);
    }
    return {
        {"resource", resource}, {"verbs", QJsonArray::fromStringList(verbs)}, {"subjects", rows}};
}

bool TestAdminServer::handleCluster(QTcpSocket *socket, const QByteArray &method,
                                    const QString &path, const QJsonObject &in,
                                    const QUrlQuery &query)
{
    if (!path.startsWith(QLatin1String("/cluster/")))
        return false;
    const bool get = method == "GET";
    const bool post = method == "POST";

    if (get && path == QLatin1String("/cluster/k8s/api/v1/nodes")) {
        respondJson(socket, 200, list("NodeList", "v1", m_nodes, m_clusterVersion));
        return true;
    }
    if (get && path.startsWith(QLatin1String(K8sPrefix) + QLatin1String("/api/v1/nodes/"))) {
        const QString name = path.section(QLatin1Char('/'), 6);
        const QJsonObject n = clusterNode(name);
        if (n.isEmpty())
            respondJson(socket, 404,
                        kubeStatus(404, "NotFound",
                                   QStringLiteral("nodes \"%1\" not found").arg(name),
                                   {{"name", name}, {"kind", "nodes"}}));
        else
            respondJson(socket, 200, n);
        return true;
    }
    if (get && path.startsWith(QLatin1String(RbacPrefix))) {
        const QString resource = path.mid(int(qstrlen(RbacPrefix)));
        if (resource == QLatin1String("clusterroles"))
            respondJson(socket, 200,
                        list("ClusterRoleList", RbacApiVersion, m_clusterRoles, m_clusterVersion));
        else if (resource == QLatin1String("clusterrolebindings"))
            respondJson(socket, 200,
                        list("ClusterRoleBindingList", RbacApiVersion, m_clusterRoleBindings,
                             m_clusterVersion));
        else if (resource == QLatin1String("roles"))
            respondJson(socket, 200, list("RoleList", RbacApiVersion, m_roles, m_clusterVersion));
        else if (resource == QLatin1String("rolebindings"))
            respondJson(socket, 200,
                        list("RoleBindingList", RbacApiVersion, m_roleBindings, m_clusterVersion));
        else
            respondJson(
                socket, 404,
                kubeStatus(404, "NotFound", "the server could not find the requested resource"));
        return true;
    }
    if (post && path == QLatin1String("/cluster/explain")) {
        QString error;
        const QJsonObject trace = explainCluster(in, &error);
        if (!error.isEmpty())
            respondError(socket, 400, "invalid-request", error);
        else
            respondJson(socket, 200, trace);
        return true;
    }
    if (post && path == QLatin1String("/cluster/requests")) {
        const QJsonObject answer = performCluster(in);
        if (answer.contains("error"))
            respondError(socket, 400, "invalid-request", str(answer, "error"));
        else
            respondJson(socket, 200, answer);
        return true;
    }
    if (get && path == QLatin1String("/cluster/requests")) {
        const int limit = query.queryItemValue("limit").toInt();
        const int max = limit > 0 ? std::min(limit, 500) : 200;
        QJsonArray items;
        for (qsizetype i = std::max<qsizetype>(0, m_clusterRequests.size() - max);
             i < m_clusterRequests.size(); ++i)
            items.append(m_clusterRequests.at(i));
        respondJson(socket, 200, {{"items", items}});
        return true;
    }
    if (get && path == QLatin1String("/cluster/who-can")) {
        if (query.queryItemValue("resource").isEmpty())
            respondError(socket, 400, "invalid-request", "give ?resource= (e.g. nodes)");
        else
            respondJson(socket, 200, whoCan(query));
        return true;
    }
    if (post && path == QLatin1String("/cluster/kubeconfigs")) {
        const QString kind = in.value("kind").toString(QStringLiteral("user"));
        const QString name = str(in, "name").trimmed();
        if (kind != QLatin1String("user") && kind != QLatin1String("node")) {
            respondError(socket, 400, "invalid-request", "kind must be \"user\" or \"node\"");
            return true;
        }
        if (name.isEmpty() || name.size() > 200) {
            respondError(socket, 400, "invalid-request", "name must be 1 to 200 characters");
            return true;
        }
        if (kind == QLatin1String("node") && name.startsWith(QLatin1String("system:"))) {
            respondError(socket, 400, "invalid-request",
                         "give the node's name (n1), not the user name");
            return true;
        }
        QStringList groups = strings(in.value("groups"));
        const QString user =
            kind == QLatin1String("node") ? QStringLiteral("system:node:") + name : name;
        if (kind == QLatin1String("node"))
            groups.prepend(QStringLiteral("system:nodes"));
        const QString server = QStringLiteral("https://127.0.0.1:6443");
        auto yaml = [&](const QString &ca, const QString &cert, const QString &key) {
            return QStringLiteral("apiVersion: v1\nkind: Config\nclusters:\n  - name: gatehouse\n"
                                  "    cluster:\n      server: %1\n"
                                  "      certificate-authority-data: %2\ncontexts:\n"
                                  "  - name: %3@gatehouse\n    context:\n      cluster: gatehouse\n"
                                  "      user: %3\ncurrent-context: %3@gatehouse\npreferences: {}\n"
                                  "users:\n  - name: %3\n    user:\n"
                                  "      client-certificate-data: %4\n      client-key-data: %5\n")
                .arg(server, ca, user, cert, key);
        };
        const QString fake =
            QStringLiteral("LS0tLS1CRUdJTiBURVNUIC0tLS0t"); // "-----BEGIN TEST -----"
        QJsonObject answer{{"user", user},
                           {"groups", QJsonArray::fromStringList(groups)},
                           {"server", server},
                           {"expiresAt", iso(QDateTime::currentDateTimeUtc().addDays(365))},
                           {"kubeconfig", yaml(fake + "Q0E=", fake + "Q0VSVA==", fake + "S0VZ")},
                           {"redacted", yaml("DATA+OMITTED", "DATA+OMITTED", "DATA+OMITTED")}};
        respondJson(socket, 201, answer);
        return true;
    }
    if (path == QLatin1String("/cluster/settings")) {
        if (get) {
            respondJson(socket, 200, m_clusterSettings);
            return true;
        }
        if (method == "PUT") {
            static const QStringList modes{"Node", "RBAC", "AlwaysAllow", "AlwaysDeny"};
            QJsonObject next = m_clusterSettings;
            for (auto it = in.begin(); it != in.end(); ++it) {
                if (it.key() == QLatin1String("anonymousAuth")) {
                    if (!it.value().isBool()) {
                        respondError(socket, 400, "invalid-setting",
                                     "anonymousAuth must be true or false");
                        return true;
                    }
                } else if (it.key() == QLatin1String("authorizationModes")) {
                    for (const QString &m : strings(it.value())) {
                        if (!modes.contains(m)) {
                            respondError(
                                socket, 400, "invalid-setting",
                                QStringLiteral("authorization-mode \"%1\" is not supported "
                                               "(supported: Node, RBAC, AlwaysAllow, "
                                               "AlwaysDeny)")
                                    .arg(m));
                            return true;
                        }
                    }
                } else if (it.key() != QLatin1String("admissionPlugins")) {
                    respondError(socket, 400, "invalid-setting",
                                 QStringLiteral("unknown setting \"%1\" (known: anonymousAuth, "
                                                "authorizationModes, admissionPlugins)")
                                     .arg(it.key()));
                    return true;
                }
                next.insert(it.key(), it.value());
            }
            m_clusterSettings = next;
            sendEvent(QStringLiteral("cluster.settings.changed"), m_clusterSettings);
            respondJson(socket, 200, m_clusterSettings);
            return true;
        }
    }
    respondJson(socket, 404,
                kubeStatus(404, "NotFound", "the server could not find the requested resource"));
    return true;
}
