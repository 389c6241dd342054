#include "adminclient.h"

#include "consolelogging.h"
#include "core/adminproof.h"
#include "platform/platform.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QHostAddress>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSettings>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>

namespace Gatehouse::Console {

namespace {

constexpr auto StatusPath = "/admin/v1/status";
// A status request that only reads the instances (the 10 s poll on PostgreSQL).
constexpr auto InstancesOnlyProperty = "gatehouseInstancesOnly";
constexpr auto EventsPath = "/admin/v1/events";
constexpr auto ApiPrefix = "/admin/v1";
constexpr int ApiTimeoutMs = 15000;
constexpr auto CanceledProperty = "_gatehouse_canceled"; // set on replies we abort on purpose

bool isLoopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

int httpStatus(const QNetworkReply *reply)
{
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

// The admin API answers errors as {"error":"...","message":"..."}, the OAuth parts of it
// (minting a token) as RFC 6749 §5.2 {"error":"...","error_description":"..."}; we show the
// message verbatim.
QString serverMessage(QNetworkReply *reply, const QByteArray &body)
{
    const QJsonObject error = QJsonDocument::fromJson(body).object();
    for (const char *key : {"message", "error_description"}) {
        QString message = error.value(QLatin1String(key)).toString();
        if (!message.isEmpty())
            return message;
    }
    QString code = error.value(QLatin1String("error")).toString();
    if (!code.isEmpty())
        return code;
    const QString reason =
        reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString().trimmed();
    if (const int status = httpStatus(reply); status != 0)
        return reason.isEmpty() ? QStringLiteral("HTTP %1").arg(status)
                                : QStringLiteral("HTTP %1 %2").arg(status).arg(reason);
    return reply->errorString();
}

QString driverName(const QString &driver)
{
    if (driver == QLatin1String("QSQLITE"))
        return QStringLiteral("SQLite");
    if (driver == QLatin1String("QPSQL"))
        return QStringLiteral("PostgreSQL");
    return driver;
}

void dropReply(QPointer<QNetworkReply> &reply, QObject *receiver)
{
    if (!reply)
        return;
    QNetworkReply *r = reply;
    reply.clear();
    r->disconnect(receiver); // abort() emits finished() synchronously; we no longer care
    r->abort();
    r->deleteLater();
}

} // namespace

AdminClient::AdminClient(QObject *parent) : QObject(parent)
{
    // Never followed: Qt would carry the Authorization header to wherever a redirect points.
    // The admin API does not redirect; a 3xx is an error like any other.
    m_nam.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &AdminClient::startAttempt);
    m_stallTimer.setSingleShot(true);
    m_stallTimer.setInterval(std::chrono::seconds(45));
    connect(&m_stallTimer, &QTimer::timeout, this, [this] {
        qCInfo(lcConsole) << "event stream silent for" << m_stallTimer.interval()
                          << "ms, reconnecting";
        dropReply(m_streamReply, this);
        failAttempt(tr("The event stream stopped responding"));
    });
    connect(this, &AdminClient::listenersChanged, this,
            [this] { m_listenerModel.setListeners(m_listeners); });
    m_uptimeTicker.setInterval(std::chrono::seconds(1));
    connect(&m_uptimeTicker, &QTimer::timeout, this, &AdminClient::uptimeChanged);
    connect(&m_nam, &QNetworkAccessManager::sslErrors, this, &AdminClient::onSslErrors);
    connect(&m_nam, &QNetworkAccessManager::encrypted, this, &AdminClient::onEncrypted);
    m_liveTicker.setInterval(std::chrono::seconds(1));
    connect(&m_liveTicker, &QTimer::timeout, this, &AdminClient::tick);
    // Instances start, stop and die: their list (and which one leads) is read again.
    m_statusPoll.setInterval(std::chrono::seconds(10));
    connect(&m_statusPoll, &QTimer::timeout, this, [this] {
        if (m_state == Online && !m_statusReply) {
            fetchStatus();
            m_statusReply->setProperty(InstancesOnlyProperty, true);
        }
    });
}

qint64 AdminClient::contactAgeSeconds() const
{
    return m_contactClock.isValid() ? m_contactClock.elapsed() / 1000 : -1;
}

qint64 AdminClient::reconnectInMs() const
{
    return m_reconnectTimer.isActive() ? m_reconnectTimer.remainingTime() : -1;
}

bool AdminClient::may(const QString &area, bool write) const
{
    if (m_principal.isEmpty() || m_principal.value(QStringLiteral("root")).toBool())
        return true;
    const QStringList held = m_principal.value(QStringLiteral("permissions")).toStringList();
    return held.contains(area + QLatin1String(":write")) ||
           (!write && held.contains(area + QLatin1String(":read")));
}

AdminClient::~AdminClient()
{
    abortReplies();
    // No callbacks from a dying client: its receivers may be half destroyed too.
    for (const QPointer<QNetworkReply> &reply : std::as_const(m_apiReplies)) {
        if (reply) {
            reply->disconnect();
            reply->abort();
        }
    }
}

QString AdminClient::listenerTitle(const QString &name)
{
    if (name == QLatin1String("service"))
        return tr("Service API");
    if (name == QLatin1String("cluster"))
        return tr("Cluster API");
    if (name == QLatin1String("admin"))
        return tr("Admin API");
    return name;
}

qint64 AdminClient::uptimeSeconds() const
{
    // Between stats events the uptime advances on our clock, only while we are connected.
    if (m_state == Online && m_uptimeClock.isValid())
        return m_uptimeBase + m_uptimeClock.elapsed() / 1000;
    return m_uptimeBase;
}

QString AdminClient::uptimeText() const
{
    if (m_version.isEmpty())
        return QStringLiteral("–");
    const qint64 s = uptimeSeconds();
    if (s >= 86400)
        return tr("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
    if (s >= 3600)
        return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    if (s >= 60)
        return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return tr("%1 s").arg(s);
}

void AdminClient::setEmbedded(bool embedded)
{
    if (m_embedded == embedded)
        return;
    m_embedded = embedded;
    emit embeddedChanged();
}

void AdminClient::setAdminUrl(const QUrl &url)
{
    if (m_url == url)
        return;
    m_url = url;
    emit adminUrlChanged();
}

void AdminClient::setReconnectDelays(std::chrono::milliseconds initial,
                                     std::chrono::milliseconds maximum)
{
    m_initialBackoff = std::max(initial, std::chrono::milliseconds(1));
    m_maxBackoff = std::max(maximum, m_initialBackoff);
    m_backoff = m_initialBackoff;
}

void AdminClient::setStallTimeout(std::chrono::milliseconds timeout)
{
    m_stallTimer.setInterval(timeout);
}

void AdminClient::connectTo(const QUrl &url, const QString &token)
{
    abortReplies();
    m_reconnectTimer.stop();
    // Proved for the last URL and token only: a URL refused below (plain http beyond loopback)
    // left it set, and a page's call went to that address with the new token.
    m_provenAddress.clear();

    QUrl base = url.adjusted(QUrl::StripTrailingSlash | QUrl::RemoveQuery | QUrl::RemoveFragment);
    if (base.path() == QLatin1String("/"))
        base.setPath(QString());
    const bool serverChanged = base != m_url;
    if (serverChanged || token != m_token)
        cancelApiCalls(); // their answers would belong to another server or identity
    setAdminUrl(base);
    m_token = token;
    m_backoff = m_initialBackoff;
    if (serverChanged) {
        // Another server: nothing we knew still holds.
        m_version.clear();
        m_startedAt = {};
        m_instance.clear();
        m_database.clear();
        m_principal.clear();
        m_contactClock.invalidate();
        m_lastContactAt = {};
        m_uptimeBase = 0;
        m_uptimeClock.invalidate();
        m_listeners.clear();
        m_instances.clear();
        m_processId.clear();
        m_statusPoll.stop();
        m_requestCounts.clear();
        m_lastSeq = 0;
        m_parser = SseParser();
        emit statusChanged();
        emit uptimeChanged();
        emit listenersChanged();
        emit instancesChanged();
        emit requestCountsChanged();
    }

    const bool validUrl =
        base.isValid() && !base.host().isEmpty() &&
        (base.scheme() == QLatin1String("http") || base.scheme() == QLatin1String("https"));
    if (!validUrl) {
        setLastError(tr("Not a valid admin URL: %1").arg(url.toString()));
        setState(Disconnected);
        return;
    }
    if (token.isEmpty()) {
        setLastError(tr("An admin token is required"));
        setState(Unauthorized);
        return;
    }
    // A bearer token in clear crosses only this machine: anyone on the path could take it.
    if (base.scheme() == QLatin1String("http") && !isLoopbackHost(base.host())) {
        setLastError(tr("Refusing to send the admin token over plain http to %1: use https "
                        "(the backend's --admin-tls), or reach its admin listener on loopback "
                        "(an SSH tunnel)")
                         .arg(base.host()));
        setState(Disconnected);
        return;
    }
    // A proxy from the environment must not sit between us and a backend on this machine.
    m_nam.setProxy(isLoopbackHost(base.host()) ? QNetworkProxy(QNetworkProxy::NoProxy)
                                               : QNetworkProxy(QNetworkProxy::DefaultProxy));
    setLastError(QString());
    setState(Connecting);
    qCInfo(lcConsole) << "connecting to" << base.toString();
    startAttempt();
}

void AdminClient::disconnectFromServer()
{
    abortReplies();
    cancelApiCalls();
    m_reconnectTimer.stop();
    m_token.clear();
    setState(Disconnected);
}

void AdminClient::refresh()
{
    switch (m_state) {
    case Online:
        if (!m_statusReply)
            fetchStatus();
        break;
    case Offline:
        m_reconnectTimer.stop();
        startAttempt();
        break;
    case Disconnected:
    case Connecting:
    case Unauthorized:
    case Untrusted:
        break;
    }
}

QNetworkRequest AdminClient::apiRequest(const QString &path) const
{
    QUrl url = m_url;
    if (!m_provenAddress.isNull()) // plain http: the address that proved it holds the token
        url.setHost(m_provenAddress.toString());
    url.setPath(m_url.path() + path);
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    return request;
}

void AdminClient::callApi(const ApiCall &call, QObject *context, ApiCallback done)
{
    // Over plain http only to the address that proved it holds the token, and only while it
    // is known to (a page's call while the console tries again would go to whoever took the
    // port meanwhile).
    const bool unproven = m_url.scheme() == QLatin1String("http") && m_provenAddress.isNull();
    if (unproven && m_proofReply && !m_token.isEmpty()) {
        // The proof is on its way (a page's first calls as the console connects): sent once
        // the listener proved it, refused if it does not.
        m_waitingCalls.append(WaitingCall{call, context, std::move(done)});
        return;
    }
    if (!m_url.isValid() || m_url.host().isEmpty() || m_token.isEmpty() || unproven) {
        ApiResult result;
        result.errorMessage = tr("Not connected to a Gatehouse server");
        QMetaObject::invokeMethod(
            context, [done = std::move(done), result] { done(result); }, Qt::QueuedConnection);
        return;
    }
    QNetworkRequest request = apiRequest(QLatin1String(ApiPrefix) + call.path);
    if (!call.query.isEmpty()) {
        QUrl url = request.url();
        url.setQuery(call.query);
        request.setUrl(url);
    }
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(ApiTimeoutMs);
    QByteArray payload;
    if (call.body) {
        payload = QJsonDocument(*call.body).toJson(QJsonDocument::Compact);
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
    }
    QNetworkReply *reply = call.body || call.method != "GET"
                               ? m_nam.sendCustomRequest(request, call.method, payload)
                               : m_nam.get(request);
    m_apiReplies.append(reply);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        m_apiReplies.removeAll(reply);
        reply->deleteLater();
    });
    connect(reply, &QNetworkReply::finished, context, [reply, done = std::move(done)] {
        ApiResult result;
        if (reply->property(CanceledProperty).toBool()) {
            result.canceled = true;
            done(result);
            return;
        }
        result.httpStatus = httpStatus(reply);
        const QByteArray bytes = reply->readAll();
        const QJsonDocument doc = QJsonDocument::fromJson(bytes);
        if (doc.isObject())
            result.body = doc.object();
        else if (doc.isArray())
            result.body = doc.array();
        if (result.httpStatus < 200 || result.httpStatus >= 300) {
            result.errorCode = doc.object().value(QLatin1String("error")).toString();
            result.errorMessage =
                result.httpStatus >= 400 ? serverMessage(reply, bytes) : reply->errorString();
            if (result.errorMessage.isEmpty())
                result.errorMessage = QStringLiteral("HTTP %1").arg(result.httpStatus);
        }
        done(result);
    });
}

void AdminClient::settleWaitingCalls()
{
    // Sent now if the listener proved it (callApi sends them), else refused by callApi.
    const QList<WaitingCall> waiting = std::exchange(m_waitingCalls, {});
    for (const WaitingCall &w : waiting)
        if (w.context)
            callApi(w.call, w.context, w.done);
}

void AdminClient::cancelApiCalls()
{
    const QList<WaitingCall> waiting = std::exchange(m_waitingCalls, {});
    for (const WaitingCall &w : waiting)
        if (w.context)
            QMetaObject::invokeMethod(
                w.context,
                [done = w.done] {
                    ApiResult result;
                    result.canceled = true;
                    done(result);
                },
                Qt::QueuedConnection);
    const QList<QPointer<QNetworkReply>> replies = std::exchange(m_apiReplies, {});
    for (const QPointer<QNetworkReply> &reply : replies) {
        if (reply) {
            reply->setProperty(CanceledProperty, true);
            reply->abort(); // finished(): the caller gets a canceled result
        }
    }
}

void AdminClient::startAttempt()
{
    abortReplies();
    m_untrustedFingerprint.clear();
    m_certificateChanged = false;
    m_provenAddress.clear();
    if (m_url.scheme() != QLatin1String("http")) {
        fetchStatus(); // https: the certificate (and its pin) says who answers
        return;
    }
    // A loopback name: the system's own table (no DNS), so looked up here.
    const QHostAddress literal(m_url.host());
    m_proofCandidates =
        literal.isNull() ? QHostInfo::fromName(m_url.host()).addresses() : QList{literal};
    m_proofFailure = tr("%1 has no address").arg(m_url.host());
    m_proofUnknownToken = false;
    proveNext();
}

void AdminClient::proveNext()
{
    if (m_proofCandidates.isEmpty()) {
        if (m_proofUnknownToken) // a Gatehouse said so, and none proved it: refused, not retried
            becomeUnauthorized(m_proofFailure);
        else
            failAttempt(m_proofFailure);
        return;
    }
    const QHostAddress address = m_proofCandidates.takeFirst();
    QByteArray nonce(24, Qt::Uninitialized);
    QRandomGenerator::system()->generate(nonce.begin(), nonce.end());
    nonce = nonce.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    QUrl url = m_url;
    url.setHost(address.toString());
    url.setPath(m_url.path() + QStringLiteral("/admin-proof"));
    url.setQuery(QStringLiteral("nonce=%1&token=%2")
                     .arg(QString::fromLatin1(nonce),
                          Core::adminProofTokenId(Core::adminTokenDigest(m_token))));
    QNetworkRequest request(url); // no Authorization: of the token only its proof's id
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setTransferTimeout(10000); // ms; Qt 6.4 has no chrono overload
    m_proofReply = m_nam.get(request);
    QNetworkReply *reply = m_proofReply;
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, address, nonce] { onProofFinished(reply, address, nonce); });
}

void AdminClient::onProofFinished(QNetworkReply *reply, const QHostAddress &address,
                                  const QByteArray &nonce)
{
    reply->deleteLater();
    if (m_proofReply != reply)
        return; // dropped (a new attempt, a disconnect)
    m_proofReply.clear();
    const QByteArray body = reply->readAll();
    const int status = httpStatus(reply);
    const QString endpoint = Core::adminProofEndpoint(address, quint16(m_url.port(80)));
    const QJsonObject answer = QJsonDocument::fromJson(body).object();
    if (status == 200 &&
        Core::adminTokenProved(answer, Core::adminTokenProofKey(m_token), nonce, endpoint, true)) {
        m_proofCandidates.clear();
        m_proofUnknownToken = false;
        m_provenAddress = address;
        fetchStatus();
        settleWaitingCalls();
        return;
    }
    // Not proved here: the host's next address may be the Gatehouse ("localhost" is
    // 127.0.0.1 and ::1, and anyone may listen on the one it does not).
    if (reply->error() == QNetworkReply::ConnectionRefusedError) {
        if (!m_proofUnknownToken)
            m_proofFailure = reply->errorString();
    } else if ((status == 404 && answer.value(QLatin1String("error")).toString() ==
                                     QLatin1String("unknown-token")) ||
               (status == 409 && answer.value(QLatin1String("error")).toString() ==
                                     QLatin1String("token-unprovable"))) {
        // The Gatehouse itself says so: refused (Unauthorized) unless another address proves.
        m_proofUnknownToken = true;
        m_proofFailure = serverMessage(reply, body);
    } else if (!m_proofUnknownToken) {
        qCWarning(lcConsole).noquote() << "the listener at" << endpoint
                                       << "did not prove that it holds the admin token; "
                                          "nothing was sent to it";
        m_proofFailure =
            status == 0 && reply->error() != QNetworkReply::NoError
                ? reply->errorString()
                : tr("The program listening at %1 did not prove that it is the Gatehouse "
                     "holding this admin token, so the token was not sent (another program may "
                     "hold the port of a Gatehouse that stopped; a Gatehouse older than this "
                     "console cannot prove it)")
                      .arg(endpoint);
    }
    proveNext();
}

namespace {
QString pinKey(const QUrl &url)
{
    return QStringLiteral("trustedCertificates/%1:%2")
        .arg(url.host().toLower())
        .arg(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
}
QString sha256Fingerprint(const QSslCertificate &certificate)
{
    return certificate.isNull()
               ? QString()
               : QString::fromLatin1(
                     certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper());
}
} // namespace

QString AdminClient::trustedFingerprint(const QUrl &url)
{
    const QSettings settings(QStringLiteral("gatehouse"), QStringLiteral("console"));
    QString pinned = settings.value(pinKey(url)).toString();
    // A pin in a file someone else may write is not the user's word: they could have planted
    // the fingerprint of their own certificate (and had the admin token sent to it).
    if (!pinned.isEmpty())
        if (auto mine = Platform::checkOwnersWord(settings.fileName()); !mine) {
            qCWarning(lcConsole).noquote() << "ignoring the certificate trusted for"
                                           << url.toString() << ":" << mine.error().message;
            return {};
        }
    return pinned;
}

void AdminClient::onSslErrors(QNetworkReply *reply, const QList<QSslError> &errors)
{
    const QString seen = sha256Fingerprint(reply->sslConfiguration().peerCertificate());
    const QString pinned = trustedFingerprint(reply->url());
    if (!seen.isEmpty() && seen == pinned) {
        reply->ignoreSslErrors(errors); // trusted on first use, and it has not changed
        return;
    }
    m_untrustedFingerprint = seen;
    m_certificateChanged = !pinned.isEmpty();
}

void AdminClient::onEncrypted(QNetworkReply *reply)
{
    // A pinned fingerprint holds whoever vouches for the certificate: one the system's
    // authorities accept (a public certificate for the host name, an inspecting proxy's) is
    // refused all the same when it is not the one trusted. Nothing was sent yet.
    const QString pinned = trustedFingerprint(reply->url());
    const QString seen = sha256Fingerprint(reply->sslConfiguration().peerCertificate());
    if (pinned.isEmpty() || seen == pinned)
        return;
    m_untrustedFingerprint = seen;
    m_certificateChanged = true;
    reply->abort();
}

void AdminClient::trustCertificate()
{
    if (m_state != Untrusted || m_untrustedFingerprint.isEmpty())
        return;
    {
        QSettings settings(QStringLiteral("gatehouse"), QStringLiteral("console"));
        settings.setValue(pinKey(m_url), m_untrustedFingerprint);
        settings.sync();
        // Whatever the umask made them: the pin is the user's alone to write.
        const QString file = settings.fileName();
        for (const QString &path : {QFileInfo(file).absolutePath(), file})
            if (auto r = Platform::restrictToOwner(path); !r)
                qCWarning(lcConsole).noquote() << r.error().message;
    }
    qCInfo(lcConsole).noquote() << "trusting the certificate of" << m_url.toString()
                                << "with SHA-256 fingerprint" << m_untrustedFingerprint;
    setState(Connecting);
    startAttempt();
}

void AdminClient::becomeUntrusted()
{
    // Stay put: retrying cannot make the certificate trusted; the user decides.
    qCWarning(lcConsole).noquote() << "the certificate of" << m_url.toString()
                                   << (m_certificateChanged ? "changed" : "is not trusted")
                                   << "; SHA-256" << m_untrustedFingerprint;
    abortReplies();
    m_reconnectTimer.stop();
    setLastError(m_certificateChanged ? tr("The server's certificate changed since you trusted it")
                                      : tr("The server's certificate is not trusted yet"));
    setState(Untrusted);
}

void AdminClient::fetchStatus()
{
    QNetworkRequest request = apiRequest(QLatin1String(StatusPath));
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(10000); // ms; Qt 6.4 has no chrono overload
    m_statusReply = m_nam.get(request);
    QNetworkReply *reply = m_statusReply;
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onStatusFinished(reply); });
}

void AdminClient::onStatusFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    if (m_statusReply == reply)
        m_statusReply.clear();
    const QByteArray body = reply->readAll();
    const int status = httpStatus(reply);
    if (status == 401) {
        becomeUnauthorized(serverMessage(reply, body));
        return;
    }
    if ((reply->error() == QNetworkReply::SslHandshakeFailedError ||
         reply->error() == QNetworkReply::OperationCanceledError) &&
        !m_untrustedFingerprint.isEmpty()) {
        becomeUntrusted();
        return;
    }
    if (reply->error() != QNetworkReply::NoError || status != 200) {
        const QString reason = status >= 400 ? serverMessage(reply, body) : reply->errorString();
        if (m_state == Online) {
            // A failed refresh while the stream still runs is not a lost connection.
            qCInfo(lcConsole) << "status refresh failed:" << reason;
            return;
        }
        failAttempt(reason);
        return;
    }
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (!doc.isObject()) {
        failAttempt(tr("The server sent an unreadable status: %1").arg(parseError.errorString()));
        return;
    }
    if (reply->property(InstancesOnlyProperty).toBool() && m_state == Online) {
        // A poll for the instances: through a load balancer another instance may answer, whose
        // start time, uptime and counters are not those of the one the stream comes from.
        applyInstances(doc.object().value(QLatin1String("instances")).toArray());
        return;
    }
    applyStatus(doc.object());
    if (!m_streamReply)
        openStream();
}

void AdminClient::openStream()
{
    QNetworkRequest request = apiRequest(QLatin1String(EventsPath));
    request.setRawHeader("Accept", "text/event-stream");
    request.setRawHeader("Cache-Control", "no-cache");
    if (!m_parser.lastEventId().isEmpty())
        request.setRawHeader("Last-Event-ID", m_parser.lastEventId());
    m_parser.resetStream();
    m_streamReply = m_nam.get(request);
    connect(m_streamReply, &QNetworkReply::metaDataChanged, this, &AdminClient::onStreamMetaData);
    connect(m_streamReply, &QNetworkReply::readyRead, this, &AdminClient::onStreamReadyRead);
    connect(m_streamReply, &QNetworkReply::finished, this, &AdminClient::onStreamFinished);
    m_stallTimer.start();
}

void AdminClient::onStreamMetaData()
{
    if (!m_streamReply || httpStatus(m_streamReply) != 200)
        return; // errors are handled once the reply finishes
    m_stallTimer.start();
    m_backoff = m_initialBackoff;
    setLastError(QString());
    setState(Online);
}

void AdminClient::onStreamReadyRead()
{
    if (!m_streamReply || httpStatus(m_streamReply) != 200)
        return; // an error body; read in onStreamFinished
    m_stallTimer.start();
    m_contactClock.start();
    m_lastContactAt = QDateTime::currentDateTimeUtc();
    const QByteArray bytes = m_streamReply->readAll();
    for (const SseEvent &frame : m_parser.feed(bytes))
        handleEvent(frame);
}

void AdminClient::onStreamFinished()
{
    QNetworkReply *reply = m_streamReply;
    if (!reply)
        return;
    m_streamReply.clear();
    m_stallTimer.stop();
    reply->deleteLater();
    const int status = httpStatus(reply);
    if (status == 401) {
        becomeUnauthorized(serverMessage(reply, reply->readAll()));
        return;
    }
    QString reason;
    if (status >= 400)
        reason = serverMessage(reply, reply->readAll());
    else if (reply->error() != QNetworkReply::NoError)
        reason = reply->errorString();
    else
        reason = tr("The server closed the event stream");
    failAttempt(reason);
}

void AdminClient::handleEvent(const SseEvent &frame)
{
    AdminEvent event = AdminEvent::fromSse(frame, QDateTime::currentDateTimeUtc());
    if (event.seq > 0) {
        if (event.seq <= m_lastSeq)
            return; // replayed after a reconnect; already seen
        m_lastSeq = event.seq;
    }
    ++m_eventCount;
    m_lastEventAt = QDateTime::currentDateTimeUtc();
    emit eventCountChanged();

    if (event.type == QLatin1String("stats")) {
        applyRequestCounts(event.data.value(QLatin1String("requests")).toObject());
        if (const QJsonValue uptime = event.data.value(QLatin1String("uptimeSeconds"));
            uptime.isDouble())
            setUptime(uptime.toInteger());
    }
    emit eventReceived(event);
}

void AdminClient::applyStatus(const QJsonObject &status)
{
    const QDateTime startedAt = QDateTime::fromString(
        status.value(QLatin1String("startedAt")).toString(), Qt::ISODateWithMs);
    // Which backend process this is. instanceId names the installation (it survives
    // restarts), so the start time is what tells a restarted process apart.
    const QString instance = status.value(QLatin1String("instanceId")).toString() +
                             QLatin1Char('@') + startedAt.toString(Qt::ISODateWithMs);
    if (!m_instance.isEmpty() && instance != m_instance) {
        // The backend restarted: its event sequence started over, so resuming makes no sense.
        qCInfo(lcConsole) << "backend restarted at" << startedAt;
        m_parser.setLastEventId({});
        m_lastSeq = 0;
    }
    m_instance = instance;
    m_startedAt = startedAt;
    m_version = status.value(QLatin1String("version")).toString();
    m_database = status.value(QLatin1String("database")).toObject().toVariantMap();
    m_database.insert(QStringLiteral("driverName"),
                      driverName(m_database.value(QStringLiteral("driver")).toString()));
    m_principal = status.value(QLatin1String("principal")).toObject().toVariantMap();
    m_demoMode = status.value(QLatin1String("demo")).toBool();
    m_contactClock.start();
    m_lastContactAt = QDateTime::currentDateTimeUtc();

    QVariantList listeners;
    const QJsonArray array = status.value(QLatin1String("listeners")).toArray();
    for (const QJsonValue value : array) {
        QVariantMap listener = value.toObject().toVariantMap();
        listener.insert(QStringLiteral("title"),
                        listenerTitle(listener.value(QStringLiteral("name")).toString()));
        listeners.append(listener);
    }
    if (listeners != m_listeners) {
        m_listeners = listeners;
        emit listenersChanged();
    }
    m_processId = status.value(QLatin1String("processId")).toString();
    applyInstances(status.value(QLatin1String("instances")).toArray());
    if (m_database.value(QStringLiteral("driver")).toString() == QLatin1String("QPSQL"))
        m_statusPoll.start();
    else
        m_statusPoll.stop();
    const QJsonObject counters = status.value(QLatin1String("counters")).toObject();
    applyRequestCounts(counters.value(QLatin1String("requests")).toObject());
    setUptime(status.value(QLatin1String("uptimeSeconds")).toInteger());
    emit statusChanged();
}

void AdminClient::applyInstances(const QJsonArray &array)
{
    QVariantList instances;
    for (const QJsonValue value : array) {
        const QJsonObject i = value.toObject();
        const QJsonObject urls = i.value(QLatin1String("listeners")).toObject();
        instances.append(QVariantMap{
            {QStringLiteral("id"), i.value(QLatin1String("id")).toString()},
            {QStringLiteral("version"), i.value(QLatin1String("version")).toString()},
            {QStringLiteral("adminUrl"), urls.value(QLatin1String("admin")).toString()},
            {QStringLiteral("serviceUrl"), urls.value(QLatin1String("service")).toString()},
            {QStringLiteral("heartbeatAt"),
             QDateTime::fromString(i.value(QLatin1String("heartbeatAt")).toString(),
                                   Qt::ISODateWithMs)},
            {QStringLiteral("alive"), i.value(QLatin1String("alive")).toBool()},
            {QStringLiteral("leads"), i.value(QLatin1String("leads")).toBool()},
            // The one this console connected to (a poll through a load balancer may be
            // answered by another).
            {QStringLiteral("self"), m_processId.isEmpty()
                                         ? i.value(QLatin1String("self")).toBool()
                                         : i.value(QLatin1String("id")).toString() == m_processId},
        });
    }
    if (instances != m_instances) {
        m_instances = instances;
        emit instancesChanged();
    }
}

void AdminClient::applyRequestCounts(const QJsonObject &requests)
{
    QVariantMap counts = m_requestCounts;
    for (auto it = requests.begin(); it != requests.end(); ++it)
        counts.insert(it.key(), it.value().toInteger());
    if (counts != m_requestCounts) {
        m_requestCounts = counts;
        emit requestCountsChanged();
    }
    // Each listener carries its own count so a delegate binds to one value.
    QVariantList listeners = m_listeners;
    for (QVariant &entry : listeners) {
        QVariantMap listener = entry.toMap();
        const QString name = listener.value(QStringLiteral("name")).toString();
        listener.insert(QStringLiteral("requests"), m_requestCounts.value(name, qint64(0)));
        entry = listener;
    }
    if (listeners != m_listeners) {
        m_listeners = listeners;
        emit listenersChanged();
    }
}

void AdminClient::setUptime(qint64 seconds)
{
    m_uptimeBase = seconds;
    m_uptimeClock.start();
    emit uptimeChanged();
}

void AdminClient::failAttempt(const QString &reason)
{
    abortReplies();
    m_provenAddress.clear(); // proved again at the next attempt
    settleWaitingCalls();    // refused: not proved
    setLastError(reason);
    if (m_state != Offline)
        qCInfo(lcConsole) << "admin API unreachable:" << reason;
    setState(Offline);
    // The server's "retry:" advice is a floor for the delay, never past our maximum.
    std::chrono::milliseconds delay = m_backoff;
    if (m_parser.retryMs() > 0)
        delay =
            std::min(std::max(delay, std::chrono::milliseconds(m_parser.retryMs())), m_maxBackoff);
    qCDebug(lcConsole) << "retrying in" << delay.count() << "ms";
    m_reconnectTimer.start(delay);
    m_backoff = std::min(m_backoff * 2, m_maxBackoff);
}

void AdminClient::becomeUnauthorized(const QString &message)
{
    // Fail closed and stay put: retrying a refused token only hammers the server.
    qCWarning(lcConsole) << "admin token refused by" << m_url.toString() << ":" << message;
    abortReplies();
    m_provenAddress.clear();
    settleWaitingCalls(); // refused: not proved
    m_reconnectTimer.stop();
    setLastError(message);
    setState(Unauthorized);
}

void AdminClient::abortReplies()
{
    m_stallTimer.stop();
    dropReply(m_statusReply, this);
    dropReply(m_streamReply, this);
    dropReply(m_proofReply, this);
    m_proofCandidates.clear();
}

void AdminClient::setState(ConnectionState state)
{
    if (m_state == state)
        return;
    if (state != Online && m_state == Online) {
        m_uptimeBase = uptimeSeconds(); // freeze at what we last knew
        m_uptimeClock.invalidate();
    }
    m_state = state;
    if (m_state == Disconnected || m_state == Unauthorized || m_state == Untrusted)
        m_liveTicker.stop();
    else
        m_liveTicker.start();
    if (m_state == Online) {
        m_uptimeClock.start();
        m_uptimeTicker.start();
    } else {
        m_uptimeTicker.stop();
    }
    emit connectionStateChanged();
    emit uptimeChanged();
}

void AdminClient::setLastError(const QString &error)
{
    if (m_lastError == error)
        return;
    m_lastError = error;
    emit lastErrorChanged();
}

QString jsonValueText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        // A whole number qint64 holds (Qt converts only in range: no cast out of range, which
        // is undefined): neither default comes back.
        const qint64 whole = value.toInteger(0);
        return whole == value.toInteger(1) ? QString::number(whole)
                                           : QString::number(value.toDouble());
    }
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

} // namespace Gatehouse::Console
