#include "adminevent.h"

#include <QJsonDocument>

namespace Gatehouse::Console {

AdminEvent AdminEvent::fromSse(const SseEvent &frame, const QDateTime &receivedAt)
{
    AdminEvent event;
    // Only the envelope's seq identifies the event: an SSE id line persists across frames.
    event.type = QString::fromUtf8(frame.type);
    event.time = receivedAt.toUTC();

    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(frame.data, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        event.rawData = frame.data;
        return event;
    }
    const QJsonObject envelope = doc.object();
    if (const QJsonValue seq = envelope.value(QLatin1String("seq")); seq.isDouble())
        event.seq = seq.toInteger(event.seq);
    if (const QString type = envelope.value(QLatin1String("type")).toString(); !type.isEmpty())
        event.type = type;
    if (const QString time = envelope.value(QLatin1String("time")).toString(); !time.isEmpty()) {
        const QDateTime parsed = QDateTime::fromString(time, Qt::ISODateWithMs);
        if (parsed.isValid())
            event.time = parsed.toUTC();
    }
    event.data = envelope.value(QLatin1String("data")).toObject();
    event.instance = envelope.value(QLatin1String("instance")).toString().left(200);
    return event;
}

} // namespace Gatehouse::Console
