#pragma once

#include "core/httpmessage.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrlQuery>

#include <variant>

// HTTP/1.1 request parsing (RFC 9112), free of sockets so that it can be fuzzed and
// unit-tested on its own. The connection layer in httpserver.cpp drives it.
namespace Gatehouse::Core::Http1 {

struct ParseError
{
    int status = 400;
    QString code;
    QString message;
};

struct RequestHead
{
    QByteArray method;
    QByteArray target;
    int minorVersion = 1;
    HeaderList headers;   // names lower-cased
    QString path;         // percent-decoded
    QStringList segments; // path segments, each percent-decoded ("/a/b%2Fc" -> a, b/c)
    QUrlQuery query;
    qint64 contentLength = 0;
    bool chunked = false;
    bool keepAlive = true;
    bool expectContinue = false;

    QByteArray header(const QByteArray &lowerName) const;
};

enum class HeadStatus { NeedMore, Complete, Error };

// Finds a complete request head at the start of buffer (after optional empty lines).
// Complete: *head is the head without the final empty line, *consumed the bytes to drop.
// Error: 431 when the head cannot fit in maxHeaderBytes.
HeadStatus takeHead(const QByteArray &buffer, qint64 maxHeaderBytes, QByteArray *head,
                    qsizetype *consumed, ParseError *error);

std::variant<RequestHead, ParseError> parseHead(const QByteArray &head);

// Decodes a chunked request body (RFC 9112 §7.1) incrementally.
class ChunkedDecoder
{
public:
    enum class Status { NeedMore, Done, Error };
    // Consumes what it can from in and appends decoded data to body.
    Status feed(QByteArray &in, QByteArray &body, qint64 bodyLimit, qint64 maxTrailerBytes,
                ParseError *error);
    void reset() { m_state = -1; }

private:
    qint64 m_state = -1; // -1: size line next, -2: trailer lines next, >0: data bytes left
};

} // namespace Gatehouse::Core::Http1
