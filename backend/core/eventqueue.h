#pragma once

#include <QMutex>
#include <QObject>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

class QThread;
class QTimer;

namespace Gatehouse::Core {

// One thread that runs posted work in the order it was posted. The database writer hands
// it the building and publishing of events (JSON), so that the writer's thread does SQL and
// every module's events still come out in commit order. Work posted while a run is pending
// joins it: one wake of the thread for a burst, not one per item. While posts keep coming,
// the thread runs at most once per PaceInterval (an event reaches the console up to 1 ms
// later; the writer and this thread are spared a wake per commit).
class EventQueue
{
public:
    EventQueue();
    ~EventQueue();
    EventQueue(const EventQueue &) = delete;
    EventQueue &operator=(const EventQueue &) = delete;

    void post(std::function<void()> work); // from any thread
    // `work` posted to `queue`, or run at once where there is none (tests, tools).
    static void postOrRun(EventQueue *queue, std::function<void()> work);
    // `work` posted once `delay` has passed (a retry after a pause); dropped if the queue
    // stops first. From any thread.
    void postAfter(std::chrono::milliseconds delay, std::function<void()> work);
    // The same, or run at once where there is no queue (tests, tools).
    static void postAfterOrRun(EventQueue *queue, std::chrono::milliseconds delay,
                               std::function<void()> work);
    void stop(); // runs what was posted, then ends the thread; later posts are dropped

    static constexpr std::chrono::milliseconds PaceInterval{1};

private:
    void drain(); // on the queue's thread

    std::unique_ptr<QThread> m_thread;
    QObject *m_context = nullptr;
    QTimer *m_pace = nullptr; // the paced run (on the queue's thread)
    QMutex m_mutex;
    std::vector<std::function<void()>> m_pending; // guarded by m_mutex
    bool m_drainPosted = false;                   // guarded by m_mutex
    bool m_stopped = false;                       // guarded by m_mutex
};

} // namespace Gatehouse::Core
