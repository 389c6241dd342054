import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The admin API answers over HTTPS with a certificate no authority on this computer vouches
// for (a backend started with --admin-tls uses its own): trust it on first use by its SHA-256
// fingerprint, as ssh does, after comparing it with the one the backend logged at start. A
// changed certificate is called out: someone may be in between.
Dialog {
    id: root

    objectName: "trustDialog"
    title: AdminClient.certificateChanged ? qsTr("The server's certificate changed")
                                          : qsTr("Trust this server's certificate?")
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(560, parent ? parent.width - 48 : 560)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

    background: Rectangle {
        color: Theme.surface
        radius: 8
        border.color: AdminClient.certificateChanged ? Theme.error : Theme.border
    }

    header: Label {
        textFormat: Text.PlainText
        text: root.title
        color: AdminClient.certificateChanged ? Theme.error : Theme.text
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
            wrapMode: Text.Wrap
            color: Theme.text
            text: qsTr("%1 presents a certificate that no authority on this computer vouches for. Compare its fingerprint with the one the backend logged at start (“admin API over HTTPS; certificate SHA-256 fingerprint …”) or that its administrator gave you.")
                .arg(AdminClient.adminUrlText)
        }
        Label {
            textFormat: Text.PlainText
            text: qsTr("SHA-256 fingerprint")
            font.weight: Font.DemiBold
            color: Theme.text
        }
        TextArea {
            textFormat: TextEdit.PlainText
            objectName: "fingerprint"
            Layout.fillWidth: true
            readOnly: true
            selectByMouse: true
            wrapMode: TextEdit.WrapAnywhere
            text: AdminClient.untrustedFingerprint
            font.family: Theme.monoFont
            color: Theme.text
            Accessible.name: qsTr("SHA-256 fingerprint of the server's certificate")
            background: Rectangle {
                color: Theme.control
                radius: Theme.radius
            }
        }
        Label {
            textFormat: Text.PlainText
            objectName: "changedWarning"
            Layout.fillWidth: true
            visible: AdminClient.certificateChanged
            wrapMode: Text.Wrap
            color: Theme.error
            text: qsTr("This is not the certificate you trusted for this server before. Someone may be intercepting the connection — or the server has a new certificate. Trust it only if its administrator confirms the new fingerprint.")
            Accessible.role: Accessible.AlertMessage
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "trustButton"
            text: AdminClient.certificateChanged ? qsTr("Trust the new certificate")
                                                 : qsTr("Trust and connect")
            highlighted: !AdminClient.certificateChanged
            onClicked: root.accept()
        }
        Button {
            objectName: "distrustButton"
            text: qsTr("Cancel")
            onClicked: root.reject()
        }
    }

    onAccepted: AdminClient.trustCertificate()
}
