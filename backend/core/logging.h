#pragma once

#include <QLoggingCategory>
#include <QString>

Q_DECLARE_LOGGING_CATEGORY(lcCore)
Q_DECLARE_LOGGING_CATEGORY(lcHttp)
Q_DECLARE_LOGGING_CATEGORY(lcAccess)
Q_DECLARE_LOGGING_CATEGORY(lcDb)

namespace Gatehouse::Core {

// Text a client chose (a decoded path, a user name), fit for one log line: control characters
// (a decoded %0A; C1's NEL too), the '"' that ends a request line, U+2028/2029 and bidi controls
// written %-encoded (%0A, %22, %85; %u2028), so that nobody can start a line or a field of
// their own in the log, or reorder what a reader sees.
QString loggable(QString text);

} // namespace Gatehouse::Core
