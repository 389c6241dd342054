// PEM / X.509 input: private keys, CA material and certificates to check.
#include "crypto/certificateauthority.h"
#include "crypto/privatekey.h"

#include "fuzzassert.h"

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Crypto;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const CertificateAuthority ca = *CertificateAuthority::create(
        QStringLiteral("fuzz-ca"), KeyType::EcP256, QDateTime::currentDateTimeUtc());
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    if (auto key = PrivateKey::fromPem(input); key.ok())
        (void)key->publicKeyPem();
    // A certificate the fuzzer made cannot be signed by our CA's key.
    FUZZ_ASSERT(!ca.verifyCertificate(input, CertificateRequest::ClientAuth).ok(),
                "no certificate made without the CA key verifies");
    // Split the input into a certificate and a key part for the CA loader.
    const qsizetype mid = input.indexOf("-----BEGIN", 1);
    if (mid > 0)
        (void)CertificateAuthority::fromPem(input.left(mid), input.mid(mid));
    return 0;
}
