import QtQuick
import QtQuick.Controls
import Gatehouse

// A check's pass / fail / skip mark in the JWT decoder: a coloured circle with a sign.
Rectangle {
    id: root

    required property string status

    implicitWidth: 20
    implicitHeight: 20
    radius: 10
    color: root.status === "pass" ? Theme.success : root.status === "fail" ? Theme.error : Theme.neutral
    Accessible.ignored: true
    Label {
        textFormat: Text.PlainText
        anchors.centerIn: parent
        text: root.status === "pass" ? "✓" : root.status === "fail" ? "✗" : "–"
        color: Theme.onAccent
        font.pixelSize: 12
        font.weight: Font.Bold
    }
}
