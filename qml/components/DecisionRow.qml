import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// One stage of a request's trace (authentication, authorization, admission, validation): the
// stage, the server's decision as a coloured pill, who decided and why. decision and detail
// are the server's words (a "not reached" stage has translated ones).
Rectangle {
    id: root

    property string stage
    property string title
    property string decision
    property string family
    property string source
    property string detail

    objectName: "stage-" + root.stage
    implicitHeight: row.implicitHeight + 16
    radius: 4
    color: root.family === "exception" ? Theme.errorSoft : Theme.stripe
    border.color: root.family === "exception" ? Qt.rgba(Theme.error.r, Theme.error.g, Theme.error.b, 0.35)
                                             : Theme.border
    Accessible.role: Accessible.StaticText
    Accessible.name: qsTr("%1: %2. %3").arg(root.title).arg(root.decision).arg(root.detail)

    ColumnLayout {
        id: row
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.top: parent.top
        anchors.margins: 8
        anchors.leftMargin: 12
        spacing: 4

        RowLayout {
            Layout.fillWidth: true
            spacing: 10
            Label {
                textFormat: Text.PlainText
                Layout.preferredWidth: 132 // "Authentifizierung" too
                text: root.title
                color: Theme.text
                font.weight: Font.DemiBold
                elide: Text.ElideRight
            }
            StatusBadge {
                objectName: "decisionBadge"
                Layout.preferredWidth: Math.max(implicitWidth, 64)
                family: root.family
                text: root.decision
            }
            Label {
                textFormat: Text.PlainText
                objectName: "stageSource"
                Layout.fillWidth: true
                horizontalAlignment: Text.AlignRight
                text: root.source
                color: Theme.mutedText
                font.family: Theme.monoFont
                font.pixelSize: 12
                elide: Text.ElideLeft
            }
        }
        Label {
            objectName: "stageDetail"
            Layout.fillWidth: true
            text: root.detail
            color: Theme.text
            wrapMode: Text.Wrap
            textFormat: Text.PlainText
        }
    }
}
