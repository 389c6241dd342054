#pragma once

#include "cluster/rbac.h"
#include "cluster/requestinfo.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace Gatehouse::Cluster {

enum class Decision { Allow, Deny, NoOpinion };

// One authorizer's say on a request, kept for the verdict explanation.
struct AuthorizerStep
{
    QString authorizer; // "privileged-group", "Node", "RBAC", "AlwaysAllow", "AlwaysDeny"
    Decision decision = Decision::NoOpinion;
    QString reason;
};

struct AuthorizationResult
{
    Decision decision = Decision::NoOpinion; // Allow, or Deny/NoOpinion (both refuse)
    QString reason;                          // the joined non-empty reasons when refused
    QString decidedBy;                       // the authorizer that allowed or denied
    RbacDecision rbac;                       // when RBAC allowed
    QList<NearMiss> nearMisses;              // when refused: bindings naming the user, and why
    QList<AuthorizerStep> steps;

    bool allowed() const { return decision == Decision::Allow; }
};

// Which node a pod is bound to (spec.nodeName), for the Node authorizer's graph.
using PodNodeLookup = std::function<QString(const QString &namespaceName, const QString &podName)>;

// The Node authorizer (reference kube.md §3.5) for users system:node:<name> in system:nodes.
AuthorizerStep authorizeNode(const Attributes &a, const PodNodeLookup &podNode);
// "n1" for a node user, "" for anyone else; isNodeUser tells the two apart.
bool isNodeUser(const UserInfo &user, QString *nodeName = nullptr);

// The configured chain: the system:masters group first, then the modes in order.
class AuthorizerChain
{
public:
    static QStringList supportedModes();
    // Refuses unknown modes, duplicates and a list without RBAC (the reference's rule).
    static QString validateModes(const QStringList &modes);

    AuthorizerChain(QStringList modes, std::shared_ptr<const RbacPolicy> rbac,
                    PodNodeLookup podNode);
    AuthorizationResult authorize(const Attributes &a) const;
    const RbacPolicy &rbac() const { return *m_rbac; }
    const QStringList &modes() const { return m_modes; }

private:
    QStringList m_modes;
    std::shared_ptr<const RbacPolicy> m_rbac;
    PodNodeLookup m_podNode;
};

// The 403 text Kubernetes writes for a refused request: the "User ... cannot ..." part,
// '&' '<' '>' replaced by entities, then ": " + reason when there is one.
QString forbiddenMessage(const Attributes &a, const QString &reason);

} // namespace Gatehouse::Cluster
