#include "crypto/random.h"

#include "crypto/opensslutil_p.h"

#include "platform/platform.h"

#include <QUuid>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cstring>

namespace Gatehouse::Crypto::Random {

namespace {

// Small draws come from a per-thread buffer filled by RAND_bytes 4 KiB at a time. A call of
// RAND_bytes costs about 530 ns whatever its size up to 32 bytes (4 KiB: about 1 us), and an
// order with a callback draws a dozen ids on the writer's thread, an opaque token two or three
// values on the HTTP server's thread. The bytes are the CSPRNG's all the same; handed-out
// bytes are wiped from the buffer, and a forked child forgets its copy (pthread_atfork; Windows has
// no fork) so that parent and child never hand out the same bytes. Larger draws go straight to
// RAND_bytes.
constexpr int kBufferSize = 4096;
constexpr int kBufferedMax = 64;

struct Buffer
{
    unsigned char data[kBufferSize];
    int left = 0; // the last `left` bytes of data are not handed out yet
    void forget()
    {
        OPENSSL_cleanse(data, sizeof data);
        left = 0;
    }
    ~Buffer() { forget(); }
};

thread_local Buffer t_buffer;

[[noreturn]] void csprngFailed()
{
    // Fail closed: never continue with predictable "random" bytes.
    qFatal("gatehouse.crypto: the CSPRNG failed (%s)", qPrintable(Detail::takeOpenSslErrors()));
}

void fill(unsigned char *out, int n)
{
    if (n > kBufferedMax) {
        if (RAND_bytes(out, n) != 1)
            csprngFailed();
        return;
    }
    // In the child only the thread that forked exists: this clears that thread's buffer.
    static const bool forkHandler = [] {
        Platform::runInChildAfterFork([] { t_buffer.forget(); });
        return true;
    }();
    Q_UNUSED(forkHandler);
    Buffer &b = t_buffer;
    if (b.left < n) {
        if (RAND_bytes(b.data, kBufferSize) != 1)
            csprngFailed();
        b.left = kBufferSize;
    }
    unsigned char *from = b.data + (kBufferSize - b.left);
    std::memcpy(out, from, size_t(n));
    OPENSSL_cleanse(from, size_t(n));
    b.left -= n;
}

} // namespace

void releaseThreadState()
{
    t_buffer.forget();
    OPENSSL_thread_stop();
}

QByteArray bytes(int n)
{
    if (n <= 0)
        return {};
    QByteArray out(n, Qt::Uninitialized);
    fill(reinterpret_cast<unsigned char *>(out.data()), n);
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
