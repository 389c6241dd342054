#include "crypto/securefile_p.h"

#include "crypto/cryptologging.h"
#include "crypto/errorcodes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Gatehouse::Crypto::Detail {

namespace {

Error ioError(const QString &what, const QString &path, int err)
{
    return makeError(
        ErrorCode::Io,
        QStringLiteral("%1 %2: %3").arg(what, path, QString::fromLocal8Bit(strerror(err))));
}

bool writeAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        size -= size_t(n);
    }
    return true;
}

} // namespace

Result<void> writeFileAtomically(const QString &path, const QByteArray &data, mode_t mode)
{
    const QByteArray target = QFile::encodeName(QFileInfo(path).absoluteFilePath());
    QByteArray temp = target + ".tmp-XXXXXX";
    // mkostemp creates the file with mode 0600 (O_EXCL), whatever the umask.
    const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
    if (fd < 0)
        return ioError(QStringLiteral("cannot create temporary file for"), path, errno);

    auto fail = [&](const QString &what) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp.constData());
        return ioError(what, path, err);
    };

    // Set the final mode before any content is written.
    if (::fchmod(fd, mode) != 0)
        return fail(QStringLiteral("cannot set permissions of"));
    if (!writeAll(fd, data.constData(), size_t(data.size())))
        return fail(QStringLiteral("cannot write"));
    if (::fsync(fd) != 0)
        return fail(QStringLiteral("cannot sync"));
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(temp.constData());
        return ioError(QStringLiteral("cannot close"), path, err);
    }
    if (::rename(temp.constData(), target.constData()) != 0) {
        const int err = errno;
        ::unlink(temp.constData());
        return ioError(QStringLiteral("cannot rename into"), path, err);
    }

    // Make the rename durable; failure here is not fatal for correctness.
    const QByteArray dir = QFile::encodeName(QFileInfo(path).absolutePath());
    const int dirFd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return {};
}

Result<void> ensurePrivateDirectory(const QString &path)
{
    const QFileInfo info(path);
    if (info.exists()) {
        if (!info.isDir())
            return makeError(ErrorCode::Io,
                             QStringLiteral("%1 exists and is not a directory").arg(path));
        struct stat st;
        if (::stat(QFile::encodeName(path).constData(), &st) == 0 && (st.st_mode & 0077) != 0)
            qCWarning(lcCrypto) << "directory" << path << "is accessible by group or others";
        return {};
    }

    const QString absolute = info.absoluteFilePath();
    const QString parent = QFileInfo(absolute).absolutePath();
    if (!QDir().mkpath(parent))
        return makeError(ErrorCode::Io, QStringLiteral("cannot create directory %1").arg(parent));
    const QByteArray native = QFile::encodeName(absolute);
    if (::mkdir(native.constData(), 0700) != 0 && errno != EEXIST)
        return ioError(QStringLiteral("cannot create directory"), path, errno);
    // mkdir honours the umask, which can only remove bits: 0700 or less is what we want.
    return {};
}

Result<QByteArray> readSmallFile(const QString &path, qint64 maxSize)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io,
                         QStringLiteral("cannot open %1: %2").arg(path, file.errorString()));
    if (file.size() > maxSize)
        return makeError(ErrorCode::Io, QStringLiteral("%1 is too large").arg(path));
    QByteArray data = file.read(maxSize + 1);
    if (data.size() > maxSize)
        return makeError(ErrorCode::Io, QStringLiteral("%1 is too large").arg(path));
    return data;
}

} // namespace Gatehouse::Crypto::Detail
