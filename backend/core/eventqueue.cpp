#include "core/eventqueue.h"

#include <QThread>

namespace Gatehouse::Core {

EventQueue::EventQueue() : m_thread(std::make_unique<QThread>())
{
    m_thread->setObjectName(QStringLiteral("events"));
    m_context = new QObject;
    m_context->moveToThread(m_thread.get());
    m_thread->start();
}

EventQueue::~EventQueue()
{
    stop();
    delete m_context;
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
        m_drainPosted = false;
    }
    for (auto &w : work)
        w();
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
