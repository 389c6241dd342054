pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Bulk redelivery (Redelivery): which finished deliveries to send again, a preview of how
// many and their payloads, the rate, Start, the job's live progress with Cancel, and the
// jobs so far. The server's messages appear inline.
Dialog {
    id: root

    objectName: "redeliverDialog"
    title: qsTr("Redeliver webhooks")
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(760, parent ? parent.width - 48 : 760)
    height: Math.min(820, parent ? parent.height - 48 : 820)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

    onAboutToShow: {
        if (Redelivery.jobState !== "running")
            Redelivery.reset()
        root.syncState()
        Redelivery.reloadJobs()
    }

    // The state may be set from elsewhere (reset, a caller): the combo box follows.
    function syncState() {
        stateCombo.currentIndex = stateCombo.indexOfValue(Redelivery.state)
    }
    Component.onCompleted: Redelivery.filterChanged.connect(root.syncState)

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
    }

    ScrollView {
        id: scroll
        anchors.fill: parent
        clip: true
        contentWidth: availableWidth

        ColumnLayout {
            width: scroll.availableWidth
            spacing: 10

            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: qsTr("Sends finished deliveries again, each with a new manual attempt and the same webhook-id, at most the given number a second.")
                color: Theme.mutedText
                wrapMode: Text.Wrap
            }

            GridLayout {
                Layout.fillWidth: true
                columns: 4
                columnSpacing: 10
                rowSpacing: 6

                Label { textFormat: Text.PlainText; text: qsTr("State"); color: Theme.mutedText }
                ComboBox {
                    id: stateCombo
                    objectName: "redeliverState"
                    Layout.fillWidth: true
                    model: Redelivery.stateOptions
                    textRole: "text"
                    valueRole: "value"
                    Accessible.name: qsTr("Deliveries in this state")
                    onActivated: Redelivery.state = stateCombo.currentValue
                    onModelChanged: currentIndex = indexOfValue(Redelivery.state) // new language
                }
                Label { textFormat: Text.PlainText; text: qsTr("Customer"); color: Theme.mutedText }
                TextField {
                    objectName: "redeliverCustomer"
                    Layout.fillWidth: true
                    text: Redelivery.customerId
                    placeholderText: qsTr("any customer (id)")
                    selectByMouse: true
                    Accessible.name: qsTr("Customer id")
                    onTextEdited: Redelivery.customerId = text
                }
                Label { textFormat: Text.PlainText; text: qsTr("Order"); color: Theme.mutedText }
                TextField {
                    objectName: "redeliverOrder"
                    Layout.fillWidth: true
                    text: Redelivery.orderId
                    placeholderText: qsTr("any order (id)")
                    selectByMouse: true
                    Accessible.name: qsTr("Order id")
                    onTextEdited: Redelivery.orderId = text
                }
                Label { textFormat: Text.PlainText; text: qsTr("Endpoint"); color: Theme.mutedText }
                TextField {
                    objectName: "redeliverEndpoint"
                    Layout.fillWidth: true
                    text: Redelivery.endpointId
                    placeholderText: qsTr("any endpoint (id)")
                    selectByMouse: true
                    Accessible.name: qsTr("Endpoint id")
                    onTextEdited: Redelivery.endpointId = text
                }
                Label { textFormat: Text.PlainText; text: qsTr("Created from"); color: Theme.mutedText }
                TextField {
                    objectName: "redeliverFrom"
                    Layout.fillWidth: true
                    text: Redelivery.from
                    placeholderText: "2026-11-21T08:00:00Z"
                    selectByMouse: true
                    Accessible.name: qsTr("Created from (ISO 8601)")
                    onTextEdited: Redelivery.from = text
                }
                Label { textFormat: Text.PlainText; text: qsTr("to"); color: Theme.mutedText }
                TextField {
                    objectName: "redeliverTo"
                    Layout.fillWidth: true
                    text: Redelivery.to
                    placeholderText: "2026-11-21T18:00:00Z"
                    selectByMouse: true
                    Accessible.name: qsTr("Created until (ISO 8601)")
                    onTextEdited: Redelivery.to = text
                }
            }

            RowLayout {
                Layout.fillWidth: true
                spacing: 10
                Button {
                    objectName: "previewButton"
                    text: qsTr("Preview")
                    enabled: !Redelivery.busy && AdminClient.connectionState === AdminClient.Online
                    Accessible.name: qsTr("Count what this filter selects")
                    onClicked: Redelivery.preview()
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "previewCount"
                    Layout.fillWidth: true
                    visible: Redelivery.previewed
                    text: Redelivery.previewCapped
                          ? qsTr("%1 of %2 matching deliveries (capped: a job takes at most 10,000)")
                                .arg(Redelivery.previewCount).arg(Redelivery.previewMatching)
                          : qsTr("%n delivery(s) would be sent again", "", Redelivery.previewCount)
                    color: Redelivery.previewCapped ? Theme.warning : Theme.text
                    font.weight: Font.DemiBold
                    wrapMode: Text.Wrap
                }
            }

            ColumnLayout {
                objectName: "previewItems"
                Layout.fillWidth: true
                visible: Redelivery.previewed && Redelivery.previewItems.length > 0
                spacing: 2
                Repeater {
                    model: Redelivery.previewItems
                    delegate: ColumnLayout {
                        id: previewRow
                        required property var modelData
                        required property int index
                        objectName: "previewItem-" + previewRow.index
                        Layout.fillWidth: true
                        spacing: 0
                        Label {
                            textFormat: Text.PlainText
                            Layout.fillWidth: true
                            text: qsTr("%1 · %2 · %3").arg(previewRow.modelData.shortId)
                                                       .arg(previewRow.modelData.state)
                                                       .arg(previewRow.modelData.url)
                            color: Theme.mutedText
                            font.pixelSize: 12
                            elide: Text.ElideMiddle
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "previewPayload"
                            Layout.fillWidth: true
                            text: previewRow.modelData.payload
                            color: Theme.text
                            font.family: Theme.monoFont
                            font.pixelSize: 12
                            elide: Text.ElideRight
                        }
                    }
                }
                Label {
                    textFormat: Text.PlainText
                    visible: Redelivery.previewCount > 5
                    text: qsTr("… and %n more", "", Redelivery.previewCount - 5)
                    color: Theme.mutedText
                    font.pixelSize: 12
                }
            }

            RowLayout {
                Layout.fillWidth: true
                spacing: 10
                Label { textFormat: Text.PlainText; text: qsTr("Rate"); color: Theme.mutedText }
                TextField {
                    objectName: "redeliverRate"
                    Layout.preferredWidth: 90
                    text: Redelivery.rateText
                    selectByMouse: true
                    inputMethodHints: Qt.ImhFormattedNumbersOnly
                    color: Redelivery.rateValid ? Theme.text : Theme.error
                    Accessible.name: qsTr("Deliveries a second")
                    onTextEdited: Redelivery.rateText = text
                }
                Label {
                    textFormat: Text.PlainText
                    Layout.fillWidth: true
                    text: Redelivery.rateValid ? qsTr("deliveries a second")
                                               : qsTr("deliveries a second: 0.1 to 1000")
                    color: Redelivery.rateValid ? Theme.mutedText : Theme.error
                }
                Button {
                    objectName: "startRedeliveryButton"
                    text: qsTr("Start")
                    highlighted: true
                    enabled: Redelivery.canStart
                    Accessible.name: qsTr("Start redelivering")
                    onClicked: Redelivery.start()
                }
            }

            Label {
                objectName: "redeliverError"
                Layout.fillWidth: true
                visible: Redelivery.error.length > 0
                text: Redelivery.error // the server's message, untranslated
                color: Theme.error
                wrapMode: Text.Wrap
                textFormat: Text.PlainText
            }

            Rectangle {
                objectName: "jobProgress"
                Layout.fillWidth: true
                visible: Redelivery.jobId.length > 0
                implicitHeight: progressColumn.implicitHeight + 20
                radius: Theme.radius
                color: Theme.stripe
                border.color: Theme.border

                ColumnLayout {
                    id: progressColumn
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.top: parent.top
                    anchors.margins: 10
                    spacing: 6
                    RowLayout {
                        Layout.fillWidth: true
                        spacing: 10
                        Label {
                            textFormat: Text.PlainText
                            objectName: "jobStateText"
                            text: Redelivery.jobStateText
                            color: Redelivery.jobState === "cancelled" ? Theme.warning
                                   : Redelivery.jobState === "completed" ? Theme.success : Theme.accent
                            font.weight: Font.DemiBold
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "jobCounts"
                            Layout.fillWidth: true
                            text: qsTr("%1 of %2 sent · %3 queued again · %4 refused")
                                .arg(Redelivery.jobSent).arg(Redelivery.jobTotal)
                                .arg(Redelivery.jobDone).arg(Redelivery.jobFailed)
                            color: Theme.text
                        }
                        Button {
                            objectName: "cancelRedeliveryButton"
                            text: qsTr("Cancel job")
                            enabled: Redelivery.canCancel
                            Accessible.name: qsTr("Cancel the redelivery job")
                            onClicked: Redelivery.cancel()
                        }
                    }
                    ProgressBar {
                        objectName: "jobProgressBar"
                        Layout.fillWidth: true
                        from: 0
                        to: 1
                        value: Redelivery.jobProgress
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "jobLastError"
                        Layout.fillWidth: true
                        visible: Redelivery.jobLastError.length > 0
                        text: qsTr("Last refusal: %1").arg(Redelivery.jobLastError)
                        color: Theme.error
                        wrapMode: Text.Wrap
                    }
                }
            }

            SectionHeading {
                text: qsTr("Jobs")
            }
            Label {
                textFormat: Text.PlainText
                visible: Redelivery.jobs.length === 0
                text: qsTr("No redelivery jobs yet.")
                color: Theme.mutedText
            }
            Repeater {
                model: Redelivery.jobs
                delegate: ItemDelegate {
                    id: jobRow
                    required property var modelData
                    required property int index
                    objectName: "job-" + jobRow.index
                    Layout.fillWidth: true
                    topPadding: 4
                    bottomPadding: 4
                    readonly property bool shown: jobRow.modelData.id === Redelivery.jobId
                    onClicked: Redelivery.showJob(jobRow.modelData.id)
                    background: Rectangle {
                        color: jobRow.shown ? Theme.accentSoft : jobRow.hovered ? Theme.stripe : "transparent"
                        radius: 4
                    }
                    contentItem: Label {
                        textFormat: Text.PlainText
                        text: qsTr("%1 · %2 · %3/%4 sent · %5/s · %6")
                            .arg(jobRow.modelData.createdText).arg(jobRow.modelData.stateText)
                            .arg(jobRow.modelData.sent).arg(jobRow.modelData.total)
                            .arg(jobRow.modelData.rateText).arg(jobRow.modelData.filterText)
                        color: Theme.text
                        elide: Text.ElideRight
                    }
                }
            }
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 4
        background: null
        RowLayout {
            anchors.right: parent.right
            Button {
                objectName: "closeRedeliverDialog"
                text: qsTr("Close")
                onClicked: root.close()
            }
        }
    }
}
