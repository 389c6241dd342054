#pragma once

#include <QObject>

namespace Gatehouse {

// Turns a request to stop into a Qt signal on the main thread: SIGTERM / SIGINT on Unix
// (self-pipe, signalwatcher_unix.cpp); Ctrl+C, Ctrl+Break and closing the console window on
// Windows (a console control handler, signalwatcher_win.cpp), reported as SIGINT (Ctrl+C) or
// SIGTERM (the others).
class SignalWatcher : public QObject
{
    Q_OBJECT
public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

signals:
    void terminationRequested(int signalNumber);

private:
    QObject *m_notifier = nullptr; // QSocketNotifier (Unix) or QWinEventNotifier (Windows)
};

} // namespace Gatehouse
