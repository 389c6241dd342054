#pragma once

// Shared by the console benchmark (console_bench.cpp) and its Qt Quick peer (qml_peer.cpp):
// frame intervals from QQuickWindow::frameSwapped, a list scrolled at a fixed speed, and the
// process's memory from /proc.

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QPointer>

#include <chrono>
#include <utility>
#include <vector>

class QQuickItem;
class QQuickWindow;

namespace GatehouseBench {

// VmRSS and VmHWM (peak RSS) in KiB from /proc/<pid>/status (0: this process); -1 if unknown.
struct Memory
{
    qint64 rssKiB = -1;
    qint64 hwmKiB = -1;
};
Memory processMemory(qint64 pid = 0);
QJsonObject toJson(const Memory &memory);

// The p-th percentile (0..100, nearest rank) of values; 0 when there are none.
double percentile(QList<double> values, double p);

// Frame intervals and stalls (intervals above 50 ms) of one measured stretch.
struct FrameStats
{
    int frames = 0; // frames swapped while measuring
    double seconds = 0;
    double p50Ms = 0;
    double p99Ms = 0;
    double maxMs = 0;
    int stalls = 0; // intervals > 50 ms
    // The first few stalls: seconds into the stretch when each ended, and how long it was.
    QList<std::pair<double, double>> stallsAt;
    QJsonObject toJson() const;
};
FrameStats frameStats(const std::vector<std::chrono::steady_clock::time_point> &swaps);

// Records when a window's frames reach the screen: frameSwapped, which the threaded render
// loop emits on its render thread (hence the mutex), the basic loop on the GUI thread.
class FrameClock : public QObject
{
    Q_OBJECT

public:
    explicit FrameClock(QQuickWindow *window, QObject *parent = nullptr);

    void start(); // forgets earlier frames
    std::vector<std::chrono::steady_clock::time_point> stop();
    int framesSoFar() const;

private:
    mutable QMutex m_mutex;
    bool m_recording = false;
    std::vector<std::chrono::steady_clock::time_point> m_swaps;
};

// Scrolls a Flickable (a ListView) down at a fixed speed, frame by frame: before each frame
// (QQuickWindow::afterAnimating, GUI thread) contentY is set to where the elapsed time says it
// must be, so a slow frame makes the next step larger instead of slowing the scroll down, as
// a flick does. Stops after `distance` pixels or at the end of the content; then finished().
class ScrollRun : public QObject
{
    Q_OBJECT

public:
    ScrollRun(QQuickWindow *window, QQuickItem *flickable, double pixelsPerSecond, double distance,
              QObject *parent = nullptr);

    void start();
    FrameStats stats() const { return m_stats; }
    double scrolledPixels() const { return m_scrolled; }

signals:
    void finished();

private:
    void step();
    double maxContentY() const;

    QPointer<QQuickWindow> m_window;
    QPointer<QQuickItem> m_flickable;
    FrameClock m_clock;
    double m_speed;
    double m_distance;
    double m_startY = 0;
    double m_scrolled = 0;
    bool m_running = false;
    QElapsedTimer m_elapsed;
    QMetaObject::Connection m_tick;
    FrameStats m_stats;
};

} // namespace GatehouseBench
