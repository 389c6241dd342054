#include "crypto/securefile_p.h"

#include "crypto/errorcodes.h"

#include <QFile>

namespace Gatehouse::Crypto::Detail {

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
