import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// Effective access against the in-test admin server: a client's scopes, audiences and
// client_credentials claims from the Clients page, a user's through every client that may act
// for them, and a cluster identity's verb × resource cells with their bindings from the RBAC
// page.
Item {
    id: root

    width: 1300
    height: 900

    ClientsPage {
        id: clientsPage
        anchors.fill: parent
        visible: true
    }
    RbacPage {
        id: rbacPage
        anchors.fill: parent
        visible: false
    }

    TestCase {
        id: testCase

        name: "AccessDialog"
        when: windowShown

        function child(dialog, name) {
            const found = findChild(dialog.contentItem, name)
            verify(found, name)
            return found
        }

        function initTestCase() {
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetOAuth()
            TestBackend.resetCluster()
            Clients.reload()
            tryVerify(() => !Clients.loading && Clients.count === 3, Wait.ms)
            clientsPage.visible = true
            rbacPage.visible = false
        }

        function cleanup() {
            for (const page of [clientsPage, rbacPage]) {
                const dialog = findChild(page, "accessDialog")
                dialog.close()
                tryCompare(dialog, "visible", false, Wait.ms)
            }
        }

        function test_clientAccess() {
            const row = findChild(clientsPage, "client-" + TestBackend.clientId(1))
            mouseClick(findChild(row, "clientAccessButton"))
            const dialog = findChild(clientsPage, "accessDialog")
            tryCompare(dialog, "opened", true, Wait.ms)
            verify(!child(dialog, "accessIdentity").visible, "a client needs no identity")
            tryCompare(Access, "loaded", true, Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/oauth/access"), { client_id: TestBackend.clientId(1) })
            compare(child(dialog, "accessSubject").text,
                    "Client Warehouse sync (" + TestBackend.clientId(1) + ") · grant types: client_credentials")
            compare(findChild(child(dialog, "accessScope-0"), "scopeName").text, "orders:read")
            compare(Access.scopes[1].detail, "allowed by the scope of client \"Warehouse sync\"")
            compare(Access.audiences.length, 2)
            verify(child(dialog, "accessAudience-1"))
            const sub = Access.claims.find(c => c.claim === "sub")
            compare(sub.sourceText, "client record")
            compare(sub.detail, "client_id: a client_credentials client acts for itself")
            compare(sub.token, "client_credentials access token")
        }

        function test_userAccess() {
            mouseClick(findChild(clientsPage, "userAccessButton"))
            const dialog = findChild(clientsPage, "accessDialog")
            tryCompare(dialog, "opened", true, Wait.ms)
            const identity = child(dialog, "accessIdentity")
            verify(identity.visible)
            verify(!child(dialog, "accessGroups").visible)
            verify(!child(dialog, "accessShowButton").enabled)
            identity.text = "nobody"
            mouseClick(child(dialog, "accessShowButton"))
            tryCompare(child(dialog, "accessError"), "text", "no user 'nobody'", Wait.ms)
            identity.text = "alice"
            mouseClick(child(dialog, "accessShowButton"))
            tryCompare(Access, "loaded", true, Wait.ms)
            compare(child(dialog, "accessSubject").text, "User alice (user-alice)")
            // The till (password) and the dashboard (authorization_code) may act for her.
            compare(findChild(child(dialog, "accessScope-0"), "scopeName").text, "orders:write (Legacy till (POS))")
            verify(Access.claims.some(c => c.token === "Orders dashboard · id_token" && c.claim === "preferred_username"))
            verify(!Access.claims.some(c => c.token.indexOf("Warehouse sync") === 0), "client_credentials only")
            // Who she is in the cluster, and the group it drops.
            const identity2 = child(dialog, "accessClusterIdentity")
            verify(identity2.visible)
            verify(identity2.text.indexOf("In the cluster: ") === 0, identity2.text)
            verify(identity2.text.indexOf("#user-alice · groups: system:authenticated · through: kubectl") > 0, identity2.text)
            const dropped = child(dialog, "accessClusterDropped")
            verify(dropped.visible)
            compare(dropped.text, "Dropped by the cluster: system:masters (groups beginning with system: "
                                  + "reach the cluster only through an oidc-group-mappings entry)")
        }

        function test_clusterAccess() {
            clientsPage.visible = false
            rbacPage.visible = true
            mouseClick(findChild(rbacPage, "clusterAccessButton"))
            const dialog = findChild(rbacPage, "accessDialog")
            tryCompare(dialog, "opened", true, Wait.ms)
            child(dialog, "accessIdentity").text = "bob"
            child(dialog, "accessGroups").text = "devs"
            mouseClick(child(dialog, "accessShowButton"))
            tryCompare(Access, "loaded", true, Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/cluster/access"), { user: "bob", groups: ["devs"] })
            compare(child(dialog, "accessSubject").text, "bob · groups: devs, system:authenticated")
            verify(!child(dialog, "accessPrivileged").visible)
            const patch = Access.cells.find(c => c.verb === "patch" && c.resourceText === "nodes")
            verify(patch, "patch nodes through devs-label-nodes")
            compare(patch.scopeText, "cluster")
            compare(patch.viaText, "ClusterRoleBinding devs-label-nodes → ClusterRole node-labeler rule 0 (Group devs)")
            verify(Access.cells.some(c => c.resourceText === "selfsubjectaccessreviews.authorization.k8s.io"))
            // In a namespace: alice reads pods in shop.
            child(dialog, "accessIdentity").text = "alice"
            child(dialog, "accessGroups").text = ""
            mouseClick(child(dialog, "accessShowButton"))
            tryVerify(() => Access.loaded && Access.cells.some(c => c.scopeText === "namespace shop"), Wait.ms)
            const cell = findChild(dialog.contentItem, "accessCell-0")
            verify(cell)
            // Anonymous: nothing through RBAC in the seed.
            child(dialog, "accessAnonymous").checked = true
            mouseClick(child(dialog, "accessShowButton"))
            tryVerify(() => Access.loaded && Access.subjectText.indexOf("system:anonymous") === 0, Wait.ms)
            compare(Access.cells.length, 0)
        }
    }
}
