#pragma once

#include "sseparser.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace Gatehouse::Console {

// One event from the admin event stream: the JSON envelope
// {"seq":7,"type":"stats","time":"...","data":{...}} of an SSE frame.
struct AdminEvent
{
    qint64 seq = -1;    // from the envelope; -1 when the frame was not one
    QString type;       // e.g. "stats", "order.created"; never empty
    QDateTime time;     // server time (UTC); the receive time when the frame had none
    QJsonObject data;   // the event's payload
    QString instance;   // the instance it happened on (several on one database), else empty
    QByteArray rawData; // the frame's data when it was not a JSON envelope, else empty

    // Never fails: a frame that is not the expected JSON is kept as raw text so the console
    // can still show it.
    static AdminEvent fromSse(const SseEvent &frame, const QDateTime &receivedAt);
};

} // namespace Gatehouse::Console
