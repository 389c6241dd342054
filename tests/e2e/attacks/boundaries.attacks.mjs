// Issue 26's lower-severity paths (docs/oauth.md, "Trust boundaries, other rules"): the orders
// API taking tokens for another audience, resource indicators outside a client's allow-list,
// introspection of other clients' tokens, grants that outlive a revoked consent, a deleted,
// locked or reset user, password guessing past the rate limit and the lockout, floods of
// pending sign-ins, a binding re-targeted by changing its roleRef, and request framing that a
// stricter proxy would read differently. Each case asserts the refusal and that nothing was
// issued or changed.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import * as jose from 'jose';

import { startBackend, adminFetch, serviceFetch, TIMEOUT_MS } from '../lib/backend.mjs';
import { adminKube } from '../lib/cluster.mjs';
import {
    attack, assertNoTokens, activeTokenIds, assertTokensUnchanged, registerClient, assertOAuthError, basicAuth,
    formPost,
} from './lib/attack.mjs';
import { UserAgent, form, textOf } from '../lib/browser.mjs';
import { signIn, tokenRequest, tokensFor, isActive, introspect } from './lib/flow.mjs';

async function newUser(b, name) {
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    const r = await adminFetch(b, 'POST', '/admin/v1/users', { username: name, password });
    assert.equal(r.status, 201, r.text);
    return { ...r.json, password };
}

// An HTTP request from a given local loopback address (the rate limits count per address).
function requestFrom(localAddress, url, method, body, headers) {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
        const s = connect({ host: u.hostname, port: Number(u.port), localAddress }, () => {
            s.write(`${method} ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\n` +
                    Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('') +
                    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        });
        const chunks = [];
        s.on('data', (c) => chunks.push(c));
        s.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const [head, ...rest] = text.split('\r\n\r\n');
            const status = Number(head.split(' ')[1]);
            const headerLines = head.split('\r\n').slice(1);
            const h = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(),
                                                                  l.slice(l.indexOf(':') + 1).trim()]));
            let json;
            try {
                json = JSON.parse(rest.join('\r\n\r\n'));
            } catch {
                json = undefined;
            }
            resolve({ status, headers: h, json, text });
        });
        s.on('error', reject);
    });
}

// Raw bytes to a listener; resolves to the whole answer as text (the server closes after it).
function rawExchange(url, bytes) {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
        const s = connect({ host: u.hostname, port: Number(u.port) }, () => s.write(bytes));
        const chunks = [];
        s.setTimeout(TIMEOUT_MS, () => s.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
        s.on('data', (c) => chunks.push(c));
        s.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        s.on('error', reject);
    });
}

describe('boundaries: audiences, introspection, consents and users, guessing, floods, roleRef, framing', () => {
    let b;
    let rs; // a resource server for the orders API: introspects other clients' access tokens for it
    let web; // a confidential code client with an orders scope
    let customerId;

    before(async () => {
        // oauth-pending-sign-ins 250: small enough for a flood from a few addresses to fill.
        b = await startBackend({ args: ['--orders-require-token'],
                                 env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000', GATEHOUSE_OAUTH_PENDING_SIGN_INS: '250' } });
        rs = await registerClient(b, { client_name: 'resource server', grant_types: ['client_credentials'],
                                       scope: 'orders:read', resource_server: true });
        web = await registerClient(b, { client_name: 'web shop', grant_types: ['authorization_code', 'refresh_token'],
                                        scope: 'openid orders:read offline_access', redirect_uris: ['https://shop.example/cb'] });
        const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'Boundary Pub' });
        assert.equal(c.status, 201, c.text);
        customerId = c.json.customer.id;
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    async function orderCount() {
        const r = await adminFetch(b, 'GET', `/admin/v1/orders?customerId=${customerId}`);
        assert.equal(r.status, 200, r.text);
        return r.json.items.length;
    }

    const placeOrder = (token) => serviceFetch(b, 'POST', `/v1/customers/${customerId}/orders`,
                                               { beerOrderLines: [{ upc: '0631234200036', orderQuantity: 1 }] },
                                               { Authorization: `Bearer ${token}` });

    // --- the orders API checks aud ---------------------------------------------------------------

    attack('boundary: a token with orders:write for another audience is refused by the orders API', async () => {
        const other = 'https://reports.example/api';
        const c = await registerClient(b, { client_name: 'reporting', grant_types: ['client_credentials'],
                                            scope: 'orders:read orders:write', allowed_resources: [other] });
        const t = await tokenRequest(b, c, { grant_type: 'client_credentials', resource: other });
        assert.equal(t.status, 200, t.text);
        assert.equal(jose.decodeJwt(t.json.access_token).aud, other);
        const before = await orderCount();
        const r = await placeOrder(t.json.access_token);
        assert.equal(r.status, 401, r.text);
        assert.match(r.headers['www-authenticate'], /error="invalid_token"/);
        assert.match(r.json.detail, /not for this API \(its audience is not .*\/v1\)/);
        assert.equal(await orderCount(), before, 'no order placed');
        // The same client's token for the orders API (its default audience) is accepted.
        const ok = await tokenRequest(b, c, { grant_type: 'client_credentials' });
        assert.equal(jose.decodeJwt(ok.json.access_token).aud, `${b.serviceUrl}/v1`);
    });

    attack('boundary: an opaque token for another audience is refused by the orders API', async () => {
        const other = 'https://reports.example/opaque';
        const c = await registerClient(b, { client_name: 'opaque reporting', grant_types: ['client_credentials'],
                                            scope: 'orders:write', allowed_resources: [other], access_token_format: 'opaque' });
        const t = await tokenRequest(b, c, { grant_type: 'client_credentials', resource: other });
        assert.equal(t.status, 200, t.text);
        const before = await orderCount();
        const r = await placeOrder(t.json.access_token);
        assert.equal(r.status, 401, r.text);
        assert.match(r.json.detail, /not for this API/);
        assert.equal(await orderCount(), before);
    });

    attack('boundary: client_credentials names a resource outside the client\'s allow-list', async () => {
        const c = await registerClient(b, { client_name: 'no resources', grant_types: ['client_credentials'],
                                            scope: 'orders:read' });
        for (const resource of ['https://payments.example/api', 'kubernetes:', `${b.serviceUrl}/admin`]) {
            const r = await tokenRequest(b, c, { grant_type: 'client_credentials', resource });
            assertOAuthError(r, 400, 'invalid_target', /not among this client's allowed_resources/, resource);
        }
        await assertNoTokens(b, c.client_id);
    });

    // --- introspection ---------------------------------------------------------------------------

    attack('boundary: a client introspects another client\'s live token', async () => {
        const victim = await registerClient(b, { client_name: 'victim m2m', grant_types: ['client_credentials'],
                                                 scope: 'orders:read' });
        const snoop = await registerClient(b, { client_name: 'snoop', grant_types: ['client_credentials'],
                                                scope: 'orders:read' });
        const t = await tokenRequest(b, victim, { grant_type: 'client_credentials' });
        assert.equal(t.status, 200, t.text);
        const r = await formPost(b, '/oauth2/introspect', { token: t.json.access_token },
                                 basicAuth(snoop.client_id, snoop.client_secret));
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.json, { active: false }, 'nothing about another client\'s token');
        assert.equal(await isActive(b, rs, t.json.access_token), true, 'it is live (a resource server sees it)');
        const own = await formPost(b, '/oauth2/introspect', { token: t.json.access_token },
                                   basicAuth(victim.client_id, victim.client_secret));
        assert.equal(own.json.active, true, 'its own client may introspect it');
    });

    attack('boundary: a resource server introspects another client\'s refresh token and a token for another audience', async () => {
        // A second resource server, for an API of its own (no orders scope), and a service whose
        // client_credentials tokens are meant for that API.
        const API = 'https://rs2.example/api';
        const rs2 = await registerClient(b, { client_name: 'second resource server', grant_types: ['client_credentials'],
                                              allowed_resources: [API], resource_server: true });
        const svc = await registerClient(b, { client_name: 'rs2 caller', grant_types: ['client_credentials'],
                                              allowed_resources: [API] });
        const forRs2 = await tokenRequest(b, svc, { grant_type: 'client_credentials', resource: API });
        assert.equal(forRs2.status, 200, forRs2.text);
        assert.equal(jose.decodeJwt(forRs2.json.access_token).aud, API);
        // A user's tokens from the web shop: with orders:read (for the orders API) and without
        // (for the shop itself), each with a refresh token.
        const u = await newUser(b, `introspected${randomBytes(3).toString('hex')}`);
        const ua = new UserAgent();
        const orders = await tokensFor(b, web, u, { scope: 'openid orders:read offline_access', ua });
        const shop = await tokensFor(b, web, u, { scope: 'openid offline_access', ua });
        assert.ok(orders.refresh_token && shop.refresh_token, 'refresh tokens (offline_access)');
        assert.equal(jose.decodeJwt(orders.access_token).aud, `${b.serviceUrl}/v1`, 'for the orders API');
        assert.equal(jose.decodeJwt(shop.access_token).aud, web.client_id, 'for the shop itself');
        const listed = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(web.client_id)}&user=${u.id}`);
        assert.equal(listed.status, 200, listed.text);
        assert.deepEqual(listed.json.items.map((t) => t.kind).sort(), ['access', 'access', 'refresh', 'refresh'],
                         'all four live');
        const before = await activeTokenIds(b, web.client_id);

        // What each resource server is told: about the access tokens meant for it, nothing else.
        const seen = await introspect(b, rs, orders.access_token);
        assert.equal(seen.active, true, 'rs: the orders token is for the orders API, which it serves');
        assert.equal(seen.aud, `${b.serviceUrl}/v1`);
        assert.equal(seen.client_id, web.client_id);
        assert.equal(seen.sub, u.id);
        const seen2 = await introspect(b, rs2, forRs2.json.access_token);
        assert.equal(seen2.active, true, 'rs2: a token for its own API');
        assert.equal(seen2.aud, API);
        for (const [who, server, t, what] of [
            ['rs', rs, orders.refresh_token, 'another client\'s refresh token (orders:read)'],
            ['rs', rs, shop.refresh_token, 'another client\'s refresh token'],
            ['rs', rs, shop.access_token, 'a token for the shop itself (aud its client id)'],
            ['rs', rs, forRs2.json.access_token, 'a token for rs2\'s API'],
            ['rs2', rs2, orders.access_token, 'a token for the orders API (rs2 holds no orders scope)'],
            ['rs2', rs2, orders.refresh_token, 'another client\'s refresh token'],
        ])
            assert.deepEqual(await introspect(b, server, t), { active: false }, `${who}: ${what}: nothing but inactive`);

        // The shop itself (a confidential client) learns about its own tokens, refresh ones too.
        const ownRefresh = await introspect(b, web, orders.refresh_token);
        assert.equal(ownRefresh.active, true, 'the shop: its own refresh token');
        assert.equal(ownRefresh.sub, u.id);
        const ownAccess = await introspect(b, web, shop.access_token);
        assert.equal(ownAccess.active, true, 'the shop: its own access token');
        assert.equal(ownAccess.aud, web.client_id);
        await assertTokensUnchanged(b, web.client_id, before, 'after the introspections');
        await assertNoTokens(b, rs2.client_id, 'rs2');
        // Leave the shop without tokens, as the cases after this one expect.
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/users/${u.id}`)).status, 204);
        await assertNoTokens(b, web.client_id, 'after the user was deleted');
    });

    // --- consents and users ----------------------------------------------------------------------

    attack('boundary: a refresh token outlives the consent it was granted under', async () => {
        const u = await newUser(b, `consenting${randomBytes(3).toString('hex')}`);
        const tokens = await tokensFor(b, web, u, { scope: 'openid orders:read offline_access' });
        assert.ok(tokens.refresh_token, 'a refresh token (offline_access)');
        const del = await adminFetch(b, 'DELETE', `/admin/v1/consents/${u.id}/${web.client_id}`);
        assert.equal(del.status, 204, del.text);
        const before = await activeTokenIds(b, web.client_id);
        const r = await tokenRequest(b, web, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
        assertOAuthError(r, 400, 'invalid_grant', /revoked/, 'refresh after consent revoked');
        assert.equal(await isActive(b, rs, tokens.access_token), false, 'the access token went with it');
        await assertTokensUnchanged(b, web.client_id, before);
    });

    for (const [what, change] of [
        ['deleted', (u) => adminFetch(b, 'DELETE', `/admin/v1/users/${u.id}`), 204],
        ['locked by an administrator', (u) => adminFetch(b, 'POST', `/admin/v1/users/${u.id}/lock`), 200],
        ['given a new password by an administrator',
         (u) => adminFetch(b, 'PATCH', `/admin/v1/users/${u.id}`, { password: 'a brand new password' }), 200],
    ]) {
        attack(`boundary: a user ${what} keeps their browser session and refresh token`, async () => {
            const u = await newUser(b, `user${randomBytes(3).toString('hex')}`);
            const ua = new UserAgent();
            const flow = await signIn(b, web, u, { scope: 'openid orders:read offline_access', ua });
            const t = await tokenRequest(b, web, { grant_type: 'authorization_code', code: flow.code,
                                                   redirect_uri: web.redirect_uris[0], code_verifier: flow.verifier });
            assert.equal(t.status, 200, t.text);
            assert.ok(t.json.refresh_token, 'a refresh token (offline_access)');
            const r = await change(u);
            assert.ok(r.status === 200 || r.status === 204, r.text);
            const before = await activeTokenIds(b, web.client_id);
            const refresh = await tokenRequest(b, web, { grant_type: 'refresh_token', refresh_token: t.json.refresh_token });
            assertOAuthError(refresh, 400, 'invalid_grant', /revoked|no longer exists/, `refresh after ${what}`);
            assert.equal(await isActive(b, rs, t.json.access_token), false, 'the access token is revoked');
            // The browser is signed out: the next authorization asks for the password again.
            const again = await ua.fetch(new URL(`/oauth2/authorize?response_type=code&client_id=${web.client_id}` +
                                                 `&redirect_uri=${encodeURIComponent(web.redirect_uris[0])}&scope=openid` +
                                                 `&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
                                                 b.serviceUrl));
            assert.equal(again.status, 303, again.text);
            assert.equal(again.location.pathname, '/oauth2/login', `${what}: the session ended`);
            await assertTokensUnchanged(b, web.client_id, before);
        });
    }

    attack('boundary: a user locked by an administrator signs in with the right password (told), a wrong one (not told)', async () => {
        const u = await newUser(b, `lockme${randomBytes(3).toString('hex')}`);
        assert.equal((await adminFetch(b, 'POST', `/admin/v1/users/${u.id}/lock`)).status, 200);
        const authorize = new URL(`/oauth2/authorize?response_type=code&client_id=${web.client_id}` +
                                  `&redirect_uri=${encodeURIComponent(web.redirect_uris[0])}&scope=openid` +
                                  `&code_challenge=${'b'.repeat(43)}&code_challenge_method=S256`, b.serviceUrl);
        const ua = new UserAgent();
        const start = await ua.fetch(authorize);
        assert.equal(start.location.pathname, '/oauth2/login');
        // The right password: the login page says who locked it, and no code is issued.
        const login = await ua.fetch(start.location);
        const f = form(login.text, 'login-form');
        const r = await ua.fetch(new URL(f.action, b.serviceUrl), {
            method: 'POST', form: { ...f.fields, username: u.username, password: u.password } });
        assert.equal(r.status, 403, r.text.slice(0, 300));
        assert.equal(r.rawLocation, null);
        assert.match(textOf(r.text), /This account is locked by an administrator\./);
        // A wrong password is not told about the lock: the answer is the one an unknown name
        // gets, so the lock tells nobody that the name exists.
        for (const [who, username, password] of [['a wrong password', u.username, 'not the password'],
                                                 ['an unknown name', `nobody${randomBytes(3).toString('hex')}`, u.password]]) {
            const other = new UserAgent();
            const begun = await other.fetch(authorize);
            const g = form((await other.fetch(begun.location)).text, 'login-form');
            const wrong = await other.fetch(new URL(g.action, b.serviceUrl), {
                method: 'POST', form: { ...g.fields, username, password } });
            assert.equal(wrong.status, 401, `${who}: ${wrong.text.slice(0, 300)}`);
            assert.equal(wrong.rawLocation, null);
            assert.match(textOf(wrong.text), /Wrong username or password\./, who);
            assert.doesNotMatch(textOf(wrong.text), /locked/i, who);
        }
        const shown = (await adminFetch(b, 'GET', `/admin/v1/users/${u.id}`)).json;
        assert.equal(shown.locked, true);
        await assertNoTokens(b, web.client_id, 'nothing issued to a locked user');
        assert.equal((await adminFetch(b, 'POST', `/admin/v1/users/${u.id}/unlock`)).status, 200);
    });

    attack('boundary: a code issued before the user was locked is redeemed after', async () => {
        const u = await newUser(b, `latecode${randomBytes(3).toString('hex')}`);
        const flow = await signIn(b, web, u, { scope: 'openid orders:read' });
        assert.equal((await adminFetch(b, 'POST', `/admin/v1/users/${u.id}/lock`)).status, 200);
        const before = await activeTokenIds(b, web.client_id);
        const r = await tokenRequest(b, web, { grant_type: 'authorization_code', code: flow.code,
                                               redirect_uri: web.redirect_uris[0], code_verifier: flow.verifier });
        assertOAuthError(r, 400, 'invalid_grant', /expired|locked/, 'code after the lock');
        await assertTokensUnchanged(b, web.client_id, before);
        assert.equal((await adminFetch(b, 'POST', `/admin/v1/users/${u.id}/unlock`)).status, 200);
    });

    // --- pending sign-ins ------------------------------------------------------------------------

    attack('boundary: a flood of pending sign-ins from one address evicts nobody else\'s', async () => {
        const victim = new UserAgent();
        const url = (state) => `${b.serviceUrl}/oauth2/authorize?response_type=code&client_id=${web.client_id}` +
            `&redirect_uri=${encodeURIComponent(web.redirect_uris[0])}&scope=openid&state=${state}` +
            `&code_challenge=${'c'.repeat(43)}&code_challenge_method=S256`;
        const pending = await victim.fetch(new URL(url('victim')));
        assert.equal(pending.location.pathname, '/oauth2/login');
        let refused = null;
        for (let i = 0; i < 120 && !refused; ++i) {
            const r = await requestFrom('127.0.0.5', url(`flood${i}`), 'GET', '', {});
            if (r.status === 429)
                refused = { i, r };
            else
                assert.equal(r.status, 303, r.text);
        }
        assert.ok(refused, 'the flood is refused with 429');
        assert.equal(refused.i, 100, 'after 100 pending sign-ins from one address');
        assert.equal(refused.r.headers['retry-after'], '60');
        // The victim's pending sign-in is still there, and others may start theirs.
        const page = await victim.fetch(pending.location);
        assert.equal(page.status, 200, page.text.slice(0, 300));
        const other = await new UserAgent().fetch(new URL(url('other')));
        assert.equal(other.status, 303);
        assert.equal(other.location.pathname, '/oauth2/login');
    });

    attack('boundary: a flood of pending sign-ins from many addresses fills the server, yet a user from another address still signs in', async () => {
        const url = (state) => `${b.serviceUrl}/oauth2/authorize?response_type=code&client_id=${web.client_id}` +
            `&redirect_uri=${encodeURIComponent(web.redirect_uris[0])}&scope=openid&state=${state}` +
            `&code_challenge=${'c'.repeat(43)}&code_challenge_method=S256`;
        const victim = await requestFrom('127.0.0.30', url('victim'), 'GET', '', {});
        assert.equal(victim.status, 303, victim.text);
        const cookie = victim.headers['set-cookie'].split(';')[0];
        assert.match(cookie, /^gh_interaction=/);
        // Four addresses, 120 each: more than the 250 pending sign-ins the server holds. At that
        // cap the heaviest address gives way to a lighter one; an address over its own 100 is
        // refused.
        let refused = 0;
        let beforeOwnCap = 0; // refused while under its own 100: the server as a whole was full
        for (let a = 10; a < 14; ++a)
            for (let i = 0; i < 120; ++i) {
                const r = await requestFrom(`127.0.0.${a}`, url(`flood${a}-${i}`), 'GET', '', {});
                assert.ok(r.status === 303 || r.status === 429, `127.0.0.${a} #${i}: ${r.status}`);
                refused += r.status === 429;
                beforeOwnCap += r.status === 429 && i < 100;
            }
        assert.ok(refused >= 80, `the flood is refused in part (${refused} of 480)`);
        assert.ok(beforeOwnCap > 0, 'the server filled up (oauth-pending-sign-ins)');
        // A user from another address still starts a sign-in, and the victim's pending one (a
        // light address) was never the one to give way.
        const newcomer = await requestFrom('127.0.0.20', url('newcomer'), 'GET', '', {});
        assert.equal(newcomer.status, 303, newcomer.text);
        assert.match(newcomer.headers.location, /\/oauth2\/login\?interaction=/);
        const page = await requestFrom('127.0.0.30', new URL(victim.headers.location, b.serviceUrl).href, 'GET', '',
                                       { Cookie: cookie });
        assert.equal(page.status, 200, page.text.slice(0, 300));
        assert.match(page.text, /id="login-form"|login-form/);
    });

    // --- a binding's roleRef ---------------------------------------------------------------------

    attack('boundary: a RoleBinding re-targeted by changing its roleRef', async () => {
        const RBAC = 'rbac.authorization.k8s.io';
        const path = `/apis/${RBAC}/v1/namespaces/default/rolebindings/readers`;
        const created = await adminKube(b, 'POST', `/apis/${RBAC}/v1/namespaces/default/rolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'readers', namespace: 'default' },
            subjects: [{ kind: 'Group', name: 'interns', apiGroup: RBAC }],
            roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: RBAC } });
        assert.equal(created.status, 201, created.text);
        const before = (await adminKube(b, 'GET', path)).json;
        const changed = { ...before, roleRef: { kind: 'ClusterRole', name: 'cluster-admin', apiGroup: RBAC } };
        const r = await adminKube(b, 'PUT', path, changed);
        assert.equal(r.status, 422, r.text);
        assert.equal(r.json.reason, 'Invalid');
        assert.equal(r.json.message, `RoleBinding.${RBAC} "readers" is invalid: roleRef: Invalid value: ` +
                                     `rbac.RoleRef{APIGroup:"${RBAC}", Kind:"ClusterRole", Name:"cluster-admin"}: ` +
                                     'cannot change roleRef');
        assert.deepEqual(r.json.details.causes, [{ reason: 'FieldValueInvalid', message:
            `Invalid value: rbac.RoleRef{APIGroup:"${RBAC}", Kind:"ClusterRole", Name:"cluster-admin"}: cannot change roleRef`,
                                                   field: 'roleRef' }]);
        const patched = await adminKube(b, 'PATCH', path, { roleRef: { name: 'admin' } },
                                        { 'Content-Type': 'application/merge-patch+json' });
        assert.equal(patched.status, 422, patched.text);
        assert.deepEqual((await adminKube(b, 'GET', path)).json, before, 'the binding is unchanged');
    });

    // --- framing ---------------------------------------------------------------------------------

    const customerBody = (name) => JSON.stringify({ name });
    async function customerNames() {
        const r = await adminFetch(b, 'GET', '/admin/v1/customers');
        return r.json.items.map((c) => c.name);
    }

    for (const [what, bytes] of [
        ['bare LF line ends', (body) => `POST /admin/v1/customers HTTP/1.1\nHost: x\nAuthorization: Bearer ${b.adminToken}\n` +
            `Content-Type: application/json\nContent-Length: ${body.length}\n\n${body}`],
        ['a bare LF between headers', (body) => `POST /admin/v1/customers HTTP/1.1\r\nHost: x\r\n` +
            `Authorization: Bearer ${b.adminToken}\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`],
        ['whitespace after a chunk size', (body) => `POST /admin/v1/customers HTTP/1.1\r\nHost: x\r\n` +
            `Authorization: Bearer ${b.adminToken}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
            `${body.length.toString(16)} \r\n${body}\r\n0\r\n\r\n`],
        ['whitespace before a chunk size', (body) => `POST /admin/v1/customers HTTP/1.1\r\nHost: x\r\n` +
            `Authorization: Bearer ${b.adminToken}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
            ` ${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`],
        ['a bare LF after chunk data', (body) => `POST /admin/v1/customers HTTP/1.1\r\nHost: x\r\n` +
            `Authorization: Bearer ${b.adminToken}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
            `${body.length.toString(16)}\r\n${body}\n0\r\n\r\n`],
        // Optional whitespace is SP and HTAB only: a proxy that ignores "chunked\v" frames by
        // Content-Length, or by nothing.
        ['a vertical tab after "chunked"', (body) => `POST /admin/v1/customers HTTP/1.1\r\nHost: x\r\n` +
            `Authorization: Bearer ${b.adminToken}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\x0b\r\n\r\n` +
            `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`],
        ['a form feed after a Content-Length', (body) => `POST /admin/v1/customers HTTP/1.1\r\nHost: x\r\n` +
            `Authorization: Bearer ${b.adminToken}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\x0c\r\n\r\n${body}`],
    ]) {
        attack(`boundary: request framing with ${what}`, async () => {
            const name = `smuggled ${randomBytes(4).toString('hex')}`;
            const answer = await rawExchange(b.adminUrl, bytes(customerBody(name)));
            assert.match(answer, /^HTTP\/1\.1 400 /, answer.slice(0, 200));
            assert.match(answer, /bad-request/);
            assert.ok(!(await customerNames()).includes(name), 'no customer created');
        });
    }

    // An http URI without an authority ("http:x/admin/...") named the relative path "x/admin/...":
    // the prefix filters (the admin token, the orders API's bearer check, the audit) did not see
    // it, while the router, by its segments, still found the routes. Invalid (RFC 9110 §4.2.1).
    attack('boundary: an absolute-form target without an authority past the admin token and the orders API\'s bearer check', async () => {
        const yaml = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: pwned-by-target}\n' +
            'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\n' +
            'subjects: [{kind: Group, name: system:authenticated, apiGroup: rbac.authorization.k8s.io}]\n';
        const name = `target ${randomBytes(4).toString('hex')}`;
        const body = customerBody(name);
        const newestAudit = async () => (await adminFetch(b, 'GET', '/admin/v1/audit?limit=1')).json.items[0]?.id;
        const auditBefore = await newestAudit();
        for (const [url, target, extra, payload] of [
            [b.adminUrl, 'http:x/admin/v1/users', '', ''],
            [b.adminUrl, 'http:x/admin/v1/customers', 'Content-Type: application/json\r\n', body],
            [b.adminUrl, 'http:x/admin/v1/cluster/rbac/import', 'Content-Type: application/yaml\r\n', yaml],
            [b.adminUrl, 'https:x/metrics', '', ''],
            [b.adminUrl, 'http:/admin/v1/users', '', ''],
            [b.serviceUrl, `http:x/v1/customers/${customerId}/orders`, '', ''],
        ]) {
            const method = payload ? 'POST' : 'GET';
            const answer = await rawExchange(url, `${method} ${target} HTTP/1.1\r\nHost: x\r\n${extra}` +
                                                  `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`);
            assert.match(answer, /^HTTP\/1\.1 400 /, `${method} ${target}: ${answer.slice(0, 300)}`);
            assert.match(answer, /malformed request target/, target);
        }
        assert.ok(!(await customerNames()).includes(name), 'no customer created');
        assert.equal((await adminKube(b, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/pwned-by-target')).status, 404,
                     'no binding imported');
        // The absolute form with an authority stays what it is: filtered like any other.
        const anonymous = await rawExchange(b.adminUrl, 'GET http://x/admin/v1/users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
        assert.match(anonymous, /^HTTP\/1\.1 401 /, anonymous.slice(0, 300));
        const orders = await rawExchange(b.serviceUrl, `GET http://x/v1/customers/${customerId}/orders HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        assert.match(orders, /^HTTP\/1\.1 401 /, orders.slice(0, 300));
        const allowed = await rawExchange(b.adminUrl, `GET http://x/admin/v1/customers HTTP/1.1\r\nHost: x\r\n` +
                                                      `Authorization: Bearer ${b.adminToken}\r\nConnection: close\r\n\r\n`);
        assert.match(allowed, /^HTTP\/1\.1 200 /, allowed.slice(0, 300));
        assert.equal(await newestAudit(), auditBefore, 'nothing was done that the audit would record');
    });
});

// Password guessing through the token endpoint (its own backend: low limits).
describe('boundaries: password guessing', () => {
    let b;
    let till; // a legacy client with the password grant

    before(async () => {
        b = await startBackend({ env: { GATEHOUSE_OAUTH_LOGIN_RATE: '10', GATEHOUSE_OAUTH_LOCKOUT_THRESHOLD: '3' } });
        till = await registerClient(b, { client_name: 'till', grant_types: ['password'], scope: 'orders:read',
                                         token_endpoint_auth_method: 'client_secret_post' });
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    const guess = (from, username, password) => requestFrom(
        from, `${b.serviceUrl}/oauth2/token`, 'POST',
        new URLSearchParams({ grant_type: 'password', username, password, client_id: till.client_id,
                              client_secret: till.client_secret }).toString(),
        { 'Content-Type': 'application/x-www-form-urlencoded' });

    attack('boundary: the password grant has the login page\'s per-address rate limit', async () => {
        const users = [];
        for (let i = 0; i < 5; ++i)
            users.push(await newUser(b, `rate${i}`));
        const answers = [];
        for (let i = 0; i < 11; ++i)
            answers.push(await guess('127.0.0.6', users[i % 5].username, 'not the password'));
        assert.deepEqual(answers.slice(0, 10).map((a) => a.status), Array(10).fill(400));
        const last = answers[10];
        assert.equal(last.status, 429, last.text);
        assert.equal(last.json.error, 'invalid_request');
        assert.match(last.json.error_description, /too many sign-in attempts from this address/);
        assert.ok(Number(last.headers['retry-after']) >= 1, JSON.stringify(last.headers));
        // The right password from that address is refused too while the window lasts.
        const right = await guess('127.0.0.6', users[0].username, users[0].password);
        assert.equal(right.status, 429);
        await assertNoTokens(b, till.client_id);
    });

    attack('boundary: a flood of password guesses from many addresses holds up no other token request, and waits in a bounded queue', async () => {
        // Each address stays under its limit; together they kept every pool thread hashing
        // (argon2id): a client_credentials token waited behind all of them (57 s measured).
        const machine = await registerClient(b, { client_name: 'machine', grant_types: ['client_credentials'],
                                                  scope: 'orders:read', token_endpoint_auth_method: 'client_secret_post' });
        const order = [];
        const guesses = [];
        for (let a = 1; a <= 12; ++a)
            for (let i = 0; i < 9; ++i)
                guesses.push(guess(`127.0.1.${a}`, `nobody-${a}-${i}`, 'a guess').then((r) => { order.push('guess'); return r; }));
        await new Promise((r) => setTimeout(r, 100)); // the guesses are in
        const token = serviceFetch(b, 'POST', '/oauth2/token', new URLSearchParams({
            grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret }).toString(),
        { 'Content-Type': 'application/x-www-form-urlencoded' }).then((r) => { order.push('token'); return r; });
        const [answers, issued] = await Promise.all([Promise.all(guesses), token]);
        assert.equal(issued.status, 200, issued.text);
        assert.equal(issued.json.token_type, 'Bearer');
        const before = order.indexOf('token');
        assert.ok(before < guesses.length / 2, `the token came after ${before} of ${guesses.length} guesses`);
        // Every guess answered: a wrong password's answer, or busy (503, Retry-After) past the
        // queue's 64 waiting; nothing else.
        let busy = 0;
        for (const a of answers) {
            if (a.status === 503) {
                ++busy;
                assertOAuthError(a, 503, 'temporarily_unavailable', /^too many sign-ins are being checked/, 'a busy answer');
                assert.equal(a.headers['retry-after'], '1');
            } else {
                assertOAuthError(a, 400, 'invalid_grant', /^wrong username or password$/, 'a guess');
            }
        }
        assert.ok(busy > 0 && busy < guesses.length - 64, `${busy} busy answers`);
        await assertNoTokens(b, till.client_id);
    });

    attack('boundary: parallel wrong guesses cannot pass the lockout threshold', async () => {
        const u = await newUser(b, 'parallel');
        const answers = await Promise.all(Array.from({ length: 8 }, () => guess('127.0.0.7', u.username, 'wrong guess')));
        // Every answer is a wrong password's, those after the lock included (only names that
        // exist lock: an answer of its own would tell that the name exists).
        for (const a of answers)
            assertOAuthError(a, 400, 'invalid_grant', /^wrong username or password$/, 'a parallel guess');
        const shown = (await adminFetch(b, 'GET', `/admin/v1/users/${u.id}`)).json;
        assert.equal(shown.locked, true, JSON.stringify(shown));
        assert.equal(shown.failedSignIns, 3, 'exactly the threshold of guesses were counted');
        // Locked now: the right password does not get in either, and is told what a wrong one is.
        const right = await guess('127.0.0.8', u.username, u.password);
        assertOAuthError(right, 400, 'invalid_grant', /^wrong username or password$/, 'the right password while locked');
        await assertNoTokens(b, till.client_id);
    });

    attack('boundary: /oauth2/device_authorization has a per-address limit of its own (each request stores a device code)', async () => {
        const tv = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: 'tv', token_endpoint_auth_method: 'none', scope: 'openid',
            grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] });
        assert.equal(tv.status, 201, tv.text);
        const ask = (from) => requestFrom(from, `${b.serviceUrl}/oauth2/device_authorization`, 'POST',
                                          new URLSearchParams({ client_id: tv.json.client_id }).toString(),
                                          { 'Content-Type': 'application/x-www-form-urlencoded' });
        const answers = [];
        for (let i = 0; i < 11; ++i)
            answers.push(await ask('127.0.0.9'));
        assert.deepEqual(answers.slice(0, 10).map((a) => a.status), Array(10).fill(200));
        const codes = new Set(answers.slice(0, 10).map((a) => a.json.device_code));
        assert.equal(codes.size, 10, 'ten device codes');
        const last = answers[10];
        assert.equal(last.status, 429, last.text);
        assert.equal(last.json.error, 'invalid_request');
        assert.match(last.json.error_description, /too many device authorizations from this address/);
        assert.equal(last.json.device_code, undefined, 'no device code');
        assert.ok(Number(last.headers['retry-after']) >= 1, JSON.stringify(last.headers));
        // A window of its own: sign-ins from that address are not limited by it, and another
        // address is not limited at all.
        assertOAuthError(await guess('127.0.0.9', 'nobody-here', 'x'), 400, 'invalid_grant', /wrong username or password/);
        assert.equal((await ask('127.0.0.10')).status, 200);
    });
});
