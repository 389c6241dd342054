pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The list of pages on the left. Up/Down or a click selects; Ctrl+1…9 is in ConsoleView.
Rectangle {
    id: root

    property alias currentIndex: list.currentIndex

    signal tourRequested()

    color: Theme.rail
    implicitWidth: Theme.railWidth

    ListView {
        id: list

        objectName: "navigationList"
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.top: parent.top
        anchors.bottom: tourButton.top
        anchors.topMargin: 8
        model: Navigation
        clip: true
        keyNavigationEnabled: true
        boundsBehavior: Flickable.StopAtBounds
        highlightMoveDuration: 0
        Accessible.role: Accessible.List
        Accessible.name: qsTr("Pages")

        delegate: ItemDelegate {
            id: entry

            required property int index
            required property string pageId
            required property string title
            required property url iconSource
            required property string shortcut

            objectName: "nav-" + entry.pageId
            width: ListView.view.width
            height: 42
            leftPadding: 16
            rightPadding: 12
            highlighted: ListView.isCurrentItem
            text: entry.title
            focusPolicy: Qt.NoFocus
            Accessible.name: qsTr("%1 (%2)").arg(entry.title).arg(entry.shortcut)
            Accessible.role: Accessible.PageTab

            contentItem: RowLayout {
                spacing: 12
                Image {
                    source: entry.iconSource
                    sourceSize.width: 20
                    sourceSize.height: 20
                    Layout.preferredWidth: 20
                    Layout.preferredHeight: 20
                    opacity: entry.highlighted ? 1 : 0.75
                    Accessible.ignored: true
                }
                Label {
                    textFormat: Text.PlainText
                    Layout.fillWidth: true
                    text: entry.title
                    elide: Text.ElideRight
                    color: entry.highlighted ? Theme.railSelectedText : Theme.railText
                    font.weight: entry.highlighted ? Font.DemiBold : Font.Normal
                }
                Label {
                    textFormat: Text.PlainText
                    text: entry.shortcut
                    visible: entry.hovered || entry.highlighted
                    color: Theme.railText
                    opacity: 0.6
                    font.pixelSize: 11
                }
            }

            background: Rectangle {
                color: entry.highlighted ? Theme.railSelected
                                         : entry.hovered ? Theme.railHover : "transparent"
                Rectangle {
                    width: 3
                    height: parent.height
                    color: Theme.accent
                    visible: entry.highlighted
                }
            }

            onClicked: list.currentIndex = entry.index
        }
    }

    // At the bottom: the guided tour for training sessions.
    ItemDelegate {
        id: tourButton
        objectName: "tourButton"
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        anchors.bottomMargin: 8
        height: 38
        leftPadding: 16
        text: qsTr("Guided tour")
        focusPolicy: Qt.TabFocus
        Accessible.name: qsTr("Start the guided tour")
        contentItem: Label {
            textFormat: Text.PlainText
            text: tourButton.text
            color: Theme.railText
            font.pixelSize: 13
            verticalAlignment: Text.AlignVCenter
        }
        background: Rectangle {
            color: tourButton.hovered ? Qt.lighter(Theme.rail, 1.25) : "transparent"
        }
        onClicked: root.tourRequested()
    }
}
