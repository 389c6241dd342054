#include "webhooks/webhookslogging.h"

namespace Gatehouse::Webhooks {
Q_LOGGING_CATEGORY(lcWebhooks, "gatehouse.webhooks", QtInfoMsg)
} // namespace Gatehouse::Webhooks
