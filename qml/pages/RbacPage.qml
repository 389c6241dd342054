pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Gatehouse

// Cluster authorization: roles with their rules, bindings (which role, to whom), a who-can
// matrix for any resource, and the cluster API's decisions as they happen, denied ones marked.
// "Kubeconfig…" issues credentials for a user or a node agent.
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

    component Card: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border
        clip: true
    }
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
            id: chipLabel
            anchors.centerIn: parent
            text: chip.text
            color: Theme.text
            font.family: Theme.monoFont
            font.pixelSize: 11
        }
    }
    // The explanation line, busy indicator and Reload above a list.
    component ListHeader: RowLayout {
        id: listHeader

        property string text
        property bool busy
        signal reloadRequested()

        Layout.fillWidth: true
        spacing: 8
        Label {
            Layout.fillWidth: true
            text: listHeader.text
            color: Theme.mutedText
            elide: Text.ElideRight
        }
        BusyIndicator {
            Layout.preferredWidth: 24
            Layout.preferredHeight: 24
            running: listHeader.busy
            visible: running
        }
        Button {
            text: qsTr("Reload")
            enabled: root.online
            Accessible.name: qsTr("Reload this list")
            onClicked: listHeader.reloadRequested()
        }
    }

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

            // Roles.
            ColumnLayout {
                spacing: Theme.spacing

                ErrorBanner {
                    objectName: "rolesError"
                    Layout.fillWidth: true
                    message: RbacRoles.error
                    onDismissed: RbacRoles.clearError()
                }
                ListHeader {
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
                                    visible: roleRow.rules.length === 0
                                    text: qsTr("No rules: grants nothing.")
                                    color: Theme.mutedText
                                    font.pixelSize: 12
                                }
                            }
                        }
                    }
                    Label {
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

            // Bindings.
            ColumnLayout {
                spacing: Theme.spacing

                ErrorBanner {
                    objectName: "bindingsError"
                    Layout.fillWidth: true
                    message: RbacBindings.error
                    onDismissed: RbacBindings.clearError()
                }
                ListHeader {
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
                                        text: bindingRow.scopeText
                                        color: Theme.mutedText
                                        font.pixelSize: 12
                                    }
                                    Item { Layout.fillWidth: true }
                                }
                                Label {
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

            // Who can.
            ColumnLayout {
                spacing: Theme.spacing

                RowLayout {
                    Layout.fillWidth: true
                    spacing: 8
                    Label {
                        text: qsTr("Resource")
                        color: Theme.text
                    }
                    TextField {
                        id: resourceField
                        objectName: "whoCanResourceField"
                        Layout.preferredWidth: 160
                        text: WhoCan.resource
                        placeholderText: "nodes"
                        font.family: Theme.monoFont
                        selectByMouse: true
                        Accessible.name: qsTr("Resource, e.g. nodes or pods")
                        onTextEdited: WhoCan.resource = resourceField.text
                        onAccepted: WhoCan.query()
                    }
                    Label {
                        text: qsTr("Namespace")
                        color: Theme.text
                    }
                    TextField {
                        id: namespaceField
                        objectName: "whoCanNamespaceField"
                        Layout.preferredWidth: 150
                        text: WhoCan.namespaceName
                        placeholderText: qsTr("all (cluster-wide)")
                        font.family: Theme.monoFont
                        selectByMouse: true
                        Accessible.name: qsTr("Namespace (optional)")
                        onTextEdited: WhoCan.namespaceName = namespaceField.text
                        onAccepted: WhoCan.query()
                    }
                    Label {
                        text: qsTr("API group")
                        color: Theme.text
                    }
                    TextField {
                        id: groupField
                        objectName: "whoCanGroupField"
                        Layout.preferredWidth: 150
                        text: WhoCan.apiGroup
                        placeholderText: qsTr("core")
                        font.family: Theme.monoFont
                        selectByMouse: true
                        Accessible.name: qsTr("API group (optional; empty for the core group)")
                        onTextEdited: WhoCan.apiGroup = groupField.text
                        onAccepted: WhoCan.query()
                    }
                    Button {
                        objectName: "whoCanButton"
                        text: qsTr("Check")
                        highlighted: true
                        enabled: root.online && WhoCan.resource.trim().length > 0
                        Accessible.name: qsTr("Ask who can use this resource")
                        onClicked: WhoCan.query()
                    }
                    BusyIndicator {
                        Layout.preferredWidth: 24
                        Layout.preferredHeight: 24
                        running: WhoCan.loading
                        visible: running
                    }
                    Item { Layout.fillWidth: true }
                }
                Label {
                    objectName: "whoCanAnswered"
                    Layout.fillWidth: true
                    visible: WhoCan.answeredText.length > 0 && WhoCan.error.length === 0
                    text: qsTr("Every subject named by a binding, and what it may do with %1.").arg(WhoCan.answeredText)
                    color: Theme.mutedText
                    elide: Text.ElideRight
                }
                Label {
                    objectName: "whoCanError"
                    Layout.fillWidth: true
                    visible: WhoCan.error.length > 0
                    text: WhoCan.error // the server's message, untranslated
                    color: Theme.error
                    wrapMode: Text.Wrap
                    textFormat: Text.PlainText
                }
                Card {
                    Layout.fillWidth: true
                    Layout.fillHeight: true

                    // The verbs above the matrix (a separate item: a ListView header under
                    // ComponentBehavior Bound fails to be created in Qt 6.4).
                    Rectangle {
                        id: matrixHeader
                        anchors.left: parent.left
                        anchors.right: parent.right
                        anchors.top: parent.top
                        anchors.margins: 1
                        height: 34
                        color: Theme.control
                        RowLayout {
                            anchors.fill: parent
                            anchors.leftMargin: 14
                            anchors.rightMargin: 12
                            spacing: 0
                            Label {
                                Layout.fillWidth: true
                                text: qsTr("Subject")
                                color: Theme.mutedText
                                font.weight: Font.DemiBold
                            }
                            Repeater {
                                model: WhoCan.verbs
                                delegate: Label {
                                    required property string modelData
                                    Layout.preferredWidth: 70
                                    horizontalAlignment: Text.AlignHCenter
                                    text: modelData
                                    color: Theme.mutedText
                                    font.family: Theme.monoFont
                                    font.weight: Font.DemiBold
                                    font.pixelSize: 12
                                }
                            }
                        }
                    }
                    ListView {
                        id: matrix
                        objectName: "whoCanMatrix"
                        anchors.left: parent.left
                        anchors.right: parent.right
                        anchors.top: matrixHeader.bottom
                        anchors.bottom: parent.bottom
                        anchors.margins: 1
                        anchors.topMargin: 0
                        clip: true
                        model: WhoCan
                        activeFocusOnTab: true
                        keyNavigationEnabled: true
                        boundsBehavior: Flickable.StopAtBounds
                        Accessible.role: Accessible.Table
                        Accessible.name: qsTr("Who can: subjects by verbs")
                        ScrollBar.vertical: ScrollBar {}

                        delegate: Rectangle {
                            id: subjectRow

                            required property int index
                            required property string kind
                            required property string name
                            required property string namespaceName
                            required property string subjectText
                            required property var allowed
                            required property int allowedCount
                            required property string allowedVerbsText

                            objectName: "subject-" + subjectRow.kind + "-" + (subjectRow.namespaceName.length > 0 ? subjectRow.namespaceName + "/" : "") + subjectRow.name
                            width: ListView.view.width
                            height: 40
                            color: subjectRow.ListView.isCurrentItem && matrix.activeFocus ? Theme.accentSoft
                                   : subjectRow.index % 2 === 0 ? Theme.surface : Theme.stripe
                            Accessible.role: Accessible.Row
                            Accessible.name: qsTr("%1 may: %2").arg(subjectRow.subjectText)
                                                             .arg(subjectRow.allowedVerbsText.length > 0 ? subjectRow.allowedVerbsText : qsTr("nothing"))

                            RowLayout {
                                anchors.fill: parent
                                anchors.leftMargin: 14
                                anchors.rightMargin: 12
                                spacing: 0
                                RowLayout {
                                    Layout.fillWidth: true
                                    spacing: 8
                                    Label {
                                        text: subjectRow.kind
                                        color: Theme.mutedText
                                        font.pixelSize: 12
                                        Layout.preferredWidth: 100
                                        elide: Text.ElideRight
                                    }
                                    Label {
                                        objectName: "subjectName"
                                        Layout.fillWidth: true
                                        text: subjectRow.namespaceName.length > 0 ? subjectRow.namespaceName + "/" + subjectRow.name
                                                                                  : subjectRow.name
                                        color: subjectRow.allowedCount > 0 ? Theme.text : Theme.mutedText
                                        font.family: Theme.monoFont
                                        font.weight: subjectRow.allowedCount > 0 ? Font.DemiBold : Font.Normal
                                        elide: Text.ElideRight
                                    }
                                }
                                Repeater {
                                    model: WhoCan.verbs
                                    delegate: Item {
                                        id: cell

                                        required property int index
                                        required property string modelData
                                        readonly property bool allowed: subjectRow.allowed[cell.index] === true

                                        objectName: "cell-" + cell.modelData
                                        Layout.preferredWidth: 70
                                        Layout.fillHeight: true
                                        Accessible.role: Accessible.Cell
                                        Accessible.name: cell.allowed ? qsTr("%1: allowed").arg(cell.modelData)
                                                                      : qsTr("%1: not allowed").arg(cell.modelData)
                                        Rectangle {
                                            anchors.centerIn: parent
                                            width: 22
                                            height: 22
                                            radius: 11
                                            color: cell.allowed ? Theme.success : "transparent"
                                            Label {
                                                objectName: "mark"
                                                anchors.centerIn: parent
                                                text: cell.allowed ? "✓" : "–"
                                                color: cell.allowed ? Theme.onAccent : Theme.idle
                                                font.weight: Font.Bold
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    Label {
                        anchors.centerIn: parent
                        visible: matrix.count === 0 && !WhoCan.loading && WhoCan.answeredText.length > 0
                        text: qsTr("No binding names a subject.")
                        color: Theme.mutedText
                    }
                }
            }

            // Requests, live.
            ColumnLayout {
                spacing: Theme.spacing

                ErrorBanner {
                    objectName: "requestsError"
                    Layout.fillWidth: true
                    message: ClusterRequests.error
                }
                RowLayout {
                    Layout.fillWidth: true
                    spacing: 8
                    Label {
                        Layout.fillWidth: true
                        text: qsTr("The cluster API's decisions as they happen, newest first; denied requests in red.")
                        color: Theme.mutedText
                        elide: Text.ElideRight
                    }
                    BusyIndicator {
                        Layout.preferredWidth: 24
                        Layout.preferredHeight: 24
                        running: ClusterRequests.loading
                        visible: running
                    }
                    CheckBox {
                        id: deniedOnly
                        objectName: "deniedOnlyCheck"
                        text: qsTr("Denied only")
                        checked: ClusterRequests.deniedOnly
                        Accessible.name: qsTr("Show denied requests only")
                        onToggled: ClusterRequests.deniedOnly = deniedOnly.checked
                    }
                    CheckBox {
                        id: hideAdminReads
                        objectName: "hideAdminReadsCheck"
                        text: qsTr("Hide admin API reads")
                        checked: ClusterRequests.hideAdminReads
                        Accessible.name: qsTr("Hide the reads the admin API makes as gatehouse-admin, such as this console's own lists")
                        onToggled: ClusterRequests.hideAdminReads = hideAdminReads.checked
                    }
                    Button {
                        text: qsTr("Reload")
                        enabled: root.online
                        Accessible.name: qsTr("Reload the recent requests")
                        onClicked: ClusterRequests.reload()
                    }
                }
                LiveBadge {
                    objectName: "requestListLive"
                    Layout.fillWidth: true
                    live: ClusterRequests.live
                }
                Card {
                    Layout.fillWidth: true
                    Layout.fillHeight: true

                    ListView {
                        id: requestList
                        objectName: "requestList"
                        anchors.fill: parent
                        anchors.margins: 1
                        clip: true
                        model: ClusterRequests
                        activeFocusOnTab: true
                        keyNavigationEnabled: true
                        boundsBehavior: Flickable.StopAtBounds
                        Accessible.role: Accessible.List
                        Accessible.name: qsTr("Cluster API requests")
                        ScrollBar.vertical: ScrollBar {}
                        // Space or Enter opens (or closes) the current denied row's explanation.
                        Keys.onSpacePressed: ClusterRequests.toggleExpanded(requestList.currentIndex)
                        Keys.onReturnPressed: ClusterRequests.toggleExpanded(requestList.currentIndex)
                        Keys.onEnterPressed: ClusterRequests.toggleExpanded(requestList.currentIndex)

                        delegate: Rectangle {
                            id: requestRow

                            required property int index
                            required property string timeText
                            required property string user
                            required property string groupsText
                            required property string method
                            required property string path
                            required property int code
                            required property bool denied
                            required property string stage
                            required property string reason
                            required property string denialHeadline
                            required property var quotes
                            required property var nearMisses
                            required property int nearMissCount
                            required property bool expanded

                            objectName: "request-" + requestRow.index
                            width: ListView.view.width
                            implicitHeight: requestContent.implicitHeight + 14
                            color: requestRow.denied ? Theme.errorSoft
                                   : requestRow.index % 2 === 0 ? Theme.surface : Theme.stripe
                            border.color: requestRow.ListView.isCurrentItem && requestList.activeFocus ? Theme.accent : "transparent"
                            Accessible.role: Accessible.ListItem
                            Accessible.name: requestRow.denied
                                             ? qsTr("Denied: %1 %2 by %3, %4 at %5: %6").arg(requestRow.method).arg(requestRow.path)
                                                   .arg(requestRow.user).arg(requestRow.code).arg(requestRow.stage).arg(requestRow.reason)
                                             : qsTr("%1 %2 by %3, %4").arg(requestRow.method).arg(requestRow.path)
                                                   .arg(requestRow.user).arg(requestRow.code)

                            Rectangle {
                                width: 3
                                height: parent.height
                                color: Theme.error
                                visible: requestRow.denied
                            }
                            RowLayout {
                                id: requestContent
                                anchors.left: parent.left
                                anchors.right: parent.right
                                anchors.verticalCenter: parent.verticalCenter
                                anchors.leftMargin: 14
                                anchors.rightMargin: 12
                                spacing: 12

                                Label {
                                    Layout.preferredWidth: 70
                                    Layout.alignment: Qt.AlignTop
                                    text: requestRow.timeText
                                    color: Theme.mutedText
                                    font.family: Theme.monoFont
                                    font.pixelSize: 12
                                }
                                StatusBadge {
                                    objectName: "requestCode"
                                    Layout.preferredWidth: 52
                                    Layout.alignment: Qt.AlignTop
                                    family: requestRow.denied ? "exception" : "ok"
                                    text: String(requestRow.code)
                                }
                                ColumnLayout {
                                    Layout.fillWidth: true
                                    spacing: 2
                                    RowLayout {
                                        Layout.fillWidth: true
                                        spacing: 8
                                        Label {
                                            objectName: "requestLine"
                                            Layout.fillWidth: true
                                            text: requestRow.method + " " + requestRow.path
                                            color: Theme.text
                                            font.family: Theme.monoFont
                                            font.pixelSize: 12
                                            font.weight: Font.DemiBold
                                            elide: Text.ElideMiddle
                                        }
                                        StatusBadge {
                                            objectName: "deniedBadge"
                                            visible: requestRow.denied
                                            family: "exception"
                                            text: qsTr("denied at %1").arg(requestRow.stage)
                                        }
                                        // A denied row opens to the denial explainer's answer.
                                        Button {
                                            id: whyButton
                                            objectName: "whyButton"
                                            visible: requestRow.denied
                                            flat: true
                                            padding: 2
                                            leftPadding: 8
                                            rightPadding: 8
                                            font.pixelSize: 12
                                            text: (requestRow.expanded ? "▾ " : "▸ ")
                                                  + (requestRow.nearMissCount === 0 ? qsTr("Why denied")
                                                     : requestRow.nearMissCount === 1 ? qsTr("Why denied · 1 near miss")
                                                     : qsTr("Why denied · %1 near misses").arg(requestRow.nearMissCount))
                                            Accessible.name: requestRow.expanded ? qsTr("Hide why the request was denied")
                                                                                 : qsTr("Show why the request was denied")
                                            onClicked: ClusterRequests.setExpanded(requestRow.index, !requestRow.expanded)
                                        }
                                    }
                                    Label {
                                        objectName: "requestUser"
                                        Layout.fillWidth: true
                                        text: requestRow.user.length === 0 ? qsTr("no user: not authenticated")
                                              : requestRow.groupsText.length > 0 ? qsTr("%1 (%2)").arg(requestRow.user).arg(requestRow.groupsText)
                                              : requestRow.user
                                        color: Theme.mutedText
                                        font.pixelSize: 12
                                        elide: Text.ElideRight
                                    }
                                    Label {
                                        objectName: "requestReason"
                                        Layout.fillWidth: true
                                        visible: requestRow.reason.length > 0
                                        text: requestRow.reason // the server's words
                                        color: requestRow.denied ? Theme.error : Theme.mutedText
                                        font.pixelSize: 12
                                        wrapMode: Text.Wrap
                                        maximumLineCount: 3
                                        elide: Text.ElideRight
                                        textFormat: Text.PlainText
                                    }
                                    DenialDetails {
                                        objectName: "requestDenial"
                                        Layout.fillWidth: true
                                        Layout.topMargin: 4
                                        Layout.bottomMargin: 4
                                        visible: requestRow.denied && requestRow.expanded
                                        headline: requestRow.denialHeadline
                                        stage: requestRow.stage
                                        quotes: requestRow.quotes
                                        nearMisses: requestRow.nearMisses
                                    }
                                }
                            }
                        }
                    }
                    Label {
                        anchors.centerIn: parent
                        width: parent.width - 40
                        visible: requestList.count === 0 && ClusterRequests.loaded && !ClusterRequests.loading
                        horizontalAlignment: Text.AlignHCenter
                        wrapMode: Text.Wrap
                        text: ClusterRequests.totalCount > 0
                              ? qsTr("No request matches the filters.")
                              : qsTr("No cluster API requests yet. Apply a label change on the Nodes page, or point kubectl at the cluster listener.")
                        color: Theme.mutedText
                    }

                    NotPermittedPane {
                        live: ClusterRequests.live
                    }
                }
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
