#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace Gatehouse::Console {

// One dispatched Server-Sent Event (HTML Living Standard, "9.2.6 Interpreting an event stream").
struct SseEvent
{
    QByteArray id;   // the stream's last event ID at dispatch time (may be empty)
    QByteArray type; // "message" when the stream named none
    QByteArray data; // data lines joined with '\n', without the trailing newline

    friend bool operator==(const SseEvent &, const SseEvent &) = default;
};

// Incremental text/event-stream parser: feed bytes as they arrive, in chunks split anywhere
// (even between '\r' and '\n'), and get the complete events. No I/O, no Qt event loop.
class SseParser
{
public:
    // Lines longer than this are dropped (a misbehaving server cannot grow our buffer forever).
    static constexpr qsizetype MaxLineLength = 1024 * 1024;

    QList<SseEvent> feed(QByteArrayView bytes);
    // Forget buffered partial input and the current event; keeps lastEventId (reconnects resume).
    void resetStream();

    QByteArray lastEventId() const { return m_lastEventId; }
    void setLastEventId(const QByteArray &id) { m_lastEventId = id; }
    // The server's "retry:" advice in milliseconds, -1 if none was given.
    int retryMs() const { return m_retryMs; }
    // Number of comment lines (": keepalive") seen since construction.
    int commentCount() const { return m_commentCount; }

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);

    QByteArray m_line;
    QByteArray m_data;
    QByteArray m_type;
    QByteArray m_lastEventId;
    int m_retryMs = -1;
    int m_commentCount = 0;
    bool m_seenFirstBytes = false; // a leading UTF-8 BOM is skipped
    bool m_lastWasCR = false; // "\r" ended the previous chunk; a following "\n" is the same EOL
    bool m_discardingLine = false; // the current line exceeded MaxLineLength
};

} // namespace Gatehouse::Console
