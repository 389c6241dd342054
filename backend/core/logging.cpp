#include "core/logging.h"

Q_LOGGING_CATEGORY(lcCore, "gatehouse.core", QtInfoMsg)
Q_LOGGING_CATEGORY(lcHttp, "gatehouse.http", QtInfoMsg)
Q_LOGGING_CATEGORY(lcAccess, "gatehouse.access", QtInfoMsg)
Q_LOGGING_CATEGORY(lcDb, "gatehouse.db", QtInfoMsg)
