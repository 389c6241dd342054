import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The Nodes page with the real services against the in-test admin server: the node list, the
// labels table, the live verdict of the pending label change for each identity (the server's
// explain), Apply with the real answer, and the anonymous-access switch.
Item {
    id: root

    width: 1300
    height: 900

    NodesPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "NodesPage"
        when: windowShown

        function item(name) {
            const found = findChild(page, name)
            verify(found, name)
            return found
        }
        function stage(name) {
            const row = findChild(page, "stage-" + name)
            verify(row, "stage " + name)
            return {
                decision: findChild(row, "decisionBadge").text,
                source: findChild(row, "stageSource").text,
                detail: findChild(row, "stageDetail").text
            }
        }
        function labelRow(key) {
            const row = findChild(page, "label-" + key)
            verify(row, "label " + key)
            return row
        }
        // Types text into field with the keyboard, replacing what it had.
        function typeInto(field, text) {
            field.forceActiveFocus()
            field.selectAll()
            if (field.selectedText.length > 0)
                keyClick(Qt.Key_Delete)
            for (const c of text)
                keyClick(c)
        }
        function selectNode(name) {
            mouseClick(item("node-" + name))
            compare(NodeEditor.nodeName, name)
        }
        function actAs(identity) {
            const combo = item("identityCombo")
            combo.forceActiveFocus()
            // Up / Down walk the identities; each step explains again.
            while (combo.currentIndex > identity)
                keyClick(Qt.Key_Up)
            while (combo.currentIndex < identity)
                keyClick(Qt.Key_Down)
            compare(NodeEditor.identity, identity)
        }
        function explains() {
            return TestBackend.requestCount("POST /admin/v1/cluster/explain")
        }

        function initTestCase() {
            root.Window.window.requestActivate()
            tryCompare(root.Window.window, "active", true)
            tryCompare(AdminClient, "connectionState", AdminClient.Online, 10000)
        }

        function init() {
            TestBackend.resetCluster()
            Nodes.reload()
            ClusterSettings.reload()
            tryVerify(() => !Nodes.loading && Nodes.count === 3, 5000, "nodes loaded")
            tryVerify(() => ClusterSettings.loaded && ClusterSettings.anonymousAuth, 5000)
            wait(50) // the settings' answer
            NodeEditor.nodeName = "node-1"
            NodeEditor.revert()
            NodeEditor.identity = NodeEditor.NodeAgent
            NodeEditor.agentNode = "node-1"
            NodeEditor.customUser = ""
            NodeEditor.customGroups = ""
            NodeEditor.explain()
            tryVerify(() => NodeEditor.explained && !NodeEditor.explaining, 5000, "first verdict")
            compare(item("verdictCode").text, "200 OK")
        }

        function test_nodeListAndLabels() {
            compare(item("nodeList").count, 3)
            const first = item("node-node-1")
            compare(findChild(first, "readyBadge").text, "Ready")
            compare(findChild(first, "nodeFacts").text, "5 labels · v1.32.4 · zone-a")
            compare(findChild(item("node-node-3"), "readyBadge").text, "Not ready")
            compare(findChild(item("node-node-3"), "readyBadge").tone, Theme.error)
            compare(item("nodeList").currentIndex, 0)

            compare(NodeEditor.labels.count, 5)
            compare(findChild(labelRow("example.com/rack"), "labelValueField").text, "r1")
            compare(item("resourceVersion").text, "resourceVersion 21")
            compare(item("identityText").text, "system:node:node-1 · groups system:nodes")
            compare(item("changesText").text, "No pending change: the verdict is for an empty label patch.")

            // Keyboard: Down in the list picks the next node; the agent follows it.
            item("nodeList").forceActiveFocus()
            keyClick(Qt.Key_Down)
            compare(NodeEditor.nodeName, "node-2")
            compare(NodeEditor.agentNode, "node-2")
            compare(NodeEditor.labels.count, 4)
        }

        function test_protectedLabelAsNodeAgentShowsAdmissionDenial() {
            const before = explains()
            const performed = TestBackend.clusterRequestCount()
            typeInto(item("newLabelKeyField"), "node-restriction.kubernetes.io/pool")
            typeInto(item("newLabelValueField"), "gold")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", 5000)
            tryVerify(() => !NodeEditor.explaining)
            // Debounced: one explain after typing stopped, not one per keystroke.
            verify(explains() - before <= 2, "explains: " + (explains() - before))
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain"), {
                user: "system:node:node-1",
                groups: ["system:nodes"],
                node: "node-1",
                labels: { "node-restriction.kubernetes.io/pool": "gold" }
            })
            compare(item("changesText").text, "Pending change: {\"node-restriction.kubernetes.io/pool\":\"gold\"}")

            compare(stage("authentication"), {
                decision: "authenticated",
                source: "admin-api",
                detail: "system:node:node-1 · groups system:nodes, system:authenticated"
            })
            compare(stage("authorization"), {
                decision: "allow",
                source: "Node",
                detail: "Allowed by the Node authorizer."
            })
            compare(stage("admission"), {
                decision: "deny",
                source: "NodeRestriction",
                detail: "nodes \"node-1\" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool"
            })
            compare(findChild(findChild(page, "stage-admission"), "decisionBadge").tone, Theme.error)
            compare(item("statusMessage").text,
                    "nodes \"node-1\" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool")
            // Nothing was stored.
            compare(TestBackend.nodeLabels("node-1")["node-restriction.kubernetes.io/pool"], undefined)
            compare(TestBackend.clusterRequestCount(), performed)

            // The same change as cluster admin: allowed (privileged group), admitted.
            actAs(NodeEditor.ClusterAdmin)
            tryCompare(item("verdictCode"), "text", "200 OK", 5000)
            compare(stage("authorization"), {
                decision: "allow",
                source: "privileged-group",
                detail: "Allowed by privileged-group: member of system:masters"
            })
            compare(stage("admission").decision, "allow")
            compare(stage("admission").detail, "Admitted by NamespaceLifecycle, NodeRestriction, ServiceAccount.")
            verify(!item("statusMessage").visible)
            compare(item("identityText").text, "gatehouse-admin · groups system:masters")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").user, "gatehouse-admin")
        }

        function test_nodeAgentOfAnotherNode() {
            selectNode("node-2")
            compare(NodeEditor.agentNode, "node-2")
            typeInto(item("agentNodeField"), "node-1")
            typeInto(findChild(labelRow("topology.kubernetes.io/zone"), "labelValueField"), "zone-c")
            compare(findChild(labelRow("topology.kubernetes.io/zone"), "labelState").text, "changed")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", 5000)
            tryVerify(() => !NodeEditor.explaining)
            compare(stage("admission").detail,
                    "nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to modify node \"node-2\"")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").node, "node-2")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").user, "system:node:node-1")

            // No node name: nothing to ask, the page says what is missing.
            typeInto(item("agentNodeField"), "")
            tryCompare(NodeEditor, "explained", false)
            compare(item("identityError").text, "Give the name of the node the agent runs on.")
            verify(!item("applyButton").enabled)
        }

        function test_customUserThroughRbac() {
            actAs(NodeEditor.CustomUser)
            typeInto(item("customUserField"), "alice")
            typeInto(item("customGroupsField"), "devs, ops")
            typeInto(findChild(labelRow("example.com/rack"), "labelValueField"), "r2")
            tryCompare(item("verdictCode"), "text", "200 OK", 5000)
            tryVerify(() => !NodeEditor.explaining)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").groups, ["devs", "ops"])
            compare(stage("authorization"), {
                decision: "allow",
                source: "RBAC",
                detail: "ClusterRoleBinding devs-label-nodes grants ClusterRole node-labeler, rules[0], to Group devs"
            })

            // Without the group nothing allows it, and admission is not reached.
            typeInto(item("customGroupsField"), "ops")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", 5000)
            tryVerify(() => !NodeEditor.explaining)
            compare(stage("authorization").decision, "deny")
            compare(stage("authorization").detail,
                    "No authorizer allowed it (Node: no-opinion, RBAC: no-opinion). nodes \"node-1\" is forbidden: User \"alice\" cannot patch resource \"nodes\" in API group \"\" at the cluster scope")
            compare(stage("admission").decision, "not reached")
            compare(findChild(findChild(page, "stage-admission"), "decisionBadge").tone, Theme.neutral)
        }

        function test_applyShowsTheRealAnswer() {
            // Allowed: a kubelet sets its own rack label.
            typeInto(findChild(labelRow("example.com/rack"), "labelValueField"), "r2")
            tryCompare(item("verdictCode"), "text", "200 OK", 5000)
            verify(item("applyButton").enabled)
            mouseClick(item("applyButton"))
            tryCompare(item("applyCode"), "text", "Answered 200 OK", 5000)
            compare(item("applyMessage").text, "Labels saved: node-1 is at resourceVersion 101.")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/requests"), {
                user: "system:node:node-1",
                groups: ["system:nodes"],
                node: "node-1",
                labels: { "example.com/rack": "r2" }
            })
            compare(TestBackend.nodeLabels("node-1")["example.com/rack"], "r2")
            // The node was read again: no pending change is left.
            tryCompare(NodeEditor, "hasChanges", false)
            tryCompare(item("resourceVersion"), "text", "resourceVersion 101")
            verify(!findChild(labelRow("example.com/rack"), "labelState").visible)
            tryVerify(() => TestBackend.requestCount("GET /admin/v1/cluster/k8s/api/v1/nodes/node-1") >= 1)

            // Refused: the real 403 with NodeRestriction's message; nothing changes.
            typeInto(item("newLabelKeyField"), "node-role.kubernetes.io/control-plane")
            typeInto(item("newLabelValueField"), "yes")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", 5000)
            keyClick(Qt.Key_Return, Qt.ControlModifier) // Ctrl+Return applies
            tryCompare(item("applyCode"), "text", "Answered 403 Forbidden", 5000)
            compare(item("applyMessage").text,
                    "nodes \"node-1\" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane")
            compare(item("applyResult").color, Theme.errorSoft)
            compare(TestBackend.nodeLabels("node-1")["node-role.kubernetes.io/control-plane"], undefined)
            verify(NodeEditor.hasChanges, "a refused change stays pending")

            // Remove a label as cluster admin: the request sends null for it.
            NodeEditor.revert()
            actAs(NodeEditor.ClusterAdmin)
            mouseClick(findChild(labelRow("example.com/rack"), "removeLabelButton"))
            compare(findChild(labelRow("example.com/rack"), "labelState").text, "removed")
            compare(item("changesText").text, "Pending change: {\"example.com/rack\":null}")
            tryCompare(item("verdictCode"), "text", "200 OK", 5000)
            mouseClick(item("applyButton"))
            tryCompare(item("applyCode"), "text", "Answered 200 OK", 5000)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/requests").labels, { "example.com/rack": null })
            tryCompare(NodeEditor.labels, "count", 4)
            compare(TestBackend.nodeLabels("node-1")["example.com/rack"], undefined)
            compare(TestBackend.clusterRequestCount(), 6)
        }

        function test_addRowAndRestore() {
            typeInto(item("newLabelKeyField"), "example.com/gpu")
            typeInto(item("newLabelValueField"), "a100")
            keyClick(Qt.Key_Return) // Enter in the value field adds the row
            compare(item("newLabelKeyField").text, "")
            compare(findChild(labelRow("example.com/gpu"), "labelState").text, "added")
            compare(findChild(labelRow("example.com/gpu"), "labelValueField").text, "a100")
            compare(NodeEditor.changesText, "{\"example.com/gpu\":\"a100\"}")
            // Removing an added row drops it; restoring a changed one brings the node's value back.
            mouseClick(findChild(labelRow("example.com/gpu"), "removeLabelButton"))
            verify(!findChild(page, "label-example.com/gpu"))
            typeInto(findChild(labelRow("example.com/rack"), "labelValueField"), "r7")
            mouseClick(findChild(labelRow("example.com/rack"), "restoreLabelButton"))
            compare(findChild(labelRow("example.com/rack"), "labelValueField").text, "r1")
            verify(!NodeEditor.hasChanges)
            verify(!item("revertButton").enabled)
        }

        function test_invalidLabelShowsValidation() {
            actAs(NodeEditor.ClusterAdmin)
            typeInto(item("newLabelKeyField"), "example.com/team")
            typeInto(item("newLabelValueField"), "a b")
            tryCompare(item("verdictCode"), "text", "422 Unprocessable Entity", 5000)
            tryVerify(() => !NodeEditor.explaining)
            const validation = stage("validation")
            compare(validation.decision, "invalid")
            verify(validation.detail.startsWith("metadata.labels: Invalid value: \"a b\": a valid label must be an empty string"),
                   validation.detail)
        }

        function test_serverSideChangeKeepsEdits() {
            typeInto(item("newLabelKeyField"), "example.com/rack")
            typeInto(item("newLabelValueField"), "r5")
            // Someone else changes the node meanwhile: its new labels show, the edit stays.
            TestBackend.setNodeLabel("node-1", "example.com/owner", "team-a")
            tryVerify(() => findChild(page, "label-example.com/owner") !== null, 5000)
            verify(!findChild(labelRow("example.com/owner"), "labelState").visible)
            compare(NodeEditor.changesText, "{\"example.com/rack\":\"r5\"}")
            compare(item("resourceVersion").text, "resourceVersion 101")
            compare(findChild(item("node-node-1"), "nodeFacts").text, "6 labels · v1.32.4 · zone-a")
        }

        function test_anonymousAccessSwitch() {
            actAs(NodeEditor.Anonymous)
            typeInto(findChild(labelRow("example.com/rack"), "labelValueField"), "r3")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", 5000)
            tryVerify(() => !NodeEditor.explaining)
            compare(stage("authentication").decision, "anonymous")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").anonymous, true)

            // Off, live: the same request is now unauthorized.
            const toggle = item("anonymousSwitch")
            verify(toggle.checked)
            mouseClick(toggle)
            tryCompare(ClusterSettings, "anonymousAuth", false)
            compare(TestBackend.lastBody("PUT /admin/v1/cluster/settings"), { anonymousAuth: false })
            tryCompare(item("verdictCode"), "text", "401 Unauthorized", 5000)
            tryVerify(() => !NodeEditor.explaining)
            compare(stage("authentication"), {
                decision: "unauthorized",
                source: "",
                detail: "no credentials presented and anonymous access is off"
            })
            compare(stage("authorization").decision, "not reached")
            verify(item("anonymousOffNote").visible)
            verify(!toggle.checked)

            // On again.
            mouseClick(toggle)
            tryCompare(ClusterSettings, "anonymousAuth", true)
            verify(toggle.checked)
            tryCompare(item("verdictCode"), "text", "403 Forbidden", 5000)

            // Switched elsewhere (another console, the CLI): the switch follows the event.
            TestBackend.sendEvent("cluster.settings.changed", {
                anonymousAuth: false,
                authorizationModes: ["Node", "RBAC"],
                admissionPlugins: ["NamespaceLifecycle", "NodeRestriction", "ServiceAccount"]
            })
            tryCompare(toggle, "checked", false)
            TestBackend.sendEvent("cluster.settings.changed", {
                anonymousAuth: true,
                authorizationModes: ["Node", "RBAC"],
                admissionPlugins: ["NamespaceLifecycle", "NodeRestriction", "ServiceAccount"]
            })
            tryCompare(toggle, "checked", true)
        }
    }
}
