#include "admin/admincli.h"
#include "admin/backend.h"

#include "core/config.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
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
    req.setTransferTimeout(10'000);
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = nam.sendCustomRequest(req, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    Reply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    if (r.status == 0)
        r.networkError = reply->errorString();
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
    const QJsonObject db = s.value(QStringLiteral("database")).toObject();
    out << "  database:  " << db.value(QStringLiteral("driver")).toString() << " "
        << db.value(QStringLiteral("path")).toString() << " (schema version "
        << db.value(QStringLiteral("schemaVersion")).toInt() << ")\n";
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
    {"endpoints", "list", 0, "endpoints list"},
    {"endpoints", "disable", 1, "endpoints disable ENDPOINT_ID"},
    {"endpoints", "enable", 1, "endpoints enable ENDPOINT_ID"},
    {"clients", "list", 0, "clients list"},
    {"clients", "show", 1, "clients show CLIENT_ID"},
    {"clients", "register", 1, "clients register METADATA_JSON_FILE (- for stdin)"},
    {"clients", "update", 2, "clients update CLIENT_ID METADATA_JSON_FILE (- for stdin)"},
    {"clients", "rotate-secret", 1, "clients rotate-secret CLIENT_ID"},
    {"clients", "delete", 1, "clients delete CLIENT_ID"},
    {"keys", "list", 0, "keys list"},
    {"keys", "rotate", 0, "keys rotate [--alg RS256|ES256]"},
    {"users", "list", 0, "users list"},
    {"users", "show", 1, "users show USER (id or username)"},
    {"users", "add", 1, "users add USER_JSON_FILE (- for stdin)"},
    {"users", "set-password", 1, "users set-password USER (the password from stdin)"},
    {"users", "unlock", 1, "users unlock USER"},
    {"users", "delete", 1, "users delete USER"},
    {"initial-access-tokens", "create", 0,
     "initial-access-tokens create [--expires-in SECONDS] [--max-uses N]"},
    {"initial-access-tokens", "list", 0, "initial-access-tokens list"},
    {"initial-access-tokens", "delete", 1, "initial-access-tokens delete ID"},
    {"tokens", "list", 0, "tokens list [--client ID] [--user ID] [--limit N]"},
    {"tokens", "revoke", 1, "tokens revoke TOKEN_ID"},
    {"issuers", "list", 0, "issuers list"},
    {"issuers", "add", 1, "issuers add ISSUER_JSON_FILE (- for stdin: {\"issuer\", \"jwks\"})"},
    {"issuers", "remove", 1, "issuers remove ISSUER_URL"},
    {"consents", "list", 0, "consents list [--user ID] [--client ID]"},
    {"consents", "revoke", 2, "consents revoke USER_ID CLIENT_ID"},
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

QString usageText()
{
    QString s;
    for (const Command &c : Commands)
        s += QStringLiteral("  gatehouse admin ") + QLatin1String(c.usage) + QLatin1Char('\n');
    return s;
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
                       "users, consents"));
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
        {QStringLiteral("alg"), QStringLiteral("keys rotate: RS256 (default) or ES256."),
         QStringLiteral("alg")},
        {QStringLiteral("expires-in"),
         QStringLiteral("initial-access-tokens create: lifetime in seconds (default 86400)."),
         QStringLiteral("seconds")},
        {QStringLiteral("max-uses"),
         QStringLiteral("initial-access-tokens create: registrations allowed (default 1)."),
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
    for (const Command &c : Commands) {
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
    if (!command) {
        err << "gatehouse admin: unknown command '" << pos.join(QLatin1Char(' ')) << "'; known:\n"
            << usageText();
        return 2;
    }
    if (words.size() != command->args) {
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
    }
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

    const QString noun = QLatin1String(command->noun);
    const QString verb = QLatin1String(command->verb);
    QByteArray method = "GET";
    QString path;
    QUrlQuery query;
    QByteArray body;
    if (noun == QLatin1String("status")) {
        path = QStringLiteral("/admin/v1/status");
    } else if (verb == QLatin1String("list")) {
        path = QStringLiteral("/admin/v1/") +
               (noun == QLatin1String("keys")      ? QStringLiteral("signing-keys")
                : noun == QLatin1String("issuers") ? QStringLiteral("trusted-issuers")
                                                   : noun);
        const std::pair<const char *, const char *> filters[] = {
            {"customer", "customerId"}, {"status", "status"}, {"order", "orderId"},
            {"state", "state"},         {"limit", "limit"},   {"user", "user"},
            {"client", "client"}};
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
    } else if (noun == QLatin1String("keys") && verb == QLatin1String("rotate")) {
        method = "POST";
        path = QStringLiteral("/admin/v1/signing-keys/rotate");
        body = QJsonDocument(
                   QJsonObject{{QStringLiteral("alg"), p.value(QStringLiteral("alg")).isEmpty()
                                                           ? QStringLiteral("RS256")
                                                           : p.value(QStringLiteral("alg"))}})
                   .toJson();
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
        else if (noun == QLatin1String("deliveries"))
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
        (noun == QLatin1String("initial-access-tokens") &&
         answer.contains(QStringLiteral("token"))))
        err << "gatehouse admin: the secret is shown once; store it now.\n";
    printObject(answer, out);
    return 0;
}

} // namespace Gatehouse::Admin
