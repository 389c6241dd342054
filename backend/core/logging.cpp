#include "core/logging.h"

Q_LOGGING_CATEGORY(lcCore, "gatehouse.core", QtInfoMsg)
Q_LOGGING_CATEGORY(lcHttp, "gatehouse.http", QtInfoMsg)
Q_LOGGING_CATEGORY(lcAccess, "gatehouse.access", QtInfoMsg)
Q_LOGGING_CATEGORY(lcDb, "gatehouse.db", QtInfoMsg)

namespace Gatehouse::Core {

QString loggable(QString text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const ushort c = text.at(i).unicode();
        if (c < 0x20 || c == 0x7f) {
            const QString escaped = QStringLiteral("%%1").arg(c, 2, 16, QLatin1Char('0')).toUpper();
            text.replace(i, 1, escaped);
            i += escaped.size() - 1;
        }
    }
    return text;
}

} // namespace Gatehouse::Core
