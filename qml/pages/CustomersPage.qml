pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The customers who place orders: create one (its webhook secret is shown once) and rotate
// a secret (the previous one keeps working for a grace period).
Pane {
    id: root

    padding: 0
    background: null

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        ErrorBanner {
            objectName: "customersError"
            Layout.fillWidth: true
            message: Customers.error
            onDismissed: Customers.clearError()
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            Label {
                textFormat: Text.PlainText
                text: qsTr("Each customer signs its webhooks with its own whsec_ secret.")
                color: Theme.mutedText
            }
            Item { Layout.fillWidth: true }
            Label {
                textFormat: Text.PlainText
                text: qsTr("%1 shown").arg(Customers.count)
                color: Theme.mutedText
            }
            Button {
                text: qsTr("Reload")
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Reload the customers")
                onClicked: Customers.reload()
            }
            Button {
                objectName: "newCustomerButton"
                text: qsTr("New customer…")
                highlighted: true
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Create a customer")
                onClicked: newCustomerDialog.open()
            }
        }

        LiveBadge {
            objectName: "customerListLive"
            Layout.fillWidth: true
            live: Customers.live
        }
        Rectangle {
            Layout.fillWidth: true
            Layout.fillHeight: true
            color: Theme.surface
            radius: Theme.radius
            border.color: Theme.border
            clip: true

            ListView {
                id: customerList
                objectName: "customerList"
                anchors.fill: parent
                anchors.margins: 1
                clip: true
                model: Customers
                boundsBehavior: Flickable.StopAtBounds
                Accessible.role: Accessible.List
                Accessible.name: qsTr("Customers")
                ScrollBar.vertical: ScrollBar {}

                delegate: Rectangle {
                    id: customerRow

                    required property int index
                    required property string customerId
                    required property string name
                    required property string shortId
                    required property string createdText
                    required property int orderCount
                    required property string secretRotatedText
                    required property string previousSecretExpiresText

                    objectName: "customer-" + customerRow.customerId
                    width: ListView.view.width
                    height: 58
                    color: customerRow.index % 2 === 0 ? Theme.surface : Theme.stripe
                    Accessible.role: Accessible.ListItem
                    Accessible.name: customerRow.name

                    RowLayout {
                        anchors.fill: parent
                        anchors.leftMargin: 14
                        anchors.rightMargin: 12
                        spacing: 12

                        ColumnLayout {
                            Layout.fillWidth: true
                            spacing: 2
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                text: customerRow.name
                                color: Theme.text
                                font.weight: Font.DemiBold
                                elide: Text.ElideRight
                            }
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                text: qsTr("%1 · since %2 · orders %3").arg(customerRow.shortId)
                                                                       .arg(customerRow.createdText)
                                                                       .arg(customerRow.orderCount)
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideRight
                            }
                        }
                        Label {
                            textFormat: Text.PlainText
                            text: customerRow.previousSecretExpiresText.length > 0
                                  ? qsTr("rotated %1 · old secret valid until %2")
                                        .arg(customerRow.secretRotatedText)
                                        .arg(customerRow.previousSecretExpiresText)
                                  : customerRow.secretRotatedText.length > 0
                                    ? qsTr("secret rotated %1").arg(customerRow.secretRotatedText)
                                    : ""
                            color: Theme.mutedText
                            font.pixelSize: 12
                        }
                        Button {
                            objectName: "rotateSecretButton"
                            text: qsTr("Rotate secret…")
                            enabled: !Customers.busy
                            Accessible.name: qsTr("Rotate the webhook secret of %1").arg(customerRow.name)
                            onClicked: {
                                rotateDialog.customerId = customerRow.customerId
                                rotateDialog.customerName = customerRow.name
                                rotateDialog.open()
                            }
                        }
                    }
                }
            }

            NotPermittedPane {
                live: Customers.live
            }
        }
    }

    NewCustomerDialog {
        id: newCustomerDialog
    }

    SecretRevealDialog {
        id: secretDialog
    }

    Dialog {
        id: rotateDialog

        property string customerId
        property string customerName

        objectName: "rotateSecretDialog"
        title: qsTr("Rotate the webhook secret of %1?").arg(rotateDialog.customerName)
        modal: true
        anchors.centerIn: Overlay.overlay
        width: Math.min(460, parent ? parent.width - 48 : 460)
        padding: 20
        standardButtons: Dialog.NoButton
        background: Rectangle {
            color: Theme.surface
            radius: 8
            border.color: Theme.border
        }
        header: Label {
            textFormat: Text.PlainText
            text: rotateDialog.title
            color: Theme.text
            padding: 20
            bottomPadding: 4
            font.pixelSize: 17
            font.weight: Font.DemiBold
            elide: Text.ElideRight
        }
        ColumnLayout {
            anchors.fill: parent
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: qsTr("A new secret is made and shown once. The current one keeps working for a grace period so the customer can switch.")
                color: Theme.text
                wrapMode: Text.Wrap
            }
        }
        footer: Pane {
            padding: 20
            topPadding: 4
            background: null
            RowLayout {
                anchors.right: parent.right
                spacing: 8
                Button {
                    objectName: "confirmRotateButton"
                    text: qsTr("Rotate")
                    highlighted: true
                    Accessible.name: qsTr("Rotate the secret")
                    onClicked: {
                        Customers.rotateSecret(rotateDialog.customerId)
                        rotateDialog.close()
                    }
                }
                Button {
                    text: qsTr("Cancel")
                    Accessible.name: qsTr("Cancel")
                    onClicked: rotateDialog.close()
                }
            }
        }
    }

    // The secret comes once, with the server's answer. (A signal of a list model: Connections
    // cannot take it as a target under qmllint 6.4.)
    function revealSecret(customerId: string, customerName: string, secret: string,
                          previousSecretExpiresText: string) {
        secretDialog.reveal(customerName, secret, previousSecretExpiresText)
    }
    Component.onCompleted: Customers.secretIssued.connect(root.revealSecret)
}
