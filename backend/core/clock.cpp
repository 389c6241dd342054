#include "core/clock.h"

namespace Gatehouse::Core {

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
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ",
                                static_cast<long long>(y), m, d, secOfDay / 3600,
                                (secOfDay / 60) % 60, secOfDay % 60, milli);
    return QString::fromLatin1(buf, n);
}

} // namespace Gatehouse::Core
