import QtQuick
import QtQuick.Controls
import Gatehouse

// One figure on the dashboard: a heading, a big value and a caption below; compact tiles have
// a smaller value and less height.
Rectangle {
    id: root

    property string heading
    property string value
    property string caption
    property string badge
    property bool compact: false

    implicitWidth: 220
    implicitHeight: root.compact ? 76 : 104
    color: Theme.surface
    radius: Theme.radius
    border.color: Theme.border
    Accessible.role: Accessible.StaticText
    Accessible.name: root.caption.length > 0
                     ? qsTr("%1: %2, %3").arg(root.heading).arg(root.value).arg(root.caption)
                     : qsTr("%1: %2").arg(root.heading).arg(root.value)

    Column {
        anchors.fill: parent
        anchors.margins: root.compact ? 12 : 16
        anchors.leftMargin: root.compact ? 14 : 16
        spacing: root.compact ? 2 : 4

        Row {
            width: parent.width
            spacing: 8

            Label {
                textFormat: Text.PlainText
                text: root.heading
                color: Theme.mutedText
                font.pixelSize: 12
                font.weight: Font.DemiBold
                font.capitalization: Font.AllUppercase
                font.letterSpacing: 0.6
            }
            Rectangle {
                visible: root.badge.length > 0
                anchors.verticalCenter: parent.verticalCenter
                width: badgeLabel.implicitWidth + 10
                height: badgeLabel.implicitHeight + 2
                radius: 3
                color: Theme.accentSoft

                Label {
                    textFormat: Text.PlainText
                    id: badgeLabel
                    anchors.centerIn: parent
                    text: root.badge
                    color: Theme.accent
                    font.pixelSize: 10
                    font.weight: Font.DemiBold
                }
            }
        }

        Label {
            textFormat: Text.PlainText
            objectName: "tileValue"
            width: parent.width
            text: root.value
            color: Theme.text
            font.pixelSize: root.compact ? 20 : 28
            font.weight: Font.DemiBold
            elide: Text.ElideRight
        }

        Label {
            textFormat: Text.PlainText
            width: parent.width
            text: root.caption
            color: Theme.mutedText
            elide: Text.ElideMiddle
        }
    }
}
