#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QString>

// Password hashing with argon2id (RFC 9106) through libargon2, PHC string format:
// $argon2id$v=19$m=65536,t=3,p=1$<salt>$<hash>
namespace Gatehouse::Crypto::Password {

struct Parameters
{
    quint32 timeCost = 3;      // iterations (t)
    quint32 memoryKiB = 65536; // m, 64 MiB
    quint32 parallelism = 1;   // lanes (p)
    quint32 saltLength = 16;   // bytes, from the CSPRNG
    quint32 hashLength = 32;   // bytes
};

// The PHC-encoded argon2id hash of password with a fresh random salt.
Result<QString> hash(const QByteArray &password, const Parameters &parameters = {});

// Constant-time check (argon2id_verify) of password against an encoded hash. False for
// a wrong password and for any malformed or unsupported encoding (including cost
// parameters beyond sane bounds, which would otherwise be a denial of service).
bool verify(const QString &encoded, const QByteArray &password);

// Whether an encoded hash was made with these costs (m, t, p); false for anything else.
bool madeWith(const QString &encoded, const Parameters &parameters);

} // namespace Gatehouse::Crypto::Password
