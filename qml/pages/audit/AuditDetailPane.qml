pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The Audit page's selected entry (AuditDetail): when and by whom, the request, the
// field-by-field before/after table, and what it caused (its consequences).
Card {
    id: root

    Label {
        textFormat: Text.PlainText
        anchors.centerIn: parent
        width: parent.width - 40
        visible: AuditDetail.entryId.length === 0
        horizontalAlignment: Text.AlignHCenter
        wrapMode: Text.Wrap
        text: qsTr("Select an entry to see what it changed and what it caused.")
        color: Theme.mutedText
    }

    ScrollView {
        id: detailScroll
        anchors.fill: parent
        anchors.margins: 1
        visible: AuditDetail.entryId.length > 0
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
                    objectName: "detailTitle"
                    Layout.fillWidth: true
                    text: AuditDetail.loaded
                          ? qsTr("%1 %2 %3").arg(AuditDetail.action).arg(AuditDetail.kind)
                                            .arg(AuditDetail.target)
                          : qsTr("Audit entry")
                    color: Theme.text
                    font.pixelSize: 17
                    font.weight: Font.DemiBold
                    wrapMode: Text.WrapAnywhere
                }
                BusyIndicator {
                    Layout.preferredWidth: 22
                    Layout.preferredHeight: 22
                    running: AuditDetail.loading
                    visible: running
                }
            }

            GridLayout {
                Layout.fillWidth: true
                Layout.leftMargin: 16
                Layout.rightMargin: 16
                columns: 2
                columnSpacing: 16
                rowSpacing: 4
                visible: AuditDetail.loaded

                Label { textFormat: Text.PlainText; text: qsTr("When"); color: Theme.mutedText }
                Label {
                    textFormat: Text.PlainText
                    objectName: "detailTime"
                    text: AuditDetail.atText
                    color: Theme.text
                }
                Label { textFormat: Text.PlainText; text: qsTr("Actor"); color: Theme.mutedText }
                Label {
                    textFormat: Text.PlainText
                    objectName: "detailActor"
                    Layout.fillWidth: true
                    text: AuditDetail.actor
                    color: Theme.text
                    wrapMode: Text.Wrap
                }
                Label { textFormat: Text.PlainText; text: qsTr("Request"); color: Theme.mutedText }
                Label {
                    textFormat: Text.PlainText
                    objectName: "detailRequest"
                    Layout.fillWidth: true
                    text: AuditDetail.request
                    color: Theme.text
                    font.family: Theme.monoFont
                    wrapMode: Text.WrapAnywhere
                }
            }

            SectionHeading {
                Layout.leftMargin: 16
                visible: AuditDetail.loaded
                text: qsTr("Changes")
            }
            Label {
                textFormat: Text.PlainText
                objectName: "noChanges"
                Layout.leftMargin: 16
                visible: AuditDetail.loaded && AuditDetail.changes.length === 0
                text: qsTr("No field changed.")
                color: Theme.mutedText
            }
            GridLayout {
                objectName: "changeTable"
                Layout.fillWidth: true
                Layout.leftMargin: 16
                Layout.rightMargin: 16
                visible: AuditDetail.changes.length > 0
                columns: 3
                columnSpacing: 12
                rowSpacing: 6

                Label { textFormat: Text.PlainText; text: qsTr("Field"); color: Theme.mutedText; font.weight: Font.DemiBold }
                Label { textFormat: Text.PlainText; text: qsTr("Before"); color: Theme.mutedText; font.weight: Font.DemiBold }
                Label { textFormat: Text.PlainText; text: qsTr("After"); color: Theme.mutedText; font.weight: Font.DemiBold }

                Repeater {
                    objectName: "changeRows"
                    model: AuditDetail.changes
                    delegate: ColumnLayout {
                        id: fieldCell
                        required property var modelData
                        required property int index
                        Layout.row: fieldCell.index + 1
                        Layout.column: 0
                        Layout.alignment: Qt.AlignTop
                        Layout.maximumWidth: 260
                        spacing: 2
                        Label {
                            textFormat: Text.PlainText
                            objectName: "changeField-" + fieldCell.index
                            Layout.maximumWidth: 260
                            text: fieldCell.modelData.field
                            color: Theme.text
                            font.family: Theme.monoFont
                            wrapMode: Text.WrapAnywhere
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "changeTag-" + fieldCell.index
                            visible: fieldCell.modelData.change !== "changed"
                            text: fieldCell.modelData.change === "added" ? qsTr("added") : qsTr("removed")
                            color: fieldCell.modelData.change === "added" ? Theme.success : Theme.error
                            font.pixelSize: 11
                            font.weight: Font.DemiBold
                            leftPadding: 6
                            rightPadding: 6
                            topPadding: 1
                            bottomPadding: 1
                            background: Rectangle {
                                radius: height / 2
                                color: fieldCell.modelData.change === "added" ? Theme.successSoft
                                                                              : Theme.errorSoft
                            }
                        }
                    }
                }
                Repeater {
                    model: AuditDetail.changes
                    delegate: Label {
                        textFormat: Text.PlainText
                        id: beforeCell
                        required property var modelData
                        required property int index
                        objectName: "changeBefore-" + beforeCell.index
                        Layout.row: beforeCell.index + 1
                        Layout.column: 1
                        Layout.fillWidth: true
                        Layout.preferredWidth: 100
                        Layout.alignment: Qt.AlignTop
                        text: beforeCell.modelData.before.length > 0 ? beforeCell.modelData.before : "–"
                        color: beforeCell.modelData.change === "changed" ? Theme.error : Theme.mutedText
                        font.family: Theme.monoFont
                        font.strikeout: beforeCell.modelData.change !== "added"
                        wrapMode: Text.WrapAnywhere
                    }
                }
                Repeater {
                    model: AuditDetail.changes
                    delegate: Label {
                        textFormat: Text.PlainText
                        id: afterCell
                        required property var modelData
                        required property int index
                        objectName: "changeAfter-" + afterCell.index
                        Layout.row: afterCell.index + 1
                        Layout.column: 2
                        Layout.fillWidth: true
                        Layout.preferredWidth: 100
                        Layout.alignment: Qt.AlignTop
                        text: afterCell.modelData.after.length > 0 ? afterCell.modelData.after : "–"
                        color: afterCell.modelData.change === "removed" ? Theme.mutedText : Theme.success
                        font.family: Theme.monoFont
                        wrapMode: Text.WrapAnywhere
                    }
                }
            }

            SectionHeading {
                Layout.leftMargin: 16
                visible: AuditDetail.loaded
                text: qsTr("What it caused")
            }
            Label {
                textFormat: Text.PlainText
                objectName: "consequenceSummary"
                Layout.fillWidth: true
                Layout.leftMargin: 16
                Layout.rightMargin: 16
                visible: AuditDetail.loaded
                text: AuditDetail.consequenceSummary.length === 0
                      ? qsTr("Nothing is traced for this kind of change.")
                      : AuditDetail.consequenceUntilText.length > 0
                        ? qsTr("%1 (until %2)").arg(AuditDetail.consequenceSummary)
                                               .arg(AuditDetail.consequenceUntilText)
                        : AuditDetail.consequenceSummary
                color: AuditDetail.consequenceSummary.length === 0 ? Theme.mutedText : Theme.text
                wrapMode: Text.Wrap
            }
            // The earlier cluster requests this change turned (decided again
            // right after it): what each would get now, and why.
            ColumnLayout {
                objectName: "verdictChanges"
                Layout.fillWidth: true
                Layout.leftMargin: 16
                Layout.rightMargin: 16
                visible: AuditDetail.loaded && AuditDetail.verdictChanges.length > 0
                spacing: 6
                Label {
                    textFormat: Text.PlainText
                    Layout.fillWidth: true
                    text: qsTr("Earlier requests decided otherwise after this change")
                    font.bold: true
                    wrapMode: Text.Wrap
                }
                Repeater {
                    model: AuditDetail.verdictChanges
                    delegate: ColumnLayout {
                        id: turnedRow
                        required property var modelData
                        required property int index
                        objectName: "verdictChange-" + turnedRow.index
                        Layout.fillWidth: true
                        spacing: 2
                        RowLayout {
                            Layout.fillWidth: true
                            spacing: 10
                            Label {
                                textFormat: Text.PlainText
                                text: turnedRow.modelData.atText
                                color: Theme.mutedText
                                font.pixelSize: 12
                            }
                            Label {
                                textFormat: Text.PlainText
                                objectName: "verdictChangeText"
                                Layout.fillWidth: true
                                text: turnedRow.modelData.text
                                color: turnedRow.modelData.nowAllowed ? Theme.success : Theme.error
                                wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                            }
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "verdictChangeReason"
                            Layout.fillWidth: true
                            text: turnedRow.modelData.reason
                            color: Theme.mutedText
                            font.family: Theme.monoFont
                            font.pixelSize: 12
                            wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                        }
                    }
                }
                Label {
                    textFormat: Text.PlainText
                    Layout.fillWidth: true
                    Layout.bottomMargin: 6
                    text: qsTr("Authentication and authorization were run again; admission was not (request bodies are not kept).")
                    color: Theme.mutedText
                    font.pixelSize: 12
                    wrapMode: Text.Wrap
                }
            }
            ColumnLayout {
                objectName: "consequenceItems"
                Layout.fillWidth: true
                Layout.leftMargin: 16
                Layout.rightMargin: 16
                Layout.bottomMargin: 16
                spacing: 4
                Repeater {
                    model: AuditDetail.consequenceItems
                    delegate: RowLayout {
                        id: itemRow
                        required property var modelData
                        required property int index
                        objectName: "consequence-" + itemRow.index
                        Layout.fillWidth: true
                        spacing: 10
                        Label {
                            textFormat: Text.PlainText
                            text: itemRow.modelData.atText
                            color: Theme.mutedText
                            font.pixelSize: 12
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "consequenceText"
                            Layout.fillWidth: true
                            text: itemRow.modelData.text
                            color: itemRow.modelData.failed ? Theme.error : Theme.text
                            wrapMode: Text.WrapAnywhere
                        }
                    }
                }
            }
        }
    }
}
