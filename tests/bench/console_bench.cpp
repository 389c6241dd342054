// The console scenario of tests/bench/run.sh, against a real backend:
//
//   bench_console orders --url URL --token T [--rows-per-second 50] [--events 50]
//                        [--all-orders] [--all-orders-events 10]
//     The console as gatehouse --connect runs it (ConsoleServices, Main.qml, Fusion) with the
//     Orders page open. Measures: connect until the list is loaded and on screen; memory of
//     this process; the list scrolled top to bottom at a fixed speed (frame intervals from
//     frameSwapped); then --events order cancellations made through the admin API by this
//     program (not through the console, whose own actions update the list before the event
//     arrives), each from the event's `time` (the backend's clock when it published it) until
//     the first frame swapped after the list's row changed to the new status. With
//     --all-orders, every order of the backend in the list, read by the model's own paging
//     (what scrolling to the end does: 1,000 older orders a page); memory, scrolling and
//     events again.
//
//   bench_console sse --url URL --token T --count N [--seconds 900]
//     The transport floor for the event latency: a plain QNetworkAccessManager reader of
//     /admin/v1/events (no console) timing each CANCELLED order.status event from its `time`
//     until it was read; one latency in ms a line on stdout, until N were seen. Prints
//     "bench_console: stream open" on stderr once the stream is up.
//
// orders prints one JSON line on stdout.

#include "console/adminclient.h"
#include "console/console.h"
#include "console/consolelanguage.h"
#include "console/consoleservices.h"
#include "console/navigationmodel.h"
#include "console/orderlistmodel.h"
#include "console/orderstatus.h"
#include "console/scenegraph.h"
#include "scrollrun.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QIcon>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

using namespace Gatehouse::Console;
using GatehouseBench::FrameStats;
using GatehouseBench::Memory;

namespace {

qint64 wallUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

double round1(double v)
{
    return std::round(v * 10) / 10;
}

void printJson(const QJsonObject &object)
{
    std::printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

QJsonObject latencyJson(const QList<double> &ms)
{
    return {{QStringLiteral("count"), int(ms.size())},
            {QStringLiteral("p50ms"), round1(GatehouseBench::percentile(ms, 50))},
            {QStringLiteral("p95ms"), round1(GatehouseBench::percentile(ms, 95))},
            {QStringLiteral("maxms"), round1(GatehouseBench::percentile(ms, 100))}};
}

QNetworkRequest adminRequest(const QUrl &base, const QString &path, const QString &token)
{
    QUrl url = base;
    url.setPath(QStringLiteral("/admin/v1") + path);
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + token.toUtf8());
    return request;
}

// When a change reaches the screen: armed after the change is in the model (GUI thread), it
// waits for the next scene graph sync (the change is then in the scene) and takes the time of
// the frameSwapped that follows it. On the threaded render loop both signals come from the
// render thread, hence the atomics; a frame already rendered before the change cannot count.
class ScreenProbe : public QObject
{
    Q_OBJECT

public:
    ScreenProbe(QQuickWindow *window, QObject *parent) : QObject(parent)
    {
        connect(
            window, &QQuickWindow::beforeSynchronizing, this,
            [this] {
                int armed = Armed;
                m_stage.compare_exchange_strong(armed, Synced);
            },
            Qt::DirectConnection);
        connect(
            window, &QQuickWindow::frameSwapped, this,
            [this] {
                int synced = Synced;
                if (!m_stage.compare_exchange_strong(synced, Idle))
                    return;
                m_swapWallUs = wallUs();
                m_swapSteady = std::chrono::steady_clock::now();
                QMetaObject::invokeMethod(this, &ScreenProbe::onScreen, Qt::QueuedConnection);
            },
            Qt::DirectConnection);
    }

    // The change is in the model now; onScreen() follows the frame that shows it.
    void arm(QQuickWindow *window)
    {
        m_stage = Armed;
        window->update(); // a change outside any item (none here) would not ask for a frame
    }
    void disarm() { m_stage = Idle; }
    qint64 swapWallUs() const { return m_swapWallUs; }
    std::chrono::steady_clock::time_point swapSteady() const { return m_swapSteady; }

signals:
    void onScreen();

private:
    enum Stage { Idle, Armed, Synced };
    std::atomic<int> m_stage{Idle};
    std::atomic<qint64> m_swapWallUs{0};
    std::chrono::steady_clock::time_point m_swapSteady; // written before the queued signal
};

class OrdersBench : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        QUrl url;
        QString token;
        double rowsPerSecond = 50;
        int events = 50;
        bool allOrders = false;
        int allOrdersEvents = 10;
        double scrollSeconds = 20; // for the what-if: 100,000 rows would take half an hour
    };

    explicit OrdersBench(Options options) : m_options(std::move(options)) {}

    bool start()
    {
        // As Gatehouse::Console::run() does it (app/console/console.cpp), in English.
        Gatehouse::Console::setMemoryDefaults();
        Gatehouse::Console::setRenderingDefaults();
        const Gatehouse::Console::SceneGraphChoice sceneGraph =
            Gatehouse::Console::chooseSceneGraph();
        m_out.insert(QStringLiteral("renderer"),
                     QJsonObject{{QStringLiteral("software"), sceneGraph.software},
                                 {QStringLiteral("reason"), sceneGraph.reason}});
        QQuickStyle::setStyle(QStringLiteral("Fusion"));
        QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/Gatehouse/icons/gatehouse.png")));
        m_services.language()->apply(QStringLiteral("en"));
        m_orders = m_services.orders();
        m_services.publishTo(&m_engine);
        m_engine.load(QUrl(QStringLiteral("qrc:/Gatehouse/Main.qml")));
        const QList<QObject *> roots = m_engine.rootObjects();
        m_window = roots.isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(roots.constFirst());
        if (!m_window)
            return false;
        auto *rail = m_window->findChild<QObject *>(QStringLiteral("navigationList"));
        if (!rail)
            return false;
        // The Orders page, as a click on the rail shows it (after the Dashboard, which the
        // console starts with: both pages are made, and counted in the memory).
        rail->setProperty("currentIndex",
                          m_services.navigation()->indexOf(QStringLiteral("orders")));
        m_list = m_window->findChild<QQuickItem *>(QStringLiteral("orderList"));
        if (!m_list)
            return false;
        m_probe = new ScreenProbe(m_window, this);
        connect(m_orders, &QAbstractItemModel::dataChanged, this, &OrdersBench::onRowsChanged);
        connect(m_services.adminClient(), &AdminClient::eventReceived, this, &OrdersBench::onEvent);

        connect(m_orders, &LiveListModel::loadingChanged, this, [this] {
            if (m_loadedMs >= 0 || !m_orders->loaded() || m_orders->loading())
                return;
            m_loadedMs = msSince(m_connectStart);
            connect(m_probe, &ScreenProbe::onScreen, this, &OrdersBench::listOnScreen,
                    Qt::SingleShotConnection);
            m_probe->arm(m_window);
        });
        m_connectStart = std::chrono::steady_clock::now();
        m_services.adminClient()->connectTo(m_options.url, m_options.token);
        QTimer::singleShot(60000, this, [this] {
            if (m_loadedMs < 0)
                fail(QStringLiteral("the orders list did not load within 60 s"));
        });
        return true;
    }

private:
    static double msSince(std::chrono::steady_clock::time_point t)
    {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t)
            .count();
    }

    void fail(const QString &why)
    {
        m_out.insert(QStringLiteral("error"), why);
        printJson(m_out);
        QCoreApplication::exit(1);
    }

    void listOnScreen()
    {
        const double onScreen =
            std::chrono::duration<double, std::milli>(m_probe->swapSteady() - m_connectStart)
                .count();
        m_out.insert(QStringLiteral("list"),
                     QJsonObject{{QStringLiteral("rows"), m_orders->count()},
                                 {QStringLiteral("capacity"), m_orders->capacity()},
                                 {QStringLiteral("loadedMs"), round1(m_loadedMs)},
                                 {QStringLiteral("onScreenMs"), round1(onScreen)}});
        // Settle (the other pages load their lists too), then memory with the page open.
        QTimer::singleShot(3000, this, [this] {
            m_out.insert(QStringLiteral("memoryOrdersPage"),
                         GatehouseBench::toJson(GatehouseBench::processMemory()));
            scroll(-1, [this](const QJsonObject &result) {
                m_out.insert(QStringLiteral("scroll"), result);
                m_out.insert(QStringLiteral("memoryAfterScroll"),
                             GatehouseBench::toJson(GatehouseBench::processMemory()));
                runEvents(0, m_options.events, QStringLiteral("events"), [this] {
                    if (m_options.allOrders)
                        allOrders();
                    else
                        finish();
                });
            });
        });
    }

    // Scrolls the list from the top for `seconds` (-1: to the end of the rows loaded when it
    // starts) at the fixed speed.
    void scroll(double seconds, const std::function<void(const QJsonObject &)> &done)
    {
        QMetaObject::invokeMethod(m_list, "positionViewAtBeginning");
        QTimer::singleShot(500, this, [this, seconds, done] {
            const double rowHeight = m_list->property("contentHeight").toDouble() /
                                     std::max(1, m_list->property("count").toInt());
            const double speed = m_options.rowsPerSecond * rowHeight;
            // To the end of what is loaded now: reaching it reads the next page (the list pages
            // back), which this run then includes, but it does not chase every later page.
            const double distance =
                seconds < 0
                    ? std::max(0.0, m_list->property("contentHeight").toDouble() - m_list->height())
                    : speed * seconds;
            auto *run = new GatehouseBench::ScrollRun(m_window, m_list, speed, distance, this);
            connect(run, &GatehouseBench::ScrollRun::finished, this, [run, rowHeight, speed, done] {
                QJsonObject result = run->stats().toJson();
                result.insert(QStringLiteral("rows"), round1(run->scrolledPixels() / rowHeight));
                result.insert(QStringLiteral("rowHeight"), rowHeight);
                result.insert(QStringLiteral("pixelsPerSecond"), speed);
                run->deleteLater();
                done(result);
            });
            run->start();
        });
    }

    // Cancels `count` orders from row `firstRow` down, one at a time, each on screen when its
    // event comes, and times event -> screen.
    void runEvents(int firstRow, int count, const QString &key, std::function<void()> done)
    {
        m_latencies.clear();
        m_callLatencies.clear();
        m_missed = 0;
        m_mismatched = 0;
        m_eventsLeft = count;
        m_nextRow = firstRow;
        m_eventsKey = key;
        m_eventsDone = std::move(done);
        nextEvent();
    }

    void nextEvent()
    {
        if (m_eventsLeft <= 0) {
            QJsonObject result = latencyJson(m_latencies);
            result.insert(QStringLiteral("missed"), m_missed);
            result.insert(QStringLiteral("delegateMismatches"), m_mismatched);
            result.insert(QStringLiteral("callToScreen"), latencyJson(m_callLatencies));
            m_out.insert(m_eventsKey, result);
            m_eventsDone();
            return;
        }
        // The next order that may still be cancelled, below the last one.
        while (m_nextRow < m_orders->count() &&
               !m_orders->index(m_nextRow).data(OrderListModel::CanCancelRole).toBool())
            ++m_nextRow;
        if (m_nextRow >= m_orders->count()) {
            m_missed += m_eventsLeft;
            m_eventsLeft = 0;
            nextEvent();
            return;
        }
        const int row = m_nextRow++;
        --m_eventsLeft;
        // On screen (ListView.Contain), and give that scroll time to settle.
        QMetaObject::invokeMethod(m_list, "positionViewAtIndex", Q_ARG(int, row), Q_ARG(int, 4));
        QTimer::singleShot(300, this, [this, row] { cancel(m_orders->idAt(row)); });
    }

    void cancel(const QString &orderId)
    {
        m_pendingId = orderId;
        m_eventMs = -1;
        m_callStart = std::chrono::steady_clock::now();
        const quint64 attempt = ++m_attempt;
        QNetworkReply *reply =
            m_nam.post(adminRequest(m_options.url, QStringLiteral("/orders/%1/cancel").arg(orderId),
                                    m_options.token),
                       QByteArray());
        connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
        connect(m_probe, &ScreenProbe::onScreen, this, &OrdersBench::eventOnScreen,
                Qt::SingleShotConnection);
        QTimer::singleShot(5000, this, [this, attempt] {
            if (attempt != m_attempt || m_pendingId.isEmpty())
                return;
            qWarning("bench_console: order %s did not change on screen within 5 s",
                     qPrintable(m_pendingId));
            disconnect(m_probe, &ScreenProbe::onScreen, this, &OrdersBench::eventOnScreen);
            m_probe->disarm();
            m_pendingId.clear();
            ++m_missed;
            nextEvent();
        });
    }

    void onEvent(const AdminEvent &event)
    {
        if (m_pendingId.isEmpty() || event.type != QLatin1String("order.status") ||
            event.data.value(QLatin1String("orderId")).toString() != m_pendingId ||
            event.data.value(QLatin1String("orderStatus")).toString() != QLatin1String("CANCELLED"))
            return;
        m_eventMs = event.time.toMSecsSinceEpoch();
    }

    void onRowsChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight)
    {
        if (m_pendingId.isEmpty())
            return;
        for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
            if (m_orders->idAt(row) == m_pendingId &&
                m_orders->index(row).data(OrderListModel::StatusRole).toString() ==
                    QLatin1String("CANCELLED"))
                m_probe->arm(m_window);
        }
    }

    void eventOnScreen()
    {
        const QString orderId = std::exchange(m_pendingId, QString());
        if (m_eventMs < 0) {
            ++m_missed; // changed without its event: not what this measures
        } else {
            m_latencies.append(double(m_probe->swapWallUs()) / 1000.0 - double(m_eventMs));
            m_callLatencies.append(
                std::chrono::duration<double, std::milli>(m_probe->swapSteady() - m_callStart)
                    .count());
        }
        // The delegate on screen really says so.
        const QString expected = OrderStatus::displayName(QStringLiteral("CANCELLED"));
        bool shown = false;
        const auto *content = m_list->property("contentItem").value<QQuickItem *>();
        for (const QQuickItem *item : content ? content->childItems() : QList<QQuickItem *>()) {
            if (item->objectName() == QLatin1String("order-") + orderId)
                shown = item->property("statusText").toString() == expected;
        }
        if (!shown)
            ++m_mismatched;
        QTimer::singleShot(200, this, &OrdersBench::nextEvent);
    }

    // Every order of the backend in the list, read the way scrolling to the end reads them
    // (OrderListModel pages back 1,000 at a time), one page after the other.
    void allOrders()
    {
        m_fetchStart = std::chrono::steady_clock::now();
        m_pages = 0;
        if (!m_orders->hasOlder())
            return showAllOrders();
        m_paging = connect(m_orders, &LiveListModel::olderChanged, this, [this] {
            if (m_orders->loadingOlder())
                return;
            if (m_orders->hasOlder()) {
                ++m_pages;
                return m_orders->loadOlder();
            }
            disconnect(m_paging);
            showAllOrders();
        });
        ++m_pages;
        m_orders->loadOlder();
    }

    void showAllOrders()
    {
        const double fetchMs = msSince(m_fetchStart);
        const auto resetStart = std::chrono::steady_clock::now();
        QMetaObject::invokeMethod(m_list, "positionViewAtBeginning");
        const int pages = m_pages;
        connect(
            m_probe, &ScreenProbe::onScreen, this,
            [this, fetchMs, pages, resetStart] {
                QJsonObject what{
                    {QStringLiteral("rows"), m_orders->count()},
                    {QStringLiteral("fetchMs"), round1(fetchMs)},
                    {QStringLiteral("pages"), pages},
                    {QStringLiteral("onScreenMs"), round1(std::chrono::duration<double, std::milli>(
                                                              m_probe->swapSteady() - resetStart)
                                                              .count())}};
                QTimer::singleShot(3000, this, [this, what]() mutable {
                    what.insert(QStringLiteral("memory"),
                                GatehouseBench::toJson(GatehouseBench::processMemory()));
                    scroll(m_options.scrollSeconds, [this,
                                                     what](const QJsonObject &result) mutable {
                        what.insert(QStringLiteral("scroll"), result);
                        jumpToEnd([this, what](double jumpMs) mutable {
                            what.insert(QStringLiteral("jumpToEndMs"), round1(jumpMs));
                            m_out.insert(QStringLiteral("allOrders"), what);
                            runEvents(m_options.events, m_options.allOrdersEvents,
                                      QStringLiteral("allOrdersEvents"), [this] {
                                          QJsonObject w =
                                              m_out.value(QLatin1String("allOrders")).toObject();
                                          w.insert(QStringLiteral("memoryAtEnd"),
                                                   GatehouseBench::toJson(
                                                       GatehouseBench::processMemory()));
                                          m_out.insert(QStringLiteral("allOrders"), w);
                                          finish();
                                      });
                        });
                    });
                });
            },
            Qt::SingleShotConnection);
        m_probe->arm(m_window);
    }

    // The list jumps from the top to its last row (the scroll bar dragged to the bottom): the
    // time until that frame is on screen.
    void jumpToEnd(std::function<void(double)> done)
    {
        const auto start = std::chrono::steady_clock::now();
        QMetaObject::invokeMethod(m_list, "positionViewAtEnd");
        connect(
            m_probe, &ScreenProbe::onScreen, this,
            [this, start, done = std::move(done)] {
                done(std::chrono::duration<double, std::milli>(m_probe->swapSteady() - start)
                         .count());
            },
            Qt::SingleShotConnection);
        m_probe->arm(m_window);
    }

    void finish()
    {
        m_out.insert(QStringLiteral("memoryAtEnd"),
                     GatehouseBench::toJson(GatehouseBench::processMemory()));
        printJson(m_out);
        // BENCH_HOLD_SECONDS=N: stay N seconds after printing, to look at the process (smaps).
        const int hold = qEnvironmentVariableIntValue("BENCH_HOLD_SECONDS");
        QTimer::singleShot(hold * 1000, qApp, &QCoreApplication::quit);
    }

    Options m_options;
    ConsoleServices m_services;
    QQmlApplicationEngine m_engine;
    QNetworkAccessManager m_nam;
    QQuickWindow *m_window = nullptr;
    QQuickItem *m_list = nullptr;
    OrderListModel *m_orders = nullptr;
    ScreenProbe *m_probe = nullptr;
    QJsonObject m_out;
    std::chrono::steady_clock::time_point m_connectStart;
    double m_loadedMs = -1;
    // Events.
    QString m_pendingId;
    qint64 m_eventMs = -1;
    quint64 m_attempt = 0;
    std::chrono::steady_clock::time_point m_callStart;
    QList<double> m_latencies;
    QList<double> m_callLatencies;
    int m_missed = 0;
    int m_mismatched = 0;
    int m_eventsLeft = 0;
    int m_nextRow = 0;
    QString m_eventsKey;
    std::function<void()> m_eventsDone;
    // Every order loaded by paging (--all-orders).
    QMetaObject::Connection m_paging;
    int m_pages = 0;
    std::chrono::steady_clock::time_point m_fetchStart;
};

// The plain stream reader (the transport floor). Prints each latency as soon as it has it,
// one number (ms) a line, so that stopping it loses nothing.
class SseReader : public QObject
{
    Q_OBJECT

public:
    SseReader(const QUrl &url, const QString &token, int count) : m_count(count)
    {
        QNetworkRequest request = adminRequest(url, QStringLiteral("/events"), token);
        request.setRawHeader("Accept", "text/event-stream");
        m_reply = m_nam.get(request);
        connect(m_reply, &QNetworkReply::metaDataChanged, this,
                [] { std::fprintf(stderr, "bench_console: stream open\n"); });
        connect(m_reply, &QIODevice::readyRead, this, &SseReader::read);
        connect(m_reply, &QNetworkReply::finished, this, [] { QCoreApplication::quit(); });
    }

private:
    void read()
    {
        const qint64 now = wallUs();
        m_buffer += m_reply->readAll();
        qsizetype end = 0;
        while ((end = m_buffer.indexOf("\n\n")) >= 0) {
            const QByteArray frame = m_buffer.left(end);
            m_buffer.remove(0, end + 2);
            for (const QByteArray &line : frame.split('\n')) {
                if (!line.startsWith("data:"))
                    continue;
                const QJsonObject envelope =
                    QJsonDocument::fromJson(line.mid(5).trimmed()).object();
                const QJsonObject data = envelope.value(QLatin1String("data")).toObject();
                if (envelope.value(QLatin1String("type")).toString() !=
                        QLatin1String("order.status") ||
                    data.value(QLatin1String("orderStatus")).toString() !=
                        QLatin1String("CANCELLED"))
                    continue;
                const QDateTime time = QDateTime::fromString(
                    envelope.value(QLatin1String("time")).toString(), Qt::ISODateWithMs);
                std::printf("%.3f\n", double(now) / 1000.0 - double(time.toMSecsSinceEpoch()));
                std::fflush(stdout);
                if (++m_seen >= m_count) {
                    m_reply->abort();
                    return;
                }
            }
        }
    }

    QNetworkAccessManager m_nam;
    QNetworkReply *m_reply = nullptr;
    QByteArray m_buffer;
    int m_count;
    int m_seen = 0;
};

} // namespace

int main(int argc, char *argv[])
{
    const bool sse = argc > 1 && qstrcmp(argv[1], "sse") == 0;
    std::unique_ptr<QCoreApplication> app;
    if (sse)
        app = std::make_unique<QCoreApplication>(argc, argv);
    else
        app = std::make_unique<QApplication>(argc, argv); // as gatehouse's console
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("mode"), QStringLiteral("orders or sse"));
    const QCommandLineOption url(QStringLiteral("url"), QStringLiteral("Admin API URL."),
                                 QStringLiteral("URL"));
    const QCommandLineOption token(QStringLiteral("token"), QStringLiteral("Admin token."),
                                   QStringLiteral("T"));
    const QCommandLineOption rowsPerSecond(QStringLiteral("rows-per-second"),
                                           QStringLiteral("Scroll speed."), QStringLiteral("R"),
                                           QStringLiteral("50"));
    const QCommandLineOption events(QStringLiteral("events"),
                                    QStringLiteral("Order status changes to time."),
                                    QStringLiteral("N"), QStringLiteral("50"));
    const QCommandLineOption allOrders(
        QStringLiteral("all-orders"),
        QStringLiteral("Every order in the list, paged back as scrolling does."));
    const QCommandLineOption allOrdersEvents(QStringLiteral("all-orders-events"),
                                             QStringLiteral("Events timed in the what-if."),
                                             QStringLiteral("N"), QStringLiteral("10"));
    const QCommandLineOption count(QStringLiteral("count"),
                                   QStringLiteral("sse: events to wait for."), QStringLiteral("N"),
                                   QStringLiteral("50"));
    const QCommandLineOption seconds(QStringLiteral("seconds"),
                                     QStringLiteral("sse: give up after this long."),
                                     QStringLiteral("S"), QStringLiteral("900"));
    parser.addOptions(
        {url, token, rowsPerSecond, events, allOrders, allOrdersEvents, count, seconds});
    parser.process(*app);
    const QString mode = parser.positionalArguments().value(0);

    if (mode == QLatin1String("sse")) {
        SseReader reader(QUrl(parser.value(url)), parser.value(token), parser.value(count).toInt());
        QTimer::singleShot(parser.value(seconds).toInt() * 1000, &reader, &QCoreApplication::quit);
        return app->exec();
    }
    if (mode != QLatin1String("orders")) {
        std::fprintf(stderr, "usage: bench_console orders|sse --url URL --token T ...\n");
        return 2;
    }
    OrdersBench::Options options;
    options.url = QUrl(parser.value(url));
    options.token = parser.value(token);
    options.rowsPerSecond = parser.value(rowsPerSecond).toDouble();
    options.events = parser.value(events).toInt();
    options.allOrders = parser.isSet(allOrders);
    options.allOrdersEvents = parser.value(allOrdersEvents).toInt();
    OrdersBench bench(options);
    if (!bench.start()) {
        std::fprintf(stderr, "bench_console: could not load the console's Main.qml\n");
        return 1;
    }
    return app->exec();
}

#include "console_bench.moc"
