import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// One order in the orders list: customer and time, then status, short id, reference and size.
ItemDelegate {
    id: root

    required property int index
    required property string orderId
    required property string shortId
    required property string customerName
    required property string customerRef
    required property string statusText
    required property string statusFamily
    required property int lineCount
    required property int quantity
    required property string createdText
    property bool selected: false

    objectName: "order-" + root.orderId
    topPadding: 8
    bottomPadding: 8
    leftPadding: 14
    rightPadding: 12
    highlighted: root.selected
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("Order %1, %2, %3").arg(root.shortId).arg(root.customerName)
                                              .arg(root.statusText)

    background: Rectangle {
        color: root.selected ? Theme.accentSoft
                             : root.hovered ? Theme.stripe : Theme.surface
        Rectangle {
            width: 3
            height: parent.height
            color: Theme.accent
            visible: root.selected
        }
        Rectangle {
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.bottom: parent.bottom
            height: 1
            color: Theme.border
        }
    }

    contentItem: ColumnLayout {
        spacing: 5

        RowLayout {
            Layout.fillWidth: true
            spacing: 10
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: root.customerName
                color: Theme.text
                font.weight: Font.DemiBold
                elide: Text.ElideRight
            }
            Label {
                textFormat: Text.PlainText
                text: root.createdText
                color: Theme.mutedText
                font.pixelSize: 12
            }
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: 10
            StatusBadge {
                objectName: "orderStatusBadge"
                Layout.maximumWidth: 170
                family: root.statusFamily
                text: root.statusText
            }
            Label {
                textFormat: Text.PlainText
                text: root.shortId
                color: Theme.mutedText
                font.family: Theme.monoFont
            }
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: root.customerRef
                color: Theme.mutedText
                elide: Text.ElideRight
            }
            Label {
                textFormat: Text.PlainText
                text: qsTr("Lines %1 · Qty %2").arg(root.lineCount).arg(root.quantity)
                color: Theme.mutedText
                font.pixelSize: 12
            }
        }
    }
}
