pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// What this server knows about the decoded token: issued here, its signing key, the stored
// token (Revoke), its client and user.
ColumnLayout {
    id: root

    spacing: 10 // as the result's column
    visible: JwtInspector.hasServer

    SectionHeading {
        text: qsTr("On this server")
    }
    GridLayout {
        objectName: "serverFacts"
        Layout.fillWidth: true
        columns: 2
        columnSpacing: 12
        rowSpacing: 4

        Label { textFormat: Text.PlainText; text: qsTr("Issued here"); color: Theme.mutedText }
        Label {
            textFormat: Text.PlainText
            objectName: "issuedHere"
            text: JwtInspector.issuedHere ? qsTr("yes") : qsTr("no: not signed with this server's keys")
            color: JwtInspector.issuedHere ? Theme.text : Theme.warning
        }
        Label { textFormat: Text.PlainText; text: qsTr("Signing key"); color: Theme.mutedText }
        Label {
            textFormat: Text.PlainText
            objectName: "keyState"
            Layout.fillWidth: true
            text: JwtInspector.keyText
            color: JwtInspector.keyState === "active" ? Theme.text : Theme.warning
            wrapMode: Text.WrapAnywhere
        }
        Label { textFormat: Text.PlainText; text: qsTr("Stored token"); color: Theme.mutedText }
        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            Label {
                textFormat: Text.PlainText
                objectName: "storedState"
                Layout.fillWidth: true
                text: JwtInspector.storedText
                color: JwtInspector.storedState === "revoked" ? Theme.error : Theme.text
                wrapMode: Text.Wrap
            }
            Button {
                objectName: "revokeInspectedButton"
                visible: JwtInspector.revocable
                enabled: !JwtInspector.busy
                text: qsTr("Revoke")
                Accessible.name: qsTr("Revoke this token")
                onClicked: JwtInspector.revoke()
            }
        }
        Label {
            textFormat: Text.PlainText
            visible: JwtInspector.clientText.length > 0
            text: qsTr("Client")
            color: Theme.mutedText
        }
        Label {
            textFormat: Text.PlainText
            objectName: "clientExists"
            Layout.fillWidth: true
            visible: JwtInspector.clientText.length > 0
            text: JwtInspector.clientText
            color: JwtInspector.clientExists ? Theme.text : Theme.error
            wrapMode: Text.WrapAnywhere
        }
        Label {
            textFormat: Text.PlainText
            visible: JwtInspector.userText.length > 0
            text: qsTr("User")
            color: Theme.mutedText
        }
        Label {
            textFormat: Text.PlainText
            objectName: "userExists"
            Layout.fillWidth: true
            visible: JwtInspector.userText.length > 0
            text: JwtInspector.userText
            color: JwtInspector.userExists ? Theme.text : Theme.error
            wrapMode: Text.WrapAnywhere
        }
    }
}
