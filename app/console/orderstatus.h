#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QVariantList>

namespace Gatehouse::Console {

// The order lifecycle of docs/orders.md as the console needs it: display names, the colour
// family a status belongs to, and which actions a status allows. The server decides; these
// only keep the console from offering what it would refuse.
class OrderStatus
{
public:
    // In lifecycle order.
    static const QStringList &all();
    static QString displayName(const QString &status);
    // "progress", "ok", "waiting", "exception", "cancelled"; "unknown" for anything else.
    static QString family(const QString &status);
    static bool canPickup(const QString &status);
    static bool canDeliver(const QString &status);
    static bool canCancel(const QString &status);
    // [{value, text}] for a combo box: "All" (value "") and then every status.
    static QVariantList filterOptions();
};

// Delivery states ("pending", "succeeded", "failed").
class DeliveryState
{
public:
    static const QStringList &all();
    static QString displayName(const QString &state);
    static QString family(const QString &state); // progress, ok, exception
    static QVariantList filterOptions();
};

// Shared text formatting for the console's lists.
class ConsoleFormat
{
public:
    // The API's ISO 8601 time (UTC, with or without milliseconds); invalid for null or junk.
    static QDateTime parseTime(const QJsonValue &value);
    // Local time: "14:03:27" today, "21 Nov 14:03" this year, else "2025-11-21 14:03"; "–"
    // for an invalid time.
    static QString time(const QDateTime &time, const QDateTime &now = QDateTime::currentDateTime());
    static QString time(const QJsonValue &value);
    // The first 8 characters of an id (UUIDs, "msg_…" ids keep their prefix).
    static QString shortId(const QString &id);
    // "84 ms", "1.2 s"; "–" when negative (no answer).
    static QString latency(qint64 ms);
    // At most maxLines lines and maxChars characters, with "…" when cut.
    static QString preview(const QString &text, int maxLines = 3, int maxChars = 240);
};

} // namespace Gatehouse::Console
