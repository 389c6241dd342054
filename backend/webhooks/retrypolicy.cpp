#include "webhooks/retrypolicy.h"

#include "core/config.h"

#include <QLocale>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace Gatehouse::Webhooks {

std::optional<qint64> RetryPolicy::nextDelayMs(int failedAttempts,
                                               std::optional<qint64> retryAfterMs,
                                               double random01) const
{
    if (failedAttempts < 1 || failedAttempts > m_settings.scheduleMs.size())
        return std::nullopt;
    if (retryAfterMs)
        return std::clamp(*retryAfterMs, m_settings.retryAfterMinMs, m_settings.retryAfterMaxMs);
    const qint64 base = m_settings.scheduleMs.at(failedAttempts - 1);
    const double spread = m_settings.jitterPercent / 100.0;
    const double factor = 1.0 + spread * (2.0 * std::clamp(random01, 0.0, 1.0) - 1.0);
    return std::max<qint64>(0, qint64(std::llround(double(base) * factor)));
}

Core::Result<qint64> RetryPolicy::parseDuration(const QString &text)
{
    return Core::parseDurationMs(text);
}

Core::Result<QList<qint64>> RetryPolicy::parseSchedule(const QString &text)
{
    QList<qint64> out;
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (parts.size() > 50)
        return Core::makeError(QStringLiteral("invalid-config"),
                               QStringLiteral("a retry schedule has at most 50 delays"), 400);
    for (const QString &p : parts) {
        auto d = parseDuration(p);
        if (!d)
            return d.error();
        out.append(*d);
    }
    return out;
}

std::optional<qint64> RetryPolicy::parseRetryAfter(const QByteArray &value, const QDateTime &now)
{
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qint64 seconds = v.toLongLong(&ok);
    if (ok) {
        // Any receiver may send any number: a year is past every limit (retryAfterMaxMs),
        // and milliseconds of more than that could overflow.
        constexpr qint64 kYearSeconds = 366LL * 24 * 3600;
        return seconds < 0 ? std::nullopt
                           : std::optional<qint64>(std::min(seconds, kYearSeconds) * 1000);
    }
    // IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
    QDateTime at = QLocale::c().toDateTime(QString::fromLatin1(v),
                                           QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"));
    if (!at.isValid())
        return std::nullopt;
    at.setTimeZone(QTimeZone::utc());
    return std::max<qint64>(0, now.msecsTo(at));
}

} // namespace Gatehouse::Webhooks
