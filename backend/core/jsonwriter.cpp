#include "core/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>

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
                cp = 0xfffd; // a lone surrogate
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

void JsonObjectWriter::key(const char *name)
{
    if (m_out.size() > 1)
        m_out += ',';
    m_out += '"';
    m_out += name;
    m_out += "\":";
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

QByteArray JsonObjectWriter::finish()
{
    m_out += '}';
    QByteArray done = std::move(m_out);
    m_out = QByteArrayLiteral("{");
    return done;
}

} // namespace Gatehouse::Core
