import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The dashboard's last hour against the in-test admin server's series (its seeded hour, then
// the events it sends, counted as the backend counts them): the numbers on the tiles, live
// changes, and each tile leading to its page by mouse and keyboard.
Item {
    id: root

    width: 1240
    height: 760

    ConsoleView {
        id: view
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "Dashboard"
        when: windowShown

        property Item dashboard: null

        function tile(name) {
            const t = findChild(testCase.dashboard, name)
            verify(t, name)
            return t
        }
        function shown(name, childName) {
            return findChild(tile(name), childName)
        }
        function valueText(name) {
            return shown(name, "tileValue").text
        }
        function waitForSeries() {
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
            DashboardStats.reload()
            tryCompare(DashboardStats, "loaded", true, Wait.ms)
            tryCompare(DashboardStats.live, "state", LiveState.Live, Wait.ms)
        }

        function initTestCase() {
            TestBackend.setSeriesPublishing(true)
            TestBackend.resetSeries()
            testCase.dashboard = findChild(view, "page-dashboard")
            verify(testCase.dashboard)
            waitForSeries()
        }
        function cleanupTestCase() {
            TestBackend.setSeriesPublishing(false)
        }
        function init() {
            view.currentIndex = 0
            TestBackend.resetSeries()
            waitForSeries()
            tryCompare(shown("ordersTile", "tileValue"), "text", "184", Wait.ms)
        }

        function test_tilesShowTheLastHour() {
            compare(DashboardStats.count, 60)
            compare(valueText("ordersTile"), "184")
            compare(valueText("deliveriesTile"), "171")
            compare(shown("deliveriesTile", "tileSecondary").text, "9 failed")
            verify(shown("deliveriesTile", "tileSecondary").visible)
            compare(valueText("tokensTile"), "86")
            compare(valueText("clusterTile"), "312")
            compare(shown("clusterTile", "tileSecondary").text, "17 denied")
            // The grants in legend order, beyond the first two as "other" (refresh_token 14,
            // device_code 3, password 2).
            const legend = tile("tokensTile").legend.map(e => e.label + " " + e.value)
            compare(legend, ["client_credentials 46", "authorization_code 21", "other 19"])
            // Every tile says its number, and where it leads, to assistive technology.
            const orders = tile("ordersTile")
            verify(orders.Accessible.name.indexOf("Orders: 184") === 0, orders.Accessible.name)
            verify(orders.Accessible.name.indexOf("Opens Orders.") > 0, orders.Accessible.name)
            verify(tile("deliveriesTile").Accessible.name.indexOf("171, 9 failed") > 0)
            compare(orders.Accessible.role, Accessible.Button)
            // The system tiles are still there.
            verify(findChild(testCase.dashboard, "uptimeTile").visible)
            verify(findChild(testCase.dashboard, "listenerTile-service").visible)
            verify(findChild(testCase.dashboard, "eventListLive").visible)
        }

        function test_liveEventsMoveTheNumbers() {
            const thisMinute = DashboardStats.ordersThisMinute
            verify(TestBackend.createOrder(0, "dashboard-live").length > 0)
            tryCompare(shown("ordersTile", "tileValue"), "text", "185", Wait.ms)
            // One more this minute, or the first of a minute that began meanwhile.
            const counted = DashboardStats.ordersThisMinute
            verify(counted === thisMinute + 1 || counted === 1,
                   "ordersThisMinute " + counted + " after " + thisMinute)

            const pending = TestBackend.deliveryIds("pending")
            verify(pending.length > 0)
            verify(TestBackend.recordAttempt(pending[0], 503, 900, "", "failed"))
            tryCompare(shown("deliveriesTile", "tileSecondary"), "text", "10 failed", Wait.ms)
            compare(valueText("deliveriesTile"), "171")

            TestBackend.sendEvent("oauth.token.issued", { clientId: TestBackend.clientId(1),
                                  grantType: "client_credentials", kind: "access",
                                  tokenHashPrefix: "0123abcd" })
            tryCompare(shown("tokensTile", "tileValue"), "text", "87", Wait.ms)
            // A refresh token beside it is not counted again.
            TestBackend.sendEvent("oauth.token.issued", { clientId: TestBackend.clientId(1),
                                  grantType: "refresh_token", kind: "refresh" })
            TestBackend.sendEvent("cluster.requests", { requests: [], allowed: 3, denied: 1 })
            tryCompare(shown("clusterTile", "tileValue"), "text", "315", Wait.ms)
            compare(shown("clusterTile", "tileSecondary").text, "18 denied")
            compare(valueText("tokensTile"), "87")
            compare(tile("tokensTile").legend[0].value, 47)
        }

        function test_scopedTokenSeesNotPermitted() {
            // A token that may read only the orders area: the other tiles say so.
            TestBackend.setSeriesAreas(["orders"])
            DashboardStats.reload()
            tryCompare(tile("tokensTile"), "permitted", false, Wait.ms)
            verify(!tile("clusterTile").permitted)
            verify(tile("ordersTile").permitted && tile("deliveriesTile").permitted)
            compare(valueText("tokensTile"), "–")
            compare(shown("tokensTile", "tileCaption").text, "Not permitted")
            const why = shown("tokensTile", "tileNotPermitted")
            verify(why.visible)
            compare(why.text, "This admin token may not read the oauth area.")
            compare(shown("clusterTile", "tileNotPermitted").text,
                    "This admin token may not read the cluster area.")
            verify(!shown("ordersTile", "tileNotPermitted").visible)
            compare(valueText("ordersTile"), "184")
            verify(tile("tokensTile").Accessible.name.indexOf("Tokens issued: not permitted") === 0,
                   tile("tokensTile").Accessible.name)
            // Still leads to its page (which says the same).
            mouseClick(tile("clusterTile"))
            compare(view.currentIndex, Navigation.indexOf("rbac"))
        }

        function test_clickingATileOpensItsPage() {
            mouseClick(tile("ordersTile"))
            compare(view.currentIndex, Navigation.indexOf("orders"))
            verify(findChild(view, "page-orders").visible)
            verify(!testCase.dashboard.visible)

            view.currentIndex = 0
            mouseClick(tile("tokensTile"))
            compare(view.currentIndex, Navigation.indexOf("tokens"))

            view.currentIndex = 0
            mouseClick(tile("clusterTile"))
            compare(view.currentIndex, Navigation.indexOf("rbac"))
            const tabs = findChild(findChild(view, "page-rbac"), "rbacTabs")
            compare(tabs.currentIndex, 3) // Requests
        }

        function test_keyboardOpensItsPage() {
            root.Window.window.requestActivate()
            tryCompare(root.Window.window, "active", true, Wait.ms)
            const deliveries = tile("deliveriesTile")
            deliveries.forceActiveFocus(Qt.TabFocusReason)
            verify(deliveries.activeFocus)
            keyClick(Qt.Key_Return)
            compare(view.currentIndex, Navigation.indexOf("deliveries"))

            view.currentIndex = 0
            const orders = tile("ordersTile")
            orders.forceActiveFocus(Qt.TabFocusReason)
            keyClick(Qt.Key_Space)
            compare(view.currentIndex, Navigation.indexOf("orders"))

            // Tab moves from tile to tile.
            view.currentIndex = 0
            tile("ordersTile").forceActiveFocus(Qt.TabFocusReason)
            keyClick(Qt.Key_Tab)
            verify(tile("deliveriesTile").activeFocus)
        }

        // Several instances on one PostgreSQL database: the dashboard names each (id, admin
        // address, version, last heartbeat), says which one it is connected to, which leads and
        // which are gone; with one instance it shows no such section.
        function test_instancesAreNamed() {
            const section = tile("instancesSection")
            verify(!section.visible)
            const beat = new Date(Date.UTC(2026, 10, 29, 21, 5, 7))
            const later = new Date(Date.UTC(2026, 10, 29, 21, 5, 9))
            const one = (id, url, alive, leads, self, at) => ({
                id: id, version: "0.9.0", alive: alive, leads: leads, self: self,
                heartbeatAt: at.toISOString(), startedAt: at.toISOString(),
                listeners: { admin: url, service: url.replace("8081", "8080") } })
            TestBackend.setInstances([
                one("vm/101/aaaa", "http://10.0.0.1:8081", true, false, true, later),
                one("vm/102/bbbb", "http://10.0.0.2:8081", true, true, false, beat),
                one("vm/103/cccc", "http://10.0.0.3:8081", false, false, false, beat)], "QPSQL")
            AdminClient.refresh()
            tryCompare(section, "visible", true, Wait.ms)
            compare(AdminClient.instances.length, 3)
            compare(findChild(section, "instancesAlive").text, "2 alive")
            const self = findChild(section, "instanceCard-vm/101/aaaa")
            const lead = findChild(section, "instanceCard-vm/102/bbbb")
            const gone = findChild(section, "instanceCard-vm/103/cccc")
            verify(self && lead && gone)
            compare(findChild(lead, "instanceId").text, "vm/102/bbbb")
            compare(findChild(lead, "instanceDetails").text,
                    "Version 0.9.0 · http://10.0.0.2:8081 · last heartbeat "
                    + beat.toLocaleTimeString(Qt.locale(), "HH:mm:ss"))
            compare(findChild(self, "instanceDetails").text,
                    "Version 0.9.0 · http://10.0.0.1:8081 · last heartbeat "
                    + later.toLocaleTimeString(Qt.locale(), "HH:mm:ss"))
            verify(self.border.color === Theme.accent)
            verify(findChild(gone, "instanceGone").visible)
            verify(!findChild(lead, "instanceGone").visible)
            verify(gone.opacity < 1)
            const badges = (card) => {
                const out = []
                for (const b of badgesIn(card))
                    if (b.visible)
                        out.push(b.text)
                return out.sort()
            }
            compare(badges(self), ["This one"])
            compare(badges(lead), ["Leads"])
            compare(badges(gone), ["Gone"])
            verify(gone.Accessible.name.indexOf("vm/103/cccc") >= 0)

            // The events of the others show, each with its instance; this one's with none.
            TestBackend.sendEventFrom("vm/102/bbbb", "customer.created", { id: "c-1", name: "From b" })
            const list = findChild(testCase.dashboard, "eventList")
            tryVerify(() => list.itemAtIndex(0) && list.itemAtIndex(0).summary.indexOf("From b") >= 0, Wait.ms)
            const row = list.itemAtIndex(0)
            compare(findChild(row, "eventInstance").text, "vm/102/bbbb")
            verify(findChild(row, "eventInstance").visible)
            TestBackend.sendEvent("customer.created", { id: "c-2", name: "From here" })
            tryVerify(() => list.itemAtIndex(0).summary.indexOf("From here") >= 0, Wait.ms)
            verify(!findChild(list.itemAtIndex(0), "eventInstance").visible)

            // Down to one instance: the section goes.
            TestBackend.setInstances([one("vm/101/aaaa", "http://10.0.0.1:8081", true, true, true, later)], "QSQLITE")
            AdminClient.refresh()
            tryCompare(section, "visible", false, Wait.ms)
            TestBackend.setInstances([], "QSQLITE")
            AdminClient.refresh()
            tryVerify(() => AdminClient.instances.length === 0, Wait.ms)
        }

        // Every StatusBadge under item (they have a family).
        function badgesIn(item) {
            let out = []
            for (let i = 0; i < item.children.length; ++i) {
                const c = item.children[i]
                if (c.family !== undefined)
                    out.push(c)
                out = out.concat(badgesIn(c))
            }
            return out
        }
    }
}
