pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// A guided tour of the console for training sessions: one card per page, in the corner of
// the window, that switches to the page it talks about and says what to try there. Opens by
// itself once per run when the backend runs in demo mode (`gatehouse --demo`, docs/demo.md);
// the navigation rail's "Guided tour" opens it any time. Esc or "End tour" closes it.
Popup {
    id: root

    // Called with a page id to show it (ConsoleView.showPage).
    property var showPage: function (pageId, section) {}
    property int step: 0
    readonly property var steps: [
        { page: "dashboard", section: "",
          title: qsTr("The backend at a glance"),
          text: qsTr("Live counters: orders per minute, webhook deliveries, tokens by grant type and cluster verdicts. Each tile opens its page. The demo has placed three test orders; watch them arrive.") },
        { page: "orders", section: "",
          title: qsTr("Orders and their lifecycle"),
          text: qsTr("Select an order to see its lines, status history and webhook deliveries. “Place test order…” starts a new one; it moves through validation and allocation on its own, and every status change is signed and delivered to the demo receiver.") },
        { page: "deliveries", section: "",
          title: qsTr("Webhook deliveries"),
          text: qsTr("Every attempt with its signature headers, answer and retry schedule. Select a failed one and redeliver it, or redeliver many at a safe rate with “Redeliver…”.") },
        { page: "clients", section: "",
          title: qsTr("OAuth clients"),
          text: qsTr("Three demo clients: a public web app (authorization code with PKCE), a service (client credentials) and a legacy till (password grant, marked obsolete). “Preview token…” shows what a client would get and where each claim comes from.") },
        { page: "tokens", section: "",
          title: qsTr("Tokens and the JWT decoder"),
          text: qsTr("Mint a token for the Inventory service, then decode it: every check (signature, expiry, audience) with a verdict, and whether this server still knows it. The demo users are alice and bob, password “gatehouse-demo”.") },
        { page: "nodes", section: "",
          title: qsTr("Cluster nodes and live verdicts"),
          text: qsTr("Act as the node agent of node-1 and change a label of node-2: NodeRestriction refuses, and “Why denied” says which rule and which binding. Act as alice (group devs) and the node-labeler binding allows it.") },
        { page: "rbac", section: "",
          title: qsTr("RBAC"),
          text: qsTr("Roles and bindings with the demo's node-labeler and pod-reader, who can do what, and every recent request with its verdict. “Effective access…” lists everything a subject holds, and why.") },
        { page: "settings", section: "",
          title: qsTr("Settings"),
          text: qsTr("Turn anonymous access off: it applies at once, and the cluster answers 401 to anonymous requests. Other settings are kept for the next start.") },
        { page: "audit", section: "",
          title: qsTr("The audit log"),
          text: qsTr("Every change above — by you or by the demo — with who made it, what changed field by field, and what it caused next. That is the end of the tour.") },
    ]
    readonly property var current: root.steps[root.step]

    function begin() {
        root.step = 0
        root.open()
        root.showPage(root.current.page, root.current.section)
    }
    function go(step: int) {
        root.step = Math.max(0, Math.min(root.steps.length - 1, step))
        root.showPage(root.current.page, root.current.section)
    }

    objectName: "guidedTour"
    modal: false
    focus: true
    closePolicy: Popup.CloseOnEscape
    width: 400
    padding: 16
    x: parent ? parent.width - width - 24 : 0
    y: parent ? parent.height - height - 24 : 0

    background: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.accent
        border.width: 2
    }

    contentItem: ColumnLayout {
        spacing: 8
        // On the content: a Popup is not an Item, so Accessible cannot attach to it.
        Accessible.role: Accessible.Dialog
        Accessible.name: qsTr("Guided tour: %1").arg(root.current.title)

        RowLayout {
            Layout.fillWidth: true
            Label {
                textFormat: Text.PlainText
                text: qsTr("Guided tour")
                color: Theme.accent
                font.weight: Font.DemiBold
                font.capitalization: Font.AllUppercase
                font.pixelSize: 12
            }
            Item { Layout.fillWidth: true }
            Label {
                textFormat: Text.PlainText
                objectName: "tourProgress"
                text: qsTr("%1 of %2").arg(root.step + 1).arg(root.steps.length)
                color: Theme.mutedText
                font.pixelSize: 12
            }
        }
        Label {
            textFormat: Text.PlainText
            objectName: "tourTitle"
            Layout.fillWidth: true
            text: root.current.title
            color: Theme.text
            font.pixelSize: 16
            font.weight: Font.DemiBold
            wrapMode: Text.Wrap
        }
        Label {
            textFormat: Text.PlainText
            objectName: "tourText"
            Layout.fillWidth: true
            text: root.current.text
            color: Theme.text
            wrapMode: Text.Wrap
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            Button {
                objectName: "tourEnd"
                text: qsTr("End tour")
                flat: true
                Accessible.name: qsTr("End the guided tour")
                onClicked: root.close()
            }
            Item { Layout.fillWidth: true }
            Button {
                objectName: "tourBack"
                text: qsTr("Back")
                enabled: root.step > 0
                onClicked: root.go(root.step - 1)
            }
            Button {
                objectName: "tourNext"
                text: root.step === root.steps.length - 1 ? qsTr("Finish") : qsTr("Next")
                highlighted: true
                Accessible.name: root.step === root.steps.length - 1 ? qsTr("Finish the tour")
                                                                     : qsTr("Next page of the tour")
                onClicked: {
                    if (root.step === root.steps.length - 1)
                        root.close()
                    else
                        root.go(root.step + 1)
                }
            }
        }
    }
}
