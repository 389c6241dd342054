#include "cluster/rbac.h"

#include "cluster/admissionwebhooks.h"

#include <QJsonArray>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <map>

namespace Gatehouse::Cluster {

namespace {

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue e : v.toArray())
        out.append(e.toString());
    return out;
}

QJsonArray array(const QStringList &l)
{
    return QJsonArray::fromStringList(l);
}

bool isStar(const QString &s)
{
    return s.size() == 1 && s.front() == u'*';
}

// The hot path of every decision: size-first comparisons, no temporary strings.
bool hasOrStar(const QStringList &list, const QString &value)
{
    for (const QString &s : list)
        if (isStar(s) || s == value)
            return true;
    return false;
}

bool resourceMatches(const QStringList &resources, const QString &resource,
                     const QString &subresource)
{
    const qsizetype combinedSize =
        subresource.isEmpty() ? resource.size() : resource.size() + 1 + subresource.size();
    for (const QString &r : resources) {
        if (isStar(r))
            return true;
        if (r.size() == combinedSize) {
            if (subresource.isEmpty()) {
                if (r == resource)
                    return true;
            } else if (r.startsWith(resource) && r.at(resource.size()) == u'/' &&
                       r.endsWith(subresource)) {
                return true;
            }
        }
        // "*/status" matches every resource's status subresource.
        if (!subresource.isEmpty() && r.size() == subresource.size() + 2 &&
            r.startsWith(QLatin1String("*/")) && r.endsWith(subresource))
            return true;
    }
    return false;
}

bool nonResourceMatches(const QStringList &urls, const QString &path)
{
    for (const QString &u : urls) {
        if (isStar(u) || u == path)
            return true;
        if (u.endsWith(QLatin1Char('*')) && path.startsWith(QStringView(u).chopped(1)))
            return true;
    }
    return false;
}

QString describeSubject(const RbacSubject &s)
{
    if (s.kind == QLatin1String("ServiceAccount"))
        return QStringLiteral("ServiceAccount \"%1/%2\"").arg(s.namespaceName, s.name);
    return QStringLiteral("%1 \"%2\"").arg(s.kind, s.name);
}

} // namespace

PolicyRule PolicyRule::fromJson(const QJsonObject &o)
{
    PolicyRule r;
    r.verbs = strings(o.value(QLatin1String("verbs")));
    r.apiGroups = strings(o.value(QLatin1String("apiGroups")));
    r.resources = strings(o.value(QLatin1String("resources")));
    r.resourceNames = strings(o.value(QLatin1String("resourceNames")));
    r.nonResourceURLs = strings(o.value(QLatin1String("nonResourceURLs")));
    return r;
}

QJsonObject PolicyRule::toJson() const
{
    QJsonObject o{{QStringLiteral("verbs"), array(verbs)}};
    if (!apiGroups.isEmpty())
        o.insert(QStringLiteral("apiGroups"), array(apiGroups));
    if (!resources.isEmpty())
        o.insert(QStringLiteral("resources"), array(resources));
    if (!resourceNames.isEmpty())
        o.insert(QStringLiteral("resourceNames"), array(resourceNames));
    if (!nonResourceURLs.isEmpty())
        o.insert(QStringLiteral("nonResourceURLs"), array(nonResourceURLs));
    return o;
}

bool PolicyRule::allows(const Attributes &a) const
{
    if (!hasOrStar(verbs, a.verb))
        return false;
    if (!a.resourceRequest)
        return nonResourceMatches(nonResourceURLs, a.path);
    if (!hasOrStar(apiGroups, a.apiGroup) || !resourceMatches(resources, a.resource, a.subresource))
        return false;
    return resourceNames.isEmpty() || (!a.name.isEmpty() && resourceNames.contains(a.name));
}

QString PolicyRule::describe() const
{
    QStringList parts;
    auto add = [&parts](const char *label, QStringList l) {
        if (l.isEmpty())
            return;
        for (QString &s : l)
            if (s.isEmpty())
                s = QStringLiteral("\"\""); // the core group
        parts.append(QStringLiteral("%1=[%2]").arg(QLatin1String(label), l.join(' ')));
    };
    add("verbs", verbs);
    add("apiGroups", apiGroups);
    add("resources", resources);
    add("resourceNames", resourceNames);
    add("nonResourceURLs", nonResourceURLs);
    return parts.join(' ');
}

RbacRole roleFromJson(const QJsonObject &object)
{
    RbacRole role;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    role.name = meta.value(QLatin1String("name")).toString();
    role.namespaceName = meta.value(QLatin1String("namespace")).toString();
    for (const QJsonValue r : object.value(QLatin1String("rules")).toArray())
        role.rules.append(PolicyRule::fromJson(r.toObject()));
    return role;
}

QList<RbacRole> rolesFromJson(const QList<QJsonObject> &objects)
{
    QList<RbacRole> roles;
    roles.reserve(objects.size());
    struct Aggregated
    {
        qsizetype index;
        QList<LabelSelector> selectors;
    };
    QList<Aggregated> aggregated;
    // ClusterRoles by name, as the controller lists them.
    std::map<QString, std::pair<qsizetype, QJsonObject>> clusterRoles;
    for (const QJsonObject &o : objects) {
        roles.append(roleFromJson(o));
        if (!roles.last().namespaceName.isEmpty())
            continue;
        const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
        clusterRoles[roles.last().name] = {roles.size() - 1,
                                           meta.value(QLatin1String("labels")).toObject()};
        const QJsonValue rule = o.value(QLatin1String("aggregationRule"));
        if (!rule.isObject())
            continue;
        Aggregated a{roles.size() - 1, {}};
        for (const QJsonValue sel :
             rule.toObject().value(QLatin1String("clusterRoleSelectors")).toArray())
            a.selectors.append(LabelSelector::fromJson(sel.toObject()));
        aggregated.append(std::move(a));
    }
    const auto same = [](const PolicyRule &x, const PolicyRule &y) {
        return x.verbs == y.verbs && x.apiGroups == y.apiGroups && x.resources == y.resources &&
               x.resourceNames == y.resourceNames && x.nonResourceURLs == y.nonResourceURLs;
    };
    // Each round takes the rules the picked roles have after the last one; a chain as long as
    // the number of aggregated roles settles, and a cycle stops growing once it holds them all.
    // Every aggregated role starts empty, not from its stored rules: those are what was
    // gathered last (aggregatedRulesToWrite writes them back), and in a cycle (A picks B, B
    // picks A) they would hand each other a rule whose source has lost its label for ever.
    for (const Aggregated &a : std::as_const(aggregated))
        roles[a.index].rules.clear();
    for (qsizetype round = 0; round <= aggregated.size(); ++round) {
        bool changed = false;
        for (const Aggregated &a : std::as_const(aggregated)) {
            QList<PolicyRule> rules;
            for (const auto &[name, picked] : clusterRoles) {
                if (picked.first == a.index)
                    continue;
                const QJsonObject &labels = picked.second;
                const bool selected =
                    std::any_of(a.selectors.cbegin(), a.selectors.cend(),
                                [&labels](const LabelSelector &s) { return s.matches(labels); });
                if (!selected)
                    continue;
                for (const PolicyRule &r : std::as_const(roles[picked.first].rules))
                    if (std::none_of(rules.cbegin(), rules.cend(),
                                     [&](const PolicyRule &x) { return same(x, r); }))
                        rules.append(r);
            }
            const QList<PolicyRule> &now = roles[a.index].rules;
            if (rules.size() != now.size() ||
                !std::equal(rules.cbegin(), rules.cend(), now.cbegin(), same)) {
                roles[a.index].rules = rules;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    return roles;
}

QHash<QString, QJsonArray> aggregatedRulesToWrite(const QList<QJsonObject> &objects)
{
    QHash<QString, QJsonArray> out;
    const QList<RbacRole> roles = rolesFromJson(objects); // in the order of `objects`
    for (qsizetype i = 0; i < objects.size() && i < roles.size(); ++i) {
        const QJsonObject &o = objects[i];
        if (!roles[i].namespaceName.isEmpty() ||
            !o.value(QLatin1String("aggregationRule")).isObject())
            continue;
        QJsonArray gathered;
        for (const PolicyRule &r : roles[i].rules)
            gathered.append(r.toJson());
        // Compared as this server writes rules (empty lists left out).
        QJsonArray stored;
        for (const QJsonValue r : o.value(QLatin1String("rules")).toArray())
            stored.append(PolicyRule::fromJson(r.toObject()).toJson());
        if (stored != gathered || !o.value(QLatin1String("rules")).isArray())
            out.insert(roles[i].name, gathered);
    }
    return out;
}

const QList<PolicyRule> &fullAuthority()
{
    static const QList<PolicyRule> rules{
        PolicyRule{{QStringLiteral("*")}, {QStringLiteral("*")}, {QStringLiteral("*")}, {}, {}},
        PolicyRule{{QStringLiteral("*")}, {}, {}, {}, {QStringLiteral("*")}}};
    return rules;
}

RbacBinding bindingFromJson(const QJsonObject &object)
{
    RbacBinding b;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    b.name = meta.value(QLatin1String("name")).toString();
    b.namespaceName = meta.value(QLatin1String("namespace")).toString();
    const QJsonObject ref = object.value(QLatin1String("roleRef")).toObject();
    b.roleRef = RoleRef{ref.value(QLatin1String("apiGroup")).toString(),
                        ref.value(QLatin1String("kind")).toString(),
                        ref.value(QLatin1String("name")).toString()};
    for (const QJsonValue v : object.value(QLatin1String("subjects")).toArray()) {
        const QJsonObject s = v.toObject();
        RbacSubject subject{s.value(QLatin1String("kind")).toString(),
                            s.value(QLatin1String("apiGroup")).toString(),
                            s.value(QLatin1String("name")).toString(),
                            s.value(QLatin1String("namespace")).toString()};
        // A RoleBinding's service account without a namespace is in the binding's.
        if (subject.kind == QLatin1String("ServiceAccount") && subject.namespaceName.isEmpty())
            subject.namespaceName = b.namespaceName;
        b.subjects.append(subject);
    }
    return b;
}

RbacPolicy::RbacPolicy(QList<RbacRole> roles, QList<RbacBinding> bindings)
    : m_roles(std::move(roles)), m_bindings(std::move(bindings))
{
    // Deterministic evaluation order: cluster-wide bindings first, each kind by name.
    std::stable_sort(m_bindings.begin(), m_bindings.end(),
                     [](const RbacBinding &a, const RbacBinding &b) {
                         if (a.namespaceName.isEmpty() != b.namespaceName.isEmpty())
                             return a.namespaceName.isEmpty();
                         if (a.namespaceName != b.namespaceName)
                             return a.namespaceName < b.namespaceName;
                         return a.name < b.name;
                     });
    for (int i = 0; i < m_roles.size(); ++i)
        m_roleIndex[std::u16string(view(m_roles[i].namespaceName))]
                   [std::u16string(view(m_roles[i].name))] = i;
    m_bindingRoles.reserve(m_bindings.size());
    for (int i = 0; i < m_bindings.size(); ++i) {
        const RbacBinding &b = m_bindings[i];
        m_bindingRoles.append(roleFor(b.roleRef, b.namespaceName));
        SubjectIndex &index = b.namespaceName.isEmpty()
                                  ? m_cluster
                                  : m_namespaced[std::u16string(view(b.namespaceName))];
        for (const RbacSubject &s : b.subjects) {
            QList<int> *list = nullptr;
            if (s.kind == QLatin1String("ServiceAccount"))
                list =
                    &index.users[std::u16string(view(QLatin1String(kServiceAccountPrefix) +
                                                     s.namespaceName + QLatin1Char(':') + s.name))];
            else if (s.kind == QLatin1String("User"))
                list = &index.users[std::u16string(view(s.name))];
            else if (s.kind == QLatin1String("Group"))
                list = &index.groups[std::u16string(view(s.name))];
            if (list && (list->isEmpty() || list->last() != i))
                list->append(i);
        }
    }
}

const RbacRole *RbacPolicy::role(const QString &namespaceName, const QString &name) const
{
    const auto ns = m_roleIndex.find(view(namespaceName));
    if (ns == m_roleIndex.end())
        return nullptr;
    const auto it = ns->second.find(view(name));
    return it == ns->second.end() ? nullptr : &m_roles[it->second];
}

const RbacRole *RbacPolicy::roleFor(const RoleRef &ref, const QString &bindingNamespace) const
{
    if (ref.kind == QLatin1String("ClusterRole"))
        return role(QString(), ref.name);
    if (ref.kind == QLatin1String("Role") && !bindingNamespace.isEmpty())
        return role(bindingNamespace, ref.name);
    return nullptr;
}

bool RbacPolicy::subjectMatches(const RbacSubject &s, const UserInfo &user,
                                const QString &bindingNamespace)
{
    if (s.kind == QLatin1String("User"))
        return s.name == user.name;
    if (s.kind == QLatin1String("Group"))
        return user.groups.contains(s.name);
    if (s.kind == QLatin1String("ServiceAccount")) {
        const QString ns = s.namespaceName.isEmpty() ? bindingNamespace : s.namespaceName;
        return user.name == QLatin1String(kServiceAccountPrefix) + ns + QLatin1Char(':') + s.name;
    }
    return false;
}

void RbacPolicy::candidates(const UserInfo &user, const QString &namespaceName,
                            QVarLengthArray<int, 32> *out) const
{
    auto collect = [&](const SubjectIndex &index) {
        if (const auto it = index.users.find(view(user.name)); it != index.users.end())
            out->append(it->second.constData(), it->second.size());
        for (const QString &g : user.groups)
            if (const auto it = index.groups.find(view(g)); it != index.groups.end())
                out->append(it->second.constData(), it->second.size());
    };
    collect(m_cluster);
    if (!namespaceName.isEmpty())
        if (const auto it = m_namespaced.find(view(namespaceName)); it != m_namespaced.end())
            collect(it->second);
    if (out->size() > 1) {
        std::sort(out->begin(), out->end());
        out->erase(std::unique(out->begin(), out->end()), out->end());
    }
}

namespace {

QString listText(const QStringList &l)
{
    QStringList quoted;
    for (const QString &s : l)
        quoted.append(s.isEmpty() ? QStringLiteral("\"\" (core)") : s);
    return QLatin1Char('[') + quoted.join(QLatin1Char(' ')) + QLatin1Char(']');
}

} // namespace

namespace {

// The names of binding b and the subject entry in it that names user: what a decision, a near
// miss and an access cell each report.
template <typename T> void describeBinding(T *out, const RbacBinding &b, const UserInfo &user)
{
    out->bindingKind = b.namespaceName.isEmpty() ? QStringLiteral("ClusterRoleBinding")
                                                 : QStringLiteral("RoleBinding");
    out->bindingNamespace = b.namespaceName;
    out->bindingName = b.name;
    out->roleKind = b.roleRef.kind;
    out->roleName = b.roleRef.name;
    for (const RbacSubject &s : b.subjects)
        if (RbacPolicy::subjectMatches(s, user, b.namespaceName)) {
            out->subject = s;
            break;
        }
}

} // namespace

RuleMiss RbacPolicy::ruleMiss(const PolicyRule &rule, const Attributes &a)
{
    RuleMiss m;
    m.rule = rule.describe();
    auto miss = [&m](const char *code, const QString &message) {
        m.codes.append(QLatin1String(code));
        m.messages.append(message);
    };
    if (!a.resourceRequest) {
        if (rule.nonResourceURLs.isEmpty()) {
            miss("resourceRule", QStringLiteral("the rule covers resources, not URL paths"));
            return m;
        }
        if (!hasOrStar(rule.verbs, a.verb))
            miss("verb",
                 QStringLiteral("verb \"%1\" is not in %2").arg(a.verb, listText(rule.verbs)));
        if (!nonResourceMatches(rule.nonResourceURLs, a.path))
            miss("nonResourceURL", QStringLiteral("path \"%1\" is not in %2")
                                       .arg(a.path, listText(rule.nonResourceURLs)));
        return m;
    }
    if (rule.resources.isEmpty() && !rule.nonResourceURLs.isEmpty()) {
        miss("nonResourceRule", QStringLiteral("the rule covers URL paths %1, not resources")
                                    .arg(listText(rule.nonResourceURLs)));
        return m;
    }
    if (!hasOrStar(rule.verbs, a.verb))
        miss("verb", QStringLiteral("verb \"%1\" is not in %2").arg(a.verb, listText(rule.verbs)));
    if (!hasOrStar(rule.apiGroups, a.apiGroup))
        miss("apiGroup",
             QStringLiteral("API group %1 is not in %2")
                 .arg(a.apiGroup.isEmpty() ? QStringLiteral("\"\" (core)")
                                           : QLatin1Char('"') + a.apiGroup + QLatin1Char('"'),
                      listText(rule.apiGroups)));
    if (!resourceMatches(rule.resources, a.resource, a.subresource)) {
        const QString wanted =
            a.subresource.isEmpty() ? a.resource : a.resource + QLatin1Char('/') + a.subresource;
        miss("resource",
             QStringLiteral("resource \"%1\" is not in %2").arg(wanted, listText(rule.resources)));
    }
    if (!rule.resourceNames.isEmpty()) {
        if (a.name.isEmpty())
            miss("resourceName",
                 QStringLiteral("resourceNames %1 limit the rule to named objects; a \"%2\" "
                                "request names none")
                     .arg(listText(rule.resourceNames), a.verb));
        else if (!rule.resourceNames.contains(a.name))
            miss("resourceName", QStringLiteral("name \"%1\" is not in resourceNames %2")
                                     .arg(a.name, listText(rule.resourceNames)));
    }
    return m;
}

QList<NearMiss> RbacPolicy::nearMisses(const Attributes &a, int limit) const
{
    QList<NearMiss> out;
    if (limit <= 0)
        return out;
    // Bindings naming the user in any namespace: a RoleBinding elsewhere is a near miss too.
    QVarLengthArray<int, 32> found;
    auto collect = [&](const SubjectIndex &index) {
        if (const auto it = index.users.find(view(a.user.name)); it != index.users.end())
            found.append(it->second.constData(), it->second.size());
        for (const QString &g : a.user.groups)
            if (const auto it = index.groups.find(view(g)); it != index.groups.end())
                found.append(it->second.constData(), it->second.size());
    };
    collect(m_cluster);
    for (const auto &[ns, index] : m_namespaced)
        collect(index);
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());

    for (int i : found) {
        const RbacBinding &b = m_bindings[i];
        NearMiss n;
        describeBinding(&n, b, a.user);
        const RbacRole *role = m_bindingRoles[i];
        if (!b.namespaceName.isEmpty() && b.namespaceName != a.namespaceName) {
            n.code = QStringLiteral("namespace");
            n.message = a.namespaceName.isEmpty()
                            ? QStringLiteral("a RoleBinding grants only inside namespace \"%1\"; "
                                             "the request is cluster-wide")
                                  .arg(b.namespaceName)
                            : QStringLiteral("a RoleBinding grants only inside namespace \"%1\"; "
                                             "the request is in namespace \"%2\"")
                                  .arg(b.namespaceName, a.namespaceName);
        } else if (!role) {
            n.code = QStringLiteral("roleNotFound");
            n.message = b.roleRef.kind == QLatin1String("Role")
                            ? QStringLiteral("roleRef names Role \"%1\", which does not exist in "
                                             "namespace \"%2\"")
                                  .arg(b.roleRef.name, b.namespaceName)
                            : QStringLiteral("roleRef names %1 \"%2\", which does not exist")
                                  .arg(b.roleRef.kind, b.roleRef.name);
        } else {
            bool allows = false;
            for (int ri = 0; ri < role->rules.size(); ++ri) {
                RuleMiss m = ruleMiss(role->rules[ri], a);
                if (m.codes.isEmpty()) {
                    allows = true;
                    break;
                }
                m.ruleIndex = ri;
                n.rules.append(std::move(m));
            }
            if (allows)
                return {}; // RBAC allows the request: nothing was missed
            n.code = QStringLiteral("noRuleMatches");
            n.message = role->rules.isEmpty()
                            ? QStringLiteral("%1 \"%2\" has no rules").arg(n.roleKind, n.roleName)
                            : QStringLiteral("no rule of %1 \"%2\" allows the request")
                                  .arg(n.roleKind, n.roleName);
        }
        out.append(std::move(n));
        if (out.size() >= limit)
            break;
    }
    return out;
}

QList<AccessCell> RbacPolicy::effectiveAccess(const UserInfo &user) const
{
    QVarLengthArray<int, 32> found;
    auto collect = [&](const SubjectIndex &index) {
        if (const auto it = index.users.find(view(user.name)); it != index.users.end())
            found.append(it->second.constData(), it->second.size());
        for (const QString &g : user.groups)
            if (const auto it = index.groups.find(view(g)); it != index.groups.end())
                found.append(it->second.constData(), it->second.size());
    };
    collect(m_cluster);
    for (const auto &entry : m_namespaced)
        collect(entry.second);
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());

    // key -> cell; the key orders cells by scope, then resource or URL, then verb.
    std::map<QString, AccessCell> cells;
    for (int i : found) {
        const RbacRole *role = m_bindingRoles[i];
        if (!role)
            continue;
        const RbacBinding &b = m_bindings[i];
        AccessCell::Source src;
        describeBinding(&src, b, user);
        for (int ri = 0; ri < role->rules.size(); ++ri) {
            const PolicyRule &rule = role->rules[ri];
            src.ruleIndex = ri;
            auto add = [&](AccessCell &&cell, const QString &what) {
                const QString key = cell.namespaceName + QLatin1Char('\x1f') + what +
                                    QLatin1Char('\x1f') + cell.verb + QLatin1Char('\x1f') +
                                    cell.resourceNames.join(QLatin1Char(','));
                auto [it, inserted] = cells.try_emplace(key, std::move(cell));
                it->second.via.append(src);
            };
            for (const QString &verb : rule.verbs) {
                // URL rules only grant cluster-wide (kube.md §3.3): a RoleBinding's are inert.
                if (b.namespaceName.isEmpty())
                    for (const QString &url : rule.nonResourceURLs) {
                        AccessCell c;
                        c.verb = verb;
                        c.nonResourceURL = url;
                        add(std::move(c), QStringLiteral("url:") + url);
                    }
                for (const QString &group : rule.apiGroups)
                    for (const QString &resource : rule.resources) {
                        AccessCell c;
                        c.namespaceName = b.namespaceName;
                        c.verb = verb;
                        c.apiGroup = group;
                        c.resource = resource;
                        c.resourceNames = rule.resourceNames;
                        add(std::move(c),
                            QStringLiteral("res:") + group + QLatin1Char('/') + resource);
                    }
            }
        }
    }
    QList<AccessCell> out;
    out.reserve(qsizetype(cells.size()));
    for (auto &entry : cells)
        out.append(std::move(entry.second));
    return out;
}

QJsonObject AccessCell::toJson() const
{
    QJsonArray sources;
    for (const Source &s : via) {
        QJsonObject subjectJson{{QStringLiteral("kind"), s.subject.kind},
                                {QStringLiteral("name"), s.subject.name}};
        if (!s.subject.namespaceName.isEmpty())
            subjectJson.insert(QStringLiteral("namespace"), s.subject.namespaceName);
        QJsonObject o{{QStringLiteral("bindingKind"), s.bindingKind},
                      {QStringLiteral("bindingName"), s.bindingName},
                      {QStringLiteral("roleKind"), s.roleKind},
                      {QStringLiteral("roleName"), s.roleName},
                      {QStringLiteral("ruleIndex"), s.ruleIndex},
                      {QStringLiteral("subject"), subjectJson}};
        if (!s.bindingNamespace.isEmpty())
            o.insert(QStringLiteral("bindingNamespace"), s.bindingNamespace);
        sources.append(o);
    }
    QJsonObject o{{QStringLiteral("scope"), namespaceName.isEmpty() ? QStringLiteral("cluster")
                                                                    : QStringLiteral("namespace")},
                  {QStringLiteral("verb"), verb},
                  {QStringLiteral("via"), sources}};
    if (!namespaceName.isEmpty())
        o.insert(QStringLiteral("namespace"), namespaceName);
    if (!nonResourceURL.isEmpty()) {
        o.insert(QStringLiteral("nonResourceURL"), nonResourceURL);
    } else {
        o.insert(QStringLiteral("apiGroup"), apiGroup);
        o.insert(QStringLiteral("resource"), resource);
        if (!resourceNames.isEmpty())
            o.insert(QStringLiteral("resourceNames"), QJsonArray::fromStringList(resourceNames));
    }
    return o;
}

QJsonObject NearMiss::toJson() const
{
    QJsonArray rulesJson;
    for (const RuleMiss &m : rules)
        rulesJson.append(
            QJsonObject{{QStringLiteral("ruleIndex"), m.ruleIndex},
                        {QStringLiteral("rule"), m.rule},
                        {QStringLiteral("codes"), QJsonArray::fromStringList(m.codes)},
                        {QStringLiteral("messages"), QJsonArray::fromStringList(m.messages)}});
    QJsonObject subjectJson{{QStringLiteral("kind"), subject.kind},
                            {QStringLiteral("name"), subject.name}};
    if (!subject.namespaceName.isEmpty())
        subjectJson.insert(QStringLiteral("namespace"), subject.namespaceName);
    QJsonObject o{
        {QStringLiteral("bindingKind"), bindingKind}, {QStringLiteral("bindingName"), bindingName},
        {QStringLiteral("roleKind"), roleKind},       {QStringLiteral("roleName"), roleName},
        {QStringLiteral("subject"), subjectJson},     {QStringLiteral("code"), code},
        {QStringLiteral("message"), message},         {QStringLiteral("rules"), rulesJson}};
    if (!bindingNamespace.isEmpty())
        o.insert(QStringLiteral("bindingNamespace"), bindingNamespace);
    return o;
}

QString RbacPolicy::reasonFor(const RbacDecision &d) const
{
    if (!d.allowed)
        return {};
    const QString bindingText =
        d.bindingNamespace.isEmpty()
            ? QStringLiteral("ClusterRoleBinding \"%1\"").arg(d.bindingName)
            : QStringLiteral("RoleBinding \"%1/%2\"").arg(d.bindingName, d.bindingNamespace);
    return QStringLiteral("RBAC: allowed by %1 of %2 \"%3\" to %4")
        .arg(bindingText, d.roleKind, d.roleName, describeSubject(d.subject));
}

RbacDecision RbacPolicy::authorize(const Attributes &a, bool withReason) const
{
    RbacDecision d;
    QVarLengthArray<int, 32> found;
    candidates(a.user, a.namespaceName, &found);
    for (int i : found) {
        const RbacRole *r = m_bindingRoles[i];
        if (!r)
            continue;
        for (int ri = 0; ri < r->rules.size(); ++ri) {
            if (!r->rules[ri].allows(a))
                continue;
            d.allowed = true;
            d.bindingIndex = i;
            d.ruleIndex = ri;
            // Names and the reason only when asked: the hot path needs the verdict alone.
            if (withReason) {
                describeBinding(&d, m_bindings[i], a.user);
                d.reason = reasonFor(d);
            }
            return d;
        }
    }
    return d;
}

QList<PolicyRule> RbacPolicy::rulesFor(const UserInfo &user, const QString &namespaceName) const
{
    QList<PolicyRule> out;
    QVarLengthArray<int, 32> found;
    candidates(user, namespaceName, &found);
    for (int i : found) {
        const RbacBinding &b = m_bindings[i];
        if (const RbacRole *r = roleFor(b.roleRef, b.namespaceName))
            out.append(r->rules);
    }
    return out;
}

namespace {

// One owner rule covers one single-verb, single-resource piece of a wanted rule
// (Kubernetes' ruleCovers on the split rules).
bool covers(const PolicyRule &owner, const PolicyRule &piece)
{
    if (!hasOrStar(owner.verbs, piece.verbs.value(0)))
        return false;
    if (!piece.nonResourceURLs.isEmpty()) {
        const QString url = piece.nonResourceURLs.value(0);
        for (const QString &o : owner.nonResourceURLs)
            if (o == QLatin1String("*") || o == url ||
                (o.endsWith(QLatin1Char('*')) && url.startsWith(o.left(o.size() - 1))))
                return true;
        return false;
    }
    if (!hasOrStar(owner.apiGroups, piece.apiGroups.value(0)))
        return false;
    const QString res = piece.resources.value(0);
    bool resourceOk =
        owner.resources.contains(QStringLiteral("*")) || owner.resources.contains(res);
    if (!resourceOk) {
        const qsizetype slash = res.indexOf(QLatin1Char('/'));
        if (slash > 0)
            resourceOk = owner.resources.contains(QStringLiteral("*") + res.mid(slash));
    }
    if (!resourceOk)
        return false;
    if (owner.resourceNames.isEmpty())
        return true;
    return !piece.resourceNames.isEmpty() && owner.resourceNames.contains(piece.resourceNames[0]);
}

QList<PolicyRule> split(const PolicyRule &r)
{
    QList<PolicyRule> out;
    for (const QString &verb : r.verbs) {
        for (const QString &url : r.nonResourceURLs) {
            PolicyRule p;
            p.verbs = {verb};
            p.nonResourceURLs = {url};
            out.append(p);
        }
        for (const QString &group : r.apiGroups)
            for (const QString &res : r.resources) {
                const QStringList names =
                    r.resourceNames.isEmpty() ? QStringList{QString()} : r.resourceNames;
                for (const QString &name : names) {
                    PolicyRule p;
                    p.verbs = {verb};
                    p.apiGroups = {group};
                    p.resources = {res};
                    if (!name.isEmpty())
                        p.resourceNames = {name};
                    out.append(p);
                }
            }
    }
    return out;
}

} // namespace

bool rulesCover(const QList<PolicyRule> &owned, const QList<PolicyRule> &wanted,
                QList<PolicyRule> *uncovered)
{
    bool all = true;
    for (const PolicyRule &w : wanted)
        for (const PolicyRule &piece : split(w)) {
            const bool ok = std::any_of(owned.begin(), owned.end(),
                                        [&](const PolicyRule &o) { return covers(o, piece); });
            if (!ok) {
                all = false;
                if (!uncovered)
                    return false;
                uncovered->append(piece);
            }
        }
    return all;
}

namespace {

QJsonObject rule(const QStringList &verbs, const QStringList &groups, const QStringList &resources)
{
    return PolicyRule{verbs, groups, resources, {}, {}}.toJson();
}

QJsonObject urlRule(const QStringList &verbs, const QStringList &urls)
{
    return PolicyRule{verbs, {}, {}, {}, urls}.toJson();
}

QJsonObject bootstrapMeta(const QString &name)
{
    return QJsonObject{
        {QStringLiteral("name"), name},
        {QStringLiteral("labels"), QJsonObject{{QStringLiteral("kubernetes.io/bootstrapping"),
                                                QStringLiteral("rbac-defaults")}}},
        {QStringLiteral("annotations"),
         QJsonObject{{QStringLiteral("rbac.authorization.kubernetes.io/autoupdate"),
                      QStringLiteral("true")}}}};
}

QJsonObject clusterRole(const QString &name, const QJsonArray &rules)
{
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("ClusterRole")},
        {QStringLiteral("apiVersion"), QStringLiteral("rbac.authorization.k8s.io/v1")},
        {QStringLiteral("metadata"), bootstrapMeta(name)},
        {QStringLiteral("rules"), rules}};
}

QJsonObject clusterRoleBinding(const QString &name, const QString &role, const QStringList &groups)
{
    QJsonObject b{
        {QStringLiteral("kind"), QStringLiteral("ClusterRoleBinding")},
        {QStringLiteral("apiVersion"), QStringLiteral("rbac.authorization.k8s.io/v1")},
        {QStringLiteral("metadata"), bootstrapMeta(name)},
        {QStringLiteral("roleRef"),
         QJsonObject{{QStringLiteral("apiGroup"), QStringLiteral("rbac.authorization.k8s.io")},
                     {QStringLiteral("kind"), QStringLiteral("ClusterRole")},
                     {QStringLiteral("name"), role}}}};
    if (!groups.isEmpty()) {
        QJsonArray subjects;
        for (const QString &g : groups)
            subjects.append(QJsonObject{
                {QStringLiteral("kind"), QStringLiteral("Group")},
                {QStringLiteral("apiGroup"), QStringLiteral("rbac.authorization.k8s.io")},
                {QStringLiteral("name"), g}});
        b.insert(QStringLiteral("subjects"), subjects);
    }
    return b;
}

const QStringList kRead{QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")};
const QStringList kWrite{QStringLiteral("create"), QStringLiteral("delete"),
                         QStringLiteral("deletecollection"), QStringLiteral("patch"),
                         QStringLiteral("update")};

} // namespace

namespace {

// admin's and edit's rules. Before, both wrote pods/status and services/status too, which
// Kubernetes' do not (status is the kubelet's and the controllers'; a service's
// status.loadBalancer.ingress redirects traffic): `withStatusWrites` builds those rules, to
// recognise roles stored by that version (ClusterApi::bootstrap replaces them).
QJsonArray adminRules(bool withStatusWrites)
{
    const QStringList core{QString()};
    const QStringList status{QStringLiteral("pods/status"), QStringLiteral("services/status")};
    QStringList written{QStringLiteral("pods"), QStringLiteral("services"),
                        QStringLiteral("serviceaccounts")};
    if (withStatusWrites)
        written = {QStringLiteral("pods"), QStringLiteral("pods/status"),
                   QStringLiteral("services"), QStringLiteral("services/status"),
                   QStringLiteral("serviceaccounts")};
    QJsonArray rules{rule(kRead + kWrite, core, written)};
    if (!withStatusWrites)
        rules.append(rule(kRead, core, status));
    rules.append(rule(kRead + kWrite, {QStringLiteral("rbac.authorization.k8s.io")},
                      {QStringLiteral("roles"), QStringLiteral("rolebindings")}));
    rules.append(rule({QStringLiteral("create")}, {QStringLiteral("authorization.k8s.io")},
                      {QStringLiteral("localsubjectaccessreviews")}));
    rules.append(rule(kRead, core, {QStringLiteral("namespaces")}));
    return rules;
}

QJsonArray editRules(bool withStatusWrites)
{
    const QStringList core{QString()};
    if (withStatusWrites)
        return {
            rule(kRead + kWrite, core,
                 {QStringLiteral("pods"), QStringLiteral("pods/status"), QStringLiteral("services"),
                  QStringLiteral("services/status"), QStringLiteral("serviceaccounts")}),
            rule(kRead, core, {QStringLiteral("namespaces")})};
    return {rule(kRead + kWrite, core,
                 {QStringLiteral("pods"), QStringLiteral("services"),
                  QStringLiteral("serviceaccounts")}),
            rule(kRead, core, {QStringLiteral("pods/status"), QStringLiteral("services/status")}),
            rule(kRead, core, {QStringLiteral("namespaces")})};
}

} // namespace

QHash<QString, QJsonArray> supersededBootstrapRules()
{
    return {{QStringLiteral("admin"), adminRules(true)}, {QStringLiteral("edit"), editRules(true)}};
}

QList<QJsonObject> bootstrapClusterRoles()
{
    const QStringList core{QString()};
    return {
        clusterRole(QStringLiteral("cluster-admin"),
                    {rule({QStringLiteral("*")}, {QStringLiteral("*")}, {QStringLiteral("*")}),
                     urlRule({QStringLiteral("*")}, {QStringLiteral("*")})}),
        clusterRole(QStringLiteral("admin"), adminRules(false)),
        clusterRole(QStringLiteral("edit"), editRules(false)),
        clusterRole(QStringLiteral("view"),
                    {rule(kRead, core,
                          {QStringLiteral("pods"), QStringLiteral("pods/status"),
                           QStringLiteral("services"), QStringLiteral("services/status"),
                           QStringLiteral("serviceaccounts"), QStringLiteral("namespaces"),
                           QStringLiteral("namespaces/status")})}),
        clusterRole(
            QStringLiteral("system:discovery"),
            {urlRule({QStringLiteral("get")},
                     {QStringLiteral("/api"), QStringLiteral("/api/*"), QStringLiteral("/apis"),
                      QStringLiteral("/apis/*"), QStringLiteral("/healthz"),
                      QStringLiteral("/livez"), QStringLiteral("/openapi"),
                      QStringLiteral("/openapi/*"), QStringLiteral("/readyz"),
                      QStringLiteral("/version"), QStringLiteral("/version/")})}),
        clusterRole(QStringLiteral("system:basic-user"),
                    {rule({QStringLiteral("create")}, {QStringLiteral("authorization.k8s.io")},
                          {QStringLiteral("selfsubjectaccessreviews"),
                           QStringLiteral("selfsubjectrulesreviews")}),
                     rule({QStringLiteral("create")}, {QStringLiteral("authentication.k8s.io")},
                          {QStringLiteral("selfsubjectreviews")})}),
        clusterRole(QStringLiteral("system:public-info-viewer"),
                    {urlRule({QStringLiteral("get")},
                             {QStringLiteral("/healthz"), QStringLiteral("/livez"),
                              QStringLiteral("/readyz"), QStringLiteral("/version"),
                              QStringLiteral("/version/")})}),
        clusterRole(QStringLiteral("system:monitoring"),
                    {urlRule({QStringLiteral("get")},
                             {QStringLiteral("/healthz"), QStringLiteral("/healthz/*"),
                              QStringLiteral("/livez"), QStringLiteral("/livez/*"),
                              QStringLiteral("/metrics"), QStringLiteral("/readyz"),
                              QStringLiteral("/readyz/*")})}),
        clusterRole(
            QStringLiteral("system:node"),
            {rule({QStringLiteral("create"), QStringLiteral("get"), QStringLiteral("list"),
                   QStringLiteral("watch"), QStringLiteral("delete"), QStringLiteral("patch"),
                   QStringLiteral("update")},
                  core, {QStringLiteral("nodes")}),
             rule({QStringLiteral("patch"), QStringLiteral("update")}, core,
                  {QStringLiteral("nodes/status"), QStringLiteral("pods/status")}),
             rule({QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch"),
                   QStringLiteral("create"), QStringLiteral("delete")},
                  core, {QStringLiteral("pods")}),
             rule({QStringLiteral("create")}, core, {QStringLiteral("pods/eviction")}),
             rule(kRead, core, {QStringLiteral("services")}),
             rule({QStringLiteral("create"), QStringLiteral("patch"), QStringLiteral("update")},
                  {QString(), QStringLiteral("events.k8s.io")}, {QStringLiteral("events")}),
             rule({QStringLiteral("create")}, {QStringLiteral("authentication.k8s.io")},
                  {QStringLiteral("tokenreviews")}),
             rule({QStringLiteral("create")}, {QStringLiteral("authorization.k8s.io")},
                  {QStringLiteral("localsubjectaccessreviews"),
                   QStringLiteral("subjectaccessreviews")})}),
    };
}

QList<QJsonObject> bootstrapClusterRoleBindings()
{
    return {
        clusterRoleBinding(QStringLiteral("cluster-admin"), QStringLiteral("cluster-admin"),
                           {QLatin1String(kMastersGroup)}),
        clusterRoleBinding(QStringLiteral("system:discovery"), QStringLiteral("system:discovery"),
                           {QLatin1String(kAuthenticatedGroup)}),
        clusterRoleBinding(QStringLiteral("system:basic-user"), QStringLiteral("system:basic-user"),
                           {QLatin1String(kAuthenticatedGroup)}),
        clusterRoleBinding(
            QStringLiteral("system:public-info-viewer"),
            QStringLiteral("system:public-info-viewer"),
            {QLatin1String(kAuthenticatedGroup), QLatin1String(kUnauthenticatedGroup)}),
        clusterRoleBinding(QStringLiteral("system:monitoring"), QStringLiteral("system:monitoring"),
                           {QStringLiteral("system:monitoring")}),
        clusterRoleBinding(QStringLiteral("system:node"), QStringLiteral("system:node"), {}),
    };
}

QString accessBeyondDefaults(const RbacPolicy &policy, const UserInfo &user)
{
    static const RbacPolicy defaults = [] {
        QList<RbacRole> roles;
        for (const QJsonObject &r : bootstrapClusterRoles())
            roles.append(roleFromJson(r));
        QList<RbacBinding> bindings;
        for (const QJsonObject &b : bootstrapClusterRoleBindings())
            bindings.append(bindingFromJson(b));
        return RbacPolicy(std::move(roles), std::move(bindings));
    }();
    const auto key = [](const AccessCell &c) {
        return QStringList{c.namespaceName,  c.verb,
                           c.apiGroup,       c.resource,
                           c.nonResourceURL, c.resourceNames.join(QLatin1Char(','))}
            .join(QLatin1Char('\x1f'));
    };
    QSet<QString> base;
    for (const AccessCell &c : defaults.effectiveAccess(user))
        base.insert(key(c));
    for (const AccessCell &c : policy.effectiveAccess(user)) {
        if (base.contains(key(c)))
            continue;
        QString what = c.nonResourceURL.isEmpty()
                           ? QStringLiteral("%1 %2%3").arg(
                                 c.verb,
                                 c.apiGroup.isEmpty() ? c.resource
                                                      : c.resource + QLatin1Char('.') + c.apiGroup,
                                 c.resourceNames.isEmpty()
                                     ? QString()
                                     : QStringLiteral(" named %1")
                                           .arg(c.resourceNames.join(QStringLiteral(", "))))
                           : QStringLiteral("%1 %2").arg(c.verb, c.nonResourceURL);
        if (!c.namespaceName.isEmpty())
            what += QStringLiteral(" in namespace \"%1\"").arg(c.namespaceName);
        if (!c.via.isEmpty()) {
            const AccessCell::Source &s = c.via.first();
            what += s.bindingNamespace.isEmpty()
                        ? QStringLiteral(" (%1 \"%2\")").arg(s.bindingKind, s.bindingName)
                        : QStringLiteral(" (%1 \"%2\" in namespace \"%3\")")
                              .arg(s.bindingKind, s.bindingName, s.bindingNamespace);
        }
        return what;
    }
    return {};
}

} // namespace Gatehouse::Cluster
