#pragma once

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QString>

namespace Gatehouse::Console {

class AdminClient;

// How current one live view is, told honestly: whether the event stream reaches us, when
// this view last synced with the backend and last changed, and whether the admin token may
// read it at all. Each live list model owns one (its "live" property); the pages show it
// with a LiveBadge, and a NotPermitted pane instead of an empty list.
//
//   Idle          no backend chosen, or the token was refused (401)
//   Syncing       reading the list (first time, after a filter change, or resyncing after a
//                 reconnect); the rows shown are from before
//   Live          synced, and the stream has spoken within staleAfter
//   Stale         the stream is silent for longer than staleAfter, or the backend is
//                 unreachable (reconnecting); the rows shown may be out of date
//   NotPermitted  the backend answered 403: this admin token may not read this view
//   Failed        the last read failed otherwise (message() says why); retried on reconnect
class LiveState : public QObject
{
    Q_OBJECT
    Q_PROPERTY(State state READ state NOTIFY changed)
    Q_PROPERTY(bool stale READ stale NOTIFY changed)
    Q_PROPERTY(bool permitted READ permitted NOTIFY changed)
    // "Live", "Stale", ... (translated).
    Q_PROPERTY(QString stateText READ stateText NOTIFY changed)
    // "last change 12 s ago", "no contact for 31 s · reconnecting", the server's 403 message.
    Q_PROPERTY(QString detail READ detail NOTIFY changed)
    // The server's message for NotPermitted and Failed (verbatim, never translated).
    Q_PROPERTY(QString message READ message NOTIFY changed)
    Q_PROPERTY(QDateTime syncedAt READ syncedAt NOTIFY changed)
    Q_PROPERTY(QDateTime lastChangeAt READ lastChangeAt NOTIFY changed)

public:
    enum State { Idle, Syncing, Live, Stale, NotPermitted, Failed };
    Q_ENUM(State)

    // client may be null (unit tests); then the state follows only the note...() calls.
    explicit LiveState(AdminClient *client, QObject *parent = nullptr);

    // For views that are the stream itself (the latest events): they are in sync whenever
    // the client is online.
    void followStream(AdminClient *client);

    State state() const { return m_state; }
    bool stale() const { return m_state == Stale; }
    bool permitted() const { return m_state != NotPermitted; }
    QString stateText() const;
    QString detail() const { return m_detail; }
    QString message() const { return m_message; }
    QDateTime syncedAt() const { return m_syncedAt; }
    QDateTime lastChangeAt() const { return m_lastChangeAt; }

    // The view's own read: started, succeeded, or failed with this HTTP status (0: no answer)
    // and message. A 403 makes it NotPermitted until a read succeeds.
    void noteSyncStarted();
    void noteSynced();
    void noteSyncFailed(int httpStatus, const QString &message);
    // A read that was dropped (disconnect): back to what the connection says.
    void noteSyncCanceled();
    // The view's rows changed through a live event.
    void noteChange();

    // "12 s", "4 min", "2 h", "3 d": how long ago, for the badge.
    static QString ageText(qint64 seconds);

signals:
    void changed();

private:
    void update(bool force = false);
    void watch(AdminClient *client);

    QPointer<AdminClient> m_client;
    State m_state = Idle;
    QString m_detail;
    QString m_message;
    bool m_syncing = false;
    int m_failedStatus = -1; // -1: the last read did not fail
    QDateTime m_syncedAt;
    QDateTime m_lastChangeAt;
};

} // namespace Gatehouse::Console
