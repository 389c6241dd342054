#include "cluster/strictjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QList>
#include <QSet>

namespace Gatehouse::Cluster {

namespace {

constexpr int kMaxDepth = 1000;

struct Frame
{
    bool object = false;
    QString path;
    QSet<QString> keys;
    QString key;          // the member whose value comes next (objects)
    int index = 0;        // the element being read (arrays)
    bool wantsKey = true; // objects: a string now is a member name
};

QString childPath(const Frame &parent)
{
    if (!parent.object)
        return parent.path + QStringLiteral("[%1]").arg(parent.index);
    return parent.path.isEmpty() ? parent.key : parent.path + QLatin1Char('.') + parent.key;
}

// The string starting at text[i] (a '"'), decoded; i ends after its closing quote.
QString readString(const QByteArray &text, qsizetype &i)
{
    const qsizetype start = i++;
    bool escaped = false;
    for (; i < text.size(); ++i) {
        const char c = text.at(i);
        if (c == '\\') {
            escaped = true;
            ++i; // the escaped character
            continue;
        }
        if (c == '"')
            break;
    }
    const QByteArray raw = text.mid(start + 1, i - start - 1);
    ++i;
    if (!escaped)
        return QString::fromUtf8(raw);
    const QJsonDocument doc = QJsonDocument::fromJson('[' + text.mid(start, i - start) + ']');
    return doc.array().isEmpty() ? QString::fromUtf8(raw) : doc.array().first().toString();
}

} // namespace

QStringList duplicateJsonFields(const QByteArray &json)
{
    QStringList out;
    QList<Frame> stack;
    qsizetype i = 0;
    while (i < json.size()) {
        const char c = json.at(i);
        if (c == '{' || c == '[') {
            if (stack.size() >= kMaxDepth)
                return out;
            Frame f;
            f.object = c == '{';
            f.path = stack.isEmpty() ? QString() : childPath(stack.last());
            stack.append(f);
            ++i;
        } else if (c == '}' || c == ']') {
            if (!stack.isEmpty())
                stack.removeLast();
            ++i;
        } else if (c == ',') {
            if (!stack.isEmpty()) {
                if (stack.last().object)
                    stack.last().wantsKey = true;
                else
                    ++stack.last().index;
            }
            ++i;
        } else if (c == '"') {
            const QString s = readString(json, i);
            if (!stack.isEmpty() && stack.last().object && stack.last().wantsKey) {
                Frame &f = stack.last();
                f.wantsKey = false;
                f.key = s;
                if (f.keys.contains(s))
                    out.append(childPath(f));
                else
                    f.keys.insert(s);
            }
        } else {
            ++i; // white space, ':', numbers, true, false, null
        }
    }
    return out;
}

} // namespace Gatehouse::Cluster
