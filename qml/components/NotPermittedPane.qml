import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Covers a live view's list when the admin token may not read it (the backend answered
// 403): says so, in the server's words, instead of showing an empty list that looks like
// "nothing there". Place it as the last child of the list's card.
Rectangle {
    id: root

    property LiveState live: null

    objectName: "notPermitted"
    anchors.fill: parent
    anchors.margins: 1
    radius: Theme.radius
    color: Theme.surface
    visible: root.live !== null && root.live.state === LiveState.NotPermitted

    // Swallow clicks and wheel events meant for the list underneath.
    MouseArea {
        anchors.fill: parent
        acceptedButtons: Qt.AllButtons
        onWheel: wheel => wheel.accepted = true
    }

    ColumnLayout {
        anchors.centerIn: parent
        width: Math.min(parent.width - 48, 460)
        spacing: 8

        Label {
            textFormat: Text.PlainText
            objectName: "notPermittedTitle"
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
            text: qsTr("Not permitted")
            color: Theme.unauthorized
            font.pixelSize: 16
            font.weight: Font.DemiBold
        }
        Label {
            textFormat: Text.PlainText
            objectName: "notPermittedMessage"
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
            text: root.live ? root.live.message : ""
            color: Theme.text
        }
        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
            text: qsTr("This admin token may not read this view. Connect with a token that may, "
                       + "e.g. one from “gatehouse admin admin-tokens create NAME --allow AREA:read”.")
            color: Theme.mutedText
        }
    }

    Accessible.role: Accessible.AlertMessage
    Accessible.name: qsTr("Not permitted: %1").arg(root.live ? root.live.message : "")
}
