import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Issues a kubeconfig for a user or a node agent: a client certificate from the cluster's CA
// and a kubeconfig that uses it. Only the redacted view is shown; "Save kubeconfig…" writes the
// real one (with the private key) to a file only its owner can read. Closing the dialog
// forgets it.
Dialog {
    id: root

    // Asks where to save: the page shows the file dialog (over the whole window, not inside
    // this one) and calls saveTo() with the file chosen.
    signal saveRequested()

    // Writes the issued kubeconfig to file.
    function saveTo(file: url): bool {
        return KubeconfigForm.saveTo(file)
    }

    objectName: "kubeconfigDialog"
    title: qsTr("Kubeconfig")
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(640, parent ? parent.width - 48 : 640)
    height: Math.min(implicitHeight, parent ? parent.height - 48 : implicitHeight)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

    onOpened: nameField.forceActiveFocus()
    onClosed: KubeconfigForm.forget() // the private key is not kept once the dialog is gone

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
        elide: Text.ElideRight
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 10

        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            text: qsTr("Issues a client certificate signed by the cluster's CA and a kubeconfig that uses it. Only the redacted view is shown here; Save writes the real one, readable by you only.")
            color: Theme.mutedText
            wrapMode: Text.Wrap
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 16
            RadioButton {
                id: userKind
                objectName: "userKindRadio"
                text: qsTr("User")
                checked: KubeconfigForm.kind === "user"
                Accessible.name: qsTr("A kubeconfig for a user")
                onToggled: if (userKind.checked) KubeconfigForm.kind = "user"
            }
            RadioButton {
                id: nodeKind
                objectName: "nodeKindRadio"
                text: qsTr("Node agent")
                checked: KubeconfigForm.kind === "node"
                Accessible.name: qsTr("A kubeconfig for a node agent (kubelet)")
                onToggled: if (nodeKind.checked) KubeconfigForm.kind = "node"
            }
        }

        GridLayout {
            Layout.fillWidth: true
            columns: 2
            columnSpacing: 10
            rowSpacing: 6

            Label {
                textFormat: Text.PlainText
                text: KubeconfigForm.kind === "node" ? qsTr("Node") : qsTr("Name")
                color: Theme.text
            }
            // The field and, under it, what is wrong with it.
            ColumnLayout {
                Layout.fillWidth: true
                spacing: 2
                TextField {
                    id: nameField
                    objectName: "kubeconfigNameField"
                    Layout.fillWidth: true
                    text: KubeconfigForm.name
                    placeholderText: KubeconfigForm.kind === "node" ? qsTr("node-1 (the user becomes system:node:node-1)")
                                                                    : qsTr("alice")
                    font.family: Theme.monoFont
                    selectByMouse: true
                    Accessible.name: KubeconfigForm.kind === "node" ? qsTr("Name of the node") : qsTr("User name")
                    onTextEdited: KubeconfigForm.name = nameField.text
                    onAccepted: issueButton.clicked()
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "kubeconfigNameError"
                    Layout.fillWidth: true
                    visible: KubeconfigForm.nameError.length > 0
                    text: KubeconfigForm.nameError
                    color: Theme.error
                    font.pixelSize: 12
                    wrapMode: Text.Wrap
                }
            }
            Label {
                textFormat: Text.PlainText
                text: qsTr("Groups")
                color: Theme.text
            }
            TextField {
                id: groupsField
                objectName: "kubeconfigGroupsField"
                Layout.fillWidth: true
                text: KubeconfigForm.groups
                placeholderText: KubeconfigForm.kind === "node" ? qsTr("extra groups besides system:nodes (optional)")
                                                                : qsTr("devs, ops (optional)")
                font.family: Theme.monoFont
                selectByMouse: true
                Accessible.name: qsTr("Groups, comma-separated")
                onTextEdited: KubeconfigForm.groups = groupsField.text
                onAccepted: issueButton.clicked()
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            Button {
                id: issueButton
                objectName: "issueKubeconfigButton"
                text: KubeconfigForm.issued ? qsTr("Issue another") : qsTr("Issue")
                highlighted: !KubeconfigForm.issued
                enabled: !KubeconfigForm.busy && AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Issue a certificate and kubeconfig")
                onClicked: KubeconfigForm.issue()
            }
            BusyIndicator {
                Layout.preferredWidth: 22
                Layout.preferredHeight: 22
                running: KubeconfigForm.busy
                visible: running
            }
            Label {
                objectName: "kubeconfigError"
                Layout.fillWidth: true
                visible: KubeconfigForm.error.length > 0
                text: KubeconfigForm.error // the server's message, untranslated
                color: Theme.error
                wrapMode: Text.Wrap
                textFormat: Text.PlainText
            }
        }

        Label {
            textFormat: Text.PlainText
            objectName: "kubeconfigSummary"
            Layout.fillWidth: true
            visible: KubeconfigForm.issued
            text: KubeconfigForm.summary
            color: Theme.text
            font.family: Theme.monoFont
            font.pixelSize: 12
            elide: Text.ElideRight
        }
        ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.preferredHeight: 330
            Layout.minimumHeight: 120
            visible: KubeconfigForm.issued
            clip: true

            TextArea {
                textFormat: TextEdit.PlainText
                objectName: "redactedKubeconfig"
                text: KubeconfigForm.redacted
                readOnly: true
                selectByMouse: true
                font.family: Theme.monoFont
                font.pixelSize: 12
                color: Theme.text
                Accessible.name: qsTr("The kubeconfig, with its keys and certificates omitted")
                background: Rectangle {
                    color: Theme.stripe
                    radius: 4
                    border.color: Theme.border
                }
            }
        }
        Label {
            textFormat: Text.PlainText
            objectName: "kubeconfigSaved"
            Layout.fillWidth: true
            visible: KubeconfigForm.savedPath.length > 0 || KubeconfigForm.saveError.length > 0
            text: KubeconfigForm.saveError.length > 0 ? KubeconfigForm.saveError
                                                       : qsTr("Saved to %1 (mode 0600: readable by you only).").arg(KubeconfigForm.savedPath)
            color: KubeconfigForm.saveError.length > 0 ? Theme.error : Theme.success
            wrapMode: Text.WrapAnywhere
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 4
        background: null
        RowLayout {
            anchors.right: parent.right
            spacing: 8
            Button {
                objectName: "saveKubeconfigButton"
                text: qsTr("Save kubeconfig…")
                highlighted: KubeconfigForm.issued
                enabled: KubeconfigForm.issued
                Accessible.name: qsTr("Save the kubeconfig with its private key to a file")
                onClicked: root.saveRequested()
            }
            Button {
                objectName: "closeKubeconfigButton"
                text: qsTr("Close")
                Accessible.name: qsTr("Close; an unsaved kubeconfig is forgotten")
                onClicked: root.close()
            }
        }
    }
}
