pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The JWT decoder's result: the verdict and why, the expiry countdown, warnings, what this
// server knows (and a comparison with what the client would get now), the checks, the times,
// and header and payload.
Card {
    id: root

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

    implicitHeight: output.implicitHeight + 32

    Label {
        textFormat: Text.PlainText
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
                    textFormat: Text.PlainText
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
                textFormat: Text.PlainText
                visible: !JwtInspector.hasExpiry
                text: qsTr("No exp claim: this token never expires.")
                color: Theme.error
            }
            Item { Layout.fillWidth: true }
            Label {
                textFormat: Text.PlainText
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
        JwtServerFacts {
            Layout.fillWidth: true
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
            textFormat: Text.PlainText
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
                textFormat: Text.PlainText
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
        JwtCheckList {
            Layout.fillWidth: true
        }

        // The time claims in local time.
        JwtTimeClaims {
            Layout.fillWidth: true
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
