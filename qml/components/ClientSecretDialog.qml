import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Shows a client's credentials after registering it or rotating its secret: the client_id
// and, for a confidential client, the client_secret once, each with a copy button. The
// secret lives only in this dialog while it is open; closing it forgets the secret.
Dialog {
    id: root

    property string clientId
    property string clientName
    property string secret
    property bool rotated: false
    property string copiedWhat // "id", "secret" or ""

    // Opens the dialog for these credentials.
    function reveal(id: string, name: string, newSecret: string, wasRotated: bool) {
        root.clientId = id
        root.clientName = name
        root.secret = newSecret
        root.rotated = wasRotated
        root.copiedWhat = ""
        root.open()
    }

    objectName: "clientSecretDialog"
    title: root.rotated ? qsTr("New client secret for %1").arg(root.clientName)
                        : qsTr("Client %1 registered").arg(root.clientName)
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(600, parent ? parent.width - 48 : 600)
    // Deliberately no close on a click outside: the secret must not vanish by accident.
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

    onClosed: {
        root.secret = "" // not kept anywhere once the dialog is gone
        root.copiedWhat = ""
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
        elide: Text.ElideRight
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 10

        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            text: root.secret.length > 0
                  ? qsTr("The client authenticates at the token endpoint with its client_id and this secret.")
                  : qsTr("A public client has no secret: it proves itself with PKCE when it trades its authorization code.")
            color: Theme.text
            wrapMode: Text.Wrap
        }

        GridLayout {
            Layout.fillWidth: true
            columns: 3
            columnSpacing: 8
            rowSpacing: 8

            Label {
                textFormat: Text.PlainText
                text: "client_id"
                color: Theme.mutedText
                font.family: Theme.monoFont
            }
            TextField {
                objectName: "clientIdField"
                Layout.fillWidth: true
                text: root.clientId
                readOnly: true
                selectByMouse: true
                font.family: Theme.monoFont
                Accessible.name: qsTr("Client id")
            }
            Button {
                objectName: "copyClientIdButton"
                text: root.copiedWhat === "id" ? qsTr("Copied") : qsTr("Copy")
                Accessible.name: qsTr("Copy the client id to the clipboard")
                onClicked: {
                    Clients.copyToClipboard(root.clientId)
                    root.copiedWhat = "id"
                }
            }

            Label {
                textFormat: Text.PlainText
                visible: root.secret.length > 0
                text: "client_secret"
                color: Theme.mutedText
                font.family: Theme.monoFont
            }
            TextField {
                objectName: "clientSecretField"
                visible: root.secret.length > 0
                Layout.fillWidth: true
                text: root.secret
                readOnly: true
                selectByMouse: true
                font.family: Theme.monoFont
                Accessible.name: qsTr("Client secret")
            }
            Button {
                objectName: "copyClientSecretButton"
                visible: root.secret.length > 0
                text: root.copiedWhat === "secret" ? qsTr("Copied") : qsTr("Copy")
                Accessible.name: qsTr("Copy the client secret to the clipboard")
                onClicked: {
                    Clients.copySecretToClipboard(root.secret)
                    root.copiedWhat = "secret"
                }
            }
        }

        Rectangle {
            objectName: "clientSecretOnceNote"
            Layout.fillWidth: true
            visible: root.secret.length > 0
            implicitHeight: note.implicitHeight + 16
            radius: 4
            color: Theme.warningSoft
            border.color: Qt.rgba(Theme.warning.r, Theme.warning.g, Theme.warning.b, 0.4)
            Label {
                textFormat: Text.PlainText
                id: note
                anchors.fill: parent
                anchors.margins: 8
                text: qsTr("You won't see this secret again. Gatehouse keeps only a hash of it; copy it now and hand it to the client's developers over a safe channel.")
                color: Theme.text
                font.weight: Font.DemiBold
                wrapMode: Text.Wrap
            }
        }

        Label {
            textFormat: Text.PlainText
            objectName: "previousClientSecretNote"
            Layout.fillWidth: true
            visible: root.rotated
            text: qsTr("The previous secret stopped working: the client needs the new one before its next token request.")
            color: Theme.mutedText
            wrapMode: Text.Wrap
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 4
        background: null
        Button {
            objectName: "clientSecretDoneButton"
            anchors.right: parent.right
            text: qsTr("Done")
            highlighted: true
            Accessible.name: root.secret.length > 0 ? qsTr("Close; the secret is not shown again")
                                                    : qsTr("Close")
            onClicked: root.close()
        }
    }
}
