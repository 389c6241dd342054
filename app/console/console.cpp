#include "console.h"

#include "adminclient.h"
#include "consoleappearance.h"
#include "consolelanguage.h"
#include "consolelogging.h"
#include "consoleservices.h"
#include "consolewindowstate.h"
#include "scenegraph.h"

#include <QApplication>
#include <QIcon>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace Gatehouse::Console {

namespace {
// qt_add_qml_module (Qt 6.4, default RESOURCE_PREFIX "/") puts the module under /<URI>/.
constexpr auto MainQml = "qrc:/Gatehouse/Main.qml";
} // namespace

QStringList languages()
{
    return ConsoleLanguage::available();
}

QStringList themes()
{
    return ConsoleAppearance::available();
}

void setMemoryDefaults()
{
#ifdef __GLIBC__
    // A fixed 128 KiB threshold for glibc's malloc: bigger blocks (a page of 1,000 orders as it
    // arrives, parsed, packed) are mapped and given back when freed, and free memory at the
    // heap's top is returned from 128 KiB on. By default glibc raises the threshold after
    // such blocks are freed, and their successors then stay in the heap for good.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
}

void setRenderingDefaults()
{
    for (const char *name : {"QSG_ATLAS_WIDTH", "QSG_ATLAS_HEIGHT"}) {
        if (!qEnvironmentVariableIsSet(name))
            qputenv(name, "512");
    }
}

int run(QApplication &app, const ConsoleOptions &options)
{
    setMemoryDefaults();
    setRenderingDefaults();
    const SceneGraphChoice sceneGraph = chooseSceneGraph();
    qCInfo(lcConsole).noquote() << (sceneGraph.software
                                        ? "drawing with Qt Quick's software renderer:"
                                        : "drawing with Qt Quick's default renderer:")
                                << sceneGraph.reason;
    // One look on every platform; must be chosen before the first QML engine loads.
    QQuickStyle::setStyle(QStringLiteral("Fusion"));
    app.setWindowIcon(QIcon(QStringLiteral(":/Gatehouse/icons/gatehouse.png")));

    ConsoleServices services;
    // Translators and the default QLocale, before anything is loaded: --lang, else the user's
    // choice in the console, else the system's language. The header's selector switches it.
    ConsoleLanguage *language = services.language();
    if (!language->apply(options.language.isEmpty() ? ConsoleLanguage::savedChoice()
                                                    : options.language))
        language->apply(QString());
    // Light or dark: --theme, else the user's choice, else the system's (followed while running).
    services.appearance()->apply(options.theme.isEmpty() ? ConsoleAppearance::savedChoice()
                                                         : options.theme);

    AdminClient *client = services.adminClient();
    client->setEmbedded(options.embedded);
    if (options.adminToken.isEmpty())
        client->setAdminUrl(options.adminUrl); // Main.qml opens the connect dialog
    else
        client->connectTo(options.adminUrl, options.adminToken);

    QQmlApplicationEngine engine;
    services.publishTo(&engine);
    // The window's size, place and page as they were left, before it is first shown.
    ConsoleWindowState windowState(services.navigation());
    engine.setInitialProperties(
        windowState.initialProperties(ConsoleWindowState::saved(), ConsoleWindowState::screens()));
    engine.load(QUrl(QLatin1String(MainQml)));
    const QList<QObject *> roots = engine.rootObjects();
    auto *window = roots.isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(roots.constFirst());
    if (!window) {
        qCCritical(lcConsole) << "could not load" << MainQml;
        return 1;
    }
    windowState.track(window); // saved when it closes
    // Smoke tests wait for this line: the window has really been drawn.
    QObject::connect(
        window, &QQuickWindow::frameSwapped, window, [] { qInfo("gatehouse: console ready"); },
        Qt::SingleShotConnection);

    return app.exec();
}

} // namespace Gatehouse::Console
