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

Reply get(const Target &t, const QString &path)
{
    QNetworkAccessManager nam;
    QUrl url = t.url;
    url.setPath(path);
    QNetworkRequest req(url);
    req.setRawHeader("Authorization", "Bearer " + t.token.toUtf8());
    req.setTransferTimeout(10'000);
    QNetworkReply *reply = nam.get(req);
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

} // namespace

int runAdminCli(const QStringList &args, const QProcessEnvironment &env, QTextStream &out,
                QTextStream &err)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "gatehouse admin <noun> <verb>: administer a running Gatehouse backend.\n\n"
        "Nouns and verbs:\n  status            version, uptime, listeners and database"));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("noun"), QStringLiteral("what to administer: status"));
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
    if (pos.first() != QLatin1String("status") || pos.size() > 2 ||
        (pos.size() == 2 && pos[1] != QLatin1String("show"))) {
        err << "gatehouse admin: unknown command '" << pos.join(QLatin1Char(' '))
            << "'; known: status\n";
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

    const Reply r = get(t, QStringLiteral("/admin/v1/status"));
    if (r.status == 0) {
        err << "gatehouse admin: no Gatehouse backend answers at " << t.url.toString();
        if (!t.source.isEmpty())
            err << " (from " << t.source << ")";
        err << ": " << r.networkError << "\n";
        return 1;
    }
    const QJsonObject body = QJsonDocument::fromJson(r.body).object();
    if (r.status != 200) {
        err << "gatehouse admin: " << t.url.toString() << " answered " << r.status << ": "
            << body.value(QStringLiteral("message")).toString() << "\n";
        return 1;
    }
    if (format == QLatin1String("json")) {
        out << QJsonDocument(body).toJson(QJsonDocument::Indented);
        return 0;
    }
    return printStatus(body, out);
}

} // namespace Gatehouse::Admin
