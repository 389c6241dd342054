#include "console.h"

#include "adminclient.h"
#include "consolelogging.h"
#include "consoleservices.h"

#include <QApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTranslator>

namespace Gatehouse::Console {

namespace {
// qt_add_qml_module (Qt 6.4, default RESOURCE_PREFIX "/") puts the module under /<URI>/.
constexpr auto MainQml = "qrc:/Gatehouse/Main.qml";
} // namespace

int run(QApplication &app, const ConsoleOptions &options)
{
    // One look on every platform; must be chosen before the first QML engine loads.
    QQuickStyle::setStyle(QStringLiteral("Fusion"));
    app.setWindowIcon(QIcon(QStringLiteral(":/Gatehouse/icons/gatehouse.png")));

    // Ours from the resources; Qt's own (qtbase: standard dialog buttons, ...) where installed.
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("gatehouse"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        app.installTranslator(&translator);
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qt"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app.installTranslator(&qtTranslator);

    ConsoleServices services;
    AdminClient *client = services.adminClient();
    client->setEmbedded(options.embedded);
    if (options.adminToken.isEmpty())
        client->setAdminUrl(options.adminUrl); // Main.qml opens the connect dialog
    else
        client->connectTo(options.adminUrl, options.adminToken);

    QQmlApplicationEngine engine;
    services.publishTo(&engine);
    engine.load(QUrl(QLatin1String(MainQml)));
    const QList<QObject *> roots = engine.rootObjects();
    auto *window = roots.isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(roots.constFirst());
    if (!window) {
        qCCritical(lcConsole) << "could not load" << MainQml;
        return 1;
    }
    // Smoke tests wait for this line: the window has really been drawn.
    QObject::connect(
        window, &QQuickWindow::frameSwapped, window, [] { qInfo("gatehouse: console ready"); },
        Qt::SingleShotConnection);

    const int code = app.exec();
    app.removeTranslator(&qtTranslator);
    app.removeTranslator(&translator);
    return code;
}

} // namespace Gatehouse::Console
