#pragma once

#include "core/httpmessage.h"

#include <QByteArray>
#include <QList>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

#include <memory>

namespace Gatehouse::Core {

// The TLS record layer of one connection, driven with bytes: what the socket read goes in
// through receive(), what must be sent comes out of takeOutgoing(). No socket, no thread, no
// event loop: the HTTP server moves the bytes. The implementation lives in backend/crypto
// (OpenSSL), the only place that sees OpenSSL; core only sees this interface.
class TlsConnection
{
public:
    enum class State { Handshaking, Established, Closed, Failed };

    virtual ~TlsConnection() = default;

    // Ciphertext as read from the peer.
    virtual void receive(const char *data, qsizetype size) = 0;
    // Runs the handshake and decrypts what has arrived; plaintext is appended to `plaintext`.
    // Call after receive(); then send what takeOutgoing() holds (handshake messages, alerts).
    virtual State advance(QByteArray &plaintext) = 0;
    // Encrypts application data (only once Established).
    virtual void send(const char *data, qsizetype size) = 0;
    // Sends close_notify; the connection is Closed for writing afterwards.
    virtual void close() = 0;
    // Ciphertext to write to the socket; empty when there is none.
    virtual QByteArray takeOutgoing() = 0;
    virtual State state() const = 0;
    // Who the peer's certificate says it is, once Established: None without a certificate,
    // Invalid (with the verification errors) when it does not verify against the client CAs.
    virtual PeerIdentity peerIdentity() const = 0;
    // Why the connection Failed: the TLS alert or the library's error, never secret material.
    virtual QString errorString() const = 0;
    // "TLSv1.3 TLS_AES_256_GCM_SHA384", for logs and tests.
    virtual QString description() const = 0;
};

// A listener's or a client's TLS configuration (one shared library context): makes one
// TlsConnection per accepted or opened connection. Thread-safe.
class TlsEngine
{
public:
    virtual ~TlsEngine() = default;
    virtual std::unique_ptr<TlsConnection> newConnection() const = 0;
};

struct TlsSettings
{
    QSslCertificate certificate;
    QList<QSslCertificate> chain;
    QSslKey privateKey;
    // Client certificates are requested (not required) when this is non-empty, and only
    // a certificate that verifies against these becomes an identity.
    QList<QSslCertificate> clientCaCertificates;
    // Built from the fields above by Crypto::tlsServerEngine(); a TLS listener needs it.
    std::shared_ptr<const TlsEngine> engine;
};

} // namespace Gatehouse::Core
