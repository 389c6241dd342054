pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Webhook deliveries, live: every delivery with its state, HTTP status and latency, failed
// ones in the error colour; the selected one's attempt log and Redeliver; and the endpoints
// that are disabled, with Enable.
Pane {
    id: root

    padding: 20
    background: Rectangle { color: Theme.background }
    // Actions that the status does not allow must look unavailable.
    palette.disabled.buttonText: Theme.idle
    palette.disabled.windowText: Theme.idle

    // Ctrl+F: to the list's filter.
    Shortcut {
        sequence: "Ctrl+F"
        enabled: root.visible
        onActivated: {
            stateCombo.forceActiveFocus()
        }
    }

    function select(deliveryId: string) {
        DeliveryDetail.deliveryId = deliveryId
    }

    RedeliverDialog {
        id: redeliverDialog
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        ErrorBanner {
            objectName: "deliveriesError"
            Layout.fillWidth: true
            message: DeliveryDetail.error.length > 0 ? DeliveryDetail.error
                     : Deliveries.error.length > 0 ? Deliveries.error : Endpoints.error
            onDismissed: {
                DeliveryDetail.clearError()
                Deliveries.clearError()
                Endpoints.clearError()
            }
        }

        // Disabled endpoints need an operator: they get no attempts until enabled.
        Rectangle {
            objectName: "disabledEndpoints"
            Layout.fillWidth: true
            visible: Endpoints.count > 0
            implicitHeight: endpointColumn.implicitHeight + 20
            radius: Theme.radius
            color: Theme.surface
            border.color: Qt.rgba(Theme.error.r, Theme.error.g, Theme.error.b, 0.45)

            ColumnLayout {
                id: endpointColumn
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.top: parent.top
                anchors.margins: 10
                anchors.leftMargin: 14
                spacing: 6

                Label {
                    textFormat: Text.PlainText
                    text: qsTr("Disabled endpoints: their deliveries fail until they are enabled again")
                    color: Theme.error
                    font.weight: Font.DemiBold
                }
                Repeater {
                    model: Endpoints
                    delegate: RowLayout {
                        id: endpointRow

                        required property string endpointId
                        required property string customerName
                        required property string url
                        required property string disabledReason
                        required property string disabledAtText
                        required property int pendingDeliveries

                        objectName: "endpoint-" + endpointRow.endpointId
                        Layout.fillWidth: true
                        spacing: 12

                        ColumnLayout {
                            Layout.fillWidth: true
                            spacing: 1
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                text: endpointRow.customerName.length > 0
                                      ? qsTr("%1 · %2").arg(endpointRow.customerName).arg(endpointRow.url)
                                      : endpointRow.url
                                color: Theme.text
                                elide: Text.ElideMiddle
                            }
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                text: qsTr("Disabled %1: %2").arg(endpointRow.disabledAtText)
                                                             .arg(endpointRow.disabledReason)
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideRight
                            }
                        }
                        Button {
                            objectName: "enableEndpointButton"
                            text: qsTr("Enable")
                            Accessible.name: qsTr("Enable %1").arg(endpointRow.url)
                            onClicked: Endpoints.enable(endpointRow.endpointId)
                        }
                    }
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8

            Label {
                textFormat: Text.PlainText
                text: qsTr("State")
                color: Theme.mutedText
            }
            ComboBox {
                id: stateCombo
                objectName: "stateFilter"
                Layout.preferredWidth: 170
                model: Deliveries.stateOptions
                textRole: "text"
                valueRole: "value"
                Accessible.name: qsTr("Filter by state")
                Component.onCompleted: currentIndex = indexOfValue(Deliveries.stateFilter)
                onActivated: Deliveries.stateFilter = stateCombo.currentValue
                onModelChanged: currentIndex = indexOfValue(Deliveries.stateFilter) // new language
            }
            Rectangle {
                objectName: "failedCount"
                visible: Deliveries.failedCount > 0
                implicitWidth: failedLabel.implicitWidth + 16
                implicitHeight: failedLabel.implicitHeight + 6
                radius: height / 2
                color: Theme.errorSoft
                Label {
                    textFormat: Text.PlainText
                    id: failedLabel
                    anchors.centerIn: parent
                    text: qsTr("%n failed", "", Deliveries.failedCount)
                    color: Theme.error
                    font.weight: Font.DemiBold
                }
            }
            Item { Layout.fillWidth: true }
            BusyIndicator {
                Layout.preferredWidth: 24
                Layout.preferredHeight: 24
                running: Deliveries.loading
                visible: Deliveries.loading
            }
            Label {
                textFormat: Text.PlainText
                text: qsTr("%1 shown").arg(Deliveries.count)
                color: Theme.mutedText
            }
            Button {
                objectName: "bulkRedeliverButton"
                text: qsTr("Redeliver…")
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Redeliver many deliveries at once")
                onClicked: redeliverDialog.open()
            }
            Button {
                text: qsTr("Reload")
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Reload the deliveries")
                onClicked: {
                    Deliveries.reload()
                    Endpoints.reload()
                    DeliveryDetail.reload()
                }
            }
        }

        LiveBadge {
            objectName: "deliveryListLive"
            Layout.fillWidth: true
            live: Deliveries.live
        }
        RowLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: Theme.spacing

            Rectangle {
                Layout.fillHeight: true
                Layout.fillWidth: true
                Layout.preferredWidth: 5
                Layout.minimumWidth: 340
                color: Theme.surface
                radius: Theme.radius
                border.color: deliveryList.activeFocus ? Theme.accent : Theme.border
                clip: true

                ListView {
                    id: deliveryList

                    objectName: "deliveryList"
                    anchors.fill: parent
                    anchors.margins: 1
                    clip: true
                    model: Deliveries
                    boundsBehavior: Flickable.StopAtBounds
                    // Keyboard: Tab reaches the list, Up/Down and Home/End select.
                    activeFocusOnTab: true
                    keyNavigationEnabled: true
                    highlightMoveDuration: 0
                    Keys.onPressed: event => {
                        if (count > 0 && (event.key === Qt.Key_Home || event.key === Qt.Key_End)) {
                            currentIndex = event.key === Qt.Key_Home ? 0 : count - 1
                            positionViewAtIndex(currentIndex, ListView.Contain)
                            event.accepted = true
                        }
                    }
                    currentIndex: -1
                    onCurrentIndexChanged: {
                        const id = Deliveries.idAt(currentIndex)
                        if (activeFocus && id.length > 0 && id !== DeliveryDetail.deliveryId)
                            root.select(id)
                    }
                    Accessible.role: Accessible.List
                    Accessible.name: qsTr("Deliveries")
                    ScrollBar.vertical: ScrollBar {}

                    delegate: DeliveryDelegate {
                        id: deliveryDelegate
                        width: ListView.view.width
                        selected: DeliveryDetail.deliveryId === deliveryDelegate.deliveryId
                        onClicked: {
                            root.select(deliveryDelegate.deliveryId)
                            deliveryList.currentIndex = Deliveries.indexOfId(deliveryDelegate.deliveryId)
                        }
                    }
                }

                Label {
                    textFormat: Text.PlainText
                    anchors.centerIn: parent
                    width: parent.width - 40
                    visible: deliveryList.count === 0 && Deliveries.loaded && !Deliveries.loading
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    text: Deliveries.stateFilter.length > 0
                          ? qsTr("No deliveries in this state.")
                          : qsTr("No webhook deliveries yet. Orders with a status callback URL get one per status change.")
                    color: Theme.mutedText
                }

                NotPermittedPane {
                    live: Deliveries.live
                }
            }

            Rectangle {
                objectName: "deliveryDetailPane"
                Layout.fillHeight: true
                Layout.fillWidth: true
                Layout.preferredWidth: 6
                Layout.minimumWidth: 360
                color: Theme.surface
                radius: Theme.radius
                border.color: Theme.border

                Label {
                    textFormat: Text.PlainText
                    anchors.centerIn: parent
                    width: parent.width - 40
                    visible: DeliveryDetail.deliveryId.length === 0
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    text: qsTr("Select a delivery to see every attempt with its response.")
                    color: Theme.mutedText
                }

                ScrollView {
                    id: detailScroll
                    anchors.fill: parent
                    anchors.margins: 1
                    visible: DeliveryDetail.deliveryId.length > 0
                    clip: true
                    contentWidth: availableWidth

                    ColumnLayout {
                        width: detailScroll.availableWidth
                        spacing: 12

                        RowLayout {
                            Layout.fillWidth: true
                            Layout.topMargin: 16
                            Layout.leftMargin: 16
                            Layout.rightMargin: 16
                            spacing: 10

                            Label {
                                textFormat: Text.PlainText
                                text: qsTr("Delivery")
                                color: Theme.text
                                font.pixelSize: 17
                                font.weight: Font.DemiBold
                            }
                            StatusBadge {
                                objectName: "deliveryDetailState"
                                visible: DeliveryDetail.loaded
                                family: DeliveryDetail.stateFamily
                                text: DeliveryDetail.stateText
                            }
                            BusyIndicator {
                                Layout.preferredWidth: 22
                                Layout.preferredHeight: 22
                                running: DeliveryDetail.loading || DeliveryDetail.busy
                                visible: running
                            }
                            Item { Layout.fillWidth: true }
                            Button {
                                objectName: "redeliverButton"
                                text: qsTr("Redeliver")
                                highlighted: DeliveryDetail.failed
                                enabled: DeliveryDetail.canRedeliver
                                Accessible.name: qsTr("Send this delivery again")
                                ToolTip.visible: hovered
                                ToolTip.delay: 600
                                ToolTip.text: qsTr("Queue it again with the same webhook-id")
                                onClicked: DeliveryDetail.redeliver()
                            }
                        }

                        Rectangle {
                            objectName: "deliveryFailure"
                            Layout.fillWidth: true
                            Layout.leftMargin: 16
                            Layout.rightMargin: 16
                            visible: DeliveryDetail.failed
                            implicitHeight: failureText.implicitHeight + 16
                            radius: 4
                            color: Theme.errorSoft
                            Label {
                                textFormat: Text.PlainText
                                id: failureText
                                anchors.fill: parent
                                anchors.margins: 8
                                text: qsTr("Failed (tries: %1): %2").arg(DeliveryDetail.attemptCount)
                                                                    .arg(DeliveryDetail.lastError)
                                color: Theme.error
                                wrapMode: Text.Wrap
                            }
                        }

                        GridLayout {
                            Layout.fillWidth: true
                            Layout.leftMargin: 16
                            Layout.rightMargin: 16
                            columns: 2
                            columnSpacing: 16
                            rowSpacing: 4

                            Label { textFormat: Text.PlainText; text: qsTr("Webhook id"); color: Theme.mutedText }
                            TextEdit {
                                textFormat: TextEdit.PlainText
                                Layout.fillWidth: true
                                text: DeliveryDetail.deliveryId
                                readOnly: true
                                selectByMouse: true
                                color: Theme.text
                                font.family: Theme.monoFont
                                wrapMode: TextEdit.WrapAnywhere
                            }
                            Label { textFormat: Text.PlainText; text: qsTr("Reports"); color: Theme.mutedText }
                            Label {
                                textFormat: Text.PlainText
                                text: qsTr("%1 of order %2 (#%3)").arg(DeliveryDetail.orderStatusText)
                                                                  .arg(DeliveryDetail.shortOrderId)
                                                                  .arg(DeliveryDetail.seq)
                                color: Theme.text
                            }
                            Label { textFormat: Text.PlainText; text: qsTr("URL"); color: Theme.mutedText }
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                text: DeliveryDetail.url
                                color: Theme.text
                                elide: Text.ElideMiddle
                            }
                            Label { textFormat: Text.PlainText; text: qsTr("Last answer"); color: Theme.mutedText }
                            Label {
                                textFormat: Text.PlainText
                                text: DeliveryDetail.attemptCount === 0 ? qsTr("not attempted yet")
                                      : DeliveryDetail.lastStatus > 0
                                        ? qsTr("HTTP %1 in %2").arg(DeliveryDetail.lastStatusText)
                                                               .arg(DeliveryDetail.latencyText)
                                        : qsTr("No answer")
                                color: DeliveryDetail.failed ? Theme.error : Theme.text
                            }
                            Label { textFormat: Text.PlainText; text: qsTr("Created"); color: Theme.mutedText }
                            Label { textFormat: Text.PlainText; text: DeliveryDetail.createdText; color: Theme.text }
                            Label {
                                textFormat: Text.PlainText
                                text: DeliveryDetail.nextAttemptText.length > 0 ? qsTr("Next attempt")
                                                                                : qsTr("Completed")
                                color: Theme.mutedText
                            }
                            Label {
                                textFormat: Text.PlainText
                                text: DeliveryDetail.nextAttemptText.length > 0
                                      ? DeliveryDetail.nextAttemptText
                                      : (DeliveryDetail.completedText.length > 0 ? DeliveryDetail.completedText : "–")
                                color: Theme.text
                            }
                        }

                        SectionHeading {
                            Layout.leftMargin: 16
                            text: qsTr("Attempts")
                        }
                        Label {
                            textFormat: Text.PlainText
                            Layout.leftMargin: 16
                            visible: DeliveryDetail.loaded && DeliveryDetail.attempts.count === 0
                            text: qsTr("No attempts yet.")
                            color: Theme.mutedText
                        }
                        ColumnLayout {
                            objectName: "attemptLog"
                            Layout.fillWidth: true
                            Layout.leftMargin: 16
                            Layout.rightMargin: 16
                            Layout.bottomMargin: 16
                            spacing: 6
                            Repeater {
                                model: DeliveryDetail.attempts
                                delegate: AttemptDelegate {
                                    Layout.fillWidth: true
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
