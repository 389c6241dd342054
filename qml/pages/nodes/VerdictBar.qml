pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The Nodes page's verdict and Apply in one line, kept in sight below the scrolled editor when
// the editor has one column.
Rectangle {
    id: root

    required property bool online

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
            textFormat: Text.PlainText
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
            HoverHandler { id: barHover }
            PlainToolTip { // the text may be an admission webhook's message
                objectName: "verdictBarTip"
                visible: barHover.hovered && barText.truncated
                text: barText.text
            }
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
