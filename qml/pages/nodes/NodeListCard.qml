pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The Nodes page's node list: each node with its readiness and labels; picking one opens it in
// the label editor (NodeEditor).
Card {
    id: root

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
                            textFormat: Text.PlainText
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
                        textFormat: Text.PlainText
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
            textFormat: Text.PlainText
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
