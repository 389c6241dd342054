#include "core/logging.h"
#include "core/text.h"

Q_LOGGING_CATEGORY(lcCore, "gatehouse.core", QtInfoMsg)
Q_LOGGING_CATEGORY(lcHttp, "gatehouse.http", QtInfoMsg)
Q_LOGGING_CATEGORY(lcAccess, "gatehouse.access", QtInfoMsg)
Q_LOGGING_CATEGORY(lcDb, "gatehouse.db", QtInfoMsg)

namespace Gatehouse::Core {

QString loggable(QString text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar ch = text.at(i);
        const ushort c = ch.unicode();
        // Control characters (C0, DEL, C1: NEL breaks a line in some viewers), the quote that
        // delimits a request line in the access log (a client wrote its own status and rid
        // after one), line and paragraph separators, bidi controls.
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '"' || c == 0x2028 ||
            c == 0x2029 || isBidiControl(ch)) {
            const QString escaped =
                c <= 0xff ? QStringLiteral("%%1").arg(c, 2, 16, QLatin1Char('0')).toUpper()
                          : QStringLiteral("%u") +
                                QStringLiteral("%1").arg(c, 4, 16, QLatin1Char('0')).toUpper();
            text.replace(i, 1, escaped);
            i += escaped.size() - 1;
        }
    }
    return text;
}

} // namespace Gatehouse::Core
