#include "core/adminproof.h"

#include <QCryptographicHash>
#include <QMessageAuthenticationCode>

namespace Gatehouse::Core {

namespace {

QByteArray mac(const QString &rootToken, const QByteArray &message)
{
    return QMessageAuthenticationCode::hash(message, rootToken.toUtf8(), QCryptographicHash::Sha256)
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

QByteArray adminProof(const QString &rootToken, const QByteArray &nonce, const QString &endpoint)
{
    // "/2": never the message of a legacy proof, whatever the nonce.
    return mac(rootToken, "gatehouse-admin-proof/2\n" + nonce + '\n' + endpoint.toLatin1());
}

QString adminProofEndpoint(const QHostAddress &address, quint16 port)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4); // also an IPv4-mapped IPv6 address
    if (isV4)
        return QStringLiteral("%1:%2").arg(QHostAddress(v4).toString()).arg(port);
    QHostAddress plain(address);
    plain.setScopeId(QString());
    return QStringLiteral("[%1]:%2").arg(plain.toString()).arg(port);
}

QByteArray legacyAdminProof(const QString &rootToken, const QByteArray &nonce)
{
    return mac(rootToken, "gatehouse-admin-proof\n" + nonce);
}

bool isAdminProofNonce(const QByteArray &nonce)
{
    if (nonce.size() < 22 || nonce.size() > 128)
        return false;
    for (const char c : nonce)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return false;
    return true;
}

} // namespace Gatehouse::Core
