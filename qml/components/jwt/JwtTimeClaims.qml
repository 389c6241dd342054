pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The decoded token's time claims (exp, nbf, iat, ...) in local time and relative to now.
ColumnLayout {
    id: root

    spacing: 10 // as the result's column
    visible: JwtInspector.timeClaims.length > 0

    SectionHeading {
        text: qsTr("Times")
    }
    ColumnLayout {
        objectName: "timeClaims"
        Layout.fillWidth: true
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
                    textFormat: Text.PlainText
                    Layout.preferredWidth: 150
                    text: qsTr("%1 (%2)").arg(claimRow.modelData.label).arg(claimRow.modelData.claim)
                    color: Theme.mutedText
                    elide: Text.ElideRight
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "localTime"
                    text: claimRow.modelData.localText
                    color: Theme.text
                    font.family: Theme.monoFont
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "relativeTime"
                    Layout.fillWidth: true
                    text: claimRow.modelData.relativeText
                    color: Theme.mutedText
                    elide: Text.ElideRight
                }
            }
        }
    }
}
