#include "core/adminproof.h"

#include <QCryptographicHash>
#include <QMessageAuthenticationCode>

namespace Gatehouse::Core {

QByteArray adminProof(const QString &rootToken, const QByteArray &nonce)
{
    return QMessageAuthenticationCode::hash("gatehouse-admin-proof\n" + nonce, rootToken.toUtf8(),
                                            QCryptographicHash::Sha256)
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
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
