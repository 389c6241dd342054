#include "consolewindowstate.h"

#include "consolelogging.h"
#include "consolesettings.h"
#include "navigationmodel.h"

#include <QCoreApplication>
#include <QEvent>
#include <QGuiApplication>
#include <QQuickWindow>
#include <QScreen>

namespace Gatehouse::Console {

namespace {
constexpr auto Group = "window";
constexpr auto GeometryKey = "geometry";
constexpr auto MaximizedKey = "maximized";
constexpr auto PageKey = "page";
// How much of a window must lie on a screen for its title bar to be grabbed.
constexpr int GrabWidth = 100;
constexpr int GrabHeight = 40;
} // namespace

ConsoleWindowState::ConsoleWindowState(const NavigationModel *navigation, QObject *parent)
    : QObject(parent), m_navigation(navigation)
{}

ConsoleWindowState::~ConsoleWindowState() = default;

ConsoleWindowState::State ConsoleWindowState::saved()
{
    QSettings s = consoleSettings();
    s.beginGroup(QLatin1String(Group));
    State state;
    state.geometry = s.value(QLatin1String(GeometryKey)).toRect();
    if (!state.geometry.isValid())
        state.geometry = QRect();
    state.maximized = s.value(QLatin1String(MaximizedKey), false).toBool();
    state.page = s.value(QLatin1String(PageKey)).toString();
    return state;
}

void ConsoleWindowState::save(const State &state)
{
    QSettings s = consoleSettings();
    s.beginGroup(QLatin1String(Group));
    if (state.geometry.isValid())
        s.setValue(QLatin1String(GeometryKey), state.geometry);
    s.setValue(QLatin1String(MaximizedKey), state.maximized);
    if (!state.page.isEmpty())
        s.setValue(QLatin1String(PageKey), state.page);
}

QList<QRect> ConsoleWindowState::screens()
{
    QList<QRect> geometries;
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return geometries;
    for (const QScreen *screen : QGuiApplication::screens())
        geometries.append(screen->availableGeometry());
    return geometries;
}

bool ConsoleWindowState::reachable(const QRect &geometry, const QList<QRect> &screens)
{
    for (const QRect &screen : screens) {
        const QRect onScreen = geometry.intersected(screen);
        if (onScreen.width() >= std::min(GrabWidth, geometry.width()) &&
            onScreen.height() >= std::min(GrabHeight, geometry.height()))
            return true;
    }
    return false;
}

QVariantMap ConsoleWindowState::initialProperties(const State &state, const QList<QRect> &screens)
{
    QVariantMap properties;
    if (state.geometry.isValid()) {
        const bool keepPosition = reachable(state.geometry, screens);
        // At most as large as the screen it opens on (the first when its position is not kept).
        QRect screen = screens.value(0);
        for (const QRect &candidate : screens)
            if (keepPosition && candidate.contains(state.geometry.center()))
                screen = candidate;
        QRect geometry = state.geometry;
        if (screen.isValid())
            geometry.setSize(geometry.size().boundedTo(screen.size()));
        properties.insert(QStringLiteral("width"), geometry.width());
        properties.insert(QStringLiteral("height"), geometry.height());
        if (keepPosition) {
            properties.insert(QStringLiteral("x"), geometry.x());
            properties.insert(QStringLiteral("y"), geometry.y());
        } else {
            qCInfo(lcConsole) << "the window's saved position" << state.geometry.topLeft()
                              << "is off every screen; not restored";
        }
        m_normalGeometry = geometry;
    }
    if (state.maximized)
        properties.insert(QStringLiteral("visibility"), int(QWindow::Maximized));
    if (const int page = m_navigation->indexOf(state.page); page >= 0)
        properties.insert(QStringLiteral("currentPage"), page);
    return properties;
}

void ConsoleWindowState::track(QQuickWindow *window)
{
    m_window = window;
    recordGeometry();
    connect(window, &QWindow::xChanged, this, &ConsoleWindowState::recordGeometry);
    connect(window, &QWindow::yChanged, this, &ConsoleWindowState::recordGeometry);
    connect(window, &QWindow::widthChanged, this, &ConsoleWindowState::recordGeometry);
    connect(window, &QWindow::heightChanged, this, &ConsoleWindowState::recordGeometry);
    connect(window, &QWindow::windowStateChanged, this, &ConsoleWindowState::recordGeometry);
    window->installEventFilter(this); // its close event (QQuickWindow::closing's type is private)
    // SIGTERM and Ctrl+Q quit without closing the window.
    if (QCoreApplication *app = QCoreApplication::instance())
        connect(app, &QCoreApplication::aboutToQuit, this, &ConsoleWindowState::saveCurrent);
}

ConsoleWindowState::State ConsoleWindowState::current() const
{
    State state;
    if (!m_window)
        return state;
    state.maximized = m_window->windowStates().testFlag(Qt::WindowMaximized);
    state.geometry = m_normalGeometry.isValid() ? m_normalGeometry : m_window->geometry();
    state.page = m_navigation->pageIdAt(m_window->property("currentPage").toInt());
    return state;
}

bool ConsoleWindowState::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Close)
        saveCurrent();
    return QObject::eventFilter(watched, event);
}

void ConsoleWindowState::recordGeometry()
{
    // Maximized, minimized or full screen: keep the size and place to go back to.
    constexpr Qt::WindowStates NotNormal =
        Qt::WindowMaximized | Qt::WindowMinimized | Qt::WindowFullScreen;
    if (m_window && m_window->isVisible() && !(m_window->windowStates() & NotNormal))
        m_normalGeometry = m_window->geometry();
}

void ConsoleWindowState::saveCurrent() const
{
    if (m_window)
        save(current());
}

} // namespace Gatehouse::Console
