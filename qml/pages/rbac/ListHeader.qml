import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The explanation line, busy indicator and Reload above a list of the RBAC page.
RowLayout {
    id: root

    required property bool online
    property string text
    property bool busy
    signal reloadRequested()

    Layout.fillWidth: true
    spacing: 8
    Label {
        textFormat: Text.PlainText
        Layout.fillWidth: true
        text: root.text
        color: Theme.mutedText
        elide: Text.ElideRight
    }
    BusyIndicator {
        Layout.preferredWidth: 24
        Layout.preferredHeight: 24
        running: root.busy
        visible: running
    }
    Button {
        text: qsTr("Reload")
        enabled: root.online
        Accessible.name: qsTr("Reload this list")
        onClicked: root.reloadRequested()
    }
}
