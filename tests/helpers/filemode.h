#pragma once
// What the tests check of private files, on every platform: fileMode() gives a file's
// permissions as Unix mode bits (0600, 0700, 0644). On Unix that is the mode itself; on
// Windows it is what Qt reads from the NTFS ACL (the owner, the group, Everyone), so that an
// owner-only ACL (what Platform::restrictToOwner sets) reads 0600 or 0700 as well.
// ScopedUmask sets the process umask for a test's scope (Windows has none: a no-op there).

#include <QFileDevice>
#include <QFileInfo>
#include <QString>

#include <utility>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

#ifdef Q_OS_WIN
extern Q_CORE_EXPORT int qt_ntfs_permission_lookup;
#endif

namespace TestHelpers {

// -1 when the path does not exist.
inline int fileMode(const QString &path)
{
#ifdef Q_OS_WIN
    ++qt_ntfs_permission_lookup; // Qt reads the ACL only when asked to
    const QFileInfo info(path);
    const bool exists = info.exists();
    QFileDevice::Permissions p = exists ? info.permissions() : QFileDevice::Permissions();
    --qt_ntfs_permission_lookup;
    // Full control includes "execute", which on a Windows file is not what the x bit means.
    if (!info.isDir())
        p &= ~(QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther |
               QFileDevice::ExeUser);
#else
    const QFileInfo info(path);
    const bool exists = info.exists();
    const QFileDevice::Permissions p = exists ? info.permissions() : QFileDevice::Permissions();
#endif
    if (!exists)
        return -1;
    static constexpr std::pair<QFileDevice::Permission, int> Bits[] = {
        {QFileDevice::ReadOwner, 0400}, {QFileDevice::WriteOwner, 0200},
        {QFileDevice::ExeOwner, 0100},  {QFileDevice::ReadGroup, 040},
        {QFileDevice::WriteGroup, 020}, {QFileDevice::ExeGroup, 010},
        {QFileDevice::ReadOther, 04},   {QFileDevice::WriteOther, 02},
        {QFileDevice::ExeOther, 01}};
    int mode = 0;
    for (const auto &[permission, bit] : Bits)
        if (p.testFlag(permission))
            mode |= bit;
    return mode;
}

class ScopedUmask
{
public:
#ifdef Q_OS_UNIX
    explicit ScopedUmask(int mask) : m_previous(::umask(mode_t(mask))) {}
    ~ScopedUmask()
    {
        ::umask(m_previous);
    }
#else
    explicit ScopedUmask(int) {}
#endif
    ScopedUmask(const ScopedUmask &) = delete;
    ScopedUmask &operator=(const ScopedUmask &) = delete;

private:
#ifdef Q_OS_UNIX
    mode_t m_previous;
#endif
};

} // namespace TestHelpers
