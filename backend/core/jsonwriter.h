#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QStringView>

#include <optional>

namespace Gatehouse::Core {

// Appends `s` as a JSON string (RFC 8259 §7: quotes, with '"', '\' and the control characters
// escaped, everything else as UTF-8; a lone surrogate as \uXXXX), byte for byte as
// QJsonDocument writes it.
void appendJsonString(QByteArray &out, QStringView s);

// The value of the member `key` (ASCII) of the JSON object `object`, without parsing the other
// members' values: for the data of events published as text. nullopt when the object has no
// such member or the text is not one JSON object (the other members' values are only
// delimited, not checked). With a name twice, the last one, as QJsonDocument reads it.
std::optional<QJsonValue> jsonObjectMember(QByteArrayView object, QLatin1StringView key);

// Writes one compact JSON object member by member. For the hot paths (a token's claims and
// the token response) where filling a QJsonObject (a CBOR container and a string conversion
// per member) and serializing it costs more than the rest of the work around it. Members
// come out in the order written; the caller writes each key once.
class JsonObjectWriter
{
public:
    JsonObjectWriter() { m_out.reserve(256); }
    // Goes on writing members into a finished object (its text, "{...}").
    static JsonObjectWriter extending(const QByteArray &object);

    // `key` is a plain ASCII name with nothing to escape (a literal).
    JsonObjectWriter &add(const char *key, QStringView value);
    JsonObjectWriter &add(const char *key, qint64 value);
    // Any key and any value (serialized by QJsonDocument).
    JsonObjectWriter &add(QStringView key, const QJsonValue &value);
    JsonObjectWriter &addNull(const char *key);
    JsonObjectWriter &addBool(const char *key, bool value);
    // As QJsonDocument writes a double: shortest round-trip form, null if not finite.
    JsonObjectWriter &addDouble(const char *key, double value);
    // A string, or null when it is empty.
    JsonObjectWriter &addTextOrNull(const char *key, QStringView value);
    // `json` is already one JSON value's text (e.g. an object another writer finished).
    JsonObjectWriter &addRaw(const char *key, QByteArrayView json);

    QByteArray finish(); // closes the object and hands it over; the writer is empty after it

private:
    void key(const char *name);

    QByteArray m_out = QByteArrayLiteral("{");
};

} // namespace Gatehouse::Core
