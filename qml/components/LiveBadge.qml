import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// How current a live view is, next to its list: a dot and "Live · last change 12 s ago",
// "Stale · backend unreachable …", "Not permitted". The ages move every second, so a view
// that stopped hearing from the backend says so instead of looking current.
RowLayout {
    id: root

    property LiveState live: null
    readonly property int state: root.live ? root.live.state : LiveState.Idle
    readonly property color dotColor: {
        switch (root.state) {
        case LiveState.Live: return Theme.online
        case LiveState.Syncing: return Theme.connecting
        case LiveState.Stale: return Theme.warning
        case LiveState.NotPermitted: return Theme.unauthorized
        case LiveState.Failed: return Theme.offline
        default: return Theme.idle
        }
    }

    objectName: "liveBadge"
    spacing: 6
    Accessible.role: Accessible.StaticText
    Accessible.name: root.live
        ? (root.live.detail.length > 0 ? qsTr("%1: %2").arg(root.live.stateText).arg(root.live.detail)
                                        : root.live.stateText)
        : ""

    Rectangle {
        objectName: "liveDot"
        Layout.alignment: Qt.AlignVCenter
        implicitWidth: 8
        implicitHeight: 8
        radius: 4
        color: root.dotColor
        Accessible.ignored: true

        SequentialAnimation on opacity {
            running: root.state === LiveState.Syncing
            loops: Animation.Infinite
            alwaysRunToEnd: true
            NumberAnimation { to: 0.3; duration: 400 }
            NumberAnimation { to: 1; duration: 400 }
        }
    }
    Label {
        textFormat: Text.PlainText
        objectName: "liveState"
        text: root.live ? root.live.stateText : ""
        color: root.state === LiveState.Stale ? Theme.warning : Theme.text
        font.weight: Font.DemiBold
        Accessible.ignored: true
    }
    Label {
        id: detailLabel
        textFormat: Text.PlainText
        objectName: "liveDetail"
        Layout.fillWidth: true
        Layout.maximumWidth: 420
        visible: text.length > 0 && root.state !== LiveState.NotPermitted
        text: root.live ? root.live.detail : ""
        color: Theme.mutedText
        elide: Text.ElideRight
        Accessible.ignored: true
        HoverHandler { id: detailHover }
        PlainToolTip { // the server's words
            objectName: "liveDetailTip"
            visible: detailHover.hovered && detailLabel.truncated
            text: detailLabel.text
        }
    }
}
