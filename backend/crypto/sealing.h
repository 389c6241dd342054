#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QString>

namespace Gatehouse::Crypto {

// Secrets the database holds (OAuth signing keys), sealed with a key kept outside it: AES-256-GCM
// under a 32-byte key from a private file in the data directory (<data-dir>/database-key,
// created 0600 on first start). Whoever reads the database alone (a PostgreSQL role, a dump, a
// backup) learns no secret. `context` (the row's id) is authenticated too: a sealed value
// copied into another row does not open.
class SealingKey
{
public:
    // Reads the key file, or creates it (0600) when it does not exist.
    static Result<SealingKey> loadOrCreate(const QString &path);
    // Reads a key file an administrator provided (--database-key-file, the same on every
    // instance): it must exist and be private (Platform::checkPrivateFile). One is made with
    // `openssl rand -base64 32`.
    static Result<SealingKey> load(const QString &path);
    static SealingKey fromBytes(const QByteArray &key32); // tests

    // "sealed:v1:" + base64url(nonce 12 | ciphertext | tag 16).
    QByteArray seal(const QByteArray &plain, const QByteArray &context) const;
    // The plain bytes; a value that is not sealed (written before sealing existed) is
    // returned as it is. A sealed value that does not open (another key, another context,
    // changed bytes) is an error.
    Result<QByteArray> open(const QByteArray &stored, const QByteArray &context) const;
    static bool isSealed(const QByteArray &stored);

private:
    QByteArray m_key;
};

} // namespace Gatehouse::Crypto
