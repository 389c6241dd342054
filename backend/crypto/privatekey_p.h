#pragma once

// Internal to backend/crypto: access to the OpenSSL key behind a PrivateKey.

#include "crypto/opensslutil_p.h"
#include "crypto/privatekey.h"

#include <QJsonObject>

namespace Gatehouse::Crypto {

class PrivateKeyPrivate
{
public:
    PrivateKeyPrivate(Detail::PkeyPtr key, KeyType keyType) : pkey(std::move(key)), type(keyType) {}

    Detail::PkeyPtr pkey;
    KeyType type;
};

struct PrivateKeyAccess
{
    // The key stays owned by the PrivateKey; null for a null key.
    static EVP_PKEY *pkey(const PrivateKey &key) { return key.m_d ? key.m_d->pkey.get() : nullptr; }

    // Takes ownership; refuses key types and sizes Gatehouse does not support.
    static Result<PrivateKey> adopt(Detail::PkeyPtr pkey);
};

namespace Detail {

// The public members of the JWK for a key (RFC 7518 section 6): kty + n, e for RSA,
// kty + crv, x, y for EC (x and y padded to the full coordinate size).
QJsonObject publicJwkMembers(const EVP_PKEY *pkey);

} // namespace Detail

} // namespace Gatehouse::Crypto
