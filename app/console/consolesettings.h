#pragma once

#include <QSettings>

namespace Gatehouse::Console {

// The console's own settings (the language, the theme, the window): ~/.config/gatehouse/
// console.conf on Linux. Named explicitly: an organization name set on the application would
// also move the data directory (QStandardPaths::AppDataLocation).
inline QSettings consoleSettings()
{
    return QSettings(QStringLiteral("gatehouse"), QStringLiteral("console"));
}

} // namespace Gatehouse::Console
