#pragma once

#include <QMetaObject>
#include <QObject>

#include <memory>
#include <mutex>
#include <utility>

namespace Gatehouse::Core {

// Lets a callback that runs on another thread (a WriteQueue `done`) reach a QObject that may be
// gone by then. The object holds a shared PostGuard and calls release() first in its
// destructor; the callback keeps a weak_ptr to the guard and calls post(), which queues `fn` on
// the object's thread while the object exists and drops it afterwards. Calls still queued when
// the object is destroyed are discarded by Qt.
class PostGuard
{
public:
    explicit PostGuard(QObject *owner) : m_owner(owner) {}

    void release()
    {
        std::lock_guard lock(m_mutex);
        m_owner = nullptr;
    }

    template <typename Fn> static void post(const std::weak_ptr<PostGuard> &guard, Fn &&fn)
    {
        const std::shared_ptr<PostGuard> g = guard.lock();
        if (!g)
            return;
        std::lock_guard lock(g->m_mutex);
        if (g->m_owner)
            QMetaObject::invokeMethod(g->m_owner, std::forward<Fn>(fn), Qt::QueuedConnection);
    }

private:
    std::mutex m_mutex;
    QObject *m_owner;
};

} // namespace Gatehouse::Core
