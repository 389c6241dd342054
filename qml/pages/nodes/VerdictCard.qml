pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The Nodes page's verdict on the pending label change (the server's dry run, stage by stage),
// Apply and Revert, and the real answer once applied.
Card {
    id: root

    required property bool online

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
                textFormat: Text.PlainText
                objectName: "verdictCode"
                text: NodeEditor.codeText
                color: NodeEditor.allowed ? Theme.success : Theme.error
                font.pixelSize: 20
                font.weight: Font.DemiBold
                Accessible.role: Accessible.StaticText
                Accessible.name: qsTr("The request would get %1").arg(NodeEditor.codeText)
            }
            Label {
                textFormat: Text.PlainText
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
            textFormat: Text.PlainText
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
                    textFormat: Text.PlainText
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
