#pragma once

class QObject;
class QThread;

// Per-thread state of the libraries the backend uses (OpenSSL's random generators and error
// queue) is freed by a thread-exit destructor, which runs after QThread::wait() has returned:
// a process that stops a thread and exits at once can end before that destructor ran, and
// LeakSanitizer reports what it had not freed yet. Every thread of the backend therefore
// releases that state itself as its last act; what releases it is set once per process (the
// backend sets Crypto::Random::releaseThreadState, which Core cannot call itself).
namespace Gatehouse::Core::ThreadState {

// Once, before the first thread starts; nullptr: nothing to release.
void setRelease(void (*release)());
bool hasRelease();
// On the thread that is about to end.
void release();
// For a QThread running an event loop with a context object moved to it: when the loop ends,
// the context is deleted on that thread (with what it owns), then the thread's state released.
void deleteThenReleaseAtFinish(QThread &thread, QObject *context);
// The same without a context to delete.
void releaseAtFinish(QThread &thread);

} // namespace Gatehouse::Core::ThreadState
