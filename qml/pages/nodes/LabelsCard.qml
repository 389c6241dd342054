pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The Nodes page's labels as edited: each label's value, what the change does to it, Remove or
// Restore, and a new label; below, the pending change.
Card {
    id: root

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
                textFormat: Text.PlainText
                objectName: "resourceVersion"
                visible: NodeEditor.resourceVersion.length > 0
                text: qsTr("resourceVersion %1").arg(NodeEditor.resourceVersion)
                color: Theme.mutedText
                font.pixelSize: 12
            }
        }
        Label {
            textFormat: Text.PlainText
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
                    textFormat: Text.PlainText
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
