import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// Honest liveness on the live views: the badge above the Orders list turns "Stale" when the
// backend is stopped and "Live" again when it returns (with the list resynced), and the
// Audit page says "Not permitted" in the server's words instead of showing an empty list.
Item {
    id: root

    width: 1300
    height: 800

    OrdersPage {
        id: orders
        anchors.fill: parent
        visible: !audit.visible
    }
    AuditPage {
        id: audit
        anchors.fill: parent
        visible: false
    }

    TestCase {
        id: testCase

        name: "Liveness"
        when: windowShown

        function initTestCase() {
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function cleanup() {
            TestBackend.setAuditForbidden(false)
            audit.visible = false
            if (AdminClient.connectionState !== AdminClient.Online)
                TestBackend.restartServer()
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function test_badgeTurnsStaleWhenBackendStopsAndRecovers() {
            const badge = findChild(orders, "orderListLive")
            verify(badge, "the Orders list has a liveness badge")
            tryCompare(findChild(badge, "liveState"), "text", "Live", Wait.ms)
            compare(Orders.live.state, LiveState.Live)
            const rowsBefore = Orders.count

            TestBackend.stopServer()
            tryCompare(findChild(badge, "liveState"), "text", "Stale", Wait.ms)
            verify(findChild(badge, "liveDetail").text.indexOf("backend unreachable") >= 0,
                   findChild(badge, "liveDetail").text)
            // Its tooltip shows the server's words as plain text (never as rich text, which
            // loads images from the URLs a message names).
            const tip = findChild(badge, "liveDetailTip")
            verify(tip, "the detail has a plain-text tooltip")
            compare(tip.text, findChild(badge, "liveDetail").text)
            compare(tip.contentItem.textFormat, Text.PlainText)
            compare(findChild(badge, "liveDot").color, Theme.warning)
            verify(badge.Accessible.name.indexOf("Stale") === 0, badge.Accessible.name)
            compare(Orders.count, rowsBefore, "the rows stay on screen while stale")

            verify(TestBackend.restartServer())
            tryCompare(findChild(badge, "liveState"), "text", "Live", Wait.ms)
            compare(findChild(badge, "liveDot").color, Theme.online)
            verify(Orders.live.syncedAt > new Date(0))
        }

        function test_notPermittedIsShownAsSuch() {
            TestBackend.setAuditForbidden(true)
            audit.visible = true
            AuditLog.reload()
            const pane = findChild(audit, "notPermitted")
            verify(pane, "the Audit page has a not-permitted pane")
            tryCompare(pane, "visible", true, Wait.ms)
            compare(findChild(pane, "notPermittedTitle").text, "Not permitted")
            compare(findChild(pane, "notPermittedMessage").text,
                    "this admin token may not read the audit log")
            compare(AuditLog.count, 0)
            const badge = findChild(audit, "auditListLive")
            compare(findChild(badge, "liveState").text, "Not permitted")

            TestBackend.setAuditForbidden(false)
            AuditLog.reload()
            tryCompare(pane, "visible", false, Wait.ms)
            tryCompare(findChild(badge, "liveState"), "text", "Live", Wait.ms)
            verify(AuditLog.count > 0)
        }
    }
}
