#include "consolelogging.h"

Q_LOGGING_CATEGORY(lcConsole, "gatehouse.console", QtInfoMsg)
