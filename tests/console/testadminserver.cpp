#include "testadminserver.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpSocket>

TestAdminServer::TestAdminServer(QByteArray token, QObject *parent)
    : QObject(parent), m_token(std::move(token))
{
    m_requests = {{"service", 42}, {"cluster", 7}, {"admin", 3}};
    connect(&m_server, &QTcpServer::newConnection, this, &TestAdminServer::onNewConnection);
}

TestAdminServer::~TestAdminServer()
{
    stop();
}

bool TestAdminServer::listen(quint16 port)
{
    if (!m_server.listen(QHostAddress::LocalHost, port))
        return false;
    m_port = m_server.serverPort();
    return true;
}

void TestAdminServer::stop()
{
    m_server.close();
    const QList<QTcpSocket *> sockets = m_connections.keys();
    m_connections.clear();
    m_streams.clear();
    for (QTcpSocket *socket : sockets) {
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
}

QUrl TestAdminServer::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
}

void TestAdminServer::setRequestCount(const QString &listener, qint64 count)
{
    m_requests.insert(listener, count);
}

void TestAdminServer::simulateProcessRestart()
{
    m_history.clear();
    m_seq = 0;
    m_startedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

qint64 TestAdminServer::sendEvent(const QString &type, const QJsonObject &data)
{
    const qint64 seq = ++m_seq;
    const QJsonObject envelope{
        {"seq", seq},
        {"type", type},
        {"time", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {"data", data},
    };
    const QByteArray frame = "id: " + QByteArray::number(seq) + "\nevent: " + type.toUtf8() +
                             "\ndata: " + QJsonDocument(envelope).toJson(QJsonDocument::Compact) +
                             "\n\n";
    m_history.append({seq, frame});
    sendRaw(frame);
    return seq;
}

void TestAdminServer::sendRaw(const QByteArray &bytes)
{
    for (const QPointer<QTcpSocket> &socket : std::as_const(m_streams)) {
        if (socket)
            writeToStream(socket, bytes);
    }
}

int TestAdminServer::openStreams() const
{
    int n = 0;
    for (const QPointer<QTcpSocket> &socket : m_streams)
        n += socket && socket->state() == QAbstractSocket::ConnectedState ? 1 : 0;
    return n;
}

void TestAdminServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        m_connections.insert(socket, {});
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_connections.remove(socket);
            m_streams.removeAll(socket);
            socket->deleteLater();
        });
    }
}

void TestAdminServer::onReadyRead(QTcpSocket *socket)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->buffer.append(socket->readAll());
    if (it->streaming)
        return;
    const qsizetype end = it->buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return;
    const QList<QByteArray> lines = it->buffer.left(end).split('\n');
    it->buffer.remove(0, end + 4);
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    const QByteArray method = requestLine.value(0);
    const QByteArray path = requestLine.value(1);
    QHash<QByteArray, QByteArray> headers;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    }

    const QByteArray authorization = headers.value("authorization");
    m_authorizationHeaders.append(authorization);
    if (authorization != "Bearer " + m_token) {
        ++m_unauthorizedRequests;
        respond(socket, 401, "Unauthorized", "application/json",
                R"({"error":"unauthorized","message":"admin token missing or invalid"})");
        return;
    }
    if (method == "GET" && path == "/admin/v1/status") {
        ++m_statusRequests;
        respond(socket, 200, "OK", "application/json",
                QJsonDocument(status()).toJson(QJsonDocument::Compact));
        return;
    }
    if (method == "GET" && path == "/admin/v1/events") {
        ++m_streamRequests;
        m_lastEventIdHeader = headers.value("last-event-id");
        if (m_streamHangs)
            return;
        it->streaming = true;
        QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                          "Cache-Control: no-cache\r\n";
        head += m_chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Connection: close\r\n\r\n";
        socket->write(head);
        m_streams.append(socket);
        writeToStream(socket, ": welcome\n\n");
        bool ok = false;
        const qint64 lastSeen = m_lastEventIdHeader.toLongLong(&ok);
        // Like the real backend: a resuming client gets what it missed (here plus the one it
        // already has, to test its deduplication); a new one gets the backlog.
        for (const auto &[seq, frame] : std::as_const(m_history)) {
            if (!ok || seq >= lastSeen)
                writeToStream(socket, frame);
        }
        emit streamOpened();
        return;
    }
    respond(socket, 404, "Not Found", "application/json",
            R"({"error":"not_found","message":"no such admin resource"})");
}

void TestAdminServer::respond(QTcpSocket *socket, int status, const QByteArray &reason,
                              const QByteArray &contentType, const QByteArray &body)
{
    QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\n";
    response += "Content-Type: " + contentType + "\r\n";
    response += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    response += "Connection: close\r\n\r\n";
    response += body;
    socket->write(response);
    socket->disconnectFromHost();
}

void TestAdminServer::writeToStream(QTcpSocket *socket, const QByteArray &bytes)
{
    if (m_chunked)
        socket->write(QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n");
    else
        socket->write(bytes);
}

QJsonObject TestAdminServer::status() const
{
    auto listener = [](const char *name, int port, bool tls) {
        const QString scheme = tls ? QStringLiteral("https") : QStringLiteral("http");
        return QJsonObject{
            {"name", name},
            {"address", "127.0.0.1"},
            {"port", port},
            {"tls", tls},
            {"url", QStringLiteral("%1://127.0.0.1:%2").arg(scheme).arg(port)},
        };
    };
    return QJsonObject{
        {"version", "0.1.0"},
        {"uptimeSeconds", 12},
        {"instanceId", "9f1c7c52-2a51-4d0e-9d8e-7c0a2b7f4e11"}, // survives restarts
        {"startedAt", m_startedAt},
        {"listeners", QJsonArray{listener("service", 8080, false), listener("cluster", 6443, true),
                                 listener("admin", m_port, false)}},
        {"database",
         QJsonObject{{"driver", "QSQLITE"}, {"path", "/tmp/gatehouse.db"}, {"schemaVersion", 1}}},
        {"counters", QJsonObject{{"requests", m_requests}, {"events", int(m_seq)}}},
    };
}
