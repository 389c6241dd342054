#pragma once

#include <QSslServer>

#include <memory>

class QSslContext;

namespace Gatehouse {

// QSslServer that builds the OpenSSL context (SSL_CTX: certificate, key, client-CA store)
// once and lends it to every accepted socket. Qt 6.4 builds a fresh context for each
// connection, which costs more than the handshake itself and caps new TLS connections at a
// few hundred per second. Sharing uses QSslSocketPrivate::checkSettingSslContext, the hook
// Qt's own HTTP client uses to share a context between its sockets; it needs Qt's private
// QtNetwork headers (Debian: qt6-base-private-dev). Without them this is a plain QSslServer.
class SharedContextSslServer : public QSslServer
{
    Q_OBJECT
public:
    explicit SharedContextSslServer(QObject *parent = nullptr);
    ~SharedContextSslServer() override;

    // Whether this build can share contexts, and whether one is being shared already.
    static bool sharingSupported();
    bool sharingContext() const;

protected:
    void incomingConnection(qintptr handle) override;

private:
    std::shared_ptr<QSslContext> m_context;
};

} // namespace Gatehouse
