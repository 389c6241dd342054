#pragma once

#include "core/result.h"
#include "oauth/clientregistry.h"

#include <QJsonObject>

namespace Gatehouse::Core {
class WriteTransaction;
}

namespace Gatehouse::OAuth {

class SigningKeys;

struct IssuedToken
{
    QString value;  // the access token, shown to the client only
    QString hash;   // what is stored
    QString format; // jwt | opaque
    QString clientId;
    QString subject;
    QString scope;
    QString audience;
    qint64 issuedAt = 0; // ms
    qint64 expiresAt = 0;
};

// Access tokens: RFC 9068 JWTs (typ at+jwt, signed with the active key) or opaque values of
// 256 random bits. Either way only the SHA-256 hash is stored.
class TokenIssuer
{
public:
    TokenIssuer(SigningKeys &keys, QString issuer);
    const QString &issuer() const { return m_issuer; }
    Core::Result<IssuedToken> accessToken(const Client &client, const QString &subject,
                                          const QString &scope, const QString &audience,
                                          qint64 now) const;
    static QString hashToken(const QString &token);
    static Core::Result<void> store(Core::WriteTransaction &tx, const IssuedToken &t);

private:
    SigningKeys &m_keys;
    QString m_issuer;
};

} // namespace Gatehouse::OAuth
