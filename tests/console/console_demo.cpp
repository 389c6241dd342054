// The console against the in-test admin server (TestAdminServer), for looking at the pages
// and taking screenshots without a backend:
//   console_demo [--page N] [--tab N] [--order STATUS] [--delivery STATE] [--dialog]
//                [--create-customer NAME] [--register-client [--attempt]] [--mint]
//                [--tokens-tab N] [--size WxH]
//                [--connect URL --admin-token T] [--node NAME] [--act-as N] [--agent NODE]
//                [--user NAME --groups G1,G2] [--set-label K=V] [--add-label K=V] [--apply]
//                [--rbac-tab N] [--expand-denied N] [--kubeconfig NAME [--save-dialog]]
//                [--lang en|de|fr] [--theme system|light|dark] [--connect-dialog]
//                [--open-combo OBJECTNAME] [--admission-webhooks]
// --page selects the N-th navigation entry (0 = dashboard, 1 = clients, 2 = tokens), --order /
// --delivery select the newest order in that status / delivery in that state, --tab 1 shows
// the Orders page's customers, --dialog opens the test-order dialog, --create-customer makes
// one and so shows the secret dialog. --register-client opens the Clients page's register
// dialog (--attempt: half filled in and submitted, so it shows its inline errors), --mint
// mints a demo token (the Tokens page decodes it), --tokens-tab 1 shows the active tokens,
// --size sets the window's size (e.g. 1100x1000 to see a long page at once).
// The Audit page (--page 8): --audit-entry N selects the entry N below the newest.
// --redeliver (with --page 4) opens the bulk Redeliver dialog and starts a job at 1/s.
// --preview-token N (with --page 1) previews a token for the N-th client; --compare (with
// --page 2 --mint) compares the minted token with what its client would get now.
// --access N opens effective access: client N (--page 1) or bob in devs (--page 6).
// Test orders advance on their own, as with the real backend.
// The cluster pages (--page 5 and 6): --connect uses a real backend's admin API instead of the
// in-test server; --node picks a node, --act-as the identity (0 cluster admin, 1 node agent,
// 2 custom user with --user / --groups, 3 anonymous), --agent the node agent's node;
// --set-label edits a label's value, --add-label types a new one, --apply sends the change;
// --rbac-tab selects the RBAC page's tab, --expand-denied opens the N-th denied request's
// explanation there (0: the newest), --kubeconfig issues one in the dialog and --save-dialog opens
// its file dialog. --lang picks the language (en, de, fr; not saved), else the texts follow the
// system's locale (LANG=de_DE.UTF-8: German); the header's selector switches while it runs.
// --theme picks light or dark colours (not saved; default: the system's), for screenshots;
// --connect-dialog opens the header's connect dialog, --open-combo the drop-down list of the
// combo box with that object name (themeSelector, languageSelector, statusFilter, ...).

#include "console/accessview.h"
#include "console/adminclient.h"
#include "console/auditlogmodel.h"
#include "console/clientform.h"
#include "console/clientlistmodel.h"
#include "console/clusterrequestmodel.h"
#include "console/consoleappearance.h"
#include "console/consolelanguage.h"
#include "console/consoleservices.h"
#include "console/customerlistmodel.h"
#include "console/deliverydetail.h"
#include "console/jwtinspector.h"
#include "console/kubeconfigform.h"
#include "console/nodelabeleditor.h"
#include "console/orderdetail.h"
#include "console/redeliveryform.h"
#include "console/tokenlistmodel.h"
#include "console/tokenpreview.h"
#include "testadminserver.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTextStream>
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
    const QCommandLineOption registerClient(QStringLiteral("register-client"),
                                            QStringLiteral("Open the register-client dialog."));
    const QCommandLineOption attempt(QStringLiteral("attempt"),
                                     QStringLiteral("Submit the register dialog half filled in."));
    const QCommandLineOption mint(QStringLiteral("mint"), QStringLiteral("Mint a demo token."));
    const QCommandLineOption tokensTab(QStringLiteral("tokens-tab"),
                                       QStringLiteral("Tokens page tab."), QStringLiteral("N"),
                                       QStringLiteral("0"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption connectTo(QStringLiteral("connect"),
                                       QStringLiteral("A real backend's admin URL."),
                                       QStringLiteral("URL"));
    const QCommandLineOption adminToken(QStringLiteral("admin-token"),
                                        QStringLiteral("Its admin token."), QStringLiteral("T"));
    const QCommandLineOption nodeName(QStringLiteral("node"), QStringLiteral("Node to pick."),
                                      QStringLiteral("NAME"));
    const QCommandLineOption actAs(QStringLiteral("act-as"), QStringLiteral("Identity (0-3)."),
                                   QStringLiteral("N"));
    const QCommandLineOption agent(QStringLiteral("agent"), QStringLiteral("Node agent's node."),
                                   QStringLiteral("NODE"));
    const QCommandLineOption user(QStringLiteral("user"), QStringLiteral("Custom user."),
                                  QStringLiteral("NAME"));
    const QCommandLineOption groups(QStringLiteral("groups"), QStringLiteral("Custom groups."),
                                    QStringLiteral("G1,G2"));
    const QCommandLineOption setLabel(QStringLiteral("set-label"),
                                      QStringLiteral("Edit a label's value."),
                                      QStringLiteral("K=V"));
    const QCommandLineOption addLabel(QStringLiteral("add-label"),
                                      QStringLiteral("Type a new label."), QStringLiteral("K=V"));
    const QCommandLineOption apply(QStringLiteral("apply"), QStringLiteral("Apply the change."));
    const QCommandLineOption rbacTab(QStringLiteral("rbac-tab"), QStringLiteral("RBAC page tab."),
                                     QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption expandDenied(QStringLiteral("expand-denied"),
                                          QStringLiteral("Open the N-th denied request."),
                                          QStringLiteral("N"));
    const QCommandLineOption kubeconfig(QStringLiteral("kubeconfig"),
                                        QStringLiteral("Issue a kubeconfig in the dialog."),
                                        QStringLiteral("NAME"));
    const QCommandLineOption saveDialog(QStringLiteral("save-dialog"),
                                        QStringLiteral("Open the kubeconfig's save dialog."));
    const QCommandLineOption auditEntry(
        QStringLiteral("audit-entry"),
        QStringLiteral("Select this audit entry (the newest minus N: 0 = the newest)."),
        QStringLiteral("N"));
    const QCommandLineOption redeliver(
        QStringLiteral("redeliver"),
        QStringLiteral("Open the Redeliver dialog, preview every finished delivery and start a "
                       "job at 1/s."));
    const QCommandLineOption previewToken(
        QStringLiteral("preview-token"),
        QStringLiteral("Open the Clients page's token preview for the N-th client and run it."),
        QStringLiteral("N"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("With --mint: compare the token with what its client would get now."));
    const QCommandLineOption access(
        QStringLiteral("access"),
        QStringLiteral("Open the effective access dialog: client N (with --page 1) or user bob "
                       "in group devs (with --page 6)."),
        QStringLiteral("N"));
    const QCommandLineOption lang(QStringLiteral("lang"),
                                  QStringLiteral("Language: en, de or fr (default: the system's)."),
                                  QStringLiteral("LANG"));
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("Colours: system, light or dark (default: the "
                                                  "system's)."),
                                   QStringLiteral("THEME"), QStringLiteral("system"));
    const QCommandLineOption connectDialog(QStringLiteral("connect-dialog"),
                                           QStringLiteral("Open the connect dialog."));
    const QCommandLineOption openCombo(QStringLiteral("open-combo"),
                                       QStringLiteral("Open this combo box's list."),
                                       QStringLiteral("OBJECTNAME"));
    const QCommandLineOption webhooks(
        QStringLiteral("admission-webhooks"),
        QStringLiteral("Two validating admission webhooks in the in-test cluster: one allows "
                       "everything, one refuses the label key \"team\"."));
    parser.addOptions({auditEntry, redeliver, previewToken, compare, access, lang, theme,
                       connectDialog, openCombo, webhooks});
    parser.addOptions({page,           tab,      order, delivery,  dialog,     customer,
                       registerClient, attempt,  mint,  tokensTab, size,       connectTo,
                       adminToken,     nodeName, actAs, agent,     user,       groups,
                       setLabel,       addLabel, apply, rbacTab,   kubeconfig, saveDialog,
                       expandDenied});
    parser.process(app);

    const QByteArray token = "console-demo-token";
    TestAdminServer server(token);
    server.setAutoAdvance(true, 1500);
    server.setSeriesPublishing(true); // the dashboard's charts move with the demo's events
    if (parser.isSet(webhooks))
        server.setAdmissionWebhooks(
            {QJsonObject{{QStringLiteral("name"), QStringLiteral("audit.policy.example.com")},
                         {QStringLiteral("denyKey"), QString()},
                         {QStringLiteral("latencyMs"), 1.5}},
             QJsonObject{
                 {QStringLiteral("name"), QStringLiteral("teams.policy.example.com")},
                 {QStringLiteral("denyKey"), QStringLiteral("team")},
                 {QStringLiteral("message"), QStringLiteral("team labels are set by the CMDB")},
                 {QStringLiteral("latencyMs"), 3.5}}});
    if (!server.listen())
        return 1;

    Gatehouse::Console::ConsoleServices services;
    // As Gatehouse::Console::run() does, but without the saved choice: screenshots are taken in
    // the language asked for.
    if (!services.language()->apply(parser.value(lang))) {
        QTextStream(stderr) << "console_demo: --lang takes en, de or fr\n";
        return 2;
    }
    if (!services.appearance()->apply(parser.value(theme))) {
        QTextStream(stderr) << "console_demo: --theme takes system, light or dark\n";
        return 2;
    }
    if (parser.isSet(connectTo))
        services.adminClient()->connectTo(QUrl(parser.value(connectTo)), parser.value(adminToken));
    else
        services.adminClient()->connectTo(server.url(), QString::fromLatin1(token));
    QQmlApplicationEngine engine;
    services.publishTo(&engine);
    engine.load(QUrl(QStringLiteral("qrc:/Gatehouse/Main.qml")));
    if (engine.rootObjects().isEmpty())
        return 1;
    QObject *window = engine.rootObjects().constFirst();
    if (const QStringList wh = parser.value(size).split(QLatin1Char('x')); wh.size() == 2) {
        window->setProperty("width", wh.at(0).toInt());
        window->setProperty("height", wh.at(1).toInt());
    }
    if (QObject *rail = window->findChild<QObject *>(QStringLiteral("navigationList")))
        rail->setProperty("currentIndex", parser.value(page).toInt());
    if (QObject *tabs = window->findChild<QObject *>(QStringLiteral("ordersTabs")))
        tabs->setProperty("currentIndex", parser.value(tab).toInt());
    if (QObject *tabs = window->findChild<QObject *>(QStringLiteral("tokensTabs")))
        tabs->setProperty("currentIndex", parser.value(tokensTab).toInt());
    if (parser.isSet(order))
        services.orderDetail()->setOrderId(server.orderIdWithStatus(parser.value(order)));
    if (parser.isSet(auditEntry))
        services.auditDetail()->setEntryId(
            QString::number(server.auditEntryCount() - parser.value(auditEntry).toInt()));
    if (parser.isSet(previewToken)) {
        const QString id = server.clientId(parser.value(previewToken).toInt());
        QTimer::singleShot(1500, window, [window, &services, id] {
            Gatehouse::Console::ClientListModel *clients = services.clients();
            const QModelIndex row = clients->index(clients->indexOfId(id));
            services.tokenPreview()->startFor(
                id, row.data(Gatehouse::Console::ClientListModel::NameRole).toString(),
                row.data(Gatehouse::Console::ClientListModel::GrantTypesRole).toStringList());
            if (QObject *d = window->findChild<QObject *>(QStringLiteral("tokenPreviewDialog")))
                QMetaObject::invokeMethod(d, "open");
            if (services.tokenPreview()->userGrant())
                services.tokenPreview()->setUsername(QStringLiteral("alice"));
            services.tokenPreview()->preview();
        });
    }
    if (parser.isSet(access)) {
        const bool cluster = parser.value(page) == QLatin1String("6");
        const QString id = server.clientId(parser.value(access).toInt());
        QTimer::singleShot(1500, window, [window, &services, id, cluster] {
            const QList<QObject *> dialogs =
                window->findChildren<QObject *>(QStringLiteral("accessDialog"));
            const QString pageName =
                cluster ? QStringLiteral("page-rbac") : QStringLiteral("page-clients");
            for (QObject *d : dialogs) {
                QObject *up = d->parent();
                while (up && up->objectName() != pageName)
                    up = up->parent();
                if (!up)
                    continue;
                d->setProperty("mode", cluster ? "cluster" : "client");
                QMetaObject::invokeMethod(d, "open");
            }
            if (cluster)
                services.access()->loadCluster(QStringLiteral("bob"), QStringLiteral("devs"),
                                               false);
            else
                services.access()->loadClient(id);
        });
    }
    if (parser.isSet(compare)) {
        QTimer::singleShot(2500, window, [&services] {
            services.tokenPreview()->compare(services.jwtInspector()->payload());
        });
    }
    if (parser.isSet(redeliver)) {
        QTimer::singleShot(1000, window, [window, &services] {
            if (QObject *d = window->findChild<QObject *>(QStringLiteral("redeliverDialog")))
                QMetaObject::invokeMethod(d, "open");
            services.redelivery()->setState(QStringLiteral("any"));
            services.redelivery()->setRateText(QStringLiteral("1"));
            services.redelivery()->preview();
            QTimer::singleShot(700, window, [&services] { services.redelivery()->start(); });
        });
    }
    if (parser.isSet(delivery))
        services.deliveryDetail()->setDeliveryId(
            server.deliveryIdWithState(parser.value(delivery)));
    if (parser.isSet(dialog)) {
        QTimer::singleShot(1000, window, [window] {
            if (QObject *d = window->findChild<QObject *>(QStringLiteral("testOrderDialog")))
                QMetaObject::invokeMethod(d, "open");
        });
    }
    if (parser.isSet(connectDialog)) {
        QTimer::singleShot(1000, window, [window] {
            if (QObject *d = window->findChild<QObject *>(QStringLiteral("connectDialog")))
                QMetaObject::invokeMethod(d, "open");
        });
    }
    if (parser.isSet(openCombo)) {
        QTimer::singleShot(1500, window, [window, name = parser.value(openCombo)] {
            if (QObject *combo = window->findChild<QObject *>(name))
                if (auto *popup = combo->property("popup").value<QObject *>())
                    QMetaObject::invokeMethod(popup, "open");
        });
    }
    if (parser.isSet(customer)) {
        QTimer::singleShot(1000, &services, [&services, name = parser.value(customer)] {
            services.customers()->create(name);
        });
    }
    if (parser.isSet(registerClient)) {
        const bool submit = parser.isSet(attempt);
        QTimer::singleShot(1000, window, [window, &services, submit] {
            if (QObject *d = window->findChild<QObject *>(QStringLiteral("registerClientDialog")))
                QMetaObject::invokeMethod(d, "open");
            if (!submit)
                return;
            // What a hurried user might type: the dialog says what is wrong, field by field.
            auto type = [window](const char *field, const QString &text) {
                if (QObject *f = window->findChild<QObject *>(QLatin1String(field)))
                    f->setProperty("text", text);
            };
            type("clientNameField", QStringLiteral("Shop backend"));
            type("redirectUrisField", QStringLiteral("http://shop.example.com/callback"));
            type("lifetimeField", QStringLiteral("5"));
            type("contactsField", QStringLiteral("shop-team"));
            Gatehouse::Console::ClientForm *form = services.clientForm();
            form->setGrant(QStringLiteral("client_credentials"), true);
            form->setGrant(QStringLiteral("password"), true);
            if (QObject *combo = window->findChild<QObject *>(QStringLiteral("authMethodCombo")))
                combo->setProperty("currentIndex", 2);
            form->setAuthMethod(QStringLiteral("none"));
            QTimer::singleShot(500, window, [window] {
                if (QObject *button =
                        window->findChild<QObject *>(QStringLiteral("registerClientButton")))
                    QMetaObject::invokeMethod(button, "clicked");
            });
        });
    }
    if (parser.isSet(mint)) {
        QTimer::singleShot(1200, &services, [&services] {
            const QVariantList options = services.clients()->mintOptions();
            if (!options.isEmpty())
                services.tokens()->mint(options.constFirst().toMap().value("value").toString(),
                                        QStringLiteral("orders:read"));
        });
    }
    if (QObject *tabs = window->findChild<QObject *>(QStringLiteral("rbacTabs")))
        tabs->setProperty("currentIndex", parser.value(rbacTab).toInt());
    // The Nodes page, once the nodes are there.
    QTimer::singleShot(
        1200, &services,
        [&services, &parser, nodeName, actAs, agent, user, groups, setLabel, addLabel, apply] {
            Gatehouse::Console::NodeLabelEditor *editor = services.nodeEditor();
            if (parser.isSet(nodeName))
                editor->setNodeName(parser.value(nodeName));
            if (parser.isSet(actAs))
                editor->setIdentity(
                    Gatehouse::Console::NodeLabelEditor::Identity(parser.value(actAs).toInt()));
            if (parser.isSet(agent))
                editor->setAgentNode(parser.value(agent));
            if (parser.isSet(user))
                editor->setCustomUser(parser.value(user));
            if (parser.isSet(groups))
                editor->setCustomGroups(parser.value(groups));
            if (parser.isSet(setLabel)) {
                const QStringList kv = parser.value(setLabel).split(QLatin1Char('='));
                editor->setLabelValue(editor->labels()->indexOfKey(kv.value(0)), kv.value(1));
            }
            if (parser.isSet(addLabel)) {
                const QStringList kv = parser.value(addLabel).split(QLatin1Char('='));
                editor->setNewKey(kv.value(0));
                editor->setNewValue(kv.value(1));
            }
            if (parser.isSet(apply))
                QTimer::singleShot(800, editor, [editor] { editor->apply(); });
        });
    if (parser.isSet(expandDenied)) {
        QTimer::singleShot(3000, &services, [&services, n = parser.value(expandDenied).toInt()] {
            Gatehouse::Console::ClusterRequestModel *requests = services.clusterRequests();
            for (int row = 0, denied = 0; row < requests->rowCount(); ++row) {
                if (requests->index(row)
                        .data(Gatehouse::Console::ClusterRequestModel::DeniedRole)
                        .toBool() &&
                    denied++ == n) {
                    requests->setExpanded(row, true);
                    break;
                }
            }
        });
    }
    if (parser.isSet(kubeconfig)) {
        QTimer::singleShot(1000, window, [window, &services, name = parser.value(kubeconfig)] {
            if (QObject *d = window->findChild<QObject *>(QStringLiteral("kubeconfigDialog")))
                QMetaObject::invokeMethod(d, "open");
            services.kubeconfigForm()->setName(name);
            services.kubeconfigForm()->setGroups(QStringLiteral("devs"));
            services.kubeconfigForm()->issue();
        });
    }
    if (parser.isSet(saveDialog)) {
        QTimer::singleShot(2500, window, [window] {
            if (QObject *d = window->findChild<QObject *>(QStringLiteral("kubeconfigFileDialog")))
                QMetaObject::invokeMethod(d, "open");
        });
    }
    qInfo("console_demo: admin server at %s", qPrintable(server.url().toString()));
    return app.exec();
}
