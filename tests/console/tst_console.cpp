// Unit tests of the console's C++ side, and AdminClient against a real HTTP server on port 0.

#include "console/accessview.h"
#include "console/adminclient.h"
#include "console/adminevent.h"
#include "console/attemptlistmodel.h"
#include "console/auditlogmodel.h"
#include "console/beerlistmodel.h"
#include "console/clientform.h"
#include "console/clientlistmodel.h"
#include "console/clusterdenial.h"
#include "console/clusterrequestmodel.h"
#include "console/clustersettingsstate.h"
#include "console/console.h"
#include "console/consoleappearance.h"
#include "console/consolelanguage.h"
#include "console/consoleservices.h"
#include "console/consolewindowstate.h"
#include "console/customerlistmodel.h"
#include "console/dashboardstats.h"
#include "console/deliverydetail.h"
#include "console/deliverylistmodel.h"
#include "console/endpointlistmodel.h"
#include "console/eventlistmodel.h"
#include "console/jwtinspector.h"
#include "console/kubeconfigform.h"
#include "console/listenermodel.h"
#include "console/navigationmodel.h"
#include "console/nodelabeleditor.h"
#include "console/nodelabelmodel.h"
#include "console/nodelistmodel.h"
#include "console/orderdetail.h"
#include "console/orderhistorymodel.h"
#include "console/orderlinemodel.h"
#include "console/orderlistmodel.h"
#include "console/orderrowstore.h"
#include "console/orderstatus.h"
#include "console/rbaclistmodel.h"
#include "console/redeliveryform.h"
#include "console/scenegraph.h"
#include "console/secretclipboard.h"
#include "console/sseparser.h"
#include "console/testorderform.h"
#include "console/tokenlistmodel.h"
#include "console/tokenpreview.h"
#include "console/whocanmodel.h"
#include "helpers/filemode.h"
#include "helpers/testtimeouts.h"
#include "testadminserver.h"

#include "admin/backend.h"
#include "core/config.h"
#include "core/httpserver.h"
#include "oauth/clientregistry.h"
#include "platform/platform.h"
#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMimeData>
#include <QQmlComponent>
#include <QQmlEngine>
#include <QQuickWindow>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTranslator>
#include <cstdlib>
#include <functional>

#include <QTemporaryDir>
#include <QtTest>

using namespace Gatehouse::Console;
using namespace std::chrono_literals;
using Gatehouse::Test::timeoutMs;

namespace {

const QByteArray Token = "test-admin-token-0123456789";

// "id|type|data" per event, so data-driven rows stay readable.
QStringList render(const QList<SseEvent> &events)
{
    QStringList out;
    for (const SseEvent &e : events)
        out.append(QString::fromUtf8(e.id + '|' + e.type + '|' + e.data));
    return out;
}

AdminEvent makeEvent(qint64 seq, const QString &type, const QJsonObject &data = {})
{
    AdminEvent event;
    event.seq = seq;
    event.type = type;
    event.time = QDateTime(QDate(2026, 11, 21), QTime(8, 0, int(seq % 60)), Qt::UTC);
    event.data = data;
    return event;
}

// Collects every log message so tests can assert what was (not) written.
QStringList *g_log = nullptr;
QtMessageHandler g_previousHandler = nullptr;
void captureMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (g_log)
        g_log->append(message);
    g_previousHandler(type, context, message);
}

// The configuration of a real backend in dir on ephemeral ports, plus extra options.
Gatehouse::Core::Result<Gatehouse::Core::Config>
realBackendConfig(const QTemporaryDir &dir, QMap<QString, QString> extra = {})
{
    extra.insert(QStringLiteral("data-dir"), dir.path());
    for (const char *port : {"service-port", "cluster-port", "admin-port"})
        extra.insert(QLatin1String(port), QStringLiteral("0"));
    return Gatehouse::Core::ConfigResolver::resolve(extra, QProcessEnvironment());
}

} // namespace

class TestConsole : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    // SseParser
    void sseParser_data();
    void sseParser();
    void sseParserRetryAndComments();
    void sseParserDropsOverlongLines();
    void sseParserResetKeepsLastEventId();

    // AdminEvent
    void adminEventFromEnvelope();
    void adminEventFromGarbage();

    // EventListModel
    void eventModelNewestFirst();
    void eventModelCapacity();
    void eventModelHidesStatsUnlessAsked();
    void eventModelClear();
    void eventSummaries_data();
    void eventSummaries();

    // ListenerModel, NavigationModel
    void listenerModelUpdatesInPlace();
    void navigationModel();
    void germanTranslation();
    void frenchTranslation();
    void languageSwitchAtRuntime();

    // Appearance (light / dark), the window's geometry and page
    void appearanceChoice();
    void appearanceFollowsSystemPalette();
    void appearanceGtkTheme_data();
    void appearanceGtkTheme();
    void windowPositionOnScreen_data();
    void windowPositionOnScreen();
    void renderingDefaultsLeaveTheUsersChoice();
    void softwareRendererWithoutAGpu();
    void windowStateSavedWhenClosed();
    void windowStateRestoredAtStart();

    // Audit log
    void auditLogNewestFirstLiveAndFiltered();
    void auditLogPagesBack();
    void auditLogMalformedAnswers();
    void auditDetailChangesAndConsequences();
    void auditDetailMalformedEntry();
    void auditOverRealSockets();

    // Bulk redelivery
    void redeliveryFilterAndRate();
    void redeliveryPreviewAndJobs();
    void redeliveryMalformedAnswers();
    void redeliveryOverRealSockets();

    // Token preview, the JWT inspector's server part
    void tokenPreviewClaimsAndCompare();
    void tokenPreviewMalformedAnswers();
    void jwtInspectorServerPart();

    // Effective access
    void accessViewOAuthAnswers();
    void accessViewClusterAnswer();
    void accessViewMalformedAnswers();

    // AdminClient over real sockets
    void goesOnlineAndFollowsStats_data();
    void goesOnlineAndFollowsStats();
    void eventsReachTheModel();
    void unauthorizedDoesNotRetry();
    void tokenRefusedAfterRestart();
    void plainHttpTokenGoesOnlyToAListenerThatProvesIt();
    void offlineThenBackOnlineOnRestart();
    void restartedBackendStartsSequenceOver();
    void offlineWhenNothingListens();
    void reconnectsWhenStreamStalls();
    // Liveness of each live view (LiveState)
    void liveViewTurnsStaleWhenBackendStopsAndResyncs();
    void liveViewTurnsStaleWhenStreamFallsSilent();
    void liveViewShowsNotPermittedInsteadOfEmpty();
    void liveStateAges();
    void backoffDoublesUpToMaximum();
    void invalidUrlIsRejected();
    void disconnectStopsEverything();
    void tokenIsNeverLogged();

    // Orders and deliveries: rules and formatting
    void orderStatusRules_data();
    void orderStatusRules();
    void consoleFormat();

    // Orders and deliveries: models fed directly
    void orderModelLiveEvents();
    void orderModelFilters();
    void orderModelCapacity();
    void orderRowStoreReadsBackExactly();
    void orderModelBuffersEventsDuringReload();
    void orderHistoryModel();
    void deliveryModelLiveEvents();
    void attemptModel();
    void testOrderFormBody();

    // Orders and deliveries: against the admin API (TestAdminServer) over real sockets
    void apiCallResults();
    void ordersLoadAndFollowEvents();
    void orderFilterReloadsWithQuery();
    void orderDetailActions();
    void deliveriesAndRedeliver();
    void endpointsEnable();
    void customersCreateAndRotate();
    void beersFollowStock();
    void testOrderAppears();
    void realBackendOrdersAndDeliveries();
    void adminOverTlsTrustOnFirstUse();

    // DashboardStats
    void dashboardStatsRowsTotalsAndGrants();
    void dashboardStatsLiveBuckets();
    void dashboardStatsRealBackend();

    // OAuth clients, tokens and the JWT decoder.
    void clientFormRules_data();
    void clientFormRules();
    void clientFormBodyAndReset();
    void jwtCountdown_data();
    void jwtCountdown();
    void jwtInspectorKeyAndBody();
    void clientsRegisterRotateDelete();
    void clientsFollowChangesMadeElsewhere();
    void ordersPageBackOnDemand();
    void orderEventsOlderThanTheListAskNothing();
    void tokensMintRevokeAndInspect();
    void realBackendClientsTokensJwt();

    // Cluster: Nodes and RBAC pages.
    void nodeLabelModelEdits();
    void nodeLabelModelRebase();
    void nodeLabelEditorBody_data();
    void nodeLabelEditorBody();
    void nodeLabelEditorExplainAndApply();
    void nodeLabelEditorShowsAdmissionWebhooks();
    void rbacRuleText_data();
    void rbacRuleText();
    void rbacModelsLoadAndFollowEvents();
    void whoCanModel();
    void clusterRequestModelLive();
    void clusterDenialFromTrace();
    void clusterDenialMalformed_data();
    void clusterDenialMalformed();
    void clusterRequestModelDenials();
    void nodeLabelEditorDenial();
    void kubeconfigPrivateFile_data();
    void kubeconfigPrivateFile();
    void kubeconfigIssueAndSave();
    void realBackendCluster();

private:
    static void feedInChunks(SseParser &parser, const QByteArray &input,
                             const QList<qsizetype> &cuts, QList<SseEvent> &out);
};

void TestConsole::initTestCase()
{
    QLoggingCategory::setFilterRules(QStringLiteral("gatehouse.*=true"));
    // QSettings (the console's language) below ~/.qttest, never the user's own.
    QStandardPaths::setTestModeEnabled(true);
    // QNetworkAccessManager's HTTPS worker thread frees OpenSSL's per-thread state as it ends,
    // after QThread::wait() returned: the process lets ending threads finish before it exits
    // and LeakSanitizer checks (as the gatehouse program's main() does).
    static const bool settled = [] {
        return std::atexit([] { Gatehouse::Platform::settleEndingThreads(); }) == 0;
    }();
    QVERIFY(settled);
}

// ---- SseParser ---------------------------------------------------------------------------

void TestConsole::sseParser_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("one event") << QByteArray("id: 1\nevent: stats\ndata: {\"a\":1}\n\n")
                               << QStringList{"1|stats|{\"a\":1}"};
    QTest::newRow("crlf") << QByteArray("id: 2\r\nevent: x\r\ndata: y\r\n\r\n")
                          << QStringList{"2|x|y"};
    // Regression (fuzz_sse): a chunk ending in a complete CRLF made the LF of a following
    // empty line look like the second half of a split CRLF, merging two events.
    QTest::newRow("crlf then lf blank line")
        << QByteArray("data: a\r\n\ndata: b\r\n\n") << QStringList{"|message|a", "|message|b"};
    QTest::newRow("cr only") << QByteArray("id: 3\revent: x\rdata: y\r\r") << QStringList{"3|x|y"};
    QTest::newRow("mixed line ends")
        << QByteArray("data: a\r\ndata: b\rdata: c\n\r\n") << QStringList{"|message|a\nb\nc"};
    QTest::newRow("multi-line data")
        << QByteArray("event: m\ndata: first\ndata:second\ndata:  third\n\n")
        << QStringList{"|m|first\nsecond\n third"};
    QTest::newRow("empty data line") << QByteArray("data\ndata\n\n") << QStringList{"|message|\n"};
    QTest::newRow("default type") << QByteArray("data: x\n\n") << QStringList{"|message|x"};
    QTest::newRow("comments only") << QByteArray(": keepalive\n\n: keepalive\n\n") << QStringList{};
    QTest::newRow("comment inside event")
        << QByteArray("id: 4\n: note\nevent: t\ndata: d\n\n") << QStringList{"4|t|d"};
    QTest::newRow("event without data is dropped")
        << QByteArray("event: lonely\n\ndata: next\n\n") << QStringList{"|message|next"};
    QTest::newRow("id persists") << QByteArray("id: 9\ndata: a\n\ndata: b\n\nid\ndata: c\n\n")
                                 << QStringList{"9|message|a", "9|message|b", "|message|c"};
    QTest::newRow("id with NUL ignored")
        << QByteArray("id: 5\ndata: a\n\nid: 6\0x\ndata: b\n\n", 32)
        << QStringList{"5|message|a", "5|message|b"};
    QTest::newRow("unknown fields ignored")
        << QByteArray("foo: bar\nid: 7\nEVENT: no\nevent: yes\ndata: d\n\n")
        << QStringList{"7|yes|d"};
    QTest::newRow("colon in value")
        << QByteArray("data: a:b: c\n\n") << QStringList{"|message|a:b: c"};
    QTest::newRow("bom") << QByteArray("\xEF\xBB\xBF"
                                       "data: x\n\n")
                         << QStringList{"|message|x"};
    QTest::newRow("garbage then event")
        << QByteArray("\x01\x02\xff\xfe garbage\n{not json}\n\n\xff: \xfe\ndata: ok\n\n")
        << QStringList{"|message|ok"};
    QTest::newRow("incomplete event not dispatched")
        << QByteArray("data: a\n\ndata: b\n") << QStringList{"|message|a"};
    QTest::newRow("two events") << QByteArray("id:1\ndata:a\n\nid:2\ndata:b\n\n")
                                << QStringList{"1|message|a", "2|message|b"};
}

void TestConsole::feedInChunks(SseParser &parser, const QByteArray &input,
                               const QList<qsizetype> &cuts, QList<SseEvent> &out)
{
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        out += parser.feed(QByteArrayView(input).sliced(from, cut - from));
        from = cut;
    }
    out += parser.feed(QByteArrayView(input).sliced(from));
}

void TestConsole::sseParser()
{
    QFETCH(QByteArray, input);
    QFETCH(QStringList, expected);

    {
        SseParser parser;
        QCOMPARE(render(parser.feed(input)), expected);
    }
    // Every single split point: a chunk boundary must never change the result, not even
    // between '\r' and '\n' or inside the BOM.
    for (qsizetype cut = 0; cut <= input.size(); ++cut) {
        SseParser parser;
        QList<SseEvent> events;
        feedInChunks(parser, input, {cut}, events);
        if (render(events) != expected)
            QFAIL(qPrintable(QStringLiteral("split at %1 gave %2")
                                 .arg(cut)
                                 .arg(render(events).join(QStringLiteral(" ; ")))));
    }
    // Byte by byte.
    {
        SseParser parser;
        QList<SseEvent> events;
        for (char c : input)
            events += parser.feed(QByteArrayView(&c, 1));
        QCOMPARE(render(events), expected);
    }
}

void TestConsole::sseParserRetryAndComments()
{
    SseParser parser;
    QCOMPARE(parser.retryMs(), -1);
    parser.feed(": keepalive\nretry: 2500\n\n: keepalive\r\n");
    QCOMPARE(parser.retryMs(), 2500);
    QCOMPARE(parser.commentCount(), 2);
    parser.feed("retry: 12x\nretry:\nretry: 99999999999999\n\n");
    QCOMPARE(parser.retryMs(), 2500); // invalid values are ignored
}

void TestConsole::sseParserDropsOverlongLines()
{
    SseParser parser;
    const QByteArray huge(SseParser::MaxLineLength + 10, 'x');
    QVERIFY(parser.feed("data: ").isEmpty());
    QVERIFY(parser.feed(huge).isEmpty());
    QVERIFY(parser.feed(huge).isEmpty());
    const QList<SseEvent> events = parser.feed("\ndata: after\n\n");
    QCOMPARE(render(events), QStringList{"|message|after"});
}

void TestConsole::sseParserResetKeepsLastEventId()
{
    SseParser parser;
    parser.feed("id: 41\ndata: a\n\nid: 42\ndata: partial");
    QCOMPARE(parser.lastEventId(), QByteArray("42"));
    parser.resetStream();
    QCOMPARE(parser.lastEventId(), QByteArray("42"));
    QCOMPARE(render(parser.feed("\n\ndata: b\n\n")), QStringList{"42|message|b"});
}

// ---- AdminEvent --------------------------------------------------------------------------

void TestConsole::adminEventFromEnvelope()
{
    const SseEvent frame{"7", "stats",
                         R"({"seq":7,"type":"stats","time":"2026-11-21T08:00:01.123Z",)"
                         R"("data":{"uptimeSeconds":5}})"};
    const AdminEvent event = AdminEvent::fromSse(frame, QDateTime::currentDateTimeUtc());
    QCOMPARE(event.seq, qint64(7));
    QCOMPARE(event.type, QStringLiteral("stats"));
    QCOMPARE(event.time, QDateTime(QDate(2026, 11, 21), QTime(8, 0, 1, 123), Qt::UTC));
    QCOMPARE(event.data.value("uptimeSeconds").toInt(), 5);
    QVERIFY(event.rawData.isEmpty());
}

void TestConsole::adminEventFromGarbage()
{
    const QDateTime now(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);
    const AdminEvent event = AdminEvent::fromSse({"12", "weird", "not json at all"}, now);
    QCOMPARE(event.seq, qint64(-1)); // the SSE id is the stream's, not the event's
    QCOMPARE(event.type, QStringLiteral("weird"));
    QCOMPARE(event.time, now);
    QCOMPARE(event.rawData, QByteArray("not json at all"));
    QCOMPARE(EventListModel::summarize(event), QStringLiteral("not json at all"));
}

// ---- EventListModel ----------------------------------------------------------------------

void TestConsole::eventModelNewestFirst()
{
    EventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy countChanged(&model, &EventListModel::countChanged);

    model.addEvent(makeEvent(1, "backend.started", {{"version", "0.1.0"}}));
    model.addEvent(makeEvent(2, "order.created", {{"orderId", "o_1"}}));

    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(inserted.at(1).at(1).toInt(), 0); // always inserted at the top
    QCOMPARE(countChanged.count(), 2);
    const QModelIndex top = model.index(0);
    QCOMPARE(top.data(EventListModel::SeqRole).toLongLong(), qlonglong(2));
    QCOMPARE(top.data(EventListModel::TypeRole).toString(), QStringLiteral("order.created"));
    QCOMPARE(top.data(EventListModel::SummaryRole).toString(), QStringLiteral("orderId=o_1"));
    QCOMPARE(top.data(EventListModel::TimeRole).toDateTime(), makeEvent(2, {}).time);
    QVERIFY(!top.data(EventListModel::TimeTextRole).toString().isEmpty());
    QCOMPARE(model.index(1).data(EventListModel::SeqRole).toLongLong(), qlonglong(1));

    const QHash<int, QByteArray> roles = model.roleNames();
    for (const char *name : {"seq", "type", "time", "timeText", "summary"})
        QVERIFY2(roles.values().contains(name), name);
}

void TestConsole::eventModelCapacity()
{
    EventListModel model(5, nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    for (int i = 1; i <= 12; ++i)
        model.addEvent(makeEvent(i, "thing.happened", {{"n", i}}));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(removed.count(), 7);
    QCOMPARE(model.index(0).data(EventListModel::SeqRole).toLongLong(), qlonglong(12));
    QCOMPARE(model.index(4).data(EventListModel::SeqRole).toLongLong(), qlonglong(8));

    EventListModel defaults;
    QCOMPARE(defaults.capacity(), 500);
    for (int i = 1; i <= 510; ++i)
        defaults.addEvent(makeEvent(i, "x"));
    QCOMPARE(defaults.rowCount(), 500);
}

void TestConsole::eventModelHidesStatsUnlessAsked()
{
    EventListModel model(4, nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy showStatsChanged(&model, &EventListModel::showStatsChanged);

    model.addEvent(makeEvent(1, "backend.started"));
    model.addEvent(makeEvent(2, "stats", {{"uptimeSeconds", 1}}));
    model.addEvent(makeEvent(3, "stats", {{"uptimeSeconds", 2}}));
    QCOMPARE(model.rowCount(), 1);

    model.setShowStats(true);
    QCOMPARE(showStatsChanged.count(), 1);
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0).data(EventListModel::SeqRole).toLongLong(), qlonglong(3));

    // The capacity counts hidden events too; the oldest visible one falls off last.
    model.setShowStats(false);
    model.addEvent(makeEvent(4, "stats"));
    model.addEvent(makeEvent(5, "stats"));
    QCOMPARE(model.rowCount(), 0);
    model.setShowStats(true);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(3).data(EventListModel::SeqRole).toLongLong(), qlonglong(2));
}

void TestConsole::eventModelClear()
{
    EventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy countChanged(&model, &EventListModel::countChanged);
    model.clear();
    QCOMPARE(countChanged.count(), 0);
    model.addEvent(makeEvent(1, "a"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(countChanged.count(), 2);
}

void TestConsole::eventSummaries_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QJsonObject>("data");
    QTest::addColumn<QString>("summary");

    QTest::newRow("started") << "backend.started" << QJsonObject{{"version", "0.1.0"}}
                             << "Backend 0.1.0 started";
    QTest::newRow("stats") << "stats"
                           << QJsonObject{{"requests", QJsonObject{{"admin", 3}, {"service", 1}}},
                                          {"uptimeSeconds", 4}}
                           << "Requests: admin 3 · service 1";
    QTest::newRow("unknown type") << "cluster.decision"
                                  << QJsonObject{{"allowed", false},
                                                 {"user", "system:node:n1"},
                                                 {"verb", "patch"}}
                                  << "allowed=false, user=system:node:n1, verb=patch";
    QTest::newRow("nested") << "token.issued"
                            << QJsonObject{{"scopes", QJsonArray{"a", "b"}},
                                           {"client", QJsonObject{{"id", "c1"}}}}
                            << R"(client={"id":"c1"}, scopes=["a","b"])";
    QTest::newRow("no data") << "ping" << QJsonObject{} << "–";
}

void TestConsole::eventSummaries()
{
    QFETCH(QString, type);
    QFETCH(QJsonObject, data);
    QFETCH(QString, summary);
    QCOMPARE(EventListModel::summarize(makeEvent(1, type, data)), summary);

    QJsonObject long_;
    long_.insert("text", QString(1000, QLatin1Char('a')));
    QVERIFY(EventListModel::summarize(makeEvent(1, "x", long_)).size() <= 200);
}

// ---- ListenerModel, NavigationModel ------------------------------------------------------

void TestConsole::listenerModelUpdatesInPlace()
{
    ListenerModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    auto listener = [](const QString &name, qint64 requests) {
        return QVariantMap{
            {"name", name}, {"title", name.toUpper()},     {"address", "::1"},    {"port", 8080},
            {"tls", true},  {"url", "https://[::1]:8080"}, {"requests", requests}};
    };

    model.setListeners({listener("service", 1), listener("admin", 2)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(reset.count(), 1);
    const QModelIndex admin = model.index(1);
    QCOMPARE(admin.data(ListenerModel::NameRole).toString(), QStringLiteral("admin"));
    QCOMPARE(admin.data(ListenerModel::TitleRole).toString(), QStringLiteral("ADMIN"));
    QCOMPARE(admin.data(ListenerModel::PortRole).toInt(), 8080);
    QCOMPARE(admin.data(ListenerModel::TlsRole).toBool(), true);
    QCOMPARE(admin.data(ListenerModel::RequestsRole).toLongLong(), qlonglong(2));

    // Same listeners, one counter moved: one dataChanged for that row, no reset.
    model.setListeners({listener("service", 1), listener("admin", 5)});
    QCOMPARE(reset.count(), 1);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 1);
    QCOMPARE(admin.data(ListenerModel::RequestsRole).toLongLong(), qlonglong(5));
    model.setListeners({listener("service", 1), listener("admin", 5)});
    QCOMPARE(changed.count(), 1);

    // Different listeners: reset.
    model.setListeners({listener("cluster", 0)});
    QCOMPARE(reset.count(), 2);
    QCOMPARE(model.count(), 1);
}

void TestConsole::navigationModel()
{
    NavigationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 9);
    const QStringList ids{"dashboard", "clients", "tokens",   "orders", "deliveries",
                          "nodes",     "rbac",    "settings", "audit"};
    for (int row = 0; row < ids.size(); ++row) {
        const QModelIndex index = model.index(row);
        QCOMPARE(index.data(NavigationModel::PageIdRole).toString(), ids.at(row));
        QCOMPARE(model.indexOf(ids.at(row)), row);
        QVERIFY(!index.data(NavigationModel::TitleRole).toString().isEmpty());
        QVERIFY(!index.data(NavigationModel::DescriptionRole).toString().isEmpty());
        QCOMPARE(index.data(NavigationModel::ArrivesWithRole).toString().isEmpty(),
                 row == 0 || ids.at(row) == QLatin1String("audit") ||
                     ids.at(row) == QLatin1String("settings"));
        QVERIFY(index.data(NavigationModel::IconRole).toUrl().isValid());
        QVERIFY(index.data(NavigationModel::ShortcutRole)
                    .toString()
                    .contains(QString::number(row + 1)));
        QCOMPARE(model.titleAt(row), index.data(NavigationModel::TitleRole).toString());
        QCOMPARE(model.pageIdAt(row), ids.at(row));
        QCOMPARE(model.descriptionAt(row), index.data(NavigationModel::DescriptionRole).toString());
        QCOMPARE(model.arrivesWithAt(row), index.data(NavigationModel::ArrivesWithRole).toString());
        QCOMPARE(model.iconAt(row), index.data(NavigationModel::IconRole).toUrl());
    }
    QCOMPARE(model.indexOf("nope"), -1);
    QCOMPARE(model.titleAt(9), QString());
    QCOMPARE(model.titleAt(-1), QString());
    QCOMPARE(model.iconAt(9), QUrl());
    QCOMPARE(model.index(1).data(NavigationModel::TitleRole).toString(), QStringLiteral("Clients"));
    // The rail icons are really in the resources.
    QVERIFY(QFile::exists(QStringLiteral(":/Gatehouse/icons/dashboard.png")));
    QVERIFY(QFile::exists(QStringLiteral(":/Gatehouse/icons/audit.png")));
    QVERIFY(QFile::exists(QStringLiteral(":/Gatehouse/Main.qml")));
}

namespace {
QJsonObject auditEntry(int id, const QString &kind, const QString &target, const QString &actor,
                       const QJsonArray &changes = {})
{
    return {{"id", QString::number(id)},
            {"at", "2026-11-21T19:28:32.138Z"},
            {"actor", actor},
            {"kind", kind},
            {"action", "update"},
            {"target", target},
            {"method", "PUT"},
            {"path", "/admin/v1/x"},
            {"status", 200},
            {"changes", changes},
            {"consequences", QJsonObject{}}};
}
} // namespace

void TestConsole::auditLogNewestFirstLiveAndFiltered()
{
    AuditLogModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QJsonArray changes{QJsonObject{{"field", "scope"}, {"before", "a b"}, {"after", "a"}},
                             QJsonObject{{"field", "client_name"}, {"before", "x"}, {"after", "y"}},
                             QJsonObject{{"field", "metadata.labels.rack"}, {"added", true}},
                             QJsonObject{{"field", "jwks_uri"}, {"removed", true}}};
    // Out of order on purpose: the ids decide (9 before 10 would be wrong as text).
    model.resetFrom({auditEntry(9, "client", "c1", "alice (curl/7.88.1 from 127.0.0.1)", changes),
                     auditEntry(10, "node", "node-1", "admin token (gatehouse-admin-cli/0.1.0)"),
                     auditEntry(2, "customer", "cu-1", "bob")});
    QCOMPARE(model.count(), 3);
    QCOMPARE(model.idAt(0), QStringLiteral("10"));
    QCOMPARE(model.idAt(1), QStringLiteral("9"));
    const QModelIndex client = model.index(1);
    QCOMPARE(client.data(AuditLogModel::ActorNameRole).toString(), QStringLiteral("alice"));
    QCOMPARE(client.data(AuditLogModel::ActorRole).toString(),
             QStringLiteral("alice (curl/7.88.1 from 127.0.0.1)"));
    QCOMPARE(client.data(AuditLogModel::ChangedFieldsRole).toString(),
             QStringLiteral("scope, client_name, metadata.labels.rack +1"));
    QCOMPARE(client.data(AuditLogModel::ChangeCountRole).toInt(), 4);
    QCOMPARE(client.data(AuditLogModel::ActionRole).toString(), QStringLiteral("update"));
    QCOMPARE(model.index(0).data(AuditLogModel::ActorNameRole).toString(),
             QStringLiteral("admin token"));

    // audit.entry inserts on top; other events do nothing.
    model.handleEvent(makeEvent(1, "audit.entry", auditEntry(11, "user", "carol", "alice")));
    model.handleEvent(makeEvent(2, "order.created", auditEntry(12, "order", "o", "x")));
    QCOMPARE(model.count(), 4);
    QCOMPARE(model.idAt(0), QStringLiteral("11"));

    // Kind exact; target and actor case-insensitive substrings, applied to live rows too.
    model.setActorFilter("ALI");
    QCOMPARE(model.count(), 2);
    model.setTargetFilter("car");
    QCOMPARE(model.count(), 1);
    QCOMPARE(model.idAt(0), QStringLiteral("11"));
    model.handleEvent(makeEvent(3, "audit.entry", auditEntry(13, "user", "carl", "bob")));
    QCOMPARE(model.count(), 1);
    model.setActorFilter({});
    model.setTargetFilter({});
    model.setKindFilter("user");
    QCOMPARE(model.count(), 1);
    QCOMPARE(model.kindOptions().size(), 19);
    QCOMPARE(model.kindOptions().at(0).toMap().value("value").toString(), QString());
    QCOMPARE(AuditLogModel::actorName(QStringLiteral("x")), QStringLiteral("x"));
    QCOMPARE(AuditLogModel::changedFieldsText({}), QString());
}

void TestConsole::auditLogPagesBack()
{
    AuditLogModel model(nullptr);
    QSignalSpy paging(&model, &AuditLogModel::pagingChanged);
    QJsonArray page;
    for (int id = 200; id > 200 - AuditLogModel::PageSize; --id)
        page.append(auditEntry(id, "order", QString::number(id), "console"));
    model.resetFrom(page);
    QVERIFY(model.hasOlder());
    QJsonArray older;
    for (int id = 200 - AuditLogModel::PageSize; id > 90; --id)
        older.append(auditEntry(id, "order", QString::number(id), "console"));
    older.append(auditEntry(150, "order", "dup", "console")); // already shown: not twice
    model.appendOlder(older);
    QCOMPARE(model.count(), 110);
    QCOMPARE(model.idAt(109), QStringLiteral("91"));
    QVERIFY(!model.hasOlder()); // a short page: nothing older is left
    QVERIFY(paging.count() >= 1);
    model.loadOlder(); // without a client: nothing happens
    QCOMPARE(model.count(), 110);
}

void TestConsole::auditLogMalformedAnswers()
{
    AuditLogModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.resetFrom({QJsonValue(7), QJsonValue("x"), QJsonObject{{"kind", "client"}},
                     QJsonObject{{"id", 5}, {"changes", "not a list"}, {"actor", 3}},
                     QJsonObject{{"id", "6"}, {"changes", QJsonArray{1, "x", QJsonObject{}}}}});
    QCOMPARE(model.count(), 1); // the numeric id is not what the API sends; "6" is
    QCOMPARE(model.index(0).data(AuditLogModel::ChangedFieldsRole).toString(), QString());
    QCOMPARE(model.index(0).data(AuditLogModel::AtTextRole).toString(), QStringLiteral("–"));
    model.handleEvent(makeEvent(1, "audit.entry", {}));
    model.appendOlder({QJsonValue(), QJsonArray{}});
    QCOMPARE(model.count(), 1);
}

void TestConsole::auditDetailChangesAndConsequences()
{
    AuditDetail detail(nullptr);
    QSignalSpy changed(&detail, &AuditDetail::changed);
    QJsonObject entry = auditEntry(
        3, "client", "finY", "alice (gatehouse-console/0.1 from 127.0.0.1)",
        {QJsonObject{{"field", "client_name"}, {"before", "Billing"}, {"after", "Billing service"}},
         QJsonObject{{"field", "access_token_lifetime"},
                     {"before", QJsonValue::Null},
                     {"after", 3600},
                     {"added", true}},
         QJsonObject{{"field", "contacts"},
                     {"before", QJsonArray{"a@example.com"}},
                     {"after", QJsonValue::Null},
                     {"removed", true}}});
    entry.insert(
        "consequences",
        QJsonObject{{"summary", "1 token(s) issued under this client record"},
                    {"until", "2026-11-21T19:28:38.950Z"},
                    {"items", QJsonArray{QJsonObject{{"clientId", "finY"},
                                                     {"issuedAt", "2026-11-21T19:28:38.873Z"},
                                                     {"kind", "access"},
                                                     {"subject", "finY"}}}}});
    detail.apply(entry);
    QCOMPARE(changed.count(), 1);
    QVERIFY(detail.loaded());
    QCOMPARE(detail.kind(), QStringLiteral("client"));
    QCOMPARE(detail.request(), QStringLiteral("PUT /admin/v1/x → 200"));
    const QVariantList changes = detail.changes();
    QCOMPARE(changes.size(), 3);
    QCOMPARE(changes.at(0).toMap().value("change").toString(), QStringLiteral("changed"));
    QCOMPARE(changes.at(0).toMap().value("after").toString(), QStringLiteral("Billing service"));
    QCOMPARE(changes.at(1).toMap().value("change").toString(), QStringLiteral("added"));
    QCOMPARE(changes.at(1).toMap().value("before").toString(), QString());
    QCOMPARE(changes.at(1).toMap().value("after").toString(), QStringLiteral("3600"));
    QCOMPARE(changes.at(2).toMap().value("change").toString(), QStringLiteral("removed"));
    QCOMPARE(changes.at(2).toMap().value("before").toString(),
             QStringLiteral("[\"a@example.com\"]"));
    QCOMPARE(detail.consequenceSummary(),
             QStringLiteral("1 token(s) issued under this client record"));
    QVERIFY(!detail.consequenceUntilText().isEmpty());
    QCOMPARE(detail.consequenceItems().size(), 1);
    QCOMPARE(detail.consequenceItems().at(0).toMap().value("text").toString(),
             QStringLiteral("access to finY (client finY)"));

    // Delivery attempts and cluster requests.
    const QVariantMap attempt = AuditDetail::itemLine(
        {{"deliveryId", "msg_1"}, {"status", QJsonValue::Null}, {"at", "2026-11-21T10:00:00Z"}});
    QCOMPARE(attempt.value("text").toString(), QStringLiteral("Delivery msg_1: no answer"));
    QVERIFY(attempt.value("failed").toBool());
    const QVariantMap ok = AuditDetail::itemLine({{"deliveryId", "msg_2"}, {"status", 200}});
    QCOMPARE(ok.value("text").toString(), QStringLiteral("Delivery msg_2: HTTP 200"));
    QVERIFY(!ok.value("failed").toBool());
    const QVariantMap denied = AuditDetail::itemLine(
        {{"code", 403}, {"method", "PATCH"}, {"path", "/api/v1/nodes/node-1"}, {"user", ""}});
    QCOMPARE(denied.value("text").toString(),
             QStringLiteral("Denied (403): PATCH /api/v1/nodes/node-1 by anonymous"));
    QVERIFY(denied.value("failed").toBool());
    QCOMPARE(AuditDetail::itemLine({{"what", true}}).value("text").toString(),
             QStringLiteral("what: true"));
    QCOMPARE(jsonValueText(1.5), QStringLiteral("1.5"));
    QCOMPARE(jsonValueText(QJsonValue::Null), QString());
}

void TestConsole::auditDetailMalformedEntry()
{
    AuditDetail detail(nullptr);
    detail.apply(
        {{"id", "1"}, {"changes", "oops"}, {"status", "200"}, {"consequences", QJsonArray{1, 2}}});
    QVERIFY(detail.loaded());
    QVERIFY(detail.changes().isEmpty());
    QCOMPARE(detail.consequenceSummary(), QString());
    QVERIFY(detail.consequenceItems().isEmpty());
    QCOMPARE(detail.request(), QStringLiteral("  → –"));
    detail.apply({{"id", "2"},
                  {"changes", QJsonArray{7, QJsonObject{}, QJsonObject{{"field", 3}}}},
                  {"consequences", QJsonObject{{"summary", 5}, {"items", QJsonArray{"x", 3}}}}});
    QCOMPARE(detail.changes().size(), 1); // the object, with an empty field name
    QVERIFY(detail.consequenceItems().isEmpty());
    detail.setEntryId("5"); // without a client: cleared, no crash
    QVERIFY(!detail.loaded());
}

void TestConsole::auditOverRealSockets()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    AuditLogModel model(&client);
    AuditDetail detail(&client);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(model.count(), AuditLogModel::PageSize, timeoutMs());
    QCOMPARE(model.idAt(0), QString::number(server.auditEntryCount()));
    model.loadOlder();
    QTRY_COMPARE_WITH_TIMEOUT(model.count(), server.auditEntryCount(), timeoutMs());
    QVERIFY(!model.hasOlder());
    const QString id = server.addAuditEntry("beer", "restock", "0631234200036", "bob", {});
    QTRY_COMPARE_WITH_TIMEOUT(model.idAt(0), id, timeoutMs());
    detail.setEntryId(model.idAt(1));
    QTRY_VERIFY_WITH_TIMEOUT(detail.loaded(), timeoutMs());
    QCOMPARE(detail.kind(), QStringLiteral("node"));
    QCOMPARE(detail.consequenceItems().size(), 2);
    // 403: the message instead of rows (the view's not-permitted pane, not an error to dismiss).
    server.setAuditForbidden(true);
    model.reload();
    QTRY_COMPARE_WITH_TIMEOUT(model.live()->state(), LiveState::NotPermitted, timeoutMs());
    QCOMPARE(model.live()->message(),
             QStringLiteral("this admin token may not read the audit log"));
    QCOMPARE(model.count(), 0);
    QVERIFY(model.error().isEmpty());
}

void TestConsole::redeliveryFilterAndRate()
{
    RedeliveryForm form(nullptr);
    QCOMPARE(form.filter(), (QJsonObject{{"state", "failed"}}));
    form.setCustomerId(" cu-1 ");
    form.setFrom("2026-11-21T08:00:00Z");
    form.setState("any");
    QCOMPARE(
        form.filter(),
        (QJsonObject{{"state", "any"}, {"customerId", "cu-1"}, {"from", "2026-11-21T08:00:00Z"}}));
    QCOMPARE(form.rate(), 10.0);
    form.setRateText("0,5");
    QCOMPARE(form.rate(), 0.5);
    for (const char *bad : {"0.05", "1001", "", "ten", "-1"}) {
        form.setRateText(QString::fromLatin1(bad));
        QVERIFY2(!form.rateValid(), bad);
    }
    form.setRateText("1000");
    QVERIFY(form.rateValid());
    form.reset();
    QCOMPARE(form.filter(), (QJsonObject{{"state", "failed"}}));
    QCOMPARE(form.rateText(), QStringLiteral("10"));
    QCOMPARE(form.stateOptions().size(), 3);
}

void TestConsole::redeliveryPreviewAndJobs()
{
    RedeliveryForm form(nullptr);
    QSignalSpy preview(&form, &RedeliveryForm::previewChanged);
    QVERIFY(!form.canStart());
    form.applyPreview(
        {{"capped", true},
         {"count", 10000},
         {"matching", 12345},
         {"deliveries", QJsonArray{QJsonObject{{"id", "msg_0123456789abcdef"},
                                               {"orderStatus", "NEW"},
                                               {"state", "failed"},
                                               {"url", "http://x/hook"},
                                               {"payload", "{\"orderStatus\":\"NEW\"}"}}}}});
    QVERIFY(form.previewed());
    QVERIFY(form.previewCapped());
    QCOMPARE(form.previewCount(), 10000);
    QCOMPARE(form.previewMatching(), 12345);
    QCOMPARE(form.previewItems().size(), 1);
    QCOMPARE(form.previewItems().at(0).toMap().value("shortId").toString(),
             QStringLiteral("msg_01234567"));
    QVERIFY(form.canStart());
    form.setRateText("0");
    QVERIFY(!form.canStart());
    form.setRateText("10");
    // A filter edit drops the preview.
    form.setOrderId("o-1");
    QVERIFY(!form.previewed());
    QVERIFY(!form.canStart());
    QCOMPARE(preview.count(), 2);

    // Jobs: newest first, progress from events, never backwards, the shown one followed.
    const auto job = [](const QString &id, const QString &state, int sent, const char *created) {
        return QJsonObject{{"id", id},
                           {"state", state},
                           {"total", 4},
                           {"sent", sent},
                           {"done", sent},
                           {"failed", 0},
                           {"createdAt", created},
                           {"ratePerSecond", 10},
                           {"filter", QJsonObject{{"state", "failed"}}}};
    };
    form.applyJobs({job("a", "completed", 4, "2026-11-21T08:00:00Z")});
    form.applyJob(job("b", "running", 0, "2026-11-21T09:00:00Z"));
    form.showJob("b");
    QCOMPARE(form.jobs().size(), 2);
    QCOMPARE(form.jobs().at(0).toMap().value("id").toString(), QStringLiteral("b"));
    QCOMPARE(form.jobs().at(1).toMap().value("filterText").toString(),
             QStringLiteral("state=failed"));
    QVERIFY(form.canCancel());
    QSignalSpy jobChanged(&form, &RedeliveryForm::jobChanged);
    form.handleEvent(
        makeEvent(1, "redelivery.progress", job("b", "running", 3, "2026-11-21T09:00:00Z")));
    QCOMPARE(form.jobSent(), 3);
    QCOMPARE(form.jobProgress(), 0.75);
    form.handleEvent(
        makeEvent(2, "redelivery.progress", job("b", "running", 2, "2026-11-21T09:00:00Z")));
    QCOMPARE(form.jobSent(), 3); // an older step
    form.handleEvent(
        makeEvent(3, "redelivery.progress", job("b", "cancelled", 3, "2026-11-21T09:00:00Z")));
    QCOMPARE(form.jobState(), QStringLiteral("cancelled"));
    QCOMPARE(form.jobStateText(), QStringLiteral("Cancelled"));
    form.handleEvent(
        makeEvent(4, "redelivery.progress", job("b", "running", 4, "2026-11-21T09:00:00Z")));
    QCOMPARE(form.jobState(), QStringLiteral("cancelled")); // an ended job stays ended
    QVERIFY(!form.canCancel());
    QCOMPARE(jobChanged.count(), 2);
    form.handleEvent(
        makeEvent(5, "delivery.state", job("c", "running", 0, "2026-11-21T10:00:00Z")));
    QCOMPARE(form.jobs().size(), 2);
}

void TestConsole::redeliveryMalformedAnswers()
{
    RedeliveryForm form(nullptr);
    form.applyPreview({{"count", "many"}, {"deliveries", "none"}, {"capped", 1}});
    QVERIFY(form.previewed());
    QCOMPARE(form.previewCount(), 0);
    QVERIFY(form.previewItems().isEmpty());
    QVERIFY(!form.canStart());
    form.applyPreview({{"deliveries", QJsonArray{1, "x", QJsonObject{}, QJsonArray{}}}});
    QVERIFY(form.previewItems().isEmpty());
    form.applyJob({});
    form.applyJob({{"id", 5}});
    form.applyJobs({1, QJsonObject{{"state", "running"}},
                    QJsonObject{{"id", "j"}, {"total", -3}, {"sent", "x"}}});
    QCOMPARE(form.jobs().size(), 1);
    form.showJob("j");
    QCOMPARE(form.jobTotal(), 0);
    QCOMPARE(form.jobProgress(), 0.0);
    QCOMPARE(form.jobStateText(), QString());
    form.handleEvent(makeEvent(1, "redelivery.progress", {}));
    form.preview(); // without a client: nothing happens
    form.start();
    form.cancel();
    QVERIFY(!form.busy());
}

void TestConsole::redeliveryOverRealSockets()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    RedeliveryForm form(&client);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    form.preview();
    QTRY_VERIFY_WITH_TIMEOUT(form.previewed(), timeoutMs());
    QCOMPARE(form.previewCount(), 2);
    form.start();
    QTRY_VERIFY_WITH_TIMEOUT(!form.jobId().isEmpty(), timeoutMs());
    QCOMPARE(form.jobState(), QStringLiteral("running"));
    QVERIFY(server.advanceRedelivery(form.jobId(), 5));
    QTRY_COMPARE_WITH_TIMEOUT(form.jobState(), QStringLiteral("completed"), timeoutMs());
    QCOMPARE(form.jobSent(), 2);
    form.cancel();
    QTRY_COMPARE_WITH_TIMEOUT(
        form.error(), QStringLiteral("redelivery job %1 is already completed").arg(form.jobId()),
        timeoutMs());
    form.setRateText("0.5");
    form.setState("bogus");
    form.preview();
    QTRY_COMPARE_WITH_TIMEOUT(
        form.error(), QStringLiteral("filter.state must be failed, succeeded or any"), timeoutMs());
}

void TestConsole::tokenPreviewClaimsAndCompare()
{
    TokenPreview preview(nullptr);
    preview.startFor(
        "c1", "Billing",
        {"client_credentials", "password", "urn:ietf:params:oauth:grant-type:jwt-bearer"});
    QCOMPARE(preview.grantOptions().size(), 2); // jwt-bearer cannot be previewed
    QCOMPARE(preview.grantType(), QStringLiteral("client_credentials"));
    QVERIFY(!preview.userGrant());
    preview.setScope(" orders:read ");
    preview.setUsername("alice"); // not sent for client_credentials
    QCOMPARE(preview.requestBody(), (QJsonObject{{"client_id", "c1"},
                                                 {"grant_type", "client_credentials"},
                                                 {"scope", "orders:read"}}));
    preview.setGrantType("password");
    QVERIFY(preview.userGrant());
    QCOMPARE(preview.requestBody().value("username").toString(), QStringLiteral("alice"));
    // The real backend's answer (copied).
    const QJsonObject answer = QJsonDocument::fromJson(R"({"alsoIssued":[],"claims":{
        "aud":"finY","client_id":"finY","exp":1795293853,"iat":1795290253,
        "iss":"http://127.0.0.1:45057","jti":"9yhw","scope":"orders:read","sub":"finY"},
        "clientId":"finY","format":"jwt","grantType":"client_credentials",
        "sources":{"aud":{"detail":"no resource requested: the client's own client_id","source":"clientRecord"},
        "iat":{"detail":"the time of issue","source":"time"},
        "scope":{"detail":"the scope parameter, each allowed by the client record","source":"requestedScope"}},
        "stored":false})")
                                   .object();
    preview.apply(answer);
    QVERIFY(preview.loaded());
    QCOMPARE(preview.format(), QStringLiteral("jwt"));
    QCOMPARE(preview.claims().size(), 8);
    const QVariantMap aud = preview.claims().at(0).toMap();
    QCOMPARE(aud.value("claim").toString(), QStringLiteral("aud"));
    QCOMPARE(aud.value("sourceText").toString(), QStringLiteral("client record"));
    QCOMPARE(preview.claims().at(2).toMap().value("value").toString(),
             QStringLiteral("1795293853"));
    QCOMPARE(preview.claims().at(1).toMap().value("source").toString(), QString()); // none given
    QVERIFY(!preview.comparing());
    QVERIFY(preview.differences().isEmpty());
    // Editing drops the result.
    preview.setScope("x");
    QVERIFY(!preview.loaded());

    // compare(): the grant from the payload, differences without iat/exp/jti.
    preview.compare(QVariantMap{{"client_id", "finY"},
                                {"sub", "finY"},
                                {"aud", "finY"},
                                {"scope", "orders:read orders:write"},
                                {"iat", 1},
                                {"jti", "x"},
                                {"iss", "http://127.0.0.1:45057"},
                                {"extra", true}});
    QVERIFY(preview.comparing());
    QCOMPARE(preview.grantType(), QStringLiteral("client_credentials"));
    QCOMPARE(preview.resource(), QString());
    preview.apply(answer);
    QStringList differing;
    for (const QVariant &d : preview.differences())
        differing.append(d.toMap().value("claim").toString());
    QCOMPARE(differing, (QStringList{"extra", "scope"}));
    preview.compare(QVariantMap{{"client_id", "c2"},
                                {"sub", "u-7"},
                                {"preferred_username", "bob"},
                                {"aud", "https://api.example"}});
    QCOMPARE(preview.grantType(), QStringLiteral("authorization_code"));
    QCOMPARE(preview.username(), QStringLiteral("bob"));
    QCOMPARE(preview.resource(), QStringLiteral("https://api.example"));
    preview.compare({});
    QVERIFY(!preview.error().isEmpty()); // no client named
}

void TestConsole::tokenPreviewMalformedAnswers()
{
    TokenPreview preview(nullptr);
    preview.apply({{"claims", "nope"}, {"sources", 3}, {"alsoIssued", "x"}});
    QVERIFY(preview.loaded());
    QVERIFY(preview.claims().isEmpty());
    QCOMPARE(preview.alsoIssuedText(), QString());
    preview.apply({{"claims", QJsonObject{{"a", QJsonArray{1, 2}}, {"b", QJsonValue::Null}}},
                   {"sources", QJsonObject{{"a", "not an object"}}},
                   {"alsoIssued", QJsonArray{1, "id_token"}}});
    QCOMPARE(preview.claims().size(), 2);
    QCOMPARE(preview.claims().at(0).toMap().value("value").toString(), QStringLiteral("[1,2]"));
    QCOMPARE(preview.alsoIssuedText(), QStringLiteral("id_token"));
    preview.preview(); // without a client: nothing happens
    QVERIFY(!preview.busy());
    QCOMPARE(TokenPreview::sourceText("somethingNew"), QStringLiteral("somethingNew"));
}

void TestConsole::jwtInspectorServerPart()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    JwtInspector inspector(&client);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    inspector.inspectToken(server.makeJwt(server.clientId(1), "orders:read", 600));
    QTRY_VERIFY_WITH_TIMEOUT(inspector.hasServer(), timeoutMs());
    QVERIFY(inspector.issuedHere());
    QCOMPARE(inspector.keyState(), QStringLiteral("active"));
    QCOMPARE(inspector.storedState(), QStringLiteral("notStored"));
    QVERIFY(!inspector.revocable());
    QVERIFY(inspector.clientExists());
    QVERIFY(inspector.warnings().isEmpty());
    QCOMPARE(inspector.payload().value("client_id").toString(), server.clientId(1));
    inspector.revoke(); // nothing stored: no call
    QVERIFY(!inspector.busy());
    // A token of a deleted client, for a user that is gone, signed by an unknown key.
    inspector.inspectToken(server.makeJwt("gone", "x", 600, {}, {{"sub", "u-1"}}));
    QTRY_COMPARE_WITH_TIMEOUT(inspector.payload().value("client_id").toString(),
                              QStringLiteral("gone"), timeoutMs());
    QVERIFY(!inspector.clientExists());
    QCOMPARE(inspector.clientText(), QStringLiteral("Client gone no longer exists"));
    QCOMPARE(inspector.userText(), QStringLiteral("User u-1 no longer exists"));
    // Times far beyond any qint64 of seconds (a token anyone may paste): read clamped, never
    // cast out of range (undefined; UBSan stopped the console, and its in-process backend).
    inspector.inspectToken(server.makeJwt(server.clientId(1), "x", 600, {},
                                          {{"exp", 1e300}, {"nbf", -1e300}, {"iat", 1e19}}));
    QTRY_COMPARE_WITH_TIMEOUT(inspector.payload().value("exp").toDouble(), 1e300, timeoutMs());
    QVERIFY(inspector.hasExpiry());
    QVERIFY(!inspector.expired());
    QVERIFY2(inspector.countdownText().startsWith(QStringLiteral("expires in ")),
             qPrintable(inspector.countdownText()));
    QCOMPARE(inspector.timeClaims().size(), 3);
}

void TestConsole::accessViewOAuthAnswers()
{
    AccessView view(nullptr);
    // The real backend's answers (shortened).
    view.applyOAuth("client", QJsonDocument::fromJson(R"({"actsForUsers":false,
        "audiences":[{"audience":"finY","detail":"the default: its own client_id","source":"clientRecord"}],
        "clientCredentials":{"claims":{"scope":"orders:read","sub":"finY"},
          "sources":{"sub":{"detail":"client_id: a client_credentials client acts for itself","source":"clientRecord"}}},
        "grantTypes":["client_credentials"],
        "scopes":[{"detail":"allowed by the scope of client \"Billing service\"","scope":"orders:read","source":"clientRecord"}],
        "subject":{"clientId":"finY","clientName":"Billing service","kind":"client"}})")
                                  .object());
    QVERIFY(view.loaded());
    QCOMPARE(view.subjectText(),
             QStringLiteral("Client Billing service (finY) · grant types: client_credentials"));
    QCOMPARE(view.scopes().size(), 1);
    QCOMPARE(view.audiences().size(), 1);
    QCOMPARE(view.claims().size(), 2);
    QCOMPARE(view.claims().at(1).toMap().value("sourceText").toString(),
             QStringLiteral("client record"));
    QCOMPARE(view.claims().at(0).toMap().value("sourceText").toString(), QString()); // none given
    view.applyOAuth("user",
                    QJsonDocument::fromJson(R"({"clients":[{"clientId":"B-Jb","clientName":"Till",
        "consent":null,"grantTypes":["password"],
        "scopes":[{"detail":"allowed","scope":"openid","source":"clientRecord"}],
        "accessToken":{"claims":{"sub":"e959"},"sources":{}},
        "idToken":{"claims":{"at_hash":"0OYY","sub":"e959"},"sources":{"at_hash":{"detail":"left half","source":"server"}}}}],
        "subject":{"groups":["staff"],"id":"e959","kind":"user","username":"alice"}})")
                        .object());
    QCOMPARE(view.subjectText(), QStringLiteral("User alice (e959) · groups: staff"));
    QCOMPARE(view.scopes().at(0).toMap().value("client").toString(), QStringLiteral("Till"));
    QCOMPARE(view.claims().size(), 3);
    QCOMPARE(view.claims().at(1).toMap().value("token").toString(),
             QStringLiteral("Till · id_token"));
    QVERIFY(view.audiences().isEmpty());
    QCOMPARE(view.clusterText(), QString()); // the answer said nothing about the cluster
    // Who the user is in the cluster, and the groups it drops.
    view.applyOAuth("user", QJsonDocument::fromJson(R"({"clients":[],
        "subject":{"groups":["ops","system:masters"],"id":"e959","kind":"user","username":"alice"},
        "cluster":{"reachable":true,"username":"https://gh#e959","audience":"kctl",
                   "groups":["ops","system:authenticated"],"droppedGroups":["system:masters"],
                   "droppedReason":"only through an oidc-group-mappings entry",
                   "clients":[{"clientId":"kctl","clientName":"kubectl"}]}})")
                                .object());
    QCOMPARE(view.clusterText(),
             QStringLiteral("In the cluster: https://gh#e959 · groups: ops, system:authenticated "
                            "· through: kubectl"));
    QCOMPARE(view.clusterDroppedText(),
             QStringLiteral("Dropped by the cluster: system:masters (only through an "
                            "oidc-group-mappings entry)"));
    view.applyOAuth("user", QJsonDocument::fromJson(R"({"clients":[],"subject":{"username":"bo"},
        "cluster":{"reachable":false,"reason":"no client is allowed to act for the cluster",
                   "groups":["system:authenticated"],"droppedGroups":[]}})")
                                .object());
    QCOMPARE(view.clusterText(),
             QStringLiteral("Not in the cluster: no client is allowed to act for the cluster"));
    QCOMPARE(view.clusterDroppedText(), QString());
}

void TestConsole::accessViewClusterAnswer()
{
    AccessView view(nullptr);
    view.applyCluster(QJsonDocument::fromJson(R"({"access":[
        {"apiGroup":"authorization.k8s.io","resource":"selfsubjectaccessreviews","scope":"cluster","verb":"create",
         "via":[{"bindingKind":"ClusterRoleBinding","bindingName":"system:basic-user","roleKind":"ClusterRole",
                 "roleName":"system:basic-user","ruleIndex":0,"subject":{"kind":"Group","name":"system:authenticated"}}]},
        {"apiGroup":"","resource":"pods","resourceNames":["a","b"],"scope":"namespace","namespace":"default","verb":"list","via":[]},
        {"nonResourceURL":"/healthz","scope":"cluster","verb":"get","via":[1]}],
        "notes":["anonymous access is off"],"privileged":true,
        "user":{"groups":["devs","system:authenticated"],"username":"bob"}})")
                          .object());
    QCOMPARE(view.mode(), QStringLiteral("cluster"));
    QVERIFY(view.privileged());
    QCOMPARE(view.notes(), QStringList{"anonymous access is off"});
    QCOMPARE(view.subjectText(), QStringLiteral("bob · groups: devs, system:authenticated"));
    QCOMPARE(view.cells().size(), 3);
    const QVariantMap first = view.cells().at(0).toMap();
    QCOMPARE(first.value("resourceText").toString(),
             QStringLiteral("selfsubjectaccessreviews.authorization.k8s.io"));
    QCOMPARE(first.value("viaText").toString(),
             QStringLiteral("ClusterRoleBinding system:basic-user → ClusterRole system:basic-user "
                            "rule 0 (Group system:authenticated)"));
    const QVariantMap pods = view.cells().at(1).toMap();
    QCOMPARE(pods.value("scopeText").toString(), QStringLiteral("namespace default"));
    QCOMPARE(pods.value("resourceText").toString(), QStringLiteral("pods [a, b]"));
    QCOMPARE(view.cells().at(2).toMap().value("resourceText").toString(),
             QStringLiteral("/healthz"));
    QCOMPARE(view.cells().at(2).toMap().value("viaCount").toInt(), 0);
}

void TestConsole::accessViewMalformedAnswers()
{
    AccessView view(nullptr);
    view.applyCluster({});
    QVERIFY(view.loaded());
    QVERIFY(view.cells().isEmpty());
    view.applyCluster({{"access", "x"}, {"notes", QJsonArray{1, "n"}}, {"user", 5}});
    QCOMPARE(view.notes(), QStringList{"n"});
    view.applyCluster({{"access", QJsonArray{1, QJsonObject{}, QJsonObject{{"verb", 3}}}}});
    QVERIFY(view.cells().isEmpty());
    view.applyOAuth(
        "user",
        {{"clients",
          QJsonArray{1, QJsonObject{},
                     QJsonObject{{"clientId", "c"}, {"scopes", "x"}, {"accessToken", 3}}}}});
    QVERIFY(view.scopes().isEmpty());
    QVERIFY(view.claims().isEmpty());
    view.applyOAuth("client",
                    {{"scopes", QJsonArray{QJsonObject{{"scope", 1}}}}, {"audiences", 7}});
    QVERIFY(view.scopes().isEmpty());
    view.loadClient("x"); // without a client: nothing happens
    QVERIFY(!view.busy());
    QVERIFY(!view.loaded());
}

void TestConsole::germanTranslation()
{
    QTranslator translator;
    QVERIFY(
        translator.load(QLocale(QLocale::German, QLocale::Germany), "gatehouse", "_", ":/i18n"));
    QCoreApplication::installTranslator(&translator);
    NavigationModel model;
    const QString title = model.index(0).data(NavigationModel::TitleRole).toString();
    const QString arrives = model.index(3).data(NavigationModel::ArrivesWithRole).toString();
    QCoreApplication::removeTranslator(&translator);
    QCOMPARE(title, QStringLiteral("Übersicht"));
    QVERIFY2(arrives.startsWith(QStringLiteral("Kommt mit")), qPrintable(arrives));
    // The orders console's texts from C++ (contexts of QCoreApplication::translate()).
    QCoreApplication::installTranslator(&translator);
    const QString pending = OrderStatus::displayName("PENDING_INVENTORY");
    const QString failed = DeliveryState::displayName("failed");
    const QString all = OrderStatus::filterOptions().at(0).toMap().value("text").toString();
    QCoreApplication::removeTranslator(&translator);
    QCOMPARE(pending, QStringLiteral("Wartet auf Bestand"));
    QCOMPARE(failed, QStringLiteral("Fehlgeschlagen"));
    QCOMPARE(all, QStringLiteral("Alle Status"));
    QCOMPARE(AdminClient::listenerTitle("service"), QStringLiteral("Service API"));
    // The OAuth pages' texts from C++.
    QCoreApplication::installTranslator(&translator);
    const ClientForm form(nullptr);
    const QString obsolete = form.grantOptions().constLast().toMap().value("note").toString();
    const QString countdown = JwtInspector::countdown(1000 + 3552, 1000);
    QCoreApplication::removeTranslator(&translator);
    QCOMPARE(obsolete, QStringLiteral("veraltet — OAuth 2.1 streicht ihn"));
    QCOMPARE(countdown, QStringLiteral("läuft ab in 59:12"));
    // The cluster pages' texts from C++.
    QCoreApplication::installTranslator(&translator);
    const NodeLabelEditor editor(nullptr, nullptr);
    const QString agent = editor.identityOptions().at(1).toMap().value("text").toString();
    const QString rule = RbacRoleModel::ruleText({{"apiGroups", QJsonArray{""}},
                                                  {"resources", QJsonArray{"nodes"}},
                                                  {"verbs", QJsonArray{"get", "patch"}}});
    QCoreApplication::removeTranslator(&translator);
    QCOMPARE(agent, QStringLiteral("Knoten-Agent"));
    QCOMPARE(rule, QStringLiteral("get, patch auf nodes (core)"));
    // The denial explainer's titles.
    QCoreApplication::installTranslator(&translator);
    const QString headline = ClusterDenial::headline("authorization", "Node, RBAC");
    const QVariantList misses = ClusterDenial::nearMissesOf(QJsonArray{QJsonObject{
        {"code", "namespace"},
        {"rules", QJsonArray{QJsonObject{{"codes", QJsonArray{"verb", "apiGroup"}}}}}}});
    QCoreApplication::removeTranslator(&translator);
    QCOMPARE(headline, QStringLiteral("Bei der Autorisierung abgelehnt von Node, RBAC"));
    QCOMPARE(misses.at(0).toMap().value("reasonText").toString(),
             QStringLiteral("anderer Namespace"));
    QCOMPARE(
        misses.at(0).toMap().value("rules").toList().at(0).toMap().value("missText").toString(),
        QStringLiteral("Verb, API-Gruppe"));
}

void TestConsole::frenchTranslation()
{
    QTranslator translator;
    QVERIFY(translator.load(QLocale(QLocale::French, QLocale::France), "gatehouse", "_", ":/i18n"));
    QCoreApplication::installTranslator(&translator);
    auto removeTranslator =
        qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
    NavigationModel model;
    QCOMPARE(model.index(0).data(NavigationModel::TitleRole).toString(),
             QStringLiteral("Synthèse"));
    QCOMPARE(model.titleAt(1), QStringLiteral("Clients OAuth"));
    QVERIFY2(model.arrivesWithAt(3).startsWith(QStringLiteral("Disponible avec")),
             qPrintable(model.arrivesWithAt(3)));
    // The orders console's texts from C++ (contexts of QCoreApplication::translate()).
    QCOMPARE(OrderStatus::displayName("PENDING_INVENTORY"), QStringLiteral("En attente de stock"));
    QCOMPARE(DeliveryState::displayName("failed"), QStringLiteral("Échouée"));
    QCOMPARE(OrderStatus::filterOptions().at(0).toMap().value("text").toString(),
             QStringLiteral("Tous les statuts"));
    QCOMPARE(AdminClient::listenerTitle("admin"), QStringLiteral("API d'administration"));
    // French plural forms: 0 and 1 take the singular.
    QCOMPARE(QCoreApplication::translate("DeliveriesPage", "%n failed", nullptr, 0),
             QStringLiteral("0 échouée"));
    QCOMPARE(QCoreApplication::translate("DeliveriesPage", "%n failed", nullptr, 1),
             QStringLiteral("1 échouée"));
    QCOMPARE(QCoreApplication::translate("DeliveriesPage", "%n failed", nullptr, 3),
             QStringLiteral("3 échouées"));
    // French typography: a no-break space before the colon.
    QCOMPARE(QCoreApplication::translate("ConnectDialog", "The server refused the token: %1"),
             QStringLiteral("Le serveur a refusé le jeton\u00a0: %1"));
    // The OAuth pages' texts from C++.
    const ClientForm form(nullptr);
    QCOMPARE(form.grantOptions().constLast().toMap().value("note").toString(),
             QStringLiteral("obsolète — OAuth 2.1 le supprime"));
    QCOMPARE(JwtInspector::countdown(1000 + 3552, 1000), QStringLiteral("expire dans 59:12"));
    // The cluster pages' texts from C++.
    const NodeLabelEditor editor(nullptr, nullptr);
    QCOMPARE(editor.identityOptions().at(1).toMap().value("text").toString(),
             QStringLiteral("Agent de nœud"));
    QCOMPARE(RbacRoleModel::ruleText({{"apiGroups", QJsonArray{""}},
                                      {"resources", QJsonArray{"nodes"}},
                                      {"verbs", QJsonArray{"get", "patch"}}}),
             QStringLiteral("get, patch sur nodes (core)"));
    QCOMPARE(ClusterDenial::headline("authorization", "Node, RBAC"),
             QStringLiteral("Refusée à l'autorisation par Node, RBAC"));
    const QVariantList misses = ClusterDenial::nearMissesOf(QJsonArray{QJsonObject{
        {"code", "namespace"},
        {"rules", QJsonArray{QJsonObject{{"codes", QJsonArray{"verb", "apiGroup"}}}}}}});
    QCOMPARE(misses.at(0).toMap().value("reasonText").toString(),
             QStringLiteral("autre namespace"));
    QCOMPARE(
        misses.at(0).toMap().value("rules").toList().at(0).toMap().value("missText").toString(),
        QStringLiteral("verbe, groupe d'API"));
}

void TestConsole::languageSwitchAtRuntime()
{
    // initTestCase() put QSettings below ~/.qttest; start without a saved choice.
    QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).remove("language");
    const QLocale systemDefault;
    auto restoreLocale = qScopeGuard([systemDefault] { QLocale::setDefault(systemDefault); });
    QCOMPARE(ConsoleLanguage::available(), (QStringList{"en", "de", "fr"}));
    QCOMPARE(ConsoleLanguage::languageFor(QLocale(QLocale::French, QLocale::Canada)), "fr");
    QCOMPARE(ConsoleLanguage::languageFor(QLocale(QLocale::Spanish)), "en");
    QCOMPARE(ConsoleLanguage::savedChoice(), QString());

    ConsoleServices services;
    ConsoleLanguage *language = services.language();
    QVERIFY(language->apply("en"));
    QQmlEngine engine;
    services.publishTo(&engine);
    // The header: its own texts (qsTr) and the selector.
    QQmlComponent component(&engine, QUrl("qrc:/Gatehouse/components/ConsoleHeader.qml"));
    std::unique_ptr<QObject> header(component.create());
    QVERIFY2(header, qPrintable(component.errorString()));
    QObject *connectButton = header->findChild<QObject *>("connectButton");
    QObject *selector = header->findChild<QObject *>("languageSelector");
    QVERIFY(connectButton && selector);
    QCOMPARE(connectButton->property("text").toString(), QStringLiteral("Connect…"));
    QCOMPARE(selector->property("currentText").toString(), QStringLiteral("English"));
    QCOMPARE(selector->property("count").toInt(), 4); // the system's, English, Deutsch, Français

    // Models whose texts come from C++, with something in them.
    NavigationModel *navigation = services.navigation();
    QAbstractItemModelTester tester(navigation,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    services.eventModel()->addEvent(makeEvent(1, "backend.started", {{"version", "0.1.0"}}));
    QCOMPARE(services.eventModel()->index(0).data(EventListModel::SummaryRole).toString(),
             QStringLiteral("Backend 0.1.0 started"));
    QSignalSpy titlesChanged(navigation, &QAbstractItemModel::dataChanged);
    QSignalSpy textsChanged(navigation, &NavigationModel::textsChanged);
    QSignalSpy eventsChanged(services.eventModel(), &QAbstractItemModel::dataChanged);
    QSignalSpy statusOptionsChanged(services.orders(), &OrderListModel::statusOptionsChanged);
    QSignalSpy languageChanged(language, &ConsoleLanguage::changed);
    QCOMPARE(navigation->index(0).data(NavigationModel::TitleRole).toString(),
             QStringLiteral("Dashboard"));

    // The selector chooses French: everything follows at once, and it is remembered.
    QVERIFY(language->choose("fr"));
    QCOMPARE(language->language(), QStringLiteral("fr"));
    QCOMPARE(language->choice(), QStringLiteral("fr"));
    QVERIFY(languageChanged.count() >= 1);
    QVERIFY(titlesChanged.count() >= 1);
    QVERIFY(textsChanged.count() >= 1);
    QCOMPARE(navigation->index(0).data(NavigationModel::TitleRole).toString(),
             QStringLiteral("Synthèse"));
    QCOMPARE(navigation->titles().at(0), QStringLiteral("Synthèse"));
    QCOMPARE(connectButton->property("text").toString(), QStringLiteral("Connexion…"));
    QCOMPARE(selector->property("currentIndex").toInt(), 3);
    QCOMPARE(selector->property("currentText").toString(), QStringLiteral("Français"));
    QVERIFY(eventsChanged.count() >= 1);
    QCOMPARE(services.eventModel()->index(0).data(EventListModel::SummaryRole).toString(),
             QStringLiteral("Backend 0.1.0 démarré"));
    QVERIFY(statusOptionsChanged.count() >= 1);
    QCOMPARE(services.orders()->statusOptions().at(0).toMap().value("text").toString(),
             QStringLiteral("Tous les statuts"));
    // Dates and numbers follow: the default locale is French.
    QCOMPARE(QLocale().language(), QLocale::French);
    QCOMPARE(ConsoleFormat::latency(1500), QStringLiteral("1,5 s"));
    QCOMPARE(engine.uiLanguage(), QStringLiteral("fr"));
    QCOMPARE(QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).value("language"),
             QVariant(QStringLiteral("fr")));
    QCOMPARE(ConsoleLanguage::savedChoice(), QStringLiteral("fr"));

    // German, through the selector itself.
    const int germanRow = 2;
    QCOMPARE(language->options().at(germanRow).toMap().value("value").toString(),
             QStringLiteral("de"));
    selector->setProperty("currentIndex", germanRow);
    QVERIFY(QMetaObject::invokeMethod(selector, "activated", Q_ARG(int, germanRow)));
    QCOMPARE(language->language(), QStringLiteral("de"));
    QCOMPARE(connectButton->property("text").toString(), QStringLiteral("Verbinden…"));
    QCOMPARE(navigation->titleAt(0), QStringLiteral("Übersicht"));
    QCOMPARE(QLocale().language(), QLocale::German);
    QCOMPARE(ConsoleLanguage::savedChoice(), QStringLiteral("de"));

    // A language the console does not have changes nothing.
    QVERIFY(!language->choose("es"));
    QCOMPARE(language->language(), QStringLiteral("de"));
    QCOMPARE(ConsoleLanguage::savedChoice(), QStringLiteral("de"));

    // Back to English: the source texts.
    QVERIFY(language->choose("en"));
    QCOMPARE(connectButton->property("text").toString(), QStringLiteral("Connect…"));
    QCOMPARE(navigation->titleAt(0), QStringLiteral("Dashboard"));
    QCOMPARE(services.eventModel()->index(0).data(EventListModel::SummaryRole).toString(),
             QStringLiteral("Backend 0.1.0 started"));

    // Following the system again forgets the choice.
    QVERIFY(language->choose(QString()));
    QCOMPARE(language->choice(), QString());
    QCOMPARE(language->currentIndex(), 0);
    QCOMPARE(language->language(), ConsoleLanguage::languageFor(QLocale::system()));
    QCOMPARE(ConsoleLanguage::savedChoice(), QString());
    QVERIFY(
        !QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).contains("language"));
    QVERIFY(language->apply("en"));
}

// ---- Appearance, window state -------------------------------------------------------------

namespace {

QPalette paletteWithWindow(const QColor &window, const QColor &text)
{
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    return palette;
}

// The system's preference comes from GTK_THEME too: none for these tests, restored after.
auto withoutGtkTheme()
{
    const QByteArray gtkTheme = qgetenv("GTK_THEME");
    const bool had = qEnvironmentVariableIsSet("GTK_THEME");
    qunsetenv("GTK_THEME");
    return qScopeGuard([gtkTheme, had] {
        if (had)
            qputenv("GTK_THEME", gtkTheme);
    });
}

} // namespace

void TestConsole::appearanceChoice()
{
    auto gtk = withoutGtkTheme();
    const QPalette before = QGuiApplication::palette();
    auto restorePalette = qScopeGuard([before] { QGuiApplication::setPalette(before); });
    QGuiApplication::setPalette(paletteWithWindow(QColor("#efefef"), Qt::black)); // a light desktop
    QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).remove("theme");
    QCOMPARE(ConsoleAppearance::available(), (QStringList{"system", "light", "dark"}));
    QCOMPARE(ConsoleAppearance::savedChoice(), QStringLiteral("system"));

    ConsoleServices services;
    ConsoleAppearance *appearance = services.appearance();
    QCOMPARE(appearance->choice(), QStringLiteral("system"));
    QVERIFY(!appearance->systemDark());
    QVERIFY(!appearance->dark());
    QQmlEngine engine;
    services.publishTo(&engine);
    // The header's selector, next to the language's; and Theme.qml, which binds to it.
    QQmlComponent component(&engine, QUrl("qrc:/Gatehouse/components/ConsoleHeader.qml"));
    std::unique_ptr<QObject> header(component.create());
    QVERIFY2(header, qPrintable(component.errorString()));
    QObject *selector = header->findChild<QObject *>("themeSelector");
    QVERIFY(selector);
    QCOMPARE(selector->property("count").toInt(), 3);
    QCOMPARE(selector->property("currentText").toString(), QStringLiteral("System (Light)"));
    QQmlComponent themeProbe(&engine);
    themeProbe.setData("import QtQuick\nimport Gatehouse\nQtObject { property bool dark: "
                       "Theme.dark; property color background: Theme.background }",
                       QUrl("qrc:/themeprobe.qml"));
    std::unique_ptr<QObject> theme(themeProbe.create());
    QVERIFY2(theme, qPrintable(themeProbe.errorString()));
    QCOMPARE(theme->property("dark").toBool(), false);
    QCOMPARE(theme->property("background").value<QColor>(), QColor("#f3f5f8"));

    // Dark, chosen in the selector: Theme follows at once, and it is remembered.
    QSignalSpy changed(appearance, &ConsoleAppearance::changed);
    selector->setProperty("currentIndex", 2);
    QVERIFY(QMetaObject::invokeMethod(selector, "activated", Q_ARG(int, 2)));
    QCOMPARE(appearance->choice(), QStringLiteral("dark"));
    QVERIFY(appearance->dark());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(theme->property("dark").toBool(), true);
    QCOMPARE(theme->property("background").value<QColor>(), QColor("#11161d"));
    QCOMPARE(QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).value("theme"),
             QVariant(QStringLiteral("dark")));
    QCOMPARE(ConsoleAppearance::savedChoice(), QStringLiteral("dark"));

    // A choice the console does not have is refused and changes nothing.
    QVERIFY(!appearance->choose(QStringLiteral("sepia")));
    QVERIFY(!appearance->choose(QString()));
    QVERIFY(!appearance->apply(QStringLiteral("Dark")));
    QCOMPARE(appearance->choice(), QStringLiteral("dark"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(ConsoleAppearance::savedChoice(), QStringLiteral("dark"));
    // ... and so is one found in the settings file (edited by hand, or by a newer console).
    QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).setValue("theme", "sepia");
    QCOMPARE(ConsoleAppearance::savedChoice(), QStringLiteral("system"));

    // Light; then following the system again forgets the choice.
    QVERIFY(appearance->choose(QStringLiteral("light")));
    QVERIFY(!appearance->dark());
    QCOMPARE(selector->property("currentIndex").toInt(), 1);
    QCOMPARE(ConsoleAppearance::savedChoice(), QStringLiteral("light"));
    // --theme: applied for the run, not saved.
    QVERIFY(appearance->apply(QStringLiteral("dark")));
    QCOMPARE(ConsoleAppearance::savedChoice(), QStringLiteral("light"));
    QVERIFY(appearance->choose(QStringLiteral("system")));
    QCOMPARE(appearance->currentIndex(), 0);
    QVERIFY(!appearance->dark());
    QVERIFY(!QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).contains("theme"));

    // The options follow the language ("System (Hell)").
    QVERIFY(services.language()->apply(QStringLiteral("de")));
    auto english = qScopeGuard([&services] { services.language()->apply(QStringLiteral("en")); });
    QCOMPARE(selector->property("currentText").toString(), QStringLiteral("System (Hell)"));
    QCOMPARE(selector->property("currentIndex").toInt(), 0);
}

void TestConsole::appearanceFollowsSystemPalette()
{
    auto gtk = withoutGtkTheme();
    const QPalette before = QGuiApplication::palette();
    auto restorePalette = qScopeGuard([before] { QGuiApplication::setPalette(before); });
    const QPalette light = paletteWithWindow(QColor("#efefef"), Qt::black);
    const QPalette dark = paletteWithWindow(QColor("#2a2a2a"), Qt::white);
    QVERIFY(!ConsoleAppearance::paletteIsDark(light));
    QVERIFY(ConsoleAppearance::paletteIsDark(dark));
    QGuiApplication::setPalette(light);

    ConsoleAppearance appearance;
    QVERIFY(appearance.apply(QStringLiteral("system")));
    QVERIFY(!appearance.dark());
    QSignalSpy changed(&appearance, &ConsoleAppearance::changed);
    QSignalSpy optionsChanged(&appearance, &ConsoleAppearance::optionsChanged);

    // The desktop turns dark while the console runs (the platform theme's palette changes).
    QGuiApplication::setPalette(dark);
    QTRY_VERIFY_WITH_TIMEOUT(appearance.systemDark(), timeoutMs());
    QVERIFY(appearance.dark());
    QCOMPARE(changed.count(), 1);
    QVERIFY(optionsChanged.count() >= 1);
    QCOMPARE(appearance.options().at(0).toMap().value("text").toString(),
             QStringLiteral("System (Dark)"));
    // An explicit choice wins over the system's.
    QVERIFY(appearance.apply(QStringLiteral("light")));
    QVERIFY(!appearance.dark());
    QVERIFY(appearance.systemDark());
    QVERIFY(appearance.apply(QStringLiteral("system")));
    QVERIFY(appearance.dark());

    // And light again.
    changed.clear();
    QGuiApplication::setPalette(light);
    QTRY_VERIFY_WITH_TIMEOUT(!appearance.systemDark(), timeoutMs());
    QVERIFY(!appearance.dark());
    QCOMPARE(changed.count(), 1);
    // A palette change that keeps the preference is no change.
    QGuiApplication::setPalette(paletteWithWindow(QColor("#fafafa"), Qt::black));
    QCOMPARE(changed.count(), 1);
}

void TestConsole::appearanceGtkTheme_data()
{
    QTest::addColumn<QString>("gtkTheme");
    QTest::addColumn<bool>("dark");
    QTest::newRow("unset") << QString() << false;
    QTest::newRow("Adwaita") << "Adwaita" << false;
    QTest::newRow("Adwaita:dark") << "Adwaita:dark" << true;
    QTest::newRow("Adwaita:DARK") << "Adwaita:DARK" << true;
    QTest::newRow("Adwaita-dark") << "Adwaita-dark" << true;
    QTest::newRow("Yaru:light") << "Yaru:light" << false;
    QTest::newRow("Darkly") << "Darkly" << false;
}

void TestConsole::appearanceGtkTheme()
{
    QFETCH(QString, gtkTheme);
    QFETCH(bool, dark);
    QCOMPARE(ConsoleAppearance::gtkThemeIsDark(gtkTheme), dark);

    // GTK_THEME overrides a light platform palette (GTK applications are dark then, too).
    auto gtk = withoutGtkTheme();
    const QPalette before = QGuiApplication::palette();
    auto restorePalette = qScopeGuard([before] { QGuiApplication::setPalette(before); });
    QGuiApplication::setPalette(paletteWithWindow(QColor("#efefef"), Qt::black));
    if (!gtkTheme.isNull())
        qputenv("GTK_THEME", gtkTheme.toUtf8());
    ConsoleAppearance appearance;
    QCOMPARE(appearance.systemDark(), dark);
    QCOMPARE(appearance.dark(), dark);
    qunsetenv("GTK_THEME");
}

void TestConsole::windowPositionOnScreen_data()
{
    QTest::addColumn<QRect>("geometry");
    QTest::addColumn<QList<QRect>>("screens");
    QTest::addColumn<bool>("reachable");
    const QRect hd(0, 0, 1920, 1080);
    const QRect right(1920, 0, 1280, 1024);
    QTest::newRow("on the screen") << QRect(40, 50, 900, 600) << QList<QRect>{hd} << true;
    QTest::newRow("monitor unplugged") << QRect(2000, 100, 900, 600) << QList<QRect>{hd} << false;
    QTest::newRow("on the second monitor")
        << QRect(2000, 100, 900, 600) << QList<QRect>{hd, right} << true;
    QTest::newRow("100 px on screen") << QRect(1820, 100, 900, 600) << QList<QRect>{hd} << true;
    QTest::newRow("40 px on screen") << QRect(1880, 100, 900, 600) << QList<QRect>{hd} << false;
    QTest::newRow("above the screen") << QRect(100, -590, 900, 600) << QList<QRect>{hd} << false;
    QTest::newRow("far away") << QRect(-30000, -30000, 900, 600) << QList<QRect>{hd} << false;
    QTest::newRow("no screens") << QRect(40, 50, 900, 600) << QList<QRect>{} << false;
}

void TestConsole::windowPositionOnScreen()
{
    QFETCH(QRect, geometry);
    QFETCH(QList<QRect>, screens);
    QFETCH(bool, reachable);
    QCOMPARE(ConsoleWindowState::reachable(geometry, screens), reachable);

    NavigationModel navigation;
    ConsoleWindowState windowState(&navigation);
    const QVariantMap properties =
        windowState.initialProperties({geometry, false, QStringLiteral("orders")}, screens);
    QCOMPARE(properties.value("width").toInt(), geometry.width());
    QCOMPARE(properties.value("height").toInt(), geometry.height());
    // An unreachable position is left to the window manager.
    QCOMPARE(properties.contains("x"), reachable);
    QCOMPARE(properties.contains("y"), reachable);
    if (reachable)
        QCOMPARE(QPoint(properties.value("x").toInt(), properties.value("y").toInt()),
                 geometry.topLeft());
    QCOMPARE(properties.value("currentPage").toInt(), navigation.indexOf("orders"));
    QVERIFY(!properties.contains("visibility"));
}

void TestConsole::renderingDefaultsLeaveTheUsersChoice()
{
    const QByteArray width = qgetenv("QSG_ATLAS_WIDTH");
    const QByteArray height = qgetenv("QSG_ATLAS_HEIGHT");
    qunsetenv("QSG_ATLAS_WIDTH");
    qputenv("QSG_ATLAS_HEIGHT", "2048");
    Gatehouse::Console::setRenderingDefaults();
    QCOMPARE(qgetenv("QSG_ATLAS_WIDTH"), QByteArray("512"));
    QCOMPARE(qgetenv("QSG_ATLAS_HEIGHT"), QByteArray("2048")); // set by the user: kept
    for (const auto &[name, value] :
         {std::pair{"QSG_ATLAS_WIDTH", width}, std::pair{"QSG_ATLAS_HEIGHT", height}}) {
        if (value.isNull())
            qunsetenv(name);
        else
            qputenv(name, value);
    }
}

void TestConsole::softwareRendererWithoutAGpu()
{
    using Gatehouse::Console::sceneGraphFor;
    const char *const names[] = {"QT_QUICK_BACKEND", "QSG_RHI_BACKEND", "LIBGL_ALWAYS_SOFTWARE",
                                 "GALLIUM_DRIVER"};
    QHash<QByteArray, QByteArray> saved;
    for (const char *name : names) {
        if (qEnvironmentVariableIsSet(name))
            saved.insert(name, qgetenv(name));
        qunsetenv(name);
    }
    const auto restore = qScopeGuard([&] {
        for (const char *name : names) {
            if (saved.contains(name))
                qputenv(name, saved.value(name));
            else
                qunsetenv(name);
        }
    });
    QTemporaryDir dev;
    QVERIFY(dev.isValid());
    auto touch = [&](const QString &path) {
        QVERIFY(QDir(dev.path()).mkpath(QFileInfo(dev.filePath(path)).path()));
        QFile f(dev.filePath(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
    };

    // No GPU device: llvmpipe would draw, so Qt Quick's software renderer does.
    auto choice = sceneGraphFor(dev.path());
    QVERIFY(choice.software);
    QVERIFY2(choice.reason.contains(QLatin1String("no GPU device")), qPrintable(choice.reason));
    QDir(dev.path()).mkdir(QStringLiteral("dri"));
    QVERIFY(sceneGraphFor(dev.path()).software); // an empty /dev/dri is no GPU either

    // The user's choice is Qt's to apply, whatever the machine has.
    qputenv("QSG_RHI_BACKEND", "opengl");
    choice = sceneGraphFor(dev.path());
    QVERIFY(!choice.software);
    QVERIFY2(choice.reason.contains(QLatin1String("QSG_RHI_BACKEND")), qPrintable(choice.reason));
    qunsetenv("QSG_RHI_BACKEND");
    qputenv("QT_QUICK_BACKEND", "software");
    QVERIFY(!sceneGraphFor(dev.path()).software); // Qt itself switches; nothing to add
    qunsetenv("QT_QUICK_BACKEND");

    // A render node or NVIDIA's control device: Qt's default (OpenGL on the GPU).
    touch(QStringLiteral("dri/renderD128"));
    choice = sceneGraphFor(dev.path());
    QVERIFY(!choice.software);
    QVERIFY2(choice.reason.contains(QLatin1String("renderD128")), qPrintable(choice.reason));
    // ...unless Mesa is told to rasterize in software.
    qputenv("LIBGL_ALWAYS_SOFTWARE", "1");
    QVERIFY(sceneGraphFor(dev.path()).software);
    qunsetenv("LIBGL_ALWAYS_SOFTWARE");
    qputenv("GALLIUM_DRIVER", "llvmpipe");
    QVERIFY(sceneGraphFor(dev.path()).software);
    qputenv("GALLIUM_DRIVER", "iris");
    QVERIFY(!sceneGraphFor(dev.path()).software);
    qunsetenv("GALLIUM_DRIVER");
    QVERIFY(QFile::remove(dev.filePath(QStringLiteral("dri/renderD128"))));
    touch(QStringLiteral("nvidiactl"));
    choice = sceneGraphFor(dev.path());
    QVERIFY(!choice.software);
    QVERIFY2(choice.reason.contains(QLatin1String("nvidiactl")), qPrintable(choice.reason));
}

void TestConsole::windowStateSavedWhenClosed()
{
    QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).remove("window");
    NavigationModel navigation;
    ConsoleWindowState windowState(&navigation);
    // Nothing saved yet: Main.qml's own size, the first page.
    QCOMPARE(ConsoleWindowState::saved().geometry, QRect());
    QVERIFY(windowState.initialProperties(ConsoleWindowState::saved(), {QRect(0, 0, 1920, 1080)})
                .isEmpty());

    QQmlEngine engine;
    QQmlComponent component(&engine);
    component.setData("import QtQuick\nWindow { property int currentPage: 0; width: 640; "
                      "height: 480 }",
                      QUrl("qrc:/windowprobe.qml"));
    std::unique_ptr<QObject> object(component.create());
    auto *window = qobject_cast<QQuickWindow *>(object.get());
    QVERIFY2(window, qPrintable(component.errorString()));
    window->setGeometry(QRect(40, 50, 900, 600));
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    windowState.track(window);
    window->setProperty("currentPage", navigation.indexOf("rbac"));
    window->setGeometry(QRect(60, 70, 950, 640));
    // (The geometry change arrives as an event.)
    QTRY_COMPARE_WITH_TIMEOUT(windowState.current().geometry, QRect(60, 70, 950, 640), timeoutMs());

    // Maximized: the normal geometry is kept for when it is restored again.
    window->setWindowStates(Qt::WindowMaximized);
    QTRY_VERIFY_WITH_TIMEOUT(window->windowStates().testFlag(Qt::WindowMaximized), timeoutMs());
    QCOMPARE(windowState.current().geometry, QRect(60, 70, 950, 640));
    QVERIFY(windowState.current().maximized);

    // Saved when it closes.
    QCOMPARE(ConsoleWindowState::saved().geometry, QRect());
    window->close();
    const ConsoleWindowState::State saved = ConsoleWindowState::saved();
    QCOMPARE(saved.geometry, QRect(60, 70, 950, 640));
    QVERIFY(saved.maximized);
    QCOMPARE(saved.page, QStringLiteral("rbac"));

    // What the next start gets: the same, maximized, on the RBAC page.
    const QVariantMap properties = windowState.initialProperties(saved, {QRect(0, 0, 1920, 1080)});
    QCOMPARE(properties.value("x").toInt(), 60);
    QCOMPARE(properties.value("y").toInt(), 70);
    QCOMPARE(properties.value("width").toInt(), 950);
    QCOMPARE(properties.value("height").toInt(), 640);
    QCOMPARE(properties.value("visibility").toInt(), int(QWindow::Maximized));
    QCOMPARE(properties.value("currentPage").toInt(), navigation.indexOf("rbac"));
    // On a smaller screen it is no larger than the screen; a page that is gone is not restored.
    const QVariantMap small = windowState.initialProperties(
        {QRect(0, 0, 1600, 1000), false, QStringLiteral("gone")}, {QRect(0, 0, 1280, 800)});
    QCOMPARE(small.value("width").toInt(), 1280);
    QCOMPARE(small.value("height").toInt(), 800);
    QVERIFY(!small.contains("currentPage"));
    QVERIFY(!small.contains("visibility"));
}

void TestConsole::windowStateRestoredAtStart()
{
    // As run() does: Main.qml created with the saved state as initial properties.
    QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).remove("window");
    ConsoleWindowState::save({QRect(30, 40, 1000, 700), false, QStringLiteral("deliveries")});
    ConsoleServices services;
    QQmlEngine engine;
    services.publishTo(&engine);
    ConsoleWindowState windowState(services.navigation());
    QList<QRect> screens = ConsoleWindowState::screens();
    QVERIFY(!screens.isEmpty());
    screens = {QRect(0, 0, 1920, 1080)}; // the offscreen platform's screen is 800 x 600
    QQmlComponent component(&engine, QUrl("qrc:/Gatehouse/Main.qml"));
    std::unique_ptr<QObject> object(component.createWithInitialProperties(
        windowState.initialProperties(ConsoleWindowState::saved(), screens)));
    auto *window = qobject_cast<QQuickWindow *>(object.get());
    QVERIFY2(window, qPrintable(component.errorString()));
    QCOMPARE(window->property("currentPage").toInt(), services.navigation()->indexOf("deliveries"));
    QObject *pages = window->findChild<QObject *>("pages");
    QVERIFY(pages);
    QCOMPARE(pages->property("currentIndex").toInt(), services.navigation()->indexOf("deliveries"));
    QCOMPARE(window->width(), 1000);
    QCOMPARE(window->height(), 700);
    QCOMPARE(window->position(), QPoint(30, 40));
    windowState.track(window);
    window->setProperty("currentPage", services.navigation()->indexOf("audit"));
    window->close();
    QCOMPARE(ConsoleWindowState::saved().page, QStringLiteral("audit"));
    QVERIFY(!ConsoleWindowState::saved().maximized);

    // Left maximized: it opens maximized, and keeps the normal geometry for later.
    ConsoleWindowState::save({QRect(30, 40, 1000, 700), true, QStringLiteral("orders")});
    ConsoleWindowState again(services.navigation());
    std::unique_ptr<QObject> maximizedObject(component.createWithInitialProperties(
        again.initialProperties(ConsoleWindowState::saved(), screens)));
    auto *maximized = qobject_cast<QQuickWindow *>(maximizedObject.get());
    QVERIFY(maximized);
    QTRY_VERIFY_WITH_TIMEOUT(maximized->windowStates().testFlag(Qt::WindowMaximized), timeoutMs());
    QVERIFY(maximized->isVisible());
    QCOMPARE(maximized->property("currentPage").toInt(), services.navigation()->indexOf("orders"));
    again.track(maximized);
    QCOMPARE(again.current().geometry, QRect(30, 40, 1000, 700));
    maximized->close();
    QVERIFY(ConsoleWindowState::saved().maximized);
    QCOMPARE(ConsoleWindowState::saved().geometry, QRect(30, 40, 1000, 700));
}

// ---- AdminClient -------------------------------------------------------------------------

void TestConsole::goesOnlineAndFollowsStats_data()
{
    QTest::addColumn<bool>("chunked");
    QTest::newRow("close-delimited") << false;
    QTest::newRow("chunked") << true;
}

void TestConsole::goesOnlineAndFollowsStats()
{
    QFETCH(bool, chunked);
    TestAdminServer server(Token);
    server.setChunked(chunked);
    QVERIFY(server.listen());

    AdminClient client;
    QSignalSpy stateChanged(&client, &AdminClient::connectionStateChanged);
    QCOMPARE(client.connectionState(), AdminClient::Disconnected);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QCOMPARE(client.connectionState(), AdminClient::Connecting);
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(server.openStreams(), 1, timeoutMs());

    QCOMPARE(client.adminUrl(), server.url());
    QCOMPARE(client.serverVersion(), QStringLiteral("0.1.0"));
    QVERIFY(client.uptimeSeconds() >= 12);
    QCOMPARE(client.startedAt(), QDateTime(QDate(2026, 11, 21), QTime(8, 0), Qt::UTC));
    QCOMPARE(client.database().value("driverName").toString(), QStringLiteral("SQLite"));
    QCOMPARE(client.requestCounts().value("service").toInt(), 42);
    QCOMPARE(client.listeners().size(), 3);
    const QVariantMap cluster = client.listeners().at(1).toMap();
    QCOMPARE(cluster.value("name").toString(), QStringLiteral("cluster"));
    QCOMPARE(cluster.value("title").toString(), QStringLiteral("Cluster API"));
    QCOMPARE(cluster.value("tls").toBool(), true);
    QCOMPARE(cluster.value("requests").toInt(), 7);
    QVERIFY(client.lastError().isEmpty());
    QCOMPARE(server.authorizationHeaders().value(0), "Bearer " + Token);

    QSignalSpy countsChanged(&client, &AdminClient::requestCountsChanged);
    QSignalSpy listenersChanged(&client, &AdminClient::listenersChanged);
    QSignalSpy received(&client, &AdminClient::eventReceived);
    server.sendEvent("stats",
                     {{"requests", QJsonObject{{"service", 50}, {"cluster", 8}, {"admin", 5}}},
                      {"uptimeSeconds", 100}});
    QTRY_COMPARE_WITH_TIMEOUT(client.eventCount(), 1, timeoutMs());
    QCOMPARE(received.count(), 1);
    QCOMPARE(client.requestCounts().value("service").toInt(), 50);
    QCOMPARE(client.requestCounts().value("admin").toInt(), 5);
    QCOMPARE(client.listeners().at(0).toMap().value("requests").toInt(), 50);
    QVERIFY(client.uptimeSeconds() >= 100);
    QCOMPARE(countsChanged.count(), 1);
    QCOMPARE(listenersChanged.count(), 1);
    QVERIFY(client.lastEventAt().isValid());
    ListenerModel *listenerModel = client.listenerModel();
    QCOMPARE(listenerModel->rowCount(), 3);
    QCOMPARE(listenerModel->index(0).data(ListenerModel::RequestsRole).toLongLong(), qlonglong(50));

    // An unchanged stats event changes no property.
    server.sendEvent("stats", {{"requests", QJsonObject{{"service", 50}}}});
    QTRY_COMPARE_WITH_TIMEOUT(client.eventCount(), 2, timeoutMs());
    QCOMPARE(countsChanged.count(), 1);
    QCOMPARE(listenersChanged.count(), 1);

    // Keepalives are not events.
    server.sendRaw(": keepalive\n\n");
    server.sendEvent("order.created", {{"orderId", "o_1"}});
    QTRY_COMPARE_WITH_TIMEOUT(client.eventCount(), 3, timeoutMs());

    QCOMPARE(stateChanged.count(), 2); // Connecting, Online
}

void TestConsole::eventsReachTheModel()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    ConsoleServices services;
    EventListModel *model = services.eventModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    services.adminClient()->connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(server.openStreams(), 1, timeoutMs());

    server.sendEvent("backend.started", {{"version", "0.1.0"}});
    server.sendEvent("stats", {{"uptimeSeconds", 3}});
    server.sendEvent("delivery.attempted", {{"status", 503}, {"attempt", 2}});
    QTRY_COMPARE_WITH_TIMEOUT(services.adminClient()->eventCount(), 3, timeoutMs());
    QCOMPARE(model->rowCount(), 2); // stats hidden by default
    QCOMPARE(model->index(0).data(EventListModel::TypeRole).toString(),
             QStringLiteral("delivery.attempted"));
    QCOMPARE(model->index(0).data(EventListModel::SummaryRole).toString(),
             QStringLiteral("attempt=2, status=503"));
    QCOMPARE(model->index(1).data(EventListModel::SummaryRole).toString(),
             QStringLiteral("Backend 0.1.0 started"));

    // Not an envelope: still shown, as raw text.
    server.sendRaw("event: mystery\ndata: <<binary-ish>>\n\n");
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, timeoutMs());
    QCOMPARE(model->index(0).data(EventListModel::TypeRole).toString(), QStringLiteral("mystery"));
    QCOMPARE(model->index(0).data(EventListModel::SummaryRole).toString(),
             QStringLiteral("<<binary-ish>>"));
}

void TestConsole::unauthorizedDoesNotRetry()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(20ms, 40ms);
    client.connectTo(server.url(), QStringLiteral("wrong-token"));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Unauthorized, timeoutMs());
    QCOMPARE(client.lastError(), QStringLiteral("admin token missing or invalid"));
    QCOMPARE(server.unauthorizedRequests(), 1);

    // Several backoff periods later the server has still seen one request: no hammering.
    // (A settle on purpose: it proves that no retry comes; the refusal came first, above.)
    QTest::qWait(300);
    QCOMPARE(server.unauthorizedRequests(), 1);
    QCOMPARE(client.connectionState(), AdminClient::Unauthorized);
    client.refresh();  // does not retry a refused token either
    QTest::qWait(100); // a settle again: a retry would have left at once
    QCOMPARE(server.unauthorizedRequests(), 1);

    // A new token is a new attempt.
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    QVERIFY(client.lastError().isEmpty());

    AdminClient noToken;
    noToken.connectTo(server.url(), QString());
    QCOMPARE(noToken.connectionState(), AdminClient::Unauthorized);
    QVERIFY(!noToken.lastError().isEmpty());
}

void TestConsole::tokenRefusedAfterRestart()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(20ms, 100ms);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());

    // The backend comes back with a rotated admin token.
    const quint16 port = server.port();
    server.stop();
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Offline, timeoutMs());
    server.setToken("rotated");
    QVERIFY(server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Unauthorized, timeoutMs());
    const int refused = server.unauthorizedRequests();
    QTest::qWait(300); // a settle on purpose (backoff is 20-100 ms): proves that no retry comes
    QCOMPARE(server.unauthorizedRequests(), refused);
}

// Over plain http (loopback) the admin token goes only to a listener that proves it holds it
// (GET /admin-proof with the token's proof, at the address and port connected to): a program
// that took the port of a Gatehouse that stopped (a restart, a dropped SSH tunnel), or that
// listens on the other address of "localhost", is sent nothing, and the console tries again
// until the Gatehouse is back. Before, every attempt sent it the token.
void TestConsole::plainHttpTokenGoesOnlyToAListenerThatProvesIt()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    server.setForgeProof(true); // whoever holds the port now
    AdminClient client;
    client.setReconnectDelays(20ms, 40ms);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Offline, timeoutMs());
    QVERIFY2(client.lastError().contains(QStringLiteral("did not prove that it is the Gatehouse "
                                                        "holding this admin token, so the token "
                                                        "was not sent")),
             qPrintable(client.lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(server.proofRequests() >= 3, timeoutMs()); // tried again
    // A page's call meanwhile (the JWT decoder's) is not sent either.
    std::optional<ApiResult> meanwhile;
    client.callApi({"POST", "/jwt/inspect", {}, QJsonObject{{"token", "x.y.z"}}}, this,
                   [&meanwhile](const ApiResult &r) { meanwhile = r; });
    QTRY_VERIFY_WITH_TIMEOUT(meanwhile.has_value(), timeoutMs());
    QCOMPARE(meanwhile->errorMessage, QStringLiteral("Not connected to a Gatehouse server"));
    QVERIFY(server.authorizationHeaders().isEmpty());
    QVERIFY(server.requestLog().isEmpty());
    server.setForgeProof(false); // the Gatehouse is back
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    QCOMPARE(server.authorizationHeaders().value(0), "Bearer " + Token);
    // Then a URL that is refused (plain http beyond loopback), with another token: a page's
    // call is not sent with it to the address proved before (at the new URL's port).
    QTcpServer otherPort;
    QVERIFY(otherPort.listen(QHostAddress::LocalHost));
    QSignalSpy reached(&otherPort, &QTcpServer::newConnection);
    client.connectTo(
        QUrl(QStringLiteral("http://gatehouse.example:%1").arg(otherPort.serverPort())),
        QStringLiteral("another-token"));
    QCOMPARE(client.connectionState(), AdminClient::Disconnected);
    std::optional<ApiResult> refusedCall;
    client.callApi({"POST", "/jwt/inspect", {}, QJsonObject{{"token", "x.y.z"}}}, this,
                   [&refusedCall](const ApiResult &r) { refusedCall = r; });
    QTRY_VERIFY_WITH_TIMEOUT(refusedCall.has_value(), timeoutMs());
    QCOMPARE(refusedCall->errorMessage, QStringLiteral("Not connected to a Gatehouse server"));
    QCOMPARE(reached.count(), 0);
    QVERIFY(!server.authorizationHeaders().contains("Bearer another-token"));
    client.disconnectFromServer();

    // "localhost": another program on its other address (::1) is never sent the token; the
    // Gatehouse on 127.0.0.1 is found whichever the system names first.
    QTcpServer squatter;
    if (!squatter.listen(QHostAddress::LocalHostIPv6, server.port()))
        QSKIP("no IPv6 loopback here");
    QByteArray seen;
    connect(&squatter, &QTcpServer::newConnection, &squatter, [&] {
        while (QTcpSocket *s = squatter.nextPendingConnection()) {
            connect(s, &QTcpSocket::readyRead, s, [s, &seen] {
                seen += s->readAll();
                s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         "Content-Length: 18\r\n\r\n{\"proof\":\"forged\"}");
            });
        }
    });
    QUrl byName = server.url();
    byName.setHost(QStringLiteral("localhost"));
    AdminClient named;
    named.setReconnectDelays(20ms, 40ms);
    named.connectTo(byName, QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(named.connectionState(), AdminClient::Online, timeoutMs());
    QVERIFY2(!seen.contains(Token) && !seen.contains("Authorization"), seen.constData());
    // Every request after the proof goes to the address that gave it.
    QTRY_VERIFY_WITH_TIMEOUT(server.requestLog().contains(QStringLiteral("GET /admin/v1/events")),
                             timeoutMs());
    QVERIFY2(!seen.contains("/admin/v1/"), seen.constData());
}

void TestConsole::offlineThenBackOnlineOnRestart()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(50ms, 400ms);
    QSignalSpy received(&client, &AdminClient::eventReceived);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(server.openStreams(), 1, timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    server.sendEvent("backend.started", {{"version", "0.1.0"}});
    const qint64 lastSeq = server.sendEvent("order.created", {{"orderId", "o_1"}});
    QTRY_COMPARE_WITH_TIMEOUT(client.eventCount(), 2, timeoutMs());

    const quint16 port = server.port();
    server.stop();
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Offline, timeoutMs());
    QVERIFY(!client.lastError().isEmpty());
    const qint64 frozenUptime = client.uptimeSeconds();
    // Two ticks of the console's one-second clock (it runs while offline): more than a second.
    QSignalSpy ticks(&client, &AdminClient::tick);
    QTRY_VERIFY_WITH_TIMEOUT(ticks.count() >= 2, timeoutMs());
    QCOMPARE(client.uptimeSeconds(), frozenUptime); // no ticking while offline

    // Events that happen while we are away are replayed after the reconnect.
    server.sendEvent("order.created", {{"orderId", "o_2"}});
    QVERIFY(server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    QCOMPARE(server.lastEventIdHeader(), QByteArray::number(lastSeq));
    QTRY_COMPARE_WITH_TIMEOUT(client.eventCount(), 3,
                              timeoutMs()); // o_2 once; the replayed o_1 is not counted twice
    QCOMPARE(received.count(), 3);
    QCOMPARE(received.last().at(0).value<AdminEvent>().data.value("orderId").toString(),
             QStringLiteral("o_2"));
    QVERIFY(client.lastError().isEmpty());
}

void TestConsole::liveViewTurnsStaleWhenBackendStopsAndResyncs()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(50ms, 400ms);
    OrderListModel orders(&client);
    LiveState *live = orders.live();
    QCOMPARE(live->state(), LiveState::Idle);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveState::Live, timeoutMs());
    QVERIFY(live->permitted());
    QVERIFY2(live->detail().startsWith(QStringLiteral("synced ")), qPrintable(live->detail()));
    const int before = orders.count();
    const QDateTime firstSync = live->syncedAt();
    QVERIFY(firstSync.isValid());

    // A change through the stream is the view's last change.
    const QString live1 =
        server.createOrder(server.customerId(0), "LIVE-1", {}, {}).value("id").toString();
    QTRY_COMPARE_WITH_TIMEOUT(orders.count(), before + 1, timeoutMs());
    QTRY_VERIFY2_WITH_TIMEOUT(live->detail().startsWith(QStringLiteral("last change ")),
                              qPrintable(live->detail()), timeoutMs());

    // The backend goes away: the view says so at once, and keeps its rows.
    QSignalSpy changed(live, &LiveState::changed);
    const quint16 port = server.port();
    server.stop();
    QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveState::Stale, timeoutMs());
    QVERIFY(live->stale());
    QVERIFY2(live->detail().contains(QStringLiteral("backend unreachable")),
             qPrintable(live->detail()));
    QVERIFY2(live->detail().contains(QStringLiteral("reconnecting")), qPrintable(live->detail()));
    QCOMPARE(orders.count(), before + 1);
    QVERIFY(changed.count() >= 1);

    // While it is down, an order is made that no event will tell us about (a restart loses
    // the stream's memory): the resync after the reconnect must bring it.
    server.simulateProcessRestart();
    const QString whileAway =
        server.createOrder(server.customerId(1), "AWAY-1", {}, {}).value("id").toString();
    QVERIFY(!whileAway.isEmpty());
    QTest::qWait(300); // a settle on purpose: reconnect attempts fail meanwhile, it stays stale
    QCOMPARE(live->state(), LiveState::Stale); // still down
    QVERIFY(server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(live->state(), LiveState::Live, timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(orders.indexOfId(whileAway) >= 0, timeoutMs());
    QVERIFY(orders.indexOfId(live1) >= 0);
    QVERIFY(live->syncedAt() >= firstSync);
}

void TestConsole::liveViewTurnsStaleWhenStreamFallsSilent()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(50ms, 400ms);
    client.setStallTimeout(60s); // no reconnect during the test: only the silence counts
    client.setStaleAfter(1s);
    CustomerListModel customers(&client);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(customers.live()->state(), LiveState::Live, timeoutMs());
    // No keepalive arrives: after a second of silence the view is stale, though still
    // "online" as far as the connection knows.
    QTRY_COMPARE_WITH_TIMEOUT(customers.live()->state(), LiveState::Stale, timeoutMs());
    QCOMPARE(client.connectionState(), AdminClient::Online);
    QVERIFY2(customers.live()->detail().startsWith(QStringLiteral("no word from the backend")),
             qPrintable(customers.live()->detail()));
    // A keepalive: live again.
    server.sendRaw(": keepalive\n\n");
    QTRY_COMPARE_WITH_TIMEOUT(customers.live()->state(), LiveState::Live, timeoutMs());
}

void TestConsole::liveViewShowsNotPermittedInsteadOfEmpty()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    server.setAuditForbidden(true);
    AdminClient client;
    client.setReconnectDelays(50ms, 400ms);
    AuditLogModel audit(&client);
    OrderListModel orders(&client);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(audit.live()->state(), LiveState::NotPermitted, timeoutMs());
    QVERIFY(!audit.live()->permitted());
    QCOMPARE(audit.live()->message(),
             QStringLiteral("this admin token may not read the audit log"));
    QCOMPARE(audit.live()->stateText(), QStringLiteral("Not permitted"));
    QCOMPARE(audit.count(), 0);
    // Other views are not affected.
    QTRY_COMPARE_WITH_TIMEOUT(orders.live()->state(), LiveState::Live, timeoutMs());
    // A reconnect does not change a token's rights: still not permitted while the backend is
    // away and back.
    const quint16 port = server.port();
    server.stop();
    QTRY_COMPARE_WITH_TIMEOUT(orders.live()->state(), LiveState::Stale, timeoutMs());
    QCOMPARE(audit.live()->state(), LiveState::NotPermitted);
    QVERIFY(server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(orders.live()->state(), LiveState::Live, timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(audit.live()->state(), LiveState::NotPermitted, timeoutMs());
    // Once the token may read it, the view loads.
    server.setAuditForbidden(false);
    audit.reload();
    QTRY_COMPARE_WITH_TIMEOUT(audit.live()->state(), LiveState::Live, timeoutMs());
    QVERIFY(audit.count() > 0);
    QVERIFY(audit.live()->message().isEmpty());
}

void TestConsole::liveStateAges()
{
    QCOMPARE(LiveState::ageText(0), QStringLiteral("0 s"));
    QCOMPARE(LiveState::ageText(59), QStringLiteral("59 s"));
    QCOMPARE(LiveState::ageText(61), QStringLiteral("1 min"));
    QCOMPARE(LiveState::ageText(7200), QStringLiteral("2 h"));
    QCOMPARE(LiveState::ageText(3 * 86400 + 5), QStringLiteral("3 d"));
    QCOMPARE(LiveState::ageText(-5), QStringLiteral("0 s")); // a clock step back
    // Without a client the state follows only what the view reports.
    LiveState state(nullptr);
    QCOMPARE(state.state(), LiveState::Live);
    state.noteSyncStarted();
    QCOMPARE(state.state(), LiveState::Syncing);
    state.noteSyncFailed(500, QStringLiteral("database is locked"));
    QCOMPARE(state.state(), LiveState::Failed);
    QCOMPARE(state.detail(), QStringLiteral("database is locked"));
    state.noteSynced();
    QCOMPARE(state.state(), LiveState::Live);
    QVERIFY(state.message().isEmpty());
}

void TestConsole::restartedBackendStartsSequenceOver()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(50ms, 200ms);
    QSignalSpy received(&client, &AdminClient::eventReceived);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(server.openStreams(), 1, timeoutMs());
    for (int i = 0; i < 5; ++i)
        server.sendEvent("order.created", {{"n", i}});
    QTRY_COMPARE_WITH_TIMEOUT(client.eventCount(), 5, timeoutMs());

    // A new process on the same port: same instanceId, new start time, seq from 1 again.
    const quint16 port = server.port();
    server.stop();
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Offline, timeoutMs());
    server.simulateProcessRestart();
    server.sendEvent("backend.started", {{"version", "0.1.0"}});
    QVERIFY(server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    QVERIFY(server.lastEventIdHeader().isEmpty()); // nothing to resume in a new process
    QTRY_COMPARE_WITH_TIMEOUT(client.eventCount(), 6, timeoutMs()); // the new process's backlog
    server.sendEvent("order.created", {{"n", 99}});
    QTRY_COMPARE_WITH_TIMEOUT(client.eventCount(), 7, timeoutMs());
    QCOMPARE(received.at(5).at(0).value<AdminEvent>().type, QStringLiteral("backend.started"));
    QCOMPARE(received.last().at(0).value<AdminEvent>().seq, qint64(2));
}

void TestConsole::offlineWhenNothingListens()
{
    quint16 port = 0;
    {
        TestAdminServer probe(Token);
        QVERIFY(probe.listen());
        port = probe.port();
    }
    AdminClient client;
    client.setReconnectDelays(30ms, 60ms);
    client.connectTo(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)),
                     QString::fromLatin1(Token));
    QCOMPARE(client.adminUrl(), QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Offline, timeoutMs());
    QVERIFY(!client.lastError().isEmpty());
    QCOMPARE(client.uptimeText(), QStringLiteral("–"));

    // It keeps trying, and gets there once a server appears.
    TestAdminServer server(Token);
    QVERIFY(server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
}

void TestConsole::reconnectsWhenStreamStalls()
{
    TestAdminServer server(Token);
    server.setStreamHangs(true);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(30ms, 60ms);
    client.setStallTimeout(200ms);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Offline, timeoutMs());
    QCOMPARE(client.lastError(), QStringLiteral("The event stream stopped responding"));
    QTRY_VERIFY_WITH_TIMEOUT(server.streamRequests() >= 2, timeoutMs());

    server.setStreamHangs(false);
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    // Keepalives keep a quiet stream alive: one every 100 ms for more than two stall timeouts.
    // The timeout goes up from 200 ms (quick to see the hang above) to 600 ms, so that a
    // loaded machine's late timer is not taken for silence.
    client.setStallTimeout(600ms);
    QSignalSpy states(&client, &AdminClient::connectionStateChanged);
    QElapsedTimer quiet;
    quiet.start();
    while (quiet.elapsed() < 1500) {
        QTest::qWait(100);
        server.sendRaw(": keepalive\n\n");
    }
    QCOMPARE(states.count(), 0);
    QCOMPARE(client.connectionState(), AdminClient::Online);
}

void TestConsole::backoffDoublesUpToMaximum()
{
    AdminClient client;
    QCOMPARE(client.nextReconnectDelay().count(), 1000);
    client.setReconnectDelays(10ms, 45ms);
    client.connectTo(QUrl("http://127.0.0.1:1"), QStringLiteral("t"));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Offline, timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(client.nextReconnectDelay().count(), 45, timeoutMs());
    client.disconnectFromServer();
    client.connectTo(QUrl("http://127.0.0.1:1"), QStringLiteral("t"));
    QCOMPARE(client.nextReconnectDelay().count(), 10); // a new connection starts from the beginning
    client.disconnectFromServer();
}

void TestConsole::invalidUrlIsRejected()
{
    AdminClient client;
    QSignalSpy errors(&client, &AdminClient::lastErrorChanged);
    client.connectTo(QUrl(QStringLiteral("ftp://example.org")), QStringLiteral("t"));
    QCOMPARE(client.connectionState(), AdminClient::Disconnected);
    QVERIFY(client.lastError().contains(QStringLiteral("ftp://example.org")));
    client.connectTo(QUrl(QStringLiteral("not a url")), QStringLiteral("t"));
    QCOMPARE(client.connectionState(), AdminClient::Disconnected);
    QCOMPARE(errors.count(), 2);
    // Plain http beyond this machine would carry the token in clear: refused, no attempt made.
    for (const char *url : {"http://admin.example.org:8081", "http://192.0.2.10:8081"}) {
        client.connectTo(QUrl(QString::fromLatin1(url)), QStringLiteral("t"));
        QCOMPARE(client.connectionState(), AdminClient::Disconnected);
        QVERIFY2(client.lastError().startsWith(
                     QStringLiteral("Refusing to send the admin token over plain http to %1: use "
                                    "https")
                         .arg(QUrl(QString::fromLatin1(url)).host())),
                 qPrintable(client.lastError()));
    }
}

void TestConsole::disconnectStopsEverything()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(20ms, 40ms);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE_WITH_TIMEOUT(server.openStreams(), 1, timeoutMs());
    client.disconnectFromServer();
    QCOMPARE(client.connectionState(), AdminClient::Disconnected);
    QTRY_COMPARE_WITH_TIMEOUT(server.openStreams(), 0, timeoutMs());
    const int requests = server.statusRequests();
    QTest::qWait(200); // a settle on purpose (backoff is 20-40 ms): proves that nothing comes
    QCOMPARE(server.statusRequests(), requests);
    QCOMPARE(client.connectionState(), AdminClient::Disconnected);
}

void TestConsole::tokenIsNeverLogged()
{
    QStringList log;
    g_log = &log;
    g_previousHandler = qInstallMessageHandler(captureMessage);
    {
        TestAdminServer server(Token);
        QVERIFY(server.listen());
        AdminClient client;
        client.setReconnectDelays(20ms, 40ms);
        client.connectTo(server.url(), QString::fromLatin1(Token));
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
        server.stop();
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Offline, timeoutMs());
        client.connectTo(server.url(), QStringLiteral("wrong-") + QString::fromLatin1(Token));
        QVERIFY(server.listen(server.port()));
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Unauthorized, timeoutMs());
    }
    qInstallMessageHandler(g_previousHandler);
    g_log = nullptr;
    QVERIFY(!log.isEmpty()); // the client did log its decisions
    for (const QString &line : std::as_const(log))
        QVERIFY2(!line.contains(QString::fromLatin1(Token)), qPrintable(line));
}

// ---- Orders and deliveries: rules and formatting --------------------------------------------

namespace {

QJsonObject makeOrder(const QString &id, const QString &status, const QString &customerId,
                      const QDateTime &created, int version = 1)
{
    return {
        {"id", id},
        {"customerId", customerId},
        {"customerName", "Customer " + customerId},
        {"customerRef", QJsonValue::Null},
        {"beerOrderLines",
         QJsonArray{
             QJsonObject{{"upc", "0631234200036"}, {"orderQuantity", 3}, {"quantityAllocated", 0}},
             QJsonObject{
                 {"upc", "0083783375213"}, {"orderQuantity", 2}, {"quantityAllocated", 0}}}},
        {"orderStatus", status},
        {"version", version},
        {"createdDate", created.toString(Qt::ISODateWithMs)},
        {"lastModifiedDate", created.toString(Qt::ISODateWithMs)}};
}

QJsonObject makeDelivery(const QString &id, const QString &orderId, const QString &state,
                         const QDateTime &created)
{
    return {{"id", id},
            {"orderId", orderId},
            {"customerId", "c1"},
            {"endpointId", "e1"},
            {"url", "https://receiver.example/hooks"},
            {"orderStatus", "VALIDATED"},
            {"seq", 1},
            {"state", state},
            {"attempts", 1},
            {"nextAttemptAt", QJsonValue::Null},
            {"lastStatus", 503},
            {"lastError", "HTTP 503"},
            {"lastLatencyMs", 2100},
            {"createdAt", created.toString(Qt::ISODateWithMs)},
            {"completedAt", QJsonValue::Null}};
}

const QDateTime T0(QDate(2026, 11, 21), QTime(9, 0), Qt::UTC);

QStringList roleValues(const QAbstractItemModel &model, int role)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values.append(model.index(row, 0).data(role).toString());
    return values;
}

// A ConsoleServices connected to a TestAdminServer, waiting until its lists are loaded.
struct Connected
{
    TestAdminServer server{Token};
    ConsoleServices services;

    bool start()
    {
        if (!server.listen())
            return false;
        services.adminClient()->connectTo(server.url(), QString::fromLatin1(Token));
        return true;
    }

    // True once the console has handled every event the server sent so far: a "test.mark"
    // event is sent and waited for (the stream is ordered). For proving that an earlier event
    // changed nothing, without guessing how long it takes to arrive.
    [[nodiscard]] bool handledAllEvents()
    {
        qint64 handled = 0;
        const QMetaObject::Connection connection = QObject::connect(
            services.adminClient(), &AdminClient::eventReceived,
            [&handled](const AdminEvent &event) { handled = std::max(handled, event.seq); });
        const qint64 mark = server.sendEvent(QStringLiteral("test.mark"), {});
        const bool reached = QTest::qWaitFor([&] { return handled >= mark; }, timeoutMs());
        QObject::disconnect(connection);
        return reached;
    }
};

} // namespace

void TestConsole::orderStatusRules_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("family");
    QTest::addColumn<bool>("pickup");
    QTest::addColumn<bool>("deliver");
    QTest::addColumn<bool>("cancel");

    QTest::newRow("NEW") << "NEW"
                         << "progress" << false << false << true;
    QTest::newRow("VALIDATION_PENDING") << "VALIDATION_PENDING"
                                        << "progress" << false << false << true;
    QTest::newRow("VALIDATED") << "VALIDATED"
                               << "progress" << false << false << true;
    QTest::newRow("VALIDATION_EXCEPTION") << "VALIDATION_EXCEPTION"
                                          << "exception" << false << false << false;
    QTest::newRow("ALLOCATION_PENDING") << "ALLOCATION_PENDING"
                                        << "progress" << false << false << true;
    QTest::newRow("ALLOCATED") << "ALLOCATED"
                               << "progress" << true << false << true;
    QTest::newRow("PENDING_INVENTORY") << "PENDING_INVENTORY"
                                       << "waiting" << false << false << true;
    QTest::newRow("ALLOCATION_EXCEPTION") << "ALLOCATION_EXCEPTION"
                                          << "exception" << false << false << false;
    QTest::newRow("PICKED_UP") << "PICKED_UP"
                               << "progress" << false << true << false;
    QTest::newRow("DELIVERED") << "DELIVERED"
                               << "ok" << false << false << false;
    QTest::newRow("CANCELLED") << "CANCELLED"
                               << "cancelled" << false << false << false;
    QTest::newRow("unknown") << "SHIPPED_TO_MARS"
                             << "unknown" << false << false << false;
}

void TestConsole::orderStatusRules()
{
    QFETCH(QString, status);
    QFETCH(QString, family);
    QFETCH(bool, pickup);
    QFETCH(bool, deliver);
    QFETCH(bool, cancel);
    QCOMPARE(OrderStatus::family(status), family);
    QCOMPARE(OrderStatus::canPickup(status), pickup);
    QCOMPARE(OrderStatus::canDeliver(status), deliver);
    QCOMPARE(OrderStatus::canCancel(status), cancel);
    QVERIFY(!OrderStatus::displayName(status).isEmpty());
    QCOMPARE(OrderStatus::all().contains(status), family != QLatin1String("unknown"));
}

void TestConsole::consoleFormat()
{
    QCOMPARE(ConsoleFormat::latency(-1), QStringLiteral("–"));
    QCOMPARE(ConsoleFormat::latency(84), QStringLiteral("84 ms"));
    QVERIFY(ConsoleFormat::latency(2150).startsWith(QStringLiteral("2")));
    QCOMPARE(ConsoleFormat::shortId("5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11"),
             QStringLiteral("7d2f3c11"));
    QCOMPARE(ConsoleFormat::preview("a\nb\nc\nd\ne"), QStringLiteral("a\nb\nc…"));
    QCOMPARE(ConsoleFormat::preview("short"), QStringLiteral("short"));
    QCOMPARE(ConsoleFormat::preview(QString(500, QLatin1Char('x'))).size(), 241);
    QCOMPARE(ConsoleFormat::parseTime(QJsonValue("2026-11-21T10:00:00.000Z")),
             QDateTime(QDate(2026, 11, 21), QTime(10, 0), Qt::UTC));
    QCOMPARE(ConsoleFormat::parseTime(QJsonValue("2026-11-21T10:00:00Z")),
             QDateTime(QDate(2026, 11, 21), QTime(10, 0), Qt::UTC));
    QVERIFY(!ConsoleFormat::parseTime(QJsonValue::Null).isValid());
    QCOMPARE(ConsoleFormat::time(QDateTime()), QStringLiteral("–"));
    const QDateTime now = QDateTime::currentDateTime();
    QCOMPARE(ConsoleFormat::time(now, now), now.toString(QStringLiteral("HH:mm:ss")));
    QVERIFY(ConsoleFormat::time(now.addYears(-2), now)
                .startsWith(QString::number(now.date().year() - 2)));
    QCOMPARE(OrderStatus::filterOptions().size(), OrderStatus::all().size() + 1);
    QCOMPARE(DeliveryState::filterOptions().size(), 4);
    QCOMPARE(DeliveryState::family("failed"), QStringLiteral("exception"));
}

// ---- Orders and deliveries: models fed directly ----------------------------------------------

void TestConsole::orderModelLiveEvents()
{
    OrderListModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy countChanged(&model, &OrderListModel::countChanged);

    // The server's list comes newest first; the model keeps that order.
    model.resetFrom(
        {makeOrder("o2", "ALLOCATED", "c1", T0.addSecs(60)), makeOrder("o1", "NEW", "c2", T0)});
    QCOMPARE(reset.count(), 1);
    QCOMPARE(roleValues(model, OrderListModel::IdRole), (QStringList{"o2", "o1"}));
    const QModelIndex top = model.index(0);
    QCOMPARE(top.data(OrderListModel::ShortIdRole).toString(), QStringLiteral("o2"));
    QCOMPARE(top.data(OrderListModel::StatusFamilyRole).toString(), QStringLiteral("progress"));
    QCOMPARE(top.data(OrderListModel::StatusTextRole).toString(), QStringLiteral("Allocated"));
    QCOMPARE(top.data(OrderListModel::LineCountRole).toInt(), 2);
    QCOMPARE(top.data(OrderListModel::QuantityRole).toInt(), 5);
    QCOMPARE(top.data(OrderListModel::CanPickupRole).toBool(), true);
    QCOMPARE(top.data(OrderListModel::CanDeliverRole).toBool(), false);
    QCOMPARE(top.data(OrderListModel::CanCancelRole).toBool(), true);
    QCOMPARE(top.data(OrderListModel::CustomerRefRole).toString(), QString());
    QCOMPARE(top.data(OrderListModel::CreatedRole).toDateTime(), T0.addSecs(60));
    const QHash<int, QByteArray> roles = model.roleNames();
    for (const char *name : {"orderId", "shortId", "customerName", "status", "statusText",
                             "statusFamily", "lineCount", "createdText", "canPickup"})
        QVERIFY2(roles.values().contains(name), name);

    // order.created: a new row at the top.
    model.handleEvent(makeEvent(1, "order.created", makeOrder("o3", "NEW", "c1", T0.addSecs(120))));
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), 0);
    QCOMPARE(model.idAt(0), QStringLiteral("o3"));
    QCOMPARE(countChanged.count(), 2);

    // order.status: the row changes in place, one dataChanged, no reset, no insert.
    model.handleEvent(makeEvent(2, "order.status",
                                {{"orderId", "o2"},
                                 {"customerId", "c1"},
                                 {"orderStatus", "PICKED_UP"},
                                 {"previousStatus", "ALLOCATED"},
                                 {"at", "2026-11-21T09:05:00.000Z"},
                                 {"version", 2}}));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 1);
    QCOMPARE(model.index(1).data(OrderListModel::StatusRole).toString(),
             QStringLiteral("PICKED_UP"));
    QCOMPARE(model.index(1).data(OrderListModel::VersionRole).toInt(), 2);
    QCOMPARE(model.index(1).data(OrderListModel::CanDeliverRole).toBool(), true);
    QCOMPARE(reset.count(), 1);
    QCOMPARE(inserted.count(), 1);

    // An older status (a replay) does not win over a newer one.
    model.handleEvent(makeEvent(3, "order.status",
                                {{"orderId", "o2"}, {"orderStatus", "ALLOCATED"}, {"version", 1}}));
    QCOMPARE(model.index(1).data(OrderListModel::StatusRole).toString(),
             QStringLiteral("PICKED_UP"));
    QCOMPARE(changed.count(), 1);

    // Same for a whole order from an action's answer.
    model.applyOrder(makeOrder("o2", "ALLOCATED", "c1", T0.addSecs(60), 1));
    QCOMPARE(model.index(1).data(OrderListModel::StatusRole).toString(),
             QStringLiteral("PICKED_UP"));

    // Events that are not about orders, or not what the API sends, change nothing.
    model.handleEvent(makeEvent(4, "order.created", {{"orderId", "o_42"}}));
    model.handleEvent(makeEvent(5, "stats", {{"uptimeSeconds", 3}}));
    QCOMPARE(model.rowCount(), 3);
}

void TestConsole::orderModelFilters()
{
    OrderListModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy statusFilterChanged(&model, &OrderListModel::statusFilterChanged);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    model.resetFrom({makeOrder("o3", "ALLOCATED", "c2", T0.addSecs(120)),
                     makeOrder("o2", "ALLOCATED", "c1", T0.addSecs(60)),
                     makeOrder("o1", "NEW", "c1", T0)});

    // Rows that no longer pass go at once (the reload would follow with a client).
    model.setStatusFilter("ALLOCATED");
    QCOMPARE(statusFilterChanged.count(), 1);
    QCOMPARE(roleValues(model, OrderListModel::IdRole), (QStringList{"o3", "o2"}));
    model.setCustomerFilter("c1");
    QCOMPARE(roleValues(model, OrderListModel::IdRole), QStringList{"o2"});
    QCOMPARE(removed.count(), 2);

    // Live rows are filtered the same way.
    model.handleEvent(makeEvent(1, "order.created", makeOrder("o4", "NEW", "c1", T0.addSecs(200))));
    model.handleEvent(
        makeEvent(2, "order.created", makeOrder("o5", "ALLOCATED", "c2", T0.addSecs(200))));
    QCOMPARE(model.rowCount(), 1);
    model.handleEvent(
        makeEvent(3, "order.created", makeOrder("o6", "ALLOCATED", "c1", T0.addSecs(300))));
    QCOMPARE(roleValues(model, OrderListModel::IdRole), (QStringList{"o6", "o2"}));
    // A status change out of the filter removes the row.
    model.handleEvent(makeEvent(4, "order.status",
                                {{"orderId", "o2"}, {"orderStatus", "PICKED_UP"}, {"version", 2}}));
    QCOMPARE(roleValues(model, OrderListModel::IdRole), QStringList{"o6"});

    QCOMPARE(model.statusOptions().size(), 12);
    QCOMPARE(model.statusOptions().at(0).toMap().value("value").toString(), QString());
    model.setStatusFilter({});
    model.setCustomerFilter({});
    QCOMPARE(statusFilterChanged.count(), 2);
}

void TestConsole::orderRowStoreReadsBackExactly()
{
    // Rows as the admin API lists them (the list keeps lineCount and quantity, not the lines).
    const auto apiRow = [](int n, const QJsonValue &ref) {
        QJsonObject row{{"id", QUuid::createUuid().toString(QUuid::WithoutBraces)},
                        {"customerId", "ed610d58-e1cf-4a8b-9ac4-7d33e8b7d3fb"},
                        {"customerName", n % 2 ? "Demo Taproom" : "Hopfen & Malz GmbH"},
                        {"customerRef", ref},
                        {"orderStatus", n % 3 ? "ALLOCATED" : "PENDING_INVENTORY"},
                        {"version", n + 1},
                        {"createdDate", T0.addMSecs(n * 1001).toString(Qt::ISODateWithMs)},
                        {"lastModifiedDate", T0.addSecs(n).toString(Qt::ISODateWithMs)},
                        {"lineCount", 1 + n % 4},
                        {"quantity", 3 * n}};
        if (n % 5 == 0)
            row.insert("orderStatusCallbackUrl",
                       "https://shop.example/hooks/" + QString::number(n));
        return row;
    };
    QList<QJsonObject> rows;
    for (int n = 0; n < 50; ++n)
        rows.append(apiRow(n, n % 7 == 0 ? QJsonValue(QJsonValue::Null)
                                         : QJsonValue("PO-" + QString::number(n) + "-Grüße")));
    // Times are packed as milliseconds, before 1970 too.
    QJsonObject beforeEpoch = apiRow(55, "PO-1969");
    beforeEpoch.insert("createdDate", "1969-12-31T23:59:59.999Z");
    beforeEpoch.insert("lastModifiedDate", "0001-01-01T00:00:00.000Z");
    rows.append(beforeEpoch);
    // Rows this layout does not know come back exactly as well (kept as they are).
    QJsonObject extraField = apiRow(50, "PO-extra");
    extraField.insert("links", QJsonObject{{"self", "/orders/x"}});
    QJsonObject upperCaseId = apiRow(51, "PO-upper");
    upperCaseId.insert("id", upperCaseId.value("id").toString().toUpper());
    QJsonObject secondsOnly = apiRow(52, "PO-seconds");
    secondsOnly.insert("createdDate", "2026-11-21T10:00:00Z");
    QJsonObject notUuid = apiRow(53, "PO-short");
    notUuid.insert("id", "o-53");
    QJsonObject noRef = apiRow(54, "");
    noRef.remove("customerRef");
    noRef.remove("version");
    rows << extraField << upperCaseId << secondsOnly << notUuid << noRef;

    OrderRowStore store;
    store.reset(rows);
    QCOMPARE(store.size(), rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QCOMPARE(store.at(i), rows.at(i));
        QVERIFY(store.equals(i, rows.at(i)));
        QCOMPARE(store.idAt(i), rows.at(i).value("id").toString());
        QCOMPARE(store.indexOfId(rows.at(i).value("id").toString()), i);
    }
    // All but the four odd ones are packed.
    QCOMPARE(store.unpackedCount(), 4);
    QCOMPARE(store.indexOfId(QUuid::createUuid().toString(QUuid::WithoutBraces)), -1);
    QCOMPARE(store.indexOfId("o-54"), -1);
    // An upper-case form of a packed id is not that row (ids compare as text).
    QCOMPARE(store.indexOfId(rows.at(1).value("id").toString().toUpper()), -1);

    // A status change in place; a different row is not equal.
    QJsonObject changed = rows.at(3);
    changed.insert("orderStatus", "PICKED_UP");
    changed.insert("version", 9);
    changed.insert("lastModifiedDate", "2026-11-21T11:00:00.123Z");
    QVERIFY(!store.equals(3, changed));
    store.replace(3, changed);
    QCOMPARE(store.at(3), changed);
    QCOMPARE(store.at(2), rows.at(2));
    QCOMPARE(store.at(4), rows.at(4));
    store.insert(0, apiRow(60, "PO-new"));
    QCOMPARE(store.at(0).value("customerRef").toString(), QStringLiteral("PO-new"));
    QCOMPARE(store.at(4), changed);
    store.remove(0);
    store.remove(0);
    QCOMPARE(store.size(), rows.size() - 1);
    QCOMPARE(store.at(0), rows.at(1));
    QCOMPARE(store.indexOfId(rows.at(0).value("id").toString()), -1);

    // The Orders model keeps its rows so: what a view reads is what the API said.
    OrderListModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QJsonArray items;
    for (const QJsonObject &row : std::as_const(rows))
        items.append(row);
    model.resetFrom(items);
    QCOMPARE(model.count(), rows.size());
    const int row = model.indexOfId(rows.at(10).value("id").toString());
    QVERIFY(row >= 0);
    QCOMPARE(model.rowAt(row), rows.at(10));
    QCOMPARE(model.index(row).data(OrderListModel::CustomerRefRole).toString(),
             QStringLiteral("PO-10-Grüße"));
    QCOMPARE(model.index(row).data(OrderListModel::QuantityRole).toInt(), 30);
    QCOMPARE(model.index(row).data(OrderListModel::CreatedRole).toDateTime(),
             T0.addMSecs(10 * 1001));
    // Newest first, as the model sorts; a new order goes to its place by creation time.
    QJsonObject between = apiRow(0, "PO-between");
    between.insert("createdDate", T0.addMSecs(10 * 1001 + 1).toString(Qt::ISODateWithMs));
    model.upsert(between);
    QCOMPARE(model.indexOfId(between.value("id").toString()), row);
    QCOMPARE(model.idAt(row + 1), rows.at(10).value("id").toString());
}

void TestConsole::orderModelCapacity()
{
    OrderListModel model(nullptr);
    model.setCapacity(5);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (int i = 0; i < 8; ++i)
        model.handleEvent(
            makeEvent(i + 1, "order.created",
                      makeOrder(QStringLiteral("o%1").arg(i), "NEW", "c1", T0.addSecs(i))));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.idAt(0), QStringLiteral("o7"));
    QCOMPARE(model.idAt(4), QStringLiteral("o3"));
    // Older than everything kept: not inserted at all.
    model.handleEvent(makeEvent(9, "order.created", makeOrder("old", "NEW", "c1", T0.addSecs(-5))));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.indexOfId("old"), -1);

    QJsonArray many;
    for (int i = 0; i < 12; ++i)
        many.append(makeOrder(QStringLiteral("p%1").arg(i), "NEW", "c1", T0.addSecs(100 - i)));
    model.resetFrom(many);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(LiveListModel::DefaultCapacity, 1000);
}

void TestConsole::orderModelBuffersEventsDuringReload()
{
    // Events that arrive while a reload is under way are applied on top of its answer.
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    OrderListModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_VERIFY_WITH_TIMEOUT(model.loaded(), timeoutMs());
    QCOMPARE(model.rowCount(), 7);

    model.reload();
    QVERIFY(model.loading());
    const QString id = model.idAt(0);
    model.handleEvent(makeEvent(100, "order.status",
                                {{"orderId", id}, {"orderStatus", "CANCELLED"}, {"version", 99}}));
    QCOMPARE(model.index(0).data(OrderListModel::StatusRole).toString(), QStringLiteral("NEW"));
    QTRY_VERIFY_WITH_TIMEOUT(!model.loading(), timeoutMs());
    QCOMPARE(model.index(model.indexOfId(id)).data(OrderListModel::StatusRole).toString(),
             QStringLiteral("CANCELLED"));
}

void TestConsole::orderHistoryModel()
{
    OrderHistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.setHistory(
        {QJsonObject{{"status", "NEW"}, {"at", "2026-11-21T09:00:00.000Z"}},
         QJsonObject{{"status", "VALIDATION_PENDING"}, {"at", "2026-11-21T09:00:01.000Z"}}});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0).data(OrderHistoryModel::CurrentRole).toBool(), false);
    QCOMPARE(model.index(1).data(OrderHistoryModel::CurrentRole).toBool(), true);
    QCOMPARE(model.index(1).data(OrderHistoryModel::StatusTextRole).toString(),
             QStringLiteral("Validation pending"));
    QCOMPARE(model.index(0).data(OrderHistoryModel::AtRole).toDateTime(), T0);

    model.append("VALIDATED", QJsonValue("2026-11-21T09:00:02.000Z"));
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), 2); // at the end: oldest first
    QCOMPARE(changed.count(), 1);              // the former current entry
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 1);
    QCOMPARE(model.index(1).data(OrderHistoryModel::CurrentRole).toBool(), false);
    QCOMPARE(model.index(2).data(OrderHistoryModel::CurrentRole).toBool(), true);

    OrderLineModel lines;
    QAbstractItemModelTester linesTester(&lines,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    lines.setLines({QJsonObject{{"id", "l1"},
                                {"upc", "0631234200036"},
                                {"beerId", "b1"},
                                {"orderQuantity", 3},
                                {"quantityAllocated", 3}},
                    QJsonObject{{"id", "l2"},
                                {"upc", "0000000000000"},
                                {"orderQuantity", 1},
                                {"quantityAllocated", 0}}});
    QCOMPARE(lines.rowCount(), 2);
    QCOMPARE(lines.index(0).data(OrderLineModel::FullyAllocatedRole).toBool(), true);
    QCOMPARE(lines.index(1).data(OrderLineModel::InCatalogRole).toBool(), false);
    QCOMPARE(lines.index(1).data(OrderLineModel::FullyAllocatedRole).toBool(), false);
}

void TestConsole::deliveryModelLiveEvents()
{
    DeliveryListModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy countsChanged(&model, &DeliveryListModel::countsChanged);

    model.resetFrom({makeDelivery("msg_2", "o1", "failed", T0.addSecs(10)),
                     makeDelivery("msg_1", "o1", "succeeded", T0)});
    QCOMPARE(model.failedCount(), 1);
    QCOMPARE(countsChanged.count(), 1);
    const QModelIndex failed = model.index(0);
    QCOMPARE(failed.data(DeliveryListModel::FailedRole).toBool(), true);
    QCOMPARE(failed.data(DeliveryListModel::StateFamilyRole).toString(),
             QStringLiteral("exception"));
    QCOMPARE(failed.data(DeliveryListModel::LastStatusTextRole).toString(), QStringLiteral("503"));
    QCOMPARE(failed.data(DeliveryListModel::LastErrorRole).toString(), QStringLiteral("HTTP 503"));
    QCOMPARE(failed.data(DeliveryListModel::LatencyTextRole).toString().isEmpty(), false);
    QCOMPARE(model.index(1).data(DeliveryListModel::FailedRole).toBool(), false);

    // delivery.created: a new row at the top.
    model.handleEvent(
        makeEvent(1, "delivery.created", makeDelivery("msg_3", "o2", "pending", T0.addSecs(20))));
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.idAt(0), QStringLiteral("msg_3"));

    // delivery.attempt: the row in place.
    model.handleEvent(makeEvent(2, "delivery.attempt",
                                {{"deliveryId", "msg_3"},
                                 {"orderId", "o2"},
                                 {"number", 2},
                                 {"status", QJsonValue::Null},
                                 {"latencyMs", QJsonValue::Null},
                                 {"error", "connection refused"},
                                 {"state", "failed"}}));
    QCOMPARE(changed.count(), 1);
    const QModelIndex top = model.index(0);
    QCOMPARE(top.data(DeliveryListModel::AttemptsRole).toInt(), 2);
    QCOMPARE(top.data(DeliveryListModel::LastStatusRole).toInt(), 0);
    QCOMPARE(top.data(DeliveryListModel::LastStatusTextRole).toString(), QStringLiteral("–"));
    QCOMPARE(top.data(DeliveryListModel::LastLatencyRole).toLongLong(), qlonglong(-1));
    QCOMPARE(top.data(DeliveryListModel::FailedRole).toBool(), true);
    QCOMPARE(model.failedCount(), 2);

    // Not attempted (the endpoint is disabled): the last answer stays, the state changes.
    model.handleEvent(makeEvent(21, "delivery.attempt",
                                {{"deliveryId", "msg_1"},
                                 {"orderId", "o1"},
                                 {"number", 1},
                                 {"status", QJsonValue::Null},
                                 {"latencyMs", QJsonValue::Null},
                                 {"error", "endpoint disabled"},
                                 {"state", "failed"},
                                 {"attempted", false}}));
    const QModelIndex notAttempted = model.index(model.indexOfId("msg_1"));
    QCOMPARE(notAttempted.data(DeliveryListModel::LastStatusRole).toInt(), 503);
    QCOMPARE(notAttempted.data(DeliveryListModel::LastErrorRole).toString(),
             QStringLiteral("endpoint disabled"));
    QCOMPARE(notAttempted.data(DeliveryListModel::StateRole).toString(), QStringLiteral("failed"));
    QCOMPARE(model.failedCount(), 3);
    model.handleEvent(
        makeEvent(22, "delivery.state", makeDelivery("msg_1", "o1", "succeeded", T0)));

    // delivery.state: replaced in place.
    QJsonObject redelivered = makeDelivery("msg_2", "o1", "pending", T0.addSecs(10));
    model.handleEvent(makeEvent(3, "delivery.state", redelivered));
    QCOMPARE(model.index(1).data(DeliveryListModel::StateRole).toString(),
             QStringLiteral("pending"));
    QCOMPARE(model.failedCount(), 1);

    // The state filter, client-side for live rows.
    model.setStateFilter("failed");
    QCOMPARE(model.rowCount(), 1);
    model.handleEvent(
        makeEvent(4, "delivery.created", makeDelivery("msg_4", "o3", "pending", T0.addSecs(30))));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.stateOptions().size(), 4);

    // An order's scoped list holds nothing without an order.
    DeliveryListModel scoped(nullptr, nullptr, true);
    QAbstractItemModelTester scopedTester(&scoped,
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    scoped.handleEvent(
        makeEvent(5, "delivery.created", makeDelivery("msg_5", "o1", "pending", T0)));
    QCOMPARE(scoped.rowCount(), 0);
    scoped.scopeToOrder("o1");
    scoped.handleEvent(
        makeEvent(6, "delivery.created", makeDelivery("msg_5", "o1", "pending", T0)));
    scoped.handleEvent(
        makeEvent(7, "delivery.created", makeDelivery("msg_6", "o2", "pending", T0)));
    QCOMPARE(roleValues(scoped, DeliveryListModel::IdRole), QStringList{"msg_5"});
}

void TestConsole::attemptModel()
{
    AttemptListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setAttempts({QJsonObject{{"number", 1},
                                   {"at", "2026-11-21T09:00:00.000Z"},
                                   {"trigger", "scheduled"},
                                   {"status", 503},
                                   {"latencyMs", 2100},
                                   {"responseBody", "<html>\n<head>\n<title>503</title>\n</head>"},
                                   {"error", "HTTP 503"},
                                   {"requestHeaders", QJsonObject{{"webhook-id", "msg_1"}}}},
                       QJsonObject{{"number", 2},
                                   {"at", "2026-11-21T09:05:00.000Z"},
                                   {"trigger", "manual"},
                                   {"status", 200},
                                   {"latencyMs", 40},
                                   {"responseBody", "{}"},
                                   {"error", QJsonValue::Null}}});
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.index(0).data(AttemptListModel::NumberRole).toInt(), 2); // newest first
    QCOMPARE(model.index(0).data(AttemptListModel::FailedRole).toBool(), false);
    QCOMPARE(model.index(0).data(AttemptListModel::TriggerTextRole).toString(),
             QStringLiteral("Manual"));
    const QModelIndex first = model.index(1);
    QCOMPARE(first.data(AttemptListModel::FailedRole).toBool(), true);
    QCOMPARE(first.data(AttemptListModel::StatusTextRole).toString(), QStringLiteral("503"));
    QCOMPARE(first.data(AttemptListModel::ResponsePreviewRole).toString(),
             QStringLiteral("<html>\n<head>\n<title>503</title>…"));
    QCOMPARE(first.data(AttemptListModel::HeadersTextRole).toString(),
             QStringLiteral("webhook-id: msg_1"));
    model.setAttempts({QJsonObject{{"number", 1}, {"status", QJsonValue::Null}}});
    QCOMPARE(model.index(0).data(AttemptListModel::FailedRole).toBool(), true);
    QCOMPARE(model.index(0).data(AttemptListModel::StatusTextRole).toString(),
             QStringLiteral("No answer"));
}

void TestConsole::testOrderFormBody()
{
    TestOrderForm form(nullptr);
    QSignalSpy changed(&form, &TestOrderForm::changed);
    form.setCustomerId("c1");
    form.setCustomerRef("  PO-7 ");
    form.setQuantity("0631234200036", 3);
    form.setQuantity("0083783375213", 5000); // clamped
    form.setQuantity("0083783375213", 1000);
    form.setQuantity("9122089364369", 2);
    form.setQuantity("9122089364369", 0); // removed again
    QCOMPARE(form.lineCount(), 2);
    QCOMPARE(form.totalQuantity(), 3 + 999);
    QCOMPARE(form.quantity("0083783375213"), 999);
    QCOMPARE(changed.count(), 6);
    const QJsonObject body = form.requestBody();
    QCOMPARE(body.value("customerId").toString(), QStringLiteral("c1"));
    QCOMPARE(body.value("customerRef").toString(), QStringLiteral("PO-7"));
    QCOMPARE(body.value("lines").toArray(),
             (QJsonArray{QJsonObject{{"upc", "0083783375213"}, {"orderQuantity", 999}},
                         QJsonObject{{"upc", "0631234200036"}, {"orderQuantity", 3}}}));
    QVERIFY(!form.canSubmit()); // no client
    form.reset();
    QCOMPARE(form.lineCount(), 0);
    QCOMPARE(form.customerRef(), QString());
    QCOMPARE(form.customerId(), QStringLiteral("c1"));
    QVERIFY(!form.requestBody().contains("customerRef"));
    QVERIFY(!form.requestBody().contains("lines")); // the server picks
}

// ---- Orders and deliveries against the admin API ----------------------------------------------

void TestConsole::apiCallResults()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    std::optional<ApiResult> result;
    auto capture = [&result](const ApiResult &r) { result = r; };

    // Not connected: an error, delivered later, never from inside the call.
    client.callApi({"GET", "/orders", {}, {}}, this, capture);
    QVERIFY(!result);
    QTRY_VERIFY_WITH_TIMEOUT(result, timeoutMs());
    QVERIFY(!result->ok());
    QVERIFY(!result->errorMessage.isEmpty());

    client.connectTo(server.url(), QString::fromLatin1(Token));
    result.reset();
    client.callApi({"GET", "/orders/00000000-0000-4000-8000-000000000000", {}, {}}, this, capture);
    QTRY_VERIFY_WITH_TIMEOUT(result, timeoutMs());
    QCOMPARE(result->httpStatus, 404);
    QCOMPARE(result->errorCode, QStringLiteral("order-not-found"));
    QCOMPARE(result->errorMessage,
             QStringLiteral("no order with id 00000000-0000-4000-8000-000000000000"));

    result.reset();
    QUrlQuery query;
    query.addQueryItem("status", "ALLOCATED");
    client.callApi({"GET", "/orders", query, {}}, this, capture);
    QTRY_VERIFY_WITH_TIMEOUT(result, timeoutMs());
    QVERIFY(result->ok());
    QCOMPARE(result->httpStatus, 200);
    QCOMPARE(result->object().value("items").toArray().size(), 1);
    QVERIFY(server.requestLog().contains("GET /admin/v1/orders?status=ALLOCATED"));

    // A body is sent as JSON.
    result.reset();
    client.callApi({"POST", "/customers", {}, QJsonObject{{"name", ""}}}, this, capture);
    QTRY_VERIFY_WITH_TIMEOUT(result, timeoutMs());
    QCOMPARE(result->httpStatus, 400);
    QCOMPARE(result->errorMessage, QStringLiteral("name: required, 1 to 200 characters"));

    // Calls running when the console disconnects end canceled, not as errors.
    server.setStreamHangs(true);
    result.reset();
    server.stop();
    QTcpServer silent; // accepts, never answers
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    QSignalSpy accepted(&silent, &QTcpServer::newConnection);
    client.connectTo(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(silent.serverPort())),
                     QString::fromLatin1(Token));
    client.callApi({"GET", "/orders", {}, {}}, this, capture);
    // Waiting: over plain http the call goes out once the listener proved it holds the token,
    // and the proof's connection is accepted, never answered.
    QTRY_VERIFY_WITH_TIMEOUT(accepted.count() >= 1, timeoutMs());
    QVERIFY(!result);
    client.disconnectFromServer();
    QTRY_VERIFY_WITH_TIMEOUT(result, timeoutMs());
    QVERIFY(result->canceled);
    QVERIFY(!result->ok());
}

void TestConsole::ordersLoadAndFollowEvents()
{
    Connected c;
    QVERIFY(c.start());
    OrderListModel *orders = c.services.orders();
    QAbstractItemModelTester tester(orders, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(orders->loaded(), timeoutMs());
    QCOMPARE(orders->rowCount(), 7);
    QCOMPARE(orders->index(0).data(OrderListModel::StatusRole).toString(), QStringLiteral("NEW"));
    QCOMPARE(orders->index(0).data(OrderListModel::CustomerNameRole).toString(),
             QStringLiteral("Acme Brewing Supply"));
    QCOMPARE(c.server.countRequests("GET /admin/v1/orders?"), 1);
    QTRY_COMPARE_WITH_TIMEOUT(c.server.openStreams(), 1, timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(c.services.deliveries()->loaded(), timeoutMs());
    // One list of deliveries: the order detail's asks nothing while no order is selected.
    QCOMPARE(c.server.countRequests("GET /admin/v1/deliveries"), 1);

    QSignalSpy changed(orders, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(orders, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(orders, &QAbstractItemModel::modelReset);
    const QString allocated = c.server.orderIdWithStatus("ALLOCATED");
    QVERIFY(c.server.setOrderStatus(allocated, "PICKED_UP"));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, timeoutMs());
    QCOMPARE(orders->index(orders->indexOfId(allocated)).data(OrderListModel::StatusRole),
             QVariant(QStringLiteral("PICKED_UP")));

    const QJsonObject created =
        c.server.createOrder(c.server.customerId(2), QJsonValue("PUB-1"),
                             {QJsonObject{{"upc", c.server.beerUpc(0)}, {"orderQuantity", 4}}}, {});
    QTRY_COMPARE_WITH_TIMEOUT(inserted.count(), 1, timeoutMs());
    QCOMPARE(orders->idAt(0), created.value("id").toString());
    QCOMPARE(orders->index(0).data(OrderListModel::CustomerRefRole).toString(),
             QStringLiteral("PUB-1"));
    QCOMPARE(reset.count(), 0);
    QCOMPARE(c.server.countRequests("GET /admin/v1/orders?"), 1); // live, no reload

    // A reconnect reloads.
    const quint16 port = c.server.port();
    c.services.adminClient()->setReconnectDelays(20ms, 100ms);
    c.server.stop();
    QTRY_COMPARE_WITH_TIMEOUT(c.services.adminClient()->connectionState(), AdminClient::Offline,
                              timeoutMs());
    QVERIFY(c.server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(c.server.countRequests("GET /admin/v1/orders?"), 2, timeoutMs());
}

void TestConsole::orderFilterReloadsWithQuery()
{
    Connected c;
    QVERIFY(c.start());
    OrderListModel *orders = c.services.orders();
    QAbstractItemModelTester tester(orders, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(orders->loaded(), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(c.server.openStreams(), 1, timeoutMs());

    orders->setStatusFilter("PENDING_INVENTORY");
    QCOMPARE(orders->rowCount(), 1); // dropped locally at once
    QTRY_VERIFY_WITH_TIMEOUT(
        c.server.requestLog().contains("GET /admin/v1/orders?status=PENDING_INVENTORY&limit=1000"),
        timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(!orders->loading(), timeoutMs());
    QCOMPARE(orders->rowCount(), 1);

    // An order that enters the filter live is fetched and inserted at its place.
    const QString newest = c.server.orderIdWithStatus("NEW");
    QVERIFY(c.server.setOrderStatus(newest, "PENDING_INVENTORY"));
    QTRY_COMPARE_WITH_TIMEOUT(orders->rowCount(), 2, timeoutMs());
    QCOMPARE(orders->idAt(0), newest);
    QVERIFY(c.server.requestLog().contains("GET /admin/v1/orders/" + newest));

    orders->setStatusFilter({});
    orders->setCustomerFilter(c.server.customerId(1));
    QTRY_VERIFY_WITH_TIMEOUT(c.server.requestLog().contains("GET /admin/v1/orders?customerId=" +
                                                            c.server.customerId(1) + "&limit=1000"),
                             timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(!orders->loading(), timeoutMs());
    QCOMPARE(orders->rowCount(), 2);
    QVERIFY(orders->error().isEmpty());
}

void TestConsole::orderDetailActions()
{
    Connected c;
    QVERIFY(c.start());
    OrderDetail *detail = c.services.orderDetail();
    OrderListModel *orders = c.services.orders();
    QAbstractItemModelTester linesTester(detail->lines(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester historyTester(detail->history(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester deliveriesTester(
        detail->deliveries(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(orders->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(c.services.beers()->loaded(), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(c.server.openStreams(), 1, timeoutMs());

    QSignalSpy detailChanged(detail, &OrderDetail::changed);
    const QString id = c.server.orderIdWithStatus("ALLOCATED");
    detail->setOrderId(id);
    QVERIFY(detail->loading());
    QTRY_VERIFY_WITH_TIMEOUT(detail->loaded(), timeoutMs());
    QCOMPARE(detail->status(), QStringLiteral("ALLOCATED"));
    QCOMPARE(detail->customerRef(), QStringLiteral("PO-1001"));
    QCOMPARE(detail->lines()->rowCount(), 2);
    QCOMPARE(detail->lines()->index(0).data(OrderLineModel::BeerNameRole).toString(),
             QStringLiteral("Mango Bobs"));
    QCOMPARE(detail->history()->rowCount(), 5);
    QCOMPARE(detail->deliveries()->rowCount(), 4);
    QVERIFY(detail->canPickup());
    QVERIFY(!detail->canDeliver());
    QVERIFY(detail->canCancel());

    // Pick up: the detail and the list follow, the history grows by one.
    QSignalSpy listChanged(orders, &QAbstractItemModel::dataChanged);
    QSignalSpy historyInserted(detail->history(), &QAbstractItemModel::rowsInserted);
    detail->pickup();
    QVERIFY(detail->busy());
    QVERIFY(!detail->canPickup());
    QTRY_COMPARE_WITH_TIMEOUT(detail->status(), QStringLiteral("PICKED_UP"), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(!detail->busy(), timeoutMs());
    QCOMPARE(detail->history()->rowCount(), 6);
    QCOMPARE(historyInserted.count(), 1);
    QCOMPARE(detail->history()->index(5).data(OrderHistoryModel::StatusRole).toString(),
             QStringLiteral("PICKED_UP"));
    QVERIFY(detail->canDeliver());
    QCOMPARE(orders->index(orders->indexOfId(id)).data(OrderListModel::StatusRole).toString(),
             QStringLiteral("PICKED_UP"));
    QVERIFY(listChanged.count() >= 1);
    QVERIFY(c.server.requestLog().contains("POST /admin/v1/orders/" + id + "/pickup"));
    // The delivery of the new status arrives live.
    QTRY_COMPARE_WITH_TIMEOUT(detail->deliveries()->rowCount(), 5, timeoutMs());

    // A refused action: the API's message, verbatim.
    detail->cancel();
    QTRY_COMPARE_WITH_TIMEOUT(
        detail->error(), QStringLiteral("cannot cancel an order in status PICKED_UP"), timeoutMs());
    QCOMPARE(detail->status(), QStringLiteral("PICKED_UP"));
    detail->clearError();
    QVERIFY(detail->error().isEmpty());

    detail->deliver();
    QTRY_COMPARE_WITH_TIMEOUT(detail->status(), QStringLiteral("DELIVERED"), timeoutMs());
    QCOMPARE(detail->history()->rowCount(), 7);
    QVERIFY(!detail->canCancel());

    // A change made elsewhere shows up too.
    const QString fresh = c.server.orderIdWithStatus("NEW");
    detail->setOrderId(fresh);
    QTRY_VERIFY_WITH_TIMEOUT(detail->loaded(), timeoutMs());
    QCOMPARE(detail->history()->rowCount(), 1);
    QVERIFY(c.server.setOrderStatus(fresh, "VALIDATION_PENDING"));
    QTRY_COMPARE_WITH_TIMEOUT(detail->history()->rowCount(), 2, timeoutMs());
    QCOMPARE(detail->statusText(), QStringLiteral("Validation pending"));

    detail->setOrderId({});
    QVERIFY(!detail->loaded());
    QCOMPARE(detail->history()->rowCount(), 0);
    QCOMPARE(detail->deliveries()->rowCount(), 0);
    QVERIFY(detailChanged.count() > 0);
}

void TestConsole::deliveriesAndRedeliver()
{
    Connected c;
    QVERIFY(c.start());
    DeliveryListModel *deliveries = c.services.deliveries();
    DeliveryDetail *detail = c.services.deliveryDetail();
    QAbstractItemModelTester tester(deliveries,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester attemptsTester(detail->attempts(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(deliveries->loaded(), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(c.server.openStreams(), 1, timeoutMs());
    QCOMPARE(deliveries->failedCount(), 2);

    // The Corner Pub's given-up delivery: failed, 6 attempts, the last one without an answer.
    QString failed;
    for (const QString &id : c.server.deliveryIds()) {
        const QJsonObject d = c.server.delivery(id);
        if (d.value("state") == "failed" &&
            d.value("url") == QStringLiteral("https://cornerpub.example/api/order-status"))
            failed = id;
    }
    QVERIFY(!failed.isEmpty());
    const int row = deliveries->indexOfId(failed);
    QCOMPARE(deliveries->index(row).data(DeliveryListModel::FailedRole).toBool(), true);
    detail->setDeliveryId(failed);
    QTRY_VERIFY_WITH_TIMEOUT(detail->loaded(), timeoutMs());
    QVERIFY(detail->failed());
    QCOMPARE(detail->attemptCount(), 6);
    QCOMPARE(detail->attempts()->rowCount(), 6);
    QCOMPARE(detail->attempts()->index(0).data(AttemptListModel::NumberRole).toInt(), 6);
    QCOMPARE(detail->attempts()->index(0).data(AttemptListModel::StatusRole).toInt(), 0);
    QCOMPARE(detail->attempts()->index(1).data(AttemptListModel::StatusRole).toInt(), 503);
    QVERIFY(detail->attempts()
                ->index(1)
                .data(AttemptListModel::ResponsePreviewRole)
                .toString()
                .contains("503 Service Temporarily Unavailable"));
    QVERIFY(detail->canRedeliver());

    // Redeliver: pending again in the detail and the list.
    QSignalSpy listChanged(deliveries, &QAbstractItemModel::dataChanged);
    detail->redeliver();
    QTRY_COMPARE_WITH_TIMEOUT(detail->state(), QStringLiteral("pending"), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(deliveries->index(deliveries->indexOfId(failed))
                                  .data(DeliveryListModel::StateRole)
                                  .toString(),
                              QStringLiteral("pending"), timeoutMs());
    QVERIFY(listChanged.count() >= 1);
    QCOMPARE(deliveries->failedCount(), 1);
    QVERIFY(!detail->canRedeliver());

    // The next attempt arrives live: the row and the attempt log follow.
    QVERIFY(c.server.recordAttempt(failed, 200, 77, {}, "succeeded"));
    QTRY_COMPARE_WITH_TIMEOUT(detail->attempts()->rowCount(), 7, timeoutMs());
    QCOMPARE(detail->state(), QStringLiteral("succeeded"));
    QCOMPARE(detail->attempts()->index(0).data(AttemptListModel::TriggerRole).toString(),
             QStringLiteral("manual"));
    const QModelIndex updated = deliveries->index(deliveries->indexOfId(failed));
    QCOMPARE(updated.data(DeliveryListModel::LastStatusRole).toInt(), 200);
    QCOMPARE(updated.data(DeliveryListModel::LatencyTextRole).toString(), QStringLiteral("77 ms"));

    // Redelivering to a disabled endpoint is refused; the API says why.
    const QString gone = c.server.deliveryIdWithState("failed"); // Hopfen & Malz's 410
    deliveries->redeliver(gone);
    QTRY_COMPARE_WITH_TIMEOUT(
        deliveries->error(),
        QStringLiteral("the endpoint is disabled; enable it before redelivering"), timeoutMs());

    // The state filter goes to the server as a query parameter.
    deliveries->setStateFilter("succeeded");
    QTRY_VERIFY_WITH_TIMEOUT(
        c.server.requestLog().contains("GET /admin/v1/deliveries?state=succeeded&limit=1000"),
        timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(!deliveries->loading(), timeoutMs());
    for (int r = 0; r < deliveries->rowCount(); ++r)
        QCOMPARE(deliveries->index(r).data(DeliveryListModel::StateRole).toString(),
                 QStringLiteral("succeeded"));
}

void TestConsole::endpointsEnable()
{
    Connected c;
    QVERIFY(c.start());
    EndpointListModel *endpoints = c.services.endpoints();
    QAbstractItemModelTester tester(endpoints,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(endpoints->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(c.services.customers()->loaded(), timeoutMs());
    QVERIFY(endpoints->disabledOnly()); // what the Deliveries page shows
    QCOMPARE(endpoints->rowCount(), 1);
    QSignalSpy disabledOnlyChanged(endpoints, &EndpointListModel::disabledOnlyChanged);
    endpoints->setDisabledOnly(false);
    QTRY_COMPARE_WITH_TIMEOUT(endpoints->rowCount(), 3, timeoutMs());
    endpoints->setDisabledOnly(true);
    QCOMPARE(disabledOnlyChanged.count(), 2);
    QCOMPARE(endpoints->rowCount(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!endpoints->loading(), timeoutMs());
    QCOMPARE(endpoints->rowCount(), 1);
    const QModelIndex disabled = endpoints->index(0);
    QCOMPARE(disabled.data(EndpointListModel::DisabledRole).toBool(), true);
    QCOMPARE(disabled.data(EndpointListModel::CustomerNameRole).toString(),
             QStringLiteral("Hopfen & Malz GmbH"));
    QCOMPARE(disabled.data(EndpointListModel::DisabledReasonRole).toString(),
             QStringLiteral("410 Gone from the endpoint"));

    QSignalSpy removed(endpoints, &QAbstractItemModel::rowsRemoved);
    endpoints->enable(c.server.disabledEndpointId());
    QTRY_COMPARE_WITH_TIMEOUT(endpoints->rowCount(), 0, timeoutMs());
    QCOMPARE(removed.count(), 1);

    // endpoint.state from the backend (a 410 elsewhere) brings one in.
    QVERIFY(c.server.setEndpointState(QStringLiteral("e7b1d5a2-3c4f-4e6a-9b8c-1d2e3f405003"),
                                      "disabled", "no success for 5 days"));
    QTRY_COMPARE_WITH_TIMEOUT(endpoints->rowCount(), 1, timeoutMs());
    QCOMPARE(endpoints->index(0).data(EndpointListModel::CustomerNameRole).toString(),
             QStringLiteral("The Corner Pub"));
}

void TestConsole::customersCreateAndRotate()
{
    Connected c;
    QVERIFY(c.start());
    CustomerListModel *customers = c.services.customers();
    QAbstractItemModelTester tester(customers,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(customers->loaded(), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(c.server.openStreams(), 1, timeoutMs());
    QCOMPARE(customers->rowCount(), 3);
    QCOMPARE(customers->index(0).data(CustomerListModel::NameRole).toString(),
             QStringLiteral("Acme Brewing Supply")); // by name
    QCOMPARE(customers->filterOptions().size(), 4);
    QCOMPARE(customers->nameOf(c.server.customerId(2)), QStringLiteral("The Corner Pub"));
    QVERIFY(customers->index(0).data(CustomerListModel::OrderCountRole).toInt() > 0);

    QSignalSpy issued(customers, &CustomerListModel::secretIssued);
    QSignalSpy created(customers, &CustomerListModel::customerCreated);
    QSignalSpy optionsChanged(customers, &CustomerListModel::filterOptionsChanged);
    customers->create("  Biergarten Nord ");
    QVERIFY(customers->busy());
    QTRY_COMPARE_WITH_TIMEOUT(issued.count(), 1, timeoutMs());
    QVERIFY(!customers->busy());
    QCOMPARE(created.count(), 1);
    QCOMPARE(issued.at(0).at(1).toString(), QStringLiteral("Biergarten Nord"));
    QVERIFY(issued.at(0).at(2).toString().startsWith("whsec_"));
    QVERIFY(issued.at(0).at(3).toString().isEmpty());
    QCOMPARE(customers->rowCount(), 4);
    QCOMPARE(customers->index(1).data(CustomerListModel::NameRole).toString(),
             QStringLiteral("Biergarten Nord"));
    QVERIFY(optionsChanged.count() >= 1);
    // Its customer.created event does not add it twice.
    QVERIFY(c.handledAllEvents());
    QCOMPARE(customers->rowCount(), 4);

    customers->create("   ");
    QVERIFY(!customers->busy()); // nothing sent

    const QString id = c.server.customerId(2);
    customers->rotateSecret(id);
    QTRY_COMPARE_WITH_TIMEOUT(issued.count(), 2, timeoutMs());
    QCOMPARE(issued.at(1).at(0).toString(), id);
    QVERIFY(issued.at(1).at(2).toString().startsWith("whsec_"));
    QVERIFY(issued.at(1).at(2) != issued.at(0).at(2));
    QVERIFY(!issued.at(1).at(3).toString().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!customers->index(customers->indexOfId(id))
                                  .data(CustomerListModel::PreviousSecretExpiresTextRole)
                                  .toString()
                                  .isEmpty(),
                             timeoutMs());
}

void TestConsole::beersFollowStock()
{
    Connected c;
    QVERIFY(c.start());
    BeerListModel *beers = c.services.beers();
    QAbstractItemModelTester tester(beers, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(beers->loaded(), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(c.server.openStreams(), 1, timeoutMs());
    QCOMPARE(beers->rowCount(), 6);
    QCOMPARE(beers->index(0).data(BeerListModel::NameRole).toString(),
             QStringLiteral("Cage Blond"));
    QCOMPARE(beers->nameOfUpc("0631234200036"), QStringLiteral("Mango Bobs"));
    QCOMPARE(BeerListModel::styleText("PALE_ALE"), QStringLiteral("Pale ale"));
    const int row = beers->indexOfId("0a81a2c4-5b55-4d4f-8f5e-0b3c1a1d2e04");
    QCOMPARE(beers->index(row).data(BeerListModel::QuantityOnHandRole).toInt(), 0);

    QSignalSpy changed(beers, &QAbstractItemModel::dataChanged);
    std::optional<ApiResult> result;
    c.services.adminClient()->callApi({"POST",
                                       "/beers/0a81a2c4-5b55-4d4f-8f5e-0b3c1a1d2e04/restock",
                                       {},
                                       QJsonObject{{"quantity", 48}}},
                                      this, [&result](const ApiResult &r) { result = r; });
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, timeoutMs());
    QCOMPARE(beers->index(row).data(BeerListModel::QuantityOnHandRole).toInt(), 48);
    QTRY_VERIFY_WITH_TIMEOUT(result && result->ok(), timeoutMs());
}

void TestConsole::testOrderAppears()
{
    Connected c;
    QVERIFY(c.start());
    TestOrderForm *form = c.services.testOrder();
    OrderListModel *orders = c.services.orders();
    QTRY_VERIFY_WITH_TIMEOUT(orders->loaded(), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(c.server.openStreams(), 1, timeoutMs());
    QSignalSpy placed(form, &TestOrderForm::placed);

    QVERIFY(!form->canSubmit()); // no customer yet
    form->setCustomerId(c.server.customerId(1));
    form->setCustomerRef("TRAINING-1");
    form->setQuantity(c.server.beerUpc(0), 2);
    form->setQuantity(c.server.beerUpc(4), 5);
    QVERIFY(form->canSubmit());
    form->submit();
    QVERIFY(form->busy());
    QTRY_COMPARE_WITH_TIMEOUT(placed.count(), 1, timeoutMs());
    QVERIFY(!form->busy());
    QCOMPARE(form->lineCount(), 0); // emptied for the next one
    const QJsonObject order = placed.at(0).at(0).toJsonObject();
    QCOMPARE(order.value("orderStatusCallbackUrl").toString(), c.server.demoReceiverUrl());
    QCOMPARE(orders->idAt(0), order.value("id").toString());
    QCOMPARE(orders->index(0).data(OrderListModel::LineCountRole).toInt(), 2);
    QCOMPARE(orders->index(0).data(OrderListModel::QuantityRole).toInt(), 7);
    QVERIFY(c.handledAllEvents()); // its order.created event among them
    QCOMPARE(orders->indexOfId(order.value("id").toString()), 0); // the event adds no twin
    QCOMPARE(orders->rowCount(), 8);

    // The same customerRef again: refused, the API's message kept for the dialog.
    form->setCustomerRef("TRAINING-1");
    form->submit();
    QTRY_VERIFY_WITH_TIMEOUT(!form->busy(), timeoutMs());
    QCOMPARE(form->error(),
             QStringLiteral("the customer already has an order with customerRef TRAINING-1"));
    QCOMPARE(placed.count(), 1);

    // With auto-advance the backend walks the order on; the list follows live. No beers
    // chosen: the server picks the lines.
    c.server.setAutoAdvance(true, 20);
    form->setCustomerRef({});
    QVERIFY(!form->requestBody().contains("lines"));
    form->submit();
    QTRY_COMPARE_WITH_TIMEOUT(placed.count(), 2, timeoutMs());
    QCOMPARE(placed.at(1).at(0).toJsonObject().value("beerOrderLines").toArray().size(), 2);
    const QString id = placed.at(1).at(0).toJsonObject().value("id").toString();
    QTRY_COMPARE_WITH_TIMEOUT(
        orders->index(orders->indexOfId(id)).data(OrderListModel::StatusRole).toString(),
        QStringLiteral("ALLOCATED"), timeoutMs());
    c.server.setAutoAdvance(false);
}

// The models against the real backend (in-process, its own data directory), not the fake:
// what the console shows is what the order service did.
void TestConsole::adminOverTlsTrustOnFirstUse()
{
    QTemporaryDir dir;
    auto config = realBackendConfig(dir, {{QStringLiteral("admin-tls"), QStringLiteral("true")}});
    QVERIFY(config);
    Gatehouse::Admin::Backend backend(*config);
    QVERIFY(backend.start());
    const QUrl url(backend.adminUrl());
    QCOMPARE(url.scheme(), QStringLiteral("https"));
    const QList<QSslCertificate> served =
        QSslCertificate::fromPath(dir.path() + QStringLiteral("/pki/server.crt"));
    QCOMPARE(served.size(), 1);
    const QString fingerprint = Gatehouse::Core::certificateFingerprint(served.first());
    QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).remove("trustedCertificates");

    // First contact: nothing vouches for the certificate; the console waits for the user.
    {
        AdminClient client;
        client.setReconnectDelays(50ms, 400ms);
        client.connectTo(url, backend.adminToken());
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Untrusted, timeoutMs());
        QCOMPARE(client.untrustedFingerprint(), fingerprint);
        QVERIFY(!client.certificateChanged());
        QTest::qWait(300); // a settle on purpose (backoff 50-400 ms): proves that it stays
        QCOMPARE(client.connectionState(), AdminClient::Untrusted); // no retrying on its own
        client.trustCertificate();
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
        QCOMPARE(AdminClient::trustedFingerprint(url), fingerprint);
        // API calls go through too.
        ApiResult answer;
        client.callApi({"GET", QStringLiteral("/settings/admin-tls"), {}, {}}, &client,
                       [&answer](const ApiResult &r) { answer = r; });
        QTRY_COMPARE_WITH_TIMEOUT(answer.httpStatus, 200, timeoutMs());
        QCOMPARE(answer.object().value("value").toString(), QStringLiteral("true"));
    }
    // Next time: trusted at once.
    {
        AdminClient client;
        client.connectTo(url, backend.adminToken());
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, timeoutMs());
    }
    // The pin is the user's alone to write, whatever the umask: a file others may write could
    // hold a fingerprint they planted, and a pin read from one is not trusted.
    {
        const QString file =
            QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).fileName();
        const auto others = QFileDevice::WriteGroup | QFileDevice::WriteOther |
                            QFileDevice::ReadGroup | QFileDevice::ReadOther;
        QCOMPARE(QFile::permissions(file) & others, QFileDevice::Permissions());
        QVERIFY(QFile::setPermissions(file, QFile::permissions(file) | QFileDevice::WriteOther));
        AdminClient client;
        client.connectTo(url, backend.adminToken());
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Untrusted, timeoutMs());
        QVERIFY(!client.certificateChanged()); // as on first contact: the user decides
        QVERIFY(QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    }
    // Another certificate than the one trusted: called out, not connected.
    QSettings(QStringLiteral("gatehouse"), QStringLiteral("console"))
        .setValue(QStringLiteral("trustedCertificates/%1:%2").arg(url.host()).arg(url.port()),
                  QStringLiteral("00:11:22"));
    {
        AdminClient client;
        client.connectTo(url, backend.adminToken());
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Untrusted, timeoutMs());
        QVERIFY(client.certificateChanged());
        QCOMPARE(client.untrustedFingerprint(), fingerprint);
        QVERIFY(client.lastError().contains(QStringLiteral("changed")));
    }
    // The same when the system's authorities vouch for the other certificate (a public
    // certificate for the name, an inspecting proxy): the pin is checked after every
    // handshake, not only when verification fails.
    {
        const QSslConfiguration before = QSslConfiguration::defaultConfiguration();
        const auto restore =
            qScopeGuard([before] { QSslConfiguration::setDefaultConfiguration(before); });
        QSslConfiguration vouched = before;
        vouched.addCaCertificates(
            QSslCertificate::fromPath(dir.path() + QStringLiteral("/pki/ca.crt")));
        QSslConfiguration::setDefaultConfiguration(vouched);
        AdminClient client;
        client.connectTo(url, backend.adminToken());
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Untrusted, timeoutMs());
        QVERIFY(client.certificateChanged());
        QCOMPARE(client.untrustedFingerprint(), fingerprint);
        // With the right pin it connects as before.
        QSettings(QStringLiteral("gatehouse"), QStringLiteral("console"))
            .setValue(QStringLiteral("trustedCertificates/%1:%2").arg(url.host()).arg(url.port()),
                      fingerprint);
        AdminClient pinned;
        pinned.connectTo(url, backend.adminToken());
        QTRY_COMPARE_WITH_TIMEOUT(pinned.connectionState(), AdminClient::Online, timeoutMs());
    }
    QSettings(QStringLiteral("gatehouse"), QStringLiteral("console")).remove("trustedCertificates");
}

void TestConsole::realBackendOrdersAndDeliveries()
{
    QTemporaryDir dir;
    auto config = realBackendConfig(dir);
    QVERIFY(config);
    Gatehouse::Admin::Backend backend(*config);
    QVERIFY(backend.start());
    ConsoleServices services;
    services.adminClient()->connectTo(QUrl(backend.adminUrl()), backend.adminToken());
    OrderListModel *orders = services.orders();
    DeliveryListModel *deliveries = services.deliveries();
    QAbstractItemModelTester ordersTester(orders,
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester deliveriesTester(
        deliveries, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(orders->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(deliveries->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(services.customers()->rowCount() > 0,
                             timeoutMs()); // the demo customer
    QCOMPARE(orders->rowCount(), 0);

    TestOrderForm *form = services.testOrder();
    QSignalSpy placed(form, &TestOrderForm::placed);
    form->setCustomerId(services.customers()->idAt(0));
    form->setCustomerRef(QStringLiteral("REAL-1"));
    form->submit();
    QTRY_COMPARE_WITH_TIMEOUT(placed.count(), 1, timeoutMs());
    const QString id = placed.at(0).at(0).toJsonObject().value("id").toString();
    // The real lifecycle, followed live: the row ends ALLOCATED, five signed deliveries to
    // the built-in receiver succeed.
    QTRY_COMPARE_WITH_TIMEOUT(
        orders->index(orders->indexOfId(id)).data(OrderListModel::StatusRole).toString(),
        QStringLiteral("ALLOCATED"), timeoutMs());
    QCOMPARE(orders->index(orders->indexOfId(id)).data(OrderListModel::CustomerRefRole).toString(),
             QStringLiteral("REAL-1"));
    auto succeededFor = [deliveries, &id] {
        int n = 0;
        for (int r = 0; r < deliveries->rowCount(); ++r) {
            const QJsonObject row = deliveries->rowAt(r);
            n += row.value("orderId").toString() == id &&
                 row.value("state").toString() == QLatin1String("succeeded");
        }
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(succeededFor(), 5, timeoutMs());

    OrderDetail *detail = services.orderDetail();
    detail->setOrderId(id);
    QTRY_VERIFY_WITH_TIMEOUT(detail->loaded(), timeoutMs());
    QCOMPARE(detail->history()->rowCount(), 5);
    QVERIFY(detail->canPickup());
    detail->pickup();
    QTRY_COMPARE_WITH_TIMEOUT(detail->status(), QStringLiteral("PICKED_UP"), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(
        orders->index(orders->indexOfId(id)).data(OrderListModel::StatusRole).toString(),
        QStringLiteral("PICKED_UP"), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(detail->history()->rowCount(), 6, timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(succeededFor(), 6, timeoutMs());

    bool stopped = false;
    backend.stop([&stopped] { stopped = true; });
    QTRY_VERIFY_WITH_TIMEOUT(stopped, timeoutMs());
}

// ---- OAuth clients, tokens and the JWT decoder ----------------------------------------------

void TestConsole::clientFormRules_data()
{
    // Each row changes one field of a valid client (a client_credentials service) and names
    // the error that must show ("" when the form stays valid). serverAgrees: the backend's
    // own validation (ClientRegistry::fromMetadata) decides the same; rows where the console
    // is stricter than the server (it checks what the server stores unchecked) say false.
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("error");
    QTest::addColumn<bool>("serverAgrees");

    QTest::newRow("valid as is") << ""
                                 << ""
                                 << "" << true;
    QTest::newRow("name blank") << "clientName"
                                << "   "
                                << "nameError" << true;
    QTest::newRow("name 200") << "clientName" << QString(200, 'a') << "" << true;
    QTest::newRow("name 201") << "clientName" << QString(201, 'a') << "nameError" << true;
    QTest::newRow("https uri") << "redirectUris"
                               << "https://app.example.com/cb"
                               << "" << true;
    QTest::newRow("http 127.0.0.1") << "redirectUris"
                                    << "http://127.0.0.1:8080/cb"
                                    << "" << true;
    QTest::newRow("http localhost") << "redirectUris"
                                    << "http://localhost/cb"
                                    << "" << true;
    QTest::newRow("http [::1]") << "redirectUris"
                                << "http://[::1]:3000/cb"
                                << "" << true;
    QTest::newRow("http remote") << "redirectUris"
                                 << "http://app.example.com/cb"
                                 << "redirectUrisError" << true;
    QTest::newRow("fragment") << "redirectUris"
                              << "https://app.example.com/cb#x"
                              << "redirectUrisError" << true;
    QTest::newRow("relative") << "redirectUris"
                              << "/callback"
                              << "redirectUrisError" << true;
    QTest::newRow("private-use scheme") << "redirectUris"
                                        << "com.example.app:/cb"
                                        << "" << true;
    QTest::newRow("scheme without dot") << "redirectUris"
                                        << "myapp:/cb"
                                        << "redirectUrisError" << true;
    QTest::newRow("second line bad") << "redirectUris"
                                     << "https://a.example/cb\r\nftp://b.example/"
                                     << "redirectUrisError" << true;
    QTest::newRow("blank lines ignored") << "redirectUris"
                                         << "\n https://a.example/cb \n\n"
                                         << "" << true;
    QTest::newRow("no grant") << "grantTypes"
                              << ""
                              << "grantTypesError" << false;
    QTest::newRow("unknown grant") << "grantTypes"
                                   << "implicit"
                                   << "grantTypesError" << true;
    QTest::newRow("password registrable") << "grantTypes"
                                          << "password,refresh_token"
                                          << "" << true;
    QTest::newRow("device_code registrable") << "grantTypes"
                                             << "urn:ietf:params:oauth:grant-type:device_code"
                                             << "" << true;
    QTest::newRow("authorization_code needs a redirect") << "grantTypes"
                                                         << "authorization_code"
                                                         << "redirectUrisError" << true;
    QTest::newRow("client_credentials public") << "authMethod"
                                               << "none"
                                               << "grantTypesError" << true;
    QTest::newRow("client_secret_post") << "authMethod"
                                        << "client_secret_post"
                                        << "" << true;
    QTest::newRow("scopes") << "scope"
                            << "openid  orders:read"
                            << "" << true;
    QTest::newRow("scope with quote") << "scope"
                                      << "a \"b\""
                                      << "scopeError" << false;
    QTest::newRow("scope with backslash") << "scope"
                                          << "a\\b"
                                          << "scopeError" << false;
    QTest::newRow("logo https") << "logoUri"
                                << "https://app.example.com/logo.png"
                                << "" << true;
    QTest::newRow("logo relative") << "logoUri"
                                   << "logo.png"
                                   << "logoUriError" << false;
    QTest::newRow("logo ftp") << "logoUri"
                              << "ftp://app.example.com/l.png"
                              << "logoUriError" << false;
    QTest::newRow("contacts") << "contacts"
                              << "a@x.example,\nb@y.example"
                              << "" << true;
    QTest::newRow("contact not an address") << "contacts"
                                            << "a@x.example, nope"
                                            << "contactsError" << false;
    QTest::newRow("lifetime 29") << "lifetime"
                                 << "29"
                                 << "lifetimeError" << true;
    QTest::newRow("lifetime 30") << "lifetime"
                                 << "30"
                                 << "" << true;
    QTest::newRow("lifetime 86400") << "lifetime"
                                    << " 86400 "
                                    << "" << true;
    QTest::newRow("lifetime 86401") << "lifetime"
                                    << "86401"
                                    << "lifetimeError" << true;
    QTest::newRow("lifetime text") << "lifetime"
                                   << "1h"
                                   << "lifetimeError" << false;
}

void TestConsole::clientFormRules()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, error);
    QFETCH(bool, serverAgrees);

    ClientForm form(nullptr);
    form.setClientName("Warehouse sync");
    form.setGrantTypes({"client_credentials"});
    QVERIFY2(form.valid(), "the base row is valid");
    if (field == QLatin1String("grantTypes"))
        form.setGrantTypes(value.split(',', Qt::SkipEmptyParts));
    else if (!field.isEmpty())
        QVERIFY(form.setProperty(field.toLatin1(), value));

    const QStringList errors{"nameError",    "redirectUrisError", "grantTypesError", "scopeError",
                             "logoUriError", "contactsError",     "lifetimeError"};
    for (const QString &name : errors) {
        const QString message = form.property(name.toLatin1()).toString();
        if (name == error)
            QVERIFY2(!message.isEmpty(), qPrintable(name + " is empty"));
        else
            QVERIFY2(message.isEmpty(), qPrintable(name + ": " + message));
    }
    QCOMPARE(form.valid(), error.isEmpty());
    const auto server = Gatehouse::OAuth::ClientRegistry::fromMetadata(form.requestBody());
    if (serverAgrees)
        QVERIFY2(
            bool(server) == form.valid(),
            qPrintable(server ? QStringLiteral("the server accepts it") : server.error().message));
}

void TestConsole::clientFormBodyAndReset()
{
    ClientForm form(nullptr);
    QSignalSpy changed(&form, &ClientForm::changed);
    // The defaults: a web app with refresh tokens and a secret.
    QCOMPARE(form.grantTypes(), (QStringList{"authorization_code", "refresh_token"}));
    QCOMPARE(form.authMethod(), QStringLiteral("client_secret_basic"));
    QCOMPARE(form.lifetimeText(), QStringLiteral("1 h"));
    QVERIFY(!form.valid()); // no name, no redirect URI
    QVERIFY(!form.attempted());

    form.setClientName(" Inventory bot ");
    form.setRedirectUris("https://inventory.example.com/cb\n\ncom.example.inventory:/cb ");
    form.setGrant("client_credentials", true);
    form.setGrant("refresh_token", false);
    form.setGrant("password", true);
    form.setGrant("password", true); // no duplicate
    QCOMPARE(form.grantTypes(),
             (QStringList{"authorization_code", "client_credentials", "password"})); // dialog order
    QVERIFY(form.hasGrant("password"));
    form.setScope(" orders:read   orders:write ");
    form.setAuthMethod("client_secret_post");
    form.setTokenFormat("opaque");
    form.setLifetime("5400");
    QCOMPARE(form.lifetimeText(), QStringLiteral("1 h 30 min"));
    form.setLogoUri(" https://inventory.example.com/logo.png ");
    form.setContacts("a@example.com; b@example.com");
    QVERIFY(form.valid());
    QVERIFY(changed.count() >= 10);
    QCOMPARE(
        form.requestBody(),
        (QJsonObject{
            {"client_name", "Inventory bot"},
            {"redirect_uris",
             QJsonArray{"https://inventory.example.com/cb", "com.example.inventory:/cb"}},
            {"grant_types", QJsonArray{"authorization_code", "client_credentials", "password"}},
            {"token_endpoint_auth_method", "client_secret_post"},
            {"access_token_format", "opaque"},
            {"access_token_lifetime", 5400},
            {"scope", "orders:read orders:write"},
            {"logo_uri", "https://inventory.example.com/logo.png"},
            {"contacts", QJsonArray{"a@example.com", "b@example.com"}},
        }));
    // Without a client nothing is sent, but the errors show.
    form.setClientName("");
    form.submit();
    QVERIFY(form.attempted());
    QVERIFY(!form.busy());
    form.reset();
    QVERIFY(!form.attempted());
    QCOMPARE(form.clientName(), QString());
    QCOMPARE(form.requestBody().value("grant_types").toArray(),
             (QJsonArray{"authorization_code", "refresh_token"}));
    QVERIFY(!form.requestBody().contains("scope"));
    QVERIFY(!form.requestBody().contains("contacts"));
    QVERIFY(!form.requestBody().contains("logo_uri"));

    // Seven grant types, each explained; password marked obsolete.
    const QVariantList options = form.grantOptions();
    QCOMPARE(options.size(), 7);
    int obsolete = 0;
    for (const QVariant &option : options) {
        const QVariantMap o = option.toMap();
        QVERIFY(ClientForm::supportedGrantTypes().contains(o.value("value").toString()));
        QVERIFY(!o.value("explanation").toString().isEmpty());
        if (o.value("obsolete").toBool()) {
            ++obsolete;
            QCOMPARE(o.value("value").toString(), QStringLiteral("password"));
            QCOMPARE(o.value("note").toString(), QStringLiteral("obsolete — OAuth 2.1 removes it"));
        }
    }
    QCOMPARE(obsolete, 1);
    QCOMPARE(form.authMethodOptions().size(), 3);
    QCOMPARE(ClientForm::durationText(90), QStringLiteral("1 min 30 s"));
    QCOMPARE(ClientForm::durationText(86400), QStringLiteral("24 h"));
}

void TestConsole::jwtCountdown_data()
{
    QTest::addColumn<qint64>("secondsLeft");
    QTest::addColumn<QString>("countdown");
    QTest::addColumn<QString>("relative");

    QTest::newRow("59:12") << qint64(3552) << "expires in 59:12"
                           << "in 59 min";
    QTest::newRow("seconds") << qint64(59) << "expires in 0:59"
                             << "in 59 s";
    QTest::newRow("an hour") << qint64(3600) << "expires in 1:00:00"
                             << "in 60 min";
    QTest::newRow("hours") << qint64(7322) << "expires in 2:02:02"
                           << "in 2 h";
    QTest::newRow("days") << qint64(90000) << "expires in 1 d 1 h"
                          << "in 25 h";
    QTest::newRow("now") << qint64(0) << "expired 0 s ago"
                         << "now";
    QTest::newRow("3 min ago") << qint64(-180) << "expired 3 min ago"
                               << "3 min ago";
    QTest::newRow("2 h ago") << qint64(-7200) << "expired 2 h ago"
                             << "2 h ago";
    QTest::newRow("days ago") << qint64(-3 * 86400) << "expired 3 days ago"
                              << "3 days ago";
}

void TestConsole::jwtCountdown()
{
    QFETCH(qint64, secondsLeft);
    QFETCH(QString, countdown);
    QFETCH(QString, relative);
    const qint64 now = 1795267112;
    QCOMPARE(JwtInspector::countdown(now + secondsLeft, now), countdown);
    QCOMPARE(JwtInspector::relative(now + secondsLeft, now), relative);
}

void TestConsole::jwtInspectorKeyAndBody()
{
    JwtInspector inspector(nullptr);
    QSignalSpy input(&inspector, &JwtInspector::inputChanged);
    inspector.setToken(" eyJ.a.b \n");
    QCOMPARE(inspector.keyKind(), QString());
    QCOMPARE(inspector.requestBody(), (QJsonObject{{"token", "eyJ.a.b"}}));

    inspector.setKey(R"( {"keys":[{"kty":"RSA","kid":"k1"}]} )");
    QCOMPARE(inspector.keyKind(), QStringLiteral("jwks"));
    QVERIFY(inspector.keyError().isEmpty());
    QCOMPARE(inspector.requestBody().value("jwks").toObject().value("keys").toArray().size(), 1);

    inspector.setKey("-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n");
    QCOMPARE(inspector.keyKind(), QStringLiteral("pem"));
    QCOMPARE(inspector.requestBody().value("pem").toString(),
             QStringLiteral("-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"));
    QVERIFY(!inspector.requestBody().contains("jwks"));

    inspector.setKey("{\"keys\": [");
    QCOMPARE(inspector.keyKind(), QStringLiteral("invalid"));
    QVERIFY2(inspector.keyError().startsWith("Not a JSON object"),
             qPrintable(inspector.keyError()));
    inspector.setKey("hello");
    QCOMPARE(inspector.keyKind(), QStringLiteral("invalid"));
    QVERIFY(!inspector.keyError().isEmpty());
    QVERIFY(!inspector.requestBody().contains("pem"));

    inspector.setKey("");
    inspector.setAudience(" api ");
    inspector.setIssuer("https://issuer.example ");
    QCOMPARE(inspector.requestBody(),
             (QJsonObject{
                 {"token", "eyJ.a.b"}, {"audience", "api"}, {"issuer", "https://issuer.example"}}));
    QCOMPARE(input.count(), 8);
    // Without an answer there is nothing to show.
    QVERIFY(!inspector.inspected());
    QCOMPARE(inspector.countdownText(), QString());
    QVERIFY(inspector.timeClaims().isEmpty());
    inspector.clear();
    QCOMPARE(inspector.token(), QString());
    QCOMPARE(inspector.audience(), QString());
}

void TestConsole::clientsRegisterRotateDelete()
{
    Connected c;
    QVERIFY(c.start());
    ClientListModel *clients = c.services.clients();
    QAbstractItemModelTester tester(clients,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(clients->loaded(), timeoutMs());
    QCOMPARE(clients->rowCount(), 3);
    QCOMPARE(clients->idAt(0), c.server.clientId(0)); // newest first
    // The server lists new clients first: the seed's ids, before any are added.
    const QString serviceId = c.server.clientId(1);
    const QString spaId = c.server.clientId(2);
    const QModelIndex till = clients->index(0);
    QCOMPARE(till.data(ClientListModel::NameRole).toString(), QStringLiteral("Legacy till (POS)"));
    QVERIFY(till.data(ClientListModel::HasObsoleteGrantRole).toBool());
    QVERIFY(till.data(ClientListModel::ConfidentialRole).toBool());
    QCOMPARE(till.data(ClientListModel::LifetimeTextRole).toString(), QStringLiteral("30 min"));
    const QModelIndex spa = clients->index(2);
    QVERIFY(!spa.data(ClientListModel::ConfidentialRole).toBool());
    QCOMPARE(spa.data(ClientListModel::RedirectUrisRole).toStringList().size(), 2);
    QCOMPARE(clients->mintOptions().size(), 1);
    QCOMPARE(clients->mintOptions().at(0).toMap().value("value").toString(), serviceId);

    ClientForm *form = c.services.clientForm();
    QSignalSpy registered(form, &ClientForm::registered);
    QSignalSpy issued(clients, &ClientListModel::secretIssued);
    QSignalSpy options(clients, &ClientListModel::mintOptionsChanged);

    // Invalid: nothing goes out.
    form->reset();
    form->submit();
    QVERIFY(form->attempted());
    QVERIFY(!form->busy());
    QTest::qWait(50); // a settle on purpose: a POST would have left with submit()
    QCOMPARE(c.server.countRequests("POST /admin/v1/clients"), 0);

    // Refused by the server: its message, verbatim.
    c.server.refuseNextRegistration("invalid_client_metadata", "no more clients today");
    form->setClientName("Inventory bot");
    form->setGrantTypes({"client_credentials"});
    form->setScope("orders:read");
    form->submit();
    QVERIFY(form->busy());
    QTRY_COMPARE_WITH_TIMEOUT(form->serverError(), QStringLiteral("no more clients today"),
                              timeoutMs());
    QVERIFY(!form->busy());
    QCOMPARE(registered.count(), 0);

    const QJsonObject body = form->requestBody();
    form->submit();
    QTRY_COMPARE_WITH_TIMEOUT(registered.count(), 1, timeoutMs());
    QCOMPARE(c.server.lastBody("POST /admin/v1/clients"), body);
    QCOMPARE(body.value("client_name").toString(), QStringLiteral("Inventory bot"));
    QCOMPARE(form->clientName(), QString()); // empty for the next one
    QCOMPARE(issued.count(), 1);
    const QString id = issued.at(0).at(0).toString();
    QCOMPARE(issued.at(0).at(1).toString(), QStringLiteral("Inventory bot"));
    QVERIFY(issued.at(0).at(2).toString().size() >= 40);
    QCOMPARE(issued.at(0).at(3).toBool(), false);
    QCOMPARE(clients->rowCount(), 4);
    QCOMPARE(clients->idAt(0), id);
    // The secret is never kept in the list.
    QVERIFY(!clients->rowAt(0).contains("client_secret"));
    // Its secret does not end: no end to show.
    QCOMPARE(clients->data(clients->index(0), ClientListModel::CredentialsEndTextRole).toString(),
             QString());
    QVERIFY(!clients->data(clients->index(0), ClientListModel::CredentialsEndedRole).toBool());
    QCOMPARE(clients->mintOptions().size(), 2);
    QVERIFY(options.count() >= 1);

    clients->rotateSecret(id);
    QVERIFY(clients->busy());
    QTRY_COMPARE_WITH_TIMEOUT(issued.count(), 2, timeoutMs());
    QCOMPARE(issued.at(1).at(0).toString(), id);
    QCOMPARE(issued.at(1).at(3).toBool(), true);
    QVERIFY(issued.at(1).at(2) != issued.at(0).at(2));
    QVERIFY(!clients->rowAt(0).contains("client_secret"));

    // A public client has no secret to rotate: the server's message.
    clients->rotateSecret(spaId);
    QTRY_VERIFY_WITH_TIMEOUT(!clients->busy(), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(clients->error(),
                              QStringLiteral("client %1 is public and has no secret").arg(spaId),
                              timeoutMs());
    QCOMPARE(issued.count(), 2);

    QSignalSpy removed(clients, &ClientListModel::clientRemoved);
    const int tokenReloads = c.server.countRequests("GET /admin/v1/tokens");
    clients->remove(serviceId);
    QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 1, timeoutMs());
    QCOMPARE(clients->rowCount(), 3);
    QCOMPARE(clients->indexOfId(serviceId), -1);
    QCOMPARE(clients->error(), QString());
    // Its tokens went with it: the token list is read again.
    QTRY_COMPARE_WITH_TIMEOUT(c.server.countRequests("GET /admin/v1/tokens"), tokenReloads + 1,
                              timeoutMs());
}

void TestConsole::orderEventsOlderThanTheListAskNothing()
{
    Connected c;
    QVERIFY(c.start());
    OrderListModel all(c.services.adminClient(), nullptr);
    all.reload();
    QTRY_VERIFY_WITH_TIMEOUT(all.loaded(), timeoutMs());
    QVERIFY(all.count() >= 5);
    const QJsonObject oldest = all.rowAt(all.count() - 1);
    const QString oldestId = oldest.value("id").toString();

    // A list of the 3 newest: the oldest order is behind it.
    OrderListModel newest(c.services.adminClient(), nullptr);
    newest.setCapacity(3);
    newest.reload();
    QTRY_VERIFY_WITH_TIMEOUT(newest.loaded(), timeoutMs());
    QCOMPARE(newest.count(), 3);
    QVERIFY(newest.hasOlder());
    const QString path = "GET /admin/v1/orders/" + oldestId;
    QCOMPARE(c.server.countRequests(path), 0);

    // Its status changes: the event says when it was created, so nothing is asked and the
    // list stays as it is (the order is read when the list pages back to it).
    QSignalSpy changed(&newest, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&newest, &QAbstractItemModel::rowsInserted);
    newest.handleEvent(makeEvent(1, "order.status",
                                 {{"orderId", oldestId},
                                  {"customerId", oldest.value("customerId")},
                                  {"orderStatus", "CANCELLED"},
                                  {"version", 99},
                                  {"createdDate", oldest.value("createdDate")}}));
    QTest::qWait(200); // a settle on purpose: a request would have left with handleEvent()
    QCOMPARE(c.server.countRequests(path), 0);
    QCOMPARE(newest.count(), 3);
    QVERIFY(newest.hasOlder());
    QCOMPARE(changed.count() + inserted.count(), 0);

    // Without the creation time (an older backend) it asks for the order, and still keeps it
    // out of the list.
    newest.handleEvent(makeEvent(2, "order.status",
                                 {{"orderId", oldestId},
                                  {"customerId", oldest.value("customerId")},
                                  {"orderStatus", "CANCELLED"},
                                  {"version", 99}}));
    QTRY_COMPARE_WITH_TIMEOUT(c.server.countRequests(path), 1, timeoutMs());
    QTest::qWait(100); // a settle on purpose: the answer arrives; it must not add the order
    QCOMPARE(newest.count(), 3);
    QCOMPARE(newest.indexOfId(oldestId), -1);

    // One of the listed orders changes in place, without asking either.
    const QString listed = newest.idAt(1);
    QVERIFY(c.server.setOrderStatus(listed, "CANCELLED"));
    QTRY_COMPARE_WITH_TIMEOUT(newest.index(1).data(OrderListModel::StatusRole).toString(),
                              QStringLiteral("CANCELLED"), timeoutMs());
    QCOMPARE(c.server.countRequests("GET /admin/v1/orders/" + listed), 0);
}

void TestConsole::ordersPageBackOnDemand()
{
    Connected c;
    QVERIFY(c.start());
    // Everything at once, to compare with.
    OrderListModel all(c.services.adminClient(), nullptr);
    all.reload();
    QTRY_VERIFY_WITH_TIMEOUT(all.loaded(), timeoutMs());
    const int total = all.count();
    QVERIFY2(total >= 5, "the seed has a few orders");
    QVERIFY(!all.hasOlder());

    // Two at a time: a full page says there may be more; each loadOlder() adds the next two
    // older ones after the last row, until a short page.
    OrderListModel paged(c.services.adminClient(), nullptr);
    paged.setCapacity(2);
    QAbstractItemModelTester tester(&paged, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy older(&paged, &LiveListModel::olderChanged);
    paged.reload();
    QTRY_VERIFY_WITH_TIMEOUT(paged.loaded(), timeoutMs());
    QCOMPARE(paged.count(), 2);
    QVERIFY(paged.hasOlder());
    QVERIFY(paged.canFetchMore({}));
    int pages = 1;
    while (paged.hasOlder()) {
        const int before = paged.count();
        paged.fetchMore({}); // what a view does at the end of the list
        QVERIFY(paged.loadingOlder());
        QVERIFY(!paged.canFetchMore({})); // one read at a time
        QTRY_VERIFY_WITH_TIMEOUT(!paged.loadingOlder(), timeoutMs());
        QVERIFY(paged.count() > before || !paged.hasOlder());
        QVERIFY2(++pages <= total, "paging ends");
    }
    QCOMPARE(paged.count(), total);
    for (int row = 0; row < total; ++row) {
        QCOMPARE(paged.idAt(row), all.idAt(row));
        // Rows keep their lines' count and quantity, not the lines themselves.
        QCOMPARE(paged.index(row).data(OrderListModel::QuantityRole),
                 all.index(row).data(OrderListModel::QuantityRole));
        QCOMPARE(paged.index(row).data(OrderListModel::LineCountRole),
                 all.index(row).data(OrderListModel::LineCountRole));
    }
    QVERIFY(!paged.rowAt(0).contains(QLatin1String("beerOrderLines")));
    QVERIFY(older.count() >= 2);

    // A reload starts over at one page.
    paged.reload();
    QTRY_VERIFY_WITH_TIMEOUT(!paged.loading(), timeoutMs());
    QCOMPARE(paged.count(), 2);
    QVERIFY(paged.hasOlder());
}

void TestConsole::clientsFollowChangesMadeElsewhere()
{
    Connected c;
    QVERIFY(c.start());
    ClientListModel *clients = c.services.clients();
    QAbstractItemModelTester tester(clients,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(clients->loaded(), timeoutMs());
    QCOMPARE(clients->rowCount(), 3);
    const int mintable = int(clients->mintOptions().size());
    // Registered by someone else (the CLI, RFC 7591, demo seeding): it appears on its event,
    // read from the server, and the Tokens page can mint for it.
    const QString id = c.server.registerClientElsewhere(QStringLiteral("Nightly export"));
    QTRY_COMPARE_WITH_TIMEOUT(clients->rowCount(), 4, timeoutMs());
    QCOMPARE(clients->idAt(0), id);
    QCOMPARE(clients->index(0).data(ClientListModel::NameRole).toString(),
             QStringLiteral("Nightly export"));
    QCOMPARE(clients->mintOptions().size(), mintable + 1);
    // Deleted elsewhere: its row goes.
    const QString gone = clients->idAt(2);
    c.server.removeClientElsewhere(gone);
    QTRY_COMPARE_WITH_TIMEOUT(clients->rowCount(), 3, timeoutMs());
    QCOMPARE(clients->indexOfId(gone), -1);
    QCOMPARE(clients->error(), QString());
}

void TestConsole::tokensMintRevokeAndInspect()
{
    Connected c;
    QVERIFY(c.start());
    TokenListModel *tokens = c.services.tokens();
    QAbstractItemModelTester tester(tokens, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(tokens->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(c.services.clients()->loaded(), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(c.server.openStreams(), 1, timeoutMs());
    QCOMPARE(tokens->rowCount(), 3);
    const QModelIndex top = tokens->index(0); // newest first
    QCOMPARE(top.data(TokenListModel::ClientNameRole).toString(), QStringLiteral("Warehouse sync"));
    QCOMPARE(top.data(TokenListModel::KindTextRole).toString(), QStringLiteral("Access token"));
    QCOMPARE(tokens->index(1).data(TokenListModel::SubjectTextRole).toString(),
             QStringLiteral("anna"));

    JwtInspector *inspector = c.services.jwtInspector();
    QSignalSpy minted(tokens, &TokenListModel::minted);
    tokens->mint(c.server.clientId(1), " orders:read ");
    QVERIFY(tokens->minting());
    QTRY_COMPARE_WITH_TIMEOUT(minted.count(), 1, timeoutMs());
    QCOMPARE(c.server.lastBody("POST /admin/v1/tokens"),
             (QJsonObject{{"client_id", c.server.clientId(1)}, {"scope", "orders:read"}}));
    QCOMPARE(tokens->mintedSummary(),
             QStringLiteral("Bearer · expires in 1 h · scope orders:read"));
    // Straight into the decoder, and verified there.
    QCOMPARE(inspector->token(), tokens->mintedToken());
    QTRY_VERIFY_WITH_TIMEOUT(inspector->inspected(), timeoutMs());
    QCOMPARE(inspector->verdict(), QStringLiteral("Valid: every check passed."));
    QVERIFY(inspector->valid());
    QVERIFY(inspector->decoded());
    QVERIFY(inspector->headerText().contains("\"kid\": \"test-key-1\""));
    QCOMPARE(inspector->checks().size(), 8);
    QCOMPARE(inspector->checks().at(2).toMap().value("name").toString(),
             QStringLiteral("signature"));
    QCOMPARE(inspector->checks().at(2).toMap().value("statusText").toString(),
             QStringLiteral("passed"));
    QVERIFY(inspector->hasExpiry());
    QVERIFY(!inspector->expired());
    QCOMPARE(inspector->timeClaims().size(), 2); // exp, iat
    QCOMPARE(inspector->timeClaims().at(0).toMap().value("claim").toString(),
             QStringLiteral("exp"));
    QVERIFY2(QRegularExpression("^expires in (59:\\d\\d|1:00:00)$")
                 .match(inspector->countdownText())
                 .hasMatch(),
             qPrintable(inspector->countdownText()));
    // The countdown moves on its own.
    QSignalSpy clock(inspector, &JwtInspector::clockChanged);
    QTRY_VERIFY_WITH_TIMEOUT(clock.count() >= 1, timeoutMs());
    // The token is listed (oauth.token.issued).
    QTRY_COMPARE_WITH_TIMEOUT(tokens->rowCount(), 4, timeoutMs());

    // Copied as a secret: marked for clipboard managers and clipboard history to leave out, and
    // taken off the clipboard again; what the user copied meanwhile stays, and so does a plain
    // copy (a client id).
    QClipboard *clipboard = QGuiApplication::clipboard();
    QVERIFY(clipboard);
    const auto restoreLifetime =
        qScopeGuard([] { setSecretClipboardLifetime(kSecretClipboardLifetime); });
    setSecretClipboardLifetime(std::chrono::milliseconds(200));
    QVERIFY(!tokens->mintedTokenCopied());
    tokens->copyMintedToken();
    QVERIFY(tokens->mintedTokenCopied()); // the button says "Copied"
    QCOMPARE(clipboard->text(), tokens->mintedToken());
    QCOMPARE(clipboard->mimeData()->data(QStringLiteral("x-kde-passwordManagerHint")),
             QByteArray("secret"));
    QTRY_COMPARE_WITH_TIMEOUT(clipboard->text(), QString(), timeoutMs());
    tokens->copyMintedToken();
    clipboard->setText(QStringLiteral("copied by the user"));
    QTest::qWait(500);
    QCOMPARE(clipboard->text(), QStringLiteral("copied by the user"));
    c.services.clients()->copyToClipboard(QStringLiteral("client-id-1"));
    QVERIFY(!clipboard->mimeData()->hasFormat(QStringLiteral("x-kde-passwordManagerHint")));
    QTest::qWait(500);
    QCOMPARE(clipboard->text(), QStringLiteral("client-id-1"));
    // A secret copied twice: the first copy's timer does not cut the second one short.
    setSecretClipboardLifetime(std::chrono::milliseconds(400));
    c.services.customers()->copySecretToClipboard(QStringLiteral("whsec_first"));
    QTest::qWait(250);
    c.services.customers()->copySecretToClipboard(QStringLiteral("whsec_first"));
    QTest::qWait(250);
    QCOMPARE(clipboard->text(), QStringLiteral("whsec_first"));
    QTRY_COMPARE_WITH_TIMEOUT(clipboard->text(), QString(), timeoutMs());

    // Refused: the OAuth error_description, verbatim.
    tokens->mint(c.server.clientId(2), QString());
    QTRY_COMPARE_WITH_TIMEOUT(tokens->mintError(),
                              QStringLiteral("a public client cannot use client_credentials"),
                              timeoutMs());
    QVERIFY(!tokens->minting());
    QCOMPARE(minted.count(), 1);

    // Revoke: the row goes, without reading the list again.
    const int reloads = c.server.countRequests("GET /admin/v1/tokens");
    const QString id = tokens->idAt(0);
    tokens->revoke(id);
    QTRY_COMPARE_WITH_TIMEOUT(tokens->rowCount(), 3, timeoutMs());
    QCOMPARE(tokens->indexOfId(id), -1);
    QCOMPARE(c.server.countRequests("DELETE /admin/v1/tokens/" + id), 1);
    // Someone else revokes one: its event drops the row.
    const QString other = tokens->idAt(0);
    c.server.sendEvent("oauth.token.revoked", {{"tokenHashPrefix", other.left(8)}, {"by", "user"}});
    QTRY_COMPARE_WITH_TIMEOUT(tokens->rowCount(), 2, timeoutMs());
    QTest::qWait(400); // a settle on purpose: past the list's 250 ms reload timer, no reload
    QCOMPARE(c.server.countRequests("GET /admin/v1/tokens"), reloads);

    // A token of something the list does not know: read again once.
    c.server.sendEvent("oauth.token.issued", {{"tokenHashPrefix", "zzzzzzzz"}});
    QTRY_COMPARE_WITH_TIMEOUT(c.server.countRequests("GET /admin/v1/tokens"), reloads + 1,
                              timeoutMs());

    // Garbage is "Not a JWT", with no checks.
    inspector->setToken("not-a-token");
    QTRY_VERIFY_WITH_TIMEOUT(inspector->verdict().startsWith("Not a JWT"), timeoutMs());
    QVERIFY(!inspector->decoded());
    QVERIFY(inspector->checks().isEmpty());
    QVERIFY(!inspector->hasExpiry());
    QCOMPARE(inspector->countdownText(), QString());
    // Emptied: nothing to show, nothing asked.
    const int inspects = c.server.countRequests("POST /admin/v1/jwt/inspect");
    inspector->setToken("   ");
    QVERIFY(!inspector->inspected());
    QTest::qWait(500); // a settle on purpose: past the typing pause, nothing is asked
    QCOMPARE(c.server.countRequests("POST /admin/v1/jwt/inspect"), inspects);
}

void TestConsole::realBackendClientsTokensJwt()
{
    QTemporaryDir dir;
    auto config = realBackendConfig(dir);
    QVERIFY(config);
    Gatehouse::Admin::Backend backend(*config);
    QVERIFY(backend.start());
    ConsoleServices services;
    services.adminClient()->connectTo(QUrl(backend.adminUrl()), backend.adminToken());
    ClientListModel *clients = services.clients();
    TokenListModel *tokens = services.tokens();
    QAbstractItemModelTester clientsTester(clients,
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester tokensTester(tokens,
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(clients->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(tokens->loaded(), timeoutMs());
    const int clientsBefore = clients->rowCount();

    // The console's own rules and the server's agree on a refusal too: a public
    // client_credentials client is refused before anything is sent.
    ClientForm *form = services.clientForm();
    QSignalSpy registered(form, &ClientForm::registered);
    QSignalSpy issued(clients, &ClientListModel::secretIssued);
    form->setClientName("Console test service");
    form->setGrantTypes({"client_credentials"});
    form->setAuthMethod("none");
    form->submit();
    QVERIFY(!form->grantTypesError().isEmpty());
    QVERIFY(!form->busy());

    form->setAuthMethod("client_secret_basic");
    form->setScope("orders:read orders:write");
    form->setLifetime("600");
    form->submit();
    QTRY_COMPARE_WITH_TIMEOUT(registered.count(), 1, timeoutMs());
    QCOMPARE(form->serverError(), QString());
    QCOMPARE(issued.count(), 1);
    const QString clientId = issued.at(0).at(0).toString();
    QVERIFY(!issued.at(0).at(2).toString().isEmpty()); // the secret, once
    QCOMPARE(clients->rowCount(), clientsBefore + 1);
    const QModelIndex row = clients->index(clients->indexOfId(clientId));
    QCOMPARE(row.data(ClientListModel::LifetimeTextRole).toString(), QStringLiteral("10 min"));
    QCOMPARE(row.data(ClientListModel::ScopeRole).toString(),
             QStringLiteral("orders:read orders:write"));
    QVERIFY(!clients->rowAt(clients->indexOfId(clientId)).contains("client_secret"));
    bool mintable = false;
    for (const QVariant &option : clients->mintOptions())
        mintable = mintable || option.toMap().value("value").toString() == clientId;
    QVERIFY(mintable);

    // Mint a demo token; it goes into the decoder, which the server says is valid.
    JwtInspector *inspector = services.jwtInspector();
    QSignalSpy minted(tokens, &TokenListModel::minted);
    tokens->mint(clientId, "orders:read");
    QTRY_COMPARE_WITH_TIMEOUT(minted.count(), 1, timeoutMs());
    QCOMPARE(tokens->mintError(), QString());
    QCOMPARE(inspector->token(), tokens->mintedToken());
    QTRY_VERIFY_WITH_TIMEOUT(inspector->inspected(), timeoutMs());
    QCOMPARE(inspector->error(), QString());
    QCOMPARE(inspector->verdict(), QStringLiteral("Valid: every check passed."));
    QVERIFY(inspector->valid());
    QCOMPARE(inspector->keySourceText(), QStringLiteral("this server's JWKS"));
    QStringList names;
    for (const QVariant &check : inspector->checks()) {
        const QVariantMap c = check.toMap();
        names.append(c.value("name").toString());
        QVERIFY2(c.value("status").toString() != QLatin1String("fail"),
                 qPrintable(c.value("detail").toString()));
    }
    QCOMPARE(names, (QStringList{"alg", "kid", "signature", "exp", "nbf", "iat", "iss", "aud"}));
    QVERIFY(inspector->payloadText().contains(clientId));
    QVERIFY2(QRegularExpression("^expires in (9:\\d\\d|10:00)$")
                 .match(inspector->countdownText())
                 .hasMatch(),
             qPrintable(inspector->countdownText()));
    // The token is among the active ones.
    QTRY_VERIFY_WITH_TIMEOUT(tokens->rowCount() >= 1, timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(tokens->index(0).data(TokenListModel::ClientIdRole).toString(),
                              clientId, timeoutMs());

    // The wrong audience: invalid, and the verdict says why.
    inspector->setAudience("billing-api");
    QTRY_VERIFY2_WITH_TIMEOUT(inspector->verdict().startsWith("Invalid: "),
                              qPrintable(inspector->verdict()), timeoutMs());
    QVERIFY(inspector->verdict().contains("billing-api"));
    QVERIFY(!inspector->valid());

    // Revoke it through the console.
    const QString tokenId = tokens->idAt(0);
    tokens->revoke(tokenId);
    QTRY_COMPARE_WITH_TIMEOUT(tokens->indexOfId(tokenId), -1, timeoutMs());
    QCOMPARE(tokens->error(), QString());

    bool stopped = false;
    backend.stop([&stopped] { stopped = true; });
    QTRY_VERIFY_WITH_TIMEOUT(stopped, timeoutMs());
}

// ---- Cluster: Nodes and RBAC -----------------------------------------------------------

namespace {

using TestHelpers::fileMode;

QStringList labelStates(const NodeLabelModel &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row);
        out.append(index.data(NodeLabelModel::KeyRole).toString() + QLatin1Char('=') +
                   index.data(NodeLabelModel::ValueRole).toString() + QLatin1Char(':') +
                   index.data(NodeLabelModel::StateRole).toString());
    }
    return out;
}

QVariantMap stageOf(const NodeLabelEditor &editor, const QString &name)
{
    for (const QVariant &stage : editor.stages())
        if (stage.toMap().value("stage").toString() == name)
            return stage.toMap();
    return {};
}

} // namespace

void TestConsole::nodeLabelModelEdits()
{
    NodeLabelModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&model, &NodeLabelModel::changed);
    model.reset({{"kubernetes.io/os", "linux"}, {"example.com/rack", "r1"}});
    QCOMPARE(labelStates(model),
             (QStringList{"example.com/rack=r1:unchanged", "kubernetes.io/os=linux:unchanged"}));
    QVERIFY(!model.hasChanges());

    QVERIFY(model.setValue(0, "r2"));
    QVERIFY(!model.setValue(0, "r2")); // the same again: no change
    model.add("example.com/gpu", "a100");
    model.remove(1);
    QCOMPARE(labelStates(model),
             (QStringList{"example.com/rack=r2:changed", "kubernetes.io/os=:removed",
                          "example.com/gpu=a100:added"}));
    QCOMPARE(model.changes(), (QJsonObject{{"example.com/rack", "r2"},
                                           {"kubernetes.io/os", QJsonValue::Null},
                                           {"example.com/gpu", "a100"}}));
    QCOMPARE(model.index(2).data(NodeLabelModel::StateTextRole).toString(),
             QStringLiteral("added"));
    QVERIFY(model.index(2).data(NodeLabelModel::IsNewRole).toBool());
    QVERIFY(model.index(1).data(NodeLabelModel::IsRemovedRole).toBool());

    // Adding a key the node has sets its value; removing an added row drops it.
    model.add("kubernetes.io/os", "linux");
    QCOMPARE(model.index(1).data(NodeLabelModel::StateRole).toString(),
             QStringLiteral("unchanged"));
    model.remove(2);
    QCOMPARE(model.rowCount(), 2);
    model.restore(0);
    QVERIFY(!model.hasChanges());
    QCOMPARE(model.changes(), QJsonObject());
    QVERIFY(changed.count() >= 6);

    // Out of range: nothing happens.
    QVERIFY(!model.setValue(7, "x"));
    model.remove(-1);
    model.restore(9);
    QCOMPARE(model.rowCount(), 2);
}

void TestConsole::nodeLabelModelRebase()
{
    NodeLabelModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.reset({{"a", "1"}, {"b", "2"}, {"c", "3"}});
    model.setValue(0, "10"); // a: edited
    model.remove(1);         // b: removed
    model.add("d", "4");     // d: added
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy dataChanged(&model, &QAbstractItemModel::dataChanged);

    // The node changed elsewhere: c changed, e appeared, d now exists with our value.
    model.rebase({{"a", "1"}, {"b", "2"}, {"c", "30"}, {"d", "4"}, {"e", "5"}});
    QCOMPARE(labelStates(model), (QStringList{"a=10:changed", "b=:removed", "c=30:unchanged",
                                              "d=4:unchanged", "e=5:unchanged"}));
    QCOMPARE(model.changes(), (QJsonObject{{"a", "10"}, {"b", QJsonValue::Null}}));

    // Our change was applied: nothing is pending any more, and the rows stay in place.
    reset.clear();
    dataChanged.clear();
    model.rebase({{"a", "10"}, {"c", "30"}, {"d", "4"}, {"e", "5"}});
    QCOMPARE(labelStates(model),
             (QStringList{"a=10:unchanged", "c=30:unchanged", "d=4:unchanged", "e=5:unchanged"}));
    QVERIFY(!model.hasChanges());

    // The same labels again: in place, no reset.
    reset.clear();
    model.setValue(1, "31");
    model.rebase({{"a", "10"}, {"c", "30"}, {"d", "4"}, {"e", "6"}});
    QCOMPARE(reset.count(), 0);
    QCOMPARE(labelStates(model),
             (QStringList{"a=10:unchanged", "c=31:changed", "d=4:unchanged", "e=6:unchanged"}));
    // A key the node lost while we edited it is to be added again.
    model.rebase({{"a", "10"}, {"d", "4"}, {"e", "6"}});
    QCOMPARE(labelStates(model),
             (QStringList{"a=10:unchanged", "d=4:unchanged", "e=6:unchanged", "c=31:added"}));
}

void TestConsole::nodeLabelEditorBody_data()
{
    QTest::addColumn<int>("identity");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("groups");
    QTest::addColumn<QJsonObject>("expected");
    QTest::addColumn<QString>("identityText");

    const QJsonObject labels{{"example.com/rack", "r2"}};
    QTest::newRow("cluster admin") << int(NodeLabelEditor::ClusterAdmin) << QString() << QString()
                                   << QJsonObject{{"user", "gatehouse-admin"},
                                                  {"groups", QJsonArray{"system:masters"}},
                                                  {"node", "node-2"},
                                                  {"labels", labels}}
                                   << "gatehouse-admin · groups system:masters";
    QTest::newRow("node agent") << int(NodeLabelEditor::NodeAgent) << QString() << QString()
                                << QJsonObject{{"user", "system:node:node-1"},
                                               {"groups", QJsonArray{"system:nodes"}},
                                               {"node", "node-2"},
                                               {"labels", labels}}
                                << "system:node:node-1 · groups system:nodes";
    QTest::newRow("custom user") << int(NodeLabelEditor::CustomUser) << " alice "
                                 << "devs, ,ops ,"
                                 << QJsonObject{{"user", "alice"},
                                                {"groups", QJsonArray{"devs", "ops"}},
                                                {"node", "node-2"},
                                                {"labels", labels}}
                                 << "alice · groups devs, ops";
    QTest::newRow("custom user without groups") << int(NodeLabelEditor::CustomUser) << "bob"
                                                << ""
                                                << QJsonObject{{"user", "bob"},
                                                               {"groups", QJsonArray{}},
                                                               {"node", "node-2"},
                                                               {"labels", labels}}
                                                << "bob · no groups";
    QTest::newRow("anonymous") << int(NodeLabelEditor::Anonymous) << QString() << QString()
                               << QJsonObject{{"anonymous", true},
                                              {"node", "node-2"},
                                              {"labels", labels}}
                               << "system:anonymous · no credentials at all";
}

void TestConsole::nodeLabelEditorBody()
{
    QFETCH(int, identity);
    QFETCH(QString, user);
    QFETCH(QString, groups);
    QFETCH(QJsonObject, expected);
    QFETCH(QString, identityText);

    NodeListModel nodes(nullptr);
    NodeLabelEditor editor(nullptr, &nodes);
    nodes.upsert(QJsonObject{
        {"metadata", QJsonObject{{"name", "node-2"},
                                 {"resourceVersion", "7"},
                                 {"labels", QJsonObject{{"example.com/rack", "r1"}}}}}});
    // The first node is picked on its own; the node agent defaults to it.
    QCOMPARE(editor.nodeName(), QStringLiteral("node-2"));
    QCOMPARE(editor.agentNode(), QStringLiteral("node-2"));
    QVERIFY(editor.nodeKnown());
    QCOMPARE(editor.resourceVersion(), QStringLiteral("7"));
    editor.setAgentNode("node-1");
    editor.setIdentity(NodeLabelEditor::Identity(identity));
    editor.setCustomUser(user);
    editor.setCustomGroups(groups);
    editor.setLabelValue(0, "r2");
    QCOMPARE(editor.requestBody(), expected);
    QCOMPARE(editor.identityText(), identityText);
    QCOMPARE(editor.identityError(), QString());
    QCOMPARE(editor.changesText(), QStringLiteral("{\"example.com/rack\":\"r2\"}"));
    QVERIFY(!editor.canApply()); // no admin API
}

void TestConsole::nodeLabelEditorShowsAdmissionWebhooks()
{
    Connected c;
    c.server.setAdmissionWebhooks(QJsonArray{
        QJsonObject{{"name", "audit.policy.example.com"}, {"denyKey", "never"}, {"latencyMs", 1.5}},
        QJsonObject{{"name", "teams.policy.example.com"},
                    {"denyKey", "team"},
                    {"message", "team labels are set by the CMDB"},
                    {"latencyMs", 3.5}}});
    QVERIFY(c.start());
    NodeLabelEditor *editor = c.services.nodeEditor();
    QTRY_VERIFY_WITH_TIMEOUT(c.services.nodes()->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());

    // Allowed: the built-in plugins by name, then each webhook's own answer and time.
    editor->setNewKey("zone");
    editor->setNewValue("z1");
    editor->explain();
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());
    QCOMPARE(editor->code(), 200);
    QCOMPARE(stageOf(*editor, "admission").value("detail").toString(),
             QStringLiteral("Admitted by NamespaceLifecycle, NodeRestriction, ServiceAccount.\n"
                            "Webhook audit.policy.example.com: allowed (1.5 ms)\n"
                            "Webhook teams.policy.example.com: allowed (3.5 ms)"));

    // Refused by a webhook: the panel and the denial explainer name it.
    editor->setNewKey("team");
    editor->setNewValue("payments");
    editor->explain();
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());
    QCOMPARE(editor->code(), 400);
    const QVariantMap admission = stageOf(*editor, "admission");
    QCOMPARE(admission.value("decision").toString(), QStringLiteral("deny"));
    QCOMPARE(admission.value("family").toString(), QStringLiteral("exception"));
    QCOMPARE(admission.value("source").toString(), QStringLiteral("teams.policy.example.com"));
    QCOMPARE(admission.value("detail").toString(),
             QStringLiteral("admission webhook \"teams.policy.example.com\" denied the request: "
                            "team labels are set by the CMDB\n"
                            "Webhook audit.policy.example.com: allowed (1.5 ms)\n"
                            "Webhook teams.policy.example.com: refused (3.5 ms)"));
    QVERIFY(editor->hasDenial());
    QCOMPARE(editor->denialStage(), QStringLiteral("admission"));
    QCOMPARE(editor->deniedBy(), QStringLiteral("admission webhook \"teams.policy.example.com\""));

    // A console with a cluster:read token: the server did not ask the webhooks, and the panel
    // says the real answer may differ.
    c.server.setWebhooksNotAsked(true);
    editor->setNewValue("billing");
    editor->explain();
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());
    QCOMPARE(editor->code(), 200);
    QCOMPARE(stageOf(*editor, "admission").value("detail").toString(),
             QStringLiteral("Admitted by NamespaceLifecycle, NodeRestriction, ServiceAccount.\n"
                            "Admission webhooks were not asked: that needs an admin token with "
                            "cluster:write, so the real answer may differ."));
}

void TestConsole::nodeLabelEditorExplainAndApply()
{
    Connected c;
    QVERIFY(c.start());
    NodeListModel *nodes = c.services.nodes();
    NodeLabelEditor *editor = c.services.nodeEditor();
    QAbstractItemModelTester tester(nodes, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester labelsTester(editor->labels(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(nodes->loaded(), timeoutMs());
    QCOMPARE(nodes->rowCount(), 3);
    const QModelIndex node1 = nodes->index(0);
    QCOMPARE(node1.data(NodeListModel::NameRole).toString(), QStringLiteral("node-1"));
    QVERIFY(node1.data(NodeListModel::ReadyRole).toBool());
    QCOMPARE(node1.data(NodeListModel::LabelCountRole).toInt(), 5);
    QCOMPARE(node1.data(NodeListModel::KubeletVersionRole).toString(), QStringLiteral("v1.32.4"));
    QCOMPARE(node1.data(NodeListModel::ZoneRole).toString(), QStringLiteral("zone-a"));
    QCOMPARE(nodes->index(2).data(NodeListModel::ReadyTextRole).toString(),
             QStringLiteral("Not ready"));

    // Picked on its own and explained; again once typing pauses, once.
    QCOMPARE(editor->nodeName(), QStringLiteral("node-1"));
    QTRY_VERIFY_WITH_TIMEOUT(c.services.clusterSettings()->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());
    QCOMPARE(editor->codeText(), QStringLiteral("200 OK"));
    const int explained = c.server.countRequests("POST /admin/v1/cluster/explain");
    editor->setNewKey("node-restriction.kubernetes.io/pool");
    editor->setNewValue("g");
    editor->setNewValue("gold");
    QTRY_COMPARE_WITH_TIMEOUT(editor->codeText(), QStringLiteral("403 Forbidden"), timeoutMs());
    QCOMPARE(c.server.countRequests("POST /admin/v1/cluster/explain"), explained + 1);
    QVERIFY(!editor->allowed());
    QCOMPARE(stageOf(*editor, "admission").value("decision").toString(), QStringLiteral("deny"));
    QCOMPARE(stageOf(*editor, "admission").value("source").toString(),
             QStringLiteral("NodeRestriction"));
    QCOMPARE(stageOf(*editor, "admission").value("detail").toString(),
             QStringLiteral("nodes \"node-1\" is forbidden: is not allowed to modify labels: "
                            "node-restriction.kubernetes.io/pool"));
    QCOMPARE(stageOf(*editor, "admission").value("family").toString(), QStringLiteral("exception"));
    QCOMPARE(stageOf(*editor, "authorization").value("detail").toString(),
             QStringLiteral("Allowed by the Node authorizer."));

    // Applied for real: refused, nothing stored, the change stays pending.
    QVERIFY(editor->canApply());
    editor->apply();
    QVERIFY(!editor->canApply()); // while it runs
    QTRY_COMPARE_WITH_TIMEOUT(editor->applyCode(), 403, timeoutMs());
    QCOMPARE(editor->applyMessage(),
             QStringLiteral("nodes \"node-1\" is forbidden: is not allowed to modify labels: "
                            "node-restriction.kubernetes.io/pool"));
    QVERIFY(editor->hasChanges());
    QVERIFY(!c.server.clusterNode("node-1")
                 .value("metadata")
                 .toObject()
                 .value("labels")
                 .toObject()
                 .contains("node-restriction.kubernetes.io/pool"));

    // As cluster admin it is allowed and saved; the node is read again.
    editor->setIdentity(NodeLabelEditor::ClusterAdmin);
    QTRY_COMPARE_WITH_TIMEOUT(editor->codeText(), QStringLiteral("200 OK"), timeoutMs());
    editor->apply();
    QTRY_COMPARE_WITH_TIMEOUT(editor->applyCode(), 200, timeoutMs());
    QCOMPARE(editor->applyMessage(),
             QStringLiteral("Labels saved: node-1 is at resourceVersion 101."));
    QCOMPARE(editor->newKey(), QString());
    QTRY_VERIFY_WITH_TIMEOUT(!editor->hasChanges(), timeoutMs());
    QCOMPARE(editor->labels()->indexOfKey("node-restriction.kubernetes.io/pool") >= 0, true);
    QTRY_COMPARE_WITH_TIMEOUT(editor->resourceVersion(), QStringLiteral("101"), timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(nodes->index(0).data(NodeListModel::LabelCountRole).toInt(), 6,
                              timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(
        c.server.countRequests("GET /admin/v1/cluster/k8s/api/v1/nodes/node-1") >= 1, timeoutMs());

    // A node that is gone: nothing to explain.
    c.server.sendEvent("cluster.object.changed",
                       {{"type", "DELETED"}, {"resource", "nodes"}, {"name", "node-3"}});
    QTRY_COMPARE_WITH_TIMEOUT(nodes->rowCount(), 2, timeoutMs());
    editor->setNodeName("node-3");
    QVERIFY(!editor->nodeKnown());
    QTRY_VERIFY_WITH_TIMEOUT(!editor->explained(), timeoutMs());

    // The admin API refuses a bad request with 400: shown as it wrote it.
    editor->setNodeName("node-2");
    editor->setIdentity(NodeLabelEditor::CustomUser);
    QCOMPARE(editor->identityError(), QStringLiteral("Give a user name."));
    QVERIFY(!editor->canApply());
}

void TestConsole::rbacRuleText_data()
{
    QTest::addColumn<QJsonObject>("rule");
    QTest::addColumn<QString>("text");
    QTest::newRow("core") << QJsonObject{{"apiGroups", QJsonArray{""}},
                                         {"resources", QJsonArray{"pods", "services"}},
                                         {"verbs", QJsonArray{"get", "list"}}}
                          << "get, list on pods, services (core)";
    QTest::newRow("groups") << QJsonObject{{"apiGroups", QJsonArray{"", "apps"}},
                                           {"resources", QJsonArray{"deployments"}},
                                           {"verbs", QJsonArray{"*"}}}
                            << "* on deployments (core, apps)";
    QTest::newRow("named") << QJsonObject{{"apiGroups", QJsonArray{""}},
                                          {"resources", QJsonArray{"configmaps"}},
                                          {"resourceNames", QJsonArray{"a", "b"}},
                                          {"verbs", QJsonArray{"get"}}}
                           << "get on configmaps (core) named a, b";
    QTest::newRow("non-resource") << QJsonObject{{"nonResourceURLs",
                                                  QJsonArray{"/healthz", "/version"}},
                                                 {"verbs", QJsonArray{"get"}}}
                                  << "get on /healthz, /version";
}

void TestConsole::rbacRuleText()
{
    QFETCH(QJsonObject, rule);
    QFETCH(QString, text);
    QCOMPARE(RbacRoleModel::ruleText(rule), text);
}

void TestConsole::rbacModelsLoadAndFollowEvents()
{
    Connected c;
    QVERIFY(c.start());
    RbacRoleModel *roles = c.services.rbacRoles();
    RbacBindingModel *bindings = c.services.rbacBindings();
    QAbstractItemModelTester rolesTester(roles,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester bindingsTester(bindings,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(roles->loaded(), timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(bindings->loaded(), timeoutMs());
    QCOMPARE(roles->rowCount(), 6);
    QCOMPARE(roles->idAt(0), QStringLiteral("ClusterRole//cluster-admin"));
    const QModelIndex podReader = roles->index(roles->indexOfId("Role/shop/pod-reader"));
    QCOMPARE(podReader.data(RbacRoleModel::ScopeTextRole).toString(),
             QStringLiteral("namespace shop"));
    QCOMPARE(podReader.data(RbacRoleModel::RulesRole).toStringList(),
             QStringList{"get, list, watch on pods (core)"});
    QVERIFY(!podReader.data(RbacRoleModel::BuiltInRole).toBool());
    QVERIFY(roles->index(0).data(RbacRoleModel::BuiltInRole).toBool());

    QCOMPARE(bindings->rowCount(), 5);
    const QModelIndex readPods = bindings->index(bindings->indexOfId("RoleBinding/shop/read-pods"));
    QCOMPARE(readPods.data(RbacBindingModel::RoleRefTextRole).toString(),
             QStringLiteral("Role pod-reader"));
    QCOMPARE(readPods.data(RbacBindingModel::SubjectsRole).toStringList(),
             (QStringList{"User alice", "ServiceAccount shop/default"}));
    QCOMPARE(readPods.data(RbacBindingModel::SubjectCountRole).toInt(), 2);

    // A change to any RBAC object reads the lists again, once per burst.
    const int before =
        c.server.countRequests("GET /admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/roles");
    for (int i = 0; i < 3; ++i)
        c.server.sendEvent("cluster.object.changed", {{"type", "ADDED"},
                                                      {"resource", "roles"},
                                                      {"namespace", "shop"},
                                                      {"name", QStringLiteral("r%1").arg(i)}});
    QTRY_COMPARE_WITH_TIMEOUT(
        c.server.countRequests("GET /admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/roles"),
        before + 1, timeoutMs());
    QTest::qWait(RbacListModel::ReloadDelayMs + 100); // a settle on purpose: no second reload
    QCOMPARE(
        c.server.countRequests("GET /admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/roles"),
        before + 1);
}

void TestConsole::whoCanModel()
{
    Connected c;
    QVERIFY(c.start());
    WhoCanModel *whoCan = c.services.whoCan();
    QAbstractItemModelTester tester(whoCan, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Asked on connect with the default question.
    QTRY_COMPARE_WITH_TIMEOUT(whoCan->rowCount(), 5, timeoutMs());
    QCOMPARE(whoCan->answeredText(), QStringLiteral("nodes, cluster-wide"));
    QCOMPARE(whoCan->verbs().size(), 7);
    const int devs = [&] {
        for (int row = 0; row < whoCan->rowCount(); ++row)
            if (whoCan->index(row).data(WhoCanModel::SubjectTextRole).toString() == "Group devs")
                return row;
        return -1;
    }();
    QVERIFY(devs >= 0);
    QVERIFY(whoCan->allowed(devs, "patch"));
    QVERIFY(!whoCan->allowed(devs, "delete"));
    QVERIFY(!whoCan->allowed(devs, "nope"));
    QCOMPARE(whoCan->index(devs).data(WhoCanModel::AllowedCountRole).toInt(), 3);
    QCOMPARE(whoCan->index(devs).data(WhoCanModel::AllowedRole).toList().size(), 7);
    QCOMPARE(whoCan->index(devs).data(WhoCanModel::AllowedVerbsTextRole).toString(),
             QStringLiteral("get, list, patch"));

    // Typing does not ask; query() does. An RBAC change asks the shown question again.
    whoCan->setResource("pods");
    whoCan->setNamespaceName("shop");
    QCOMPARE(whoCan->answeredText(), QStringLiteral("nodes, cluster-wide"));
    whoCan->query();
    QTRY_COMPARE_WITH_TIMEOUT(whoCan->answeredText(), QStringLiteral("pods in namespace shop"),
                              timeoutMs());
    whoCan->setResource("secrets");
    c.server.sendEvent("cluster.object.changed",
                       {{"type", "MODIFIED"}, {"resource", "rolebindings"}, {"name", "read-pods"}});
    QTRY_COMPARE_WITH_TIMEOUT(
        c.server.countRequests("GET /admin/v1/cluster/who-can?resource=pods&namespace=shop"), 2,
        timeoutMs());
    QCOMPARE(whoCan->answeredText(), QStringLiteral("pods in namespace shop"));

    // A refusal is shown as the server wrote it.
    whoCan->setResource("  ");
    whoCan->query(); // nothing to ask
    QCOMPARE(whoCan->error(), QString());
}

void TestConsole::clusterRequestModelLive()
{
    ClusterRequestModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(4);
    auto entry = [](int i, int code) {
        return QJsonObject{{"time", QStringLiteral("2026-11-21T08:00:0%1.000Z").arg(i)},
                           {"method", "PATCH"},
                           {"path", QStringLiteral("/api/v1/nodes/node-%1").arg(i)},
                           {"user", "system:node:node-1"},
                           {"groups", QJsonArray{"system:nodes", "system:authenticated"}},
                           {"code", code},
                           {"verdict", code < 400 ? "allowed" : "denied"},
                           {"stage", code < 400 ? "ok" : "admission"},
                           {"reason", code < 400 ? "" : "forbidden"}};
    };
    model.resetFrom({entry(1, 200), entry(2, 403)}); // oldest first
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0).data(ClusterRequestModel::PathRole).toString(),
             QStringLiteral("/api/v1/nodes/node-2"));
    QVERIFY(model.index(0).data(ClusterRequestModel::DeniedRole).toBool());
    QCOMPARE(model.index(1).data(ClusterRequestModel::GroupsTextRole).toString(),
             QStringLiteral("system:nodes, system:authenticated"));
    QCOMPARE(model.deniedCount(), 1);

    AdminEvent event =
        makeEvent(1, "cluster.requests",
                  {{"requests", QJsonArray{entry(2, 403), entry(3, 200), entry(4, 200)}}});
    model.handleEvent(event);
    QCOMPARE(model.rowCount(), 4); // entry 2 was listed already
    QCOMPARE(model.index(0).data(ClusterRequestModel::PathRole).toString(),
             QStringLiteral("/api/v1/nodes/node-4"));
    model.handleEvent(makeEvent(2, "cluster.requests", {{"requests", QJsonArray{entry(5, 401)}}}));
    QCOMPARE(model.rowCount(), 4); // capacity: the oldest goes
    QCOMPARE(model.index(3).data(ClusterRequestModel::PathRole).toString(),
             QStringLiteral("/api/v1/nodes/node-2"));
    QCOMPARE(model.index(0).data(ClusterRequestModel::StageRole).toString(),
             QStringLiteral("admission"));
    model.handleEvent(makeEvent(3, "order.created", {{"requests", QJsonArray{entry(6, 200)}}}));
    QCOMPARE(model.rowCount(), 4);

    // Filters: denied only; the admin API's own reads (hidden by default).
    QSignalSpy filters(&model, &ClusterRequestModel::filtersChanged);
    model.setDeniedOnly(true);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.totalCount(), 4);
    QCOMPARE(model.deniedCount(), 2);
    model.handleEvent(makeEvent(4, "cluster.requests", {{"requests", QJsonArray{entry(7, 200)}}}));
    QCOMPARE(model.rowCount(), 1); // entry 2 dropped out at capacity; 7 is not shown
    model.setDeniedOnly(false);
    QCOMPARE(model.rowCount(), 4);
    QVERIFY(model.hideAdminReads());
    QJsonObject read = entry(8, 200);
    read.insert("user", "gatehouse-admin");
    read.insert("method", "GET");
    model.append({read});
    QCOMPARE(model.rowCount(), 3); // hidden, but kept: the oldest went at capacity
    QCOMPARE(model.totalCount(), 4);
    model.setHideAdminReads(false);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(0).data(ClusterRequestModel::UserRole).toString(),
             QStringLiteral("gatehouse-admin"));
    QCOMPARE(filters.count(), 3);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

namespace {

// Parts of real answers of the backend (POST /admin/v1/cluster/explain and GET
// /admin/v1/cluster/requests): bob in group ops patching node-2's labels, with a binding to a
// role limited by resourceNames, one to a role that does not exist and a RoleBinding elsewhere.
const char *const BobTrace = R"({
  "authorization": {"decidedBy": "", "decision": "deny", "reason": "",
    "steps": [{"authorizer": "Node", "decision": "no-opinion", "reason": ""},
              {"authorizer": "RBAC", "decision": "no-opinion", "reason": ""}],
    "nearMisses": [
      {"bindingKind": "ClusterRoleBinding", "bindingName": "bob-rack", "code": "noRuleMatches",
       "message": "no rule of ClusterRole \"rack-labeler\" allows the request",
       "roleKind": "ClusterRole", "roleName": "rack-labeler",
       "rules": [{"codes": ["resourceName"],
                  "messages": ["name \"node-2\" is not in resourceNames [node-1]"],
                  "rule": "verbs=[patch] apiGroups=[\"\"] resources=[nodes] resourceNames=[node-1]",
                  "ruleIndex": 0},
                 {"codes": ["verb", "apiGroup", "resource"],
                  "messages": ["verb \"patch\" is not in [get list]",
                               "API group \"\" (core) is not in [apps]",
                               "resource \"nodes\" is not in [deployments]"],
                  "rule": "verbs=[get list] apiGroups=[apps] resources=[deployments]",
                  "ruleIndex": 1}],
       "subject": {"kind": "User", "name": "bob"}},
      {"bindingKind": "ClusterRoleBinding", "bindingName": "ops-legacy", "code": "roleNotFound",
       "message": "roleRef names ClusterRole \"node-admin-legacy\", which does not exist",
       "roleKind": "ClusterRole", "roleName": "node-admin-legacy", "rules": [],
       "subject": {"kind": "Group", "name": "ops"}},
      {"bindingKind": "RoleBinding", "bindingName": "bob-pods", "bindingNamespace": "default",
       "code": "namespace",
       "message": "a RoleBinding grants only inside namespace \"default\"; the request is cluster-wide",
       "roleKind": "ClusterRole", "roleName": "pod-lister", "rules": [],
       "subject": {"kind": "User", "name": "bob"}}]},
  "code": 403,
  "denial": {"by": "Node, RBAC",
    "message": "nodes \"node-2\" is forbidden: User \"bob\" cannot patch resource \"nodes\" in API group \"\" at the cluster scope",
    "nearMisses": 3, "quotes": [], "stage": "authorization"},
  "method": "PATCH", "path": "/api/v1/nodes/node-2"
})";

// A kubelet reading another node, as GET /admin/v1/cluster/requests lists it (one near miss
// of three kept).
const char *const NodeReadEntry = R"({
  "code": 403, "deniedBy": "Node, RBAC", "groups": ["system:nodes", "system:authenticated"],
  "method": "GET", "name": "node-2", "namespace": "",
  "nearMisses": [
    {"bindingKind": "ClusterRoleBinding", "bindingName": "system:discovery",
     "code": "noRuleMatches",
     "message": "no rule of ClusterRole \"system:discovery\" allows the request",
     "roleKind": "ClusterRole", "roleName": "system:discovery",
     "rules": [{"codes": ["nonResourceRule"],
                "messages": ["the rule covers URL paths [/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/], not resources"],
                "rule": "verbs=[get] nonResourceURLs=[/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/]",
                "ruleIndex": 0}],
     "subject": {"kind": "Group", "name": "system:authenticated"}}],
  "path": "/api/v1/nodes/node-2",
  "quotes": [{"authorizer": "Node", "decision": "no-opinion",
              "reason": "node 'node-1' cannot read 'node-2', only its own Node object"}],
  "reason": "nodes \"node-2\" is forbidden: User \"system:node:node-1\" cannot get resource \"nodes\" in API group \"\" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object",
  "resource": "nodes", "stage": "authorization", "time": "2026-11-21T18:53:22.514Z",
  "user": "system:node:node-1", "verb": "get", "verdict": "denied"
})";

const char *const AdmissionEntry = R"({
  "code": 403, "deniedBy": "NodeRestriction", "groups": ["system:nodes", "system:authenticated"],
  "method": "PATCH", "name": "node-2", "namespace": "", "path": "/api/v1/nodes/node-2",
  "reason": "nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to modify node \"node-2\"",
  "resource": "nodes", "stage": "admission", "time": "2026-11-21T18:53:22.749Z",
  "user": "system:node:node-1", "verb": "patch", "verdict": "denied"
})";

QJsonObject json(const char *text)
{
    QJsonParseError error{};
    QJsonObject o = QJsonDocument::fromJson(text, &error).object();
    if (error.error != QJsonParseError::NoError)
        qFatal("test JSON: %s", qPrintable(error.errorString()));
    return o;
}

QVariantMap at(const QVariantList &list, int i)
{
    return list.value(i).toMap();
}

} // namespace

void TestConsole::clusterDenialFromTrace()
{
    const ClusterDenial d = ClusterDenial::fromTrace(json(BobTrace));
    QVERIFY(!d.isEmpty());
    QCOMPARE(d.stage, QStringLiteral("authorization"));
    QCOMPARE(d.by, QStringLiteral("Node, RBAC"));
    QCOMPARE(d.headline(), QStringLiteral("Refused at authorization by Node, RBAC"));
    QVERIFY(d.message.startsWith("nodes \"node-2\" is forbidden: User \"bob\" cannot patch"));
    QCOMPARE(d.quotes, QVariantList()); // neither authorizer said anything
    QCOMPARE(d.nearMisses.size(), 3);

    // A role that exists; each rule says which parts miss, in the server's words.
    const QVariantMap rack = at(d.nearMisses, 0);
    QCOMPARE(rack.value("bindingText").toString(), QStringLiteral("ClusterRoleBinding bob-rack"));
    QCOMPARE(rack.value("roleText").toString(), QStringLiteral("ClusterRole rack-labeler"));
    QCOMPARE(rack.value("subjectText").toString(), QStringLiteral("User bob"));
    QCOMPARE(rack.value("code").toString(), QStringLiteral("noRuleMatches"));
    QCOMPARE(rack.value("reasonText").toString(), QStringLiteral("no rule matches"));
    QCOMPARE(rack.value("message").toString(),
             QStringLiteral("no rule of ClusterRole \"rack-labeler\" allows the request"));
    const QVariantList rules = rack.value("rules").toList();
    QCOMPARE(rules.size(), 2);
    QCOMPARE(at(rules, 0).value("index").toInt(), 0);
    QCOMPARE(
        at(rules, 0).value("rule").toString(),
        QStringLiteral("verbs=[patch] apiGroups=[\"\"] resources=[nodes] resourceNames=[node-1]"));
    QCOMPARE(at(rules, 0).value("missText").toString(), QStringLiteral("resource name"));
    QCOMPARE(at(rules, 0).value("messages").toStringList(),
             QStringList{"name \"node-2\" is not in resourceNames [node-1]"});
    QCOMPARE(at(rules, 1).value("index").toInt(), 1);
    QCOMPARE(at(rules, 1).value("codes").toStringList(),
             (QStringList{"verb", "apiGroup", "resource"}));
    QCOMPARE(at(rules, 1).value("missText").toString(),
             QStringLiteral("verb, API group, resource"));
    QCOMPARE(at(rules, 1).value("text").toString(),
             QStringLiteral("verb \"patch\" is not in [get list]; API group \"\" (core) is not in "
                            "[apps]; resource \"nodes\" is not in [deployments]"));

    // roleRef to a role that is not there; a RoleBinding of another namespace.
    const QVariantMap legacy = at(d.nearMisses, 1);
    QCOMPARE(legacy.value("reasonText").toString(), QStringLiteral("role missing"));
    QCOMPARE(legacy.value("subjectText").toString(), QStringLiteral("Group ops"));
    QCOMPARE(legacy.value("rules").toList(), QVariantList());
    const QVariantMap pods = at(d.nearMisses, 2);
    QCOMPARE(pods.value("bindingText").toString(), QStringLiteral("RoleBinding default/bob-pods"));
    QCOMPARE(pods.value("bindingNamespace").toString(), QStringLiteral("default"));
    QCOMPARE(pods.value("reasonText").toString(), QStringLiteral("other namespace"));
    QCOMPARE(pods.value("message").toString(),
             QStringLiteral("a RoleBinding grants only inside namespace \"default\"; the request "
                            "is cluster-wide"));

    // Admission: the plugin, quoted with its message; no bindings.
    const QJsonObject admission{
        {"code", 403},
        {"admission", QJsonObject{{"decision", "deny"}, {"plugin", "NodeRestriction"}}},
        {"denial", QJsonObject{{"stage", "admission"},
                               {"by", "NodeRestriction"},
                               {"message", "nodes \"node-2\" is forbidden: node \"node-1\" is "
                                           "not allowed to modify node \"node-2\""}}}};
    const ClusterDenial a = ClusterDenial::fromTrace(admission);
    QCOMPARE(a.headline(), QStringLiteral("Refused at admission by NodeRestriction"));
    QCOMPARE(a.quotes.size(), 1);
    QCOMPARE(at(a.quotes, 0).value("who").toString(), QStringLiteral("NodeRestriction"));
    QCOMPARE(at(a.quotes, 0).value("text").toString(),
             QStringLiteral("nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to "
                            "modify node \"node-2\""));
    QCOMPARE(a.nearMisses, QVariantList());

    // Authentication: nobody to name, the reason quoted.
    const ClusterDenial u = ClusterDenial::fromTrace(
        {{"denial", QJsonObject{{"stage", "authentication"},
                                {"message", "no credentials presented and anonymous access is "
                                            "off"}}}});
    QCOMPARE(u.headline(), QStringLiteral("Refused at authentication"));
    QCOMPARE(at(u.quotes, 0).value("who").toString(), QString());

    // Groups an OIDC token claimed but the cluster dropped: one more quote, after the
    // authorizers', in the trace and in a recorded request; junk in the list is skipped.
    const ClusterDenial dropped = ClusterDenial::fromTrace(
        {{"denial", QJsonObject{{"stage", "authorization"},
                                {"by", "Node, RBAC"},
                                {"quotes", QJsonArray{QJsonObject{{"authorizer", "RBAC"},
                                                                  {"decision", "no-opinion"},
                                                                  {"reason", "no binding"}}}},
                                {"droppedGroups", QJsonArray{"system:masters", 7}}}}});
    QCOMPARE(dropped.quotes.size(), 2);
    QCOMPARE(at(dropped.quotes, 1).value("who").toString(), QStringLiteral("oidc"));
    QCOMPARE(at(dropped.quotes, 1).value("decision").toString(), QStringLiteral("dropped"));
    QVERIFY2(at(dropped.quotes, 1)
                 .value("text")
                 .toString()
                 .startsWith(QStringLiteral("Groups of the token the cluster dropped: "
                                            "system:masters (")),
             qPrintable(at(dropped.quotes, 1).value("text").toString()));
    const ClusterDenial recorded = ClusterDenial::fromRecordedRequest(
        {{"verdict", "denied"},
         {"code", 403},
         {"stage", "authorization"},
         {"droppedGroups", QJsonArray{"system:masters", "system:nodes"}}});
    QCOMPARE(recorded.quotes.size(), 1);
    QVERIFY(at(recorded.quotes, 0)
                .value("text")
                .toString()
                .contains(QStringLiteral("system:masters, system:nodes")));
    QCOMPARE(ClusterDenial::fromRecordedRequest({{"verdict", "denied"},
                                                 {"code", 403},
                                                 {"stage", "authorization"},
                                                 {"droppedGroups", "system:masters"}})
                 .quotes.size(),
             0);

    // Allowed: nothing at all.
    QVERIFY(ClusterDenial::fromTrace({{"code", 200}, {"authorization", QJsonObject{}}}).isEmpty());
    QCOMPARE(ClusterDenial::fromTrace({}).headline(), QString());
}

void TestConsole::clusterDenialMalformed_data()
{
    QTest::addColumn<QByteArray>("nearMisses");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("rules");

    QTest::newRow("missing") << QByteArray() << 0 << 0;
    QTest::newRow("null") << QByteArray("null") << 0 << 0;
    QTest::newRow("a number (the denial's count)") << QByteArray("6") << 0 << 0;
    QTest::newRow("a string") << QByteArray("\"bob-rack\"") << 0 << 0;
    QTest::newRow("an object") << QByteArray(R"({"bindingName": "x"})") << 0 << 0;
    QTest::newRow("empty") << QByteArray("[]") << 0 << 0;
    QTest::newRow("junk entries skipped")
        << QByteArray(
               R"([1, null, "x", [], {"bindingName": "ok", "rules": [7, {"codes": [1, "verb"], "messages": [null, "m"]}]}])")
        << 1 << 1;
    QTest::newRow("rules not a list")
        << QByteArray(R"([{"bindingName": "x", "rules": {"a": 1}}])") << 1 << 0;
    QTest::newRow("fields of the wrong type")
        << QByteArray(R"([{"bindingName": 3, "subject": "bob", "code": [], "message": {}}])") << 1
        << 0;
}

void TestConsole::clusterDenialMalformed()
{
    QFETCH(QByteArray, nearMisses);
    QFETCH(int, count);
    QFETCH(int, rules);

    QJsonObject trace{{"denial", QJsonObject{{"stage", "authorization"}, {"quotes", 5}}}};
    QJsonValue value;
    if (!nearMisses.isEmpty()) {
        const QJsonDocument doc =
            QJsonDocument::fromJson("{\"v\": " + nearMisses + "}"); // scalars too
        value = doc.object().value("v");
        trace.insert("authorization", QJsonObject{{"nearMisses", value}});
    }
    const ClusterDenial d = ClusterDenial::fromTrace(trace);
    QCOMPARE(d.stage, QStringLiteral("authorization"));
    QCOMPARE(d.quotes, QVariantList()); // "quotes": 5
    QCOMPARE(d.nearMisses.size(), count);
    QCOMPARE(ClusterDenial::nearMissCountOf(value), count);
    if (count > 0) {
        const QVariantList r = at(d.nearMisses, 0).value("rules").toList();
        QCOMPARE(r.size(), rules);
        if (rules > 0) {
            QCOMPARE(at(r, 0).value("codes").toStringList(), QStringList{"verb"});
            QCOMPARE(at(r, 0).value("messages").toStringList(), QStringList{"m"});
        }
        QCOMPARE(at(d.nearMisses, 0).value("reasonText").toString(), QString());
    }

    // The same in a recorded request: the model gives an empty list, never crashes.
    ClusterRequestModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QJsonObject entry = json(NodeReadEntry);
    entry.remove("nearMisses");
    if (!nearMisses.isEmpty())
        entry.insert("nearMisses", value);
    entry.insert("quotes", "not a list");
    model.resetFrom({entry});
    QCOMPARE(model.index(0).data(ClusterRequestModel::NearMissesRole).toList().size(), count);
    QCOMPARE(model.index(0).data(ClusterRequestModel::NearMissCountRole).toInt(), count);
    QCOMPARE(model.index(0).data(ClusterRequestModel::QuotesRole).toList(), QVariantList());
    QCOMPARE(model.index(0).data(ClusterRequestModel::DenialHeadlineRole).toString(),
             QStringLiteral("Refused at authorization by Node, RBAC"));
}

void TestConsole::clusterRequestModelDenials()
{
    ClusterRequestModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QJsonObject allowed = json(AdmissionEntry);
    allowed.insert("code", 200);
    allowed.insert("verdict", "allowed");
    allowed.insert("stage", "ok");
    allowed.insert("reason", "RBAC: allowed by ClusterRoleBinding \"x\"");
    allowed.remove("deniedBy");
    allowed.insert("time", "2026-11-21T18:53:23.000Z");
    model.resetFrom({json(NodeReadEntry), json(AdmissionEntry), allowed}); // oldest first
    QCOMPARE(model.rowCount(), 3);

    // The Node authorizer's refusal: its words, and the bindings naming the kubelet.
    const QModelIndex node = model.index(2);
    QCOMPARE(node.data(ClusterRequestModel::DeniedByRole).toString(), QStringLiteral("Node, RBAC"));
    QCOMPARE(node.data(ClusterRequestModel::DenialHeadlineRole).toString(),
             QStringLiteral("Refused at authorization by Node, RBAC"));
    const QVariantList quotes = node.data(ClusterRequestModel::QuotesRole).toList();
    QCOMPARE(quotes.size(), 1);
    QCOMPARE(at(quotes, 0).value("who").toString(), QStringLiteral("Node"));
    QCOMPARE(at(quotes, 0).value("decision").toString(), QStringLiteral("no-opinion"));
    QCOMPARE(at(quotes, 0).value("text").toString(),
             QStringLiteral("node 'node-1' cannot read 'node-2', only its own Node object"));
    QCOMPARE(node.data(ClusterRequestModel::NearMissCountRole).toInt(), 1);
    const QVariantMap discovery = at(node.data(ClusterRequestModel::NearMissesRole).toList(), 0);
    QCOMPARE(discovery.value("bindingText").toString(),
             QStringLiteral("ClusterRoleBinding system:discovery"));
    QCOMPARE(discovery.value("subjectText").toString(),
             QStringLiteral("Group system:authenticated"));
    QCOMPARE(at(discovery.value("rules").toList(), 0).value("missText").toString(),
             QStringLiteral("rule kind (it covers URL paths)"));

    // NodeRestriction's refusal: the plugin, its words; no bindings.
    const QModelIndex admission = model.index(1);
    QCOMPARE(admission.data(ClusterRequestModel::DeniedByRole).toString(),
             QStringLiteral("NodeRestriction"));
    QCOMPARE(admission.data(ClusterRequestModel::DenialHeadlineRole).toString(),
             QStringLiteral("Refused at admission by NodeRestriction"));
    QCOMPARE(at(admission.data(ClusterRequestModel::QuotesRole).toList(), 0).value("who"),
             QVariant(QStringLiteral("NodeRestriction")));
    QCOMPARE(admission.data(ClusterRequestModel::NearMissCountRole).toInt(), 0);
    QCOMPARE(admission.data(ClusterRequestModel::NearMissesRole).toList(), QVariantList());

    // Allowed: nothing to explain, nothing to open.
    const QModelIndex ok = model.index(0);
    QCOMPARE(ok.data(ClusterRequestModel::DeniedByRole).toString(), QString());
    QCOMPARE(ok.data(ClusterRequestModel::DenialHeadlineRole).toString(), QString());
    QCOMPARE(ok.data(ClusterRequestModel::QuotesRole).toList(), QVariantList());
    model.setExpanded(0, true);
    QVERIFY(!ok.data(ClusterRequestModel::ExpandedRole).toBool());
    model.toggleExpanded(0);
    QVERIFY(!ok.data(ClusterRequestModel::ExpandedRole).toBool());

    // Opening a denied row: one dataChanged for the row; it stays open as rows come and go.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setExpanded(2, true);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 2);
    QCOMPARE(changed.at(0).at(2).value<QList<int>>(),
             QList<int>{ClusterRequestModel::ExpandedRole});
    model.setExpanded(2, true); // already
    QCOMPARE(changed.count(), 1);
    QVERIFY(model.index(2).data(ClusterRequestModel::ExpandedRole).toBool());
    QVERIFY(!model.index(1).data(ClusterRequestModel::ExpandedRole).toBool());
    QJsonObject newer = allowed;
    newer.insert("time", "2026-11-21T18:54:00.000Z");
    model.append({newer});
    QVERIFY(model.index(3).data(ClusterRequestModel::ExpandedRole).toBool());
    model.setDeniedOnly(true);
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(model.index(1).data(ClusterRequestModel::ExpandedRole).toBool());
    model.setDeniedOnly(false);
    model.resetFrom({json(NodeReadEntry), json(AdmissionEntry)}); // a reload
    QVERIFY(model.index(1).data(ClusterRequestModel::ExpandedRole).toBool());
    model.toggleExpanded(1);
    QVERIFY(!model.index(1).data(ClusterRequestModel::ExpandedRole).toBool());
    model.toggleExpanded(1);
    model.toggleExpanded(7); // out of range: nothing
    model.setExpanded(-1, true);
    model.clear();
    model.resetFrom({json(NodeReadEntry)});
    QVERIFY2(!model.index(0).data(ClusterRequestModel::ExpandedRole).toBool(),
             "clear() forgets what was open");
}

void TestConsole::nodeLabelEditorDenial()
{
    Connected c;
    QVERIFY(c.start());
    NodeLabelEditor *editor = c.services.nodeEditor();
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());
    QVERIFY(!editor->hasDenial());
    QCOMPARE(editor->nearMisses(), QVariantList());

    // alice (groups ops): RBAC finds nothing; two bindings name her but do not apply.
    QSignalSpy denialChanged(editor, &NodeLabelEditor::denialChanged);
    editor->setIdentity(NodeLabelEditor::CustomUser);
    editor->setCustomUser("alice");
    editor->setCustomGroups("ops");
    editor->setNewKey("example.com/gpu");
    editor->setNewValue("a100");
    QTRY_VERIFY_WITH_TIMEOUT(editor->code() == 403 && !editor->explaining(), timeoutMs());
    QVERIFY(editor->hasDenial());
    QVERIFY(!editor->denialFromApply());
    QCOMPARE(editor->denialStage(), QStringLiteral("authorization"));
    QCOMPARE(editor->denialStageTitle(), QStringLiteral("Authorization"));
    QCOMPARE(editor->deniedBy(), QStringLiteral("Node, RBAC"));
    QCOMPARE(editor->denialHeadline(), QStringLiteral("Refused at authorization by Node, RBAC"));
    QCOMPARE(editor->denialMessage(), editor->statusMessage());
    QCOMPARE(editor->denialQuotes(), QVariantList());
    QCOMPARE(editor->nearMissCount(), 2);
    QCOMPARE(at(editor->nearMisses(), 0).value("bindingText").toString(),
             QStringLiteral("ClusterRoleBinding system:basic-user"));
    QCOMPARE(at(editor->nearMisses(), 0).value("subjectText").toString(),
             QStringLiteral("Group system:authenticated"));
    QCOMPARE(at(editor->nearMisses(), 1).value("bindingText").toString(),
             QStringLiteral("RoleBinding shop/read-pods"));
    QCOMPARE(at(editor->nearMisses(), 1).value("code").toString(), QStringLiteral("namespace"));
    QVERIFY(denialChanged.count() >= 1);

    // Applied: the real answer's trace, recorded with its near misses.
    ClusterRequestModel *requests = c.services.clusterRequests();
    QTRY_VERIFY_WITH_TIMEOUT(requests->loaded(), timeoutMs());
    const int before = requests->totalCount();
    editor->apply();
    QTRY_COMPARE_WITH_TIMEOUT(editor->applyCode(), 403, timeoutMs());
    QVERIFY(editor->denialFromApply());
    QCOMPARE(editor->nearMissCount(), 2);
    QCOMPARE(editor->denialHeadline(), QStringLiteral("Refused at authorization by Node, RBAC"));
    QTRY_COMPARE_WITH_TIMEOUT(requests->totalCount(), before + 1, timeoutMs());
    requests->setHideAdminReads(false);
    const QModelIndex recorded = requests->index(0);
    QCOMPARE(recorded.data(ClusterRequestModel::UserRole).toString(), QStringLiteral("alice"));
    QCOMPARE(recorded.data(ClusterRequestModel::DeniedByRole).toString(),
             QStringLiteral("Node, RBAC"));
    QCOMPARE(recorded.data(ClusterRequestModel::NearMissCountRole).toInt(), 2);
    QCOMPARE(at(recorded.data(ClusterRequestModel::NearMissesRole).toList(), 1)
                 .value("reasonText")
                 .toString(),
             QStringLiteral("other namespace"));

    // An edit: back to the dry run.
    editor->setNewValue("h100");
    QVERIFY(!editor->applied());
    QVERIFY(!editor->denialFromApply());
    QVERIFY(editor->hasDenial());

    // The real answer counts even where the dry run (not asked again yet) allowed it.
    editor->setCustomGroups("devs");
    QTRY_VERIFY_WITH_TIMEOUT(editor->code() == 200 && !editor->explaining(), timeoutMs());
    QVERIFY(!editor->hasDenial());
    editor->setCustomGroups("ops");
    editor->apply(); // before the pause is over: the verdict is still the allowed one
    QTRY_COMPARE_WITH_TIMEOUT(editor->applyCode(), 403, timeoutMs());
    QVERIFY(editor->hasDenial());
    QVERIFY(editor->denialFromApply());
    QCOMPARE(editor->nearMissCount(), 2);

    // A kubelet's own protected label: NodeRestriction, quoted.
    editor->setNewValue("h200");
    QVERIFY(!editor->denialFromApply());
    editor->setIdentity(NodeLabelEditor::NodeAgent);
    editor->setNewKey("node-restriction.kubernetes.io/pool");
    QTRY_VERIFY_WITH_TIMEOUT(editor->denialStage() == "admission" && !editor->explaining(),
                             timeoutMs());
    QCOMPARE(editor->deniedBy(), QStringLiteral("NodeRestriction"));
    QCOMPARE(at(editor->denialQuotes(), 0).value("who").toString(),
             QStringLiteral("NodeRestriction"));
    QCOMPARE(at(editor->denialQuotes(), 0).value("text").toString(), editor->statusMessage());
    QCOMPARE(editor->nearMissCount(), 0);

    // Allowed: no denial left.
    editor->setNewKey("example.com/gpu");
    QTRY_VERIFY_WITH_TIMEOUT(editor->code() == 200 && !editor->explaining(), timeoutMs());
    QVERIFY(!editor->hasDenial());
    QCOMPARE(editor->denialHeadline(), QString());
    QCOMPARE(editor->denialQuotes(), QVariantList());
}

void TestConsole::kubeconfigPrivateFile_data()
{
    QTest::addColumn<bool>("exists");
    QTest::addColumn<int>("umask");
    QTest::newRow("new file") << false << 022;
    QTest::newRow("new file, umask 0") << false << 0;
    QTest::newRow("over a world-readable file") << true << 022;
}

void TestConsole::kubeconfigPrivateFile()
{
    QFETCH(bool, exists);
    QFETCH(int, umask);
    QTemporaryDir dir;
    const QString path = dir.filePath("config");
    if (exists) {
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
        old.close();
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                QFileDevice::ReadGroup | QFileDevice::ReadOther |
                                                QFileDevice::WriteOther));
#ifdef Q_OS_UNIX // on Windows, setPermissions() sets the read-only attribute, no ACL
        QCOMPARE(fileMode(path), 0646);
#endif
    }
    QString error;
    bool written = false;
    {
        const TestHelpers::ScopedUmask scoped(umask);
        written = KubeconfigForm::writePrivateFile(path, "client-key-data: S0VZ\n", &error);
    }
    QVERIFY2(written, qPrintable(error));
    QCOMPARE(fileMode(path), 0600);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("client-key-data: S0VZ\n"));

    // A directory that is not there: said why, nothing written.
    QVERIFY(!KubeconfigForm::writePrivateFile(dir.filePath("missing/config"), "x", &error));
    QCOMPARE(error, QStringLiteral("No such file or directory"));
    QVERIFY(!QFileInfo::exists(dir.filePath("missing")));
}

void TestConsole::kubeconfigIssueAndSave()
{
    Connected c;
    QVERIFY(c.start());
    QTRY_COMPARE_WITH_TIMEOUT(c.services.adminClient()->connectionState(), AdminClient::Online,
                              timeoutMs());
    KubeconfigForm *form = c.services.kubeconfigForm();
    form->issue();
    QCOMPARE(form->nameError(), QStringLiteral("Give a name."));
    QVERIFY(!form->busy());
    form->setKind("node");
    form->setName("system:node:n1");
    QVERIFY(!form->nameError().isEmpty());
    form->setName("node-1");
    form->setGroups("extra");
    QCOMPARE(form->requestBody(),
             (QJsonObject{{"kind", "node"}, {"name", "node-1"}, {"groups", QJsonArray{"extra"}}}));
    form->issue();
    QTRY_VERIFY_WITH_TIMEOUT(form->issued(), timeoutMs());
    QVERIFY(
        form->summary().startsWith("system:node:node-1 · groups system:nodes, extra · expires "));
    QVERIFY(form->redacted().contains("client-key-data: DATA+OMITTED"));
    QVERIFY(form->suggestedFile().toLocalFile().endsWith("/system-node-node-1.kubeconfig"));

    QTemporaryDir dir;
    QSignalSpy saved(form, &KubeconfigForm::savedChanged);
    QVERIFY(form->saveTo(QUrl::fromLocalFile(dir.filePath("node-1.kubeconfig"))));
    QCOMPARE(fileMode(dir.filePath("node-1.kubeconfig")), 0600);
    QCOMPARE(form->savedPath(), QDir::toNativeSeparators(dir.filePath("node-1.kubeconfig")));
    QVERIFY(!form->saveTo(QUrl::fromLocalFile(dir.filePath("no/such/dir"))));
    QVERIFY(form->saveError().startsWith("Could not write "));

    form->forget();
    QVERIFY(!form->issued());
    QVERIFY(!form->saveTo(QUrl::fromLocalFile(dir.filePath("again"))));
    QVERIFY(!QFile::exists(dir.filePath("again")));
}

// The Nodes and RBAC pages' services against the real backend: the shapes the console reads
// are the ones it sends.
void TestConsole::realBackendCluster()
{
    QTemporaryDir dir;
    auto config = realBackendConfig(dir);
    QVERIFY(config);
    Gatehouse::Admin::Backend backend(*config);
    QVERIFY(backend.start());
    ConsoleServices services;
    services.adminClient()->connectTo(QUrl(backend.adminUrl()), backend.adminToken());
    NodeListModel *nodes = services.nodes();
    NodeLabelEditor *editor = services.nodeEditor();
    QAbstractItemModelTester tester(nodes, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(nodes->loaded(), timeoutMs());
    QVERIFY2(nodes->rowCount() >= 1, "the demo nodes");
    QTRY_VERIFY_WITH_TIMEOUT(services.clusterSettings()->loaded(), timeoutMs());
    QCOMPARE(services.clusterSettings()->authorizationModes(), (QStringList{"Node", "RBAC"}));

    // A kubelet labels another node: NodeRestriction says no, in its own words.
    const QString node = nodes->idAt(0);
    QCOMPARE(editor->nodeName(), node);
    editor->setIdentity(NodeLabelEditor::NodeAgent);
    editor->setAgentNode("some-other-node");
    editor->setNewKey("example.com/rack");
    editor->setNewValue("r1");
    // Each verdict below is asked for at once (not after the typing pause), so that the wait is
    // for this input's answer: until it is in, the verdict of an earlier input is still shown.
    editor->explain();
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());
    QCOMPARE(editor->explainError(), QString());
    QCOMPARE(editor->code(), 403);
    QCOMPARE(stageOf(*editor, "authentication").value("decision").toString(),
             QStringLiteral("authenticated"));
    QCOMPARE(stageOf(*editor, "authorization").value("decision").toString(),
             QStringLiteral("allow"));
    QCOMPARE(stageOf(*editor, "admission").value("detail").toString(),
             QStringLiteral("nodes \"%1\" is forbidden: node \"some-other-node\" is not allowed to "
                            "modify node \"%1\"")
                 .arg(node));

    // Someone without a binding: RBAC has no opinion, nothing allows it.
    editor->setIdentity(NodeLabelEditor::CustomUser);
    editor->setCustomUser("mallory");
    editor->explain();
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());
    QCOMPARE(editor->code(), 403);
    QCOMPARE(stageOf(*editor, "authorization").value("decision").toString(),
             QStringLiteral("deny"));
    QVERIFY2(stageOf(*editor, "authorization")
                 .value("detail")
                 .toString()
                 .contains("User \"mallory\" cannot patch resource \"nodes\""),
             qPrintable(stageOf(*editor, "authorization").value("detail").toString()));
    QCOMPARE(stageOf(*editor, "admission").value("decision").toString(),
             QStringLiteral("not reached"));
    // Why: the denial explainer names the bindings that name mallory (through
    // system:authenticated) and why each does not apply.
    QVERIFY(editor->hasDenial());
    QCOMPARE(editor->denialStage(), QStringLiteral("authorization"));
    QCOMPARE(editor->deniedBy(), QStringLiteral("Node, RBAC"));
    QVERIFY(editor->nearMissCount() >= 1);
    const QVariantMap basicUser = [editor] {
        for (const QVariant &m : editor->nearMisses())
            if (m.toMap().value("bindingName") == QStringLiteral("system:basic-user"))
                return m.toMap();
        return QVariantMap();
    }();
    QCOMPARE(basicUser.value("subjectText").toString(),
             QStringLiteral("Group system:authenticated"));
    QCOMPARE(basicUser.value("reasonText").toString(), QStringLiteral("no rule matches"));
    QCOMPARE(basicUser.value("message").toString(),
             QStringLiteral("no rule of ClusterRole \"system:basic-user\" allows the request"));
    QVERIFY2(at(basicUser.value("rules").toList(), 0)
                 .value("messages")
                 .toStringList()
                 .contains("verb \"patch\" is not in [create]"),
             qPrintable(at(basicUser.value("rules").toList(), 0).value("text").toString()));

    // The node's own kubelet may; applied for real, it shows among the recent requests.
    ClusterRequestModel *requests = services.clusterRequests();
    QTRY_VERIFY_WITH_TIMEOUT(requests->loaded(), timeoutMs());
    editor->setIdentity(NodeLabelEditor::NodeAgent);
    editor->setAgentNode(node);
    editor->explain();
    QTRY_VERIFY_WITH_TIMEOUT(editor->explained() && !editor->explaining(), timeoutMs());
    QCOMPARE(editor->code(), 200);
    editor->apply();
    QTRY_COMPARE_WITH_TIMEOUT(editor->applyCode(), 200, timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(!editor->hasChanges(), timeoutMs());
    QVERIFY(editor->labels()->indexOfKey("example.com/rack") >= 0);
    // (The console's own reads through the admin API are recorded too, as gatehouse-admin.)
    auto patched = [requests, node] {
        for (int row = 0; row < requests->rowCount(); ++row) {
            const QModelIndex r = requests->index(row);
            if (r.data(ClusterRequestModel::MethodRole).toString() == "PATCH" &&
                r.data(ClusterRequestModel::PathRole).toString() == "/api/v1/nodes/" + node &&
                r.data(ClusterRequestModel::UserRole).toString() == "system:node:" + node)
                return !r.data(ClusterRequestModel::DeniedRole).toBool();
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(patched(), timeoutMs());

    // RBAC lists and who-can.
    QTRY_VERIFY_WITH_TIMEOUT(services.rbacRoles()->loaded(), timeoutMs());
    QVERIFY(services.rbacRoles()->indexOfId("ClusterRole//cluster-admin") >= 0);
    QTRY_VERIFY_WITH_TIMEOUT(services.rbacBindings()->loaded(), timeoutMs());
    const int admins = services.rbacBindings()->indexOfId("ClusterRoleBinding//cluster-admin");
    QVERIFY(admins >= 0);
    QCOMPARE(
        services.rbacBindings()->index(admins).data(RbacBindingModel::SubjectsRole).toStringList(),
        QStringList{"Group system:masters"});
    WhoCanModel *whoCan = services.whoCan();
    QTRY_VERIFY_WITH_TIMEOUT(whoCan->rowCount() > 0, timeoutMs());
    bool mastersMayDelete = false;
    for (int row = 0; row < whoCan->rowCount(); ++row)
        if (whoCan->index(row).data(WhoCanModel::SubjectTextRole).toString() ==
            "Group system:masters")
            mastersMayDelete = whoCan->allowed(row, "delete");
    QVERIFY(mastersMayDelete);

    // Anonymous access, live.
    ClusterSettingsState *settings = services.clusterSettings();
    const bool anonymous = settings->anonymousAuth();
    settings->setAnonymousAuth(!anonymous);
    QTRY_COMPARE_WITH_TIMEOUT(settings->anonymousAuth(), !anonymous, timeoutMs());
    // The live settings event can show the new value before the PUT's own answer is back;
    // a second change is taken only once that answer is in (busy off).
    QTRY_VERIFY_WITH_TIMEOUT(!settings->busy(), timeoutMs());
    settings->setAnonymousAuth(anonymous);
    QTRY_COMPARE_WITH_TIMEOUT(settings->anonymousAuth(), anonymous, timeoutMs());
    QTRY_VERIFY_WITH_TIMEOUT(!settings->busy(), timeoutMs());
    QCOMPARE(settings->error(), QString());

    // A kubeconfig, saved with mode 0600.
    KubeconfigForm *kubeconfig = services.kubeconfigForm();
    kubeconfig->setName("alice");
    kubeconfig->setGroups("devs");
    kubeconfig->issue();
    QTRY_VERIFY_WITH_TIMEOUT(kubeconfig->issued(), timeoutMs());
    QCOMPARE(kubeconfig->error(), QString());
    QVERIFY(kubeconfig->redacted().contains("DATA+OMITTED"));
    QVERIFY(!kubeconfig->redacted().contains("BEGIN"));
    QVERIFY(kubeconfig->saveTo(QUrl::fromLocalFile(dir.filePath("alice.kubeconfig"))));
    QCOMPARE(fileMode(dir.filePath("alice.kubeconfig")), 0600);
    QFile saved(dir.filePath("alice.kubeconfig"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(saved.readAll().contains("client-key-data: "));

    bool stopped = false;
    backend.stop([&stopped] { stopped = true; });
    QTRY_VERIFY_WITH_TIMEOUT(stopped, timeoutMs());
}

namespace {

QJsonObject bucketAt(const QDateTime &start, int orders, const QJsonObject &grants = {},
                     int failed = 0)
{
    return {{"start", start.toString(Qt::ISODate)},
            {"orders", orders},
            {"deliveriesSucceeded", orders * 2},
            {"deliveriesFailed", failed},
            {"tokensByGrant", grants},
            {"clusterAllowed", 3},
            {"clusterDenied", 0}};
}

// GET /admin/v1/stats/series: n minutes ending at last, each from make(k).
QJsonObject seriesOf(const QDateTime &last, int n, const std::function<QJsonObject(int)> &make,
                     const QJsonArray &areas = {"orders", "oauth", "cluster"})
{
    QJsonArray buckets;
    for (int k = 0; k < n; ++k) {
        QJsonObject b = make(k);
        b.insert("start", last.addSecs(60LL * (k - n + 1)).toString(Qt::ISODate));
        buckets.append(b);
    }
    return {
        {"bucketSeconds", 60}, {"buckets", buckets}, {"totals", QJsonObject()}, {"areas", areas}};
}

} // namespace

void TestConsole::dashboardStatsRowsTotalsAndGrants()
{
    DashboardStats stats(nullptr);
    QAbstractItemModelTester tester(&stats, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!stats.loaded());
    QVERIFY(stats.ordersVisible() && stats.oauthVisible() && stats.clusterVisible());
    const QDateTime last(QDate(2026, 11, 21), QTime(10, 5), Qt::UTC);
    stats.applySeries(seriesOf(last, 60, [&](int k) {
        QJsonObject grants;
        if (k % 2 == 0)
            grants.insert("client_credentials", 2);
        if (k == 10)
            grants.insert("urn:ietf:params:oauth:grant-type:device_code", 5);
        if (k == 20)
            grants.insert("password", 1);
        if (k == 30)
            grants.insert("authorization_code", 7);
        return bucketAt({}, k % 4, grants, k == 59 ? 2 : 0);
    }));
    QVERIFY(stats.loaded());
    QCOMPARE(stats.rowCount(), 60);
    QCOMPARE(stats.ordersTotal(), 15 * (0 + 1 + 2 + 3));
    QCOMPARE(stats.deliveriesSucceededTotal(), 2 * 90);
    QCOMPARE(stats.deliveriesFailedTotal(), 2);
    QCOMPARE(stats.clusterAllowedTotal(), 180);
    QCOMPARE(stats.tokensTotal(), 60 + 5 + 1 + 7);
    QCOMPARE(stats.ordersThisMinute(), 3); // k = 59
    QCOMPARE(stats.ordersPeak(), 3);
    QCOMPARE(stats.deliveriesPeak(), 3 * 2 + 2);
    QCOMPARE(stats.clusterPeak(), 3);
    // Legend order: most tokens first, then the rest as "other"; URN grants by their last part.
    QStringList legend;
    for (const QVariant &g : stats.grants())
        legend.append(QStringLiteral("%1=%2").arg(g.toMap().value("label").toString(),
                                                  g.toMap().value("total").toString()));
    QCOMPARE(legend, (QStringList{"client_credentials=60", "authorization_code=7", "other=6"}));
    QCOMPARE(DashboardStats::grantLabel("urn:ietf:params:oauth:grant-type:jwt-bearer"),
             QStringLiteral("jwt-bearer"));
    // A row: its minute, numbers and the tokens stack in legend order.
    const QModelIndex k10 = stats.index(10);
    QCOMPARE(k10.data(DashboardStats::StartRole).toDateTime(), last.addSecs(-49 * 60));
    QCOMPARE(k10.data(DashboardStats::OrdersRole).toInt(), 2);
    QCOMPARE(k10.data(DashboardStats::TokensRole).toInt(), 7);
    QCOMPARE(k10.data(DashboardStats::TokenSegmentsRole).toList(), (QVariantList{2, 0, 5}));
    QCOMPARE(stats.index(30).data(DashboardStats::TokenSegmentsRole).toList(),
             (QVariantList{2, 7, 0}));
    QCOMPARE(k10.data(DashboardStats::TimeTextRole).toString(),
             k10.data(DashboardStats::StartRole).toDateTime().toLocalTime().toString("HH:mm"));

    // A scoped token's answer: only its areas.
    stats.applySeries(seriesOf(last, 60, [](int) { return bucketAt({}, 1); }, {"orders"}));
    QVERIFY(stats.ordersVisible());
    QVERIFY(!stats.oauthVisible());
    QVERIFY(!stats.clusterVisible());
    QCOMPARE(stats.grants(), QVariantList());
    // Not the API's shape: minutes out of order or without a start are left out.
    QJsonObject odd = seriesOf(last, 3, [](int) { return bucketAt({}, 1); });
    QJsonArray buckets = odd.value("buckets").toArray();
    buckets.append(buckets.at(0));
    buckets.append(QJsonObject{{"orders", 9}});
    odd.insert("buckets", buckets);
    stats.applySeries(odd);
    QCOMPARE(stats.rowCount(), 3);
    QCOMPARE(stats.ordersTotal(), 3);
}

void TestConsole::dashboardStatsLiveBuckets()
{
    DashboardStats stats(nullptr);
    QAbstractItemModelTester tester(&stats, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QDateTime last(QDate(2026, 11, 21), QTime(10, 5), Qt::UTC);
    stats.applySeries(seriesOf(last, 60, [](int) { return bucketAt({}, 1); }));
    QCOMPARE(stats.ordersTotal(), 60);
    QSignalSpy dataChanged(&stats, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&stats, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&stats, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&stats, &DashboardStats::changed);

    // The current minute moves: its row changes in place.
    stats.applyBucket(bucketAt(last, 4));
    QCOMPARE(stats.rowCount(), 60);
    QCOMPARE(stats.ordersTotal(), 63);
    QCOMPARE(stats.ordersThisMinute(), 4);
    QCOMPARE(dataChanged.count(), 1);
    QCOMPARE(dataChanged.at(0).at(0).toModelIndex().row(), 59);
    QCOMPARE(changed.count(), 1);
    // The same again: nothing.
    stats.applyBucket(bucketAt(last, 4));
    QCOMPARE(changed.count(), 1);

    // A new minute: appended, the oldest dropped.
    stats.applyBucket(bucketAt(last.addSecs(60), 2));
    QCOMPARE(stats.rowCount(), 60);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(stats.ordersTotal(), 63 - 1 + 2);
    QCOMPARE(stats.index(59).data(DashboardStats::StartRole).toDateTime(), last.addSecs(60));
    QCOMPARE(stats.index(0).data(DashboardStats::StartRole).toDateTime(), last.addSecs(-58 * 60));

    // Three quiet minutes, then one with an order: the quiet ones are there, empty.
    stats.applyBucket(bucketAt(last.addSecs(5 * 60), 1));
    QCOMPARE(stats.rowCount(), 60);
    QCOMPARE(stats.index(59).data(DashboardStats::OrdersRole).toInt(), 1);
    for (int r = 56; r <= 58; ++r)
        QCOMPARE(stats.index(r).data(DashboardStats::OrdersRole).toInt(), 0);
    QCOMPARE(stats.index(55).data(DashboardStats::StartRole).toDateTime(), last.addSecs(60));

    // A new grant appears: every row's stack follows the new legend.
    dataChanged.clear();
    stats.applyBucket(bucketAt(last.addSecs(5 * 60), 1, {{"password", 1}}));
    QCOMPARE(stats.grants().size(), 1);
    QCOMPARE(stats.index(59).data(DashboardStats::TokenSegmentsRole).toList(), QVariantList{1});
    QCOMPARE(stats.index(0).data(DashboardStats::TokenSegmentsRole).toList(), QVariantList{0});
    QCOMPARE(dataChanged.last().at(0).toModelIndex().row(), 0);

    // Older than the hour shown, or a hole in the past: ignored.
    const int total = stats.ordersTotal();
    stats.applyBucket(bucketAt(last.addSecs(-3 * 3600), 50));
    stats.applyBucket(QJsonObject{{"orders", 50}});
    QCOMPARE(stats.ordersTotal(), total);
    // Far ahead (the console slept): only the last hour remains, all quiet but the new one.
    stats.applyBucket(bucketAt(last.addSecs(3 * 3600), 7));
    QCOMPARE(stats.rowCount(), 60);
    QCOMPARE(stats.ordersTotal(), 7);

    // Events: stats.series only, and only once loaded.
    DashboardStats fresh(nullptr);
    AdminEvent event;
    event.type = QStringLiteral("stats.series");
    event.data = {{"bucketSeconds", 60}, {"bucket", bucketAt(last, 1)}, {"areas", QJsonArray{}}};
    fresh.handleEvent(event);
    QCOMPARE(fresh.rowCount(), 0);
    stats.handleEvent(event); // older than the hour now shown
    event.data.insert("bucket", bucketAt(last.addSecs(3 * 3600), 9));
    stats.handleEvent(event);
    QCOMPARE(stats.ordersTotal(), 9);
    QVERIFY(!stats.ordersVisible()); // the event said which areas
}

void TestConsole::dashboardStatsRealBackend()
{
    QTemporaryDir dir;
    auto config = realBackendConfig(dir);
    QVERIFY(config);
    Gatehouse::Admin::Backend backend(*config);
    QVERIFY(backend.start());
    ConsoleServices services;
    DashboardStats *stats = services.dashboardStats();
    QAbstractItemModelTester tester(stats, QAbstractItemModelTester::FailureReportingMode::QtTest);
    services.adminClient()->connectTo(QUrl(backend.adminUrl()), backend.adminToken());
    QTRY_VERIFY_WITH_TIMEOUT(stats->loaded(), timeoutMs());
    QCOMPARE(stats->rowCount(), 60);
    QTRY_COMPARE_WITH_TIMEOUT(stats->live()->state(), LiveState::Live, timeoutMs());
    QVERIFY(stats->ordersVisible() && stats->oauthVisible() && stats->clusterVisible());
    const int ordersBefore = stats->ordersTotal();
    const int succeededBefore = stats->deliveriesSucceededTotal();
    QTRY_VERIFY_WITH_TIMEOUT(services.customers()->rowCount() > 0, timeoutMs());

    TestOrderForm *form = services.testOrder();
    QSignalSpy placed(form, &TestOrderForm::placed);
    form->setCustomerId(services.customers()->idAt(0));
    form->submit();
    QTRY_COMPARE_WITH_TIMEOUT(placed.count(), 1, timeoutMs());
    // Counted by the backend, pushed live (stats.series, about once a second).
    QTRY_COMPARE_WITH_TIMEOUT(stats->ordersTotal(), ordersBefore + 1, timeoutMs());
    QTRY_COMPARE_WITH_TIMEOUT(stats->deliveriesSucceededTotal(), succeededBefore + 5, timeoutMs());
    QVERIFY(stats->ordersThisMinute() >= 1 ||
            stats->index(58).data(DashboardStats::OrdersRole).toInt() >= 1);
    bool done = false;
    backend.stop([&done] { done = true; });
    QTRY_VERIFY_WITH_TIMEOUT(done, timeoutMs());
}

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
