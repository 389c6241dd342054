pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The Nodes page's identity: who is asking (the identity to act as, and its name and groups).
Card {
    id: root

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
                textFormat: Text.PlainText
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
                delegate: PlainComboRow {
                    required property var modelData
                    combo: identityCombo
                    label: modelData.text
                }
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
            textFormat: Text.PlainText
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
            textFormat: Text.PlainText
            objectName: "identityError"
            Layout.fillWidth: true
            visible: NodeEditor.identityError.length > 0
            text: NodeEditor.identityError
            color: Theme.error
            wrapMode: Text.Wrap
        }
        Label {
            textFormat: Text.PlainText
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
