import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The RBAC page with the real services against the in-test admin server: roles and bindings,
// the who-can matrix, the live requests view, and the kubeconfig dialog writing a private file.
Item {
    id: root

    width: 1300
    height: 900

    RbacPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "RbacPage"
        when: windowShown

        readonly property var dialog: findChild(page, "kubeconfigDialog")

        function item(name) {
            const found = findChild(page, name)
            verify(found, name)
            return found
        }
        function showTab(name) {
            mouseClick(item(name))
            verify(item(name).checked, name)
        }
        function cell(subject, verb) {
            const row = findChild(item("whoCanMatrix"), "subject-" + subject)
            verify(row, "subject " + subject)
            const found = findChild(row, "cell-" + verb)
            verify(found, subject + " " + verb)
            return findChild(found, "mark").text
        }
        function field(name) {
            const found = findChild(testCase.dialog.contentItem, name) || findChild(testCase.dialog, name)
            verify(found, name)
            return found
        }
        function typeInto(input, text) {
            input.forceActiveFocus()
            input.selectAll()
            if (input.selectedText.length > 0)
                keyClick(Qt.Key_Delete)
            for (const c of text)
                keyClick(c)
        }
        function requestEntry(time, user, path, code, stage, reason) {
            return {
                time: time, method: "PATCH", path: path, user: user,
                groups: ["system:nodes", "system:authenticated"], verb: "patch", resource: "nodes",
                namespace: "", name: path.split("/")[4], code: code,
                verdict: code < 400 ? "allowed" : "denied", stage: stage, reason: reason
            }
        }

        function initTestCase() {
            root.Window.window.requestActivate()
            tryCompare(root.Window.window, "active", true)
            tryCompare(AdminClient, "connectionState", AdminClient.Online, 10000)
        }

        function init() {
            TestBackend.resetCluster()
            RbacRoles.reload()
            RbacBindings.reload()
            ClusterRequests.reload()
            tryVerify(() => !RbacRoles.loading && RbacRoles.count === 6, 5000, "roles loaded")
            tryVerify(() => !RbacBindings.loading && RbacBindings.count === 5, 5000, "bindings loaded")
            ClusterRequests.deniedOnly = false
            ClusterRequests.hideAdminReads = false
            tryVerify(() => !ClusterRequests.loading && ClusterRequests.count === 3, 5000, "requests loaded")
        }

        function cleanup() {
            if (testCase.dialog.visible)
                testCase.dialog.close()
            tryCompare(testCase.dialog, "visible", false)
        }

        function test_roles() {
            showTab("rolesTab")
            compare(item("rolesTab").text, "Roles (6)")
            const list = item("roleList")
            tryCompare(list, "count", 6)
            // Cluster roles first, by name; then roles by namespace.
            compare(RbacRoles.idAt(0), "ClusterRole//cluster-admin")
            compare(RbacRoles.idAt(5), "Role/shop/pod-reader")
            const labeler = findChild(list, "role-node-labeler")
            verify(labeler, "node-labeler row")
            compare(labeler.rules, ["get, list, patch on nodes (core)"])
            verify(!labeler.builtIn)
            const admin = findChild(list, "role-cluster-admin")
            compare(admin.rules, ["* on * (*)", "* on *"])
            verify(admin.builtIn)
            list.positionViewAtEnd()
            tryVerify(() => findChild(list, "role-shop/pod-reader") !== null)
            compare(findChild(list, "role-shop/pod-reader").scopeText, "namespace shop")
        }

        function test_bindings() {
            showTab("bindingsTab")
            compare(item("bindingsTab").text, "Bindings (5)")
            const list = item("bindingList")
            list.positionViewAtEnd()
            tryVerify(() => findChild(list, "binding-shop/read-pods") !== null)
            const readPods = findChild(list, "binding-shop/read-pods")
            compare(findChild(readPods, "bindingRole").text, "grants Role pod-reader to")
            compare(readPods.subjects, ["User alice", "ServiceAccount shop/default"])
            list.positionViewAtBeginning()
            tryVerify(() => findChild(list, "binding-cluster-admin") !== null)
            compare(findChild(list, "binding-cluster-admin").subjects, ["Group system:masters"])
            compare(findChild(list, "binding-system:node").subjects, [])
        }

        function test_whoCanMatrix() {
            showTab("whoCanTab")
            compare(item("whoCanResourceField").text, "nodes")
            WhoCan.query()
            tryVerify(() => !WhoCan.loading && WhoCan.count === 5, 5000)
            compare(WhoCan.verbs, ["get", "list", "watch", "create", "update", "patch", "delete"])
            compare(item("whoCanAnswered").text, "Every subject named by a binding, and what it may do with nodes, cluster-wide.")
            compare(cell("Group-system:masters", "delete"), "✓")
            compare(cell("Group-devs", "patch"), "✓")
            compare(cell("Group-devs", "get"), "✓")
            compare(cell("Group-devs", "delete"), "–")
            compare(cell("Group-system:authenticated", "get"), "–")
            compare(cell("User-alice", "get"), "–")

            // Pods in namespace shop: the role binding counts there.
            typeInto(item("whoCanResourceField"), "pods")
            typeInto(item("whoCanNamespaceField"), "shop")
            keyClick(Qt.Key_Return)
            tryCompare(item("whoCanAnswered"), "text", "Every subject named by a binding, and what it may do with pods in namespace shop.", 5000)
            compare(TestBackend.requestCount("GET /admin/v1/cluster/who-can?resource=pods&namespace=shop"), 1)
            compare(cell("User-alice", "list"), "✓")
            compare(cell("User-alice", "delete"), "–")
            compare(cell("ServiceAccount-shop/default", "watch"), "✓")
            compare(cell("Group-devs", "get"), "–")
            compare(cell("Group-system:masters", "create"), "✓")
        }

        function test_requestsStreamLive() {
            showTab("requestsTab")
            const list = item("requestList")
            tryCompare(list, "count", 3)
            tryVerify(() => list.itemAtIndex(2) !== null, 2000, "rows laid out")
            compare(item("requestsTab").text, "Requests (3, 1 denied)")
            // Newest first; the denied one is marked.
            const denied = list.itemAtIndex(0)
            verify(denied.denied)
            compare(denied.color, Theme.errorSoft)
            compare(findChild(denied, "requestLine").text, "PATCH /api/v1/nodes/node-2")
            verify(findChild(denied, "deniedBadge").visible)
            compare(findChild(denied, "deniedBadge").text, "denied at admission")
            compare(findChild(denied, "requestCode").text, "403")
            const allowed = list.itemAtIndex(1)
            verify(!findChild(allowed, "deniedBadge").visible)
            compare(findChild(allowed, "requestCode").tone, Theme.success)

            // A batch from the event stream goes on top, newest first.
            const batch = [
                requestEntry("2026-11-21T09:00:00.100Z", "system:node:node-3", "/api/v1/nodes/node-3", 200, "ok", ""),
                requestEntry("2026-11-21T09:00:00.200Z", "bob", "/api/v1/nodes/node-1", 403, "authorization",
                             "nodes \"node-1\" is forbidden: User \"bob\" cannot patch resource \"nodes\" in API group \"\" at the cluster scope")
            ]
            TestBackend.sendEvent("cluster.requests", { requests: batch })
            tryCompare(list, "count", 5)
            compare(item("requestsTab").text, "Requests (5, 2 denied)")
            // (The view lays the new rows out on its next polish.)
            tryVerify(() => findChild(list.itemAtIndex(0), "requestLine").text === "PATCH /api/v1/nodes/node-1")
            const top = list.itemAtIndex(0)
            compare(findChild(top, "requestLine").text, "PATCH /api/v1/nodes/node-1")
            compare(findChild(top, "requestUser").text, "bob (system:nodes, system:authenticated)")
            compare(findChild(top, "deniedBadge").text, "denied at authorization")
            verify(findChild(top, "requestReason").text.indexOf("cannot patch resource") > 0)
            compare(findChild(list.itemAtIndex(1), "requestLine").text, "PATCH /api/v1/nodes/node-3")
            verify(!list.itemAtIndex(1).denied)
            // The same requests again (a reload's answer racing the event) are listed once.
            TestBackend.sendEvent("cluster.requests", { requests: batch })
            TestBackend.sendEvent("cluster.requests", { requests: [
                requestEntry("2026-11-21T09:00:01.000Z", "system:node:node-2", "/api/v1/nodes/node-2", 200, "ok", "")
            ] })
            tryCompare(list, "count", 6)
            tryVerify(() => findChild(list.itemAtIndex(0), "requestLine").text === "PATCH /api/v1/nodes/node-2")
            wait(100)
            compare(list.count, 6)

            // Filters: denied only; without the admin API's own reads (on by default).
            mouseClick(item("deniedOnlyCheck"))
            verify(ClusterRequests.deniedOnly)
            tryCompare(list, "count", 2)
            compare(item("requestsTab").text, "Requests (6, 2 denied)")
            mouseClick(item("deniedOnlyCheck"))
            tryCompare(list, "count", 6)
            mouseClick(item("hideAdminReadsCheck"))
            verify(ClusterRequests.hideAdminReads)
            tryCompare(list, "count", 5) // the seed's GET /api/v1/nodes by gatehouse-admin
            TestBackend.sendEvent("cluster.requests", { requests: [{
                time: "2026-11-21T09:00:02.000Z", method: "GET", path: "/api/v1/nodes", user: "gatehouse-admin",
                groups: ["system:masters", "system:authenticated"], verb: "list", resource: "nodes",
                namespace: "", name: "", code: 200, verdict: "allowed", stage: "ok", reason: ""
            }] })
            tryCompare(ClusterRequests, "totalCount", 7)
            compare(list.count, 5)
        }

        function test_kubeconfigDialogWritesPrivateFile() {
            mouseClick(item("kubeconfigOpenButton"))
            tryCompare(testCase.dialog, "opened", true)
            verify(!field("saveKubeconfigButton").enabled)
            // Issue without a name: said under the field, nothing is asked.
            mouseClick(field("issueKubeconfigButton"))
            compare(field("kubeconfigNameError").text, "Give a name.")
            compare(TestBackend.requestCount("POST /admin/v1/cluster/kubeconfigs"), 0)

            typeInto(field("kubeconfigNameField"), "alice")
            typeInto(field("kubeconfigGroupsField"), "devs, ops")
            keyClick(Qt.Key_Return)
            tryCompare(KubeconfigForm, "issued", true, 5000)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/kubeconfigs"),
                    { kind: "user", name: "alice", groups: ["devs", "ops"] })
            const redacted = field("redactedKubeconfig").text
            verify(redacted.indexOf("client-key-data: DATA+OMITTED") > 0, redacted)
            verify(redacted.indexOf("LS0t") < 0, "no key material is shown")
            verify(field("kubeconfigSummary").text.startsWith("alice · groups devs, ops · expires "),
                   field("kubeconfigSummary").text)
            verify(field("saveKubeconfigButton").enabled)

            // Saving over an existing, world-readable file: the result is 0600.
            const path = TestBackend.tempPath("alice.kubeconfig")
            verify(TestBackend.writePublicFile(path, "old"))
            compare(TestBackend.fileMode(path), 0o644)
            verify(testCase.dialog.saveTo("file://" + path))
            compare(TestBackend.fileMode(path), 0o600)
            const written = TestBackend.fileText(path)
            verify(written.indexOf("client-key-data: LS0t") > 0, written)
            verify(written.indexOf("DATA+OMITTED") < 0)
            compare(field("kubeconfigSaved").text, "Saved to " + path + " (mode 0600: readable by you only).")

            // A node agent: the server makes the user name.
            // (The keyboard: the dialog is still growing by the kubeconfig view, a click could
            // land where the button was a frame ago.)
            field("nodeKindRadio").forceActiveFocus()
            keyClick(Qt.Key_Space)
            compare(KubeconfigForm.kind, "node")
            verify(!field("userKindRadio").checked)
            typeInto(field("kubeconfigNameField"), "node-3")
            typeInto(field("kubeconfigGroupsField"), "")
            mouseClick(field("issueKubeconfigButton"))
            tryVerify(() => field("kubeconfigSummary").text.startsWith("system:node:node-3 · groups system:nodes · expires"),
                      5000, field("kubeconfigSummary").text)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/kubeconfigs"),
                    { kind: "node", name: "node-3", groups: [] })
            verify(!field("kubeconfigSaved").visible, "a new kubeconfig is not saved yet")

            // Closing forgets it.
            mouseClick(field("closeKubeconfigButton"))
            tryCompare(testCase.dialog, "visible", false)
            verify(!KubeconfigForm.issued)
            compare(KubeconfigForm.name, "")
        }
    }
}
