#pragma once

#include <QJsonValue>
#include <QString>
#include <QtGlobal>
#include <optional>

namespace Gatehouse::Core {

// "a string", "an object", ... for error messages about a JSON value of the wrong type.
inline QString jsonTypeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

// A JSON number as a whole number, when it is one qint64 holds: Qt keeps an integer literal
// that fits as a qint64 (int64's largest, 9223372036854775807, exactly), and converts a double
// only when it is whole and in range. Never a cast of a double out of range (undefined
// behaviour: 1e19 in a stored cluster object stopped the process on every read).
inline std::optional<qint64> jsonInteger(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const qint64 value = v.toInteger(0);
    if (value != v.toInteger(1)) // neither default came back: it is that integer
        return std::nullopt;
    return value;
}

// A whole-number member of a request: `fallback` when it is absent (or null), nothing when it
// is there but not a whole number (0.5 days, "100", 1e19: refused, never read as the default).
inline std::optional<qint64> integerOr(const QJsonValue &v, qint64 fallback)
{
    if (v.isUndefined() || v.isNull())
        return fallback;
    return jsonInteger(v);
}

} // namespace Gatehouse::Core
