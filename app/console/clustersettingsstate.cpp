#include "clustersettingsstate.h"
#include "fields.h"

#include <QJsonArray>

namespace Gatehouse::Console {

namespace {

constexpr auto SettingsPath = "/cluster/settings";

} // namespace

ClusterSettingsState::ClusterSettingsState(AdminClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{
    connect(this, &ClusterSettingsState::changed, this, &ClusterSettingsState::summaryChanged);
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &ClusterSettingsState::handleEvent);
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload();
    });
}

QString ClusterSettingsState::summary() const
{
    if (!m_loaded)
        return {};
    return tr("Authorization: %1 · admission: %2")
        .arg(m_authorizationModes.join(QStringLiteral(", ")),
             m_admissionPlugins.isEmpty() ? tr("none")
                                          : m_admissionPlugins.join(QStringLiteral(", ")));
}

void ClusterSettingsState::reload()
{
    if (!m_client || m_client->connectionState() != AdminClient::Online)
        return;
    m_client->callApi({"GET", QLatin1String(SettingsPath), {}, {}}, this,
                      [this](const ApiResult &result) {
                          if (result.ok())
                              apply(result.object());
                          else if (!result.canceled)
                              setError(result.errorMessage);
                      });
}

void ClusterSettingsState::setAnonymousAuth(bool on)
{
    if (!m_client || m_busy) {
        emit changed();
        return;
    }
    setBusy(true);
    m_client->callApi({"PUT",
                       QLatin1String(SettingsPath),
                       {},
                       QJsonObject{{QStringLiteral("anonymousAuth"), on}}},
                      this, [this](const ApiResult &result) {
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

void ClusterSettingsState::clearError()
{
    setError(QString());
}

void ClusterSettingsState::apply(const QJsonObject &settings)
{
    m_anonymousAuth = settings.value(QLatin1String("anonymousAuth")).toBool();
    m_authorizationModes = strings(settings.value(QLatin1String("authorizationModes")));
    m_admissionPlugins = strings(settings.value(QLatin1String("admissionPlugins")));
    m_loaded = true;
    emit changed();
}

void ClusterSettingsState::handleEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("cluster.settings.changed"))
        apply(event.data);
}

void ClusterSettingsState::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

void ClusterSettingsState::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

} // namespace Gatehouse::Console
