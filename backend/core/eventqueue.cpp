#include "core/eventqueue.h"
#include "core/threadstate.h"

#include <QThread>
#include <QTimer>

namespace Gatehouse::Core {

EventQueue::EventQueue() : m_thread(std::make_unique<QThread>())
{
    m_thread->setObjectName(QStringLiteral("events"));
    m_context = new QObject;
    m_pace = new QTimer(m_context); // moves with its parent; started and stopped on the thread
    m_pace->setSingleShot(true);
    m_pace->setTimerType(Qt::PreciseTimer);
    m_pace->setInterval(PaceInterval);
    QObject::connect(m_pace, &QTimer::timeout, m_context, [this] { drain(); });
    m_context->moveToThread(m_thread.get());
    ThreadState::releaseAtFinish(*m_thread);
    m_thread->start();
}

EventQueue::~EventQueue()
{
    stop();
    delete m_context;
}

void EventQueue::postOrRun(EventQueue *queue, std::function<void()> work)
{
    if (queue)
        queue->post(std::move(work));
    else
        work();
}

void EventQueue::postAfter(std::chrono::milliseconds delay, std::function<void()> work)
{
    QMutexLocker lock(&m_mutex);
    if (m_stopped)
        return;
    // The timer is made on the queue's thread; stop() ends that thread's event loop, so a
    // timer still running then never fires.
    QMetaObject::invokeMethod(
        m_context,
        [this, delay, work = std::move(work)]() mutable {
            QTimer::singleShot(delay, m_context,
                               [this, work = std::move(work)]() mutable { post(std::move(work)); });
        },
        Qt::QueuedConnection);
}

void EventQueue::postAfterOrRun(EventQueue *queue, std::chrono::milliseconds delay,
                                std::function<void()> work)
{
    if (queue)
        queue->postAfter(delay, std::move(work));
    else
        work();
}

void EventQueue::post(std::function<void()> work)
{
    QMutexLocker lock(&m_mutex);
    if (m_stopped)
        return;
    m_pending.push_back(std::move(work));
    if (m_drainPosted)
        return; // the run already queued takes this one too
    m_drainPosted = true;
    QMetaObject::invokeMethod(
        m_context, [this] { drain(); }, Qt::QueuedConnection);
}

void EventQueue::drain()
{
    std::vector<std::function<void()>> work;
    {
        QMutexLocker lock(&m_mutex);
        work.swap(m_pending);
        if (work.empty()) {
            m_drainPosted = false; // idle: the next post wakes the thread at once
            return;
        }
    }
    for (auto &w : work)
        w();
    // Busy: the next run is a paced one, PaceInterval from now, and posts until then join it
    // without waking the thread (m_drainPosted stays set). Under load that is one wake per
    // interval instead of one per writer commit; a paced run that finds nothing ends it.
    m_pace->start();
}

void EventQueue::stop()
{
    if (!m_thread->isRunning())
        return;
    // Whatever was posted before is run first, and so is work that this work posts.
    QMetaObject::invokeMethod(
        m_context,
        [this] {
            for (;;) {
                drain();
                QMutexLocker lock(&m_mutex);
                if (m_pending.empty()) {
                    m_pace->stop();
                    m_stopped = true;
                    return;
                }
            }
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

} // namespace Gatehouse::Core
