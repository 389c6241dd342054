#pragma once

// Internal to backend/crypto: access to the OpenSSL key behind a PrivateKey.

#include "crypto/opensslutil_p.h"
#include "crypto/privatekey.h"

#include <QJsonObject>

#include <cjose/jwk.h>

#include <memory>
#include <mutex>
#include <vector>

namespace Gatehouse::Crypto {

class PrivateKeyPrivate
{
public:
    PrivateKeyPrivate(Detail::PkeyPtr key, KeyType keyType) : pkey(std::move(key)), type(keyType) {}

    Detail::PkeyPtr pkey;
    KeyType type;

    // cjose's view of the key for signing, built once and reused (building it costs as much
    // as a signature). One object per concurrent signer: cjose's reference counts are not
    // atomic, so an object is lent to one thread at a time (jws.cpp). Freed with the key.
    using CjoseJwk = std::unique_ptr<cjose_jwk_t, void (*)(cjose_jwk_t *)>;
    mutable std::mutex jwkMutex;
    mutable std::vector<CjoseJwk> idleJwks;
};

struct PrivateKeyAccess
{
    // The key stays owned by the PrivateKey; null for a null key.
    static EVP_PKEY *pkey(const PrivateKey &key) { return key.m_d ? key.m_d->pkey.get() : nullptr; }
    static const PrivateKeyPrivate *data(const PrivateKey &key) { return key.m_d.get(); }

    // Takes ownership; refuses key types and sizes Gatehouse does not support.
    static Result<PrivateKey> adopt(Detail::PkeyPtr pkey);
};

namespace Detail {

// The public members of the JWK for a key (RFC 7518 section 6): kty + n, e for RSA,
// kty + crv, x, y for EC (x and y padded to the full coordinate size).
QJsonObject publicJwkMembers(const EVP_PKEY *pkey);

} // namespace Detail

} // namespace Gatehouse::Crypto
