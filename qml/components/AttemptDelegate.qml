import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// One delivery attempt in the attempt log: number, time, trigger, HTTP status, latency, the
// first lines of the response body and the error, failed ones in the error colour.
Rectangle {
    id: root

    required property int index
    required property int number
    required property string atText
    required property string triggerText
    required property string statusText
    required property string latencyText
    required property string responsePreview
    required property string error
    required property bool failed

    objectName: "attempt-" + root.number
    implicitHeight: column.implicitHeight + 16
    color: root.failed ? Theme.errorSoft : Theme.surface
    radius: 4
    border.color: root.failed ? Qt.rgba(Theme.error.r, Theme.error.g, Theme.error.b, 0.35)
                              : Theme.border
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("Attempt %1 at %2: %3").arg(root.number).arg(root.atText).arg(root.statusText)

    ColumnLayout {
        id: column
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.top: parent.top
        anchors.margins: 8
        anchors.leftMargin: 10
        spacing: 4

        RowLayout {
            Layout.fillWidth: true
            spacing: 10
            Label {
                textFormat: Text.PlainText
                text: qsTr("#%1").arg(root.number)
                color: Theme.mutedText
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
                text: root.atText
                color: Theme.text
                font.family: Theme.monoFont
            }
            Label {
                textFormat: Text.PlainText
                text: root.triggerText
                color: Theme.mutedText
                font.pixelSize: 12
            }
            Item { Layout.fillWidth: true }
            Label {
                textFormat: Text.PlainText
                objectName: "attemptStatus"
                text: root.statusText
                color: root.failed ? Theme.error : Theme.success
                font.family: Theme.monoFont
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
                text: root.latencyText
                color: Theme.mutedText
                font.pixelSize: 12
            }
        }
        Label {
            Layout.fillWidth: true
            visible: root.error.length > 0
            text: root.error // as the backend recorded it
            color: Theme.error
            wrapMode: Text.Wrap
            textFormat: Text.PlainText
        }
        Label {
            objectName: "responsePreview"
            Layout.fillWidth: true
            visible: root.responsePreview.length > 0
            text: root.responsePreview
            color: Theme.mutedText
            font.family: Theme.monoFont
            font.pixelSize: 11
            wrapMode: Text.WrapAnywhere
            textFormat: Text.PlainText
            maximumLineCount: 4
            elide: Text.ElideRight
        }
    }
}
