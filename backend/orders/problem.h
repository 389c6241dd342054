#pragma once

#include "core/httpmessage.h"
#include "orders/order.h"

namespace Gatehouse::Orders {

// RFC 7807 application/problem+json, the one error shape of the /v1 API.
Core::HttpResponse problem(int status, const QString &code, const QString &detail,
                           const Core::HttpRequest *request = nullptr,
                           const QList<FieldError> &errors = {});

} // namespace Gatehouse::Orders
