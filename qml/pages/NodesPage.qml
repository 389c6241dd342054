pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Cluster nodes and their labels. Pick a node and an identity to act as, edit the labels, and
// the server explains the pending change as you type: who is asking, which rule lets them (or
// why none does), and what NodeRestriction says, with the code the request would get. Apply
// sends it for real. Anonymous access to the cluster API is switched here too, live.
Pane {
    id: root

    readonly property bool online: AdminClient.connectionState === AdminClient.Online

    padding: 20
    background: Rectangle { color: Theme.background }
    palette.disabled.buttonText: Theme.idle
    palette.disabled.windowText: Theme.idle

    component Card: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border
    }

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
            Card {
                Layout.preferredWidth: 210
                Layout.fillHeight: true
                clip: true

                ColumnLayout {
                    anchors.fill: parent
                    anchors.margins: 1
                    spacing: 0

                    SectionHeading {
                        Layout.fillWidth: true
                        Layout.margins: 12
                        Layout.bottomMargin: 6
                        text: qsTr("Nodes (%1)").arg(Nodes.count)
                    }
                    ListView {
                        id: nodeList
                        objectName: "nodeList"
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        clip: true
                        model: Nodes
                        currentIndex: Nodes.count >= 0 ? Nodes.indexOfId(NodeEditor.nodeName) : -1
                        keyNavigationEnabled: true
                        activeFocusOnTab: true
                        highlightMoveDuration: 0
                        boundsBehavior: Flickable.StopAtBounds
                        Accessible.role: Accessible.List
                        Accessible.name: qsTr("Nodes")
                        ScrollBar.vertical: ScrollBar {}
                        onCurrentIndexChanged: {
                            if (nodeList.currentIndex >= 0)
                                NodeEditor.nodeName = Nodes.idAt(nodeList.currentIndex)
                        }

                        delegate: ItemDelegate {
                            id: nodeRow

                            required property int index
                            required property string name
                            required property bool ready
                            required property string readyText
                            required property int labelCount
                            required property string kubeletVersion
                            required property string zone
                            readonly property string labelCountText: nodeRow.labelCount === 1 ? qsTr("1 label")
                                                                                              : qsTr("%1 labels").arg(nodeRow.labelCount)

                            objectName: "node-" + nodeRow.name
                            width: ListView.view.width
                            highlighted: ListView.isCurrentItem
                            focusPolicy: Qt.NoFocus
                            leftPadding: 12
                            rightPadding: 10
                            Accessible.role: Accessible.ListItem
                            Accessible.name: qsTr("%1, %2, %3").arg(nodeRow.name).arg(nodeRow.readyText)
                                                               .arg(nodeRow.labelCountText)

                            background: Rectangle {
                                color: nodeRow.highlighted ? Theme.accentSoft
                                                           : nodeRow.hovered ? Theme.stripe : "transparent"
                                Rectangle {
                                    width: 3
                                    height: parent.height
                                    color: Theme.accent
                                    visible: nodeRow.highlighted
                                }
                            }
                            contentItem: ColumnLayout {
                                spacing: 3
                                RowLayout {
                                    spacing: 8
                                    Label {
                                        objectName: "nodeName"
                                        Layout.fillWidth: true
                                        text: nodeRow.name
                                        color: Theme.text
                                        font.weight: Font.DemiBold
                                        elide: Text.ElideRight
                                    }
                                    StatusBadge {
                                        objectName: "readyBadge"
                                        family: nodeRow.ready ? "ok" : "exception"
                                        text: nodeRow.readyText
                                    }
                                }
                                Label {
                                    objectName: "nodeFacts"
                                    Layout.fillWidth: true
                                    text: nodeRow.labelCountText
                                          + (nodeRow.kubeletVersion.length > 0 ? " · " + nodeRow.kubeletVersion : "")
                                          + (nodeRow.zone.length > 0 ? " · " + nodeRow.zone : "")
                                    color: Theme.mutedText
                                    font.pixelSize: 12
                                    elide: Text.ElideRight
                                }
                            }
                            onClicked: NodeEditor.nodeName = nodeRow.name
                        }
                    }
                    Label {
                        Layout.fillWidth: true
                        Layout.margins: 12
                        visible: Nodes.count === 0 && Nodes.loaded && !Nodes.loading
                        text: qsTr("No nodes. A kubelet registers its node through the cluster API.")
                        color: Theme.mutedText
                        wrapMode: Text.Wrap
                    }
                }

                NotPermittedPane {
                    live: Nodes.live
                }
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
                        Card {
                            objectName: "identityCard"
                            Layout.fillWidth: true
                            Layout.columnSpan: editorGrid.columns
                            implicitHeight: identity.implicitHeight + 28

                            ColumnLayout {
                                id: identity
                                anchors.left: parent.left
                                anchors.right: parent.right
                                anchors.top: parent.top
                                anchors.margins: 14
                                spacing: 8

                                RowLayout {
                                    Layout.fillWidth: true
                                    spacing: 8
                                    Label {
                                        text: qsTr("Act as")
                                        color: Theme.text
                                        font.weight: Font.DemiBold
                                    }
                                    ComboBox {
                                        id: identityCombo
                                        objectName: "identityCombo"
                                        Layout.preferredWidth: 170
                                        model: NodeEditor.identityOptions
                                        textRole: "text"
                                        valueRole: "value"
                                        currentIndex: NodeEditor.identity
                                        Accessible.name: qsTr("Identity to act as")
                                        onActivated: NodeEditor.identity = identityCombo.currentValue
                                    }
                                    TextField {
                                        id: agentNodeField
                                        objectName: "agentNodeField"
                                        Layout.fillWidth: true
                                        visible: NodeEditor.identity === NodeEditor.NodeAgent
                                        text: NodeEditor.agentNode
                                        placeholderText: qsTr("Node the agent runs on")
                                        font.family: Theme.monoFont
                                        selectByMouse: true
                                        Accessible.name: qsTr("Name of the node the agent runs on")
                                        onTextEdited: NodeEditor.agentNode = agentNodeField.text
                                    }
                                    TextField {
                                        id: customUserField
                                        objectName: "customUserField"
                                        Layout.fillWidth: true
                                        visible: NodeEditor.identity === NodeEditor.CustomUser
                                        text: NodeEditor.customUser
                                        placeholderText: qsTr("User name")
                                        font.family: Theme.monoFont
                                        selectByMouse: true
                                        Accessible.name: qsTr("User name to act as")
                                        onTextEdited: NodeEditor.customUser = customUserField.text
                                    }
                                    TextField {
                                        id: customGroupsField
                                        objectName: "customGroupsField"
                                        Layout.fillWidth: true
                                        visible: NodeEditor.identity === NodeEditor.CustomUser
                                        text: NodeEditor.customGroups
                                        placeholderText: qsTr("Groups, comma-separated")
                                        font.family: Theme.monoFont
                                        selectByMouse: true
                                        Accessible.name: qsTr("Groups of the user, comma-separated")
                                        onTextEdited: NodeEditor.customGroups = customGroupsField.text
                                    }
                                    Item {
                                        Layout.fillWidth: true
                                        visible: NodeEditor.identity === NodeEditor.ClusterAdmin
                                                 || NodeEditor.identity === NodeEditor.Anonymous
                                    }
                                }
                                Label {
                                    objectName: "identityText"
                                    Layout.fillWidth: true
                                    visible: NodeEditor.identityError.length === 0
                                    text: NodeEditor.identityText
                                    color: Theme.mutedText
                                    font.family: Theme.monoFont
                                    font.pixelSize: 12
                                    elide: Text.ElideRight
                                }
                                Label {
                                    objectName: "identityError"
                                    Layout.fillWidth: true
                                    visible: NodeEditor.identityError.length > 0
                                    text: NodeEditor.identityError
                                    color: Theme.error
                                    wrapMode: Text.Wrap
                                }
                                Label {
                                    objectName: "anonymousOffNote"
                                    Layout.fillWidth: true
                                    visible: NodeEditor.identity === NodeEditor.Anonymous && ClusterSettings.loaded
                                             && !ClusterSettings.anonymousAuth
                                    text: qsTr("Anonymous access is off: a request without credentials is refused as unauthorized.")
                                    color: Theme.warning
                                    font.pixelSize: 12
                                    wrapMode: Text.Wrap
                                }
                            }
                        }

                        // The labels as edited.
                        Card {
                            objectName: "labelsCard"
                            Layout.fillWidth: true
                            Layout.preferredWidth: 1
                            Layout.alignment: Qt.AlignTop
                            implicitHeight: labelsColumn.implicitHeight + 28

                            ColumnLayout {
                                id: labelsColumn
                                anchors.left: parent.left
                                anchors.right: parent.right
                                anchors.top: parent.top
                                anchors.margins: 14
                                spacing: 6

                                RowLayout {
                                    Layout.fillWidth: true
                                    SectionHeading {
                                        Layout.fillWidth: true
                                        text: NodeEditor.nodeName.length > 0 ? qsTr("Labels of %1").arg(NodeEditor.nodeName)
                                                                             : qsTr("Labels")
                                        elide: Text.ElideRight
                                    }
                                    Label {
                                        objectName: "resourceVersion"
                                        visible: NodeEditor.resourceVersion.length > 0
                                        text: qsTr("resourceVersion %1").arg(NodeEditor.resourceVersion)
                                        color: Theme.mutedText
                                        font.pixelSize: 12
                                    }
                                }
                                Label {
                                    Layout.fillWidth: true
                                    visible: NodeEditor.nodeName.length === 0
                                    text: qsTr("Pick a node on the left.")
                                    color: Theme.mutedText
                                }

                                Repeater {
                                    id: labelRows
                                    model: NodeEditor.labels
                                    delegate: RowLayout {
                                        id: labelRow

                                        required property int index
                                        required property string key
                                        required property string value
                                        required property string originalValue
                                        required property string state
                                        required property string stateText
                                        required property bool isNew
                                        required property bool isRemoved

                                        objectName: "label-" + labelRow.key
                                        Layout.fillWidth: true
                                        spacing: 6

                                        Label {
                                            id: keyLabel
                                            objectName: "labelKey"
                                            Layout.fillWidth: true
                                            Layout.preferredWidth: 3
                                            text: labelRow.key
                                            color: labelRow.isRemoved ? Theme.mutedText : Theme.text
                                            font.family: Theme.monoFont
                                            font.pixelSize: 12
                                            font.strikeout: labelRow.isRemoved
                                            elide: Text.ElideMiddle
                                            ToolTip.visible: keyHover.hovered && keyLabel.truncated
                                            ToolTip.text: labelRow.key
                                            HoverHandler { id: keyHover }
                                        }
                                        TextField {
                                            id: valueField
                                            objectName: "labelValueField"
                                            Layout.fillWidth: true
                                            Layout.preferredWidth: 2
                                            text: labelRow.value
                                            enabled: !labelRow.isRemoved
                                            font.family: Theme.monoFont
                                            font.pixelSize: 12
                                            selectByMouse: true
                                            Accessible.name: qsTr("Value of label %1").arg(labelRow.key)
                                            onTextEdited: NodeEditor.setLabelValue(labelRow.index, valueField.text)
                                        }
                                        // What the change does to this label; room is kept so the
                                        // fields do not move while typing.
                                        Item {
                                            Layout.preferredWidth: 64
                                            implicitHeight: stateBadge.implicitHeight
                                            StatusBadge {
                                                id: stateBadge
                                                objectName: "labelState"
                                                anchors.centerIn: parent
                                                visible: labelRow.state !== "unchanged"
                                                family: labelRow.state === "removed" ? "exception"
                                                        : labelRow.state === "added" ? "ok" : "waiting"
                                                text: labelRow.stateText
                                            }
                                        }
                                        ToolButton {
                                            id: labelButton

                                            readonly property bool restores: labelRow.isRemoved || labelRow.state === "changed"

                                            objectName: labelButton.restores ? "restoreLabelButton" : "removeLabelButton"
                                            Layout.preferredWidth: 32
                                            text: labelButton.restores ? "↺" : "✕"
                                            font.pixelSize: 15
                                            ToolTip.visible: labelButton.hovered
                                            ToolTip.delay: 500
                                            ToolTip.text: labelButton.Accessible.name
                                            Accessible.name: labelButton.restores ? qsTr("Restore label %1").arg(labelRow.key)
                                                                                  : qsTr("Remove label %1").arg(labelRow.key)
                                            onClicked: {
                                                if (labelButton.restores)
                                                    NodeEditor.restoreLabel(labelRow.index)
                                                else
                                                    NodeEditor.removeLabel(labelRow.index)
                                            }
                                        }
                                    }
                                }

                                // A new label; it is part of the change set while its key is typed.
                                RowLayout {
                                    Layout.fillWidth: true
                                    Layout.topMargin: 4
                                    visible: NodeEditor.nodeKnown
                                    spacing: 6
                                    TextField {
                                        id: newKeyField
                                        objectName: "newLabelKeyField"
                                        Layout.fillWidth: true
                                        Layout.preferredWidth: 3
                                        text: NodeEditor.newKey
                                        placeholderText: qsTr("New key, e.g. example.com/rack")
                                        font.family: Theme.monoFont
                                        font.pixelSize: 12
                                        selectByMouse: true
                                        Accessible.name: qsTr("Key of a new label")
                                        onTextEdited: NodeEditor.newKey = newKeyField.text
                                        onAccepted: newValueField.forceActiveFocus()
                                    }
                                    TextField {
                                        id: newValueField
                                        objectName: "newLabelValueField"
                                        Layout.fillWidth: true
                                        Layout.preferredWidth: 2
                                        text: NodeEditor.newValue
                                        placeholderText: qsTr("Value")
                                        font.family: Theme.monoFont
                                        font.pixelSize: 12
                                        selectByMouse: true
                                        Accessible.name: qsTr("Value of the new label")
                                        onTextEdited: NodeEditor.newValue = newValueField.text
                                        onAccepted: addButton.clicked()
                                    }
                                    Button {
                                        id: addButton
                                        objectName: "addLabelButton"
                                        Layout.preferredWidth: 102
                                        text: qsTr("Add")
                                        enabled: NodeEditor.newKey.trim().length > 0
                                        Accessible.name: qsTr("Add the new label to the table")
                                        onClicked: {
                                            NodeEditor.addLabel()
                                            newKeyField.forceActiveFocus()
                                        }
                                    }
                                }

                                Label {
                                    objectName: "changesText"
                                    Layout.fillWidth: true
                                    Layout.topMargin: 4
                                    visible: NodeEditor.nodeKnown
                                    text: NodeEditor.hasChanges ? qsTr("Pending change: %1").arg(NodeEditor.changesText)
                                                                : qsTr("No pending change: the verdict is for an empty label patch.")
                                    color: Theme.mutedText
                                    font.pixelSize: 12
                                    wrapMode: Text.WrapAnywhere
                                    textFormat: Text.PlainText
                                }
                            }
                        }

                        // The server's verdict, and the real answer.
                        Card {
                            objectName: "verdictCard"
                            Layout.fillWidth: true
                            Layout.preferredWidth: 1
                            Layout.alignment: Qt.AlignTop
                            implicitHeight: verdict.implicitHeight + 28

                            ColumnLayout {
                                id: verdict
                                anchors.left: parent.left
                                anchors.right: parent.right
                                anchors.top: parent.top
                                anchors.margins: 14
                                spacing: 8

                                RowLayout {
                                    Layout.fillWidth: true
                                    spacing: 8
                                    SectionHeading {
                                        Layout.fillWidth: true
                                        text: qsTr("Verdict (dry run)")
                                    }
                                    BusyIndicator {
                                        objectName: "explainBusy"
                                        Layout.preferredWidth: 20
                                        Layout.preferredHeight: 20
                                        running: NodeEditor.explaining
                                        visible: running
                                    }
                                }
                                RowLayout {
                                    Layout.fillWidth: true
                                    visible: NodeEditor.explained
                                    spacing: 10
                                    Label {
                                        objectName: "verdictCode"
                                        text: NodeEditor.codeText
                                        color: NodeEditor.allowed ? Theme.success : Theme.error
                                        font.pixelSize: 20
                                        font.weight: Font.DemiBold
                                        Accessible.role: Accessible.StaticText
                                        Accessible.name: qsTr("The request would get %1").arg(NodeEditor.codeText)
                                    }
                                    Label {
                                        Layout.fillWidth: true
                                        Layout.alignment: Qt.AlignBaseline
                                        text: NodeEditor.allowed ? qsTr("the change would be saved")
                                                                 : qsTr("the change would be refused")
                                        color: Theme.mutedText
                                        elide: Text.ElideRight
                                    }
                                }
                                Label {
                                    objectName: "statusMessage"
                                    Layout.fillWidth: true
                                    visible: NodeEditor.statusMessage.length > 0
                                    text: NodeEditor.statusMessage
                                    color: Theme.text
                                    font.family: Theme.monoFont
                                    font.pixelSize: 12
                                    wrapMode: Text.Wrap
                                    textFormat: Text.PlainText
                                }
                                Repeater {
                                    model: NodeEditor.stages
                                    delegate: DecisionRow {
                                        required property var modelData
                                        Layout.fillWidth: true
                                        stage: modelData.stage
                                        title: modelData.title
                                        decision: modelData.decision
                                        family: modelData.family
                                        source: modelData.source
                                        detail: modelData.detail
                                    }
                                }
                                Label {
                                    objectName: "explainError"
                                    Layout.fillWidth: true
                                    visible: NodeEditor.explainError.length > 0
                                    text: NodeEditor.explainError // the server's message, untranslated
                                    color: Theme.error
                                    wrapMode: Text.Wrap
                                    textFormat: Text.PlainText
                                }
                                Label {
                                    Layout.fillWidth: true
                                    visible: !NodeEditor.explained && NodeEditor.explainError.length === 0
                                    text: NodeEditor.identityError.length > 0 ? NodeEditor.identityError
                                                                              : qsTr("The verdict shows here once a node is picked.")
                                    color: Theme.mutedText
                                    wrapMode: Text.Wrap
                                }

                                RowLayout {
                                    Layout.fillWidth: true
                                    Layout.topMargin: 4
                                    spacing: 8
                                    Button {
                                        id: applyButton
                                        objectName: "applyButton"
                                        text: NodeEditor.applying ? qsTr("Applying…") : qsTr("Apply")
                                        highlighted: true
                                        enabled: NodeEditor.canApply && root.online
                                        Accessible.name: qsTr("Send the label change for real (Ctrl+Return)")
                                        onClicked: NodeEditor.apply()
                                    }
                                    Button {
                                        objectName: "revertButton"
                                        text: qsTr("Revert")
                                        enabled: NodeEditor.hasChanges && !NodeEditor.applying
                                        Accessible.name: qsTr("Drop every pending label change")
                                        onClicked: NodeEditor.revert()
                                    }
                                    Item { Layout.fillWidth: true }
                                }
                                Rectangle {
                                    id: applyResult
                                    objectName: "applyResult"
                                    Layout.fillWidth: true
                                    visible: NodeEditor.applied || NodeEditor.applyError.length > 0
                                    implicitHeight: applyColumn.implicitHeight + 16
                                    radius: 4
                                    color: NodeEditor.applied && NodeEditor.applyCode < 400 ? Theme.successSoft : Theme.errorSoft
                                    ColumnLayout {
                                        id: applyColumn
                                        anchors.left: parent.left
                                        anchors.right: parent.right
                                        anchors.top: parent.top
                                        anchors.margins: 8
                                        spacing: 2
                                        Label {
                                            objectName: "applyCode"
                                            Layout.fillWidth: true
                                            visible: NodeEditor.applied
                                            text: qsTr("Answered %1").arg(NodeEditor.applyCodeText)
                                            color: NodeEditor.applyCode < 400 ? Theme.success : Theme.error
                                            font.weight: Font.DemiBold
                                        }
                                        Label {
                                            id: applyMessage
                                            objectName: "applyMessage"
                                            Layout.fillWidth: true
                                            // The server's words (a Status message) or ours for a save.
                                            text: NodeEditor.applyError.length > 0 ? NodeEditor.applyError : NodeEditor.applyMessage
                                            color: Theme.text
                                            wrapMode: Text.Wrap
                                            textFormat: Text.PlainText
                                            Accessible.role: Accessible.AlertMessage
                                            Accessible.name: applyMessage.text
                                        }
                                    }
                                }
                            }
                        }

                        // Why it is refused: the stage and who, their words, and the bindings
                        // that name the identity but did not apply. The real answer's once
                        // applied, else the dry run's.
                        Card {
                            objectName: "denialCard"
                            Layout.fillWidth: true
                            Layout.columnSpan: editorGrid.columns
                            visible: NodeEditor.hasDenial
                            implicitHeight: denialColumn.implicitHeight + 28
                            border.color: Qt.rgba(Theme.error.r, Theme.error.g, Theme.error.b, 0.35)

                            ColumnLayout {
                                id: denialColumn
                                anchors.left: parent.left
                                anchors.right: parent.right
                                anchors.top: parent.top
                                anchors.margins: 14
                                spacing: 8

                                RowLayout {
                                    Layout.fillWidth: true
                                    spacing: 8
                                    SectionHeading {
                                        text: qsTr("Why denied")
                                    }
                                    Label {
                                        objectName: "denialSource"
                                        Layout.fillWidth: true
                                        text: NodeEditor.denialFromApply ? qsTr("the real answer, %1").arg(NodeEditor.applyCodeText)
                                                                         : qsTr("dry run, %1").arg(NodeEditor.codeText)
                                        color: Theme.mutedText
                                        font.pixelSize: 12
                                        elide: Text.ElideRight
                                    }
                                }
                                DenialDetails {
                                    objectName: "denialDetails"
                                    Layout.fillWidth: true
                                    headline: NodeEditor.denialHeadline
                                    stage: NodeEditor.denialStage
                                    quotes: NodeEditor.denialQuotes
                                    nearMisses: NodeEditor.nearMisses
                                }
                            }
                        }
                    }
                }

                // One column: the verdict and Apply stay in sight below the scrolled editor.
                Rectangle {
                    objectName: "verdictBar"
                    Layout.fillWidth: true
                    visible: editorGrid.columns === 1 && NodeEditor.nodeKnown
                    implicitHeight: barRow.implicitHeight + 16
                    radius: Theme.radius
                    color: NodeEditor.applied ? (NodeEditor.applyCode < 400 ? Theme.successSoft : Theme.errorSoft)
                                              : NodeEditor.explained && !NodeEditor.allowed ? Theme.errorSoft : Theme.surface
                    border.color: Theme.border

                    RowLayout {
                        id: barRow
                        anchors.fill: parent
                        anchors.margins: 8
                        anchors.leftMargin: 14
                        spacing: 10
                        Label {
                            objectName: "verdictBarCode"
                            text: NodeEditor.applied ? qsTr("Answered %1").arg(NodeEditor.applyCodeText)
                                                     : NodeEditor.codeText
                            color: (NodeEditor.applied ? NodeEditor.applyCode < 400 : NodeEditor.allowed) ? Theme.success : Theme.error
                            font.weight: Font.DemiBold
                        }
                        Label {
                            id: barText
                            objectName: "verdictBarText"
                            Layout.fillWidth: true
                            text: NodeEditor.applied ? NodeEditor.applyMessage : NodeEditor.verdictSummary
                            color: Theme.text
                            elide: Text.ElideRight
                            textFormat: Text.PlainText
                            ToolTip.visible: barHover.hovered && barText.truncated
                            ToolTip.text: barText.text
                            HoverHandler { id: barHover }
                        }
                        BusyIndicator {
                            Layout.preferredWidth: 20
                            Layout.preferredHeight: 20
                            running: NodeEditor.explaining || NodeEditor.applying
                            visible: running
                        }
                        Button {
                            objectName: "barApplyButton"
                            text: qsTr("Apply")
                            highlighted: true
                            enabled: NodeEditor.canApply && root.online
                            Accessible.name: qsTr("Send the label change for real (Ctrl+Return)")
                            onClicked: NodeEditor.apply()
                        }
                    }
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
