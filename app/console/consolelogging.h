#pragma once

#include <QLoggingCategory>

// The console's one logging category, "gatehouse.console" (info and up by default).
Q_DECLARE_LOGGING_CATEGORY(lcConsole)
