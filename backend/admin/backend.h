#pragma once

#include "core/config.h"
#include "core/httpserver.h"
#include "core/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

class QLockFile;

namespace Gatehouse::Core {
class AuditLog;
class ChangeFeed;
class EventRelay;
class Clock;
class Database;
class EventBus;
class HttpServer;
class Instances;
class Metrics;
class SettingsStore;
} // namespace Gatehouse::Core

namespace Gatehouse::Core {
class EventQueue;
class WriteQueue;
} // namespace Gatehouse::Core
namespace Gatehouse::Webhooks {
class DemoReceiver;
class Dispatcher;
class RedeliveryJobs;
class WebhookService;
} // namespace Gatehouse::Webhooks
namespace Gatehouse::OAuth {
class OAuthApi;
class TokenRetention;
struct User;
} // namespace Gatehouse::OAuth
namespace Gatehouse::Cluster {
class ClusterApi;
class ObjectStore;
class ServiceAccountTokens;
} // namespace Gatehouse::Cluster
namespace Gatehouse::Crypto {
class CertificateAuthority;
}
namespace Gatehouse::Orders {
class OrderService;
class OrdersApi;
} // namespace Gatehouse::Orders

namespace Gatehouse::Admin {

class AdminApi;
class AuditRecorder;
class AdminTokens;
class SettingsAdminApi;
class ClusterAdminApi;
class OrdersAdminApi;
class OAuthAdminApi;
class StatsSeries;

// The whole backend, composed: configuration -> data dir -> database -> PKI ->
// admin token -> the three listeners -> ports.json. Runs on whichever thread creates it
// (the main thread headless, a worker thread embedded in the console).
class Backend : public QObject
{
    Q_OBJECT
public:
    explicit Backend(Core::Config config, QObject *parent = nullptr);
    ~Backend() override;

    Result<void> start();
    // Stop accepting, finish in-flight requests (bounded by shutdown-grace-ms), close the
    // database, remove ports.json; then done() is called on the backend's thread.
    void stop(std::function<void()> done);

    const Core::Config &config() const { return m_config; }
    QString adminToken() const { return m_adminToken; }
    QString adminUrl() const;
    QJsonObject status() const;
    QJsonObject ports() const;

    Core::HttpServer &serviceListener() { return *m_service; }
    Core::HttpServer &clusterListener() { return *m_cluster; }
    Core::HttpServer &adminListener() { return *m_admin; }
    Cluster::ClusterApi &cluster() { return *m_clusterApi; }
    Core::EventBus &events() { return *m_events; }
    Core::Database &database() { return *m_database; }
    Core::Metrics &metrics() { return *m_metrics; }
    Orders::OrderService &orders() { return *m_orders; }
    Webhooks::Dispatcher &dispatcher() { return *m_dispatcher; }
    Webhooks::DemoReceiver &demoReceiver() { return *m_demoReceiver; }
    Core::WriteQueue &writer() { return *m_writer; }

    static QString adminTokenPath(const QString &dataDir);
    static QString portsPath(const QString &dataDir);

signals:
    // The backend cannot go on (the database claimed by another instance); it stops itself.
    void fatalError(const QString &message);

private:
    Result<void> prepareDataDir();
    Result<void> loadOrCreateAdminToken();
    // A database put back from an older copy undoes what was revoked, deleted or rotated since
    // (docs/storage.md), and nothing in it tells. The newest audit entry this data directory has
    // seen is kept in <data-dir>/audit-mark: a database whose newest is older is said at start.
    void checkAuditMark();
    void keepAuditMark(); // the mark moved on to the database's newest entry, when it is newer
    qint64 newestAuditEntry() const; // -1 when it cannot be read
    qint64 m_auditMark = -1;
    Result<void> writePorts();
    void publishStats();
    Result<void> startOrders();
    // The effective-access answer's "cluster" for an OAuth user (OAuthAdminApi).
    QJsonObject clusterIdentityOf(const QString &username) const;
    // The cluster username an OAuth user's id_token would give (oidc-username-claim and its
    // prefix); empty when the user has no value for the claim.
    QString clusterUsernameOf(const OAuth::User &user) const;
    // OAuthAdminApi::setClusterTwin's answer.
    Core::Result<QString> clusterTwinOf(const OAuth::User *before, const OAuth::User &after) const;
    // Why the user is a cluster identity by RBAC: a binding names their cluster username as a
    // User or one of their cluster groups as a Group ("the cluster's ClusterRoleBinding \"x\"
    // names them"); empty when none does (OAuthAdminApi).
    QString clusterBindingOf(const OAuth::User &user) const;
    Result<void> startCluster(const Crypto::CertificateAuthority &ca, const Core::TlsSettings &tls);
    void openNodePort(int port);
    void stopWorkers();

    Core::Config m_config;
    std::unique_ptr<QLockFile> m_dataDirLock; // held from prepareDataDir() to the stop
    std::unique_ptr<Core::Clock> m_clock;
    std::unique_ptr<Core::Metrics> m_metrics;
    std::unique_ptr<Core::EventBus> m_events;
    std::unique_ptr<Core::Database> m_database;
    std::unique_ptr<Core::SettingsStore> m_settings;
    std::unique_ptr<Core::HttpServer> m_service;
    std::unique_ptr<Core::HttpServer> m_cluster;
    std::unique_ptr<Core::HttpServer> m_admin;
    std::unique_ptr<AdminTokens> m_adminTokens;
    std::unique_ptr<AdminApi> m_adminApi;
    std::unique_ptr<SettingsAdminApi> m_settingsAdminApi;
    // Orders and webhooks. The writer and the dispatcher own threads that call each other;
    // stopWorkers() stops the dispatcher, then drains the writer, before anything is destroyed.
    std::unique_ptr<Core::WriteQueue> m_writer;
    // PostgreSQL: the cluster's objects' own writer (startCluster).
    std::unique_ptr<Core::WriteQueue> m_clusterWriter;
    // PostgreSQL: the writer of the dispatcher's results (startOrders).
    std::unique_ptr<Core::WriteQueue> m_resultWriter;
    std::unique_ptr<Core::EventQueue> m_eventQueue; // events of both, in commit order
    std::unique_ptr<Webhooks::DemoReceiver> m_demoReceiver;
    std::unique_ptr<Webhooks::Dispatcher> m_dispatcher;
    std::unique_ptr<Orders::OrderService> m_orders;
    std::unique_ptr<Webhooks::WebhookService> m_webhooks;
    std::unique_ptr<Webhooks::RedeliveryJobs> m_redeliveries;
    std::unique_ptr<Orders::OrdersApi> m_ordersApi;
    std::unique_ptr<OrdersAdminApi> m_ordersAdminApi;
    std::unique_ptr<OAuth::OAuthApi> m_oauth;
    std::unique_ptr<Core::EventRelay> m_relay;    // PostgreSQL: the other instances' events
    std::unique_ptr<Core::ChangeFeed> m_changes;  // PostgreSQL: other instances' changes
    std::unique_ptr<Core::Instances> m_instances; // heartbeats, and the lead for periodic jobs
    std::unique_ptr<OAuth::TokenRetention> m_tokenRetention;
    std::unique_ptr<OAuthAdminApi> m_oauthAdminApi;
    std::unique_ptr<Cluster::ObjectStore> m_clusterStore;
    std::unique_ptr<Cluster::ServiceAccountTokens> m_serviceAccountTokens;
    std::unique_ptr<Cluster::ClusterApi> m_clusterApi;
    std::unique_ptr<ClusterAdminApi> m_clusterAdminApi;
    std::unique_ptr<Core::AuditLog> m_audit;
    std::unique_ptr<AuditRecorder> m_auditRecorder;
    std::unique_ptr<Core::HttpServer> m_nodePortListener;
    Core::TlsSettings m_clusterTls;
    QString m_adminToken;
    QString m_instanceId; // the database's, the same for every instance on it
    QString m_processId;  // this process's among them (host/pid/random)
    QDateTime m_startedAt;
    QTimer m_statsTimer;
    // PostgreSQL: what other instances wrote, read in any case; stalled orders taken up.
    QTimer m_sharedTimer;
    int m_statsTicks = 0;
    QJsonObject m_lastStats;
    std::unique_ptr<StatsSeries> m_series; // the dashboard's per-minute counters
    bool m_stopping = false;
};

} // namespace Gatehouse::Admin
