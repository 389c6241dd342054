pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Orders, live: a filterable list, the selected order's lines, status history and webhook
// deliveries, the actions its status allows, and test orders for demos and training. A
// second tab holds the customers.
Pane {
    id: root

    padding: 20
    background: Rectangle { color: Theme.background }
    // Actions that the status does not allow must look unavailable.
    palette.disabled.buttonText: Theme.idle
    palette.disabled.windowText: Theme.idle

    // Ctrl+F: to the list's filter.
    Shortcut {
        sequence: "Ctrl+F"
        enabled: root.visible
        onActivated: {
            statusCombo.forceActiveFocus()
        }
    }

    // Selects an order (shows its detail).
    function select(orderId: string) {
        OrderDetail.orderId = orderId
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        TabBar {
            id: tabs
            objectName: "ordersTabs"
            Layout.fillWidth: true
            background: Rectangle {
                color: "transparent"
                Rectangle {
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.bottom: parent.bottom
                    height: 1
                    color: Theme.border
                }
            }
            PageTab {
                objectName: "ordersTab"
                text: qsTr("Orders")
            }
            PageTab {
                objectName: "customersTab"
                text: qsTr("Customers")
            }
        }

        StackLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: tabs.currentIndex

            ColumnLayout {
                spacing: Theme.spacing

                ErrorBanner {
                    objectName: "ordersError"
                    Layout.fillWidth: true
                    message: OrderDetail.error.length > 0 ? OrderDetail.error
                             : Orders.error.length > 0 ? Orders.error
                             // Not when it could not even be read (a token without orders).
                             : OrderLifecycle.loaded ? OrderLifecycle.error : ""
                    onDismissed: {
                        OrderDetail.clearError()
                        Orders.clearError()
                        OrderLifecycle.clearError()
                    }
                }

                // Filters and page actions.
                RowLayout {
                    Layout.fillWidth: true
                    spacing: 8

                    Label {
                        textFormat: Text.PlainText
                        text: qsTr("Status")
                        color: Theme.mutedText
                    }
                    ComboBox {
                        id: statusCombo
                        objectName: "statusFilter"
                        // The filters give way first when the window is narrow.
                        Layout.fillWidth: true
                        Layout.maximumWidth: 190
                        Layout.minimumWidth: 120
                        model: Orders.statusOptions
                        textRole: "text"
                        valueRole: "value"
                        Accessible.name: qsTr("Filter by status")
                        Component.onCompleted: currentIndex = indexOfValue(Orders.statusFilter)
                        onActivated: Orders.statusFilter = statusCombo.currentValue
                        onModelChanged: currentIndex = indexOfValue(Orders.statusFilter) // new language
                    }
                    Label {
                        textFormat: Text.PlainText
                        Layout.leftMargin: 8
                        text: qsTr("Customer")
                        color: Theme.mutedText
                    }
                    ComboBox {
                        id: customerCombo
                        objectName: "customerFilter"
                        Layout.fillWidth: true
                        Layout.maximumWidth: 200
                        Layout.minimumWidth: 120
                        model: Customers.filterOptions
                        textRole: "text"
                        valueRole: "value"
                        Accessible.name: qsTr("Filter by customer")
                        delegate: PlainComboRow {
                            required property var modelData
                            combo: customerCombo
                            label: modelData.text
                        }
                        onActivated: Orders.customerFilter = customerCombo.currentValue
                        // The options are rebuilt when customers arrive; keep showing the filter.
                        onCountChanged: currentIndex = Math.max(0, indexOfValue(Orders.customerFilter))
                        onModelChanged: currentIndex = Math.max(0, indexOfValue(Orders.customerFilter))
                    }
                    Item { Layout.fillWidth: true }
                    BusyIndicator {
                        Layout.preferredWidth: 24
                        Layout.preferredHeight: 24
                        running: Orders.loading
                        visible: Orders.loading
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "orderCount"
                        text: qsTr("%1 shown").arg(Orders.count)
                        color: Theme.mutedText
                    }
                    Button {
                        text: qsTr("Reload")
                        enabled: AdminClient.connectionState === AdminClient.Online
                        Accessible.name: qsTr("Reload the orders")
                        onClicked: {
                            Orders.reload()
                            OrderDetail.reload()
                        }
                    }
                    Button {
                        objectName: "lifecycleButton"
                        // Held: new orders wait in NEW until released (kept across restarts).
                        text: OrderLifecycle.held ? qsTr("Release orders") : qsTr("Hold orders")
                        visible: OrderLifecycle.loaded
                        enabled: AdminClient.connectionState === AdminClient.Online
                                 && !OrderLifecycle.busy
                        Accessible.name: OrderLifecycle.held
                                         ? qsTr("Release the order lifecycle")
                                         : qsTr("Hold the order lifecycle")
                        ToolTip.visible: hovered
                        ToolTip.delay: 600
                        ToolTip.text: OrderLifecycle.held
                                      ? qsTr("Validate and allocate the waiting orders, oldest first")
                                      : qsTr("Accept new orders but keep them in NEW until released")
                        onClicked: OrderLifecycle.setHeld(!OrderLifecycle.held)
                    }
                    Button {
                        objectName: "placeTestOrderButton"
                        text: qsTr("Place test order…")
                        highlighted: true
                        enabled: AdminClient.connectionState === AdminClient.Online
                        Accessible.name: qsTr("Place a test order")
                        onClicked: testOrderDialog.open()
                    }
                }

                // The lifecycle is held: say so, and how many orders wait for it.
                Rectangle {
                    objectName: "lifecycleHeldBanner"
                    Layout.fillWidth: true
                    visible: OrderLifecycle.held
                    implicitHeight: heldRow.implicitHeight + 16
                    radius: Theme.radius
                    color: Qt.rgba(Theme.connecting.r, Theme.connecting.g, Theme.connecting.b, 0.12)
                    border.color: Qt.rgba(Theme.connecting.r, Theme.connecting.g, Theme.connecting.b, 0.5)
                    RowLayout {
                        id: heldRow
                        anchors.fill: parent
                        anchors.margins: 8
                        anchors.leftMargin: 14
                        spacing: 12
                        Label {
                            textFormat: Text.PlainText
                            text: qsTr("Lifecycle held")
                            color: Theme.connecting
                            font.weight: Font.DemiBold
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "lifecycleHeldText"
                            Layout.fillWidth: true
                            text: qsTr("%n order(s) wait in NEW. New orders are accepted and announced; they are validated and allocated once released.",
                                       "", OrderLifecycle.backlog)
                            color: Theme.text
                            wrapMode: Text.Wrap
                            Accessible.role: Accessible.StaticText
                            Accessible.name: text
                        }
                    }
                }

                LiveBadge {
                    objectName: "orderListLive"
                    Layout.fillWidth: true
                    live: Orders.live
                }
                RowLayout {
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    spacing: Theme.spacing

                    // The list.
                    Rectangle {
                        Layout.fillHeight: true
                        Layout.fillWidth: true
                        Layout.preferredWidth: 5
                        Layout.minimumWidth: 320
                        color: Theme.surface
                        radius: Theme.radius
                        border.color: orderList.activeFocus ? Theme.accent : Theme.border
                        clip: true

                        ListView {
                            id: orderList

                            objectName: "orderList"
                            anchors.fill: parent
                            anchors.margins: 1
                            anchors.bottomMargin: olderStrip.visible ? olderStrip.height + 1 : 1
                            clip: true
                            model: Orders
                            boundsBehavior: Flickable.StopAtBounds
                            // Keyboard: Tab reaches the list, Up/Down and Home/End select.
                            activeFocusOnTab: true
                            keyNavigationEnabled: true
                            highlightMoveDuration: 0
                            Keys.onPressed: event => {
                                if (count > 0 && (event.key === Qt.Key_Home || event.key === Qt.Key_End)) {
                                    currentIndex = event.key === Qt.Key_Home ? 0 : count - 1
                                    positionViewAtIndex(currentIndex, ListView.Contain)
                                    event.accepted = true
                                }
                            }
                            currentIndex: -1
                            onCurrentIndexChanged: {
                                const id = Orders.idAt(currentIndex)
                                if (activeFocus && id.length > 0 && id !== OrderDetail.orderId)
                                    root.select(id)
                            }
                            Accessible.role: Accessible.List
                            Accessible.name: qsTr("Orders")
                            ScrollBar.vertical: ScrollBar {}
                            // 1,000 at a time: the end of the list reads the next older ones.
                            onAtYEndChanged: {
                                if (atYEnd && count > 0 && Orders.hasOlder)
                                    Orders.loadOlder()
                            }

                            delegate: OrderDelegate {
                                id: orderDelegate
                                width: ListView.view.width
                                selected: OrderDetail.orderId === orderDelegate.orderId
                                onClicked: {
                                    root.select(orderDelegate.orderId)
                                    orderList.currentIndex = Orders.indexOfId(orderDelegate.orderId)
                                }
                            }
                        }

                        // Under the list while older orders remain to be read. (Not the ListView's
                        // footer: Qt 6.4 cannot make a footer in a ComponentBehavior: Bound file,
                        // "QQmlComponent: Component is not ready".)
                        Rectangle {
                            id: olderStrip

                            anchors.left: parent.left
                            anchors.right: parent.right
                            anchors.bottom: parent.bottom
                            anchors.margins: 1
                            height: 32
                            visible: Orders.hasOlder && orderList.count > 0
                            color: Theme.background
                            Label {
                                textFormat: Text.PlainText
                                objectName: "olderOrders"
                                anchors.centerIn: parent
                                width: parent.width - 16
                                horizontalAlignment: Text.AlignHCenter
                                elide: Text.ElideRight
                                text: Orders.loadingOlder ? qsTr("Loading older orders…")
                                                          : qsTr("Older orders: scroll on to load them")
                                color: Theme.mutedText
                                font.pixelSize: 12
                            }
                        }

                        Label {
                            textFormat: Text.PlainText
                            anchors.centerIn: parent
                            width: parent.width - 40
                            visible: orderList.count === 0 && Orders.loaded && !Orders.loading
                            horizontalAlignment: Text.AlignHCenter
                            wrapMode: Text.Wrap
                            text: Orders.statusFilter.length > 0 || Orders.customerFilter.length > 0
                                  ? qsTr("No orders match the filter.")
                                  : qsTr("No orders yet. Place a test order to see one go through its lifecycle.")
                            color: Theme.mutedText
                        }

                        NotPermittedPane {
                            live: Orders.live
                        }
                    }

                    // The selected order.
                    Rectangle {
                        objectName: "orderDetailPane"
                        Layout.fillHeight: true
                        Layout.fillWidth: true
                        Layout.preferredWidth: 6
                        Layout.minimumWidth: 360
                        color: Theme.surface
                        radius: Theme.radius
                        border.color: Theme.border

                        Label {
                            textFormat: Text.PlainText
                            anchors.centerIn: parent
                            width: parent.width - 40
                            visible: OrderDetail.orderId.length === 0
                            horizontalAlignment: Text.AlignHCenter
                            wrapMode: Text.Wrap
                            text: qsTr("Select an order to see its lines, status history and webhook deliveries.")
                            color: Theme.mutedText
                        }

                        ScrollView {
                            id: detailScroll
                            anchors.fill: parent
                            anchors.margins: 1
                            visible: OrderDetail.orderId.length > 0
                            clip: true
                            contentWidth: availableWidth

                            ColumnLayout {
                                width: detailScroll.availableWidth
                                spacing: 14

                                // Heading and actions.
                                RowLayout {
                                    Layout.fillWidth: true
                                    Layout.topMargin: 16
                                    Layout.leftMargin: 16
                                    Layout.rightMargin: 16
                                    spacing: 10

                                    Label {
                                        textFormat: Text.PlainText
                                        objectName: "detailTitle"
                                        text: qsTr("Order %1").arg(OrderDetail.shortId)
                                        color: Theme.text
                                        font.pixelSize: 17
                                        font.weight: Font.DemiBold
                                    }
                                    StatusBadge {
                                        objectName: "detailStatus"
                                        visible: OrderDetail.loaded
                                        family: OrderDetail.statusFamily
                                        text: OrderDetail.statusText
                                    }
                                    BusyIndicator {
                                        Layout.preferredWidth: 22
                                        Layout.preferredHeight: 22
                                        running: OrderDetail.loading || OrderDetail.busy
                                        visible: running
                                    }
                                    Item { Layout.fillWidth: true }
                                }
                                RowLayout {
                                    Layout.fillWidth: true
                                    Layout.leftMargin: 16
                                    Layout.rightMargin: 16
                                    spacing: 8
                                    Button {
                                        objectName: "pickupButton"
                                        text: qsTr("Pick up")
                                        enabled: OrderDetail.canPickup
                                        Accessible.name: qsTr("Mark the order as picked up")
                                        onClicked: OrderDetail.pickup()
                                    }
                                    Button {
                                        objectName: "deliverButton"
                                        text: qsTr("Deliver")
                                        enabled: OrderDetail.canDeliver
                                        Accessible.name: qsTr("Mark the order as delivered")
                                        onClicked: OrderDetail.deliver()
                                    }
                                    Button {
                                        objectName: "cancelOrderButton"
                                        text: qsTr("Cancel order")
                                        enabled: OrderDetail.canCancel
                                        Accessible.name: qsTr("Cancel the order")
                                        onClicked: OrderDetail.cancel()
                                    }
                                    Item { Layout.fillWidth: true }
                                }

                                // Facts.
                                GridLayout {
                                    Layout.fillWidth: true
                                    Layout.leftMargin: 16
                                    Layout.rightMargin: 16
                                    columns: 2
                                    columnSpacing: 16
                                    rowSpacing: 4

                                    Label { textFormat: Text.PlainText; text: qsTr("Customer"); color: Theme.mutedText }
                                    Label {
                                        textFormat: Text.PlainText
                                        objectName: "detailCustomer"
                                        Layout.fillWidth: true
                                        text: OrderDetail.customerName
                                        color: Theme.text
                                        elide: Text.ElideRight
                                    }
                                    Label { textFormat: Text.PlainText; text: qsTr("Reference"); color: Theme.mutedText }
                                    Label {
                                        textFormat: Text.PlainText
                                        Layout.fillWidth: true
                                        text: OrderDetail.customerRef.length > 0 ? OrderDetail.customerRef : "–"
                                        color: Theme.text
                                        elide: Text.ElideRight
                                    }
                                    Label { textFormat: Text.PlainText; text: qsTr("Order id"); color: Theme.mutedText }
                                    TextEdit {
                                        textFormat: TextEdit.PlainText
                                        Layout.fillWidth: true
                                        text: OrderDetail.orderId
                                        readOnly: true
                                        selectByMouse: true
                                        color: Theme.text
                                        font.family: Theme.monoFont
                                        wrapMode: TextEdit.WrapAnywhere
                                    }
                                    Label { textFormat: Text.PlainText; text: qsTr("Created"); color: Theme.mutedText }
                                    Label { textFormat: Text.PlainText; text: OrderDetail.createdText; color: Theme.text }
                                    Label { textFormat: Text.PlainText; text: qsTr("Last change"); color: Theme.mutedText }
                                    Label {
                                        textFormat: Text.PlainText
                                        text: qsTr("%1 (version %2)").arg(OrderDetail.modifiedText)
                                                                     .arg(OrderDetail.version)
                                        color: Theme.text
                                    }
                                    Label { textFormat: Text.PlainText; text: qsTr("Status callback"); color: Theme.mutedText }
                                    Label {
                                        textFormat: Text.PlainText
                                        Layout.fillWidth: true
                                        text: OrderDetail.callbackUrl.length > 0 ? OrderDetail.callbackUrl
                                                                                 : qsTr("none")
                                        color: Theme.text
                                        elide: Text.ElideMiddle
                                    }
                                }

                                // Lines.
                                SectionHeading {
                                    Layout.leftMargin: 16
                                    text: qsTr("Lines")
                                }
                                ColumnLayout {
                                    objectName: "orderLines"
                                    Layout.fillWidth: true
                                    Layout.leftMargin: 16
                                    Layout.rightMargin: 16
                                    spacing: 0

                                    RowLayout {
                                        Layout.fillWidth: true
                                        spacing: 10
                                        Label {
                                            textFormat: Text.PlainText
                                            Layout.fillWidth: true
                                            text: qsTr("Beer")
                                            color: Theme.mutedText
                                            font.pixelSize: 12
                                        }
                                        Label {
                                            textFormat: Text.PlainText
                                            Layout.preferredWidth: 110
                                            text: qsTr("UPC")
                                            color: Theme.mutedText
                                            font.pixelSize: 12
                                        }
                                        Label {
                                            textFormat: Text.PlainText
                                            Layout.preferredWidth: 80
                                            horizontalAlignment: Text.AlignRight
                                            text: qsTr("Allocated")
                                            color: Theme.mutedText
                                            font.pixelSize: 12
                                        }
                                    }
                                    Repeater {
                                        model: OrderDetail.lines
                                        delegate: Rectangle {
                                            id: lineRow

                                            required property int index
                                            required property string beerName
                                            required property string upc
                                            required property bool inCatalog
                                            required property int orderQuantity
                                            required property int quantityAllocated
                                            required property bool fullyAllocated

                                            Layout.fillWidth: true
                                            implicitHeight: 30
                                            color: lineRow.index % 2 === 0 ? Theme.stripe : Theme.surface

                                            RowLayout {
                                                anchors.fill: parent
                                                anchors.leftMargin: 6
                                                anchors.rightMargin: 6
                                                spacing: 10
                                                Label {
                                                    textFormat: Text.PlainText
                                                    Layout.fillWidth: true
                                                    text: lineRow.inCatalog
                                                          ? (lineRow.beerName.length > 0 ? lineRow.beerName : "…")
                                                          : qsTr("Not in the catalog")
                                                    color: lineRow.inCatalog ? Theme.text : Theme.error
                                                    elide: Text.ElideRight
                                                }
                                                Label {
                                                    textFormat: Text.PlainText
                                                    Layout.preferredWidth: 110
                                                    text: lineRow.upc
                                                    color: Theme.mutedText
                                                    font.family: Theme.monoFont
                                                    elide: Text.ElideRight
                                                }
                                                Label {
                                                    textFormat: Text.PlainText
                                                    Layout.preferredWidth: 80
                                                    horizontalAlignment: Text.AlignRight
                                                    text: qsTr("%1 / %2").arg(lineRow.quantityAllocated)
                                                                         .arg(lineRow.orderQuantity)
                                                    color: lineRow.fullyAllocated ? Theme.success : Theme.text
                                                    font.family: Theme.monoFont
                                                }
                                            }
                                        }
                                    }
                                    Label {
                                        textFormat: Text.PlainText
                                        visible: OrderDetail.loaded && OrderDetail.lines.count === 0
                                        text: qsTr("No lines.")
                                        color: Theme.mutedText
                                    }
                                }

                                // History.
                                SectionHeading {
                                    Layout.leftMargin: 16
                                    text: qsTr("Status history")
                                }
                                HistoryTimeline {
                                    Layout.fillWidth: true
                                    Layout.leftMargin: 16
                                    Layout.rightMargin: 16
                                    model: OrderDetail.history
                                }

                                // Deliveries.
                                SectionHeading {
                                    Layout.leftMargin: 16
                                    text: qsTr("Webhook deliveries")
                                }
                                Label {
                                    textFormat: Text.PlainText
                                    Layout.leftMargin: 16
                                    Layout.rightMargin: 16
                                    Layout.fillWidth: true
                                    visible: OrderDetail.loaded && OrderDetail.deliveries.count === 0
                                    text: OrderDetail.callbackUrl.length > 0
                                          ? qsTr("No deliveries yet.")
                                          : qsTr("This order has no status callback URL, so no webhooks are sent.")
                                    color: Theme.mutedText
                                    wrapMode: Text.Wrap
                                }
                                ColumnLayout {
                                    objectName: "orderDeliveries"
                                    Layout.fillWidth: true
                                    Layout.leftMargin: 16
                                    Layout.rightMargin: 16
                                    Layout.bottomMargin: 16
                                    spacing: 0
                                    Repeater {
                                        model: OrderDetail.deliveries
                                        delegate: DeliveryDelegate {
                                            Layout.fillWidth: true
                                            showOrder: false
                                            hoverEnabled: false
                                            focusPolicy: Qt.NoFocus
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }

            CustomersPage {
                objectName: "customersPage"
            }
        }
    }

    TestOrderDialog {
        id: testOrderDialog
        onPlaced: orderId => root.select(orderId)
    }
}
