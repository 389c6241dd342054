// The console's Server-Sent Events parser reads whatever the (possibly remote) backend sends.
#include "console/sseparser.h"

#include "fuzzassert.h"

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Console;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    // First byte picks the split point, so chunk boundaries are fuzzed too.
    const size_t split = data[0] % size;
    const QByteArrayView all(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    SseParser whole;
    SseParser parts;
    const auto a = whole.feed(all);
    auto b = parts.feed(all.first(qsizetype(std::min(split, size - 1))));
    b += parts.feed(all.sliced(qsizetype(std::min(split, size - 1))));
    FUZZ_ASSERT(a.size() == b.size(), "the split point does not change what is parsed");
    for (qsizetype i = 0; i < a.size(); ++i)
        FUZZ_ASSERT(a[i].data == b[i].data && a[i].type == b[i].type, "same events either way");
    return 0;
}
