pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The OAuth client registry: every client with its type, grant types, scopes and redirect
// URIs; register one (its secret is shown once), rotate a secret, delete a client (its
// tokens are revoked with it). The password grant is marked obsolete wherever it shows.
Pane {
    id: root

    padding: 20
    background: Rectangle { color: Theme.background }
    palette.disabled.buttonText: Theme.idle
    palette.disabled.windowText: Theme.idle

    // A grant type as a small pill; the password grant in the warning colour.
    component GrantChip: Rectangle {
        id: chip

        required property string grant
        readonly property bool obsolete: chip.grant === "password"

        implicitWidth: chipLabel.implicitWidth + 14
        implicitHeight: chipLabel.implicitHeight + 4
        radius: height / 2
        color: chip.obsolete ? Theme.warningSoft : Theme.neutralSoft
        border.color: chip.obsolete ? Qt.rgba(Theme.warning.r, Theme.warning.g, Theme.warning.b, 0.45)
                                    : "transparent"
        Accessible.role: Accessible.StaticText
        Accessible.name: chipLabel.text
        Label {
            textFormat: Text.PlainText
            id: chipLabel
            anchors.centerIn: parent
            text: chip.obsolete ? qsTr("%1 · obsolete").arg(chip.grant) : chip.grant
            color: chip.obsolete ? Theme.warning : Theme.text
            font.family: Theme.monoFont
            font.pixelSize: 11
            font.weight: chip.obsolete ? Font.DemiBold : Font.Normal
        }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        ErrorBanner {
            objectName: "clientsError"
            Layout.fillWidth: true
            message: Clients.error
            onDismissed: Clients.clearError()
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            Label {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: qsTr("Applications that may ask this server for tokens; secrets are shown once.")
                color: Theme.mutedText
                elide: Text.ElideRight
            }
            BusyIndicator {
                Layout.preferredWidth: 24
                Layout.preferredHeight: 24
                running: Clients.loading || Clients.busy
                visible: running
            }
            Label {
                textFormat: Text.PlainText
                objectName: "clientCount"
                text: qsTr("%1 registered").arg(Clients.count)
                color: Theme.mutedText
            }
            Button {
                objectName: "userAccessButton"
                text: qsTr("User access…")
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Effective access of a user")
                onClicked: accessDialog.openForUser()
            }
            Button {
                text: qsTr("Reload")
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Reload the clients")
                onClicked: Clients.reload()
            }
            Button {
                objectName: "registerClientOpenButton"
                text: qsTr("Register client…")
                highlighted: true
                enabled: AdminClient.connectionState === AdminClient.Online
                Accessible.name: qsTr("Register a client")
                onClicked: registerDialog.open()
            }
        }

        LiveBadge {
            objectName: "clientListLive"
            Layout.fillWidth: true
            live: Clients.live
        }
        Rectangle {
            Layout.fillWidth: true
            Layout.fillHeight: true
            color: Theme.surface
            radius: Theme.radius
            border.color: Theme.border
            clip: true

            ListView {
                id: clientList
                objectName: "clientList"
                anchors.fill: parent
                anchors.margins: 1
                clip: true
                model: Clients
                boundsBehavior: Flickable.StopAtBounds
                Accessible.role: Accessible.List
                Accessible.name: qsTr("Clients")
                ScrollBar.vertical: ScrollBar {}

                delegate: Rectangle {
                    id: clientRow

                    required property int index
                    required property string clientId
                    required property string name
                    required property var grantTypes
                    required property string authMethod
                    required property bool confidential
                    required property var grantNames
                    required property bool hasObsoleteGrant
                    required property string scope
                    required property var redirectUris
                    required property var postLogoutRedirectUris
                    required property string tokenFormat
                    required property string lifetimeText
                    required property string createdText
                    required property string contactsText
                    required property bool redirectsUnvetted
                    required property string credentialsEndText
                    required property bool credentialsEnded

                    objectName: "client-" + clientRow.clientId
                    width: ListView.view.width
                    implicitHeight: rowContent.implicitHeight + 22
                    color: clientRow.index % 2 === 0 ? Theme.surface : Theme.stripe
                    Accessible.role: Accessible.ListItem
                    Accessible.name: clientRow.name

                    RowLayout {
                        id: rowContent
                        anchors.left: parent.left
                        anchors.right: parent.right
                        anchors.verticalCenter: parent.verticalCenter
                        anchors.leftMargin: 14
                        anchors.rightMargin: 12
                        spacing: 12

                        ColumnLayout {
                            Layout.fillWidth: true
                            // Takes what the buttons leave; its texts elide instead of
                            // pushing the buttons out of the row.
                            Layout.preferredWidth: 0
                            spacing: 4

                            RowLayout {
                                Layout.fillWidth: true
                                spacing: 8
                                Label {
                                    textFormat: Text.PlainText
                                    objectName: "clientName"
                                    text: clientRow.name
                                    color: Theme.text
                                    font.weight: Font.DemiBold
                                    elide: Text.ElideRight
                                    Layout.maximumWidth: 320
                                }
                                StatusBadge {
                                    objectName: "clientType"
                                    family: clientRow.confidential ? "progress" : "cancelled"
                                    text: clientRow.confidential ? qsTr("Confidential") : qsTr("Public")
                                }
                                StatusBadge {
                                    objectName: "obsoleteGrantBadge"
                                    visible: clientRow.hasObsoleteGrant
                                    Layout.fillWidth: true
                                    Layout.minimumWidth: 48
                                    Layout.maximumWidth: implicitWidth
                                    family: "waiting"
                                    text: qsTr("password grant: obsolete — OAuth 2.1 removes it")
                                }
                                StatusBadge {
                                    // Issued by an admin token that expires: they end with it.
                                    objectName: "credentialsEndBadge"
                                    visible: clientRow.credentialsEndText.length > 0
                                    Layout.fillWidth: true
                                    Layout.minimumWidth: 48
                                    Layout.maximumWidth: implicitWidth
                                    family: clientRow.credentialsEnded ? "exception" : "waiting"
                                    text: clientRow.credentialsEnded
                                          ? qsTr("credentials ended %1: rotate the secret").arg(clientRow.credentialsEndText)
                                          : qsTr("credentials end %1").arg(clientRow.credentialsEndText)
                                }
                                StatusBadge {
                                    objectName: "unvettedRedirectsBadge"
                                    visible: clientRow.redirectsUnvetted
                                    Layout.fillWidth: true
                                    Layout.minimumWidth: 48
                                    Layout.maximumWidth: implicitWidth
                                    family: "waiting"
                                    text: qsTr("redirects not vetted")
                                }
                                Item { Layout.fillWidth: true }
                            }
                            Label {
                                textFormat: Text.PlainText
                                objectName: "clientFacts"
                                Layout.fillWidth: true
                                text: qsTr("%1 · %2 · %3 · registered %4")
                                      .arg(clientRow.clientId).arg(clientRow.authMethod)
                                      .arg(clientRow.tokenFormat === "opaque"
                                           ? qsTr("opaque tokens for %1").arg(clientRow.lifetimeText)
                                           : qsTr("JWT tokens for %1").arg(clientRow.lifetimeText))
                                      .arg(clientRow.createdText)
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideRight
                            }
                            Flow {
                                objectName: "grantChips"
                                Layout.fillWidth: true
                                spacing: 6
                                Repeater {
                                    model: clientRow.grantNames
                                    delegate: GrantChip {
                                        required property string modelData
                                        grant: modelData
                                    }
                                }
                            }
                            Label {
                                textFormat: Text.PlainText
                                objectName: "clientScopes"
                                Layout.fillWidth: true
                                text: qsTr("Scopes: %1").arg(clientRow.scope.length > 0 ? clientRow.scope : qsTr("none"))
                                color: Theme.text
                                font.pixelSize: 12
                                elide: Text.ElideRight
                            }
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                visible: clientRow.redirectUris.length > 0
                                text: qsTr("Redirect URIs: %1").arg(clientRow.redirectUris.join(", "))
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideMiddle
                            }
                            Label {
                                textFormat: Text.PlainText
                                objectName: "unvettedRedirectsNote"
                                Layout.fillWidth: true
                                visible: clientRow.redirectsUnvetted
                                text: qsTr("It registered itself and no administrator has checked these addresses: errors and sign-outs show the user a link instead of redirecting, until an administrator vouches for them.")
                                color: Theme.mutedText
                                font.pixelSize: 12
                                wrapMode: Text.Wrap
                            }
                            Label {
                                textFormat: Text.PlainText
                                Layout.fillWidth: true
                                visible: clientRow.contactsText.length > 0
                                text: qsTr("Contacts: %1").arg(clientRow.contactsText)
                                color: Theme.mutedText
                                font.pixelSize: 12
                                elide: Text.ElideRight
                            }
                        }
                        Button {
                            objectName: "clientAccessButton"
                            text: qsTr("Access…")
                            Accessible.name: qsTr("Effective access of %1").arg(clientRow.name)
                            onClicked: accessDialog.openForClient(clientRow.clientId)
                        }
                        Button {
                            objectName: "previewTokenButton"
                            text: qsTr("Preview token…")
                            Accessible.name: qsTr("Preview the token %1 would get").arg(clientRow.name)
                            onClicked: previewDialog.openFor(clientRow.clientId, clientRow.name,
                                                             clientRow.grantTypes)
                        }
                        Button {
                            objectName: "vouchRedirectsButton"
                            visible: clientRow.redirectsUnvetted
                            text: qsTr("Vouch…")
                            enabled: !Clients.busy
                            Accessible.name: qsTr("Vouch for the redirect URIs of %1").arg(clientRow.name)
                            onClicked: {
                                vouchDialog.clientId = clientRow.clientId
                                vouchDialog.clientName = clientRow.name
                                // Saving vouches for the sign-out addresses too: shown with them.
                                vouchDialog.uris = clientRow.redirectUris.concat(clientRow.postLogoutRedirectUris).join(", ")
                                vouchDialog.open()
                            }
                        }
                        Button {
                            objectName: "rotateClientSecretButton"
                            visible: clientRow.confidential
                            text: qsTr("Rotate secret…")
                            enabled: !Clients.busy
                            Accessible.name: qsTr("Rotate the client secret of %1").arg(clientRow.name)
                            onClicked: {
                                rotateDialog.clientId = clientRow.clientId
                                rotateDialog.clientName = clientRow.name
                                rotateDialog.open()
                            }
                        }
                        Button {
                            objectName: "deleteClientButton"
                            text: qsTr("Delete…")
                            enabled: !Clients.busy
                            Accessible.name: qsTr("Delete the client %1").arg(clientRow.name)
                            onClicked: {
                                deleteDialog.clientId = clientRow.clientId
                                deleteDialog.clientName = clientRow.name
                                deleteDialog.open()
                            }
                        }
                    }
                }
            }

            Label {
                textFormat: Text.PlainText
                anchors.centerIn: parent
                width: parent.width - 40
                visible: clientList.count === 0 && Clients.loaded && !Clients.loading
                horizontalAlignment: Text.AlignHCenter
                wrapMode: Text.Wrap
                text: qsTr("No clients yet. Register one to let an application ask for tokens.")
                color: Theme.mutedText
            }

            NotPermittedPane {
                live: Clients.live
            }
        }
    }

    RegisterClientDialog {
        id: registerDialog
    }

    ClientSecretDialog {
        id: secretDialog
    }

    TokenPreviewDialog {
        id: previewDialog
    }

    AccessDialog {
        id: accessDialog
    }

    ConfirmDialog {
        id: rotateDialog

        property string clientId
        property string clientName

        objectName: "rotateClientSecretDialog"
        title: qsTr("Rotate the secret of %1?").arg(rotateDialog.clientName)
        message: qsTr("A new secret is made and shown once. The current secret stops working at once: the client fails to get tokens until it uses the new one.")
        confirmText: qsTr("Rotate")
        onConfirmed: Clients.rotateSecret(rotateDialog.clientId)
    }

    ConfirmDialog {
        id: vouchDialog

        property string clientId
        property string clientName
        property string uris

        objectName: "vouchRedirectsDialog"
        title: qsTr("Vouch for the redirect URIs of %1?").arg(vouchDialog.clientName)
        message: qsTr("Users are then sent to %1 without being asked, after an error, a refusal and a sign-out as after a sign-in. Vouch only if you know who runs these addresses. The client's registration access token can no longer widen what it has now.").arg(vouchDialog.uris)
        confirmText: qsTr("Vouch")
        onConfirmed: Clients.vouchForRedirects(vouchDialog.clientId)
    }

    ConfirmDialog {
        id: deleteDialog

        property string clientId
        property string clientName

        objectName: "deleteClientDialog"
        title: qsTr("Delete %1?").arg(deleteDialog.clientName)
        message: qsTr("The client is removed from the registry and every token it holds is revoked. This cannot be undone.")
        confirmText: qsTr("Delete")
        destructive: true
        onConfirmed: Clients.remove(deleteDialog.clientId)
    }

    // Credentials come once, with the server's answer. (A signal of a list model:
    // Connections cannot take it as a target under qmllint 6.4.)
    function revealSecret(clientId: string, clientName: string, secret: string, rotated: bool) {
        secretDialog.reveal(clientId, clientName, secret, rotated)
    }
    Component.onCompleted: Clients.secretIssued.connect(root.revealSecret)
}
