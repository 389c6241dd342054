pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The audit log, live: every administrative change, newest first, with who made it and the
// fields it changed; filters by kind, target and actor; paging back. The selected entry's
// field-by-field before/after table and what it caused (its consequences).
Pane {
    id: root

    padding: 20
    background: Rectangle { color: Theme.background }
    palette.disabled.buttonText: Theme.idle
    palette.disabled.windowText: Theme.idle

    // Ctrl+F: to the list's filter.
    Shortcut {
        sequence: "Ctrl+F"
        enabled: root.visible
        onActivated: {
            targetField.forceActiveFocus()
            targetField.selectAll()
        }
    }

    function select(entryId: string) {
        AuditDetail.entryId = entryId
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        ErrorBanner {
            objectName: "auditError"
            Layout.fillWidth: true
            message: AuditDetail.error.length > 0 ? AuditDetail.error : AuditLog.error
            onDismissed: {
                AuditDetail.clearError()
                AuditLog.clearError()
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8

            Label {
                text: qsTr("Kind")
                color: Theme.mutedText
            }
            ComboBox {
                id: kindCombo
                objectName: "kindFilter"
                Layout.preferredWidth: 190
                model: AuditLog.kindOptions
                textRole: "text"
                valueRole: "value"
                Accessible.name: qsTr("Filter by kind")
                Component.onCompleted: currentIndex = indexOfValue(AuditLog.kindFilter)
                onActivated: AuditLog.kindFilter = kindCombo.currentValue
                onModelChanged: currentIndex = indexOfValue(AuditLog.kindFilter) // new language
            }
            TextField {
                id: targetField
                objectName: "targetFilter"
                Layout.preferredWidth: 200
                placeholderText: qsTr("Target contains…")
                selectByMouse: true
                Accessible.name: qsTr("Filter by target")
                onTextEdited: filterTimer.restart()
                onAccepted: {
                    filterTimer.stop()
                    AuditLog.targetFilter = targetField.text
                }
            }
            TextField {
                id: actorField
                objectName: "actorFilter"
                Layout.preferredWidth: 170
                placeholderText: qsTr("Actor contains…")
                selectByMouse: true
                Accessible.name: qsTr("Filter by actor")
                onTextEdited: filterTimer.restart()
                onAccepted: {
                    filterTimer.stop()
                    AuditLog.actorFilter = actorField.text
                }
            }
            Timer {
                id: filterTimer
                interval: 300
                onTriggered: {
                    AuditLog.targetFilter = targetField.text
                    AuditLog.actorFilter = actorField.text
                }
            }
            Item { Layout.fillWidth: true }
            BusyIndicator {
                Layout.preferredWidth: 24
                Layout.preferredHeight: 24
                running: AuditLog.loading
                visible: AuditLog.loading
            }
            Label {
                objectName: "auditCount"
                text: qsTr("%1 shown").arg(AuditLog.count)
                color: Theme.mutedText
            }
            Button {
                text: qsTr("Reload")
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Reload the audit log")
                onClicked: {
                    AuditLog.reload()
                    AuditDetail.reload()
                }
            }
        }

        LiveBadge {
            objectName: "auditListLive"
            Layout.fillWidth: true
            live: AuditLog.live
        }
        RowLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: Theme.spacing

            Rectangle {
                Layout.fillHeight: true
                Layout.fillWidth: true
                Layout.preferredWidth: 6
                Layout.minimumWidth: 380
                color: Theme.surface
                radius: Theme.radius
                border.color: auditList.activeFocus ? Theme.accent : Theme.border
                clip: true

                ListView {
                    id: auditList

                    objectName: "auditList"
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.top: parent.top
                    anchors.bottom: olderBar.top
                    anchors.margins: 1
                    clip: true
                    model: AuditLog
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
                        const id = AuditLog.idAt(currentIndex)
                        if (activeFocus && id.length > 0 && id !== AuditDetail.entryId)
                            root.select(id)
                    }
                    Accessible.role: Accessible.List
                    Accessible.name: qsTr("Audit log")
                    ScrollBar.vertical: ScrollBar {}

                    delegate: ItemDelegate {
                        id: entryRow

                        required property string entryId
                        required property string atText
                        required property string actor
                        required property string actorName
                        required property string kind
                        required property string actionName
                        required property string target
                        required property string changedFields
                        required property int changeCount
                        readonly property bool selected: AuditDetail.entryId === entryRow.entryId

                        objectName: "audit-" + entryRow.entryId
                        width: ListView.view.width
                        topPadding: 8
                        bottomPadding: 8
                        leftPadding: 14
                        rightPadding: 12
                        highlighted: entryRow.selected
                        Accessible.role: Accessible.ListItem
                        Accessible.name: qsTr("%1 %2 %3 by %4").arg(entryRow.actionName).arg(entryRow.kind)
                                                               .arg(entryRow.target).arg(entryRow.actorName)
                        onClicked: {
                            root.select(entryRow.entryId)
                            auditList.currentIndex = AuditLog.indexOfId(entryRow.entryId)
                        }

                        background: Rectangle {
                            color: entryRow.selected ? Theme.accentSoft
                                                     : entryRow.hovered ? Theme.stripe : Theme.surface
                            Rectangle {
                                width: entryRow.selected ? 3 : 0
                                height: parent.height
                                color: Theme.accent
                            }
                            Rectangle {
                                anchors.left: parent.left
                                anchors.right: parent.right
                                anchors.bottom: parent.bottom
                                height: 1
                                color: Theme.border
                            }
                        }

                        contentItem: ColumnLayout {
                            spacing: 2
                            RowLayout {
                                Layout.fillWidth: true
                                spacing: 8
                                Label {
                                    objectName: "entryKind"
                                    text: entryRow.kind
                                    color: Theme.text
                                    font.pixelSize: 12
                                    font.weight: Font.DemiBold
                                    leftPadding: 7
                                    rightPadding: 7
                                    topPadding: 2
                                    bottomPadding: 2
                                    background: Rectangle {
                                        radius: height / 2
                                        color: Theme.neutralSoft
                                    }
                                }
                                Label {
                                    objectName: "entryAction"
                                    text: entryRow.actionName
                                    color: Theme.text
                                    font.weight: Font.DemiBold
                                }
                                Label {
                                    objectName: "entryTarget"
                                    Layout.fillWidth: true
                                    text: entryRow.target
                                    color: Theme.text
                                    font.family: Theme.monoFont
                                    elide: Text.ElideMiddle
                                }
                                Label {
                                    objectName: "entryTime"
                                    text: entryRow.atText
                                    color: Theme.mutedText
                                    font.pixelSize: 12
                                }
                            }
                            RowLayout {
                                Layout.fillWidth: true
                                spacing: 8
                                Label {
                                    objectName: "entryActor"
                                    text: entryRow.actorName
                                    color: Theme.mutedText
                                    font.pixelSize: 12
                                }
                                Label {
                                    objectName: "entryFields"
                                    Layout.fillWidth: true
                                    text: entryRow.changeCount > 0
                                          ? qsTr("changed: %1").arg(entryRow.changedFields)
                                          : qsTr("no field changes")
                                    color: Theme.mutedText
                                    font.pixelSize: 12
                                    elide: Text.ElideRight
                                }
                            }
                        }
                    }
                }

                Rectangle {
                    id: olderBar
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.bottom: parent.bottom
                    anchors.margins: 1
                    height: AuditLog.count > 0 ? 44 : 0
                    visible: AuditLog.count > 0
                    color: Theme.stripe
                    radius: Theme.radius
                    Button {
                        objectName: "loadOlderButton"
                        anchors.centerIn: parent
                        text: AuditLog.loadingOlder ? qsTr("Loading…")
                              : AuditLog.hasOlder ? qsTr("Load older entries") : qsTr("No older entries")
                        enabled: AuditLog.hasOlder && !AuditLog.loadingOlder
                                 && AdminClient.connectionState === AdminClient.Online
                        flat: true
                        Accessible.name: qsTr("Load older audit entries")
                        onClicked: AuditLog.loadOlder()
                    }
                }

                Label {
                    objectName: "auditEmpty"
                    anchors.centerIn: parent
                    width: parent.width - 40
                    visible: auditList.count === 0 && AuditLog.loaded && !AuditLog.loading
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    text: AuditLog.kindFilter.length > 0 || AuditLog.targetFilter.length > 0
                          || AuditLog.actorFilter.length > 0
                          ? qsTr("No audit entries match these filters.")
                          : qsTr("No administrative changes recorded yet.")
                    color: Theme.mutedText
                }

                NotPermittedPane {
                    live: AuditLog.live
                }
            }

            Rectangle {
                objectName: "auditDetailPane"
                Layout.fillHeight: true
                Layout.fillWidth: true
                Layout.preferredWidth: 6
                Layout.minimumWidth: 380
                color: Theme.surface
                radius: Theme.radius
                border.color: Theme.border

                Label {
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

                            Label { text: qsTr("When"); color: Theme.mutedText }
                            Label {
                                objectName: "detailTime"
                                text: AuditDetail.atText
                                color: Theme.text
                            }
                            Label { text: qsTr("Actor"); color: Theme.mutedText }
                            Label {
                                objectName: "detailActor"
                                Layout.fillWidth: true
                                text: AuditDetail.actor
                                color: Theme.text
                                wrapMode: Text.Wrap
                            }
                            Label { text: qsTr("Request"); color: Theme.mutedText }
                            Label {
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

                            Label { text: qsTr("Field"); color: Theme.mutedText; font.weight: Font.DemiBold }
                            Label { text: qsTr("Before"); color: Theme.mutedText; font.weight: Font.DemiBold }
                            Label { text: qsTr("After"); color: Theme.mutedText; font.weight: Font.DemiBold }

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
                                        objectName: "changeField-" + fieldCell.index
                                        Layout.maximumWidth: 260
                                        text: fieldCell.modelData.field
                                        color: Theme.text
                                        font.family: Theme.monoFont
                                        wrapMode: Text.WrapAnywhere
                                    }
                                    Label {
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
                                            text: turnedRow.modelData.atText
                                            color: Theme.mutedText
                                            font.pixelSize: 12
                                        }
                                        Label {
                                            objectName: "verdictChangeText"
                                            Layout.fillWidth: true
                                            text: turnedRow.modelData.text
                                            color: turnedRow.modelData.nowAllowed ? Theme.success : Theme.error
                                            wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                                        }
                                    }
                                    Label {
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
                                        text: itemRow.modelData.atText
                                        color: Theme.mutedText
                                        font.pixelSize: 12
                                    }
                                    Label {
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
        }
    }
}
