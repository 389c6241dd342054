#pragma once

#include "webhooks/urlpolicy.h"

#include <QString>

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

private:
    void registerRoutes();

    Core::HttpServer &m_server;
    Core::Database &m_database;
    OrderService &m_service;
    Options m_options;
    Webhooks::UrlPolicy m_policy;
};

} // namespace Gatehouse::Orders
