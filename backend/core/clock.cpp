#include "core/clock.h"

#include <QJsonValue>

#include <algorithm>

namespace Gatehouse::Core {

qint64 jsonSeconds(const QJsonValue &value)
{
    constexpr double Limit = 1e13;
    return qint64(std::clamp(value.toDouble(), -Limit, Limit));
}

QString isoTimeMs(qint64 ms)
{
    // Howard Hinnant's days_from_civil inverse (civil_from_days), proleptic Gregorian.
    qint64 secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
    const int milli = int(ms - secs * 1000);
    qint64 days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
    const int secOfDay = int(secs - days * 86400);
    days += 719468;
    const qint64 era = (days >= 0 ? days : days - 146096) / 146097;
    const unsigned doe = unsigned(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    qint64 y = qint64(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2 ? 1 : 0;
    if (y >= 0 && y <= 9999) { // digits written directly: snprintf was most of the cost
        char16_t out[24];
        auto two = [&out](int at, unsigned v) {
            out[at] = char16_t(u'0' + v / 10);
            out[at + 1] = char16_t(u'0' + v % 10);
        };
        two(0, unsigned(y / 100));
        two(2, unsigned(y % 100));
        out[4] = u'-';
        two(5, m);
        out[7] = u'-';
        two(8, d);
        out[10] = u'T';
        two(11, unsigned(secOfDay / 3600));
        out[13] = u':';
        two(14, unsigned((secOfDay / 60) % 60));
        out[16] = u':';
        two(17, unsigned(secOfDay % 60));
        out[19] = u'.';
        out[20] = char16_t(u'0' + milli / 100);
        two(21, unsigned(milli % 100));
        out[23] = u'Z';
        return QString(reinterpret_cast<const QChar *>(out), 24);
    }
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ",
                                static_cast<long long>(y), m, d, secOfDay / 3600,
                                (secOfDay / 60) % 60, secOfDay % 60, milli);
    return QString::fromLatin1(buf, n);
}

} // namespace Gatehouse::Core
