#pragma once

// Internal to backend/crypto: reading key and certificate material. Writing it privately is
// platform code: platform/platform.h (writeFileAtomically, ensurePrivateDirectory).

#include "core/result.h"

#include <QByteArray>
#include <QString>

namespace Gatehouse::Crypto::Detail {

// Reads a small file (PEM material) with an upper bound on its size.
Result<QByteArray> readSmallFile(const QString &path, qint64 maxSize = 1024 * 1024);

} // namespace Gatehouse::Crypto::Detail
