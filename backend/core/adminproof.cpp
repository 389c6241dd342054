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

QByteArray adminTokenDigest(const QString &token)
{
    return QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256).toHex();
}

QByteArray adminTokenProofKey(const QString &token)
{
    return QCryptographicHash::hash("gatehouse-admin-proof-key\n" + token.toUtf8(),
                                    QCryptographicHash::Sha256)
        .toHex();
}

QString adminProofTokenId(const QByteArray &digest)
{
    return QString::fromLatin1(
        QCryptographicHash::hash("gatehouse-admin-proof-id\n" + digest, QCryptographicHash::Sha256)
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)
            .left(22));
}

QByteArray adminTokenProof(const QByteArray &proofKey, const QByteArray &nonce,
                           const QString &endpoint)
{
    // "/3": never the message of a root proof, whatever the nonce.
    return QMessageAuthenticationCode::hash("gatehouse-admin-proof/3\n" + nonce + '\n' +
                                                endpoint.toLatin1(),
                                            proofKey, QCryptographicHash::Sha256)
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

namespace {

// "127.0.0.1:8081" or "[::1]:8081" (adminProofEndpoint's form) split; false when it is not one.
bool splitEndpoint(const QString &endpoint, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = endpoint.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return false;
    QString host = endpoint.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint p = endpoint.mid(colon + 1).toUInt(&ok);
    if (!ok || p == 0 || p > 65535 || !address->setAddress(host))
        return false;
    *port = quint16(p);
    return true;
}

} // namespace

bool adminTokenProved(const QJsonObject &answer, const QByteArray &proofKey,
                      const QByteArray &nonce, const QString &connected, bool viaProxy)
{
    const QString named = answer.value(QLatin1String("endpoint")).toString();
    const QByteArray proof = answer.value(QLatin1String("proof")).toString().toLatin1();
    if (named.isEmpty() || proof.isEmpty() || proof != adminTokenProof(proofKey, nonce, named))
        return false;
    if (named == connected)
        return true;
    if (!viaProxy)
        return false;
    QHostAddress namedAddress, connectedAddress;
    quint16 namedPort = 0, connectedPort = 0;
    return splitEndpoint(named, &namedAddress, &namedPort) &&
           splitEndpoint(connected, &connectedAddress, &connectedPort) &&
           namedAddress.isLoopback() && connectedAddress.isLoopback() && namedPort != connectedPort;
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
