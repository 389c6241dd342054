pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The backend at a glance: connection, uptime, listeners with their request counters, and
// the live event stream.
Pane {
    id: root

    signal connectRequested()

    padding: 20
    background: Rectangle { color: Theme.background }

    ColumnLayout {
        anchors.fill: parent
        spacing: 16

        // Shown whenever the dashboard is not live.
        Rectangle {
            id: banner

            readonly property int connectionState: AdminClient.connectionState
            readonly property color tone: {
                switch (banner.connectionState) {
                case AdminClient.Connecting: return Theme.connecting
                case AdminClient.Offline: return Theme.offline
                case AdminClient.Unauthorized: return Theme.unauthorized
                default: return Theme.idle
                }
            }

            objectName: "connectionBanner"
            Layout.fillWidth: true
            implicitHeight: bannerRow.implicitHeight + 20
            visible: banner.connectionState !== AdminClient.Online
            radius: Theme.radius
            color: Qt.rgba(banner.tone.r, banner.tone.g, banner.tone.b, 0.10)
            border.color: Qt.rgba(banner.tone.r, banner.tone.g, banner.tone.b, 0.45)

            RowLayout {
                id: bannerRow
                anchors.fill: parent
                anchors.margins: 10
                anchors.leftMargin: 14
                spacing: 12

                Label {
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    color: Theme.text
                    Accessible.role: Accessible.AlertMessage
                    text: {
                        switch (banner.connectionState) {
                        case AdminClient.Connecting:
                            return qsTr("Connecting to %1…").arg(AdminClient.adminUrlText)
                        case AdminClient.Offline:
                            return qsTr("The backend is unreachable (%1). Reconnecting automatically…")
                                .arg(AdminClient.lastError)
                        case AdminClient.Unauthorized:
                            return qsTr("The server refused the admin token: %1").arg(AdminClient.lastError)
                        default:
                            return qsTr("Not connected to a Gatehouse server.")
                        }
                    }
                }
                Button {
                    visible: banner.connectionState === AdminClient.Offline
                    text: qsTr("Retry now")
                    Accessible.name: qsTr("Retry now")
                    onClicked: AdminClient.refresh()
                }
                Button {
                    visible: banner.connectionState === AdminClient.Unauthorized
                             || banner.connectionState === AdminClient.Disconnected
                    text: qsTr("Connect…")
                    Accessible.name: qsTr("Connect to a server")
                    onClicked: root.connectRequested()
                }
            }
        }

        GridLayout {
            Layout.fillWidth: true
            columns: 3
            rowSpacing: Theme.spacing
            columnSpacing: Theme.spacing

            StatTile {
                objectName: "uptimeTile"
                Layout.fillWidth: true
                heading: qsTr("Uptime")
                value: AdminClient.uptimeText
                caption: AdminClient.serverVersion.length > 0
                         ? qsTr("Version %1").arg(AdminClient.serverVersion) : ""
            }
            StatTile {
                objectName: "eventsTile"
                Layout.fillWidth: true
                heading: qsTr("Events received")
                value: AdminClient.eventCount.toLocaleString(Qt.locale(), "f", 0)
                caption: AdminClient.eventCount > 0
                         ? qsTr("Last at %1").arg(AdminClient.lastEventAt.toLocaleTimeString(Qt.locale(), "HH:mm:ss"))
                         : qsTr("None yet")
            }
            StatTile {
                objectName: "databaseTile"
                Layout.fillWidth: true
                heading: qsTr("Database")
                value: AdminClient.databaseDriver.length > 0 ? AdminClient.databaseDriver : "–"
                caption: AdminClient.schemaVersion > 0
                         ? qsTr("Schema %1 · %2").arg(AdminClient.schemaVersion)
                                                 .arg(AdminClient.databasePath)
                         : ""
            }

            Repeater {
                model: AdminClient.listenerModel

                delegate: StatTile {
                    id: listenerTile

                    required property string name
                    required property string title
                    required property string url
                    required property bool tls
                    required property double requests

                    objectName: "listenerTile-" + listenerTile.name
                    Layout.fillWidth: true
                    heading: listenerTile.title
                    badge: listenerTile.tls ? qsTr("TLS") : ""
                    value: listenerTile.requests.toLocaleString(Qt.locale(), "f", 0)
                    caption: qsTr("requests · %1").arg(listenerTile.url)
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.topMargin: 4
            spacing: Theme.spacing

            Label {
                text: qsTr("Latest events")
                color: Theme.text
                font.pixelSize: 15
                font.weight: Font.DemiBold
            }
            Label {
                text: qsTr("%n shown", "", EventModel.count)
                color: Theme.mutedText
            }
            Item { Layout.fillWidth: true }
            CheckBox {
                objectName: "showStatsCheck"
                text: qsTr("Show stats events")
                checked: EventModel.showStats
                Accessible.name: text
                onToggled: EventModel.showStats = checked
            }
            Button {
                text: qsTr("Clear")
                enabled: EventModel.count > 0
                Accessible.name: qsTr("Clear the event list")
                onClicked: EventModel.clear()
            }
        }

        LiveBadge {
            objectName: "eventListLive"
            Layout.fillWidth: true
            live: EventModel.live
        }
        Rectangle {
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.minimumHeight: 120
            color: Theme.surface
            radius: Theme.radius
            border.color: Theme.border

            ListView {
                id: eventList

                objectName: "eventList"
                anchors.fill: parent
                anchors.margins: 1
                clip: true
                model: EventModel
                boundsBehavior: Flickable.StopAtBounds
                Accessible.role: Accessible.List
                Accessible.name: qsTr("Latest events")
                ScrollBar.vertical: ScrollBar {}

                delegate: EventDelegate {
                    width: ListView.view.width
                }
            }

            Label {
                anchors.centerIn: parent
                visible: eventList.count === 0
                text: qsTr("No events yet. They appear here as the backend reports them.")
                color: Theme.mutedText
            }

            NotPermittedPane {
                live: EventModel.live
            }
        }
    }
}
