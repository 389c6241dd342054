#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>

namespace Gatehouse::Core {
class EventBus;
class HttpServer;
class Metrics;
} // namespace Gatehouse::Core

namespace Gatehouse::Admin {

// The /admin/v1 REST API and the live event stream (Server-Sent Events) on the admin
// listener, guarded by the admin bearer token.
class AdminApi : public QObject
{
    Q_OBJECT
public:
    AdminApi(Core::HttpServer &server, Core::EventBus &events, Core::Metrics &metrics,
             QString adminToken, std::function<QJsonObject()> status, QObject *parent = nullptr);

    static bool tokenMatches(const QString &expected, const QString &presented);

private:
    void registerRoutes();

    Core::HttpServer &m_server;
    Core::EventBus &m_events;
    Core::Metrics &m_metrics;
    const QString m_token;
    std::function<QJsonObject()> m_status;
};

} // namespace Gatehouse::Admin
