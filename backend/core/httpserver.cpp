#include "core/httpserver.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/httpparser.h"
#include "core/logging.h"
#include "core/metrics.h"
#include "core/writequeue.h"
#include "platform/platform.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QLocale>
#include <QMutex>
#include <QPointer>
#include <QRandomGenerator>
#include <QSemaphore>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThreadPool>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

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
    return o;
}

namespace {

struct Route
{
    QByteArray method;
    QString pattern;
    QStringList segments; // pattern segments; "{x}" captures, trailing "*" matches the rest
    Handler handler;
    DeferredHandler deferred;
    RouteOptions options;

    bool matchPath(const QStringList &pathSegments, QHash<QString, QString> *params) const
    {
        const bool rest = !segments.isEmpty() && segments.last() == QLatin1String("*");
        const qsizetype fixed = rest ? segments.size() - 1 : segments.size();
        if (rest ? pathSegments.size() < fixed : pathSegments.size() != fixed)
            return false;
        QHash<QString, QString> captured;
        for (qsizetype i = 0; i < fixed; ++i) {
            const QString &s = segments[i];
            if (s.startsWith(QLatin1Char('{')) && s.endsWith(QLatin1Char('}'))) {
                if (pathSegments[i].isEmpty())
                    return false;
                captured.insert(s.mid(1, s.size() - 2), pathSegments[i]);
            } else if (s != pathSegments[i]) {
                return false;
            }
        }
        if (rest)
            captured.insert(QStringLiteral("*"), pathSegments.mid(fixed).join(QLatin1Char('/')));
        if (params)
            *params = std::move(captured);
        return true;
    }
};

QByteArray httpDate(const Clock &clock)
{
    // Formatting a date per response is measurable; cache it per second.
    static thread_local qint64 cachedSecond = -1;
    static thread_local QByteArray cached;
    const qint64 now = clock.now().toSecsSinceEpoch();
    if (now != cachedSecond) {
        cachedSecond = now;
        cached = QLocale::c()
                     .toString(QDateTime::fromSecsSinceEpoch(now, Qt::UTC),
                               QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
                     .toLatin1();
    }
    return cached;
}

// 24 lower-case hex digits: 64 random bits, then 32 more.
QString newRequestId()
{
    quint64 v[2];
    QRandomGenerator::global()->fillRange(v);
    static constexpr char Hex[] = "0123456789abcdef";
    QString id(24, Qt::Uninitialized);
    QChar *out = id.data();
    for (int i = 0; i < 16; ++i)
        out[i] = QLatin1Char(Hex[(v[0] >> (60 - 4 * i)) & 0xf]);
    for (int i = 0; i < 8; ++i)
        out[16 + i] = QLatin1Char(Hex[(v[1] >> (28 - 4 * i)) & 0xf]);
    return id;
}

bool saneRequestId(const QByteArray &v)
{
    if (v.isEmpty() || v.size() > 128)
        return false;
    for (char c : v)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
            return false;
    return true;
}

class Connection;

} // namespace

// Lets Responders outlive the server: they post through the hub, which forgets the
// server when it is destroyed.
struct ResponderHub
{
    QMutex mutex;
    HttpServer::Private *server = nullptr;
    // Answers made on other threads (the database writer, the pool) wait here, and one queued
    // call drains them all: a writer that finishes a batch of N requests wakes the server's
    // thread once instead of N times (each wake-up is a system call).
    struct Answer
    {
        quint64 connectionId = 0;
        quint64 seq = 0;
        HttpResponse response;
    };
    std::vector<Answer> inbox;
    bool drainPosted = false;
    void post(quint64 connectionId, quint64 seq, HttpResponse response);
};

class HttpServer::Private : public QObject
{
public:
    Private(HttpServer *q, ListenerOptions o, Metrics &m, const Clock &c)
        : q(q), options(std::move(o)), metrics(m), clock(c)
    {
        pool.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
        sweepTimer.setInterval(std::clamp(
            std::min({options.headerTimeoutMs, options.idleTimeoutMs, options.bodyTimeoutMs,
                      options.lingerMs, options.handshakeTimeoutMs}) /
                4,
            25, 1000));
        QObject::connect(&sweepTimer, &QTimer::timeout, this, [this] { sweep(); });
        hub->server = this;
    }

    ~Private() override;

    HttpResponse formatError(int status, const QString &code, const QString &message) const
    {
        return errorFormatter ? errorFormatter(status, code, message)
                              : HttpResponse::error(status, code, message);
    }

    const Route *findRoute(const QByteArray &method, const QStringList &segments,
                           QHash<QString, QString> *params, QByteArrayList *allowed) const
    {
        const QByteArray effective = method == "HEAD" ? QByteArray("GET") : method;
        const Route *found = nullptr;
        for (const Route &r : routes) {
            QHash<QString, QString> p;
            if (!r.matchPath(segments, &p))
                continue;
            if (!allowed->contains(r.method))
                allowed->append(r.method);
            if (!found && (r.method == method || r.method == effective)) {
                found = &r;
                *params = std::move(p);
            }
        }
        return found;
    }

    void accept();
    void sweep();
    void deliver(quint64 connectionId, quint64 seq, HttpResponse response);
    void drainAnswers();
    void finishShutdownIfDone();

    HttpServer *q;
    ListenerOptions options;
    Metrics &metrics;
    const Clock &clock;
    QList<Route> routes;
    QList<QPair<QString, Filter>> filters;
    QList<QPair<QString, HttpServer::Observer>> observers;
    // Observers' callbacks by (connection id, request seq), run when the response is complete.
    QHash<QPair<quint64, quint64>, QList<HttpServer::AfterResponse>> afters;
    void runAfters(quint64 connectionId, quint64 seq, const HttpResponse &response)
    {
        const auto it = afters.find(qMakePair(connectionId, seq));
        if (it == afters.end())
            return;
        const QList<HttpServer::AfterResponse> fns = std::move(*it);
        afters.erase(it);
        for (const auto &fn : fns)
            fn(response);
    }
    std::optional<Route> fallback;
    ErrorFormatter errorFormatter;
    bool ready = true;
    std::unique_ptr<QTcpServer> server;
    QHash<quint64, Connection *> connections;
    quint64 nextConnectionId = 1;
    int inFlight = 0;
    QThreadPool pool;
    std::function<void()> poolThreadCleanup;
    std::shared_ptr<ResponderHub> hub = std::make_shared<ResponderHub>();
    QTimer sweepTimer;
    bool shuttingDown = false;
    // Database jobs that requests submit on this thread wake the writer once per event-loop
    // pass (WriteQueue::DeferWakes): a queued call after the pass wakes it.
    bool wakeScheduled = false;
    void scheduleWriterWake()
    {
        if (wakeScheduled || !WriteQueue::hasDeferred())
            return;
        wakeScheduled = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                wakeScheduled = false;
                WriteQueue::wakeDeferred();
            },
            Qt::QueuedConnection);
    }
    QElapsedTimer shutdownClock;
    int shutdownGraceMs = 0;
    std::function<void()> shutdownDone;
};

namespace {

class ConnectionStream;

class Connection : public QObject
{
public:
    enum class Phase { Handshake, Idle, Head, Body, Streaming, Closing };

    // With `tls`, the connection starts in the TLS handshake (Phase::Handshake); the request
    // parser only ever sees decrypted bytes.
    Connection(HttpServer::Private &srv, QTcpSocket *socket, quint64 id,
               std::unique_ptr<TlsConnection> tls)
        : m_srv(srv), m_socket(socket), m_id(id), m_tlsConnection(std::move(tls))
    {
        socket->setParent(this);
        // Bounded socket buffer: a client that sends faster than we parse is throttled by TCP.
        socket->setReadBufferSize(std::max<qint64>(64 * 1024, srv.options.maxHeaderBytes + 4096));
        m_tls = m_tlsConnection != nullptr;
        if (m_tls) {
            // Handshake flights and the response are each one write; Nagle would hold the
            // next one back until the peer's (delayed) ACK.
            socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            m_phase = Phase::Handshake;
            m_phaseClock.start();
        }
        m_idleClock.start();
        QObject::connect(socket, &QTcpSocket::readyRead, this, [this] { onReadyRead(); });
        QObject::connect(socket, &QTcpSocket::disconnected, this, [this] { onDisconnected(); });
        QObject::connect(socket, &QTcpSocket::bytesWritten, this, [this] { onBytesWritten(); });
    }

    quint64 id() const { return m_id; }
    Phase phase() const { return m_phase; }
    bool hasPending() const { return !m_pending.empty(); }

    // Ciphertext in, plaintext out: runs the handshake, then decrypts into `plaintext`. False
    // when the connection is over (handshake failed, peer closed).
    bool readTls(QByteArray &plaintext)
    {
        const QByteArray raw = m_socket->readAll();
        m_tlsConnection->receive(raw.constData(), raw.size());
        const bool wasHandshaking = m_phase == Phase::Handshake;
        const TlsConnection::State state = m_tlsConnection->advance(plaintext);
        flushTls();
        switch (state) {
        case TlsConnection::State::Handshaking:
            return true;
        case TlsConnection::State::Established:
            if (wasHandshaking) {
                m_identity = m_tlsConnection->peerIdentity();
                m_phase = Phase::Idle;
                m_idleClock.start();
            }
            return true;
        case TlsConnection::State::Closed: // the client's close_notify: it sends no more
            if (wasHandshaking) {          // (it may come right behind its Finished)
                m_identity = m_tlsConnection->peerIdentity();
                m_phase = Phase::Idle;
            }
            m_peerClosed = true;
            if (m_phase == Phase::Streaming) {
                closeTransport(); // nobody reads the stream any more
                return false;
            }
            if (m_phase != Phase::Closing) {
                m_in += plaintext;
                process(); // what came before it is still answered
            }
            plaintext.clear();
            if (m_pending.empty() && m_phase != Phase::Closing)
                closeGracefully(); // else once the last answer is written (flush)
            return false;
        case TlsConnection::State::Failed:
            qCDebug(lcHttp).noquote()
                << m_srv.options.name
                << "TLS handshake or record failed:" << m_tlsConnection->errorString();
            m_socket->disconnectFromHost(); // after the alert that flushTls() queued
            return false;
        }
        return false;
    }

    void flushTls()
    {
        const QByteArray out = m_tlsConnection->takeOutgoing();
        if (out.isEmpty())
            return;
        if (m_gone || !m_socket->isOpen())
            return;
        m_socket->write(out);
        // Written now, not when the event loop comes round again: a handshake flight or a
        // response would otherwise wait behind every other connection's handshake work. A
        // write error here closes the socket at once (disconnected, onDisconnected): callers
        // check m_gone.
        m_socket->flush();
    }

    // Every byte the server sends goes through here (encrypted on a TLS connection).
    void send(const QByteArray &data)
    {
        if (m_gone || !m_socket->isOpen())
            return; // the socket went away under an earlier write of this call chain
        if (!m_tls) {
            m_socket->write(data);
            return;
        }
        m_tlsConnection->send(data.constData(), data.size());
        flushTls();
        if (m_tlsConnection->state() == TlsConnection::State::Failed)
            abortNow(); // nothing more can be sent on it
    }

    // Ends the connection: close_notify first on TLS (as QSslSocket did), then the TCP close
    // once everything is written.
    void closeTransport()
    {
        if (m_tls) {
            m_tlsConnection->close();
            flushTls();
        }
        m_socket->disconnectFromHost();
    }

    void onReadyRead()
    {
        m_idleClock.start();
        if (m_tls) {
            QByteArray plaintext;
            if (!readTls(plaintext) || m_phase == Phase::Handshake)
                return;
            if (m_phase == Phase::Closing || m_phase == Phase::Streaming)
                return; // drained (decrypted and dropped)
            m_in += plaintext;
            process();
            return;
        }
        if (m_phase == Phase::Closing || m_phase == Phase::Streaming) {
            m_socket->skip(m_socket->bytesAvailable()); // drain without buffering
            return;
        }
        m_in += m_socket->readAll();
        process();
    }

    void process()
    {
        while (m_phase != Phase::Closing && m_phase != Phase::Streaming &&
               m_phase != Phase::Handshake) {
            if (m_gone)
                return; // a failed write (flushTls) closed the socket: nothing more is read
            if (qsizetype(m_pending.size()) >= m_srv.options.maxPipelined)
                return; // back-pressure: resume when responses drain
            if (m_phase == Phase::Idle) {
                if (m_in.isEmpty())
                    return;
                m_phase = Phase::Head;
                m_phaseClock.start();
            }
            if (m_phase == Phase::Head && !parseHead())
                return;
            if (m_phase == Phase::Body && !readBody())
                return;
        }
    }

    // Returns true when the head was consumed (phase moved on), false when more input is needed
    // or the connection is being closed.
    bool parseHead()
    {
        QByteArray headBytes;
        qsizetype consumed = 0;
        Http1::ParseError error;
        switch (
            Http1::takeHead(m_in, m_srv.options.maxHeaderBytes, &headBytes, &consumed, &error)) {
        case Http1::HeadStatus::NeedMore:
            m_in.remove(0, consumed);
            if (m_in.isEmpty())
                m_phase = Phase::Idle;
            return false;
        case Http1::HeadStatus::Error:
            failAndClose(error.status, error.code, error.message);
            return false;
        case Http1::HeadStatus::Complete:
            m_in.remove(0, consumed);
            break;
        }
        auto parsed = Http1::parseHead(headBytes);
        if (auto *e = std::get_if<Http1::ParseError>(&parsed)) {
            failAndClose(e->status, e->code, e->message);
            return false;
        }
        Http1::RequestHead &head = std::get<Http1::RequestHead>(parsed);

        HttpRequest req;
        req.listener = m_srv.options.name;
        req.peerAddress = m_socket->peerAddress();
        req.peerPort = m_socket->peerPort();
        req.identity = m_identity;
        req.tls = m_tls;
        req.method = std::move(head.method);
        req.target = std::move(head.target);
        req.httpMinorVersion = head.minorVersion;
        req.headers = std::move(head.headers);
        req.path = std::move(head.path);
        req.query = std::move(head.query);
        m_keepAlive = head.keepAlive;
        const QByteArray rid = req.header("x-request-id");
        req.requestId = saneRequestId(rid) ? QString::fromLatin1(rid) : newRequestId();

        QByteArrayList allowed;
        m_route = m_srv.findRoute(req.method, head.segments, &req.pathParams, &allowed);
        m_allowed = allowed;
        if (!m_route && allowed.isEmpty() && m_srv.fallback)
            m_route = &*m_srv.fallback;
        req.route = m_route ? m_route->pattern : QStringLiteral("unmatched");

        m_bodyLimit = m_route && m_route->options.maxBodyBytes >= 0 ? m_route->options.maxBodyBytes
                                                                    : m_srv.options.maxBodyBytes;
        m_chunked = head.chunked;
        m_remaining = head.contentLength;
        m_chunkDecoder.reset();
        m_current = std::move(req);
        if (!m_chunked && m_remaining > m_bodyLimit) {
            failAndClose(413, QStringLiteral("request-body-too-large"),
                         QStringLiteral("request body of %1 bytes exceeds the limit of %2 bytes")
                             .arg(m_remaining)
                             .arg(m_bodyLimit));
            return false;
        }
        if (head.expectContinue && (m_chunked || m_remaining > 0) && m_pending.empty() &&
            m_in.isEmpty())
            send(QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n"));
        m_phase = Phase::Body;
        m_phaseClock.start();
        return true;
    }

    bool readBody()
    {
        if (!m_chunked) {
            if (m_in.size() < m_remaining)
                return false;
            m_current.body = m_in.left(m_remaining);
            m_in.remove(0, m_remaining);
            m_remaining = 0;
            dispatch();
            return true;
        }
        Http1::ParseError error;
        switch (m_chunkDecoder.feed(m_in, m_current.body, m_bodyLimit, m_srv.options.maxHeaderBytes,
                                    &error)) {
        case Http1::ChunkedDecoder::Status::NeedMore:
            return false;
        case Http1::ChunkedDecoder::Status::Error:
            failAndClose(error.status, error.code, error.message);
            return false;
        case Http1::ChunkedDecoder::Status::Done:
            dispatch();
            return true;
        }
        return false;
    }

    struct Pending
    {
        bool ready = false;
        bool head = false;
        bool close = false;
        int httpMinor = 1;
        QByteArray method;
        QString path;
        QString route;
        QString requestId;
        QElapsedTimer started;
        HttpResponse response;
    };

    void dispatch()
    {
        // The writes of this request wait for the others of this pass (group commit).
        struct GroupCommit
        {
            HttpServer::Private &srv;
            WriteQueue::DeferWakes defer;
            explicit GroupCommit(HttpServer::Private &s) : srv(s) {}
            GroupCommit(const GroupCommit &) = delete;
            GroupCommit &operator=(const GroupCommit &) = delete;
            ~GroupCommit() { srv.scheduleWriterWake(); }
        } groupCommit(m_srv);
        HttpRequest req = std::move(m_current);
        m_current = HttpRequest();
        const quint64 seq = m_nextSeq++;
        Pending &p = m_pending[seq];
        p.started.start();
        p.head = req.method == "HEAD";
        p.close = !m_keepAlive || m_srv.shuttingDown;
        p.httpMinor = req.httpMinorVersion;
        p.method = req.method;
        p.path = req.path;
        p.route = req.route;
        p.requestId = req.requestId;
        ++m_srv.inFlight;
        m_phase = p.close ? Phase::Closing : Phase::Idle;

        for (const auto &f : std::as_const(m_srv.filters)) {
            if (req.path.startsWith(f.first)) {
                if (std::optional<HttpResponse> r = f.second(req)) {
                    complete(seq, std::move(*r));
                    return;
                }
            }
        }
        for (const auto &o : std::as_const(m_srv.observers))
            if (req.path.startsWith(o.first))
                if (HttpServer::AfterResponse after = o.second(req))
                    m_srv.afters[qMakePair(m_id, seq)].append(std::move(after));
        if (!m_route) {
            if (!m_allowed.isEmpty()) {
                QByteArrayList allow = m_allowed;
                if (allow.contains("GET") && !allow.contains("HEAD"))
                    allow.append("HEAD");
                HttpResponse r =
                    m_srv.formatError(405, QStringLiteral("method-not-allowed"),
                                      QStringLiteral("method %1 is not allowed on %2")
                                          .arg(QString::fromLatin1(req.method), req.path));
                r.setHeader("Allow", allow.join(", "));
                complete(seq, std::move(r));
            } else {
                complete(seq, m_srv.formatError(404, QStringLiteral("not-found"),
                                                QStringLiteral("no such path: %1").arg(req.path)));
            }
            return;
        }
        const Route *route = m_route;
        if (route->deferred) {
            std::shared_ptr<ResponderHub> hub = m_srv.hub;
            const quint64 cid = m_id;
            Responder respond = [hub, cid, seq](HttpResponse resp) {
                hub->post(cid, seq, std::move(resp));
            };
            if (!route->options.async) {
                route->deferred(req, respond);
                return;
            }
            // CPU-heavy first part (a password hash) on the pool, then answered later.
            DeferredHandler handler = route->deferred;
            m_srv.pool.start([handler, respond, req = std::move(req)]() { handler(req, respond); });
            return;
        }
        if (!route->options.async) {
            complete(seq, route->handler(req));
            return;
        }
        // CPU-heavy handler on the pool; the result comes back to this thread through the
        // server, which drops it if the connection has gone in the meantime.
        std::shared_ptr<ResponderHub> hub = m_srv.hub;
        const quint64 cid = m_id;
        Handler handler = route->handler;
        m_srv.pool.start([hub, cid, seq, handler, req = std::move(req)]() {
            hub->post(cid, seq, handler(req));
        });
    }

    void complete(quint64 seq, HttpResponse response)
    {
        m_srv.runAfters(m_id, seq, response);
        auto it = m_pending.find(seq);
        if (it == m_pending.end())
            return;
        it->second.response = std::move(response);
        it->second.ready = true;
        flush();
    }

    void flush()
    {
        while (!m_pending.empty() && m_pending.begin()->second.ready) {
            Pending p = std::move(m_pending.begin()->second);
            m_pending.erase(m_pending.begin());
            --m_srv.inFlight;
            const bool streaming = bool(p.response.stream);
            writeResponse(p);
            if (streaming) {
                if (!m_gone) // the header write can fail and end the connection at once
                    startStream(p.response.stream);
                return;
            }
            if (p.close) {
                closeGracefully();
                return;
            }
        }
        m_idleClock.start();
        const bool peerDone =
            m_peerClosed && m_phase != Phase::Closing && m_phase != Phase::Streaming;
        if (m_pending.empty() && ((m_srv.shuttingDown && m_phase == Phase::Idle) || peerDone)) {
            closeGracefully(); // (peerDone: the last answer to a client that sent close_notify)
            return;
        }
        // Responses drained: continue parsing pipelined input held back by back-pressure.
        if (m_phase != Phase::Closing && !m_in.isEmpty())
            QMetaObject::invokeMethod(
                this, [this] { process(); }, Qt::QueuedConnection);
        if (m_phase != Phase::Closing && m_socket->bytesAvailable() > 0)
            QMetaObject::invokeMethod(
                this, [this] { onReadyRead(); }, Qt::QueuedConnection);
    }

    void writeResponse(Pending &p)
    {
        HttpResponse &r = p.response;
        // Appended piece by piece: no temporaries (operator+ would build one per header).
        QByteArray out;
        out.reserve(256 + r.body.size());
        auto line = [&out](const QByteArray &name, const QByteArray &value) {
            out.append(name).append(": ", 2).append(value).append("\r\n", 2);
        };
        out.append("HTTP/1.1 ", 9)
            .append(QByteArray::number(r.status))
            .append(' ')
            .append(reasonPhrase(r.status))
            .append("\r\n", 2);
        for (const auto &h : std::as_const(r.headers)) {
            if (h.first.compare("content-length", Qt::CaseInsensitive) == 0 ||
                h.first.compare("connection", Qt::CaseInsensitive) == 0 ||
                h.first.compare("transfer-encoding", Qt::CaseInsensitive) == 0)
                continue; // framing is ours
            line(h.first, h.second);
        }
        line(QByteArrayLiteral("Date"), httpDate(m_srv.clock));
        if (r.header("x-request-id").isEmpty())
            line(QByteArrayLiteral("X-Request-Id"), p.requestId.toLatin1());
        const bool noBody =
            r.status == 204 || r.status == 304 || (r.status >= 100 && r.status < 200);
        if (r.stream) {
            if (p.httpMinor == 1)
                out.append("Transfer-Encoding: chunked\r\n");
            out.append("Cache-Control: no-store\r\nConnection: close\r\n");
            m_streamChunked = p.httpMinor == 1;
        } else {
            if (!noBody)
                line(QByteArrayLiteral("Content-Length"), QByteArray::number(r.body.size()));
            if (p.close)
                out.append("Connection: close\r\n");
            else if (p.httpMinor == 0)
                out.append("Connection: keep-alive\r\n");
        }
        out.append("\r\n", 2);
        if (!p.head && !noBody && !r.stream)
            out.append(r.body);
        send(out);
        const double seconds = p.started.nsecsElapsed() / 1e9;
        m_srv.metrics.recordRequest(m_srv.options.name, p.route, p.method, r.status, seconds);
        // Path only: query strings can carry codes and tokens.
        qCInfo(lcAccess).noquote()
            << m_srv.options.name << m_socket->peerAddress().toString()
            << '"' + QString::fromLatin1(p.method) + ' ' + p.path + '"' << r.status << r.body.size()
            << QString::number(seconds * 1000.0, 'f', 2) + QStringLiteral("ms")
            << QStringLiteral("rid=") + p.requestId;
        emit m_srv.q->requestFinished(p.route, r.status);
    }

    void startStream(const std::function<void(HttpStream *)> &onStream);

    void writeChunk(const QByteArray &data)
    {
        if (data.isEmpty())
            return;
        if (m_streamChunked)
            send(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
        else
            send(data);
    }

    void endStream()
    {
        if (m_streamChunked)
            send(QByteArrayLiteral("0\r\n\r\n"));
        closeGracefully();
    }

    // Error generated by the core: answered in order after earlier pipelined responses,
    // with Connection: close; input after it is discarded.
    void failAndClose(int status, const QString &code, const QString &message)
    {
        qCDebug(lcHttp) << m_srv.options.name << "closing connection:" << status << message;
        const quint64 seq = m_nextSeq++;
        Pending &p = m_pending[seq];
        p.started.start();
        p.close = true;
        p.method = m_current.method.isEmpty() ? QByteArray("-") : m_current.method;
        p.path = m_current.path;
        p.route = QStringLiteral("error");
        p.requestId = m_current.requestId.isEmpty() ? newRequestId() : m_current.requestId;
        ++m_srv.inFlight;
        m_in.clear();
        m_phase = Phase::Closing;
        m_socket->setReadBufferSize(64 * 1024);
        complete(seq, m_srv.formatError(status, code, message));
    }

    void closeGracefully()
    {
        m_phase = Phase::Closing;
        m_closeRequested = true;
        m_lingerClock.start();
        onBytesWritten();
    }

    void onBytesWritten()
    {
        if (!m_closeRequested || m_halfClosed || m_socket->bytesToWrite() > 0)
            return;
        m_halfClosed = true;
        m_lingerClock.start();
        // Half-close and keep draining so that unread request bytes do not turn the close
        // into a reset that destroys the response before the client reads it.
        if (!m_tls && m_socket->socketDescriptor() >= 0 &&
            Platform::shutdownWrite(m_socket->socketDescriptor()))
            return;
        closeTransport();
    }

    void abortNow() { m_socket->abort(); }

    // Called by the server's sweep timer.
    void checkTimeouts()
    {
        const auto &o = m_srv.options;
        switch (m_phase) {
        case Phase::Handshake:
            if (m_phaseClock.elapsed() > o.handshakeTimeoutMs)
                abortNow();
            break;
        case Phase::Idle:
            if (m_pending.empty() && m_idleClock.elapsed() > o.idleTimeoutMs)
                closeTransport();
            break;
        case Phase::Head:
            if (m_phaseClock.elapsed() > o.headerTimeoutMs)
                failAndClose(408, QStringLiteral("request-timeout"),
                             QStringLiteral("request headers not received within %1 ms")
                                 .arg(o.headerTimeoutMs));
            break;
        case Phase::Body:
            if (m_phaseClock.elapsed() > o.bodyTimeoutMs)
                failAndClose(
                    408, QStringLiteral("request-timeout"),
                    QStringLiteral("request body not received within %1 ms").arg(o.bodyTimeoutMs));
            break;
        case Phase::Closing:
            if (m_closeRequested && m_lingerClock.elapsed() > o.lingerMs + o.idleTimeoutMs / 4 &&
                !m_halfClosed)
                abortNow(); // the client does not read its response
            else if (m_halfClosed && m_lingerClock.elapsed() > o.lingerMs)
                abortNow();
            break;
        case Phase::Streaming:
            break;
        }
    }

    void onDisconnected();

    HttpServer::Private &m_srv;
    QTcpSocket *m_socket;
    quint64 m_id;
    std::unique_ptr<TlsConnection> m_tlsConnection;
    bool m_tls = false;
    PeerIdentity m_identity;
    QElapsedTimer m_phaseClock;
    QElapsedTimer m_idleClock;
    QElapsedTimer m_lingerClock;
    Phase m_phase = Phase::Idle;
    QByteArray m_in;
    HttpRequest m_current;
    const Route *m_route = nullptr;
    QByteArrayList m_allowed;
    qint64 m_bodyLimit = 0;
    qint64 m_remaining = 0;
    Http1::ChunkedDecoder m_chunkDecoder;
    bool m_chunked = false;
    bool m_keepAlive = true;
    bool m_closeRequested = false;
    bool m_halfClosed = false;
    bool m_streamChunked = false;
    bool m_gone = false;
    bool m_peerClosed = false; // TLS: the client's close_notify arrived
    quint64 m_nextSeq = 0;
    std::map<quint64, Pending> m_pending;
    QPointer<HttpStream> m_stream;
};

class ConnectionStream final : public HttpStream
{
public:
    explicit ConnectionStream(Connection *c) : HttpStream(c), m_connection(c) {}
    void write(const QByteArray &data) override
    {
        if (m_open)
            m_connection->writeChunk(data);
    }
    void close() override
    {
        if (!m_open)
            return;
        m_open = false;
        m_connection->endStream();
        emit closed();
    }
    bool isOpen() const override { return m_open; }
    void markGone()
    {
        if (m_open) {
            m_open = false;
            emit closed();
        }
    }

private:
    Connection *m_connection;
    bool m_open = true;
};

void Connection::startStream(const std::function<void(HttpStream *)> &onStream)
{
    m_phase = Phase::Streaming;
    m_in.clear();
    auto *stream = new ConnectionStream(this);
    m_stream = stream;
    onStream(stream);
}

void Connection::onDisconnected()
{
    if (m_gone)
        return;
    m_gone = true;
    if (auto *s = static_cast<ConnectionStream *>(m_stream.data()))
        s->markGone();
    m_srv.inFlight -= int(m_pending.size());
    m_pending.clear();
    m_srv.connections.remove(m_id);
    m_srv.metrics.connectionClosed(m_srv.options.name);
    deleteLater();
    m_srv.finishShutdownIfDone();
}

} // namespace

HttpServer::Private::~Private()
{
    pool.waitForDone();
}

void HttpServer::Private::accept()
{
    while (server && server->hasPendingConnections()) {
        QTcpSocket *socket = server->nextPendingConnection();
        if (!socket)
            break;
        if ((shuttingDown || connections.size() >= options.maxConnections) && options.tls) {
            // No handshake for a connection that cannot be served: closed at once.
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            socket->abort();
            socket->deleteLater();
            continue;
        }
        if (shuttingDown || connections.size() >= options.maxConnections) {
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
        auto *c = new Connection(*this, socket, id, std::move(tls));
        c->setParent(this);
        connections.insert(id, c);
        metrics.connectionOpened(options.name);
        if (socket->state() != QAbstractSocket::ConnectedState) {
            c->onDisconnected();
            continue;
        }
        if (socket->bytesAvailable() > 0)
            c->onReadyRead();
    }
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
    d->pool.waitForDone();
    if (d->poolThreadCleanup) {
        // One task per thread: each waits until all have started, so no thread takes two.
        const int threads = d->pool.maxThreadCount();
        QSemaphore arrived;
        QSemaphore proceed;
        const std::function<void()> &cleanup = d->poolThreadCleanup;
        for (int i = 0; i < threads; ++i)
            d->pool.start([&cleanup, &arrived, &proceed] {
                cleanup();
                arrived.release();
                proceed.acquire();
            });
        arrived.tryAcquire(threads, 5000);
        proceed.release(threads);
        d->pool.waitForDone();
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

void HttpServer::setPoolThreadCleanup(std::function<void()> cleanup)
{
    d->poolThreadCleanup = std::move(cleanup);
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
