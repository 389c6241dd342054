#include "crypto/sealing.h"

#include "crypto/random.h"
#include "crypto/securefile_p.h"
#include "platform/platform.h"

#include <QFile>

#include <memory>

#include <openssl/evp.h>

namespace Gatehouse::Crypto {

namespace {

constexpr int kKeyBytes = 32;
constexpr int kNonceBytes = 12;
constexpr int kTagBytes = 16;
const QByteArray kPrefix = QByteArrayLiteral("sealed:v1:");

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

Error sealingError(const QString &message)
{
    return Error{QStringLiteral("sealing"), message, 500};
}

} // namespace

Result<SealingKey> SealingKey::loadOrCreate(const QString &path)
{
    if (!QFile::exists(path)) {
        const QByteArray key = Random::bytes(kKeyBytes);
        if (auto r = Platform::writePrivateFile(path, key.toBase64() + '\n'); !r)
            return r.error();
    }
    return load(path);
}

Result<SealingKey> SealingKey::load(const QString &path)
{
    if (!QFile::exists(path))
        return sealingError(QStringLiteral("the database key file %1 does not exist (make one with "
                                           "`umask 077; openssl rand -base64 32 > FILE`)")
                                .arg(path));
    if (auto r = Platform::checkPrivateFile(path); !r)
        return sealingError(r.error().message);
    auto text = Detail::readSmallFile(path, 1024);
    if (!text)
        return text.error();
    const auto decoded =
        QByteArray::fromBase64Encoding(text->trimmed(), QByteArray::AbortOnBase64DecodingErrors);
    const QByteArray key = decoded ? *decoded : QByteArray();
    if (key.size() != kKeyBytes)
        return sealingError(
            QStringLiteral("%1 does not hold a %2-byte key (base64)").arg(path).arg(kKeyBytes));
    return fromBytes(key);
}

SealingKey SealingKey::fromBytes(const QByteArray &key32)
{
    SealingKey k;
    k.m_key = key32;
    return k;
}

bool SealingKey::isSealed(const QByteArray &stored)
{
    return stored.startsWith(kPrefix);
}

QByteArray SealingKey::seal(const QByteArray &plain, const QByteArray &context) const
{
    const QByteArray nonce = Random::bytes(kNonceBytes);
    QByteArray out(kNonceBytes + plain.size() + kTagBytes, Qt::Uninitialized);
    std::memcpy(out.data(), nonce.constData(), kNonceBytes);
    CipherContext ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    int n = 0;
    int total = 0;
    auto *cipher = reinterpret_cast<unsigned char *>(out.data() + kNonceBytes);
    if (!ctx || m_key.size() != kKeyBytes ||
        EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr,
                           reinterpret_cast<const unsigned char *>(m_key.constData()),
                           reinterpret_cast<const unsigned char *>(nonce.constData())) != 1 ||
        EVP_EncryptUpdate(ctx.get(), nullptr, &n,
                          reinterpret_cast<const unsigned char *>(context.constData()),
                          int(context.size())) != 1 ||
        EVP_EncryptUpdate(ctx.get(), cipher, &n,
                          reinterpret_cast<const unsigned char *>(plain.constData()),
                          int(plain.size())) != 1)
        return {};
    total = n;
    if (EVP_EncryptFinal_ex(ctx.get(), cipher + total, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, cipher + plain.size()) != 1)
        return {};
    return kPrefix + out.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

Result<QByteArray> SealingKey::open(const QByteArray &stored, const QByteArray &context) const
{
    if (!isSealed(stored))
        return stored;
    const QByteArray raw = QByteArray::fromBase64(
        stored.mid(kPrefix.size()), QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    if (raw.size() < kNonceBytes + kTagBytes || m_key.size() != kKeyBytes)
        return sealingError(QStringLiteral("a sealed value is cut short"));
    const qsizetype length = raw.size() - kNonceBytes - kTagBytes;
    QByteArray plain(length, Qt::Uninitialized);
    QByteArray tag = raw.right(kTagBytes);
    CipherContext ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    int n = 0;
    const auto *bytes = reinterpret_cast<const unsigned char *>(raw.constData());
    if (!ctx ||
        EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr,
                           reinterpret_cast<const unsigned char *>(m_key.constData()),
                           bytes) != 1 ||
        EVP_DecryptUpdate(ctx.get(), nullptr, &n,
                          reinterpret_cast<const unsigned char *>(context.constData()),
                          int(context.size())) != 1 ||
        EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char *>(plain.data()), &n,
                          bytes + kNonceBytes, int(length)) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1 ||
        EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char *>(plain.data()) + n, &n) !=
            1)
        return sealingError(QStringLiteral("a sealed value does not open with the database key "
                                           "(another data directory's database-key?)"));
    return plain;
}

} // namespace Gatehouse::Crypto
