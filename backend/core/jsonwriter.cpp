#include "core/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

#include <cmath>
#include <cstring>

namespace Gatehouse::Core {

void appendJsonString(QByteArray &out, QStringView s)
{
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    qsizetype i = 0;
    const qsizetype n = s.size();
    while (i < n) {
        // A run of ASCII that needs no escape, copied as is.
        qsizetype j = i;
        while (j < n) {
            const char16_t c = s[j].unicode();
            if (c < 0x20 || c >= 0x80 || c == u'"' || c == u'\\')
                break;
            ++j;
        }
        if (j > i) {
            const qsizetype at = out.size();
            out.resize(at + (j - i));
            char *dst = out.data() + at;
            for (qsizetype k = i; k < j; ++k)
                *dst++ = char(s[k].unicode());
            i = j;
            continue;
        }
        const char16_t c = s[i].unicode();
        if (c >= 0x80) { // UTF-8
            char32_t cp = c;
            if (QChar::isHighSurrogate(c) && i + 1 < n &&
                QChar::isLowSurrogate(s[i + 1].unicode())) {
                cp = QChar::surrogateToUcs4(c, s[i + 1].unicode());
                ++i;
            } else if (QChar::isSurrogate(c)) {
                // A lone surrogate has no UTF-8 form: escaped, as QJsonDocument writes it.
                const char esc[] = {'\\',
                                    'u',
                                    hex[(c >> 12) & 0xf],
                                    hex[(c >> 8) & 0xf],
                                    hex[(c >> 4) & 0xf],
                                    hex[c & 0xf]};
                out.append(esc, sizeof esc);
                ++i;
                continue;
            }
            if (cp < 0x800) {
                out += char(0xc0 | (cp >> 6));
            } else if (cp < 0x10000) {
                out += char(0xe0 | (cp >> 12));
                out += char(0x80 | ((cp >> 6) & 0x3f));
            } else {
                out += char(0xf0 | (cp >> 18));
                out += char(0x80 | ((cp >> 12) & 0x3f));
                out += char(0x80 | ((cp >> 6) & 0x3f));
            }
            out += char(0x80 | (cp & 0x3f));
            ++i;
            continue;
        }
        switch (c) {
        case u'"':
            out += "\\\"";
            break;
        case u'\\':
            out += "\\\\";
            break;
        case u'\b':
            out += "\\b";
            break;
        case u'\f':
            out += "\\f";
            break;
        case u'\n':
            out += "\\n";
            break;
        case u'\r':
            out += "\\r";
            break;
        case u'\t':
            out += "\\t";
            break;
        default: {
            const char esc[] = {'\\', 'u', '0', '0', hex[(c >> 4) & 0xf], hex[c & 0xf]};
            out.append(esc, sizeof esc);
        }
        }
        ++i;
    }
    out += '"';
}

namespace {

qsizetype skipSpace(QByteArrayView s, qsizetype i)
{
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        ++i;
    return i;
}

// s[i] is '"': the index just past the closing quote, or -1.
qsizetype skipString(QByteArrayView s, qsizetype i)
{
    for (++i; i < s.size(); ++i) {
        if (s[i] == '\\')
            ++i;
        else if (s[i] == '"')
            return i + 1;
    }
    return -1;
}

// The index just past the value that starts at s[i], or -1. Only finds its end: the value
// itself is checked when it is parsed.
qsizetype skipValue(QByteArrayView s, qsizetype i)
{
    if (i >= s.size())
        return -1;
    if (s[i] == '"')
        return skipString(s, i);
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        while (i < s.size()) {
            const char c = s[i];
            if (c == '"') {
                i = skipString(s, i);
                if (i < 0)
                    return -1;
                continue;
            }
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return i + 1;
            }
            ++i;
        }
        return -1;
    }
    qsizetype j = i; // a number or a literal
    while (j < s.size() && s[j] != ',' && s[j] != '}' && s[j] != ']' && s[j] != ' ' &&
           s[j] != '\t' && s[j] != '\n' && s[j] != '\r')
        ++j;
    return j > i ? j : -1;
}

std::optional<QJsonValue> parseOne(QByteArrayView text)
{
    QByteArray wrapped;
    wrapped.reserve(text.size() + 2);
    wrapped += '[';
    wrapped += text;
    wrapped += ']';
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(wrapped, &error);
    if (error.error != QJsonParseError::NoError || doc.array().size() != 1)
        return std::nullopt;
    return doc.array().at(0);
}

} // namespace

std::optional<QJsonValue> jsonObjectMember(QByteArrayView object, QLatin1StringView key)
{
    qsizetype i = skipSpace(object, 0);
    if (i >= object.size() || object[i] != '{')
        return std::nullopt;
    i = skipSpace(object, i + 1);
    // Every member is looked at: with a name twice the last one counts (as in QJsonDocument),
    // and a text cut short or with something after the object is no object.
    std::optional<QByteArrayView> found;
    if (i >= object.size() || object[i] != '}') {
        for (;;) {
            if (i >= object.size() || object[i] != '"')
                return std::nullopt;
            const qsizetype keyStart = i;
            i = skipString(object, i);
            if (i < 0)
                return std::nullopt;
            const QByteArrayView rawKey = object.sliced(keyStart + 1, i - keyStart - 2);
            i = skipSpace(object, i);
            if (i >= object.size() || object[i] != ':')
                return std::nullopt;
            i = skipSpace(object, i + 1);
            const qsizetype valueStart = i;
            i = skipValue(object, i);
            if (i < 0)
                return std::nullopt;
            bool match = false;
            if (rawKey.contains('\\')) { // an escaped name: compare it decoded
                const auto name = parseOne(object.sliced(keyStart, rawKey.size() + 2));
                match = name && name->toString() == key;
            } else {
                match = rawKey == QByteArrayView(key.data(), key.size());
            }
            if (match)
                found = object.sliced(valueStart, i - valueStart);
            i = skipSpace(object, i);
            if (i < object.size() && object[i] == ',') {
                i = skipSpace(object, i + 1);
                continue;
            }
            if (i < object.size() && object[i] == '}')
                break;
            return std::nullopt;
        }
    }
    if (skipSpace(object, i + 1) != object.size() || !found)
        return std::nullopt;
    return parseOne(*found);
}

JsonObjectWriter JsonObjectWriter::extending(const QByteArray &object)
{
    Q_ASSERT_X(object.size() >= 2 && object.startsWith('{') && object.endsWith('}'), "extending",
               "not a JSON object's compact text");
    JsonObjectWriter w;
    if (object.size() >= 2 && object.startsWith('{') && object.endsWith('}'))
        w.m_out = object.chopped(1);
    return w;
}

void JsonObjectWriter::key(const char *name)
{
    // One resize for the separator, the quoted name and the colon (four appends were a fifth
    // of the events thread's time under load).
    const qsizetype length = qsizetype(qstrlen(name));
    const qsizetype at = m_out.size();
    const bool comma = at > 1;
    m_out.resize(at + length + 3 + (comma ? 1 : 0));
    char *out = m_out.data() + at;
    if (comma)
        *out++ = ',';
    *out++ = '"';
    std::memcpy(out, name, size_t(length));
    out += length;
    *out++ = '"';
    *out = ':';
}

JsonObjectWriter &JsonObjectWriter::add(const char *name, QStringView value)
{
    key(name);
    appendJsonString(m_out, value);
    return *this;
}

JsonObjectWriter &JsonObjectWriter::add(const char *name, qint64 value)
{
    key(name);
    m_out += QByteArray::number(value);
    return *this;
}

JsonObjectWriter &JsonObjectWriter::add(QStringView name, const QJsonValue &value)
{
    if (m_out.size() > 1)
        m_out += ',';
    appendJsonString(m_out, name);
    m_out += ':';
    // Qt's own serialization of the value: the one element of a compact array, unwrapped.
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    m_out.append(QByteArrayView(array).sliced(1, array.size() - 2));
    return *this;
}

JsonObjectWriter &JsonObjectWriter::addNull(const char *name)
{
    key(name);
    m_out += "null";
    return *this;
}

JsonObjectWriter &JsonObjectWriter::addBool(const char *name, bool value)
{
    key(name);
    m_out += value ? "true" : "false";
    return *this;
}

JsonObjectWriter &JsonObjectWriter::addDouble(const char *name, double value)
{
    key(name);
    if (std::isfinite(value))
        m_out += QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
    else
        m_out += "null";
    return *this;
}

JsonObjectWriter &JsonObjectWriter::addTextOrNull(const char *name, QStringView value)
{
    return value.isEmpty() ? addNull(name) : add(name, value);
}

JsonObjectWriter &JsonObjectWriter::addRaw(const char *name, QByteArrayView json)
{
    key(name);
    m_out += json;
    return *this;
}

QByteArray JsonObjectWriter::finish()
{
    m_out += '}';
    QByteArray done = std::move(m_out);
    m_out = QByteArrayLiteral("{");
    return done;
}

} // namespace Gatehouse::Core
