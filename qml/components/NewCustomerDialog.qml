import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Asks for a new customer's name and creates it (Customers.create). Its webhook secret is
// shown once by the secret dialog when the server answers.
Dialog {
    id: root

    objectName: "newCustomerDialog"
    title: qsTr("New customer")
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(440, parent ? parent.width - 48 : 440)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

    onAboutToShow: {
        nameField.text = ""
        nameField.forceActiveFocus()
    }

    // Done once the customer exists; its secret dialog opens next. (A signal of a list
    // model: Connections cannot take it as a target under qmllint 6.4.)
    function closeWhenCreated() {
        root.close()
    }
    Component.onCompleted: Customers.customerCreated.connect(root.closeWhenCreated)

    background: Rectangle {
        color: Theme.surface
        radius: 8
        border.color: Theme.border
    }

    header: Label {
        textFormat: Text.PlainText
        text: root.title
        color: Theme.text
        padding: 20
        bottomPadding: 4
        font.pixelSize: 17
        font.weight: Font.DemiBold
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 6
        Label {
            textFormat: Text.PlainText
            text: qsTr("Name")
            font.weight: Font.DemiBold
        }
        TextField {
            id: nameField
            objectName: "customerNameField"
            Layout.fillWidth: true
            maximumLength: 200
            placeholderText: qsTr("e.g. Biergarten Nord")
            selectByMouse: true
            Accessible.name: qsTr("Customer name")
            onAccepted: if (createButton.enabled) Customers.create(nameField.text)
        }
        Label {
            objectName: "newCustomerError"
            Layout.fillWidth: true
            visible: Customers.error.length > 0
            text: Customers.error // the server's message, untranslated
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
            Button {
                id: createButton
                objectName: "createCustomerButton"
                text: qsTr("Create")
                highlighted: true
                enabled: nameField.text.trim().length > 0 && !Customers.busy
                Accessible.name: qsTr("Create the customer")
                onClicked: Customers.create(nameField.text)
            }
            Button {
                text: qsTr("Cancel")
                Accessible.name: qsTr("Cancel")
                onClicked: root.reject()
            }
        }
    }
}
