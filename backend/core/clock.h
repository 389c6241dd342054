#pragma once

#include <QDateTime>
#include <QString>

class QJsonValue;

#include <cstdio>

namespace Gatehouse::Core {

// A JSON number of seconds (a JWT's exp, nbf or iat, a TokenRequest's expirationSeconds) as
// whole seconds, clamped to ±10^13 (some 300,000 years): converting a double outside qint64 is
// undefined behaviour, and the callers add leeway or multiply by 1000. 0 for a non-number.
qint64 jsonSeconds(const QJsonValue &value);

// Time comes from an injected Clock so tests never sleep.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const = 0;
};

class SystemClock final : public Clock
{
public:
    QDateTime now() const override { return QDateTime::currentDateTimeUtc(); }
};

class ManualClock final : public Clock
{
public:
    explicit ManualClock(QDateTime start) : m_now(std::move(start)) {}
    QDateTime now() const override { return m_now; }
    void advance(qint64 ms) { m_now = m_now.addMSecs(ms); }
    void set(QDateTime t) { m_now = std::move(t); }

private:
    QDateTime m_now;
};

} // namespace Gatehouse::Core

namespace Gatehouse::Core {

// "2026-11-21T10:00:00.123Z" for milliseconds since the epoch (UTC), without QDateTime:
// timestamps are formatted for every event at high rates.
QString isoTimeMs(qint64 msSinceEpoch);

} // namespace Gatehouse::Core
