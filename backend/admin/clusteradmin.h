#pragma once

#include "crypto/certificateauthority.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <variant>

namespace Gatehouse::Core {
class Clock;
struct HttpRequest;
class HttpServer;
class SettingsStore;
} // namespace Gatehouse::Core
namespace Gatehouse::Cluster {
class ClusterApi;
struct ClusterSettings;
} // namespace Gatehouse::Cluster

namespace Gatehouse::Admin {

class AdminTokens;

// /admin/v1/cluster: kubeconfig issuance, live settings, dry-run explanations, requests as
// any identity, recent decisions, the who-can matrix, RBAC manifest import, and the cluster
// API itself as cluster-admin under /admin/v1/cluster/k8s/... (docs/cluster.md).
// The objects of RBAC manifests (YAML or JSON, several documents, a List's items unwrapped), as
// POST /admin/v1/cluster/rbac/import reads them; an error text when they do not parse.
std::variant<QList<QJsonObject>, QString> rbacManifestObjects(const QByteArray &body);

class ClusterAdminApi
{
public:
    ClusterAdminApi(Core::HttpServer &server, Cluster::ClusterApi &cluster,
                    Core::SettingsStore &settings, Crypto::CertificateAuthority ca,
                    QString serverUrl, const Core::Clock &clock, const AdminTokens &tokens);

    // The settings key live changes are kept under.
    static QString settingsKey();
    // The members of s.toJson() named in `asked` (what a change sets): merged into the stored
    // row, never the whole of s (SettingsStore::mergeJsonObject).
    static QJsonObject changedFields(const Cluster::ClusterSettings &s, const QJsonObject &asked);

private:
    // When a service account token issued for this request ends at the latest: the admin
    // token's expiry (0: the root token or one that does not expire; 1, long past: a token
    // revoked or expired since its area was checked).
    qint64 credentialsUntil(const Core::HttpRequest &req) const;

    Core::HttpServer &m_server;
    Cluster::ClusterApi &m_cluster;
    Core::SettingsStore &m_settings;
    Crypto::CertificateAuthority m_ca;
    QString m_serverUrl;
    const Core::Clock &m_clock;  // kubeconfig certificates' validity
    const AdminTokens &m_tokens; // who asks: a certificate outlives no admin token
};

} // namespace Gatehouse::Admin
