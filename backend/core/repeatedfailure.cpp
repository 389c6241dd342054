#include "core/repeatedfailure.h"

namespace Gatehouse::Core {

namespace {
qint64 msBetween(std::chrono::steady_clock::time_point from,
                 std::chrono::steady_clock::time_point to)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}
} // namespace

RepeatedFailure::Seen RepeatedFailure::failed()
{
    const auto now = Clock::now();
    QMutexLocker lock(&m_mutex);
    Seen seen;
    if (!m_failing) {
        m_failing = true;
        m_since = now;
        m_loggedAt = now;
        m_unlogged = 0;
        seen.log = true;
        seen.first = true;
        return seen;
    }
    seen.lastedMs = msBetween(m_since, now);
    if (now - m_loggedAt < m_interval) {
        ++m_unlogged;
        return seen;
    }
    seen.log = true;
    seen.unlogged = m_unlogged;
    m_unlogged = 0;
    m_loggedAt = now;
    return seen;
}

bool RepeatedFailure::succeeded(qint64 *lastedMs)
{
    QMutexLocker lock(&m_mutex);
    if (!m_failing)
        return false;
    m_failing = false;
    if (lastedMs)
        *lastedMs = msBetween(m_since, Clock::now());
    return true;
}

} // namespace Gatehouse::Core
