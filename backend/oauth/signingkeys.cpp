#include "oauth/signingkeys.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/writequeue.h"
#include "crypto/jws.h"
#include "crypto/random.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

namespace Gatehouse::OAuth {

namespace {

constexpr const char *kInsert = "INSERT INTO oauth_signing_keys (kid, alg, private_pem, state, "
                                "created_at) VALUES (?, ?, ?, ?, ?)";

} // namespace

SigningKeys::SigningKeys(Core::Database &database, Core::WriteQueue &writer)
    : m_database(database), m_writer(writer)
{}

const QStringList &SigningKeys::algorithms()
{
    static const QStringList a{QStringLiteral("RS256"), QStringLiteral("ES256")};
    return a;
}

Core::Result<SigningKeys::Key> SigningKeys::generate(const QString &alg, const QString &state,
                                                     qint64 now)
{
    auto key = Crypto::PrivateKey::generate(
        alg == QLatin1String("ES256") ? Crypto::KeyType::EcP256 : Crypto::KeyType::Rsa2048);
    if (!key)
        return key.error();
    return Key{Crypto::Random::identifier(12), alg, state, now, 0, *key};
}

Core::Result<QList<SigningKeys::Key>> SigningKeys::read(QStringList *unsealed)
{
    QSqlQuery q(m_database.connection());
    if (!q.exec(QStringLiteral("SELECT kid, alg, private_pem, state, created_at, retire_after FROM "
                               "oauth_signing_keys WHERE state IN ('active', 'next', 'retired') "
                               "ORDER BY created_at")))
        return Core::makeError(QStringLiteral("database-error"), q.lastError().text());
    QList<Key> keys;
    while (q.next()) {
        const QString kid = q.value(0).toString();
        const QByteArray stored = q.value(2).toByteArray();
        auto pem = m_database.unseal(stored, kid.toUtf8());
        if (!pem)
            return Core::makeError(
                QStringLiteral("signing-key"),
                QStringLiteral("signing key %1 cannot be read: %2. Start with the data directory "
                               "whose database-key sealed it (docs/storage.md), or, to sign with "
                               "new keys from now on (every token signed so far stops "
                               "verifying), delete the rows of oauth_signing_keys")
                    .arg(kid, pem.error().message));
        if (m_database.seals() && *pem == stored && unsealed)
            unsealed->append(kid);
        auto key = Crypto::PrivateKey::fromPem(*pem);
        if (!key)
            return Core::makeError(
                QStringLiteral("signing-key"),
                QStringLiteral("signing key %1 cannot be read: %2").arg(kid, key.error().message));
        keys.append(Key{q.value(0).toString(), q.value(1).toString(), q.value(3).toString(),
                        q.value(4).toLongLong(), q.value(5).toLongLong(), *key});
    }
    return keys;
}

Core::Result<void> SigningKeys::load(qint64 now)
{
    QSqlDatabase db = m_database.connection();
    QStringList unsealed; // written before sealing existed: sealed below
    auto read = this->read(&unsealed);
    if (!read)
        return read.error();
    QList<Key> keys = *read;
    // Before the writer runs (start-up): keys of an older build are sealed now, and what is
    // missing is created directly.
    for (const Key &k : std::as_const(keys)) {
        if (!unsealed.contains(k.kid))
            continue;
        QSqlQuery seal(db);
        seal.prepare(QStringLiteral("UPDATE oauth_signing_keys SET private_pem = ? WHERE kid = ?"));
        seal.addBindValue(QString::fromLatin1(m_database.seal(k.key.toPem(), k.kid.toUtf8())));
        seal.addBindValue(k.kid);
        if (!seal.exec())
            return Core::makeError(QStringLiteral("database-error"), seal.lastError().text());
    }
    for (const QString &alg : algorithms()) {
        for (const char *state : {"active", "next"}) {
            const bool have = std::any_of(keys.begin(), keys.end(), [&](const Key &k) {
                return k.alg == alg && k.state == QLatin1String(state);
            });
            if (have)
                continue;
            auto key = generate(alg, QLatin1String(state), now);
            if (!key)
                return key.error();
            QSqlQuery ins(db);
            ins.prepare(QLatin1String(kInsert));
            for (const QVariant &v : {QVariant(key->kid), QVariant(alg),
                                      QVariant(QString::fromLatin1(
                                          m_database.seal(key->key.toPem(), key->kid.toUtf8()))),
                                      QVariant(QLatin1String(state)), QVariant(now)})
                ins.addBindValue(v);
            if (!ins.exec())
                return Core::makeError(QStringLiteral("database-error"), ins.lastError().text());
            keys.append(*key);
        }
    }
    publish(keys, now);
    return {};
}

Core::Result<void> SigningKeys::reload(qint64 now)
{
    // A read that a rotation made here overtook is read again, never published over it.
    constexpr int kAttempts = 10;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        const quint64 seen = generation();
        auto keys = read(nullptr);
        if (!keys)
            return keys.error();
        for (const QString &alg : algorithms())
            if (std::none_of(keys->begin(), keys->end(), [&alg](const Key &k) {
                    return k.alg == alg && k.state == QLatin1String("active");
                }))
                return Core::makeError(QStringLiteral("signing-key"),
                                       QStringLiteral("no active %1 key in the database: the "
                                                      "keys in use are kept")
                                           .arg(alg));
        if (publish(*keys, now, seen))
            return {};
    }
    return Core::makeError(QStringLiteral("signing-key"),
                           QStringLiteral("keys rotated here during every read; the next "
                                          "announced change reads them again"));
}

quint64 SigningKeys::generation() const
{
    QMutexLocker lock(&m_mutex);
    return m_generation;
}

bool SigningKeys::publish(QList<Key> keys, qint64 now, std::optional<quint64> ifGeneration)
{
    QMutexLocker lock(&m_mutex);
    if (ifGeneration && *ifGeneration != m_generation)
        return false;
    install(std::move(keys), now);
    return true;
}

void SigningKeys::install(QList<Key> keys, qint64 now)
{
    // A retired key past its time is no longer published (nothing it signed is still valid).
    keys.removeIf([now](const Key &k) {
        return k.state == QLatin1String("retired") && k.retireAfter <= now;
    });
    m_nextRetireMs = 0;
    QList<QJsonObject> jwks;
    for (const Key &k : std::as_const(keys)) {
        jwks.append(Crypto::Jws::publicJwk(k.key, k.kid, k.alg));
        if (k.state == QLatin1String("retired") &&
            (m_nextRetireMs == 0 || k.retireAfter < m_nextRetireMs))
            m_nextRetireMs = k.retireAfter;
    }
    m_keys = std::move(keys);
    m_jwks = Crypto::Jws::jwks(jwks);
    m_jwksJson = QJsonDocument(m_jwks).toJson(QJsonDocument::Compact);
}

void SigningKeys::dropRetired(qint64 now)
{
    QMutexLocker lock(&m_mutex);
    if (m_nextRetireMs == 0 || m_nextRetireMs > now)
        return;
    install(m_keys, now);
}

void SigningKeys::rotate(const QString &alg, qint64 now,
                         std::function<void(Core::Result<void>)> done)
{
    if (!algorithms().contains(alg))
        return done(Core::makeError(QStringLiteral("validation-failed"),
                                    QStringLiteral("alg must be RS256 or ES256"), 400));
    auto fresh =
        generate(alg, QStringLiteral("next"), now); // RSA key generation: not in the writer
    if (!fresh)
        return done(fresh.error());
    auto next = std::make_shared<Key>(*fresh);
    const qint64 retireAfter = now + kRetiredPublishedMs;
    const QString sealed =
        QString::fromLatin1(m_database.seal(next->key.toPem(), next->kid.toUtf8()));
    m_writer.submit(
        [next, alg, now, retireAfter, sealed](Core::WriteTransaction &tx) -> Core::Result<void> {
            Core::Statement &retire = tx.stmt(
                "UPDATE oauth_signing_keys SET state = 'retired', retire_after = ? WHERE alg = ? "
                "AND state = 'active'");
            if (!retire.bind(1, retireAfter).bind(2, alg).exec())
                return Core::WriteTransaction::sqlError(retire, "retire key");
            Core::Statement &promote = tx.stmt(
                "UPDATE oauth_signing_keys SET state = 'active' WHERE alg = ? AND state = 'next'");
            if (!promote.bind(1, alg).exec())
                return Core::WriteTransaction::sqlError(promote, "promote key");
            Core::Statement &expire = tx.stmt("UPDATE oauth_signing_keys SET state = 'expired' "
                                              "WHERE state = 'retired' AND retire_after <= ?");
            if (!expire.bind(1, now).exec())
                return Core::WriteTransaction::sqlError(expire, "expire keys");
            Core::Statement &ins = tx.stmt(kInsert);
            ins.bind(1, next->kid).bind(2, alg).bind(3, sealed);
            if (!ins.bind(4, QStringLiteral("next")).bind(5, now).exec())
                return Core::WriteTransaction::sqlError(ins, "new key");
            return {};
        },
        [this, next, alg, now, retireAfter, done = std::move(done)](const Core::Result<void> &r) {
            if (!r)
                return done(r);
            // Read, changed and published as one step: a reload racing it is read again.
            QMutexLocker lock(&m_mutex);
            QList<Key> keys = m_keys;
            for (Key &k : keys) {
                if (k.alg != alg)
                    continue;
                if (k.state == QLatin1String("active")) {
                    k.state = QStringLiteral("retired");
                    k.retireAfter = retireAfter;
                } else if (k.state == QLatin1String("next")) {
                    k.state = QStringLiteral("active");
                }
            }
            keys.append(*next);
            install(std::move(keys), now);
            ++m_generation;
            lock.unlock();
            done({});
        });
}

SigningKeys::Active SigningKeys::active(const QString &alg) const
{
    QMutexLocker lock(&m_mutex);
    for (const Key &k : m_keys)
        if (k.state == QLatin1String("active") && k.alg == alg)
            return Active{k.key, k.kid, k.alg};
    return {};
}

QJsonObject SigningKeys::jwks() const
{
    QMutexLocker lock(&m_mutex);
    return m_jwks;
}

QByteArray SigningKeys::jwksJson() const
{
    QMutexLocker lock(&m_mutex);
    return m_jwksJson;
}

QList<QJsonObject> SigningKeys::list() const
{
    QMutexLocker lock(&m_mutex);
    QList<QJsonObject> out;
    for (const Key &k : m_keys) {
        QJsonObject o{{QStringLiteral("kid"), k.kid},
                      {QStringLiteral("alg"), k.alg},
                      {QStringLiteral("state"), k.state},
                      {QStringLiteral("createdAt"), Core::isoTimeMs(k.createdAt)}};
        if (k.retireAfter)
            o.insert(QStringLiteral("retireAfter"), Core::isoTimeMs(k.retireAfter));
        out.append(o);
    }
    return out;
}

} // namespace Gatehouse::OAuth
