// The JSON config file: operators' input, refused with a message when invalid.
#include "core/config.h"

#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static QTemporaryDir dir;
    static const QString path = dir.filePath(QStringLiteral("config.json"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return 0;
        f.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    auto r = ConfigResolver::resolve({{QStringLiteral("config"), path}}, QProcessEnvironment());
    if (!r.ok() && r.error().message.isEmpty())
        __builtin_trap(); // every refusal explains itself
    if (r.ok() && (r->service.port < 0 || r->service.port > 65535 || r->maxHeaderBytes < 1024))
        __builtin_trap(); // values outside their documented ranges must be refused
    return 0;
}
