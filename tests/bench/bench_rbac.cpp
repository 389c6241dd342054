// RBAC decisions per second in-process with 1,000 bindings: Gatehouse's subject-indexed
// policy vs a linear scan of every binding (what evaluating without the index costs), same
// attributes, same process. Prints one JSON line.
#include "cluster/rbac.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

using namespace Gatehouse::Cluster;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int kBindings = 1000;
    QList<RbacRole> roles;
    for (const QJsonObject &o : bootstrapClusterRoles())
        roles.append(roleFromJson(o));
    QList<RbacBinding> bindings;
    for (const QJsonObject &o : bootstrapClusterRoleBindings())
        bindings.append(bindingFromJson(o));
    for (int i = 0; i < kBindings; ++i) {
        RbacRole r;
        r.name = QStringLiteral("role-%1").arg(i);
        r.namespaceName = QStringLiteral("ns-%1").arg(i % 50);
        r.rules.append(PolicyRule{{QStringLiteral("get"), QStringLiteral("list")},
                                  {QString()},
                                  {QStringLiteral("pods"), QStringLiteral("services")},
                                  {},
                                  {}});
        roles.append(r);
        RbacBinding b;
        b.name = QStringLiteral("binding-%1").arg(i);
        b.namespaceName = r.namespaceName;
        b.roleRef =
            RoleRef{QStringLiteral("rbac.authorization.k8s.io"), QStringLiteral("Role"), r.name};
        b.subjects.append(RbacSubject{QStringLiteral("User"),
                                      QStringLiteral("rbac.authorization.k8s.io"),
                                      QStringLiteral("user-%1").arg(i), QString()});
        b.subjects.append(RbacSubject{QStringLiteral("Group"),
                                      QStringLiteral("rbac.authorization.k8s.io"),
                                      QStringLiteral("team-%1").arg(i % 100), QString()});
        bindings.append(b);
    }
    const RbacPolicy policy(roles, bindings);

    // A mix of allowed and denied requests by different users.
    QList<Attributes> requests;
    for (int i = 0; i < 256; ++i) {
        Attributes a;
        a.user.name = QStringLiteral("user-%1").arg((i * 37) % kBindings);
        a.user.groups = {QStringLiteral("team-%1").arg(i % 100),
                         QStringLiteral("system:authenticated")};
        a.verb = i % 3 == 0 ? QStringLiteral("delete") : QStringLiteral("get");
        a.resourceRequest = true;
        a.resource = QStringLiteral("pods");
        a.name = QStringLiteral("p");
        a.namespaceName = QStringLiteral("ns-%1").arg(i % 50);
        requests.append(a);
    }
    auto linear = [&](const Attributes &a) {
        for (const RbacBinding &b : policy.bindings()) {
            if (!b.namespaceName.isEmpty() && b.namespaceName != a.namespaceName)
                continue;
            bool subject = false;
            for (const RbacSubject &s : b.subjects)
                subject = subject || RbacPolicy::subjectMatches(s, a.user, b.namespaceName);
            if (!subject)
                continue;
            if (const RbacRole *r = policy.roleFor(b.roleRef, b.namespaceName))
                for (const PolicyRule &rule : r->rules)
                    if (rule.allows(a))
                        return true;
        }
        return false;
    };
    auto measure = [&](auto &&decide) {
        qint64 n = 0, allowed = 0;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 2000) {
            for (const Attributes &a : requests)
                allowed += decide(a) ? 1 : 0;
            n += requests.size();
        }
        return std::pair<double, qint64>(double(n) / (double(t.nsecsElapsed()) / 1e9), allowed);
    };
    const auto withReason =
        measure([&](const Attributes &a) { return policy.authorize(a).allowed; });
    const auto indexed =
        measure([&](const Attributes &a) { return policy.authorize(a, false).allowed; });
    const auto scan = measure(linear);
    // Both evaluations must agree on every request, or the faster one is not worth measuring.
    for (const Attributes &a : requests) {
        if (policy.authorize(a, false).allowed != linear(a)) {
            QTextStream(stderr) << "bench_rbac: the index and the linear scan disagree for "
                                << a.user.name << " " << a.verb << " in " << a.namespaceName
                                << "\n";
            return 1;
        }
    }
    qint64 allowed = 0;
    for (const Attributes &a : requests)
        allowed += policy.authorize(a).allowed ? 1 : 0;
    if (allowed == 0 || allowed == requests.size()) {
        QTextStream(stderr)
            << "bench_rbac: the request mix must hold allowed and denied requests\n";
        return 1;
    }
    QTextStream(stdout) << QJsonDocument(
                               QJsonObject{
                                   {QStringLiteral("bindings"), int(policy.bindings().size())},
                                   {QStringLiteral("indexedPerSecond"), indexed.first},
                                   {QStringLiteral("indexedWithReasonPerSecond"), withReason.first},
                                   {QStringLiteral("linearPerSecond"), scan.first},
                                   {QStringLiteral("ratio"), indexed.first / scan.first}})
                               .toJson(QJsonDocument::Compact)
                        << "\n";
    return 0;
}
