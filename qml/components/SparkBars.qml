pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Gatehouse

// A small bar chart of the dashboard's last hour: one bar per minute (DashboardStats rows,
// oldest left), each a stack of the chart's series, bottom up in the order of colors. Hovering
// a bar names its minute and numbers.
Item {
    id: root

    // "orders", "deliveries", "tokens" or "cluster": which of the row's numbers to stack.
    property string kind: "orders"
    property var colors: [Theme.accent]
    // The highest stack (DashboardStats' peaks), at least 1.
    property int peak: 1
    // "%1" the minute, then each series' number in colors' order (for "tokens": the sum): the
    // tooltip.
    property string tipFormat: "%1"

    readonly property int bars: DashboardStats.count
    readonly property real slot: root.bars > 0 ? root.width / root.bars : root.width

    implicitHeight: 48
    Accessible.ignored: true // the tile says the numbers

    // The baseline: quiet minutes still show where the hour runs.
    Rectangle {
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        height: 1
        color: Theme.border
    }

    Repeater {
        model: DashboardStats

        delegate: Item {
            id: bar

            required property int index
            required property string timeText
            required property int orders
            required property int deliveriesSucceeded
            required property int deliveriesFailed
            required property int tokens
            required property var tokenSegments
            required property int clusterAllowed
            required property int clusterDenied

            readonly property var values: {
                switch (root.kind) {
                case "deliveries": return [bar.deliveriesSucceeded, bar.deliveriesFailed]
                case "tokens": return bar.tokenSegments
                case "cluster": return [bar.clusterAllowed, bar.clusterDenied]
                default: return [bar.orders]
                }
            }

            x: bar.index * root.slot
            width: Math.max(1, root.slot - (root.slot > 3 ? 1 : 0))
            height: root.height
            opacity: hover.hovered ? 1 : 0.88

            Column {
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.bottom: parent.bottom

                // Top of the stack first: the last series sits on the others.
                Repeater {
                    model: bar.values.length

                    delegate: Rectangle {
                        required property int index

                        readonly property int series: bar.values.length - 1 - index
                        readonly property int value: bar.values[series]

                        width: bar.width
                        height: value > 0 ? Math.max(2, value / root.peak * (root.height - 2)) : 0
                        color: series < root.colors.length ? root.colors[series] : Theme.neutral
                    }
                }
            }

            HoverHandler {
                id: hover
            }
            ToolTip.visible: hover.hovered
            ToolTip.delay: 150
            ToolTip.text: {
                let text = root.tipFormat.arg(bar.timeText)
                // The tokens chart names the sum; the grants are in the tile's legend.
                const numbers = root.kind === "tokens" ? [bar.tokens] : bar.values
                for (let i = 0; i < numbers.length; ++i)
                    text = text.arg(numbers[i])
                return text
            }
        }
    }
}
