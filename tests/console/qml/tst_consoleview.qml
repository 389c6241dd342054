import QtQuick
import QtQuick.Controls
import QtTest
import Gatehouse
import GatehouseTest

// The console's shell with the real services: navigation, shortcuts, and a dashboard fed by
// a real (in-test) admin server.
Item {
    id: root

    width: 1100
    height: 700

    ConsoleView {
        id: view
        anchors.fill: parent
    }

    TestCase {
        name: "ConsoleView"
        when: windowShown

        function pageVisible(pageId) {
            const page = findChild(view, "page-" + pageId)
            verify(page, "page-" + pageId)
            return page.visible
        }

        function init() {
            view.currentIndex = 0
        }

        Component {
            id: freshView
            ConsoleView {
                width: 1100
                height: 700
            }
        }

        function test_pagesMadeWhenFirstShown() {
            const fresh = createTemporaryObject(freshView, root)
            verify(fresh)
            const made = () => {
                const ids = []
                for (let row = 0; row < Navigation.count; ++row) {
                    if (findChild(fresh, "page-" + Navigation.pageIdAt(row)))
                        ids.push(Navigation.pageIdAt(row))
                }
                return ids
            }
            // Only the page shown is made at start.
            compare(made(), ["dashboard"])
            const dashboard = findChild(fresh, "page-dashboard")
            compare(dashboard.width, 1100 - Theme.railWidth)
            compare(dashboard.height, 700)
            // Switching makes the page, in place.
            fresh.currentIndex = Navigation.indexOf("nodes")
            compare(made(), ["dashboard", "nodes"])
            const nodes = findChild(fresh, "page-nodes")
            verify(nodes.visible)
            verify(!dashboard.visible)
            compare(nodes.width, 1100 - Theme.railWidth)
            verify(findChild(nodes, "nodeList"))
            // A page shown before is kept (the same object, its state with it).
            fresh.currentIndex = 0
            compare(findChild(fresh, "page-dashboard"), dashboard)
            verify(dashboard.visible)
            // Opening an RBAC tab from elsewhere makes the page and opens the tab.
            fresh.showPage("rbac", "who-can")
            compare(fresh.currentIndex, Navigation.indexOf("rbac"))
            verify(findChild(fresh, "page-rbac").visible)
            compare(findChild(findChild(fresh, "page-rbac"), "rbacTabs").currentIndex, 2)
        }

        function test_toolTipsArePlainText() {
            const label = view.ToolTip.toolTip.contentItem
            verify(label)
            compare(label.textFormat, Text.PlainText)
        }

        function test_railListsEveryPage() {
            const list = findChild(view, "navigationList")
            verify(list)
            compare(list.count, 9)
            compare(Navigation.count, 9)
            compare(Navigation.titleAt(8), "Audit log")
            compare(Navigation.titleAt(6), "RBAC")
        }

        function test_pagesFollowNavigationOrder() {
            for (let row = 0; row < Navigation.count; ++row) {
                view.currentIndex = row
                const page = findChild(view, "page-" + Navigation.pageIdAt(row))
                verify(page, Navigation.pageIdAt(row))
                verify(page.visible, "page " + row + " shown")
                for (let other = 0; other < Navigation.count; ++other) {
                    // Pages not shown yet are not made yet.
                    const otherPage = findChild(view, "page-" + Navigation.pageIdAt(other))
                    if (other !== row)
                        verify(!otherPage || !otherPage.visible)
                }
            }
        }

        function test_shortcutsSwitchPages() {
            root.Window.window.requestActivate()
            tryCompare(root.Window.window, "active", true, Wait.ms)
            keyClick(Qt.Key_3, Qt.ControlModifier)
            compare(view.currentIndex, 2)
            verify(pageVisible("tokens"))
            verify(!pageVisible("dashboard"))
            keyClick(Qt.Key_8, Qt.ControlModifier)
            compare(view.currentIndex, 7)
            verify(pageVisible("settings"))
            keyClick(Qt.Key_9, Qt.ControlModifier)
            compare(view.currentIndex, 8)
            verify(pageVisible("audit"))
            verify(findChild(findChild(view, "page-audit"), "auditList"), "the real Audit page")
            keyClick(Qt.Key_1, Qt.ControlModifier)
            compare(view.currentIndex, 0)
            verify(pageVisible("dashboard"))
        }

        function test_clickSwitchesPages() {
            const entry = findChild(view, "nav-settings")
            verify(entry)
            mouseClick(entry)
            compare(view.currentIndex, 7)
            verify(pageVisible("settings"))
            const page = findChild(view, "page-settings")
            verify(findChild(page, "settingsList"), "the real Settings page")

            mouseClick(findChild(view, "nav-nodes"))
            compare(view.currentIndex, 5)
            verify(pageVisible("nodes"))
            verify(findChild(findChild(view, "page-nodes"), "nodeList"), "the real Nodes page")
            mouseClick(findChild(view, "nav-rbac"))
            compare(view.currentIndex, 6)
            verify(findChild(findChild(view, "page-rbac"), "whoCanMatrix"), "the real RBAC page")

            mouseClick(findChild(view, "nav-orders"))
            compare(view.currentIndex, 3)
            verify(pageVisible("orders"))
            verify(findChild(findChild(view, "page-orders"), "orderList"), "the real Orders page")
        }

        function test_dashboardShowsServerValues() {
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
            const dashboard = findChild(view, "page-dashboard")
            const service = findChild(dashboard, "listenerTile-service")
            verify(service, "service listener tile")
            compare(service.heading, "Service API")
            compare(service.value, "42")
            compare(findChild(dashboard, "listenerTile-cluster").badge, "TLS")
            compare(findChild(dashboard, "databaseTile").value, "SQLite")
            verify(!findChild(dashboard, "connectionBanner").visible)

            TestBackend.sendStats(17, 4, 9)
            tryCompare(service, "value", "17", Wait.ms)
            tryCompare(findChild(dashboard, "listenerTile-admin"), "value", "9", Wait.ms)
            compare(findChild(dashboard, "uptimeTile").value.indexOf("1 h 02 min"), 0)

            const events = findChild(dashboard, "eventList")
            const before = events.count
            TestBackend.sendEvent("order.created", { orderId: "o_42" })
            tryCompare(events, "count", before + 1, Wait.ms)
            verify(Number(findChild(dashboard, "eventsTile").value) >= 2)
        }
    }
}
