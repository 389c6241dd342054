import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// One webhook delivery: state, the status it reports, order, HTTP status and latency of the
// last attempt. A failed delivery stands out in the error colour with its last error.
ItemDelegate {
    id: root

    required property int index
    required property string deliveryId
    required property string shortOrderId
    required property string orderStatusText
    required property string stateText
    required property string stateFamily
    required property bool failed
    required property int attempts
    required property int lastStatus
    required property string lastStatusText
    required property string lastError
    required property string latencyText
    required property string createdText
    required property string nextAttemptText
    required property string url
    property bool selected: false
    // In an order's detail the order is known already.
    property bool showOrder: true

    objectName: "delivery-" + root.deliveryId
    topPadding: 8
    bottomPadding: 8
    leftPadding: 14
    rightPadding: 12
    highlighted: root.selected
    Accessible.role: Accessible.ListItem
    Accessible.name: root.failed
                     ? qsTr("Delivery of %1, failed: %2").arg(root.orderStatusText).arg(root.lastError)
                     : qsTr("Delivery of %1, %2").arg(root.orderStatusText).arg(root.stateText)

    background: Rectangle {
        objectName: "deliveryBackground"
        color: root.failed ? Theme.errorSoft
                           : root.selected ? Theme.accentSoft
                                           : root.hovered ? Theme.stripe : Theme.surface
        Rectangle {
            objectName: "deliveryMark"
            width: root.failed || root.selected ? 3 : 0
            height: parent.height
            color: root.failed ? Theme.error : Theme.accent
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
        spacing: 4

        RowLayout {
            Layout.fillWidth: true
            spacing: 10

            StatusBadge {
                objectName: "deliveryStateBadge"
                family: root.stateFamily
                text: root.stateText
            }
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: root.orderStatusText
                color: Theme.text
                font.weight: Font.DemiBold
                elide: Text.ElideRight
            }
            Label {
                textFormat: Text.PlainText
                objectName: "httpStatus"
                visible: root.attempts > 0
                text: root.lastStatus > 0 ? qsTr("HTTP %1").arg(root.lastStatusText) : qsTr("No answer")
                color: root.failed ? Theme.error
                                   : root.lastStatus >= 200 && root.lastStatus < 300 ? Theme.text
                                                                                     : Theme.warning
                font.family: Theme.monoFont
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
                visible: root.attempts > 0 && root.lastStatus > 0
                text: root.latencyText
                color: Theme.mutedText
                font.pixelSize: 12
                Layout.minimumWidth: 44
                horizontalAlignment: Text.AlignRight
            }
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            Label {
                textFormat: Text.PlainText
                visible: root.showOrder
                text: root.shortOrderId
                color: Theme.mutedText
                font.family: Theme.monoFont
                font.pixelSize: 12
            }
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: root.url
                color: Theme.mutedText
                font.pixelSize: 12
                elide: Text.ElideMiddle
            }
            Label {
                textFormat: Text.PlainText
                text: root.nextAttemptText.length > 0
                      ? qsTr("next try %1").arg(root.nextAttemptText)
                      : qsTr("tries %1").arg(root.attempts)
                color: Theme.mutedText
                font.pixelSize: 12
            }
            Label {
                textFormat: Text.PlainText
                text: root.createdText
                color: Theme.mutedText
                font.pixelSize: 12
            }
        }
        Label {
            textFormat: Text.PlainText
            objectName: "lastErrorText"
            Layout.fillWidth: true
            visible: root.failed && root.lastError.length > 0
            text: root.lastError // as the backend recorded it
            color: Theme.error
            font.pixelSize: 12
            elide: Text.ElideRight
        }
    }
}
