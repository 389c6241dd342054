#pragma once

#include <QLoggingCategory>
#include <QString>

Q_DECLARE_LOGGING_CATEGORY(lcCore)
Q_DECLARE_LOGGING_CATEGORY(lcHttp)
Q_DECLARE_LOGGING_CATEGORY(lcAccess)
Q_DECLARE_LOGGING_CATEGORY(lcDb)

namespace Gatehouse::Core {

// Text a client chose (a decoded path, a user name), fit for one log line: control characters
// (a decoded %0A) written %-encoded, so that nobody can start a line of their own in the log.
QString loggable(QString text);

} // namespace Gatehouse::Core
