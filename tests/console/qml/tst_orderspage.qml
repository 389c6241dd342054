import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The Orders page with the real services against the in-test admin server: the live list,
// filters, the detail with its history timeline, the actions and the test-order dialog.
Item {
    id: root

    width: 1100
    height: 700

    OrdersPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "OrdersPage"
        when: windowShown

        // Found once in initTestCase: a findChild() binding walks the whole tree again whenever
        // any item under it gains a child.
        property var list: null

        function delegateOf(orderId) {
            return findChild(testCase.list, "order-" + orderId)
        }

        // How many times the console asked for an action on an order ("pickup", "cancel", ...).
        function actionCount(orderId, action) {
            return TestBackend.requestCount("POST /admin/v1/orders/" + orderId + "/" + action)
        }

        function initTestCase() {
            list = findChild(page, "orderList")
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetOrders()
            TestBackend.setOrdersPageSize(1000)
            OrderDetail.orderId = ""
            Orders.statusFilter = ""
            Orders.customerFilter = ""
            findChild(page, "statusFilter").currentIndex = 0
            findChild(page, "customerFilter").currentIndex = 0
            Orders.reload()
            Customers.reload()
            Beers.reload()
            tryVerify(() => !Orders.loading && Orders.count === 7, Wait.ms, "orders loaded")
            tryVerify(() => Customers.count === 3 && Beers.count === 6, Wait.ms, "catalog loaded")
            Orders.clearError()
            OrderDetail.clearError()
        }

        function test_listShowsOrders() {
            compare(testCase.list.count, 7)
            compare(findChild(page, "orderCount").text, "7 shown")
            const allocated = TestBackend.orderIdWithStatus("ALLOCATED")
            const row = delegateOf(allocated)
            verify(row, "delegate of the allocated order")
            compare(row.statusText, "Allocated")
            compare(row.statusFamily, "progress")
            compare(row.customerName, "Acme Brewing Supply")
            compare(row.customerRef, "PO-1001")
            compare(row.lineCount, 2)
            compare(row.shortId, allocated.substring(allocated.length - 8))
            const badge = findChild(row, "orderStatusBadge")
            compare(badge.tone, Theme.accent)
            // An exception is marked in the error colour.
            const failed = delegateOf(TestBackend.orderIdWithStatus("VALIDATION_EXCEPTION"))
            compare(findChild(failed, "orderStatusBadge").tone, Theme.error)
            compare(findChild(delegateOf(TestBackend.orderIdWithStatus("PENDING_INVENTORY")),
                              "orderStatusBadge").tone, Theme.warning)
        }

        function test_liveEventsUpdateWithoutReload() {
            const reloads = TestBackend.requestCount("GET /admin/v1/orders?")
            const id = TestBackend.orderIdWithStatus("NEW")
            const row = delegateOf(id)
            verify(row)
            verify(TestBackend.setOrderStatus(id, "VALIDATION_PENDING"))
            tryCompare(row, "statusText", "Validation pending", Wait.ms)
            compare(delegateOf(id), row) // the same delegate, updated in place

            const created = TestBackend.createOrder(2, "PUB-77")
            tryCompare(testCase.list, "count", 8, Wait.ms)
            compare(Orders.idAt(0), created) // at the top
            tryVerify(() => testCase.list.itemAtIndex(0) && testCase.list.itemAtIndex(0).orderId === created, Wait.ms)
            const top = testCase.list.itemAtIndex(0)
            compare(top.orderId, created)
            // A view at the top shows the new order there, it does not scroll it away.
            compare(top.y, testCase.list.contentY)
            compare(top.customerName, "The Corner Pub")
            compare(top.customerRef, "PUB-77")
            compare(top.statusText, "New")
            compare(TestBackend.requestCount("GET /admin/v1/orders?"), reloads)
        }

        function test_filtersHideRows() {
            const statusCombo = findChild(page, "statusFilter")
            statusCombo.currentIndex = statusCombo.indexOfValue("ALLOCATED")
            statusCombo.activated(statusCombo.currentIndex)
            compare(Orders.statusFilter, "ALLOCATED")
            tryCompare(testCase.list, "count", 1, Wait.ms)
            verify(delegateOf(TestBackend.orderIdWithStatus("ALLOCATED")))
            compare(Orders.indexOfId(TestBackend.orderIdWithStatus("NEW")), -1)
            tryVerify(() => TestBackend.requestCount("GET /admin/v1/orders?status=ALLOCATED") === 1, Wait.ms)

            // A live order outside the filter stays hidden; one that enters it appears. The
            // stream is ordered: once the second event shows, the first one has been handled.
            const hidden = TestBackend.createOrder(0, "")
            verify(TestBackend.setOrderStatus(TestBackend.orderIdWithStatus("PENDING_INVENTORY"),
                                              "ALLOCATED"))
            tryCompare(testCase.list, "count", 2, Wait.ms)
            compare(Orders.indexOfId(hidden), -1)

            statusCombo.currentIndex = 0
            statusCombo.activated(0)
            const customerCombo = findChild(page, "customerFilter")
            customerCombo.currentIndex = customerCombo.indexOfValue(TestBackend.customerId(1))
            customerCombo.activated(customerCombo.currentIndex)
            compare(Orders.customerFilter, TestBackend.customerId(1))
            tryVerify(() => !Orders.loading && testCase.list.count === 2, Wait.ms)
            for (let i = 0; i < testCase.list.count; ++i)
                compare(testCase.list.itemAtIndex(i).customerName, "Hopfen & Malz GmbH")
        }

        function test_selectingShowsDetailWithTimeline() {
            const id = TestBackend.orderIdWithStatus("ALLOCATED")
            mouseClick(delegateOf(id))
            compare(OrderDetail.orderId, id)
            verify(delegateOf(id).selected)
            tryCompare(OrderDetail, "loaded", true, Wait.ms)
            compare(findChild(page, "detailTitle").text, "Order " + id.substring(id.length - 8))
            compare(findChild(page, "detailStatus").text, "Allocated")
            compare(findChild(page, "detailCustomer").text, "Acme Brewing Supply")
            const timeline = findChild(page, "historyTimeline")
            verify(timeline.visible)
            compare(timeline.count, 5)
            compare(OrderDetail.lines.count, 2)
            compare(OrderDetail.deliveries.count, 4)

            // The timeline grows live.
            const other = TestBackend.orderIdWithStatus("NEW")
            mouseClick(delegateOf(other))
            tryCompare(timeline, "count", 1, Wait.ms)
            verify(TestBackend.setOrderStatus(other, "VALIDATION_PENDING"))
            tryCompare(timeline, "count", 2, Wait.ms)
            compare(findChild(page, "detailStatus").text, "Validation pending")
        }

        function test_keyboardSelectsOrders() {
            testCase.list.currentIndex = -1 // where earlier tests left it
            // Nothing is selected until the keyboard (or a click) says so.
            compare(testCase.list.currentIndex, -1)
            compare(OrderDetail.orderId, "")
            testCase.list.forceActiveFocus()
            verify(testCase.list.activeFocus)
            keyClick(Qt.Key_Down)
            compare(OrderDetail.orderId, Orders.idAt(0))
            verify(delegateOf(Orders.idAt(0)).selected)
            keyClick(Qt.Key_Down)
            keyClick(Qt.Key_Down)
            compare(OrderDetail.orderId, Orders.idAt(2))
            tryCompare(OrderDetail, "loaded", true, Wait.ms)
            keyClick(Qt.Key_Up)
            compare(OrderDetail.orderId, Orders.idAt(1))
            // A click moves the keyboard's place too.
            mouseClick(delegateOf(Orders.idAt(5)))
            compare(testCase.list.currentIndex, 5)
            testCase.list.forceActiveFocus()
            keyClick(Qt.Key_Down)
            compare(OrderDetail.orderId, Orders.idAt(6))
            // All 7 fit in one page: nothing older to read.
            verify(!Orders.hasOlder)
            keySequence("Ctrl+F")
            verify(findChild(page, "statusFilter").activeFocus)
        }

        function test_olderOrdersReadAtTheEnd() {
            for (let i = 0; i < 40; ++i)
                verify(TestBackend.createOrder(i % 3, "older-" + i).length > 0)
            tryCompare(Orders, "count", 47, Wait.ms)
            // 25 a page: the first page is longer than the list and what it makes ahead, and a
            // strip under the list says that there are older ones.
            TestBackend.setOrdersPageSize(25)
            Orders.reload()
            tryVerify(() => Orders.loaded && !Orders.loading && Orders.count === 25, Wait.ms)
            verify(Orders.hasOlder)
            const strip = findChild(page, "olderOrders")
            verify(strip, "the older-orders strip")
            tryVerify(() => strip.visible && strip.width > 0, Wait.ms, "strip shown")
            compare(strip.text, "Older orders: scroll on to load them")
            verify(!testCase.list.atYEnd, "the first page is longer than the list")
            // The list ends above the strip: its last row is not hidden under it.
            const stripInList = strip.mapToItem(testCase.list, 0, 0)
            verify(stripInList.y >= testCase.list.height - 1, "strip below the list")
            // Scrolling to the end reads the 22 older ones; then the strip goes away.
            testCase.list.positionViewAtEnd()
            tryVerify(() => Orders.count === 47 && !Orders.hasOlder && !Orders.loadingOlder, Wait.ms)
            tryCompare(strip, "visible", false, Wait.ms)
            const ids = {}
            for (let row = 0; row < Orders.count; ++row)
                ids[Orders.idAt(row)] = true
            compare(Object.keys(ids).length, 47)
        }

        function test_actionsCallThroughAndRowUpdates() {
            const id = TestBackend.orderIdWithStatus("ALLOCATED")
            mouseClick(delegateOf(id))
            tryCompare(OrderDetail, "loaded", true, Wait.ms)
            const pickup = findChild(page, "pickupButton")
            const deliver = findChild(page, "deliverButton")
            const cancel = findChild(page, "cancelOrderButton")
            verify(pickup.enabled)
            verify(!deliver.enabled)
            verify(cancel.enabled)

            // Each action: its answer first (busy ends), then the view. The row and the timeline
            // can follow the event stream before the answer is in, and while an action is under
            // way the next one is ignored.
            const pickups = actionCount(id, "pickup")
            mouseClick(pickup)
            tryVerify(() => actionCount(id, "pickup") === pickups + 1, Wait.ms, "pickup sent")
            tryCompare(OrderDetail, "busy", false, Wait.ms) // its answer is in
            tryCompare(delegateOf(id), "statusText", "Picked up", Wait.ms)
            tryCompare(findChild(page, "historyTimeline"), "count", 6, Wait.ms)
            tryCompare(deliver, "enabled", true, Wait.ms)
            verify(!pickup.enabled)
            verify(!cancel.enabled)

            const delivers = actionCount(id, "deliver")
            mouseClick(deliver)
            tryVerify(() => actionCount(id, "deliver") === delivers + 1, Wait.ms, "deliver sent")
            tryCompare(OrderDetail, "busy", false, Wait.ms) // its answer is in
            tryCompare(delegateOf(id), "statusText", "Delivered", Wait.ms)
            compare(delegateOf(id).statusFamily, "ok")
            tryCompare(findChild(page, "historyTimeline"), "count", 7, Wait.ms)
            compare(OrderDetail.status, "DELIVERED")
            verify(!deliver.enabled)

            // The server refuses what the status does not allow; its message is shown as is.
            const banner = findChild(page, "ordersError")
            verify(!banner.visible)
            const refused = actionCount(id, "cancel")
            OrderDetail.cancel()
            verify(OrderDetail.busy, "the cancel is sent")
            tryCompare(OrderDetail, "busy", false, Wait.ms) // its answer is in
            compare(actionCount(id, "cancel"), refused + 1)
            compare(OrderDetail.error, "cannot cancel an order in status DELIVERED")
            tryCompare(banner, "visible", true, Wait.ms)
            compare(findChild(banner, "errorText").text,
                    "cannot cancel an order in status DELIVERED")
            mouseClick(findChild(banner, "dismissErrorButton"))
            verify(!banner.visible)

            // Cancel from a cancellable status.
            const fresh = TestBackend.orderIdWithStatus("NEW")
            mouseClick(delegateOf(fresh))
            tryCompare(OrderDetail, "loaded", true, Wait.ms)
            tryCompare(cancel, "enabled", true, Wait.ms)
            const cancels = actionCount(fresh, "cancel")
            mouseClick(cancel)
            tryVerify(() => actionCount(fresh, "cancel") === cancels + 1, Wait.ms, "cancel sent")
            tryCompare(OrderDetail, "busy", false, Wait.ms) // its answer is in
            tryCompare(delegateOf(fresh), "statusText", "Cancelled", Wait.ms)
            compare(delegateOf(fresh).statusFamily, "cancelled")
        }

        function test_testOrderDialogPlacesOrder() {
            const dialog = findChild(page, "testOrderDialog")
            verify(dialog)
            mouseClick(findChild(page, "placeTestOrderButton"))
            tryCompare(dialog, "opened", true, Wait.ms)

            const customer = findChild(dialog, "testOrderCustomer")
            customer.currentIndex = customer.indexOfValue(TestBackend.customerId(2))
            customer.activated(customer.currentIndex)
            compare(TestOrder.customerId, TestBackend.customerId(2))

            const upc = TestBackend.beerUpc(0)
            const beers = findChild(dialog, "testOrderBeers")
            verify(beers)
            const spin = findChild(findChild(beers, "beer-" + upc), "quantity-" + upc)
            verify(spin, "a quantity box per beer")
            spin.value = 4
            spin.valueModified()
            compare(TestOrder.quantity(upc), 4)
            compare(findChild(dialog, "testOrderSummary").text, "Lines 1 · Qty 4")

            const ref = findChild(dialog, "testOrderRef")
            ref.text = "TRAINING-1"
            ref.textEdited()

            const submit = findChild(dialog, "testOrderSubmit")
            verify(submit.enabled)
            mouseClick(submit)
            tryCompare(dialog, "visible", false, Wait.ms)
            compare(TestBackend.requestCount("POST /admin/v1/test-orders"), 1)
            tryCompare(testCase.list, "count", 8, Wait.ms)
            tryVerify(() => testCase.list.itemAtIndex(0)
                            && testCase.list.itemAtIndex(0).orderId === Orders.idAt(0), Wait.ms)
            const top = testCase.list.itemAtIndex(0)
            compare(top.customerName, "The Corner Pub")
            compare(top.customerRef, "TRAINING-1")
            compare(top.lineCount, 1)
            // The new order is selected, its detail shows the demo receiver.
            compare(OrderDetail.orderId, top.orderId)
            tryCompare(OrderDetail, "loaded", true, Wait.ms)
            verify(OrderDetail.callbackUrl.indexOf("/demo-receiver") > 0)

            // The same reference again: the dialog stays and shows the server's reason.
            mouseClick(findChild(page, "placeTestOrderButton"))
            tryCompare(dialog, "opened", true, Wait.ms)
            customer.currentIndex = customer.indexOfValue(TestBackend.customerId(2))
            customer.activated(customer.currentIndex)
            ref.text = "TRAINING-1"
            ref.textEdited()
            mouseClick(submit)
            const error = findChild(dialog, "testOrderError")
            tryCompare(error, "visible", true, Wait.ms)
            compare(error.text, "the customer already has an order with customerRef TRAINING-1")
            verify(dialog.visible)
            mouseClick(findChild(dialog, "testOrderCancel"))
            tryCompare(dialog, "visible", false, Wait.ms)
            compare(testCase.list.count, 8)
        }

        function test_holdAndReleaseTheLifecycle() {
            // Held: the button says release, a banner counts the orders waiting in NEW (each
            // order accepted meanwhile adds one); released: both go back.
            const button = findChild(page, "lifecycleButton")
            const banner = findChild(page, "lifecycleHeldBanner")
            tryCompare(OrderLifecycle, "loaded", true, Wait.ms)
            tryCompare(button, "visible", true, Wait.ms)
            compare(button.text, "Hold orders")
            verify(!banner.visible)
            const holds = TestBackend.requestCount("POST /admin/v1/orders/lifecycle/hold")
            const releases = TestBackend.requestCount("POST /admin/v1/orders/lifecycle/release")
            mouseClick(button)
            tryCompare(OrderLifecycle, "held", true, Wait.ms)
            compare(TestBackend.requestCount("POST /admin/v1/orders/lifecycle/hold"), holds + 1)
            compare(button.text, "Release orders")
            tryCompare(banner, "visible", true, Wait.ms)
            const text = findChild(page, "lifecycleHeldText")
            compare(text.text.indexOf("0 order(s) wait in NEW"), 0, text.text)
            TestBackend.createOrder(0, "HELD-1")
            TestBackend.createOrder(1, "HELD-2")
            tryCompare(OrderLifecycle, "backlog", 2, Wait.ms)
            compare(text.text.indexOf("2 order(s) wait in NEW"), 0, text.text)
            mouseClick(button)
            tryCompare(OrderLifecycle, "held", false, Wait.ms)
            compare(TestBackend.requestCount("POST /admin/v1/orders/lifecycle/release"), releases + 1)
            tryCompare(banner, "visible", false, Wait.ms)
            compare(button.text, "Hold orders")
            // Held by someone else (another console, gatehouse admin orders hold): the event
            // alone shows it.
            TestBackend.sendEvent("order.lifecycle", {"held": true, "backlog": 5})
            tryCompare(banner, "visible", true, Wait.ms)
            compare(text.text.indexOf("5 order(s) wait in NEW"), 0, text.text)
            TestBackend.sendEvent("order.lifecycle", {"held": false, "backlog": 5})
            tryCompare(banner, "visible", false, Wait.ms)
        }

        function test_customersSecretShownOnce() {
            const tabs = findChild(page, "ordersTabs")
            mouseClick(findChild(page, "customersTab"))
            compare(tabs.currentIndex, 1)
            const customers = findChild(page, "customersPage")
            verify(customers.visible)
            const list = findChild(customers, "customerList")
            tryCompare(list, "count", 3, Wait.ms)

            // Create: the secret is shown once, with the note and a copy button.
            mouseClick(findChild(customers, "newCustomerButton"))
            const create = findChild(customers, "newCustomerDialog")
            tryCompare(create, "opened", true, Wait.ms)
            const name = findChild(create, "customerNameField")
            const createButton = findChild(create, "createCustomerButton")
            verify(!createButton.enabled)
            name.text = "Biergarten Nord"
            verify(createButton.enabled)
            mouseClick(createButton)
            const reveal = findChild(customers, "secretRevealDialog")
            tryCompare(reveal, "opened", true, Wait.ms)
            tryCompare(create, "visible", false, Wait.ms)
            const secret = findChild(reveal, "secretField").text
            verify(secret.startsWith("whsec_"), secret)
            compare(reveal.customerName, "Biergarten Nord")
            verify(findChild(reveal, "secretOnceNote").visible)
            verify(!findChild(reveal, "previousSecretNote").visible)
            mouseClick(findChild(reveal, "copySecretButton"))
            verify(reveal.copied)
            tryCompare(list, "count", 4, Wait.ms)
            mouseClick(findChild(reveal, "secretDoneButton"))
            tryCompare(reveal, "visible", false, Wait.ms)
            compare(reveal.secret, "") // forgotten once closed
            compare(findChild(reveal, "secretField").text, "")

            // Rotate: confirmed first, then the new secret and until when the old one works.
            const row = findChild(list, "customer-" + TestBackend.customerId(2))
            verify(row)
            mouseClick(findChild(row, "rotateSecretButton"))
            const confirm = findChild(customers, "rotateSecretDialog")
            tryCompare(confirm, "opened", true, Wait.ms)
            mouseClick(findChild(confirm, "confirmRotateButton"))
            tryCompare(reveal, "opened", true, Wait.ms)
            compare(reveal.customerName, "The Corner Pub")
            const rotated = findChild(reveal, "secretField").text
            verify(rotated.startsWith("whsec_"))
            verify(rotated !== secret)
            verify(findChild(reveal, "previousSecretNote").visible)
            compare(TestBackend.requestCount("POST /admin/v1/customers/" + TestBackend.customerId(2)
                                             + "/rotate-secret"), 1)
            mouseClick(findChild(reveal, "secretDoneButton"))
            tryCompare(reveal, "visible", false, Wait.ms)
            mouseClick(findChild(page, "ordersTab"))
            compare(tabs.currentIndex, 0)
        }
    }
}
