pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// "Register client": every field of RFC 7591 client metadata the server takes, each with
// what is wrong with it right under it (ClientForm checks with the server's rules). Nothing
// is sent while a field is wrong; when the server refuses anyway, its reason shows at the
// bottom. The new client's secret is shown once by the page's secret dialog.
Dialog {
    id: root

    // A field's problem, shown once the field was edited or Register was tried.
    component FieldError: Label {
        property bool shown: true

        Layout.fillWidth: true
        visible: shown && text.length > 0
        color: Theme.error
        font.pixelSize: 12
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        Accessible.role: Accessible.AlertMessage
        Accessible.name: text
    }
    component FieldLabel: Label {
        Layout.topMargin: 6
        color: Theme.text
        font.weight: Font.DemiBold
    }
    component FieldHint: Label {
        Layout.fillWidth: true
        color: Theme.mutedText
        font.pixelSize: 12
        wrapMode: Text.Wrap
    }

    objectName: "registerClientDialog"
    title: qsTr("Register a client")
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(680, parent ? parent.width - 48 : 680)
    height: Math.min(780, parent ? parent.height - 32 : 780)
    closePolicy: Popup.CloseOnEscape
    padding: 0
    topPadding: 0

    // Fields show their errors after they were edited (or after Register was tried).
    property bool nameEdited: false
    property bool urisEdited: false
    property bool grantsEdited: false
    property bool scopeEdited: false
    property bool logoEdited: false
    property bool contactsEdited: false
    property bool lifetimeEdited: false
    // The checked grant types (a JS array for indexOf).
    readonly property var selectedGrants: ClientForm.grantTypes

    onAboutToShow: {
        ClientForm.reset()
        root.nameEdited = root.urisEdited = root.grantsEdited = root.scopeEdited = false
        root.logoEdited = root.contactsEdited = root.lifetimeEdited = false
        nameField.text = ClientForm.clientName
        urisField.text = ClientForm.redirectUris
        scopeField.text = ClientForm.scope
        logoField.text = ClientForm.logoUri
        contactsField.text = ClientForm.contacts
        lifetimeField.text = ClientForm.lifetime
        authCombo.currentIndex = authCombo.indexOfValue(ClientForm.authMethod)
        formatCombo.currentIndex = formatCombo.indexOfValue(ClientForm.tokenFormat)
        nameField.forceActiveFocus()
    }

    Connections {
        target: ClientForm
        function onRegistered() {
            root.close()
        }
    }

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
        }
        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            Layout.leftMargin: 20
            Layout.rightMargin: 20
            Layout.bottomMargin: 10
            text: qsTr("OAuth 2.0 dynamic client registration metadata (RFC 7591). A confidential client gets a secret, shown once.")
            color: Theme.mutedText
            wrapMode: Text.Wrap
        }
        Rectangle {
            Layout.fillWidth: true
            implicitHeight: 1
            color: Theme.border
        }
    }

    // Scrolls to the first field that is wrong (Register was refused by the form): its
    // label at the top, the field and the error under it. (Errors that just appeared are not
    // laid out yet; the labels are.)
    function showFirstError() {
        const fieldsInOrder = [[nameError, nameLabel], [grantTypesError, grantsLabel],
                               [redirectUrisError, urisLabel], [scopeError, scopeLabel],
                               [lifetimeError, lifetimeLabel], [logoUriError, logoLabel],
                               [contactsError, contactsLabel]]
        for (const [error, label] of fieldsInOrder) {
            if (error.text.length === 0)
                continue
            const y = label.mapToItem(fields, 0, 0).y
            scroller.contentY = Math.max(0, Math.min(y - 12, scroller.contentHeight - scroller.height))
            return
        }
    }

    Flickable {
        id: scroller
        objectName: "registerScroller"
        anchors.fill: parent
        clip: true
        contentWidth: width
        contentHeight: fields.implicitHeight
        boundsBehavior: Flickable.StopAtBounds
        ScrollBar.vertical: ScrollBar {}

        ColumnLayout {
            id: fields
            x: 20
            width: scroller.width - 40
            spacing: 4

            Item { implicitHeight: 8 }

            // client_name
            FieldLabel {
                id: nameLabel
                text: qsTr("Name")
            }
            TextField {
                id: nameField
                objectName: "clientNameField"
                Layout.fillWidth: true
                placeholderText: qsTr("e.g. Warehouse sync")
                selectByMouse: true
                Accessible.name: qsTr("Client name")
                onTextChanged: ClientForm.clientName = nameField.text
                onEditingFinished: root.nameEdited = true
            }
            FieldError {
                id: nameError
                objectName: "clientNameError"
                text: ClientForm.nameError
                shown: ClientForm.attempted || root.nameEdited
            }

            // token_endpoint_auth_method
            FieldLabel { text: qsTr("Client type and authentication") }
            ComboBox {
                id: authCombo
                objectName: "authMethodCombo"
                Layout.fillWidth: true
                model: ClientForm.authMethodOptions
                textRole: "text"
                valueRole: "value"
                Accessible.name: qsTr("Token endpoint authentication method")
                onActivated: ClientForm.authMethod = authCombo.currentValue
                onModelChanged: currentIndex = indexOfValue(ClientForm.authMethod) // new language
            }
            FieldHint {
                text: authCombo.currentIndex >= 0
                      ? ClientForm.authMethodOptions[authCombo.currentIndex].explanation : ""
            }

            // grant_types
            FieldLabel {
                id: grantsLabel
                text: qsTr("Grant types")
            }
            Repeater {
                model: ClientForm.grantOptions
                delegate: ColumnLayout {
                    id: grantRow

                    required property var modelData
                    readonly property string value: grantRow.modelData.value

                    objectName: "grant-" + grantRow.modelData.title
                    Layout.fillWidth: true
                    spacing: 0

                    RowLayout {
                        Layout.fillWidth: true
                        spacing: 8
                        CheckBox {
                            objectName: "grantCheck"
                            text: grantRow.modelData.title
                            font.family: Theme.monoFont
                            checked: root.selectedGrants.indexOf(grantRow.value) >= 0
                            Accessible.name: qsTr("Grant type %1").arg(grantRow.modelData.title)
                            Accessible.description: grantRow.modelData.explanation
                            onToggled: {
                                ClientForm.setGrant(grantRow.value, checked)
                                root.grantsEdited = true
                            }
                        }
                        Rectangle {
                            objectName: "grantNote"
                            visible: grantRow.modelData.note.length > 0
                            implicitWidth: noteLabel.implicitWidth + 14
                            implicitHeight: noteLabel.implicitHeight + 4
                            radius: height / 2
                            color: grantRow.modelData.obsolete ? Theme.warningSoft : Theme.neutralSoft
                            border.color: grantRow.modelData.obsolete
                                          ? Qt.rgba(Theme.warning.r, Theme.warning.g, Theme.warning.b, 0.45)
                                          : "transparent"
                            Label {
                                textFormat: Text.PlainText
                                id: noteLabel
                                anchors.centerIn: parent
                                text: grantRow.modelData.note
                                color: grantRow.modelData.obsolete ? Theme.warning : Theme.mutedText
                                font.pixelSize: 11
                                font.weight: grantRow.modelData.obsolete ? Font.DemiBold : Font.Normal
                            }
                        }
                        Item { Layout.fillWidth: true }
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "grantExplanation"
                        Layout.fillWidth: true
                        Layout.leftMargin: 34
                        Layout.bottomMargin: 2
                        text: grantRow.modelData.explanation
                        color: Theme.mutedText
                        font.pixelSize: 12
                        elide: Text.ElideRight
                    }
                }
            }
            FieldError {
                id: grantTypesError
                objectName: "grantTypesError"
                text: ClientForm.grantTypesError
                shown: ClientForm.attempted || root.grantsEdited
            }

            // redirect_uris
            FieldLabel {
                id: urisLabel
                text: qsTr("Redirect URIs")
            }
            FieldHint {
                text: qsTr("One per line. https; http only for 127.0.0.1, localhost or [::1]; or an app's own scheme such as com.example.app:/callback.")
            }
            TextArea {
                textFormat: TextEdit.PlainText
                id: urisField
                objectName: "redirectUrisField"
                Layout.fillWidth: true
                Layout.preferredHeight: Math.max(64, implicitHeight)
                placeholderText: "https://app.example.com/callback"
                font.family: Theme.monoFont
                wrapMode: TextEdit.WrapAnywhere
                selectByMouse: true
                Accessible.name: qsTr("Redirect URIs, one per line")
                background: Rectangle {
                    color: Theme.surface
                    radius: 3
                    border.color: urisField.activeFocus ? Theme.accent : Theme.border
                }
                onTextChanged: ClientForm.redirectUris = urisField.text
                onActiveFocusChanged: if (!urisField.activeFocus && urisField.text.length > 0) root.urisEdited = true
            }
            FieldError {
                id: redirectUrisError
                objectName: "redirectUrisError"
                text: ClientForm.redirectUrisError
                shown: ClientForm.attempted || root.urisEdited || root.grantsEdited
            }

            // scope
            FieldLabel {
                id: scopeLabel
                text: qsTr("Scopes")
            }
            TextField {
                id: scopeField
                objectName: "scopeField"
                Layout.fillWidth: true
                placeholderText: qsTr("Separated by spaces, e.g. openid profile orders:read")
                font.family: Theme.monoFont
                selectByMouse: true
                Accessible.name: qsTr("Allowed scopes, separated by spaces")
                onTextChanged: ClientForm.scope = scopeField.text
                onEditingFinished: root.scopeEdited = true
            }
            FieldError {
                id: scopeError
                objectName: "scopeError"
                text: ClientForm.scopeError
                shown: ClientForm.attempted || root.scopeEdited
            }

            // access_token_format, access_token_lifetime
            GridLayout {
                Layout.fillWidth: true
                columns: 2
                columnSpacing: 16
                rowSpacing: 4

                FieldLabel { text: qsTr("Access token format") }
                FieldLabel {
                    id: lifetimeLabel
                    text: qsTr("Access token lifetime")
                }
                ComboBox {
                    id: formatCombo
                    objectName: "tokenFormatCombo"
                    Layout.fillWidth: true
                    Layout.preferredWidth: 1
                    model: ClientForm.tokenFormatOptions
                    textRole: "text"
                    valueRole: "value"
                    Accessible.name: qsTr("Access token format")
                    onActivated: ClientForm.tokenFormat = formatCombo.currentValue
                    onModelChanged: currentIndex = indexOfValue(ClientForm.tokenFormat) // new language
                }
                RowLayout {
                    Layout.fillWidth: true
                    Layout.preferredWidth: 1
                    spacing: 8
                    TextField {
                        id: lifetimeField
                        objectName: "lifetimeField"
                        Layout.preferredWidth: 110
                        inputMethodHints: Qt.ImhDigitsOnly
                        selectByMouse: true
                        Accessible.name: qsTr("Access token lifetime in seconds")
                        onTextChanged: ClientForm.lifetime = lifetimeField.text
                        onEditingFinished: root.lifetimeEdited = true
                    }
                    Label {
                        textFormat: Text.PlainText
                        Layout.fillWidth: true
                        text: ClientForm.lifetimeText.length > 0
                              ? qsTr("seconds (%1)").arg(ClientForm.lifetimeText) : qsTr("seconds")
                        color: Theme.mutedText
                        elide: Text.ElideRight
                    }
                }
                Item { implicitHeight: 1 }
                FieldError {
                    id: lifetimeError
                objectName: "lifetimeError"
                    text: ClientForm.lifetimeError
                    shown: ClientForm.attempted || root.lifetimeEdited
                }
            }

            // logo_uri
            FieldLabel {
                id: logoLabel
                text: qsTr("Logo URL (optional)")
            }
            TextField {
                id: logoField
                objectName: "logoUriField"
                Layout.fillWidth: true
                placeholderText: "https://app.example.com/logo.png"
                selectByMouse: true
                Accessible.name: qsTr("Logo URL")
                onTextChanged: ClientForm.logoUri = logoField.text
                onEditingFinished: root.logoEdited = true
            }
            FieldError {
                id: logoUriError
                objectName: "logoUriError"
                text: ClientForm.logoUriError
                shown: ClientForm.attempted || root.logoEdited
            }

            // contacts
            FieldLabel {
                id: contactsLabel
                text: qsTr("Contacts (optional)")
            }
            TextField {
                id: contactsField
                objectName: "contactsField"
                Layout.fillWidth: true
                placeholderText: qsTr("E-mail addresses, separated by commas")
                selectByMouse: true
                Accessible.name: qsTr("Contact e-mail addresses")
                onTextChanged: ClientForm.contacts = contactsField.text
                onEditingFinished: root.contactsEdited = true
            }
            FieldError {
                id: contactsError
                objectName: "contactsError"
                text: ClientForm.contactsError
                shown: ClientForm.attempted || root.contactsEdited
            }

            Item { implicitHeight: 12 }
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 10
        background: Rectangle {
            color: Theme.surface
            radius: 8
            Rectangle {
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.top: parent.top
                height: 1
                color: Theme.border
            }
        }
        ColumnLayout {
            anchors.left: parent.left
            anchors.right: parent.right
            spacing: 10
            Rectangle {
                objectName: "registerServerError"
                Layout.fillWidth: true
                visible: ClientForm.serverError.length > 0
                implicitHeight: serverErrorText.implicitHeight + 14
                radius: 4
                color: Theme.errorSoft
                border.color: Qt.rgba(Theme.error.r, Theme.error.g, Theme.error.b, 0.45)
                Label {
                    id: serverErrorText
                    objectName: "registerServerErrorText"
                    anchors.fill: parent
                    anchors.margins: 7
                    text: qsTr("The server refused: %1").arg(ClientForm.serverError)
                    color: Theme.text
                    wrapMode: Text.Wrap
                    textFormat: Text.PlainText
                    Accessible.role: Accessible.AlertMessage
                    Accessible.name: serverErrorText.text
                }
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: 8
                Label {
                    textFormat: Text.PlainText
                    objectName: "registerInvalidNote"
                    Layout.fillWidth: true
                    visible: ClientForm.attempted && !ClientForm.valid
                    text: qsTr("Fix the fields marked in red.")
                    color: Theme.error
                    elide: Text.ElideRight
                }
                Item {
                    Layout.fillWidth: true
                    visible: !(ClientForm.attempted && !ClientForm.valid)
                }
                BusyIndicator {
                    Layout.preferredWidth: 24
                    Layout.preferredHeight: 24
                    running: ClientForm.busy
                    visible: ClientForm.busy
                }
                Button {
                    objectName: "registerClientButton"
                    text: qsTr("Register")
                    highlighted: true
                    enabled: !ClientForm.busy
                    Accessible.name: qsTr("Register the client")
                    onClicked: {
                        ClientForm.submit()
                        if (!ClientForm.valid)
                            root.showFirstError()
                    }
                }
                Button {
                    text: qsTr("Cancel")
                    Accessible.name: qsTr("Cancel")
                    onClicked: root.reject()
                }
            }
        }
    }
}
