#pragma once

#include <QLoggingCategory>

namespace Gatehouse::OAuth {
// The module's one logging category (gatehouse.oauth);
// QT_LOGGING_RULES="gatehouse.oauth.debug=true" shows its debug messages.
Q_DECLARE_LOGGING_CATEGORY(lcOAuth)
} // namespace Gatehouse::OAuth
