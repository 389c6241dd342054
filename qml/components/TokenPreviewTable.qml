pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The claims of a token preview: name, value, and where it comes from with the server's
// reason.
ColumnLayout {
    id: root

    property var claims: []

    spacing: 4

    Repeater {
        model: root.claims
        delegate: RowLayout {
            id: claimRow
            required property var modelData
            required property int index
            objectName: "previewClaim-" + claimRow.modelData.claim
            Layout.fillWidth: true
            spacing: 10
            Label {
                textFormat: Text.PlainText
                Layout.preferredWidth: 150
                Layout.maximumWidth: 150
                Layout.alignment: Qt.AlignTop
                wrapMode: Text.WrapAnywhere
                text: claimRow.modelData.claim
                color: Theme.text
                font.family: Theme.monoFont
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
                objectName: "claimValue"
                Layout.fillWidth: true
                Layout.preferredWidth: 3
                Layout.alignment: Qt.AlignTop
                text: claimRow.modelData.value
                color: Theme.text
                font.family: Theme.monoFont
                wrapMode: Text.WrapAnywhere
            }
            ColumnLayout {
                Layout.fillWidth: true
                Layout.preferredWidth: 4
                Layout.alignment: Qt.AlignTop
                spacing: 0
                Label {
                    textFormat: Text.PlainText
                    objectName: "claimSource"
                    text: claimRow.modelData.sourceText
                    color: Theme.accent
                    font.pixelSize: 12
                    font.weight: Font.DemiBold
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "claimDetail"
                    Layout.fillWidth: true
                    text: claimRow.modelData.detail // the server's words
                    color: Theme.mutedText
                    font.pixelSize: 12
                    wrapMode: Text.Wrap
                }
            }
        }
    }
}
