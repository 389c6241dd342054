#include "livestate.h"

#include "adminclient.h"

namespace Gatehouse::Console {

LiveState::LiveState(AdminClient *client, QObject *parent) : QObject(parent)
{
    watch(client);
    update();
}

void LiveState::watch(AdminClient *client)
{
    if (m_client)
        disconnect(m_client, nullptr, this, nullptr);
    m_client = client;
    if (!client)
        return;
    connect(client, &AdminClient::connectionStateChanged, this, [this] { update(); });
    connect(client, &AdminClient::tick, this, [this] { update(); });
}

void LiveState::followStream(AdminClient *client)
{
    watch(client);
    if (!client)
        return;
    auto synced = [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            noteSynced();
    };
    connect(client, &AdminClient::connectionStateChanged, this, synced);
    synced();
    update(true);
}

QString LiveState::stateText() const
{
    switch (m_state) {
    case Idle:
        return tr("Not connected");
    case Syncing:
        return tr("Syncing");
    case Live:
        return tr("Live");
    case Stale:
        return tr("Stale");
    case NotPermitted:
        return tr("Not permitted");
    case Failed:
        return tr("Not loaded");
    }
    return {};
}

QString LiveState::ageText(qint64 seconds)
{
    seconds = std::max<qint64>(0, seconds);
    if (seconds < 60)
        return tr("%1 s").arg(seconds);
    if (seconds < 3600)
        return tr("%1 min").arg(seconds / 60);
    if (seconds < 86400)
        return tr("%1 h").arg(seconds / 3600);
    return tr("%1 d").arg(seconds / 86400);
}

void LiveState::noteSyncStarted()
{
    m_syncing = true;
    update();
}

void LiveState::noteSynced()
{
    m_syncing = false;
    m_failedStatus = -1;
    m_message.clear();
    m_syncedAt = QDateTime::currentDateTimeUtc();
    update(true);
}

void LiveState::noteSyncFailed(int httpStatus, const QString &message)
{
    m_syncing = false;
    m_failedStatus = httpStatus;
    m_message = message;
    update(true);
}

void LiveState::noteSyncCanceled()
{
    m_syncing = false;
    update();
}

void LiveState::noteChange()
{
    m_lastChangeAt = QDateTime::currentDateTimeUtc();
    update(true);
}

void LiveState::update(bool force)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    // The freshest thing this view knows: its last change, else its last sync.
    QDateTime latest = m_lastChangeAt;
    if (!latest.isValid() || (m_syncedAt.isValid() && m_syncedAt > latest))
        latest = m_syncedAt;
    const QString lastChange =
        m_lastChangeAt.isValid()
            ? tr("last change %1 ago").arg(ageText(m_lastChangeAt.secsTo(now)))
            : (m_syncedAt.isValid() ? tr("synced %1 ago").arg(ageText(m_syncedAt.secsTo(now)))
                                    : QString());

    State state = Live;
    QString detail;
    const AdminClient::ConnectionState connection =
        m_client ? m_client->connectionState() : AdminClient::Online;
    const qint64 silence = m_client ? m_client->contactAgeSeconds() : 0;
    const qint64 staleAfter =
        m_client ? std::chrono::duration_cast<std::chrono::seconds>(m_client->staleAfter()).count()
                 : 0;
    if (m_failedStatus == 403) {
        // Only a successful read lifts this; reconnecting does not change the token's rights.
        state = NotPermitted;
        detail = m_message;
    } else if (connection == AdminClient::Disconnected || connection == AdminClient::Unauthorized ||
               connection == AdminClient::Untrusted) {
        state = Idle;
        if (connection == AdminClient::Unauthorized)
            detail = tr("the admin token was refused");
        else if (connection == AdminClient::Untrusted)
            detail = tr("the server's certificate is not trusted");
    } else if (connection == AdminClient::Offline || connection == AdminClient::Connecting) {
        state = Stale;
        const qint64 retry = m_client ? m_client->reconnectInMs() : -1;
        QStringList parts;
        parts << (latest.isValid() ? tr("backend unreachable, showing data from %1 ago")
                                         .arg(ageText(latest.secsTo(now)))
                                   : tr("backend unreachable"));
        parts << (retry >= 0 ? tr("reconnecting in %1").arg(ageText((retry + 999) / 1000))
                             : tr("reconnecting"));
        detail = parts.join(QStringLiteral(" · "));
    } else if (m_syncing) {
        state = Syncing;
        detail = latest.isValid()
                     ? tr("resyncing; showing data from %1 ago").arg(ageText(latest.secsTo(now)))
                     : tr("reading the list");
    } else if (m_failedStatus >= 0) {
        state = Failed;
        detail = m_message;
    } else if (silence > staleAfter) {
        state = Stale;
        detail = tr("no word from the backend for %1").arg(ageText(silence));
    } else {
        detail = lastChange;
    }
    if (!force && state == m_state && detail == m_detail)
        return;
    m_state = state;
    m_detail = detail;
    emit changed();
}

} // namespace Gatehouse::Console
