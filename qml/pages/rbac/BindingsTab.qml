pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The RBAC page's Bindings tab: which role each binding grants, and to whom.
ColumnLayout {
    id: root

    required property bool online

    spacing: Theme.spacing

    // A subject or a kind as a small mono pill.
    component Chip: Rectangle {
        id: chip

        property string text

        implicitWidth: chipLabel.implicitWidth + 14
        implicitHeight: chipLabel.implicitHeight + 4
        radius: height / 2
        color: Theme.neutralSoft
        Accessible.role: Accessible.StaticText
        Accessible.name: chip.text
        Label {
            textFormat: Text.PlainText
            id: chipLabel
            anchors.centerIn: parent
            text: chip.text
            color: Theme.text
            font.family: Theme.monoFont
            font.pixelSize: 11
        }
    }

    ErrorBanner {
        objectName: "bindingsError"
        Layout.fillWidth: true
        message: RbacBindings.error
        onDismissed: RbacBindings.clearError()
    }
    ListHeader {
        online: root.online
        text: qsTr("Who gets which role: cluster role bindings, then role bindings by namespace.")
        busy: RbacBindings.loading
        onReloadRequested: RbacBindings.reload()
    }
    LiveBadge {
        objectName: "bindingListLive"
        Layout.fillWidth: true
        live: RbacBindings.live
    }
    Card {
        Layout.fillWidth: true
        Layout.fillHeight: true
        clip: true

        ListView {
            id: bindingList
            objectName: "bindingList"
            anchors.fill: parent
            anchors.margins: 1
            clip: true
            model: RbacBindings
            activeFocusOnTab: true
            keyNavigationEnabled: true
            boundsBehavior: Flickable.StopAtBounds
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Bindings")
            ScrollBar.vertical: ScrollBar {}

            delegate: Rectangle {
                id: bindingRow

                required property int index
                required property string kind
                required property string name
                required property string namespaceName
                required property string scopeText
                required property string roleRefText
                required property var subjects

                objectName: "binding-" + (bindingRow.namespaceName.length > 0 ? bindingRow.namespaceName + "/" : "") + bindingRow.name
                width: ListView.view.width
                implicitHeight: bindingContent.implicitHeight + 20
                color: bindingRow.ListView.isCurrentItem && bindingList.activeFocus ? Theme.accentSoft
                       : bindingRow.index % 2 === 0 ? Theme.surface : Theme.stripe
                Accessible.role: Accessible.ListItem
                Accessible.name: qsTr("%1 %2 grants %3 to %4").arg(bindingRow.kind).arg(bindingRow.name)
                                                             .arg(bindingRow.roleRefText)
                                                             .arg(bindingRow.subjects.length > 0 ? bindingRow.subjects.join(", ") : qsTr("nobody"))

                ColumnLayout {
                    id: bindingContent
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.verticalCenter: parent.verticalCenter
                    anchors.leftMargin: 14
                    anchors.rightMargin: 12
                    spacing: 5

                    RowLayout {
                        Layout.fillWidth: true
                        spacing: 8
                        Label {
                            textFormat: Text.PlainText
                            objectName: "bindingName"
                            text: bindingRow.name
                            color: Theme.text
                            font.weight: Font.DemiBold
                            elide: Text.ElideRight
                            Layout.maximumWidth: 360
                        }
                        StatusBadge {
                            family: bindingRow.kind === "ClusterRoleBinding" ? "progress" : "waiting"
                            text: bindingRow.kind
                        }
                        Label {
                            textFormat: Text.PlainText
                            text: bindingRow.scopeText
                            color: Theme.mutedText
                            font.pixelSize: 12
                        }
                        Item { Layout.fillWidth: true }
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "bindingRole"
                        Layout.fillWidth: true
                        text: qsTr("grants %1 to").arg(bindingRow.roleRefText)
                        color: Theme.text
                        font.pixelSize: 12
                        elide: Text.ElideRight
                    }
                    Flow {
                        objectName: "bindingSubjects"
                        Layout.fillWidth: true
                        spacing: 6
                        Repeater {
                            model: bindingRow.subjects
                            delegate: Chip {
                                required property string modelData
                                text: modelData
                            }
                        }
                        Label {
                            textFormat: Text.PlainText
                            visible: bindingRow.subjects.length === 0
                            text: qsTr("no subjects (grants nothing)")
                            color: Theme.mutedText
                            font.pixelSize: 12
                        }
                    }
                }
            }
        }
        Label {
            textFormat: Text.PlainText
            anchors.centerIn: parent
            visible: bindingList.count === 0 && RbacBindings.loaded && !RbacBindings.loading
            text: qsTr("No bindings.")
            color: Theme.mutedText
        }

        NotPermittedPane {
            live: RbacBindings.live
        }
    }
}
