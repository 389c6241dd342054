pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Cluster nodes and their labels. Pick a node and an identity to act as, edit the labels, and
// the server explains the pending change as you type: who is asking, which rule lets them (or
// why none does), and what NodeRestriction says, with the code the request would get. Apply
// sends it for real. Anonymous access to the cluster API is switched here too, live. One file
// per section in nodes/.
Pane {
    id: root

    readonly property bool online: AdminClient.connectionState === AdminClient.Online

    padding: 20
    background: Rectangle { color: Theme.background }
    palette.disabled.buttonText: Theme.idle
    palette.disabled.windowText: Theme.idle

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        ErrorBanner {
            objectName: "nodesError"
            Layout.fillWidth: true
            message: Nodes.error
            onDismissed: Nodes.clearError()
        }
        ErrorBanner {
            objectName: "clusterSettingsError"
            Layout.fillWidth: true
            message: ClusterSettings.error
            onDismissed: ClusterSettings.clearError()
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: qsTr("Edit a node's labels as someone else: the server explains every change before you apply it.")
                color: Theme.mutedText
                elide: Text.ElideRight
            }
            BusyIndicator {
                Layout.preferredWidth: 24
                Layout.preferredHeight: 24
                running: Nodes.loading || ClusterSettings.busy
                visible: running
            }
            Switch {
                id: anonymousSwitch
                objectName: "anonymousSwitch"
                text: qsTr("Anonymous access")
                checked: ClusterSettings.anonymousAuth
                enabled: root.online && ClusterSettings.loaded && !ClusterSettings.busy
                ToolTip.visible: anonymousSwitch.hovered
                ToolTip.delay: 600
                ToolTip.text: ClusterSettings.summary
                Accessible.name: qsTr("Anonymous access to the cluster API (applies at once)")
                onToggled: ClusterSettings.setAnonymousAuth(anonymousSwitch.checked)
            }
            Button {
                text: qsTr("Reload")
                enabled: root.online
                Accessible.name: qsTr("Reload the nodes")
                onClicked: {
                    Nodes.reload()
                    ClusterSettings.reload()
                }
            }
        }

        LiveBadge {
            objectName: "nodeListLive"
            Layout.fillWidth: true
            live: Nodes.live
        }
        RowLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: Theme.spacing

            // The nodes.
            NodeListCard {
                Layout.preferredWidth: 210
                Layout.fillHeight: true
            }

            ColumnLayout {
                Layout.fillWidth: true
                Layout.fillHeight: true
                spacing: Theme.spacing

                ScrollView {
                    id: editorScroll
                    objectName: "nodeEditorScroll"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    clip: true
                    contentWidth: availableWidth

                    GridLayout {
                        id: editorGrid
                        width: editorScroll.availableWidth
                        columns: editorScroll.availableWidth >= 860 ? 2 : 1
                        columnSpacing: Theme.spacing
                        rowSpacing: Theme.spacing

                        // Who is asking.
                        IdentityCard {
                            objectName: "identityCard"
                            Layout.fillWidth: true
                            Layout.columnSpan: editorGrid.columns
                        }

                        // The labels as edited.
                        LabelsCard {
                            objectName: "labelsCard"
                            Layout.fillWidth: true
                            Layout.preferredWidth: 1
                            Layout.alignment: Qt.AlignTop
                        }

                        // The server's verdict, and the real answer.
                        VerdictCard {
                            objectName: "verdictCard"
                            Layout.fillWidth: true
                            Layout.preferredWidth: 1
                            Layout.alignment: Qt.AlignTop
                            online: root.online
                        }

                        // Why it is refused (the real answer's once applied, else the dry run's).
                        DenialCard {
                            objectName: "denialCard"
                            Layout.fillWidth: true
                            Layout.columnSpan: editorGrid.columns
                        }
                    }
                }

                // One column: the verdict and Apply stay in sight below the scrolled editor.
                VerdictBar {
                    objectName: "verdictBar"
                    Layout.fillWidth: true
                    visible: editorGrid.columns === 1 && NodeEditor.nodeKnown
                    online: root.online
                }
            }
        }
    }

    Shortcut {
        sequences: ["Ctrl+Return", "Ctrl+Enter"]
        enabled: root.visible && NodeEditor.canApply && root.online
        onActivated: NodeEditor.apply()
    }
}
