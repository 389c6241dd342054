#include "core/httpparser.h"

#include <QUrl>

#include <cctype>
#include <cstring>

namespace Gatehouse::Core::Http1 {

namespace {

bool isTchar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

bool isToken(const QByteArray &s)
{
    if (s.isEmpty())
        return false;
    for (char c : s)
        if (!isTchar(c))
            return false;
    return true;
}

ParseError bad(const QString &message)
{
    return ParseError{400, QStringLiteral("bad-request"), message};
}

} // namespace

QByteArray RequestHead::header(const QByteArray &lowerName) const
{
    return headerValue(headers, lowerName);
}

HeadStatus takeHead(const QByteArray &buffer, qint64 maxHeaderBytes, QByteArray *head,
                    qsizetype *consumed, ParseError *error)
{
    // Lines end with CRLF and nothing else (RFC 9112 §2.2): a bare LF or CR is refused, not
    // read as a line end, so that a proxy in front that reads the bytes strictly can never
    // disagree with this server about where a request (or a header) ends.
    auto bareLineEnd = [error] {
        *error = bad(QStringLiteral("a line of the request head does not end with CRLF"));
        return HeadStatus::Error;
    };
    // Empty lines (CRLF) before a request line are ignored (RFC 9112 §2.2).
    qsizetype start = 0;
    while (start + 1 < buffer.size() && buffer[start] == '\r' && buffer[start + 1] == '\n')
        start += 2;
    const qsizetype end = buffer.indexOf("\r\n\r\n", start);
    const qsizetype scanned = end < 0 ? buffer.size() : end + 2;
    for (qsizetype i = start; i < scanned; ++i) {
        const char c = buffer[i];
        if (c == '\n' && (i == start || buffer[i - 1] != '\r'))
            return bareLineEnd();
        if (c == '\r' && i + 1 < buffer.size() && buffer[i + 1] != '\n')
            return bareLineEnd();
    }
    if (end < 0 || end - start > maxHeaderBytes) {
        if (buffer.size() - start > maxHeaderBytes || end - start > maxHeaderBytes) {
            *error = ParseError{
                431, QStringLiteral("request-header-too-large"),
                QStringLiteral("request line and headers exceed %1 bytes").arg(maxHeaderBytes)};
            return HeadStatus::Error;
        }
        *consumed = start;
        return HeadStatus::NeedMore;
    }
    *head = buffer.mid(start, end - start);
    *consumed = end + 4;
    return HeadStatus::Complete;
}

std::variant<RequestHead, ParseError> parseHead(const QByteArray &headBytes)
{
    RequestHead req;
    // takeHead has checked that every line ends with CRLF.
    if (headBytes.contains('\n') && headBytes.count('\n') != headBytes.count("\r\n"))
        return bad(QStringLiteral("a line of the request head does not end with CRLF"));
    QList<QByteArray> lines = headBytes.split('\n');
    for (QByteArray &l : lines)
        if (l.endsWith('\r'))
            l.chop(1);
    for (const QByteArray &l : std::as_const(lines))
        if (l.contains('\r'))
            return bad(QStringLiteral("a line of the request head does not end with CRLF"));
    const QList<QByteArray> parts = lines.first().split(' ');
    if (parts.size() != 3 || !isToken(parts[0]) || parts[0].size() > 32 || parts[1].isEmpty())
        return bad(QStringLiteral("malformed request line"));
    req.method = parts[0];
    req.target = parts[1];
    const QByteArray &version = parts[2];
    if (version == "HTTP/1.1")
        req.minorVersion = 1;
    else if (version == "HTTP/1.0")
        req.minorVersion = 0;
    else if (version.startsWith("HTTP/") && version.size() == 8 &&
             std::isdigit(uchar(version[5])) && version[6] == '.' &&
             std::isdigit(uchar(version[7])))
        return ParseError{505, QStringLiteral("http-version-not-supported"),
                          QStringLiteral("only HTTP/1.0 and HTTP/1.1 are supported")};
    else
        return bad(QStringLiteral("malformed HTTP version"));
    for (char c : req.target)
        if (uchar(c) <= 0x20 || uchar(c) == 0x7f)
            return bad(QStringLiteral("malformed request target"));

    if (lines.size() - 1 > 200)
        return ParseError{431, QStringLiteral("request-header-too-large"),
                          QStringLiteral("too many header fields")};
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray &line = lines[i];
        if (line.startsWith(' ') || line.startsWith('\t'))
            return bad(QStringLiteral("obsolete header line folding"));
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return bad(QStringLiteral("malformed header field"));
        const QByteArray name = line.left(colon);
        if (!isToken(name))
            return bad(QStringLiteral("malformed header field name"));
        // Optional whitespace is SP and HTAB only (RFC 9110 §5.6.3), and a value holds no other
        // control character (§5.5): "chunked\v" is not "chunked" to a proxy in front.
        QByteArray value = line.mid(colon + 1);
        const auto ows = [](char c) { return c == ' ' || c == '\t'; };
        while (!value.isEmpty() && ows(value.front()))
            value.remove(0, 1);
        while (!value.isEmpty() && ows(value.back()))
            value.chop(1);
        for (char c : value)
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
                return bad(QStringLiteral("invalid character in header value"));
        req.headers.append(qMakePair(name.toLower(), value));
    }
    // One Host, and for HTTP/1.1 exactly one (RFC 9112 §3.2: 400 for none or several): a
    // proxy in front and this server must not each take another.
    int hosts = 0;
    for (const auto &h : std::as_const(req.headers))
        hosts += h.first == "host" ? 1 : 0;
    if (hosts > 1)
        return bad(QStringLiteral("more than one Host header"));
    if (req.minorVersion == 1 && hosts == 0)
        return bad(QStringLiteral("missing Host header"));

    // Request target: origin-form, absolute-form, or "*" for OPTIONS (RFC 9112 §3.2).
    QByteArray pathAndQuery = req.target;
    if (!pathAndQuery.startsWith('/')) {
        if (pathAndQuery == "*" && req.method == "OPTIONS") {
            pathAndQuery = "*";
        } else {
            // An http(s) URI without an authority is invalid (RFC 9110 §4.2.1): "http:x/admin"
            // would give the relative path "x/admin", which the prefix filters (the admin
            // token, the orders API's bearer check) would not see while the router, by its
            // segments, would still find /admin's routes.
            const QUrl u = QUrl::fromEncoded(pathAndQuery, QUrl::StrictMode);
            if (!u.isValid() ||
                (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")) ||
                u.host().isEmpty())
                return bad(QStringLiteral("malformed request target"));
            pathAndQuery = u.path(QUrl::FullyEncoded).toLatin1();
            if (pathAndQuery.isEmpty())
                pathAndQuery = "/";
            if (u.hasQuery())
                pathAndQuery += '?' + u.query(QUrl::FullyEncoded).toLatin1();
        }
    }
    const qsizetype qm = pathAndQuery.indexOf('?');
    const QByteArray rawPath = qm >= 0 ? pathAndQuery.left(qm) : pathAndQuery;
    // Every path is absolute ("*" aside): the path the filters match by prefix and the segments
    // the router matches are then one and the same.
    if (rawPath != "*" && !rawPath.startsWith('/'))
        return bad(QStringLiteral("malformed request target"));
    if (qm >= 0)
        req.query = QUrlQuery(QString::fromUtf8(pathAndQuery.mid(qm + 1)));
    req.path = QUrl::fromPercentEncoding(rawPath);
    if (req.path.contains(QChar(0)))
        return bad(QStringLiteral("malformed request target"));
    const QList<QByteArray> rawSegments = rawPath.split('/');
    for (qsizetype i = 1; i < rawSegments.size(); ++i)
        req.segments.append(QUrl::fromPercentEncoding(rawSegments[i]));
    if (req.segments.size() > 1 && req.segments.last().isEmpty())
        req.segments.removeLast(); // "/a/b/" routes like "/a/b"

    // Framing (RFC 9112 §6): reject what could smuggle a second request.
    QByteArray contentLength;
    for (const auto &h : std::as_const(req.headers)) {
        if (h.first == "content-length") {
            if (!contentLength.isEmpty() && contentLength != h.second)
                return bad(QStringLiteral("conflicting Content-Length headers"));
            if (h.second.isEmpty())
                return bad(QStringLiteral("invalid Content-Length"));
            contentLength = h.second;
        } else if (h.first == "transfer-encoding") {
            if (h.second.toLower() != "chunked")
                return ParseError{501, QStringLiteral("not-implemented"),
                                  QStringLiteral("unsupported Transfer-Encoding: %1")
                                      .arg(QString::fromLatin1(h.second))};
            if (req.chunked || req.minorVersion == 0)
                return bad(QStringLiteral("invalid Transfer-Encoding"));
            req.chunked = true;
        }
    }
    if (req.chunked && !contentLength.isEmpty())
        return bad(QStringLiteral("both Content-Length and Transfer-Encoding given"));
    if (!contentLength.isEmpty()) {
        bool ok = contentLength.size() <= 18;
        for (char c : contentLength)
            ok = ok && std::isdigit(static_cast<unsigned char>(c));
        if (!ok)
            return bad(QStringLiteral("invalid Content-Length"));
        req.contentLength = contentLength.toLongLong();
    }
    const QByteArray connection = req.header("connection").toLower();
    req.keepAlive =
        req.minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive");
    req.expectContinue = req.minorVersion == 1 && req.header("expect").toLower() == "100-continue";
    return req;
}

ChunkedDecoder::Status ChunkedDecoder::feed(QByteArray &in, QByteArray &body, qint64 bodyLimit,
                                            qint64 maxTrailerBytes, ParseError *error)
{
    qsizetype pos = 0; // consumed so far; removed from `in` once on return
    auto finish = [&](Status s) {
        in.remove(0, pos);
        return s;
    };
    auto fail = [&](const QString &message) {
        *error = bad(message);
        return finish(Status::Error);
    };
    // The next line, without its CRLF; false when it is not complete yet. A bare LF or CR is
    // an error (the same strictness as the head: no second reading of where a chunk ends).
    auto takeLine = [&](QByteArray *line, bool *bad) {
        *bad = false;
        const qsizetype nl = in.indexOf('\n', pos);
        if (nl < 0)
            return false;
        if (nl == pos || in.at(nl - 1) != '\r') {
            *bad = true;
            return false;
        }
        *line = in.mid(pos, nl - 1 - pos);
        if (line->contains('\r')) {
            *bad = true;
            return false;
        }
        pos = nl + 1;
        return true;
    };
    for (;;) {
        if (m_state == -1) { // chunk-size [; extensions] CRLF
            QByteArray line;
            bool malformed = false;
            if (!takeLine(&line, &malformed)) {
                if (malformed)
                    return fail(QStringLiteral("a chunk size line does not end with CRLF"));
                if (in.size() - pos > 1024)
                    return fail(QStringLiteral("malformed chunk size"));
                return finish(Status::NeedMore);
            }
            // 1*HEXDIG, then the end of the line or ';' at once: no whitespace around the
            // size (RFC 9112 §7.1), which lenient and strict parsers read differently.
            qsizetype digits = 0;
            while (digits < line.size() && std::isxdigit(uchar(line.at(digits))))
                ++digits;
            bool ok =
                digits > 0 && digits <= 15 && (digits == line.size() || line.at(digits) == ';');
            for (qsizetype i = digits; ok && i < line.size(); ++i)
                ok = uchar(line.at(i)) >= 0x20 || line.at(i) == '\t';
            const qint64 size = ok ? line.left(digits).toLongLong(&ok, 16) : 0;
            if (!ok || size < 0)
                return fail(QStringLiteral("malformed chunk size"));
            if (size == 0) {
                m_state = -2;
            } else if (body.size() + size > bodyLimit) {
                *error = ParseError{
                    413, QStringLiteral("request-body-too-large"),
                    QStringLiteral("request body exceeds the limit of %1 bytes").arg(bodyLimit)};
                return finish(Status::Error);
            } else {
                m_state = size;
            }
        }
        if (m_state == -2) { // trailer section, ends with an empty line
            QByteArray line;
            bool malformed = false;
            if (!takeLine(&line, &malformed)) {
                if (malformed)
                    return fail(QStringLiteral("a trailer line does not end with CRLF"));
                if (in.size() - pos > maxTrailerBytes)
                    return fail(QStringLiteral("trailer section too large"));
                return finish(Status::NeedMore);
            }
            if (line.isEmpty()) {
                m_state = -1;
                return finish(Status::Done);
            }
            continue;
        }
        // chunk data, then CRLF
        const qint64 n = m_state;
        if (in.size() - pos < n + 2)
            return finish(Status::NeedMore);
        if (in.at(pos + n) != '\r' || in.at(pos + n + 1) != '\n')
            return fail(QStringLiteral("a chunk's data does not end with CRLF"));
        body.append(in.constData() + pos, n);
        pos += n + 2;
        m_state = -1;
    }
}

} // namespace Gatehouse::Core::Http1
