#pragma once

#include <QString>
#include <QStringList>
#include <QUrl>

class QApplication;

namespace Gatehouse::Console {

struct ConsoleOptions
{
    QUrl adminUrl;         // e.g. http://127.0.0.1:8081
    QString adminToken;    // empty: the connect dialog opens (URL prefilled)
    bool embedded = false; // the backend runs in this process ("Embedded" in the status bar)
    // "en", "de" or "fr" for this run (--lang); empty: the language chosen in the console
    // (QSettings), else the system's.
    QString language;
    // "system", "light" or "dark" for this run (--theme); empty: the one chosen in the console
    // (QSettings), else the system's.
    QString theme;
};

// The languages of the console ("en", "de", "fr"), for ConsoleOptions::language.
QStringList languages();
// The themes of the console ("system", "light", "dark"), for ConsoleOptions::theme.
QStringList themes();

// Settings of Qt Quick's renderer for the console, before its window is made: a 512x512
// texture atlas for its small images (icons) instead of one the window's size rounded up to
// powers of two (2048x1024 for the default window: 8 MB, mostly empty). The environment
// (QSG_ATLAS_WIDTH, QSG_ATLAS_HEIGHT) overrides it.
void setRenderingDefaults();
// glibc's malloc set to give memory back to the system sooner (see console.cpp); elsewhere
// nothing.
void setMemoryDefaults();

// Creates the QML engine, publishes the console's services, loads the Gatehouse QML module
// (its window as it was left: ConsoleWindowState), prints "gatehouse: console ready" once the first
// frame is on screen and runs the event loop. Returns app.exec(), or 1 if the QML could not be
// loaded.
int run(QApplication &app, const ConsoleOptions &options);

} // namespace Gatehouse::Console
