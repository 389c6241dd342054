// The JSON config file: operators' input, refused with a message when invalid.
#include "core/config.h"

#include <QFile>
#include <QTemporaryDir>

#include "fuzzassert.h"

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
    FUZZ_ASSERT(r.ok() || !r.error().message.isEmpty(), "every refusal explains itself");
    FUZZ_ASSERT(!r.ok() ||
                    (r->service.port >= 0 && r->service.port <= 65535 && r->maxHeaderBytes >= 1024),
                "values outside their documented ranges are refused");
    return 0;
}
