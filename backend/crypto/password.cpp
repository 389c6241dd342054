#include "crypto/password.h"

#include "crypto/cryptologging.h"
#include "crypto/errorcodes.h"
#include "crypto/random.h"

#include <QRegularExpression>

#include <argon2.h>

#include <vector>

namespace Gatehouse::Crypto::Password {

namespace {

// Upper bounds accepted when verifying a stored hash: a hash with absurd costs is
// refused instead of allocating gigabytes or spinning for minutes.
constexpr quint64 MaxMemoryKiB = 1024 * 1024; // 1 GiB
constexpr quint64 MaxTimeCost = 32;
constexpr quint64 MaxParallelism = 16;
constexpr qsizetype MaxEncodedLength = 512;

} // namespace

Result<QString> hash(const QByteArray &password, const Parameters &p)
{
    if (p.timeCost < 1 || p.timeCost > MaxTimeCost || p.parallelism < 1 ||
        p.parallelism > MaxParallelism || p.memoryKiB < 8 * p.parallelism ||
        p.memoryKiB > MaxMemoryKiB || p.saltLength < 16 || p.saltLength > 64 || p.hashLength < 16 ||
        p.hashLength > 64)
        return makeError(ErrorCode::PasswordInvalidParameters,
                         QStringLiteral("argon2id parameters out of range"));

    const QByteArray salt = Random::bytes(int(p.saltLength));
    const size_t encodedLength = argon2_encodedlen(p.timeCost, p.memoryKiB, p.parallelism,
                                                   p.saltLength, p.hashLength, Argon2_id);
    std::vector<char> encoded(encodedLength + 1, '\0');
    const int rc = argon2id_hash_encoded(
        p.timeCost, p.memoryKiB, p.parallelism, password.constData(), size_t(password.size()),
        salt.constData(), size_t(salt.size()), p.hashLength, encoded.data(), encoded.size());
    if (rc != ARGON2_OK)
        return makeError(ErrorCode::PasswordHashFailed,
                         QStringLiteral("argon2id failed: %1")
                             .arg(QString::fromLatin1(argon2_error_message(rc))));
    return QString::fromLatin1(encoded.data());
}

bool verify(const QString &encoded, const QByteArray &password)
{
    if (encoded.size() > MaxEncodedLength)
        return false;
    static const QRegularExpression phc(QStringLiteral(
        R"(^\$argon2id\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{6,}\z)"));
    const QRegularExpressionMatch match = phc.match(encoded);
    if (!match.hasMatch()) {
        qCDebug(lcCrypto) << "password hash refused: not an argon2id PHC string";
        return false;
    }
    const quint64 m = match.captured(1).toULongLong();
    const quint64 t = match.captured(2).toULongLong();
    const quint64 p = match.captured(3).toULongLong();
    if (m > MaxMemoryKiB || t < 1 || t > MaxTimeCost || p < 1 || p > MaxParallelism) {
        qCWarning(lcCrypto) << "password hash refused: argon2id cost parameters out of bounds";
        return false;
    }

    const QByteArray latin = encoded.toLatin1();
    // argon2id_verify recomputes the hash and compares in constant time.
    return argon2id_verify(latin.constData(), password.constData(), size_t(password.size())) ==
           ARGON2_OK;
}

bool madeWith(const QString &encoded, const Parameters &p)
{
    return encoded.startsWith(QStringLiteral("$argon2id$v=19$m=%1,t=%2,p=%3$")
                                  .arg(p.memoryKiB)
                                  .arg(p.timeCost)
                                  .arg(p.parallelism));
}

} // namespace Gatehouse::Crypto::Password
