// The console benchmark's peer (tests/bench/run.sh console): the least a Qt Quick window
// costs on this machine. Like the console it is a QApplication with the Fusion style and an
// ApplicationWindow of the console's size; in it one ListView over a trivial
// QAbstractListModel holding --rows strings, a Fusion ItemDelegate per row. It prints
// "bench_qml_peer: ready" at its first frameSwapped, as the console prints "gatehouse:
// console ready".
//
//   bench_qml_peer [--rows 1000]          cold start: stays up until killed
//   bench_qml_peer --rows 100000 --report [--settle 3] [--scroll-seconds 20]
//                  [--rows-per-second 50]
//
// --report waits --settle seconds, reads its memory, scrolls the list down at
// --rows-per-second for --scroll-seconds (frame intervals from frameSwapped), and prints one
// JSON line: {"rows", "rowHeight", "memory": {rssMiB, hwmMiB}, "scroll": {frames, p50ms,
// p99ms, maxms, stalls, ...}}.

#include "console/scenegraph.h"
#include "scrollrun.h"

#include <QAbstractListModel>
#include <QApplication>
#include <QCommandLineParser>
#include <QJsonDocument>
#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>

#include <cstdio>

namespace {

// Rows that are plain strings, as trivial as a list model gets.
class RowModel : public QAbstractListModel
{
public:
    explicit RowModel(int rows, QObject *parent = nullptr) : QAbstractListModel(parent)
    {
        m_rows.reserve(rows);
        for (int i = 0; i < rows; ++i)
            m_rows.append(QStringLiteral("Row %1 · a trivial list entry").arg(i + 1));
    }
    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid() || role != Qt::DisplayRole)
            return {};
        return m_rows.at(index.row());
    }
    QHash<int, QByteArray> roleNames() const override { return {{Qt::DisplayRole, "rowText"}}; }

private:
    QStringList m_rows;
};

constexpr auto Qml = R"(
import QtQuick
import QtQuick.Controls

ApplicationWindow {
    required property var rowModel

    width: 1100
    height: 720
    visible: true
    title: "bench_qml_peer"

    ListView {
        objectName: "list"
        anchors.fill: parent
        clip: true
        model: rowModel
        boundsBehavior: Flickable.StopAtBounds
        ScrollBar.vertical: ScrollBar {}
        delegate: ItemDelegate {
            required property string rowText
            width: ListView.view.width
            text: rowText
        }
    }
}
)";

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QQuickStyle::setStyle(QStringLiteral("Fusion"));
    // The same renderer as the console on this machine (app/console/scenegraph.h).
    const Gatehouse::Console::SceneGraphChoice sceneGraph = Gatehouse::Console::chooseSceneGraph();

    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption rows(QStringLiteral("rows"), QStringLiteral("Rows in the model."),
                                  QStringLiteral("N"), QStringLiteral("1000"));
    const QCommandLineOption report(QStringLiteral("report"),
                                    QStringLiteral("Measure, print JSON and exit."));
    const QCommandLineOption settle(QStringLiteral("settle"),
                                    QStringLiteral("Seconds to wait before measuring."),
                                    QStringLiteral("S"), QStringLiteral("3"));
    const QCommandLineOption scrollSeconds(QStringLiteral("scroll-seconds"),
                                           QStringLiteral("How long to scroll (0: not)."),
                                           QStringLiteral("S"), QStringLiteral("20"));
    const QCommandLineOption rowsPerSecond(QStringLiteral("rows-per-second"),
                                           QStringLiteral("Scroll speed."), QStringLiteral("R"),
                                           QStringLiteral("50"));
    parser.addOptions({rows, report, settle, scrollSeconds, rowsPerSecond});
    parser.process(app);

    RowModel model(parser.value(rows).toInt());
    QQmlApplicationEngine engine;
    engine.setInitialProperties({{QStringLiteral("rowModel"), QVariant::fromValue(&model)}});
    engine.loadData(Qml, QUrl(QStringLiteral("bench_qml_peer.qml")));
    auto *window = engine.rootObjects().isEmpty()
                       ? nullptr
                       : qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
    if (!window)
        return 1;
    // As the console does it (app/console/console.cpp).
    QObject::connect(
        window, &QQuickWindow::frameSwapped, window, [] { qInfo("bench_qml_peer: ready"); },
        Qt::SingleShotConnection);
    if (!parser.isSet(report))
        return app.exec();

    auto *list = window->findChild<QQuickItem *>(QStringLiteral("list"));
    QJsonObject out{{QStringLiteral("rows"), model.rowCount()},
                    {QStringLiteral("software"), sceneGraph.software}};
    QTimer::singleShot(int(parser.value(settle).toDouble() * 1000), window, [&] {
        const double rowHeight = list->property("contentHeight").toDouble() /
                                 std::max(1, list->property("count").toInt());
        out.insert(QStringLiteral("rowHeight"), rowHeight);
        out.insert(QStringLiteral("memory"),
                   GatehouseBench::toJson(GatehouseBench::processMemory()));
        const double seconds = parser.value(scrollSeconds).toDouble();
        const double speed = parser.value(rowsPerSecond).toDouble() * rowHeight;
        auto *scroll = new GatehouseBench::ScrollRun(window, list, speed, speed * seconds, window);
        QObject::connect(
            scroll, &GatehouseBench::ScrollRun::finished, window, [&out, scroll, rowHeight, speed] {
                QJsonObject s = scroll->stats().toJson();
                s.insert(QStringLiteral("rows"), scroll->scrolledPixels() / rowHeight);
                s.insert(QStringLiteral("pixelsPerSecond"), speed);
                out.insert(QStringLiteral("scroll"), s);
                out.insert(QStringLiteral("memoryAfterScroll"),
                           GatehouseBench::toJson(GatehouseBench::processMemory()));
                std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        scroll->start();
    });
    return app.exec();
}
