import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// What a client would get from the token endpoint now (TokenPreview): grant type, scope,
// resource / audience and, for user grants, the user; every claim with its source. Nothing
// is issued or stored.
Dialog {
    id: root

    objectName: "tokenPreviewDialog"
    title: qsTr("Preview a token for %1").arg(TokenPreview.clientName.length > 0 ? TokenPreview.clientName
                                                                                 : TokenPreview.clientId)
    modal: true
    focus: true
    anchors.centerIn: Overlay.overlay
    width: Math.min(820, parent ? parent.width - 48 : 820)
    height: Math.min(760, parent ? parent.height - 48 : 760)
    closePolicy: Popup.CloseOnEscape
    padding: 20
    topPadding: 8

    function openFor(clientId: string, clientName: string, grantTypes: var) {
        TokenPreview.startFor(clientId, clientName, grantTypes)
        grantCombo.currentIndex = grantCombo.indexOfValue(TokenPreview.grantType)
        root.open()
    }

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
        elide: Text.ElideRight
    }

    ScrollView {
        id: scroll
        anchors.fill: parent
        clip: true
        contentWidth: availableWidth

        ColumnLayout {
            width: scroll.availableWidth
            spacing: 10

            GridLayout {
                Layout.fillWidth: true
                columns: 4
                columnSpacing: 10
                rowSpacing: 6

                Label { textFormat: Text.PlainText; text: qsTr("Grant type"); color: Theme.mutedText }
                ComboBox {
                    id: grantCombo
                    objectName: "previewGrant"
                    Layout.fillWidth: true
                    model: TokenPreview.grantOptions
                    textRole: "text"
                    valueRole: "value"
                    Accessible.name: qsTr("Grant type")
                    onActivated: TokenPreview.grantType = grantCombo.currentValue
                }
                Label { textFormat: Text.PlainText; text: qsTr("Scope"); color: Theme.mutedText }
                TextField {
                    objectName: "previewScope"
                    Layout.fillWidth: true
                    text: TokenPreview.scope
                    placeholderText: qsTr("the client's scopes")
                    selectByMouse: true
                    Accessible.name: qsTr("Scope")
                    onTextEdited: TokenPreview.scope = text
                }
                Label { textFormat: Text.PlainText; text: qsTr("Resource"); color: Theme.mutedText }
                TextField {
                    objectName: "previewResource"
                    Layout.fillWidth: true
                    text: TokenPreview.resource
                    placeholderText: "https://api.example.com"
                    selectByMouse: true
                    Accessible.name: qsTr("Resource")
                    onTextEdited: TokenPreview.resource = text
                }
                Label { textFormat: Text.PlainText; text: qsTr("Audience"); color: Theme.mutedText }
                TextField {
                    objectName: "previewAudience"
                    Layout.fillWidth: true
                    text: TokenPreview.audience
                    selectByMouse: true
                    Accessible.name: qsTr("Audience")
                    onTextEdited: TokenPreview.audience = text
                }
                Label {
                    textFormat: Text.PlainText
                    visible: TokenPreview.userGrant
                    text: qsTr("User")
                    color: Theme.mutedText
                }
                TextField {
                    objectName: "previewUsername"
                    visible: TokenPreview.userGrant
                    Layout.fillWidth: true
                    text: TokenPreview.username
                    placeholderText: qsTr("username")
                    selectByMouse: true
                    Accessible.name: qsTr("Username")
                    onTextEdited: TokenPreview.username = text
                }
            }

            RowLayout {
                spacing: 10
                Button {
                    objectName: "runPreviewButton"
                    text: qsTr("Preview")
                    highlighted: true
                    enabled: !TokenPreview.busy && AdminClient.connectionState === AdminClient.Online
                             && (!TokenPreview.userGrant || TokenPreview.username.trim().length > 0)
                    Accessible.name: qsTr("Preview the token")
                    onClicked: TokenPreview.preview()
                }
                BusyIndicator {
                    Layout.preferredWidth: 22
                    Layout.preferredHeight: 22
                    running: TokenPreview.busy
                    visible: running
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "previewFormat"
                    visible: TokenPreview.loaded
                    text: TokenPreview.alsoIssuedText.length > 0
                          ? qsTr("%1 access token, also issued: %2").arg(TokenPreview.format).arg(TokenPreview.alsoIssuedText)
                          : qsTr("%1 access token").arg(TokenPreview.format)
                    color: Theme.text
                }
            }

            Label {
                objectName: "tokenPreviewError"
                Layout.fillWidth: true
                visible: TokenPreview.error.length > 0
                text: TokenPreview.error // the server's message, untranslated
                color: Theme.error
                wrapMode: Text.Wrap
                textFormat: Text.PlainText
            }

            TokenPreviewTable {
                objectName: "previewClaims"
                Layout.fillWidth: true
                claims: TokenPreview.claims
            }

            Label {
                textFormat: Text.PlainText
                objectName: "previewNote"
                Layout.fillWidth: true
                visible: TokenPreview.loaded
                text: qsTr("A dry run of the real issuing code: nothing is issued or stored, and iat, exp and jti differ in a real token.")
                color: Theme.mutedText
                font.pixelSize: 12
                wrapMode: Text.Wrap
            }
        }
    }

    footer: Pane {
        padding: 20
        topPadding: 4
        background: null
        RowLayout {
            anchors.right: parent.right
            Button {
                text: qsTr("Close")
                onClicked: root.close()
            }
        }
    }
}
