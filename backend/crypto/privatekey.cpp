#include "crypto/privatekey.h"

#include "crypto/cryptologging.h"
#include "crypto/errorcodes.h"
#include "crypto/privatekey_p.h"
#include "crypto/securefile_p.h"
#include "platform/platform.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QStringList>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/pem.h>

namespace Gatehouse::Crypto {

using namespace Detail;

namespace {

constexpr qsizetype MaxKeyPemSize = 64 * 1024;

// PEM callback: encrypted keys are refused instead of prompting on a terminal.
int refusePassphrase(char *, int, int, void *)
{
    return 0;
}

QString ecGroupName(const EVP_PKEY *pkey)
{
    char name[80] = {};
    size_t len = 0;
    if (EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof(name),
                                       &len) != 1) {
        ERR_clear_error();
        return {};
    }
    return QString::fromLatin1(name, qsizetype(len));
}

} // namespace

Result<PrivateKey> PrivateKeyAccess::adopt(PkeyPtr pkey)
{
    if (!pkey)
        return makeError(ErrorCode::KeyNull, QStringLiteral("no key"));
    switch (EVP_PKEY_get_base_id(pkey.get())) {
    case EVP_PKEY_RSA: {
        const int bits = EVP_PKEY_get_bits(pkey.get());
        if (bits == 2048)
            return PrivateKey(
                std::make_shared<const PrivateKeyPrivate>(std::move(pkey), KeyType::Rsa2048));
        if (bits == 3072)
            return PrivateKey(
                std::make_shared<const PrivateKeyPrivate>(std::move(pkey), KeyType::Rsa3072));
        return makeError(
            ErrorCode::KeyUnsupported,
            QStringLiteral("RSA keys of %1 bits are not supported (2048 or 3072)").arg(bits), 400);
    }
    case EVP_PKEY_EC: {
        const QString group = ecGroupName(pkey.get());
        if (group == QLatin1String("prime256v1") || group == QLatin1String("P-256"))
            return PrivateKey(
                std::make_shared<const PrivateKeyPrivate>(std::move(pkey), KeyType::EcP256));
        return makeError(ErrorCode::KeyUnsupported,
                         QStringLiteral("EC curve '%1' is not supported (P-256 only)").arg(group),
                         400);
    }
    default:
        return makeError(ErrorCode::KeyUnsupported,
                         QStringLiteral("unsupported key type (RSA or EC P-256 only)"), 400);
    }
}

PrivateKey::PrivateKey() = default;
PrivateKey::~PrivateKey() = default;
PrivateKey::PrivateKey(const PrivateKey &) = default;
PrivateKey &PrivateKey::operator=(const PrivateKey &) = default;
PrivateKey::PrivateKey(PrivateKey &&) noexcept = default;
PrivateKey &PrivateKey::operator=(PrivateKey &&) noexcept = default;

PrivateKey::PrivateKey(std::shared_ptr<const PrivateKeyPrivate> d) : m_d(std::move(d)) {}

Result<PrivateKey> PrivateKey::generate(KeyType type)
{
    ERR_clear_error();
    PkeyPtr pkey;
    switch (type) {
    case KeyType::Rsa2048:
        pkey.reset(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t(2048)));
        break;
    case KeyType::Rsa3072:
        pkey.reset(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t(3072)));
        break;
    case KeyType::EcP256:
        pkey.reset(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
        break;
    }
    if (!pkey)
        return openSslError(ErrorCode::KeyGenerationFailed,
                            QStringLiteral("key generation failed"));
    return PrivateKeyAccess::adopt(std::move(pkey));
}

Result<PrivateKey> PrivateKey::fromPem(const QByteArray &pem)
{
    if (pem.isEmpty() || pem.size() > MaxKeyPemSize)
        return makeError(ErrorCode::KeyInvalid, QStringLiteral("empty or oversized PEM"), 400);
    ERR_clear_error();
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    if (!bio)
        return openSslError(ErrorCode::Internal, QStringLiteral("out of memory"));
    PkeyPtr pkey(PEM_read_bio_PrivateKey(bio.get(), nullptr, refusePassphrase, nullptr));
    if (!pkey)
        return openSslError(ErrorCode::KeyInvalid,
                            QStringLiteral("not an unencrypted PEM private key"), 400);

    // A damaged key would sign garbage; check that the private and public halves match.
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, pkey.get(), nullptr));
    if (!ctx || EVP_PKEY_pairwise_check(ctx.get()) != 1)
        return openSslError(ErrorCode::KeyInvalid, QStringLiteral("inconsistent private key"), 400);
    return PrivateKeyAccess::adopt(std::move(pkey));
}

Result<PrivateKey> PrivateKey::loadFile(const QString &path)
{
    auto data = readSmallFile(path, MaxKeyPemSize);
    if (!data)
        return data.error();
    auto key = fromPem(*data);
    wipe(*data);
    if (!key)
        return makeError(key.error().code, QStringLiteral("%1: %2").arg(path, key.error().message),
                         key.error().httpStatus);
    return key;
}

Result<void> PrivateKey::saveFile(const QString &path) const
{
    if (isNull())
        return makeError(ErrorCode::KeyNull, QStringLiteral("cannot save a null key"));
    QByteArray pem = toPem();
    if (pem.isEmpty())
        return makeError(ErrorCode::Internal, QStringLiteral("cannot encode the key"));
    auto written = Platform::writeFileAtomically(path, pem, 0600);
    wipe(pem);
    return written;
}

bool PrivateKey::isNull() const
{
    return !m_d;
}

QByteArray PrivateKey::toPem() const
{
    if (isNull())
        return {};
    // Secure-heap memory BIO: OpenSSL wipes its buffer when freed.
    BioPtr bio(BIO_new(BIO_s_secmem()));
    if (!bio || PEM_write_bio_PKCS8PrivateKey(bio.get(), m_d->pkey.get(), nullptr, nullptr, 0,
                                              nullptr, nullptr) != 1) {
        qCWarning(lcCrypto) << "cannot encode private key:" << takeOpenSslErrors();
        return {};
    }
    return readBio(bio.get());
}

QByteArray PrivateKey::publicKeyPem() const
{
    if (isNull())
        return {};
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PUBKEY(bio.get(), m_d->pkey.get()) != 1) {
        qCWarning(lcCrypto) << "cannot encode public key:" << takeOpenSslErrors();
        return {};
    }
    return readBio(bio.get());
}

KeyType PrivateKey::type() const
{
    Q_ASSERT(!isNull());
    return m_d ? m_d->type : KeyType::EcP256;
}

bool PrivateKey::isRsa() const
{
    return m_d && (m_d->type == KeyType::Rsa2048 || m_d->type == KeyType::Rsa3072);
}

QString PrivateKey::defaultJwsAlg() const
{
    if (isNull())
        return {};
    return isRsa() ? QStringLiteral("RS256") : QStringLiteral("ES256");
}

QString PrivateKey::thumbprint() const
{
    return isNull() ? QString() : jwkThumbprint(publicJwkMembers(m_d->pkey.get()));
}

QString jwkThumbprint(const QJsonObject &publicJwk)
{
    const QString kty = publicJwk.value(QLatin1String("kty")).toString();
    const QStringList members = kty == QLatin1String("RSA")   ? QStringList{"e", "kty", "n"}
                                : kty == QLatin1String("EC")  ? QStringList{"crv", "kty", "x", "y"}
                                : kty == QLatin1String("OKP") ? QStringList{"crv", "kty", "x"}
                                                              : QStringList{};
    if (members.isEmpty())
        return {};
    // RFC 7638 section 3.2: the required members only, in lexicographic order (QJsonObject
    // keeps its keys sorted), no whitespace.
    QJsonObject canonical;
    for (const QString &m : members) {
        const QJsonValue v = publicJwk.value(m);
        if (!v.isString() || v.toString().isEmpty())
            return {};
        canonical.insert(m, v);
    }
    return QString::fromLatin1(base64Url(QCryptographicHash::hash(
        QJsonDocument(canonical).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256)));
}

namespace Detail {

QJsonObject publicJwkMembers(const EVP_PKEY *pkey)
{
    QJsonObject jwk;
    if (!pkey)
        return jwk;
    if (EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA) {
        const BnPtr n = bnParam(pkey, OSSL_PKEY_PARAM_RSA_N);
        const BnPtr e = bnParam(pkey, OSSL_PKEY_PARAM_RSA_E);
        if (!n || !e)
            return {};
        jwk.insert(QLatin1String("kty"), QLatin1String("RSA"));
        jwk.insert(QLatin1String("n"), QString::fromLatin1(base64Url(bnBytes(n.get()))));
        jwk.insert(QLatin1String("e"), QString::fromLatin1(base64Url(bnBytes(e.get()))));
    } else {
        const BnPtr x = bnParam(pkey, OSSL_PKEY_PARAM_EC_PUB_X);
        const BnPtr y = bnParam(pkey, OSSL_PKEY_PARAM_EC_PUB_Y);
        if (!x || !y)
            return {};
        // RFC 7518 section 6.2.1.2: full coordinate length, 32 bytes for P-256.
        jwk.insert(QLatin1String("kty"), QLatin1String("EC"));
        jwk.insert(QLatin1String("crv"), QLatin1String("P-256"));
        jwk.insert(QLatin1String("x"), QString::fromLatin1(base64Url(bnBytes(x.get(), 32))));
        jwk.insert(QLatin1String("y"), QString::fromLatin1(base64Url(bnBytes(y.get(), 32))));
    }
    return jwk;
}

} // namespace Detail

} // namespace Gatehouse::Crypto
