#include "cli/output.h"
#include "core/jsontypename.h"

#include <QJsonDocument>
#include <QStringList>

#include <algorithm>

namespace Gatehouse::Cli {

std::optional<Format> parseFormat(const QString &name)
{
    if (name == QLatin1String("text"))
        return Format::Text;
    if (name == QLatin1String("json"))
        return Format::Json;
    return std::nullopt;
}

QString terminalSafe(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const QChar::Category category = c.category();
        const bool unsafe = (category == QChar::Other_Control && u != u'\n' && u != u'\t') ||
                            (category == QChar::Other_Format && u != 0x200D) ||
                            category == QChar::Separator_Line ||
                            category == QChar::Separator_Paragraph;
        if (unsafe)
            out += QStringLiteral("\\u%1").arg(uint(u), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

namespace {

QString oneLine(QString s)
{
    return s.replace(QLatin1Char('\n'), QLatin1String("\\n"))
        .replace(QLatin1Char('\t'), QLatin1String("\\t"));
}

} // namespace

QString field(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isNull() || v.isUndefined())
        return QStringLiteral("-");
    if (v.isDouble()) {
        const std::optional<qint64> whole = Core::jsonInteger(v);
        return whole ? QString::number(*whole) : QString::number(v.toDouble());
    }
    if (v.isBool())
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    if (v.isArray()) {
        QStringList items;
        for (const auto &x : v.toArray())
            items.append(x.toString());
        return oneLine(items.join(QLatin1Char(',')));
    }
    return oneLine(v.toString());
}

void printTable(const QJsonArray &rows, const QList<Column> &columns, QTextStream &out)
{
    QList<int> widths;
    for (const Column &c : columns)
        widths.append(int(c.header.size()));
    QList<QStringList> cells;
    for (const QJsonValue v : rows) {
        QStringList line;
        for (qsizetype i = 0; i < columns.size(); ++i) {
            QString cell = field(v.toObject(), columns[i].key.constData());
            if (cell.size() > 60)
                cell = cell.left(57) + QStringLiteral("...");
            widths[i] = std::max(widths[i], int(cell.size()));
            line.append(cell);
        }
        cells.append(line);
    }
    for (qsizetype i = 0; i < columns.size(); ++i)
        out << columns[i].header.leftJustified(widths[i] + 2);
    out << "\n";
    for (const QStringList &line : std::as_const(cells)) {
        for (qsizetype i = 0; i < line.size(); ++i)
            out << line[i].leftJustified(widths[i] + 2);
        out << "\n";
    }
    if (rows.isEmpty())
        out << "(none)\n";
}

void printWideTable(const QJsonArray &rows, const QList<Column> &columns, QTextStream &out)
{
    QList<qsizetype> widths;
    for (const Column &c : columns)
        widths.append(c.header.size());
    for (const QJsonValue r : rows)
        for (qsizetype i = 0; i + 1 < columns.size(); ++i)
            widths[i] = std::max(widths[i], field(r.toObject(), columns[i].key.constData()).size());
    for (qsizetype i = 0; i < columns.size(); ++i)
        out << (i + 1 < columns.size() ? columns[i].header.leftJustified(widths[i] + 2)
                                       : columns[i].header);
    out << "\n";
    for (const QJsonValue r : rows) {
        for (qsizetype i = 0; i < columns.size(); ++i) {
            const QString cell = field(r.toObject(), columns[i].key.constData());
            out << (i + 1 < columns.size() ? cell.leftJustified(widths[i] + 2) : cell);
        }
        out << "\n";
    }
}

void printObject(const QJsonObject &o, QTextStream &out, int indent)
{
    const QString pad(indent, QLatin1Char(' '));
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it->isObject()) {
            out << pad << oneLine(it.key()) << ":\n";
            printObject(it->toObject(), out, indent + 2);
        } else if (it->isArray()) {
            out << pad << oneLine(it.key()) << ": " << it->toArray().size() << " item(s)\n";
            for (const QJsonValue v : it->toArray()) {
                if (v.isObject()) {
                    out << pad << "  -\n";
                    printObject(v.toObject(), out, indent + 4);
                } else {
                    out << pad << "  - " << oneLine(v.toVariant().toString()) << "\n";
                }
            }
        } else {
            out << pad << oneLine(it.key()) << ": " << field(o, it.key().toUtf8().constData())
                << "\n";
        }
    }
}

void printJson(const QJsonObject &o, QTextStream &out)
{
    out << QJsonDocument(o).toJson(QJsonDocument::Indented);
}

} // namespace Gatehouse::Cli
