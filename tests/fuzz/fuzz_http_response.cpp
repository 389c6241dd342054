// HTTP/1.x responses of webhook receivers: bytes any customer-chosen URL can answer with.
// Input: a flags byte, a split byte, then the response bytes.
#include "webhooks/httpclient.h"

#include "fuzzassert.h"

#include <cstddef>
#include <cstdint>

using Gatehouse::Webhooks::Http1ResponseParser;
using Gatehouse::Webhooks::OutboundResponse;

namespace {

bool same(const Http1ResponseParser &a, const Http1ResponseParser &b)
{
    const OutboundResponse ra = a.toResponse();
    const OutboundResponse rb = b.toResponse();
    return a.state() == b.state() && a.consumedBytes() == b.consumedBytes() &&
           a.keepAlive() == b.keepAlive() && a.interimResponses() == b.interimResponses() &&
           ra.status == rb.status && ra.headers == rb.headers && ra.body == rb.body &&
           ra.bodyBytes == rb.bodyBytes && ra.error == rb.error;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const uint8_t flags = data[0];
    const QByteArrayView input(reinterpret_cast<const char *>(data + 2), qsizetype(size - 2));
    const qsizetype split = input.size() * data[1] / 255;
    const QByteArray method = (flags & 1) ? "HEAD" : "POST";
    const bool closeAtEnd = (flags & 2) != 0;
    const qint64 keptCap = (flags & 4) ? 16 : 4096;
    const qint64 headCap = (flags & 8) ? 256 : 16 * 1024;

    Http1ResponseParser whole(method, headCap, keptCap);
    const qsizetype usedWhole = whole.feed(input);
    FUZZ_ASSERT(usedWhole >= 0 && usedWhole <= input.size(), "feed takes at most what it gets");

    Http1ResponseParser parts(method, headCap, keptCap);
    qsizetype usedParts = parts.feed(input.first(split));
    FUZZ_ASSERT(usedParts <= split, "feed takes at most what it gets");
    if (usedParts == split)
        usedParts += parts.feed(input.sliced(split));
    FUZZ_ASSERT(usedParts == usedWhole, "one chunk or two: the same bytes are taken");

    if (closeAtEnd) {
        whole.finish();
        parts.finish();
        FUZZ_ASSERT(whole.done() || whole.failed(), "after EOF the response is done or failed");
    }
    FUZZ_ASSERT(same(whole, parts), "one chunk or two: the same result");

    if (input.size() <= 512) {
        Http1ResponseParser bytes(method, headCap, keptCap);
        for (qsizetype i = 0; i < input.size() && !bytes.done(); ++i)
            bytes.feed(input.sliced(i, 1));
        if (closeAtEnd)
            bytes.finish();
        FUZZ_ASSERT(same(whole, bytes), "byte by byte: the same result");
    }

    FUZZ_ASSERT(whole.body().size() <= keptCap, "the kept body never exceeds its cap");
    FUZZ_ASSERT(whole.bodyBytes() >= whole.body().size(), "bodyBytes counts every body byte");
    const OutboundResponse r = whole.toResponse();
    if (whole.done()) {
        FUZZ_ASSERT(r.status >= 200 && r.status <= 599 && r.error.isEmpty(),
                    "a complete response has a final status and no error");
        for (const auto &h : r.headers)
            FUZZ_ASSERT(h.first == h.first.toLower() && !h.first.isEmpty(),
                        "header names are lower-case tokens");
    } else {
        FUZZ_ASSERT(r.status == 0 && !r.error.isEmpty(), "no status without a complete response");
    }
    if (whole.failed())
        FUZZ_ASSERT(!whole.keepAlive(), "a broken connection is never reused");
    return 0;
}
