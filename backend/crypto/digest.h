#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <initializer_list>

// Message digests through OpenSSL (SHA-NI and AVX2 code paths where the CPU has them).
// Qt's QCryptographicHash uses its own portable SHA-2 code: about 4x slower on a token-sized
// input (420 bytes: 1.7 us against 0.3 us on the development machine), and the token endpoint
// hashes every token it issues.
namespace Gatehouse::Crypto::Digest {

// The SHA-256 of data (32 bytes). Thread-safe. Aborts the process (qFatal) if OpenSSL cannot
// compute it, as Random does: a hash that silently came out empty would match other empty
// hashes.
QByteArray sha256(QByteArrayView data);

// The HMAC-SHA256 (RFC 2104) of the concatenation of `parts` under `key` (32 bytes).
// Thread-safe; aborts like sha256() if OpenSSL cannot compute it.
QByteArray hmacSha256(QByteArrayView key, std::initializer_list<QByteArrayView> parts);

// Whether a and b are the same bytes, in a time that depends on their lengths only (for
// comparing a presented secret, MAC or hash with the expected one).
bool equalInConstantTime(QByteArrayView a, QByteArrayView b);

} // namespace Gatehouse::Crypto::Digest
