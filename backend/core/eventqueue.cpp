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
    QMetaObject::invokeMethod(m_context, std::move(work), Qt::QueuedConnection);
}

void EventQueue::stop()
{
    if (!m_thread->isRunning())
        return;
    QMetaObject::invokeMethod(
        m_context, [] {}, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

} // namespace Gatehouse::Core
