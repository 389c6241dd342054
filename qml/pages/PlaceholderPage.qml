import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// A page whose service has not arrived yet: says what will live here.
Pane {
    id: root

    // Which Navigation entry this page stands for ("clients", ...).
    required property string pageId
    readonly property int row: Navigation.indexOf(root.pageId)
    readonly property string title: Navigation.titles[root.row] ?? ""
    readonly property url iconSource: Navigation.iconAt(root.row)
    readonly property string description: Navigation.descriptions[root.row] ?? ""
    readonly property string arrivesWith: Navigation.arrivals[root.row] ?? ""

    padding: 20
    background: Rectangle { color: Theme.background }

    Rectangle {
        anchors.centerIn: parent
        width: Math.min(parent.width, 560)
        height: content.implicitHeight + 64
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border

        ColumnLayout {
            id: content

            anchors.left: parent.left
            anchors.right: parent.right
            anchors.verticalCenter: parent.verticalCenter
            anchors.margins: 32
            spacing: 12

            RowLayout {
                Layout.fillWidth: true
                spacing: 16

                Rectangle {
                    Layout.preferredWidth: 48
                    Layout.preferredHeight: 48
                    Layout.alignment: Qt.AlignTop
                    radius: 24
                    color: Theme.accent

                    Image {
                        anchors.centerIn: parent
                        source: root.iconSource
                        sourceSize.width: 24
                        sourceSize.height: 24
                        Accessible.ignored: true
                    }
                }

                ColumnLayout {
                    Layout.fillWidth: true
                    spacing: 6

                    Label {
                        objectName: "placeholderTitle"
                        Layout.fillWidth: true
                        text: root.title
                        color: Theme.text
                        font.pixelSize: 20
                        font.weight: Font.DemiBold
                        wrapMode: Text.Wrap
                    }
                    Label {
                        Layout.fillWidth: true
                        text: root.description
                        color: Theme.mutedText
                        wrapMode: Text.Wrap
                        lineHeight: 1.15
                    }
                }
            }
            Rectangle {
                Layout.topMargin: 4
                Layout.leftMargin: 64
                implicitWidth: arrives.implicitWidth + 20
                implicitHeight: arrives.implicitHeight + 10
                radius: height / 2
                color: Theme.accentSoft
                visible: root.arrivesWith.length > 0

                Label {
                    id: arrives
                    objectName: "arrivesWith"
                    anchors.centerIn: parent
                    text: root.arrivesWith
                    color: Theme.accent
                    font.weight: Font.Medium
                }
            }
        }
    }
}
