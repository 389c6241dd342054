// HTTP/1.1 request line, headers and chunked body: the bytes any client can send.
#include "core/httpparser.h"

#include "fuzzassert.h"

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QByteArray buffer(reinterpret_cast<const char *>(data), qsizetype(size));
    // Several requests may be pipelined in one buffer; parse as the connection would.
    for (int i = 0; i < 8 && !buffer.isEmpty(); ++i) {
        QByteArray head;
        qsizetype consumed = 0;
        Http1::ParseError error;
        if (Http1::takeHead(buffer, 4096, &head, &consumed, &error) != Http1::HeadStatus::Complete)
            return 0;
        buffer.remove(0, consumed);
        auto parsed = Http1::parseHead(head);
        auto *req = std::get_if<Http1::RequestHead>(&parsed);
        if (!req) {
            const auto &e = std::get<Http1::ParseError>(parsed);
            FUZZ_ASSERT(e.status >= 400 && e.status <= 599 && !e.message.isEmpty(),
                        "every refusal is a 4xx/5xx with a message");
            return 0;
        }
        FUZZ_ASSERT(req->contentLength >= 0, "Content-Length is never negative");
        if (req->chunked) {
            Http1::ChunkedDecoder decoder;
            QByteArray body;
            const auto st = decoder.feed(buffer, body, 64 * 1024, 4096, &error);
            FUZZ_ASSERT(body.size() <= 64 * 1024, "the body limit holds");
            if (st != Http1::ChunkedDecoder::Status::Done)
                return 0;
        } else {
            if (buffer.size() < req->contentLength)
                return 0;
            buffer.remove(0, req->contentLength);
        }
    }
    return 0;
}
