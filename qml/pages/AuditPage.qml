pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The audit log, live: every administrative change, newest first, with who made it and the
// fields it changed; filters by kind, target and actor; paging back. The selected entry's
// field-by-field before/after table and what it caused (its consequences). The log and the
// selected entry are in audit/.
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
                textFormat: Text.PlainText
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
                textFormat: Text.PlainText
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

            AuditLogPane {
                Layout.fillHeight: true
                Layout.fillWidth: true
                Layout.preferredWidth: 6
                Layout.minimumWidth: 380
                onEntrySelected: entryId => root.select(entryId)
            }

            AuditDetailPane {
                objectName: "auditDetailPane"
                Layout.fillHeight: true
                Layout.fillWidth: true
                Layout.preferredWidth: 6
                Layout.minimumWidth: 380
            }
        }
    }
}
