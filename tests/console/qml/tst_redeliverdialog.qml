import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// Bulk redelivery from the Deliveries page against the in-test admin server: the filter, the
// preview's count and payloads, Start, live progress, Cancel, server errors and the history.
Item {
    id: root

    width: 1200
    height: 900

    DeliveriesPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "RedeliverDialog"
        when: windowShown

        // Found once in initTestCase: a findChild() binding walks the whole tree again whenever
        // any item under it gains a child.
        property var dialog: null

        function child(name) {
            const item = findChild(testCase.dialog.contentItem, name)
                         || findChild(testCase.dialog.footer, name)
            verify(item, name)
            return item
        }

        function openDialog() {
            mouseClick(findChild(page, "bulkRedeliverButton"))
            tryCompare(testCase.dialog, "opened", true, Wait.ms)
        }

        function initTestCase() {
            dialog = findChild(page, "redeliverDialog")
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetOrders()
            TestBackend.resetRedeliveries()
            Redelivery.reset()
            Redelivery.reloadJobs()
            // A live delivery event of the previous test could land after the reload and
            // (rightly) add its row; under load that happened in CI (16 rows). So first every
            // event sent so far is handled (the stream is ordered), then the list is read again.
            const mark = TestBackend.markEventStream()
            tryVerify(() => TestBackend.eventStreamReached(mark), Wait.ms, "earlier events handled")
            Deliveries.reload()
            tryVerify(() => !Deliveries.loading && Deliveries.count === 15, Wait.ms,
                      "the reset deliveries")
        }

        function cleanup() {
            testCase.dialog.close()
            tryCompare(testCase.dialog, "visible", false, Wait.ms)
        }

        function test_previewStartProgressAndComplete() {
            openDialog()
            compare(child("redeliverState").currentText, "Failed")
            compare(child("redeliverRate").text, "10")
            verify(!child("startRedeliveryButton").enabled, "no Start before a preview")
            verify(!child("previewCount").visible)

            mouseClick(child("previewButton"))
            tryCompare(child("previewCount"), "visible", true, Wait.ms)
            compare(child("previewCount").text, "2 delivery(s) would be sent again")
            compare(TestBackend.lastBody("POST /admin/v1/redeliveries/preview").filter.state, "failed")
            const first = findChild(child("previewItems"), "previewItem-0")
            verify(first)
            verify(findChild(first, "previewPayload").text.indexOf("\"orderStatus\"") > 0)
            tryCompare(child("startRedeliveryButton"), "enabled", true, Wait.ms)

            // A rate out of range keeps Start off.
            const rate = child("redeliverRate")
            rate.text = "5000"
            rate.textEdited()
            verify(!child("startRedeliveryButton").enabled)
            rate.text = "2,5"
            rate.textEdited()
            verify(child("startRedeliveryButton").enabled)

            mouseClick(child("startRedeliveryButton"))
            tryCompare(child("jobProgress"), "visible", true, Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/redeliveries").ratePerSecond, 2.5)
            const job = TestBackend.runningRedeliveryJob()
            verify(job.length > 0)
            compare(Redelivery.jobId, job)
            compare(child("jobStateText").text, "Running")
            compare(child("jobCounts").text, "0 of 2 sent · 0 queued again · 0 refused")
            compare(child("jobProgressBar").value, 0)
            verify(child("cancelRedeliveryButton").enabled)
            verify(!child("startRedeliveryButton").enabled, "one job at a time")

            // Progress arrives as redelivery.progress events.
            verify(TestBackend.advanceRedelivery(job, 1))
            tryCompare(child("jobProgressBar"), "value", 0.5, Wait.ms)
            compare(child("jobCounts").text, "1 of 2 sent · 1 queued again · 0 refused")
            verify(TestBackend.advanceRedelivery(job, 1))
            tryCompare(child("jobStateText"), "text", "Completed", Wait.ms)
            compare(child("jobProgressBar").value, 1)
            // One of the two failed deliveries goes to the disabled endpoint: refused.
            compare(child("jobCounts").text, "2 of 2 sent · 1 queued again · 1 refused")
            verify(child("jobLastError").visible)
            verify(!child("cancelRedeliveryButton").enabled)
            // The other one is pending again in the list.
            tryCompare(Deliveries, "failedCount", 1, Wait.ms)

            // The history lists it.
            const row = findChild(testCase.dialog.contentItem, "job-0")
            verify(row)
            verify(row.contentItem.text.indexOf("Completed · 2/2 sent · 2.5/s · state=failed") > 0, row.contentItem.text)
        }

        function test_cancelAndRefusals() {
            openDialog()
            const combo = child("redeliverState")
            combo.currentIndex = combo.indexOfValue("any")
            combo.activated(combo.currentIndex)
            mouseClick(child("previewButton"))
            tryCompare(child("startRedeliveryButton"), "enabled", true, Wait.ms)
            const count = Redelivery.previewCount
            verify(count > 2)
            compare(child("previewCount").text, count + " delivery(s) would be sent again")
            // Editing the filter invalidates the preview.
            const order = child("redeliverOrder")
            order.text = "x"
            order.textEdited()
            verify(!child("previewCount").visible)
            verify(!child("startRedeliveryButton").enabled)
            order.text = ""
            order.textEdited()
            mouseClick(child("previewButton"))
            tryCompare(child("startRedeliveryButton"), "enabled", true, Wait.ms)
            mouseClick(child("startRedeliveryButton"))
            tryCompare(child("cancelRedeliveryButton"), "enabled", true, Wait.ms)
            const job = Redelivery.jobId
            verify(TestBackend.advanceRedelivery(job, 1))
            tryCompare(child("jobCounts"), "text", "1 of " + count + " sent · 1 queued again · 0 refused", Wait.ms)
            mouseClick(child("cancelRedeliveryButton"))
            tryCompare(child("jobStateText"), "text", "Cancelled", Wait.ms)
            verify(!child("cancelRedeliveryButton").enabled)
            verify(TestBackend.requestCount("POST /admin/v1/redeliveries/" + job + "/cancel") === 1)
            verify(!TestBackend.advanceRedelivery(job, 1), "nothing more is sent")
        }

        function test_serverMessagesInline() {
            openDialog()
            child("redeliverFrom").text = "yesterday"
            child("redeliverFrom").textEdited()
            mouseClick(child("previewButton"))
            tryCompare(child("redeliverError"), "visible", true, Wait.ms)
            compare(child("redeliverError").text, "filter.from must be an ISO 8601 time")
            verify(!child("previewCount").visible)

            // Capped over 10,000.
            child("redeliverFrom").text = ""
            child("redeliverFrom").textEdited()
            TestBackend.setExtraRedeliveryMatches(12000)
            mouseClick(child("previewButton"))
            tryCompare(child("previewCount"), "visible", true, Wait.ms)
            compare(child("previewCount").text, "10000 of 12002 matching deliveries (capped: a job takes at most 10,000)")
            verify(!child("redeliverError").visible)

            // Nothing to redeliver: the server's 422 message.
            TestBackend.setExtraRedeliveryMatches(0)
            const customer = child("redeliverCustomer")
            customer.text = "nobody"
            customer.textEdited()
            mouseClick(child("previewButton"))
            tryCompare(child("previewCount"), "visible", true, Wait.ms)
            compare(child("previewCount").text, "0 delivery(s) would be sent again")
            tryVerify(() => !Redelivery.busy, Wait.ms)
            verify(!child("startRedeliveryButton").enabled)
            Redelivery.start()
            tryCompare(child("redeliverError"), "text", "no finished delivery matches the filter", Wait.ms)
        }

        function test_disabledEndpointCountsAsRefused() {
            openDialog()
            const endpoint = child("redeliverEndpoint")
            endpoint.text = TestBackend.disabledEndpointId()
            endpoint.textEdited()
            const combo = child("redeliverState")
            combo.currentIndex = combo.indexOfValue("any")
            combo.activated(combo.currentIndex)
            mouseClick(child("previewButton"))
            tryCompare(child("startRedeliveryButton"), "enabled", true, Wait.ms)
            mouseClick(child("startRedeliveryButton"))
            tryVerify(() => Redelivery.jobId.length > 0 && Redelivery.jobId === TestBackend.runningRedeliveryJob(), Wait.ms)
            verify(TestBackend.advanceRedelivery(Redelivery.jobId, 1))
            tryVerify(() => Redelivery.jobFailed === 1, Wait.ms)
            compare(child("jobLastError").text, "Last refusal: the endpoint is disabled; enable it before redelivering")
        }
    }
}
