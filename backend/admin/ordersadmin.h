#pragma once

#include "core/httpmessage.h"

#include <QString>

#include <optional>

namespace Gatehouse::Core {
class Clock;
class Database;
class HttpServer;
class SettingsStore;
} // namespace Gatehouse::Core
namespace Gatehouse::Orders {
class OrderService;
}
namespace Gatehouse::Webhooks {
class DemoReceiver;
class RedeliveryJobs;
class WebhookService;
} // namespace Gatehouse::Webhooks

namespace Gatehouse::Admin {

class AdminTokens;

// /admin/v1 nouns of the order service: customers, beers, orders, deliveries, endpoints,
// test orders and the demo receiver (docs/orders.md). Token checked by AdminApi's filter.
class OrdersAdminApi
{
public:
    OrdersAdminApi(Core::HttpServer &server, Core::Database &database, Orders::OrderService &orders,
                   Webhooks::WebhookService &webhooks, Webhooks::RedeliveryJobs &redeliveries,
                   Webhooks::DemoReceiver &demoReceiver, Core::SettingsStore &settings,
                   const Core::Clock &clock, const AdminTokens &tokens);

    // The setting that keeps a held order lifecycle held across restarts ("true" / absent).
    static QString lifecycleHeldKey();
    // Another instance held or released the lifecycle (the settings row changed): read it again
    // and do the same here.
    void lifecycleChangedElsewhere();

private:
    void registerRoutes();
    // A webhook signing secret is shared with the customer's receiver: it cannot end with an
    // admin token that expires, so such a token never receives one (403; docs/admin-tokens.md).
    std::optional<Core::HttpResponse> secretOutlivesToken(const Core::HttpRequest &req,
                                                          const QString &what) const;

    Core::HttpServer &m_server;
    Core::Database &m_database;
    Orders::OrderService &m_orders;
    Webhooks::WebhookService &m_webhooks;
    Webhooks::RedeliveryJobs &m_redeliveries;
    Webhooks::DemoReceiver &m_demo;
    Core::SettingsStore &m_settings;
    const Core::Clock &m_clock; // which webhook secrets are still valid
    const AdminTokens &m_tokens;
};

} // namespace Gatehouse::Admin
