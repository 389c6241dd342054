// Attacks on the authorization code flow (docs/oauth.md, "Second slice"): PKCE downgrades,
// code replay and theft, redirect_uri tricks, refresh token reuse and theft, CSRF on the login
// and consent forms. The front channel is driven over plain HTTP (lib/browser.mjs), as
// authcode.test.mjs does. Each case asserts the refusal and that no token was issued (the
// admin API's active tokens of the client, introspection of access tokens for the orders API,
// userinfo) or nothing was remembered.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';

import { startBackend, adminFetch, request } from '../lib/backend.mjs';
import {
    attack, assertNoTokens, assertTokensUnchanged, activeTokenIds, registerClient, basicAuth, formPost,
    assertOAuthError,
} from './lib/attack.mjs';
import { UserAgent, form, element, assertErrorPage, urlsIn } from '../lib/browser.mjs';

const SCOPE = 'openid profile email orders:read offline_access';
// A request's scope that brings a refresh token: only offline_access does (OpenID Connect Core §11).
const OFFLINE = 'openid email offline_access';
// The same with an orders scope: the access token is then for the orders API, which the
// introspector serves (it learns nothing of tokens for another audience).
const OFFLINE_ORDERS = `${OFFLINE} orders:read`;
const APP = 'https://app.example.org/cb';

describe('oauth: authorization code, refresh tokens, login and consent', () => {
    let b;
    let issuer;
    let user;
    let introspector; // a confidential resource server for the orders API: introspects other
                      // clients' access tokens for it (never their refresh tokens)
    let counter = 0;

    before(async () => {
        // Dozens of sign-ins from 127.0.0.1 within a minute: lift the per-address rate limit.
        b = await startBackend({ env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
        issuer = b.serviceUrl;
        const password = `pw-${randomBytes(12).toString('base64url')}`;
        const u = await adminFetch(b, 'POST', '/admin/v1/users',
                                   { username: 'victim', password, email: 'victim@example.org', email_verified: true });
        assert.equal(u.status, 201, u.text);
        user = { ...u.json, password };
        // A resource server (marked by the administrator) with an orders scope may introspect other
        // clients' access tokens for the orders API (a user token with an orders: scope).
        introspector = await registerClient(b, { client_name: 'introspector', grant_types: ['client_credentials'],
                                                 scope: 'orders:read', token_endpoint_auth_method: 'client_secret_basic',
                                                 resource_server: true });
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    // --- helpers --------------------------------------------------------------------------------

    // A new public client (PKCE, no secret) with one redirect URI.
    function publicClient(redirectUri = `http://127.0.0.1:9/cb${++counter}`) {
        return registerClient(b, { client_name: `spa ${++counter}`, token_endpoint_auth_method: 'none',
                                   grant_types: ['authorization_code', 'refresh_token'], scope: SCOPE,
                                   redirect_uris: [redirectUri] });
    }

    function confidentialClient() {
        return registerClient(b, { client_name: `web ${++counter}`, token_endpoint_auth_method: 'client_secret_basic',
                                   grant_types: ['authorization_code', 'refresh_token'], scope: SCOPE,
                                   redirect_uris: [`https://web${counter}.example.org/callback`] });
    }

    const s256 = (verifier) => createHash('sha256').update(verifier).digest('base64url');

    function newRequest(c, extra = {}) {
        const verifier = randomBytes(32).toString('base64url');
        const params = { response_type: 'code', client_id: c.client_id, redirect_uri: c.redirect_uris[0],
                         scope: 'openid email', state: randomBytes(12).toString('base64url'),
                         code_challenge: s256(verifier), code_challenge_method: 'S256', ...extra };
        return { params, verifier };
    }

    function authorizeUrl(params) {
        const u = new URL('/oauth2/authorize', issuer);
        for (const [k, v] of Object.entries(params))
            if (v !== undefined)
                u.searchParams.append(k, v);
        return u;
    }

    const isPage = (loc, path) => loc !== null && loc.origin === issuer && loc.pathname === path;

    function submitLogin(ua, page, who = user) {
        const f = form(page.text, 'login-form');
        return ua.fetch(new URL(f.action, issuer), { method: 'POST',
                                                     form: { ...f.fields, username: who.username, password: who.password } });
    }

    function submitConsent(ua, page, decision = 'allow') {
        const f = form(page.text, 'consent-form');
        return ua.fetch(new URL(f.action, issuer), { method: 'POST', form: { ...f.fields, decision } });
    }

    // The victim's browser: signed in once (argon2id is slow, more so under a sanitizer), then
    // only asked for consent to each new client.
    let victimBrowser;

    // Authorize, log in and consent when asked; resolves to {params, verifier, ua, code}.
    // Without `ua`: the victim's browser for `user`, a new browser for anybody else.
    async function runFlow(c, { ua, extra = {}, who = user } = {}) {
        if (ua === undefined && who === user)
            ua = victimBrowser ??= new UserAgent();
        ua ??= new UserAgent();
        const req = newRequest(c, extra);
        let r = await ua.fetch(authorizeUrl(req.params));
        assert.equal(r.status, 303, `authorize: ${r.text.slice(0, 400)}`);
        if (isPage(r.location, '/oauth2/login')) {
            r = await submitLogin(ua, await ua.fetch(r.location), who);
            assert.equal(r.status, 303, `login: ${r.text.slice(0, 400)}`);
        }
        if (isPage(r.location, '/oauth2/consent'))
            r = await submitConsent(ua, await ua.fetch(r.location));
        assert.equal(r.status, 303, `back to the client: ${r.text.slice(0, 400)}`);
        assert.equal(`${r.location.origin}${r.location.pathname}`, c.redirect_uris[0]);
        const code = r.location.searchParams.get('code');
        assert.ok(code, `a code: ${r.rawLocation}`);
        return { ...req, ua, code };
    }

    // A token request by client `c`: Basic for a confidential client, client_id otherwise.
    function token(c, fields, { secret = c.client_secret } = {}) {
        if (c.client_secret)
            return formPost(b, '/oauth2/token', fields, basicAuth(c.client_id, secret));
        return formPost(b, '/oauth2/token', { ...fields, client_id: c.client_id });
    }

    const redeem = (c, flow, extra = {}) => token(c, { grant_type: 'authorization_code', code: flow.code,
                                                       redirect_uri: c.redirect_uris[0], code_verifier: flow.verifier,
                                                       ...extra });

    // Whether an access token for the orders API is live, as the introspector sees it. Only for
    // such tokens: it answers false for anything else, live or not.
    async function active(tokenValue) {
        const r = await formPost(b, '/oauth2/introspect', { token: tokenValue },
                                 basicAuth(introspector.client_id, introspector.client_secret));
        assert.equal(r.status, 200, r.text);
        return r.json.active;
    }

    // The kinds (access, refresh) of a client's active tokens, sorted (the admin API lists active
    // tokens only): the oracle for refresh tokens.
    async function activeKinds(clientId) {
        const r = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(clientId)}`);
        assert.equal(r.status, 200, r.text);
        return r.json.items.map((t) => t.kind).sort();
    }

    // The status of userinfo with an access token (openid): 200 while it lives, 401 once revoked.
    async function userinfoStatus(accessToken) {
        return (await request(new URL('/oauth2/userinfo', issuer), 'GET', undefined,
                              { Authorization: `Bearer ${accessToken}` })).status;
    }

    async function consentsOf(userId) {
        const r = await adminFetch(b, 'GET', `/admin/v1/consents?user=${userId}`);
        assert.equal(r.status, 200, r.text);
        return r.json.items;
    }

    // An error redirect back to the client (RFC 6749 §4.1.2.1): no code, no login page.
    function assertErrorRedirect(r, c, error, pattern, what) {
        assert.equal(r.status, 303, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
        assert.equal(`${r.location.origin}${r.location.pathname}`, c.redirect_uris[0], `${what}: ${r.rawLocation}`);
        const q = r.location.searchParams;
        assert.equal(q.get('error'), error, `${what}: ${r.rawLocation}`);
        assert.match(q.get('error_description') ?? '', pattern, what);
        assert.equal(q.get('code'), null, `${what}: no code`);
        assert.equal(r.setCookies.find((x) => x.name === 'gh_interaction'), undefined, `${what}: no interaction started`);
    }

    // --- PKCE -----------------------------------------------------------------------------------

    attack('oauth: PKCE downgrade — code issued with an S256 challenge, redeemed without code_verifier', async () => {
        const c = await publicClient();
        const flow = await runFlow(c);
        const r = await token(c, { grant_type: 'authorization_code', code: flow.code, redirect_uri: c.redirect_uris[0] });
        assertOAuthError(r, 400, 'invalid_grant', /^code_verifier is required \(PKCE\)$/, 'no verifier');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: PKCE — code redeemed with a wrong code_verifier', async () => {
        const c = await publicClient();
        const flow = await runFlow(c);
        const r = await redeem(c, flow, { code_verifier: randomBytes(32).toString('base64url') });
        assertOAuthError(r, 400, 'invalid_grant', /code_verifier does not match/, 'wrong verifier');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: PKCE downgrade — the S256 challenge itself sent as a plain verifier', async () => {
        const c = await publicClient();
        const flow = await runFlow(c);
        const r = await redeem(c, flow, { code_verifier: flow.params.code_challenge });
        assertOAuthError(r, 400, 'invalid_grant', /code_verifier does not match/, 'challenge as verifier');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: PKCE downgrade — code_challenge_method=plain refused at the authorization endpoint', async () => {
        const c = await publicClient();
        const verifier = randomBytes(32).toString('base64url');
        const { params } = newRequest(c, { code_challenge: verifier, code_challenge_method: 'plain' });
        const r = await new UserAgent().fetch(authorizeUrl(params));
        assertErrorRedirect(r, c, 'invalid_request', /^code_challenge_method must be S256 \(plain is not allowed\)$/, 'plain');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: PKCE downgrade — a challenge without a method (the plain default) refused', async () => {
        const c = await publicClient();
        const { params } = newRequest(c, { code_challenge_method: undefined });
        const r = await new UserAgent().fetch(authorizeUrl(params));
        assertErrorRedirect(r, c, 'invalid_request', /code_challenge_method is required/, 'no method');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: PKCE downgrade — a public client without PKCE refused', async () => {
        const c = await publicClient();
        const { params } = newRequest(c, { code_challenge: undefined, code_challenge_method: undefined });
        const r = await new UserAgent().fetch(authorizeUrl(params));
        assertErrorRedirect(r, c, 'invalid_request', /^a public client must use PKCE \(code_challenge with S256\)$/, 'no PKCE');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: PKCE injection — a code_verifier for a code issued without a challenge', async () => {
        const c = await confidentialClient();
        const flow = await runFlow(c, { extra: { code_challenge: undefined, code_challenge_method: undefined } });
        const r = await redeem(c, flow);
        assertOAuthError(r, 400, 'invalid_grant', /code_verifier sent, but the authorization request had no/, 'verifier injected');
        await assertNoTokens(b, c.client_id);
    });

    // --- the code -------------------------------------------------------------------------------

    attack('oauth: code replay — the second redemption is refused and the first one\'s tokens are revoked', async () => {
        const c = await publicClient();
        const flow = await runFlow(c, { extra: { scope: OFFLINE_ORDERS } });
        const first = await redeem(c, flow);
        assert.equal(first.status, 200, first.text);
        assert.ok(first.json.refresh_token, 'a refresh token');
        assert.equal(await active(first.json.access_token), true);
        assert.deepEqual(await activeKinds(c.client_id), ['access', 'refresh'], 'an access and a refresh token');

        const replay = await redeem(c, flow);
        assertOAuthError(replay, 400, 'invalid_grant', /the code was already used; the tokens issued from/, 'replay');
        assert.equal(await active(first.json.access_token), false, 'the first access token is revoked');
        // The refresh token too: no active token is left (and it refreshes no more, below).
        await assertNoTokens(b, c.client_id, 'after the replay');
        assertOAuthError(await token(c, { grant_type: 'refresh_token', refresh_token: first.json.refresh_token }),
                         400, 'invalid_grant', /^the refresh token was revoked$/, 'refresh after the replay');
        await assertNoTokens(b, c.client_id, 'after the refresh attempt');
    });

    attack('oauth: code theft — a code redeemed by another client', async () => {
        const victim = await publicClient();
        const thief = await publicClient();
        const flow = await runFlow(victim);
        const r = await token(thief, { grant_type: 'authorization_code', code: flow.code,
                                       redirect_uri: victim.redirect_uris[0], code_verifier: flow.verifier });
        assertOAuthError(r, 400, 'invalid_grant', /the code is unknown or was issued to another/, 'another client');
        await assertNoTokens(b, thief.client_id, 'the thief');
        await assertNoTokens(b, victim.client_id, 'the victim');
    });

    attack('oauth: code theft — a confidential client\'s code redeemed with a wrong client secret', async () => {
        const c = await confidentialClient();
        const flow = await runFlow(c, { extra: { code_challenge: undefined, code_challenge_method: undefined } });
        const r = await token(c, { grant_type: 'authorization_code', code: flow.code, redirect_uri: c.redirect_uris[0] },
                              { secret: `${c.client_secret}x` });
        assert.equal(r.status, 401, r.text);
        assert.equal(r.json.error, 'invalid_client');
        assert.equal(r.json.access_token, undefined);
        assert.match(r.headers['www-authenticate'] ?? '', /^Basic realm="gatehouse"/);
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: code redeemed with another redirect_uri than the authorization request\'s', async () => {
        const c = await publicClient();
        const flow = await runFlow(c);
        const r = await redeem(c, flow, { redirect_uri: 'https://evil.example/cb' });
        assertOAuthError(r, 400, 'invalid_grant', /^redirect_uri must be the one of the authorization request$/, 'redirect_uri');
        await assertNoTokens(b, c.client_id);
    });

    // --- redirect_uri tricks: an HTML error page, never a redirect --------------------------------

    const redirectTricks = [
        ['an unregistered URI', 'https://evil.example/cb'],
        ['a prefix of the registered URI', 'https://app.example.org/c'],
        ['a path suffix', 'https://app.example.org/cb/../../evil'],
        ['a longer last segment', 'https://app.example.org/cbevil'],
        ['a host suffix', 'https://app.example.org.evil.example/cb'],
        ['another port', 'https://app.example.org:8443/cb'],
        ['a userinfo @ trick', 'https://app.example.org@evil.example/cb'],
        ['userinfo before the registered host', 'https://evil.example@app.example.org/cb'],
        ['a fragment', 'https://app.example.org/cb#@evil.example'],
        ['an upper-case host', 'https://APP.example.org/cb'],
        ['an upper-case path', 'https://app.example.org/CB'],
        ['an added query', 'https://app.example.org/cb?next=https://evil.example'],
        ['http instead of https', 'http://app.example.org/cb'],
        ['a percent-encoded path', 'https://app.example.org/%63b'],
    ];
    for (const [what, uri] of redirectTricks) {
        attack(`oauth: redirect_uri trick — ${what} gets the error page, no redirect`, async () => {
            const c = await publicClient(APP);
            assert.notEqual(uri, APP);
            const { params } = newRequest(c, { redirect_uri: uri });
            const r = await new UserAgent().fetch(authorizeUrl(params));
            assertErrorPage(r, what);
            assert.equal(r.setCookies.find((x) => x.name === 'gh_interaction'), undefined, 'no interaction started');
            assert.deepEqual(urlsIn(r.text).filter((u) => u.includes(new URL(uri).host) || u === uri), [],
                             'the page links nowhere near the attacker\'s URI');
            // A second error in the same request (response_type=token) does not make it a redirect.
            const both = await new UserAgent().fetch(authorizeUrl({ ...params, response_type: 'token' }));
            assertErrorPage(both, `${what} + response_type=token`);
            await assertNoTokens(b, c.client_id);
        });
    }

    attack('oauth: open redirect — an unknown client_id with an attacker\'s redirect_uri gets the error page', async () => {
        const { params } = newRequest({ client_id: 'no-such-client', redirect_uris: ['https://evil.example/cb'] });
        const r = await new UserAgent().fetch(authorizeUrl(params));
        assertErrorPage(r, 'unknown client');
        const post = await new UserAgent().fetch(new URL('/oauth2/authorize', issuer), { method: 'POST', form: params });
        assertErrorPage(post, 'unknown client by POST');
    });

    // The name of a repeated parameter was shown in full on this origin's error page: a link's
    // author wrote what the page said ("Your account is suspended. Restore it at ...").
    attack('oauth: content spoofing — a repeated parameter whose name is a message is shown on the sign-in error page', async () => {
        const words = 'Your account is suspended. Restore it at https://evil.example/restore - ignore';
        const name = encodeURIComponent(words);
        for (const [what, path] of [['authorize', '/oauth2/authorize'], ['logout', '/oauth2/logout']]) {
            const r = await new UserAgent().fetch(new URL(`${path}?${name}=1&${name}=2`, issuer));
            assert.equal(r.status, 400, `${what}: ${r.text.slice(0, 300)}`);
            assert.ok(!r.text.includes('evil.example') && !r.text.includes('suspended'), `${what}: ${r.text}`);
            assert.match(r.text, /a parameter is repeated/, what);
        }
        // A parameter's own name is still named.
        const plain = await new UserAgent().fetch(new URL('/oauth2/authorize?scope=a&scope=b', issuer));
        assert.equal(plain.status, 400);
        assert.match(plain.text, /parameter &#39;scope&#39; is repeated|parameter 'scope' is repeated/);
    });

    // A scope or prompt value was quoted whole in the error: words joined by a no-break space
    // (no space to split on) made a sentence in error_description, and on the error page of a
    // client nobody vetted.
    attack('oauth: content spoofing — a scope or prompt value that is a sentence is quoted in the error sent back', async () => {
        const c = await publicClient();
        const words = ['Your', 'account', 'is', 'suspended.', 'Call', '+1-555-0100', 'to', 'restore', 'it.'].join('\u00a0');
        for (const [param, value, expected] of [
            ['scope', `openid ${words}`, /^scope \(not a scope token\) is not allowed for this client$/],
            ['prompt', words, /^prompt must be none, login or consent, not this value$/]]) {
            const { params } = newRequest(c, { [param]: value });
            const r = await new UserAgent().fetch(authorizeUrl(params));
            assert.ok(r.location, `${param}: ${r.status} ${r.text.slice(0, 200)}`);
            const description = r.location.searchParams.get('error_description');
            assert.match(description, expected, param);
            assert.ok(!description.includes('suspended'), description);
        }
        // A plain token is still named.
        const { params } = newRequest(c, { scope: 'openid orders:admin', prompt: 'select_account' });
        const scope = await new UserAgent().fetch(authorizeUrl(params));
        assert.equal(scope.location.searchParams.get('error_description'), "scope 'orders:admin' is not allowed for this client");
        const prompt = await new UserAgent().fetch(authorizeUrl(newRequest(c, { prompt: 'select_account' }).params));
        assert.equal(prompt.location.searchParams.get('error_description'),
                     "prompt must be none, login or consent, not 'select_account'");
        await assertNoTokens(b, c.client_id);
    });

    // --- refresh tokens -------------------------------------------------------------------------

    attack('oauth: refresh token reuse — a rotated refresh token presented again revokes the family', async () => {
        const c = await publicClient();
        const t0 = (await redeem(c, await runFlow(c, { extra: { scope: OFFLINE_ORDERS } }))).json;
        assert.ok(t0.refresh_token, 'a refresh token');
        const r1 = await token(c, { grant_type: 'refresh_token', refresh_token: t0.refresh_token });
        assert.equal(r1.status, 200, r1.text);
        const t1 = r1.json;
        assert.notEqual(t1.refresh_token, t0.refresh_token, 'rotated');
        assert.equal(await active(t0.access_token), true);
        assert.equal(await active(t1.access_token), true);
        assert.deepEqual(await activeKinds(c.client_id), ['access', 'access', 'refresh'], 'the newest refresh token is live');

        const reuse = await token(c, { grant_type: 'refresh_token', refresh_token: t0.refresh_token });
        assertOAuthError(reuse, 400, 'invalid_grant', /^the refresh token was already used; its family is revoked$/, 'reuse');
        for (const [what, v] of [['first access token', t0.access_token], ['newest access token', t1.access_token]])
            assert.equal(await active(v), false, `${what} revoked with the family`);
        // The newest refresh token with them: no active token is left.
        await assertNoTokens(b, c.client_id, 'after the reuse');
        assertOAuthError(await token(c, { grant_type: 'refresh_token', refresh_token: t1.refresh_token }),
                         400, 'invalid_grant', /^the refresh token was revoked$/, 'the newest refresh token after the reuse');
        await assertNoTokens(b, c.client_id, 'after the newest refresh token was tried');
    });

    attack('oauth: a client without offline_access gets no refresh token from a code', async () => {
        // The refresh_token grant, but not the offline_access scope: a code is all it can get,
        // and the grant ends with the access token (OpenID Connect Core §11).
        const c = await registerClient(b, { client_name: `online ${++counter}`, token_endpoint_auth_method: 'none',
                                            grant_types: ['authorization_code', 'refresh_token'],
                                            scope: 'openid profile email orders:read',
                                            redirect_uris: [`http://127.0.0.1:9/online${counter}`] });
        const asked = newRequest(c, { scope: OFFLINE });
        assertErrorRedirect(await new UserAgent().fetch(authorizeUrl(asked.params)), c, 'invalid_scope',
                            /^scope 'offline_access' is not allowed for this client$/, 'offline_access asked for');
        await assertNoTokens(b, c.client_id, 'after asking for offline_access');

        const r = await redeem(c, await runFlow(c));
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.scope, 'openid email');
        assert.ok(r.json.access_token && r.json.id_token, 'an access token and an id_token');
        assert.ok(!('refresh_token' in r.json), 'no refresh token'); // (a failure would not print one)
        const listed = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(c.client_id)}`);
        assert.equal(listed.status, 200, listed.text);
        assert.deepEqual(listed.json.items.map((t) => t.kind), ['access'], 'the access token is all that was stored');
        // Nothing to refresh with: the access token is no refresh token.
        assertOAuthError(await token(c, { grant_type: 'refresh_token', refresh_token: r.json.access_token }),
                         400, 'invalid_grant', /^the refresh token is unknown or was issued to another client$/,
                         'the access token as a refresh token');
        // Revoked (RFC 7009), the access token leaves nothing behind. (Its audience is the client,
        // not the orders API: userinfo, not the introspector, tells whether it lives.)
        assert.equal(await userinfoStatus(r.json.access_token), 200, 'the access token lives');
        const revoked = await formPost(b, '/oauth2/revoke', { token: r.json.access_token, client_id: c.client_id });
        assert.equal(revoked.status, 200, revoked.text);
        assert.equal(await userinfoStatus(r.json.access_token), 401, 'the access token is revoked');
        await assertNoTokens(b, c.client_id, 'after the access token was revoked');
    });

    attack('oauth: refresh token theft — another client presents a user\'s refresh token', async () => {
        const victim = await publicClient();
        const thief = await publicClient();
        const t = (await redeem(victim, await runFlow(victim, { extra: { scope: OFFLINE } }))).json;
        assert.ok(t.refresh_token, 'the victim\'s refresh token');
        const r = await token(thief, { grant_type: 'refresh_token', refresh_token: t.refresh_token });
        assertOAuthError(r, 400, 'invalid_grant', /^the refresh token is unknown or was issued to another client$/, 'theft');
        await assertNoTokens(b, thief.client_id, 'the thief');
    });

    attack('oauth: lockout abuse — someone else\'s wrong passwords lock the sign-in, not the user\'s refresh tokens or a code already issued', async () => {
        const password = `pw-${randomBytes(12).toString('base64url')}`;
        const created = await adminFetch(b, 'POST', '/admin/v1/users', { username: 'lockee', password });
        assert.equal(created.status, 201, created.text);
        const lockee = { ...created.json, password };
        const c = await publicClient();
        const ua = new UserAgent();
        const t0 = (await redeem(c, await runFlow(c, { ua, who: lockee, extra: { scope: OFFLINE } }))).json;
        assert.ok(t0.refresh_token, 'a refresh token');
        const pending = await runFlow(c, { ua, who: lockee }); // a code not redeemed yet (the session signs in)

        // Anybody who knows the name types wrong passwords until the sign-in locks. No answer
        // says so (only a name that exists can lock, so a different answer would tell that it
        // exists): each is a wrong password's 401; the administrator sees the lock.
        const lockedNow = async () => (await adminFetch(b, 'GET', '/admin/v1/users/lockee')).json.locked;
        for (let i = 0; i < 20 && !(await lockedNow()); ++i) {
            const { ua: other, page } = await atLogin(c);
            const r = await submitLogin(other, page, { username: 'lockee', password: 'wrong' });
            assert.equal(r.status, 401, `wrong password ${i + 1}: ${r.status}`);
        }
        assert.equal(await lockedNow(), true, 'the sign-in is locked');
        const { ua: other, page } = await atLogin(c);
        const right = await submitLogin(other, page, lockee);
        assert.equal(right.status, 401, 'even with the right password: not signed in');
        assert.match(right.text, /Wrong username or password\./, 'and told what a wrong password is told');

        const r1 = await token(c, { grant_type: 'refresh_token', refresh_token: t0.refresh_token });
        assert.equal(r1.status, 200, `the refresh token still works: ${r1.text}`);
        const r2 = await redeem(c, pending);
        assert.equal(r2.status, 200, `the code still redeems: ${r2.text}`);

        // An administrator's lock still ends everything.
        assert.equal((await adminFetch(b, 'POST', '/admin/v1/users/lockee/lock')).status, 200);
        assertOAuthError(await token(c, { grant_type: 'refresh_token', refresh_token: r1.json.refresh_token }),
                         400, 'invalid_grant', /./, 'refresh after the administrator\'s lock');
        await assertNoTokens(b, c.client_id, 'after the administrator\'s lock');
    });

    attack('oauth: a scope the administrator took from a client is gone from its refresh tokens too', async () => {
        const c = await confidentialClient();
        const flow = await runFlow(c, { extra: { scope: 'openid email orders:read offline_access' } });
        const t0 = (await redeem(c, flow)).json;
        assert.equal(t0.scope, 'openid email orders:read offline_access');
        assert.ok(t0.refresh_token, 'a refresh token');
        const shown = await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`);
        assert.equal(shown.status, 200, shown.text);
        const narrowed = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, {
            client_name: shown.json.client_name, grant_types: shown.json.grant_types, redirect_uris: shown.json.redirect_uris,
            token_endpoint_auth_method: shown.json.token_endpoint_auth_method, scope: 'openid profile email offline_access' });
        assert.equal(narrowed.status, 200, narrowed.text);

        assertOAuthError(await token(c, { grant_type: 'refresh_token', refresh_token: t0.refresh_token, scope: 'orders:read' }),
                         400, 'invalid_scope', /^scope 'orders:read' is not allowed for this client$/, 'asked for by name');
        const r = await token(c, { grant_type: 'refresh_token', refresh_token: t0.refresh_token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.scope, 'openid email offline_access', 'narrowed to what the client still has');
        // Without an orders scope the token is for the client itself (not the orders API): the
        // client introspects it, and the introspector learns nothing of it.
        const shownToken = await formPost(b, '/oauth2/introspect', { token: r.json.access_token },
                                          basicAuth(c.client_id, c.client_secret));
        assert.equal(shownToken.status, 200, shownToken.text);
        assert.equal(shownToken.json.active, true, shownToken.text);
        assert.equal(shownToken.json.aud, c.client_id);
        assert.equal(shownToken.json.scope, 'openid email offline_access');
        assert.equal(await active(r.json.access_token), false, 'not for the orders API');
        // The rotated refresh token carries the narrowed scope: giving the scope back to the
        // client later does not give it back to this grant.
        const restored = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, {
            client_name: shown.json.client_name, grant_types: shown.json.grant_types, redirect_uris: shown.json.redirect_uris,
            token_endpoint_auth_method: shown.json.token_endpoint_auth_method, scope: shown.json.scope });
        assert.equal(restored.status, 200, restored.text);
        const r2 = await token(c, { grant_type: 'refresh_token', refresh_token: r.json.refresh_token });
        assert.equal(r2.status, 200, r2.text);
        assert.equal(r2.json.scope, 'openid email offline_access');
    });

    attack('oauth: a scope taken from a client and given back later does not come back to what it had issued (access token, unrotated refresh token, consent)', async () => {
        const c = await confidentialClient();
        const flow = await runFlow(c, { extra: { scope: OFFLINE_ORDERS } });
        const t0 = (await redeem(c, flow)).json;
        assert.equal(t0.scope, 'openid email offline_access orders:read');
        assert.equal(await active(t0.access_token), true, 'for the orders API');
        const shown = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
        const withScope = (scope) => adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, {
            client_name: shown.client_name, grant_types: shown.grant_types, redirect_uris: shown.redirect_uris,
            token_endpoint_auth_method: shown.token_endpoint_auth_method, scope });
        const narrowed = await withScope('openid profile offline_access');
        assert.equal(narrowed.status, 200, narrowed.text);
        const restored = await withScope(shown.scope);
        assert.equal(restored.status, 200, restored.text);

        // The access token issued before: orders:read and email stay gone from it.
        const seen = await formPost(b, '/oauth2/introspect', { token: t0.access_token },
                                    basicAuth(c.client_id, c.client_secret));
        assert.equal(seen.status, 200, seen.text);
        assert.equal(seen.json.active, true, seen.text);
        assert.equal(seen.json.scope, 'openid offline_access', seen.text);
        const asResourceServer = await formPost(b, '/oauth2/introspect', { token: t0.access_token },
                                                basicAuth(introspector.client_id, introspector.client_secret));
        assert.equal(asResourceServer.status, 200, asResourceServer.text);
        assert.ok(!/orders:read/.test(asResourceServer.json.scope ?? ''), asResourceServer.text);
        const info = await request(new URL('/oauth2/userinfo', issuer), 'GET', undefined,
                                   { Authorization: `Bearer ${t0.access_token}` });
        assert.equal(info.status, 200, info.text);
        assert.equal(info.json.email, undefined, info.text);
        // The refresh token, never rotated in between: nor from it, asked for or not.
        assertOAuthError(await token(c, { grant_type: 'refresh_token', refresh_token: t0.refresh_token, scope: 'orders:read' }),
                         400, 'invalid_scope', /orders:read/, 'asked for by name');
        const r = await token(c, { grant_type: 'refresh_token', refresh_token: t0.refresh_token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.scope, 'openid offline_access');
        assert.equal(await active(r.json.access_token), false, 'not for the orders API');
        // The consent: a silent authorization for the scope taken asks the user again.
        const { params } = newRequest(c, { prompt: 'none', scope: 'openid orders:read' });
        assertErrorRedirect(await flow.ua.fetch(authorizeUrl(params)), c, 'consent_required',
                            /^the user has not consented to these scopes$/, 'prompt=none after the scope came back');
        const consent = (await consentsOf(user.id)).find((x) => x.clientId === c.client_id);
        assert.ok(consent, 'the consent to what stayed is kept');
        assert.ok(!JSON.stringify(consent).includes('orders:read') && !JSON.stringify(consent).includes('email'), JSON.stringify(consent));
        // What stayed needs no new consent.
        const again = newRequest(c, { prompt: 'none', scope: 'openid' });
        const silent = await flow.ua.fetch(authorizeUrl(again.params));
        assert.equal(silent.status, 303, silent.text);
        assert.ok(silent.location.searchParams.get('code'), silent.rawLocation);
    });

    // --- login and consent forms: CSRF and foreign interactions ----------------------------------

    // A browser at the login page of a fresh interaction: {ua, page, fields, location}.
    async function atLogin(c) {
        const ua = new UserAgent();
        const start = await ua.fetch(authorizeUrl(newRequest(c).params));
        assert.ok(isPage(start.location, '/oauth2/login'), start.rawLocation);
        const page = await ua.fetch(start.location);
        assert.equal(page.status, 200, page.text.slice(0, 300));
        return { ua, page, fields: form(page.text, 'login-form').fields, location: start.location };
    }

    // A browser at the consent page after a real login: {ua, page, fields, location}.
    async function atConsent(c, who = user) {
        const ua = new UserAgent();
        let r = await ua.fetch(authorizeUrl(newRequest(c).params));
        r = await submitLogin(ua, await ua.fetch(r.location), who);
        assert.ok(isPage(r.location, '/oauth2/consent'), r.rawLocation);
        const page = await ua.fetch(r.location);
        assert.equal(page.status, 200, page.text.slice(0, 300));
        return { ua, page, fields: form(page.text, 'consent-form').fields, location: r.location };
    }

    const loginUrl = () => new URL('/oauth2/login', issuer);
    const consentUrl = () => new URL('/oauth2/consent', issuer);
    const noSession = (r, what) => assert.equal(r.setCookies.find((x) => x.name === 'gh_session'), undefined,
                                                `${what}: no session cookie`);
    const noCode = (r, what) => assert.equal(r.location?.searchParams.get('code') ?? null, null, `${what}: no code`);

    attack('oauth: login CSRF — a login form posted with a forged csrf field', async () => {
        const c = await publicClient();
        const { ua, fields } = await atLogin(c);
        const r = await ua.fetch(loginUrl(), { method: 'POST', form: { ...fields, csrf: 'x'.repeat(fields.csrf.length),
                                                                       username: user.username, password: user.password } });
        assertErrorPage(r, 'forged csrf', undefined);
        noSession(r, 'forged csrf');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: login CSRF — a login form posted with another interaction\'s csrf', async () => {
        const c = await publicClient();
        const victim = await atLogin(c);
        const attacker = await atLogin(c);
        const r = await victim.ua.fetch(loginUrl(), { method: 'POST', form: { ...victim.fields, csrf: attacker.fields.csrf,
                                                                              username: user.username, password: user.password } });
        assertErrorPage(r, 'another interaction\'s csrf', undefined);
        noSession(r, 'another interaction\'s csrf');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: interaction cookie from another browser — a login form posted with a foreign gh_interaction', async () => {
        const c = await publicClient();
        const victim = await atLogin(c);
        const attacker = await atLogin(c); // its own gh_interaction cookie
        const r = await attacker.ua.fetch(loginUrl(), { method: 'POST', form: { ...victim.fields,
                                                                                username: user.username, password: user.password } });
        assertErrorPage(r, 'foreign interaction cookie', undefined);
        noSession(r, 'foreign interaction cookie');
        const page = await attacker.ua.fetch(victim.location);
        assertErrorPage(page, 'the victim\'s login page with the attacker\'s cookie', undefined);
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: login CSRF — a cross-site login form post without any cookie', async () => {
        const c = await publicClient();
        const { fields } = await atLogin(c);
        const r = await new UserAgent().fetch(loginUrl(), { method: 'POST', form: { ...fields, username: user.username,
                                                                                   password: user.password } });
        assertErrorPage(r, 'no cookie', undefined);
        noSession(r, 'no cookie');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: consent CSRF — a consent form posted with a forged csrf field records nothing', async () => {
        const c = await publicClient();
        const who = await newUser();
        const { ua, fields } = await atConsent(c, who);
        const r = await ua.fetch(consentUrl(), { method: 'POST', form: { ...fields, csrf: 'y'.repeat(fields.csrf.length),
                                                                         decision: 'allow' } });
        assertErrorPage(r, 'forged consent csrf', undefined);
        noCode(r, 'forged consent csrf');
        assert.deepEqual(await consentsOf(who.id), [], 'no consent remembered');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: consent CSRF — a signed-in browser made to post another browser\'s consent form', async () => {
        const c = await publicClient();
        const victimUser = await newUser();
        const victim = await runFlow(await publicClient(), { who: victimUser }); // the victim has a session
        const attacker = await atConsent(c, await newUser()); // the attacker's own interaction
        const r = await victim.ua.fetch(consentUrl(), { method: 'POST', form: { ...attacker.fields, decision: 'allow' } });
        assertErrorPage(r, 'foreign consent form', undefined);
        noCode(r, 'foreign consent form');
        const page = await victim.ua.fetch(attacker.location);
        assertErrorPage(page, 'the attacker\'s consent page in the victim\'s browser', undefined);
        assert.ok(!(await consentsOf(victimUser.id)).some((x) => x.clientId === c.client_id), 'no consent for the victim');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: device flow — a signed-in browser made to post the confirm form with a planted gh_device cookie, or with the form of another code, approves nothing', async () => {
        const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
        const tv = await registerClient(b, { client_name: `tv ${++counter}`, token_endpoint_auth_method: 'none',
                                            grant_types: [DEVICE], scope: 'openid offline_access' });
        const deviceCode = async () => {
            const r = await formPost(b, '/oauth2/device_authorization', { client_id: tv.client_id, scope: 'openid offline_access' });
            assert.equal(r.status, 200, r.text);
            return r.json;
        };
        const attackers = await deviceCode(); // the attacker's TV waits for the victim's approval
        const victimUser = await newUser();
        const victim = await runFlow(await publicClient(), { who: victimUser }); // signed in
        // A sibling site plants its own double-submit pair for the confirm page's path.
        const planted = randomBytes(16).toString('base64url');
        victim.ua.cookies.set('gh_device', { value: planted, path: '/oauth2/device/confirm', secure: false });
        const confirm = (fields) => victim.ua.fetch(new URL('/oauth2/device/confirm', issuer),
                                                    { method: 'POST', form: { decision: 'allow', ...fields } });
        for (const fields of [{ csrf: planted }, { csrf: '' }, {}])
            assertErrorPage(await confirm({ ...fields, user_code: attackers.user_code }), `planted cookie, csrf ${JSON.stringify(fields)}`);
        // The victim's own confirm form, for a code the victim entered, approves that code only.
        const own = await deviceCode();
        const entry = await victim.ua.fetch(new URL(`/oauth2/device?user_code=${own.user_code}`, issuer));
        assert.equal(entry.status, 200, entry.text);
        const entered = form(entry.text, 'device-form');
        const page = await victim.ua.fetch(new URL(entered.action, issuer),
                                           { method: 'POST', form: { ...entered.fields, user_code: own.user_code } });
        assert.equal(page.status, 200, page.text);
        assert.equal(element(page.text, 'unvetted'), undefined, 'an administrator\'s client: no warning');
        const genuine = form(page.text, 'device-confirm-form');
        assertErrorPage(await confirm({ ...genuine.fields, user_code: attackers.user_code }), 'another code\'s confirm form');
        const pending = await formPost(b, '/oauth2/token', { grant_type: DEVICE, device_code: attackers.device_code, client_id: tv.client_id });
        assertOAuthError(pending, 400, 'authorization_pending', undefined, 'the attacker\'s device');
        await assertNoTokens(b, tv.client_id);
        // The genuine confirmation itself works.
        const approved = await confirm(genuine.fields);
        assert.equal(approved.status, 200, approved.text);
        assert.match(approved.text, /id="device-done"/);
        const tokens = await formPost(b, '/oauth2/token', { grant_type: DEVICE, device_code: own.device_code, client_id: tv.client_id });
        assert.equal(tokens.status, 200, tokens.text);
        assert.equal(JSON.parse(Buffer.from(tokens.json.id_token.split('.')[1], 'base64url')).sub, victimUser.id);
    });

    attack('oauth: device flow — a scope taken from the client while its device code waits, and given back before the user approves, does not come back to that code', async () => {
        const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
        const tv = await registerClient(b, { client_name: `tv ${++counter}`, token_endpoint_auth_method: 'none',
                                            grant_types: [DEVICE], scope: 'openid email offline_access' });
        const started = await formPost(b, '/oauth2/device_authorization', { client_id: tv.client_id, scope: 'openid email offline_access' });
        assert.equal(started.status, 200, started.text);
        const shown = (await adminFetch(b, 'GET', `/admin/v1/clients/${tv.client_id}`)).json;
        const withScope = (scope) => adminFetch(b, 'PUT', `/admin/v1/clients/${tv.client_id}`, {
            client_name: shown.client_name, grant_types: shown.grant_types, redirect_uris: shown.redirect_uris,
            token_endpoint_auth_method: shown.token_endpoint_auth_method, scope });
        for (const scope of ['openid offline_access', 'openid email offline_access']) {
            const r = await withScope(scope);
            assert.equal(r.status, 200, r.text);
        }
        const who = await newUser();
        const signedIn = await runFlow(await publicClient(), { who });
        const entry = await signedIn.ua.fetch(new URL(`/oauth2/device?user_code=${started.json.user_code}`, issuer));
        assert.equal(entry.status, 200, entry.text);
        const entered = form(entry.text, 'device-form');
        const page = await signedIn.ua.fetch(new URL(entered.action, issuer),
                                             { method: 'POST', form: { ...entered.fields, user_code: started.json.user_code } });
        assert.equal(page.status, 200, page.text);
        const asked = [...page.text.matchAll(/data-scope="([^"]+)"/g)].map((m) => m[1]);
        assert.deepEqual(asked, ['openid', 'offline_access'], 'the confirm page asks for what stayed');
        const approved = await signedIn.ua.fetch(new URL('/oauth2/device/confirm', issuer),
                                                 { method: 'POST', form: { decision: 'allow', ...form(page.text, 'device-confirm-form').fields } });
        assert.equal(approved.status, 200, approved.text);
        const tokens = await formPost(b, '/oauth2/token', { grant_type: DEVICE, device_code: started.json.device_code, client_id: tv.client_id });
        assert.equal(tokens.status, 200, tokens.text);
        assert.equal(tokens.json.scope, 'openid offline_access', 'email stays gone from the code that waited');
        const info = await request(new URL('/oauth2/userinfo', issuer), 'GET', undefined,
                                   { Authorization: `Bearer ${tokens.json.access_token}` });
        assert.equal(info.status, 200, info.text);
        assert.equal(info.json.email, undefined, info.text);
    });

    attack('oauth: silent authorization (prompt=none) for a client the user never consented to gives no code', async () => {
        const c = await publicClient();
        const who = await newUser();
        const session = await runFlow(await publicClient(), { who }); // a session, consent for another client
        const { params } = newRequest(c, { prompt: 'none' });
        const r = await session.ua.fetch(authorizeUrl(params));
        assertErrorRedirect(r, c, 'consent_required', /^the user has not consented to these scopes$/, 'prompt=none');
        assert.equal(r.location.searchParams.get('state'), params.state);
        assert.ok(!(await consentsOf(who.id)).some((x) => x.clientId === c.client_id), 'no consent');
        await assertNoTokens(b, c.client_id);
    });

    attack('oauth: silent authorization with an id_token_hint for another user answers for the user signed in now (OIDC Core §3.1.2.1)', async () => {
        const c = await publicClient();
        const alice = await newUser();
        const bob = await newUser();
        const aliceFlow = await runFlow(c, { who: alice });
        const aliceTokens = await redeem(c, aliceFlow);
        assert.equal(aliceTokens.status, 200, aliceTokens.text);
        const bobFlow = await runFlow(c, { who: bob }); // bob's browser, where the client holds alice's id_token
        const bobTokens = await redeem(c, bobFlow);
        assert.equal(bobTokens.status, 200, bobTokens.text);
        const before = await activeTokenIds(b, c.client_id);
        const silent = (hint) => {
            const { params } = newRequest(c, { prompt: 'none', id_token_hint: hint });
            return bobFlow.ua.fetch(authorizeUrl(params));
        };
        const other = await silent(aliceTokens.json.id_token);
        assertErrorRedirect(other, c, 'login_required', /^the signed-in user is not the one id_token_hint names$/, 'alice\'s hint, bob\'s browser');
        // Without prompt=none: the login page, never a code for bob.
        const { params, verifier: hintVerifier } = newRequest(c, { id_token_hint: aliceTokens.json.id_token });
        const interactive = await bobFlow.ua.fetch(authorizeUrl(params));
        assert.equal(interactive.status, 303, interactive.text);
        assert.ok(isPage(interactive.location, '/oauth2/login'), `to the login page, not ${interactive.rawLocation}`);
        // Signing in there as somebody else than alice (bob, whose browser it is) answers
        // nothing: a client checking a step-up would take bob for alice.
        const asBob = await submitLogin(bobFlow.ua, await bobFlow.ua.fetch(interactive.location), bob);
        assert.equal(asBob.status, 403, asBob.text.slice(0, 300));
        assert.equal(asBob.location, null, `no redirect: ${asBob.rawLocation}`);
        assert.match(asBob.text, /The application asked for another account/);
        // A hint that is no id_token of this server for this client is refused.
        const [h, p, sig] = bobTokens.json.id_token.split('.');
        const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url')), sub: alice.id })).toString('base64url')}.${sig}`;
        const otherClient = await publicClient();
        const elsewhere = await redeem(otherClient, await runFlow(otherClient, { ua: bobFlow.ua, who: bob }));
        for (const [what, hint] of [['tampered', forged], ['another client\'s', elsewhere.json.id_token],
                                    ['an access token', bobTokens.json.access_token], ['not a JWT', 'x.y']]) {
            const r = await silent(hint);
            assertErrorRedirect(r, c, 'invalid_request', /^id_token_hint is not an id_token this server issued to this client$/, what);
        }
        await assertTokensUnchanged(b, c.client_id, before);
        // Bob's own hint: a code, silently.
        const own = await silent(bobTokens.json.id_token);
        assert.equal(own.status, 303, own.text);
        assert.ok(own.location.searchParams.get('code'), own.rawLocation);
        // In a browser with no session: bob is refused, and alice herself signs in on the page
        // that refused him: a code, for her.
        const fresh = new UserAgent();
        const hintedLogin = await fresh.fetch(authorizeUrl(params));
        assert.ok(isPage(hintedLogin.location, '/oauth2/login'), hintedLogin.rawLocation);
        const refusedBob = await submitLogin(fresh, await fresh.fetch(hintedLogin.location), bob);
        assert.equal(refusedBob.status, 403, refusedBob.text.slice(0, 300));
        const asAlice = await submitLogin(fresh, refusedBob, alice);
        assert.equal(asAlice.status, 303, asAlice.text.slice(0, 300));
        const code = asAlice.location.searchParams.get('code');
        assert.ok(code, asAlice.rawLocation);
        const got = await redeem(c, { code, verifier: hintVerifier });
        assert.equal(got.status, 200, got.text);
        assert.equal(JSON.parse(Buffer.from(got.json.id_token.split('.')[1], 'base64url')).sub, alice.id);
    });

    attack('oauth: cookie tossing — a gh_session cookie planted beside the user\'s own signs them in as nobody else', async () => {
        // The attacker signs in to a client (consent remembered) and plants that session from a
        // sibling site, with a longer path so that it is sent first.
        const c = await publicClient();
        const attackerUser = await newUser();
        const attacker = await runFlow(c, { who: attackerUser });
        const victimUser = await newUser();
        const victim = await runFlow(c, { who: victimUser });
        const planted = attacker.ua.cookies.get('gh_session').value;
        const own = victim.ua.cookies.get('gh_session').value;
        const before = await activeTokenIds(b, c.client_id);
        const bare = new UserAgent(); // the Cookie header below is the whole of it
        for (const cookies of [`gh_session=${planted}; gh_session=${own}`, `gh_session=${own}; gh_session=${planted}`]) {
            const r = await bare.fetch(authorizeUrl(newRequest(c).params), { headers: { Cookie: cookies } });
            assert.equal(r.status, 303, r.text);
            // Two sessions under one name are none: the user signs in, no code is issued.
            assert.ok(isPage(r.location, '/oauth2/login'), `${cookies.slice(0, 12)}…: ${r.rawLocation}`);
            assert.equal(r.location.searchParams.get('code'), null);
        }
        await assertTokensUnchanged(b, c.client_id, before);
        // A browser with the planted cookie alone (on a plain http issuer, where the name has no
        // __Host- prefix) is told whose account it is acting for before it allows anything.
        const alone = new UserAgent();
        alone.cookies.set('gh_session', { value: planted, path: '/oauth2', secure: false });
        let r = await alone.fetch(authorizeUrl(newRequest(c, { prompt: 'consent' }).params));
        assert.ok(isPage(r.location, '/oauth2/consent'), r.rawLocation);
        r = await alone.fetch(r.location);
        assert.equal(r.status, 200, r.text);
        assert.match(r.text, new RegExp(`<p id="signed-in-as" class="muted">Signed in as <strong>${attackerUser.username.replace(/\./g, '\\.')}</strong>\\. Not you\\? <a href="/oauth2/logout">Sign out</a></p>`));
    });

    attack('oauth: cookie tossing on an https issuer — its cookies are __Host- cookies, and a plain gh_session planted by a sibling site is ignored', async () => {
        const e = await startBackend({ env: { GATEHOUSE_PUBLIC_BASE_URL: 'https://login.example.test',
                                              GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
        try {
            const password = `pw-${randomBytes(12).toString('base64url')}`;
            const made = await adminFetch(e, 'POST', '/admin/v1/users', { username: 'tls-user', password });
            assert.equal(made.status, 201, made.text);
            const c = await registerClient(e, { client_name: 'tls spa', token_endpoint_auth_method: 'none',
                                                grant_types: ['authorization_code'], scope: 'openid',
                                                redirect_uris: ['http://127.0.0.1:9/tls-cb'] });
            const ua = new UserAgent({ behindTls: true }); // as a browser behind a TLS proxy
            const verifier = randomBytes(32).toString('base64url');
            const u = new URL('/oauth2/authorize', e.serviceUrl);
            for (const [k, v] of Object.entries({ response_type: 'code', client_id: c.client_id, redirect_uri: c.redirect_uris[0],
                                                  scope: 'openid', state: 's', code_challenge: s256(verifier),
                                                  code_challenge_method: 'S256' }))
                u.searchParams.set(k, v);
            let r = await ua.fetch(u);
            assert.equal(r.status, 303, r.text);
            const interaction = r.setCookies.find((x) => x.name === '__Host-gh_interaction');
            assert.ok(interaction, JSON.stringify(r.setCookies));
            assert.equal(interaction.attrs.path, '/');
            assert.equal(interaction.attrs.secure, true);
            assert.equal(interaction.attrs.domain, undefined);
            assert.ok(!r.setCookies.some((x) => x.name === 'gh_interaction'));
            const login = await ua.fetch(new URL(`${r.location.pathname}${r.location.search}`, e.serviceUrl));
            const f = form(login.text, 'login-form');
            r = await ua.fetch(new URL(new URL(f.action, e.serviceUrl).pathname, e.serviceUrl),
                               { method: 'POST', form: { ...f.fields, username: 'tls-user', password } });
            assert.equal(r.status, 303, r.text);
            const session = r.setCookies.find((x) => x.name === '__Host-gh_session');
            assert.ok(session, JSON.stringify(r.setCookies));
            assert.equal(session.attrs.path, '/');
            assert.equal(session.attrs.secure, true);
            // A sibling site can set only a cookie without the prefix: it is not a session here.
            const sibling = new UserAgent({ behindTls: true });
            sibling.cookies.set('gh_session', { value: session.value, path: '/oauth2', secure: true });
            const silent = new URL(u);
            silent.searchParams.set('prompt', 'none');
            const refused = await sibling.fetch(silent);
            assert.equal(refused.status, 303, refused.text);
            assert.equal(refused.location.searchParams.get('error'), 'login_required', refused.rawLocation);
            assert.equal(refused.location.searchParams.get('code'), null);
            await assertNoTokens(e, c.client_id);
        } finally {
            assert.equal(await e.stop(), 0, e.stderr);
        }
    });

    // RP-Initiated Logout ends the browser session, and what the sign-ins in it issued with it (as
    // node oidc-provider revokes a session's grants): a signed-out user's app keeps no live token
    // from that browser, except what the user gave offline_access to (that outlives sign-outs by
    // definition). Another browser's sign-in is untouched.
    attack('oauth: sign-out — the tokens a sign-in in that browser issued keep working, and its code not yet redeemed still redeems', async () => {
        const c = await confidentialClient();
        const ua = new UserAgent();
        const online = (await redeem(c, await runFlow(c, { ua, extra: { scope: 'openid orders:read' } }))).json;
        const notYet = await runFlow(c, { ua, extra: { scope: 'openid orders:read' } });
        const offlineFlow = await runFlow(c, { ua, extra: { scope: OFFLINE_ORDERS } });
        const offline = (await redeem(c, offlineFlow)).json;
        assert.ok(offline.refresh_token, 'offline_access brings a refresh token');
        const elsewhere = (await redeem(c, await runFlow(c, { extra: { scope: 'openid orders:read' } }))).json;
        for (const t of [online, offline, elsewhere])
            assert.equal(await active(t.access_token), true, 'live before the sign-out');
        assert.equal(await userinfoStatus(online.access_token), 200);
        // The user signs out in that browser (this server's own confirmation form).
        const ask = await ua.fetch(new URL('/oauth2/logout', issuer));
        assert.equal(ask.status, 200, ask.text);
        const f = form(ask.text, 'logout-form');
        const out = await ua.fetch(new URL(f.action, issuer), { method: 'POST', form: f.fields });
        assert.equal(out.status, 200, out.text);
        assert.ok(element(out.text, 'signed-out'), out.text);
        // That sign-in's access token is dead everywhere it is checked; its code redeems nothing.
        assert.equal(await active(online.access_token), false, 'introspection after the sign-out');
        assert.equal(await userinfoStatus(online.access_token), 401, 'userinfo after the sign-out');
        const late = await redeem(c, notYet);
        assert.equal(late.status, 400, late.text);
        assert.equal(late.json.error, 'invalid_grant');
        // What the user gave offline_access to, and another browser's sign-in, live on.
        assert.equal(await active(offline.access_token), true, 'offline_access outlives the sign-out');
        const refreshed = await token(c, { grant_type: 'refresh_token', refresh_token: offline.refresh_token });
        assert.equal(refreshed.status, 200, refreshed.text);
        assert.equal(await active(elsewhere.access_token), true, 'another browser\'s sign-in');
        assert.equal(await userinfoStatus(elsewhere.access_token), 200);
    });

    // offline_access outlives a sign-out through the refresh token it brings. A client without
    // the refresh_token grant gets none: its tokens are the sign-in's, and end with it.
    attack('oauth: sign-out — tokens of a code granted offline_access, whose client got no refresh token, outlive the sign-out', async () => {
        const c = await registerClient(b, { client_name: `no refresh ${++counter}`, token_endpoint_auth_method: 'client_secret_basic',
                                            grant_types: ['authorization_code'], scope: SCOPE,
                                            redirect_uris: [`https://web${counter}.example.org/callback`] });
        const ua = new UserAgent();
        const got = await redeem(c, await runFlow(c, { ua, extra: { scope: OFFLINE_ORDERS } }));
        assert.equal(got.status, 200, got.text);
        assert.ok(!('refresh_token' in got.json), 'no refresh token without the refresh_token grant');
        assert.equal(await active(got.json.access_token), true, 'live before the sign-out');
        const ask = await ua.fetch(new URL('/oauth2/logout', issuer));
        const f = form(ask.text, 'logout-form');
        const out = await ua.fetch(new URL(f.action, issuer), { method: 'POST', form: f.fields });
        assert.equal(out.status, 200, out.text);
        assert.equal(await active(got.json.access_token), false, 'introspection after the sign-out');
        assert.equal(await userinfoStatus(got.json.access_token), 401, 'userinfo after the sign-out');
        await assertNoTokens(b, c.client_id, 'after the sign-out');
    });

    // A browser holds one session: signing in again in it (prompt=login, max_age, or as someone
    // else) replaces the session it had. The old one lived on for its lifetime, so a sign-out,
    // which ends the session the cookie names now, left the first sign-in's tokens, and the
    // old cookie still signed in.
    const signOut = async (ua) => {
        const ask = await ua.fetch(new URL('/oauth2/logout', issuer));
        assert.equal(ask.status, 200, ask.text);
        const f = form(ask.text, 'logout-form');
        const out = await ua.fetch(new URL(f.action, issuer), { method: 'POST', form: f.fields });
        assert.equal(out.status, 200, out.text);
    };
    const silentWith = async (c, sessionValue) => {
        const stale = new UserAgent();
        stale.cookies.set('gh_session', { value: sessionValue, path: '/', secure: false });
        return stale.fetch(authorizeUrl(newRequest(c, { prompt: 'none' }).params));
    };

    attack('oauth: sign-out after signing in again (prompt=login) — the first sign-in\'s tokens and session cookie outlive it', async () => {
        const c = await confidentialClient();
        const ua = new UserAgent();
        const first = (await redeem(c, await runFlow(c, { ua, extra: { scope: 'openid orders:read' } }))).json;
        const firstCookie = ua.cookies.get('gh_session')?.value;
        assert.ok(firstCookie, 'a session cookie');
        const second = (await redeem(c, await runFlow(c, { ua, extra: { scope: 'openid orders:read', prompt: 'login' } }))).json;
        assert.notEqual(ua.cookies.get('gh_session')?.value, firstCookie, 'a new session');
        for (const t of [first, second])
            assert.equal(await active(t.access_token), true, 'live before the sign-out');
        // The first cookie is no session any more: a silent request with it gets no code.
        const replaced = await silentWith(c, firstCookie);
        assertErrorRedirect(replaced, c, 'login_required', /./, 'the replaced session\'s cookie');
        await signOut(ua);
        for (const [t, what] of [[first, 'the first sign-in'], [second, 'the second sign-in']]) {
            assert.equal(await active(t.access_token), false, `${what}: introspection after the sign-out`);
            assert.equal(await userinfoStatus(t.access_token), 401, `${what}: userinfo after the sign-out`);
        }
    });

    attack('oauth: another user signing in in the same browser — the first user\'s browser sign-in lives on beside it', async () => {
        const c = await confidentialClient();
        const ua = new UserAgent();
        const alice = await newUser();
        const bob = await newUser();
        const first = (await redeem(c, await runFlow(c, { ua, who: alice, extra: { scope: 'openid orders:read' } }))).json;
        const aliceCookie = ua.cookies.get('gh_session')?.value;
        const second = (await redeem(c, await runFlow(c, { ua, who: bob, extra: { scope: 'openid orders:read', prompt: 'login' } }))).json;
        // Alice's session in that browser ended as a sign-out ends it; Bob's is the browser's now.
        assert.equal(await active(first.access_token), false, 'alice\'s token once bob signed in there');
        assert.equal(await userinfoStatus(first.access_token), 401);
        assertErrorRedirect(await silentWith(c, aliceCookie), c, 'login_required', /./, 'alice\'s old cookie');
        assert.equal(await active(second.access_token), true, 'bob\'s token');
    });

    let userCounter = 0;
    async function newUser() {
        const password = `pw-${randomBytes(12).toString('base64url')}`;
        const r = await adminFetch(b, 'POST', '/admin/v1/users',
                                   { username: `u${++userCounter}.${randomBytes(3).toString('hex')}`, password });
        assert.equal(r.status, 201, r.text);
        return { ...r.json, password };
    }
});
