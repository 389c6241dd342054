// The console against the in-test admin server (TestAdminServer), for looking at the pages
// and taking screenshots without a backend:
//   console_demo [--page N] [--tab N] [--order STATUS] [--delivery STATE] [--dialog]
//                [--create-customer NAME]
// --page selects the N-th navigation entry (0 = dashboard), --order / --delivery select the
// newest order in that status / delivery in that state, --tab 1 shows the Orders page's
// customers, --dialog opens the test-order dialog, --create-customer makes one and so shows
// the secret dialog.
// Test orders advance on their own, as with the real backend.

#include "console/adminclient.h"
#include "console/consoleservices.h"
#include "console/customerlistmodel.h"
#include "console/deliverydetail.h"
#include "console/orderdetail.h"
#include "testadminserver.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QQuickStyle::setStyle(QStringLiteral("Fusion"));
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption page(QStringLiteral("page"), QStringLiteral("Page row."),
                                  QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption order(QStringLiteral("order"), QStringLiteral("Order status."),
                                   QStringLiteral("STATUS"));
    const QCommandLineOption delivery(QStringLiteral("delivery"), QStringLiteral("Delivery state."),
                                      QStringLiteral("STATE"));
    const QCommandLineOption tab(QStringLiteral("tab"), QStringLiteral("Orders page tab."),
                                 QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption dialog(QStringLiteral("dialog"),
                                    QStringLiteral("Open the test-order dialog."));
    const QCommandLineOption customer(QStringLiteral("create-customer"),
                                      QStringLiteral("Create a customer (shows its secret)."),
                                      QStringLiteral("NAME"));
    parser.addOptions({page, tab, order, delivery, dialog, customer});
    parser.process(app);

    const QByteArray token = "console-demo-token";
    TestAdminServer server(token);
    server.setAutoAdvance(true, 1500);
    if (!server.listen())
        return 1;

    Gatehouse::Console::ConsoleServices services;
    services.adminClient()->connectTo(server.url(), QString::fromLatin1(token));
    QQmlApplicationEngine engine;
    services.publishTo(&engine);
    engine.load(QUrl(QStringLiteral("qrc:/Gatehouse/Main.qml")));
    if (engine.rootObjects().isEmpty())
        return 1;
    QObject *window = engine.rootObjects().constFirst();
    if (QObject *rail = window->findChild<QObject *>(QStringLiteral("navigationList")))
        rail->setProperty("currentIndex", parser.value(page).toInt());
    if (QObject *tabs = window->findChild<QObject *>(QStringLiteral("ordersTabs")))
        tabs->setProperty("currentIndex", parser.value(tab).toInt());
    if (parser.isSet(order))
        services.orderDetail()->setOrderId(server.orderIdWithStatus(parser.value(order)));
    if (parser.isSet(delivery))
        services.deliveryDetail()->setDeliveryId(
            server.deliveryIdWithState(parser.value(delivery)));
    if (parser.isSet(dialog)) {
        QTimer::singleShot(1000, window, [window] {
            if (QObject *d = window->findChild<QObject *>(QStringLiteral("testOrderDialog")))
                QMetaObject::invokeMethod(d, "open");
        });
    }
    if (parser.isSet(customer)) {
        QTimer::singleShot(1000, &services, [&services, name = parser.value(customer)] {
            services.customers()->create(name);
        });
    }
    qInfo("console_demo: admin server at %s", qPrintable(server.url().toString()));
    return app.exec();
}
