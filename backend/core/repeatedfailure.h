#pragma once

#include <QMutex>

#include <chrono>

namespace Gatehouse::Core {

// A failure that repeats for as long as its cause lasts (a database that cannot be reached,
// met by every job and every request): the first is logged, then one line per interval at
// most, saying how many there were meanwhile, and the end once. Every failure logged as it
// came wrote 270 MB of log in a 10 s outage of PostgreSQL. Thread-safe.
class RepeatedFailure
{
public:
    explicit RepeatedFailure(std::chrono::milliseconds interval = std::chrono::seconds(10))
        : m_interval(interval)
    {}

    struct Seen
    {
        bool log = false;    // log this one
        bool first = false;  // the first since the last success
        qint64 unlogged = 0; // failures not logged since the last line
        qint64 lastedMs = 0; // since the first
    };
    Seen failed();
    // Whether it had been failing (log its end), and for how long.
    bool succeeded(qint64 *lastedMs = nullptr);

private:
    using Clock = std::chrono::steady_clock;
    const std::chrono::milliseconds m_interval;
    QMutex m_mutex;
    bool m_failing = false;
    Clock::time_point m_since;
    Clock::time_point m_loggedAt;
    qint64 m_unlogged = 0;
};

} // namespace Gatehouse::Core
