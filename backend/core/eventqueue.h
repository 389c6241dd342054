#pragma once

#include <QObject>

#include <functional>
#include <memory>

class QThread;

namespace Gatehouse::Core {

// One thread that runs posted work in the order it was posted. The database writer hands
// it the building and publishing of events (JSON), so that the writer's thread does SQL and
// every module's events still come out in commit order.
class EventQueue
{
public:
    EventQueue();
    ~EventQueue();
    EventQueue(const EventQueue &) = delete;
    EventQueue &operator=(const EventQueue &) = delete;

    void post(std::function<void()> work); // from any thread
    void stop(); // runs what was posted, then ends the thread; later posts are dropped

private:
    std::unique_ptr<QThread> m_thread;
    QObject *m_context = nullptr;
};

} // namespace Gatehouse::Core
