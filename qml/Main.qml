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

    // The controls (Fusion) take their colours from here, light or dark with Theme. Roles with a
    // disabled colour are set per group: a binding on the whole palette (palette.text) would
    // overwrite the disabled group each time it is evaluated again (on every theme switch).
    // Disabled text is the grey the pages already use for their own disabled buttons.
    palette.window: Theme.background
    palette.alternateBase: Theme.background
    palette.brightText: Theme.onAccent
    palette.highlight: Theme.accent
    palette.highlightedText: Theme.onAccent
    palette.link: Theme.accent
    // (Not per group: placeholderText is a later addition that QQuickColorGroup does not
    // always expose to QML in Qt 6.4, "not available due to component versioning".)
    palette.placeholderText: Theme.mutedText
    palette.mid: Theme.border
    palette.midlight: Theme.controlMidlight
    palette.light: Theme.controlLight
    palette.dark: Theme.controlDark
    palette.shadow: Theme.shadow
    palette.toolTipBase: Theme.toolTip
    palette.toolTipText: Theme.toolTipText
    palette.active.windowText: Theme.text
    palette.inactive.windowText: Theme.text
    palette.disabled.windowText: Theme.idle
    palette.active.text: Theme.text
    palette.inactive.text: Theme.text
    palette.disabled.text: Theme.idle
    palette.active.buttonText: Theme.text
    palette.inactive.buttonText: Theme.text
    palette.disabled.buttonText: Theme.idle
    palette.active.base: Theme.field
    palette.inactive.base: Theme.field
    palette.disabled.base: Theme.disabledBase
    palette.active.button: Theme.control
    palette.inactive.button: Theme.control
    palette.disabled.button: Theme.disabledButton

    // The page shown (ConsoleWindowState saves it with the window's geometry).
    property alias currentPage: view.currentIndex

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
