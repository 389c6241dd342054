pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Gatehouse

// Cluster authorization: roles with their rules, bindings (which role, to whom), a who-can
// matrix for any resource, and the cluster API's decisions as they happen, denied ones marked.
// "Kubeconfig…" issues credentials for a user or a node agent. One file per tab in rbac/.
Pane {
    id: root

    readonly property bool online: AdminClient.connectionState === AdminClient.Online

    // Shows a tab: "roles", "bindings", "who-can" or "requests" (the dashboard's cluster tile).
    function showSection(section: string) {
        switch (section) {
        case "roles": tabs.currentIndex = 0; break
        case "bindings": tabs.currentIndex = 1; break
        case "who-can": tabs.currentIndex = 2; break
        case "requests": tabs.currentIndex = 3; break
        }
    }

    padding: 20
    background: Rectangle { color: Theme.background }
    palette.disabled.buttonText: Theme.idle
    palette.disabled.windowText: Theme.idle

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        RowLayout {
            Layout.fillWidth: true
            spacing: 8

            TabBar {
                id: tabs
                objectName: "rbacTabs"
                Layout.fillWidth: true
                background: Rectangle {
                    color: "transparent"
                    Rectangle {
                        anchors.left: parent.left
                        anchors.right: parent.right
                        anchors.bottom: parent.bottom
                        height: 1
                        color: Theme.border
                    }
                }
                PageTab {
                    objectName: "rolesTab"
                    text: qsTr("Roles (%1)").arg(RbacRoles.count)
                }
                PageTab {
                    objectName: "bindingsTab"
                    text: qsTr("Bindings (%1)").arg(RbacBindings.count)
                }
                PageTab {
                    objectName: "whoCanTab"
                    text: qsTr("Who can")
                }
                PageTab {
                    objectName: "requestsTab"
                    text: ClusterRequests.deniedCount > 0
                          ? qsTr("Requests (%1, %2 denied)").arg(ClusterRequests.totalCount).arg(ClusterRequests.deniedCount)
                          : qsTr("Requests (%1)").arg(ClusterRequests.totalCount)
                }
            }
            Button {
                objectName: "clusterAccessButton"
                text: qsTr("Effective access…")
                enabled: root.online
                Accessible.name: qsTr("What an identity may do in the cluster")
                onClicked: accessDialog.openForCluster()
            }
            Button {
                objectName: "kubeconfigOpenButton"
                text: qsTr("Kubeconfig…")
                enabled: root.online
                Accessible.name: qsTr("Issue a kubeconfig for a user or a node agent")
                onClicked: kubeconfigDialog.open()
            }
        }

        StackLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: tabs.currentIndex

            RolesTab {
                online: root.online
            }
            BindingsTab {
                online: root.online
            }
            WhoCanTab {
                online: root.online
            }
            RequestsTab {
                online: root.online
            }
        }
    }

    AccessDialog {
        id: accessDialog
    }

    KubeconfigDialog {
        id: kubeconfigDialog
        onSaveRequested: kubeconfigFile.open()
    }

    FileDialog {
        id: kubeconfigFile
        objectName: "kubeconfigFileDialog"
        title: qsTr("Save kubeconfig")
        fileMode: FileDialog.SaveFile
        acceptLabel: qsTr("Save")
        nameFilters: [qsTr("Kubeconfig files (*.kubeconfig *.yaml)"), qsTr("All files (*)")]
        selectedFile: KubeconfigForm.suggestedFile
        onAccepted: kubeconfigDialog.saveTo(kubeconfigFile.selectedFile)
    }
}
