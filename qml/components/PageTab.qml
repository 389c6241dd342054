import QtQuick
import QtQuick.Controls
import Gatehouse

// A tab of a page's TabBar: the label, underlined in the accent colour when current.
TabButton {
    id: root

    width: implicitWidth
    leftPadding: 14
    rightPadding: 14
    topPadding: 8
    bottomPadding: 10
    Accessible.name: root.text

    contentItem: Label {
        textFormat: Text.PlainText
        text: root.text
        color: root.checked ? Theme.accent : root.hovered ? Theme.text : Theme.mutedText
        font.weight: root.checked ? Font.DemiBold : Font.Medium
        horizontalAlignment: Text.AlignHCenter
    }
    background: Item {
        Rectangle {
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.bottom: parent.bottom
            height: 2
            color: Theme.accent
            visible: root.checked
        }
    }
}
