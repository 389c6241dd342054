#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QRect>
#include <QVariantMap>

class QQuickWindow;

namespace Gatehouse::Console {

class NavigationModel;

// The main window's size, position, maximized state and page from one run to the next: saved in
// QSettings (gatehouse/console.conf, group "window") when the window closes (or the console
// quits), and handed to Main.qml as initial properties at the next start, so the window is
// first shown as it was left. A saved position that is off every screen (a monitor since
// unplugged) is ignored: the window manager places the window.
class ConsoleWindowState : public QObject
{
    Q_OBJECT

public:
    struct State
    {
        QRect geometry; // the normal (not maximized) one, without the frame; null: none saved
        bool maximized = false;
        QString page; // a NavigationModel page id; empty: none saved
    };

    explicit ConsoleWindowState(const NavigationModel *navigation, QObject *parent = nullptr);
    ~ConsoleWindowState() override;

    static State saved();
    static void save(const State &state);

    // The available geometry of every screen.
    static QList<QRect> screens();
    // A window at geometry can be grabbed on one of screens: 100 x 40 px of it (less when it is
    // smaller) lie on one of them.
    static bool reachable(const QRect &geometry, const QList<QRect> &screens);
    // Main.qml's initial properties for state: width and height (at most a screen's), x and y
    // when reachable(), visibility Maximized, currentPage (the page's row).
    QVariantMap initialProperties(const State &state, const QList<QRect> &screens);

    // Follows window from now on (its normal geometry while it is neither maximized nor full
    // screen) and saves its state when it closes and when the application quits.
    void track(QQuickWindow *window);
    // The tracked window's state now.
    State current() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void recordGeometry();
    void saveCurrent() const;

    const NavigationModel *m_navigation;
    QPointer<QQuickWindow> m_window;
    QRect m_normalGeometry;
};

} // namespace Gatehouse::Console
