#include "cli/clustercommands.h"

#include "cli/clusterviews.h"
#include "cli/commandtable.h"
#include "cluster/kubeconfig.h"
#include "platform/platform.h"

#include <QFileInfo>
#include <QHash>
#include <QJsonArray>

#include <variant>

namespace Gatehouse::Cli::ClusterCommands {

using namespace ClusterViews;

namespace {

const QString K8s = QStringLiteral("/admin/v1/cluster/k8s");
const QString RbacGroup = QStringLiteral("/apis/rbac.authorization.k8s.io/v1/");

Printer objectPrinter(const Invocation &in)
{
    return [&in](const Answer &a) {
        printObject(a.body, in.out);
        return 0;
    };
}

QString objectPath(const Invocation &in)
{
    return K8s + QStringLiteral("/api/v1/") + in.noun() + QLatin1Char('/') +
           pathSegment(in.args[0]);
}

bool hasIdentity(const Invocation &in)
{
    return in.isSet("as") || in.isSet("anonymous");
}

// The identity --as/--group/--anonymous name, as the explain and requests endpoints take it.
QJsonObject identityOf(const Invocation &in)
{
    if (in.isSet("anonymous"))
        return QJsonObject{{QStringLiteral("anonymous"), true}};
    return QJsonObject{{QStringLiteral("user"), in.value("as")},
                       {QStringLiteral("groups"), QJsonArray::fromStringList(in.values("group"))}};
}

// "k=v" -> {k: v}; "k-" -> {k: null}.
std::optional<QJsonObject> labelChanges(const QStringList &words, bool removeOnly, QTextStream &err)
{
    QJsonObject labels;
    for (const QString &w : words) {
        if (removeOnly) {
            labels.insert(w.endsWith(QLatin1Char('-')) ? w.chopped(1) : w, QJsonValue::Null);
            continue;
        }
        const qsizetype eq = w.indexOf(QLatin1Char('='));
        if (eq > 0) {
            labels.insert(w.left(eq), w.mid(eq + 1));
        } else if (w.endsWith(QLatin1Char('-')) && w.size() > 1) {
            labels.insert(w.chopped(1), QJsonValue::Null);
        } else {
            err << "gatehouse admin: '" << w << "' is not KEY=VALUE or KEY-\n";
            return std::nullopt;
        }
    }
    if (labels.isEmpty()) {
        err << "gatehouse admin: give at least one label\n";
        return std::nullopt;
    }
    return labels;
}

// Writes what `kubeconfig --file` asked for; the private files 0600 from their first byte (an
// owner-only ACL on Windows).
int writeKubeconfig(const Invocation &in, const QJsonObject &request, const QJsonObject &answer)
{
    const QString file = in.value("file");
    const QByteArray yaml = answer.value(QStringLiteral("kubeconfig")).toString().toUtf8();
    if (file.isEmpty()) {
        in.out << yaml;
        return 0;
    }
    auto write = [&in](const QString &name, const QByteArray &data, bool secret) {
        if (auto r = Platform::writeFileAtomically(name, data, secret ? 0600 : 0644); !r) {
            in.err << "gatehouse admin: " << r.error().message << "\n";
            return false;
        }
        return true;
    };
    if (in.isSet("reference-files")) {
        const QJsonObject files = request.value(QStringLiteral("files")).toObject();
        if (!write(files.value(QStringLiteral("ca")).toString(),
                   answer.value(QStringLiteral("caPem")).toString().toLatin1(), false) ||
            !write(files.value(QStringLiteral("certificate")).toString(),
                   answer.value(QStringLiteral("certificatePem")).toString().toLatin1(), false) ||
            !write(files.value(QStringLiteral("key")).toString(),
                   answer.value(QStringLiteral("keyPem")).toString().toLatin1(), true))
            return 1;
    }
    if (!write(file, yaml, true))
        return 1;
    in.out << "kubeconfig for " << answer.value(QStringLiteral("user")).toString() << " ["
           << field(answer, "groups") << "] written to " << file << " (valid until "
           << answer.value(QStringLiteral("expiresAt")).toString() << ")\n";
    return 0;
}

// A resource request in kubectl's words (VERB RESOURCE[.GROUP] [NAME]) as the method, path
// and body an explain request takes; 2 (said on err) for an unknown verb.
int resourceRequest(const Invocation &in, const QString &verb, const QStringList &words,
                    QJsonObject &r)
{
    static const QHash<QString, QString> methods{
        {QStringLiteral("get"), QStringLiteral("GET")},
        {QStringLiteral("list"), QStringLiteral("GET")},
        {QStringLiteral("watch"), QStringLiteral("GET")},
        {QStringLiteral("create"), QStringLiteral("POST")},
        {QStringLiteral("update"), QStringLiteral("PUT")},
        {QStringLiteral("patch"), QStringLiteral("PATCH")},
        {QStringLiteral("delete"), QStringLiteral("DELETE")}};
    if (!methods.contains(verb)) {
        in.err << "gatehouse admin: VERB is get, list, watch, create, update, patch or delete\n";
        return 2;
    }
    const QString ns = in.value("namespace");
    const QString resource = words[0].section(QLatin1Char('.'), 0, 0);
    const QString group = words[0].section(QLatin1Char('.'), 1);
    QString path =
        group.isEmpty() ? QStringLiteral("/api/v1/") : QStringLiteral("/apis/%1/v1/").arg(group);
    if (!ns.isEmpty())
        path += QStringLiteral("namespaces/%1/").arg(pathSegment(ns));
    path += resource;
    if (words.size() == 2)
        path += QLatin1Char('/') + words[1];
    if (in.isSet("subresource"))
        path += QLatin1Char('/') + in.value("subresource");
    if (verb == QLatin1String("watch"))
        path += QStringLiteral("?watch=1");
    r.insert(QStringLiteral("method"), methods.value(verb));
    r.insert(QStringLiteral("path"), path);
    if (verb == QLatin1String("create") || verb == QLatin1String("update"))
        r.insert(QStringLiteral("body"),
                 QJsonObject{{QStringLiteral("metadata"),
                              QJsonObject{{QStringLiteral("name"),
                                           words.value(1, QStringLiteral("example"))}}}});
    if (verb == QLatin1String("patch"))
        r.insert(QStringLiteral("body"), QJsonObject());
    return 0;
}

// The RBAC collection of -n NS (namespaced) or of the cluster.
QString rbacCollection(const Invocation &in, const char *namespaced, const char *cluster)
{
    const QString ns = in.value("namespace");
    return ns.isEmpty() ? K8s + RbacGroup + QLatin1String(cluster)
                        : K8s + RbacGroup + QStringLiteral("namespaces/%1/").arg(pathSegment(ns)) +
                              QLatin1String(namespaced);
}

} // namespace

int kubeconfigIssue(const Invocation &in)
{
    QJsonObject o{{QStringLiteral("kind"), in.verb()},
                  {QStringLiteral("name"), in.args[0]},
                  {QStringLiteral("groups"), QJsonArray::fromStringList(in.values("group"))}};
    if (in.isSet("server"))
        o.insert(QStringLiteral("server"), in.value("server"));
    if (in.isSet("days"))
        o.insert(QStringLiteral("validityDays"), in.value("days").toInt());
    if (in.isSet("reference-files")) {
        const QString file = in.value("file");
        if (file.isEmpty()) {
            in.err << "gatehouse admin: --reference-files needs --file\n";
            return 2;
        }
        const QString base =
            QFileInfo(file).absolutePath() + QLatin1Char('/') + QFileInfo(file).completeBaseName();
        o.insert(QStringLiteral("files"),
                 QJsonObject{{QStringLiteral("ca"), base + QStringLiteral("-ca.crt")},
                             {QStringLiteral("certificate"), base + QStringLiteral(".crt")},
                             {QStringLiteral("key"), base + QStringLiteral(".key")}});
    }
    return send(in, {"POST", QStringLiteral("/admin/v1/cluster/kubeconfigs"), o},
                [&in, o](const Answer &a) { return writeKubeconfig(in, o, a.body); });
}

int kubeconfigView(const Invocation &in)
{
    const auto input = readInput(in.args[0], in.err);
    if (!input)
        return 2;
    auto r = Cluster::redactKubeconfig(*input);
    if (auto *e = std::get_if<QString>(&r)) {
        in.err << "gatehouse admin: " << in.args[0] << ": " << *e << "\n";
        return 1;
    }
    in.out << std::get<QByteArray>(r);
    return 0;
}

int nodesList(const Invocation &in)
{
    return send(in, {"GET", K8s + QStringLiteral("/api/v1/nodes")}, viewPrinter(in, printNodes));
}

int namespacesList(const Invocation &in)
{
    return send(in, {"GET", K8s + QStringLiteral("/api/v1/namespaces")},
                viewPrinter(in, printNamespaces));
}

int objectShow(const Invocation &in)
{
    return send(in, {"GET", objectPath(in)}, objectPrinter(in));
}

int objectCreate(const Invocation &in)
{
    QJsonObject labels;
    for (const QString &l : in.values("label")) {
        const qsizetype eq = l.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            in.err << "gatehouse admin: --label takes KEY=VALUE\n";
            return 2;
        }
        labels.insert(l.left(eq), l.mid(eq + 1));
    }
    QJsonObject meta{{QStringLiteral("name"), in.args[0]}};
    if (!labels.isEmpty())
        meta.insert(QStringLiteral("labels"), labels);
    return send(in,
                {"POST", K8s + QStringLiteral("/api/v1/") + in.noun(),
                 QJsonObject{{QStringLiteral("metadata"), meta}}},
                objectPrinter(in));
}

int objectDelete(const Invocation &in)
{
    return send(in, {"DELETE", objectPath(in)}, objectPrinter(in));
}

int labelsList(const Invocation &in)
{
    return send(in, {"GET", K8s + QStringLiteral("/api/v1/nodes/") + pathSegment(in.args[0])},
                viewPrinter(in, printLabels));
}

int labelsChange(const Invocation &in)
{
    const auto labels = labelChanges(in.args.mid(1), in.verb() == QLatin1String("remove"), in.err);
    if (!labels)
        return 2;
    const Printer print = viewPrinter(in, printLabels);
    if (hasIdentity(in)) { // performed as that identity, through the whole chain
        QJsonObject r = identityOf(in);
        r.insert(QStringLiteral("node"), in.args[0]);
        r.insert(QStringLiteral("labels"), *labels);
        return send(in, {"POST", QStringLiteral("/admin/v1/cluster/requests"), r}, print, true);
    }
    const QJsonObject patch{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), *labels}}}};
    return send(in,
                {"PATCH", K8s + QStringLiteral("/api/v1/nodes/") + pathSegment(in.args[0]), patch},
                print);
}

int rbacRoles(const Invocation &in)
{
    return send(in, {"GET", rbacCollection(in, "roles", "clusterroles")},
                viewPrinter(in, printRoles));
}

int rbacBindings(const Invocation &in)
{
    const QString path = rbacCollection(in, "rolebindings", "clusterrolebindings");
    return send(in, {"GET", path}, viewPrinter(in, printBindings));
}

int rbacImport(const Invocation &in)
{
    QByteArray body;
    for (const QString &f : in.args) {
        const auto input = readInput(f, in.err);
        if (!input)
            return 2;
        body += *input + "\n---\n";
    }
    return send(in, {"POST", QStringLiteral("/admin/v1/cluster/rbac/import"), body},
                [&in](const Answer &a) {
                    const QJsonArray results = a.body.value(QStringLiteral("results")).toArray();
                    printTable(results,
                               {{"kind", "KIND"},
                                {"namespace", "NAMESPACE"},
                                {"name", "NAME"},
                                {"action", "RESULT"},
                                {"message", "MESSAGE"}},
                               in.out);
                    for (const QJsonValue v : results)
                        if (v.toObject().value(QStringLiteral("action")) == QLatin1String("error"))
                            return 1;
                    return 0;
                });
}

int rbacDelete(const Invocation &in)
{
    static const QHash<QString, std::pair<const char *, bool>> kinds{
        {QStringLiteral("role"), {"roles", true}},
        {QStringLiteral("clusterrole"), {"clusterroles", false}},
        {QStringLiteral("rolebinding"), {"rolebindings", true}},
        {QStringLiteral("clusterrolebinding"), {"clusterrolebindings", false}}};
    const auto [collection, namespaced] = kinds.value(in.args[0].toLower(), {nullptr, false});
    if (!collection) {
        in.err << "gatehouse admin: KIND is Role, ClusterRole, RoleBinding or "
                  "ClusterRoleBinding\n";
        return 2;
    }
    const QString ns = in.value("namespace");
    if (namespaced && ns.isEmpty()) {
        in.err << "gatehouse admin: a " << in.args[0] << " lives in a namespace: give -n NS\n";
        return 2;
    }
    const QString path =
        K8s + RbacGroup +
        (namespaced ? QStringLiteral("namespaces/%1/").arg(pathSegment(ns)) : QString()) +
        QLatin1String(collection) + QLatin1Char('/') + pathSegment(in.args[1]);
    return send(in, {"DELETE", path}, [&in](const Answer &) {
        in.out << "done\n";
        return 0;
    });
}

int rbacAccess(const Invocation &in)
{
    if (!hasIdentity(in)) {
        in.err << "gatehouse admin: rbac access needs --as USER [--group G]... or "
                  "--anonymous\n";
        return 2;
    }
    return send(in, {"POST", QStringLiteral("/admin/v1/cluster/access"), identityOf(in)},
                viewPrinter(in, printAccess));
}

int rbacWhoCan(const Invocation &in)
{
    Request request{"GET", QStringLiteral("/admin/v1/cluster/who-can")};
    request.query.addQueryItem(QStringLiteral("resource"), in.args[0]);
    if (const QString ns = in.value("namespace"); !ns.isEmpty())
        request.query.addQueryItem(QStringLiteral("namespace"), ns);
    return send(in, request, viewPrinter(in, printWhoCan));
}

int settingsShow(const Invocation &in)
{
    return send(in, {"GET", QStringLiteral("/admin/v1/cluster/settings")},
                viewPrinter(in, printSettings));
}

int settingsSet(const Invocation &in)
{
    QJsonObject o;
    for (const QString &w : in.args) {
        const QString key = w.section(QLatin1Char('='), 0, 0);
        const QString value = w.section(QLatin1Char('='), 1);
        const QStringList list = value.split(QLatin1Char(','), Qt::SkipEmptyParts);
        if (key == QLatin1String("anonymous-auth") &&
            (value == QLatin1String("true") || value == QLatin1String("false")))
            o.insert(QStringLiteral("anonymousAuth"), value == QLatin1String("true"));
        else if (key == QLatin1String("authorization-mode"))
            o.insert(QStringLiteral("authorizationModes"), QJsonArray::fromStringList(list));
        else if (key == QLatin1String("enable-admission-plugins"))
            o.insert(QStringLiteral("admissionPlugins"), QJsonArray::fromStringList(list));
        else {
            in.err << "gatehouse admin: '" << w
                   << "': give anonymous-auth=true|false, authorization-mode=M,... or "
                      "enable-admission-plugins=P,...\n";
            return 2;
        }
    }
    return send(in, {"PUT", QStringLiteral("/admin/v1/cluster/settings"), o},
                viewPrinter(in, printSettings));
}

// explain VERB RESOURCE [NAME] | explain label NODE K=V|K-... | explain VERB /PATH: the
// identity is checked first, then the words.
int explain(const Invocation &in)
{
    if (!hasIdentity(in)) {
        in.err << "gatehouse admin: explain needs --as USER [--group G]... or --anonymous\n";
        return 2;
    }
    const QString verb = in.verb().isEmpty() ? in.args.value(0) : in.verb();
    const QStringList words = in.verb().isEmpty() ? in.args.mid(1) : in.args;
    QJsonObject r = identityOf(in);
    if (verb == QLatin1String("label") && words.size() >= 2) {
        const auto labels = labelChanges(words.mid(1), false, in.err);
        if (!labels)
            return 2;
        r.insert(QStringLiteral("node"), words[0]);
        r.insert(QStringLiteral("labels"), *labels);
    } else if (!verb.isEmpty() && words.size() == 1 && words[0].startsWith(QLatin1Char('/'))) {
        r.insert(QStringLiteral("method"), verb.toUpper());
        r.insert(QStringLiteral("path"), words[0]);
    } else if (!verb.isEmpty() && (words.size() == 1 || words.size() == 2)) {
        if (const int code = resourceRequest(in, verb, words, r); code != 0)
            return code;
    } else {
        return printClusterUsage(in.err);
    }
    return send(in, {"POST", QStringLiteral("/admin/v1/cluster/explain"), r},
                viewPrinter(in, printTrace));
}

int clusterRequestsList(const Invocation &in)
{
    Request request{"GET", QStringLiteral("/admin/v1/cluster/requests")};
    if (in.isSet("limit"))
        request.query.addQueryItem(QStringLiteral("limit"), in.value("limit"));
    return send(in, request,
                tablePrinter(in, {{"time", "TIME"},
                                  {"user", "USER"},
                                  {"method", "METHOD"},
                                  {"path", "PATH"},
                                  {"code", "CODE"},
                                  {"stage", "STAGE"},
                                  {"reason", "REASON"}}));
}

} // namespace Gatehouse::Cli::ClusterCommands
