pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The Audit page's log: every administrative change, newest first, one row each with who made
// it and the fields it changed; Load older pages back. Up/Down, Home/End select by keyboard.
Card {
    id: root

    // A row was picked (clicked, or reached with the keyboard).
    signal entrySelected(string entryId)

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
                root.entrySelected(id)
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
                root.entrySelected(entryRow.entryId)
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
                        textFormat: Text.PlainText
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
                        textFormat: Text.PlainText
                        objectName: "entryAction"
                        text: entryRow.actionName
                        color: Theme.text
                        font.weight: Font.DemiBold
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "entryTarget"
                        Layout.fillWidth: true
                        text: entryRow.target
                        color: Theme.text
                        font.family: Theme.monoFont
                        elide: Text.ElideMiddle
                    }
                    Label {
                        textFormat: Text.PlainText
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
                        textFormat: Text.PlainText
                        objectName: "entryActor"
                        text: entryRow.actorName
                        color: Theme.mutedText
                        font.pixelSize: 12
                    }
                    Label {
                        textFormat: Text.PlainText
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
        textFormat: Text.PlainText
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
