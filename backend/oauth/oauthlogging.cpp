#include "oauth/oauthlogging.h"

namespace Gatehouse::OAuth {
Q_LOGGING_CATEGORY(lcOAuth, "gatehouse.oauth", QtInfoMsg)
} // namespace Gatehouse::OAuth
