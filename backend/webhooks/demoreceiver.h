#pragma once

#include "core/httpserver.h"
#include "webhooks/urlpolicy.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>

#include <deque>
#include <memory>

namespace Gatehouse::Core {
class Clock;
class Database;
class EventBus;
class Metrics;
} // namespace Gatehouse::Core

namespace Gatehouse::Webhooks {

// A webhook receiver built into Gatehouse, so a demo or a training session needs nothing
// external: POST /hooks/{customerId} verifies the Standard Webhooks signature with that
// customer's secrets and records what arrived. For teaching retries, ?fail=N answers 500 to
// the first N attempts of each webhook-id, and ?status=CODE always answers CODE.
class DemoReceiver
{
public:
    DemoReceiver(Core::Database &database, Core::EventBus &events, Core::Metrics &metrics,
                 const Core::Clock &clock);
    ~DemoReceiver();

    Core::Result<void> listen(quint16 preferredPort); // loopback only
    QString origin() const;                           // "http://127.0.0.1:<port>"
    QString hookUrl(const QString &customerId) const;
    // Whether `target` is the receiver at `origin` receiving for `customerId` (its
    // /hooks/<customerId>, any query): only such a URL skips the callback address check. Another
    // customer's there, or another path, is checked as any callback URL is (loopback refused
    // unless allowed): whoever places orders for one customer does not fill another's log.
    static bool isHookOf(const QUrl &origin, const CallbackTarget &target,
                         const QString &customerId);
    quint16 port() const;
    QJsonArray received() const; // newest first
    Core::HttpServer &server() { return *m_server; }

private:
    std::unique_ptr<Core::HttpServer> makeServer(quint16 port);
    Core::HttpResponse handle(const Core::HttpRequest &req);

    Core::Database &m_database;
    Core::EventBus &m_events;
    Core::Metrics &m_metrics;
    const Core::Clock &m_clock;
    std::unique_ptr<Core::HttpServer> m_server;
    mutable QMutex m_mutex;
    std::deque<QJsonObject> m_received;   // verified: the last Kept
    std::deque<QJsonObject> m_unverified; // the last KeptUnverified, apart
    QHash<QString, int> m_attemptsById;
};

} // namespace Gatehouse::Webhooks
