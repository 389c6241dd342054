#include "admin/admincli.h"

#include "admin/backend.h"
#include "core/httpserver.h"

#include "cluster/kubeconfig.h"
#include "core/config.h"
#include "orders/redeliveryjobs.h"
#include "platform/platform.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

#include <optional>

namespace Gatehouse::Admin {

namespace {

struct Target
{
    QUrl url;
    QString token;
    QString source;
    // HTTPS (--admin-tls): the data directory's CA when the URL came from its ports.json, and
    // the certificate's SHA-256 fingerprint given with --admin-fingerprint.
    QList<QSslCertificate> caCertificates;
    QString fingerprint;
};

struct Reply
{
    int status = 0;
    QByteArray body;
    QString networkError;
};

Reply call(const Target &t, const QByteArray &method, const QString &path,
           const QUrlQuery &query = {}, const QByteArray &body = {})
{
    QNetworkAccessManager nam;
    QUrl url = t.url;
    url.setPath(path);
    url.setQuery(query);
    QNetworkRequest req(url);
    req.setRawHeader("Authorization", "Bearer " + t.token.toUtf8());
    // Who is acting, for the audit log: the program and the operating-system user.
    req.setHeader(QNetworkRequest::UserAgentHeader,
                  QByteArrayLiteral("gatehouse-admin-cli/" GATEHOUSE_VERSION));
    const QByteArray user = qgetenv("USER").isEmpty() ? qgetenv("USERNAME") : qgetenv("USER");
    if (!user.isEmpty())
        req.setRawHeader("X-Gatehouse-Actor", user.left(100));
    req.setTransferTimeout(10'000);
    // The cluster API's PATCH (labels set/remove without --as) takes a JSON merge patch.
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader,
                      method == "PATCH" ? QByteArrayLiteral("application/merge-patch+json")
                                        : QByteArrayLiteral("application/json"));
    if (url.scheme() == QLatin1String("https")) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        if (!t.caCertificates.isEmpty())
            ssl.addCaCertificates(t.caCertificates);
        req.setSslConfiguration(ssl);
    }
    QNetworkReply *reply = nam.sendCustomRequest(req, method, body);
    QString untrusted; // the fingerprint of a certificate nobody vouched for
    QObject::connect(reply, &QNetworkReply::sslErrors, reply,
                     [reply, &t, &untrusted](const QList<QSslError> &errors) {
                         const QString seen = Core::certificateFingerprint(
                             reply->sslConfiguration().peerCertificate());
                         // Pinned by fingerprint: trusted whoever issued it (trust on first use).
                         if (!t.fingerprint.isEmpty() &&
                             seen.compare(t.fingerprint.trimmed(), Qt::CaseInsensitive) == 0) {
                             reply->ignoreSslErrors(errors);
                             return;
                         }
                         untrusted = seen;
                     });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    Reply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    if (r.status == 0)
        r.networkError =
            untrusted.isEmpty()
                ? reply->errorString()
                : QStringLiteral("its certificate is not trusted (SHA-256 %1); if that "
                                 "is the fingerprint the backend logged at start, "
                                 "pass --admin-fingerprint %1")
                      .arg(untrusted);
    reply->deleteLater();
    return r;
}

QString formatDuration(qint64 s)
{
    if (s < 60)
        return QStringLiteral("%1s").arg(s);
    if (s < 3600)
        return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60);
    if (s < 86400)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60);
    return QStringLiteral("%1d%2h").arg(s / 86400).arg((s % 86400) / 3600);
}

int printStatus(const QJsonObject &s, QTextStream &out)
{
    out << "Gatehouse " << s.value(QStringLiteral("version")).toString() << "\n";
    out << "  uptime:    " << formatDuration(s.value(QStringLiteral("uptimeSeconds")).toInteger())
        << " (since " << s.value(QStringLiteral("startedAt")).toString() << ")\n";
    out << "  data dir:  " << s.value(QStringLiteral("dataDir")).toString() << "\n";
    if (const QJsonObject me = s.value(QStringLiteral("principal")).toObject(); !me.isEmpty())
        out << "  token:     "
            << (me.value(QStringLiteral("root")).toBool()
                    ? QStringLiteral("root (everything)")
                    : QStringLiteral("'%1' (%2)")
                          .arg(me.value(QStringLiteral("name")).toString(),
                               me.value(QStringLiteral("permissions"))
                                   .toVariant()
                                   .toStringList()
                                   .join(QLatin1String(", "))))
            << "\n";
    const QJsonObject db = s.value(QStringLiteral("database")).toObject();
    out << "  database:  " << db.value(QStringLiteral("driver")).toString() << " "
        << db.value(QStringLiteral("path")).toString() << " (schema version "
        << db.value(QStringLiteral("schemaVersion")).toInt() << ")\n";
    if (const QString a = s.value(QStringLiteral("allocator")).toString(); !a.isEmpty())
        out << "  allocator: " << a << "\n";
    if (const QJsonValue backlog =
            s.value(QStringLiteral("orders")).toObject().value(QStringLiteral("lifecycleBacklog"));
        backlog.isDouble())
        out << "  orders:    " << backlog.toInt() << " waiting for validation and allocation\n";
    out << "  listeners:\n";
    const QJsonObject requests =
        s.value(QStringLiteral("counters")).toObject().value(QStringLiteral("requests")).toObject();
    for (const QJsonValue v : s.value(QStringLiteral("listeners")).toArray()) {
        const QJsonObject l = v.toObject();
        const QString name = l.value(QStringLiteral("name")).toString();
        out << "    " << name.leftJustified(8) << " " << l.value(QStringLiteral("url")).toString()
            << "  requests " << requests.value(name).toInteger() << "\n";
    }
    return 0;
}

QString str(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isNull() || v.isUndefined())
        return QStringLiteral("-");
    if (v.isDouble()) {
        const double d = v.toDouble();
        return d == double(qint64(d)) ? QString::number(qint64(d)) : QString::number(d);
    }
    if (v.isBool())
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    if (v.isArray()) {
        QStringList items;
        for (const auto &x : v.toArray())
            items.append(x.toString());
        return items.join(QLatin1Char(','));
    }
    return v.toString();
}

void printTable(const QJsonArray &rows, const QList<std::pair<const char *, const char *>> &cols,
                QTextStream &out)
{
    QList<int> widths;
    for (const auto &c : cols)
        widths.append(int(qstrlen(c.second)));
    QList<QStringList> cells;
    for (const QJsonValue v : rows) {
        QStringList line;
        for (qsizetype i = 0; i < cols.size(); ++i) {
            QString cell = str(v.toObject(), cols[i].first);
            if (cell.size() > 60)
                cell = cell.left(57) + QStringLiteral("...");
            widths[i] = std::max(widths[i], int(cell.size()));
            line.append(cell);
        }
        cells.append(line);
    }
    for (qsizetype i = 0; i < cols.size(); ++i)
        out << QString::fromLatin1(cols[i].second).leftJustified(widths[i] + 2);
    out << "\n";
    for (const QStringList &line : std::as_const(cells)) {
        for (qsizetype i = 0; i < line.size(); ++i)
            out << line[i].leftJustified(widths[i] + 2);
        out << "\n";
    }
    if (rows.isEmpty())
        out << "(none)\n";
}

void printObject(const QJsonObject &o, QTextStream &out, int indent = 0)
{
    const QString pad(indent, QLatin1Char(' '));
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it->isObject()) {
            out << pad << it.key() << ":\n";
            printObject(it->toObject(), out, indent + 2);
        } else if (it->isArray()) {
            out << pad << it.key() << ": " << it->toArray().size() << " item(s)\n";
            for (const QJsonValue v : it->toArray()) {
                if (v.isObject()) {
                    out << pad << "  -\n";
                    printObject(v.toObject(), out, indent + 4);
                } else {
                    out << pad << "  - " << v.toVariant().toString() << "\n";
                }
            }
        } else {
            out << pad << it.key() << ": " << str(o, it.key().toUtf8().constData()) << "\n";
        }
    }
}

// One row of `gatehouse admin NOUN VERB [ARG...]`.
struct Command
{
    const char *noun;
    const char *verb;
    int args;
    const char *usage;
};

constexpr Command Commands[] = {
    {"status", "", 0, "status"},
    {"customers", "list", 0, "customers list"},
    {"customers", "create", 1, "customers create NAME"},
    {"customers", "rotate-secret", 1, "customers rotate-secret CUSTOMER_ID"},
    {"beers", "list", 0, "beers list"},
    {"beers", "restock", 2, "beers restock BEER_ID QUANTITY"},
    {"beers", "discontinue", 1, "beers discontinue BEER_ID"},
    {"beers", "reinstate", 1, "beers reinstate BEER_ID"},
    {"orders", "list", 0, "orders list [--customer ID] [--status S] [--limit N]"},
    {"orders", "show", 1, "orders show ORDER_ID"},
    {"orders", "pickup", 1, "orders pickup ORDER_ID"},
    {"orders", "deliver", 1, "orders deliver ORDER_ID"},
    {"orders", "cancel", 1, "orders cancel ORDER_ID"},
    {"deliveries", "list", 0, "deliveries list [--order ID] [--state S] [--limit N]"},
    {"deliveries", "show", 1, "deliveries show DELIVERY_ID"},
    {"deliveries", "redeliver", 1, "deliveries redeliver DELIVERY_ID"},
    {"deliveries", "redeliver-all", 0,
     "deliveries redeliver-all [--state failed|succeeded|any] [--customer ID] [--order ID] "
     "[--endpoint ID] [--from TIME] [--to TIME] [--rate N] [--dry-run]"},
    {"redeliveries", "list", 0, "redeliveries list [--limit N]"},
    {"redeliveries", "show", 1, "redeliveries show JOB_ID"},
    {"redeliveries", "cancel", 1, "redeliveries cancel JOB_ID"},
    {"endpoints", "list", 0, "endpoints list"},
    {"endpoints", "disable", 1, "endpoints disable ENDPOINT_ID"},
    {"endpoints", "enable", 1, "endpoints enable ENDPOINT_ID"},
    {"clients", "list", 0, "clients list"},
    {"clients", "show", 1, "clients show CLIENT_ID"},
    {"clients", "register", 1, "clients register METADATA_JSON_FILE (- for stdin)"},
    {"clients", "update", 2, "clients update CLIENT_ID METADATA_JSON_FILE (- for stdin)"},
    {"clients", "rotate-secret", 1, "clients rotate-secret CLIENT_ID"},
    {"clients", "delete", 1, "clients delete CLIENT_ID"},
    {"clients", "access", 1,
     "clients access CLIENT_ID   (every scope, audience and claim it can obtain)"},
    {"keys", "list", 0, "keys list"},
    {"keys", "rotate", 0, "keys rotate [--alg RS256|ES256]"},
    {"users", "list", 0, "users list"},
    {"users", "show", 1, "users show USER (id or username)"},
    {"users", "add", 1, "users add USER_JSON_FILE (- for stdin)"},
    {"users", "set-password", 1, "users set-password USER (the password from stdin)"},
    {"users", "unlock", 1, "users unlock USER"},
    {"users", "delete", 1, "users delete USER"},
    {"users", "access", 1, "users access USER   (every scope and claim obtainable, per client)"},
    {"initial-access-tokens", "create", 0,
     "initial-access-tokens create [--expires-in SECONDS] [--max-uses N]"},
    {"initial-access-tokens", "list", 0, "initial-access-tokens list"},
    {"initial-access-tokens", "delete", 1, "initial-access-tokens delete ID"},
    {"tokens", "list", 0, "tokens list [--client ID] [--user ID] [--limit N]"},
    {"tokens", "revoke", 1, "tokens revoke TOKEN_ID"},
    {"tokens", "preview", 1,
     "tokens preview REQUEST_JSON_FILE (- for stdin: {\"client_id\", \"grant_type\", "
     "\"scope\"?, \"resource\"?, \"username\"?, \"subject_token\"?, ...})"},
    {"issuers", "list", 0, "issuers list"},
    {"issuers", "add", 1, "issuers add ISSUER_JSON_FILE (- for stdin: {\"issuer\", \"jwks\"})"},
    {"issuers", "remove", 1, "issuers remove ISSUER_URL"},
    {"consents", "list", 0, "consents list [--user ID] [--client ID]"},
    {"audit", "list", 0, "audit list [--kind K] [--target T] [--limit N]"},
    {"audit", "show", 1, "audit show ENTRY_ID"},
    {"consents", "revoke", 2, "consents revoke USER_ID CLIENT_ID"},
    {"admin-tokens", "create", 1,
     "admin-tokens create NAME --allow AREA:read|write[,...] [--expires-in SECONDS]   (areas: "
     "orders, oauth, cluster, audit, admin, *)"},
    {"admin-tokens", "list", 0, "admin-tokens list"},
    {"config", "list", 0,
     "config list   (every setting: value, source, live or at the next start)"},
    {"config", "show", 1, "config show KEY"},
    {"config", "set", 2, "config set KEY VALUE   (live, or kept for the next start)"},
    {"config", "reset", 1, "config reset KEY   (drop the value kept for the next start)"},
    {"admin-tokens", "show", 1, "admin-tokens show ID"},
    {"admin-tokens", "revoke", 1, "admin-tokens revoke ID"},
};

// The JSON document of a file, or of stdin for "-".
std::optional<QByteArray> readInput(const QString &name, QTextStream &err)
{
    QFile f;
    const bool ok = name == QLatin1String("-") ? f.open(stdin, QIODevice::ReadOnly)
                                               : (f.setFileName(name), f.open(QIODevice::ReadOnly));
    if (!ok) {
        err << "gatehouse admin: cannot read " << name << ": " << f.errorString() << "\n";
        return std::nullopt;
    }
    return f.readAll();
}

QString clusterUsageText();

QString usageText()
{
    QString s;
    for (const Command &c : Commands)
        s += QStringLiteral("  gatehouse admin ") + QLatin1String(c.usage) + QLatin1Char('\n');
    return s + clusterUsageText();
}

// ---- cluster nouns (docs/cluster.md) ----------------------------------------------------

const char *const ClusterUsage[] = {
    "kubeconfig user NAME [--group G]... [--file PATH [--reference-files]] [--server URL] [--days "
    "N]",
    "kubeconfig node NODE_NAME [--file PATH [--reference-files]] [--server URL] [--days N]",
    "kubeconfig view FILE   (redacted, like kubectl config view)",
    "nodes list | show NAME | create NAME [--label K=V]... | delete NAME",
    "labels list NODE | set NODE K=V... | remove NODE KEY...   [--as USER [--group G]... | "
    "--anonymous]",
    "namespaces list | create NAME | delete NAME",
    "rbac roles [-n NS] | bindings [-n NS] | import FILE... | delete KIND NAME [-n NS] | who-can "
    "RESOURCE [-n NS]",
    "rbac access (--as USER [--group G]... | --anonymous)   (effective access: every verb x "
    "resource held, and why)",
    "settings show | set anonymous-auth=true|false authorization-mode=M,... "
    "enable-admission-plugins=P,...",
    "explain VERB RESOURCE [NAME] [-n NS] [--subresource S] | explain label NODE K=V|K-... | "
    "explain VERB /PATH"
    "   (--as USER [--group G]... | --anonymous)",
    "cluster-requests list [--limit N]",
};

bool isClusterNoun(const QString &noun)
{
    static const QStringList nouns{
        QStringLiteral("kubeconfig"), QStringLiteral("nodes"),
        QStringLiteral("labels"),     QStringLiteral("namespaces"),
        QStringLiteral("rbac"),       QStringLiteral("settings"),
        QStringLiteral("explain"),    QStringLiteral("cluster-requests")};
    return nouns.contains(noun);
}

QString clusterUsageText()
{
    QString s;
    for (const char *u : ClusterUsage)
        s += QStringLiteral("  gatehouse admin ") + QLatin1String(u) + QLatin1Char('\n');
    return s;
}

// The identity --as/--group/--anonymous name, as the explain and requests endpoints take it.
QJsonObject identityOf(const QCommandLineParser &p)
{
    if (p.isSet(QStringLiteral("anonymous")))
        return QJsonObject{{QStringLiteral("anonymous"), true}};
    return QJsonObject{
        {QStringLiteral("user"), p.value(QStringLiteral("as"))},
        {QStringLiteral("groups"), QJsonArray::fromStringList(p.values(QStringLiteral("group")))}};
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

// Claims {name: value} with their sources {name: {source, detail}} as table rows; perToken
// false leaves out what differs in every token (iat, exp, jti, at_hash, auth_time).
QJsonArray claimRows(const QJsonObject &claims, const QJsonObject &sources, bool perToken)
{
    static const QStringList timeBound{QStringLiteral("iat"), QStringLiteral("exp"),
                                       QStringLiteral("jti"), QStringLiteral("at_hash"),
                                       QStringLiteral("auth_time")};
    QJsonArray rows;
    for (auto it = claims.begin(); it != claims.end(); ++it) {
        if (!perToken && timeBound.contains(it.key()))
            continue;
        const QJsonObject src = sources.value(it.key()).toObject();
        rows.append(QJsonObject{
            {QStringLiteral("claim"), it.key()},
            {QStringLiteral("value"),
             it.value().isString()
                 ? it.value().toString()
                 : QString::fromUtf8(
                       QJsonDocument(QJsonArray{it.value()}).toJson(QJsonDocument::Compact))
                       .mid(1)
                       .chopped(1)},
            {QStringLiteral("source"), src.value(QStringLiteral("source")).toString()},
            {QStringLiteral("detail"), src.value(QStringLiteral("detail")).toString()}});
    }
    return rows;
}

void printTrace(const QJsonObject &t, QTextStream &out)
{
    const QJsonObject authn = t.value(QStringLiteral("authentication")).toObject();
    const QJsonObject user = authn.value(QStringLiteral("user")).toObject();
    out << "request:        " << t.value(QStringLiteral("method")).toString() << " "
        << t.value(QStringLiteral("path")).toString() << "\n";
    out << "authentication: " << authn.value(QStringLiteral("decision")).toString();
    if (!user.isEmpty())
        out << " as " << user.value(QStringLiteral("username")).toString() << " ["
            << str(user, "groups") << "]";
    out << " - " << authn.value(QStringLiteral("reason")).toString() << "\n";
    if (t.contains(QStringLiteral("authorization"))) {
        const QJsonObject a = t.value(QStringLiteral("authorization")).toObject();
        out << "authorization:  " << a.value(QStringLiteral("decision")).toString();
        if (!a.value(QStringLiteral("decidedBy")).toString().isEmpty())
            out << " by " << a.value(QStringLiteral("decidedBy")).toString();
        if (!a.value(QStringLiteral("reason")).toString().isEmpty())
            out << " - " << a.value(QStringLiteral("reason")).toString();
        out << "\n";
    }
    if (t.contains(QStringLiteral("admission"))) {
        const QJsonObject a = t.value(QStringLiteral("admission")).toObject();
        out << "admission:      " << a.value(QStringLiteral("decision")).toString();
        if (a.contains(QStringLiteral("plugin")))
            out << " by " << a.value(QStringLiteral("plugin")).toString() << " - "
                << a.value(QStringLiteral("message")).toString();
        out << "\n";
    }
    const QJsonObject denial = t.value(QStringLiteral("denial")).toObject();
    if (!denial.isEmpty()) {
        out << "denied at:      " << denial.value(QStringLiteral("stage")).toString();
        if (!denial.value(QStringLiteral("by")).toString().isEmpty())
            out << " by " << denial.value(QStringLiteral("by")).toString();
        out << "\n";
        for (const QJsonValue q : denial.value(QStringLiteral("quotes")).toArray())
            out << "  " << q.toObject().value(QStringLiteral("authorizer")).toString()
                << " said: \"" << q.toObject().value(QStringLiteral("reason")).toString() << "\"\n";
    }
    const QJsonArray misses = t.value(QStringLiteral("authorization"))
                                  .toObject()
                                  .value(QStringLiteral("nearMisses"))
                                  .toArray();
    if (!misses.isEmpty())
        out << "near misses:    bindings naming this user that did not apply\n";
    for (const QJsonValue v : misses) {
        const QJsonObject n = v.toObject();
        const QJsonObject subject = n.value(QStringLiteral("subject")).toObject();
        out << "  " << n.value(QStringLiteral("bindingKind")).toString() << " ";
        if (n.contains(QStringLiteral("bindingNamespace")))
            out << n.value(QStringLiteral("bindingNamespace")).toString() << "/";
        out << n.value(QStringLiteral("bindingName")).toString() << " -> "
            << n.value(QStringLiteral("roleKind")).toString() << " "
            << n.value(QStringLiteral("roleName")).toString() << " (via "
            << subject.value(QStringLiteral("kind")).toString() << " "
            << subject.value(QStringLiteral("name")).toString()
            << "): " << n.value(QStringLiteral("message")).toString() << "\n";
        for (const QJsonValue r : n.value(QStringLiteral("rules")).toArray()) {
            const QJsonObject rule = r.toObject();
            out << "    rule " << rule.value(QStringLiteral("ruleIndex")).toInt() << " "
                << rule.value(QStringLiteral("rule")).toString() << ": ";
            QStringList messages;
            for (const QJsonValue m : rule.value(QStringLiteral("messages")).toArray())
                messages.append(m.toString());
            out << messages.join(QStringLiteral("; ")) << "\n";
        }
    }
    out << "answer:         " << t.value(QStringLiteral("code")).toInt();
    const QString message =
        t.value(QStringLiteral("status")).toObject().value(QStringLiteral("message")).toString();
    if (!message.isEmpty())
        out << " " << message;
    out << "\n";
}

int runClusterCommand(const QCommandLineParser &p, const QString &noun, QStringList words,
                      const Target &t, const QString &format, QTextStream &out, QTextStream &err)
{
    const QString verb = words.isEmpty() ? QString() : words.takeFirst();
    const QString ns = p.value(QStringLiteral("namespace"));
    const QString k8s = QStringLiteral("/admin/v1/cluster/k8s");
    auto usage = [&]() {
        err << "gatehouse admin: usage:\n" << clusterUsageText();
        return 2;
    };
    auto readFile = [&](const QString &name) -> std::optional<QByteArray> {
        return readInput(name, err);
    };
    QByteArray method = "GET";
    QString path;
    QUrlQuery query;
    QByteArray body;
    enum class Show {
        Object,
        Nodes,
        Namespaces,
        Roles,
        Bindings,
        Trace,
        Requests,
        WhoCan,
        Access,
        Import,
        Labels,
        Kubeconfig,
        Settings,
        Done
    } show = Show::Object;
    bool viaRequests = false; // perform as an identity: the answer wraps code/body/trace

    if (noun == QLatin1String("kubeconfig")) {
        if (verb == QLatin1String("view") && words.size() == 1) {
            const auto input = readFile(words[0]);
            if (!input)
                return 2;
            auto r = Cluster::redactKubeconfig(*input);
            if (auto *e = std::get_if<QString>(&r)) {
                err << "gatehouse admin: " << words[0] << ": " << *e << "\n";
                return 1;
            }
            out << std::get<QByteArray>(r);
            return 0;
        }
        if ((verb != QLatin1String("user") && verb != QLatin1String("node")) || words.size() != 1)
            return usage();
        QJsonObject o{{QStringLiteral("kind"), verb},
                      {QStringLiteral("name"), words[0]},
                      {QStringLiteral("groups"),
                       QJsonArray::fromStringList(p.values(QStringLiteral("group")))}};
        if (p.isSet(QStringLiteral("server")))
            o.insert(QStringLiteral("server"), p.value(QStringLiteral("server")));
        if (p.isSet(QStringLiteral("days")))
            o.insert(QStringLiteral("validityDays"), p.value(QStringLiteral("days")).toInt());
        const QString file = p.value(QStringLiteral("file"));
        if (p.isSet(QStringLiteral("reference-files"))) {
            if (file.isEmpty()) {
                err << "gatehouse admin: --reference-files needs --file\n";
                return 2;
            }
            const QString base = QFileInfo(file).absolutePath() + QLatin1Char('/') +
                                 QFileInfo(file).completeBaseName();
            o.insert(QStringLiteral("files"),
                     QJsonObject{{QStringLiteral("ca"), base + QStringLiteral("-ca.crt")},
                                 {QStringLiteral("certificate"), base + QStringLiteral(".crt")},
                                 {QStringLiteral("key"), base + QStringLiteral(".key")}});
        }
        method = "POST";
        path = QStringLiteral("/admin/v1/cluster/kubeconfigs");
        body = QJsonDocument(o).toJson();
        show = Show::Kubeconfig;
    } else if (noun == QLatin1String("nodes") || noun == QLatin1String("namespaces")) {
        const QString base = k8s + QStringLiteral("/api/v1/") + noun;
        if (verb == QLatin1String("list") && words.isEmpty()) {
            path = base;
            show = noun == QLatin1String("nodes") ? Show::Nodes : Show::Namespaces;
        } else if (verb == QLatin1String("show") && words.size() == 1) {
            path = base + QLatin1Char('/') + words[0];
        } else if (verb == QLatin1String("create") && words.size() == 1) {
            QJsonObject labels;
            for (const QString &l : p.values(QStringLiteral("label"))) {
                const qsizetype eq = l.indexOf(QLatin1Char('='));
                if (eq <= 0) {
                    err << "gatehouse admin: --label takes KEY=VALUE\n";
                    return 2;
                }
                labels.insert(l.left(eq), l.mid(eq + 1));
            }
            QJsonObject meta{{QStringLiteral("name"), words[0]}};
            if (!labels.isEmpty())
                meta.insert(QStringLiteral("labels"), labels);
            method = "POST";
            path = base;
            body = QJsonDocument(QJsonObject{{QStringLiteral("metadata"), meta}}).toJson();
        } else if (verb == QLatin1String("delete") && words.size() == 1) {
            method = "DELETE";
            path = base + QLatin1Char('/') + words[0];
        } else {
            return usage();
        }
    } else if (noun == QLatin1String("labels")) {
        if (verb == QLatin1String("list") && words.size() == 1) {
            path = k8s + QStringLiteral("/api/v1/nodes/") + words[0];
            show = Show::Labels;
        } else if ((verb == QLatin1String("set") || verb == QLatin1String("remove")) &&
                   words.size() >= 2) {
            const auto labels = labelChanges(words.mid(1), verb == QLatin1String("remove"), err);
            if (!labels)
                return 2;
            const QJsonObject patch{
                {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), *labels}}}};
            if (p.isSet(QStringLiteral("as")) || p.isSet(QStringLiteral("anonymous"))) {
                QJsonObject r = identityOf(p);
                r.insert(QStringLiteral("node"), words[0]);
                r.insert(QStringLiteral("labels"), *labels);
                method = "POST";
                path = QStringLiteral("/admin/v1/cluster/requests");
                body = QJsonDocument(r).toJson();
                viaRequests = true;
                show = Show::Labels;
            } else {
                method = "PATCH";
                path = k8s + QStringLiteral("/api/v1/nodes/") + words[0];
                body = QJsonDocument(patch).toJson();
                show = Show::Labels;
            }
        } else {
            return usage();
        }
    } else if (noun == QLatin1String("rbac")) {
        const QString group = QStringLiteral("/apis/rbac.authorization.k8s.io/v1/");
        auto collection = [&](const char *namespaced, const char *cluster) {
            return ns.isEmpty() ? k8s + group + QLatin1String(cluster)
                                : k8s + group + QStringLiteral("namespaces/%1/").arg(ns) +
                                      QLatin1String(namespaced);
        };
        if (verb == QLatin1String("roles") && words.isEmpty()) {
            path = collection("roles", "clusterroles");
            show = Show::Roles;
        } else if (verb == QLatin1String("bindings") && words.isEmpty()) {
            path = collection("rolebindings", "clusterrolebindings");
            show = Show::Bindings;
        } else if (verb == QLatin1String("import") && !words.isEmpty()) {
            for (const QString &f : std::as_const(words)) {
                const auto input = readFile(f);
                if (!input)
                    return 2;
                body += *input + "\n---\n";
            }
            method = "POST";
            path = QStringLiteral("/admin/v1/cluster/rbac/import");
            show = Show::Import;
        } else if (verb == QLatin1String("delete") && words.size() == 2) {
            static const QHash<QString, std::pair<const char *, bool>> kinds{
                {QStringLiteral("role"), {"roles", true}},
                {QStringLiteral("clusterrole"), {"clusterroles", false}},
                {QStringLiteral("rolebinding"), {"rolebindings", true}},
                {QStringLiteral("clusterrolebinding"), {"clusterrolebindings", false}}};
            const auto kind = kinds.value(words[0].toLower(), {nullptr, false});
            if (!kind.first) {
                err << "gatehouse admin: KIND is Role, ClusterRole, RoleBinding or "
                       "ClusterRoleBinding\n";
                return 2;
            }
            if (kind.second && ns.isEmpty()) {
                err << "gatehouse admin: a " << words[0] << " lives in a namespace: give -n NS\n";
                return 2;
            }
            method = "DELETE";
            path = k8s + group +
                   (kind.second ? QStringLiteral("namespaces/%1/").arg(ns) : QString()) +
                   QLatin1String(kind.first) + QLatin1Char('/') + words[1];
            show = Show::Done;
        } else if (verb == QLatin1String("access") && words.isEmpty()) {
            if (!p.isSet(QStringLiteral("as")) && !p.isSet(QStringLiteral("anonymous"))) {
                err << "gatehouse admin: rbac access needs --as USER [--group G]... or "
                       "--anonymous\n";
                return 2;
            }
            method = "POST";
            path = QStringLiteral("/admin/v1/cluster/access");
            body = QJsonDocument(identityOf(p)).toJson();
            show = Show::Access;
        } else if (verb == QLatin1String("who-can") && words.size() == 1) {
            path = QStringLiteral("/admin/v1/cluster/who-can");
            query.addQueryItem(QStringLiteral("resource"), words[0]);
            if (!ns.isEmpty())
                query.addQueryItem(QStringLiteral("namespace"), ns);
            show = Show::WhoCan;
        } else {
            return usage();
        }
    } else if (noun == QLatin1String("settings")) {
        path = QStringLiteral("/admin/v1/cluster/settings");
        show = Show::Settings;
        if (verb == QLatin1String("set") && !words.isEmpty()) {
            QJsonObject o;
            for (const QString &w : std::as_const(words)) {
                const QString key = w.section(QLatin1Char('='), 0, 0);
                const QString value = w.section(QLatin1Char('='), 1);
                const QStringList list = value.split(QLatin1Char(','), Qt::SkipEmptyParts);
                if (key == QLatin1String("anonymous-auth") &&
                    (value == QLatin1String("true") || value == QLatin1String("false")))
                    o.insert(QStringLiteral("anonymousAuth"), value == QLatin1String("true"));
                else if (key == QLatin1String("authorization-mode"))
                    o.insert(QStringLiteral("authorizationModes"),
                             QJsonArray::fromStringList(list));
                else if (key == QLatin1String("enable-admission-plugins"))
                    o.insert(QStringLiteral("admissionPlugins"), QJsonArray::fromStringList(list));
                else {
                    err << "gatehouse admin: '" << w
                        << "': give anonymous-auth=true|false, authorization-mode=M,... or "
                           "enable-admission-plugins=P,...\n";
                    return 2;
                }
            }
            method = "PUT";
            body = QJsonDocument(o).toJson();
        } else if (verb != QLatin1String("show") || !words.isEmpty()) {
            return usage();
        }
    } else if (noun == QLatin1String("explain")) {
        if (!p.isSet(QStringLiteral("as")) && !p.isSet(QStringLiteral("anonymous"))) {
            err << "gatehouse admin: explain needs --as USER [--group G]... or --anonymous\n";
            return 2;
        }
        QJsonObject r = identityOf(p);
        if (verb == QLatin1String("label") && words.size() >= 2) {
            const auto labels = labelChanges(words.mid(1), false, err);
            if (!labels)
                return 2;
            r.insert(QStringLiteral("node"), words[0]);
            r.insert(QStringLiteral("labels"), *labels);
        } else if (!verb.isEmpty() && words.size() == 1 && words[0].startsWith(QLatin1Char('/'))) {
            r.insert(QStringLiteral("method"), verb.toUpper());
            r.insert(QStringLiteral("path"), words[0]);
        } else if (!verb.isEmpty() && (words.size() == 1 || words.size() == 2)) {
            // A resource request in kubectl's words: verb resource[.group] [name].
            static const QHash<QString, QString> methods{
                {QStringLiteral("get"), QStringLiteral("GET")},
                {QStringLiteral("list"), QStringLiteral("GET")},
                {QStringLiteral("watch"), QStringLiteral("GET")},
                {QStringLiteral("create"), QStringLiteral("POST")},
                {QStringLiteral("update"), QStringLiteral("PUT")},
                {QStringLiteral("patch"), QStringLiteral("PATCH")},
                {QStringLiteral("delete"), QStringLiteral("DELETE")}};
            if (!methods.contains(verb)) {
                err << "gatehouse admin: VERB is get, list, watch, create, update, patch or "
                       "delete\n";
                return 2;
            }
            const QString resource = words[0].section(QLatin1Char('.'), 0, 0);
            const QString group = words[0].section(QLatin1Char('.'), 1);
            QString path = group.isEmpty() ? QStringLiteral("/api/v1/")
                                           : QStringLiteral("/apis/%1/v1/").arg(group);
            if (!ns.isEmpty())
                path += QStringLiteral("namespaces/%1/").arg(ns);
            path += resource;
            if (words.size() == 2)
                path += QLatin1Char('/') + words[1];
            if (p.isSet(QStringLiteral("subresource")))
                path += QLatin1Char('/') + p.value(QStringLiteral("subresource"));
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
        } else {
            return usage();
        }
        method = "POST";
        path = QStringLiteral("/admin/v1/cluster/explain");
        body = QJsonDocument(r).toJson();
        show = Show::Trace;
    } else if (noun == QLatin1String("cluster-requests") && verb == QLatin1String("list") &&
               words.isEmpty()) {
        path = QStringLiteral("/admin/v1/cluster/requests");
        if (p.isSet(QStringLiteral("limit")))
            query.addQueryItem(QStringLiteral("limit"), p.value(QStringLiteral("limit")));
        show = Show::Requests;
    } else {
        return usage();
    }

    const Reply r = call(t, method, path, query, body);
    if (r.status == 0) {
        err << "gatehouse admin: no Gatehouse backend answers at " << t.url.toString() << ": "
            << r.networkError << "\n";
        return 1;
    }
    QJsonObject answer = QJsonDocument::fromJson(r.body).object();
    int code = r.status;
    if (viaRequests) {
        code = answer.value(QStringLiteral("code")).toInt();
        answer = answer.value(QStringLiteral("body")).toObject();
    }
    if (code < 200 || code > 299) {
        // Cluster answers are Kubernetes Status bodies; admin ones {error, message}.
        err << "gatehouse admin: " << code << ": "
            << answer.value(QStringLiteral("message")).toString() << "\n";
        return 1;
    }
    if (format == QLatin1String("json")) {
        out << QJsonDocument(answer).toJson(QJsonDocument::Indented);
        return 0;
    }
    const QJsonArray items = answer.value(QStringLiteral("items")).toArray();
    auto flat = [](const QJsonArray &objects,
                   const std::function<QJsonObject(const QJsonObject &)> &row) {
        QJsonArray rows;
        for (const QJsonValue v : objects)
            rows.append(row(v.toObject()));
        return rows;
    };
    auto meta = [](const QJsonObject &o) { return o.value(QStringLiteral("metadata")).toObject(); };
    auto labelText = [](const QJsonObject &labels) {
        QStringList l;
        for (auto it = labels.begin(); it != labels.end(); ++it)
            l.append(it.key() + QLatin1Char('=') + it.value().toString());
        return l.join(QLatin1Char(','));
    };
    switch (show) {
    case Show::Kubeconfig: {
        const QString file = p.value(QStringLiteral("file"));
        const QByteArray yaml = answer.value(QStringLiteral("kubeconfig")).toString().toUtf8();
        if (file.isEmpty()) {
            out << yaml;
            return 0;
        }
        // Private files are 0600 from their first byte (an owner-only ACL on Windows).
        auto write = [&](const QString &name, const QByteArray &data, bool secret) {
            if (auto r = Platform::writeFileAtomically(name, data, secret ? 0600 : 0644); !r) {
                err << "gatehouse admin: " << r.error().message << "\n";
                return false;
            }
            return true;
        };
        if (p.isSet(QStringLiteral("reference-files"))) {
            const QJsonObject files =
                QJsonDocument::fromJson(body).object().value(QStringLiteral("files")).toObject();
            if (!write(files.value(QStringLiteral("ca")).toString(),
                       answer.value(QStringLiteral("caPem")).toString().toLatin1(), false) ||
                !write(files.value(QStringLiteral("certificate")).toString(),
                       answer.value(QStringLiteral("certificatePem")).toString().toLatin1(),
                       false) ||
                !write(files.value(QStringLiteral("key")).toString(),
                       answer.value(QStringLiteral("keyPem")).toString().toLatin1(), true))
                return 1;
        }
        if (!write(file, yaml, true))
            return 1;
        out << "kubeconfig for " << answer.value(QStringLiteral("user")).toString() << " ["
            << str(answer, "groups") << "] written to " << file << " (valid until "
            << answer.value(QStringLiteral("expiresAt")).toString() << ")\n";
        return 0;
    }
    case Show::Nodes:
        printTable(flat(items,
                        [&](const QJsonObject &o) {
                            return QJsonObject{
                                {QStringLiteral("name"), meta(o).value(QStringLiteral("name"))},
                                {QStringLiteral("created"),
                                 meta(o).value(QStringLiteral("creationTimestamp"))},
                                {QStringLiteral("labels"),
                                 labelText(meta(o).value(QStringLiteral("labels")).toObject())}};
                        }),
                   {{"name", "NAME"}, {"created", "CREATED"}, {"labels", "LABELS"}}, out);
        return 0;
    case Show::Namespaces:
        printTable(flat(items,
                        [&](const QJsonObject &o) {
                            return QJsonObject{
                                {QStringLiteral("name"), meta(o).value(QStringLiteral("name"))},
                                {QStringLiteral("phase"), o.value(QStringLiteral("status"))
                                                              .toObject()
                                                              .value(QStringLiteral("phase"))},
                                {QStringLiteral("created"),
                                 meta(o).value(QStringLiteral("creationTimestamp"))}};
                        }),
                   {{"name", "NAME"}, {"phase", "STATUS"}, {"created", "CREATED"}}, out);
        return 0;
    case Show::Roles:
        printTable(
            flat(items,
                 [&](const QJsonObject &o) {
                     return QJsonObject{
                         {QStringLiteral("name"), meta(o).value(QStringLiteral("name"))},
                         {QStringLiteral("namespace"), meta(o).value(QStringLiteral("namespace"))},
                         {QStringLiteral("rules"),
                          o.value(QStringLiteral("rules")).toArray().size()}};
                 }),
            {{"name", "NAME"}, {"namespace", "NAMESPACE"}, {"rules", "RULES"}}, out);
        return 0;
    case Show::Bindings:
        printTable(
            flat(items,
                 [&](const QJsonObject &o) {
                     QStringList subjects;
                     for (const QJsonValue s : o.value(QStringLiteral("subjects")).toArray())
                         subjects.append(s.toObject().value(QStringLiteral("kind")).toString() +
                                         QLatin1Char(':') +
                                         s.toObject().value(QStringLiteral("name")).toString());
                     const QJsonObject ref = o.value(QStringLiteral("roleRef")).toObject();
                     return QJsonObject{
                         {QStringLiteral("name"), meta(o).value(QStringLiteral("name"))},
                         {QStringLiteral("role"), ref.value(QStringLiteral("kind")).toString() +
                                                      QLatin1Char('/') +
                                                      ref.value(QStringLiteral("name")).toString()},
                         {QStringLiteral("subjects"), subjects.join(QLatin1Char(','))}};
                 }),
            {{"name", "NAME"}, {"role", "ROLE"}, {"subjects", "SUBJECTS"}}, out);
        return 0;
    case Show::Labels: {
        const QJsonObject labels = meta(answer).value(QStringLiteral("labels")).toObject();
        for (auto it = labels.begin(); it != labels.end(); ++it)
            out << it.key() << "=" << it.value().toString() << "\n";
        return 0;
    }
    case Show::Trace:
        printTrace(answer, out);
        return 0;
    case Show::Requests:
        printTable(items,
                   {{"time", "TIME"},
                    {"user", "USER"},
                    {"method", "METHOD"},
                    {"path", "PATH"},
                    {"code", "CODE"},
                    {"stage", "STAGE"},
                    {"reason", "REASON"}},
                   out);
        return 0;
    case Show::WhoCan: {
        QList<std::pair<const char *, const char *>> cols{{"subject", "SUBJECT"}};
        const QJsonArray verbs = answer.value(QStringLiteral("verbs")).toArray();
        static QList<QByteArray> keep; // printTable takes C strings
        keep.clear();
        for (const QJsonValue v : verbs)
            keep.append(v.toString().toUtf8());
        for (const QByteArray &v : std::as_const(keep))
            cols.append(std::pair<const char *, const char *>(v.constData(), v.constData()));
        QJsonArray rows;
        for (const QJsonValue v : answer.value(QStringLiteral("subjects")).toArray()) {
            const QJsonObject s = v.toObject();
            QJsonObject row{{QStringLiteral("subject"),
                             s.value(QStringLiteral("kind")).toString() + QLatin1Char(':') +
                                 s.value(QStringLiteral("name")).toString()}};
            const QJsonObject allowed = s.value(QStringLiteral("verbs")).toObject();
            for (auto it = allowed.begin(); it != allowed.end(); ++it)
                row.insert(it.key(),
                           it.value().toBool() ? QStringLiteral("yes") : QStringLiteral("-"));
            rows.append(row);
        }
        printTable(rows, cols, out);
        return 0;
    }
    case Show::Access: {
        for (const QJsonValue n : answer.value(QStringLiteral("notes")).toArray())
            out << "note: " << n.toString() << "\n";
        QJsonArray rows;
        for (const QJsonValue v : answer.value(QStringLiteral("access")).toArray()) {
            const QJsonObject c = v.toObject();
            QString what = c.value(QStringLiteral("nonResourceURL")).toString();
            if (what.isEmpty()) {
                const QString group = c.value(QStringLiteral("apiGroup")).toString();
                what = c.value(QStringLiteral("resource")).toString() +
                       (group.isEmpty() ? QString() : QLatin1Char('.') + group);
                const QJsonArray names = c.value(QStringLiteral("resourceNames")).toArray();
                if (!names.isEmpty())
                    what += QLatin1Char('/') + str(c, "resourceNames").replace(',', '|');
            }
            QStringList via;
            for (const QJsonValue s : c.value(QStringLiteral("via")).toArray()) {
                const QJsonObject src = s.toObject();
                via.append(QStringLiteral("%1 %2%3 -> %4 %5 rule %6")
                               .arg(src.value(QStringLiteral("bindingKind")).toString(),
                                    src.contains(QStringLiteral("bindingNamespace"))
                                        ? src.value(QStringLiteral("bindingNamespace")).toString() +
                                              QLatin1Char('/')
                                        : QString(),
                                    src.value(QStringLiteral("bindingName")).toString(),
                                    src.value(QStringLiteral("roleKind")).toString(),
                                    src.value(QStringLiteral("roleName")).toString())
                               .arg(src.value(QStringLiteral("ruleIndex")).toInt()));
            }
            rows.append(QJsonObject{
                {QStringLiteral("scope"),
                 c.value(QStringLiteral("namespace")).toString(QStringLiteral("(cluster)"))},
                {QStringLiteral("verb"), c.value(QStringLiteral("verb"))},
                {QStringLiteral("what"), what},
                {QStringLiteral("via"), via.join(QStringLiteral("; "))}});
        }
        // Not printTable: it shortens wide cells, and VIA is the point of this listing.
        qsizetype w[3] = {5, 4, 8};
        const char *keys[3] = {"scope", "verb", "what"};
        for (const QJsonValue r : std::as_const(rows))
            for (int i = 0; i < 3; ++i)
                w[i] = std::max(w[i], r.toObject().value(QLatin1String(keys[i])).toString().size());
        out << QStringLiteral("SCOPE").leftJustified(w[0] + 2)
            << QStringLiteral("VERB").leftJustified(w[1] + 2)
            << QStringLiteral("RESOURCE").leftJustified(w[2] + 2) << "VIA\n";
        for (const QJsonValue r : std::as_const(rows)) {
            const QJsonObject row = r.toObject();
            for (int i = 0; i < 3; ++i)
                out << row.value(QLatin1String(keys[i])).toString().leftJustified(w[i] + 2);
            out << row.value(QStringLiteral("via")).toString() << "\n";
        }
        return 0;
    }
    case Show::Import:
        printTable(answer.value(QStringLiteral("results")).toArray(),
                   {{"kind", "KIND"},
                    {"namespace", "NAMESPACE"},
                    {"name", "NAME"},
                    {"action", "RESULT"},
                    {"message", "MESSAGE"}},
                   out);
        for (const QJsonValue v : answer.value(QStringLiteral("results")).toArray())
            if (v.toObject().value(QStringLiteral("action")) == QLatin1String("error"))
                return 1;
        return 0;
    case Show::Settings:
        out << "anonymous-auth:           " << str(answer, "anonymousAuth") << "\n"
            << "authorization-mode:       " << str(answer, "authorizationModes") << "\n"
            << "enable-admission-plugins: " << str(answer, "admissionPlugins") << "\n";
        return 0;
    case Show::Done:
        out << "done\n";
        return 0;
    case Show::Object:
        break;
    }
    printObject(answer, out);
    return 0;
}

} // namespace

int runAdminCli(const QStringList &args, const QProcessEnvironment &env, QTextStream &out,
                QTextStream &err)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("gatehouse admin <noun> <verb>: administer a running Gatehouse "
                       "backend.\n\nCommands:\n") +
        usageText());
    p.addHelpOption();
    p.addPositionalArgument(
        QStringLiteral("noun"),
        QStringLiteral("status, customers, beers, orders, deliveries, endpoints, clients, keys, "
                       "users, consents, kubeconfig, nodes, labels, namespaces, rbac, settings, "
                       "explain, cluster-requests"));
    p.addPositionalArgument(QStringLiteral("verb"), QStringLiteral("list, show, create, ..."));
    p.addOptions({
        {QStringLiteral("data-dir"), QStringLiteral("Data directory of the backend."),
         QStringLiteral("dir")},
        {QStringLiteral("config"), QStringLiteral("Config file of the backend."),
         QStringLiteral("file")},
        {QStringLiteral("admin-url"), QStringLiteral("Admin API URL (default: from ports.json)."),
         QStringLiteral("url")},
        {QStringLiteral("admin-token"),
         QStringLiteral("Admin token (default: <data-dir>/admin-token)."), QStringLiteral("token")},
        {QStringLiteral("admin-fingerprint"),
         QStringLiteral("HTTPS admin API: trust the certificate with this SHA-256 fingerprint (as "
                        "the backend logs it at start; or GATEHOUSE_ADMIN_FINGERPRINT)."),
         QStringLiteral("sha256")},
        {{QStringLiteral("o"), QStringLiteral("output")},
         QStringLiteral("Output format: text or json."),
         QStringLiteral("format"),
         QStringLiteral("text")},
        {QStringLiteral("customer"), QStringLiteral("orders list: only this customer's."),
         QStringLiteral("id")},
        {QStringLiteral("status"), QStringLiteral("orders list: only orders in this status."),
         QStringLiteral("status")},
        {QStringLiteral("order"), QStringLiteral("deliveries list: only this order's."),
         QStringLiteral("id")},
        {QStringLiteral("state"), QStringLiteral("deliveries list: pending, succeeded or failed."),
         QStringLiteral("state")},
        {QStringLiteral("limit"), QStringLiteral("list: at most this many rows."),
         QStringLiteral("n")},
        {QStringLiteral("user"), QStringLiteral("consents list: only this user's (id)."),
         QStringLiteral("id")},
        {QStringLiteral("client"), QStringLiteral("consents or tokens list: only this client's."),
         QStringLiteral("id")},
        {QStringLiteral("kind"),
         QStringLiteral("audit list: only changes of this kind (client, node, ...)."),
         QStringLiteral("kind")},
        {QStringLiteral("target"),
         QStringLiteral("audit list: only changes to this (an id or a name)."),
         QStringLiteral("target")},
        {QStringLiteral("endpoint"),
         QStringLiteral("deliveries redeliver-all: only this endpoint's."), QStringLiteral("id")},
        {QStringLiteral("from"),
         QStringLiteral("deliveries redeliver-all: created at or after (ISO 8601)."),
         QStringLiteral("time")},
        {QStringLiteral("to"),
         QStringLiteral("deliveries redeliver-all: created before (ISO 8601)."),
         QStringLiteral("time")},
        {QStringLiteral("rate"),
         QStringLiteral("deliveries redeliver-all: redeliveries per second (default 10)."),
         QStringLiteral("n")},
        {QStringLiteral("dry-run"),
         QStringLiteral("deliveries redeliver-all: only count and show what would be sent.")},
        {QStringLiteral("alg"), QStringLiteral("keys rotate: RS256 (default) or ES256."),
         QStringLiteral("alg")},
        {QStringLiteral("expires-in"),
         QStringLiteral("initial-access-tokens create: lifetime in seconds (default 86400); "
                        "admin-tokens create: (default: no expiry)."),
         QStringLiteral("seconds")},
        {QStringLiteral("allow"),
         QStringLiteral("admin-tokens create: permissions, e.g. orders:read,audit:read (repeat "
                        "or separate with commas)."),
         QStringLiteral("permissions")},
        {QStringLiteral("max-uses"),
         QStringLiteral("initial-access-tokens create: registrations allowed (default 1)."),
         QStringLiteral("n")},
        {QStringLiteral("group"), QStringLiteral("kubeconfig, explain, labels: a group (repeat)."),
         QStringLiteral("group")},
        {QStringLiteral("as"), QStringLiteral("explain, labels: act as this user."),
         QStringLiteral("user")},
        {QStringLiteral("anonymous"), QStringLiteral("explain, labels: act as system:anonymous.")},
        {{QStringLiteral("n"), QStringLiteral("namespace")},
         QStringLiteral("rbac, explain: the namespace."),
         QStringLiteral("ns")},
        {QStringLiteral("subresource"), QStringLiteral("explain: the subresource (status)."),
         QStringLiteral("name")},
        {QStringLiteral("label"), QStringLiteral("nodes create: a label KEY=VALUE (repeat)."),
         QStringLiteral("label")},
        {QStringLiteral("file"), QStringLiteral("kubeconfig: write it to this file (0600)."),
         QStringLiteral("path")},
        {QStringLiteral("reference-files"),
         QStringLiteral("kubeconfig: write the certificate and key next to --file and reference "
                        "them.")},
        {QStringLiteral("server"), QStringLiteral("kubeconfig: the server URL to put in it."),
         QStringLiteral("url")},
        {QStringLiteral("days"), QStringLiteral("kubeconfig: certificate validity (default 365)."),
         QStringLiteral("n")},
    });
    if (!p.parse(args)) {
        err << "gatehouse admin: " << p.errorText() << "\n";
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        out << p.helpText();
        return 0;
    }
    const QStringList pos = p.positionalArguments();
    if (pos.isEmpty()) {
        err << "gatehouse admin: missing noun; try 'gatehouse admin status'\n";
        return 2;
    }
    const QString format = p.value(QStringLiteral("output"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        err << "gatehouse admin: --output must be text or json\n";
        return 2;
    }
    const Command *command = nullptr;
    QStringList words = pos.mid(1);
    const bool clusterNoun = isClusterNoun(pos.first());
    for (const Command &c : Commands) {
        if (clusterNoun)
            break;
        if (pos.first() != QLatin1String(c.noun))
            continue;
        if (qstrlen(c.verb) == 0) { // status [show]
            if (words.isEmpty() || (words.size() == 1 && words[0] == QLatin1String("show"))) {
                command = &c;
                words.clear();
            }
            break;
        }
        if (!words.isEmpty() && words.first() == QLatin1String(c.verb)) {
            command = &c;
            words.removeFirst();
            break;
        }
    }
    if (!command && !clusterNoun) {
        err << "gatehouse admin: unknown command '" << pos.join(QLatin1Char(' ')) << "'; known:\n"
            << usageText();
        return 2;
    }
    if (command && words.size() != command->args) {
        err << "gatehouse admin: usage: gatehouse admin " << command->usage << "\n";
        return 2;
    }

    QMap<QString, QString> cli;
    for (const char *k : {"data-dir", "config"})
        if (p.isSet(QLatin1String(k)))
            cli.insert(QLatin1String(k), p.value(QLatin1String(k)));
    auto config = Core::ConfigResolver::resolve(cli, env);
    if (!config) {
        err << "gatehouse admin: " << config.error().message << "\n";
        return 2;
    }
    Target t;
    QString urlText = p.value(QStringLiteral("admin-url"));
    if (urlText.isEmpty())
        urlText = env.value(QStringLiteral("GATEHOUSE_ADMIN_URL"));
    if (urlText.isEmpty()) {
        QFile f(Backend::portsPath(config->dataDir));
        if (!f.open(QIODevice::ReadOnly)) {
            err << "gatehouse admin: no running Gatehouse found: " << f.fileName()
                << " does not exist (start one with 'gatehouse --headless', or pass --admin-url)\n";
            return 1;
        }
        const QJsonObject ports = QJsonDocument::fromJson(f.readAll()).object();
        urlText = ports.value(QStringLiteral("urls"))
                      .toObject()
                      .value(QStringLiteral("admin"))
                      .toString();
        t.source = f.fileName();
        // Its own backend's certificate comes from the same data directory.
        t.caCertificates =
            QSslCertificate::fromPath(config->dataDir + QStringLiteral("/pki/ca.crt"));
    }
    t.fingerprint = p.value(QStringLiteral("admin-fingerprint"));
    if (t.fingerprint.isEmpty())
        t.fingerprint = env.value(QStringLiteral("GATEHOUSE_ADMIN_FINGERPRINT"));
    t.url = QUrl(urlText);
    if (!t.url.isValid() ||
        (t.url.scheme() != QLatin1String("http") && t.url.scheme() != QLatin1String("https"))) {
        err << "gatehouse admin: invalid admin URL '" << urlText << "'\n";
        return 2;
    }
    t.token = p.value(QStringLiteral("admin-token"));
    if (t.token.isEmpty())
        t.token = env.value(QStringLiteral("GATEHOUSE_ADMIN_TOKEN"));
    if (t.token.isEmpty()) {
        QFile f(Backend::adminTokenPath(config->dataDir));
        if (!f.open(QIODevice::ReadOnly)) {
            err << "gatehouse admin: cannot read the admin token " << f.fileName() << ": "
                << f.errorString() << " (pass --admin-token)\n";
            return 1;
        }
        t.token = QString::fromUtf8(f.readAll()).trimmed();
    }

    if (clusterNoun)
        return runClusterCommand(p, pos.first(), words, t, format, out, err);
    const QString noun = QLatin1String(command->noun);
    const QString verb = QLatin1String(command->verb);
    QByteArray method = "GET";
    QString path;
    QUrlQuery query;
    QByteArray body;
    if (noun == QLatin1String("status")) {
        path = QStringLiteral("/admin/v1/status");
    } else if (noun == QLatin1String("config")) {
        path = QStringLiteral("/admin/v1/settings");
        if (!words.isEmpty())
            path += QLatin1Char('/') + words[0];
        if (verb == QLatin1String("set")) {
            method = "PUT";
            body = QJsonDocument(QJsonObject{{QStringLiteral("value"), words[1]}}).toJson();
        } else if (verb == QLatin1String("reset")) {
            method = "DELETE";
        }
    } else if (verb == QLatin1String("list")) {
        path = QStringLiteral("/admin/v1/") +
               (noun == QLatin1String("keys")      ? QStringLiteral("signing-keys")
                : noun == QLatin1String("issuers") ? QStringLiteral("trusted-issuers")
                                                   : noun);
        const std::pair<const char *, const char *> filters[] = {
            {"customer", "customerId"}, {"status", "status"}, {"order", "orderId"},
            {"state", "state"},         {"limit", "limit"},   {"user", "user"},
            {"client", "client"},       {"kind", "kind"},     {"target", "target"}};
        for (const auto &[option, param] : filters)
            if (p.isSet(QLatin1String(option)))
                query.addQueryItem(QLatin1String(param), p.value(QLatin1String(option)));
    } else if (verb == QLatin1String("show")) {
        path = QStringLiteral("/admin/v1/%1/%2").arg(noun, words[0]);
    } else if ((noun == QLatin1String("clients") && verb == QLatin1String("register")) ||
               (noun == QLatin1String("users") && verb == QLatin1String("add"))) {
        // RFC 7591 client metadata or a user, as JSON from a file or stdin.
        const auto input = readInput(words[0], err);
        if (!input)
            return 2;
        method = "POST";
        path = QStringLiteral("/admin/v1/") + noun;
        body = *input;
    } else if (noun == QLatin1String("clients") && verb == QLatin1String("update")) {
        const auto input = readInput(words[1], err);
        if (!input)
            return 2;
        method = "PUT";
        path = QStringLiteral("/admin/v1/clients/%1").arg(words[0]);
        body = *input;
    } else if (noun == QLatin1String("initial-access-tokens") && verb == QLatin1String("create")) {
        QJsonObject o;
        for (const auto &[option, field] :
             {std::pair{"expires-in", "expiresIn"}, std::pair{"max-uses", "maxUses"}}) {
            if (!p.isSet(QLatin1String(option)))
                continue;
            bool ok = false;
            const qint64 v = p.value(QLatin1String(option)).toLongLong(&ok);
            if (!ok) {
                err << "gatehouse admin: --" << option << " must be a whole number\n";
                return 2;
            }
            o.insert(QLatin1String(field), v);
        }
        method = "POST";
        path = QStringLiteral("/admin/v1/initial-access-tokens");
        body = QJsonDocument(o).toJson();
    } else if (noun == QLatin1String("admin-tokens") && verb == QLatin1String("create")) {
        QJsonArray permissions;
        for (const QString &v : p.values(QStringLiteral("allow")))
            for (const QString &item : v.split(QLatin1Char(','), Qt::SkipEmptyParts))
                permissions.append(item.trimmed());
        if (permissions.isEmpty()) {
            err << "gatehouse admin: give what the token may do with --allow, e.g. --allow "
                   "orders:read,audit:read\n";
            return 2;
        }
        QJsonObject o{{QStringLiteral("name"), words[0]},
                      {QStringLiteral("permissions"), permissions}};
        if (p.isSet(QStringLiteral("expires-in"))) {
            bool ok = false;
            const qint64 v = p.value(QStringLiteral("expires-in")).toLongLong(&ok);
            if (!ok) {
                err << "gatehouse admin: --expires-in must be a whole number of seconds\n";
                return 2;
            }
            o.insert(QStringLiteral("expiresIn"), v);
        }
        method = "POST";
        path = QStringLiteral("/admin/v1/admin-tokens");
        body = QJsonDocument(o).toJson();
    } else if (noun == QLatin1String("admin-tokens") && verb == QLatin1String("revoke")) {
        method = "DELETE";
        path = QStringLiteral("/admin/v1/admin-tokens/%1").arg(words[0]);
    } else if (noun == QLatin1String("keys") && verb == QLatin1String("rotate")) {
        method = "POST";
        path = QStringLiteral("/admin/v1/signing-keys/rotate");
        body = QJsonDocument(
                   QJsonObject{{QStringLiteral("alg"), p.value(QStringLiteral("alg")).isEmpty()
                                                           ? QStringLiteral("RS256")
                                                           : p.value(QStringLiteral("alg"))}})
                   .toJson();
    } else if (noun == QLatin1String("deliveries") && verb == QLatin1String("redeliver-all")) {
        QJsonObject filter;
        const std::pair<const char *, const char *> fields[] = {
            {"state", "state"},         {"customer", "customerId"}, {"order", "orderId"},
            {"endpoint", "endpointId"}, {"from", "from"},           {"to", "to"}};
        for (const auto &[option, field] : fields)
            if (p.isSet(QLatin1String(option)))
                filter.insert(QLatin1String(field), p.value(QLatin1String(option)));
        method = "POST";
        if (p.isSet(QStringLiteral("dry-run"))) {
            path = QStringLiteral("/admin/v1/redeliveries/preview");
            body = QJsonDocument(QJsonObject{{QStringLiteral("filter"), filter}}).toJson();
        } else {
            QJsonObject o{{QStringLiteral("filter"), filter},
                          {QStringLiteral("actor"), QStringLiteral("gatehouse admin")}};
            if (p.isSet(QStringLiteral("rate"))) {
                bool ok = false;
                const double rate = p.value(QStringLiteral("rate")).toDouble(&ok);
                if (!ok) {
                    err << "gatehouse admin: --rate must be a number\n";
                    return 2;
                }
                o.insert(QStringLiteral("ratePerSecond"), rate);
            }
            path = QStringLiteral("/admin/v1/redeliveries");
            body = QJsonDocument(o).toJson();
        }
    } else if ((noun == QLatin1String("users") || noun == QLatin1String("clients")) &&
               verb == QLatin1String("access")) {
        method = "POST";
        path = QStringLiteral("/admin/v1/oauth/access");
        body =
            QJsonDocument(QJsonObject{{noun == QLatin1String("users") ? QStringLiteral("username")
                                                                      : QStringLiteral("client_id"),
                                       words[0]}})
                .toJson();
    } else if (noun == QLatin1String("tokens") && verb == QLatin1String("preview")) {
        const auto input = readInput(words[0], err);
        if (!input)
            return 2;
        method = "POST";
        path = QStringLiteral("/admin/v1/tokens/preview");
        body = *input;
    } else if (noun == QLatin1String("tokens") && verb == QLatin1String("revoke")) {
        method = "DELETE";
        path = QStringLiteral("/admin/v1/tokens/%1").arg(words[0]);
    } else if (noun == QLatin1String("issuers") && verb == QLatin1String("add")) {
        const auto input = readInput(words[0], err);
        if (!input)
            return 2;
        method = "POST";
        path = QStringLiteral("/admin/v1/trusted-issuers");
        body = *input;
    } else if (noun == QLatin1String("issuers") && verb == QLatin1String("remove")) {
        method = "DELETE";
        path = QStringLiteral("/admin/v1/trusted-issuers");
        query.addQueryItem(QStringLiteral("issuer"),
                           QString::fromLatin1(QUrl::toPercentEncoding(words[0])));
    } else if (noun == QLatin1String("users") && verb == QLatin1String("set-password")) {
        // The first line of stdin; never an argument (it would show in the process list).
        QTextStream in(stdin);
        const QString password = in.readLine();
        if (password.isEmpty()) {
            err << "gatehouse admin: give the new password on stdin\n";
            return 2;
        }
        method = "PATCH";
        path = QStringLiteral("/admin/v1/users/%1").arg(words[0]);
        body = QJsonDocument(QJsonObject{{QStringLiteral("password"), password}}).toJson();
    } else if (verb == QLatin1String("delete")) {
        method = "DELETE";
        path = QStringLiteral("/admin/v1/%1/%2").arg(noun, words[0]);
    } else if (noun == QLatin1String("consents") && verb == QLatin1String("revoke")) {
        method = "DELETE";
        path = QStringLiteral("/admin/v1/consents/%1/%2").arg(words[0], words[1]);
    } else if (noun == QLatin1String("customers") && verb == QLatin1String("create")) {
        method = "POST";
        path = QStringLiteral("/admin/v1/customers");
        body = QJsonDocument(QJsonObject{{QStringLiteral("name"), words[0]}}).toJson();
    } else if (noun == QLatin1String("beers") && verb == QLatin1String("restock")) {
        bool ok = false;
        const int quantity = words[1].toInt(&ok);
        if (!ok) {
            err << "gatehouse admin: QUANTITY must be an integer\n";
            return 2;
        }
        method = "POST";
        path = QStringLiteral("/admin/v1/beers/%1/restock").arg(words[0]);
        body = QJsonDocument(QJsonObject{{QStringLiteral("quantity"), quantity}}).toJson();
    } else {
        method = "POST";
        path = QStringLiteral("/admin/v1/%1/%2/%3").arg(noun, words[0], verb);
    }

    const Reply r = call(t, method, path, query, body);
    if (r.status == 0) {
        err << "gatehouse admin: no Gatehouse backend answers at " << t.url.toString();
        if (!t.source.isEmpty())
            err << " (from " << t.source << ")";
        err << ": " << r.networkError << "\n";
        return 1;
    }
    const QJsonObject answer = QJsonDocument::fromJson(r.body).object();
    if (r.status < 200 || r.status > 299) {
        err << "gatehouse admin: " << t.url.toString() << " answered " << r.status << ": "
            << answer.value(QStringLiteral("message")).toString() << "\n";
        return 1;
    }
    if (format == QLatin1String("json")) {
        out << QJsonDocument(answer).toJson(QJsonDocument::Indented);
        return 0;
    }
    if (noun == QLatin1String("status"))
        return printStatus(answer, out);
    if (noun == QLatin1String("deliveries") && verb == QLatin1String("redeliver-all") &&
        p.isSet(QStringLiteral("dry-run"))) {
        out << str(answer, "count") << " deliveries would be redelivered"
            << (answer.value(QStringLiteral("capped")).toBool()
                    ? QStringLiteral(" (of %1 matching; at most %2 per job)")
                          .arg(answer.value(QStringLiteral("matching")).toInt())
                          .arg(Orders::RedeliveryJobs::kMaxDeliveries)
                    : QString())
            << "; the first " << answer.value(QStringLiteral("deliveries")).toArray().size()
            << ":\n";
        printTable(answer.value(QStringLiteral("deliveries")).toArray(),
                   {{"id", "ID"},
                    {"orderId", "ORDER"},
                    {"orderStatus", "STATUS"},
                    {"state", "STATE"},
                    {"createdAt", "CREATED"},
                    {"payload", "PAYLOAD"}},
                   out);
        return 0;
    }
    if (noun == QLatin1String("redeliveries") ||
        (noun == QLatin1String("deliveries") && verb == QLatin1String("redeliver-all"))) {
        if (verb == QLatin1String("list")) {
            printTable(answer.value(QStringLiteral("items")).toArray(),
                       {{"id", "ID"},
                        {"state", "STATE"},
                        {"total", "TOTAL"},
                        {"done", "DONE"},
                        {"failed", "FAILED"},
                        {"ratePerSecond", "RATE/S"},
                        {"createdAt", "CREATED"}},
                       out);
            return 0;
        }
        out << "job " << str(answer, "id") << ": " << str(answer, "state") << ", "
            << str(answer, "done") << " of " << str(answer, "total") << " redelivered, "
            << str(answer, "failed") << " refused, at most " << str(answer, "ratePerSecond")
            << " a second\n";
        if (!answer.value(QStringLiteral("lastError")).isNull())
            out << "last refusal: " << str(answer, "lastError") << "\n";
        return 0;
    }
    if (verb == QLatin1String("access")) {
        auto tokenRows = [](const QJsonObject &token) {
            return claimRows(token.value(QStringLiteral("claims")).toObject(),
                             token.value(QStringLiteral("sources")).toObject(), false);
        };
        const QList<std::pair<const char *, const char *>> cols{
            {"claim", "CLAIM"}, {"value", "VALUE"}, {"source", "SOURCE"}, {"detail", "WHY"}};
        auto scopes = [](const QJsonObject &o) {
            QStringList l;
            for (const QJsonValue v : o.value(QStringLiteral("scopes")).toArray())
                l.append(v.toObject().value(QStringLiteral("scope")).toString());
            return l.join(QLatin1Char(' '));
        };
        if (noun == QLatin1String("users")) {
            const QJsonArray clients = answer.value(QStringLiteral("clients")).toArray();
            out << "user "
                << answer.value(QStringLiteral("subject"))
                       .toObject()
                       .value(QStringLiteral("username"))
                       .toString()
                << ": " << clients.size() << " client(s) can act for this user\n";
            for (const QJsonValue v : clients) {
                const QJsonObject c = v.toObject();
                out << "\nclient " << str(c, "clientName") << " (" << str(c, "clientId")
                    << "): scopes " << scopes(c) << "; consent "
                    << (c.value(QStringLiteral("consent")).isNull()
                            ? QStringLiteral("not given yet")
                            : QStringLiteral("given for ") + c.value(QStringLiteral("consent"))
                                                                 .toObject()
                                                                 .value(QStringLiteral("scope"))
                                                                 .toString())
                    << "\n";
                printTable(tokenRows(c.value(QStringLiteral("accessToken")).toObject()), cols, out);
            }
            return 0;
        }
        out << "client "
            << answer.value(QStringLiteral("subject"))
                   .toObject()
                   .value(QStringLiteral("clientName"))
                   .toString()
            << ": grants " << str(answer, "grantTypes") << "; scopes " << scopes(answer)
            << (answer.value(QStringLiteral("actsForUsers")).toBool()
                    ? QStringLiteral("; acts for users (see users access)")
                    : QString())
            << "\naudiences:\n";
        for (const QJsonValue v : answer.value(QStringLiteral("audiences")).toArray())
            out << "  " << v.toObject().value(QStringLiteral("audience")).toString() << " ("
                << v.toObject().value(QStringLiteral("detail")).toString() << ")\n";
        if (answer.contains(QStringLiteral("clientCredentials"))) {
            out << "client_credentials access token:\n";
            printTable(tokenRows(answer.value(QStringLiteral("clientCredentials")).toObject()),
                       cols, out);
        }
        return 0;
    }
    if (noun == QLatin1String("tokens") && verb == QLatin1String("preview")) {
        out << "preview of a " << answer.value(QStringLiteral("format")).toString()
            << " access token for " << answer.value(QStringLiteral("clientId")).toString() << " ("
            << answer.value(QStringLiteral("grantType")).toString()
            << "), not issued: " << answer.value(QStringLiteral("note")).toString() << "\n";
        const QJsonArray rows = claimRows(answer.value(QStringLiteral("claims")).toObject(),
                                          answer.value(QStringLiteral("sources")).toObject(), true);
        printTable(
            rows, {{"claim", "CLAIM"}, {"value", "VALUE"}, {"source", "SOURCE"}, {"detail", "WHY"}},
            out);
        const QJsonArray also = answer.value(QStringLiteral("alsoIssued")).toArray();
        if (!also.isEmpty())
            out << "also issued: " << str(answer, "alsoIssued") << "\n";
        return 0;
    }
    if (verb == QLatin1String("list") || (noun == QLatin1String("keys"))) {
        const QJsonArray rows = answer.value(QStringLiteral("items")).toArray();
        if (noun == QLatin1String("customers"))
            printTable(rows,
                       {{"id", "ID"},
                        {"name", "NAME"},
                        {"orderCount", "ORDERS"},
                        {"secretCreatedAt", "SECRET SINCE"}},
                       out);
        else if (noun == QLatin1String("clients"))
            printTable(rows,
                       {{"client_id", "CLIENT ID"},
                        {"client_name", "NAME"},
                        {"token_endpoint_auth_method", "AUTH"},
                        {"scope", "SCOPES"},
                        {"access_token_format", "TOKENS"}},
                       out);
        else if (noun == QLatin1String("users"))
            printTable(rows,
                       {{"id", "ID"},
                        {"username", "USERNAME"},
                        {"email", "EMAIL"},
                        {"groups", "GROUPS"},
                        {"locked", "LOCKED"}},
                       out);
        else if (noun == QLatin1String("initial-access-tokens"))
            printTable(rows,
                       {{"id", "ID"},
                        {"createdAt", "CREATED"},
                        {"expiresAt", "EXPIRES"},
                        {"maxUses", "MAX USES"},
                        {"usedCount", "USED"}},
                       out);
        else if (noun == QLatin1String("issuers"))
            printTable(rows, {{"issuer", "ISSUER"}, {"createdAt", "ADDED"}}, out);
        else if (noun == QLatin1String("config"))
            printTable(rows,
                       {{"key", "KEY"},
                        {"value", "VALUE"},
                        {"source", "SOURCE"},
                        {"applies", "APPLIES"},
                        {"pending", "AT NEXT START"}},
                       out);
        else if (noun == QLatin1String("admin-tokens"))
            printTable(rows,
                       {{"id", "ID"},
                        {"name", "NAME"},
                        {"permissions", "PERMISSIONS"},
                        {"expiresAt", "EXPIRES"},
                        {"lastUsedAt", "LAST USED"},
                        {"createdBy", "CREATED BY"}},
                       out);
        else if (noun == QLatin1String("tokens"))
            printTable(rows,
                       {{"id", "ID"},
                        {"kind", "KIND"},
                        {"clientId", "CLIENT"},
                        {"username", "USER"},
                        {"scope", "SCOPES"},
                        {"expiresAt", "EXPIRES"}},
                       out);
        else if (noun == QLatin1String("consents"))
            printTable(rows,
                       {{"userId", "USER ID"},
                        {"username", "USERNAME"},
                        {"clientId", "CLIENT"},
                        {"scope", "SCOPES"},
                        {"grantedAt", "GRANTED"}},
                       out);
        else if (noun == QLatin1String("keys"))
            printTable(rows,
                       {{"kid", "KID"},
                        {"alg", "ALG"},
                        {"state", "STATE"},
                        {"createdAt", "CREATED"},
                        {"retireAfter", "RETIRE AFTER"}},
                       out);
        else if (noun == QLatin1String("beers"))
            printTable(rows,
                       {{"id", "ID"},
                        {"beerName", "NAME"},
                        {"beerStyle", "STYLE"},
                        {"upc", "UPC"},
                        {"price", "PRICE"},
                        {"quantityOnHand", "ON HAND"},
                        {"discontinued", "DISCONTINUED"}},
                       out);
        else if (noun == QLatin1String("orders"))
            printTable(rows,
                       {{"id", "ID"},
                        {"customerName", "CUSTOMER"},
                        {"orderStatus", "STATUS"},
                        {"customerRef", "REF"},
                        {"lastModifiedDate", "CHANGED"}},
                       out);
        else if (noun == QLatin1String("audit")) {
            QJsonArray shown;
            for (const QJsonValue v : rows) {
                QJsonObject o = v.toObject();
                QStringList fields;
                for (const QJsonValue c : o.value(QStringLiteral("changes")).toArray())
                    fields.append(c.toObject().value(QStringLiteral("field")).toString());
                o.insert(QStringLiteral("fields"), fields.isEmpty()
                                                       ? QStringLiteral("-")
                                                       : fields.join(QStringLiteral(", ")));
                o.insert(QStringLiteral("caused"), o.value(QStringLiteral("consequences"))
                                                       .toObject()
                                                       .value(QStringLiteral("summary"))
                                                       .toString(QStringLiteral("-")));
                shown.append(o);
            }
            printTable(shown,
                       {{"id", "ID"},
                        {"at", "TIME"},
                        {"actor", "ACTOR"},
                        {"kind", "KIND"},
                        {"action", "ACTION"},
                        {"target", "TARGET"},
                        {"fields", "CHANGED"},
                        {"caused", "SINCE THEN"}},
                       out);
        } else if (noun == QLatin1String("deliveries"))
            printTable(rows,
                       {{"id", "ID"},
                        {"orderId", "ORDER"},
                        {"orderStatus", "STATUS"},
                        {"state", "STATE"},
                        {"attempts", "ATTEMPTS"},
                        {"lastStatus", "HTTP"},
                        {"lastError", "LAST ERROR"}},
                       out);
        else
            printTable(rows,
                       {{"id", "ID"},
                        {"customerId", "CUSTOMER"},
                        {"url", "URL"},
                        {"state", "STATE"},
                        {"disabledReason", "REASON"},
                        {"pendingDeliveries", "PENDING"}},
                       out);
        return 0;
    }
    if (r.status == 204) {
        out << "done\n";
        return 0;
    }
    if (answer.contains(QStringLiteral("webhookSecret")) ||
        answer.contains(QStringLiteral("client_secret")) ||
        ((noun == QLatin1String("initial-access-tokens") ||
          noun == QLatin1String("admin-tokens")) &&
         answer.contains(QStringLiteral("token"))))
        err << "gatehouse admin: the secret is shown once; store it now.\n";
    printObject(answer, out);
    return 0;
}

} // namespace Gatehouse::Admin
