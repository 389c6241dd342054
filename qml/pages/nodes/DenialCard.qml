pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Why the Nodes page's label change is refused: the stage and who, their words, and the
// bindings that name the identity but did not apply. The real answer's once applied, else the
// dry run's.
Card {
    id: root

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
                textFormat: Text.PlainText
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
