import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Shows a customer's new webhook signing secret (whsec_…) once, with a copy button. The
// secret lives only in this dialog while it is open; closing it forgets the secret.
Dialog {
    id: root

    property string customerName
    property string secret
    // When the previous secret stops working (after a rotation); "" for a new customer.
    property string previousSecretExpiresText
    property bool copied: false

    // Opens the dialog for this secret.
    function reveal(name: string, newSecret: string, expiresText: string) {
        root.customerName = name
        root.secret = newSecret
        root.previousSecretExpiresText = expiresText
        root.copied = false
        root.open()
    }

    objectName: "secretRevealDialog"
    title: root.previousSecretExpiresText.length > 0 ? qsTr("New webhook secret for %1").arg(root.customerName)
                                                     : qsTr("Webhook secret for %1").arg(root.customerName)
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(560, parent ? parent.width - 48 : 560)
    // Deliberately no close on a click outside: the secret must not vanish by accident.
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

    onClosed: {
        root.secret = "" // not kept anywhere once the dialog is gone
        root.copied = false
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
            text: qsTr("The customer's receiver verifies the webhook-signature header with this secret.")
            color: Theme.text
            wrapMode: Text.Wrap
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            TextField {
                objectName: "secretField"
                Layout.fillWidth: true
                text: root.secret
                readOnly: true
                selectByMouse: true
                font.family: Theme.monoFont
                Accessible.name: qsTr("Webhook secret")
            }
            Button {
                objectName: "copySecretButton"
                text: root.copied ? qsTr("Copied") : qsTr("Copy")
                Accessible.name: qsTr("Copy the secret to the clipboard")
                onClicked: {
                    Customers.copySecretToClipboard(root.secret)
                    root.copied = true
                }
            }
        }

        Rectangle {
            objectName: "secretOnceNote"
            Layout.fillWidth: true
            implicitHeight: note.implicitHeight + 16
            radius: 4
            color: Theme.warningSoft
            border.color: Qt.rgba(Theme.warning.r, Theme.warning.g, Theme.warning.b, 0.4)
            Label {
                textFormat: Text.PlainText
                id: note
                anchors.fill: parent
                anchors.margins: 8
                text: qsTr("You won't see this secret again. Gatehouse shows it only now; copy it and hand it to the customer over a safe channel.")
                color: Theme.text
                font.weight: Font.DemiBold
                wrapMode: Text.Wrap
            }
        }

        Label {
            textFormat: Text.PlainText
            objectName: "previousSecretNote"
            Layout.fillWidth: true
            visible: root.previousSecretExpiresText.length > 0
            text: qsTr("The previous secret keeps working until %1; until then every webhook carries a signature for each.")
                  .arg(root.previousSecretExpiresText)
            color: Theme.mutedText
            wrapMode: Text.Wrap
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 4
        background: null
        Button {
            objectName: "secretDoneButton"
            anchors.right: parent.right
            text: qsTr("Done")
            highlighted: true
            Accessible.name: qsTr("Close; the secret is not shown again")
            onClicked: root.close()
        }
    }
}
