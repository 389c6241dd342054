#include "orders/orderslogging.h"

namespace Gatehouse::Orders {
Q_LOGGING_CATEGORY(lcOrders, "gatehouse.orders", QtInfoMsg)
} // namespace Gatehouse::Orders
