#pragma once

#include "cli/command.h"

// The order service and its webhooks (docs/orders.md): customers, beers, orders, deliveries,
// redeliveries, endpoints. Shows and plain actions are the shared showById / postAction.
namespace Gatehouse::Cli::OrdersCommands {

int customersList(const Invocation &in);
int customersCreate(const Invocation &in);
int beersList(const Invocation &in);
int beersRestock(const Invocation &in);
int ordersList(const Invocation &in);
int ordersLifecycle(const Invocation &in); // hold, release
int deliveriesList(const Invocation &in);
int deliveriesRedeliverAll(const Invocation &in);
int redeliveriesList(const Invocation &in);
int redeliveriesShow(const Invocation &in);
int redeliveriesCancel(const Invocation &in);
int endpointsList(const Invocation &in);

} // namespace Gatehouse::Cli::OrdersCommands
