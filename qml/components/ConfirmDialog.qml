import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Asks before an action that cannot be undone (delete a client, rotate its secret, revoke a
// token). confirmed() runs the action; Cancel and Escape do nothing.
Dialog {
    id: root

    property string message
    property string confirmText: qsTr("Confirm")
    // Deletes or revokes something: the confirm button is in the error colour.
    property bool destructive: false

    signal confirmed()

    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(480, parent ? parent.width - 48 : 480)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 4
    standardButtons: Dialog.NoButton

    background: Rectangle {
        color: Theme.surface
        radius: 8
        border.color: Theme.border
    }

    header: Label {
        textFormat: Text.PlainText
        text: root.title
        color: Theme.text
        padding: 20
        bottomPadding: 4
        font.pixelSize: 17
        font.weight: Font.DemiBold
        elide: Text.ElideRight
    }

    ColumnLayout {
        anchors.fill: parent
        Label {
            textFormat: Text.PlainText
            objectName: "confirmMessage"
            Layout.fillWidth: true
            text: root.message
            color: Theme.text
            wrapMode: Text.Wrap
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 4
        background: null
        RowLayout {
            anchors.right: parent.right
            spacing: 8
            Button {
                objectName: "confirmButton"
                text: root.confirmText
                highlighted: !root.destructive
                palette.button: root.destructive ? Theme.error : Theme.accent
                palette.buttonText: Theme.onAccent
                Accessible.name: root.confirmText
                onClicked: {
                    root.close()
                    root.confirmed()
                }
            }
            Button {
                objectName: "cancelConfirmButton"
                text: qsTr("Cancel")
                Accessible.name: qsTr("Cancel")
                onClicked: root.close()
            }
        }
    }
}
