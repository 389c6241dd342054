#include "webhooks/httpclient.h"
#include "webhooks/webhookslogging.h"

#include "webhooks/urlpolicy.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QNetworkProxy>
#include <QSignalBlocker>
#include <QSslError>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <climits>
#include <cstring>

namespace Gatehouse::Webhooks {

namespace {

constexpr qint64 kMaxChunkLineBytes = 4096;
constexpr int kMaxInterimResponses = 32;

bool isTchar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

bool isToken(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    for (char c : s)
        if (!isTchar(c))
            return false;
    return true;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Field values: no NUL, CR or LF (RFC 9110 §5.5).
bool isSafeValue(QByteArrayView s)
{
    for (char c : s)
        if (c == '\0' || c == '\r' || c == '\n')
            return false;
    return true;
}

// Comma-separated list elements of all fields named lowerName, lower-cased and trimmed.
QList<QByteArray> listValues(const Core::HeaderList &headers, const QByteArray &lowerName)
{
    QList<QByteArray> values;
    for (const auto &h : headers) {
        if (h.first != lowerName)
            continue;
        for (const QByteArray &part : h.second.split(',')) {
            const QByteArray v = part.trimmed().toLower();
            if (!v.isEmpty())
                values.append(v);
        }
    }
    return values;
}

QString malformed(const QString &why)
{
    return QStringLiteral("malformed response: ") + why;
}

} // namespace

QByteArray OutboundResponse::header(const QByteArray &lowerName) const
{
    return Core::headerValue(headers, lowerName);
}

// ---------------------------------------------------------------------------------------
// Http1ResponseParser

Http1ResponseParser::Http1ResponseParser(const QByteArray &requestMethod, qint64 maxHeadBytes,
                                         qint64 maxKeptBodyBytes)
    : m_method(requestMethod.toUpper()), m_maxHeadBytes(qMax<qint64>(maxHeadBytes, 64)),
      m_maxKeptBodyBytes(qMax<qint64>(maxKeptBodyBytes, 0))
{}

QByteArray Http1ResponseParser::header(const QByteArray &lowerName) const
{
    return Core::headerValue(m_headers, lowerName);
}

void Http1ResponseParser::fail(const QString &message)
{
    m_state = State::Error;
    m_error = message;
    m_keepAlive = false;
    m_pending.clear();
}

void Http1ResponseParser::keep(QByteArrayView data)
{
    const qint64 room = m_maxKeptBodyBytes - m_body.size();
    if (room > 0)
        m_body.append(data.first(qMin<qint64>(room, data.size())));
    m_bodyBytes += data.size();
}

// Takes one line ending in LF (a preceding CR is dropped) when complete. `budget` caps the
// line's bytes including its end; the check gives the same answer however the bytes are
// split, which the fuzz target holds us to.
QString Http1ResponseParser::tooLong(Line kind) const
{
    switch (kind) {
    case Line::Head:
        return malformed(QStringLiteral("response head exceeds %1 bytes").arg(m_maxHeadBytes));
    case Line::ChunkSize:
        return malformed(QStringLiteral("chunk size line too long"));
    case Line::ChunkEnd:
        return malformed(QStringLiteral("chunk data not followed by CRLF"));
    case Line::Trailer:
        break;
    }
    return malformed(QStringLiteral("trailer section exceeds %1 bytes").arg(m_maxHeadBytes));
}

bool Http1ResponseParser::takeLine(QByteArrayView data, qsizetype *pos, qint64 budget, Line kind,
                                   QByteArray *line)
{
    const QByteArrayView rest = data.sliced(*pos);
    const qsizetype nl = rest.indexOf('\n');
    const qint64 length = m_pending.size() + (nl < 0 ? rest.size() : nl + 1);
    if (length > budget) {
        fail(tooLong(kind));
        return false;
    }
    if (nl < 0) {
        m_pending.append(rest);
        *pos = data.size();
        return false;
    }
    *line = m_pending + rest.first(nl).toByteArray();
    m_pending.clear();
    *pos += nl + 1;
    if (line->endsWith('\r'))
        line->chop(1);
    return true;
}

qsizetype Http1ResponseParser::feed(QByteArrayView data)
{
    if (m_state == State::Done)
        return 0;
    if (m_state == State::Error) { // the rest of the stream is garbage: take it all
        m_consumed += data.size();
        return data.size();
    }
    qsizetype pos = 0;
    while (pos < data.size() && (m_state == State::Head || m_state == State::Body)) {
        if (m_state == State::Head) {
            const qint64 before = m_pending.size();
            const qsizetype start = pos;
            QByteArray line;
            if (!takeLine(data, &pos, m_maxHeadBytes - m_headBytes, Line::Head, &line))
                continue;
            m_headBytes += before + (pos - start);
            headLine(line);
            continue;
        }
        switch (m_bodyMode) {
        case Body::Length: {
            const qint64 n = qMin<qint64>(m_remaining, data.size() - pos);
            keep(data.sliced(pos, n));
            pos += n;
            m_remaining -= n;
            if (m_remaining == 0)
                m_state = State::Done;
            break;
        }
        case Body::UntilClose:
            keep(data.sliced(pos));
            pos = data.size();
            break;
        case Body::Chunked:
            if (m_chunk == Chunk::Data) {
                const qint64 n = qMin<qint64>(m_remaining, data.size() - pos);
                keep(data.sliced(pos, n));
                pos += n;
                m_remaining -= n;
                if (m_remaining == 0)
                    m_chunk = Chunk::DataEnd;
                break;
            }
            {
                QByteArray line;
                qint64 budget = kMaxChunkLineBytes;
                Line kind = Line::ChunkSize;
                if (m_chunk == Chunk::DataEnd) {
                    budget = 2;
                    kind = Line::ChunkEnd;
                } else if (m_chunk == Chunk::Trailer) {
                    budget = m_maxHeadBytes - m_headBytes;
                    kind = Line::Trailer;
                }
                const qint64 before = m_pending.size();
                const qsizetype start = pos;
                if (!takeLine(data, &pos, budget, kind, &line))
                    break;
                if (m_chunk == Chunk::Trailer)
                    m_headBytes += before + (pos - start);
                chunkLine(line);
            }
            break;
        case Body::None:
            m_state = State::Done;
            break;
        }
    }
    if (m_state == State::Error)
        pos = data.size();
    m_consumed += pos;
    return pos;
}

void Http1ResponseParser::headLine(const QByteArray &line)
{
    if (!m_statusLineSeen) {
        if (line.isEmpty())
            return; // tolerate empty lines before the status line (RFC 9112 §2.2)
        // status-line = HTTP-version SP status-code SP [ reason-phrase ] (RFC 9112 §4);
        // a missing SP after the code is tolerated.
        if (!line.startsWith("HTTP/")) {
            fail(malformed(QStringLiteral("malformed status line")));
            return;
        }
        if (line.size() < 12 || !line.startsWith("HTTP/1.") || !isDigit(line[7]) ||
            line[8] != ' ') {
            fail(malformed(QStringLiteral("unsupported HTTP version")));
            return;
        }
        if (!isDigit(line[9]) || !isDigit(line[10]) || !isDigit(line[11]) ||
            (line.size() > 12 && line[12] != ' ')) {
            fail(malformed(QStringLiteral("malformed status code")));
            return;
        }
        const int status = line.mid(9, 3).toInt();
        if (status < 100 || status > 599) {
            fail(malformed(QStringLiteral("status code %1 out of range").arg(status)));
            return;
        }
        for (char c : line.mid(12))
            if ((uchar(c) < 0x20 && c != '\t') || uchar(c) == 0x7f) {
                fail(malformed(QStringLiteral("invalid character in the reason phrase")));
                return;
            }
        m_minorVersion = line[7] == '0' ? 0 : 1;
        m_status = status;
        m_statusLineSeen = true;
        return;
    }
    if (line.isEmpty()) { // end of this head
        if (m_status >= 200) {
            startBody();
            return;
        }
        if (m_status == 101) { // we never ask for an upgrade
            fail(malformed(QStringLiteral("unexpected 101 Switching Protocols")));
            return;
        }
        // Interim response (100 Continue, 103 Early Hints, ...): skip it (RFC 9110 §15.2).
        if (++m_interim > kMaxInterimResponses) {
            fail(malformed(
                QStringLiteral("more than %1 interim responses").arg(kMaxInterimResponses)));
            return;
        }
        m_statusLineSeen = false;
        m_status = 0;
        m_headers.clear();
        m_headBytes = 0;
        return;
    }
    if (line.startsWith(' ') || line.startsWith('\t')) {
        // obs-fold: a user agent replaces it with SP (RFC 9112 §5.2).
        if (m_headers.isEmpty()) {
            fail(malformed(QStringLiteral("continuation line without a header field")));
            return;
        }
        const QByteArray more = line.trimmed();
        if (!isSafeValue(more)) {
            fail(malformed(QStringLiteral("invalid character in a header value")));
            return;
        }
        QByteArray &value = m_headers.last().second;
        if (!more.isEmpty())
            value += (value.isEmpty() ? QByteArray() : QByteArray(" ")) + more;
        return;
    }
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0 || !isToken(QByteArrayView(line).first(colon))) {
        fail(malformed(QStringLiteral("malformed header field")));
        return;
    }
    const QByteArray value = line.mid(colon + 1).trimmed();
    if (!isSafeValue(value)) {
        fail(malformed(QStringLiteral("invalid character in a header value")));
        return;
    }
    m_headers.append(qMakePair(line.left(colon).toLower(), value));
}

// Message body length of a response (RFC 9112 §6.3).
void Http1ResponseParser::startBody()
{
    const QList<QByteArray> connection = listValues(m_headers, "connection");
    m_keepAlive =
        m_minorVersion >= 1 ? !connection.contains("close") : connection.contains("keep-alive");
    m_state = State::Body;
    m_headBytes = 0;
    if (m_method == "HEAD" || m_status == 204 || m_status == 304) {
        m_bodyMode = Body::None;
        m_state = State::Done;
        return;
    }
    const QList<QByteArray> codings = listValues(m_headers, "transfer-encoding");
    bool hasContentLength = false;
    for (const auto &h : std::as_const(m_headers))
        hasContentLength = hasContentLength || h.first == "content-length";
    if (!codings.isEmpty()) {
        // Transfer-Encoding overrides Content-Length; such a message may be an attempt at
        // smuggling, so its connection is not reused.
        if (hasContentLength || m_minorVersion == 0)
            m_keepAlive = false;
        if (codings.count("chunked") > 1 ||
            (codings.contains("chunked") && codings.last() != "chunked")) {
            fail(malformed(QStringLiteral("chunked applied more than once or not last")));
            return;
        }
        if (codings.last() == "chunked") {
            m_bodyMode = Body::Chunked;
            m_chunk = Chunk::Size;
        } else {
            m_bodyMode = Body::UntilClose;
            m_keepAlive = false;
        }
        return;
    }
    if (hasContentLength) {
        // All values (fields and list elements) must be the same number.
        QByteArray length;
        bool ok = true;
        for (const auto &h : std::as_const(m_headers)) {
            if (h.first != "content-length")
                continue;
            for (const QByteArray &part : h.second.split(',')) {
                const QByteArray v = part.trimmed();
                bool digits = !v.isEmpty() && v.size() <= 18;
                for (char c : v)
                    digits = digits && isDigit(c);
                ok = ok && digits && (length.isEmpty() || length == v);
                length = v;
            }
        }
        if (!ok) {
            fail(malformed(QStringLiteral("invalid Content-Length")));
            return;
        }
        m_bodyMode = Body::Length;
        m_remaining = length.toLongLong();
        if (m_remaining == 0)
            m_state = State::Done;
        return;
    }
    m_bodyMode = Body::UntilClose;
    m_keepAlive = false;
}

void Http1ResponseParser::chunkLine(const QByteArray &line)
{
    switch (m_chunk) {
    case Chunk::Size: {
        // chunk-size [ chunk-ext ] (RFC 9112 §7.1); extensions are ignored.
        QByteArray size = line;
        if (const qsizetype semi = size.indexOf(';'); semi >= 0)
            size.truncate(semi);
        size = size.trimmed();
        bool ok = !size.isEmpty() && size.size() <= 15;
        for (char c : size)
            ok = ok && isHexDigit(c);
        if (!ok) {
            fail(malformed(QStringLiteral("malformed chunk size")));
            return;
        }
        m_remaining = size.toLongLong(nullptr, 16);
        m_chunk = m_remaining == 0 ? Chunk::Trailer : Chunk::Data;
        m_headBytes = 0;
        return;
    }
    case Chunk::DataEnd:
        if (!line.isEmpty()) {
            fail(malformed(QStringLiteral("chunk data not followed by CRLF")));
            return;
        }
        m_chunk = Chunk::Size;
        return;
    case Chunk::Trailer:
        if (line.isEmpty())
            m_state = State::Done; // trailer fields are not merged into the headers
        return;
    case Chunk::Data:
        return;
    }
}

Http1ResponseParser::State Http1ResponseParser::finish()
{
    if (m_state == State::Head) {
        if (m_consumed == 0)
            fail(QStringLiteral("connection closed before any response"));
        else
            fail(QStringLiteral("incomplete response: connection closed in the response head"));
    } else if (m_state == State::Body) {
        switch (m_bodyMode) {
        case Body::UntilClose:
        case Body::None:
            m_keepAlive = false;
            m_state = State::Done;
            break;
        case Body::Length:
            fail(QStringLiteral("incomplete response: connection closed after %1 of %2 body bytes")
                     .arg(m_bodyBytes)
                     .arg(m_bodyBytes + m_remaining));
            break;
        case Body::Chunked:
            fail(QStringLiteral("incomplete response: connection closed inside the chunked body"));
            break;
        }
    }
    return m_state;
}

OutboundResponse Http1ResponseParser::toResponse() const
{
    OutboundResponse r;
    if (m_state == State::Error) {
        r.error = m_error;
        return r;
    }
    if (m_state != State::Done) {
        r.error = QStringLiteral("incomplete response");
        return r;
    }
    r.status = m_status;
    r.headers = m_headers;
    r.body = m_body;
    r.bodyBytes = m_bodyBytes;
    return r;
}

// ---------------------------------------------------------------------------------------
// HttpClient

struct HttpClient::Exchange
{
    quint64 id = 0;
    OutboundRequest request;
    std::function<void(OutboundResponse)> done;
    QString key; // pool key
    QByteArray wire;
    QElapsedTimer clock;
    int timeoutMs = 0;
    qint64 deadlineNs = 0; // on the client's m_clock
    QTcpSocket *socket = nullptr;
    bool reused = false;  // socket came from the idle pool
    bool retried = false; // already retried once on a fresh connection
    qint64 received = 0;  // bytes read on the current socket
    std::unique_ptr<Http1ResponseParser> parser;
    QStringList tlsErrors;
};

HttpClient::HttpClient(QObject *parent)
    : QObject(parent), m_ssl(QSslConfiguration::defaultConfiguration())
{
    m_ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    m_clock.start();
    m_sweep = new QTimer(this);
    m_sweep->setSingleShot(true);
    m_sweep->setTimerType(Qt::PreciseTimer); // "timed out after N ms" is never early
    connect(m_sweep, &QTimer::timeout, this, [this] {
        m_sweepAt = -1;
        sweep();
    });
}

HttpClient::~HttpClient()
{
    // Pending callbacks are dropped; sockets go without calling back into us.
    for (QTcpSocket *s : findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly)) {
        disconnect(s, nullptr, this, nullptr);
        s->abort();
        delete s;
    }
    m_idle.clear();
    m_busy.clear();
    m_exchanges.clear();
}

void HttpClient::setMaxKeptBodyBytes(qint64 n)
{
    m_maxKeptBodyBytes = qMax<qint64>(0, n);
}

void HttpClient::setMaxResponseBytes(qint64 n)
{
    m_maxResponseBytes = qMax<qint64>(1, n);
}

void HttpClient::setMaxIdleConnectionsPerTarget(int n)
{
    m_maxIdlePerTarget = qMax(0, n);
}

void HttpClient::setMaxIdleConnections(int n)
{
    m_maxIdle = qMax(0, n);
}

void HttpClient::setIdleTimeoutMs(int ms)
{
    m_idleTimeoutMs = qMax(0, ms);
}

void HttpClient::setSslConfiguration(const QSslConfiguration &c)
{
    m_ssl = c;
}

int HttpClient::openConnections() const
{
    return m_open;
}

int HttpClient::idleConnections() const
{
    int n = 0;
    for (const auto &list : m_idle)
        n += int(list.size());
    return n;
}

void HttpClient::send(OutboundRequest request, std::function<void(OutboundResponse)> done)
{
    auto x = std::make_shared<Exchange>();
    x->id = m_nextId++;
    x->clock.start();
    x->request = std::move(request);
    x->done = std::move(done);
    const quint64 id = x->id;
    x->timeoutMs = qMax(1, x->request.timeoutMs);
    x->deadlineNs = m_clock.nsecsElapsed() + qint64(x->timeoutMs) * 1'000'000;
    m_exchanges.insert(id, x);
    armSweep(x->deadlineNs);
    // Started from the event loop: `done` must never run inside send(). One queued call
    // starts everything sent meanwhile.
    m_toStart.push_back(id);
    if (m_toStart.size() == 1)
        QMetaObject::invokeMethod(this, &HttpClient::startQueued, Qt::QueuedConnection);
}

void HttpClient::startQueued()
{
    std::vector<quint64> ids;
    ids.swap(m_toStart);
    for (const quint64 id : ids)
        start(id);
}

void HttpClient::armSweep(qint64 atNs)
{
    if (m_sweepAt >= 0 && m_sweepAt <= atNs)
        return; // an earlier check will look at it (and arm for what is left)
    m_sweepAt = atNs;
    // Rounded up: the check never comes before the deadline it is for.
    const qint64 ms = (atNs - m_clock.nsecsElapsed() + 999'999) / 1'000'000;
    m_sweep->start(int(std::clamp<qint64>(ms, 0, INT_MAX)));
}

void HttpClient::sweep()
{
    const qint64 now = m_clock.nsecsElapsed();
    qint64 next = -1;
    const auto later = [&next](qint64 at) { next = next < 0 ? at : qMin(next, at); };
    QList<std::pair<quint64, int>> expired;
    for (const auto &x : std::as_const(m_exchanges)) {
        if (x->deadlineNs <= now)
            expired.append({x->id, x->timeoutMs});
        else
            later(x->deadlineNs);
    }
    QList<QTcpSocket *> stale;
    for (const auto &list : std::as_const(m_idle))
        for (const Idle &idle : list) {
            if (idle.untilNs <= now)
                stale.append(idle.socket);
            else
                later(idle.untilNs);
        }
    for (QTcpSocket *socket : std::as_const(stale))
        dropIdle(socket);
    for (const auto &[id, timeoutMs] : std::as_const(expired)) {
        OutboundResponse r;
        r.error = QStringLiteral("timed out after %1 ms").arg(timeoutMs);
        complete(id, std::move(r), false); // may send again (and arm the timer)
    }
    if (next >= 0)
        armSweep(next);
}

void HttpClient::start(quint64 id)
{
    const auto x = m_exchanges.value(id);
    if (!x)
        return;
    OutboundRequest &rq = x->request;
    auto invalid = [&](const QString &why) {
        OutboundResponse r;
        r.error = QStringLiteral("invalid request: ") + why;
        complete(id, std::move(r), false);
    };
    if (rq.address.isNull() || rq.port == 0)
        return invalid(QStringLiteral("no address or port"));
    if (!isToken(rq.method))
        return invalid(QStringLiteral("malformed method"));
    if (rq.pathAndQuery.isEmpty())
        rq.pathAndQuery = "/";
    for (char c : std::as_const(rq.pathAndQuery))
        if (uchar(c) <= 0x20 || uchar(c) >= 0x7f)
            return invalid(QStringLiteral("malformed request target"));
    if (rq.hostHeader.isEmpty()) {
        const bool v6 =
            rq.tlsPeerName.isEmpty() && rq.address.protocol() == QAbstractSocket::IPv6Protocol;
        const QString host = rq.tlsPeerName.isEmpty() ? rq.address.toString() : rq.tlsPeerName;
        rq.hostHeader = v6 ? '[' + host.toLatin1() + ']' : host.toUtf8();
        if (rq.port != (rq.tls ? 443 : 80))
            rq.hostHeader += ':' + QByteArray::number(rq.port);
    }
    for (char c : std::as_const(rq.hostHeader))
        if (uchar(c) <= 0x20 || uchar(c) >= 0x7f)
            return invalid(QStringLiteral("malformed Host"));

    QByteArray &w = x->wire;
    w.reserve(256 + rq.body.size());
    w += rq.method + ' ' + rq.pathAndQuery + " HTTP/1.1\r\nHost: " + rq.hostHeader + "\r\n";
    bool userAgent = false;
    for (const auto &h : std::as_const(rq.headers)) {
        const QByteArray name = h.first.toLower();
        if (!isToken(h.first) || !isSafeValue(h.second))
            return invalid(QStringLiteral("malformed header field"));
        // Framing and routing are the client's (no smuggling through extra headers).
        if (name == "host" || name == "content-length" || name == "connection" ||
            name == "transfer-encoding" || name == "keep-alive" || name == "upgrade")
            continue;
        userAgent = userAgent || name == "user-agent";
        w += h.first + ": " + h.second + "\r\n";
    }
    if (!userAgent)
        w += "User-Agent: Gatehouse-Webhooks/1\r\n";
    const bool bodyless = rq.method == "GET" || rq.method == "HEAD" || rq.method == "DELETE" ||
                          rq.method == "OPTIONS" || rq.method == "TRACE";
    if (!rq.body.isEmpty() || !bodyless)
        w += "Content-Length: " + QByteArray::number(rq.body.size()) + "\r\n";
    w += "Connection: keep-alive\r\n\r\n";
    w += rq.body;

    x->key = QStringLiteral("%1|%2|%3|%4")
                 .arg(rq.tls ? QLatin1String("https") : QLatin1String("http"),
                      rq.address.toString(), QString::number(rq.port), rq.tlsPeerName);
    if (QTcpSocket *s = takeIdle(x->key)) {
        x->socket = s;
        x->reused = true;
        x->parser = std::make_unique<Http1ResponseParser>(rq.method, 16 * 1024, m_maxKeptBodyBytes);
        attach(*x);
        writeRequest(*x);
        return;
    }
    connectFresh(*x);
}

void HttpClient::connectFresh(Exchange &x)
{
    const OutboundRequest &rq = x.request;
    x.reused = false;
    x.received = 0;
    x.tlsErrors.clear();
    x.parser = std::make_unique<Http1ResponseParser>(rq.method, 16 * 1024, m_maxKeptBodyBytes);
    ++m_open;
    // Straight to the address the URL policy checked: never through a proxy the environment
    // names (http_proxy, libproxy's desktop or PAC settings), which would carry the callback or
    // the AdmissionReview to a host nobody checked, or fail it outright (no_proxy).
    if (rq.tls) {
        auto *s = new QSslSocket(this);
        x.socket = s;
        s->setProxy(QNetworkProxy::NoProxy);
        s->setSslConfiguration(m_ssl);
        watch(s);
        attach(x);
        // Only the exchange that opened a connection sees its handshake.
        connect(s, &QSslSocket::encrypted, this, [this, s] {
            if (const auto e = m_exchanges.value(m_busy.value(s)))
                writeRequest(*e);
        });
        connect(s, &QSslSocket::sslErrors, this, [this, s](const QList<QSslError> &errors) {
            if (const auto e = m_exchanges.value(m_busy.value(s)))
                for (const QSslError &err : errors)
                    e->tlsErrors.append(err.errorString());
        });
        const QString peer = rq.tlsPeerName.isEmpty() ? rq.address.toString() : rq.tlsPeerName;
        // An IP literal as host name: QAbstractSocket does no lookup for it.
        s->connectToHostEncrypted(rq.address.toString(), rq.port, peer);
    } else {
        auto *s = new QTcpSocket(this);
        x.socket = s;
        s->setProxy(QNetworkProxy::NoProxy);
        watch(s);
        attach(x);
        connect(s, &QTcpSocket::connected, this, [this, s] {
            if (const auto e = m_exchanges.value(m_busy.value(s)))
                writeRequest(*e);
        });
        s->connectToHost(rq.address, rq.port);
    }
}

void HttpClient::attach(Exchange &x)
{
    m_busy.insert(x.socket, x.id);
}

void HttpClient::watch(QTcpSocket *s)
{
    connect(s, &QTcpSocket::readyRead, this, [this, s] { onSocketReadyRead(s); });
    connect(s, &QTcpSocket::disconnected, this, [this, s] { onSocketClosed(s, -1); });
    connect(s, &QTcpSocket::errorOccurred, this,
            [this, s](QAbstractSocket::SocketError error) { onSocketClosed(s, int(error)); });
}

void HttpClient::onSocketReadyRead(QTcpSocket *s)
{
    if (const quint64 id = m_busy.value(s))
        onReadyRead(id);
    else
        dropIdle(s); // anything from an idle connection (data, close, error) ends it
}

void HttpClient::onSocketClosed(QTcpSocket *s, int socketError)
{
    if (const quint64 id = m_busy.value(s))
        onClosed(id, socketError);
    else
        dropIdle(s);
}

void HttpClient::writeRequest(Exchange &x)
{
    x.socket->write(x.wire);
}

// Reads what the socket has into the parser; answers true when the exchange completed.
bool HttpClient::process(Exchange &x)
{
    Http1ResponseParser &p = *x.parser;
    bool excess = false;
    while (!p.done() && !p.failed() && x.socket->bytesAvailable() > 0) {
        const qint64 budget = m_maxResponseBytes - x.received;
        if (budget <= 0)
            break;
        const QByteArray chunk = x.socket->read(qMin<qint64>(budget, 64 * 1024));
        if (chunk.isEmpty())
            break;
        x.received += chunk.size();
        const qsizetype used = p.feed(chunk);
        excess = excess || (p.done() && used < chunk.size());
    }
    if (p.failed()) {
        complete(x.id, p.toResponse(), false);
        return true;
    }
    if (p.done()) {
        const bool reusable = p.keepAlive() && !excess && x.socket->bytesAvailable() == 0 &&
                              x.socket->bytesToWrite() == 0 &&
                              x.socket->state() == QAbstractSocket::ConnectedState;
        complete(x.id, p.toResponse(), reusable);
        return true;
    }
    if (x.received >= m_maxResponseBytes) {
        // Read no more: answer what was parsed (status kept), and close the connection.
        OutboundResponse r;
        if (p.headComplete()) {
            r.status = p.status();
            r.headers = p.headers();
            r.body = p.body();
            r.bodyBytes = p.bodyBytes();
            qCInfo(lcWebhooks) << "response larger than" << m_maxResponseBytes
                               << "bytes; closing the connection";
        } else {
            r.error = QStringLiteral("response too large: more than %1 bytes before the end of "
                                     "the response head")
                          .arg(m_maxResponseBytes);
        }
        complete(x.id, std::move(r), false);
        return true;
    }
    return false;
}

void HttpClient::onReadyRead(quint64 id)
{
    const auto x = m_exchanges.value(id);
    if (!x || !x->socket)
        return;
    process(*x);
}

void HttpClient::onClosed(quint64 id, int socketError)
{
    const auto x = m_exchanges.value(id);
    if (!x || !x->socket)
        return;
    if (x->socket->bytesAvailable() > 0 && process(*x))
        return;
    const auto error = QAbstractSocket::SocketError(socketError);
    const bool eof = socketError < 0 || error == QAbstractSocket::RemoteHostClosedError;

    // A pooled connection the server closed meanwhile (RFC 9112 §9.3.1): retry once, on a
    // fresh connection, when not a single response byte came.
    if (x->reused && x->received == 0 && !x->retried) {
        qCDebug(lcWebhooks) << "stale keep-alive connection; retrying on a new one";
        QTcpSocket *stale = x->socket;
        x->socket = nullptr;
        discard(stale);
        x->retried = true;
        connectFresh(*x);
        return;
    }

    OutboundResponse r;
    if (eof) {
        x->parser->finish();
        r = x->parser->toResponse();
        if (x->parser->done()) {
            complete(id, std::move(r), false);
            return;
        }
    }
    if (!eof) {
        switch (error) {
        case QAbstractSocket::ConnectionRefusedError:
            r.error = QStringLiteral("connection refused");
            break;
        case QAbstractSocket::SslHandshakeFailedError:
        case QAbstractSocket::SslInternalError:
        case QAbstractSocket::SslInvalidUserDataError:
            r.error = QStringLiteral("TLS handshake failed: %1")
                          .arg(x->tlsErrors.isEmpty() ? x->socket->errorString()
                                                      : x->tlsErrors.join(QLatin1String("; ")));
            break;
        case QAbstractSocket::NetworkError:
        case QAbstractSocket::HostNotFoundError:
            r.error = QStringLiteral("network error: %1").arg(x->socket->errorString());
            break;
        default:
            r.error = QStringLiteral("connection failed: %1").arg(x->socket->errorString());
            break;
        }
    }
    complete(id, std::move(r), false);
}

void HttpClient::complete(quint64 id, OutboundResponse response, bool reusable)
{
    const auto x = m_exchanges.take(id);
    if (!x)
        return;
    if (QTcpSocket *s = x->socket) {
        x->socket = nullptr;
        m_busy.remove(s);
        if (reusable)
            putIdle(x->key, s);
        else
            discard(s);
    }
    response.latencyMs = double(x->clock.nsecsElapsed()) / 1e6;
    if (response.error.isEmpty())
        qCDebug(lcWebhooks).nospace()
            << "webhook " << x->request.method << " to " << x->request.address.toString() << ':'
            << x->request.port << " answered " << response.status << " in " << response.latencyMs
            << " ms";
    else
        qCDebug(lcWebhooks).nospace()
            << "webhook " << x->request.method << " to " << x->request.address.toString() << ':'
            << x->request.port << " failed: " << response.error;
    // Last: the callback may send again (but must destroy the client only with deleteLater).
    const auto done = std::move(x->done);
    done(std::move(response));
}

QTcpSocket *HttpClient::takeIdle(const QString &key)
{
    auto it = m_idle.find(key);
    if (it == m_idle.end())
        return nullptr;
    QTcpSocket *found = nullptr;
    while (!found && !it->isEmpty()) {
        const Idle idle = it->takeLast();
        const auto *tls = qobject_cast<QSslSocket *>(idle.socket);
        {
            // What the peer sent since its last answer and the event loop has not read yet (an
            // unsolicited response, a close): read now, without telling anyone. Taken as is, a
            // stray 410 sent after the last answer was the next delivery's result (and disabled
            // its endpoint), as curl checks a connection before it reuses one.
            const QSignalBlocker quiet(idle.socket);
            idle.socket->waitForReadyRead(0);
        }
        if (idle.socket->state() == QAbstractSocket::ConnectedState &&
            idle.socket->bytesAvailable() == 0 && (!tls || tls->isEncrypted()))
            found = idle.socket;
        else
            discard(idle.socket);
    }
    if (it->isEmpty())
        m_idle.erase(it);
    return found;
}

void HttpClient::putIdle(const QString &key, QTcpSocket *socket)
{
    auto &list = m_idle[key];
    if (list.size() >= m_maxIdlePerTarget || m_idleTimeoutMs == 0 || m_maxIdle == 0) {
        discard(socket);
        if (list.isEmpty())
            m_idle.remove(key);
        return;
    }
    if (idleConnections() >= m_maxIdle) {
        // The one idle longest (the earliest expiry) makes room, whichever target it is for.
        QTcpSocket *oldest = nullptr;
        qint64 oldestUntil = 0;
        for (const auto &idle : std::as_const(m_idle))
            for (const Idle &i : idle)
                if (!oldest || i.untilNs < oldestUntil) {
                    oldest = i.socket;
                    oldestUntil = i.untilNs;
                }
        if (oldest)
            dropIdle(oldest); // may remove this key's (empty) list: not used below
    }
    const qint64 until = m_clock.nsecsElapsed() + qint64(m_idleTimeoutMs) * 1'000'000;
    m_idle[key].append(Idle{socket, until});
    armSweep(until);
}

void HttpClient::dropIdle(QTcpSocket *socket)
{
    for (auto it = m_idle.begin(); it != m_idle.end(); ++it) {
        for (qsizetype i = 0; i < it->size(); ++i) {
            if (it->at(i).socket != socket)
                continue;
            it->removeAt(i);
            if (it->isEmpty())
                m_idle.erase(it);
            discard(socket);
            return;
        }
    }
}

void HttpClient::discard(QTcpSocket *socket)
{
    m_busy.remove(socket);
    disconnect(socket, nullptr, this, nullptr);
    socket->abort();
    socket->deleteLater();
    --m_open;
}

} // namespace Gatehouse::Webhooks
