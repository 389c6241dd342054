import QtQuick
import QtQuick.Controls
import Gatehouse

ApplicationWindow {
    id: root

    width: 1100
    height: 720
    minimumWidth: 820
    minimumHeight: 520
    visible: true
    title: qsTr("Gatehouse")
    color: Theme.background

    palette.window: Theme.background
    palette.windowText: Theme.text
    palette.base: Theme.surface
    palette.alternateBase: Theme.background
    palette.text: Theme.text
    palette.button: Theme.control
    palette.buttonText: Theme.text
    palette.highlight: Theme.accent
    palette.highlightedText: Theme.surface
    palette.placeholderText: Theme.mutedText
    palette.mid: Theme.border

    header: ConsoleHeader {
        pageTitle: Navigation.titles[view.currentIndex] ?? ""
        onConnectRequested: connectDialog.open()
    }

    ConsoleView {
        id: view
        anchors.fill: parent
        onConnectRequested: connectDialog.open()
    }

    ConnectDialog {
        id: connectDialog
    }

    Connections {
        target: AdminClient
        function onConnectionStateChanged() {
            if (AdminClient.connectionState === AdminClient.Unauthorized)
                connectDialog.open()
        }
    }

    // Started without a token: ask for one (the URL is prefilled).
    Component.onCompleted: {
        if (AdminClient.connectionState === AdminClient.Disconnected
                || AdminClient.connectionState === AdminClient.Unauthorized)
            connectDialog.open()
    }
}
