#pragma once

#include <QJsonObject>
#include <QString>

namespace Gatehouse::OAuth {

// Where the key for a JWT's signature comes from.
struct JwtKeySource
{
    QJsonObject serverJwks; // this server's JWKS (used when nothing was pasted)
    QJsonObject jwks;       // a pasted JWK Set, or a single pasted JWK
    QString pem;            // a pasted PEM public key or certificate
};

struct JwtExpectations
{
    QString issuer;   // empty: not checked
    QString audience; // empty: not checked
    qint64 now = 0;   // ms
    qint64 leewayS = 60;
};

// Decodes and verifies any compact JWT for the console's decoder: header and payload,
// one check per rule (alg, kid, signature, exp, nbf, iat, iss, aud; each "pass", "fail" or
// "skip" with a detail sentence), `valid` and a verdict that says why. Never throws away
// the decoded parts when verification fails.
QJsonObject inspectJwt(const QByteArray &compact, const JwtKeySource &keys,
                       const JwtExpectations &expect);

} // namespace Gatehouse::OAuth
