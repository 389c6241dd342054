#pragma once

#include <QLoggingCategory>

namespace Gatehouse::Orders {
// The module's one logging category (gatehouse.orders);
// QT_LOGGING_RULES="gatehouse.orders.debug=true" shows its debug messages.
Q_DECLARE_LOGGING_CATEGORY(lcOrders)
} // namespace Gatehouse::Orders
