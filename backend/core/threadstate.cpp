#include "core/threadstate.h"

#include <QThread>

#include <atomic>

namespace Gatehouse::Core::ThreadState {

namespace {
std::atomic<void (*)()> g_release{nullptr};
} // namespace

void setRelease(void (*release)())
{
    g_release.store(release);
}

bool hasRelease()
{
    return g_release.load() != nullptr;
}

void release()
{
    if (void (*f)() = g_release.load())
        f();
}

void deleteThenReleaseAtFinish(QThread &thread, QObject *context)
{
    // QThread::finished is emitted on the thread itself, after its event loop returned; a
    // direct connection runs there (a deleteLater would run after this, and could draw on the
    // state again).
    QObject::connect(
        &thread, &QThread::finished, &thread,
        [context] {
            delete context;
            release();
        },
        Qt::DirectConnection);
}

void releaseAtFinish(QThread &thread)
{
    QObject::connect(
        &thread, &QThread::finished, &thread, [] { release(); }, Qt::DirectConnection);
}

} // namespace Gatehouse::Core::ThreadState
