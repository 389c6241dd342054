#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace Gatehouse::Core {
class EventBus;
class HttpServer;
class Metrics;
} // namespace Gatehouse::Core

namespace Gatehouse::Admin {

class AdminTokens;
class StatsSeries;

// The /admin/v1 REST API and the live event stream (Server-Sent Events) on the admin
// listener, guarded by admin bearer tokens: the root token, or scoped tokens that may read
// or write only some areas (AdminTokens; 403 "forbidden" otherwise). The stream sends a
// scoped token only the events of the areas it may read, and of stats.series only the
// counters of those areas.
struct SseFrames;

class AdminApi : public QObject
{
    Q_OBJECT
public:
    AdminApi(Core::HttpServer &server, Core::EventBus &events, Core::Metrics &metrics,
             AdminTokens &tokens, std::function<QJsonObject()> status, QObject *parent = nullptr);

    static bool tokenMatches(const QString &expected, const QString &presented);

    // How many event streams are open now (EventRelay relays the other instances' events
    // while there are).
    std::shared_ptr<const std::atomic<int>> openStreams() const { return m_openStreams; }

    // Serves GET /admin/v1/stats/series from these counters (each reader sees the fields of
    // the areas it may read). Call once.
    void serveStatsSeries(const StatsSeries &series);

signals:
    // A scoped token was revoked: its open event streams close.
    void tokenRevoked(const QString &id);

private:
    void registerRoutes();
    void registerTokenRoutes();

    Core::HttpServer &m_server;
    Core::EventBus &m_events;
    Core::Metrics &m_metrics;
    AdminTokens &m_tokens;
    std::function<QJsonObject()> m_status;
    std::shared_ptr<std::atomic<int>> m_openStreams = std::make_shared<std::atomic<int>>(0);
    // Each event's frame, made once for all the streams that may read it (adminapi.cpp).
    std::shared_ptr<SseFrames> m_frames;
};

} // namespace Gatehouse::Admin
