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
    // A lookup waiting for a DNS server costs no thread (Core::Resolver, c-ares), so the bound
    // is wide; it keeps a flood of names that resolve slowly within Core::Resolver::MaxPending,
    // leaving room for the deliveries' and admission webhooks' lookups. One customer has at
    // most kMaxCustomerLookups of them: a few customers' names that never resolve (it took
    // four when the bound was Qt's pool) must not turn every other customer's orders away.
    static constexpr int kMaxLookups = 1024;
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
