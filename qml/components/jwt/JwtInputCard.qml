pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The JWT decoder's input: the token, the key to verify it with (optional) and the audience
// and issuer to expect; Decode and verify, Clear.
Card {
    id: root

    implicitHeight: input.implicitHeight + 32

    // The fields follow the inspector when it changes on its own (a minted token, Clear).
    function showInput() {
        if (tokenField.text !== JwtInspector.token)
            tokenField.text = JwtInspector.token
        if (keyField.text !== JwtInspector.key)
            keyField.text = JwtInspector.key
        if (audienceField.text !== JwtInspector.audience)
            audienceField.text = JwtInspector.audience
        if (issuerField.text !== JwtInspector.issuer)
            issuerField.text = JwtInspector.issuer
    }
    Connections {
        target: JwtInspector
        function onInputChanged() {
            root.showInput()
        }
    }
    Component.onCompleted: root.showInput()

    ColumnLayout {
        id: input
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.top: parent.top
        anchors.margins: 16
        spacing: 6

        SectionHeading { text: qsTr("JWT") }
        ScrollView {
            Layout.fillWidth: true
            Layout.preferredHeight: 150
            clip: true

            TextArea {
                textFormat: TextEdit.PlainText
                id: tokenField
                objectName: "jwtField"
                placeholderText: qsTr("Paste a JWT (eyJ…); it is decoded as soon as you stop typing.")
                wrapMode: TextEdit.WrapAnywhere
                font.family: Theme.monoFont
                font.pixelSize: 12
                selectByMouse: true
                Accessible.name: qsTr("JWT to decode")
                background: Rectangle {
                    color: Theme.surface
                    radius: 3
                    border.color: tokenField.activeFocus ? Theme.accent : Theme.border
                }
                onTextChanged: JwtInspector.token = tokenField.text
            }
        }

        SectionHeading {
            Layout.topMargin: 6
            text: qsTr("Verification key (optional)")
        }
        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            text: qsTr("Empty: this server's JWKS. Or paste a JWK Set, one JWK, or a PEM public key or certificate.")
            color: Theme.mutedText
            font.pixelSize: 12
            wrapMode: Text.Wrap
        }
        ScrollView {
            Layout.fillWidth: true
            Layout.preferredHeight: 84
            clip: true

            TextArea {
                textFormat: TextEdit.PlainText
                id: keyField
                objectName: "keyField"
                placeholderText: "{\"keys\": [ … ]}   -----BEGIN PUBLIC KEY-----"
                wrapMode: TextEdit.WrapAnywhere
                font.family: Theme.monoFont
                font.pixelSize: 12
                selectByMouse: true
                Accessible.name: qsTr("Verification key: a JWKS, a JWK or a PEM key")
                background: Rectangle {
                    color: Theme.surface
                    radius: 3
                    border.color: JwtInspector.keyError.length > 0 ? Theme.error
                                  : keyField.activeFocus ? Theme.accent : Theme.border
                }
                onTextChanged: JwtInspector.key = keyField.text
            }
        }
        Label {
            textFormat: Text.PlainText
            objectName: "keyError"
            Layout.fillWidth: true
            visible: JwtInspector.keyError.length > 0
            text: JwtInspector.keyError
            color: Theme.error
            font.pixelSize: 12
            wrapMode: Text.Wrap
        }

        GridLayout {
            Layout.fillWidth: true
            Layout.topMargin: 6
            columns: 2
            columnSpacing: 10
            rowSpacing: 4
            SectionHeading { text: qsTr("Expected audience") }
            SectionHeading { text: qsTr("Expected issuer") }
            TextField {
                id: audienceField
                objectName: "audienceField"
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                placeholderText: qsTr("not checked")
                selectByMouse: true
                Accessible.name: qsTr("Expected audience")
                onTextChanged: JwtInspector.audience = audienceField.text
            }
            TextField {
                id: issuerField
                objectName: "issuerField"
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                placeholderText: JwtInspector.keyKind.length > 0 ? qsTr("not checked") : qsTr("this server")
                selectByMouse: true
                Accessible.name: qsTr("Expected issuer")
                onTextChanged: JwtInspector.issuer = issuerField.text
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.topMargin: 6
            spacing: 8
            Button {
                objectName: "decodeButton"
                text: qsTr("Decode and verify")
                highlighted: true
                enabled: JwtInspector.token.trim().length > 0 && !JwtInspector.busy
                Accessible.name: qsTr("Decode and verify the JWT")
                onClicked: JwtInspector.inspect()
            }
            Button {
                objectName: "clearJwtButton"
                text: qsTr("Clear")
                Accessible.name: qsTr("Clear the decoder")
                onClicked: JwtInspector.clear()
            }
            BusyIndicator {
                Layout.preferredWidth: 24
                Layout.preferredHeight: 24
                running: JwtInspector.busy
                visible: running
            }
            Item { Layout.fillWidth: true }
        }
    }
}
