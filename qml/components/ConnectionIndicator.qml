import QtQuick
import QtQuick.Controls
import Gatehouse

// Coloured dot and "Embedded · Online": where the backend runs and whether we reach it.
Row {
    id: root

    readonly property int connectionState: AdminClient.connectionState
    readonly property color dotColor: {
        switch (root.connectionState) {
        case AdminClient.Online: return Theme.online
        case AdminClient.Connecting: return Theme.connecting
        case AdminClient.Offline: return Theme.offline
        case AdminClient.Unauthorized: return Theme.unauthorized
        case AdminClient.Untrusted: return Theme.unauthorized
        default: return Theme.idle
        }
    }
    readonly property string stateText: {
        switch (root.connectionState) {
        case AdminClient.Online: return qsTr("Online")
        case AdminClient.Connecting: return qsTr("Connecting")
        case AdminClient.Offline: return qsTr("Offline")
        case AdminClient.Unauthorized: return qsTr("Unauthorized")
        case AdminClient.Untrusted: return qsTr("Untrusted certificate")
        default: return qsTr("Not connected")
        }
    }
    // A scoped admin token names itself; the root token needs no mention.
    readonly property string tokenName: AdminClient.tokenName
    readonly property string text: root.tokenName.length > 0
        ? qsTr("%1 · %2 · token “%3”")
            .arg(AdminClient.embedded ? qsTr("Embedded") : qsTr("Remote"))
            .arg(root.stateText).arg(root.tokenName)
        : qsTr("%1 · %2")
            .arg(AdminClient.embedded ? qsTr("Embedded") : qsTr("Remote"))
            .arg(root.stateText)

    spacing: 8
    Accessible.role: Accessible.StaticText
    Accessible.name: qsTr("Connection: %1").arg(root.text)

    Rectangle {
        objectName: "connectionDot"
        anchors.verticalCenter: parent.verticalCenter
        width: 10
        height: 10
        radius: 5
        color: root.dotColor

        SequentialAnimation on opacity {
            running: root.connectionState === AdminClient.Connecting
            loops: Animation.Infinite
            alwaysRunToEnd: true
            NumberAnimation { to: 0.3; duration: 500 }
            NumberAnimation { to: 1; duration: 500 }
        }
    }

    Label {
        textFormat: Text.PlainText
        objectName: "connectionText"
        anchors.verticalCenter: parent.verticalCenter
        text: root.text
        color: Theme.text
        font.weight: Font.Medium
    }
}
