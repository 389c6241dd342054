#pragma once

// What a watch writes, as the connection would send it (tst_watch, tst_sharedobjects).
#include "cluster/watch.h"
#include "core/httpmessage.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

class CapturedStream : public Gatehouse::Core::HttpStream
{
public:
    QList<QJsonObject> events;
    bool open = true;
    void write(const QByteArray &data) override
    {
        for (const QByteArray &line : data.split('\n'))
            if (!line.isEmpty())
                events.append(QJsonDocument::fromJson(line).object());
    }
    void close() override
    {
        if (open) {
            open = false;
            emit closed();
        }
    }
    bool isOpen() const override { return open; }
    QStringList types() const
    {
        QStringList out;
        for (const QJsonObject &e : events)
            out.append(e.value(QLatin1String("type")).toString());
        return out;
    }
};

// A watch event as one JSON line: {"type":..., "object":...}.
inline QByteArray encodeJsonLine(const Gatehouse::Cluster::WatchEvent &e)
{
    return QJsonDocument(
               QJsonObject{{QStringLiteral("type"), e.type}, {QStringLiteral("object"), e.object}})
               .toJson(QJsonDocument::Compact) +
           '\n';
}
