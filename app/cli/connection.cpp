#include "cli/connection.h"

#include "core/adminproof.h"
#include "core/config.h"
#include "core/httpserver.h"
#include "platform/platform.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QHostInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
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

// The addresses a URL's host names, in the order to try: a literal as it is; 0.0.0.0 and ::
// (ports.json of a listener on every address) as loopback, where the kernel takes them.
QList<QHostAddress> addressesOf(const QString &host)
{
    QList<QHostAddress> found;
    if (const QHostAddress literal(host); !literal.isNull())
        found = {literal};
    else
        found = QHostInfo::fromName(host).addresses();
    for (QHostAddress &a : found) {
        if (a == QHostAddress::AnyIPv4)
            a = QHostAddress(QHostAddress::LocalHost);
        else if (a == QHostAddress::AnyIPv6)
            a = QHostAddress(QHostAddress::LocalHostIPv6);
    }
    return found;
}

// GET /admin-proof at each address of c.url's host until one connects; 0 when its answer is
// the proof expected for that address and port (c.address pinned to it), else the exit code
// with the reason printed. `token` set: the proof of that token (the one about to be sent
// over plain http, Core::adminTokenProof); empty: the root token's (Core::adminProof).
int proveListener(Connection &c, const QString &rootToken, const QString &token,
                  const QString &dataDir, QTextStream &err, bool viaProxy = false)
{
    QByteArray nonce(24, Qt::Uninitialized);
    QRandomGenerator::system()->generate(nonce.begin(), nonce.end());
    nonce = nonce.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    Request proof("GET", QStringLiteral("/admin-proof"));
    proof.query.addQueryItem(QStringLiteral("nonce"), QString::fromLatin1(nonce));
    const QByteArray digest = token.isEmpty() ? QByteArray() : Core::adminTokenDigest(token);
    if (!token.isEmpty())
        proof.query.addQueryItem(QStringLiteral("token"), Core::adminProofTokenId(digest));
    const quint16 port = quint16(c.url.port(c.url.scheme() == QLatin1String("https") ? 443 : 80));
    const QList<QHostAddress> addresses = addressesOf(c.url.host());
    Reply r;
    r.networkError = QStringLiteral("the host name %1 has no address").arg(c.url.host());
    for (const QHostAddress &a : addresses) {
        c.address = a;
        r = c.send(proof, false);
        if (!r.refused) // an answer, or a failure after connecting: this address decides
            break;
    }
    const QString endpoint = c.address.isNull()
                                 ? QStringLiteral("%1:%2").arg(c.url.host()).arg(port)
                                 : Core::adminProofEndpoint(c.address, port);
    const QJsonObject answer = QJsonDocument::fromJson(r.body).object();
    const QByteArray seen = answer.value(QStringLiteral("proof")).toString().toLatin1();
    const bool proved = token.isEmpty()
                            ? seen == Core::adminProof(rootToken, nonce, endpoint)
                            : Core::adminTokenProved(answer, Core::adminTokenProofKey(token), nonce,
                                                     endpoint, viaProxy);
    if (r.status == 200 && !c.address.isNull() && proved)
        return 0;
    err << "gatehouse admin: " << c.url.toString();
    if (r.status != 0 && !rootToken.isEmpty() &&
        (seen == Core::legacyAdminProof(rootToken, nonce) ||
         (!token.isEmpty() && seen == Core::adminProof(rootToken, nonce, endpoint)))) {
        err << " answers with the proof of a Gatehouse older than this one, which does not "
               "name the address it was reached at (a program relaying to another Gatehouse could "
               "answer it too); no admin token was sent. If it is the Gatehouse of "
            << dataDir << ", restart it with this version\n";
        return 1;
    }
    if (r.status == 404 &&
        answer.value(QStringLiteral("error")).toString() == QLatin1String("unknown-token")) {
        err << " does not know this admin token (revoked or expired?); no admin token was sent\n";
        return 1;
    }
    if (r.status == 409 &&
        answer.value(QStringLiteral("error")).toString() == QLatin1String("token-unprovable")) {
        err << " cannot prove that it holds this admin token, which was made before Gatehouse "
               "kept what proves it over plain http; no admin token was sent. Create a new one "
               "('gatehouse admin admin-tokens create'), or use https (--admin-tls)\n";
        return 1;
    }
    if (r.status == 0)
        err << " does not answer (" << r.networkError << ")";
    else if (!r.networkError.isEmpty())
        err << " is not a Gatehouse that holds this admin token: " << r.networkError;
    else if (!c.source.isEmpty() || token.isEmpty() || token == rootToken)
        err << " is not the Gatehouse of " << dataDir;
    else
        err << " does not prove that it holds this admin token at " << endpoint;
    err << "; no admin token was sent. ";
    if (!c.source.isEmpty())
        err << c.source
            << " names it: is it left from a Gatehouse that did not stop cleanly? (start one "
               "with 'gatehouse --headless', or pass --admin-url)\n";
    else if (token.isEmpty() || token == rootToken)
        err << "The root token of " << dataDir
            << " goes only to its own Gatehouse: pass --admin-token for this one (a Gatehouse "
               "proves that it holds the root token at the address and port connected to, "
            << endpoint << ", which a relay, a proxy or a load balancer in between cannot)\n";
    else
        err << "Over plain http any program on this machine may hold the port of a Gatehouse "
               "that stopped (a restart, an SSH tunnel that dropped) or another address of "
               "'localhost': a Gatehouse proves that it holds the token before it is sent. If "
               "this is a Gatehouse older than this CLI, restart it with this version, or give it "
               "--admin-tls\n";
    return 1;
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
    // As encoded: each argument in it is one percent-encoded segment (pathSegment), which the
    // default mode would encode again.
    target.setPath(request.path, QUrl::TolerantMode);
    target.setQuery(request.query);
    if (!address.isNull()) {
        // The proven listener itself: no name lookup, no proxy in between.
        target.setHost(address.toString());
        nam.setProxy(QNetworkProxy::NoProxy);
    } else if (loopbackHost(url.host())) {
        // Nor a proxy from the environment between us and a Gatehouse on this machine: over
        // plain http it would read the token.
        nam.setProxy(QNetworkProxy::NoProxy);
    }
    QNetworkRequest req(target);
    if (!address.isNull())
        req.setPeerVerifyName(url.host()); // the certificate is checked for the name given
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
    r.refused = reply->error() == QNetworkReply::ConnectionRefusedError;
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
    // As the data directory's own: a token file others may read is a copy of the token they
    // have, and one another user owns or may write is their word for which token is sent
    // (its owner's, and what is done with it done as them).
    if (auto trusted = Platform::checkPrivateFile(path); !trusted) {
        *error = QStringLiteral("the admin token file %1 cannot be trusted: %2")
                     .arg(path, trusted.error().message);
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
    if (QFile f(Core::adminTokenPath(config->dataDir)); f.open(QIODevice::ReadOnly)) {
        // Read only from a file the server itself would take (owned by this user or root,
        // open to nobody else): another user's data directory with a token of its own would
        // make its own listener's proof pass, and the token named here go to it.
        if (auto trusted = Platform::checkPrivateFile(f.fileName()); !trusted) {
            err << "gatehouse admin: the admin token of " << config->dataDir
                << " cannot be trusted: " << trusted.error().message
                << "; no admin token was sent\n";
            return 1;
        }
        rootToken = QString::fromUtf8(f.readAll()).trimmed();
    }
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
    // token, at the address and port connected to, before any token is sent: a program that
    // relays the nonce to another Gatehouse with the same token (or a proxy or load balancer in
    // between) gets a proof for that one's address, not this one's (fail closed).
    const bool rootFallback = named->isEmpty(); // no token named: the root token is sent
    // Over plain http (loopback only) whoever holds the port reads the token: a token named
    // for a URL given (sent without any proof before) goes only to a listener that proves it
    // holds that very token, at the address and port connected to or behind a reverse proxy
    // on this machine (deploy/README.md's nginx); found through ports.json, a group member's
    // scoped token (no admin-token to read) to one that proves it at the address and port
    // connected to. The root token's proof below stays as strict as it was.
    const bool plain = c.url.scheme() == QLatin1String("http");
    if (plain &&
        ((c.source.isEmpty() && !rootFallback) || (!c.source.isEmpty() && rootToken.isEmpty()))) {
        if (const int code =
                proveListener(c, rootToken, c.token, config->dataDir, err, c.source.isEmpty());
            code != 0)
            return code;
        return c;
    }
    if (!c.source.isEmpty() && rootToken.isEmpty()) {
        // Nothing to check the listener's proof with (a member of the service's group reads
        // ports.json, not the owner-only admin-token): the port may be anybody's now.
        err << "gatehouse admin: cannot prove that the listener " << c.source
            << " names is the Gatehouse of " << config->dataDir << ": its admin token "
            << Core::adminTokenPath(config->dataDir)
            << " cannot be read here, and a Gatehouse that was killed leaves ports.json behind "
               "for any program to take its port; no admin token was sent. Pass --admin-url "
               "with the address you know is this Gatehouse's admin listener\n";
        return 1;
    }
    if ((!c.source.isEmpty() || rootFallback) && !rootToken.isEmpty()) {
        if (const int code = proveListener(c, rootToken, QString(), config->dataDir, err);
            code != 0)
            return code;
    }
    return c;
}

} // namespace Gatehouse::Cli
