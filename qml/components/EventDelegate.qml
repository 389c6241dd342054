import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// One row of the event list: time, type, summary, the instance it happened on (with several
// on one database), sequence number.
Rectangle {
    id: root

    required property int index
    required property double seq
    required property string type
    required property string timeText
    required property string summary
    required property string instance

    implicitHeight: 34
    color: root.index % 2 === 0 ? Theme.surface : Theme.stripe
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("%1 %2: %3").arg(root.timeText).arg(root.type).arg(root.summary)

    RowLayout {
        anchors.fill: parent
        anchors.leftMargin: 12
        anchors.rightMargin: 12
        spacing: 12

        Label {
            textFormat: Text.PlainText
            text: root.timeText
            color: Theme.mutedText
            font.family: "monospace"
            Layout.preferredWidth: 64
        }

        Rectangle {
            Layout.preferredWidth: 150
            Layout.preferredHeight: 22
            radius: 4
            color: Theme.accentSoft

            Label {
                textFormat: Text.PlainText
                anchors.fill: parent
                anchors.leftMargin: 8
                anchors.rightMargin: 8
                verticalAlignment: Text.AlignVCenter
                text: root.type
                color: Theme.accent
                font.weight: Font.Medium
                elide: Text.ElideRight
            }
        }

        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            text: root.summary
            color: Theme.text
            elide: Text.ElideRight
        }

        Label {
            objectName: "eventInstance"
            textFormat: Text.PlainText
            visible: root.instance.length > 0
            text: root.instance
            color: Theme.mutedText
            font.pixelSize: 11
            elide: Text.ElideMiddle
            Layout.maximumWidth: 180
        }

        Label {
            textFormat: Text.PlainText
            text: root.seq >= 0 ? "#" + root.seq : ""
            color: Theme.mutedText
            font.pixelSize: 11
        }
    }
}
