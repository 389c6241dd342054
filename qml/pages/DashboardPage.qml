pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The backend at a glance: the last hour's activity per minute (orders, webhook deliveries,
// tokens issued, cluster requests), each tile leading to its page; uptime, events, database
// and listeners with their request counters; and the live event stream.
Pane {
    id: root

    signal connectRequested()
    // A tile asks for its page: a Navigation page id, and a section of it ("requests" for the
    // RBAC page's Requests tab) or "".
    signal pageRequested(string pageId, string section)

    readonly property bool wide: root.availableWidth >= 820

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
                    textFormat: Text.PlainText
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

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.spacing

            Label {
                textFormat: Text.PlainText
                text: qsTr("Last hour")
                color: Theme.text
                font.pixelSize: 15
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
                text: qsTr("per minute")
                color: Theme.mutedText
            }
            LiveBadge {
                objectName: "statsLive"
                Layout.fillWidth: true
                Layout.leftMargin: 8
                live: DashboardStats.live
            }
        }

        GridLayout {
            objectName: "chartTiles"
            Layout.fillWidth: true
            columns: root.wide ? 4 : 2
            rowSpacing: Theme.spacing
            columnSpacing: Theme.spacing

            ChartTile {
                objectName: "ordersTile"
                area: "orders"
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                heading: qsTr("Orders")
                pageTitle: qsTr("Orders")
                permitted: DashboardStats.ordersVisible
                value: DashboardStats.ordersTotal.toLocaleString(Qt.locale(), "f", 0)
                caption: qsTr("%n this minute", "", DashboardStats.ordersThisMinute)
                legend: DashboardStats.ordersTotal > 0
                        ? [{ label: qsTr("busiest minute"), color: Theme.accent, value: DashboardStats.ordersPeak }]
                        : []
                onActivated: root.pageRequested("orders", "")

                SparkBars {
                    anchors.fill: parent
                    kind: "orders"
                    colors: [Theme.accent]
                    peak: DashboardStats.ordersPeak
                    tipFormat: qsTr("%1 · %2 orders")
                }
            }
            ChartTile {
                objectName: "deliveriesTile"
                area: "orders"
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                heading: qsTr("Deliveries")
                pageTitle: qsTr("Deliveries")
                permitted: DashboardStats.ordersVisible
                value: DashboardStats.deliveriesSucceededTotal.toLocaleString(Qt.locale(), "f", 0)
                secondary: DashboardStats.deliveriesFailedTotal > 0
                           ? qsTr("%1 failed").arg(DashboardStats.deliveriesFailedTotal.toLocaleString(Qt.locale(), "f", 0))
                           : ""
                secondaryColor: Theme.error
                caption: qsTr("webhooks delivered")
                legend: [
                    { label: qsTr("succeeded"), color: Theme.success, value: DashboardStats.deliveriesSucceededTotal },
                    { label: qsTr("failed"), color: Theme.error, value: DashboardStats.deliveriesFailedTotal }
                ]
                onActivated: root.pageRequested("deliveries", "")

                SparkBars {
                    anchors.fill: parent
                    kind: "deliveries"
                    colors: [Theme.success, Theme.error]
                    peak: DashboardStats.deliveriesPeak
                    tipFormat: qsTr("%1 · %2 succeeded, %3 failed")
                }
            }
            ChartTile {
                id: tokensTile

                // One colour per grant in legend order; "other" grey.
                readonly property var grantColors: {
                    const palette = ["#2f6fd6", "#8a5cd6", "#1a9aa0"]
                    const grants = DashboardStats.grants
                    let colors = []
                    for (let i = 0; i < grants.length; ++i)
                        colors.push(grants[i].grant === "other" ? Theme.neutral : palette[i % palette.length])
                    return colors
                }

                objectName: "tokensTile"
                area: "oauth"
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                heading: qsTr("Tokens issued")
                pageTitle: qsTr("Tokens & JWT")
                permitted: DashboardStats.oauthVisible
                value: DashboardStats.tokensTotal.toLocaleString(Qt.locale(), "f", 0)
                caption: DashboardStats.grants.length > 0 ? qsTr("access tokens by grant type")
                                                          : qsTr("no tokens issued")
                legend: {
                    const grants = DashboardStats.grants
                    let entries = []
                    for (let i = 0; i < grants.length; ++i)
                        entries.push({ label: grants[i].label, color: tokensTile.grantColors[i],
                                       value: grants[i].total })
                    return entries
                }
                onActivated: root.pageRequested("tokens", "")

                SparkBars {
                    anchors.fill: parent
                    kind: "tokens"
                    colors: tokensTile.grantColors
                    peak: DashboardStats.tokensPeak
                    tipFormat: qsTr("%1 · %2 tokens")
                }
            }
            ChartTile {
                objectName: "clusterTile"
                area: "cluster"
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                heading: qsTr("Cluster requests")
                pageTitle: qsTr("RBAC requests")
                permitted: DashboardStats.clusterVisible
                value: DashboardStats.clusterAllowedTotal.toLocaleString(Qt.locale(), "f", 0)
                secondary: DashboardStats.clusterDeniedTotal > 0
                           ? qsTr("%1 denied").arg(DashboardStats.clusterDeniedTotal.toLocaleString(Qt.locale(), "f", 0))
                           : ""
                secondaryColor: Theme.error
                caption: qsTr("allowed by the access layer")
                legend: [
                    { label: qsTr("allowed"), color: Theme.accent, value: DashboardStats.clusterAllowedTotal },
                    { label: qsTr("denied"), color: Theme.error, value: DashboardStats.clusterDeniedTotal }
                ]
                onActivated: root.pageRequested("rbac", "requests")

                SparkBars {
                    anchors.fill: parent
                    kind: "cluster"
                    colors: [Theme.accent, Theme.error]
                    peak: DashboardStats.clusterPeak
                    tipFormat: qsTr("%1 · %2 allowed, %3 denied")
                }
            }
        }

        GridLayout {
            objectName: "systemTiles"
            Layout.fillWidth: true
            columns: root.availableWidth >= 1400 ? 6 : 3
            rowSpacing: Theme.spacing
            columnSpacing: Theme.spacing

            StatTile {
                objectName: "uptimeTile"
                compact: true
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                heading: qsTr("Uptime")
                value: AdminClient.uptimeText
                caption: AdminClient.serverVersion.length > 0
                         ? qsTr("Version %1").arg(AdminClient.serverVersion) : ""
            }
            StatTile {
                objectName: "eventsTile"
                compact: true
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                heading: qsTr("Events received")
                value: AdminClient.eventCount.toLocaleString(Qt.locale(), "f", 0)
                caption: AdminClient.eventCount > 0
                         ? qsTr("Last at %1").arg(AdminClient.lastEventAt.toLocaleTimeString(Qt.locale(), "HH:mm:ss"))
                         : qsTr("None yet")
            }
            StatTile {
                objectName: "databaseTile"
                compact: true
                Layout.fillWidth: true
                Layout.preferredWidth: 1
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
                    compact: true
                    Layout.fillWidth: true
                    Layout.preferredWidth: 1
                    heading: listenerTile.title
                    badge: listenerTile.tls ? qsTr("TLS") : ""
                    value: listenerTile.requests.toLocaleString(Qt.locale(), "f", 0)
                    caption: qsTr("requests · %1").arg(listenerTile.url)
                }
            }
        }

        // Several instances on one PostgreSQL database (docs/storage.md): each one's id, admin
        // address, version and last heartbeat; the events below are all of theirs.
        Flow {
            id: instancesSection

            readonly property var instances: AdminClient.instances
            readonly property int aliveCount: {
                let n = 0
                for (const i of instancesSection.instances)
                    if (i.alive)
                        ++n
                return n
            }

            objectName: "instancesSection"
            Layout.fillWidth: true
            visible: instancesSection.instances.length > 1
            spacing: 8

            ColumnLayout {
                width: Math.max(implicitWidth, 80)
                spacing: 0

                Label {
                    textFormat: Text.PlainText
                    text: qsTr("Instances")
                    color: Theme.text
                    font.pixelSize: 15
                    font.weight: Font.DemiBold
                }
                Label {
                    objectName: "instancesAlive"
                    textFormat: Text.PlainText
                    text: qsTr("%n alive", "", instancesSection.aliveCount)
                    color: Theme.mutedText
                }
            }
            Repeater {
                model: instancesSection.instances

                delegate: Card {
                    id: instanceCard

                    required property var modelData

                    objectName: "instanceCard-" + instanceCard.modelData.id
                    width: instanceColumn.implicitWidth + 20
                    height: instanceColumn.implicitHeight + 12
                    opacity: instanceCard.modelData.alive ? 1 : 0.6
                    border.color: instanceCard.modelData.self ? Theme.accent : Theme.border
                    Accessible.role: Accessible.StaticText
                    Accessible.name: qsTr("Instance %1").arg(instanceCard.modelData.id)

                    ColumnLayout {
                        id: instanceColumn

                        anchors.fill: parent
                        anchors.margins: 6
                        anchors.leftMargin: 10
                        anchors.rightMargin: 10
                        spacing: 1

                        RowLayout {
                            spacing: 6

                            Label {
                                objectName: "instanceId"
                                textFormat: Text.PlainText
                                text: instanceCard.modelData.id
                                color: Theme.text
                                font.weight: Font.DemiBold
                            }
                            StatusBadge {
                                visible: instanceCard.modelData.self
                                family: "progress"
                                text: qsTr("This one")
                            }
                            StatusBadge {
                                visible: instanceCard.modelData.leads
                                family: "ok"
                                text: qsTr("Leads")
                            }
                            StatusBadge {
                                objectName: "instanceGone"
                                visible: !instanceCard.modelData.alive
                                family: "exception"
                                text: qsTr("Gone")
                            }
                        }
                        Label {
                            objectName: "instanceDetails"
                            textFormat: Text.PlainText
                            text: qsTr("Version %1 · %2 · last heartbeat %3")
                                      .arg(instanceCard.modelData.version)
                                      .arg(instanceCard.modelData.adminUrl || "–")
                                      .arg(instanceCard.modelData.heartbeatAt.toLocaleTimeString(Qt.locale(), "HH:mm:ss"))
                            color: Theme.mutedText
                            font.pixelSize: 12
                        }
                    }
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.topMargin: 4
            spacing: Theme.spacing

            Label {
                textFormat: Text.PlainText
                text: qsTr("Latest events")
                color: Theme.text
                font.pixelSize: 15
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
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
                textFormat: Text.PlainText
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
