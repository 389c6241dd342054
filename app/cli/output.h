#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QTextStream>

#include <optional>
#include <utility>

namespace Gatehouse::Cli {

// -o text (the default: tables, key: value lines, a command's own summary) or -o json (the
// admin API's answer as it came, indented).
enum class Format { Text, Json };

// "text" or "json"; nothing for any other name.
std::optional<Format> parseFormat(const QString &name);

// Text as it may reach a terminal: every control character but a line break or a tab (ESC's
// sequences move the cursor, erase lines, set the title or the clipboard, plant links; C1's
// CSI does the same), every format character but the zero-width joiner of emoji (bidi
// overrides reorder what is read) and the line and paragraph separators become visible
// "\u001b" escapes, valid inside a JSON string too. The server's strings are other people's
// words: a client's name, a node's annotation, a receiver's answer, a request's path.
QString terminalSafe(const QString &text);

// A member as the text output shows it: "-" for null or missing, whole numbers without a
// fraction, yes/no, arrays joined with commas; a line break or tab in a value as "\n", "\t"
// (one value, one line).
QString field(const QJsonObject &o, const char *key);

// One column of a table: the member it shows and its header.
struct Column
{
    Column(const char *key, const char *header) : key(key), header(QString::fromLatin1(header)) {}
    Column(QByteArray key, QString header) : key(std::move(key)), header(std::move(header)) {}

    QByteArray key;
    QString header;
};

// Rows under their headers, each column as wide as its widest cell; cells past 60 characters
// are cut short with "..."; "(none)" under the headers when there are no rows.
void printTable(const QJsonArray &rows, const QList<Column> &columns, QTextStream &out);

// printTable for listings whose last column is the point: nothing cut, the last column not
// padded, no "(none)".
void printWideTable(const QJsonArray &rows, const QList<Column> &columns, QTextStream &out);

// "key: value" lines; nested objects indented under "key:", arrays as "key: N item(s)" with
// one "- " line (or an indented object) per item.
void printObject(const QJsonObject &o, QTextStream &out, int indent = 0);

void printJson(const QJsonObject &o, QTextStream &out);

} // namespace Gatehouse::Cli
