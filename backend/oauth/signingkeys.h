#pragma once

#include "core/result.h"
#include "crypto/privatekey.h"

#include <QJsonObject>
#include <QList>
#include <QMutex>

#include <functional>
#include <optional>

namespace Gatehouse::Core {
class Database;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

// The server's signing keys, kept in the database (so instances share them). Per algorithm
// (RS256, the default, and ES256 for clients that ask for it) one key is `active` and signs,
// one is `next`: already published in the JWKS so that verifiers have it before it signs.
// Rotation makes next active, the active one `retired` (still published until every token
// it signed has expired: the longest token lifetime), and creates a new next.
class SigningKeys
{
public:
    SigningKeys(Core::Database &database, Core::WriteQueue &writer);

    static const QStringList &algorithms(); // RS256, ES256

    // Creates what is missing (active and next per algorithm) on a new database.
    Core::Result<void> load(qint64 now);
    // Reads the keys again after another instance changed them (a rotation: ChangeFeed). A
    // set without an active key per algorithm is refused, and the keys in use are kept.
    Core::Result<void> reload(qint64 now);
    struct Active
    {
        Crypto::PrivateKey key;
        QString kid;
        QString alg;
    };
    Active active(const QString &alg = QStringLiteral("RS256")) const;
    QJsonObject jwks() const;
    QByteArray jwksJson() const;     // serialized once per change (the JWKS endpoint is hot)
    QList<QJsonObject> list() const; // kid, alg, state, createdAt, retireAfter (no key material)

    // How long a retired key stays published: the longest lifetime of what it signed.
    static constexpr qint64 kRetiredPublishedMs = 86'400'000 + 5 * 60'000;
    // Stops publishing (and verifying with) the retired keys whose time is over. Called every
    // second: before, a retired key stayed in the JWKS of a long-running process until the next
    // rotation or restart, and relying parties kept accepting what it signed.
    void dropRetired(qint64 now);
    void rotate(const QString &alg, qint64 now, std::function<void(Core::Result<void>)> done);

private:
    struct Key
    {
        QString kid;
        QString alg;
        QString state;
        qint64 createdAt = 0;
        qint64 retireAfter = 0;
        Crypto::PrivateKey key;
    };
    // The stored keys that are published (active, next, retired), opened; `unsealed` gets the
    // ids of those an older build stored in the clear.
    Core::Result<QList<Key>> read(QStringList *unsealed);
    static Core::Result<Key> generate(const QString &alg, const QString &state, qint64 now);
    // Publishes `keys`; with `ifGeneration`, only when no change was made here since that
    // generation was read (false then). A change made here counts one generation.
    bool publish(QList<Key> keys, qint64 now, std::optional<quint64> ifGeneration = {});
    quint64 generation() const;
    void install(QList<Key> keys, qint64 now); // m_mutex held

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    mutable QMutex m_mutex;
    QList<Key> m_keys;
    quint64 m_generation = 0; // rotations made here
    QJsonObject m_jwks;
    QByteArray m_jwksJson;
    qint64 m_nextRetireMs = 0; // the earliest retireAfter of a published retired key (0: none)
};

} // namespace Gatehouse::OAuth
