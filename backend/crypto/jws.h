#pragma once

#include "core/result.h"
#include "crypto/privatekey.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace Gatehouse::Crypto {

struct VerifiedJws
{
    QJsonObject header; // the protected header, as signed
    QByteArray payload;
    QString kid; // empty when the header has none
    QString alg;
};

// JSON Web Signature (RFC 7515), compact serialization, through cjose.
// Supported algorithms: RS256 and PS256 with RSA keys, ES256 with EC P-256 keys.
// Never HMAC, never "none".
namespace Jws {

// Signs payload. `alg` must suit the key (RS256/PS256 for RSA, ES256 for EC P-256),
// otherwise an Error. protectedHeader carries kid, typ, ...; its own "alg", if any,
// must equal `alg`.
Result<QByteArray> sign(const PrivateKey &key, const QString &alg,
                        const QJsonObject &protectedHeader, const QByteArray &payload);

// The public JWK (RFC 7517) of key: kty, n/e or crv/x/y, kid (when not empty), alg,
// use. Never contains private members. An empty `alg` means key.defaultJwsAlg(); an
// `alg` that does not suit the key yields an empty object (fail closed).
QJsonObject publicJwk(const PrivateKey &key, const QString &kid, const QString &alg,
                      const QString &use = QStringLiteral("sig"));

// The public JWK (kty and key members only, no alg/use/kid) of a PEM "PUBLIC KEY" or
// "CERTIFICATE" (RSA >= 2048 bits or EC P-256): for verifying a pasted key.
Result<QJsonObject> publicJwkFromPem(const QByteArray &pem);
// {"keys": [...]} (RFC 7517 section 5).
QJsonObject jwks(const QList<QJsonObject> &keys);

// Verifies compact against one public JWK. Refused (fail closed): malformed input,
// alg "none", any HS* alg, algs other than RS256/PS256/ES256, alg not matching the
// key's kty/crv or the JWK's own "alg", a JWK whose "use" is not "sig", any "crit"
// header, a bad signature.
Result<VerifiedJws> verify(const QByteArray &compact, const QJsonObject &publicJwk);

// Why `jwk`, registered as a client's or a trusted issuer's signing key, could never be one:
// private members (d, p, q, dp, dq, qi, oth, k: p and q alone are the private key), a key type,
// size or curve verify() refuses, an RSA exponent that is even or below 65537 (e = 1 makes any
// padded digest a valid signature), an alg that does not suit it. Nothing when it is usable.
std::optional<QString> registeredKeyProblem(const QJsonObject &jwk);

// Verifies against a JWK Set {"keys": [...]}: the key is selected by the header's
// kid; without a kid only a set of exactly one key is usable.
Result<VerifiedJws> verifyWithJwks(const QByteArray &compact, const QJsonObject &jwks);

// NOT VERIFIED: {"header": {...}, "payload": <JSON value, or the text if the payload
// is not JSON>} for display only. Never base a decision on it.
Result<QJsonObject> decodeUnverified(const QByteArray &compact);

} // namespace Jws

} // namespace Gatehouse::Crypto
