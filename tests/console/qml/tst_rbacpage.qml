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

        // Found once in initTestCase: a findChild() binding walks the whole tree again whenever
        // any item under it gains a child.
        property var dialog: null
        // A recorded request as the real backend lists it (GET /admin/v1/cluster/requests): a
        // kubelet reading another node, refused by the Node authorizer in its own words, with the
        // bindings that name it but did not apply.
        readonly property var nodeReadsAnotherNode: ({
            "code": 403,
            "deniedBy": "Node, RBAC",
            "groups": [
                "system:nodes",
                "system:authenticated"
            ],
            "method": "GET",
            "name": "node-2",
            "namespace": "",
            "nearMisses": [
                {
                    "bindingKind": "ClusterRoleBinding",
                    "bindingName": "system:basic-user",
                    "code": "noRuleMatches",
                    "message": "no rule of ClusterRole \"system:basic-user\" allows the request",
                    "roleKind": "ClusterRole",
                    "roleName": "system:basic-user",
                    "rules": [
                        {
                            "codes": [
                                "verb",
                                "apiGroup",
                                "resource"
                            ],
                            "messages": [
                                "verb \"get\" is not in [create]",
                                "API group \"\" (core) is not in [authorization.k8s.io]",
                                "resource \"nodes\" is not in [selfsubjectaccessreviews selfsubjectrulesreviews]"
                            ],
                            "rule": "verbs=[create] apiGroups=[authorization.k8s.io] resources=[selfsubjectaccessreviews selfsubjectrulesreviews]",
                            "ruleIndex": 0
                        },
                        {
                            "codes": [
                                "verb",
                                "apiGroup",
                                "resource"
                            ],
                            "messages": [
                                "verb \"get\" is not in [create]",
                                "API group \"\" (core) is not in [authentication.k8s.io]",
                                "resource \"nodes\" is not in [selfsubjectreviews]"
                            ],
                            "rule": "verbs=[create] apiGroups=[authentication.k8s.io] resources=[selfsubjectreviews]",
                            "ruleIndex": 1
                        }
                    ],
                    "subject": {
                        "kind": "Group",
                        "name": "system:authenticated"
                    }
                },
                {
                    "bindingKind": "ClusterRoleBinding",
                    "bindingName": "system:discovery",
                    "code": "noRuleMatches",
                    "message": "no rule of ClusterRole \"system:discovery\" allows the request",
                    "roleKind": "ClusterRole",
                    "roleName": "system:discovery",
                    "rules": [
                        {
                            "codes": [
                                "nonResourceRule"
                            ],
                            "messages": [
                                "the rule covers URL paths [/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/], not resources"
                            ],
                            "rule": "verbs=[get] nonResourceURLs=[/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/]",
                            "ruleIndex": 0
                        }
                    ],
                    "subject": {
                        "kind": "Group",
                        "name": "system:authenticated"
                    }
                },
                {
                    "bindingKind": "ClusterRoleBinding",
                    "bindingName": "system:public-info-viewer",
                    "code": "noRuleMatches",
                    "message": "no rule of ClusterRole \"system:public-info-viewer\" allows the request",
                    "roleKind": "ClusterRole",
                    "roleName": "system:public-info-viewer",
                    "rules": [
                        {
                            "codes": [
                                "nonResourceRule"
                            ],
                            "messages": [
                                "the rule covers URL paths [/healthz /livez /readyz /version /version/], not resources"
                            ],
                            "rule": "verbs=[get] nonResourceURLs=[/healthz /livez /readyz /version /version/]",
                            "ruleIndex": 0
                        }
                    ],
                    "subject": {
                        "kind": "Group",
                        "name": "system:authenticated"
                    }
                }
            ],
            "path": "/api/v1/nodes/node-2",
            "quotes": [
                {
                    "authorizer": "Node",
                    "decision": "no-opinion",
                    "reason": "node 'node-1' cannot read 'node-2', only its own Node object"
                }
            ],
            "reason": "nodes \"node-2\" is forbidden: User \"system:node:node-1\" cannot get resource \"nodes\" in API group \"\" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object",
            "resource": "nodes",
            "stage": "authorization",
            "time": "2026-11-21T18:53:22.514Z",
            "user": "system:node:node-1",
            "verb": "get",
            "verdict": "denied"
        })

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
            dialog = findChild(page, "kubeconfigDialog")
            root.Window.window.requestActivate()
            tryCompare(root.Window.window, "active", true, Wait.ms)
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetCluster()
            RbacRoles.reload()
            RbacBindings.reload()
            ClusterRequests.reload()
            tryVerify(() => !RbacRoles.loading && RbacRoles.count === 6, Wait.ms, "roles loaded")
            tryVerify(() => !RbacBindings.loading && RbacBindings.count === 5, Wait.ms, "bindings loaded")
            ClusterRequests.deniedOnly = false
            ClusterRequests.hideAdminReads = false
            tryVerify(() => !ClusterRequests.loading && ClusterRequests.count === 3, Wait.ms, "requests loaded")
        }

        function cleanup() {
            if (testCase.dialog.visible)
                testCase.dialog.close()
            tryCompare(testCase.dialog, "visible", false, Wait.ms)
        }

        function test_roles() {
            showTab("rolesTab")
            compare(item("rolesTab").text, "Roles (6)")
            const list = item("roleList")
            tryCompare(list, "count", 6, Wait.ms)
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
            tryVerify(() => findChild(list, "role-shop/pod-reader") !== null, Wait.ms)
            compare(findChild(list, "role-shop/pod-reader").scopeText, "namespace shop")
        }

        function test_bindings() {
            showTab("bindingsTab")
            compare(item("bindingsTab").text, "Bindings (5)")
            const list = item("bindingList")
            list.positionViewAtEnd()
            tryVerify(() => findChild(list, "binding-shop/read-pods") !== null, Wait.ms)
            const readPods = findChild(list, "binding-shop/read-pods")
            compare(findChild(readPods, "bindingRole").text, "grants Role pod-reader to")
            compare(readPods.subjects, ["User alice", "ServiceAccount shop/default"])
            list.positionViewAtBeginning()
            tryVerify(() => findChild(list, "binding-cluster-admin") !== null, Wait.ms)
            compare(findChild(list, "binding-cluster-admin").subjects, ["Group system:masters"])
            compare(findChild(list, "binding-system:node").subjects, [])
        }

        function test_whoCanMatrix() {
            showTab("whoCanTab")
            compare(item("whoCanResourceField").text, "nodes")
            WhoCan.query()
            tryVerify(() => !WhoCan.loading && WhoCan.count === 5, Wait.ms)
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
            tryCompare(item("whoCanAnswered"), "text", "Every subject named by a binding, and what it may do with pods in namespace shop.", Wait.ms)
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
            tryCompare(list, "count", 3, Wait.ms)
            tryVerify(() => list.itemAtIndex(2) !== null, Wait.ms, "rows laid out")
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
            tryCompare(list, "count", 5, Wait.ms)
            compare(item("requestsTab").text, "Requests (5, 2 denied)")
            // (The view lays the new rows out on its next polish.)
            tryVerify(() => findChild(list.itemAtIndex(0), "requestLine").text === "PATCH /api/v1/nodes/node-1", Wait.ms)
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
            // The stream is ordered: with node-2's row on top, the repeated batch before it has
            // been handled too, so nothing is left to wait for.
            tryVerify(() => findChild(list.itemAtIndex(0), "requestLine").text === "PATCH /api/v1/nodes/node-2", Wait.ms)
            compare(list.count, 6)

            // Filters: denied only; without the admin API's own reads (on by default).
            mouseClick(item("deniedOnlyCheck"))
            verify(ClusterRequests.deniedOnly)
            tryCompare(list, "count", 2, Wait.ms)
            compare(item("requestsTab").text, "Requests (6, 2 denied)")
            mouseClick(item("deniedOnlyCheck"))
            tryCompare(list, "count", 6, Wait.ms)
            mouseClick(item("hideAdminReadsCheck"))
            verify(ClusterRequests.hideAdminReads)
            tryCompare(list, "count", 5, Wait.ms) // the seed's GET /api/v1/nodes by gatehouse-admin
            TestBackend.sendEvent("cluster.requests", { requests: [{
                time: "2026-11-21T09:00:02.000Z", method: "GET", path: "/api/v1/nodes", user: "gatehouse-admin",
                groups: ["system:masters", "system:authenticated"], verb: "list", resource: "nodes",
                namespace: "", name: "", code: 200, verdict: "allowed", stage: "ok", reason: ""
            }] })
            tryCompare(ClusterRequests, "totalCount", 7, Wait.ms)
            compare(list.count, 5)
        }

        // What a request row's explanation shows of one near miss.
        function nearMiss(row, index) {
            const miss = findChild(findChild(row, "requestDenial"), "nearMiss-" + index)
            verify(miss, "near miss " + index)
            const rule = findChild(miss, "ruleMiss-0")
            const messages = []
            for (let c = 0; rule && c < rule.children.length; ++c)
                if (rule.children[c].objectName === "ruleMissMessage")
                    messages.push(rule.children[c].text)
            const rules = []
            for (let i = 0; findChild(miss, "ruleMiss-" + i); ++i)
                rules.push(findChild(findChild(miss, "ruleMiss-" + i), "ruleText").text)
            return {
                binding: findChild(miss, "nearMissBinding").text,
                reason: findChild(miss, "nearMissReason").text,
                subject: findChild(miss, "nearMissSubject").text,
                message: findChild(miss, "nearMissMessage").text,
                rules: rules,
                firstRule: rule ? findChild(rule, "ruleText").text : "",
                firstRuleMisses: rule ? findChild(rule, "ruleMissText").text : "",
                firstRuleMessages: messages
            }
        }

        function test_deniedRequestExpandsToItsNearMisses() {
            showTab("requestsTab")
            const list = item("requestList")
            tryCompare(list, "count", 3, Wait.ms)
            TestBackend.sendEvent("cluster.requests", { requests: [testCase.nodeReadsAnotherNode] })
            tryCompare(list, "count", 4, Wait.ms)
            tryVerify(() => findChild(list.itemAtIndex(0), "requestLine").text === "GET /api/v1/nodes/node-2", Wait.ms)
            let row = list.itemAtIndex(0)
            compare(row.color, Theme.errorSoft) // denied rows still stand out
            const why = findChild(row, "whyButton")
            verify(why.visible)
            compare(why.text, "▸ Why denied · 3 near misses")
            verify(!findChild(row, "requestDenial").visible, "closed until asked")

            mouseClick(why)
            tryVerify(() => findChild(list.itemAtIndex(0), "requestDenial").visible, Wait.ms)
            row = list.itemAtIndex(0)
            compare(findChild(row, "whyButton").text, "▾ Why denied · 3 near misses")
            const denial = findChild(row, "requestDenial")
            compare(findChild(denial, "denialHeadline").text, "Refused at authorization by Node, RBAC")
            const quote = findChild(denial, "denialQuote-0")
            compare(findChild(quote, "quoteWho").text, "Node said:")
            compare(findChild(quote, "quoteText").text, "“node 'node-1' cannot read 'node-2', only its own Node object”")
            compare(findChild(denial, "nearMissesHeading").text, "Bindings that name this identity but did not apply (3):")
            compare(nearMiss(row, 0), {
                binding: "ClusterRoleBinding system:basic-user → ClusterRole system:basic-user",
                reason: "no rule matches",
                subject: "via Group system:authenticated",
                message: "no rule of ClusterRole \"system:basic-user\" allows the request",
                rules: ["rule 0: verbs=[create] apiGroups=[authorization.k8s.io] resources=[selfsubjectaccessreviews selfsubjectrulesreviews]",
                        "rule 1: verbs=[create] apiGroups=[authentication.k8s.io] resources=[selfsubjectreviews]"],
                firstRule: "rule 0: verbs=[create] apiGroups=[authorization.k8s.io] resources=[selfsubjectaccessreviews selfsubjectrulesreviews]",
                firstRuleMisses: "no match on verb, API group, resource:",
                firstRuleMessages: ["• verb \"get\" is not in [create]",
                                    "• API group \"\" (core) is not in [authorization.k8s.io]",
                                    "• resource \"nodes\" is not in [selfsubjectaccessreviews selfsubjectrulesreviews]"]
            })
            compare(nearMiss(row, 1).binding, "ClusterRoleBinding system:discovery → ClusterRole system:discovery")
            compare(nearMiss(row, 1).firstRuleMisses, "no match on rule kind (it covers URL paths):")
            compare(nearMiss(row, 2).subject, "via Group system:authenticated")

            // A newer request goes on top; the open one stays open.
            TestBackend.sendEvent("cluster.requests", { requests: [
                requestEntry("2026-11-21T19:00:00.000Z", "system:node:node-2", "/api/v1/nodes/node-2", 200, "ok", "")
            ] })
            tryCompare(list, "count", 5, Wait.ms)
            tryVerify(() => findChild(list.itemAtIndex(1), "requestLine").text === "GET /api/v1/nodes/node-2", Wait.ms)
            verify(findChild(list.itemAtIndex(1), "requestDenial").visible)
            verify(!findChild(list.itemAtIndex(0), "whyButton").visible, "an allowed request has nothing to explain")

            // The keyboard: Space closes the current row's explanation (and opens it again).
            list.forceActiveFocus()
            list.currentIndex = 1
            keyClick(Qt.Key_Space)
            tryVerify(() => !findChild(list.itemAtIndex(1), "requestDenial").visible, Wait.ms)
            keyClick(Qt.Key_Space)
            tryVerify(() => findChild(list.itemAtIndex(1), "requestDenial").visible, Wait.ms)
            list.currentIndex = 0
            keyClick(Qt.Key_Space) // allowed: stays closed
            verify(!findChild(list.itemAtIndex(0), "requestDenial").visible)

            // Refused by an admission plugin: which one, quoted; no binding list.
            tryVerify(() => list.itemAtIndex(2) !== null, Wait.ms)
            const admission = list.itemAtIndex(2)
            compare(findChild(admission, "deniedBadge").text, "denied at admission")
            compare(findChild(admission, "whyButton").text, "▸ Why denied")
            mouseClick(findChild(admission, "whyButton"))
            tryVerify(() => findChild(list.itemAtIndex(2), "requestDenial").visible, Wait.ms)
            const admissionDenial = findChild(list.itemAtIndex(2), "requestDenial")
            compare(findChild(admissionDenial, "denialHeadline").text, "Refused at admission by NodeRestriction")
            compare(findChild(findChild(admissionDenial, "denialQuote-0"), "quoteWho").text, "NodeRestriction said:")
            compare(findChild(findChild(admissionDenial, "denialQuote-0"), "quoteText").text,
                    "“nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to modify node \"node-2\"”")
            verify(!findChild(admissionDenial, "nearMissesHeading").visible)

            // A reload keeps what is open.
            ClusterRequests.reload()
            tryVerify(() => !ClusterRequests.loading, Wait.ms)
            tryVerify(() => list.itemAtIndex(0) !== null && findChild(list.itemAtIndex(0), "requestLine").text === "PATCH /api/v1/nodes/node-2", Wait.ms)
            verify(findChild(list.itemAtIndex(0), "requestDenial").visible, "the seed's admission denial, still open")
            ClusterRequests.setExpanded(0, false)
            tryVerify(() => !findChild(list.itemAtIndex(0), "requestDenial").visible, Wait.ms)
        }

        function test_kubeconfigDialogWritesPrivateFile() {
            mouseClick(item("kubeconfigOpenButton"))
            tryCompare(testCase.dialog, "opened", true, Wait.ms)
            verify(!field("saveKubeconfigButton").enabled)
            // Issue without a name: said under the field, nothing is asked.
            mouseClick(field("issueKubeconfigButton"))
            compare(field("kubeconfigNameError").text, "Give a name.")
            compare(TestBackend.requestCount("POST /admin/v1/cluster/kubeconfigs"), 0)

            typeInto(field("kubeconfigNameField"), "alice")
            typeInto(field("kubeconfigGroupsField"), "devs, ops")
            keyClick(Qt.Key_Return)
            tryCompare(KubeconfigForm, "issued", true, Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/kubeconfigs"),
                    { kind: "user", name: "alice", groups: ["devs", "ops"] })
            const redacted = field("redactedKubeconfig").text
            verify(redacted.indexOf("client-key-data: DATA+OMITTED") > 0, redacted)
            verify(redacted.indexOf("LS0t") < 0, "no key material is shown")
            // The summary binds to the issued answer; under load it can lag the "issued" flag.
            tryVerify(() => field("kubeconfigSummary").text.startsWith("alice · groups devs, ops · expires "),
                      Wait.ms, field("kubeconfigSummary").text)
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
                      Wait.ms, field("kubeconfigSummary").text)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/kubeconfigs"),
                    { kind: "node", name: "node-3", groups: [] })
            verify(!field("kubeconfigSaved").visible, "a new kubeconfig is not saved yet")

            // Closing forgets it.
            mouseClick(field("closeKubeconfigButton"))
            tryCompare(testCase.dialog, "visible", false, Wait.ms)
            verify(!KubeconfigForm.issued)
            compare(KubeconfigForm.name, "")
        }
    }
}
