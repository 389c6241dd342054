// Table-driven units of the cluster API's decision code: request info, RBAC matching and
// escalation, the Node authorizer, NodeRestriction's label rule and messages, golden Status
// bodies (reference kube.md).
#include "tst_clustercore.h"
#include "cluster/admission.h"
#include "cluster/authorizer.h"
#include "cluster/clusterapi.h"
#include "cluster/rbac.h"
#include "cluster/requestinfo.h"
#include "cluster/selector.h"
#include "cluster/status.h"
#include "cluster/tokenauth.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace Gatehouse::Cluster;

namespace {

UserInfo user(const QString &name, const QStringList &groups)
{
    UserInfo u{name, groups, QString(), QStringLiteral("x509"), {}, {}};
    addAuthenticatedGroup(u);
    return u;
}

Attributes resource(const UserInfo &u, const QString &verb, const QString &res,
                    const QString &name = QString(), const QString &ns = QString(),
                    const QString &group = QString(), const QString &sub = QString())
{
    Attributes a;
    a.user = u;
    a.verb = verb;
    a.resourceRequest = true;
    a.resource = res;
    a.name = name;
    a.namespaceName = ns;
    a.apiGroup = group;
    a.subresource = sub;
    return a;
}

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

void TestClusterCore::requestInfo_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("target");
    QTest::addColumn<bool>("resourceRequest");
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("res");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("sub");
    QTest::addColumn<QString>("authzName");

    QTest::newRow("root") << "GET"
                          << "/" << false << "get"
                          << ""
                          << ""
                          << ""
                          << ""
                          << ""
                          << "";
    QTest::newRow("/api") << "GET"
                          << "/api" << false << "get"
                          << ""
                          << ""
                          << ""
                          << ""
                          << ""
                          << "";
    QTest::newRow("/api/v1") << "GET"
                             << "/api/v1" << false << "get"
                             << ""
                             << ""
                             << ""
                             << ""
                             << ""
                             << "";
    QTest::newRow("/apis/g/v") << "GET"
                               << "/apis/rbac.authorization.k8s.io/v1" << false << "get"
                               << ""
                               << ""
                               << ""
                               << ""
                               << ""
                               << "";
    QTest::newRow("healthz post") << "POST"
                                  << "/healthz" << false << "post"
                                  << ""
                                  << ""
                                  << ""
                                  << ""
                                  << ""
                                  << "";
    QTest::newRow("list nodes") << "GET"
                                << "/api/v1/nodes" << true << "list"
                                << ""
                                << ""
                                << "nodes"
                                << ""
                                << ""
                                << "";
    QTest::newRow("watch nodes") << "GET"
                                 << "/api/v1/nodes?watch=1" << true << "watch"
                                 << ""
                                 << ""
                                 << "nodes"
                                 << ""
                                 << ""
                                 << "";
    QTest::newRow("watch=false") << "GET"
                                 << "/api/v1/nodes?watch=false" << true << "list"
                                 << ""
                                 << ""
                                 << "nodes"
                                 << ""
                                 << ""
                                 << "";
    QTest::newRow("get node") << "GET"
                              << "/api/v1/nodes/n1" << true << "get"
                              << ""
                              << ""
                              << "nodes"
                              << "n1"
                              << ""
                              << "n1";
    QTest::newRow("patch status") << "PATCH"
                                  << "/api/v1/nodes/n1/status" << true << "patch"
                                  << ""
                                  << ""
                                  << "nodes"
                                  << "n1"
                                  << "status"
                                  << "n1";
    QTest::newRow("head") << "HEAD"
                          << "/api/v1/nodes/n1" << true << "get"
                          << ""
                          << ""
                          << "nodes"
                          << "n1"
                          << ""
                          << "n1";
    QTest::newRow("create pod") << "POST"
                                << "/api/v1/namespaces/default/pods" << true << "create"
                                << ""
                                << "default"
                                << "pods"
                                << ""
                                << ""
                                << "";
    QTest::newRow("put pod") << "PUT"
                             << "/api/v1/namespaces/default/pods/p" << true << "update"
                             << ""
                             << "default"
                             << "pods"
                             << "p"
                             << ""
                             << "p";
    QTest::newRow("deletecollection") << "DELETE"
                                      << "/api/v1/namespaces/ns1/pods" << true << "deletecollection"
                                      << ""
                                      << "ns1"
                                      << "pods"
                                      << ""
                                      << ""
                                      << "";
    QTest::newRow("namespace itself") << "GET"
                                      << "/api/v1/namespaces/ns1" << true << "get"
                                      << ""
                                      << "ns1"
                                      << "namespaces"
                                      << "ns1"
                                      << ""
                                      << "ns1";
    QTest::newRow("namespace status") << "PUT"
                                      << "/api/v1/namespaces/ns1/status" << true << "update"
                                      << ""
                                      << "ns1"
                                      << "namespaces"
                                      << "ns1"
                                      << "status"
                                      << "ns1";
    QTest::newRow("namespace finalize") << "PUT"
                                        << "/api/v1/namespaces/ns1/finalize" << true << "update"
                                        << ""
                                        << "ns1"
                                        << "namespaces"
                                        << "ns1"
                                        << "finalize"
                                        << "ns1";
    QTest::newRow("list namespaces") << "GET"
                                     << "/api/v1/namespaces" << true << "list"
                                     << ""
                                     << ""
                                     << "namespaces"
                                     << ""
                                     << ""
                                     << "";
    QTest::newRow("group resource")
        << "GET"
        << "/apis/rbac.authorization.k8s.io/v1/namespaces/d/roles/r" << true << "get"
        << "rbac.authorization.k8s.io"
        << "d"
        << "roles"
        << "r"
        << ""
        << "r";
    QTest::newRow("legacy watch") << "GET"
                                  << "/api/v1/watch/namespaces/d/pods/p" << true << "watch"
                                  << ""
                                  << "d"
                                  << "pods"
                                  << "p"
                                  << ""
                                  << "p";
    QTest::newRow("field selector names")
        << "GET"
        << "/api/v1/nodes?fieldSelector=metadata.name%3Dn1" << true << "list"
        << ""
        << ""
        << "nodes"
        << ""
        << ""
        << "n1";
    QTest::newRow("field selector !=")
        << "GET"
        << "/api/v1/nodes?fieldSelector=metadata.name!%3Dn1" << true << "list"
        << ""
        << ""
        << "nodes"
        << ""
        << ""
        << "";
}

void TestClusterCore::requestInfo()
{
    QFETCH(QString, method);
    QFETCH(QString, target);
    QFETCH(bool, resourceRequest);
    QFETCH(QString, verb);
    QFETCH(QString, group);
    QFETCH(QString, ns);
    QFETCH(QString, res);
    QFETCH(QString, name);
    QFETCH(QString, sub);
    QFETCH(QString, authzName);
    const QUrl url(QStringLiteral("https://h") + target);
    const RequestInfo info = RequestInfo::parse(method.toLatin1(), url.path(), QUrlQuery(url));
    QCOMPARE(info.isResourceRequest, resourceRequest);
    QCOMPARE(info.verb, verb);
    QCOMPARE(info.apiGroup, group);
    QCOMPARE(info.namespaceName, ns);
    QCOMPARE(info.resource, res);
    QCOMPARE(info.name, name);
    QCOMPARE(info.subresource, sub);
    QCOMPARE(Attributes::from(UserInfo(), info).name, authzName);
}

void TestClusterCore::rbacRules_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("res");
    QTest::addColumn<QString>("sub");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("path"); // non-resource when set
    QTest::addColumn<bool>("allowed");

    const QString pods =
        QStringLiteral(R"J({"verbs":["get"],"apiGroups":[""],"resources":["pods"]})J");
    QTest::newRow("exact") << pods << "get"
                           << ""
                           << "pods"
                           << ""
                           << "p"
                           << "" << true;
    QTest::newRow("other verb") << pods << "list"
                                << ""
                                << "pods"
                                << ""
                                << ""
                                << "" << false;
    QTest::newRow("other group") << pods << "get"
                                 << "apps"
                                 << "pods"
                                 << ""
                                 << "p"
                                 << "" << false;
    QTest::newRow("pods not pods/status") << pods << "get"
                                          << ""
                                          << "pods"
                                          << "status"
                                          << "p"
                                          << "" << false;
    QTest::newRow("verb star") << R"J({"verbs":["*"],"apiGroups":[""],"resources":["pods"]})J"
                               << "delete"
                               << ""
                               << "pods"
                               << ""
                               << "p"
                               << "" << true;
    QTest::newRow("group star")
        << R"J({"verbs":["get"],"apiGroups":["*"],"resources":["deployments"]})J"
        << "get"
        << "apps"
        << "deployments"
        << ""
        << "d"
        << "" << true;
    QTest::newRow("resource star with sub")
        << R"J({"verbs":["get"],"apiGroups":[""],"resources":["*"]})J"
        << "get"
        << ""
        << "pods"
        << "log"
        << "p"
        << "" << true;
    QTest::newRow("res/sub")
        << R"J({"verbs":["patch"],"apiGroups":[""],"resources":["nodes/status"]})J"
        << "patch"
        << ""
        << "nodes"
        << "status"
        << "n"
        << "" << true;
    QTest::newRow("res/sub not res")
        << R"J({"verbs":["patch"],"apiGroups":[""],"resources":["nodes/status"]})J"
        << "patch"
        << ""
        << "nodes"
        << ""
        << "n"
        << "" << false;
    QTest::newRow("*/sub") << R"J({"verbs":["get"],"apiGroups":[""],"resources":["*/scale"]})J"
                           << "get"
                           << ""
                           << "replicasets"
                           << "scale"
                           << "r"
                           << "" << true;
    QTest::newRow("*/sub not other sub")
        << R"J({"verbs":["get"],"apiGroups":[""],"resources":["*/scale"]})J"
        << "get"
        << ""
        << "replicasets"
        << "status"
        << "r"
        << "" << false;
    const QString named = QStringLiteral(
        R"J({"verbs":["get","list"],"apiGroups":[""],"resources":["nodes"],"resourceNames":["n1"]})J");
    QTest::newRow("resourceName match") << named << "get"
                                        << ""
                                        << "nodes"
                                        << ""
                                        << "n1"
                                        << "" << true;
    QTest::newRow("resourceName other") << named << "get"
                                        << ""
                                        << "nodes"
                                        << ""
                                        << "n2"
                                        << "" << false;
    QTest::newRow("resourceName list no name") << named << "list"
                                               << ""
                                               << "nodes"
                                               << ""
                                               << ""
                                               << "" << false;
    QTest::newRow("resourceName create")
        << R"J({"verbs":["create"],"apiGroups":[""],"resources":["nodes"],"resourceNames":["n1"]})J"
        << "create"
        << ""
        << "nodes"
        << ""
        << ""
        << "" << false;
    const QString urls =
        QStringLiteral(R"J({"verbs":["get"],"nonResourceURLs":["/healthz","/apis/*"]})J");
    QTest::newRow("url exact") << urls << "get"
                               << ""
                               << ""
                               << ""
                               << ""
                               << "/healthz" << true;
    QTest::newRow("url prefix") << urls << "get"
                                << ""
                                << ""
                                << ""
                                << ""
                                << "/apis/x/y" << true;
    QTest::newRow("url prefix not base") << urls << "get"
                                         << ""
                                         << ""
                                         << ""
                                         << ""
                                         << "/apis" << false;
    QTest::newRow("url other verb") << urls << "post"
                                    << ""
                                    << ""
                                    << ""
                                    << ""
                                    << "/healthz" << false;
    QTest::newRow("url star") << R"J({"verbs":["*"],"nonResourceURLs":["*"]})J"
                              << "delete"
                              << ""
                              << ""
                              << ""
                              << ""
                              << "/anything" << true;
    QTest::newRow("resource rule never matches a path") << pods << "get"
                                                        << ""
                                                        << ""
                                                        << ""
                                                        << ""
                                                        << "/api" << false;
}

void TestClusterCore::rbacRules()
{
    QFETCH(QString, rule);
    QFETCH(QString, verb);
    QFETCH(QString, group);
    QFETCH(QString, res);
    QFETCH(QString, sub);
    QFETCH(QString, name);
    QFETCH(QString, path);
    QFETCH(bool, allowed);
    const PolicyRule r = PolicyRule::fromJson(QJsonDocument::fromJson(rule.toUtf8()).object());
    Attributes a;
    a.verb = verb;
    if (path.isEmpty()) {
        a.resourceRequest = true;
        a.apiGroup = group;
        a.resource = res;
        a.subresource = sub;
        a.name = name;
    } else {
        a.path = path;
    }
    QCOMPARE(r.allows(a), allowed);
    // The denial explainer's rule analysis agrees with the matcher on every row.
    const RuleMiss miss = RbacPolicy::ruleMiss(r, a);
    QCOMPARE(miss.codes.isEmpty(), allowed);
    QCOMPARE(miss.codes.size(), miss.messages.size());
}

void TestClusterCore::rbacBindings()
{
    QList<RbacRole> roles{
        roleFromJson(parse(
            R"J({"metadata":{"name":"reader"},"rules":[{"verbs":["get","list"],"apiGroups":[""],"resources":["pods"]}]})J")),
        roleFromJson(parse(
            R"J({"metadata":{"name":"ns-writer","namespace":"team"},"rules":[{"verbs":["create"],"apiGroups":[""],"resources":["pods"]}]})J"))};
    QList<RbacBinding> bindings{
        bindingFromJson(parse(
            R"J({"metadata":{"name":"readers"},"roleRef":{"kind":"ClusterRole","name":"reader"},"subjects":[{"kind":"Group","name":"devs"}]})J")),
        bindingFromJson(parse(
            R"J({"metadata":{"name":"w","namespace":"team"},"roleRef":{"kind":"Role","name":"ns-writer"},"subjects":[{"kind":"User","name":"bob"},{"kind":"ServiceAccount","name":"builder"}]})J")),
        bindingFromJson(parse(
            R"J({"metadata":{"name":"cr-in-ns","namespace":"other"},"roleRef":{"kind":"ClusterRole","name":"reader"},"subjects":[{"kind":"User","name":"carol"}]})J")),
        bindingFromJson(parse(
            R"J({"metadata":{"name":"dangling"},"roleRef":{"kind":"ClusterRole","name":"missing"},"subjects":[{"kind":"User","name":"dave"}]})J"))};
    const RbacPolicy p(roles, bindings);
    const UserInfo dev = user(QStringLiteral("eve"), {QStringLiteral("devs")});
    const UserInfo bob = user(QStringLiteral("bob"), {});
    const UserInfo carol = user(QStringLiteral("carol"), {});
    const UserInfo sa = user(QStringLiteral("system:serviceaccount:team:builder"),
                             {QStringLiteral("system:serviceaccounts")});
    // ClusterRoleBinding: everywhere, cluster scope included.
    QVERIFY(p.authorize(resource(dev, "list", "pods")).allowed);
    QVERIFY(p.authorize(resource(dev, "get", "pods", "p", "any")).allowed);
    QVERIFY(!p.authorize(resource(dev, "delete", "pods", "p", "any")).allowed);
    // RoleBinding: only in its namespace.
    QVERIFY(p.authorize(resource(bob, "create", "pods", QString(), "team")).allowed);
    QVERIFY(!p.authorize(resource(bob, "create", "pods", QString(), "other")).allowed);
    QVERIFY(!p.authorize(resource(bob, "create", "pods")).allowed);
    // A ClusterRole bound by a RoleBinding applies in that namespace only.
    QVERIFY(p.authorize(resource(carol, "get", "pods", "p", "other")).allowed);
    QVERIFY(!p.authorize(resource(carol, "get", "pods", "p", "team")).allowed);
    QVERIFY(!p.authorize(resource(carol, "list", "pods")).allowed);
    // A service account subject without namespace is in the binding's namespace.
    QVERIFY(p.authorize(resource(sa, "create", "pods", QString(), "team")).allowed);
    QVERIFY(!p.authorize(resource(user(QStringLiteral("system:serviceaccount:x:builder"), {}),
                                  "create", "pods", QString(), "team"))
                 .allowed);
    // A binding to a missing role grants nothing.
    QVERIFY(!p.authorize(resource(user(QStringLiteral("dave"), {}), "get", "pods", "p")).allowed);
    // Rules for SelfSubjectRulesReview.
    QCOMPARE(p.rulesFor(bob, QStringLiteral("team")).size(), 1);
    QCOMPARE(p.rulesFor(bob, QString()).size(), 0);
}

namespace {

// Every near-miss reason: roles and bindings where each binding names alice (or her group
// devs) and misses a request for a different reason.
RbacPolicy nearMissPolicy()
{
    QList<RbacRole> roles;
    for (
        const char *json :
        {R"J({"metadata":{"name":"pod-reader"},"rules":[{"verbs":["get","list"],"apiGroups":[""],"resources":["pods"]}]})J",
         R"J({"metadata":{"name":"named-cm"},"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["configmaps"],"resourceNames":["app-config"]}]})J",
         R"J({"metadata":{"name":"dep-editor","namespace":"team"},"rules":[{"verbs":["update"],"apiGroups":["apps"],"resources":["deployments"]}]})J",
         R"J({"metadata":{"name":"metrics-url"},"rules":[{"verbs":["get"],"nonResourceURLs":["/metrics"]}]})J",
         R"J({"metadata":{"name":"empty"},"rules":[]})J"})
        roles.append(roleFromJson(parse(json)));
    QList<RbacBinding> bindings;
    for (
        const char *json :
        {R"J({"metadata":{"name":"alice-reads"},"roleRef":{"kind":"ClusterRole","name":"pod-reader"},"subjects":[{"kind":"User","name":"alice"}]})J",
         R"J({"metadata":{"name":"devs-cm"},"roleRef":{"kind":"ClusterRole","name":"named-cm"},"subjects":[{"kind":"Group","name":"devs"}]})J",
         R"J({"metadata":{"name":"team-deps","namespace":"team"},"roleRef":{"kind":"Role","name":"dep-editor"},"subjects":[{"kind":"User","name":"alice"}]})J",
         R"J({"metadata":{"name":"ghost"},"roleRef":{"kind":"ClusterRole","name":"missing-role"},"subjects":[{"kind":"Group","name":"devs"}]})J",
         R"J({"metadata":{"name":"ghost-ns","namespace":"other"},"roleRef":{"kind":"Role","name":"nope"},"subjects":[{"kind":"User","name":"alice"}]})J",
         R"J({"metadata":{"name":"urls"},"roleRef":{"kind":"ClusterRole","name":"metrics-url"},"subjects":[{"kind":"Group","name":"devs"}]})J",
         R"J({"metadata":{"name":"nothing"},"roleRef":{"kind":"ClusterRole","name":"empty"},"subjects":[{"kind":"Group","name":"devs"}]})J",
         R"J({"metadata":{"name":"bob-only"},"roleRef":{"kind":"ClusterRole","name":"pod-reader"},"subjects":[{"kind":"User","name":"bob"}]})J",
         R"J({"metadata":{"name":"sa"},"roleRef":{"kind":"ClusterRole","name":"pod-reader"},"subjects":[{"kind":"ServiceAccount","name":"builder","namespace":"team"}]})J"})
        bindings.append(bindingFromJson(parse(json)));
    return RbacPolicy(roles, bindings);
}

// "binding=code[rule codes;...]", sorted.
QStringList summarize(const QList<NearMiss> &misses)
{
    QStringList out;
    for (const NearMiss &n : misses) {
        QStringList rules;
        for (const RuleMiss &r : n.rules)
            rules.append(r.codes.join(QLatin1Char(',')));
        out.append(QStringLiteral("%1=%2[%3]").arg(n.bindingName, n.code, rules.join(';')));
    }
    out.sort();
    return out;
}

} // namespace

void TestClusterCore::nearMisses_data()
{
    QTest::addColumn<QString>("who"); // alice, the service account, or carol (no bindings)
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("target"); // resource[.group][/name] or a /path
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QStringList>("expected");

    const QStringList common{QStringLiteral("ghost=roleNotFound[]"),
                             QStringLiteral("ghost-ns=namespace[]"),
                             QStringLiteral("nothing=noRuleMatches[]"),
                             QStringLiteral("urls=noRuleMatches[nonResourceRule]")};
    auto with = [&common](QStringList l) {
        l += common;
        l.sort();
        return l;
    };
    QTest::newRow("missing verb, resource, name, API group")
        << "alice"
        << "delete"
        << "pods/p"
        << "team"
        << with({QStringLiteral("alice-reads=noRuleMatches[verb]"),
                 QStringLiteral("devs-cm=noRuleMatches[verb,resource,resourceName]"),
                 QStringLiteral("team-deps=noRuleMatches[verb,apiGroup,resource]")});
    QTest::newRow("name outside resourceNames")
        << "alice"
        << "get"
        << "configmaps/other-config"
        << "team"
        << with({QStringLiteral("alice-reads=noRuleMatches[resource]"),
                 QStringLiteral("devs-cm=noRuleMatches[resourceName]"),
                 QStringLiteral("team-deps=noRuleMatches[verb,apiGroup,resource]")});
    QTest::newRow("resourceNames and an unnamed list")
        << "alice"
        << "list"
        << "configmaps"
        << "team"
        << with({QStringLiteral("alice-reads=noRuleMatches[resource]"),
                 QStringLiteral("devs-cm=noRuleMatches[verb,resourceName]"),
                 QStringLiteral("team-deps=noRuleMatches[verb,apiGroup,resource]")});
    QTest::newRow("only the verb")
        << "alice"
        << "get"
        << "deployments.apps/d"
        << "team"
        << with({QStringLiteral("alice-reads=noRuleMatches[apiGroup,resource]"),
                 QStringLiteral("devs-cm=noRuleMatches[apiGroup,resource,resourceName]"),
                 QStringLiteral("team-deps=noRuleMatches[verb]")});
    QTest::newRow("role binding of another namespace, role missing in its own")
        << "alice"
        << "get"
        << "secrets/s"
        << "other"
        << QStringList{QStringLiteral("alice-reads=noRuleMatches[resource]"),
                       QStringLiteral("devs-cm=noRuleMatches[resource,resourceName]"),
                       QStringLiteral("ghost=roleNotFound[]"),
                       QStringLiteral("ghost-ns=roleNotFound[]"),
                       QStringLiteral("nothing=noRuleMatches[]"),
                       QStringLiteral("team-deps=namespace[]"),
                       QStringLiteral("urls=noRuleMatches[nonResourceRule]")};
    QTest::newRow("URL path") << "alice"
                              << "get"
                              << "/healthz"
                              << ""
                              << QStringList{
                                     QStringLiteral("alice-reads=noRuleMatches[resourceRule]"),
                                     QStringLiteral("devs-cm=noRuleMatches[resourceRule]"),
                                     QStringLiteral("ghost=roleNotFound[]"),
                                     QStringLiteral("ghost-ns=namespace[]"),
                                     QStringLiteral("nothing=noRuleMatches[]"),
                                     QStringLiteral("team-deps=namespace[]"),
                                     QStringLiteral("urls=noRuleMatches[nonResourceURL]")};
    QTest::newRow("allowed URL: nothing missed") << "alice"
                                                 << "get"
                                                 << "/metrics"
                                                 << "" << QStringList();
    QTest::newRow("allowed resource: nothing missed") << "alice"
                                                      << "get"
                                                      << "pods/p"
                                                      << "team" << QStringList();
    QTest::newRow("service account subject")
        << "sa"
        << "get"
        << "nodes/n"
        << "" << QStringList{QStringLiteral("sa=noRuleMatches[resource]")};
    QTest::newRow("no binding names the user") << "carol"
                                               << "get"
                                               << "pods/p"
                                               << "team" << QStringList();
}

void TestClusterCore::nearMisses()
{
    QFETCH(QString, who);
    QFETCH(QString, verb);
    QFETCH(QString, target);
    QFETCH(QString, ns);
    QFETCH(QStringList, expected);
    const RbacPolicy p = nearMissPolicy();
    UserInfo u =
        who == QLatin1String("alice") ? user(QStringLiteral("alice"), {QStringLiteral("devs")})
        : who == QLatin1String("sa")  ? user(QStringLiteral("system:serviceaccount:team:builder"),
                                             {QStringLiteral("system:serviceaccounts"),
                                              QStringLiteral("system:serviceaccounts:team")})
                                      : user(QStringLiteral("carol"), {});
    Attributes a;
    if (target.startsWith(QLatin1Char('/'))) {
        a.user = u;
        a.verb = verb;
        a.path = target;
    } else {
        const QString res = target.section(QLatin1Char('/'), 0, 0);
        a = resource(u, verb, res.section(QLatin1Char('.'), 0, 0),
                     target.section(QLatin1Char('/'), 1), ns, res.section(QLatin1Char('.'), 1));
    }
    const QList<NearMiss> misses = p.nearMisses(a);
    expected.sort();
    QCOMPARE(summarize(misses), expected);
    // Near misses exist exactly when RBAC refuses, for someone any binding names.
    QCOMPARE(p.authorize(a).allowed, expected.isEmpty() && who != QLatin1String("carol"));
    for (const NearMiss &n : misses) {
        QVERIFY2(!n.message.isEmpty(), qPrintable(n.bindingName));
        QVERIFY(!n.subject.kind.isEmpty());
        QCOMPARE(n.toJson().value(QLatin1String("code")).toString(), n.code);
    }
}

void TestClusterCore::nearMissMessages()
{
    const RbacPolicy p = nearMissPolicy();
    const UserInfo alice = user(QStringLiteral("alice"), {QStringLiteral("devs")});
    auto find = [](const QList<NearMiss> &l, const char *name) {
        for (const NearMiss &n : l)
            if (n.bindingName == QLatin1String(name))
                return n;
        return NearMiss();
    };
    QList<NearMiss> m = p.nearMisses(resource(alice, "delete", "pods", "p", "team"));
    NearMiss n = find(m, "alice-reads");
    QCOMPARE(n.bindingKind, QStringLiteral("ClusterRoleBinding"));
    QCOMPARE(n.subject.kind, QStringLiteral("User"));
    QCOMPARE(n.message, QStringLiteral("no rule of ClusterRole \"pod-reader\" allows the request"));
    QCOMPARE(n.rules.value(0).messages,
             QStringList{QStringLiteral("verb \"delete\" is not in [get list]")});
    QCOMPARE(n.rules.value(0).rule,
             QStringLiteral("verbs=[get list] apiGroups=[\"\"] resources=[pods]"));
    n = find(m, "devs-cm");
    QCOMPARE(n.subject.kind, QStringLiteral("Group"));
    QCOMPARE(n.subject.name, QStringLiteral("devs"));
    QCOMPARE(n.rules.value(0).messages.value(2),
             QStringLiteral("name \"p\" is not in resourceNames [app-config]"));
    n = find(m, "team-deps");
    QCOMPARE(n.bindingKind, QStringLiteral("RoleBinding"));
    QCOMPARE(n.rules.value(0).messages.value(1),
             QStringLiteral("API group \"\" (core) is not in [apps]"));
    QCOMPARE(find(m, "ghost").message,
             QStringLiteral("roleRef names ClusterRole \"missing-role\", which does not exist"));
    QCOMPARE(find(m, "ghost-ns").message,
             QStringLiteral("a RoleBinding grants only inside namespace \"other\"; the request "
                            "is in namespace \"team\""));
    QCOMPARE(find(m, "nothing").message, QStringLiteral("ClusterRole \"empty\" has no rules"));
    QCOMPARE(find(m, "urls").rules.value(0).messages,
             QStringList{QStringLiteral("the rule covers URL paths [/metrics], not resources")});

    m = p.nearMisses(resource(alice, "list", "configmaps", QString(), "team"));
    QCOMPARE(find(m, "devs-cm").rules.value(0).messages.value(1),
             QStringLiteral("resourceNames [app-config] limit the rule to named objects; a "
                            "\"list\" request names none"));
    m = p.nearMisses(resource(alice, "get", "secrets", "s", "other"));
    QCOMPARE(find(m, "ghost-ns").message,
             QStringLiteral("roleRef names Role \"nope\", which does not exist in namespace "
                            "\"other\""));
    QCOMPARE(find(m, "team-deps").message,
             QStringLiteral("a RoleBinding grants only inside namespace \"team\"; the request "
                            "is in namespace \"other\""));
    Attributes url;
    url.user = alice;
    url.verb = QStringLiteral("get");
    url.path = QStringLiteral("/healthz");
    m = p.nearMisses(url);
    QCOMPARE(find(m, "urls").rules.value(0).messages,
             QStringList{QStringLiteral("path \"/healthz\" is not in [/metrics]")});
    QCOMPARE(find(m, "alice-reads").rules.value(0).messages,
             QStringList{QStringLiteral("the rule covers resources, not URL paths")});
    QCOMPARE(find(m, "team-deps").message,
             QStringLiteral("a RoleBinding grants only inside namespace \"team\"; the request "
                            "is cluster-wide"));
    // At most `limit` entries.
    QCOMPARE(p.nearMisses(resource(alice, "delete", "pods", "p", "team"), 2).size(), 2);
}

void TestClusterCore::effectiveAccess()
{
    const RbacPolicy p = nearMissPolicy();
    const UserInfo alice = user(QStringLiteral("alice"), {QStringLiteral("devs")});
    const QList<AccessCell> cells = p.effectiveAccess(alice);
    QStringList summary;
    for (const AccessCell &c : cells) {
        QStringList via;
        for (const AccessCell::Source &s : c.via)
            via.append(QStringLiteral("%1#%2").arg(s.bindingName).arg(s.ruleIndex));
        summary.append(
            QStringLiteral("%1|%2|%3|%4|%5")
                .arg(c.namespaceName.isEmpty() ? QStringLiteral("*") : c.namespaceName, c.verb,
                     c.nonResourceURL.isEmpty() ? c.apiGroup + QLatin1Char('/') + c.resource
                                                : c.nonResourceURL,
                     c.resourceNames.join(QLatin1Char(',')), via.join(' ')));
    }
    // Sorted by scope, then resource or URL, then verb; bob-only and the missing roles grant
    // nothing; the empty role adds nothing.
    QCOMPARE(summary, (QStringList{
                          QStringLiteral("*|get|/configmaps|app-config|devs-cm#0"),
                          QStringLiteral("*|get|/pods||alice-reads#0"),
                          QStringLiteral("*|list|/pods||alice-reads#0"),
                          QStringLiteral("*|get|/metrics||urls#0"),
                          QStringLiteral("team|update|apps/deployments||team-deps#0"),
                      }));
    // Every cell is what authorization really allows, and a request outside them is refused.
    for (const AccessCell &c : cells) {
        Attributes a;
        a.user = alice;
        a.verb = c.verb;
        if (!c.nonResourceURL.isEmpty()) {
            a.path = c.nonResourceURL;
        } else {
            a = resource(alice, c.verb, c.resource, c.resourceNames.value(0, QStringLiteral("x")),
                         c.namespaceName.isEmpty() ? QStringLiteral("anywhere") : c.namespaceName,
                         c.apiGroup);
        }
        QVERIFY2(p.authorize(a).allowed, qPrintable(c.verb + QLatin1Char(' ') + c.resource));
        QCOMPARE(c.toJson().value(QLatin1String("via")).toArray().size(), c.via.size());
    }
    QVERIFY(!p.authorize(resource(alice, "update", "deployments", "d", "other", "apps")).allowed);
    // The same rule through two bindings: one cell, both sources.
    QList<RbacRole> roles{roleFromJson(parse(
        R"J({"metadata":{"name":"r"},"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]})J"))};
    QList<RbacBinding> bindings{
        bindingFromJson(parse(
            R"J({"metadata":{"name":"b1"},"roleRef":{"kind":"ClusterRole","name":"r"},"subjects":[{"kind":"User","name":"alice"}]})J")),
        bindingFromJson(parse(
            R"J({"metadata":{"name":"b2"},"roleRef":{"kind":"ClusterRole","name":"r"},"subjects":[{"kind":"Group","name":"devs"}]})J"))};
    const QList<AccessCell> twice = RbacPolicy(roles, bindings).effectiveAccess(alice);
    QCOMPARE(twice.size(), 1);
    QCOMPARE(twice[0].via.size(), 2);
    QCOMPARE(twice[0].via[1].subject.kind, QStringLiteral("Group"));
    // Nobody named: nothing held.
    QVERIFY(p.effectiveAccess(user(QStringLiteral("carol"), {})).isEmpty());
}

void TestClusterCore::rbacReasonText()
{
    const QList<QJsonObject> roles = bootstrapClusterRoles();
    const QList<QJsonObject> bindings = bootstrapClusterRoleBindings();
    QList<RbacRole> r;
    for (const QJsonObject &o : roles)
        r.append(roleFromJson(o));
    QList<RbacBinding> b;
    for (const QJsonObject &o : bindings)
        b.append(bindingFromJson(o));
    const RbacPolicy p(r, b);
    Attributes a;
    a.user = user(QStringLiteral("bob"), {});
    a.verb = QStringLiteral("get");
    a.path = QStringLiteral("/version");
    RbacDecision d = p.authorize(a);
    QVERIFY(d.allowed);
    QCOMPARE(d.reason, QStringLiteral("RBAC: allowed by ClusterRoleBinding \"system:discovery\" of "
                                      "ClusterRole \"system:discovery\" to Group "
                                      "\"system:authenticated\""));
    // Bootstrap policy consequences (reference kube.md §3.4).
    a.path = QStringLiteral("/");
    QVERIFY(!p.authorize(a).allowed);
    UserInfo anon{QStringLiteral("system:anonymous"),
                  {QStringLiteral("system:unauthenticated")},
                  {},
                  {},
                  {},
                  {}};
    a.user = anon;
    a.path = QStringLiteral("/healthz");
    QVERIFY(p.authorize(a).allowed);
    a.path = QStringLiteral("/api");
    QVERIFY(!p.authorize(a).allowed);
    a.user = user(QStringLiteral("root"), {QStringLiteral("system:masters")});
    a.path = QStringLiteral("/");
    QCOMPARE(p.authorize(a).bindingName, QStringLiteral("cluster-admin"));
    const Attributes ssar =
        resource(user(QStringLiteral("bob"), {}), "create", "selfsubjectaccessreviews", QString(),
                 QString(), "authorization.k8s.io");
    QVERIFY(p.authorize(ssar).allowed);
}

void TestClusterCore::bootstrapEditAndAdminLeaveStatusAlone()
{
    // As Kubernetes' edit and admin: they write pods and services, and only read their status
    // (the kubelet's and the controllers'; a service's loadBalancer.ingress redirects traffic).
    QList<RbacRole> r;
    for (const QJsonObject &o : bootstrapClusterRoles())
        r.append(roleFromJson(o));
    for (const char *role : {"edit", "admin"}) {
        const QJsonObject binding{
            {QStringLiteral("kind"), QStringLiteral("RoleBinding")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("b")},
                         {QStringLiteral("namespace"), QStringLiteral("team")}}},
            {QStringLiteral("roleRef"),
             QJsonObject{
                 {QStringLiteral("kind"), QStringLiteral("ClusterRole")},
                 {QStringLiteral("name"), QLatin1String(role)},
                 {QStringLiteral("apiGroup"), QStringLiteral("rbac.authorization.k8s.io")}}},
            {QStringLiteral("subjects"),
             QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("User")},
                                    {QStringLiteral("name"), QStringLiteral("dev")}}}}};
        const RbacPolicy p(r, {bindingFromJson(binding)});
        const UserInfo dev = user(QStringLiteral("dev"), {});
        for (const char *res : {"pods", "services"}) {
            QVERIFY2(p.authorize(resource(dev, "patch", res, "x", "team")).allowed, role);
            QVERIFY2(
                p.authorize(resource(dev, "get", res, "x", "team", QString(), "status")).allowed,
                role);
            for (const char *verb : {"patch", "update"})
                QVERIFY2(!p.authorize(resource(dev, verb, res, "x", "team", QString(), "status"))
                              .allowed,
                         qPrintable(QStringLiteral("%1 may %2 %3/status").arg(role, verb, res)));
        }
    }
    // The roles an earlier version stored (and bootstrap() replaces) are recognised as such.
    const auto old = supersededBootstrapRules();
    QCOMPARE(
        old.value(QStringLiteral("edit")),
        QJsonDocument::fromJson(
            R"J([{"apiGroups":[""],"resources":["pods","pods/status","services","services/status","serviceaccounts"],"verbs":["get","list","watch","create","delete","deletecollection","patch","update"]},
                      {"apiGroups":[""],"resources":["namespaces"],"verbs":["get","list","watch"]}])J")
            .array());
    QCOMPARE(old.value(QStringLiteral("admin")).size(), 4);
    QCOMPARE(old.value(QStringLiteral("admin")).at(0), old.value(QStringLiteral("edit")).at(0));
}

void TestClusterCore::escalation()
{
    auto rules = [](const char *json) {
        QList<PolicyRule> out;
        for (const QJsonValue v : QJsonDocument::fromJson(json).array())
            out.append(PolicyRule::fromJson(v.toObject()));
        return out;
    };
    const auto owner =
        rules(R"J([{"verbs":["get","list"],"apiGroups":[""],"resources":["pods","nodes/status"]},
                                 {"verbs":["get"],"apiGroups":[""],"resources":["secrets"],"resourceNames":["s1"]},
                                 {"verbs":["get"],"nonResourceURLs":["/logs/*"]}])J");
    QVERIFY(
        rulesCover(owner, rules(R"J([{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}])J")));
    QVERIFY(rulesCover(
        owner,
        rules(
            R"J([{"verbs":["get"],"apiGroups":[""],"resources":["secrets"],"resourceNames":["s1"]}])J")));
    QVERIFY(!rulesCover(
        owner, rules(R"J([{"verbs":["get"],"apiGroups":[""],"resources":["secrets"]}])J")));
    QVERIFY(rulesCover(owner, rules(R"J([{"verbs":["get"],"nonResourceURLs":["/logs/a"]}])J")));
    QList<PolicyRule> missing;
    QVERIFY(!rulesCover(
        owner, rules(R"J([{"verbs":["get","delete"],"apiGroups":[""],"resources":["pods"]}])J"),
        &missing));
    QCOMPARE(missing.size(), 1);
    QCOMPARE(missing[0].verbs, QStringList{QStringLiteral("delete")});
    // A wildcard is only covered by a wildcard.
    QVERIFY(
        !rulesCover(owner, rules(R"J([{"verbs":["*"],"apiGroups":[""],"resources":["pods"]}])J")));
    QVERIFY(rulesCover(
        rules(R"J([{"verbs":["*"],"apiGroups":["*"],"resources":["*"]}])J"),
        rules(R"J([{"verbs":["*"],"apiGroups":["apps"],"resources":["deployments/scale"]}])J")));
}

void TestClusterCore::oidcGroups_data()
{
    QTest::addColumn<QStringList>("token");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QStringList>("mappings");
    QTest::addColumn<QStringList>("groups");
    QTest::addColumn<QStringList>("dropped");
    const QStringList none;
    QTest::newRow("plain groups pass")
        << QStringList{"devs", "ops"} << QString() << none << QStringList{"devs", "ops"} << none;
    QTest::newRow("system:masters dropped")
        << QStringList{"devs", "system:masters"} << QString() << none << QStringList{"devs"}
        << QStringList{"system:masters"};
    QTest::newRow("every system: group dropped")
        << QStringList{"system:nodes", "system:serviceaccounts", "system:authenticated"}
        << QString() << none << none
        << QStringList{"system:nodes", "system:serviceaccounts", "system:authenticated"};
    QTest::newRow("a prefix namespaces them all")
        << QStringList{"devs", "system:masters"} << QStringLiteral("oidc:") << none
        << QStringList{"oidc:devs", "oidc:system:masters"} << none;
    QTest::newRow("a prefix that makes a system group is caught")
        << QStringList{"masters"} << QStringLiteral("system:") << none << none
        << QStringList{"masters"};
    QTest::newRow("an explicit mapping is the way in")
        << QStringList{"ops", "system:masters"} << QString() << QStringList{"ops=system:masters"}
        << QStringList{"system:masters"} << QStringList{"system:masters"};
    QTest::newRow("a mapping of the system group itself")
        << QStringList{"system:masters"} << QStringLiteral("oidc:")
        << QStringList{"system:masters=system:masters"} << QStringList{"system:masters"} << none;
    QTest::newRow("mapped verbatim, no prefix")
        << QStringList{"eng"} << QStringLiteral("oidc:") << QStringList{"eng=engineering"}
        << QStringList{"engineering"} << none;
    QTest::newRow("duplicates once")
        << QStringList{"a", "b"} << QString() << QStringList{"b=a"} << QStringList{"a"} << none;
}

void TestClusterCore::oidcGroups()
{
    QFETCH(QStringList, token);
    QFETCH(QString, prefix);
    QFETCH(QStringList, mappings);
    QFETCH(QStringList, groups);
    QFETCH(QStringList, dropped);
    QStringList out;
    QCOMPARE(oidcClusterGroups(token, prefix, mappings, &out), groups);
    QCOMPARE(out, dropped);
    // The settings refuse what is not one pair per entry, or a group mapped twice.
    QVERIFY(ClusterSettings::validateGroupMappings(mappings).isEmpty());
    QVERIFY(!ClusterSettings::validateGroupMappings({QStringLiteral("a=b"), QStringLiteral("a=c")})
                 .isEmpty());
    QVERIFY(!ClusterSettings::validateGroupMappings({QStringLiteral("no-pair")}).isEmpty());
}

void TestClusterCore::nodeAuthorizer_data()
{
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("res");
    QTest::addColumn<QString>("sub");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("fieldSelector");
    QTest::addColumn<bool>("allowed");
    QTest::addColumn<QString>("reason");
    QTest::newRow("get own") << "get"
                             << "nodes"
                             << ""
                             << "n1"
                             << ""
                             << "" << true << "";
    QTest::newRow("get other") << "get"
                               << "nodes"
                               << ""
                               << "n2"
                               << ""
                               << "" << false
                               << "node 'n1' cannot read 'n2', only its own Node object";
    QTest::newRow("list all") << "list"
                              << "nodes"
                              << ""
                              << ""
                              << ""
                              << "" << false
                              << "node 'n1' cannot read all nodes, only its own Node object";
    QTest::newRow("list own by selector") << "list"
                                          << "nodes"
                                          << ""
                                          << "n1"
                                          << ""
                                          << "" << true << "";
    QTest::newRow("patch other (admission narrows)") << "patch"
                                                     << "nodes"
                                                     << ""
                                                     << "n2"
                                                     << ""
                                                     << "" << true << "";
    QTest::newRow("delete own") << "delete"
                                << "nodes"
                                << ""
                                << "n1"
                                << ""
                                << "" << false << "";
    QTest::newRow("status patch") << "patch"
                                  << "nodes"
                                  << "status"
                                  << "n1"
                                  << ""
                                  << "" << true << "";
    QTest::newRow("pod on node") << "get"
                                 << "pods"
                                 << ""
                                 << "mine"
                                 << "d"
                                 << "" << true << "";
    QTest::newRow("pod elsewhere")
        << "get"
        << "pods"
        << ""
        << "theirs"
        << "d"
        << "" << false << "no relationship found between node 'n1' and this object";
    QTest::newRow("pods list by nodeName") << "list"
                                           << "pods"
                                           << ""
                                           << ""
                                           << ""
                                           << "spec.nodeName=n1" << true << "";
    QTest::newRow("pods list all")
        << "list"
        << "pods"
        << ""
        << ""
        << ""
        << "" << false << "can only list/watch pods with spec.nodeName field selector";
    QTest::newRow("secret") << "get"
                            << "secrets"
                            << ""
                            << "s"
                            << "default"
                            << "" << false
                            << "no relationship found between node 'n1' and this object";
    QTest::newRow("namespaces") << "list"
                                << "namespaces"
                                << ""
                                << ""
                                << ""
                                << "" << false << "";
    QTest::newRow("services static") << "list"
                                     << "services"
                                     << ""
                                     << ""
                                     << ""
                                     << "" << true << "";
}

void TestClusterCore::nodeAuthorizer()
{
    QFETCH(QString, verb);
    QFETCH(QString, res);
    QFETCH(QString, sub);
    QFETCH(QString, name);
    QFETCH(QString, ns);
    QFETCH(QString, fieldSelector);
    QFETCH(bool, allowed);
    QFETCH(QString, reason);
    Attributes a =
        resource(user(QStringLiteral("system:node:n1"), {QStringLiteral("system:nodes")}), verb,
                 res, name, ns, QString(), sub);
    a.fieldSelector = fieldSelector;
    const AuthorizerStep s = authorizeNode(a, [](const QString &, const QString &pod) {
        return pod == QLatin1String("mine") ? QStringLiteral("n1") : QStringLiteral("n2");
    });
    QCOMPARE(s.decision == Decision::Allow, allowed);
    QCOMPARE(s.reason, reason);
    // Not a node without the group: no opinion, no reason.
    a.user.groups = {QStringLiteral("system:authenticated")};
    const AuthorizerStep other = authorizeNode(a, {});
    QCOMPARE(other.decision, Decision::NoOpinion);
    QVERIFY(other.reason.isEmpty());
}

void TestClusterCore::authorizerChainAndMessages()
{
    QList<RbacRole> r;
    for (const QJsonObject &o : bootstrapClusterRoles())
        r.append(roleFromJson(o));
    QList<RbacBinding> b;
    for (const QJsonObject &o : bootstrapClusterRoleBindings())
        b.append(bindingFromJson(o));
    auto policy = std::make_shared<const RbacPolicy>(r, b);
    const AuthorizerChain chain({QStringLiteral("Node"), QStringLiteral("RBAC")}, policy, {});
    const UserInfo node = user(QStringLiteral("system:node:n1"), {QStringLiteral("system:nodes")});
    Attributes list = resource(node, "list", "namespaces");
    AuthorizationResult res = chain.authorize(list);
    QVERIFY(!res.allowed());
    QCOMPARE(forbiddenMessage(list, res.reason),
             QStringLiteral("User \"system:node:n1\" cannot list resource \"namespaces\" in API "
                            "group \"\" at the cluster scope"));
    Attributes get = resource(node, "get", "nodes", "n2");
    res = chain.authorize(get);
    QCOMPARE(
        forbiddenMessage(get, res.reason),
        QStringLiteral("User \"system:node:n1\" cannot get resource \"nodes\" in API group \"\" "
                       "at the cluster scope: node 'n1' cannot read 'n2', only its own Node "
                       "object"));
    Attributes ns =
        resource(user(QStringLiteral("bob"), {}), "get", "pods", "p", "team", QString(), "log");
    QCOMPARE(
        forbiddenMessage(ns, chain.authorize(ns).reason),
        QStringLiteral("User \"bob\" cannot get resource \"pods/log\" in API group \"\" in the "
                       "namespace \"team\""));
    Attributes html;
    html.user = user(QStringLiteral("<b>&"), {});
    html.verb = QStringLiteral("get");
    html.path = QStringLiteral("/x");
    QCOMPARE(forbiddenMessage(html, QStringLiteral("r<")),
             QStringLiteral("User \"&lt;b&gt;&amp;\" cannot get path \"/x\": r<"));
    // system:masters short-circuits; AlwaysDeny denies with its reason.
    QVERIFY(chain
                .authorize(resource(user(QStringLiteral("x"), {QStringLiteral("system:masters")}),
                                    "delete", "nodes", "n1"))
                .allowed());
    const AuthorizerChain deny({QStringLiteral("AlwaysDeny"), QStringLiteral("RBAC")}, policy, {});
    res = deny.authorize(resource(user(QStringLiteral("bob"), {}), "create",
                                  "selfsubjectaccessreviews", QString(), QString(),
                                  "authorization.k8s.io"));
    QCOMPARE(res.decision, Decision::Deny);
    QCOMPARE(res.decidedBy, QStringLiteral("AlwaysDeny"));
}

// A token authenticator that cannot check a token now (its issuer's records unreadable) is
// no decision: the request gets the 401 all the same, flagged unavailable (an open watch is
// not ended for it); a later authenticator that knows the token decides.
void TestClusterCore::tokenThatCannotBeCheckedNow()
{
    Authenticator auth;
    auth.addTokenAuthenticator(
        QStringLiteral("flaky"),
        [](const QString &token, const QStringList &) -> std::optional<TokenVerdict> {
            if (token == QLatin1String("refused"))
                return QStringLiteral("refused for good");
            if (token == QLatin1String("later"))
                return TokenUnavailable{QStringLiteral("records unreadable")};
            return std::nullopt;
        });
    AuthenticationResult later = auth.authenticate({}, QStringLiteral("later"));
    QVERIFY(!later.ok());
    QVERIFY(later.unavailable);
    QCOMPARE(later.reason, QStringLiteral("records unreadable"));
    AuthenticationResult refused = auth.authenticate({}, QStringLiteral("refused"));
    QVERIFY(!refused.ok());
    QVERIFY(!refused.unavailable);
    // Another authenticator that accepts the token wins over one that could not decide.
    auth.addTokenAuthenticator(
        QStringLiteral("sure"),
        [](const QString &token, const QStringList &) -> std::optional<TokenVerdict> {
            if (token != QLatin1String("later"))
                return std::nullopt;
            UserInfo u;
            u.name = QStringLiteral("alice");
            return u;
        });
    AuthenticationResult accepted = auth.authenticate({}, QStringLiteral("later"));
    QVERIFY(accepted.ok());
    QVERIFY(!accepted.unavailable);
    QCOMPARE(accepted.user.name, QStringLiteral("alice"));
}

void TestClusterCore::validateModes()
{
    QVERIFY(
        AuthorizerChain::validateModes({QStringLiteral("Node"), QStringLiteral("RBAC")}).isEmpty());
    QVERIFY(
        AuthorizerChain::validateModes({QStringLiteral("Node")}).contains(QLatin1String("RBAC")));
    QVERIFY(AuthorizerChain::validateModes({QStringLiteral("RBAC"), QStringLiteral("ABAC")})
                .contains(QLatin1String("ABAC")));
    QVERIFY(!AuthorizerChain::validateModes({QStringLiteral("RBAC"), QStringLiteral("RBAC")})
                 .isEmpty());
    QVERIFY(!AdmissionChain::validatePlugins({QStringLiteral("PodSecurity")}).isEmpty());
    QVERIFY(AdmissionChain::validatePlugins({}).isEmpty());
}

void TestClusterCore::forbiddenNodeLabels_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("forbidden");
    // Every row of the reference's table (kube.md §4.1), and the seed's prefix rows.
    QTest::newRow("foo") << "foo" << false;
    QTest::newRow("example.com/x") << "example.com/x" << false;
    QTest::newRow("kubernetes.io/hostname") << "kubernetes.io/hostname" << false;
    QTest::newRow("topology.kubernetes.io/zone") << "topology.kubernetes.io/zone" << false;
    QTest::newRow("node.kubernetes.io/exclude...")
        << "node.kubernetes.io/exclude-from-external-load-balancers" << false;
    QTest::newRow("foo.kubelet.kubernetes.io/x") << "foo.kubelet.kubernetes.io/x" << false;
    QTest::newRow("node-restriction.kubernetes.io/x") << "node-restriction.kubernetes.io/x" << true;
    QTest::newRow("a.node-restriction.kubernetes.io/x")
        << "a.node-restriction.kubernetes.io/x" << true;
    QTest::newRow("node-role.kubernetes.io/worker") << "node-role.kubernetes.io/worker" << true;
    QTest::newRow("kubernetes.io/foo") << "kubernetes.io/foo" << true;
    QTest::newRow("topology.kubernetes.io/foo") << "topology.kubernetes.io/foo" << true;
    QTest::newRow("k8s.io/x") << "k8s.io/x" << true;
    QTest::newRow("foo.k8s.io/x") << "foo.k8s.io/x" << true;
    QTest::newRow("seed: prefix without slash") << "node-restriction.kubernetes.io" << false;
    QTest::newRow("kubelet exact list") << "beta.kubernetes.io/instance-type" << false;
    QTest::newRow("failure-domain zone") << "failure-domain.beta.kubernetes.io/zone" << false;
    QTest::newRow("kubelet.kubernetes.io/x") << "kubelet.kubernetes.io/x" << false;
    QTest::newRow("notkubernetes.io/x") << "notkubernetes.io/x" << false;
}

void TestClusterCore::forbiddenNodeLabels()
{
    QFETCH(QString, key);
    QFETCH(bool, forbidden);
    QCOMPARE(isForbiddenNodeLabel(key), forbidden);
}

void TestClusterCore::nodeRestrictionMessages_data()
{
    QTest::addColumn<QString>("operation");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("oldObject");
    QTest::addColumn<QString>("newObject");
    QTest::addColumn<QString>("message"); // empty: allowed

    const QString base = QStringLiteral(R"J({"metadata":{"name":"n1","labels":{"a":"1"}}})J");
    QTest::newRow("own label") << "UPDATE"
                               << "n1" << base
                               << R"J({"metadata":{"name":"n1","labels":{"a":"1","foo":"bar"}}})J"
                               << "";
    QTest::newRow("other node")
        << "UPDATE"
        << "n2" << base << base
        << "nodes \"n2\" is forbidden: node \"n1\" is not allowed to modify node \"n2\"";
    QTest::newRow("protected label")
        << "UPDATE"
        << "n1" << base
        << R"J({"metadata":{"name":"n1","labels":{"a":"1","node-restriction.kubernetes.io/foo":"x"}}})J"
        << "nodes \"n1\" is forbidden: is not allowed to modify labels: "
           "node-restriction.kubernetes.io/foo";
    QTest::newRow("two protected, sorted")
        << "UPDATE"
        << "n1" << base
        << R"J({"metadata":{"name":"n1","labels":{"k8s.io/b":"1","kubernetes.io/a":"x"}}})J"
        << "nodes \"n1\" is forbidden: is not allowed to modify labels: k8s.io/b, kubernetes.io/a";
    QTest::newRow("removing a protected label")
        << "UPDATE"
        << "n1"
        << R"J({"metadata":{"name":"n1","labels":{"node-role.kubernetes.io/x":""}}})J"
        << R"J({"metadata":{"name":"n1","labels":{}}})J"
        << "nodes \"n1\" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/x";
    QTest::newRow("unchanged protected label is fine")
        << "UPDATE"
        << "n1"
        << R"J({"metadata":{"name":"n1","labels":{"node-role.kubernetes.io/x":""}}})J"
        << R"J({"metadata":{"name":"n1","labels":{"node-role.kubernetes.io/x":"","b":"2"}}})J"
        << "";
    QTest::newRow("prefix without slash")
        << "UPDATE"
        << "n1" << base
        << R"J({"metadata":{"name":"n1","labels":{"node-restriction.kubernetes.io":"ok"}}})J"
        << "";
    QTest::newRow("create with protected")
        << "CREATE"
        << "n1"
        << "{}"
        << R"J({"metadata":{"name":"n1","labels":{"node-role.kubernetes.io/w":"","a":"1"}}})J"
        << "nodes \"n1\" is forbidden: node \"n1\" is not allowed to set the following labels: "
           "node-role.kubernetes.io/w";
    QTest::newRow("taints changed")
        << "UPDATE"
        << "n1" << base
        << R"J({"metadata":{"name":"n1","labels":{"a":"1"}},"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]}})J"
        << "nodes \"n1\" is forbidden: node \"n1\" is not allowed to modify taints";
    QTest::newRow("configSource on create")
        << "CREATE"
        << "n1"
        << "{}"
        << R"J({"metadata":{"name":"n1"},"spec":{"configSource":{}}})J"
        << "nodes \"n1\" is forbidden: node \"n1\" is not allowed to create pods with a non-nil "
           "configSource";
}

void TestClusterCore::nodeRestrictionMessages()
{
    QFETCH(QString, operation);
    QFETCH(QString, name);
    QFETCH(QString, oldObject);
    QFETCH(QString, newObject);
    QFETCH(QString, message);
    const AdmissionChain chain(AdmissionChain::defaultPlugins(), AdmissionContext{});
    AdmissionRequest r;
    r.operation = operation;
    r.name = name;
    r.attributes =
        resource(user(QStringLiteral("system:node:n1"), {QStringLiteral("system:nodes")}),
                 operation == QLatin1String("CREATE") ? "create" : "patch", "nodes", name);
    r.oldObject = QJsonDocument::fromJson(oldObject.toUtf8()).object();
    r.newObject = QJsonDocument::fromJson(newObject.toUtf8()).object();
    const AdmissionVerdict v = chain.admit(r);
    QCOMPARE(v.allowed, message.isEmpty());
    if (!message.isEmpty()) {
        QCOMPARE(v.plugin, QStringLiteral("NodeRestriction"));
        QCOMPARE(v.status.message, message);
        QCOMPARE(v.status.code, 403);
        QCOMPARE(QString::fromUtf8(v.status.body(false)),
                 QStringLiteral("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                                "\"status\":\"Failure\",\"message\":%1,\"reason\":\"Forbidden\","
                                "\"details\":{\"name\":\"%2\",\"kind\":\"nodes\"},\"code\":403}\n")
                     .arg(QString::fromUtf8(JsonWriter::encode(message)), name));
    }
    // Anyone but a node is not NodeRestriction's business.
    r.attributes.user = user(QStringLiteral("admin"), {});
    QVERIFY(chain.admit(r).allowed);
}

void TestClusterCore::namespaceLifecycle()
{
    AdmissionContext ctx;
    ctx.namespacePhase = [](const QString &n) -> std::optional<QString> {
        if (n == QLatin1String("live"))
            return QStringLiteral("Active");
        if (n == QLatin1String("dying"))
            return QStringLiteral("Terminating");
        return std::nullopt;
    };
    const AdmissionChain chain({QStringLiteral("NamespaceLifecycle")}, ctx);
    AdmissionRequest r;
    r.operation = QStringLiteral("CREATE");
    r.name = QStringLiteral("p");
    r.attributes = resource(user(QStringLiteral("bob"), {}), "create", "pods", QString(), "live");
    QVERIFY(chain.admit(r).allowed);
    r.attributes.namespaceName = QStringLiteral("nope");
    AdmissionVerdict v = chain.admit(r);
    QCOMPARE(v.status.code, 404);
    QCOMPARE(v.status.message, QStringLiteral("namespaces \"nope\" not found"));
    r.attributes.namespaceName = QStringLiteral("dying");
    v = chain.admit(r);
    QCOMPARE(v.status.code, 403);
    QCOMPARE(v.status.message, QStringLiteral("pods \"p\" is forbidden: unable to create new "
                                              "content in namespace dying because it is being "
                                              "terminated"));
    AdmissionRequest del;
    del.operation = QStringLiteral("DELETE");
    del.name = QStringLiteral("kube-system");
    del.attributes = resource(user(QStringLiteral("bob"), {}), "delete", "namespaces",
                              QStringLiteral("kube-system"), QStringLiteral("kube-system"));
    v = chain.admit(del);
    QCOMPARE(v.status.message,
             QStringLiteral(
                 "namespaces \"kube-system\" is forbidden: this namespace may not be deleted"));
}

void TestClusterCore::goldenStatus_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QByteArray>("body");
    QTest::newRow("401")
        << 0
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401})J"
               "\n");
    QTest::newRow("403 anonymous /")
        << 1
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \"system:anonymous\" cannot get path \"/\"","reason":"Forbidden","details":{},"code":403})J"
               "\n");
    QTest::newRow("403 node get")
        << 2
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes \"n1\" is forbidden: User \"bob\" cannot get resource \"nodes\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"name":"n1","kind":"nodes"},"code":403})J"
               "\n");
    QTest::newRow("404 node")
        << 3
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"nodes"},"code":404})J"
               "\n");
    QTest::newRow("404 group")
        << 4
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"x\" not found","reason":"NotFound","details":{"name":"x","group":"apps","kind":"deployments"},"code":404})J"
               "\n");
    QTest::newRow("404 route")
        << 5
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404})J"
               "\n");
    QTest::newRow("405")
        << 6
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405})J"
               "\n");
    QTest::newRow("409 exists")
        << 7
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes \"n1\" already exists","reason":"AlreadyExists","details":{"name":"n1","kind":"nodes"},"code":409})J"
               "\n");
    QTest::newRow("409 conflict")
        << 8
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on nodes \"n1\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"n1","kind":"nodes"},"code":409})J"
               "\n");
    QTest::newRow("415")
        << 9
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json","reason":"UnsupportedMediaType","code":415})J"
               "\n");
    QTest::newRow("422")
        << 10
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Node \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')","reason":"Invalid","details":{"name":"Bad_Name","kind":"Node","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')","field":"metadata.name"}]},"code":422})J"
               "\n");
    QTest::newRow("503 startup")
        << 11
        << QByteArray(
               R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the request has been made before all known HTTP paths have been installed, please try again","reason":"ServiceUnavailable","details":{"retryAfterSeconds":5},"code":503})J"
               "\n");
}

void TestClusterCore::goldenStatus()
{
    QFETCH(int, which);
    QFETCH(QByteArray, body);
    Status s;
    switch (which) {
    case 0:
        s = Status::unauthorized();
        break;
    case 1:
        s = Status::forbidden({}, {}, {},
                              QStringLiteral("User \"system:anonymous\" cannot get path \"/\""));
        break;
    case 2:
        s = Status::forbidden({}, QStringLiteral("nodes"), QStringLiteral("n1"),
                              QStringLiteral("User \"bob\" cannot get resource \"nodes\" in API "
                                             "group \"\" at the cluster scope"));
        break;
    case 3:
        s = Status::notFound({}, QStringLiteral("nodes"), QStringLiteral("x"));
        break;
    case 4:
        s = Status::notFound(QStringLiteral("apps"), QStringLiteral("deployments"),
                             QStringLiteral("x"));
        break;
    case 5:
        s = Status::routeNotFound();
        break;
    case 6:
        s = Status::methodNotAllowed();
        break;
    case 7:
        s = Status::alreadyExists({}, QStringLiteral("nodes"), QStringLiteral("n1"));
        break;
    case 8:
        s = Status::staleResourceVersion({}, QStringLiteral("nodes"), QStringLiteral("n1"));
        break;
    case 9:
        s = Status::unsupportedMediaType({QStringLiteral("application/json-patch+json"),
                                          QStringLiteral("application/merge-patch+json")});
        break;
    case 10: {
        const QList<StatusCause> causes = Validation::objectMeta(
            QJsonObject{{QStringLiteral("metadata"),
                         QJsonObject{{QStringLiteral("name"), QStringLiteral("Bad_Name")}}}},
            QStringLiteral("nodes"));
        s = Status::invalid({}, QStringLiteral("Node"), QStringLiteral("Bad_Name"), causes);
        break;
    }
    case 11:
        s = Status::serviceUnavailable(
            QStringLiteral("the request has been made before all known "
                           "HTTP paths have been installed, please try again"),
            5);
        break;
    default:
        QFAIL("no such case");
    }
    QCOMPARE(s.body(false), body);
}

void TestClusterCore::prettyStatus()
{
    const QByteArray pretty =
        Status::forbidden({}, {}, {},
                          QStringLiteral("User \"system:anonymous\" cannot get path \"/\""))
            .body(true);
    QCOMPARE(pretty, QByteArray("{\n"
                                "  \"kind\": \"Status\",\n"
                                "  \"apiVersion\": \"v1\",\n"
                                "  \"metadata\": {},\n"
                                "  \"status\": \"Failure\",\n"
                                "  \"message\": \"forbidden: User \\\"system:anonymous\\\" cannot "
                                "get path \\\"/\\\"\",\n"
                                "  \"reason\": \"Forbidden\",\n"
                                "  \"details\": {},\n"
                                "  \"code\": 403\n"
                                "}"));
}

void TestClusterCore::goEscaping()
{
    QCOMPARE(JsonWriter::encode(QStringLiteral("a<b>&c\u2028\n\t\x01")),
             QByteArray("\"a\\u003cb\\u003e\\u0026c\\u2028\\n\\t\\u0001\""));
    QCOMPARE(JsonWriter::encode(QJsonObject{{QStringLiteral("spec"), 1},
                                            {QStringLiteral("b"), 2},
                                            {QStringLiteral("kind"), QStringLiteral("X")},
                                            {QStringLiteral("metadata"), QJsonObject()}}),
             QByteArray("{\"kind\":\"X\",\"metadata\":{},\"spec\":1,\"b\":2}"));
    QCOMPARE(JsonWriter::encode(QJsonArray{}, true), QByteArray("[]"));
}

void TestClusterCore::serviceExternalIPs_data()
{
    // Kubernetes 1.32's IsValidIP and ValidateNonSpecialIP, message for message.
    QTest::addColumn<QString>("ip");
    QTest::addColumn<QString>("error");
    const QString invalid =
        QStringLiteral("must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
    const QString loopback =
        QStringLiteral("may not be in the loopback range (127.0.0.0/8, ::1/128)");
    const QString linkLocal =
        QStringLiteral("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
    QTest::newRow("private v4") << "10.0.0.5" << QString();
    QTest::newRow("public v6") << "2001:db8::1" << QString();
    QTest::newRow("loopback") << "127.0.0.1" << loopback;
    QTest::newRow("loopback range") << "127.9.9.9" << loopback;
    QTest::newRow("loopback v6") << "::1" << loopback;
    QTest::newRow("loopback v4-mapped") << "::ffff:127.0.0.1" << loopback;
    QTest::newRow("metadata") << "169.254.169.254" << linkLocal;
    QTest::newRow("link-local v6") << "fe80::1" << linkLocal;
    QTest::newRow("unspecified") << "0.0.0.0" << QStringLiteral("may not be unspecified (0.0.0.0)");
    QTest::newRow("unspecified v6") << "::" << QStringLiteral("may not be unspecified (::)");
    QTest::newRow("link-local multicast")
        << "224.0.0.1"
        << QStringLiteral("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
    QTest::newRow("host name") << "localhost" << invalid;
    QTest::newRow("short form") << "127.1" << invalid;
    QTest::newRow("zone") << "fe80::1%eth0" << invalid;
    QTest::newRow("empty") << "" << invalid;
}

void TestClusterCore::serviceExternalIPs()
{
    QFETCH(QString, ip);
    QFETCH(QString, error);
    const QJsonObject svc{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("hook")}}},
        {QStringLiteral("spec"),
         QJsonObject{
             {QStringLiteral("type"), QStringLiteral("ClusterIP")},
             {QStringLiteral("externalIPs"), QJsonArray{QStringLiteral("10.0.0.9"), ip}},
             {QStringLiteral("ports"), QJsonArray{QJsonObject{{QStringLiteral("port"), 443}}}}}}};
    const QList<StatusCause> causes = Validation::object(QStringLiteral("services"), svc);
    if (error.isEmpty()) {
        QVERIFY2(causes.isEmpty(),
                 qPrintable(causes.isEmpty() ? QString() : causes.first().message));
        return;
    }
    QCOMPARE(causes.size(), 1);
    QCOMPARE(causes.first().field, QStringLiteral("spec.externalIPs[1]"));
    QCOMPARE(causes.first().reason, QStringLiteral("FieldValueInvalid"));
    QCOMPARE(causes.first().message,
             QStringLiteral("Invalid value: %1: %2").arg(Validation::goQuoted(ip), error));
}

void TestClusterCore::updateValidation_data()
{
    // kube 1.32's ValidatePodUpdate and ValidateNodeUpdate: the spec before and after (JSON),
    // and the causes as "field reason" (none: accepted).
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QByteArray>("before");
    QTest::addColumn<QByteArray>("after");
    QTest::addColumn<QStringList>("causes");
    const QByteArray pod =
        R"({"containers":[{"name":"c","image":"busybox"}],"serviceAccountName":"default",)"
        R"("tolerations":[{"key":"a","operator":"Exists"}],"activeDeadlineSeconds":60,)"
        R"("terminationGracePeriodSeconds":-1,"schedulingGates":[{"name":"g"}]})";
    auto with = [&](const char *from, const char *to) {
        QByteArray p = pod;
        return p.replace(from, to);
    };
    const QStringList spec{QStringLiteral("spec FieldValueForbidden")};
    QTest::newRow("pod: unchanged") << "pods" << pod << pod << QStringList();
    QTest::newRow("pod: image") << "pods" << pod << with("busybox", "busybox:1.37")
                                << QStringList();
    QTest::newRow("pod: empty list for none")
        << "pods" << pod << with(R"("tolerations")", R"("volumes":[],"tolerations")")
        << QStringList();
    QTest::newRow("pod: deprecated serviceAccount, the same account")
        << "pods" << pod << with(R"("serviceAccountName")", R"("serviceAccount")") << QStringList();
    QTest::newRow("pod: another account")
        << "pods" << pod << with(R"("default")", R"("builder")") << spec;
    QTest::newRow("pod: privileged")
        << "pods" << pod
        << with(R"("busybox"})", R"("busybox","securityContext":{"privileged":true}})") << spec;
    QTest::newRow("pod: escalation allowed again")
        << "pods"
        << with(R"("busybox"})",
                R"("busybox","securityContext":{"allowPrivilegeEscalation":false}})")
        << pod << spec;
    QTest::newRow("pod: hostNetwork")
        << "pods" << pod
        << with(R"("serviceAccountName")", R"("hostNetwork":true,"serviceAccountName")") << spec;
    QTest::newRow("pod: container added")
        << "pods" << pod << with(R"("busybox"})", R"("busybox"},{"name":"d","image":"busybox"})")
        << QStringList{QStringLiteral("spec.containers FieldValueForbidden")};
    QTest::newRow("pod: image emptied")
        << "pods" << pod << with(R"("image":"busybox")", R"("image":"")")
        << QStringList{QStringLiteral("spec.containers[0].image FieldValueRequired")};
    QTest::newRow("pod: toleration added")
        << "pods" << pod
        << with(R"("operator":"Exists"})",
                R"("operator":"Exists"},{"key":"b","operator":"Exists"})")
        << QStringList();
    QTest::newRow("pod: toleration seconds")
        << "pods" << pod
        << with(R"("operator":"Exists"})", R"("operator":"Exists","tolerationSeconds":5})")
        << QStringList();
    QTest::newRow("pod: toleration removed")
        << "pods" << pod << with(R"({"key":"a","operator":"Exists"})", "")
        << QStringList{QStringLiteral("spec.tolerations FieldValueForbidden")};
    QTest::newRow("pod: deadline lowered") << "pods" << pod << with("60", "30") << QStringList();
    QTest::newRow("pod: deadline raised")
        << "pods" << pod << with("60", "90")
        << QStringList{QStringLiteral("spec.activeDeadlineSeconds FieldValueInvalid")};
    QTest::newRow("pod: deadline removed")
        << "pods" << pod << with(R"("activeDeadlineSeconds":60,)", "")
        << QStringList{QStringLiteral("spec.activeDeadlineSeconds FieldValueInvalid")};
    QTest::newRow("pod: grace from negative to 1")
        << "pods" << pod << with("-1", "1") << QStringList();
    QTest::newRow("pod: grace from negative to 30") << "pods" << pod << with("-1", "30") << spec;
    QTest::newRow("pod: gate removed")
        << "pods" << pod << with(R"({"name":"g"})", "") << QStringList();
    QTest::newRow("pod: gate added")
        << "pods" << pod << with(R"({"name":"g"})", R"({"name":"h"})")
        << QStringList{QStringLiteral("spec.schedulingGates[0].name FieldValueForbidden")};
    const QByteArray node = R"({"podCIDR":"10.0.1.0/24","providerID":"gce://p/z/n"})";
    QTest::newRow("node: unchanged") << "nodes" << node << node << QStringList();
    QTest::newRow("node: set from empty") << "nodes" << QByteArray("{}") << node << QStringList();
    QTest::newRow("node: podCIDRs as podCIDR")
        << "nodes" << node
        << QByteArray(R"({"podCIDRs":["10.0.1.0/24"],"providerID":"gce://p/z/n"})")
        << QStringList();
    QTest::newRow("node: podCIDR changed")
        << "nodes" << node << QByteArray(R"({"podCIDR":"10.0.2.0/24","providerID":"gce://p/z/n"})")
        << QStringList{QStringLiteral("spec.podCIDRs FieldValueForbidden")};
    QTest::newRow("node: providerID cleared")
        << "nodes" << node << QByteArray(R"({"podCIDR":"10.0.1.0/24"})")
        << QStringList{QStringLiteral("spec.providerID FieldValueForbidden")};
}

void TestClusterCore::updateValidation()
{
    QFETCH(QString, resource);
    QFETCH(QByteArray, before);
    QFETCH(QByteArray, after);
    QFETCH(QStringList, causes);
    auto object = [](const QByteArray &spec) {
        return QJsonObject{{QStringLiteral("spec"), QJsonDocument::fromJson(spec).object()}};
    };
    QVERIFY(!QJsonDocument::fromJson(before).isNull() && !QJsonDocument::fromJson(after).isNull());
    QStringList seen;
    for (const StatusCause &c : Validation::update(resource, object(after), object(before)))
        seen.append(c.field + QLatin1Char(' ') + c.reason);
    QCOMPARE(seen, causes);
}

void TestClusterCore::labelValidation_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("error"); // first error, empty for valid
    QTest::newRow("ok") << "app"
                        << "web"
                        << "";
    QTest::newRow("prefixed") << "example.com/app"
                              << ""
                              << "";
    QTest::newRow("bad key")
        << "-bad"
        << "v"
        << "metadata.labels: Invalid value: \"-bad\": name part must consist of alphanumeric "
           "characters, '-', '_' or '.', and must start and end with an alphanumeric character "
           "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
           "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    QTest::newRow("bad prefix")
        << "Example.com/x"
        << "v"
        << "metadata.labels: Invalid value: \"Example.com/x\": prefix part a lowercase RFC 1123 "
           "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
           "start and end with an alphanumeric character (e.g. 'example.com', regex used for "
           "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    QTest::newRow("long value") << "k" << QString(64, QLatin1Char('a'))
                                << "metadata.labels: Invalid value: \"" +
                                       QString(64, QLatin1Char('a')) +
                                       "\": must be no more than 63 characters";
    QTest::newRow("bad value")
        << "k"
        << "a b"
        << "metadata.labels: Invalid value: \"a b\": a valid label must be an empty string or "
           "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
           "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
           "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
}

void TestClusterCore::labelValidation()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, error);
    const QJsonObject o{{QStringLiteral("metadata"),
                         QJsonObject{{QStringLiteral("name"), QStringLiteral("n1")},
                                     {QStringLiteral("labels"), QJsonObject{{key, value}}}}}};
    const QList<StatusCause> causes = Validation::objectMeta(o, QStringLiteral("nodes"));
    if (error.isEmpty()) {
        QVERIFY(causes.isEmpty());
        return;
    }
    QVERIFY(!causes.isEmpty());
    QCOMPARE(causes.first().field + QStringLiteral(": ") + causes.first().message, error);
}

void TestClusterCore::ownerReferenceValidation_data()
{
    // The owner references as JSON, and the causes as kube-apiserver 1.32 words them
    // (apimachinery's ValidateOwnerReferences), "field: message" each.
    QTest::addColumn<QByteArray>("refs");
    QTest::addColumn<QStringList>("causes");
    const QString empty = QStringLiteral("Invalid value: \"\": must not be empty");
    QTest::newRow("a Deployment's ReplicaSet")
        << QByteArray(
               R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-5d4f","uid":"8f3c",
                          "controller":true,"blockOwnerDeletion":true}])")
        << QStringList{};
    QTest::newRow("two owners, one controller")
        << QByteArray(
               R"([{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"1","controller":true},
                          {"apiVersion":"v1","kind":"Secret","name":"b","uid":"2","controller":false}])")
        << QStringList{};
    QTest::newRow("nothing named")
        << QByteArray(R"([{}])")
        << QStringList{QStringLiteral("metadata.ownerReferences.apiVersion: Invalid value: \"\": "
                                      "version must not be empty"),
                       QStringLiteral("metadata.ownerReferences.kind: ") + empty,
                       QStringLiteral("metadata.ownerReferences.name: ") + empty,
                       QStringLiteral("metadata.ownerReferences.uid: ") + empty};
    QTest::newRow("group without version")
        << QByteArray(R"([{"apiVersion":"apps/","kind":"ReplicaSet","name":"r","uid":"1"}])")
        << QStringList{QStringLiteral("metadata.ownerReferences.apiVersion: Invalid value: "
                                      "\"apps/\": version must not be empty")};
    QTest::newRow("three parts")
        << QByteArray(R"([{"apiVersion":"a/b/c","kind":"K","name":"r","uid":"1"}])")
        << QStringList{QStringLiteral("metadata.ownerReferences.apiVersion: Invalid value: "
                                      "\"a/b/c\": version must not be empty")};
    QTest::newRow("no uid") << QByteArray(R"([{"apiVersion":"v1","kind":"ConfigMap","name":"a"}])")
                            << QStringList{QStringLiteral("metadata.ownerReferences.uid: ") +
                                           empty};
    QTest::newRow("an Event as owner")
        << QByteArray(R"([{"apiVersion":"v1","kind":"Event","name":"e","uid":"1"}])")
        << QStringList{QStringLiteral(
               "metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:\"v1\", "
               "Kind:\"Event\", Name:\"e\", UID:\"1\", Controller:(*bool)(nil), "
               "BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an "
               "owner")};
    QTest::newRow("events.k8s.io Event may own")
        << QByteArray(R"([{"apiVersion":"events.k8s.io/v1","kind":"Event","name":"e","uid":"1"}])")
        << QStringList{};
    // Bounded: a list of 20,000 references without anything but a uid, all controllers, gets
    // 100 causes, and one for the controllers with the first 20 references shown.
    QByteArray many = "[";
    for (int i = 0; i < 20000; ++i)
        many += (i ? "," : "") + QByteArray(R"({"uid":"u","controller":true})");
    many += "]";
    QStringList bounded;
    for (int i = 0; i < 40; ++i) {
        bounded << QStringLiteral("metadata.ownerReferences.apiVersion: Invalid value: \"\": "
                                  "version must not be empty")
                << QStringLiteral("metadata.ownerReferences.kind: ") + empty
                << QStringLiteral("metadata.ownerReferences.name: ") + empty;
        if (i == 1) {
            QStringList shown(20, QStringLiteral("v1.OwnerReference{APIVersion:\"\", Kind:\"\", "
                                                 "Name:\"\", UID:\"u\", Controller:(*bool)(true), "
                                                 "BlockOwnerDeletion:(*bool)(nil)}"));
            shown << QStringLiteral("...");
            bounded << QStringLiteral(
                           "metadata.ownerReferences: Invalid value: []v1.OwnerReference{") +
                           shown.join(QStringLiteral(", ")) +
                           QStringLiteral("}: Only one reference can have Controller set to true. "
                                          "Found \"true\" in references for / and /");
        }
    }
    bounded = bounded.mid(0, 100);
    QTest::newRow("20,000 references, bounded") << many << bounded;
    QTest::newRow("two controllers")
        << QByteArray(
               R"([{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"1","controller":true},
                          {"apiVersion":"v1","kind":"Secret","name":"b","uid":"2","controller":true}])")
        << QStringList{QStringLiteral(
               "metadata.ownerReferences: Invalid value: []v1.OwnerReference{"
               "v1.OwnerReference{APIVersion:\"v1\", Kind:\"ConfigMap\", Name:\"a\", UID:\"1\", "
               "Controller:(*bool)(true), BlockOwnerDeletion:(*bool)(nil)}, "
               "v1.OwnerReference{APIVersion:\"v1\", Kind:\"Secret\", Name:\"b\", UID:\"2\", "
               "Controller:(*bool)(true), BlockOwnerDeletion:(*bool)(nil)}}: Only one reference "
               "can have Controller set to true. Found \"true\" in references for ConfigMap/a and "
               "Secret/b")};
}

void TestClusterCore::ownerReferenceValidation()
{
    QFETCH(QByteArray, refs);
    QFETCH(QStringList, causes);
    const QJsonObject o{
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("c1")},
                     {QStringLiteral("ownerReferences"), QJsonDocument::fromJson(refs).array()}}}};
    QStringList got;
    for (const StatusCause &c : Validation::objectMeta(o, QStringLiteral("configmaps")))
        got.append(c.field + QStringLiteral(": ") + c.message);
    QCOMPARE(got, causes);
}

void TestClusterCore::clusterRoleAggregation()
{
    // kube's bootstrap chain, in miniature: view-extra is picked by my-view, which my-edit picks
    // in turn; a namespaced Role with the label, and a role's own rules, are not gathered; a
    // cycle settles.
    const QByteArray yaml = R"([
      {"kind":"ClusterRole","metadata":{"name":"view-extra","labels":{"to-view":"true"}},
       "rules":[{"apiGroups":["example.com"],"resources":["widgets"],"verbs":["get"]}]},
      {"kind":"ClusterRole","metadata":{"name":"also-view","labels":{"to-view":"true"}},
       "rules":[{"apiGroups":["example.com"],"resources":["widgets"],"verbs":["get"]},
                {"apiGroups":[""],"resources":["nodes"],"verbs":["list"]}]},
      {"kind":"ClusterRole","metadata":{"name":"my-view","labels":{"to-edit":"true"}},
       "aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"to-view":"true"}}]},
       "rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["*"]}]},
      {"kind":"ClusterRole","metadata":{"name":"my-edit"},
       "aggregationRule":{"clusterRoleSelectors":[{"matchExpressions":[{"key":"to-edit","operator":"Exists"}]}]}},
      {"kind":"Role","metadata":{"name":"ns-role","namespace":"a","labels":{"to-view":"true"}},
       "rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["delete"]}]},
      {"kind":"ClusterRole","metadata":{"name":"loop-a","labels":{"loop":"a"}},
       "aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"loop":"b"}}]},
       "rules":[{"apiGroups":[""],"resources":["events"],"verbs":["get"]}]},
      {"kind":"ClusterRole","metadata":{"name":"loop-b","labels":{"loop":"b"}},
       "aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"loop":"a"}}]}}
    ])";
    QList<QJsonObject> objects;
    for (const QJsonValue v : QJsonDocument::fromJson(yaml).array())
        objects.append(v.toObject());
    QHash<QString, QStringList> rules;
    for (const RbacRole &r : rolesFromJson(objects))
        for (const PolicyRule &p : r.rules)
            rules[r.name].append(p.describe());
    const QString widgets = PolicyRule::fromJson(QJsonDocument::fromJson(R"(
        {"apiGroups":["example.com"],"resources":["widgets"],"verbs":["get"]})")
                                                     .object())
                                .describe();
    const QString nodes = PolicyRule::fromJson(QJsonDocument::fromJson(R"(
        {"apiGroups":[""],"resources":["nodes"],"verbs":["list"]})")
                                                   .object())
                              .describe();
    // By name (also-view first), each rule once; its own secrets rule replaced.
    QCOMPARE(rules.value(QStringLiteral("my-view")), (QStringList{widgets, nodes}));
    QCOMPARE(rules.value(QStringLiteral("my-edit")), (QStringList{widgets, nodes}));
    QCOMPARE(rules.value(QStringLiteral("ns-role")).size(), 1);
    // Each loop role gathers the other's: nothing there but the other's, round after round.
    QCOMPARE(rules.value(QStringLiteral("loop-a")), QStringList{});
    QCOMPARE(rules.value(QStringLiteral("loop-b")), QStringList{});

    // What the controller writes back: every aggregated role whose stored rules differ, with
    // the gathered rules as this server writes them; none once they are written.
    QHash<QString, QJsonArray> toWrite = aggregatedRulesToWrite(objects);
    QCOMPARE(toWrite.keys().size(), 4); // my-view, my-edit, loop-a (own rule), loop-b (none)
    const QJsonArray gathered = QJsonDocument::fromJson(R"([
        {"apiGroups":["example.com"],"resources":["widgets"],"verbs":["get"]},
        {"apiGroups":[""],"resources":["nodes"],"verbs":["list"]}])")
                                    .array();
    QCOMPARE(toWrite.value(QStringLiteral("my-view")), gathered);
    QCOMPARE(toWrite.value(QStringLiteral("my-edit")), gathered);
    QCOMPARE(toWrite.value(QStringLiteral("loop-a")), QJsonArray());
    QVERIFY(toWrite.contains(QStringLiteral("loop-b"))); // no rules at all: [] written
    for (QJsonObject &o : objects)
        if (const QString name = o.value(QLatin1String("metadata"))
                                     .toObject()
                                     .value(QLatin1String("name"))
                                     .toString();
            toWrite.contains(name))
            o.insert(QStringLiteral("rules"), toWrite.value(name));
    QCOMPARE(aggregatedRulesToWrite(objects).size(), 0);
    // Stored with empty lists spelled out, they still count as the same rules.
    objects[2].insert(QStringLiteral("rules"), QJsonDocument::fromJson(R"([
        {"apiGroups":["example.com"],"resources":["widgets"],"verbs":["get"],"resourceNames":[]},
        {"apiGroups":[""],"resources":["nodes"],"verbs":["list"],"nonResourceURLs":[]}])")
                                                   .array());
    QCOMPARE(aggregatedRulesToWrite(objects).size(), 0);

    // A cycle whose rules came from outside it: once written back, they must not keep each
    // other alive after their source loses its label.
    const QByteArray cycle = R"([
      {"kind":"ClusterRole","metadata":{"name":"a","labels":{"to-b":"true"}},
       "aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"to-a":"true"}}]}},
      {"kind":"ClusterRole","metadata":{"name":"b","labels":{"to-a":"true"}},
       "aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"to-b":"true"}}]}},
      {"kind":"ClusterRole","metadata":{"name":"c","labels":{"to-a":"true"}},
       "rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]}
    ])";
    QList<QJsonObject> ring;
    for (const QJsonValue v : QJsonDocument::fromJson(cycle).array())
        ring.append(v.toObject());
    const QHash<QString, QJsonArray> first = aggregatedRulesToWrite(ring);
    QCOMPARE(first.value(QStringLiteral("a")).size(), 1);
    QCOMPARE(first.value(QStringLiteral("b")).size(), 1); // b picks a, which has c's rule
    ring[0].insert(QStringLiteral("rules"), first.value(QStringLiteral("a")));
    ring[1].insert(QStringLiteral("rules"), first.value(QStringLiteral("b")));
    QJsonObject meta = ring[2].value(QLatin1String("metadata")).toObject();
    meta.remove(QStringLiteral("labels"));
    ring[2].insert(QStringLiteral("metadata"), meta);
    const QHash<QString, QJsonArray> after = aggregatedRulesToWrite(ring);
    QCOMPARE(after.value(QStringLiteral("a")), QJsonArray());
    QCOMPARE(after.value(QStringLiteral("b")), QJsonArray());
    QVERIFY(after.contains(QStringLiteral("a")) && after.contains(QStringLiteral("b")));
    for (const RbacRole &r : rolesFromJson(ring))
        if (r.name != QLatin1String("c"))
            QVERIFY2(r.rules.isEmpty(), qPrintable(r.name));
}

void TestClusterCore::selectors_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<bool>("matches"); // against labels {app: web, tier: front}
    QTest::newRow("empty") << "" << true << true;
    QTest::newRow("equals") << "app=web" << true << true;
    QTest::newRow("double equals") << "app==web" << true << true;
    QTest::newRow("not equals") << "app!=web" << true << false;
    QTest::newRow("exists") << "tier" << true << true;
    QTest::newRow("not exists") << "!tier" << true << false;
    QTest::newRow("in") << "app in (web, api)" << true << true;
    QTest::newRow("notin") << "app notin (web)" << true << false;
    QTest::newRow("and") << "app=web,tier=back" << true << false;
    QTest::newRow("missing key !=") << "zone!=a" << true << true;
    QTest::newRow("unbalanced") << "app in (web" << false << false;
    QTest::newRow("bad key") << "-x=1" << false << false;
}

void TestClusterCore::selectors()
{
    QFETCH(QString, selector);
    QFETCH(bool, valid);
    QFETCH(bool, matches);
    QString error;
    const auto s = Selector::parseLabels(selector, &error);
    QCOMPARE(s.has_value(), valid);
    if (!valid) {
        QVERIFY(!error.isEmpty());
        return;
    }
    const QJsonObject o{
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("labels"),
                      QJsonObject{{QStringLiteral("app"), QStringLiteral("web")},
                                  {QStringLiteral("tier"), QStringLiteral("front")}}}}}};
    QCOMPARE(s->matchesLabels(o), matches);
    QString ferr;
    QVERIFY(!Selector::parseFields(QStringLiteral("spec.bogus=1"), {}, &ferr).has_value());
    QCOMPARE(ferr, QStringLiteral("field label not supported: spec.bogus"));
}

int runClusterCoreTests(int argc, char **argv)
{
    TestClusterCore t;
    return QTest::qExec(&t, argc, argv);
}
