#include "core/text.h"

namespace Gatehouse::Core {

bool isBidiControl(QChar c)
{
    const char16_t u = c.unicode();
    return u == 0x061C || u == 0x200E || u == 0x200F || (u >= 0x202A && u <= 0x202E) ||
           (u >= 0x2066 && u <= 0x2069);
}

QString textProblem(const QString &s, bool noBidi)
{
    if (!s.isValidUtf16())
        return QStringLiteral("must be valid Unicode (a lone UTF-16 surrogate is not)");
    for (const QChar c : s) {
        if (c.category() == QChar::Other_Control)
            return QStringLiteral("must not contain control characters");
        if (noBidi && isBidiControl(c))
            return QStringLiteral("must not contain bidirectional control characters");
    }
    return {};
}

} // namespace Gatehouse::Core
