#include "serverstate.h"

namespace Gatehouse::Console {

ServerState::ServerState(AdminClient *client, QString path, QString eventType, QObject *parent)
    : QObject(parent), m_client(client), m_path(std::move(path)), m_eventType(std::move(eventType))
{
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, [this](const AdminEvent &event) {
        if (event.type == m_eventType)
            apply(event.data);
        else
            otherEvent(event);
    });
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload();
    });
}

void ServerState::reload()
{
    if (!m_client || m_client->connectionState() != AdminClient::Online)
        return;
    m_client->callApi({"GET", m_path, {}, {}}, this, [this](const ApiResult &result) {
        if (result.ok())
            apply(result.object());
        else if (!result.canceled)
            setError(result.errorMessage);
    });
}

void ServerState::change(const QByteArray &method, const QString &path,
                         std::optional<QJsonObject> body)
{
    if (!m_client || m_busy) {
        emit changed();
        return;
    }
    setBusy(true);
    m_client->callApi({method, path, {}, std::move(body)}, this, [this](const ApiResult &result) {
        setBusy(false);
        if (result.ok()) {
            setError(QString());
            apply(result.object());
            return;
        }
        if (!result.canceled)
            setError(result.errorMessage);
        emit changed(); // back to what the server has
    });
}

void ServerState::clearError()
{
    setError(QString());
}

void ServerState::apply(const QJsonObject &state)
{
    read(state);
    m_loaded = true;
    emit changed();
}

void ServerState::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

void ServerState::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

} // namespace Gatehouse::Console
