#include "core/httpconnection.h"
#include "core/clock.h"
#include "core/logging.h"
#include "core/metrics.h"
#include "platform/platform.h"

#include <QDateTime>
#include <QLocale>
#include <QRandomGenerator>
#include <QUrl>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace Gatehouse::Core::Internal {

namespace {

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
} // namespace

Connection::Connection(HttpServer::Private &srv, QTcpSocket *socket, quint64 id,
                       std::unique_ptr<TlsConnection> tls, QByteArray clientKey)
    : m_srv(srv), m_socket(socket), m_id(id), m_clientKey(std::move(clientKey)),
      m_tlsConnection(std::move(tls))
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

bool Connection::readTls(QByteArray &plaintext)
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
        qCDebug(lcHttp).noquote() << m_srv.options.name << "TLS handshake or record failed:"
                                  << m_tlsConnection->errorString();
        m_socket->disconnectFromHost(); // after the alert that flushTls() queued
        return false;
    }
    return false;
}

void Connection::flushTls()
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

void Connection::send(const QByteArray &data)
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

void Connection::closeTransport()
{
    if (m_tls) {
        m_tlsConnection->close();
        flushTls();
    }
    m_socket->disconnectFromHost();
}

void Connection::onReadyRead()
{
    // (No restart of m_idleClock here: it starts when the last answer is flushed. Bytes that
    // start no request, such as empty lines, must not keep an idle connection alive.)
    // Back-pressure: with the pipeline full nothing is read, so the socket's bounded buffer
    // fills and TCP throttles the client; flush() reads again once answers drain. (Reading on
    // would buffer whatever a client streams behind requests that take long.)
    // The same while the answers already made wait for the client to read them: a client
    // that pipelines requests and never reads would otherwise have every answer held here.
    if (m_phase != Phase::Closing && m_phase != Phase::Streaming && m_phase != Phase::Handshake) {
        if (qsizetype(m_pending.size()) >= m_srv.options.maxPipelined)
            return;
        if (outputBacklogged()) {
            m_heldBack = true; // onBytesWritten() reads again
            return;
        }
    }
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

void Connection::process()
{
    while (m_phase != Phase::Closing && m_phase != Phase::Streaming &&
           m_phase != Phase::Handshake) {
        if (m_gone)
            return; // a failed write (flushTls) closed the socket: nothing more is read
        if (qsizetype(m_pending.size()) >= m_srv.options.maxPipelined)
            return; // back-pressure: resume when responses drain
        if (outputBacklogged()) {
            m_heldBack = true; // resumed by onBytesWritten() once the client reads
            return;
        }
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

bool Connection::parseHead()
{
    QByteArray headBytes;
    qsizetype consumed = 0;
    Http1::ParseError error;
    switch (Http1::takeHead(m_in, m_srv.options.maxHeaderBytes, &headBytes, &consumed, &error)) {
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
    const ClientAddress from =
        clientAddress(m_socket->peerAddress(), head.headers, m_srv.options.trustedProxies);
    req.peerAddress = from.client;
    req.forwardedBy = from.forwarder;
    req.peerPort = m_socket->peerPort();
    req.localAddress = m_socket->localAddress();
    req.localPort = m_socket->localPort();
    req.identity = m_identity.at(QDateTime::currentMSecsSinceEpoch());
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
    // The filters (the admin token, the orders API's bearer token) read only the head: they
    // run before the body is read, so that nobody without credentials makes the server hold
    // a body. A refused request with a body ends the connection (its body is never read); one
    // without is answered in order as any other (dispatch).
    m_filtered.reset();
    for (const auto &f : std::as_const(m_srv.filters)) {
        if (m_current.path.startsWith(f.first)) {
            if (std::optional<HttpResponse> r = f.second(m_current)) {
                m_filtered = std::move(r);
                break;
            }
        }
    }
    if (m_filtered && (m_chunked || m_remaining > 0)) {
        HttpResponse refused = std::move(*m_filtered);
        m_filtered.reset();
        answerAndClose(std::move(refused), m_current.route);
        return false;
    }
    // Room for the whole body at once (it was grown by doubling: a 1 MB body held 2 MB).
    if (!m_chunked && m_remaining > 0)
        m_in.reserve(std::max<qint64>(m_in.size(), m_remaining) + 4096);
    if (head.expectContinue && (m_chunked || m_remaining > 0) && m_pending.empty() &&
        m_in.isEmpty())
        send(QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n"));
    m_phase = Phase::Body;
    m_phaseClock.start();
    return true;
}

bool Connection::readBody()
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

void Connection::dispatch()
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
    p.client = req.forwardedBy.isNull()
                   ? req.peerAddress.toString()
                   : QStringLiteral("%1 via=%2")
                         .arg(req.peerAddress.toString(), req.forwardedBy.toString());
    ++m_srv.inFlight;
    m_phase = p.close ? Phase::Closing : Phase::Idle;
    m_served = true;

    if (m_filtered) { // a filter refused it when its head was read (parseHead)
        HttpResponse refused = std::move(*m_filtered);
        m_filtered.reset();
        complete(seq, std::move(refused));
        return;
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
            HttpResponse r = m_srv.formatError(405, QStringLiteral("method-not-allowed"),
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
        if (route->options.isolated) {
            if (!m_srv.startIsolated([handler, respond, req]() mutable { handler(req, respond); }))
                respond(m_srv.isolatedBusy());
            return;
        }
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
    if (route->options.isolated) {
        if (!m_srv.startIsolated(
                [hub, cid, seq, handler, req]() { hub->post(cid, seq, handler(req)); }))
            complete(seq, m_srv.isolatedBusy());
        return;
    }
    m_srv.pool.start(
        [hub, cid, seq, handler, req = std::move(req)]() { hub->post(cid, seq, handler(req)); });
}

void Connection::complete(quint64 seq, HttpResponse response)
{
    m_srv.runAfters(m_id, seq, response);
    auto it = m_pending.find(seq);
    if (it == m_pending.end())
        return;
    it->second.response = std::move(response);
    it->second.ready = true;
    flush();
}

void Connection::flush()
{
    while (!m_pending.empty() && m_pending.begin()->second.ready) {
        Pending p = std::move(m_pending.begin()->second);
        m_pending.erase(m_pending.begin());
        --m_srv.inFlight;
        // HEAD of a stream (an event stream, a watch): its head only, then the connection ends
        // (its head says so); the stream is never started.
        const bool headOfStream = p.head && p.response.stream;
        const bool streaming = p.response.stream && !p.head;
        writeResponse(p);
        if (streaming) {
            if (!m_gone) // the header write can fail and end the connection at once
                startStream(p.response.stream);
            return;
        }
        if (p.close || headOfStream) {
            closeGracefully();
            return;
        }
    }
    m_idleClock.start();
    const bool peerDone = m_peerClosed && m_phase != Phase::Closing && m_phase != Phase::Streaming;
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

void Connection::writeResponse(Pending &p)
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
    const bool noBody = r.status == 204 || r.status == 304 || (r.status >= 100 && r.status < 200);
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
    logAccess(p, r.status, r.body.size(), seconds);
    emit m_srv.q->requestFinished(p.route, r.status);
}

void Connection::logAccess(const Pending &p, int status, qint64 bytes, double seconds) const
{
    // Path only: query strings can carry codes and tokens. Control characters (a decoded %0A)
    // are written %-encoded: a client cannot start a line of its own in the log.
    const QString loggedPath = loggable(p.path);
    qCInfo(lcAccess).noquote() << m_srv.options.name << p.client
                               << '"' + QString::fromLatin1(p.method) + ' ' + loggedPath + '"'
                               << status << bytes
                               << QString::number(seconds * 1000.0, 'f', 2) + QStringLiteral("ms")
                               << QStringLiteral("rid=") + p.requestId;
}

void Connection::writeChunk(const QByteArray &data)
{
    if (data.isEmpty())
        return;
    if (m_streamChunked)
        send(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    else
        send(data);
    const qint64 backlog = m_gone || m_backlogDropped ? 0 : m_socket->bytesToWrite();
    const bool over = backlog > m_srv.options.maxStreamBacklogBytes ||
                      (backlog > ListenerOptions::kStreamShareBytes &&
                       m_srv.unsentBytes() > m_srv.options.maxStreamBacklogTotalBytes);
    if (over) {
        m_backlogDropped = true;
        qCInfo(lcHttp).noquote() << m_srv.options.name << "dropping a stream whose reader holds"
                                 << backlog << "bytes unread";
        // Not from inside the writer's call: it may still be iterating its own state.
        QMetaObject::invokeMethod(
            this, [this] { abortNow(); }, Qt::QueuedConnection);
    }
}

void Connection::endStream()
{
    if (m_streamChunked)
        send(QByteArrayLiteral("0\r\n\r\n"));
    closeGracefully();
}

void Connection::failAndClose(int status, const QString &code, const QString &message)
{
    qCDebug(lcHttp) << m_srv.options.name << "closing connection:" << status << message;
    answerAndClose(m_srv.formatError(status, code, message), QStringLiteral("error"));
}

void Connection::answerAndClose(HttpResponse response, const QString &route)
{
    const quint64 seq = m_nextSeq++;
    Pending &p = m_pending[seq];
    p.started.start();
    p.close = true;
    p.method = m_current.method.isEmpty() ? QByteArray("-") : m_current.method;
    p.path = m_current.path;
    p.route = route;
    p.requestId = m_current.requestId.isEmpty() ? newRequestId() : m_current.requestId;
    p.client = m_current.peerAddress.isNull()
                   ? plainAddress(m_socket->peerAddress()).toString()
                   : (m_current.forwardedBy.isNull() ? m_current.peerAddress.toString()
                                                     : QStringLiteral("%1 via=%2")
                                                           .arg(m_current.peerAddress.toString(),
                                                                m_current.forwardedBy.toString()));
    ++m_srv.inFlight;
    m_in.clear();
    m_phase = Phase::Closing;
    m_socket->setReadBufferSize(64 * 1024);
    complete(seq, std::move(response));
}

bool Connection::outputBacklogged() const
{
    return m_socket->bytesToWrite() > m_srv.options.maxUnsentBytes;
}

void Connection::closeGracefully()
{
    m_phase = Phase::Closing;
    m_closeRequested = true;
    m_lingerClock.start();
    onBytesWritten();
}

void Connection::onBytesWritten()
{
    if (m_heldBack && !m_closeRequested && !outputBacklogged()) {
        // The client read enough of its answers: its requests are read again.
        m_heldBack = false;
        if (m_phase != Phase::Closing && m_phase != Phase::Streaming) {
            if (!m_in.isEmpty())
                QMetaObject::invokeMethod(
                    this, [this] { process(); }, Qt::QueuedConnection);
            if (m_socket->bytesAvailable() > 0)
                QMetaObject::invokeMethod(
                    this, [this] { onReadyRead(); }, Qt::QueuedConnection);
        }
    }
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

void Connection::checkTimeouts()
{
    const auto &o = m_srv.options;
    switch (m_phase) {
    case Phase::Handshake:
        if (m_phaseClock.elapsed() > o.handshakeTimeoutMs)
            abortNow();
        break;
    case Phase::Idle:
        // A connection that has not sent its first request gets the header timeout if that
        // is shorter: silent connections held every slot for the idle minute each.
        if (m_pending.empty() &&
            m_idleClock.elapsed() >
                (m_served ? o.idleTimeoutMs : std::min(o.idleTimeoutMs, o.headerTimeoutMs))) {
            if (m_socket->bytesToWrite() > 0)
                abortNow(); // a client that stopped reading its answers: a close would wait
            else
                closeTransport();
        }
        break;
    case Phase::Head:
        if (m_phaseClock.elapsed() > o.headerTimeoutMs)
            failAndClose(
                408, QStringLiteral("request-timeout"),
                QStringLiteral("request headers not received within %1 ms").arg(o.headerTimeoutMs));
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
    // Requests taken in and not answered (the client closed first; on plain TCP a client's
    // half-close ends the socket here, Qt having no half-open state): each still gets its
    // access line, as nginx's 499, since what it asked for may have been done.
    for (const auto &[seq, p] : m_pending)
        logAccess(p, 499, 0, p.started.nsecsElapsed() / 1e9);
    m_srv.inFlight -= int(m_pending.size());
    m_pending.clear();
    m_srv.connections.remove(m_id);
    m_srv.connectionClosed(m_clientKey);
    m_srv.metrics.connectionClosed(m_srv.options.name);
    deleteLater();
    m_srv.finishShutdownIfDone();
}

} // namespace Gatehouse::Core::Internal
