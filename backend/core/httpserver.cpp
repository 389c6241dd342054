#include "core/httpserver.h"
#include "core/clientaddress.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/httpconnection.h"
#include "core/httpserver_p.h"
#include "core/logging.h"
#include "core/metrics.h"
#include "core/threadstate.h"

#include <QCryptographicHash>
#include <QSemaphore>
#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>

namespace Gatehouse::Core {

QString certificateFingerprint(const QSslCertificate &certificate)
{
    if (certificate.isNull())
        return {};
    return QString::fromLatin1(certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper());
}

ListenerOptions ListenerOptions::fromConfig(const QString &name, const Config &config,
                                            const ListenerSettings &listener)
{
    ListenerOptions o;
    o.name = name;
    o.address = listener.address == QLatin1String("localhost")
                    ? QHostAddress(QHostAddress::LocalHost)
                    : QHostAddress(listener.address);
    o.port = quint16(listener.port);
    o.maxHeaderBytes = config.maxHeaderBytes;
    o.maxBodyBytes = config.maxBodyBytes;
    o.headerTimeoutMs = config.headerTimeoutMs;
    o.bodyTimeoutMs = config.bodyTimeoutMs;
    o.idleTimeoutMs = config.idleTimeoutMs;
    o.handshakeTimeoutMs = config.handshakeTimeoutMs;
    o.maxConnections = config.maxConnections;
    o.maxConnectionsPerClient = config.maxConnectionsPerClient;
    return o;
}

using Internal::Connection;

// The key a client address's connections are counted under: an IPv4 address, or the /64 of
// an IPv6 one (one host's usual share).
QByteArray HttpServer::Private::connectionKey(const QHostAddress &address)
{
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        const quint32 v4 = address.toIPv4Address();
        return QByteArray(reinterpret_cast<const char *>(&v4), sizeof v4);
    }
    const Q_IPV6ADDR v6 = address.toIPv6Address();
    return QByteArray(reinterpret_cast<const char *>(v6.c), 8);
}

void HttpServer::Private::connectionClosed(const QByteArray &clientKey)
{
    if (clientKey.isEmpty())
        return;
    const auto it = perClient.find(clientKey);
    if (it != perClient.end() && --*it <= 0)
        perClient.erase(it);
}

HttpServer::Private::~Private()
{
    pool.waitForDone();
    isolatedPool.waitForDone();
}

void HttpServer::Private::accept()
{
    while (server && server->hasPendingConnections()) {
        QTcpSocket *socket = server->nextPendingConnection();
        if (!socket)
            break;
        // One client address (an IPv6 /64) may hold at most maxConnectionsPerClient of the
        // listener's connections; a trusted proxy's connections carry many clients and are
        // not counted.
        const QHostAddress peer = plainAddress(socket->peerAddress());
        const QByteArray clientKey =
            options.trustedProxies.contains(peer) || options.sharedClients.contains(peer)
                ? QByteArray()
                : connectionKey(peer);
        const bool clientFull =
            !clientKey.isEmpty() && perClient.value(clientKey) >= options.maxConnectionsPerClient;
        if (clientFull)
            qCInfo(lcHttp).noquote()
                << options.name << "refusing a connection from" << peer.toString() << "which holds"
                << options.maxConnectionsPerClient << "already";
        const bool full =
            shuttingDown || connections.size() >= options.maxConnections || clientFull;
        if (full && options.tls) {
            // No handshake for a connection that cannot be served: closed at once.
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            socket->abort();
            socket->deleteLater();
            continue;
        }
        if (full) {
            // Over the cap: a short answer instead of a silent drop.
            const HttpResponse r =
                formatError(503, QStringLiteral("too-many-connections"),
                            QStringLiteral("the server is at its connection limit"));
            QByteArray out =
                "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n";
            for (const auto &h : r.headers)
                out += h.first + ": " + h.second + "\r\n";
            out += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\n\r\n" + r.body;
            socket->write(out);
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            socket->disconnectFromHost();
            continue;
        }
        const quint64 id = nextConnectionId++;
        std::unique_ptr<TlsConnection> tls;
        if (options.tls) {
            tls = options.tls->engine->newConnection();
            if (!tls) {
                qCWarning(lcHttp) << options.name << "cannot start a TLS connection";
                socket->abort();
                socket->deleteLater();
                continue;
            }
        }
        auto *c = new Connection(*this, socket, id, std::move(tls), clientKey);
        c->setParent(this);
        connections.insert(id, c);
        if (!clientKey.isEmpty())
            ++perClient[clientKey];
        metrics.connectionOpened(options.name);
        if (socket->state() != QAbstractSocket::ConnectedState) {
            c->onDisconnected();
            continue;
        }
        if (socket->bytesAvailable() > 0)
            c->onReadyRead();
    }
}

qint64 HttpServer::Private::unsentBytes() const
{
    qint64 total = 0;
    for (const Internal::Connection *c : connections)
        total += c->unsentBytes();
    return total;
}

void HttpServer::Private::sweep()
{
    const auto all = connections.values();
    for (Connection *c : all)
        if (connections.contains(c->id()))
            c->checkTimeouts();
    if (shuttingDown) {
        if (shutdownClock.elapsed() > shutdownGraceMs) {
            const auto rest = connections.values();
            for (Connection *c : rest)
                c->abortNow();
        }
        finishShutdownIfDone();
    }
}

void ResponderHub::post(quint64 connectionId, quint64 seq, HttpResponse response)
{
    QMutexLocker lock(&mutex);
    if (!server)
        return; // the server is gone, and the connection with it
    inbox.push_back(Answer{connectionId, seq, std::move(response)});
    if (drainPosted)
        return; // the call already queued takes this one too
    drainPosted = true;
    HttpServer::Private *srv = server;
    QMetaObject::invokeMethod(
        srv, [srv] { srv->drainAnswers(); }, Qt::QueuedConnection);
}

void HttpServer::Private::drainAnswers()
{
    std::vector<ResponderHub::Answer> answers;
    {
        QMutexLocker lock(&hub->mutex);
        answers.swap(hub->inbox);
        hub->drainPosted = false;
    }
    for (ResponderHub::Answer &a : answers)
        deliver(a.connectionId, a.seq, std::move(a.response));
}

void HttpServer::Private::deliver(quint64 connectionId, quint64 seq, HttpResponse response)
{
    if (Connection *c = connections.value(connectionId))
        c->complete(seq, std::move(response));
    else
        runAfters(connectionId, seq, response); // the client left; what it changed still counts
}

void HttpServer::Private::finishShutdownIfDone()
{
    if (!shuttingDown || !connections.isEmpty() || !shutdownDone)
        return;
    auto done = std::move(shutdownDone);
    shutdownDone = nullptr;
    QMetaObject::invokeMethod(
        this, [done] { done(); }, Qt::QueuedConnection);
}

HttpServer::HttpServer(ListenerOptions options, Metrics &metrics, const Clock &clock,
                       QObject *parent)
    : QObject(parent), d(std::make_unique<Private>(this, std::move(options), metrics, clock))
{
    auto text = [](const QByteArray &body) { return HttpResponse::text(200, body); };
    route("GET", QStringLiteral("/healthz"), [text](const HttpRequest &) { return text("ok"); });
    route("GET", QStringLiteral("/readyz"), [this, text](const HttpRequest &) {
        return d->ready && !d->shuttingDown ? text("ok") : HttpResponse::text(503, "not ready");
    });
}

HttpServer::~HttpServer()
{
    for (QThreadPool *pool : {&d->pool, &d->isolatedPool}) {
        pool->waitForDone();
        if (!ThreadState::hasRelease())
            continue;
        // Each pool thread releases its libraries' state before it ends (core/threadstate.h).
        // One task per thread: each waits until all have started, so no thread takes two.
        const int threads = pool->maxThreadCount();
        QSemaphore arrived;
        QSemaphore proceed;
        for (int i = 0; i < threads; ++i)
            pool->start([&arrived, &proceed] {
                ThreadState::release();
                arrived.release();
                proceed.acquire();
            });
        arrived.tryAcquire(threads, 5000);
        proceed.release(threads);
        pool->waitForDone();
    }
    QMutexLocker lock(&d->hub->mutex);
    d->hub->server = nullptr;
}

void HttpServer::routeDeferred(const QByteArray &method, const QString &pattern,
                               DeferredHandler handler, RouteOptions options)
{
    route(method, pattern, Handler(), options);
    d->routes.last().deferred = std::move(handler);
}

void HttpServer::runOnPool(std::function<void()> work)
{
    d->pool.start(std::move(work));
}

bool HttpServer::tryRunIsolated(std::function<void()> work)
{
    return d->startIsolated(std::move(work));
}

void HttpServer::route(const QByteArray &method, const QString &pattern, Handler handler,
                       RouteOptions options)
{
    Route r;
    r.method = method;
    r.pattern = pattern;
    r.segments = pattern.split(QLatin1Char('/'));
    r.segments.removeFirst();
    if (r.segments.size() > 1 && r.segments.last().isEmpty())
        r.segments.removeLast();
    r.handler = std::move(handler);
    r.options = options;
    d->routes.append(std::move(r));
}

void HttpServer::addObserver(const QString &pathPrefix, Observer observer)
{
    d->observers.append({pathPrefix, std::move(observer)});
}

std::optional<HttpResponse> HttpServer::callLocal(const QByteArray &method,
                                                  const QString &path) const
{
    HttpRequest req;
    req.method = method;
    req.path = path;
    req.target = path.toUtf8();
    req.listener = d->options.name;
    req.requestId = QStringLiteral("local");
    QStringList segments = path.split(QLatin1Char('/'));
    if (!segments.isEmpty())
        segments.removeFirst();
    if (segments.size() > 1 && segments.last().isEmpty())
        segments.removeLast();
    QByteArrayList allowed;
    const Route *route = d->findRoute(method, segments, &req.pathParams, &allowed);
    if (!route || route->deferred || route->options.async || !route->handler)
        return std::nullopt;
    req.route = route->pattern;
    return route->handler(req);
}

void HttpServer::addFilter(const QString &pathPrefix, Filter filter)
{
    d->filters.append({pathPrefix, std::move(filter)});
}

void HttpServer::setFallback(Handler handler, RouteOptions options)
{
    Route r;
    r.pattern = QStringLiteral("fallback");
    r.handler = std::move(handler);
    r.options = options;
    d->fallback = std::move(r);
}

void HttpServer::setFallbackDeferred(DeferredHandler handler, RouteOptions options)
{
    setFallback(Handler(), options);
    d->fallback->deferred = std::move(handler);
}

void HttpServer::clearRoutes()
{
    d->routes.clear();
}

void HttpServer::setErrorFormatter(ErrorFormatter formatter)
{
    d->errorFormatter = std::move(formatter);
}

void HttpServer::setReady(bool ready)
{
    d->ready = ready;
}

bool HttpServer::isReady() const
{
    return d->ready && !d->shuttingDown;
}

Result<void> HttpServer::listen()
{
    const ListenerOptions &o = d->options;
    if (o.tls && !o.tls->engine)
        return makeError(QStringLiteral("listen-failed"),
                         QStringLiteral("%1 listener: TLS settings without a TLS engine "
                                        "(Crypto::tlsServerEngine)")
                             .arg(o.name));
    // TLS runs per connection (Connection::readTls), so every listener is a plain TCP server.
    d->server = std::make_unique<QTcpServer>();
    // Connections are taken at once (the TLS handshake runs in the Connection), so the
    // pending queue never fills; aborted handshakes must never wedge the listener
    // (reference/qhttpserver.md §3).
    d->server->setMaxPendingConnections(100000);
    QObject::connect(d->server.get(), &QTcpServer::pendingConnectionAvailable, d.get(),
                     [this] { d->accept(); });
    if (!d->server->listen(o.address, o.port)) {
        const QString err = d->server->errorString();
        d->server.reset();
        return makeError(QStringLiteral("listen-failed"),
                         QStringLiteral("%1 listener cannot listen on %2:%3: %4")
                             .arg(o.name, o.address.toString())
                             .arg(o.port)
                             .arg(err));
    }
    d->sweepTimer.start();
    qCInfo(lcHttp).noquote() << o.name << "listening on" << url();
    return {};
}

quint16 HttpServer::serverPort() const
{
    return d->server ? d->server->serverPort() : 0;
}

QHostAddress HttpServer::serverAddress() const
{
    return d->server ? d->server->serverAddress() : d->options.address;
}

QString HttpServer::url() const
{
    QString host = serverAddress().toString();
    if (serverAddress().protocol() == QAbstractSocket::IPv6Protocol)
        host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("%1://%2:%3")
        .arg(d->options.tls ? QStringLiteral("https") : QStringLiteral("http"), host)
        .arg(serverPort());
}

const ListenerOptions &HttpServer::options() const
{
    return d->options;
}

int HttpServer::connectionCount() const
{
    return int(d->connections.size());
}

int HttpServer::inFlightCount() const
{
    return d->inFlight;
}

void HttpServer::shutdown(int graceMs, std::function<void()> done)
{
    d->shuttingDown = true;
    d->shutdownGraceMs = graceMs;
    d->shutdownClock.start();
    d->shutdownDone = std::move(done);
    if (d->server)
        d->server->close();
    const auto all = d->connections.values();
    for (Connection *c : all) {
        if (c->phase() == Connection::Phase::Streaming)
            c->endStream();
        else if (c->phase() == Connection::Phase::Handshake)
            c->abortNow();
        else if (c->phase() == Connection::Phase::Idle && !c->hasPending())
            c->closeGracefully();
    }
    d->finishShutdownIfDone();
}

} // namespace Gatehouse::Core
