#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QStringView>

namespace Gatehouse::Core {

// Appends `s` as a JSON string (RFC 8259 §7: quotes, with '"', '\' and the control characters
// escaped, everything else as UTF-8; a lone surrogate becomes U+FFFD).
void appendJsonString(QByteArray &out, QStringView s);

// Writes one compact JSON object member by member. For the hot paths (a token's claims and
// the token response) where filling a QJsonObject (a CBOR container and a string conversion
// per member) and serializing it costs more than the rest of the work around it. Members
// come out in the order written; the caller writes each key once.
class JsonObjectWriter
{
public:
    JsonObjectWriter() { m_out.reserve(256); }

    // `key` is a plain ASCII name with nothing to escape (a literal).
    JsonObjectWriter &add(const char *key, QStringView value);
    JsonObjectWriter &add(const char *key, qint64 value);
    // Any key and any value (serialized by QJsonDocument).
    JsonObjectWriter &add(QStringView key, const QJsonValue &value);

    QByteArray finish(); // closes the object and hands it over; the writer is empty after it

private:
    void key(const char *name);

    QByteArray m_out = QByteArrayLiteral("{");
};

} // namespace Gatehouse::Core
