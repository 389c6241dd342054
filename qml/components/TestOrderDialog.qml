pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// "Place test order": a customer, beers from the catalog with quantities and an optional
// reference. The order reports its status changes to the built-in demo receiver, so it is
// safe for demos and training.
Dialog {
    id: root

    // The new order's id once it is placed.
    signal placed(string orderId)

    objectName: "testOrderDialog"
    title: qsTr("Place a test order")
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(560, parent ? parent.width - 48 : 560)
    height: Math.min(620, parent ? parent.height - 48 : 620)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 4

    background: Rectangle {
        color: Theme.surface
        radius: 8
        border.color: Theme.border
    }

    header: ColumnLayout {
        spacing: 2
        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            Layout.topMargin: 20
            Layout.leftMargin: 20
            Layout.rightMargin: 20
            text: root.title
            color: Theme.text
            font.pixelSize: 17
            font.weight: Font.DemiBold
            elide: Text.ElideRight
        }
        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            Layout.leftMargin: 20
            Layout.rightMargin: 20
            Layout.bottomMargin: 8
            text: qsTr("Status changes go to the built-in demo receiver, never to a customer.")
            color: Theme.mutedText
            wrapMode: Text.Wrap
        }
    }

    onAboutToShow: {
        TestOrder.reset()
        refField.text = ""
        if (TestOrder.customerId.length === 0 || Customers.indexOfId(TestOrder.customerId) < 0)
            TestOrder.customerId = Customers.idAt(0)
        customerCombo.currentIndex = Customers.indexOfId(TestOrder.customerId)
    }

    Connections {
        target: TestOrder
        function onPlaced(order) {
            root.placed(order.id)
            root.close()
        }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 8

        GridLayout {
            Layout.fillWidth: true
            columns: 2
            columnSpacing: 12
            rowSpacing: 8

            Label {
                textFormat: Text.PlainText
                text: qsTr("Customer")
                font.weight: Font.DemiBold
            }
            ComboBox {
                id: customerCombo
                objectName: "testOrderCustomer"
                Layout.fillWidth: true
                model: Customers
                textRole: "name"
                valueRole: "customerId"
                Accessible.name: qsTr("Customer")
                delegate: PlainComboRow {
                    required property string name
                    combo: customerCombo
                    label: name
                }
                onActivated: TestOrder.customerId = customerCombo.currentValue
            }
            Label {
                textFormat: Text.PlainText
                text: qsTr("Reference")
                font.weight: Font.DemiBold
            }
            TextField {
                id: refField
                objectName: "testOrderRef"
                Layout.fillWidth: true
                placeholderText: qsTr("Optional, e.g. TRAINING-7")
                maximumLength: 255
                selectByMouse: true
                Accessible.name: qsTr("Customer reference")
                onTextEdited: TestOrder.customerRef = refField.text
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.topMargin: 8
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: qsTr("Beers")
                font.weight: Font.DemiBold
            }
            Label {
                textFormat: Text.PlainText
                objectName: "testOrderSummary"
                text: qsTr("Lines %1 · Qty %2").arg(TestOrder.lineCount).arg(TestOrder.totalQuantity)
                color: Theme.mutedText
            }
        }

        Rectangle {
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.minimumHeight: 140
            color: Theme.surface
            radius: Theme.radius
            border.color: Theme.border

            ListView {
                id: beerList
                objectName: "testOrderBeers"
                anchors.fill: parent
                anchors.margins: 1
                clip: true
                model: Beers
                boundsBehavior: Flickable.StopAtBounds
                ScrollBar.vertical: ScrollBar {}

                delegate: Rectangle {
                    id: beerRow

                    required property int index
                    required property string beerName
                    required property string beerStyleText
                    required property string upc
                    required property string price
                    required property int quantityOnHand
                    required property bool discontinued

                    objectName: "beer-" + beerRow.upc
                    width: ListView.view.width
                    height: 50
                    color: beerRow.index % 2 === 0 ? Theme.surface : Theme.stripe

                    RowLayout {
                        anchors.fill: parent
                        anchors.leftMargin: 12
                        anchors.rightMargin: 8
                        spacing: 10

                        ColumnLayout {
                            Layout.fillWidth: true
                            spacing: 1
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                text: beerRow.beerName
                                color: beerRow.discontinued ? Theme.mutedText : Theme.text
                                font.weight: Font.DemiBold
                                elide: Text.ElideRight
                            }
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                text: beerRow.discontinued
                                      ? qsTr("%1 · %2 · discontinued").arg(beerRow.beerStyleText).arg(beerRow.upc)
                                      : qsTr("%1 · %2 · %3 in stock").arg(beerRow.beerStyleText)
                                                                   .arg(beerRow.upc)
                                                                   .arg(beerRow.quantityOnHand)
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideRight
                            }
                        }
                        SpinBox {
                            objectName: "quantity-" + beerRow.upc
                            from: 0
                            to: 999
                            editable: true
                            // Re-read whenever the form changes (reset empties it).
                            value: TestOrder.lineCount >= 0 ? TestOrder.quantity(beerRow.upc) : 0
                            Accessible.name: qsTr("Quantity of %1").arg(beerRow.beerName)
                            onValueModified: TestOrder.setQuantity(beerRow.upc, value)
                        }
                    }
                }
            }
            Label {
                textFormat: Text.PlainText
                anchors.centerIn: parent
                visible: beerList.count === 0
                text: qsTr("The beer catalog is empty.")
                color: Theme.mutedText
            }
        }

        Label {
            objectName: "testOrderError"
            Layout.fillWidth: true
            visible: TestOrder.error.length > 0
            text: TestOrder.error // the server's message, untranslated
            color: Theme.error
            wrapMode: Text.Wrap
            textFormat: Text.PlainText
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 4
        background: null

        RowLayout {
            anchors.right: parent.right
            spacing: 8

            BusyIndicator {
                Layout.preferredWidth: 28
                Layout.preferredHeight: 28
                running: TestOrder.busy
                visible: TestOrder.busy
            }
            Button {
                objectName: "testOrderSubmit"
                text: qsTr("Place order")
                highlighted: true
                enabled: TestOrder.canSubmit
                Accessible.name: qsTr("Place the test order")
                onClicked: TestOrder.submit()
            }
            Button {
                objectName: "testOrderCancel"
                text: qsTr("Cancel")
                Accessible.name: qsTr("Cancel")
                onClicked: root.reject()
            }
        }
    }
}
