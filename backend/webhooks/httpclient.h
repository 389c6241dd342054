#pragma once

#include "core/httpmessage.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QSslConfiguration>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

class QTcpSocket;
class QTimer;

namespace Gatehouse::Webhooks {

struct OutboundRequest
{
    QHostAddress address; // the checked address to connect to (no DNS in the client)
    quint16 port = 0;
    bool tls = false;
    QString tlsPeerName; // SNI + certificate host-name check; empty: the address itself
    QByteArray method = "POST";
    QByteArray pathAndQuery = "/";
    QByteArray hostHeader;    // empty: tlsPeerName (or the address) plus a non-default port
    Core::HeaderList headers; // extra headers (Content-Type etc.); the client adds Host,
                              // Content-Length, User-Agent "Gatehouse-Webhooks/1" (unless
                              // given), Connection keep-alive; given Host, Content-Length,
                              // Connection and Transfer-Encoding are ignored
    QByteArray body;
    int timeoutMs = 15000; // whole attempt: connect + TLS + send + full response
};

struct OutboundResponse
{
    int status = 0;           // 0: no (complete, well-formed) HTTP answer, see error
    Core::HeaderList headers; // names lower-cased
    QByteArray body;          // the first maxKeptBodyBytes of the body
    qint64 bodyBytes = 0;     // how many body bytes the peer sent (may exceed body.size())
    double latencyMs = 0;     // from send() to the end of the response (or the error)
    QString error; // empty when an HTTP answer came; else e.g. "connection refused", "timed out
                   // after 15000 ms", "TLS handshake failed: ...", "malformed response: ...",
                   // "incomplete response: ..."

    bool ok() const { return status >= 200 && status < 300; }
    QByteArray header(const QByteArray &lowerName) const;
};

// HTTP/1.x response parsing (RFC 9112), free of sockets so it can be fuzzed: feed bytes in
// any split, then finish() when the peer closed. Interim 1xx responses are skipped; HEAD,
// 204 and 304 have no body; Transfer-Encoding chunked (with trailers), Content-Length, or
// the body runs until the connection closes (§6.3).
class Http1ResponseParser
{
public:
    enum class State { Head, Body, Done, Error };

    explicit Http1ResponseParser(const QByteArray &requestMethod = "POST",
                                 qint64 maxHeadBytes = 16 * 1024, qint64 maxKeptBodyBytes = 4096);

    // Consumes bytes until the response is complete (or broken); answers how many it took.
    // Bytes not taken (after Done) belong to no response of ours.
    qsizetype feed(QByteArrayView data);
    // The peer closed the connection (EOF).
    State finish();

    State state() const { return m_state; }
    bool done() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Error; }
    bool headComplete() const { return m_state == State::Body || m_state == State::Done; }

    int status() const { return m_status; } // of the final response, once the head is parsed
    int minorVersion() const { return m_minorVersion; }
    const Core::HeaderList &headers() const { return m_headers; }
    QByteArray header(const QByteArray &lowerName) const;
    const QByteArray &body() const { return m_body; }
    qint64 bodyBytes() const { return m_bodyBytes; }
    // The connection may carry another request after this response (once done()).
    bool keepAlive() const { return m_keepAlive; }
    int interimResponses() const { return m_interim; }
    qint64 consumedBytes() const { return m_consumed; }
    QString error() const { return m_error; }

    // The response as the client answers it (status 0 and the error when failed).
    OutboundResponse toResponse() const;

private:
    enum class Body { None, Length, Chunked, UntilClose };
    enum class Chunk { Size, Data, DataEnd, Trailer };

    // Which line takeLine() reads: what a line over its budget is called (the message is
    // built only then: formatting it for every line was a tenth of a delivery's parsing).
    enum class Line { Head, ChunkSize, ChunkEnd, Trailer };
    QString tooLong(Line kind) const;
    bool takeLine(QByteArrayView data, qsizetype *pos, qint64 budget, Line kind, QByteArray *line);
    void headLine(const QByteArray &line);
    void startBody();
    void chunkLine(const QByteArray &line);
    void keep(QByteArrayView data);
    void fail(const QString &message);

    QByteArray m_method;
    qint64 m_maxHeadBytes;
    qint64 m_maxKeptBodyBytes;

    State m_state = State::Head;
    QByteArray m_pending; // an incomplete line
    qint64 m_headBytes = 0;
    bool m_statusLineSeen = false;
    int m_status = 0;
    int m_minorVersion = 1;
    Core::HeaderList m_headers;
    int m_interim = 0;
    Body m_bodyMode = Body::None;
    Chunk m_chunk = Chunk::Size;
    qint64 m_remaining = 0; // body or chunk bytes still to come
    QByteArray m_body;
    qint64 m_bodyBytes = 0;
    bool m_keepAlive = false;
    qint64 m_consumed = 0;
    QString m_error;
};

// A small HTTP/1.1 client for webhook deliveries: connects to an address the URL policy
// checked (never resolving names itself), sends the original Host and TLS peer name,
// never follows redirects, keeps idle connections for reuse. QNetworkAccessManager is not
// used: it cannot connect to a pre-checked address while sending the original Host/SNI.
class HttpClient : public QObject
{
    Q_OBJECT
public:
    explicit HttpClient(QObject *parent = nullptr);
    ~HttpClient() override;

    void setMaxKeptBodyBytes(qint64 n);         // default 4096
    void setMaxResponseBytes(qint64 n);         // default 1 MiB: read no more, close, answer what
                                                // was parsed (status kept), or an error when the
                                                // head alone exceeds it
    void setMaxIdleConnectionsPerTarget(int n); // default 8; key (address, port, tls, peerName)
    // All targets together (default 64): beyond it the connection idle longest is closed.
    // Targets are the callers' to choose (a webhook URL each): without it every new target
    // kept its own connections open for the idle timeout, and file descriptors ran out.
    void setMaxIdleConnections(int n);
    void setIdleTimeoutMs(int ms);                        // default 30000
    void setSslConfiguration(const QSslConfiguration &c); // default: system CAs, verify peer

    // Called and answered on the client's thread. `done` is called exactly once, never
    // synchronously inside send(); callbacks still pending when the client is destroyed
    // are dropped (a callback that wants to destroy the client uses deleteLater()).
    // Redirects are never followed (a 3xx is just a response).
    void send(OutboundRequest request, std::function<void(OutboundResponse)> done);

    int openConnections() const; // active and idle
    int idleConnections() const;

private:
    struct Exchange;

    void startQueued();
    void start(quint64 id);
    void connectFresh(Exchange &x);
    void attach(Exchange &x);
    void watch(QTcpSocket *socket); // once per socket, for its whole life
    void onSocketReadyRead(QTcpSocket *socket);
    void onSocketClosed(QTcpSocket *socket, int socketError);
    void armSweep(qint64 atNs);
    void sweep();
    void writeRequest(Exchange &x);
    void onReadyRead(quint64 id);
    void onClosed(quint64 id, int socketError); // -1: disconnected
    void complete(quint64 id, OutboundResponse response, bool reusable);
    bool process(Exchange &x);
    QTcpSocket *takeIdle(const QString &key);
    void putIdle(const QString &key, QTcpSocket *socket);
    void dropIdle(QTcpSocket *socket);
    void discard(QTcpSocket *socket);

    struct Idle
    {
        QTcpSocket *socket = nullptr;
        qint64 untilNs = 0; // on m_clock
    };

    qint64 m_maxKeptBodyBytes = 4096;
    qint64 m_maxResponseBytes = 1024 * 1024;
    int m_maxIdlePerTarget = 8;
    int m_maxIdle = 64;
    int m_idleTimeoutMs = 30000;
    QSslConfiguration m_ssl;
    quint64 m_nextId = 1;
    QHash<quint64, std::shared_ptr<Exchange>> m_exchanges;
    QHash<QString, QList<Idle>> m_idle; // per target, most recently used last
    int m_open = 0;
    // Each socket's signals are connected once, when it is made; an event is for the exchange
    // using it (m_busy), else it ends the idle connection. One timer serves every deadline
    // (exchange timeouts, idle expiry): armed for the earliest, it checks them all when it
    // fires. A QTimer and about ten connections made and undone per request were most of the
    // dispatcher's own time under load.
    QHash<QTcpSocket *, quint64> m_busy;
    std::vector<quint64> m_toStart; // sent, to be started from the event loop
    QElapsedTimer m_clock;
    QTimer *m_sweep = nullptr;
    qint64 m_sweepAt = -1; // ns on m_clock; -1: not armed
};

} // namespace Gatehouse::Webhooks
