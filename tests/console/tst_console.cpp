// Unit tests of the console's C++ side, and AdminClient against a real HTTP server on port 0.

#include "console/adminclient.h"
#include "console/adminevent.h"
#include "console/consoleservices.h"
#include "console/eventlistmodel.h"
#include "console/listenermodel.h"
#include "console/navigationmodel.h"
#include "console/sseparser.h"
#include "testadminserver.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTranslator>
#include <QtTest>

using namespace Gatehouse::Console;
using namespace std::chrono_literals;

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

    // AdminClient over real sockets
    void goesOnlineAndFollowsStats_data();
    void goesOnlineAndFollowsStats();
    void eventsReachTheModel();
    void unauthorizedDoesNotRetry();
    void tokenRefusedAfterRestart();
    void offlineThenBackOnlineOnRestart();
    void restartedBackendStartsSequenceOver();
    void offlineWhenNothingListens();
    void reconnectsWhenStreamStalls();
    void backoffDoublesUpToMaximum();
    void invalidUrlIsRejected();
    void disconnectStopsEverything();
    void tokenIsNeverLogged();

private:
    static void feedInChunks(SseParser &parser, const QByteArray &input,
                             const QList<qsizetype> &cuts, QList<SseEvent> &out);
};

void TestConsole::initTestCase()
{
    QLoggingCategory::setFilterRules(QStringLiteral("gatehouse.*=true"));
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
    QCOMPARE(model.rowCount(), 8);
    const QStringList ids{"dashboard",  "clients", "tokens", "orders",
                          "deliveries", "nodes",   "rbac",   "settings"};
    for (int row = 0; row < ids.size(); ++row) {
        const QModelIndex index = model.index(row);
        QCOMPARE(index.data(NavigationModel::PageIdRole).toString(), ids.at(row));
        QCOMPARE(model.indexOf(ids.at(row)), row);
        QVERIFY(!index.data(NavigationModel::TitleRole).toString().isEmpty());
        QVERIFY(!index.data(NavigationModel::DescriptionRole).toString().isEmpty());
        QCOMPARE(index.data(NavigationModel::ArrivesWithRole).toString().isEmpty(), row == 0);
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
    QCOMPARE(model.titleAt(8), QString());
    QCOMPARE(model.titleAt(-1), QString());
    QCOMPARE(model.iconAt(8), QUrl());
    QCOMPARE(model.index(1).data(NavigationModel::TitleRole).toString(), QStringLiteral("Clients"));
    // The rail icons are really in the resources.
    QVERIFY(QFile::exists(QStringLiteral(":/Gatehouse/icons/dashboard.png")));
    QVERIFY(QFile::exists(QStringLiteral(":/Gatehouse/Main.qml")));
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
    QCOMPARE(AdminClient::listenerTitle("service"), QStringLiteral("Service API"));
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
    QTRY_COMPARE(client.connectionState(), AdminClient::Online);
    QTRY_COMPARE(server.openStreams(), 1);

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
    QTRY_COMPARE(client.eventCount(), 1);
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
    QTRY_COMPARE(client.eventCount(), 2);
    QCOMPARE(countsChanged.count(), 1);
    QCOMPARE(listenersChanged.count(), 1);

    // Keepalives are not events.
    server.sendRaw(": keepalive\n\n");
    server.sendEvent("order.created", {{"orderId", "o_1"}});
    QTRY_COMPARE(client.eventCount(), 3);

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
    QTRY_COMPARE(server.openStreams(), 1);

    server.sendEvent("backend.started", {{"version", "0.1.0"}});
    server.sendEvent("stats", {{"uptimeSeconds", 3}});
    server.sendEvent("delivery.attempted", {{"status", 503}, {"attempt", 2}});
    QTRY_COMPARE(services.adminClient()->eventCount(), 3);
    QCOMPARE(model->rowCount(), 2); // stats hidden by default
    QCOMPARE(model->index(0).data(EventListModel::TypeRole).toString(),
             QStringLiteral("delivery.attempted"));
    QCOMPARE(model->index(0).data(EventListModel::SummaryRole).toString(),
             QStringLiteral("attempt=2, status=503"));
    QCOMPARE(model->index(1).data(EventListModel::SummaryRole).toString(),
             QStringLiteral("Backend 0.1.0 started"));

    // Not an envelope: still shown, as raw text.
    server.sendRaw("event: mystery\ndata: <<binary-ish>>\n\n");
    QTRY_COMPARE(model->rowCount(), 3);
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
    QTRY_COMPARE(client.connectionState(), AdminClient::Unauthorized);
    QCOMPARE(client.lastError(), QStringLiteral("admin token missing or invalid"));
    QCOMPARE(server.unauthorizedRequests(), 1);

    // Several backoff periods later the server has still seen one request: no hammering.
    QTest::qWait(300);
    QCOMPARE(server.unauthorizedRequests(), 1);
    QCOMPARE(client.connectionState(), AdminClient::Unauthorized);
    client.refresh(); // does not retry a refused token either
    QTest::qWait(100);
    QCOMPARE(server.unauthorizedRequests(), 1);

    // A new token is a new attempt.
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE(client.connectionState(), AdminClient::Online);
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
    QTRY_COMPARE(client.connectionState(), AdminClient::Online);

    // The backend comes back with a rotated admin token.
    const quint16 port = server.port();
    server.stop();
    QTRY_COMPARE(client.connectionState(), AdminClient::Offline);
    server.setToken("rotated");
    QVERIFY(server.listen(port));
    QTRY_COMPARE(client.connectionState(), AdminClient::Unauthorized);
    const int refused = server.unauthorizedRequests();
    QTest::qWait(300);
    QCOMPARE(server.unauthorizedRequests(), refused);
}

void TestConsole::offlineThenBackOnlineOnRestart()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(50ms, 400ms);
    QSignalSpy received(&client, &AdminClient::eventReceived);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE(server.openStreams(), 1);
    QTRY_COMPARE(client.connectionState(), AdminClient::Online);
    server.sendEvent("backend.started", {{"version", "0.1.0"}});
    const qint64 lastSeq = server.sendEvent("order.created", {{"orderId", "o_1"}});
    QTRY_COMPARE(client.eventCount(), 2);

    const quint16 port = server.port();
    server.stop();
    QTRY_COMPARE(client.connectionState(), AdminClient::Offline);
    QVERIFY(!client.lastError().isEmpty());
    const qint64 frozenUptime = client.uptimeSeconds();
    QTest::qWait(1100);
    QCOMPARE(client.uptimeSeconds(), frozenUptime); // no ticking while offline

    // Events that happen while we are away are replayed after the reconnect.
    server.sendEvent("order.created", {{"orderId", "o_2"}});
    QVERIFY(server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(client.connectionState(), AdminClient::Online, 10000);
    QCOMPARE(server.lastEventIdHeader(), QByteArray::number(lastSeq));
    QTRY_COMPARE(client.eventCount(), 3); // o_2 once; the replayed o_1 is not counted twice
    QCOMPARE(received.count(), 3);
    QCOMPARE(received.last().at(0).value<AdminEvent>().data.value("orderId").toString(),
             QStringLiteral("o_2"));
    QVERIFY(client.lastError().isEmpty());
}

void TestConsole::restartedBackendStartsSequenceOver()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(50ms, 200ms);
    QSignalSpy received(&client, &AdminClient::eventReceived);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE(server.openStreams(), 1);
    for (int i = 0; i < 5; ++i)
        server.sendEvent("order.created", {{"n", i}});
    QTRY_COMPARE(client.eventCount(), 5);

    // A new process on the same port: same instanceId, new start time, seq from 1 again.
    const quint16 port = server.port();
    server.stop();
    QTRY_COMPARE(client.connectionState(), AdminClient::Offline);
    server.simulateProcessRestart();
    server.sendEvent("backend.started", {{"version", "0.1.0"}});
    QVERIFY(server.listen(port));
    QTRY_COMPARE(client.connectionState(), AdminClient::Online);
    QVERIFY(server.lastEventIdHeader().isEmpty()); // nothing to resume in a new process
    QTRY_COMPARE(client.eventCount(), 6);          // the new process's backlog
    server.sendEvent("order.created", {{"n", 99}});
    QTRY_COMPARE(client.eventCount(), 7);
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
    QTRY_COMPARE(client.connectionState(), AdminClient::Offline);
    QVERIFY(!client.lastError().isEmpty());
    QCOMPARE(client.uptimeText(), QStringLiteral("–"));

    // It keeps trying, and gets there once a server appears.
    TestAdminServer server(Token);
    QVERIFY(server.listen(port));
    QTRY_COMPARE(client.connectionState(), AdminClient::Online);
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
    QTRY_COMPARE(client.connectionState(), AdminClient::Offline);
    QCOMPARE(client.lastError(), QStringLiteral("The event stream stopped responding"));
    QTRY_VERIFY(server.streamRequests() >= 2);

    server.setStreamHangs(false);
    QTRY_COMPARE(client.connectionState(), AdminClient::Online);
    // Keepalives keep a quiet stream alive.
    for (int i = 0; i < 5; ++i) {
        QTest::qWait(100);
        server.sendRaw(": keepalive\n\n");
    }
    QCOMPARE(client.connectionState(), AdminClient::Online);
}

void TestConsole::backoffDoublesUpToMaximum()
{
    AdminClient client;
    QCOMPARE(client.nextReconnectDelay().count(), 1000);
    client.setReconnectDelays(10ms, 45ms);
    client.connectTo(QUrl("http://127.0.0.1:1"), QStringLiteral("t"));
    QTRY_COMPARE(client.connectionState(), AdminClient::Offline);
    QTRY_COMPARE(client.nextReconnectDelay().count(), 45);
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
}

void TestConsole::disconnectStopsEverything()
{
    TestAdminServer server(Token);
    QVERIFY(server.listen());
    AdminClient client;
    client.setReconnectDelays(20ms, 40ms);
    client.connectTo(server.url(), QString::fromLatin1(Token));
    QTRY_COMPARE(server.openStreams(), 1);
    client.disconnectFromServer();
    QCOMPARE(client.connectionState(), AdminClient::Disconnected);
    QTRY_COMPARE(server.openStreams(), 0);
    const int requests = server.statusRequests();
    QTest::qWait(200);
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
        QTRY_COMPARE(client.connectionState(), AdminClient::Online);
        server.stop();
        QTRY_COMPARE(client.connectionState(), AdminClient::Offline);
        client.connectTo(server.url(), QStringLiteral("wrong-") + QString::fromLatin1(Token));
        QVERIFY(server.listen(server.port()));
        QTRY_COMPARE(client.connectionState(), AdminClient::Unauthorized);
    }
    qInstallMessageHandler(g_previousHandler);
    g_log = nullptr;
    QVERIFY(!log.isEmpty()); // the client did log its decisions
    for (const QString &line : std::as_const(log))
        QVERIFY2(!line.contains(QString::fromLatin1(Token)), qPrintable(line));
}

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
