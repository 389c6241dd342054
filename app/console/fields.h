#pragma once

// Field readers shared by the console's models and forms (the admin API's JSON, the forms'
// comma-separated lists).

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

namespace Gatehouse::Console {

// The string at KEY; empty when it is missing or not a string.
inline QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

// Each element of a JSON array as a string (non-strings as empty strings).
inline QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue v : value.toArray())
        out.append(v.toString());
    return out;
}

// A Kubernetes object's metadata.
inline QJsonObject metadata(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject();
}

// "a, b,,c " as [a, b, c]: trimmed, empty entries dropped.
inline QStringList groupList(const QString &commaSeparated)
{
    QStringList groups;
    for (const QString &g : commaSeparated.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (const QString t = g.trimmed(); !t.isEmpty())
            groups.append(t);
    return groups;
}

} // namespace Gatehouse::Console
