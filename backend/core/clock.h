#pragma once

#include <QDateTime>
#include <QString>

#include <cstdio>

namespace Gatehouse::Core {

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
