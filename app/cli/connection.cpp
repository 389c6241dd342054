#include "cli/connection.h"

#include "core/adminproof.h"
#include "core/config.h"
#include "core/httpserver.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QSslConfiguration>
#include <QSslError>
#include <QTextStream>

namespace Gatehouse::Cli {

namespace {

bool loopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

} // namespace

Reply Connection::call(const Request &request) const
{
    return send(request, true);
}

Reply Connection::send(const Request &request, bool withToken) const
{
    QNetworkAccessManager nam;
    QUrl target = url;
    target.setPath(request.path);
    target.setQuery(request.query);
    QNetworkRequest req(target);
    // Qt would follow a redirect with the Authorization header to wherever it points.
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                     QNetworkRequest::ManualRedirectPolicy);
    if (withToken)
        req.setRawHeader("Authorization", "Bearer " + token.toUtf8());
    // Who is acting, for the audit log: the program and the operating-system user.
    req.setHeader(QNetworkRequest::UserAgentHeader,
                  QByteArrayLiteral("gatehouse-admin-cli/" GATEHOUSE_VERSION));
    const QByteArray user = qgetenv("USER").isEmpty() ? qgetenv("USERNAME") : qgetenv("USER");
    if (!user.isEmpty())
        req.setRawHeader("X-Gatehouse-Actor", user.left(100));
    req.setTransferTimeout(10'000);
    // The cluster API's PATCH (labels set/remove without --as) takes a JSON merge patch.
    if (!request.body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader,
                      request.method == "PATCH" ? QByteArrayLiteral("application/merge-patch+json")
                                                : QByteArrayLiteral("application/json"));
    if (target.scheme() == QLatin1String("https")) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        if (!caCertificates.isEmpty())
            ssl.addCaCertificates(caCertificates);
        req.setSslConfiguration(ssl);
    }
    QNetworkReply *reply = nam.sendCustomRequest(req, request.method, request.body);
    QString untrusted; // the fingerprint of a certificate nobody vouched for
    // Given a fingerprint, only that certificate: one the system's authorities accept is
    // refused too when it is another (checked after the handshake, before the token is sent).
    QObject::connect(reply, &QNetworkReply::encrypted, reply, [reply, this, &untrusted] {
        const QString seen =
            Core::certificateFingerprint(reply->sslConfiguration().peerCertificate());
        if (fingerprint.isEmpty() || seen.compare(fingerprint.trimmed(), Qt::CaseInsensitive) == 0)
            return;
        untrusted = seen;
        reply->abort();
    });
    QObject::connect(reply, &QNetworkReply::sslErrors, reply,
                     [reply, this, &untrusted](const QList<QSslError> &errors) {
                         const QString seen = Core::certificateFingerprint(
                             reply->sslConfiguration().peerCertificate());
                         // Pinned by fingerprint: trusted whoever issued it (trust on first use).
                         if (!fingerprint.isEmpty() &&
                             seen.compare(fingerprint.trimmed(), Qt::CaseInsensitive) == 0) {
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
    if (r.status >= 300 && r.status < 400) {
        // The admin API never redirects: whatever answered this is not it.
        r.networkError =
            QStringLiteral("it answered %1 with a redirect to '%2', which is not followed (the "
                           "admin token goes to no other address); if that is the admin API, "
                           "pass it with --admin-url")
                .arg(r.status)
                .arg(QString::fromUtf8(reply->rawHeader("Location")).left(200));
        r.status = 0;
        r.body.clear();
    } else if (r.status == 0)
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

std::optional<QString> readTokenFile(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error =
            QStringLiteral("cannot read the admin token file %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    const QString token = QString::fromUtf8(f.readLine(4096)).trimmed();
    if (token.isEmpty()) {
        *error =
            QStringLiteral("the admin token file %1 holds no token on its first line").arg(path);
        return std::nullopt;
    }
    return token;
}

std::optional<QString> namedToken(const QString &flagToken, const QString &flagFile,
                                  const QProcessEnvironment &env, QString *error)
{
    if (!flagToken.isEmpty())
        return flagToken;
    QString file = flagFile;
    if (file.isEmpty()) {
        const QString token = env.value(QStringLiteral("GATEHOUSE_ADMIN_TOKEN"));
        if (!token.isEmpty())
            return token;
        file = env.value(QStringLiteral("GATEHOUSE_ADMIN_TOKEN_FILE"));
    }
    return file.isEmpty() ? std::optional<QString>(QString()) : readTokenFile(file, error);
}

std::variant<Connection, int> openConnection(const QCommandLineParser &options,
                                             const QProcessEnvironment &env, QTextStream &err)
{
    QMap<QString, QString> cli;
    for (const char *k : {"data-dir", "config"})
        if (options.isSet(QLatin1String(k)))
            cli.insert(QLatin1String(k), options.value(QLatin1String(k)));
    auto config = Core::ConfigResolver::resolve(cli, env);
    if (!config) {
        err << "gatehouse admin: " << config.error().message << "\n";
        return 2;
    }
    Connection c;
    QString urlText = options.value(QStringLiteral("admin-url"));
    if (urlText.isEmpty())
        urlText = env.value(QStringLiteral("GATEHOUSE_ADMIN_URL"));
    if (urlText.isEmpty()) {
        QFile f(Core::portsPath(config->dataDir));
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
        c.source = f.fileName();
        // Its own backend's certificate comes from the same data directory.
        c.caCertificates =
            QSslCertificate::fromPath(config->dataDir + QStringLiteral("/pki/ca.crt"));
    }
    c.fingerprint = options.value(QStringLiteral("admin-fingerprint"));
    if (c.fingerprint.isEmpty())
        c.fingerprint = env.value(QStringLiteral("GATEHOUSE_ADMIN_FINGERPRINT"));
    c.url = QUrl(urlText);
    if (!c.url.isValid() ||
        (c.url.scheme() != QLatin1String("http") && c.url.scheme() != QLatin1String("https"))) {
        err << "gatehouse admin: invalid admin URL '" << urlText << "'\n";
        return 2;
    }
    // A bearer token in clear crosses only this machine: anyone on the path could take it.
    if (c.url.scheme() == QLatin1String("http") && !loopbackHost(c.url.host())) {
        err << "gatehouse admin: refusing to send an admin token over plain http to "
            << c.url.host()
            << ": use https (the backend's --admin-tls), or reach its admin listener on "
               "loopback (an SSH tunnel)\n";
        return 2;
    }
    QString why;
    const auto named = namedToken(options.value(QStringLiteral("admin-token")),
                                  options.value(QStringLiteral("admin-token-file")), env, &why);
    if (!named) {
        err << "gatehouse admin: " << why << "\n";
        return 2;
    }
    c.token = *named;
    QString rootToken; // the data directory's, when readable
    if (QFile f(Core::adminTokenPath(config->dataDir)); f.open(QIODevice::ReadOnly))
        rootToken = QString::fromUtf8(f.readAll()).trimmed();
    if (c.token.isEmpty()) {
        if (rootToken.isEmpty()) {
            QFile f(Core::adminTokenPath(config->dataDir));
            f.open(QIODevice::ReadOnly);
            err << "gatehouse admin: cannot read the admin token " << f.fileName() << ": "
                << (f.error() == QFileDevice::NoError ? QStringLiteral("it is empty")
                                                      : f.errorString())
                << " (pass --admin-token)\n";
            return 1;
        }
        c.token = rootToken;
    }
    // Found through ports.json: the port it names is this Gatehouse's only while it runs (a
    // killed one leaves the file behind, and any local program may take the port then). Named
    // by --admin-url with no token of its own: the data directory's root token goes only to the
    // Gatehouse of that data directory. Either way the listener proves that it holds the root
    // token before any token is sent.
    const bool rootFallback = named->isEmpty(); // no token named: the root token is sent
    if ((!c.source.isEmpty() || rootFallback) && !rootToken.isEmpty()) {
        QByteArray nonce(24, Qt::Uninitialized);
        QRandomGenerator::system()->generate(nonce.begin(), nonce.end());
        nonce = nonce.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
        Request proof("GET", QStringLiteral("/admin-proof"));
        proof.query.addQueryItem(QStringLiteral("nonce"), QString::fromLatin1(nonce));
        const Reply r = c.send(proof, false);
        const QByteArray expected = Core::adminProof(rootToken, nonce);
        const QByteArray seen = QJsonDocument::fromJson(r.body)
                                    .object()
                                    .value(QStringLiteral("proof"))
                                    .toString()
                                    .toLatin1();
        if (r.status != 200 || seen != expected) {
            err << "gatehouse admin: " << c.url.toString()
                << (r.status == 0
                        ? QStringLiteral(" does not answer (%1)").arg(r.networkError)
                        : QStringLiteral(" is not the Gatehouse of %1").arg(config->dataDir))
                << "; no admin token was sent. ";
            if (c.source.isEmpty())
                err << "The root token of " << config->dataDir
                    << " goes only to its own Gatehouse: pass --admin-token for this one\n";
            else
                err << c.source
                    << " names it: is it left from a Gatehouse that did not stop cleanly? (start "
                       "one with 'gatehouse --headless', or pass --admin-url)\n";
            return 1;
        }
    }
    return c;
}

} // namespace Gatehouse::Cli
