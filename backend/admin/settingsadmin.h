#pragma once

#include "core/config.h"

#include <QJsonObject>
#include <QString>

namespace Gatehouse::Core {
class EventBus;
class HttpServer;
class SettingsStore;
} // namespace Gatehouse::Core
namespace Gatehouse::Cluster {
class ClusterApi;
}

namespace Gatehouse::Admin {

// Every configuration setting through the admin API (/admin/v1/settings; docs/settings.md):
// its value in effect, default, source and whether a change applies live or at the next start.
//
// - Live settings (the cluster's anonymous-auth, authorization-mode, enable-admission-plugins)
//   apply at once through the cluster's own settings, as /admin/v1/cluster/settings does.
// - Every other setting is kept in the database as a value for the next start ("pending",
//   "restart required"). At the next start it applies unless the setting is given
//   explicitly (flag, environment, config file), which always wins; such a setting cannot be
//   changed here (409 setting-fixed) because the change would silently not happen.
class SettingsAdminApi
{
public:
    SettingsAdminApi(Core::HttpServer &server, const Core::Config &effective,
                     Core::SettingsStore &store, Cluster::ClusterApi &cluster,
                     Core::EventBus &events);

    // At start, before anything reads the configuration: the values kept for the next start,
    // for settings that were not given explicitly. Bad kept values are skipped with a warning.
    static void applyStored(Core::Config &config, const Core::SettingsStore &store);
    static QString storeKey(const QString &key); // "config:<key>"
    static bool isLive(const QString &key);
    // Settings that cannot be changed through the API at all (data-dir).
    static bool isReadOnly(const QString &key);
    // listeners, limits, oauth, webhooks, cluster, storage
    static QString groupOf(const QString &key);

private:
    QJsonObject item(const Core::ConfigOption &option) const;
    void registerRoutes();

    Core::HttpServer &m_server;
    const Core::Config m_effective; // as the backend started with it
    Core::SettingsStore &m_store;
    Cluster::ClusterApi &m_cluster;
    Core::EventBus &m_events;
};

} // namespace Gatehouse::Admin
