#pragma once

// Internal to backend/crypto: file helpers for key and certificate material.

#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <sys/types.h>

namespace Gatehouse::Crypto::Detail {

// Writes data to path atomically (temporary file in the same directory, fsync,
// rename). The temporary file is created with mode 0600 and set to `mode` before any
// byte is written, so secret content is never readable by others, not even briefly.
Result<void> writeFileAtomically(const QString &path, const QByteArray &data, mode_t mode);

// Creates directory (and parents) if needed; the last component is created 0700.
// An existing directory is left as it is (a warning is logged if it is open to others).
Result<void> ensurePrivateDirectory(const QString &path);

// Reads a small file (PEM material) with an upper bound on its size.
Result<QByteArray> readSmallFile(const QString &path, qint64 maxSize = 1024 * 1024);

} // namespace Gatehouse::Crypto::Detail
