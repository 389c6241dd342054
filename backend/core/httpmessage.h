#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonDocument>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrlQuery>

#include <functional>
#include <memory>

namespace Gatehouse::Core {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// The first value of `lowerName` in a list whose names are lower-cased (as the parsers keep
// them); a null QByteArray when it is absent.
QByteArray headerValue(const HeaderList &headers, const QByteArray &lowerName);

// Who the TLS peer is. Only a certificate that verified against the listener's
// configured client CA becomes an identity; anything else is "presented but invalid"
// and never exposes its (unverified) subject.
struct PeerIdentity
{
    enum class State { None, Verified, Invalid };
    State state = State::None;
    QString commonName;        // only when Verified
    QStringList organizations; // only when Verified
    QString invalidReason;     // only when Invalid
    // Only when Verified: when the first certificate of its verified chain expires (ms since
    // the epoch; 0: not known). A connection may outlive it: each request takes the identity
    // as it stands then (at()).
    qint64 notAfterMs = 0;

    bool verified() const { return state == State::Verified; }
    // This identity at `nowMs`: past notAfterMs, Invalid ("certificate has expired", as a new
    // connection's handshake would find it), so that a kept-alive connection does not carry an
    // expired certificate's identity on.
    PeerIdentity at(qint64 nowMs) const;
    QString stateName() const;
};

struct HttpRequest
{
    QByteArray method; // upper-case token as sent
    QByteArray target; // request-target as sent
    QString path;      // percent-decoded path
    QUrlQuery query;
    int httpMinorVersion = 1; // HTTP/1.x
    HeaderList headers;       // names lower-cased, in arrival order
    QByteArray body;
    QHash<QString, QString> pathParams;
    // The client: the socket's peer, or the address a trusted proxy forwarded for
    // (clientaddress.h; `trusted-proxies`).
    QHostAddress peerAddress;
    QHostAddress forwardedBy; // the trusted proxy that passed the request on; null if none
    quint16 peerPort = 0;     // the socket's
    // The socket's own end: the address and port this request reached, as the listener sees
    // them (never from a header; /admin-proof binds its answer to them).
    QHostAddress localAddress;
    quint16 localPort = 0;
    PeerIdentity identity;
    QString requestId;
    QString listener;
    QString route; // matched route pattern ("unmatched" if none)
    bool tls = false;

    QByteArray header(const QByteArray &lowerName) const;
    bool hasHeader(const QByteArray &lowerName) const;
    QString pathParam(const QString &name) const { return pathParams.value(name); }
    QString bearerToken() const; // the token of "Authorization: Bearer <t>", else empty
};

// A long-lived response body (Server-Sent Events). Lives in the connection's thread;
// write() sends a chunk, close() ends the response and the connection.
class HttpStream : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void write(const QByteArray &data) = 0;
    virtual void close() = 0;
    virtual bool isOpen() const = 0;

signals:
    void closed(); // the client went away or close() was called
};

struct HttpResponse
{
    int status = 200;
    HeaderList headers;
    QByteArray body;
    // When set, the head is sent with a streamed body and the connection is handed to
    // this callback; the connection serves no further requests.
    std::function<void(HttpStream *)> stream;

    HttpResponse &setHeader(const QByteArray &name, const QByteArray &value);
    QByteArray header(const QByteArray &name) const;

    static HttpResponse json(int status, const QJsonDocument &doc);
    static HttpResponse json(int status, const QJsonObject &obj);
    static HttpResponse text(int status, const QByteArray &text,
                             const QByteArray &contentType = "text/plain; charset=utf-8");
    // The default JSON error body: {"error": code, "message": message}.
    static HttpResponse error(int status, const QString &code, const QString &message);
};

QByteArray reasonPhrase(int status);

} // namespace Gatehouse::Core
