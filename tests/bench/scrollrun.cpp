#include "scrollrun.h"

#include <QFile>
#include <QJsonArray>
#include <QMutexLocker>
#include <QQuickItem>
#include <QQuickWindow>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace GatehouseBench {

Memory processMemory(qint64 pid)
{
    QFile file(pid > 0 ? QStringLiteral("/proc/%1/status").arg(pid)
                       : QStringLiteral("/proc/self/status"));
    Memory memory;
    if (!file.open(QIODevice::ReadOnly))
        return memory;
    // Lines like "VmRSS:	  123456 kB".
    for (const QByteArray &line : file.readAll().split('\n')) {
        const auto field = [&line](const char *name) -> qint64 {
            if (!line.startsWith(name))
                return -1;
            return line.mid(int(qstrlen(name))).trimmed().split(' ').value(0).toLongLong();
        };
        if (const qint64 v = field("VmRSS:"); v >= 0)
            memory.rssKiB = v;
        if (const qint64 v = field("VmHWM:"); v >= 0)
            memory.hwmKiB = v;
    }
    return memory;
}

QJsonObject toJson(const Memory &memory)
{
    return {{QStringLiteral("rssMiB"), std::round(double(memory.rssKiB) / 1024.0 * 10) / 10},
            {QStringLiteral("hwmMiB"), std::round(double(memory.hwmKiB) / 1024.0 * 10) / 10}};
}

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto rank = qsizetype(std::ceil(p / 100.0 * double(values.size())));
    return values.at(std::clamp<qsizetype>(rank - 1, 0, values.size() - 1));
}

namespace {
constexpr double StallMs = 50.0; // three frames missed at 60 Hz: a visible hitch

double round2(double v)
{
    return std::round(v * 100) / 100;
}
} // namespace

QJsonObject FrameStats::toJson() const
{
    QJsonArray at;
    for (const auto &[second, ms] : stallsAt)
        at.append(QJsonArray{round2(second), round2(ms)});
    return {{QStringLiteral("frames"), frames},       {QStringLiteral("seconds"), round2(seconds)},
            {QStringLiteral("p50ms"), round2(p50Ms)}, {QStringLiteral("p99ms"), round2(p99Ms)},
            {QStringLiteral("maxms"), round2(maxMs)}, {QStringLiteral("stalls"), stalls},
            {QStringLiteral("stallsAt"), at}};
}

FrameStats frameStats(const std::vector<std::chrono::steady_clock::time_point> &swaps)
{
    FrameStats stats;
    stats.frames = int(swaps.size());
    if (swaps.size() < 2)
        return stats;
    QList<double> intervals;
    intervals.reserve(qsizetype(swaps.size()) - 1);
    for (size_t i = 1; i < swaps.size(); ++i) {
        const double ms =
            std::chrono::duration<double, std::milli>(swaps[i] - swaps[i - 1]).count();
        intervals.append(ms);
        if (ms > StallMs && stats.stallsAt.size() < 10)
            stats.stallsAt.append(
                {std::chrono::duration<double>(swaps[i] - swaps.front()).count(), ms});
    }
    stats.seconds = std::chrono::duration<double>(swaps.back() - swaps.front()).count();
    stats.p50Ms = percentile(intervals, 50);
    stats.p99Ms = percentile(intervals, 99);
    stats.maxMs = *std::max_element(intervals.cbegin(), intervals.cend());
    stats.stalls = int(std::count_if(intervals.cbegin(), intervals.cend(),
                                     [](double ms) { return ms > StallMs; }));
    return stats;
}

FrameClock::FrameClock(QQuickWindow *window, QObject *parent) : QObject(parent)
{
    connect(
        window, &QQuickWindow::frameSwapped, this,
        [this] {
            const auto now = std::chrono::steady_clock::now();
            QMutexLocker lock(&m_mutex);
            if (m_recording)
                m_swaps.push_back(now);
        },
        Qt::DirectConnection);
}

void FrameClock::start()
{
    QMutexLocker lock(&m_mutex);
    m_swaps.clear();
    m_swaps.reserve(1 << 16);
    m_recording = true;
}

std::vector<std::chrono::steady_clock::time_point> FrameClock::stop()
{
    QMutexLocker lock(&m_mutex);
    m_recording = false;
    return std::exchange(m_swaps, {});
}

int FrameClock::framesSoFar() const
{
    QMutexLocker lock(&m_mutex);
    return int(m_swaps.size());
}

ScrollRun::ScrollRun(QQuickWindow *window, QQuickItem *flickable, double pixelsPerSecond,
                     double distance, QObject *parent)
    : QObject(parent), m_window(window), m_flickable(flickable), m_clock(window),
      m_speed(pixelsPerSecond), m_distance(distance)
{}

double ScrollRun::maxContentY() const
{
    // The end of the content; a ListView's contentHeight is an estimate that grows as
    // delegates are made, so it is read again on every step.
    return m_flickable->property("originY").toDouble() +
           m_flickable->property("contentHeight").toDouble() - m_flickable->height();
}

void ScrollRun::start()
{
    if (!m_window || !m_flickable) {
        emit finished();
        return;
    }
    m_startY = m_flickable->property("contentY").toDouble();
    m_running = true;
    m_clock.start();
    m_elapsed.start();
    m_tick = connect(m_window, &QQuickWindow::afterAnimating, this, &ScrollRun::step);
    m_window->update();
}

void ScrollRun::step()
{
    if (!m_running || !m_flickable)
        return;
    const double wanted = m_startY + m_speed * double(m_elapsed.nsecsElapsed()) / 1e9;
    const double end = std::min(m_startY + m_distance, maxContentY());
    const double y = std::min(wanted, end);
    m_flickable->setProperty("contentY", y);
    m_scrolled = y - m_startY;
    if (y < end) {
        // Ask for the next frame; the render loop paces it (vsync or its own timer).
        QMetaObject::invokeMethod(m_window.data(), &QQuickWindow::update, Qt::QueuedConnection);
        return;
    }
    m_running = false;
    disconnect(m_tick);
    // The last position still has to reach the screen; frames after that one (a badge that
    // ticks every second) are not part of the scroll.
    const auto stoppedAt = std::chrono::steady_clock::now();
    QTimer::singleShot(200, this, [this, stoppedAt] {
        std::vector<std::chrono::steady_clock::time_point> swaps = m_clock.stop();
        const auto last = std::upper_bound(swaps.begin(), swaps.end(), stoppedAt);
        if (last != swaps.end())
            swaps.erase(last + 1, swaps.end());
        m_stats = frameStats(swaps);
        emit finished();
    });
}

} // namespace GatehouseBench
