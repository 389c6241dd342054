// The Windows half of signalwatcher.h; signalwatcher_unix.cpp is the Unix half.
//
// UNTESTED: written against the Win32 and Qt documentation (SetConsoleCtrlHandler,
// QWinEventNotifier); the project is built and tested on Debian 12 only (docs/packaging.md,
// "Platform code").
//
// The console control handler runs on a thread of its own that Windows starts for it. It
// counts the request and signals an event object; a QWinEventNotifier on the main thread turns
// each request into terminationRequested(). For closing the window the handler does not
// return (Windows would end the process at once), so main() can finish the in-flight requests
// and exit; Windows ends the process after its own time-out (5 s) in any case. Log-off and
// shut-down do not reach a process that loads user32 (every Qt program); service wrappers
// (NSSM, WinSW) stop a console program with Ctrl+C or Ctrl+Break, which arrive here.
#include "signalwatcher.h"

#include <QWinEventNotifier>

#include <atomic>
#include <csignal>

#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

namespace Gatehouse {

namespace {
std::atomic<bool> g_active{false}; // a SignalWatcher exists
std::atomic<int> g_requested{0};   // SIGINT or SIGTERM: the last request
std::atomic<int> g_pending{0};     // requests not yet reported

// Created on first use, never closed: the handler thread may use it at any moment.
HANDLE requestEvent()
{
    static const HANDLE event = CreateEventW(nullptr, FALSE, FALSE, nullptr); // auto-reset
    return event;
}

BOOL WINAPI onConsoleControl(DWORD type)
{
    if (!g_active.load())
        return FALSE; // no watcher: the default handler ends the process
    g_requested.store(type == CTRL_C_EVENT ? SIGINT : SIGTERM);
    g_pending.fetch_add(1);
    SetEvent(requestEvent());
    // Returning would let Windows end the process at once. main()'s return (ExitProcess) ends
    // this thread; failing that, Windows does after its own time-out (5 s for a close).
    if (type == CTRL_CLOSE_EVENT || type == CTRL_LOGOFF_EVENT || type == CTRL_SHUTDOWN_EVENT)
        Sleep(INFINITE);
    return TRUE;
}
} // namespace

SignalWatcher::SignalWatcher(QObject *parent) : QObject(parent)
{
    const HANDLE event = requestEvent();
    if (!event)
        return;
    ResetEvent(event); // forget a request made to an earlier watcher
    g_pending.store(0);
    auto *notifier = new QWinEventNotifier(event, this);
    m_notifier = notifier;
    connect(notifier, &QWinEventNotifier::activated, this, [this] {
        for (int n = g_pending.exchange(0); n > 0; --n)
            emit terminationRequested(g_requested.load());
    });
    SetConsoleCtrlHandler(nullptr, FALSE); // re-enable Ctrl+C if started in a new process group
    g_active.store(true);
    SetConsoleCtrlHandler(onConsoleControl, TRUE);
}

SignalWatcher::~SignalWatcher()
{
    g_active.store(false);
    SetConsoleCtrlHandler(onConsoleControl, FALSE);
    delete m_notifier; // the event itself lives as long as the process
    m_notifier = nullptr;
}

} // namespace Gatehouse
