import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The Tokens & JWT page with the real services against the in-test admin server: the JWT
// decoder shows the server's verdict and checks, the times and a live countdown; minting a
// demo token fills the decoder; active tokens can be revoked.
Item {
    id: root

    width: 1100
    height: 900

    TokensPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "TokensPage"
        when: windowShown

        function item(name) {
            const found = findChild(page, name)
            verify(found, name)
            return found
        }
        function check(name) {
            const row = findChild(page, "check-" + name)
            verify(row, "check " + name)
            return {
                status: findChild(row, "checkStatus").text,
                detail: findChild(row, "checkDetail").text
            }
        }
        function paste(token) {
            item("jwtField").text = token
        }

        function initTestCase() {
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetOAuth()
            JwtInspector.clear()
            Tokens.clearMinted()
            item("jwtField").text = ""
            item("keyField").text = ""
            item("audienceField").text = ""
            item("issuerField").text = ""
            item("tokensTabs").currentIndex = 0
            Clients.reload()
            Tokens.reload()
            tryVerify(() => !Clients.loading && Clients.count === 3, Wait.ms, "clients loaded")
            tryVerify(() => !Tokens.loading && Tokens.count === 3, Wait.ms, "tokens loaded")
            tryCompare(JwtInspector, "inspected", false, Wait.ms)
        }

        function test_decoderShowsVerdictChecksAndCountdown() {
            const inspects = TestBackend.requestCount("POST /admin/v1/jwt/inspect")
            paste(TestBackend.makeJwt(1, "orders:read", 1800, ""))
            tryCompare(item("verdictText"), "text", "Valid: every check passed.", Wait.ms)
            // Decoded once, after typing paused.
            compare(TestBackend.requestCount("POST /admin/v1/jwt/inspect"), inspects + 1)
            verify(item("verdictBanner").visible)
            compare(item("verdictBanner").color, Theme.successSoft)
            compare(check("alg").status, "passed")
            compare(check("kid"), { status: "passed", detail: "kid test-key-1 found" })
            compare(check("signature"), { status: "passed", detail: "signature verified (RS256, this server's JWKS)" })
            compare(check("exp").status, "passed")
            compare(check("nbf"), { status: "skipped", detail: "no nbf claim" })
            compare(check("iss"), { status: "passed", detail: "iss is http://127.0.0.1:8080" })
            compare(check("aud"), { status: "skipped", detail: "audience not checked" })
            compare(item("keySource").text, "Key: this server's JWKS")

            // Header and payload as indented JSON.
            verify(item("headerText").text.indexOf("\"kid\": \"test-key-1\"") >= 0, item("headerText").text)
            verify(item("payloadText").text.indexOf("\"scope\": \"orders:read\"") >= 0)
            // Times in local time, human-readable.
            const exp = findChild(page, "time-exp")
            verify(exp, "exp row")
            verify(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/.test(findChild(exp, "localTime").text),
                   findChild(exp, "localTime").text)
            verify(/^in (29|30) min$/.test(findChild(exp, "relativeTime").text), findChild(exp, "relativeTime").text)
            verify(findChild(page, "time-iat"))
            verify(!findChild(page, "time-nbf"))

            // The countdown moves.
            const countdown = item("countdownText")
            const first = countdown.text
            verify(/^expires in (29:5\d|30:00)$/.test(first), first)
            compare(countdown.color, Theme.accent)
            tryVerify(() => countdown.text !== first, Wait.ms, "the countdown ticks")
            verify(/^expires in 29:5\d$/.test(countdown.text), countdown.text)

            // An expected audience that the token lacks: invalid, and the verdict says why.
            item("audienceField").text = "billing-api"
            tryCompare(item("verdictText"), "text", "Invalid: aud does not contain \"billing-api\".", Wait.ms)
            compare(check("aud").status, "failed")
            compare(item("verdictBanner").color, Theme.errorSoft)
            compare(TestBackend.lastBody("POST /admin/v1/jwt/inspect").audience, "billing-api")
        }

        function test_expiredToken() {
            paste(TestBackend.makeJwt(1, "", -300, ""))
            tryVerify(() => item("verdictText").text.startsWith("Invalid: expired 5 min ago"), Wait.ms,
                      item("verdictText").text)
            compare(check("exp"), { status: "failed", detail: "expired 5 min ago" })
            compare(item("countdownText").text, "expired 5 min ago")
            compare(item("countdownText").color, Theme.error)
            compare(findChild(findChild(page, "time-exp"), "relativeTime").text, "5 min ago")
        }

        function test_notAJwt() {
            paste("certainly-not-a-token")
            tryCompare(item("verdictText"), "text", "Not a JWT: a compact JWS has exactly three parts", Wait.ms)
            verify(!item("checkList").visible)
            verify(!item("headerText").visible)
            compare(item("verdictBanner").color, Theme.errorSoft)
        }

        function test_pastedKey() {
            const token = TestBackend.makeJwt(1, "", 600, "")
            paste(token)
            tryCompare(item("verdictText"), "text", "Valid: every check passed.", Wait.ms)
            // Not a key at all: said under the field, nothing is asked.
            const inspects = TestBackend.requestCount("POST /admin/v1/jwt/inspect")
            item("keyField").text = "hello"
            verify(item("keyError").visible)
            compare(item("keyError").text,
                    "Paste a JWK Set or one JWK (JSON), or a PEM public key or certificate.")
            // The typing pause runs out: the old verdict goes, and nothing is asked (an inspect
            // under way would be busy).
            tryCompare(JwtInspector, "inspected", false, Wait.ms)
            verify(!JwtInspector.busy)
            compare(TestBackend.requestCount("POST /admin/v1/jwt/inspect"), inspects)
            verify(!item("verdictBanner").visible)

            // A JWKS without the token's key: the kid check says so.
            item("keyField").text = "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"other-key\"}]}"
            verify(!item("keyError").visible)
            tryVerify(() => item("verdictText").text.startsWith("Invalid: kid test-key-1 is not in the key set"),
                      Wait.ms, item("verdictText").text)
            compare(item("keySource").text, "Key: the pasted JWKS")
            compare(TestBackend.lastBody("POST /admin/v1/jwt/inspect").jwks.keys[0].kid, "other-key")
            // With a pasted key the issuer is not checked unless one is given.
            compare(check("iss").status, "skipped")
            item("issuerField").text = "https://elsewhere.example"
            tryVerify(() => item("verdictText").text.indexOf("expected \"https://elsewhere.example\"") >= 0,
                      Wait.ms, item("verdictText").text)
            compare(check("iss"), {
                status: "failed",
                detail: "iss is \"http://127.0.0.1:8080\", expected \"https://elsewhere.example\""
            })
            compare(TestBackend.lastBody("POST /admin/v1/jwt/inspect").issuer, "https://elsewhere.example")
        }

        function test_mintPutsTokenIntoDecoder() {
            const combo = item("mintClientCombo")
            compare(combo.count, 1) // only the confidential client_credentials client
            compare(combo.currentText, "Warehouse sync")
            item("mintScopeField").text = "orders:read"
            mouseClick(item("mintButton"))
            tryVerify(() => item("mintedTokenField").text.length > 0, Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/tokens"),
                    { client_id: TestBackend.clientId(1), scope: "orders:read" })
            compare(item("mintedSummary").text, "Bearer · expires in 1 h · scope orders:read — decoded below.")
            compare(JwtInspector.token, item("mintedTokenField").text)
            compare(item("jwtField").text, item("mintedTokenField").text)
            tryCompare(item("verdictText"), "text", "Valid: every check passed.", Wait.ms)
            verify(/^expires in (59:\d\d|1:00:00)$/.test(item("countdownText").text), item("countdownText").text)
            // The token shows among the active ones (oauth.token.issued).
            tryCompare(Tokens, "count", 4, Wait.ms)
            compare(item("activeTokensTab").text, "Active tokens (4)")
        }

        // A registrant names its client: the name is shown as plain text, never as markup. (Qt
        // 6.4's default combo row crashes the console on an <img> in it; a label would fetch
        // the image from wherever it points.)
        function test_clientNameIsNeverMarkup() {
            const name = "<img src='http://127.0.0.1:9/pixel.png'><b>Evil</b> exporter"
            TestBackend.registerClient(name)
            Clients.reload()
            tryVerify(() => !Clients.loading && Clients.count === 4, Wait.ms, "clients loaded")
            const combo = item("mintClientCombo")
            combo.popup.open()
            tryVerify(() => combo.popup.opened, Wait.ms)
            let row = null
            tryVerify(() => {
                const list = combo.popup.contentItem
                for (let i = 0; list && i < list.count; ++i) {
                    const r = list.itemAtIndex(i)
                    if (r && r.contentItem && r.contentItem.text === name)
                        row = r
                }
                return row !== null
            }, Wait.ms, "the row shows the name as it is")
            compare(row.contentItem.textFormat, Text.PlainText)
            verify(row.contentItem.contentWidth > 0)
            combo.popup.close()
        }

        function test_mintRefusalShown() {
            item("mintScopeField").text = "admin"
            mouseClick(item("mintButton"))
            tryCompare(item("mintError"), "visible", true, Wait.ms)
            compare(item("mintError").text, "scope 'admin' is not allowed for this client")
            verify(!item("mintedTokenField").visible)
            compare(JwtInspector.token, "")
        }

        function test_revokeActiveToken() {
            mouseClick(item("activeTokensTab"))
            const list = item("tokenList")
            tryCompare(list, "count", 3, Wait.ms)
            const top = list.itemAtIndex(0)
            verify(top)
            const id = top.tokenId
            mouseClick(findChild(top, "revokeTokenButton"))
            const confirm = item("revokeTokenDialog")
            tryCompare(confirm, "opened", true, Wait.ms)
            mouseClick(findChild(confirm, "confirmButton"))
            tryCompare(list, "count", 2, Wait.ms)
            compare(Tokens.indexOfId(id), -1)
            compare(TestBackend.requestCount("DELETE /admin/v1/tokens/" + id), 1)
            compare(TestBackend.tokenCount(), 2)
        }
    
        function test_serverPartAndRevoke() {
            item("mintScopeField").text = "orders:read"
            mouseClick(item("mintButton"))
            tryCompare(item("verdictText"), "text", "Valid: every check passed.", Wait.ms)
            tryVerify(() => JwtInspector.hasServer, Wait.ms)
            compare(item("issuedHere").text, "yes")
            compare(item("keyState").text, "test-key-1: the active signing key")
            verify(item("storedState").text.indexOf("Stored and active (expires ") === 0, item("storedState").text)
            compare(item("clientExists").text, "Client Warehouse sync (" + TestBackend.clientId(1) + ") exists")
            verify(!item("userExists").visible)
            tryCompare(Tokens, "count", 4, Wait.ms)
            const revoke = item("revokeInspectedButton")
            verify(revoke.visible && revoke.enabled)
            const deletes = TestBackend.requestCount("DELETE /admin/v1/tokens/")
            mouseClick(revoke)
            tryVerify(() => item("storedState").text.indexOf("Revoked ") === 0, Wait.ms, "revoked")
            verify(!revoke.visible, "a revoked token cannot be revoked again")
            compare(TestBackend.requestCount("DELETE /admin/v1/tokens/"), deletes + 1)
            tryCompare(Tokens, "count", 3, Wait.ms)
        }

        function test_notStoredTokenAndMillisecondWarning() {
            const ms = Date.now() + 3600 * 1000
            paste(TestBackend.makeJwtWith(1, "orders:read", 3600, { exp: ms }))
            tryVerify(() => JwtInspector.hasServer, Wait.ms)
            compare(item("jwtWarning-0").text, "Warning: exp is " + ms
                    + ": that looks like milliseconds, not seconds (as seconds it is after the year 5000)")
            compare(item("storedState").text, "Not stored: no stored token has this value: not issued here, or removed after it expired")
            verify(!item("revokeInspectedButton").visible)

            // Another issuer and an unknown key: not issued here.
            paste(TestBackend.makeJwtWith(1, "orders:read", 3600, { iss: "https://elsewhere.example", sub: "bob" }))
            tryCompare(item("issuedHere"), "text", "no: not signed with this server's keys", Wait.ms)
            verify(!item("clientExists").visible)
            verify(!item("compareTokenButton").visible)
        }

        function test_compareWithWhatTheClientWouldGetNow() {
            paste(TestBackend.makeJwt(1, "orders:read", 1800, ""))
            tryVerify(() => JwtInspector.hasServer, Wait.ms)
            verify(item("compareTokenButton").visible)
            item("compareTokenButton").clicked() // below the fold of the page
            tryCompare(item("compareSummary"), "visible", true, Wait.ms)
            compare(TestBackend.lastBody("POST /admin/v1/tokens/preview"),
                    { client_id: TestBackend.clientId(1), grant_type: "client_credentials", scope: "orders:read" })
            compare(item("compareSummary").text, "The client would get the same claims now (apart from iat, exp and jti).")

            // A token without a scope: today the client gets its whole scope.
            paste(TestBackend.makeJwt(1, "", 1800, ""))
            tryVerify(() => JwtInspector.hasServer && JwtInspector.payload.scope === undefined, Wait.ms)
            verify(item("compareTokenButton").visible)
            item("compareTokenButton").clicked() // below the fold of the page
            tryCompare(item("compareSummary"), "text", "1 claim(s) would differ now:", Wait.ms)
            compare(item("difference-scope").text, "scope: this token (none), now orders:read orders:write")
        }
    }
}
