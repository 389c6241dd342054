// The Windows half of platform.h; platform_posix.cpp is the Unix half.
//
// UNTESTED: written against the Win32 documentation (CreateFileW, SetEntriesInAclW,
// SetNamedSecurityInfoW, MoveFileExW); the project is built and tested on Debian 12 only
// (docs/packaging.md, "Platform code").
//
// What 0600 / 0700 mean on Unix is, here, a *protected* DACL (no inherited entries) with a
// single entry: the user the process runs as, full control. Administrators can still take
// ownership, as root can read a 0600 file on Unix.
#include "platform/platform.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#ifndef NOMINMAX
#define NOMINMAX
#endif
// winsock2.h first: it includes windows.h and keeps the old winsock.h out.
#include <winsock2.h>

#include <windows.h>

#include <aclapi.h>
#include <sddl.h>

namespace Gatehouse::Platform {

namespace {

Error winError(const QString &what, const QString &path, DWORD code)
{
    wchar_t *text = nullptr;
    FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                       FORMAT_MESSAGE_IGNORE_INSERTS,
                   nullptr, code, 0, reinterpret_cast<LPWSTR>(&text), 0, nullptr);
    const QString message =
        text ? QString::fromWCharArray(text).trimmed() : QStringLiteral("error %1").arg(code);
    if (text)
        LocalFree(text);
    return makeError(QStringLiteral("io_error"),
                     QStringLiteral("%1 %2: %3").arg(what, path, message));
}

std::wstring nativePath(const QString &path)
{
    return QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()).toStdWString();
}

// A DACL with one entry: the current user, full control; inherited by children when the
// object is a directory. Freed with LocalFree.
struct OwnerOnlyAcl
{
    PACL acl = nullptr;
    std::vector<BYTE> user; // TOKEN_USER, whose SID SetEntriesInAclW copies into the ACL
    ~OwnerOnlyAcl()
    {
        if (acl)
            LocalFree(acl);
    }
};

// The user the process runs as (a TOKEN_USER in `user`).
DWORD currentUser(std::vector<BYTE> &user)
{
    HANDLE token = nullptr;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
        return GetLastError();
    DWORD size = 0;
    GetTokenInformation(token, TokenUser, nullptr, 0, &size);
    user.resize(size);
    const BOOL ok = GetTokenInformation(token, TokenUser, user.data(), size, &size);
    const DWORD tokenError = ok ? ERROR_SUCCESS : GetLastError();
    CloseHandle(token);
    return ok ? ERROR_SUCCESS : tokenError;
}

DWORD makeOwnerOnlyAcl(bool directory, OwnerOnlyAcl &out)
{
    if (const DWORD rc = currentUser(out.user); rc != ERROR_SUCCESS)
        return rc;
    EXPLICIT_ACCESSW entry = {};
    entry.grfAccessPermissions = GENERIC_ALL;
    entry.grfAccessMode = SET_ACCESS;
    entry.grfInheritance = directory ? SUB_CONTAINERS_AND_OBJECTS_INHERIT : NO_INHERITANCE;
    entry.Trustee.TrusteeForm = TRUSTEE_IS_SID;
    entry.Trustee.TrusteeType = TRUSTEE_IS_USER;
    entry.Trustee.ptstrName =
        static_cast<LPWSTR>(reinterpret_cast<TOKEN_USER *>(out.user.data())->User.Sid);
    return SetEntriesInAclW(1, &entry, nullptr, &out.acl);
}

// A security descriptor for CreateFileW / CreateDirectoryW carrying that ACL, protected from
// the parent's inheritable entries.
struct OwnerOnlyAttributes
{
    OwnerOnlyAcl acl;
    SECURITY_DESCRIPTOR descriptor = {};
    SECURITY_ATTRIBUTES attributes = {};
};

DWORD makeOwnerOnlyAttributes(bool directory, OwnerOnlyAttributes &out)
{
    if (const DWORD rc = makeOwnerOnlyAcl(directory, out.acl); rc != ERROR_SUCCESS)
        return rc;
    if (!InitializeSecurityDescriptor(&out.descriptor, SECURITY_DESCRIPTOR_REVISION) ||
        !SetSecurityDescriptorDacl(&out.descriptor, TRUE, out.acl.acl, FALSE) ||
        !SetSecurityDescriptorControl(&out.descriptor, SE_DACL_PROTECTED, SE_DACL_PROTECTED))
        return GetLastError();
    out.attributes.nLength = sizeof out.attributes;
    out.attributes.lpSecurityDescriptor = &out.descriptor;
    out.attributes.bInheritHandle = FALSE;
    return ERROR_SUCCESS;
}

bool ownerOnly(unsigned mode)
{
    return (mode & 0077u) == 0;
}

// What Unix's owner check is here: the owner of path must be the user the process runs as,
// the Administrators group or SYSTEM (an administrator's files are owned by one of these);
// anyone else could have written what it holds.
Result<void> checkOwner(const QString &path)
{
    std::wstring native = nativePath(path);
    PSID owner = nullptr;
    PSECURITY_DESCRIPTOR descriptor = nullptr;
    const DWORD rc =
        GetNamedSecurityInfoW(native.data(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner,
                              nullptr, nullptr, nullptr, &descriptor);
    if (rc != ERROR_SUCCESS)
        return winError(QStringLiteral("cannot read the owner of"), path, rc);
    std::vector<BYTE> user;
    const DWORD userRc = currentUser(user);
    const bool trusted = userRc == ERROR_SUCCESS &&
                         (EqualSid(owner, reinterpret_cast<TOKEN_USER *>(user.data())->User.Sid) ||
                          IsWellKnownSid(owner, WinBuiltinAdministratorsSid) ||
                          IsWellKnownSid(owner, WinLocalSystemSid));
    QString ownerText = QStringLiteral("another user");
    wchar_t *sid = nullptr;
    if (!trusted && ConvertSidToStringSidW(owner, &sid)) {
        ownerText = QString::fromWCharArray(sid);
        LocalFree(sid);
    }
    LocalFree(descriptor);
    if (userRc != ERROR_SUCCESS)
        return winError(QStringLiteral("cannot read the user of this process for"), path, userRc);
    if (trusted)
        return {};
    return makeError(QStringLiteral("io_error"),
                     QStringLiteral("%1 is owned by %2, not by the user Gatehouse runs as: that "
                                    "user could have put in it what Gatehouse trusts; if it is "
                                    "yours, take ownership of it (icacls %1 /setowner "
                                    "%USERNAME%), otherwise remove it")
                         .arg(path, ownerText));
}

} // namespace

Result<void> writeFileAtomically(const QString &path, const QByteArray &data, unsigned mode)
{
    const std::wstring target = nativePath(path);
    OwnerOnlyAttributes security;
    SECURITY_ATTRIBUTES *attributes = nullptr;
    if (ownerOnly(mode)) {
        if (const DWORD rc = makeOwnerOnlyAttributes(false, security); rc != ERROR_SUCCESS)
            return winError(QStringLiteral("cannot make an owner-only ACL for"), path, rc);
        attributes = &security.attributes;
    }
    // A fresh temporary name in the same directory, created exclusively (CREATE_NEW).
    HANDLE file = INVALID_HANDLE_VALUE;
    std::wstring temp;
    for (int attempt = 0; attempt < 16 && file == INVALID_HANDLE_VALUE; ++attempt) {
        temp = target + L".tmp-" + std::to_wstring(GetCurrentProcessId()) + L"-" +
               std::to_wstring(GetTickCount64()) + L"-" + std::to_wstring(attempt);
        file = CreateFileW(temp.c_str(), GENERIC_WRITE, 0, attributes, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
        if (file == INVALID_HANDLE_VALUE && GetLastError() != ERROR_FILE_EXISTS)
            break;
    }
    if (file == INVALID_HANDLE_VALUE)
        return winError(QStringLiteral("cannot create temporary file for"), path, GetLastError());

    auto fail = [&](const QString &what) {
        const DWORD err = GetLastError();
        CloseHandle(file);
        DeleteFileW(temp.c_str());
        return winError(what, path, err);
    };
    const char *from = data.constData();
    qint64 left = data.size();
    while (left > 0) {
        DWORD written = 0;
        const DWORD chunk = DWORD(std::min<qint64>(left, 1 << 30));
        if (!WriteFile(file, from, chunk, &written, nullptr))
            return fail(QStringLiteral("cannot write"));
        from += written;
        left -= written;
    }
    if (!FlushFileBuffers(file))
        return fail(QStringLiteral("cannot sync"));
    CloseHandle(file);
    // The moved file keeps its own ACL (same volume).
    if (!MoveFileExW(temp.c_str(), target.c_str(),
                     MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        const DWORD err = GetLastError();
        DeleteFileW(temp.c_str());
        return winError(QStringLiteral("cannot rename into"), path, err);
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
        return checkOwnDirectory(path);
    }
    const QString absolute = info.absoluteFilePath();
    const QString parent = QFileInfo(absolute).absolutePath();
    if (!QDir().mkpath(parent))
        return makeError(QStringLiteral("io_error"),
                         QStringLiteral("cannot create directory %1").arg(parent));
    OwnerOnlyAttributes security;
    if (const DWORD rc = makeOwnerOnlyAttributes(true, security); rc != ERROR_SUCCESS)
        return winError(QStringLiteral("cannot make an owner-only ACL for"), path, rc);
    if (!CreateDirectoryW(nativePath(absolute).c_str(), &security.attributes)) {
        const DWORD err = GetLastError();
        if (err != ERROR_ALREADY_EXISTS)
            return winError(QStringLiteral("cannot create directory"), path, err);
    }
    return {};
}

Result<void> checkOwnDirectory(const QString &path)
{
    if (!QFileInfo(path).isDir())
        return makeError(QStringLiteral("io_error"),
                         QStringLiteral("%1 is not a directory").arg(path));
    // Who else may write in it is its ACL's business (an owner-only one when Gatehouse made
    // it): not read here.
    return checkOwner(path);
}

Result<void> checkPrivateFile(const QString &path)
{
    if (!QFileInfo::exists(path))
        return makeError(QStringLiteral("io_error"), QStringLiteral("%1 does not exist").arg(path));
    return checkOwner(path); // the ACL is left to the administrator
}

Result<void> checkOwnersWord(const QString &path)
{
    if (!QFileInfo::exists(path))
        return makeError(QStringLiteral("io_error"), QStringLiteral("%1 does not exist").arg(path));
    return checkOwner(path); // the ACL is left to the administrator, as for checkPrivateFile
}

Result<void> restrictToOwner(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return makeError(QStringLiteral("io_error"), QStringLiteral("%1 does not exist").arg(path));
    OwnerOnlyAcl acl;
    if (const DWORD rc = makeOwnerOnlyAcl(info.isDir(), acl); rc != ERROR_SUCCESS)
        return winError(QStringLiteral("cannot make an owner-only ACL for"), path, rc);
    std::wstring native = nativePath(path);
    const DWORD rc =
        SetNamedSecurityInfoW(native.data(), SE_FILE_OBJECT,
                              DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION,
                              nullptr, nullptr, acl.acl, nullptr);
    if (rc != ERROR_SUCCESS)
        return winError(QStringLiteral("cannot set the ACL of"), path, rc);
    return {};
}

void runInChildAfterFork(void (*)())
{
    // No fork() on Windows: a new process never shares this one's memory.
}

bool shutdownWrite(qintptr socketDescriptor)
{
    return ::shutdown(SOCKET(socketDescriptor), SD_SEND) == 0;
}

bool processExists(qint64 pid)
{
    if (pid <= 0 || pid > qint64(MAXDWORD))
        return false;
    HANDLE h = ::OpenProcess(SYNCHRONIZE, FALSE, DWORD(pid));
    if (!h) // no such process, or one this user may not open (then it runs)
        return ::GetLastError() == ERROR_ACCESS_DENIED;
    const bool running = ::WaitForSingleObject(h, 0) == WAIT_TIMEOUT; // not yet signalled
    ::CloseHandle(h);
    return running;
}

QString mallocName()
{
    return QStringLiteral("system"); // mimalloc is linked on Linux only
}

void settleEndingThreads(int quietMs, int maxMs)
{
    Q_UNUSED(quietMs);
    Q_UNUSED(maxMs);
}

} // namespace Gatehouse::Platform
