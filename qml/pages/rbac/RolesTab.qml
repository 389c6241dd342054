pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The RBAC page's Roles tab: cluster roles, then roles by namespace, one line per rule.
ColumnLayout {
    id: root

    required property bool online

    spacing: Theme.spacing

    ErrorBanner {
        objectName: "rolesError"
        Layout.fillWidth: true
        message: RbacRoles.error
        onDismissed: RbacRoles.clearError()
    }
    ListHeader {
        online: root.online
        text: qsTr("Cluster roles, then roles by namespace; one line per rule.")
        busy: RbacRoles.loading
        onReloadRequested: RbacRoles.reload()
    }
    LiveBadge {
        objectName: "roleListLive"
        Layout.fillWidth: true
        live: RbacRoles.live
    }
    Card {
        Layout.fillWidth: true
        Layout.fillHeight: true
        clip: true

        ListView {
            id: roleList
            objectName: "roleList"
            anchors.fill: parent
            anchors.margins: 1
            clip: true
            model: RbacRoles
            activeFocusOnTab: true
            keyNavigationEnabled: true
            boundsBehavior: Flickable.StopAtBounds
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Roles")
            ScrollBar.vertical: ScrollBar {}

            delegate: Rectangle {
                id: roleRow

                required property int index
                required property string kind
                required property string name
                required property string namespaceName
                required property string scopeText
                required property var rules
                required property bool builtIn

                objectName: "role-" + (roleRow.namespaceName.length > 0 ? roleRow.namespaceName + "/" : "") + roleRow.name
                width: ListView.view.width
                implicitHeight: roleContent.implicitHeight + 20
                color: roleRow.ListView.isCurrentItem && roleList.activeFocus ? Theme.accentSoft
                       : roleRow.index % 2 === 0 ? Theme.surface : Theme.stripe
                Accessible.role: Accessible.ListItem
                Accessible.name: qsTr("%1 %2, %3").arg(roleRow.kind).arg(roleRow.name).arg(roleRow.scopeText)

                ColumnLayout {
                    id: roleContent
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.verticalCenter: parent.verticalCenter
                    anchors.leftMargin: 14
                    anchors.rightMargin: 12
                    spacing: 4

                    RowLayout {
                        Layout.fillWidth: true
                        spacing: 8
                        Label {
                            textFormat: Text.PlainText
                            objectName: "roleName"
                            text: roleRow.name
                            color: Theme.text
                            font.weight: Font.DemiBold
                            elide: Text.ElideRight
                            Layout.maximumWidth: 360
                        }
                        StatusBadge {
                            family: roleRow.kind === "ClusterRole" ? "progress" : "waiting"
                            text: roleRow.kind
                        }
                        Label {
                            textFormat: Text.PlainText
                            text: roleRow.scopeText
                            color: Theme.mutedText
                            font.pixelSize: 12
                        }
                        StatusBadge {
                            visible: roleRow.builtIn
                            family: "cancelled"
                            text: qsTr("built-in")
                        }
                        Item { Layout.fillWidth: true }
                    }
                    Repeater {
                        model: roleRow.rules
                        delegate: Label {
                            textFormat: Text.PlainText
                            required property string modelData
                            Layout.fillWidth: true
                            text: modelData
                            color: Theme.text
                            font.family: Theme.monoFont
                            font.pixelSize: 12
                            wrapMode: Text.Wrap
                        }
                    }
                    Label {
                        textFormat: Text.PlainText
                        visible: roleRow.rules.length === 0
                        text: qsTr("No rules: grants nothing.")
                        color: Theme.mutedText
                        font.pixelSize: 12
                    }
                }
            }
        }
        Label {
            textFormat: Text.PlainText
            anchors.centerIn: parent
            visible: roleList.count === 0 && RbacRoles.loaded && !RbacRoles.loading
            text: qsTr("No roles.")
            color: Theme.mutedText
        }

        NotPermittedPane {
            live: RbacRoles.live
        }
    }
}
