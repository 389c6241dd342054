pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// A dashboard tile with a figure, a small chart of the last hour and its legend. It leads to
// its page: a click, or Enter / Space while it has the keyboard focus, emits activated().
Rectangle {
    id: root

    property string heading
    property string value
    // Beside the value, e.g. "3 failed", in secondaryColor.
    property string secondary
    property color secondaryColor: Theme.mutedText
    property string caption
    // [{label, color, value}], three at most
    property var legend: []
    // The page it leads to, for the accessible name ("Opens Orders").
    property string pageTitle
    // False when the admin token may not read this tile's numbers (of this admin area).
    property bool permitted: true
    property string area
    // The chart, shown below the figure.
    default property alias chart: chartArea.data

    signal activated()

    readonly property bool hovered: hoverHandler.hovered

    implicitWidth: 240
    implicitHeight: 214
    radius: Theme.radius
    color: Theme.surface
    border.width: root.activeFocus ? 2 : 1
    border.color: root.activeFocus ? Theme.accent
                                   : (root.hovered ? Qt.darker(Theme.border, 1.15) : Theme.border)
    activeFocusOnTab: true

    Accessible.role: Accessible.Button
    Accessible.name: {
        const figure = root.permitted
            ? (root.secondary.length > 0 ? qsTr("%1: %2, %3").arg(root.heading).arg(root.value).arg(root.secondary)
                                         : qsTr("%1: %2").arg(root.heading).arg(root.value))
            : qsTr("%1: not permitted").arg(root.heading)
        const withCaption = root.permitted && root.caption.length > 0
            ? qsTr("%1 (%2)").arg(figure).arg(root.caption) : figure
        return qsTr("%1. Opens %2.").arg(withCaption).arg(root.pageTitle)
    }
    Accessible.onPressAction: root.activated()

    Keys.onReturnPressed: root.activated()
    Keys.onEnterPressed: root.activated()
    Keys.onSpacePressed: root.activated()

    HoverHandler {
        id: hoverHandler
        cursorShape: Qt.PointingHandCursor
    }
    TapHandler {
        onTapped: {
            root.forceActiveFocus(Qt.MouseFocusReason)
            root.activated()
        }
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 14
        anchors.topMargin: 12
        spacing: 2

        RowLayout {
            Layout.fillWidth: true
            spacing: 6

            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: root.heading
                color: Theme.mutedText
                font.pixelSize: 12
                font.weight: Font.DemiBold
                font.capitalization: Font.AllUppercase
                font.letterSpacing: 0.6
                elide: Text.ElideRight
            }
            Label {
                textFormat: Text.PlainText
                text: "›"
                color: root.hovered || root.activeFocus ? Theme.accent : Theme.mutedText
                font.pixelSize: 18
                Accessible.ignored: true
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8

            Label {
                textFormat: Text.PlainText
                objectName: "tileValue"
                text: root.permitted ? root.value : "–"
                color: Theme.text
                font.pixelSize: 26
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
                objectName: "tileSecondary"
                Layout.fillWidth: true
                Layout.alignment: Qt.AlignBaseline
                visible: root.permitted && root.secondary.length > 0
                text: root.secondary
                color: root.secondaryColor
                font.pixelSize: 14
                font.weight: Font.DemiBold
                elide: Text.ElideRight
            }
            Item {
                Layout.fillWidth: true
                visible: !root.permitted || root.secondary.length === 0
            }
        }

        Label {
            textFormat: Text.PlainText
            objectName: "tileCaption"
            Layout.fillWidth: true
            text: root.permitted ? root.caption : qsTr("Not permitted")
            color: root.permitted ? Theme.mutedText : Theme.unauthorized
            font.weight: root.permitted ? Font.Normal : Font.DemiBold
            font.pixelSize: 12
            elide: Text.ElideRight
        }

        Item {
            id: chartArea

            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.topMargin: 8
            Layout.minimumHeight: 36
            visible: root.permitted
        }
        Label {
            textFormat: Text.PlainText
            objectName: "tileNotPermitted"
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.topMargin: 8
            visible: !root.permitted
            verticalAlignment: Text.AlignTop
            wrapMode: Text.Wrap
            text: qsTr("This admin token may not read the %1 area.").arg(root.area)
            color: Theme.mutedText
            font.pixelSize: 12
        }

        // One entry a line, three lines at most (the space is kept, so every tile's chart has
        // the same height).
        Column {
            id: legendColumn

            Layout.fillWidth: true
            Layout.topMargin: 6
            Layout.preferredHeight: 3 * 15 + 2 * legendColumn.spacing
            spacing: 2
            visible: root.permitted

            Repeater {
                model: root.legend

                delegate: Row {
                    id: entry

                    required property var modelData

                    width: legendColumn.width
                    height: 15
                    spacing: 6

                    Rectangle {
                        anchors.verticalCenter: parent.verticalCenter
                        width: 8
                        height: 8
                        radius: 2
                        color: entry.modelData.color
                    }
                    Label {
                        textFormat: Text.PlainText
                        anchors.verticalCenter: parent.verticalCenter
                        width: entry.width - 14
                        text: qsTr("%1 %2").arg(entry.modelData.label).arg(entry.modelData.value)
                        color: Theme.mutedText
                        font.pixelSize: 11
                        elide: Text.ElideMiddle
                    }
                }
            }
        }
    }
}
