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

    // Each answer of ClusterSettings.reload() (and every settings event) emits changed().
    SignalSpy {
        id: settingsChanges
        target: ClusterSettings
        signalName: "changed"
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
        // What the "Why denied" card shows of one near miss.
        function nearMiss(index) {
            const miss = findChild(item("denialCard"), "nearMiss-" + index)
            verify(miss, "near miss " + index)
            const rules = []
            for (let i = 0; ; ++i) {
                const rule = findChild(miss, "ruleMiss-" + i)
                if (!rule)
                    break
                const messages = []
                for (let c = 0; c < rule.children.length; ++c)
                    if (rule.children[c].objectName === "ruleMissMessage")
                        messages.push(rule.children[c].text)
                rules.push({
                    rule: findChild(rule, "ruleText").text,
                    misses: findChild(rule, "ruleMissText").text,
                    messages: messages
                })
            }
            return {
                binding: findChild(miss, "nearMissBinding").text,
                reason: findChild(miss, "nearMissReason").text,
                subject: findChild(miss, "nearMissSubject").text,
                message: findChild(miss, "nearMissMessage").text,
                rules: rules
            }
        }
        function quote(index) {
            const found = findChild(item("denialCard"), "denialQuote-" + index)
            verify(found, "quote " + index)
            return findChild(found, "quoteWho").text + " " + findChild(found, "quoteText").text
        }
        function explains() {
            return TestBackend.requestCount("POST /admin/v1/cluster/explain")
        }

        function initTestCase() {
            root.Window.window.requestActivate()
            tryCompare(root.Window.window, "active", true, Wait.ms)
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetCluster()
            Nodes.reload()
            settingsChanges.clear()
            ClusterSettings.reload()
            tryVerify(() => !Nodes.loading && Nodes.count === 3, Wait.ms, "nodes loaded")
            // The reload's answer itself (loaded stays true from before): it re-asks the verdict.
            tryVerify(() => settingsChanges.count > 0, Wait.ms, "the settings' answer")
            verify(ClusterSettings.loaded && ClusterSettings.anonymousAuth)
            NodeEditor.nodeName = "node-1"
            NodeEditor.revert()
            NodeEditor.identity = NodeEditor.NodeAgent
            NodeEditor.agentNode = "node-1"
            NodeEditor.customUser = ""
            NodeEditor.customGroups = ""
            NodeEditor.explain()
            tryVerify(() => NodeEditor.explained && !NodeEditor.explaining, Wait.ms, "first verdict")
            compare(item("verdictCode").text, "200 OK")
            // Allowed: nothing to explain.
            verify(!item("denialCard").visible)
            verify(!NodeEditor.hasDenial)
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
            tryCompare(item("verdictCode"), "text", "403 Forbidden", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
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
            tryCompare(item("verdictCode"), "text", "200 OK", Wait.ms)
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
            tryCompare(item("verdictCode"), "text", "403 Forbidden", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
            compare(stage("admission").detail,
                    "nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to modify node \"node-2\"")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").node, "node-2")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").user, "system:node:node-1")

            // No node name: nothing to ask, the page says what is missing.
            typeInto(item("agentNodeField"), "")
            tryCompare(NodeEditor, "explained", false, Wait.ms)
            compare(item("identityError").text, "Give the name of the node the agent runs on.")
            verify(!item("applyButton").enabled)
        }

        function test_customUserThroughRbac() {
            actAs(NodeEditor.CustomUser)
            typeInto(item("customUserField"), "alice")
            typeInto(item("customGroupsField"), "devs, ops")
            typeInto(findChild(labelRow("example.com/rack"), "labelValueField"), "r2")
            tryCompare(item("verdictCode"), "text", "200 OK", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").groups, ["devs", "ops"])
            compare(stage("authorization"), {
                decision: "allow",
                source: "RBAC",
                detail: "ClusterRoleBinding devs-label-nodes grants ClusterRole node-labeler, rules[0], to Group devs"
            })

            // Without the group nothing allows it, and admission is not reached.
            typeInto(item("customGroupsField"), "ops")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
            compare(stage("authorization").decision, "deny")
            compare(stage("authorization").detail,
                    "No authorizer allowed it (Node: no-opinion, RBAC: no-opinion). nodes \"node-1\" is forbidden: User \"alice\" cannot patch resource \"nodes\" in API group \"\" at the cluster scope")
            compare(stage("admission").decision, "not reached")
            compare(findChild(findChild(page, "stage-admission"), "decisionBadge").tone, Theme.neutral)
        }

        function test_denialListsTheNearMisses() {
            actAs(NodeEditor.CustomUser)
            typeInto(item("customUserField"), "alice")
            typeInto(item("customGroupsField"), "ops")
            typeInto(findChild(labelRow("example.com/rack"), "labelValueField"), "r2")
            // The verdict of the last edit (alice in ops, rack r2), not of one typed before it
            // (without the group: one near miss fewer), which is a 403 too.
            tryVerify(() => {
                const body = TestBackend.lastBody("POST /admin/v1/cluster/explain")
                return body && JSON.stringify(body.groups) === JSON.stringify(["ops"])
                        && JSON.stringify(body).includes("r2") && !NodeEditor.explaining
            }, Wait.ms)
            tryCompare(item("verdictCode"), "text", "403 Forbidden", Wait.ms)
            verify(item("denialCard").visible)
            compare(item("denialSource").text, "dry run, 403 Forbidden")
            compare(item("denialHeadline").text, "Refused at authorization by Node, RBAC")
            verify(!findChild(item("denialCard"), "denialQuote-0"), "Node and RBAC said nothing")
            compare(item("nearMissesHeading").text, "Bindings that name this identity but did not apply (2):")
            // Through the group every user is in: the role exists, no rule of it matches.
            compare(nearMiss(0), {
                binding: "ClusterRoleBinding system:basic-user → ClusterRole system:basic-user",
                reason: "no rule matches",
                subject: "via Group system:authenticated",
                message: "no rule of ClusterRole \"system:basic-user\" allows the request",
                rules: [{
                    rule: "rule 0: verbs=[create] apiGroups=[authorization.k8s.io] resources=[selfsubjectaccessreviews selfsubjectrulesreviews]",
                    misses: "no match on verb, API group, resource:",
                    messages: ["• verb \"patch\" is not in [create]",
                               "• API group \"\" (core) is not in [authorization.k8s.io]",
                               "• resource \"nodes\" is not in [selfsubjectaccessreviews selfsubjectrulesreviews]"]
                }]
            })
            // Alice's role binding is for namespace shop; nodes are cluster-wide.
            compare(nearMiss(1), {
                binding: "RoleBinding shop/read-pods → Role pod-reader",
                reason: "other namespace",
                subject: "via User alice",
                message: "a RoleBinding grants only inside namespace \"shop\"; the request is cluster-wide",
                rules: []
            })
            compare(findChild(findChild(item("denialCard"), "nearMiss-1"), "nearMissReason").tone, Theme.error)

            // Bindings made elsewhere: the verdict is asked again. One names a role that is not
            // there; one allows patching node-2 only (resourceNames).
            const before = explains()
            TestBackend.importRbac({
                kind: "ClusterRoleBinding", apiVersion: "rbac.authorization.k8s.io/v1",
                metadata: { name: "ops-legacy" },
                roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "node-admin-legacy" },
                subjects: [{ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "ops" }]
            })
            TestBackend.importRbac({
                kind: "ClusterRole", apiVersion: "rbac.authorization.k8s.io/v1",
                metadata: { name: "rack-labeler" },
                rules: [{ apiGroups: [""], resources: ["nodes"], verbs: ["patch"], resourceNames: ["node-2"] },
                        { apiGroups: ["apps"], resources: ["deployments"], verbs: ["get", "list"] }]
            })
            TestBackend.importRbac({
                kind: "ClusterRoleBinding", apiVersion: "rbac.authorization.k8s.io/v1",
                metadata: { name: "alice-rack" },
                roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "rack-labeler" },
                subjects: [{ kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "alice" }]
            })
            tryCompare(item("nearMissesHeading"), "text", "Bindings that name this identity but did not apply (4):", Wait.ms)
            verify(explains() > before)
            compare(nearMiss(0), {
                binding: "ClusterRoleBinding alice-rack → ClusterRole rack-labeler",
                reason: "no rule matches",
                subject: "via User alice",
                message: "no rule of ClusterRole \"rack-labeler\" allows the request",
                rules: [{
                    rule: "rule 0: verbs=[patch] apiGroups=[\"\"] resources=[nodes] resourceNames=[node-2]",
                    misses: "no match on resource name:",
                    messages: ["• name \"node-1\" is not in resourceNames [node-2]"]
                }, {
                    rule: "rule 1: verbs=[get list] apiGroups=[apps] resources=[deployments]",
                    misses: "no match on verb, API group, resource:",
                    messages: ["• verb \"patch\" is not in [get list]",
                               "• API group \"\" (core) is not in [apps]",
                               "• resource \"nodes\" is not in [deployments]"]
                }]
            })
            compare(nearMiss(1), {
                binding: "ClusterRoleBinding ops-legacy → ClusterRole node-admin-legacy",
                reason: "role missing",
                subject: "via Group ops",
                message: "roleRef names ClusterRole \"node-admin-legacy\", which does not exist",
                rules: []
            })
            compare(nearMiss(2).binding, "ClusterRoleBinding system:basic-user → ClusterRole system:basic-user")
            compare(nearMiss(3).binding, "RoleBinding shop/read-pods → Role pod-reader")

            // An authorizer that refuses in its own words is quoted.
            TestBackend.changeClusterSettings({ authorizationModes: ["Node", "RBAC", "AlwaysDeny"] })
            tryCompare(item("denialHeadline"), "text", "Refused at authorization by AlwaysDeny", Wait.ms)
            compare(quote(0), "AlwaysDeny said: “Everything is forbidden.”")
            compare(item("nearMissesHeading").text, "Bindings that name this identity but did not apply (4):")
            TestBackend.changeClusterSettings({ authorizationModes: ["Node", "RBAC"] })
            tryCompare(item("denialHeadline"), "text", "Refused at authorization by Node, RBAC", Wait.ms)

            // In the group that may: allowed, the card goes.
            typeInto(item("customGroupsField"), "devs")
            tryCompare(item("verdictCode"), "text", "200 OK", Wait.ms)
            tryCompare(item("denialCard"), "visible", false, Wait.ms)
            compare(NodeEditor.nearMisses, [])
        }

        function test_denialQuotesTheAdmissionPlugin() {
            typeInto(item("newLabelKeyField"), "node-restriction.kubernetes.io/pool")
            typeInto(item("newLabelValueField"), "gold")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
            verify(item("denialCard").visible)
            compare(item("denialHeadline").text, "Refused at admission by NodeRestriction")
            compare(quote(0), "NodeRestriction said: “nodes \"node-1\" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool”")
            verify(!item("nearMissesHeading").visible, "no binding list: authorization allowed it")
            verify(!findChild(item("denialCard"), "nearMiss-0"))
            // The verdict bar's tooltip (an admission webhook's message may come here) is
            // plain text: rich text would load the images a message names.
            const tip = item("verdictBarTip")
            verify(tip, "the verdict bar has a plain-text tooltip")
            compare(tip.text, item("verdictBarText").text)
            compare(tip.contentItem.textFormat, Text.PlainText)
        }

        function test_applyShowsTheRealDenial() {
            actAs(NodeEditor.CustomUser)
            typeInto(item("customUserField"), "alice")
            typeInto(item("customGroupsField"), "ops")
            typeInto(item("newLabelKeyField"), "example.com/gpu")
            typeInto(item("newLabelValueField"), "a100")
            tryCompare(item("denialSource"), "text", "dry run, 403 Forbidden", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
            mouseClick(item("applyButton"))
            tryCompare(item("applyCode"), "text", "Answered 403 Forbidden", Wait.ms)
            // The card now explains the real answer, from its own trace.
            compare(item("denialSource").text, "the real answer, 403 Forbidden")
            verify(NodeEditor.denialFromApply)
            compare(item("denialHeadline").text, "Refused at authorization by Node, RBAC")
            compare(nearMiss(0).binding, "ClusterRoleBinding system:basic-user → ClusterRole system:basic-user")
            compare(nearMiss(0).rules[0].messages[0], "• verb \"patch\" is not in [create]")
            compare(nearMiss(1).reason, "other namespace")
            // Editing again: back to the dry run.
            typeInto(item("newLabelValueField"), "h100")
            tryCompare(item("denialSource"), "text", "dry run, 403 Forbidden", Wait.ms)
        }

        function test_applyShowsTheRealAnswer() {
            // Allowed: a kubelet sets its own rack label.
            typeInto(findChild(labelRow("example.com/rack"), "labelValueField"), "r2")
            tryCompare(item("verdictCode"), "text", "200 OK", Wait.ms)
            verify(item("applyButton").enabled)
            mouseClick(item("applyButton"))
            tryCompare(item("applyCode"), "text", "Answered 200 OK", Wait.ms)
            compare(item("applyMessage").text, "Labels saved: node-1 is at resourceVersion 101.")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/requests"), {
                user: "system:node:node-1",
                groups: ["system:nodes"],
                node: "node-1",
                labels: { "example.com/rack": "r2" }
            })
            compare(TestBackend.nodeLabels("node-1")["example.com/rack"], "r2")
            // The node was read again: no pending change is left.
            tryCompare(NodeEditor, "hasChanges", false, Wait.ms)
            tryCompare(item("resourceVersion"), "text", "resourceVersion 101", Wait.ms)
            verify(!findChild(labelRow("example.com/rack"), "labelState").visible)
            tryVerify(() => TestBackend.requestCount("GET /admin/v1/cluster/k8s/api/v1/nodes/node-1") >= 1, Wait.ms)

            // Refused: the real 403 with NodeRestriction's message; nothing changes.
            typeInto(item("newLabelKeyField"), "node-role.kubernetes.io/control-plane")
            typeInto(item("newLabelValueField"), "yes")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", Wait.ms)
            keyClick(Qt.Key_Return, Qt.ControlModifier) // Ctrl+Return applies
            tryCompare(item("applyCode"), "text", "Answered 403 Forbidden", Wait.ms)
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
            tryCompare(item("verdictCode"), "text", "200 OK", Wait.ms)
            mouseClick(item("applyButton"))
            tryCompare(item("applyCode"), "text", "Answered 200 OK", Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/requests").labels, { "example.com/rack": null })
            tryCompare(NodeEditor.labels, "count", 4, Wait.ms)
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
            tryCompare(item("verdictCode"), "text", "422 Unprocessable Entity", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
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
            tryVerify(() => findChild(page, "label-example.com/owner") !== null, Wait.ms)
            verify(!findChild(labelRow("example.com/owner"), "labelState").visible)
            compare(NodeEditor.changesText, "{\"example.com/rack\":\"r5\"}")
            compare(item("resourceVersion").text, "resourceVersion 101")
            compare(findChild(item("node-node-1"), "nodeFacts").text, "6 labels · v1.32.4 · zone-a")
        }

        function test_anonymousAccessSwitch() {
            actAs(NodeEditor.Anonymous)
            typeInto(findChild(labelRow("example.com/rack"), "labelValueField"), "r3")
            tryCompare(item("verdictCode"), "text", "403 Forbidden", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
            compare(stage("authentication").decision, "anonymous")
            compare(TestBackend.lastBody("POST /admin/v1/cluster/explain").anonymous, true)

            // Off, live: the same request is now unauthorized.
            const toggle = item("anonymousSwitch")
            verify(toggle.checked)
            mouseClick(toggle)
            tryCompare(ClusterSettings, "anonymousAuth", false, Wait.ms)
            compare(TestBackend.lastBody("PUT /admin/v1/cluster/settings"), { anonymousAuth: false })
            tryCompare(item("verdictCode"), "text", "401 Unauthorized", Wait.ms)
            tryVerify(() => !NodeEditor.explaining, Wait.ms)
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
            tryCompare(ClusterSettings, "anonymousAuth", true, Wait.ms)
            verify(toggle.checked)
            tryCompare(item("verdictCode"), "text", "403 Forbidden", Wait.ms)

            // Switched elsewhere (another console, the CLI): the switch follows the event.
            TestBackend.sendEvent("cluster.settings.changed", {
                anonymousAuth: false,
                authorizationModes: ["Node", "RBAC"],
                admissionPlugins: ["NamespaceLifecycle", "NodeRestriction", "ServiceAccount"]
            })
            tryCompare(toggle, "checked", false, Wait.ms)
            TestBackend.sendEvent("cluster.settings.changed", {
                anonymousAuth: true,
                authorizationModes: ["Node", "RBAC"],
                admissionPlugins: ["NamespaceLifecycle", "NodeRestriction", "ServiceAccount"]
            })
            tryCompare(toggle, "checked", true, Wait.ms)
        }
    }
}
