#pragma once

#include "core/config.h"
#include "core/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace Gatehouse::Core {
class Clock;
class Database;
class EventBus;
class HttpServer;
class Metrics;
class SettingsStore;
} // namespace Gatehouse::Core

namespace Gatehouse::Admin {

class AdminApi;

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
    Core::EventBus &events() { return *m_events; }
    Core::Database &database() { return *m_database; }
    Core::Metrics &metrics() { return *m_metrics; }

    static QString adminTokenPath(const QString &dataDir);
    static QString portsPath(const QString &dataDir);

private:
    Result<void> prepareDataDir();
    Result<void> loadOrCreateAdminToken();
    Result<void> writePorts();
    void publishStats();

    Core::Config m_config;
    std::unique_ptr<Core::Clock> m_clock;
    std::unique_ptr<Core::Metrics> m_metrics;
    std::unique_ptr<Core::EventBus> m_events;
    std::unique_ptr<Core::Database> m_database;
    std::unique_ptr<Core::SettingsStore> m_settings;
    std::unique_ptr<Core::HttpServer> m_service;
    std::unique_ptr<Core::HttpServer> m_cluster;
    std::unique_ptr<Core::HttpServer> m_admin;
    std::unique_ptr<AdminApi> m_adminApi;
    QString m_adminToken;
    QString m_instanceId;
    QDateTime m_startedAt;
    QTimer m_statsTimer;
    QJsonObject m_lastStats;
    bool m_stopping = false;
};

} // namespace Gatehouse::Admin
