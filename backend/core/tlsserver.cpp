#include "core/tlsserver.h"

#include <QSslSocket>

#ifdef GATEHOUSE_QT_NETWORK_PRIVATE
#include <QtNetwork/private/qsslsocket_p.h>
#endif

namespace Gatehouse {

SharedContextSslServer::SharedContextSslServer(QObject *parent) : QSslServer(parent)
{
#ifdef GATEHOUSE_QT_NETWORK_PRIVATE
    // The first socket whose handshake starts builds the context from the server's
    // configuration; every later socket borrows it. Emitted right after startServerEncryption.
    connect(this, &QSslServer::startedEncryptionHandshake, this, [this](QSslSocket *socket) {
        if (!m_context)
            m_context = QSslSocketPrivate::sslContext(socket);
    });
#endif
}

SharedContextSslServer::~SharedContextSslServer() = default;

bool SharedContextSslServer::sharingSupported()
{
#ifdef GATEHOUSE_QT_NETWORK_PRIVATE
    return true;
#else
    return false;
#endif
}

bool SharedContextSslServer::sharingContext() const
{
    return m_context != nullptr;
}

void SharedContextSslServer::incomingConnection(qintptr handle)
{
    QSslServer::incomingConnection(handle);
#ifdef GATEHOUSE_QT_NETWORK_PRIVATE
    if (!m_context)
        return;
    // QSslServer parents the new socket to itself and starts its handshake only when the
    // ClientHello arrives, so the context can still be lent here. The newest child is it.
    const QObjectList &kids = children();
    for (auto it = kids.crbegin(); it != kids.crend(); ++it) {
        auto *socket = qobject_cast<QSslSocket *>(*it);
        if (socket && socket->socketDescriptor() == handle) {
            QSslSocketPrivate::checkSettingSslContext(socket, m_context);
            break;
        }
    }
#endif
}

} // namespace Gatehouse
