import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The Audit page with the real services against the in-test admin server: the log newest
// first, live entries on top, filters, the selected entry's changes and consequences, and
// paging back.
Item {
    id: root

    width: 1300
    height: 800

    AuditPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "AuditPage"
        when: windowShown

        // Found once in initTestCase: a findChild() binding walks the whole tree again whenever
        // any item under it gains a child.
        property var list: null

        function shownRow(entryId) {
            testCase.list.positionViewAtIndex(AuditLog.indexOfId(entryId), ListView.Center)
            const row = findChild(testCase.list, "audit-" + entryId)
            verify(row, "row of entry " + entryId)
            return row
        }

        function initTestCase() {
            list = findChild(page, "auditList")
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.setAuditForbidden(false)
            TestBackend.resetAudit()
            AuditDetail.entryId = ""
            AuditLog.kindFilter = ""
            AuditLog.targetFilter = ""
            AuditLog.actorFilter = ""
            findChild(page, "kindFilter").currentIndex = 0
            findChild(page, "targetFilter").text = ""
            findChild(page, "actorFilter").text = ""
            AuditLog.reload()
            tryVerify(() => !AuditLog.loading && AuditLog.count === 100, Wait.ms, "first page loaded")
            AuditLog.clearError()
            AuditDetail.clearError()
        }

        function test_keyboardSelectsEntries() {
            testCase.list.currentIndex = -1 // where earlier tests left it
            compare(AuditDetail.entryId, "")
            testCase.list.forceActiveFocus()
            keyClick(Qt.Key_Down)
            keyClick(Qt.Key_Down)
            compare(AuditDetail.entryId, "122")
            keyClick(Qt.Key_Up)
            compare(AuditDetail.entryId, "123")
            verify(shownRow("123").selected)
            // Ctrl+F goes to the filter.
            keySequence("Ctrl+F")
            verify(findChild(page, "targetFilter").activeFocus)
        }

        function test_newestFirstWithWhoWhatAndFields() {
            compare(TestBackend.auditEntryCount(), 123)
            compare(AuditLog.idAt(0), "123")
            compare(AuditLog.idAt(99), "24")
            compare(findChild(page, "auditCount").text, "100 shown")
            const node = shownRow("123")
            compare(findChild(node, "entryKind").text, "node")
            compare(findChild(node, "entryAction").text, "patch")
            compare(findChild(node, "entryTarget").text, "node-1")
            compare(findChild(node, "entryActor").text, "admin token")
            compare(findChild(node, "entryFields").text,
                    "changed: metadata.labels.rack, metadata.labels.tier")
            verify(findChild(node, "entryTime").text.length > 0)
            const client = shownRow("122")
            compare(findChild(client, "entryActor").text, "alice")
            compare(findChild(client, "entryFields").text, "changed: client_name, scope")
        }

        function test_liveEntryArrivesOnTop() {
            const reloads = TestBackend.requestCount("GET /admin/v1/audit?")
            const id = TestBackend.addAuditEntry("beer", "restock", "0631234200036", "bob (gatehouse-admin-cli/0.1.0 from 127.0.0.1)",
                                                 [{ field: "quantityOnHand", before: 12, after: 48 }])
            tryCompare(AuditLog, "count", 101, Wait.ms)
            compare(AuditLog.idAt(0), id)
            testCase.list.positionViewAtBeginning()
            const row = shownRow(id)
            compare(findChild(row, "entryAction").text, "restock")
            compare(findChild(row, "entryActor").text, "bob")
            compare(findChild(row, "entryFields").text, "changed: quantityOnHand")
            compare(TestBackend.requestCount("GET /admin/v1/audit?"), reloads, "no reload for a live entry")

            // An entry the filters exclude does not appear.
            AuditLog.kindFilter = "client"
            tryVerify(() => !AuditLog.loading && AuditLog.count === 1, Wait.ms)
            TestBackend.addAuditEntry("beer", "restock", "0631234200036", "bob", [])
            TestBackend.addAuditEntry("client", "rotate-secret", "abc", "bob", [])
            tryCompare(AuditLog, "count", 2, Wait.ms)
            compare(AuditLog.idAt(0), String(TestBackend.auditEntryCount()))
        }

        function test_filters() {
            const kind = findChild(page, "kindFilter")
            kind.currentIndex = kind.indexOfValue("client")
            kind.activated(kind.currentIndex)
            compare(AuditLog.kindFilter, "client")
            tryVerify(() => !AuditLog.loading && AuditLog.count === 1, Wait.ms)
            verify(TestBackend.requestCount("GET /admin/v1/audit?kind=client") > 0, "kind asked of the API")
            compare(AuditLog.idAt(0), "122")
            kind.currentIndex = 0
            kind.activated(0)
            tryVerify(() => !AuditLog.loading && AuditLog.count === 100, Wait.ms)

            // Target and actor are "contains" filters, typed.
            const target = findChild(page, "targetFilter")
            target.forceActiveFocus()
            keyClick(Qt.Key_N)
            keyClick(Qt.Key_O)
            keyClick(Qt.Key_D)
            keyClick(Qt.Key_E)
            tryCompare(AuditLog, "targetFilter", "node", Wait.ms)
            tryVerify(() => !AuditLog.loading && AuditLog.count === 1, Wait.ms)
            compare(AuditLog.idAt(0), "123")
            target.text = ""
            AuditLog.targetFilter = ""
            const actor = findChild(page, "actorFilter")
            actor.text = "ALICE"
            actor.accepted()
            tryVerify(() => !AuditLog.loading && AuditLog.count === 2, Wait.ms)
            compare(AuditLog.idAt(0), "122")
            compare(AuditLog.idAt(1), "121")

            actor.text = "nobody"
            actor.accepted()
            tryVerify(() => !AuditLog.loading && AuditLog.count === 0, Wait.ms)
            tryVerify(() => findChild(page, "auditEmpty").visible, Wait.ms)
            compare(findChild(page, "auditEmpty").text, "No audit entries match these filters.")
        }

        function test_selectedEntryShowsChangesAndConsequences() {
            mouseClick(shownRow("122"))
            compare(AuditDetail.entryId, "122")
            tryCompare(AuditDetail, "loaded", true, Wait.ms)
            const client = TestBackend.clientId(1)
            compare(findChild(page, "detailTitle").text, "update client " + client)
            compare(findChild(page, "detailActor").text, "alice (gatehouse-console/0.1.0 from 127.0.0.1)")
            compare(findChild(page, "detailRequest").text, "PUT /admin/v1/clients/" + client + " → 200")
            tryVerify(() => findChild(page, "changeAfter-1"), Wait.ms)
            compare(findChild(page, "changeField-0").text, "client_name")
            verify(!findChild(page, "changeTag-0").visible)
            compare(findChild(page, "changeBefore-0").text, "Billing")
            compare(findChild(page, "changeAfter-0").text, "Billing service")
            compare(findChild(page, "changeField-1").text, "scope")
            compare(findChild(page, "changeBefore-1").text, "orders:read orders:write")
            compare(findChild(page, "changeAfter-1").text, "orders:read")
            verify(findChild(page, "consequenceSummary").text.indexOf("1 token(s) issued under this client record") === 0)
            const token = findChild(findChild(page, "consequence-0"), "consequenceText")
            compare(token.text, "access to " + client + " (client " + client + ")")

            // Added and removed labels; a denied request in the error colour.
            mouseClick(shownRow("123"))
            tryCompare(AuditDetail, "entryId", "123", Wait.ms)
            tryCompare(AuditDetail, "loaded", true, Wait.ms)
            tryVerify(() => findChild(page, "changeField-1"), Wait.ms)
            compare(findChild(page, "changeField-0").text, "metadata.labels.rack")
            verify(findChild(page, "changeTag-0").visible)
            compare(findChild(page, "changeTag-0").text, "added")
            compare(findChild(page, "changeBefore-0").text, "–")
            compare(findChild(page, "changeAfter-0").text, "r1")
            compare(findChild(page, "changeField-1").text, "metadata.labels.tier")
            compare(findChild(page, "changeTag-1").text, "removed")
            compare(findChild(page, "changeBefore-1").text, "gold")
            verify(findChild(page, "consequenceSummary").text.indexOf("4 earlier request(s) decided otherwise after it; 1 request(s) allowed and 1 denied since") === 0)
            // The earlier requests the change turned: the same request three times is one line.
            verify(findChild(page, "verdictChanges").visible)
            const lost = findChild(page, "verdictChange-0")
            compare(findChild(lost, "verdictChangeText").text, "Now denied: GET /api/v1/nodes/node-1 by system:node:node-2 (3 request(s))")
            compare(findChild(lost, "verdictChangeText").color, Theme.error)
            compare(findChild(lost, "verdictChangeReason").text, 'nodes "node-1" is forbidden: User "system:node:node-2" cannot get resource "nodes"')
            const regained = findChild(page, "verdictChange-1")
            compare(findChild(regained, "verdictChangeText").text, "Now allowed: GET /version by anonymous")
            compare(findChild(regained, "verdictChangeText").color, Theme.success)
            verify(findChild(regained, "verdictChangeReason").text.indexOf("RBAC: allowed by ClusterRoleBinding") === 0)
            const denied = findChild(findChild(page, "consequence-0"), "consequenceText")
            compare(denied.text, "Denied (403): PATCH /api/v1/nodes/node-1 by system:node:node-2")
            compare(denied.color, Theme.error)
            const allowed = findChild(findChild(page, "consequence-1"), "consequenceText")
            compare(allowed.text, "Allowed (200): PATCH /api/v1/nodes/node-1 by gatehouse-admin")

            // An entry without consequences says so.
            mouseClick(shownRow("100"))
            tryCompare(AuditDetail, "entryId", "100", Wait.ms)
            tryCompare(AuditDetail, "loaded", true, Wait.ms)
            compare(findChild(page, "consequenceSummary").text, "Nothing is traced for this kind of change.")
            verify(!findChild(page, "verdictChanges").visible)
        }

        function test_pagingBack() {
            const button = findChild(page, "loadOlderButton")
            verify(button, "footer button")
            tryCompare(button, "enabled", true, Wait.ms)
            compare(button.text, "Load older entries")
            mouseClick(button)
            tryCompare(AuditLog, "count", 123, Wait.ms)
            verify(TestBackend.requestCount("GET /admin/v1/audit?limit=100&before=24") === 1, "paged with before=24")
            compare(AuditLog.idAt(122), "1")
            tryCompare(button, "enabled", false, Wait.ms)
            compare(button.text, "No older entries")
        }

        function test_unknownEntryShowsTheServerMessage() {
            AuditDetail.entryId = "9999"
            tryCompare(findChild(page, "auditError"), "message", "no audit entry 9999", Wait.ms)
        }
    }
}
