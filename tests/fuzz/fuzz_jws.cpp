// JWS / JWT compact serializations from clients: decode, verify against RSA and EC keys
// and a JWKS. Nothing forged may verify.
#include "crypto/jws.h"
#include "crypto/privatekey.h"

#include <QJsonArray>

#include "fuzzassert.h"

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Crypto;

namespace {
struct Keys
{
    QJsonObject rsa;
    QJsonObject ec;
    QJsonObject set;
    Keys()
    {
        const auto r = PrivateKey::generate(KeyType::Rsa2048);
        const auto e = PrivateKey::generate(KeyType::EcP256);
        rsa = Jws::publicJwk(*r, QStringLiteral("r1"), QStringLiteral("RS256"));
        ec = Jws::publicJwk(*e, QStringLiteral("e1"), QStringLiteral("ES256"));
        set = Jws::jwks({rsa, ec});
    }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const Keys keys;
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    (void)Jws::decodeUnverified(input);
    // The fuzzer cannot know the private keys: a verified result means a forgery got through.
    FUZZ_ASSERT(!Jws::verify(input, keys.rsa).ok(), "no forged RS256/PS256 token verifies");
    FUZZ_ASSERT(!Jws::verify(input, keys.ec).ok(), "no forged ES256 token verifies");
    FUZZ_ASSERT(!Jws::verifyWithJwks(input, keys.set).ok(), "no forged token verifies by kid");
    return 0;
}
