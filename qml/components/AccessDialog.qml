pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Effective access (Access): for an OAuth client or user, the scopes, audiences and token
// claims with their sources; for a cluster identity, every verb × resource it holds with the
// bindings and rules behind it. mode "user" and "cluster" ask for the identity first.
Dialog {
    id: root

    // "client", "user" or "cluster".
    property string mode: "client"

    objectName: "accessDialog"
    title: root.mode === "cluster" ? qsTr("Effective cluster access")
         : root.mode === "user" ? qsTr("Effective access of a user")
                                : qsTr("Effective access of a client")
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(900, parent ? parent.width - 48 : 900)
    height: Math.min(800, parent ? parent.height - 48 : 800)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

    function openForClient(clientId: string) {
        root.mode = "client"
        Access.loadClient(clientId)
        root.open()
    }
    function openForUser() {
        root.mode = "user"
        Access.clear()
        root.open()
    }
    function openForCluster() {
        root.mode = "cluster"
        Access.clear()
        root.open()
    }

    background: Rectangle {
        color: Theme.surface
        radius: 8
        border.color: Theme.border
    }

    header: Label {
        textFormat: Text.PlainText
        text: root.title
        color: Theme.text
        padding: 20
        bottomPadding: 4
        font.pixelSize: 17
        font.weight: Font.DemiBold
    }

    ScrollView {
        id: scroll
        anchors.fill: parent
        clip: true
        contentWidth: availableWidth

        ColumnLayout {
            width: scroll.availableWidth
            spacing: 8

            RowLayout {
                Layout.fillWidth: true
                visible: root.mode !== "client"
                spacing: 8
                TextField {
                    id: identityField
                    objectName: "accessIdentity"
                    Layout.preferredWidth: 200
                    enabled: !anonymousBox.checked
                    placeholderText: root.mode === "user" ? qsTr("username") : qsTr("user, e.g. bob")
                    selectByMouse: true
                    Accessible.name: qsTr("Identity")
                    onAccepted: showButton.clicked()
                }
                TextField {
                    id: groupsField
                    objectName: "accessGroups"
                    visible: root.mode === "cluster"
                    Layout.fillWidth: true
                    enabled: !anonymousBox.checked
                    placeholderText: qsTr("groups, comma separated")
                    selectByMouse: true
                    Accessible.name: qsTr("Groups")
                    onAccepted: showButton.clicked()
                }
                CheckBox {
                    id: anonymousBox
                    objectName: "accessAnonymous"
                    visible: root.mode === "cluster"
                    text: qsTr("anonymous")
                }
                Button {
                    id: showButton
                    objectName: "accessShowButton"
                    text: qsTr("Show")
                    highlighted: true
                    enabled: !Access.busy && (anonymousBox.checked || identityField.text.trim().length > 0)
                    onClicked: root.mode === "user" ? Access.loadUser(identityField.text)
                                                    : Access.loadCluster(identityField.text, groupsField.text,
                                                                         anonymousBox.checked)
                }
                Item { Layout.fillWidth: root.mode !== "cluster" }
            }

            BusyIndicator {
                Layout.preferredWidth: 24
                Layout.preferredHeight: 24
                running: Access.busy
                visible: running
            }
            Label {
                objectName: "accessError"
                Layout.fillWidth: true
                visible: Access.error.length > 0
                text: Access.error // the server's message, untranslated
                color: Theme.error
                wrapMode: Text.Wrap
                textFormat: Text.PlainText
            }
            Label {
                textFormat: Text.PlainText
                objectName: "accessSubject"
                Layout.fillWidth: true
                visible: Access.loaded
                text: Access.subjectText
                color: Theme.text
                font.weight: Font.DemiBold
                wrapMode: Text.WrapAnywhere
            }
            Label {
                textFormat: Text.PlainText
                objectName: "accessPrivileged"
                visible: Access.loaded && Access.privileged
                text: qsTr("system:masters: allowed everything before any authorizer runs.")
                color: Theme.warning
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
                objectName: "accessClusterIdentity"
                Layout.fillWidth: true
                visible: Access.mode === "user" && Access.clusterText.length > 0
                text: Access.clusterText
                color: Theme.text
                wrapMode: Text.Wrap
            }
            Label {
                textFormat: Text.PlainText
                objectName: "accessClusterDropped"
                Layout.fillWidth: true
                visible: Access.mode === "user" && Access.clusterDroppedText.length > 0
                text: Access.clusterDroppedText
                color: Theme.warning
                wrapMode: Text.Wrap
            }
            Repeater {
                model: Access.notes
                delegate: Label {
                    textFormat: Text.PlainText
                    required property string modelData
                    Layout.fillWidth: true
                    text: modelData // the server's note
                    color: Theme.mutedText
                    wrapMode: Text.Wrap
                }
            }

            // OAuth: scopes, audiences, claims.
            SectionHeading {
                visible: Access.mode !== "cluster" && Access.loaded
                text: qsTr("Scopes")
            }
            Label {
                textFormat: Text.PlainText
                visible: Access.mode !== "cluster" && Access.loaded && Access.scopes.length === 0
                text: Access.mode === "user" ? qsTr("No client may act for this user.") : qsTr("No scopes.")
                color: Theme.mutedText
            }
            Repeater {
                model: Access.mode !== "cluster" ? Access.scopes : []
                delegate: RowLayout {
                    id: scopeRow
                    required property var modelData
                    required property int index
                    objectName: "accessScope-" + scopeRow.index
                    Layout.fillWidth: true
                    spacing: 10
                    Label {
                        textFormat: Text.PlainText
                        objectName: "scopeName"
                        Layout.preferredWidth: 180
                        text: scopeRow.modelData.client.length > 0
                              ? qsTr("%1 (%2)").arg(scopeRow.modelData.scope).arg(scopeRow.modelData.client)
                              : scopeRow.modelData.scope
                        color: Theme.text
                        font.family: Theme.monoFont
                        wrapMode: Text.WrapAnywhere
                    }
                    Label {
                        textFormat: Text.PlainText
                        Layout.fillWidth: true
                        text: qsTr("%1: %2").arg(scopeRow.modelData.sourceText).arg(scopeRow.modelData.detail)
                        color: Theme.mutedText
                        wrapMode: Text.Wrap
                    }
                }
            }
            SectionHeading {
                visible: Access.audiences.length > 0
                text: qsTr("Audiences")
            }
            Repeater {
                model: Access.audiences
                delegate: RowLayout {
                    id: audienceRow
                    required property var modelData
                    required property int index
                    objectName: "accessAudience-" + audienceRow.index
                    Layout.fillWidth: true
                    spacing: 10
                    Label {
                        textFormat: Text.PlainText
                        Layout.preferredWidth: 180
                        text: audienceRow.modelData.audience
                        color: Theme.text
                        font.family: Theme.monoFont
                        wrapMode: Text.WrapAnywhere
                    }
                    Label {
                        textFormat: Text.PlainText
                        Layout.fillWidth: true
                        text: qsTr("%1: %2").arg(audienceRow.modelData.sourceText).arg(audienceRow.modelData.detail)
                        color: Theme.mutedText
                        wrapMode: Text.Wrap
                    }
                }
            }
            SectionHeading {
                visible: Access.claims.length > 0
                text: qsTr("Token claims")
            }
            Repeater {
                model: Access.claims
                delegate: RowLayout {
                    id: claimRow
                    required property var modelData
                    required property int index
                    objectName: "accessClaim-" + claimRow.index
                    Layout.fillWidth: true
                    spacing: 10
                    Label {
                        textFormat: Text.PlainText
                        objectName: "claimToken"
                        Layout.preferredWidth: 180
                        Layout.alignment: Qt.AlignTop
                        // Once per token: the rows below belong to it.
                        text: claimRow.index === 0 || Access.claims[claimRow.index - 1].token !== claimRow.modelData.token
                              ? claimRow.modelData.token : ""
                        color: Theme.mutedText
                        font.pixelSize: 12
                        font.weight: Font.DemiBold
                        wrapMode: Text.Wrap
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "claimName"
                        Layout.preferredWidth: 120
                        text: claimRow.modelData.claim
                        color: Theme.text
                        font.family: Theme.monoFont
                        font.weight: Font.DemiBold
                        wrapMode: Text.WrapAnywhere
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "claimValue"
                        Layout.fillWidth: true
                        Layout.preferredWidth: 3
                        text: claimRow.modelData.value
                        color: Theme.text
                        font.family: Theme.monoFont
                        wrapMode: Text.WrapAnywhere
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "claimSource"
                        Layout.fillWidth: true
                        Layout.preferredWidth: 4
                        text: qsTr("%1: %2").arg(claimRow.modelData.sourceText).arg(claimRow.modelData.detail)
                        color: Theme.mutedText
                        font.pixelSize: 12
                        wrapMode: Text.Wrap
                    }
                }
            }

            // Cluster: verb × resource cells with their bindings.
            SectionHeading {
                visible: Access.mode === "cluster" && Access.loaded
                text: qsTr("Verbs and resources")
            }
            Label {
                textFormat: Text.PlainText
                visible: Access.mode === "cluster" && Access.loaded && Access.cells.length === 0
                text: qsTr("RBAC grants this identity nothing.")
                color: Theme.mutedText
            }
            Repeater {
                model: Access.cells
                delegate: RowLayout {
                    id: cellRow
                    required property var modelData
                    required property int index
                    objectName: "accessCell-" + cellRow.index
                    Layout.fillWidth: true
                    spacing: 10
                    Label {
                        textFormat: Text.PlainText
                        objectName: "cellScope"
                        Layout.preferredWidth: 130
                        Layout.alignment: Qt.AlignTop
                        text: cellRow.modelData.scopeText
                        color: Theme.mutedText
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "cellVerb"
                        Layout.preferredWidth: 70
                        Layout.alignment: Qt.AlignTop
                        text: cellRow.modelData.verb
                        color: Theme.text
                        font.family: Theme.monoFont
                        font.weight: Font.DemiBold
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "cellResource"
                        Layout.preferredWidth: 250
                        Layout.alignment: Qt.AlignTop
                        text: cellRow.modelData.resourceText
                        color: Theme.text
                        font.family: Theme.monoFont
                        wrapMode: Text.WrapAnywhere
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "cellVia"
                        Layout.fillWidth: true
                        text: cellRow.modelData.viaText
                        color: Theme.mutedText
                        font.pixelSize: 12
                        wrapMode: Text.Wrap
                    }
                }
            }
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 4
        background: null
        RowLayout {
            anchors.right: parent.right
            Button {
                text: qsTr("Close")
                onClicked: root.close()
            }
        }
    }
}
