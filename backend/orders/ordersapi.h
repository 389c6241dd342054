#pragma once

#include "webhooks/urlpolicy.h"

#include <QString>

#include <atomic>
#include <memory>

namespace Gatehouse::Core {
class Database;
class HttpServer;
} // namespace Gatehouse::Core

namespace Gatehouse::Orders {

class OrderService;

// The /v1 binding of the order service and its OpenAPI document (docs/orders.md).
class OrdersApi
{
public:
    struct Options
    {
        Webhooks::UrlPolicySettings urlPolicy;
        QString trustedOrigin; // the built-in demo receiver: its URLs skip the address check
        QString publicBaseUrl; // servers[0].url of the OpenAPI document
    };
    OrdersApi(Core::HttpServer &server, Core::Database &database, OrderService &service,
              Options options);

    // Callback host names looked up at once for order requests: beyond, 503 with Retry-After.
    // Qt's lookup pool (20 threads) is the process's: a flood of names that resolve slowly must
    // leave room for the webhook deliveries' lookups.
    static constexpr int kMaxLookups = 16;

private:
    void registerRoutes();

    Core::HttpServer &m_server;
    Core::Database &m_database;
    OrderService &m_service;
    Options m_options;
    Webhooks::UrlPolicy m_policy;
    std::shared_ptr<std::atomic<int>> m_lookups = std::make_shared<std::atomic<int>>(0);
};

} // namespace Gatehouse::Orders
