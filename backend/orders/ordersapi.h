#pragma once

#include "webhooks/urlpolicy.h"

#include <QHash>
#include <QMutex>
#include <QString>

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
    // leave room for its other lookups (the webhook deliveries and admission webhooks have
    // pools of their own). One customer has at most kMaxCustomerLookups of them, so that its
    // names do not turn every other customer's orders away.
    static constexpr int kMaxLookups = 16;
    static constexpr int kMaxCustomerLookups = 4;

private:
    void registerRoutes();

    Core::HttpServer &m_server;
    Core::Database &m_database;
    OrderService &m_service;
    Options m_options;
    Webhooks::UrlPolicy m_policy;
    struct LookupBudget
    {
        QMutex mutex;
        int total = 0;
        QHash<QString, int> perCustomer;
    };
    // Which limit refused: empty when a lookup was taken for the customer.
    static QString takeLookup(LookupBudget &budget, const QString &customerId);
    static void giveLookup(LookupBudget &budget, const QString &customerId);
    std::shared_ptr<LookupBudget> m_lookups = std::make_shared<LookupBudget>();
};

} // namespace Gatehouse::Orders
