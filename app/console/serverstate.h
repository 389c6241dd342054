#pragma once

#include "adminclient.h"

#include <QObject>
#include <QPointer>

namespace Gatehouse::Console {

// A piece of the server's state that the console shows and changes: read (GET path) on every
// (re)connect, kept current by the event whose data is the state, changed by a call whose
// answer is the new state. A subclass reads the state's members in read().
class ServerState : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool loaded READ loaded NOTIFY changed)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    // The server's refusal as it wrote it (never translated); "" when none.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    bool loaded() const { return m_loaded; }
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }

    Q_INVOKABLE void reload();
    Q_INVOKABLE void clearError();

    // The state as the API and the event write it.
    void apply(const QJsonObject &state);

signals:
    void changed();
    void busyChanged();
    void errorChanged();

protected:
    ServerState(AdminClient *client, QString path, QString eventType, QObject *parent);
    // Sends a change (one at a time). Whatever the answer, changed() follows, so a control
    // bound to the state shows the server's value again after a refusal.
    void change(const QByteArray &method, const QString &path,
                std::optional<QJsonObject> body = std::nullopt);
    virtual void read(const QJsonObject &state) = 0;
    // Events other than the state's own.
    virtual void otherEvent(const AdminEvent &) {}

private:
    void setBusy(bool busy);
    void setError(const QString &error);

    QPointer<AdminClient> m_client;
    QString m_path;
    QString m_eventType;
    bool m_loaded = false;
    bool m_busy = false;
    QString m_error;
};

} // namespace Gatehouse::Console
