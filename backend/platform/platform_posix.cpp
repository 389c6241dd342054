// The Unix half of platform.h (Linux, macOS); platform_win.cpp is the Windows half.
#include "platform/platform.h"

#include <QLoggingCategory>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Gatehouse::Platform {

namespace {

Q_LOGGING_CATEGORY(lcPlatform, "gatehouse.platform", QtInfoMsg)

Error ioError(const QString &what, const QString &path, int err)
{
    return makeError(
        QStringLiteral("io_error"),
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

// "gatehouse (uid 998)", or "uid 998" for a uid without a name.
QString userName(uid_t uid)
{
    struct passwd entry;
    struct passwd *found = nullptr;
    char buffer[1024];
    if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found)
        return QStringLiteral("%1 (uid %2)").arg(QString::fromLocal8Bit(found->pw_name)).arg(uid);
    return QStringLiteral("uid %1").arg(uid);
}

// The name chown takes: the user name, else the uid.
QString chownName(uid_t uid)
{
    struct passwd entry;
    struct passwd *found = nullptr;
    char buffer[1024];
    if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found)
        return QString::fromLocal8Bit(found->pw_name);
    return QString::number(uid);
}

// Refused unless the running user (or root) owns it: another user's file may hold a key or a
// token of theirs (a CA key they can sign with, an admin token they know).
Result<void> checkOwner(const QString &path, const struct stat &st, bool rootMayOwn)
{
    const uid_t self = ::geteuid();
    if (st.st_uid == self || (rootMayOwn && st.st_uid == 0))
        return {};
    return makeError(QStringLiteral("io_error"),
                     QStringLiteral("%1 belongs to %2, not to %3 that Gatehouse runs as: that "
                                    "user could have put in it what Gatehouse trusts; if it is "
                                    "yours, chown %4 %1, otherwise remove it")
                         .arg(path, userName(st.st_uid), userName(self), chownName(self)));
}

// stat() of path, which must be owned by the user the process runs as (or root, when
// rootMayOwn): what the checks below start from.
Result<struct stat> ownedStat(const QString &path, bool rootMayOwn)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat st;
    if (::stat(native.constData(), &st) != 0)
        return ioError(QStringLiteral("cannot read"), path, errno);
    if (auto r = checkOwner(path, st, rootMayOwn); !r)
        return r.error();
    return st;
}

} // namespace

Result<void> writeFileAtomically(const QString &path, const QByteArray &data, unsigned mode)
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
    if (::fchmod(fd, mode_t(mode)) != 0)
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
            return makeError(QStringLiteral("io_error"),
                             QStringLiteral("%1 exists and is not a directory").arg(path));
        // Keys are read from here: refused when another user could have put them there.
        if (auto r = checkOwnDirectory(path); !r)
            return r;
        struct stat st;
        if (::stat(QFile::encodeName(path).constData(), &st) == 0 && (st.st_mode & 0077) != 0)
            qCWarning(lcPlatform) << "directory" << path << "is readable by group or others";
        return {};
    }

    const QString absolute = info.absoluteFilePath();
    const QString parent = QFileInfo(absolute).absolutePath();
    // Missing parents at 0755 (less under the umask), not mkpath's 0777: under umask 000 they
    // came out writable by everyone, who could then rename the data directory away.
    QStringList missing;
    for (QString p = parent; !QFileInfo::exists(p);) {
        missing.prepend(p);
        const QString up = QFileInfo(p).absolutePath();
        if (up == p)
            break;
        p = up;
    }
    for (const QString &p : std::as_const(missing))
        if (::mkdir(QFile::encodeName(p).constData(), 0755) != 0 && errno != EEXIST)
            return ioError(QStringLiteral("cannot create directory"), p, errno);
    const QByteArray native = QFile::encodeName(absolute);
    if (::mkdir(native.constData(), 0700) != 0 && errno != EEXIST)
        return ioError(QStringLiteral("cannot create directory"), path, errno);
    // mkdir honours the umask, which can only remove bits: 0700 or less is what we want.
    return {};
}

Result<void> restrictToOwner(const QString &path)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat st;
    if (::stat(native.constData(), &st) != 0)
        return ioError(QStringLiteral("cannot read the permissions of"), path, errno);
    const mode_t mode = S_ISDIR(st.st_mode) ? 0700 : 0600;
    if (::chmod(native.constData(), mode) != 0)
        return ioError(QStringLiteral("cannot set permissions of"), path, errno);
    return {};
}

Result<void> checkOwnDirectory(const QString &path)
{
    const auto owned = ownedStat(path, false);
    if (!owned)
        return owned.error();
    const struct stat &st = *owned;
    // Anyone who may write in it may replace what is in it (a sticky bit keeps their own
    // files theirs, but they may still add one that is not there yet: fail closed).
    if ((st.st_mode & 0022) != 0)
        return makeError(
            QStringLiteral("io_error"),
            QStringLiteral("%1 is writable by %2 (mode %3): others could put keys or tokens in "
                           "it that Gatehouse trusts; chmod go-w %1 (0700, or 0750 to let a "
                           "group read it)")
                .arg(path,
                     (st.st_mode & 0020) && (st.st_mode & 0002) ? QStringLiteral("group and others")
                     : (st.st_mode & 0020)                      ? QStringLiteral("its group")
                                                                : QStringLiteral("others"),
                     QString::number(st.st_mode & 07777, 8)));
    return {};
}

Result<void> checkPrivateFile(const QString &path)
{
    // Root may own it (0640 root:gatehouse shares a key with a service account); any other
    // owner could have written a key or token of their own (fail closed).
    const auto owned = ownedStat(path, true);
    if (!owned)
        return owned.error();
    const struct stat &st = *owned;
    const mode_t allowed = st.st_uid == 0 ? 0640 : 0600;
    if ((st.st_mode & 0777 & ~allowed) != 0)
        return makeError(QStringLiteral("io_error"),
                         QStringLiteral("%1 is open to others (mode %2): chmod 600 it, or 640 when "
                                        "root owns it")
                             .arg(path, QString::number(st.st_mode & 0777, 8)));
    return {};
}

Result<void> checkOwnersWord(const QString &path)
{
    const auto owned = ownedStat(path, false);
    if (!owned)
        return owned.error();
    const struct stat &st = *owned;
    if ((st.st_mode & 0022) != 0)
        return makeError(QStringLiteral("io_error"),
                         QStringLiteral("%1 is writable by others (mode %2): chmod go-w it")
                             .arg(path, QString::number(st.st_mode & 0777, 8)));
    return {};
}

void runInChildAfterFork(void (*fn)())
{
    ::pthread_atfork(nullptr, nullptr, fn);
}

bool shutdownWrite(qintptr socketDescriptor)
{
    return ::shutdown(int(socketDescriptor), SHUT_WR) == 0;
}

bool processExists(qint64 pid)
{
    if (pid <= 0 || pid != qint64(pid_t(pid)))
        return false;
    return ::kill(pid_t(pid), 0) == 0 || errno != ESRCH; // EPERM: it runs, as another user
}

void settleEndingThreads(int quietMs, int maxMs)
{
#ifdef Q_OS_LINUX
    const auto threads = [] {
        return QDir(QStringLiteral("/proc/self/task"))
            .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
            .size();
    };
    QElapsedTimer total;
    total.start();
    QElapsedTimer quiet;
    quiet.start();
    qsizetype last = threads();
    while (last > 1 && total.elapsed() < maxMs && quiet.elapsed() < quietMs) {
        QThread::msleep(2);
        if (const qsizetype now = threads(); now != last) {
            last = now;
            quiet.restart();
        }
    }
#else
    Q_UNUSED(quietMs);
    Q_UNUSED(maxMs);
#endif
}

QString mallocName()
{
    using Version = int (*)();
    using InHeap = bool (*)(const void *);
    const auto version = reinterpret_cast<Version>(dlsym(RTLD_DEFAULT, "mi_version"));
    const auto inHeap = reinterpret_cast<InHeap>(dlsym(RTLD_DEFAULT, "mi_is_in_heap_region"));
    if (version && inHeap) {
        void *probe = std::malloc(64);
        const bool ours = inHeap(probe);
        std::free(probe);
        if (ours) {
            const int v = version(); // e.g. 209 for 2.0.9
            return QStringLiteral("mimalloc %1.%2.%3").arg(v / 100).arg(v / 10 % 10).arg(v % 10);
        }
    }
    return QStringLiteral("system");
}

} // namespace Gatehouse::Platform
