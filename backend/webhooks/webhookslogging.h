#pragma once

#include <QLoggingCategory>

namespace Gatehouse::Webhooks {
// The module's one logging category (gatehouse.webhooks);
// QT_LOGGING_RULES="gatehouse.webhooks.debug=true" shows its debug messages.
Q_DECLARE_LOGGING_CATEGORY(lcWebhooks)
} // namespace Gatehouse::Webhooks
