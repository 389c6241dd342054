pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The RBAC page's Who can tab: every subject named by a binding, and which verbs it may use
// on a resource (asked of the server).
ColumnLayout {
    id: root

    required property bool online

    spacing: Theme.spacing

    RowLayout {
        Layout.fillWidth: true
        spacing: 8
        Label {
            textFormat: Text.PlainText
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
            textFormat: Text.PlainText
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
            textFormat: Text.PlainText
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
        textFormat: Text.PlainText
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
        clip: true

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
                    textFormat: Text.PlainText
                    Layout.fillWidth: true
                    text: qsTr("Subject")
                    color: Theme.mutedText
                    font.weight: Font.DemiBold
                }
                Repeater {
                    model: WhoCan.verbs
                    delegate: Label {
                        textFormat: Text.PlainText
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
                            textFormat: Text.PlainText
                            text: subjectRow.kind
                            color: Theme.mutedText
                            font.pixelSize: 12
                            Layout.preferredWidth: 100
                            elide: Text.ElideRight
                        }
                        Label {
                            textFormat: Text.PlainText
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
                                    textFormat: Text.PlainText
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
            textFormat: Text.PlainText
            anchors.centerIn: parent
            visible: matrix.count === 0 && !WhoCan.loading && WhoCan.answeredText.length > 0
            text: qsTr("No binding names a subject.")
            color: Theme.mutedText
        }
    }
}
