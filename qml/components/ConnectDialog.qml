import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Asks for the admin API URL and token and hands them to AdminClient.connectTo().
Dialog {
    id: root

    objectName: "connectDialog"
    title: qsTr("Connect to a Gatehouse server")
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(480, parent ? parent.width - 48 : 480)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

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

    onAboutToShow: {
        urlField.text = AdminClient.adminUrlText
        tokenField.text = ""
        if (urlField.text.length > 0)
            tokenField.forceActiveFocus()
        else
            urlField.forceActiveFocus()
    }
    onAccepted: {
        AdminClient.connectTo(urlField.text.trim(), tokenField.text.trim())
        tokenField.text = "" // the token lives in AdminClient only
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 6

        Label {
            textFormat: Text.PlainText
            text: qsTr("Admin URL")
            font.weight: Font.DemiBold
        }
        TextField {
            id: urlField
            objectName: "urlField"
            Layout.fillWidth: true
            placeholderText: "http://127.0.0.1:8081"
            inputMethodHints: Qt.ImhUrlCharactersOnly | Qt.ImhNoAutoUppercase
            selectByMouse: true
            Accessible.name: qsTr("Admin URL")
            onAccepted: tokenField.forceActiveFocus()
        }

        Label {
            textFormat: Text.PlainText
            Layout.topMargin: 8
            text: qsTr("Admin token")
            font.weight: Font.DemiBold
        }

        TextField {
            id: tokenField
            objectName: "tokenField"
            Layout.fillWidth: true
            echoMode: TextInput.Password
            placeholderText: qsTr("Contents of <data-dir>/admin-token")
            inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
            selectByMouse: true
            Accessible.name: qsTr("Admin token")
            onAccepted: if (connectButton.enabled) root.accept()
        }

        Label {
            textFormat: Text.PlainText
            objectName: "connectError"
            Layout.fillWidth: true
            Layout.topMargin: 8
            visible: AdminClient.connectionState === AdminClient.Unauthorized
                     && AdminClient.lastError.length > 0
            text: qsTr("The server refused the token: %1").arg(AdminClient.lastError)
            color: Theme.offline
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
                id: connectButton
                objectName: "dialogConnectButton"
                text: qsTr("Connect")
                highlighted: true
                enabled: urlField.text.trim().length > 0 && tokenField.text.trim().length > 0
                Accessible.name: qsTr("Connect")
                onClicked: root.accept()
            }
            Button {
                objectName: "dialogCancelButton"
                text: qsTr("Cancel")
                Accessible.name: qsTr("Cancel")
                onClicked: root.reject()
            }
        }
    }
}
