#include "crypto/opensslutil_p.h"

#include "crypto/errorcodes.h"

#include <QStringList>

#include <openssl/err.h>

namespace Gatehouse::Crypto::Detail {

void wipe(QByteArray &secret)
{
    if (!secret.isEmpty())
        OPENSSL_cleanse(secret.data(), size_t(secret.size()));
    secret.clear();
}

QString takeOpenSslErrors()
{
    QStringList reasons;
    unsigned long code = 0;
    while ((code = ERR_get_error()) != 0) {
        if (reasons.size() >= 4)
            continue; // keep draining, but the first few are the useful ones
        const char *reason = ERR_reason_error_string(code);
        reasons << (reason ? QString::fromLatin1(reason)
                           : QStringLiteral("error %1").arg(code, 0, 16));
    }
    return reasons.join(QLatin1String("; "));
}

Error openSslError(const QString &code, const QString &message, int httpStatus)
{
    const QString details = takeOpenSslErrors();
    return makeError(
        code,
        details.isEmpty() ? message : message + QStringLiteral(" (") + details + QLatin1Char(')'),
        httpStatus);
}

QByteArray readBio(BIO *bio)
{
    char *data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    if (len <= 0 || !data)
        return {};
    return QByteArray(data, qsizetype(len));
}

std::vector<unsigned char> bnBytes(const BIGNUM *bn, int padTo)
{
    if (!bn)
        return {};
    const int natural = BN_num_bytes(bn);
    const int len = padTo > natural ? padTo : natural;
    std::vector<unsigned char> out(size_t(len > 0 ? len : 0));
    if (len > 0 && BN_bn2binpad(bn, out.data(), len) != len)
        return {};
    return out;
}

BnPtr bnParam(const EVP_PKEY *pkey, const char *name)
{
    BIGNUM *bn = nullptr;
    if (EVP_PKEY_get_bn_param(pkey, name, &bn) != 1) {
        ERR_clear_error();
        return nullptr;
    }
    return BnPtr(bn);
}

QByteArray base64Url(const QByteArray &data)
{
    return data.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray base64Url(const std::vector<unsigned char> &data)
{
    return base64Url(QByteArray::fromRawData(reinterpret_cast<const char *>(data.data()),
                                             qsizetype(data.size())));
}

bool isBase64Url(const QByteArray &text)
{
    for (const char c : text) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok)
            return false;
    }
    // A single leftover character cannot encode a byte.
    return text.size() % 4 != 1;
}

Result<QByteArray> fromBase64Url(const QByteArray &text)
{
    if (!isBase64Url(text))
        return makeError(ErrorCode::Malformed, QStringLiteral("invalid base64url"), 400);
    auto decoded = QByteArray::fromBase64Encoding(
        text, QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals |
                  QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return makeError(ErrorCode::Malformed, QStringLiteral("invalid base64url"), 400);
    return std::move(decoded.decoded);
}

} // namespace Gatehouse::Crypto::Detail
