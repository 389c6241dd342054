import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The Deliveries page with the real services against the in-test admin server: live
// attempts, failed deliveries marked, the attempt log, Redeliver and disabled endpoints.
Item {
    id: root

    width: 1100
    height: 700

    DeliveriesPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "DeliveriesPage"
        when: windowShown

        // Found once in initTestCase: a findChild() binding walks the whole tree again whenever
        // any item under it gains a child.
        property var list: null

        function delegateOf(deliveryId) {
            return findChild(testCase.list, "delivery-" + deliveryId)
        }
        // The list scrolls: bring the row into view before touching it.
        function shownDelegateOf(deliveryId) {
            testCase.list.positionViewAtIndex(Deliveries.indexOfId(deliveryId), ListView.Center)
            const row = delegateOf(deliveryId)
            verify(row, "delegate of " + deliveryId)
            return row
        }

        function initTestCase() {
            list = findChild(page, "deliveryList")
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetOrders()
            DeliveryDetail.deliveryId = ""
            Deliveries.stateFilter = ""
            findChild(page, "stateFilter").currentIndex = 0
            Deliveries.reload()
            Endpoints.reload()
            Customers.reload()
            tryVerify(() => !Deliveries.loading && Deliveries.count === 15, Wait.ms, "deliveries loaded")
            tryVerify(() => !Endpoints.loading && Endpoints.count === 1, Wait.ms, "endpoints loaded")
            Deliveries.clearError()
            DeliveryDetail.clearError()
            Endpoints.clearError()
        }

        function test_keyboardSelectsDeliveries() {
            testCase.list.currentIndex = -1 // where earlier tests left it
            compare(DeliveryDetail.deliveryId, "")
            testCase.list.forceActiveFocus()
            keyClick(Qt.Key_Down)
            compare(DeliveryDetail.deliveryId, Deliveries.idAt(0))
            keyClick(Qt.Key_End)
            compare(DeliveryDetail.deliveryId, Deliveries.idAt(Deliveries.count - 1))
            verify(shownDelegateOf(Deliveries.idAt(Deliveries.count - 1)).selected)
        }

        function test_failedDeliveriesStandOut() {
            compare(testCase.list.count, 15)
            compare(Deliveries.failedCount, 2)
            verify(findChild(page, "failedCount").visible)
            const failedIds = TestBackend.deliveryIds("failed")
            compare(failedIds.length, 2)
            for (const id of failedIds) {
                const row = shownDelegateOf(id)
                verify(row.failed, id)
                compare(findChild(row, "deliveryBackground").color, Theme.errorSoft)
                compare(findChild(row, "deliveryMark").color, Theme.error)
                verify(findChild(row, "deliveryMark").width > 0)
                verify(findChild(row, "lastErrorText").visible)
                compare(findChild(row, "deliveryStateBadge").tone, Theme.error)
            }
            const ok = shownDelegateOf(TestBackend.deliveryIds("succeeded")[0])
            verify(!ok.failed)
            verify(findChild(ok, "deliveryBackground").color !== Theme.errorSoft)
            verify(!findChild(ok, "lastErrorText").visible)
            compare(findChild(ok, "httpStatus").text, "HTTP 200")
        }

        function test_liveAttemptUpdatesRow() {
            const reloads = TestBackend.requestCount("GET /admin/v1/deliveries?")
            const id = TestBackend.deliveryIds("pending")[0]
            const row = shownDelegateOf(id)
            compare(row.stateText, "Pending")
            compare(findChild(row, "httpStatus").text, "HTTP 503")

            verify(TestBackend.recordAttempt(id, 0, -1, "read timeout after 10 s", "failed"))
            tryCompare(row, "failed", true, Wait.ms)
            compare(row.attempts, 5)
            compare(findChild(row, "httpStatus").text, "No answer")
            compare(row.lastError, "read timeout after 10 s")
            compare(Deliveries.failedCount, 3)
            compare(TestBackend.requestCount("GET /admin/v1/deliveries?"), reloads)

            // A new delivery appears at the top when an order moves on.
            const order = TestBackend.orderIdWithStatus("ALLOCATED")
            verify(TestBackend.setOrderStatus(order, "PICKED_UP"))
            tryCompare(testCase.list, "count", 16, Wait.ms)
            testCase.list.positionViewAtBeginning()
            tryVerify(() => testCase.list.itemAtIndex(0)
                            && testCase.list.itemAtIndex(0).deliveryId === Deliveries.idAt(0), Wait.ms)
            compare(testCase.list.itemAtIndex(0).orderStatusText, "Picked up")
            compare(testCase.list.itemAtIndex(0).stateText, "Pending")
        }

        function test_stateFilterHidesRows() {
            const combo = findChild(page, "stateFilter")
            combo.currentIndex = combo.indexOfValue("failed")
            combo.activated(combo.currentIndex)
            compare(Deliveries.stateFilter, "failed")
            tryCompare(testCase.list, "count", 2, Wait.ms)
            tryVerify(() => TestBackend.requestCount("GET /admin/v1/deliveries?state=failed") === 1, Wait.ms)
            tryVerify(() => !Deliveries.loading, Wait.ms)
            compare(testCase.list.count, 2)
            // A delivery that fails live joins the filtered list.
            verify(TestBackend.recordAttempt(TestBackend.deliveryIds("pending")[0], 503, 2000,
                                             "HTTP 503", "failed"))
            tryCompare(testCase.list, "count", 3, Wait.ms)
        }

        function test_attemptLogAndRedeliver() {
            // The Corner Pub's given-up delivery: the older of the two failed ones.
            const id = TestBackend.deliveryIds("failed")[1]
            mouseClick(shownDelegateOf(id))
            compare(DeliveryDetail.deliveryId, id)
            tryCompare(DeliveryDetail, "loaded", true, Wait.ms)
            const log = findChild(page, "attemptLog")
            tryVerify(() => !!findChild(log, "attempt-6"), Wait.ms)
            const last = findChild(log, "attempt-6")
            verify(last.failed)
            compare(last.statusText, "No answer")
            const first = findChild(log, "attempt-1")
            compare(first.statusText, "503")
            verify(findChild(first, "responsePreview").text.indexOf("503 Service Temporarily Unavailable") >= 0)
            verify(findChild(page, "deliveryFailure").visible)

            const redeliver = findChild(page, "redeliverButton")
            verify(redeliver.enabled)
            mouseClick(redeliver)
            tryCompare(shownDelegateOf(id), "stateText", "Pending", Wait.ms)
            verify(!shownDelegateOf(id).failed)
            compare(TestBackend.requestCount("POST /admin/v1/deliveries/" + id + "/redeliver"), 1)
            tryCompare(redeliver, "enabled", false, Wait.ms) // pending: the dispatcher has it
            compare(Deliveries.failedCount, 1)

            // The manual attempt arrives live, in the row and in the log.
            verify(TestBackend.recordAttempt(id, 200, 64, "", "succeeded"))
            tryCompare(shownDelegateOf(id), "stateText", "Succeeded", Wait.ms)
            tryVerify(() => !!findChild(log, "attempt-7"), Wait.ms)
            compare(findChild(log, "attempt-7").triggerText, "Manual")
            verify(!findChild(page, "deliveryFailure").visible)
        }

        function test_disabledEndpointRefusesThenEnables() {
            const section = findChild(page, "disabledEndpoints")
            verify(section.visible)
            const endpointRow = findChild(section, "endpoint-" + TestBackend.disabledEndpointId())
            verify(endpointRow)

            // Its failed delivery cannot go out while the endpoint is disabled: the API says so.
            const id = TestBackend.deliveryIds("failed")[0]
            mouseClick(shownDelegateOf(id))
            tryCompare(DeliveryDetail, "loaded", true, Wait.ms)
            mouseClick(findChild(page, "redeliverButton"))
            const banner = findChild(page, "deliveriesError")
            tryCompare(banner, "visible", true, Wait.ms)
            compare(findChild(banner, "errorText").text,
                    "the endpoint is disabled; enable it before redelivering")
            verify(shownDelegateOf(id).failed)

            mouseClick(findChild(endpointRow, "enableEndpointButton"))
            tryCompare(section, "visible", false, Wait.ms)
            compare(TestBackend.disabledEndpointId(), "")
            mouseClick(findChild(banner, "dismissErrorButton"))
            verify(!banner.visible)

            mouseClick(findChild(page, "redeliverButton"))
            tryCompare(shownDelegateOf(id), "stateText", "Pending", Wait.ms)
            verify(!banner.visible)
        }
    }
}
