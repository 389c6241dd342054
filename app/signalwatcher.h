#pragma once

#include <QObject>

class QSocketNotifier;

namespace Gatehouse {

// Turns SIGTERM / SIGINT (Unix) into a Qt signal on the main thread (self-pipe).
class SignalWatcher : public QObject
{
    Q_OBJECT
public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

signals:
    void terminationRequested(int signalNumber);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace Gatehouse
