import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// An API error inline on a page. The message is the server's own text, shown untranslated.
Rectangle {
    id: root

    property string message

    signal dismissed()

    objectName: "errorBanner"
    visible: root.message.length > 0
    implicitHeight: row.implicitHeight + 16
    radius: Theme.radius
    color: Theme.errorSoft
    border.color: Qt.rgba(Theme.error.r, Theme.error.g, Theme.error.b, 0.45)

    RowLayout {
        id: row
        anchors.fill: parent
        anchors.margins: 8
        anchors.leftMargin: 14
        spacing: 12

        Label {
            textFormat: Text.PlainText
            text: qsTr("Error")
            color: Theme.error
            font.weight: Font.DemiBold
        }
        Label {
            objectName: "errorText"
            Layout.fillWidth: true
            text: root.message
            color: Theme.text
            wrapMode: Text.Wrap
            textFormat: Text.PlainText
            Accessible.role: Accessible.AlertMessage
            Accessible.name: root.message
        }
        Button {
            objectName: "dismissErrorButton"
            text: qsTr("Dismiss")
            flat: true
            Accessible.name: qsTr("Dismiss the error")
            onClicked: root.dismissed()
        }
    }
}
