pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Tokens and JWTs: mint a client_credentials token for a demo (it goes straight into the
// decoder), the JWT decoder with its verdict, and the active tokens with Revoke.
Pane {
    id: root

    padding: 20
    background: Rectangle { color: Theme.background }
    palette.disabled.buttonText: Theme.idle
    palette.disabled.windowText: Theme.idle

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        TabBar {
            id: tabs
            objectName: "tokensTabs"
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
                objectName: "decoderTab"
                text: qsTr("JWT decoder")
            }
            PageTab {
                objectName: "activeTokensTab"
                text: qsTr("Active tokens (%1)").arg(Tokens.count)
            }
        }

        StackLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: tabs.currentIndex

            // Mint and decode.
            ScrollView {
                id: decoderScroll
                objectName: "decoderPane"
                clip: true
                contentWidth: availableWidth

                ColumnLayout {
                    width: decoderScroll.availableWidth
                    spacing: Theme.spacing

                    Rectangle {
                        objectName: "mintCard"
                        Layout.fillWidth: true
                        implicitHeight: mint.implicitHeight + 28
                        color: Theme.surface
                        radius: Theme.radius
                        border.color: Theme.border

                        ColumnLayout {
                            id: mint
                            anchors.left: parent.left
                            anchors.right: parent.right
                            anchors.top: parent.top
                            anchors.margins: 14
                            spacing: 8

                            RowLayout {
                                Layout.fillWidth: true
                                spacing: 8
                                Label {
                                    textFormat: Text.PlainText
                                    text: qsTr("Mint a demo token")
                                    color: Theme.text
                                    font.weight: Font.DemiBold
                                }
                                ComboBox {
                                    id: mintClient
                                    objectName: "mintClientCombo"
                                    Layout.preferredWidth: 220
                                    model: Clients.mintOptions
                                    textRole: "text"
                                    valueRole: "value"
                                    displayText: count > 0 ? currentText : qsTr("No client_credentials client")
                                    Accessible.name: qsTr("Client to mint a token for")
                                    delegate: PlainComboRow {
                                        required property var modelData
                                        combo: mintClient
                                        label: modelData.text
                                    }
                                }
                                TextField {
                                    id: mintScope
                                    objectName: "mintScopeField"
                                    Layout.fillWidth: true
                                    placeholderText: qsTr("Scope (optional; default: all the client may have)")
                                    font.family: Theme.monoFont
                                    selectByMouse: true
                                    Accessible.name: qsTr("Scope of the demo token")
                                    onAccepted: if (mintButton.enabled) mintButton.clicked()
                                }
                                Button {
                                    id: mintButton
                                    objectName: "mintButton"
                                    text: qsTr("Mint")
                                    highlighted: true
                                    enabled: mintClient.count > 0 && !Tokens.minting
                                             && AdminClient.connectionState === AdminClient.Online
                                    Accessible.name: qsTr("Mint a client_credentials token and decode it")
                                    onClicked: Tokens.mint(mintClient.currentValue, mintScope.text)
                                }
                            }
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                visible: Tokens.mintedToken.length === 0 && Tokens.mintError.length === 0
                                text: qsTr("A client_credentials token, issued as if the client had asked the token endpoint itself. Only confidential clients with that grant are listed.")
                                color: Theme.mutedText
                                font.pixelSize: 12
                                wrapMode: Text.Wrap
                            }
                            Label {
                                objectName: "mintError"
                                Layout.fillWidth: true
                                visible: Tokens.mintError.length > 0
                                text: Tokens.mintError // the server's message, untranslated
                                color: Theme.error
                                wrapMode: Text.Wrap
                                textFormat: Text.PlainText
                            }
                            RowLayout {
                                Layout.fillWidth: true
                                visible: Tokens.mintedToken.length > 0
                                spacing: 8
                                TextField {
                                    id: mintedField
                                    objectName: "mintedTokenField"
                                    Layout.fillWidth: true
                                    text: Tokens.mintedToken
                                    readOnly: true
                                    selectByMouse: true
                                    font.family: Theme.monoFont
                                    font.pixelSize: 12
                                    Accessible.name: qsTr("The minted access token")
                                    // Show the token's start (eyJ…), not its end.
                                    onTextChanged: mintedField.cursorPosition = 0
                                }
                                Button {
                                    id: copyMinted
                                    objectName: "copyMintedButton"
                                    // A new token shows "Copy" again.
                                    text: Tokens.mintedTokenCopied ? qsTr("Copied") : qsTr("Copy")
                                    Accessible.name: qsTr("Copy the minted token to the clipboard")
                                    onClicked: Tokens.copyMintedToken()
                                }
                            }
                            Label {
                                textFormat: Text.PlainText
                                objectName: "mintedSummary"
                                Layout.fillWidth: true
                                visible: Tokens.mintedToken.length > 0
                                text: qsTr("%1 — decoded below.").arg(Tokens.mintedSummary)
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideRight
                            }
                        }
                    }

                    JwtDecoder {
                        objectName: "jwtDecoder"
                        Layout.fillWidth: true
                    }
                }
            }

            // The active tokens.
            ColumnLayout {
                spacing: Theme.spacing

                ErrorBanner {
                    objectName: "tokensError"
                    Layout.fillWidth: true
                    message: Tokens.error
                    onDismissed: Tokens.clearError()
                }

                RowLayout {
                    Layout.fillWidth: true
                    spacing: 8
                    Label {
                        textFormat: Text.PlainText
                        Layout.fillWidth: true
                        text: qsTr("Tokens that are neither expired nor revoked, newest first. Revoking a refresh token revokes its whole family.")
                        color: Theme.mutedText
                        elide: Text.ElideRight
                    }
                    BusyIndicator {
                        Layout.preferredWidth: 24
                        Layout.preferredHeight: 24
                        running: Tokens.loading
                        visible: running
                    }
                    Button {
                        text: qsTr("Reload")
                        enabled: AdminClient.connectionState === AdminClient.Online
                        Accessible.name: qsTr("Reload the active tokens")
                        onClicked: Tokens.reload()
                    }
                }

                LiveBadge {
                    objectName: "tokenListLive"
                    Layout.fillWidth: true
                    live: Tokens.live
                }
                Rectangle {
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    color: Theme.surface
                    radius: Theme.radius
                    border.color: Theme.border
                    clip: true

                    ListView {
                        id: tokenList
                        objectName: "tokenList"
                        anchors.fill: parent
                        anchors.margins: 1
                        clip: true
                        model: Tokens
                        boundsBehavior: Flickable.StopAtBounds
                        Accessible.role: Accessible.List
                        Accessible.name: qsTr("Active tokens")
                        ScrollBar.vertical: ScrollBar {}

                        delegate: Rectangle {
                            id: tokenRow

                            required property int index
                            required property string tokenId
                            required property string shortId
                            required property string kind
                            required property string kindText
                            required property string format
                            required property string clientId
                            required property string clientName
                            required property string subjectText
                            required property string scope
                            required property string audience
                            required property string issuedText
                            required property string expiresText

                            objectName: "token-" + tokenRow.shortId
                            width: ListView.view.width
                            height: 58
                            color: tokenRow.index % 2 === 0 ? Theme.surface : Theme.stripe
                            Accessible.role: Accessible.ListItem
                            Accessible.name: qsTr("%1 for %2").arg(tokenRow.kindText)
                                                              .arg(tokenRow.clientName.length > 0 ? tokenRow.clientName : tokenRow.clientId)

                            RowLayout {
                                anchors.fill: parent
                                anchors.leftMargin: 14
                                anchors.rightMargin: 12
                                spacing: 12

                                StatusBadge {
                                    Layout.preferredWidth: 110
                                    family: tokenRow.kind === "refresh" ? "waiting" : "progress"
                                    text: tokenRow.kindText
                                }
                                ColumnLayout {
                                    Layout.fillWidth: true
                                    spacing: 2
                                    Label {
                                        textFormat: Text.PlainText
                                        Layout.fillWidth: true
                                        text: qsTr("%1 · subject %2").arg(tokenRow.clientName.length > 0 ? tokenRow.clientName : tokenRow.clientId)
                                                                     .arg(tokenRow.subjectText)
                                        color: Theme.text
                                        font.weight: Font.DemiBold
                                        elide: Text.ElideRight
                                    }
                                    Label {
                                        textFormat: Text.PlainText
                                        Layout.fillWidth: true
                                        text: qsTr("%1 · %2 · scope %3 · issued %4 · expires %5")
                                              .arg(tokenRow.shortId).arg(tokenRow.format)
                                              .arg(tokenRow.scope.length > 0 ? tokenRow.scope : qsTr("none"))
                                              .arg(tokenRow.issuedText).arg(tokenRow.expiresText)
                                        color: Theme.mutedText
                                        font.pixelSize: 12
                                        elide: Text.ElideRight
                                    }
                                }
                                Button {
                                    objectName: "revokeTokenButton"
                                    text: qsTr("Revoke…")
                                    Accessible.name: qsTr("Revoke this %1").arg(tokenRow.kindText)
                                    onClicked: {
                                        revokeDialog.tokenId = tokenRow.tokenId
                                        revokeDialog.kind = tokenRow.kind
                                        revokeDialog.open()
                                    }
                                }
                            }
                        }
                    }

                    Label {
                        textFormat: Text.PlainText
                        anchors.centerIn: parent
                        width: parent.width - 40
                        visible: tokenList.count === 0 && Tokens.loaded && !Tokens.loading
                        horizontalAlignment: Text.AlignHCenter
                        wrapMode: Text.Wrap
                        text: qsTr("No active tokens. Mint a demo token on the decoder tab to see one here.")
                        color: Theme.mutedText
                    }

                    NotPermittedPane {
                        live: Tokens.live
                    }
                }
            }
        }
    }

    ConfirmDialog {
        id: revokeDialog

        property string tokenId
        property string kind

        objectName: "revokeTokenDialog"
        title: qsTr("Revoke this token?")
        message: revokeDialog.kind === "refresh"
                 ? qsTr("The refresh token and every token of its family stop working at once.")
                 : qsTr("The token stops working at once: introspection answers inactive. A JWT stays verifiable offline until it expires.")
        confirmText: qsTr("Revoke")
        destructive: true
        onConfirmed: Tokens.revoke(revokeDialog.tokenId)
    }
}
