#include "clustersettingsstate.h"
#include "fields.h"

#include <QJsonArray>

namespace Gatehouse::Console {

ClusterSettingsState::ClusterSettingsState(AdminClient *client, QObject *parent)
    : ServerState(client, QStringLiteral("/cluster/settings"),
                  QStringLiteral("cluster.settings.changed"), parent)
{
    connect(this, &ClusterSettingsState::changed, this, &ClusterSettingsState::summaryChanged);
}

QString ClusterSettingsState::summary() const
{
    if (!loaded())
        return {};
    return tr("Authorization: %1 · admission: %2")
        .arg(m_authorizationModes.join(QStringLiteral(", ")),
             m_admissionPlugins.isEmpty() ? tr("none")
                                          : m_admissionPlugins.join(QStringLiteral(", ")));
}

void ClusterSettingsState::setAnonymousAuth(bool on)
{
    change("PUT", QStringLiteral("/cluster/settings"),
           QJsonObject{{QStringLiteral("anonymousAuth"), on}});
}

void ClusterSettingsState::read(const QJsonObject &settings)
{
    m_anonymousAuth = settings.value(QLatin1String("anonymousAuth")).toBool();
    m_authorizationModes = strings(settings.value(QLatin1String("authorizationModes")));
    m_admissionPlugins = strings(settings.value(QLatin1String("admissionPlugins")));
}

} // namespace Gatehouse::Console
