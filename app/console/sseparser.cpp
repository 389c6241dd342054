#include "sseparser.h"

namespace Gatehouse::Console {

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    QList<SseEvent> out;
    if (!m_seenFirstBytes && !bytes.isEmpty()) {
        // The BOM may itself arrive split; buffer until we can decide.
        static constexpr char bom[] = "\xEF\xBB\xBF";
        m_line.append(bytes);
        const QByteArrayView head(m_line);
        const qsizetype n = std::min<qsizetype>(head.size(), 3);
        if (head.first(n) == QByteArrayView(bom, n) && n < 3)
            return out;
        m_seenFirstBytes = true;
        QByteArray pending = std::exchange(m_line, {});
        if (pending.startsWith(bom))
            pending.remove(0, 3);
        return feed(pending);
    }

    qsizetype start = 0;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes.at(i);
        if (c != '\n' && c != '\r')
            continue;
        if (c == '\n' && m_lastWasCR && i == 0) {
            // Second half of a "\r\n" split across chunks.
            m_lastWasCR = false;
            start = 1;
            continue;
        }
        const QByteArrayView piece = bytes.sliced(start, i - start);
        if (m_discardingLine) {
            m_discardingLine = false;
        } else if (m_line.isEmpty()) {
            processLine(piece, out);
        } else {
            m_line.append(piece);
            processLine(m_line, out);
        }
        m_line.clear();
        bool crlf = false;
        if (c == '\r' && i + 1 < bytes.size() && bytes.at(i + 1) == '\n') {
            ++i;
            crlf = true;
        }
        // Only a lone CR at the very end may be the first half of a CRLF split across
        // chunks; a complete CRLF must not swallow a following empty line (found by fuzz_sse).
        m_lastWasCR = (c == '\r' && !crlf && i + 1 == bytes.size());
        start = i + 1;
    }
    if (start < bytes.size()) {
        m_lastWasCR = false;
        if (!m_discardingLine) {
            m_line.append(bytes.sliced(start));
            if (m_line.size() > MaxLineLength) {
                m_line.clear();
                m_discardingLine = true;
            }
        }
    }
    return out;
}

void SseParser::resetStream()
{
    m_line.clear();
    m_data.clear();
    m_type.clear();
    m_seenFirstBytes = false;
    m_lastWasCR = false;
    m_discardingLine = false;
}

void SseParser::processLine(QByteArrayView line, QList<SseEvent> &out)
{
    if (line.isEmpty()) {
        // Dispatch. An event without data is dropped, but its type is forgotten either way.
        if (!m_data.isEmpty()) {
            m_data.chop(1); // the '\n' appended after the last data line
            out.append(SseEvent{m_lastEventId, m_type.isEmpty() ? QByteArray("message") : m_type,
                                std::exchange(m_data, {})});
        }
        m_data.clear();
        m_type.clear();
        return;
    }
    if (line.front() == ':') {
        ++m_commentCount;
        return;
    }
    QByteArrayView field = line;
    QByteArrayView value;
    if (const qsizetype colon = line.indexOf(':'); colon >= 0) {
        field = line.first(colon);
        value = line.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
    }
    if (field == "data") {
        m_data.append(value);
        m_data.append('\n');
    } else if (field == "event") {
        m_type = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastEventId = value.toByteArray();
    } else if (field == "retry") {
        bool ok = !value.isEmpty();
        for (char c : value)
            ok = ok && c >= '0' && c <= '9';
        if (ok) {
            const int ms = value.toByteArray().toInt(&ok);
            if (ok)
                m_retryMs = ms;
        }
    }
    // Any other field name is ignored, as the standard requires.
}

} // namespace Gatehouse::Console
