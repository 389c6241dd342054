import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The Clients page with the real services against the in-test admin server: the list, the
// register dialog with its inline validation, the secret shown once, rotate and delete.
Item {
    id: root

    width: 1100
    height: 780

    ClientsPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "ClientsPage"
        when: windowShown

        // Found once in initTestCase: a findChild() binding walks the whole tree again whenever
        // any item under it gains a child.
        property var list: null
        property var dialog: null
        property var secretDialog: null

        function rowOf(clientId) {
            return findChild(testCase.list, "client-" + clientId)
        }
        // A Popup has no visual children to search: its content and footer are searched.
        function field(name) {
            const item = findChild(testCase.dialog.contentItem, name) || findChild(testCase.dialog, name)
            verify(item, name)
            return item
        }
        function grantCheck(title) {
            const row = findChild(testCase.dialog.contentItem, "grant-" + title)
            verify(row, "grant row " + title)
            return findChild(row, "grantCheck")
        }
        function openRegister() {
            mouseClick(findChild(page, "registerClientOpenButton"))
            tryCompare(testCase.dialog, "opened", true, Wait.ms)
        }
        function chipTexts(row) {
            const texts = []
            const flow = findChild(row, "grantChips")
            for (let i = 0; i < flow.children.length; ++i) {
                const chip = flow.children[i]
                if (chip.grant !== undefined)
                    texts.push(chip.Accessible.name)
            }
            return texts
        }

        function initTestCase() {
            list = findChild(page, "clientList")
            dialog = findChild(page, "registerClientDialog")
            secretDialog = findChild(page, "clientSecretDialog")
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetOAuth()
            Clients.reload()
            tryVerify(() => !Clients.loading && Clients.count === 3, Wait.ms, "clients loaded")
            Clients.clearError()
        }

        function cleanup() {
            for (const name of ["registerClientDialog", "clientSecretDialog",
                                "rotateClientSecretDialog", "deleteClientDialog", "vouchRedirectsDialog"]) {
                const popup = findChild(page, name)
                if (popup.visible)
                    popup.close()
                tryCompare(popup, "visible", false, Wait.ms)
            }
        }

        function test_listShowsClients() {
            compare(testCase.list.count, 3)
            compare(findChild(page, "clientCount").text, "3 registered")
            // Newest first.
            compare(Clients.idAt(0), TestBackend.clientId(0))
            compare(Clients.idAt(2), TestBackend.clientId(2))

            const spa = rowOf(TestBackend.clientId(2))
            verify(spa, "the SPA's row")
            compare(findChild(spa, "clientName").text, "Orders dashboard")
            compare(findChild(spa, "clientType").text, "Public")
            verify(!findChild(spa, "rotateClientSecretButton").visible, "a public client has no secret")
            verify(!findChild(spa, "obsoleteGrantBadge").visible)
            // It registered itself and nobody vetted its redirect URIs: the row says so and why.
            const unvetted = findChild(spa, "unvettedRedirectsBadge")
            verify(unvetted.visible)
            compare(unvetted.text, "redirects not vetted")
            verify(findChild(spa, "unvettedRedirectsNote").visible)
            verify(findChild(spa, "unvettedRedirectsNote").text.includes("show the user a link instead of redirecting"))
            compare(findChild(spa, "clientScopes").text, "Scopes: openid profile email orders:read")
            verify(findChild(spa, "clientFacts").text.startsWith(TestBackend.clientId(2) + " · none · JWT tokens for 15 min"),
                   findChild(spa, "clientFacts").text)
            compare(chipTexts(spa), ["authorization_code", "refresh_token"])

            verify(!findChild(spa, "credentialsEndBadge").visible, "a public client has no credentials to end")
            const service = rowOf(TestBackend.clientId(1))
            compare(findChild(service, "clientType").text, "Confidential")
            // Its secret ends with the admin token that issued it: said before it does.
            const ends = findChild(service, "credentialsEndBadge")
            verify(ends.visible)
            verify(/^credentials end \S/.test(ends.text), ends.text)
            compare(ends.family, "waiting")
            verify(!findChild(service, "unvettedRedirectsBadge").visible, "an administrator's client")
            verify(!findChild(service, "unvettedRedirectsNote").visible)
            verify(findChild(service, "rotateClientSecretButton").visible)

            // The password grant is marked obsolete.
            const till = rowOf(TestBackend.clientId(0))
            const badge = findChild(till, "obsoleteGrantBadge")
            verify(badge.visible)
            compare(badge.text, "password grant: obsolete — OAuth 2.1 removes it")
            compare(badge.tone, Theme.warning)
            compare(chipTexts(till), ["password · obsolete", "refresh_token"])
            // Its secret ended: the row says so and what to do.
            const ended = findChild(till, "credentialsEndBadge")
            verify(ended.visible)
            verify(/^credentials ended \S.*: rotate the secret$/.test(ended.text), ended.text)
            compare(ended.family, "exception")
        }

        function test_vouchForASelfRegisteredClientsRedirects() {
            const spa = rowOf(TestBackend.clientId(2))
            const button = findChild(spa, "vouchRedirectsButton")
            verify(button.visible, "offered for a self-registered client")
            verify(!findChild(rowOf(TestBackend.clientId(1)), "vouchRedirectsButton").visible, "not for an administrator's")
            mouseClick(button)
            const dialog = findChild(page, "vouchRedirectsDialog")
            tryCompare(dialog, "opened", true, Wait.ms)
            compare(dialog.title, "Vouch for the redirect URIs of Orders dashboard?")
            // The sign-out address is vouched for by the same save: named too.
            verify(dialog.message.includes("https://dashboard.example.com/callback, http://127.0.0.1:5173/callback, " +
                                           "https://dashboard.example.com/signed-out"), dialog.message)
            // Cancelled: nothing sent, still unvetted.
            const put = "PUT /admin/v1/clients/" + TestBackend.clientId(2)
            mouseClick(findChild(dialog, "cancelConfirmButton"))
            tryCompare(dialog, "visible", false, Wait.ms)
            compare(TestBackend.requestCount(put), 0)
            verify(findChild(spa, "unvettedRedirectsBadge").visible)
            // Confirmed: the client is saved as it is listed; the badge and the button go.
            mouseClick(button)
            tryCompare(dialog, "opened", true, Wait.ms)
            mouseClick(findChild(dialog, "confirmButton"))
            tryVerify(() => !findChild(rowOf(TestBackend.clientId(2)), "unvettedRedirectsBadge").visible, Wait.ms,
                      "vouched for")
            const after = rowOf(TestBackend.clientId(2))
            verify(!findChild(after, "vouchRedirectsButton").visible)
            verify(!findChild(after, "unvettedRedirectsNote").visible)
            compare(findChild(after, "clientScopes").text, "Scopes: openid profile email orders:read", "metadata kept")
            compare(TestBackend.requestCount(put), 1)
            compare(Clients.error, "")
        }

        function test_grantCheckboxesWithExplanations() {
            openRegister()
            const titles = ["authorization_code", "client_credentials", "refresh_token", "device_code",
                            "jwt-bearer", "token-exchange", "password"]
            for (const title of titles) {
                const check = grantCheck(title)
                verify(check, title)
                compare(check.text, title)
                const explanation = findChild(findChild(testCase.dialog.contentItem, "grant-" + title), "grantExplanation")
                verify(explanation.visible)
                verify(explanation.text.length > 20, title + ": " + explanation.text)
            }
            // Defaults: a web app with refresh tokens.
            verify(grantCheck("authorization_code").checked)
            verify(grantCheck("refresh_token").checked)
            verify(!grantCheck("client_credentials").checked)
            verify(!grantCheck("password").checked)

            const passwordNote = findChild(findChild(testCase.dialog.contentItem, "grant-password"), "grantNote")
            verify(passwordNote.visible)
            compare(passwordNote.children[0].text, "obsolete — OAuth 2.1 removes it")
            verify(!findChild(findChild(testCase.dialog.contentItem, "grant-client_credentials"), "grantNote").visible)

            mouseClick(grantCheck("client_credentials"))
            verify(grantCheck("client_credentials").checked)
            compare(ClientForm.grantTypes, ["authorization_code", "client_credentials", "refresh_token"])
            mouseClick(grantCheck("authorization_code"))
            compare(ClientForm.grantTypes, ["client_credentials", "refresh_token"])
        }

        function test_invalidInputShowsInlineErrorsAndSendsNothing() {
            const posts = TestBackend.requestCount("POST /admin/v1/clients")
            openRegister()
            // Nothing is marked before the user did anything.
            verify(!field("clientNameError").visible)
            verify(!field("redirectUrisError").visible)
            verify(!field("registerInvalidNote").visible)

            field("redirectUrisField").text = "https://ok.example.com/cb\nhttp://shop.example.com/callback"
            field("lifetimeField").text = "5"
            field("contactsField").text = "ops@example.com, not-an-address"
            field("scopeField").text = "orders:read \"quoted\""
            field("logoUriField").text = "logo.png"
            mouseClick(grantCheck("client_credentials"))
            const auth = field("authMethodCombo")
            auth.currentIndex = auth.indexOfValue("none")
            auth.activated(auth.currentIndex)
            compare(ClientForm.authMethod, "none")

            mouseClick(field("registerClientButton"))
            verify(testCase.dialog.opened, "the dialog stays open")
            compare(field("clientNameError").text, "A name is required.")
            verify(field("clientNameError").visible)
            compare(field("redirectUrisError").text,
                    "Line 2: http only for loopback (127.0.0.1, localhost, [::1]); use https.")
            verify(field("redirectUrisError").visible)
            compare(field("grantTypesError").text,
                    "client_credentials needs a confidential client: choose client_secret_basic or client_secret_post.")
            verify(field("grantTypesError").visible)
            compare(field("lifetimeError").text, "30 to 86400 seconds (24 h).")
            verify(field("lifetimeError").visible)
            compare(field("contactsError").text, "\"not-an-address\" is not an e-mail address.")
            verify(field("scopeError").visible)
            compare(field("logoUriError").text, "An absolute https:// URL, or leave it empty.")
            verify(field("registerInvalidNote").visible)
            verify(ClientForm.attempted && !ClientForm.busy, "refused before sending")
            // A POST would have left with the click above; a short settle lets a stray one arrive.
            wait(150)
            compare(TestBackend.requestCount("POST /admin/v1/clients"), posts, "nothing was sent")

            // Errors go away as the fields are fixed.
            field("clientNameField").text = "Inventory bot"
            verify(!field("clientNameError").visible)
            field("redirectUrisField").text = "https://ok.example.com/cb\nhttp://127.0.0.1:8000/callback"
            verify(!field("redirectUrisError").visible)
            auth.currentIndex = auth.indexOfValue("client_secret_basic")
            auth.activated(auth.currentIndex)
            verify(!field("grantTypesError").visible)
            // authorization_code without a redirect URI is wrong too.
            field("redirectUrisField").text = ""
            compare(field("redirectUrisError").text, "authorization_code needs at least one redirect URI.")
            verify(!ClientForm.valid)
            mouseClick(grantCheck("client_credentials"))
            mouseClick(grantCheck("refresh_token"))
            mouseClick(grantCheck("authorization_code"))
            compare(field("grantTypesError").text, "Choose at least one grant type.")
            const scroller = field("registerScroller")
            scroller.contentY = 0
            mouseClick(field("registerClientButton"))
            // The first wrong field scrolls into view.
            verify(scroller.contentY > 0, "scrolled to the grant types")
            const error = field("grantTypesError")
            const y = error.mapToItem(scroller, 0, 0).y
            verify(y >= 0 && y + error.height <= scroller.height, "the error is in view at " + y)
            verify(!ClientForm.busy, "refused before sending")
            // As above: a POST would have left with the click; a short settle for a stray one.
            wait(150)
            compare(TestBackend.requestCount("POST /admin/v1/clients"), posts, "still nothing sent")
        }

        function test_validRegistrationShowsSecretOnce() {
            const posts = TestBackend.requestCount("POST /admin/v1/clients")
            openRegister()
            field("clientNameField").text = "  Inventory bot "
            field("redirectUrisField").text = "https://inventory.example.com/cb\n\ncom.example.inventory:/cb\n"
            mouseClick(grantCheck("client_credentials"))
            field("scopeField").text = "orders:read   orders:write"
            const auth = field("authMethodCombo")
            auth.currentIndex = auth.indexOfValue("client_secret_post")
            auth.activated(auth.currentIndex)
            const format = field("tokenFormatCombo")
            format.currentIndex = format.indexOfValue("opaque")
            format.activated(format.currentIndex)
            field("lifetimeField").text = "900"
            field("logoUriField").text = "https://inventory.example.com/logo.png"
            field("contactsField").text = "a@example.com, b@example.com"
            verify(ClientForm.valid)
            mouseClick(field("registerClientButton"))

            tryCompare(testCase.secretDialog, "opened", true, Wait.ms)
            tryCompare(testCase.dialog, "visible", false, Wait.ms)
            compare(TestBackend.requestCount("POST /admin/v1/clients"), posts + 1)
            compare(TestBackend.lastBody("POST /admin/v1/clients"), {
                client_name: "Inventory bot",
                redirect_uris: ["https://inventory.example.com/cb", "com.example.inventory:/cb"],
                grant_types: ["authorization_code", "client_credentials", "refresh_token"],
                token_endpoint_auth_method: "client_secret_post",
                access_token_format: "opaque",
                access_token_lifetime: 900,
                scope: "orders:read orders:write",
                logo_uri: "https://inventory.example.com/logo.png",
                contacts: ["a@example.com", "b@example.com"]
            })

            // The secret, once, with a copy button.
            const secret = findChild(testCase.secretDialog, "clientSecretField")
            verify(secret.visible)
            verify(secret.text.length >= 40, secret.text)
            verify(findChild(testCase.secretDialog, "clientSecretOnceNote").visible)
            verify(!findChild(testCase.secretDialog, "previousClientSecretNote").visible)
            compare(testCase.secretDialog.clientName, "Inventory bot")
            const newId = findChild(testCase.secretDialog, "clientIdField").text
            verify(newId.length > 10)
            mouseClick(findChild(testCase.secretDialog, "copyClientSecretButton"))
            compare(testCase.secretDialog.copiedWhat, "secret")
            compare(findChild(testCase.secretDialog, "copyClientSecretButton").text, "Copied")

            // The new client is listed at the top.
            tryCompare(testCase.list, "count", 4, Wait.ms)
            compare(Clients.idAt(0), newId)
            mouseClick(findChild(testCase.secretDialog, "clientSecretDoneButton"))
            tryCompare(testCase.secretDialog, "visible", false, Wait.ms)
            compare(testCase.secretDialog.secret, "")
            compare(secret.text, "")

            // The dialog starts empty next time.
            openRegister()
            compare(field("clientNameField").text, "")
            compare(field("lifetimeField").text, "3600")
            verify(!field("clientNameError").visible)
        }

        function test_publicClientGetsNoSecret() {
            openRegister()
            field("clientNameField").text = "Phone app"
            field("redirectUrisField").text = "com.example.phone:/oauth"
            const auth = field("authMethodCombo")
            auth.currentIndex = auth.indexOfValue("none")
            auth.activated(auth.currentIndex)
            mouseClick(field("registerClientButton"))
            tryCompare(testCase.secretDialog, "opened", true, Wait.ms)
            verify(!findChild(testCase.secretDialog, "clientSecretField").visible)
            verify(!findChild(testCase.secretDialog, "clientSecretOnceNote").visible)
            compare(TestBackend.lastBody("POST /admin/v1/clients").token_endpoint_auth_method, "none")
            tryCompare(testCase.list, "count", 4, Wait.ms)
            // The new row's delegate is made on the next polish: wait for it.
            tryVerify(() => rowOf(Clients.idAt(0)) !== null, Wait.ms, "row of the new client")
            compare(findChild(rowOf(Clients.idAt(0)), "clientType").text, "Public")
        }

        function test_serverRefusalIsShown() {
            TestBackend.refuseNextRegistration("invalid_client_metadata",
                                               "client_name 'Inventory bot' is reserved")
            openRegister()
            field("clientNameField").text = "Inventory bot"
            field("redirectUrisField").text = "https://inventory.example.com/cb"
            mouseClick(field("registerClientButton"))
            const banner = field("registerServerError")
            tryCompare(banner, "visible", true, Wait.ms)
            compare(field("registerServerErrorText").text,
                    "The server refused: client_name 'Inventory bot' is reserved")
            verify(testCase.dialog.opened)
            verify(!testCase.secretDialog.visible)
            compare(testCase.list.count, 3)
            // Editing clears it; the second try goes through.
            field("clientNameField").text = "Inventory robot"
            verify(!banner.visible)
            mouseClick(field("registerClientButton"))
            tryCompare(testCase.secretDialog, "opened", true, Wait.ms)
        }

        function test_rotateSecretConfirmedThenShownOnce() {
            const id = TestBackend.clientId(1)
            const rotate = findChild(rowOf(id), "rotateClientSecretButton")
            mouseClick(rotate)
            const confirm = findChild(page, "rotateClientSecretDialog")
            tryCompare(confirm, "opened", true, Wait.ms)
            compare(confirm.title, "Rotate the secret of Warehouse sync?")
            mouseClick(findChild(confirm, "cancelConfirmButton"))
            tryCompare(confirm, "visible", false, Wait.ms)
            // Cancelled: a rotation would have left with the click; a short settle for a stray one.
            wait(100)
            compare(TestBackend.requestCount("POST /admin/v1/clients/" + id + "/rotate-secret"), 0)

            mouseClick(rotate)
            tryCompare(confirm, "opened", true, Wait.ms)
            mouseClick(findChild(confirm, "confirmButton"))
            tryCompare(testCase.secretDialog, "opened", true, Wait.ms)
            compare(TestBackend.requestCount("POST /admin/v1/clients/" + id + "/rotate-secret"), 1)
            compare(testCase.secretDialog.title, "New client secret for Warehouse sync")
            verify(findChild(testCase.secretDialog, "clientSecretField").text.length >= 40)
            verify(findChild(testCase.secretDialog, "previousClientSecretNote").visible)
        }

        function test_deleteConfirmed() {
            const id = TestBackend.clientId(2)
            mouseClick(findChild(rowOf(id), "deleteClientButton"))
            const confirm = findChild(page, "deleteClientDialog")
            tryCompare(confirm, "opened", true, Wait.ms)
            compare(confirm.title, "Delete Orders dashboard?")
            mouseClick(findChild(confirm, "confirmButton"))
            tryCompare(testCase.list, "count", 2, Wait.ms)
            compare(Clients.indexOfId(id), -1)
            compare(TestBackend.requestCount("DELETE /admin/v1/clients/" + id), 1)
            verify(!findChild(page, "clientsError").visible)
        }
    
        function test_previewToken() {
            const row = findChild(page, "client-" + TestBackend.clientId(1))
            verify(row)
            mouseClick(findChild(row, "previewTokenButton"))
            const dialog = findChild(page, "tokenPreviewDialog")
            tryCompare(dialog, "opened", true, Wait.ms)
            compare(findChild(dialog.contentItem, "previewGrant").currentText, "client_credentials")
            verify(!findChild(dialog.contentItem, "previewUsername").visible)
            mouseClick(findChild(dialog.contentItem, "runPreviewButton"))
            tryVerify(() => TokenPreview.loaded, Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/tokens/preview"),
                    { client_id: TestBackend.clientId(1), grant_type: "client_credentials" })
            compare(findChild(dialog.contentItem, "previewFormat").text, "jwt access token")
            const scope = findChild(dialog.contentItem, "previewClaim-scope")
            verify(scope)
            compare(findChild(scope, "claimValue").text, "orders:read orders:write")
            compare(findChild(scope, "claimSource").text, "client record")
            compare(findChild(scope, "claimDetail").text, "no scope requested: the client's scope")
            const sub = findChild(dialog.contentItem, "previewClaim-sub")
            compare(findChild(sub, "claimDetail").text, "client_id: a client_credentials client acts for itself")
            compare(TestBackend.tokenCount(), 3, "nothing issued")

            // The server's refusal, inline; editing clears the result.
            const scopeField = findChild(dialog.contentItem, "previewScope")
            scopeField.text = "admin"
            scopeField.textEdited()
            verify(!TokenPreview.loaded)
            mouseClick(findChild(dialog.contentItem, "runPreviewButton"))
            tryCompare(findChild(dialog.contentItem, "tokenPreviewError"), "text",
                       "scope 'admin' is not allowed for this client", Wait.ms)
            dialog.close()
            tryCompare(dialog, "visible", false, Wait.ms)

            // A user grant asks for the user.
            const till = findChild(page, "client-" + TestBackend.clientId(0))
            mouseClick(findChild(till, "previewTokenButton"))
            tryCompare(dialog, "opened", true, Wait.ms)
            compare(findChild(dialog.contentItem, "previewGrant").currentText, "password")
            const username = findChild(dialog.contentItem, "previewUsername")
            verify(username.visible)
            verify(!findChild(dialog.contentItem, "runPreviewButton").enabled)
            username.text = "alice"
            username.textEdited()
            verify(findChild(dialog.contentItem, "runPreviewButton").enabled)
            mouseClick(findChild(dialog.contentItem, "runPreviewButton"))
            tryVerify(() => TokenPreview.loaded, Wait.ms)
            const userSub = findChild(dialog.contentItem, "previewClaim-sub")
            compare(findChild(userSub, "claimValue").text, "user-alice")
            compare(findChild(userSub, "claimSource").text, "user attribute")
            compare(findChild(dialog.contentItem, "previewFormat").text, "opaque access token, also issued: refresh_token")
            dialog.close()
            tryCompare(dialog, "visible", false, Wait.ms)
        }
    }
}
