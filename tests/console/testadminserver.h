#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QUrl>

class QTcpSocket;

// A tiny real HTTP/1.1 server speaking the admin API's subset the console uses:
// GET /admin/v1/status and the SSE stream GET /admin/v1/events, bearer-token protected.
class TestAdminServer : public QObject
{
    Q_OBJECT

public:
    explicit TestAdminServer(QByteArray token, QObject *parent = nullptr);
    ~TestAdminServer() override;

    // Listens on 127.0.0.1:port (0: any free port). Listening again after stop() on the same
    // port simulates a backend restart that keeps its address.
    bool listen(quint16 port = 0);
    // Closes the listening socket and every open connection, streams included.
    void stop();
    quint16 port() const { return m_port; }
    QUrl url() const;

    void setToken(const QByteArray &token) { m_token = token; }
    // Serve the event stream with Transfer-Encoding: chunked instead of close-delimited.
    void setChunked(bool chunked) { m_chunked = chunked; }
    // Accept event-stream requests but never answer them (a hung backend).
    void setStreamHangs(bool hangs) { m_streamHangs = hangs; }
    void setRequestCount(const QString &listener, qint64 count);
    // Behave like a new backend process: new start time, event sequence starting over.
    void simulateProcessRestart();

    // Sends one event to every open stream and remembers it for Last-Event-ID replays.
    // Returns its sequence number.
    qint64 sendEvent(const QString &type, const QJsonObject &data);
    // Sends bytes as they are to every open stream.
    void sendRaw(const QByteArray &bytes);

    int openStreams() const;
    int statusRequests() const { return m_statusRequests; }
    int streamRequests() const { return m_streamRequests; }
    int unauthorizedRequests() const { return m_unauthorizedRequests; }
    QByteArray lastEventIdHeader() const { return m_lastEventIdHeader; }
    QList<QByteArray> authorizationHeaders() const { return m_authorizationHeaders; }

signals:
    void streamOpened();

private:
    struct Connection
    {
        QByteArray buffer;
        bool streaming = false;
    };
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void respond(QTcpSocket *socket, int status, const QByteArray &reason,
                 const QByteArray &contentType, const QByteArray &body);
    void writeToStream(QTcpSocket *socket, const QByteArray &bytes);
    QJsonObject status() const;

    QTcpServer m_server;
    QByteArray m_token;
    quint16 m_port = 0;
    bool m_chunked = false;
    bool m_streamHangs = false;
    QHash<QTcpSocket *, Connection> m_connections;
    QList<QPointer<QTcpSocket>> m_streams;
    QList<QPair<qint64, QByteArray>> m_history; // seq, SSE frame
    qint64 m_seq = 0;
    QString m_startedAt = QStringLiteral("2026-11-21T08:00:00Z");
    QJsonObject m_requests;
    int m_statusRequests = 0;
    int m_streamRequests = 0;
    int m_unauthorizedRequests = 0;
    QByteArray m_lastEventIdHeader;
    QList<QByteArray> m_authorizationHeaders;
};
