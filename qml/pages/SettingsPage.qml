pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Every backend setting, grouped: its value, default and source, an editor, and whether a
// change applies live (the cluster's anonymous access, authorizers, admission plugins) or at
// the next start ("restart required", kept in the database). A setting given by a flag, the
// environment or the config file wins at every start, so it cannot be changed here; the row
// says where it comes from. The server's refusal stays on the row.
Pane {
    id: root

    padding: 20
    background: Rectangle { color: Theme.background }

    // Ctrl+F: the filter.
    function focusFilter() {
        filterField.forceActiveFocus()
        filterField.selectAll()
    }

    Shortcut {
        sequence: "Ctrl+F"
        enabled: root.visible
        onActivated: root.focusFilter()
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        ErrorBanner {
            objectName: "settingsError"
            Layout.fillWidth: true
            message: BackendSettings.error
            onDismissed: BackendSettings.clearError()
        }

        // Some change waits for a restart.
        Rectangle {
            objectName: "restartBanner"
            Layout.fillWidth: true
            visible: BackendSettings.restartRequired
            implicitHeight: restartText.implicitHeight + 20
            radius: Theme.radius
            color: Theme.warningSoft
            border.color: Qt.rgba(Theme.warning.r, Theme.warning.g, Theme.warning.b, 0.45)
            Accessible.role: Accessible.AlertMessage
            Accessible.name: restartText.text

            Label {
                textFormat: Text.PlainText
                id: restartText
                anchors.fill: parent
                anchors.margins: 10
                anchors.leftMargin: 14
                wrapMode: Text.Wrap
                color: Theme.text
                text: qsTr("Restart required: some changes are kept for the next start of the backend (marked “restart required”).")
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8

            TextField {
                id: filterField
                objectName: "settingsFilter"
                Layout.preferredWidth: 300
                placeholderText: qsTr("Filter settings (Ctrl+F)…")
                text: BackendSettings.filter
                Accessible.name: qsTr("Filter settings")
                onTextEdited: BackendSettings.filter = text
                Keys.onEscapePressed: {
                    text = ""
                    BackendSettings.filter = ""
                }
            }
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: qsTr("Live changes apply at once; the others at the next start.")
                color: Theme.mutedText
                elide: Text.ElideRight
            }
            Label {
                textFormat: Text.PlainText
                objectName: "settingsCount"
                text: qsTr("%1 shown").arg(BackendSettings.count)
                color: Theme.mutedText
            }
            Button {
                text: qsTr("Reload")
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Reload the settings")
                onClicked: BackendSettings.reload()
            }
        }

        LiveBadge {
            objectName: "settingsListLive"
            Layout.fillWidth: true
            live: BackendSettings.live
        }
        Rectangle {
            Layout.fillWidth: true
            Layout.fillHeight: true
            color: Theme.surface
            radius: Theme.radius
            border.color: Theme.border
            clip: true

            ListView {
                id: settingsList
                objectName: "settingsList"
                anchors.fill: parent
                anchors.margins: 1
                clip: true
                model: BackendSettings
                boundsBehavior: Flickable.StopAtBounds
                activeFocusOnTab: true
                keyNavigationEnabled: true
                Accessible.role: Accessible.List
                Accessible.name: qsTr("Settings")
                ScrollBar.vertical: ScrollBar {}

                delegate: Rectangle {
                    id: row

                    required property int index
                    required property string key
                    required property string group
                    required property string groupTitle
                    required property string type
                    required property string description
                    required property string value
                    required property string defaultValue
                    required property string sourceText
                    required property bool live
                    required property string pending
                    required property bool restartRequired
                    required property bool editable
                    required property string environment
                    required property string error

                    readonly property bool busy: BackendSettings.busyKey === row.key
                    // What the editor holds now.
                    readonly property string edited: row.type === "bool"
                        ? (boolEditor.checked ? "true" : "false") : textEditor.text
                    // What a change would replace: the pending value if there is one.
                    readonly property string current: row.restartRequired ? row.pending : row.value
                    readonly property bool dirty: row.edited !== row.current

                    // A change from the server (applied, discarded, or made elsewhere) replaces
                    // what the editor holds.
                    onCurrentChanged: {
                        textEditor.text = row.current
                        boolEditor.checked = row.current === "true"
                    }

                    // The first setting of a group carries the group's heading. (Not a ListView
                    // section: Qt 6.4 cannot create section delegates under ComponentBehavior:
                    // Bound.)
                    readonly property bool firstInGroup: row.index === 0
                        || BackendSettings.groupAt(row.index - 1) !== row.group

                    objectName: "setting-" + row.key
                    width: ListView.view.width
                    implicitHeight: content.implicitHeight + 20 + (row.firstInGroup ? heading.height : 0)
                    color: row.index % 2 === 0 ? Theme.surface : Theme.stripe
                    Accessible.role: Accessible.ListItem
                    Accessible.name: qsTr("%1: %2").arg(row.key).arg(row.value)

                    Rectangle {
                        id: heading
                        objectName: "section-" + row.groupTitle
                        visible: row.firstInGroup
                        anchors.left: parent.left
                        anchors.right: parent.right
                        anchors.top: parent.top
                        height: 34
                        color: Theme.control
                        Accessible.role: Accessible.Heading
                        Accessible.name: row.groupTitle

                        SectionHeading {
                            anchors.verticalCenter: parent.verticalCenter
                            anchors.left: parent.left
                            anchors.leftMargin: 14
                            text: row.groupTitle
                        }
                    }

                    ColumnLayout {
                        id: content
                        anchors.left: parent.left
                        anchors.right: parent.right
                        anchors.top: row.firstInGroup ? heading.bottom : parent.top
                        anchors.topMargin: 10
                        anchors.leftMargin: 14
                        anchors.rightMargin: 14
                        spacing: 4

                        RowLayout {
                            Layout.fillWidth: true
                            spacing: 8
                            Label {
                                textFormat: Text.PlainText
                                objectName: "settingKey"
                                text: row.key
                                color: Theme.text
                                font.family: Theme.monoFont
                                font.weight: Font.DemiBold
                            }
                            StatusBadge {
                                objectName: "settingLive"
                                visible: row.live
                                family: "ok"
                                text: qsTr("applies live")
                            }
                            StatusBadge {
                                objectName: "settingPending"
                                visible: row.restartRequired
                                family: "waiting"
                                text: qsTr("restart required")
                            }
                            Item { Layout.fillWidth: true }
                            Label {
                                textFormat: Text.PlainText
                                objectName: "settingSource"
                                text: qsTr("from %1").arg(row.sourceText)
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideMiddle
                                Layout.maximumWidth: 360
                            }
                        }
                        Label {
                            textFormat: Text.PlainText
                            Layout.fillWidth: true
                            text: row.description
                            color: Theme.mutedText
                            wrapMode: Text.Wrap
                        }
                        RowLayout {
                            Layout.fillWidth: true
                            spacing: 8

                            Switch {
                                id: boolEditor
                                objectName: "settingSwitch"
                                visible: row.type === "bool"
                                enabled: row.editable && !row.busy
                                checked: row.current === "true"
                                text: checked ? qsTr("on") : qsTr("off")
                                Accessible.name: qsTr("%1 on or off").arg(row.key)
                            }
                            TextField {
                                id: textEditor
                                objectName: "settingField"
                                visible: row.type !== "bool"
                                Layout.preferredWidth: 380
                                enabled: row.editable && !row.busy
                                text: row.current
                                font.family: Theme.monoFont
                                placeholderText: row.defaultValue.length > 0
                                                 ? qsTr("default: %1").arg(row.defaultValue)
                                                 : qsTr("empty")
                                selectByMouse: true
                                Accessible.name: qsTr("Value of %1").arg(row.key)
                                onAccepted: if (row.dirty) BackendSettings.apply(row.key, row.edited)
                                Keys.onEscapePressed: text = row.current
                            }
                            Button {
                                objectName: "settingApply"
                                text: row.live ? qsTr("Apply now") : qsTr("Keep for next start")
                                visible: row.editable && row.dirty
                                enabled: !row.busy
                                       && AdminClient.connectionState === AdminClient.Online
                                highlighted: row.dirty
                                Accessible.name: qsTr("Apply %1").arg(row.key)
                                onClicked: BackendSettings.apply(row.key, row.edited)
                            }
                            Button {
                                objectName: "settingDiscard"
                                text: qsTr("Discard pending")
                                visible: row.restartRequired && row.editable
                                enabled: !row.busy
                                Accessible.name: qsTr("Discard the value of %1 kept for the next start").arg(row.key)
                                onClicked: BackendSettings.reset(row.key)
                            }
                            Label {
                                textFormat: Text.PlainText
                                objectName: "settingNow"
                                visible: row.restartRequired
                                text: qsTr("running with %1").arg(row.value.length > 0 ? row.value : qsTr("(empty)"))
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideRight
                                Layout.fillWidth: true
                            }
                            Label {
                                textFormat: Text.PlainText
                                objectName: "settingFixed"
                                visible: !row.editable
                                Layout.fillWidth: true
                                text: row.key === "data-dir"
                                      ? qsTr("The backend runs from this directory; start it with another --data-dir to change it.")
                                      : qsTr("Given by %1, which wins at every start: change it there.")
                                            .arg(row.sourceText)
                                color: Theme.mutedText
                                font.pixelSize: 12
                                wrapMode: Text.Wrap
                            }
                            Item {
                                Layout.fillWidth: true
                                visible: row.editable && !row.restartRequired
                            }
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "settingError"
                            Layout.fillWidth: true
                            visible: row.error.length > 0
                            text: row.error
                            color: Theme.error
                            wrapMode: Text.Wrap
                            Accessible.role: Accessible.AlertMessage
                        }
                    }
                }
            }

            NotPermittedPane {
                live: BackendSettings.live
            }
        }
    }
}
