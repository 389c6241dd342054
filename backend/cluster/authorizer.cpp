#include "cluster/authorizer.h"

namespace Gatehouse::Cluster {

bool isNodeUser(const UserInfo &user, QString *nodeName)
{
    if (!user.name.startsWith(QLatin1String(kNodeUserPrefix)) ||
        !user.groups.contains(QLatin1String(kNodesGroup)))
        return false;
    if (nodeName)
        *nodeName = user.name.mid(int(qstrlen(kNodeUserPrefix)));
    return true;
}

namespace {

AuthorizerStep step(Decision d, const QString &reason = QString())
{
    return AuthorizerStep{QStringLiteral("Node"), d, reason};
}

bool in(const QString &v, std::initializer_list<const char *> list)
{
    for (const char *s : list)
        if (v == QLatin1String(s))
            return true;
    return false;
}

// The node-independent part of the Node authorizer (its static rules).
bool staticNodeRuleAllows(const Attributes &a)
{
    const QString &g = a.apiGroup;
    const QString res = a.resourceWithSubresource();
    if (g.isEmpty()) {
        if (res == QLatin1String("services"))
            return in(a.verb, {"get", "list", "watch"});
        if (res == QLatin1String("events"))
            return in(a.verb, {"create", "update", "patch"});
        if (res == QLatin1String("endpoints"))
            return a.verb == QLatin1String("get");
        return false;
    }
    if (g == QLatin1String("events.k8s.io") && res == QLatin1String("events"))
        return in(a.verb, {"create", "update", "patch"});
    if (g == QLatin1String("certificates.k8s.io") &&
        res == QLatin1String("certificatesigningrequests"))
        return in(a.verb, {"create", "get", "list", "watch"});
    if (g == QLatin1String("authentication.k8s.io") && res == QLatin1String("tokenreviews"))
        return a.verb == QLatin1String("create");
    if (g == QLatin1String("authorization.k8s.io") &&
        in(res, {"subjectaccessreviews", "localsubjectaccessreviews"}))
        return a.verb == QLatin1String("create");
    if ((g == QLatin1String("storage.k8s.io") && res == QLatin1String("csidrivers")) ||
        (g == QLatin1String("node.k8s.io") && res == QLatin1String("runtimeclasses")))
        return in(a.verb, {"get", "list", "watch"});
    return false;
}

QString fieldSelectorValue(const QString &selector, const QString &field)
{
    for (const QString &req : selector.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString r = req.trimmed();
        for (const QString &op : {QStringLiteral("=="), QStringLiteral("=")})
            if (r.startsWith(field + op))
                return r.mid(field.size() + op.size());
    }
    return {};
}

} // namespace

AuthorizerStep authorizeNode(const Attributes &a, const PodNodeLookup &podNode)
{
    QString node;
    if (!isNodeUser(a.user, &node))
        return step(Decision::NoOpinion);
    if (node.isEmpty())
        return step(Decision::NoOpinion,
                    QStringLiteral("unknown node for user \"%1\"").arg(a.user.name));
    if (!a.resourceRequest)
        return step(Decision::NoOpinion);
    if (a.apiGroup.isEmpty() && a.resource == QLatin1String("nodes")) {
        if (a.subresource.isEmpty()) {
            if (in(a.verb, {"get", "list", "watch"})) {
                if (a.name.isEmpty())
                    return step(Decision::NoOpinion,
                                QStringLiteral("node '%1' cannot read all nodes, only its own "
                                               "Node object")
                                    .arg(node));
                if (a.name != node)
                    return step(Decision::NoOpinion,
                                QStringLiteral("node '%1' cannot read '%2', only its own Node "
                                               "object")
                                    .arg(node, a.name));
                return step(Decision::Allow);
            }
            if (in(a.verb, {"create", "update", "patch"}))
                return step(Decision::Allow);
            return step(Decision::NoOpinion);
        }
        if (a.subresource == QLatin1String("status") && in(a.verb, {"update", "patch"}))
            return step(Decision::Allow);
        return step(Decision::NoOpinion);
    }
    if (a.apiGroup.isEmpty() && a.resource == QLatin1String("pods")) {
        if (a.subresource.isEmpty()) {
            if (in(a.verb, {"create", "delete"}))
                return step(Decision::Allow); // NodeRestriction narrows these
            if (a.verb == QLatin1String("get")) {
                if (podNode && podNode(a.namespaceName, a.name) == node)
                    return step(Decision::Allow);
                return step(Decision::NoOpinion,
                            QStringLiteral("no relationship found between node '%1' and this "
                                           "object")
                                .arg(node));
            }
            if (in(a.verb, {"list", "watch"})) {
                if (fieldSelectorValue(a.fieldSelector, QStringLiteral("spec.nodeName")) == node)
                    return step(Decision::Allow);
                return step(Decision::NoOpinion,
                            QStringLiteral("can only list/watch pods with spec.nodeName field "
                                           "selector"));
            }
            return step(Decision::NoOpinion);
        }
        if (a.subresource == QLatin1String("status") && in(a.verb, {"update", "patch"}))
            return step(Decision::Allow);
        if (a.subresource == QLatin1String("eviction") && a.verb == QLatin1String("create"))
            return step(Decision::Allow);
        return step(Decision::NoOpinion);
    }
    if (a.apiGroup.isEmpty() &&
        in(a.resource, {"secrets", "configmaps", "persistentvolumeclaims", "persistentvolumes"}))
        return step(
            Decision::NoOpinion,
            QStringLiteral("no relationship found between node '%1' and this object").arg(node));
    if (a.apiGroup == QLatin1String("coordination.k8s.io") &&
        a.resource == QLatin1String("leases")) {
        if (a.namespaceName == QLatin1String("kube-node-lease") &&
            in(a.verb, {"get", "create", "update", "patch", "delete"}) &&
            (a.name == node || a.verb == QLatin1String("create")))
            return step(Decision::Allow);
        return step(Decision::NoOpinion);
    }
    return step(staticNodeRuleAllows(a) ? Decision::Allow : Decision::NoOpinion);
}

QStringList AuthorizerChain::supportedModes()
{
    return {QStringLiteral("Node"), QStringLiteral("RBAC"), QStringLiteral("AlwaysAllow"),
            QStringLiteral("AlwaysDeny")};
}

QString AuthorizerChain::validateModes(const QStringList &modes)
{
    if (modes.isEmpty())
        return QStringLiteral("authorization-mode must list at least one mode");
    QStringList seen;
    for (const QString &m : modes) {
        if (!supportedModes().contains(m))
            return QStringLiteral("authorization-mode \"%1\" is not supported (supported: %2)")
                .arg(m, supportedModes().join(QStringLiteral(", ")));
        if (seen.contains(m))
            return QStringLiteral("authorization-mode \"%1\" is listed twice").arg(m);
        seen.append(m);
    }
    if (!modes.contains(QStringLiteral("RBAC")))
        return QStringLiteral("authorization-mode must include RBAC (given: %1)")
            .arg(modes.join(QLatin1Char(',')));
    return {};
}

AuthorizerChain::AuthorizerChain(QStringList modes, std::shared_ptr<const RbacPolicy> rbac,
                                 PodNodeLookup podNode)
    : m_modes(std::move(modes)), m_rbac(std::move(rbac)), m_podNode(std::move(podNode))
{}

AuthorizationResult AuthorizerChain::authorize(const Attributes &a) const
{
    AuthorizationResult result;
    if (a.user.groups.contains(QLatin1String(kMastersGroup))) {
        result.decision = Decision::Allow;
        result.decidedBy = QStringLiteral("privileged-group");
        result.steps.append(AuthorizerStep{QStringLiteral("privileged-group"), Decision::Allow,
                                           QStringLiteral("member of system:masters")});
        return result;
    }
    QStringList reasons;
    for (const QString &mode : m_modes) {
        AuthorizerStep s;
        if (mode == QLatin1String("Node")) {
            s = authorizeNode(a, m_podNode);
        } else if (mode == QLatin1String("RBAC")) {
            s.authorizer = mode;
            result.rbac = m_rbac->authorize(a);
            if (result.rbac.allowed) {
                s.decision = Decision::Allow;
                s.reason = result.rbac.reason;
            }
        } else if (mode == QLatin1String("AlwaysAllow")) {
            s = AuthorizerStep{mode, Decision::Allow, QString()};
        } else if (mode == QLatin1String("AlwaysDeny")) {
            s = AuthorizerStep{mode, Decision::Deny, QStringLiteral("Everything is forbidden.")};
        }
        result.steps.append(s);
        if (s.decision == Decision::Allow) {
            result.decision = Decision::Allow;
            result.decidedBy = mode;
            result.reason = s.reason;
            return result;
        }
        if (!s.reason.isEmpty())
            reasons.append(s.reason);
        if (s.decision == Decision::Deny) {
            result.decision = Decision::Deny;
            result.decidedBy = mode;
            break;
        }
    }
    result.reason = reasons.join(QLatin1Char('\n'));
    // The denial explainer: which bindings name the user and why none of them applies.
    if (m_modes.contains(QLatin1String("RBAC")))
        result.nearMisses = m_rbac->nearMisses(a);
    return result;
}

QString forbiddenMessage(const Attributes &a, const QString &reason)
{
    QString msg;
    if (!a.resourceRequest) {
        msg = QStringLiteral("User \"%1\" cannot %2 path \"%3\"").arg(a.user.name, a.verb, a.path);
    } else {
        msg = QStringLiteral("User \"%1\" cannot %2 resource \"%3\" in API group \"%4\"")
                  .arg(a.user.name, a.verb, a.resourceWithSubresource(), a.apiGroup);
        msg += a.namespaceName.isEmpty()
                   ? QStringLiteral(" at the cluster scope")
                   : QStringLiteral(" in the namespace \"%1\"").arg(a.namespaceName);
    }
    msg.replace(QLatin1Char('&'), QStringLiteral("&amp;"))
        .replace(QLatin1Char('<'), QStringLiteral("&lt;"))
        .replace(QLatin1Char('>'), QStringLiteral("&gt;"));
    if (!reason.isEmpty())
        msg += QStringLiteral(": ") + reason;
    return msg;
}

} // namespace Gatehouse::Cluster
