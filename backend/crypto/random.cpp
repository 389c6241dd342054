#include "crypto/random.h"

#include "crypto/opensslutil_p.h"

#include <QUuid>

#include <openssl/crypto.h>
#include <openssl/rand.h>

namespace Gatehouse::Crypto::Random {

void releaseThreadState()
{
    OPENSSL_thread_stop();
}

QByteArray bytes(int n)
{
    if (n <= 0)
        return {};
    QByteArray out(n, Qt::Uninitialized);
    if (RAND_bytes(reinterpret_cast<unsigned char *>(out.data()), n) != 1) {
        // Fail closed: never continue with predictable "random" bytes.
        qFatal("gatehouse.crypto: the CSPRNG failed (%s)", qPrintable(Detail::takeOpenSslErrors()));
    }
    return out;
}

QString token(int nBytes)
{
    return QString::fromLatin1(Detail::base64Url(bytes(nBytes)));
}

QString identifier(int nBytes)
{
    for (;;) {
        QString id = token(nBytes);
        if (!id.startsWith(QLatin1Char('-')))
            return id;
    }
}

QString uuid()
{
    QByteArray raw = bytes(16);
    raw[6] = char((raw[6] & 0x0f) | 0x40); // version 4
    raw[8] = char((raw[8] & 0x3f) | 0x80); // variant 10xx (RFC 4122)
    return QUuid::fromRfc4122(raw).toString(QUuid::WithoutBraces);
}

QString uuidV7(qint64 msSinceEpoch)
{
    QByteArray raw = bytes(16);
    const quint64 ms = quint64(msSinceEpoch) & 0xffffffffffffULL;
    for (int i = 0; i < 6; ++i)
        raw[i] = char((ms >> (8 * (5 - i))) & 0xff);
    raw[6] = char((raw[6] & 0x0f) | 0x70); // version 7
    raw[8] = char((raw[8] & 0x3f) | 0x80); // variant 10xx
    return QUuid::fromRfc4122(raw).toString(QUuid::WithoutBraces);
}

} // namespace Gatehouse::Crypto::Random
