#include "oauth/tokenissuer.h"

#include "core/writequeue.h"
#include "crypto/jws.h"
#include "crypto/random.h"
#include "oauth/signingkeys.h"

#include <QCryptographicHash>
#include <QJsonDocument>

namespace Gatehouse::OAuth {

TokenIssuer::TokenIssuer(SigningKeys &keys, QString issuer)
    : m_keys(keys), m_issuer(std::move(issuer))
{}

QString TokenIssuer::hashToken(const QString &token)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256)
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

Core::Result<IssuedToken> TokenIssuer::accessToken(const Client &client, const QString &subject,
                                                   const QString &scope, const QString &audience,
                                                   qint64 now) const
{
    IssuedToken t;
    t.format = client.accessTokenFormat;
    t.clientId = client.clientId;
    t.subject = subject;
    t.scope = scope;
    t.audience = audience;
    t.issuedAt = now;
    t.expiresAt = now + qint64(client.accessTokenLifetime) * 1000;
    if (t.format == QLatin1String("opaque")) {
        t.value = Crypto::Random::token(32);
    } else {
        const SigningKeys::Active key = m_keys.active();
        if (key.kid.isEmpty())
            return Core::makeError(QStringLiteral("server_error"),
                                   QStringLiteral("no active signing key"), 500);
        QJsonObject claims{{QStringLiteral("iss"), m_issuer},
                           {QStringLiteral("sub"), subject},
                           {QStringLiteral("aud"), audience},
                           {QStringLiteral("exp"), t.expiresAt / 1000},
                           {QStringLiteral("iat"), now / 1000},
                           {QStringLiteral("jti"), Crypto::Random::token(16)},
                           {QStringLiteral("client_id"), client.clientId}};
        if (!scope.isEmpty())
            claims.insert(QStringLiteral("scope"), scope);
        auto jws = Crypto::Jws::sign(key.key, key.alg,
                                     QJsonObject{{QStringLiteral("alg"), key.alg},
                                                 {QStringLiteral("kid"), key.kid},
                                                 {QStringLiteral("typ"), QStringLiteral("at+jwt")}},
                                     QJsonDocument(claims).toJson(QJsonDocument::Compact));
        if (!jws)
            return jws.error();
        t.value = QString::fromLatin1(*jws);
    }
    t.hash = hashToken(t.value);
    return t;
}

Core::Result<void> TokenIssuer::store(Core::WriteTransaction &tx, const IssuedToken &t)
{
    Core::Statement &q = tx.stmt(
        "INSERT INTO oauth_tokens (hash, kind, format, client_id, subject, scope, audience, "
        "issued_at, expires_at) VALUES (?, 'access', ?, ?, ?, ?, ?, ?, ?)");
    q.bind(1, t.hash).bind(2, t.format).bind(3, t.clientId).bind(4, t.subject);
    q.bind(5, t.scope).bind(6, t.audience).bind(7, t.issuedAt).bind(8, t.expiresAt);
    if (!q.exec())
        return Core::WriteTransaction::sqlError(q, "store token");
    return {};
}

} // namespace Gatehouse::OAuth
