pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The JWT decoder: paste any JWT (and, optionally, the key to verify it with and the
// audience and issuer to expect); the server decodes and checks it. Left the input, right
// the verdict with its reasons, the expiry countdown, the time claims in local time, and
// header and payload.
RowLayout {
    id: root

    spacing: Theme.spacing

    // A pass / fail / skip mark: a coloured circle with a sign.
    component CheckMark: Rectangle {
        id: mark

        required property string status

        implicitWidth: 20
        implicitHeight: 20
        radius: 10
        color: mark.status === "pass" ? Theme.success : mark.status === "fail" ? Theme.error : Theme.neutral
        Accessible.ignored: true
        Label {
            anchors.centerIn: parent
            text: mark.status === "pass" ? "✓" : mark.status === "fail" ? "✗" : "–"
            color: Theme.onAccent
            font.pixelSize: 12
            font.weight: Font.Bold
        }
    }
    component Card: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border
    }
    component CodeView: TextArea {
        readOnly: true
        selectByMouse: true
        wrapMode: TextEdit.WrapAnywhere
        font.family: Theme.monoFont
        font.pixelSize: 12
        color: Theme.text
        background: Rectangle {
            color: Theme.stripe
            radius: 4
            border.color: Theme.border
        }
    }

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

    // Input.
    Card {
        Layout.fillWidth: true
        Layout.preferredWidth: 5
        Layout.alignment: Qt.AlignTop
        implicitHeight: input.implicitHeight + 32

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

    // Result.
    Card {
        objectName: "jwtResult"
        Layout.fillWidth: true
        Layout.preferredWidth: 6
        Layout.alignment: Qt.AlignTop
        implicitHeight: output.implicitHeight + 32

        Label {
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.top: parent.top
            anchors.margins: 16
            visible: !JwtInspector.inspected && JwtInspector.error.length === 0
            text: qsTr("Paste a token, or mint a demo token above, to see its header, payload, times and whether this server would accept it.")
            color: Theme.mutedText
            wrapMode: Text.Wrap
        }

        ColumnLayout {
            id: output
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.top: parent.top
            anchors.margins: 16
            spacing: 10
            visible: JwtInspector.inspected || JwtInspector.error.length > 0

            Label {
                objectName: "jwtError"
                Layout.fillWidth: true
                visible: JwtInspector.error.length > 0
                text: JwtInspector.error // the server's message, untranslated
                color: Theme.error
                wrapMode: Text.Wrap
                textFormat: Text.PlainText
            }

            // The verdict, and why.
            Rectangle {
                objectName: "verdictBanner"
                Layout.fillWidth: true
                visible: JwtInspector.inspected
                implicitHeight: verdictRow.implicitHeight + 16
                radius: 4
                color: JwtInspector.valid ? Theme.successSoft : Theme.errorSoft
                border.color: JwtInspector.valid
                              ? Qt.rgba(Theme.success.r, Theme.success.g, Theme.success.b, 0.45)
                              : Qt.rgba(Theme.error.r, Theme.error.g, Theme.error.b, 0.45)
                RowLayout {
                    id: verdictRow
                    anchors.fill: parent
                    anchors.margins: 8
                    spacing: 10
                    CheckMark {
                        Layout.alignment: Qt.AlignTop
                        status: JwtInspector.valid ? "pass" : "fail"
                    }
                    Label {
                        objectName: "verdictText"
                        Layout.fillWidth: true
                        text: JwtInspector.verdict // the server's sentence, untranslated
                        color: Theme.text
                        font.weight: Font.DemiBold
                        wrapMode: Text.Wrap
                        textFormat: Text.PlainText
                        Accessible.role: Accessible.AlertMessage
                        Accessible.name: JwtInspector.verdict
                    }
                }
            }

            RowLayout {
                Layout.fillWidth: true
                visible: JwtInspector.decoded
                spacing: 10
                Rectangle {
                    visible: JwtInspector.hasExpiry
                    implicitWidth: countdown.implicitWidth + 20
                    implicitHeight: countdown.implicitHeight + 8
                    radius: height / 2
                    color: JwtInspector.expired ? Theme.errorSoft : Theme.accentSoft
                    Label {
                        id: countdown
                        objectName: "countdownText"
                        anchors.centerIn: parent
                        text: JwtInspector.countdownText
                        color: JwtInspector.expired ? Theme.error : Theme.accent
                        font.family: Theme.monoFont
                        font.weight: Font.DemiBold
                        Accessible.role: Accessible.StaticText
                        Accessible.name: JwtInspector.countdownText
                    }
                }
                Label {
                    visible: !JwtInspector.hasExpiry
                    text: qsTr("No exp claim: this token never expires.")
                    color: Theme.error
                }
                Item { Layout.fillWidth: true }
                Label {
                    objectName: "keySource"
                    text: qsTr("Key: %1").arg(JwtInspector.keySourceText)
                    color: Theme.mutedText
                    font.pixelSize: 12
                }
            }

            // Timestamps that look like milliseconds.
            Repeater {
                model: JwtInspector.warnings
                delegate: Label {
                    required property string modelData
                    required property int index
                    objectName: "jwtWarning-" + index
                    Layout.fillWidth: true
                    text: qsTr("Warning: %1").arg(modelData) // the server's sentence
                    color: Theme.warning
                    wrapMode: Text.Wrap
                    textFormat: Text.PlainText
                }
            }

            // What this server knows about the token.
            SectionHeading {
                visible: JwtInspector.hasServer
                text: qsTr("On this server")
            }
            GridLayout {
                objectName: "serverFacts"
                Layout.fillWidth: true
                visible: JwtInspector.hasServer
                columns: 2
                columnSpacing: 12
                rowSpacing: 4

                Label { text: qsTr("Issued here"); color: Theme.mutedText }
                Label {
                    objectName: "issuedHere"
                    text: JwtInspector.issuedHere ? qsTr("yes") : qsTr("no: another issuer")
                    color: JwtInspector.issuedHere ? Theme.text : Theme.warning
                }
                Label { text: qsTr("Signing key"); color: Theme.mutedText }
                Label {
                    objectName: "keyState"
                    Layout.fillWidth: true
                    text: JwtInspector.keyText
                    color: JwtInspector.keyState === "active" ? Theme.text : Theme.warning
                    wrapMode: Text.WrapAnywhere
                }
                Label { text: qsTr("Stored token"); color: Theme.mutedText }
                RowLayout {
                    Layout.fillWidth: true
                    spacing: 8
                    Label {
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
                    visible: JwtInspector.clientText.length > 0
                    text: qsTr("Client")
                    color: Theme.mutedText
                }
                Label {
                    objectName: "clientExists"
                    Layout.fillWidth: true
                    visible: JwtInspector.clientText.length > 0
                    text: JwtInspector.clientText
                    color: JwtInspector.clientExists ? Theme.text : Theme.error
                    wrapMode: Text.WrapAnywhere
                }
                Label {
                    visible: JwtInspector.userText.length > 0
                    text: qsTr("User")
                    color: Theme.mutedText
                }
                Label {
                    objectName: "userExists"
                    Layout.fillWidth: true
                    visible: JwtInspector.userText.length > 0
                    text: JwtInspector.userText
                    color: JwtInspector.userExists ? Theme.text : Theme.error
                    wrapMode: Text.WrapAnywhere
                }
            }
            Label {
                objectName: "revokeError"
                Layout.fillWidth: true
                visible: JwtInspector.revokeError.length > 0
                text: JwtInspector.revokeError
                color: Theme.error
                wrapMode: Text.Wrap
                textFormat: Text.PlainText
            }
            RowLayout {
                Layout.fillWidth: true
                visible: JwtInspector.decoded && JwtInspector.issuedHere
                spacing: 10
                Button {
                    objectName: "compareTokenButton"
                    text: qsTr("Compare with what this client would get now")
                    enabled: !TokenPreview.busy && AdminClient.connectionState === AdminClient.Online
                    onClicked: TokenPreview.compare(JwtInspector.payload)
                }
                BusyIndicator {
                    Layout.preferredWidth: 22
                    Layout.preferredHeight: 22
                    running: TokenPreview.busy && TokenPreview.comparing
                    visible: running
                }
            }
            Label {
                objectName: "compareError"
                Layout.fillWidth: true
                visible: TokenPreview.comparing && TokenPreview.error.length > 0
                text: TokenPreview.error
                color: Theme.error
                wrapMode: Text.Wrap
                textFormat: Text.PlainText
            }
            Label {
                objectName: "compareSummary"
                Layout.fillWidth: true
                visible: TokenPreview.comparing && TokenPreview.loaded
                text: TokenPreview.differences.length === 0
                      ? qsTr("The client would get the same claims now (apart from iat, exp and jti).")
                      : qsTr("%n claim(s) would differ now:", "", TokenPreview.differences.length)
                color: TokenPreview.differences.length === 0 ? Theme.success : Theme.warning
                font.weight: Font.DemiBold
                wrapMode: Text.Wrap
            }
            Repeater {
                model: TokenPreview.comparing ? TokenPreview.differences : []
                delegate: Label {
                    required property var modelData
                    required property int index
                    objectName: "difference-" + modelData.claim
                    Layout.fillWidth: true
                    text: qsTr("%1: this token %2, now %3").arg(modelData.claim)
                        .arg(modelData.token.length > 0 ? modelData.token : qsTr("(none)"))
                        .arg(modelData.now.length > 0 ? modelData.now : qsTr("(none)"))
                    color: Theme.text
                    font.family: Theme.monoFont
                    wrapMode: Text.WrapAnywhere
                }
            }

            // One line per check.
            SectionHeading {
                visible: JwtInspector.checks.length > 0
                text: qsTr("Checks")
            }
            ColumnLayout {
                id: checkList

                // The widest verdict word ("passed", "nicht bestanden", ...), so the details
                // line up in every language.
                readonly property real statusWidth: {
                    let widest = 62
                    for (let i = 0; i < checkRepeater.count; ++i) {
                        const row = checkRepeater.itemAt(i)
                        if (row)
                            widest = Math.max(widest, row.statusImplicitWidth)
                    }
                    return widest
                }

                objectName: "checkList"
                Layout.fillWidth: true
                visible: JwtInspector.checks.length > 0
                spacing: 4
                Repeater {
                    id: checkRepeater

                    model: JwtInspector.checks
                    delegate: RowLayout {
                        id: checkRow

                        required property var modelData
                        readonly property real statusImplicitWidth: statusLabel.implicitWidth

                        objectName: "check-" + checkRow.modelData.name
                        Layout.fillWidth: true
                        spacing: 8
                        Accessible.role: Accessible.StaticText
                        Accessible.name: qsTr("%1 %2: %3").arg(checkRow.modelData.name)
                                                           .arg(checkRow.modelData.statusText)
                                                           .arg(checkRow.modelData.detail)
                        CheckMark {
                            Layout.alignment: Qt.AlignTop
                            status: checkRow.modelData.status
                        }
                        Label {
                            Layout.preferredWidth: 70
                            Layout.alignment: Qt.AlignBaseline
                            text: checkRow.modelData.name
                            color: Theme.text
                            font.family: Theme.monoFont
                            font.weight: Font.DemiBold
                        }
                        Label {
                            id: statusLabel

                            objectName: "checkStatus"
                            Layout.preferredWidth: checkList.statusWidth
                            Layout.alignment: Qt.AlignBaseline
                            text: checkRow.modelData.statusText
                            color: checkRow.modelData.status === "pass" ? Theme.success
                                   : checkRow.modelData.status === "fail" ? Theme.error : Theme.mutedText
                            font.weight: Font.DemiBold
                        }
                        Label {
                            objectName: "checkDetail"
                            Layout.fillWidth: true
                            Layout.alignment: Qt.AlignBaseline
                            text: checkRow.modelData.detail // the server's, untranslated
                            color: Theme.text
                            wrapMode: Text.Wrap
                            textFormat: Text.PlainText
                        }
                    }
                }
            }

            // The time claims in local time.
            SectionHeading {
                visible: JwtInspector.timeClaims.length > 0
                text: qsTr("Times")
            }
            ColumnLayout {
                objectName: "timeClaims"
                Layout.fillWidth: true
                visible: JwtInspector.timeClaims.length > 0
                spacing: 2
                Repeater {
                    model: JwtInspector.timeClaims
                    delegate: RowLayout {
                        id: claimRow

                        required property var modelData

                        objectName: "time-" + claimRow.modelData.claim
                        Layout.fillWidth: true
                        spacing: 12
                        Label {
                            Layout.preferredWidth: 150
                            text: qsTr("%1 (%2)").arg(claimRow.modelData.label).arg(claimRow.modelData.claim)
                            color: Theme.mutedText
                            elide: Text.ElideRight
                        }
                        Label {
                            objectName: "localTime"
                            text: claimRow.modelData.localText
                            color: Theme.text
                            font.family: Theme.monoFont
                        }
                        Label {
                            objectName: "relativeTime"
                            Layout.fillWidth: true
                            text: claimRow.modelData.relativeText
                            color: Theme.mutedText
                            elide: Text.ElideRight
                        }
                    }
                }
            }

            // Header and payload.
            SectionHeading {
                visible: JwtInspector.decoded
                text: qsTr("Header")
            }
            CodeView {
                objectName: "headerText"
                Layout.fillWidth: true
                visible: JwtInspector.decoded
                text: JwtInspector.headerText
                Accessible.name: qsTr("JWT header")
            }
            SectionHeading {
                visible: JwtInspector.decoded
                text: qsTr("Payload")
            }
            CodeView {
                objectName: "payloadText"
                Layout.fillWidth: true
                visible: JwtInspector.decoded
                text: JwtInspector.payloadText
                Accessible.name: qsTr("JWT payload")
            }
        }
    }
}
