#include "crypto/digest.h"

#include "crypto/opensslutil_p.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <memory>

namespace Gatehouse::Crypto::Digest {

namespace {

// Fetched once: EVP_sha256() looks the implementation up in the provider on every call, which
// costs more than hashing a short input. A fetched EVP_MD is immutable and may be shared
// between threads; it lives as long as the process.
const EVP_MD *sha256Md()
{
    static EVP_MD *const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return md;
}

// Fetched once, like the digest.
EVP_MAC *hmacMac()
{
    static EVP_MAC *const mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    return mac;
}

// This thread's HMAC context with its digest set: EVP_MAC_init() with the digest as a
// parameter fetches SHA-256 from the provider again at every call (a lock and a search of
// the provider's store), which cost more than the MAC of a webhook's few hundred bytes. The
// context is initialised again with each key; it goes when the thread ends.
EVP_MAC_CTX *threadHmacSha256()
{
    struct Free
    {
        void operator()(EVP_MAC_CTX *c) const { EVP_MAC_CTX_free(c); }
    };
    thread_local const std::unique_ptr<EVP_MAC_CTX, Free> ctx = [] {
        EVP_MAC *mac = hmacMac();
        EVP_MAC_CTX *c = mac ? EVP_MAC_CTX_new(mac) : nullptr;
        char digest[] = "SHA256";
        const OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_END};
        if (c && EVP_MAC_CTX_set_params(c, params) != 1) {
            EVP_MAC_CTX_free(c);
            c = nullptr;
        }
        return std::unique_ptr<EVP_MAC_CTX, Free>(c);
    }();
    return ctx.get();
}

} // namespace

QByteArray hmacSha256(QByteArrayView key, std::initializer_list<QByteArrayView> parts)
{
    QByteArray out(32, Qt::Uninitialized);
    EVP_MAC_CTX *ctx = threadHmacSha256();
    // An empty key is a valid HMAC key; OpenSSL wants a non-null pointer for it.
    static const unsigned char none = 0;
    const auto *keyBytes =
        key.isEmpty() ? &none : reinterpret_cast<const unsigned char *>(key.data());
    bool ok = ctx && EVP_MAC_init(ctx, keyBytes, size_t(key.size()), nullptr) == 1;
    for (QByteArrayView part : parts)
        ok = ok && (part.isEmpty() ||
                    EVP_MAC_update(ctx, reinterpret_cast<const unsigned char *>(part.data()),
                                   size_t(part.size())) == 1);
    size_t length = 0;
    ok = ok &&
         EVP_MAC_final(ctx, reinterpret_cast<unsigned char *>(out.data()), &length, 32) == 1 &&
         length == 32;
    if (!ok)
        qFatal("gatehouse.crypto: HMAC-SHA256 failed (%s)",
               qPrintable(Detail::takeOpenSslErrors()));
    return out;
}

QByteArray sha256(QByteArrayView data)
{
    QByteArray out(32, Qt::Uninitialized);
    unsigned int length = 0;
    const EVP_MD *md = sha256Md();
    if (!md ||
        EVP_Digest(data.data(), size_t(data.size()), reinterpret_cast<unsigned char *>(out.data()),
                   &length, md, nullptr) != 1 ||
        length != 32)
        qFatal("gatehouse.crypto: SHA-256 failed (%s)", qPrintable(Detail::takeOpenSslErrors()));
    return out;
}

bool equalInConstantTime(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), size_t(a.size())) == 0;
}

} // namespace Gatehouse::Crypto::Digest
