#pragma once

#include "cluster/requestinfo.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVarLengthArray>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace Gatehouse::Cluster {

struct PolicyRule
{
    QStringList verbs;
    QStringList apiGroups;
    QStringList resources;
    QStringList resourceNames;
    QStringList nonResourceURLs;

    static PolicyRule fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    // Kubernetes' RuleAllows (reference kube.md §3.3).
    bool allows(const Attributes &a) const;
    // "verbs=[get list] resources=[nodes]" for explanations.
    QString describe() const;
};

struct RbacSubject
{
    QString kind; // User, Group, ServiceAccount
    QString apiGroup;
    QString name;
    QString namespaceName;
};

struct RoleRef
{
    QString apiGroup;
    QString kind; // Role or ClusterRole
    QString name;
};

struct RbacRole
{
    QString namespaceName; // empty: a ClusterRole
    QString name;
    QList<PolicyRule> rules;
};

struct RbacBinding
{
    QString namespaceName; // empty: a ClusterRoleBinding
    QString name;
    RoleRef roleRef;
    QList<RbacSubject> subjects;
};

// Reads the Kubernetes JSON form of the four RBAC kinds.
RbacRole roleFromJson(const QJsonObject &object);
RbacBinding bindingFromJson(const QJsonObject &object);
// The roles of a policy from stored Roles and ClusterRoles, with each ClusterRole that has an
// aggregationRule given the rules of the ClusterRoles its clusterRoleSelectors pick (by name,
// itself excepted, each rule once), as kube's clusterrole-aggregation controller writes them;
// chains (an aggregated role picking another) are followed until nothing changes.
QList<RbacRole> rolesFromJson(const QList<QJsonObject> &objects);
// The aggregated ClusterRoles among `objects` whose stored `rules` are not what their selectors
// gather (rolesFromJson), by name, with the rules to write: what kube's controller writes back,
// so that the object shows what it grants.
QHash<QString, QJsonArray> aggregatedRulesToWrite(const QList<QJsonObject> &objects);
// The rules that stand for cluster-admin: what setting an aggregationRule needs (it can
// gather anything).
const QList<PolicyRule> &fullAuthority();

struct RbacDecision
{
    bool allowed = false;
    QString
        reason; // "RBAC: allowed by ClusterRoleBinding \"b\" of ClusterRole \"r\" to Group \"g\""
    QString bindingKind; // ClusterRoleBinding or RoleBinding
    QString bindingNamespace;
    QString bindingName;
    QString roleKind;
    QString roleName;
    int ruleIndex = -1;
    RbacSubject subject;
    int bindingIndex = -1;
};

// Why one rule of a role does not allow a request: codes "verb", "apiGroup", "resource",
// "resourceName", "nonResourceURL", "resourceRule" (a resource rule for a URL path),
// "nonResourceRule" (a URL rule for a resource request), each with a sentence.
struct RuleMiss
{
    int ruleIndex = -1;
    QString rule; // PolicyRule::describe()
    QStringList codes;
    QStringList messages;
};

// A binding that names the subject (its user, a group or its service account) but does not
// allow the request, and why: code "namespace" (a RoleBinding of another namespace),
// "roleNotFound" (roleRef to a missing role) or "noRuleMatches" (with each rule's misses).
struct NearMiss
{
    QString bindingKind; // ClusterRoleBinding or RoleBinding
    QString bindingNamespace;
    QString bindingName;
    QString roleKind;
    QString roleName;
    RbacSubject subject; // the subject entry that names the requester
    QString code;
    QString message;
    QList<RuleMiss> rules;
    QJsonObject toJson() const;
};

// Effective access, the who-can matrix read the other way: one verb on one resource (or URL)
// in one scope that a subject holds, and every binding rule behind it. Wildcards stay "*".
struct AccessCell
{
    QString namespaceName; // empty: cluster-wide (a ClusterRoleBinding)
    QString verb;
    QString apiGroup; // resource cells
    QString resource; // "pods", "pods/status", "*"
    QStringList resourceNames;
    QString nonResourceURL; // URL cells
    struct Source
    {
        QString bindingKind;
        QString bindingNamespace;
        QString bindingName;
        QString roleKind;
        QString roleName;
        int ruleIndex = -1;
        RbacSubject subject;
    };
    QList<Source> via;
    QJsonObject toJson() const;
};

// One immutable snapshot of every role and binding, indexed by subject so a decision looks
// only at the bindings that name the user, one of its groups or its service account.
class RbacPolicy
{
public:
    RbacPolicy(QList<RbacRole> roles, QList<RbacBinding> bindings);

    // The decision; the binding's names, the subject and the reason text only with withReason
    // (describing costs more than deciding).
    RbacDecision authorize(const Attributes &attributes, bool withReason = true) const;
    // The denial explainer: every binding (any namespace) naming the requester that does not
    // allow the request, each with why, at most `limit`. Empty when RBAC allows it.
    QList<NearMiss> nearMisses(const Attributes &attributes, int limit = 20) const;
    // Every verb x resource (and URL) the user holds through RBAC, in every namespace, each
    // with the bindings and rules behind it; sorted by scope, resource, verb.
    QList<AccessCell> effectiveAccess(const UserInfo &user) const;
    // Why rule does not allow attributes; empty codes when it does.
    static RuleMiss ruleMiss(const PolicyRule &rule, const Attributes &attributes);
    // "RBAC: allowed by ClusterRoleBinding ... to Group ..." for an allowing decision.
    QString reasonFor(const RbacDecision &decision) const;
    // Every rule that applies to user in namespace (cluster-wide only when ns is empty):
    // what SelfSubjectRulesReview lists and what escalation checks compare against.
    QList<PolicyRule> rulesFor(const UserInfo &user, const QString &namespaceName) const;
    const RbacRole *role(const QString &namespaceName, const QString &name) const;
    const RbacRole *roleFor(const RoleRef &ref, const QString &bindingNamespace) const;
    const QList<RbacBinding> &bindings() const { return m_bindings; }
    const QList<RbacRole> &roles() const { return m_roles; }

    static bool subjectMatches(const RbacSubject &s, const UserInfo &user,
                               const QString &bindingNamespace);

private:
    // Binding indices naming the user or one of its groups, in evaluation order.
    void candidates(const UserInfo &user, const QString &namespaceName,
                    QVarLengthArray<int, 32> *out) const;

    // Hash maps keyed by UTF-16 text with lookups by view. Measured on this machine's CPU,
    // QHash<QString> costs ~145 ns a lookup (Qt 6.4's AES string hash followed by SSE code
    // stalls), std::hash over the same characters ~10 ns; a decision makes up to seven.
    struct ViewHash
    {
        using is_transparent = void;
        size_t operator()(std::u16string_view v) const noexcept
        {
            return std::hash<std::u16string_view>{}(v);
        }
    };
    struct ViewEqual
    {
        using is_transparent = void;
        bool operator()(std::u16string_view a, std::u16string_view b) const noexcept
        {
            return a.size() == b.size() &&
                   std::memcmp(a.data(), b.data(), a.size() * sizeof(char16_t)) == 0;
        }
    };
    template <typename T>
    using StringMap = std::unordered_map<std::u16string, T, ViewHash, ViewEqual>;
    static std::u16string_view view(const QString &s)
    {
        // constData(), not utf16(): utf16() reallocates static strings, a race across threads.
        return {reinterpret_cast<const char16_t *>(s.constData()), size_t(s.size())};
    }

    // Bindings by the user name (service accounts included) and by group.
    struct SubjectIndex
    {
        StringMap<QList<int>> users;
        StringMap<QList<int>> groups;
    };

    QList<RbacRole> m_roles;
    QList<RbacBinding> m_bindings;
    QList<const RbacRole *> m_bindingRoles; // the role each binding references, or null
    StringMap<StringMap<int>> m_roleIndex;  // namespace ("" for cluster roles) -> name -> index
    SubjectIndex m_cluster;                 // ClusterRoleBindings
    StringMap<SubjectIndex> m_namespaced;   // RoleBindings by namespace
};

// Kubernetes' escalation check: true when every rule in `wanted` is covered by `owned`.
// uncovered receives the rules (split to single verbs/resources) that are not.
bool rulesCover(const QList<PolicyRule> &owned, const QList<PolicyRule> &wanted,
                QList<PolicyRule> *uncovered = nullptr);

// The bootstrap ClusterRoles and ClusterRoleBindings of kube-apiserver (reference kube.md
// §3.4), as JSON objects ready for the store.
QList<QJsonObject> bootstrapClusterRoles();
// Rules of bootstrap ClusterRoles as an earlier version stored them, by name: a role stored
// exactly so (and still marked autoupdate) is given today's rules at start.
QHash<QString, QJsonArray> supersededBootstrapRules();
QList<QJsonObject> bootstrapClusterRoleBindings();

// What `user` holds through `policy` beyond what the bootstrap roles and bindings alone give
// it (a binding to system:authenticated gives every signed-in user what its role allows): the
// first such cell, described ("list pods in namespace \"team\" (RoleBinding \"all-view\" in
// namespace \"team\")"); empty when it holds nothing more. Cells compare exactly: a wildcard
// where the defaults name a verb or resource counts as more (fail closed).
QString accessBeyondDefaults(const RbacPolicy &policy, const UserInfo &user);

} // namespace Gatehouse::Cluster
