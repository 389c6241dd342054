#pragma once

#include "adminevent.h"
#include "listenermodel.h"
#include "sseparser.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>
#include <QVariantList>
#include <QVariantMap>

#include <chrono>
#include <functional>
#include <optional>

class QNetworkReply;
class QSslError;

namespace Gatehouse::Console {

// One call of the admin API's REST side (AdminClient::callApi).
struct ApiCall
{
    QByteArray method = "GET";
    QString path; // below /admin/v1, e.g. "/orders" or "/orders/<id>/pickup"
    QUrlQuery query;
    std::optional<QJsonObject> body; // sent as application/json when set
};

// What an admin API call answered.
struct ApiResult
{
    int httpStatus = 0; // 0: no answer (network error, canceled)
    QJsonValue body;    // the parsed JSON answer; undefined when there was none
    QString errorCode;  // the API's "error" ("order-not-found", ...); empty on success
    // The API's "message" verbatim (never translated), or the network error; empty on success.
    QString errorMessage;
    bool canceled =
        false; // the call was dropped (disconnect, another server); not an error to show

    bool ok() const { return errorMessage.isEmpty() && !canceled; }
    QJsonObject object() const { return body.toObject(); }
};

using ApiCallback = std::function<void(const ApiResult &)>;

// A JSON value of an answer as one line of text for a table cell: strings as they are,
// whole numbers without ".0", arrays and objects as compact JSON, null as empty.
QString jsonValueText(const QJsonValue &value);

// Client of the backend's admin API (/admin/v1): fetches the status, follows the event stream
// and keeps reconnecting with exponential backoff. The console's only way to the backend,
// whether it runs embedded or remote.
class AdminClient : public QObject
{
    Q_OBJECT
    Q_PROPERTY(ConnectionState connectionState READ connectionState NOTIFY connectionStateChanged)
    Q_PROPERTY(QUrl adminUrl READ adminUrl NOTIFY adminUrlChanged)
    Q_PROPERTY(QString adminUrlText READ adminUrlText NOTIFY adminUrlChanged)
    Q_PROPERTY(bool embedded READ embedded NOTIFY embeddedChanged)
    Q_PROPERTY(QString serverVersion READ serverVersion NOTIFY statusChanged)
    Q_PROPERTY(QDateTime startedAt READ startedAt NOTIFY statusChanged)
    // {driver, driverName, path, schemaVersion}; the typed three below are what views use.
    Q_PROPERTY(QVariantMap database READ database NOTIFY statusChanged)
    Q_PROPERTY(QString databaseDriver READ databaseDriver NOTIFY statusChanged) // "SQLite"
    Q_PROPERTY(QString databasePath READ databasePath NOTIFY statusChanged)
    Q_PROPERTY(int schemaVersion READ schemaVersion NOTIFY statusChanged) // 0: unknown
    Q_PROPERTY(qint64 uptimeSeconds READ uptimeSeconds NOTIFY uptimeChanged)
    Q_PROPERTY(QString uptimeText READ uptimeText NOTIFY uptimeChanged)
    // [{name, title, address, port, tls, url, requests}]; "requests" follows requestCounts.
    Q_PROPERTY(QVariantList listeners READ listeners NOTIFY listenersChanged)
    // The same as a list model, for views (updates in place).
    Q_PROPERTY(Gatehouse::Console::ListenerModel *listenerModel READ listenerModel CONSTANT)
    // Every Gatehouse instance of the backend's database (several on one PostgreSQL database):
    // maps with id, version, adminUrl, serviceUrl, heartbeatAt (QDateTime), alive, leads, self,
    // newest heartbeat first. Read again every 10 s on PostgreSQL.
    Q_PROPERTY(QVariantList instances READ instances NOTIFY instancesChanged)
    Q_PROPERTY(QVariantMap requestCounts READ requestCounts NOTIFY requestCountsChanged)
    Q_PROPERTY(int eventCount READ eventCount NOTIFY eventCountChanged)
    Q_PROPERTY(QDateTime lastEventAt READ lastEventAt NOTIFY eventCountChanged)
    Q_PROPERTY(QString lastError READ lastError NOTIFY lastErrorChanged)
    // When the backend last spoke to us (any bytes on the stream, keepalives included, or an
    // answer to the status); invalid before the first.
    Q_PROPERTY(QDateTime lastContactAt READ lastContactAt NOTIFY tick)
    // Who the admin token is: {root, name, permissions: ["orders:read", ...]} (GET /status).
    Q_PROPERTY(QVariantMap principal READ principal NOTIFY statusChanged)
    // Untrusted: the SHA-256 fingerprint of the certificate the server presented ("AB:CD:...").
    Q_PROPERTY(QString untrustedFingerprint READ untrustedFingerprint NOTIFY connectionStateChanged)
    // Untrusted, and this server had another certificate trusted before (it changed).
    Q_PROPERTY(bool certificateChanged READ certificateChanged NOTIFY connectionStateChanged)
    // The backend runs with --demo (training data; the console offers its guided tour).
    Q_PROPERTY(bool demoMode READ demoMode NOTIFY statusChanged)
    // The scoped admin token's name; empty for the root token or while unknown.
    Q_PROPERTY(QString tokenName READ tokenName NOTIFY statusChanged)

public:
    enum ConnectionState {
        Disconnected, // no server chosen, or disconnectFromServer()
        Connecting,   // first attempt after connectTo()
        Online,       // status fetched and event stream open
        Offline,      // server unreachable or stream lost; retrying with backoff
        Unauthorized, // 401: the token was refused; waits for connectTo() with a new one
        Untrusted,    // HTTPS with a certificate nobody vouched for: waits for trustCertificate()
    };
    Q_ENUM(ConnectionState)

    explicit AdminClient(QObject *parent = nullptr);
    ~AdminClient() override;

    ConnectionState connectionState() const { return m_state; }
    QUrl adminUrl() const { return m_url; }
    QString adminUrlText() const { return m_url.toString(); }
    bool embedded() const { return m_embedded; }
    QString serverVersion() const { return m_version; }
    QDateTime startedAt() const { return m_startedAt; }
    QVariantMap database() const { return m_database; }
    QString databaseDriver() const
    {
        return m_database.value(QStringLiteral("driverName")).toString();
    }
    QString databasePath() const { return m_database.value(QStringLiteral("path")).toString(); }
    int schemaVersion() const { return m_database.value(QStringLiteral("schemaVersion")).toInt(); }
    qint64 uptimeSeconds() const;
    QString uptimeText() const;
    QVariantList listeners() const { return m_listeners; }
    ListenerModel *listenerModel() { return &m_listenerModel; }
    QVariantList instances() const { return m_instances; }
    QVariantMap requestCounts() const { return m_requestCounts; }
    int eventCount() const { return m_eventCount; }
    QDateTime lastEventAt() const { return m_lastEventAt; }
    QString lastError() const { return m_lastError; }
    QDateTime lastContactAt() const { return m_lastContactAt; }
    // Whole seconds since the last contact; -1 before the first.
    qint64 contactAgeSeconds() const;
    // Milliseconds until the next reconnect attempt while Offline; -1 when none is planned.
    qint64 reconnectInMs() const;
    QVariantMap principal() const { return m_principal; }
    QString untrustedFingerprint() const { return m_untrustedFingerprint; }
    bool certificateChanged() const { return m_certificateChanged; }
    // The fingerprint trusted for this host and port ("" when none); kept in QSettings.
    static QString trustedFingerprint(const QUrl &url);
    bool demoMode() const { return m_demoMode; }
    QString tokenName() const
    {
        return m_principal.value(QStringLiteral("root"), true).toBool()
                   ? QString()
                   : m_principal.value(QStringLiteral("name")).toString();
    }
    // Whether the token may read (or write) an area (orders, oauth, cluster, audit, admin),
    // as far as the status said; true while unknown (the server decides in the end).
    Q_INVOKABLE bool may(const QString &area, bool write = false) const;

    void setEmbedded(bool embedded);
    // Prefills the URL (the connect dialog shows it) without connecting.
    void setAdminUrl(const QUrl &url);
    // Backoff between reconnect attempts: initial, doubled per failure, capped at maximum.
    void setReconnectDelays(std::chrono::milliseconds initial, std::chrono::milliseconds maximum);
    // A stream silent for this long is considered dead (the server sends keepalives every 15 s).
    void setStallTimeout(std::chrono::milliseconds timeout);
    // Views call themselves stale when the stream has been silent this long (default 20 s:
    // a missed keepalive), before the stall timeout reconnects.
    void setStaleAfter(std::chrono::milliseconds after) { m_staleAfter = after; }
    std::chrono::milliseconds staleAfter() const { return m_staleAfter; }
    std::chrono::milliseconds nextReconnectDelay() const { return m_backoff; }

    // "Service API" for "service", ...; unknown listener names as they are.
    static QString listenerTitle(const QString &name);

    Q_INVOKABLE void connectTo(const QUrl &url, const QString &token);
    Q_INVOKABLE void disconnectFromServer();
    // Online: re-reads the status. Offline: retries now instead of waiting for the backoff.
    Q_INVOKABLE void refresh();
    // Untrusted: trusts the certificate just presented (by its fingerprint, for this host and
    // port, remembered) and connects. Trust on first use, as ssh does.
    Q_INVOKABLE void trustCertificate();

    // Calls the admin API with the connection's URL and token. done runs exactly once, in
    // context's thread, unless context is destroyed first; calls still running when the console
    // disconnects or switches servers end with a canceled result. Without a server and token,
    // done gets an error (queued, never from inside this call).
    void callApi(const ApiCall &call, QObject *context, ApiCallback done);

signals:
    void connectionStateChanged();
    void adminUrlChanged();
    void embeddedChanged();
    void statusChanged();
    void uptimeChanged();
    void listenersChanged();
    void instancesChanged();
    void requestCountsChanged();
    void eventCountChanged();
    void lastErrorChanged();
    void eventReceived(const Gatehouse::Console::AdminEvent &event);
    // Once a second while a backend is chosen: for ages shown on screen.
    void tick();

private:
    QNetworkRequest apiRequest(const QString &path) const;
    void startAttempt();
    // Over plain http (loopback only): before the token goes anywhere, the listener proves
    // that it holds it at the address and port connected to (GET /admin-proof, the token's own
    // proof), each address of the host in turn; the address that proved it takes every request
    // until the next attempt. Whoever else holds the port (a Gatehouse restarting, a dropped
    // SSH tunnel, "localhost"'s other address) is sent nothing.
    void proveNext();
    void onProofFinished(QNetworkReply *reply, const QHostAddress &address,
                         const QByteArray &nonce);
    void fetchStatus();
    void onStatusFinished(QNetworkReply *reply);
    void openStream();
    void onStreamMetaData();
    void onStreamReadyRead();
    void onStreamFinished();
    void handleEvent(const SseEvent &frame);
    void applyStatus(const QJsonObject &status);
    void applyInstances(const QJsonArray &instances);
    void applyRequestCounts(const QJsonObject &requests);
    void setUptime(qint64 seconds);
    void failAttempt(const QString &reason);
    void becomeUnauthorized(const QString &message);
    void becomeUntrusted();
    void onSslErrors(QNetworkReply *reply, const QList<QSslError> &errors);
    void onEncrypted(QNetworkReply *reply);
    void abortReplies();
    void cancelApiCalls();
    void setState(ConnectionState state);
    void setLastError(const QString &error);

    QNetworkAccessManager m_nam;
    QPointer<QNetworkReply> m_statusReply;
    QPointer<QNetworkReply> m_streamReply;
    QPointer<QNetworkReply> m_proofReply;
    QList<QHostAddress> m_proofCandidates; // the addresses of the host still to try
    QString m_proofFailure;                // why the last address did not prove it
    bool m_proofUnknownToken = false;      // a Gatehouse answered that the token is not live
    QHostAddress m_provenAddress;          // plain http: where requests go (null: by name)
    // Calls made while the proof is on its way (plain http): sent, or refused, once it ends.
    struct WaitingCall
    {
        ApiCall call;
        QPointer<QObject> context;
        ApiCallback done;
    };
    QList<WaitingCall> m_waitingCalls;
    void settleWaitingCalls();
    QList<QPointer<QNetworkReply>> m_apiReplies;
    SseParser m_parser;
    QTimer m_reconnectTimer;
    QTimer m_stallTimer;
    QTimer m_uptimeTicker;
    QTimer m_liveTicker;
    QTimer m_statusPoll; // PostgreSQL: the instances come and go
    QVariantList m_instances;
    QString m_processId; // the instance this console connected to (its status's processId)
    QElapsedTimer m_uptimeClock;

    ConnectionState m_state = Disconnected;
    QUrl m_url;
    QString m_token; // never logged
    bool m_embedded = false;
    std::chrono::milliseconds m_initialBackoff{1000};
    std::chrono::milliseconds m_maxBackoff{30000};
    std::chrono::milliseconds m_backoff{1000};

    QString m_version;
    QDateTime m_startedAt;
    QString m_instance; // identifies the backend process; a new one restarts the event sequence
    QVariantMap m_database;
    qint64 m_uptimeBase = 0;
    QVariantList m_listeners;
    ListenerModel m_listenerModel{this};
    QVariantMap m_requestCounts;
    int m_eventCount = 0;
    qint64 m_lastSeq = 0;
    QDateTime m_lastEventAt;
    QElapsedTimer m_contactClock;
    QDateTime m_lastContactAt;
    std::chrono::milliseconds m_staleAfter{20000};
    QVariantMap m_principal;
    bool m_demoMode = false;
    QString m_untrustedFingerprint; // seen on the last attempt, not trusted
    bool m_certificateChanged = false;
    QString m_lastError;
};

} // namespace Gatehouse::Console
