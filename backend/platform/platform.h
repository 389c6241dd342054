#pragma once

// Everything that differs between operating systems, behind one header: platform_posix.cpp
// (Linux, macOS) and platform_win.cpp (Windows; untested, never compiled here). No other
// source calls a POSIX- or Win32-only function (docs/packaging.md, "Platform code").
// Depends on Qt Core only, so that the backend and the console can both use it.

#include "core/result.h"

#include <QByteArray>
#include <QString>

namespace Gatehouse::Platform {

// Writes data to path atomically (a temporary file in the same directory, flushed to disk,
// renamed over path). `mode` is a Unix mode. Without group/other bits (0600) the file is
// private to the owner from its first byte, never readable by others even briefly: on Unix
// the temporary file is created 0600 and set to `mode` before any byte is written; on Windows
// it is created with a protected ACL granting the current user alone access. Other modes
// (0644) give the file as the platform makes it, readable by others.
Result<void> writeFileAtomically(const QString &path, const QByteArray &data, unsigned mode);

// writeFileAtomically(path, data, 0600): the admin token, private keys, secrets.
inline Result<void> writePrivateFile(const QString &path, const QByteArray &data)
{
    return writeFileAtomically(path, data, 0600);
}

// Creates the directory (and its parents) if needed, the last one private to the owner (0700
// on Unix, a protected owner-only ACL on Windows). An existing directory must pass
// checkOwnDirectory (an error otherwise); on Unix a warning is logged if group or others may
// read it.
Result<void> ensurePrivateDirectory(const QString &path);

// Whether keys and tokens found in an existing directory can be trusted: on Unix it must be
// owned by the user the process runs as (effective uid) and writable by nobody else (no group
// or other write bit, sticky or not); on Windows its owner must be that user, the
// Administrators group or SYSTEM (what else may write is left to its ACL, as checkPrivateFile
// leaves a file's). An error names the path, what is wrong and the chmod / chown that fixes it.
Result<void> checkOwnDirectory(const QString &path);

// Makes an existing file or directory private to the owner: 0600 / 0700 on Unix, a protected
// ACL granting the current user alone full access on Windows.
Result<void> restrictToOwner(const QString &path);

// Whether a key or token file is private enough to use: on Unix, owned by the user the process
// runs as or by root, no access for others, and none for the group unless root owns the file
// (0640 root:gatehouse is how a key is shared with a service account; PostgreSQL's rule for
// its key files). An error names the owner or the mode, and the fix. On Windows the owner must
// be that user, the Administrators group or SYSTEM; the file's ACL is left to the
// administrator.
Result<void> checkPrivateFile(const QString &path);
// Whether a file's contents are its owner's word alone: on Unix owned by the user the process
// runs as and writable by nobody else (no group or other write bit); reading is not checked
// (the console's settings: a pinned certificate fingerprint is not secret, but one planted by
// someone else would be trusted). On Windows the owner must be that user, the Administrators
// group or SYSTEM, as for checkPrivateFile.
Result<void> checkOwnersWord(const QString &path);
// Calls fn in a forked child right after fork() (pthread_atfork); nothing where there is no
// fork(). fn must not be null.
void runInChildAfterFork(void (*fn)());

// Half-closes a connected TCP socket (no more sends; shutdown(SHUT_WR) / SD_SEND). False if
// the platform refused.
bool shutdownWrite(qintptr socketDescriptor);

// Whether a process with this id runs on this machine (kill(pid, 0) / OpenProcess): true when
// it cannot tell (no permission to look), so that false always means gone.
bool processExists(qint64 pid);

// The malloc serving this process: "mimalloc <version>" when the program was linked with it
// (or it was preloaded) and it does hand out this process's memory; "system" otherwise (the C
// library's, a sanitizer's, or any malloc on Windows).
QString mallocName();

// Before the process exits: returns once no thread of the process has ended for `quietMs`
// (or after `maxMs`). Threads that Qt reports finished (QThread::wait() returned) still run
// their thread-exit destructors (OpenSSL frees its per-thread state there); exiting under them
// cuts that short, and LeakSanitizer reports what it had not freed yet. Linux reads
// /proc/self/task; elsewhere it returns at once.
void settleEndingThreads(int quietMs = 50, int maxMs = 1000);

} // namespace Gatehouse::Platform
