#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>

#include <optional>

namespace Gatehouse::Webhooks {

struct RetrySettings
{
    // Delays after the 1st, 2nd, ... failed attempt (Svix's schedule); one attempt more
    // than there are delays, then the delivery is given up.
    QList<qint64> scheduleMs{5'000,      300'000,    1'800'000, 7'200'000,
                             18'000'000, 36'000'000, 36'000'000};
    int jitterPercent = 20;
    int timeoutMs = 15'000;
    qint64 retryAfterMinMs = 1'000;
    qint64 retryAfterMaxMs = 3'600'000;
    qint64 disableAfterMs = 5LL * 24 * 3600 * 1000; // failing without a success this long
    int maxInFlight = 128;
};

class RetryPolicy
{
public:
    explicit RetryPolicy(RetrySettings settings = {}) : m_settings(std::move(settings)) {}
    const RetrySettings &settings() const { return m_settings; }

    // failedAttempts: attempts made so far, all failed (>= 1). random01 in [0, 1) picks
    // the jitter. Empty: give up.
    std::optional<qint64> nextDelayMs(int failedAttempts, std::optional<qint64> retryAfterMs,
                                      double random01) const;
    int maxAttempts() const { return int(m_settings.scheduleMs.size()) + 1; }

    // "5s,5m,30m,2h" (units ms, s, m, h, d; a bare number is seconds).
    static Core::Result<QList<qint64>> parseSchedule(const QString &text);
    static Core::Result<qint64> parseDuration(const QString &text);
    // RFC 9110 section 10.2.3: delay-seconds or an HTTP-date.
    static std::optional<qint64> parseRetryAfter(const QByteArray &value, const QDateTime &now);

private:
    RetrySettings m_settings;
};

} // namespace Gatehouse::Webhooks
