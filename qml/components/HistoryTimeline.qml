pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// An order's status history as a vertical timeline, oldest at the top; the current status
// has a filled, larger dot.
Column {
    id: root

    property alias model: repeater.model
    readonly property int count: repeater.count

    objectName: "historyTimeline"
    spacing: 0
    Accessible.role: Accessible.List
    Accessible.name: qsTr("Status history")

    Repeater {
        id: repeater

        delegate: Item {
            id: entry

            required property int index
            required property string statusText
            required property string statusFamily
            required property string atText
            required property bool current
            readonly property color tone: Theme.statusColor(entry.statusFamily)

            objectName: "historyEntry"
            width: root.width
            height: 34
            Accessible.role: Accessible.ListItem
            Accessible.name: qsTr("%1 at %2").arg(entry.statusText).arg(entry.atText)

            // The line to the next entry.
            Rectangle {
                x: 7
                y: 17
                width: 2
                height: 34
                color: Theme.border
                visible: entry.index < repeater.count - 1
            }
            Rectangle {
                x: entry.current ? 2 : 4
                anchors.verticalCenter: parent.verticalCenter
                width: entry.current ? 12 : 8
                height: width
                radius: width / 2
                color: entry.current ? entry.tone : Theme.surface
                border.color: entry.tone
                border.width: 2
            }
            RowLayout {
                anchors.left: parent.left
                anchors.leftMargin: 26
                anchors.right: parent.right
                anchors.verticalCenter: parent.verticalCenter
                spacing: 10
                Label {
                    textFormat: Text.PlainText
                    Layout.fillWidth: true
                    text: entry.statusText
                    color: entry.current ? entry.tone : Theme.text
                    font.weight: entry.current ? Font.DemiBold : Font.Normal
                    elide: Text.ElideRight
                }
                Label {
                    textFormat: Text.PlainText
                    text: entry.atText
                    color: Theme.mutedText
                    font.pixelSize: 12
                    font.family: Theme.monoFont
                }
            }
        }
    }
}
