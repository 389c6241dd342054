// The Windows half of signalwatcher.h; signalwatcher_unix.cpp is the Unix half.
//
// UNTESTED: written against the Win32 and Qt documentation (SetConsoleCtrlHandler,
// QWinEventNotifier); the project is built and tested on Debian 12 only (docs/packaging.md,
// "Platform code").
//
// The console control handler runs on a thread of its own that Windows starts for it. It
// stores what happened and signals an event object; a QWinEventNotifier on the main thread
// turns that into terminationRequested(). For closing the window, log-off and shut-down,
// Windows ends the process as soon as the handler returns, so the handler waits (at most
// 10 s) until the watcher is destroyed, which happens after the event loop has finished the
// in-flight requests. Service wrappers (NSSM, WinSW) stop a console program with Ctrl+C or
// Ctrl+Break, which arrive here too.
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
std::atomic<int> g_requested{0};
HANDLE g_requestEvent = nullptr; // set by the handler: a stop was requested
HANDLE g_doneEvent = nullptr;    // set by ~SignalWatcher: the program has stopped

BOOL WINAPI onConsoleControl(DWORD type)
{
    if (!g_requestEvent)
        return FALSE; // no watcher: Windows' default, the process ends
    g_requested.store(type == CTRL_C_EVENT ? SIGINT : SIGTERM);
    SetEvent(g_requestEvent);
    if (type == CTRL_CLOSE_EVENT || type == CTRL_LOGOFF_EVENT || type == CTRL_SHUTDOWN_EVENT)
        WaitForSingleObject(g_doneEvent, 10'000);
    return TRUE;
}
} // namespace

SignalWatcher::SignalWatcher(QObject *parent) : QObject(parent)
{
    g_requestEvent = CreateEventW(nullptr, FALSE, FALSE, nullptr);
    g_doneEvent = CreateEventW(nullptr, TRUE, FALSE, nullptr);
    if (!g_requestEvent || !g_doneEvent)
        return;
    auto *notifier = new QWinEventNotifier(g_requestEvent, this);
    m_notifier = notifier;
    connect(notifier, &QWinEventNotifier::activated, this,
            [this] { emit terminationRequested(g_requested.load()); });
    SetConsoleCtrlHandler(onConsoleControl, TRUE);
}

SignalWatcher::~SignalWatcher()
{
    SetConsoleCtrlHandler(onConsoleControl, FALSE);
    delete m_notifier;
    m_notifier = nullptr;
    if (g_doneEvent)
        SetEvent(g_doneEvent); // a waiting handler may now return and let Windows end us
    if (g_requestEvent)
        CloseHandle(g_requestEvent);
    g_requestEvent = nullptr;
}

} // namespace Gatehouse
