import QtQuick
import QtQuick.Controls
import Gatehouse

// A status as a coloured pill: its family (progress, ok, waiting, exception, cancelled)
// picks the colour, text is the translated status name (shown whole in a tooltip when the
// pill is too narrow for it).
Rectangle {
    id: root

    property string family
    property string text
    readonly property color tone: Theme.statusColor(root.family)

    objectName: "statusBadge"
    implicitWidth: label.implicitWidth + 16
    implicitHeight: label.implicitHeight + 6
    radius: height / 2
    color: Theme.statusSoftColor(root.family)
    border.color: Qt.rgba(root.tone.r, root.tone.g, root.tone.b, 0.35)
    Accessible.role: Accessible.StaticText
    Accessible.name: root.text

    Label {
        textFormat: Text.PlainText
        id: label
        anchors.centerIn: parent
        width: Math.min(implicitWidth, root.width - 12)
        text: root.text
        color: root.tone
        font.pixelSize: 12
        font.weight: Font.DemiBold
        elide: Text.ElideRight
    }
    // Cut to fit a narrow row: the whole text on hover.
    HoverHandler {
        id: hover
    }
    PlainToolTip {
        objectName: "statusBadgeTip"
        visible: hover.hovered && label.truncated
        text: root.text
    }
}
