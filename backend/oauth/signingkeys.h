#pragma once

#include "core/result.h"
#include "crypto/privatekey.h"

#include <QJsonObject>
#include <QList>
#include <QMutex>

namespace Gatehouse::Core {
class Database;
}

namespace Gatehouse::OAuth {

// The server's signing keys, kept in the database (so instances share them). One active
// RS256 key signs; JWKS publishes every key that is not past its retirement.
class SigningKeys
{
public:
    explicit SigningKeys(Core::Database &database);

    Core::Result<void> load(qint64 now); // creates the first RS256 key on a new database
    struct Active
    {
        Crypto::PrivateKey key;
        QString kid;
        QString alg;
    };
    Active active() const;
    QJsonObject jwks() const;
    QList<QJsonObject> list() const; // kid, alg, state, createdAt (no key material)

private:
    struct Key
    {
        QString kid;
        QString alg;
        QString state;
        qint64 createdAt = 0;
        Crypto::PrivateKey key;
    };
    Core::Database &m_database;
    mutable QMutex m_mutex;
    QList<Key> m_keys;
    QJsonObject m_jwks;
};

} // namespace Gatehouse::OAuth
