#include "oauth/signingkeys.h"

#include "core/clock.h"
#include "core/database.h"
#include "crypto/jws.h"
#include "crypto/random.h"

#include <QSqlError>
#include <QSqlQuery>

namespace Gatehouse::OAuth {

SigningKeys::SigningKeys(Core::Database &database) : m_database(database) {}

Core::Result<void> SigningKeys::load(qint64 now)
{
    QSqlDatabase db = m_database.connection();
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT kid, alg, private_pem, state, created_at FROM "
                               "oauth_signing_keys WHERE state IN ('active', 'next', 'retired') "
                               "ORDER BY created_at")))
        return Core::makeError(QStringLiteral("database-error"), q.lastError().text());
    QList<Key> keys;
    while (q.next()) {
        auto key = Crypto::PrivateKey::fromPem(q.value(2).toByteArray());
        if (!key)
            return Core::makeError(QStringLiteral("signing-key"),
                                   QStringLiteral("signing key %1 cannot be read: %2")
                                       .arg(q.value(0).toString(), key.error().message));
        keys.append(Key{q.value(0).toString(), q.value(1).toString(), q.value(3).toString(),
                        q.value(4).toLongLong(), *key});
    }
    const bool haveActive =
        std::any_of(keys.begin(), keys.end(), [](const Key &k) { return k.state == "active"; });
    if (!haveActive) {
        auto key = Crypto::PrivateKey::generate(Crypto::KeyType::Rsa2048);
        if (!key)
            return key.error();
        const QString kid = Crypto::Random::token(12);
        QSqlQuery ins(db);
        ins.prepare(QStringLiteral("INSERT INTO oauth_signing_keys (kid, alg, private_pem, "
                                   "state, created_at) VALUES (?, 'RS256', ?, 'active', ?)"));
        ins.addBindValue(kid);
        ins.addBindValue(QString::fromLatin1(key->toPem()));
        ins.addBindValue(now);
        if (!ins.exec())
            return Core::makeError(QStringLiteral("database-error"), ins.lastError().text());
        keys.append(Key{kid, QStringLiteral("RS256"), QStringLiteral("active"), now, *key});
    }
    QList<QJsonObject> jwks;
    for (const Key &k : std::as_const(keys))
        jwks.append(Crypto::Jws::publicJwk(k.key, k.kid, k.alg));
    QMutexLocker lock(&m_mutex);
    m_keys = keys;
    m_jwks = Crypto::Jws::jwks(jwks);
    return {};
}

SigningKeys::Active SigningKeys::active() const
{
    QMutexLocker lock(&m_mutex);
    for (const Key &k : m_keys)
        if (k.state == QLatin1String("active"))
            return Active{k.key, k.kid, k.alg};
    return {};
}

QJsonObject SigningKeys::jwks() const
{
    QMutexLocker lock(&m_mutex);
    return m_jwks;
}

QList<QJsonObject> SigningKeys::list() const
{
    QMutexLocker lock(&m_mutex);
    QList<QJsonObject> out;
    for (const Key &k : m_keys)
        out.append(QJsonObject{{QStringLiteral("kid"), k.kid},
                               {QStringLiteral("alg"), k.alg},
                               {QStringLiteral("state"), k.state},
                               {QStringLiteral("createdAt"), Core::isoTimeMs(k.createdAt)}});
    return out;
}

} // namespace Gatehouse::OAuth
