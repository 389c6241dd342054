#pragma once

#include <QLoggingCategory>

namespace Gatehouse::Admin {
// The module's one logging category (gatehouse.admin);
// QT_LOGGING_RULES="gatehouse.admin.debug=true" shows its debug messages.
Q_DECLARE_LOGGING_CATEGORY(lcAdmin)
} // namespace Gatehouse::Admin
