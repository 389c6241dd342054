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
namespace Gatehouse::OAuth {
class OAuthApi;
}

namespace Gatehouse::Admin {

// Every configuration setting through the admin API (/admin/v1/settings; docs/settings.md):
// its value in effect, default, source and whether a change applies live or at the next start.
//
// - Live settings apply at once: the cluster's anonymous-auth, authorization-mode,
//   enable-admission-plugins and oidc-group-mappings through the cluster's own settings, as
//   /admin/v1/cluster/settings does; the registration policy (oauth-registration-*) through
//   the authorization server's. A change to oidc-group-mappings also needs cluster:write, to
//   the registration policy oauth:write.
// - Every other setting is kept in the database as a value for the next start ("pending",
//   "restart required"). At the next start it applies unless the setting is given
//   explicitly (flag, environment, config file), which always wins; such a setting cannot be
//   changed here (409 setting-fixed) because the change would silently not happen.
class AdminTokens;

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
    // Live settings of the cluster (their change can turn cluster verdicts).
    static bool isClusterLive(const QString &key);
    // The live registration policy of the authorization server (oauth-registration-*).
    static bool isOAuthLive(const QString &key);
    // Set once the authorization server and the admin tokens exist (the OAuth live settings
    // and the extra permission checks need them).
    void setOAuth(OAuth::OAuthApi *oauth) { m_oauth = oauth; }
    void setTokens(const AdminTokens *tokens) { m_tokens = tokens; }
    // Settings that cannot be changed through the API at all (data-dir).
    static bool isReadOnly(const QString &key);
    // listeners, limits, oauth, webhooks, cluster, storage
    static QString groupOf(const QString &key);
    // Another instance changed a stored setting (ChangeFeed; storeKey as in the settings
    // table, empty: any may have changed): a live one applies here too, as if set here.
    // False when a read failed (read again later: ChangeFeed::readAgainLater).
    bool changedElsewhere(const QString &storeKey);

private:
    QJsonObject item(const Core::ConfigOption &option) const;
    void registerRoutes();

    Core::HttpServer &m_server;
    const Core::Config m_effective; // as the backend started with it
    Core::SettingsStore &m_store;
    Cluster::ClusterApi &m_cluster;
    Core::EventBus &m_events;
    OAuth::OAuthApi *m_oauth = nullptr;
    const AdminTokens *m_tokens = nullptr;
};

} // namespace Gatehouse::Admin
