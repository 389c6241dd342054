// Untrusted JWTs: client assertions (private_key_jwt), jwt-bearer grants, token-exchange
// subject tokens and the console's JWT decoder. The property that matters: without the
// private key nothing verifies, whatever the bytes (alg none, HS256, kid games, crit, ...).
#include "crypto/jws.h"
#include "crypto/privatekey.h"
#include "oauth/assertions.h"
#include "oauth/jwtinspector.h"

#include "fuzzassert.h"

#include <QJsonArray>

#include <cstddef>
#include <cstdint>

using namespace Gatehouse;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const QJsonObject jwks = [] {
        QList<QJsonObject> keys;
        for (auto type : {Crypto::KeyType::Rsa2048, Crypto::KeyType::EcP256}) {
            const auto key = Crypto::PrivateKey::generate(type);
            keys.append(Crypto::Jws::publicJwk(*key, QStringLiteral("k%1").arg(keys.size()), {}));
        }
        return Crypto::Jws::jwks(keys);
    }();
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qint64 now = 1'800'000'000'000;

    const auto claims = OAuth::verifyAssertion(input, jwks, {}, {}, {QStringLiteral("x")}, now);
    FUZZ_ASSERT(!claims, "no assertion verifies without the private key");

    OAuth::JwtKeySource keys{jwks, {}, {}};
    OAuth::JwtExpectations expect{QStringLiteral("https://issuer.example"), {}, now, 60};
    const QJsonObject verdict = OAuth::inspectJwt(input, keys, expect);
    FUZZ_ASSERT(!verdict.value(QStringLiteral("valid")).toBool(), "the decoder never says valid");
    for (const auto &c : verdict.value(QStringLiteral("checks")).toArray())
        if (c.toObject().value(QStringLiteral("name")).toString() == QLatin1String("signature"))
            FUZZ_ASSERT(c.toObject().value(QStringLiteral("status")).toString() !=
                            QLatin1String("pass"),
                        "no forged signature passes");
    (void)OAuth::peekIssuer(input);
    return 0;
}
