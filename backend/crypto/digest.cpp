#include "crypto/digest.h"

#include "crypto/opensslutil_p.h"

#include <openssl/evp.h>

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

} // namespace

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

} // namespace Gatehouse::Crypto::Digest
