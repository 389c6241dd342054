#include "testadminserver.h"

#include "core/adminproof.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTcpSocket>
#include <QTimer>
#include <QUuid>

TestAdminServer::TestAdminServer(QByteArray token, QObject *parent)
    : QObject(parent), m_token(std::move(token))
{
    m_requests = {{"service", 42}, {"cluster", 7}, {"admin", 3}};
    connect(&m_server, &QTcpServer::newConnection, this, &TestAdminServer::onNewConnection);
    resetOrderData();
    resetOAuthData();
    resetClusterData();
    resetAuditData();
    resetSettings();
    resetStatsSeries();
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

qint64 TestAdminServer::sendEvent(const QString &type, const QJsonObject &data,
                                  const QString &instance)
{
    const qint64 seq = ++m_seq;
    QJsonObject envelope{
        {"seq", seq},
        {"type", type},
        {"time", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {"data", data},
    };
    if (!instance.isEmpty())
        envelope.insert(QStringLiteral("instance"), instance);
    const QByteArray frame = "id: " + QByteArray::number(seq) + "\nevent: " + type.toUtf8() +
                             "\ndata: " + QJsonDocument(envelope).toJson(QJsonDocument::Compact) +
                             "\n\n";
    m_history.append({seq, frame});
    sendRaw(frame);
    if (type != QLatin1String("stats.series"))
        countInSeries(type, data);
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
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    const QByteArray method = requestLine.value(0);
    const QByteArray target = requestLine.value(1);
    QHash<QByteArray, QByteArray> headers;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    }
    const qsizetype length = headers.value("content-length").toLongLong();
    if (it->buffer.size() < end + 4 + length)
        return; // the body is still on its way
    const QByteArray body = it->buffer.mid(end + 4, length);
    it->buffer.remove(0, end + 4 + length);
    const qsizetype mark = target.indexOf('?');
    const QByteArray path = mark < 0 ? target : target.left(mark);
    const QUrlQuery query(mark < 0 ? QString() : QString::fromUtf8(target.mid(mark + 1)));
    if (method == "GET" && path == "/admin-proof") { // before any token is sent (plain http)
        ++m_proofRequests;
        const QByteArray digest = Gatehouse::Core::adminTokenDigest(QString::fromLatin1(m_token));
        if (m_forgeProof) {
            respond(socket, 200, "OK", "application/json", R"({"proof":"forged"})");
        } else if (query.queryItemValue(QStringLiteral("token")) !=
                   Gatehouse::Core::adminProofTokenId(digest)) {
            ++m_unauthorizedRequests;
            respond(socket, 404, "Not Found", "application/json",
                    R"({"error":"unknown-token","message":"admin token missing or invalid"})");
        } else {
            const QString endpoint =
                Gatehouse::Core::adminProofEndpoint(socket->localAddress(), socket->localPort());
            const QByteArray proof = Gatehouse::Core::adminTokenProof(
                Gatehouse::Core::adminTokenProofKey(QString::fromLatin1(m_token)),
                query.queryItemValue(QStringLiteral("nonce")).toLatin1(), endpoint);
            respond(socket, 200, "OK", "application/json",
                    R"({"proof":")" + proof + R"(","endpoint":")" + endpoint.toLatin1() + R"("})");
        }
        return;
    }
    m_requestLog.append(QString::fromUtf8(method + ' ' + target));

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
    handleApi(socket, method, QString::fromUtf8(path), query, body);
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
         QJsonObject{{"driver", m_driver}, {"path", "/tmp/gatehouse.db"}, {"schemaVersion", 1}}},
        {"instances", m_instances},
        {"counters", QJsonObject{{"requests", m_requests}, {"events", int(m_seq)}}},
        {"demo", m_demo},
    };
}

// ---- orders and webhooks (docs/orders.md) ---------------------------------------------------

namespace {

const QString ApiPrefix = QStringLiteral("/admin/v1");

QString iso(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

bool cancellable(const QString &status)
{
    static const QStringList statuses{"NEW",       "VALIDATION_PENDING",
                                      "VALIDATED", "ALLOCATION_PENDING",
                                      "ALLOCATED", "PENDING_INVENTORY"};
    return statuses.contains(status);
}

QString randomSecret()
{
    QByteArray key(32, Qt::Uninitialized);
    for (char &c : key)
        c = char(QRandomGenerator::global()->bounded(256));
    return QStringLiteral("whsec_") + QString::fromLatin1(key.toBase64());
}

const char *reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 409:
        return "Conflict";
    default:
        return "Status";
    }
}

// The seed's fixed ids, so a screenshot or a failing test names the same order every time.
const QString AcmeId = QStringLiteral("2b0d7c2e-4a53-4a8e-9b0c-5d6f1a2b3c4d");
const QString HopfenId = QStringLiteral("7e3f9a10-1c2d-4b5e-8f60-7a8b9c0d1e2f");
const QString PubId = QStringLiteral("c4d5e6f7-0a1b-4c2d-9e3f-405162738495");
const QString AcmeHook = QStringLiteral("https://hooks.acme-brewing.example/orders");
const QString HopfenHook = QStringLiteral("https://erp.hopfen-malz.example/webhooks/gatehouse");
const QString PubHook = QStringLiteral("https://cornerpub.example/api/order-status");

const QString ServiceUnavailableBody = QStringLiteral(
    "<html>\n<head><title>503 Service Temporarily Unavailable</title></head>\n<body>\n"
    "<center><h1>503 Service Temporarily Unavailable</h1></center>\n<hr><center>nginx/1.22.1"
    "</center>\n</body>\n</html>\n");

} // namespace

void TestAdminServer::resetOrderData()
{
    m_customers.clear();
    m_beers.clear();
    m_orders.clear();
    m_deliveries.clear();
    m_endpoints.clear();
    m_received.clear();
    if (m_lifecycleHeld) // released, as a fresh backend's is
        sendEvent(QStringLiteral("order.lifecycle"), {{"held", false}, {"backlog", 0}});
    m_lifecycleHeld = false;
    m_lifecycleBacklog = 0;
    m_heldOrders.clear();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime day = now.addDays(-20);

    auto customer = [&](const QString &id, const QString &name, int daysAgo) {
        m_customers.append({{"id", id},
                            {"name", name},
                            {"createdAt", iso(now.addDays(-daysAgo))},
                            {"secretRotatedAt", QJsonValue::Null},
                            {"previousSecretExpiresAt", QJsonValue::Null}});
    };
    customer(AcmeId, QStringLiteral("Acme Brewing Supply"), 30);
    customer(HopfenId, QStringLiteral("Hopfen & Malz GmbH"), 25);
    customer(PubId, QStringLiteral("The Corner Pub"), 12);

    auto beer = [&](const char *id, const char *name, const char *style, const char *upc,
                    const char *price, int onHand, bool discontinued) {
        m_beers.append({{"id", id},
                        {"beerName", name},
                        {"beerStyle", style},
                        {"upc", upc},
                        {"price", price},
                        {"quantityOnHand", onHand},
                        {"discontinued", discontinued}});
    };
    beer("0a81a2c4-5b55-4d4f-8f5e-0b3c1a1d2e01", "Mango Bobs", "IPA", "0631234200036", "12.95", 118,
         false);
    beer("0a81a2c4-5b55-4d4f-8f5e-0b3c1a1d2e02", "Galaxy Cat", "PALE_ALE", "0631234300019", "11.50",
         74, false);
    beer("0a81a2c4-5b55-4d4f-8f5e-0b3c1a1d2e03", "Pinball Porter", "PORTER", "0083783375213",
         "13.25", 36, false);
    beer("0a81a2c4-5b55-4d4f-8f5e-0b3c1a1d2e04", "Golden Budda", "STOUT", "9122089364369", "14.00",
         0, false);
    beer("0a81a2c4-5b55-4d4f-8f5e-0b3c1a1d2e05", "Cage Blond", "WHEAT", "0631234320019", "10.75",
         205, false);
    beer("0a81a2c4-5b55-4d4f-8f5e-0b3c1a1d2e06", "King Krush", "LAGER", "0083783375268", "9.95", 12,
         true);

    auto endpoint = [&](const char *id, const QString &customerId, const QString &url) {
        m_endpoints.append({{"id", id},
                            {"customerId", customerId},
                            {"url", url},
                            {"state", "enabled"},
                            {"disabledReason", QJsonValue::Null},
                            {"disabledAt", QJsonValue::Null},
                            {"failingSince", QJsonValue::Null},
                            {"lastSuccessAt", QJsonValue::Null},
                            {"pendingDeliveries", 0}});
    };
    endpoint("e7b1d5a2-3c4f-4e6a-9b8c-1d2e3f405001", AcmeId, AcmeHook);
    endpoint("e7b1d5a2-3c4f-4e6a-9b8c-1d2e3f405002", HopfenId, HopfenHook);
    endpoint("e7b1d5a2-3c4f-4e6a-9b8c-1d2e3f405003", PubId, PubHook);

    auto line = [](const char *upc, int quantity) {
        return QJsonObject{{"upc", upc}, {"orderQuantity", quantity}};
    };
    const QStringList toAllocated{"NEW", "VALIDATION_PENDING", "VALIDATED", "ALLOCATION_PENDING",
                                  "ALLOCATED"};
    // Oldest first; each is inserted at the top.
    seedOrder(QStringLiteral("3c8a51d2-7f04-4b1e-9a63-2d5e8c7b9f05"), 1, "HM-2207",
              {line("0631234320019", 24), line("0083783375213", 6)},
              toAllocated + QStringList{"PICKED_UP", "DELIVERED"}, day.addSecs(9 * 3600), false);
    seedOrder(QStringLiteral("e41b9f73-5a2c-4d8e-b1f0-6c3a7d9e2b06"), 2, QJsonValue::Null,
              {line("0631234200036", 2)}, toAllocated + QStringList{"CANCELLED"},
              now.addSecs(-6 * 3600), false);
    seedOrder(QStringLiteral("a7d24c19-0e6b-4f35-8c2a-9b1d5e3f7a02"), 1, "HM-2231",
              {line("0631234300019", 12), line("0631234200036", 12)},
              toAllocated + QStringList{"PICKED_UP"}, now.addSecs(-5 * 3600), true);
    seedOrder(QStringLiteral("6f93e0b8-2d71-4a4c-a5e9-8f0b3c6d1e03"), 2, QJsonValue::Null,
              {line("9122089364369", 10), line("0083783375213", 4)},
              {"NEW", "VALIDATION_PENDING", "VALIDATED", "ALLOCATION_PENDING", "PENDING_INVENTORY"},
              now.addSecs(-8 * 3600 - 40 * 60), true);
    seedOrder(QStringLiteral("b258c6a4-9e13-4f7d-8b42-1a7c0e5d3f04"), 0, "PO-0999",
              {line("0000000000000", 1)}, {"NEW", "VALIDATION_PENDING", "VALIDATION_EXCEPTION"},
              now.addSecs(-2 * 3600), true);
    seedOrder(QStringLiteral("5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11"), 0, "PO-1001",
              {line("0631234200036", 3), line("0631234300019", 6)}, toAllocated,
              now.addSecs(-40 * 60), true);
    seedOrder(QStringLiteral("d0c3f7e1-4b88-4e29-9d16-5a2b8f4c6e07"), 0, "PO-1002",
              {line("0083783375213", 2)}, {"NEW"}, now.addSecs(-2 * 60), true);

    // Newest first, as the API lists them.
    auto newestFirst = [](const char *key) {
        return [key](const QJsonObject &a, const QJsonObject &b) {
            return str(a, key) > str(b, key); // same ISO format throughout
        };
    };
    std::stable_sort(m_orders.begin(), m_orders.end(), newestFirst("createdDate"));
    std::stable_sort(m_deliveries.begin(), m_deliveries.end(), newestFirst("createdAt"));

    // Hopfen & Malz answered 410 Gone to its last delivery: its endpoint is disabled.
    QJsonObject &hopfen = m_endpoints[1];
    hopfen.insert("state", "disabled");
    hopfen.insert("disabledReason", "410 Gone from the endpoint");
    hopfen.insert("disabledAt", iso(now.addSecs(-4 * 3600)));
    // The Corner Pub's receiver fails with 503 since a while.
    m_endpoints[2].insert("failingSince", iso(now.addSecs(-8 * 3600 - 40 * 60 + 10)));
    m_endpoints[2].insert("pendingDeliveries", 1);
    m_endpoints[0].insert("lastSuccessAt", iso(now.addSecs(-40 * 60 + 8)));
}

void TestAdminServer::seedOrder(const QString &id, int customer, const QJsonValue &ref,
                                const QJsonArray &lines, const QStringList &path,
                                const QDateTime &created, bool withCallback)
{
    const QJsonObject &c = m_customers.at(customer);
    const QString hook = customer == 0 ? AcmeHook : customer == 1 ? HopfenHook : PubHook;
    QJsonArray orderLines;
    int n = 0;
    for (const QJsonValue value : lines) {
        QJsonObject line = value.toObject();
        line.insert("id", QStringLiteral("%1-%2").arg(id.left(30)).arg(++n, 5, 10, QChar('0')));
        for (const QJsonObject &beer : std::as_const(m_beers)) {
            if (str(beer, "upc") == str(line, "upc"))
                line.insert("beerId", beer.value("id"));
        }
        line.insert("quantityAllocated", 0);
        orderLines.append(line);
    }
    QJsonObject order{
        {"id", id},
        {"customerId", c.value("id")},
        {"customerName", c.value("name")},
        {"customerRef", ref},
        {"beerOrderLines", orderLines},
        {"orderStatus", "NEW"},
        {"version", 1},
        {"createdDate", iso(created)},
        {"lastModifiedDate", iso(created)},
        {"history", QJsonArray{QJsonObject{{"status", "NEW"}, {"at", iso(created)}}}}};
    if (withCallback)
        order.insert("orderStatusCallbackUrl", hook);

    QDateTime at = created;
    QDateTime pubGaveUpAt;
    for (qsizetype step = 1; step < path.size(); ++step) {
        at = at.addMSecs(700 + 900 * step);
        const QString &status = path.at(step);
        order.insert("orderStatus", status);
        order.insert("version", order.value("version").toInt() + 1);
        order.insert("lastModifiedDate", iso(at));
        QJsonArray history = order.value("history").toArray();
        history.append(QJsonObject{{"status", status}, {"at", iso(at)}});
        order.insert("history", history);
        if (status == "ALLOCATED" || status == "PICKED_UP" || status == "DELIVERED") {
            QJsonArray allocated = order.value("beerOrderLines").toArray();
            for (QJsonValueRef l : allocated) {
                QJsonObject o = l.toObject();
                o.insert("quantityAllocated", o.value("orderQuantity"));
                l = o;
            }
            order.insert("beerOrderLines", allocated);
        }
        if (!withCallback)
            continue;
        const QString endpointId = str(m_endpoints.at(customer), "id");
        QJsonObject d{{"id", nextId("msg")},
                      {"orderId", id},
                      {"customerId", c.value("id")},
                      {"endpointId", endpointId},
                      {"url", hook},
                      {"orderStatus", status},
                      {"seq", int(step)},
                      {"state", "pending"},
                      {"attempts", 0},
                      {"nextAttemptAt", QJsonValue::Null},
                      {"lastStatus", QJsonValue::Null},
                      {"lastError", QJsonValue::Null},
                      {"lastLatencyMs", QJsonValue::Null},
                      {"createdAt", iso(at)},
                      {"completedAt", QJsonValue::Null},
                      {"attemptLog", QJsonArray{}}};
        const bool last = step == path.size() - 1;
        if (customer == 0) { // Acme: a quick, healthy receiver
            seedAttempt(d, 200, 38 + int(step) * 11, {}, at.addMSecs(120));
            d.insert("state", "succeeded");
            d.insert("completedAt", iso(at.addMSecs(200)));
        } else if (customer == 1) { // Hopfen & Malz: fine until the endpoint went away
            if (last) {
                seedAttempt(d, 410, 95, QStringLiteral("410 Gone: endpoint disabled"),
                            at.addMSecs(150));
                d.insert("state", "failed");
                d.insert("completedAt", iso(at.addMSecs(200)));
            } else {
                seedAttempt(d, 204, 140 + int(step) * 7, {}, at.addMSecs(150));
                d.insert("state", "succeeded");
                d.insert("completedAt", iso(at.addMSecs(300)));
            }
        } else { // The Corner Pub: a receiver that falls over
            if (step <= 2) {
                seedAttempt(d, 200, 310, {}, at.addMSecs(400));
                d.insert("state", "succeeded");
                d.insert("completedAt", iso(at.addMSecs(500)));
            } else if (!last) {
                // Retried 5 s, 5 min, 30 min, 2 h, 5 h later (docs/orders.md), then given up.
                const int delays[] = {0, 5, 300, 1800, 7200, 18000};
                QDateTime t = at;
                for (int delay : delays) {
                    t = t.addSecs(delay);
                    if (delay == 18000)
                        seedAttempt(d, 0, -1,
                                    QStringLiteral("connect to cornerpub.example:443: "
                                                   "connection refused"),
                                    t);
                    else
                        seedAttempt(d, 503, 2150 + delay % 97, QStringLiteral("HTTP 503"), t);
                }
                d.insert("state", "failed");
                d.insert("completedAt", iso(t));
                pubGaveUpAt = t;
            } else {
                // The next status waited for the given-up one.
                const QDateTime t = pubGaveUpAt.isValid() ? pubGaveUpAt : at;
                seedAttempt(d, 503, 2311, QStringLiteral("HTTP 503"), t.addSecs(1));
                seedAttempt(d, 503, 1987, QStringLiteral("HTTP 503"), t.addSecs(6));
                seedAttempt(d, 503, 2044, QStringLiteral("HTTP 503"), t.addSecs(306));
                seedAttempt(d, 503, 2102, QStringLiteral("HTTP 503"), t.addSecs(2106));
                d.insert("nextAttemptAt", iso(t.addSecs(2106 + 7200)));
            }
        }
        m_deliveries.prepend(d);
    }
    m_orders.prepend(order);
}

void TestAdminServer::seedAttempt(QJsonObject &delivery, int status, int latencyMs,
                                  const QString &error, const QDateTime &at)
{
    QJsonArray log = delivery.value("attemptLog").toArray();
    const int number = int(log.size()) + 1;
    const QString timestamp = QString::number(at.toSecsSinceEpoch());
    QString body;
    if (status >= 200 && status < 300)
        body = QStringLiteral("{\"received\":true}");
    else if (status == 503)
        body = ServiceUnavailableBody;
    else if (status == 410)
        body = QStringLiteral("{\"error\":\"gone\",\"message\":\"this hook was removed\"}");
    log.append(QJsonObject{
        {"number", number},
        {"at", iso(at)},
        {"url", delivery.value("url")},
        {"trigger", delivery.value("redelivered").toBool() ? "manual" : "scheduled"},
        {"requestHeaders",
         QJsonObject{
             {"content-type", "application/json"},
             {"webhook-id", delivery.value("id")},
             {"webhook-timestamp", timestamp},
             {"webhook-signature",
              QStringLiteral("v1,") +
                  QString::fromLatin1(QCryptographicHash::hash(
                                          (delivery.value("id").toString() + timestamp).toUtf8(),
                                          QCryptographicHash::Sha256)
                                          .toBase64())}}},
        {"status", status > 0 ? QJsonValue(status) : QJsonValue(QJsonValue::Null)},
        {"latencyMs", latencyMs >= 0 ? QJsonValue(latencyMs) : QJsonValue(QJsonValue::Null)},
        {"responseBody", body},
        {"error", error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error)},
    });
    delivery.insert("attemptLog", log);
    delivery.remove("redelivered");
    delivery.insert("attempts", number);
    delivery.insert("lastStatus", status > 0 ? QJsonValue(status) : QJsonValue(QJsonValue::Null));
    delivery.insert("lastLatencyMs",
                    latencyMs >= 0 ? QJsonValue(latencyMs) : QJsonValue(QJsonValue::Null));
    delivery.insert("lastError",
                    error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error));
}

void TestAdminServer::setAutoAdvance(bool on, int intervalMs)
{
    m_autoAdvance = on;
    m_autoAdvanceMs = std::max(1, intervalMs);
}

QString TestAdminServer::nextId(const char *prefix)
{
    // "msg_" + 26 base32 characters, like the backend's webhook ids; the same every run.
    const QByteArray hash =
        QCryptographicHash::hash(QByteArray::number(++m_idCounter), QCryptographicHash::Sha256);
    static const char alphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";
    QString id = QLatin1String(prefix) + QLatin1Char('_');
    for (int i = 0; i < 26; ++i)
        id += QLatin1Char(alphabet[quint8(hash.at(i)) % 32]);
    return id;
}

QString TestAdminServer::demoReceiverUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1/demo-receiver/hook").arg(m_port);
}

int TestAdminServer::indexOf(const QList<QJsonObject> &list, const QString &id) const
{
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (str(list.at(i), "id") == id)
            return int(i);
    }
    return -1;
}

QJsonObject TestAdminServer::customerJson(const QJsonObject &customer) const
{
    QJsonObject json = customer;
    int orders = 0;
    for (const QJsonObject &order : m_orders)
        orders += order.value("customerId") == customer.value("id") ? 1 : 0;
    json.insert("orderCount", orders);
    return json;
}

QJsonObject TestAdminServer::orderJson(const QJsonObject &order) const
{
    QJsonObject json = order;
    json.remove("history");
    return json;
}

QJsonObject TestAdminServer::deliveryJson(const QJsonObject &delivery) const
{
    QJsonObject json = delivery;
    json.remove("attemptLog");
    json.remove("redelivered");
    return json;
}

QJsonObject TestAdminServer::order(const QString &orderId) const
{
    const int i = indexOf(m_orders, orderId);
    if (i < 0)
        return {};
    QJsonObject json = orderJson(m_orders.at(i));
    json.insert("history", m_orders.at(i).value("history"));
    QJsonArray deliveries;
    for (const QJsonObject &d : m_deliveries) {
        if (str(d, "orderId") == orderId)
            deliveries.append(deliveryJson(d));
    }
    json.insert("deliveries", deliveries);
    return json;
}

QJsonObject TestAdminServer::delivery(const QString &deliveryId) const
{
    const int i = indexOf(m_deliveries, deliveryId);
    if (i < 0)
        return {};
    QJsonObject json = deliveryJson(m_deliveries.at(i));
    json.insert("attempts", m_deliveries.at(i).value("attemptLog"));
    return json;
}

QString TestAdminServer::orderIdWithStatus(const QString &status) const
{
    for (const QJsonObject &order : m_orders) {
        if (str(order, "orderStatus") == status)
            return str(order, "id");
    }
    return {};
}

QString TestAdminServer::deliveryIdWithState(const QString &state) const
{
    for (const QJsonObject &d : m_deliveries) {
        if (str(d, "state") == state)
            return str(d, "id");
    }
    return {};
}

QStringList TestAdminServer::deliveryIds() const
{
    QStringList ids;
    for (const QJsonObject &d : m_deliveries)
        ids.append(str(d, "id"));
    return ids;
}

QString TestAdminServer::disabledEndpointId() const
{
    for (const QJsonObject &e : m_endpoints) {
        if (str(e, "state") == QLatin1String("disabled"))
            return str(e, "id");
    }
    return {};
}

QString TestAdminServer::customerId(int index) const
{
    return index >= 0 && index < m_customers.size() ? str(m_customers.at(index), "id") : QString();
}

QString TestAdminServer::beerUpc(int index) const
{
    return index >= 0 && index < m_beers.size() ? str(m_beers.at(index), "upc") : QString();
}

int TestAdminServer::countRequests(const QString &prefix) const
{
    int n = 0;
    for (const QString &request : m_requestLog)
        n += request.startsWith(prefix) ? 1 : 0;
    return n;
}

QString TestAdminServer::endpointFor(const QString &customerId, const QString &url)
{
    for (const QJsonObject &e : std::as_const(m_endpoints)) {
        if (str(e, "customerId") == customerId && str(e, "url") == url)
            return str(e, "id");
    }
    QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_endpoints.append({{"id", id},
                        {"customerId", customerId},
                        {"url", url},
                        {"state", "enabled"},
                        {"disabledReason", QJsonValue::Null},
                        {"disabledAt", QJsonValue::Null},
                        {"failingSince", QJsonValue::Null},
                        {"lastSuccessAt", QJsonValue::Null},
                        {"pendingDeliveries", 0}});
    return id;
}

QJsonObject TestAdminServer::createOrder(const QString &customerId, const QJsonValue &customerRef,
                                         const QJsonArray &lines, const QString &callbackUrl)
{
    const int c = indexOf(m_customers, customerId);
    if (c < 0)
        return {};
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString now = iso(QDateTime::currentDateTimeUtc());
    QJsonArray orderLines;
    for (const QJsonValue value : lines) {
        const QJsonObject in = value.toObject();
        QJsonObject line{{"id", QUuid::createUuid().toString(QUuid::WithoutBraces)},
                         {"upc", in.value("upc")},
                         {"orderQuantity", in.value("orderQuantity")},
                         {"quantityAllocated", 0}};
        for (const QJsonObject &beer : std::as_const(m_beers)) {
            if (beer.value("upc") == in.value("upc"))
                line.insert("beerId", beer.value("id"));
        }
        orderLines.append(line);
    }
    QJsonObject order{{"id", id},
                      {"customerId", customerId},
                      {"customerName", m_customers.at(c).value("name")},
                      {"customerRef", customerRef.isString() ? customerRef : QJsonValue::Null},
                      {"beerOrderLines", orderLines},
                      {"orderStatus", "NEW"},
                      {"version", 1},
                      {"createdDate", now},
                      {"lastModifiedDate", now},
                      {"history", QJsonArray{QJsonObject{{"status", "NEW"}, {"at", now}}}}};
    if (!callbackUrl.isEmpty())
        order.insert("orderStatusCallbackUrl", callbackUrl);
    m_orders.prepend(order);
    if (m_lifecycleHeld)
        ++m_lifecycleBacklog; // it waits in NEW with the others
    sendEvent(QStringLiteral("order.created"), orderJson(order));
    if (m_autoAdvance)
        QTimer::singleShot(m_autoAdvanceMs, this, [this, id] { autoAdvance(id); });
    return orderJson(order);
}

void TestAdminServer::autoAdvance(const QString &orderId)
{
    const int i = indexOf(m_orders, orderId);
    if (i < 0 || !m_autoAdvance)
        return;
    static const QStringList next{"NEW", "VALIDATION_PENDING", "VALIDATED", "ALLOCATION_PENDING",
                                  "ALLOCATED"};
    const qsizetype at = next.indexOf(str(m_orders.at(i), "orderStatus"));
    if (at < 0 || at + 1 >= next.size())
        return;
    if (m_lifecycleHeld) { // waits for the release
        m_heldOrders.append(orderId);
        return;
    }
    setOrderStatus(orderId, next.at(at + 1));
    QTimer::singleShot(m_autoAdvanceMs, this, [this, orderId] { autoAdvance(orderId); });
}

void TestAdminServer::transition(QJsonObject &order, const QString &status, const QDateTime &at)
{
    const QString previous = str(order, "orderStatus");
    order.insert("orderStatus", status);
    order.insert("version", order.value("version").toInt() + 1);
    order.insert("lastModifiedDate", iso(at));
    QJsonArray history = order.value("history").toArray();
    history.append(QJsonObject{{"status", status}, {"at", iso(at)}});
    order.insert("history", history);
    if (status == "ALLOCATED") {
        QJsonArray lines = order.value("beerOrderLines").toArray();
        for (QJsonValueRef l : lines) {
            QJsonObject o = l.toObject();
            o.insert("quantityAllocated", o.value("orderQuantity"));
            l = o;
        }
        order.insert("beerOrderLines", lines);
    }
    sendEvent(QStringLiteral("order.status"), {{"orderId", order.value("id")},
                                               {"customerId", order.value("customerId")},
                                               {"orderStatus", status},
                                               {"previousStatus", previous},
                                               {"at", iso(at)},
                                               {"version", order.value("version")},
                                               {"createdDate", order.value("createdDate")}});
    if (order.contains("orderStatusCallbackUrl"))
        addDelivery(order, status, at);
}

void TestAdminServer::addDelivery(const QJsonObject &order, const QString &status,
                                  const QDateTime &at)
{
    const QString url = str(order, "orderStatusCallbackUrl");
    const QString endpointId = endpointFor(str(order, "customerId"), url);
    int seq = 0;
    for (const QJsonObject &d : std::as_const(m_deliveries))
        seq += d.value("orderId") == order.value("id") ? 1 : 0;
    const int e = indexOf(m_endpoints, endpointId);
    const bool disabled = str(m_endpoints.at(e), "state") == QLatin1String("disabled");
    QJsonObject d{{"id", nextId("msg")},
                  {"orderId", order.value("id")},
                  {"customerId", order.value("customerId")},
                  {"endpointId", endpointId},
                  {"url", url},
                  {"orderStatus", status},
                  {"seq", seq + 1},
                  {"state", disabled ? "failed" : "pending"},
                  {"attempts", 0},
                  {"nextAttemptAt", disabled ? QJsonValue::Null : QJsonValue(iso(at))},
                  {"lastStatus", QJsonValue::Null},
                  {"lastError", disabled ? QJsonValue("endpoint disabled") : QJsonValue::Null},
                  {"lastLatencyMs", QJsonValue::Null},
                  {"createdAt", iso(at)},
                  {"completedAt", disabled ? QJsonValue(iso(at)) : QJsonValue::Null},
                  {"attemptLog", QJsonArray{}}};
    m_deliveries.prepend(d);
    sendEvent(QStringLiteral("delivery.created"), deliveryJson(d));
    if (m_autoAdvance && !disabled && url == demoReceiverUrl()) {
        const QString id = str(d, "id");
        QTimer::singleShot(m_autoAdvanceMs / 3, this, [this, id] {
            recordAttempt(id, 200, 3 + int(QRandomGenerator::global()->bounded(9)), {},
                          QStringLiteral("succeeded"));
        });
    }
}

bool TestAdminServer::setOrderStatus(const QString &orderId, const QString &status)
{
    const int i = indexOf(m_orders, orderId);
    if (i < 0)
        return false;
    transition(m_orders[i], status, QDateTime::currentDateTimeUtc());
    return true;
}

bool TestAdminServer::recordAttempt(const QString &deliveryId, int status, int latencyMs,
                                    const QString &error, const QString &state)
{
    const int i = indexOf(m_deliveries, deliveryId);
    if (i < 0)
        return false;
    QJsonObject &d = m_deliveries[i];
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString before = str(d, "state");
    seedAttempt(d, status, latencyMs, error, now);
    d.insert("state", state);
    if (state == QLatin1String("pending")) {
        d.insert("nextAttemptAt", iso(now.addSecs(300)));
    } else {
        d.insert("nextAttemptAt", QJsonValue::Null);
        d.insert("completedAt", iso(now));
    }
    sendEvent(QStringLiteral("delivery.attempt"), {{"deliveryId", deliveryId},
                                                   {"orderId", d.value("orderId")},
                                                   {"number", d.value("attempts")},
                                                   {"status", d.value("lastStatus")},
                                                   {"latencyMs", d.value("lastLatencyMs")},
                                                   {"error", d.value("lastError")},
                                                   {"state", state}});
    if (before != state)
        sendEvent(QStringLiteral("delivery.state"), deliveryJson(d));
    if (str(d, "url") == demoReceiverUrl() && status >= 200 && status < 300) {
        const int o = indexOf(m_orders, str(d, "orderId"));
        m_received.prepend({{"at", iso(now)},
                            {"webhookId", d.value("id")},
                            {"orderId", d.value("orderId")},
                            {"orderStatus", d.value("orderStatus")},
                            {"verified", o >= 0},
                            {"error", QJsonValue::Null}});
    }
    return true;
}

bool TestAdminServer::setEndpointState(const QString &endpointId, const QString &state,
                                       const QString &reason)
{
    const int i = indexOf(m_endpoints, endpointId);
    if (i < 0)
        return false;
    QJsonObject &e = m_endpoints[i];
    e.insert("state", state);
    const bool disabled = state == QLatin1String("disabled");
    e.insert("disabledReason", disabled ? QJsonValue(reason) : QJsonValue::Null);
    e.insert("disabledAt",
             disabled ? QJsonValue(iso(QDateTime::currentDateTimeUtc())) : QJsonValue::Null);
    sendEvent(QStringLiteral("endpoint.state"), e);
    return true;
}

void TestAdminServer::respondJson(QTcpSocket *socket, int status, const QJsonObject &body)
{
    respond(socket, status, reasonPhrase(status), "application/json",
            QJsonDocument(body).toJson(QJsonDocument::Compact));
}

void TestAdminServer::respondError(QTcpSocket *socket, int status, const QString &code,
                                   const QString &message)
{
    respondJson(socket, status, {{"error", code}, {"message", message}});
}

void TestAdminServer::handleApi(QTcpSocket *socket, const QByteArray &method, const QString &path,
                                const QUrlQuery &query, const QByteArray &body)
{
    if (!path.startsWith(ApiPrefix + QLatin1Char('/'))) {
        respond(socket, 404, "Not Found", "application/json",
                R"({"error":"not_found","message":"no such admin resource"})");
        return;
    }
    const QStringList parts = path.mid(ApiPrefix.size() + 1).split(QLatin1Char('/'));
    const QString resource = parts.value(0);
    const QString id = parts.value(1);
    const QString action = parts.value(2);
    const bool get = method == "GET";
    const bool post = method == "POST";
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (post && !body.isEmpty() && !doc.isObject()) {
        respondError(socket, 400, "malformed-json", "the body is not a JSON object");
        return;
    }
    const QJsonObject in = doc.object();
    if (doc.isObject())
        m_lastBodies.insert(QString::fromUtf8(method) + QLatin1Char(' ') + path, in);
    const int limit = std::clamp(
        query.hasQueryItem("limit") ? query.queryItemValue("limit").toInt() : 100, 1, 1000);
    auto notFound = [&](const char *code, const QString &what) {
        respondError(socket, 404, code, QStringLiteral("no %1 with id %2").arg(what, id));
    };

    if (handleAccess(socket, method, path.mid(ApiPrefix.size()), in))
        return;
    if (handleStats(socket, method, path.mid(ApiPrefix.size())))
        return;
    if (handleRedeliveries(socket, method, resource, id, action, in, query))
        return;
    if (handleAudit(socket, method, resource, id, query))
        return;
    if (handleSettings(socket, method, resource, id, in))
        return;
    if (handleOAuth(socket, method, resource, id, action, in, query))
        return;
    if (handleCluster(socket, method, path.mid(ApiPrefix.size()), in, query))
        return;
    if (resource == "customers") {
        if (get && id.isEmpty()) {
            QJsonArray items;
            for (const QJsonObject &c : std::as_const(m_customers))
                items.append(customerJson(c));
            respondJson(socket, 200, {{"items", items}});
            return;
        }
        if (post && id.isEmpty()) {
            const QString name = in.value("name").toString().trimmed();
            if (name.isEmpty() || name.size() > 200) {
                respondError(socket, 400, "validation-failed",
                             "name: required, 1 to 200 characters");
                return;
            }
            const QString newId = in.value("id").toString().isEmpty()
                                      ? QUuid::createUuid().toString(QUuid::WithoutBraces)
                                      : in.value("id").toString();
            if (indexOf(m_customers, newId) >= 0) {
                respondError(socket, 409, "duplicate-customer",
                             QStringLiteral("a customer with id %1 exists").arg(newId));
                return;
            }
            const QJsonObject customer{{"id", newId},
                                       {"name", name},
                                       {"createdAt", iso(QDateTime::currentDateTimeUtc())},
                                       {"secretRotatedAt", QJsonValue::Null},
                                       {"previousSecretExpiresAt", QJsonValue::Null}};
            m_customers.append(customer);
            sendEvent(QStringLiteral("customer.created"), customerJson(customer));
            respondJson(socket, 201,
                        {{"customer", customerJson(customer)}, {"webhookSecret", randomSecret()}});
            return;
        }
        const int i = indexOf(m_customers, id);
        if (i < 0) {
            notFound("customer-not-found", QStringLiteral("customer"));
            return;
        }
        if (get && action.isEmpty()) {
            respondJson(socket, 200, customerJson(m_customers.at(i)));
            return;
        }
        if (post && action == "rotate-secret") {
            const QDateTime now = QDateTime::currentDateTimeUtc();
            m_customers[i].insert("secretRotatedAt", iso(now));
            m_customers[i].insert("previousSecretExpiresAt", iso(now.addSecs(24 * 3600)));
            respondJson(socket, 200,
                        {{"webhookSecret", randomSecret()},
                         {"previousSecretExpiresAt", iso(now.addSecs(24 * 3600))}});
            return;
        }
    } else if (resource == "beers") {
        if (get && id.isEmpty()) {
            const QString name = query.queryItemValue("beerName");
            const QString style = query.queryItemValue("beerStyle");
            QJsonArray items;
            for (const QJsonObject &b : std::as_const(m_beers)) {
                if ((name.isEmpty() || str(b, "beerName").contains(name, Qt::CaseInsensitive)) &&
                    (style.isEmpty() || str(b, "beerStyle") == style))
                    items.append(b);
            }
            respondJson(socket, 200, {{"items", items}});
            return;
        }
        const int i = indexOf(m_beers, id);
        if (i < 0) {
            notFound("beer-not-found", QStringLiteral("beer"));
            return;
        }
        if (post && action == "restock") {
            const int quantity = in.value("quantity").toInt();
            if (quantity < 1 || quantity > 100000) {
                respondError(socket, 400, "validation-failed",
                             "quantity: an integer from 1 to 100000");
                return;
            }
            m_beers[i].insert("quantityOnHand",
                              m_beers.at(i).value("quantityOnHand").toInt() + quantity);
        } else if (post && (action == "discontinue" || action == "reinstate")) {
            m_beers[i].insert("discontinued", action == "discontinue");
        } else {
            respondError(socket, 404, "not_found", "no such admin resource");
            return;
        }
        sendEvent(QStringLiteral("beer.stock"), m_beers.at(i));
        respondJson(socket, 200, m_beers.at(i));
        return;
    } else if (resource == "orders" && id == QLatin1String("lifecycle")) {
        // As the backend: held, created orders wait (counted in backlog); an order.lifecycle
        // event on every change.
        if (post && (action == "hold" || action == "release")) {
            const bool hold = action == QLatin1String("hold");
            if (m_lifecycleHeld != hold) {
                m_lifecycleHeld = hold;
                sendEvent(QStringLiteral("order.lifecycle"), lifecycle());
                if (!hold) {
                    m_lifecycleBacklog = 0;
                    for (const QString &orderId : std::exchange(m_heldOrders, {}))
                        QTimer::singleShot(m_autoAdvanceMs, this,
                                           [this, orderId] { autoAdvance(orderId); });
                }
            }
        } else if (!get || !action.isEmpty()) {
            respondError(socket, 404, "not_found", "no such admin resource");
            return;
        }
        respondJson(socket, 200, lifecycle());
        return;
    } else if (resource == "orders") {
        if (get && id.isEmpty()) {
            const QString customer = query.queryItemValue("customerId");
            const QString status = query.queryItemValue("status");
            const QString before = query.queryItemValue("before");
            bool started = before.isEmpty();
            QJsonArray items;
            for (const QJsonObject &o : std::as_const(m_orders)) {
                if (!started) {
                    started = str(o, "id") == before;
                    continue;
                }
                if ((customer.isEmpty() || str(o, "customerId") == customer) &&
                    (status.isEmpty() || str(o, "orderStatus") == status) && items.size() < limit)
                    items.append(orderJson(o));
            }
            respondJson(socket, 200, {{"items", items}});
            return;
        }
        const int i = indexOf(m_orders, id);
        if (i < 0) {
            notFound("order-not-found", QStringLiteral("order"));
            return;
        }
        if (get && action.isEmpty()) {
            respondJson(socket, 200, order(id));
            return;
        }
        const QString status = str(m_orders.at(i), "orderStatus");
        QString next;
        if (post && action == "pickup" && status == "ALLOCATED")
            next = QStringLiteral("PICKED_UP");
        else if (post && action == "deliver" && status == "PICKED_UP")
            next = QStringLiteral("DELIVERED");
        else if (post && action == "cancel" && cancellable(status))
            next = QStringLiteral("CANCELLED");
        if (post && (action == "pickup" || action == "deliver" || action == "cancel")) {
            if (next.isEmpty()) {
                respondError(socket, 409, "invalid-state-transition",
                             QStringLiteral("cannot %1 an order in status %2").arg(action, status));
                return;
            }
            transition(m_orders[i], next, QDateTime::currentDateTimeUtc());
            respondJson(socket, 200, orderJson(m_orders.at(i)));
            return;
        }
    } else if (resource == "test-orders" && post && id.isEmpty()) {
        const QString customer =
            in.value("customerId").toString().isEmpty() ? customerId(0) : str(in, "customerId");
        if (indexOf(m_customers, customer) < 0) {
            respondError(socket, 404, "customer-not-found",
                         QStringLiteral("no customer with id %1").arg(customer));
            return;
        }
        const QJsonValue ref = in.value("customerRef");
        if (ref.isString()) {
            for (const QJsonObject &o : std::as_const(m_orders)) {
                if (str(o, "customerId") == customer && o.value("customerRef") == ref) {
                    respondError(socket, 409, "duplicate-customer-ref",
                                 QStringLiteral("the customer already has an order with "
                                                "customerRef %1")
                                     .arg(ref.toString()));
                    return;
                }
            }
        }
        QJsonArray lines = in.value("lines").toArray();
        if (!in.contains("lines")) { // like the backend: two beers from the catalog
            for (int b = 0; b < 2; ++b)
                lines.append(
                    QJsonObject{{"upc", m_beers.at(b).value("upc")}, {"orderQuantity", 1}});
        }
        for (const QJsonValue line : lines) {
            const int quantity = line.toObject().value("orderQuantity").toInt();
            if (quantity < 1 || quantity > 999) {
                respondError(socket, 400, "validation-failed",
                             "lines: orderQuantity must be an integer from 1 to 999");
                return;
            }
        }
        respondJson(socket, 201, createOrder(customer, ref, lines, demoReceiverUrl()));
        return;
    } else if (resource == "deliveries") {
        if (get && id.isEmpty()) {
            const QString orderId = query.queryItemValue("orderId");
            const QString state = query.queryItemValue("state");
            const QString endpointId = query.queryItemValue("endpointId");
            QJsonArray items;
            for (const QJsonObject &d : std::as_const(m_deliveries)) {
                if ((orderId.isEmpty() || str(d, "orderId") == orderId) &&
                    (state.isEmpty() || str(d, "state") == state) &&
                    (endpointId.isEmpty() || str(d, "endpointId") == endpointId) &&
                    items.size() < limit)
                    items.append(deliveryJson(d));
            }
            respondJson(socket, 200, {{"items", items}});
            return;
        }
        const int i = indexOf(m_deliveries, id);
        if (i < 0) {
            notFound("delivery-not-found", QStringLiteral("delivery"));
            return;
        }
        if (get && action.isEmpty()) {
            respondJson(socket, 200, delivery(id));
            return;
        }
        if (post && action == "redeliver") {
            QJsonObject &d = m_deliveries[i];
            const int e = indexOf(m_endpoints, str(d, "endpointId"));
            if (e >= 0 && str(m_endpoints.at(e), "state") == QLatin1String("disabled")) {
                respondError(socket, 409, "endpoint-disabled",
                             "the endpoint is disabled; enable it before redelivering");
                return;
            }
            d.insert("state", "pending");
            d.insert("redelivered", true); // the next attempt is a manual one
            d.insert("nextAttemptAt", iso(QDateTime::currentDateTimeUtc()));
            d.insert("completedAt", QJsonValue::Null);
            sendEvent(QStringLiteral("delivery.state"), deliveryJson(d));
            respondJson(socket, 200, deliveryJson(d));
            return;
        }
    } else if (resource == "endpoints") {
        if (get && id.isEmpty()) {
            QJsonArray items;
            for (const QJsonObject &e : std::as_const(m_endpoints))
                items.append(e);
            respondJson(socket, 200, {{"items", items}});
            return;
        }
        const int i = indexOf(m_endpoints, id);
        if (i < 0) {
            notFound("endpoint-not-found", QStringLiteral("endpoint"));
            return;
        }
        if (post && (action == "enable" || action == "disable")) {
            setEndpointState(id, action == "enable" ? "enabled" : "disabled",
                             QStringLiteral("disabled by an administrator"));
            respondJson(socket, 200, m_endpoints.at(i));
            return;
        }
    } else if (resource == "demo-receiver" && get && id.isEmpty()) {
        QJsonArray received;
        for (const QJsonObject &r : std::as_const(m_received))
            received.append(r);
        respondJson(socket, 200, {{"url", demoReceiverUrl()}, {"received", received}});
        return;
    }
    respond(socket, 404, "Not Found", "application/json",
            R"({"error":"not_found","message":"no such admin resource"})");
}
