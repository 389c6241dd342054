// The password grant and the device authorization grant (RFC 8628) end to end: the token
// endpoint's error codes (invalid_request, invalid_client, invalid_grant, unauthorized_client,
// unsupported_grant_type, invalid_scope, authorization_pending, slow_down, expired_token,
// access_denied) with status and body, and the device verification pages driven like a
// browser (cookies, CSRF field, sign-in, approve / deny).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as jose from 'jose';

import { startBackend, adminFetch, fromAddress, waitFor, POSTGRES_BASE } from './lib/backend.mjs';

const PASSWORD = 'device flow password';
let b;
let user;

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

async function register(metadata) {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', metadata);
    assert.equal(r.status, 201, r.text);
    return r.json;
}

// POST a form to the service listener; returns status, headers, parsed JSON body.
async function post(path, params, headers = {}) {
    const res = await fetch(b.serviceUrl + path, {
        method: 'POST', headers: { ...FORM, ...headers },
        body: new URLSearchParams(params).toString(), redirect: 'manual' });
    const text = await res.text();
    let json;
    try {
        json = JSON.parse(text);
    } catch {
        json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
}

function basic(id, secret) {
    return { Authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` };
}

function assertOAuthError(r, status, error) {
    assert.equal(r.status, status, r.text);
    assert.equal(r.json?.error, error, r.text);
    assert.equal(typeof r.json.error_description, 'string');
    assert.equal(r.headers.get('cache-control'), 'no-store');
}

// A minimal browser: keeps cookies per name, sends them back.
class Browser {
    constructor(backend = null) { this.cookies = new Map(); this.backend = backend; }
    header() { return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '); }
    async go(method, path, params) {
        const res = await fetch((this.backend ?? b).serviceUrl + path, {
            method, redirect: 'manual',
            headers: { Cookie: this.header(), ...(params ? FORM : {}) },
            body: params ? new URLSearchParams(params).toString() : undefined });
        for (const c of res.headers.getSetCookie()) {
            const [pair] = c.split(';');
            const eq = pair.indexOf('=');
            this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        return { status: res.status, headers: res.headers, html: await res.text() };
    }
}

function hidden(html, name) {
    const m = html.match(new RegExp(`name="${name}" value="([^"]*)"`));
    assert.ok(m, `hidden input ${name} in ${html.slice(0, 400)}`);
    return m[1];
}

// The kinds of a client's active tokens (access, refresh), sorted, as the admin API lists them.
// One SQL statement on the running instance's SQLite file (triggers stand in for storage failures).
function sql(statement) {
    const r = spawnSync('python3', ['-c', 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()',
                                    join(b.dataDir, 'gatehouse.db'), statement], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
}

async function activeKinds(clientId) {
    const r = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(clientId)}`);
    assert.equal(r.status, 200, r.text);
    return r.json.items.map((t) => t.kind).sort();
}

before(async () => {
    // No per-address limit in the way of the sign-ins here (authcode and the attacks test it).
    b = await startBackend({ args: ['--oauth-lockout-threshold', '3'], env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
    const r = await adminFetch(b, 'POST', '/admin/v1/users', {
        username: 'dana', password: PASSWORD, email: 'dana@example.com', email_verified: true,
        name: 'Dana', groups: ['ops'] });
    assert.equal(r.status, 201, r.text);
    user = r.json;
});

after(async () => {
    if (b) {
        assert.equal(await b.stop(), 0, b.stderr);
        assert.ok(!b.stderr.includes(PASSWORD), 'no password in the log');
    }
});

test('token endpoint: unsupported_grant_type, invalid_request, invalid_client', async () => {
    const c = await register({ client_name: 'basic', grant_types: ['client_credentials'],
                               scope: 'orders:read' });
    assertOAuthError(await post('/oauth2/token', { grant_type: 'implicit' }, basic(c.client_id, c.client_secret)),
                     400, 'unsupported_grant_type');
    assertOAuthError(await post('/oauth2/token', {}, basic(c.client_id, c.client_secret)), 400, 'invalid_request');
    const repeated = await fetch(`${b.serviceUrl}/oauth2/token`, {
        method: 'POST', headers: { ...FORM, ...basic(c.client_id, c.client_secret) },
        body: 'grant_type=client_credentials&scope=a&scope=b' });
    assert.equal(repeated.status, 400);
    assert.equal((await repeated.json()).error, 'invalid_request');
    const wrong = await post('/oauth2/token', { grant_type: 'client_credentials' }, basic(c.client_id, 'nope'));
    assertOAuthError(wrong, 401, 'invalid_client');
    assert.match(wrong.headers.get('www-authenticate'), /^Basic/);
    const jsonBody = await fetch(`${b.serviceUrl}/oauth2/token`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', ...basic(c.client_id, c.client_secret) },
        body: '{"grant_type":"client_credentials"}' });
    assert.equal(jsonBody.status, 400);
});

test('password grant: tokens for a client registered with it, with id_token and refresh', async () => {
    const c = await register({ client_name: 'legacy app', grant_types: ['password', 'refresh_token'],
                               scope: 'openid email groups offline_access', token_endpoint_auth_method: 'client_secret_post' });
    const r = await post('/oauth2/token', { grant_type: 'password', username: 'dana', password: PASSWORD,
                                            scope: 'openid email offline_access', client_id: c.client_id,
                                            client_secret: c.client_secret });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.json.token_type, 'Bearer');
    assert.equal(r.json.scope, 'openid email offline_access');
    assert.ok(r.json.refresh_token);
    const jwks = jose.createRemoteJWKSet(new URL(`${b.serviceUrl}/oauth2/jwks`));
    const { payload } = await jose.jwtVerify(r.json.id_token, jwks, { issuer: b.serviceUrl, audience: c.client_id });
    assert.equal(payload.sub, user.id);
    assert.equal(payload.email, 'dana@example.com');
    const at = await jose.jwtVerify(r.json.access_token, jwks, { issuer: b.serviceUrl, typ: 'at+jwt' });
    assert.equal(at.payload.sub, user.id);
    assert.equal(at.payload.client_id, c.client_id);

    assertOAuthError(await post('/oauth2/token', { grant_type: 'password', username: 'dana', password: PASSWORD,
                                                   scope: 'orders:write', client_id: c.client_id,
                                                   client_secret: c.client_secret }), 400, 'invalid_scope');
    assertOAuthError(await post('/oauth2/token', { grant_type: 'password', username: 'dana',
                                                   client_id: c.client_id, client_secret: c.client_secret }),
                     400, 'invalid_request');
});

test('password grant: a refresh token only with offline_access, though the client has the refresh_token grant', async () => {
    const c = await register({ client_name: 'offline or not', grant_types: ['password', 'refresh_token'],
                               scope: 'openid email offline_access', token_endpoint_auth_method: 'client_secret_post' });
    const signIn = (scope) => post('/oauth2/token', { grant_type: 'password', username: 'dana', password: PASSWORD,
                                                      scope, client_id: c.client_id, client_secret: c.client_secret });
    const online = await signIn('openid email');
    assert.equal(online.status, 200, online.text);
    assert.equal(online.json.scope, 'openid email');
    assert.ok(online.json.access_token && online.json.id_token, 'an access token and an id_token');
    assert.equal(online.json.refresh_token, undefined, 'no refresh token without offline_access');
    assert.deepEqual(await activeKinds(c.client_id), ['access'], 'only the access token is stored');

    const offline = await signIn('openid email offline_access');
    assert.equal(offline.status, 200, offline.text);
    assert.equal(offline.json.scope, 'openid email offline_access');
    assert.ok(offline.json.refresh_token, 'a refresh token with offline_access');
    assert.deepEqual(await activeKinds(c.client_id), ['access', 'access', 'refresh']);
    const rotated = await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: offline.json.refresh_token,
                                                  client_id: c.client_id, client_secret: c.client_secret });
    assert.equal(rotated.status, 200, rotated.text);
    assert.ok(rotated.json.refresh_token && rotated.json.refresh_token !== offline.json.refresh_token, 'rotated');
});

test('password grant refused for a client without it, and wrong passwords lock the account', async () => {
    const without = await register({ client_name: 'no password', grant_types: ['client_credentials'],
                                     scope: 'openid' });
    assertOAuthError(await post('/oauth2/token', { grant_type: 'password', username: 'dana', password: PASSWORD },
                                basic(without.client_id, without.client_secret)), 400, 'unauthorized_client');

    const c = await register({ client_name: 'lockout', grant_types: ['password'], scope: 'openid' });
    await adminFetch(b, 'POST', '/admin/v1/users', { username: 'erin', password: 'erin password' });
    const attempt = (password) => post('/oauth2/token', { grant_type: 'password', username: 'erin', password },
                                       basic(c.client_id, c.client_secret));
    const wrong = await attempt('wrong password');
    assertOAuthError(wrong, 400, 'invalid_grant');
    for (let i = 1; i < 3; ++i)
        assertOAuthError(await attempt('wrong password'), 400, 'invalid_grant');
    // Locked now: even the right password gets the wrong one's answer, as does an unknown name
    // (only names that exist lock: another answer would tell that the name exists).
    const locked = await attempt('erin password');
    assertOAuthError(locked, 400, 'invalid_grant');
    assert.equal(locked.json.error_description, wrong.json.error_description);
    assert.doesNotMatch(locked.json.error_description, /locked/);
    const unknown = await post('/oauth2/token', { grant_type: 'password', username: 'nobody-at-all', password: 'x' },
                               basic(c.client_id, c.client_secret));
    assertOAuthError(unknown, 400, 'invalid_grant');
    assert.equal(unknown.json.error_description, wrong.json.error_description);
    const shown = await adminFetch(b, 'GET', '/admin/v1/users/erin');
    assert.equal(shown.json.locked, true);
    assert.ok(shown.json.lockedUntil);
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users/erin/unlock')).status, 200);
    assert.equal((await attempt('erin password')).status, 200);

    // An administrator's lock is told to the right password, within the threshold of attempts
    // since the lock (each counted): no way to guess on through its answer.
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users/erin/lock')).status, 200);
    const told = await attempt('erin password');
    assertOAuthError(told, 400, 'invalid_grant');
    assert.match(told.json.error_description, /locked by an administrator/);
    for (let i = 0; i < 2; ++i) {
        const guess = await attempt('wrong password');
        assertOAuthError(guess, 400, 'invalid_grant');
        assert.equal(guess.json.error_description, wrong.json.error_description, 'a wrong password is not told of the lock');
    }
    const afterThreshold = await attempt('erin password');
    assertOAuthError(afterThreshold, 400, 'invalid_grant');
    assert.equal(afterThreshold.json.error_description, wrong.json.error_description,
                 'past the threshold even the right password is not told');
    const adminLocked = (await adminFetch(b, 'GET', '/admin/v1/users/erin')).json;
    assert.equal(adminLocked.failedSignIns, 3);
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users/erin/unlock')).json.failedSignIns, 0);
    assert.equal((await attempt('erin password')).status, 200);
});

async function deviceAuthorization(client, params = {}) {
    const r = await post('/oauth2/device_authorization', { client_id: client.client_id, ...params });
    return r;
}

// The user's side: open verification_uri_complete, sign in, then allow or deny. `scopes`: what
// the confirmation page must list (exactly).
async function verify(userCode, decision, { signIn = true, browser = new Browser(), scopes = ['openid'] } = {}) {
    const form = await browser.go('GET', `/oauth2/device?user_code=${encodeURIComponent(userCode)}`);
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type'), /^text\/html/);
    assert.equal(form.headers.get('x-frame-options'), 'DENY');
    assert.ok(form.html.includes(`value="${userCode}"`), 'the code is filled in');
    const csrf = hidden(form.html, 'csrf');
    const params = { csrf, user_code: userCode.toLowerCase().replace('-', ' ') }; // typed loosely
    if (signIn)
        Object.assign(params, { username: 'dana', password: PASSWORD });
    const confirm = await browser.go('POST', '/oauth2/device', params);
    assert.equal(confirm.status, 200, confirm.html);
    assert.match(confirm.html, /id="client-name">device app</);
    assert.deepEqual([...confirm.html.matchAll(/data-scope="([^"]*)"/g)].map((m) => m[1]).sort(), [...scopes].sort());
    const done = await browser.go('POST', '/oauth2/device/confirm', {
        csrf: hidden(confirm.html, 'csrf'), user_code: hidden(confirm.html, 'user_code'), decision });
    assert.equal(done.status, 200, done.html);
    assert.match(done.html, decision === 'allow' ? /id="device-done"/ : /id="device-denied"/);
    return browser;
}

test('device flow: pending, slow_down, approval in the browser, tokens once', async () => {
    const c = await register({ client_name: 'device app', token_endpoint_auth_method: 'none',
                               grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
                               scope: 'openid profile offline_access' });
    const start = await deviceAuthorization(c, { scope: 'openid offline_access' });
    assert.equal(start.status, 200, start.text);
    assert.equal(start.headers.get('cache-control'), 'no-store');
    const d = start.json;
    assert.match(d.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(d.verification_uri, `${b.serviceUrl}/oauth2/device`);
    assert.equal(d.verification_uri_complete, `${d.verification_uri}?user_code=${d.user_code}`);
    assert.equal(d.expires_in, 600);
    assert.equal(d.interval, 5);
    const discovery = await (await fetch(`${b.serviceUrl}/.well-known/openid-configuration`)).json();
    assert.equal(discovery.device_authorization_endpoint, `${b.serviceUrl}/oauth2/device_authorization`);
    assert.ok(discovery.grant_types_supported.includes('urn:ietf:params:oauth:grant-type:device_code'));

    const poll = () => post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                               device_code: d.device_code, client_id: c.client_id });
    assertOAuthError(await poll(), 400, 'authorization_pending');
    const fast = await poll();
    assertOAuthError(fast, 400, 'slow_down');
    assert.match(fast.json.error_description, /10 s/);

    await verify(d.user_code, 'allow', { scopes: ['openid', 'offline_access'] });
    const tokens = await poll();
    assert.equal(tokens.status, 200, tokens.text);
    assert.equal(tokens.json.scope, 'openid offline_access');
    assert.ok(tokens.json.id_token && tokens.json.refresh_token);
    const userinfo = await fetch(`${b.serviceUrl}/oauth2/userinfo`, {
        headers: { Authorization: `Bearer ${tokens.json.access_token}` } });
    assert.equal((await userinfo.json()).sub, user.id);
    // Once only; presented again, what the first use got is revoked (as a code used twice).
    const again = await poll();
    assertOAuthError(again, 400, 'invalid_grant');
    assert.match(again.json.error_description, /already used; the tokens issued from it are revoked/);
    const afterReplay = await fetch(`${b.serviceUrl}/oauth2/userinfo`, {
        headers: { Authorization: `Bearer ${tokens.json.access_token}` } });
    assert.equal(afterReplay.status, 401);
    assertOAuthError(await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: tokens.json.refresh_token,
                                                   client_id: c.client_id }), 400, 'invalid_grant');

    assertOAuthError(await post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                                   device_code: 'not-a-code', client_id: c.client_id }),
                     400, 'invalid_grant');
    assertOAuthError(await post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                                   client_id: c.client_id }), 400, 'invalid_request');
});

test('device flow: taking the grant denies the codes handed out; revoking the consent ends an allowed device\'s tokens', async () => {
    const grants = ['urn:ietf:params:oauth:grant-type:device_code'];
    const metadata = { client_name: 'device app', token_endpoint_auth_method: 'none', grant_types: grants, scope: 'openid' };
    const c = await register(metadata);
    const poll = (d) => post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                                device_code: d.device_code, client_id: c.client_id });
    const waiting = (await deviceAuthorization(c)).json;
    const allowed = (await deviceAuthorization(c)).json;
    await verify(allowed.user_code, 'allow');
    // The grant taken (an administrator stopping a device-code phishing run) and given back:
    // the codes handed out before stay dead.
    const taken = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, {
        ...metadata, grant_types: ['authorization_code'], redirect_uris: ['https://app.example/cb'] });
    assert.equal(taken.status, 200, taken.text);
    const browser = new Browser();
    const csrf = hidden((await browser.go('GET', '/oauth2/device')).html, 'csrf');
    const entered = await browser.go('POST', '/oauth2/device', { csrf, user_code: waiting.user_code, username: 'dana',
                                                                  password: PASSWORD });
    assert.equal(entered.status, 400, 'the waiting code is no longer offered');
    assert.match(entered.html, /role="alert">This code is unknown/);
    const back = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, metadata);
    assert.equal(back.status, 200, back.text);
    assertOAuthError(await poll(waiting), 400, 'access_denied');
    assertOAuthError(await poll(allowed), 400, 'access_denied');

    // A device allowed stores no consent; revoking "the consent" still ends its tokens.
    const fresh = (await deviceAuthorization(c)).json;
    await verify(fresh.user_code, 'allow');
    const tokens = await poll(fresh);
    assert.equal(tokens.status, 200, tokens.text);
    const consents = await adminFetch(b, 'GET', `/admin/v1/consents?user=${user.id}&client=${c.client_id}`);
    assert.deepEqual(consents.json.items, []);
    const revoked = await adminFetch(b, 'DELETE', `/admin/v1/consents/${user.id}/${c.client_id}`);
    assert.equal(revoked.status, 204, revoked.text);
    const userinfo = await fetch(`${b.serviceUrl}/oauth2/userinfo`, {
        headers: { Authorization: `Bearer ${tokens.json.access_token}` } });
    assert.equal(userinfo.status, 401);
    // Nothing left: 404 as before.
    const again = await adminFetch(b, 'DELETE', `/admin/v1/consents/${user.id}/${c.client_id}`);
    assert.equal(again.status, 404, again.text);
    assert.equal(again.json.error, 'consent-not-found');
});

test('device flow: a client registered without any scope starts one (its codes are stored with an empty scope, not refused with a server error)', async () => {
    const c = await register({ client_name: 'scopeless device', token_endpoint_auth_method: 'none',
                               grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] });
    assert.equal(c.scope ?? '', '');
    const start = await deviceAuthorization(c);
    assert.equal(start.status, 200, start.text);
    const poll = await post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                               device_code: start.json.device_code, client_id: c.client_id });
    assertOAuthError(poll, 400, 'authorization_pending');
});

test('device flow: a scope an administrator took from the client while the code waited is neither shown nor issued', async () => {
    const metadata = { client_name: 'device app', token_endpoint_auth_method: 'none',
                       grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
                       scope: 'openid profile offline_access' };
    const c = await register(metadata);
    const d = (await deviceAuthorization(c, { scope: 'openid profile offline_access' })).json;
    const narrowed = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, { ...metadata, scope: 'openid' });
    assert.equal(narrowed.status, 200, narrowed.text);
    await verify(d.user_code, 'allow', { scopes: ['openid'] });
    const r = await post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                            device_code: d.device_code, client_id: c.client_id });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.scope, 'openid');
    assert.equal(r.json.refresh_token, undefined, 'no offline access left to give');
});

test('device flow: a refresh token only with offline_access, which the confirmation page lists', async () => {
    const c = await register({ client_name: 'device app', token_endpoint_auth_method: 'none',
                               grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
                               scope: 'openid profile offline_access' });
    const approved = async (scope) => {
        const d = (await deviceAuthorization(c, { scope })).json;
        await verify(d.user_code, 'allow', { scopes: scope.split(' ') });
        const r = await post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                                device_code: d.device_code, client_id: c.client_id });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.scope, scope);
        assert.ok(r.json.access_token && r.json.id_token, 'an access token and an id_token');
        return r.json;
    };
    const online = await approved('openid profile');
    assert.equal(online.refresh_token, undefined, 'no refresh token without offline_access');
    assert.deepEqual(await activeKinds(c.client_id), ['access'], 'only the access token is stored');

    const offline = await approved('openid offline_access');
    assert.ok(offline.refresh_token, 'a refresh token with offline_access');
    assert.deepEqual(await activeKinds(c.client_id), ['access', 'access', 'refresh']);
});

test('device flow: denied gives access_denied; an already signed-in browser only confirms', async () => {
    const c = await register({ client_name: 'device app', token_endpoint_auth_method: 'none',
                               grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], scope: 'openid' });
    const first = (await deviceAuthorization(c)).json;
    const browser = await verify(first.user_code, 'deny');
    assertOAuthError(await post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                                   device_code: first.device_code, client_id: c.client_id }),
                     400, 'access_denied');
    // The same browser has a session now: no password asked.
    const second = (await deviceAuthorization(c)).json;
    const page = await browser.go('GET', '/oauth2/device');
    assert.ok(!page.html.includes('id="password"'), 'signed in: no password field');
    await verify(second.user_code, 'allow', { signIn: false, browser });
    const ok = await post('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
                                             device_code: second.device_code, client_id: c.client_id });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.refresh_token, undefined, 'no refresh_token grant, no refresh token');
});

test('device flow: approvals posted straight to the confirmation count against the address\'s limit (RFC 8628 §5.1)', async () => {
    // Its own backend, with the default per-address limit lowered to 5 a minute.
    const own = await startBackend({ env: { GATEHOUSE_OAUTH_LOGIN_RATE: '5' } });
    try {
        const reg = await adminFetch(own, 'POST', '/admin/v1/clients', {
            client_name: 'device app', token_endpoint_auth_method: 'none',
            grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], scope: 'openid' });
        assert.equal(reg.status, 201, reg.text);
        assert.equal((await adminFetch(own, 'POST', '/admin/v1/users', { username: 'mallory', password: PASSWORD })).status, 201);
        const authorize = async () => {
            const r = await fetch(`${own.serviceUrl}/oauth2/device_authorization`, {
                method: 'POST', headers: FORM, body: new URLSearchParams({ client_id: reg.json.client_id }).toString() });
            assert.equal(r.status, 200);
            return r.json();
        };
        const poll = async (deviceCode) => {
            const r = await fetch(`${own.serviceUrl}/oauth2/token`, {
                method: 'POST', headers: FORM, body: new URLSearchParams({
                    grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode,
                    client_id: reg.json.client_id }).toString() });
            return { status: r.status, json: await r.json() };
        };
        // The attacker gets a session and a form by approving a code of their own (2 attempts).
        const mallory = new Browser(own);
        const mine = await authorize();
        const form = await mallory.go('GET', `/oauth2/device?user_code=${encodeURIComponent(mine.user_code)}`);
        const signedIn = await mallory.go('POST', '/oauth2/device', {
            csrf: hidden(form.html, 'csrf'), user_code: mine.user_code, username: 'mallory', password: PASSWORD });
        assert.equal(signedIn.status, 200, signedIn.html);
        const csrf = hidden(signedIn.html, 'csrf');
        const allow = (userCode) => mallory.go('POST', '/oauth2/device/confirm', { csrf, user_code: userCode, decision: 'allow' });
        assert.match((await allow(mine.user_code)).html, /id="device-done"/);
        // A victim's device waits for its user; the attacker guesses codes at the confirmation.
        const victim = await authorize();
        const answers = [];
        for (const guess of ['BCDF-GHJK', 'LMNP-QRST', 'VWXZ-BCDF', 'GHJK-LMNP'])
            answers.push((await allow(guess)).status);
        assert.deepEqual(answers, [400, 400, 400, 429], 'three guesses fill the 5 a minute, the fourth is refused');
        const limited = await allow(victim.user_code);
        assert.equal(limited.status, 429, 'the right code too, once limited');
        assert.ok(Number(limited.headers.get('retry-after')) >= 1, 'Retry-After');
        assert.match(limited.html, /Too many attempts/);
        const pending = await poll(victim.device_code);
        assert.equal(pending.status, 400);
        assert.equal(pending.json.error, 'authorization_pending', 'nothing was approved for the victim');
    } finally {
        assert.equal(await own.stop(), 0, own.stderr);
    }
});

test('device flow: a user\'s code entries are counted per user, also when each is a new sign-in from another address', async () => {
    const own = await startBackend({ args: ['--oauth-login-rate', '3'] });
    try {
        assert.equal((await adminFetch(own, 'POST', '/admin/v1/users', { username: 'erin', password: PASSWORD })).status, 201);
        const made = await adminFetch(own, 'POST', '/admin/v1/clients', {
            client_name: 'device app', token_endpoint_auth_method: 'none',
            grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], scope: 'openid' });
        assert.equal(made.status, 201, made.text);
        const started = await fetch(`${own.serviceUrl}/oauth2/device_authorization`, {
            method: 'POST', headers: FORM, body: new URLSearchParams({ client_id: made.json.client_id }).toString() });
        const live = (await started.json()).user_code;
        const page = await fetch(`${own.serviceUrl}/oauth2/device`);
        const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
        const csrf = hidden(await page.text(), 'csrf');
        // A new sign-in with each code, each from an address of its own (no session kept).
        const enter = (n, userCode) => fromAddress(`127.0.0.${20 + n}`, `${own.serviceUrl}/oauth2/device`, {
            method: 'POST', headers: { ...FORM, Cookie: cookie },
            body: new URLSearchParams({ csrf, user_code: userCode, username: 'erin', password: PASSWORD }).toString() });
        for (let n = 1; n <= 3; ++n) {
            const r = await enter(n, 'BCDF-GHJK');
            assert.equal(r.status, 400, r.text.slice(0, 300));
            assert.match(r.text, /role="alert">This code is unknown/);
        }
        for (const [n, code] of [[4, 'BCDF-GHJK'], [5, live]]) {
            const r = await enter(n, code);
            assert.equal(r.status, 429, r.text.slice(0, 300));
            assert.match(r.text, /role="alert">Too many codes entered/);
            assert.doesNotMatch(r.text, /device-confirm-form/);
            assert.ok(Number(r.headers['retry-after']) >= 1);
        }
    } finally {
        assert.equal(await own.stop(), 0, own.stderr);
    }
});

test('device flow: bad input on the pages and at the endpoint', async () => {
    const c = await register({ client_name: 'device app', token_endpoint_auth_method: 'none',
                               grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], scope: 'openid' });
    assertOAuthError(await deviceAuthorization(c, { scope: 'orders:write' }), 400, 'invalid_scope');
    assertOAuthError(await deviceAuthorization(c, { scope: 'openid', resource: 'https://partner.example/api' }),
                     400, 'invalid_target');
    const m2m = await register({ client_name: 'm2m', grant_types: ['client_credentials'], scope: 'openid' });
    assertOAuthError(await post('/oauth2/device_authorization', {}, basic(m2m.client_id, m2m.client_secret)),
                     400, 'unauthorized_client');
    assertOAuthError(await post('/oauth2/device_authorization', { client_id: 'nobody' }), 401, 'invalid_client');

    const browser = new Browser();
    const form = await browser.go('GET', '/oauth2/device');
    const csrf = hidden(form.html, 'csrf');
    const alertOf = (html) => /role="alert">([^<]*)</.exec(html)?.[1];
    const d = (await deviceAuthorization(c)).json;
    // Before a sign-in, a live code and an unknown one get one answer: whether a code waits
    // is told to a signed-in user only (it told anyone, with no account).
    const live = await browser.go('POST', '/oauth2/device', { csrf, user_code: d.user_code });
    const dead = await browser.go('POST', '/oauth2/device', { csrf, user_code: 'BCDF-GHJK' });
    assert.equal(live.status, 401);
    assert.equal(dead.status, 401);
    assert.equal(alertOf(dead.html), 'Enter your username and password.');
    assert.equal(alertOf(live.html), alertOf(dead.html));
    const wrongCodeWrongPassword = await browser.go('POST', '/oauth2/device', {
        csrf, user_code: 'BCDF-GHJK', username: 'dana', password: 'nope nope' });
    assert.equal(wrongCodeWrongPassword.status, 401);
    assert.match(wrongCodeWrongPassword.html, /role="alert">Wrong username or password/);
    const wrongPassword = await browser.go('POST', '/oauth2/device', { csrf, user_code: d.user_code,
                                                                        username: 'dana', password: 'nope nope' });
    assert.equal(wrongPassword.status, 401);
    assert.match(wrongPassword.html, /role="alert">Wrong username or password/);
    // Locked after the failures (3 here): the right password then gets the wrong one's answer.
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users', { username: 'frank', password: PASSWORD })).status, 201);
    const frank = (password) => browser.go('POST', '/oauth2/device', { csrf, user_code: d.user_code,
                                                                        username: 'frank', password });
    for (let i = 1; i <= 3; ++i)
        assert.equal((await frank(`wrong ${i}`)).status, 401, `failure ${i}`);
    assert.equal((await adminFetch(b, 'GET', '/admin/v1/users/frank')).json.locked, true);
    const whileLocked = await frank(PASSWORD);
    assert.equal(whileLocked.status, 401, 'the right password while locked');
    assert.equal(alertOf(whileLocked.html), alertOf(wrongPassword.html));
    assert.doesNotMatch(whileLocked.html, /locked/i);
    // An administrator's lock: told to the right password only.
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users/frank/unlock')).status, 200);
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users/frank/lock')).status, 200);
    const adminLockedWrong = await frank('wrong again');
    assert.equal(adminLockedWrong.status, 401);
    assert.equal(alertOf(adminLockedWrong.html), alertOf(wrongPassword.html));
    const adminLockedRight = await frank(PASSWORD);
    assert.equal(adminLockedRight.status, 403);
    assert.match(adminLockedRight.html, /role="alert">This account is locked by an administrator\./);
    const forged = await new Browser().go('POST', '/oauth2/device', { csrf, user_code: d.user_code,
                                                                       username: 'dana', password: PASSWORD });
    assert.equal(forged.status, 400, 'a CSRF token without its cookie is refused');
    assert.match(forged.html, /id="error-code">invalid_request/);
    const noSession = await new Browser().go('POST', '/oauth2/device/confirm', { csrf, user_code: d.user_code,
                                                                                  decision: 'allow' });
    assert.equal(noSession.status, 400);
    // Signed in, an unknown code is said, and the next one is entered without a password.
    const dana = new Browser();
    const danaCsrf = hidden((await dana.go('GET', '/oauth2/device')).html, 'csrf');
    const unknown = await dana.go('POST', '/oauth2/device', { csrf: danaCsrf, user_code: 'BCDF-GHJK', username: 'dana',
                                                              password: PASSWORD });
    assert.equal(unknown.status, 400);
    assert.match(unknown.html, /role="alert">This code is unknown/);
    assert.doesNotMatch(unknown.html, /id="password"/);
    const known = await dana.go('POST', '/oauth2/device', { csrf: danaCsrf, user_code: d.user_code });
    assert.equal(known.status, 200);
    assert.match(known.html, /id="device-confirm-form"/);
});

test('device flow: expired_token after the configured lifetime', async () => {
    const short = await startBackend({ args: ['--oauth-device-code-lifetime', '1s'] });
    try {
        const r = await fetch(`${short.adminUrl}/admin/v1/clients`, {
            method: 'POST', headers: { Authorization: `Bearer ${short.adminToken}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ client_name: 'tv', token_endpoint_auth_method: 'none',
                                   grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], scope: 'openid' }) });
        const c = await r.json();
        const form = (params) => ({ method: 'POST', headers: FORM, body: new URLSearchParams(params).toString() });
        const d = await (await fetch(`${short.serviceUrl}/oauth2/device_authorization`,
                                     form({ client_id: c.client_id }))).json();
        assert.equal(d.expires_in, 1);
        await new Promise((resolve) => setTimeout(resolve, 1200)); // a duration on purpose: past the 1 s lifetime
        const res = await fetch(`${short.serviceUrl}/oauth2/token`, form({
            grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: d.device_code,
            client_id: c.client_id }));
        assert.equal(res.status, 400);
        assert.equal((await res.json()).error, 'expired_token');
    } finally {
        assert.equal(await short.stop(), 0, short.stderr);
    }
});

test('refresh tokens: none outlives the sign-in by more than oauth-refresh-max-lifetime, however often rotated; a lowered limit holds for tokens issued before', async () => {
    const sleepUntil = (t) => new Promise((resolve) => setTimeout(resolve, Math.max(0, t - Date.now())));
    // A user, and a client with the password and refresh grants, on backend `be`.
    const setUp = async (be) => {
        const admin = (path, body) => fetch(`${be.adminUrl}${path}`, {
            method: 'POST', headers: { Authorization: `Bearer ${be.adminToken}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body) }).then((r) => r.json());
        await admin('/admin/v1/users', { username: 'gail', password: PASSWORD });
        return admin('/admin/v1/clients', { client_name: 'cli', grant_types: ['password', 'refresh_token'],
                                            scope: 'openid offline_access' });
    };
    const token = async (be, c, params) => {
        const res = await fetch(`${be.serviceUrl}/oauth2/token`, {
            method: 'POST', headers: { ...FORM, ...basic(c.client_id, c.client_secret) },
            body: new URLSearchParams(params).toString() });
        return { status: res.status, headers: res.headers, text: await res.clone().text(), json: await res.json() };
    };
    const signIn = (be, c) => token(be, c, { grant_type: 'password', username: 'gail', password: PASSWORD,
                                             scope: 'openid offline_access' });
    const refresh = (be, c, t) => token(be, c, { grant_type: 'refresh_token', refresh_token: t.json.refresh_token });

    const capped = await startBackend({ args: ['--oauth-refresh-max-lifetime', '8s'] });
    try {
        const c = await setUp(capped);
        const t0 = await signIn(capped, c);
        assert.equal(t0.status, 200, t0.text);
        const signedIn = Date.now(); // at the latest
        // Durations on purpose, around the 8 s after the sign-in (the refresh lifetime is 14
        // days): rotated early, the new token still ends 8 s after the sign-in. (8 s, not less:
        // under a loaded CI a refresh has been seen to take 1.5 s.)
        await sleepUntil(signedIn + 1_500);
        const t1 = await refresh(capped, c, t0);
        assert.equal(t1.status, 200, `rotated within the limit: ${t1.text}`);
        const listed = await fetch(`${capped.adminUrl}/admin/v1/tokens?client=${encodeURIComponent(c.client_id)}`, {
            headers: { Authorization: `Bearer ${capped.adminToken}` } }).then((r) => r.json());
        const refreshes = listed.items.filter((t) => t.kind === 'refresh');
        assert.equal(refreshes.length, 1, JSON.stringify(listed));
        assert.ok(Date.parse(refreshes[0].expiresAt) <= signedIn + 8_000, `expires at the limit: ${refreshes[0].expiresAt}`);
        await sleepUntil(signedIn + 8_100);
        const late = await refresh(capped, c, t1);
        assertOAuthError(late, 400, 'invalid_grant');
    } finally {
        assert.equal(await capped.stop(), 0, capped.stderr);
    }

    const plain = await startBackend(); // 90 days by default
    let lowered;
    try {
        const c = await setUp(plain);
        const t0 = await signIn(plain, c);
        assert.equal(t0.status, 200, t0.text);
        const signedIn = Date.now(); // at the latest
        const before = await fetch(`${plain.adminUrl}/admin/v1/tokens?client=${encodeURIComponent(c.client_id)}`, {
            headers: { Authorization: `Bearer ${plain.adminToken}` } }).then((x) => x.json());
        assert.equal(before.items.filter((t) => t.kind === 'refresh').length, 1, JSON.stringify(before));
        assert.equal(await plain.stop(), 0, plain.stderr);
        lowered = await startBackend({ dataDir: plain.dataDir, args: ['--oauth-refresh-max-lifetime', '1s'] });
        await sleepUntil(signedIn + 1_300);
        // Introspection and the administrator's list of active tokens agree with the refresh
        // grant: inactive.
        const listed = await fetch(`${lowered.adminUrl}/admin/v1/tokens?client=${encodeURIComponent(c.client_id)}`, {
            headers: { Authorization: `Bearer ${lowered.adminToken}` } }).then((x) => x.json());
        assert.deepEqual(listed.items.filter((t) => t.kind === 'refresh'), [], JSON.stringify(listed));
        const introspected = await fetch(`${lowered.serviceUrl}/oauth2/introspect`, {
            method: 'POST', headers: { ...FORM, ...basic(c.client_id, c.client_secret) },
            body: new URLSearchParams({ token: t0.json.refresh_token }).toString() }).then((x) => x.json());
        assert.deepEqual(introspected, { active: false });
        const r = await refresh(lowered, c, t0);
        assertOAuthError(r, 400, 'invalid_grant');
        assert.match(r.json.error_description, /sign-in of this refresh token is older than the server allows/);
    } finally {
        if (lowered)
            assert.equal(await lowered.stop(), 0, lowered.stderr);
        else
            await plain.stop();
    }
});

// --- the token preview (issue 8): a dry run of the real issuing code, each claim with its source
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const AT = 'urn:ietf:params:oauth:token-type:access_token';
const TIME_CLAIMS = ['iat', 'exp', 'jti'];

function withoutTime(claims) {
    return Object.fromEntries(Object.entries(claims).filter(([k]) => !TIME_CLAIMS.includes(k)));
}

async function preview(body) {
    return adminFetch(b, 'POST', '/admin/v1/tokens/preview', body);
}

async function activeCount(clientId) {
    const r = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(clientId)}`);
    assert.equal(r.status, 200, r.text);
    return r.json.items.length;
}

test('token preview: client_credentials equals the real token but time claims, each claim with its source, nothing stored', async () => {
    const c = await register({ client_name: 'preview svc', grant_types: ['client_credentials'],
                               scope: 'orders:read orders:write', allowed_resources: ['https://api.example/'] });
    const p = await preview({ client_id: c.client_id, grant_type: 'client_credentials',
                              scope: 'orders:read', resource: 'https://api.example/' });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.headers['cache-control'], 'no-store');
    assert.equal(p.json.stored, false);
    assert.equal(p.json.format, 'jwt');
    assert.ok(!/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/.test(p.text), 'no signed token in the preview');
    assert.equal(await activeCount(c.client_id), 0, 'the preview stored nothing');

    const real = await post('/oauth2/token', { grant_type: 'client_credentials', scope: 'orders:read',
                                               resource: 'https://api.example/' }, basic(c.client_id, c.client_secret));
    assert.equal(real.status, 200, real.text);
    const jwks = jose.createRemoteJWKSet(new URL(`${b.serviceUrl}/oauth2/jwks`));
    const { payload, protectedHeader } = await jose.jwtVerify(real.json.access_token, jwks, { issuer: b.serviceUrl, typ: 'at+jwt' });
    assert.deepEqual(withoutTime(p.json.claims), withoutTime(payload));
    assert.deepEqual(p.json.header, protectedHeader);
    assert.equal(p.json.claims.exp - p.json.claims.iat, payload.exp - payload.iat, 'the same lifetime');
    assert.equal(await activeCount(c.client_id), 1, 'only the real token is stored');

    const s = p.json.sources;
    assert.deepEqual(Object.keys(s).sort(), Object.keys(p.json.claims).sort(), 'every claim has a source');
    assert.equal(s.sub.source, 'clientRecord');
    assert.equal(s.aud.source, 'request');
    assert.match(s.aud.detail, /resource parameter/);
    assert.equal(s.scope.source, 'requestedScope');
    assert.equal(s.iss.source, 'server');
    assert.equal(s.client_id.source, 'clientRecord');
    assert.equal(s.exp.source, 'clientRecord');
    assert.match(s.exp.detail, /access_token_lifetime \(3600 s\)/);
    assert.equal(s.jti.source, 'random');
    // no scope, no resource: the client record decides the scope, and an orders scope the
    // audience (the orders API's resource indicator, RFC 9068 §3)
    const defaults = await preview({ client_id: c.client_id, grant_type: 'client_credentials' });
    assert.equal(defaults.json.claims.scope, 'orders:read orders:write');
    assert.equal(defaults.json.sources.scope.source, 'clientRecord');
    assert.equal(defaults.json.claims.aud, `${b.serviceUrl}/v1`);
    assert.equal(defaults.json.sources.aud.source, 'requestedScope');
    assert.match(defaults.json.sources.aud.detail, /orders-resource/);
    // a resource the client was not allowed
    const notAllowed = await preview({ client_id: c.client_id, grant_type: 'client_credentials',
                                       resource: 'https://elsewhere.example/' });
    assert.equal(notAllowed.status, 400, notAllowed.text);
    assert.equal(notAllowed.json.error, 'invalid_target');
    assert.match(notAllowed.json.message, /allowed_resources/);
});

test('token preview: a user grant labels user attributes and groups; token exchange labels the subject token and the exchange policy', async () => {
    const c = await register({ client_name: 'preview legacy', grant_types: ['password', 'refresh_token'],
                               scope: 'openid email groups orders:read offline_access',
                               token_endpoint_auth_method: 'client_secret_post' });
    const p = await preview({ client_id: c.client_id, grant_type: 'password', username: 'dana',
                              scope: 'email groups orders:read offline_access' });
    assert.equal(p.status, 200, p.text);
    const real = await post('/oauth2/token', { grant_type: 'password', username: 'dana', password: PASSWORD,
                                               scope: 'email groups orders:read offline_access', client_id: c.client_id,
                                               client_secret: c.client_secret });
    assert.equal(real.status, 200, real.text);
    const payload = jose.decodeJwt(real.json.access_token);
    assert.deepEqual(withoutTime(p.json.claims), withoutTime(payload));
    assert.equal(p.json.sources.sub.source, 'userAttribute');
    assert.equal(p.json.sources.email.source, 'userAttribute');
    assert.match(p.json.sources.email.detail, /user "dana", granted by scope email/);
    assert.equal(p.json.sources.groups.source, 'group');
    assert.match(p.json.sources.groups.detail, /\(ops\)/);
    assert.equal(p.json.sources.scope.source, 'requestedScope');
    assert.deepEqual(p.json.alsoIssued, ['refresh_token']);
    assert.ok(real.json.refresh_token, 'the real grant issued it too');
    const withOpenid = await preview({ client_id: c.client_id, grant_type: 'password', username: 'dana',
                                       scope: 'openid offline_access' });
    assert.deepEqual(withOpenid.json.alsoIssued, ['refresh_token', 'id_token']);
    // Without offline_access the preview shows no refresh token, as the grant issues none.
    for (const [scope, also] of [['email groups orders:read', []], ['openid', ['id_token']]]) {
        const online = await preview({ client_id: c.client_id, grant_type: 'password', username: 'dana', scope });
        assert.equal(online.status, 200, online.text);
        assert.deepEqual(online.json.alsoIssued, also, scope);
    }

    const api = 'https://api.example/exchange';
    const gateway = await register({ client_name: 'preview gateway', grant_types: [EXCHANGE],
                                     scope: 'orders:read email groups', token_exchange_audiences: [api] });
    const ex = await preview({ client_id: gateway.client_id, grant_type: EXCHANGE, subject_token: real.json.access_token,
                               subject_token_type: AT, audience: api });
    assert.equal(ex.status, 200, ex.text);
    const realEx = await post('/oauth2/token', { grant_type: EXCHANGE, subject_token: real.json.access_token,
                                                 subject_token_type: AT, audience: api }, basic(gateway.client_id, gateway.client_secret));
    assert.equal(realEx.status, 200, realEx.text);
    assert.deepEqual(withoutTime(ex.json.claims), withoutTime(jose.decodeJwt(realEx.json.access_token)));
    assert.equal(ex.json.sources.sub.source, 'subjectToken');
    assert.equal(ex.json.sources.aud.source, 'exchangePolicy');
    assert.equal(ex.json.sources.scope.source, 'subjectToken');
    assert.equal(ex.json.sources.groups.source, 'group');
    assert.equal(ex.json.claims.aud, api);
});

test('token preview: opaque tokens preview what introspection answers', async () => {
    const c = await register({ client_name: 'preview opaque', grant_types: ['client_credentials'],
                               scope: 'orders:read', access_token_format: 'opaque' });
    const p = await preview({ client_id: c.client_id, grant_type: 'client_credentials' });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.json.format, 'opaque');
    assert.equal(p.json.header, undefined);
    const real = await post('/oauth2/token', { grant_type: 'client_credentials' }, basic(c.client_id, c.client_secret));
    const intro = await post('/oauth2/introspect', { token: real.json.access_token }, basic(c.client_id, c.client_secret));
    assert.equal(intro.json.active, true, intro.text);
    for (const k of ['sub', 'scope', 'aud', 'client_id', 'iss'])
        assert.deepEqual(p.json.claims[k], intro.json[k], k);
    assert.equal(p.json.sources.sub.source, 'clientRecord');
});

test('token preview: bad input gets a clear error and stores nothing', async () => {
    const c = await register({ client_name: 'preview errors', grant_types: ['client_credentials'], scope: 'orders:read' });
    const cases = [
        [{ client_id: 'nope', grant_type: 'client_credentials' }, 404, 'invalid_client'],
        [{ client_id: c.client_id, grant_type: 'password', username: 'dana' }, 400, 'unauthorized_client'],
        [{ client_id: c.client_id, grant_type: 'client_credentials', scope: 'orders:write' }, 400, 'invalid_scope'],
        [{ client_id: c.client_id, grant_type: 'client_credentials', resource: 'not a uri#x' }, 400, 'invalid_target'],
        [{ client_id: c.client_id, grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' }, 400, 'unsupported_grant_type'],
        [{ client_id: c.client_id, grant_type: 'implicit' }, 400, 'unsupported_grant_type'],
        [{ client_id: c.client_id, grant_type: 'client_credentials', scope: 7 }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
        const r = await preview(body);
        assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
        assert.equal(r.json.error, code, r.text);
        assert.ok(r.json.message.length > 0);
    }
    const legacy = await register({ client_name: 'preview legacy 2', grant_types: ['password'], scope: 'email' });
    const noUser = await preview({ client_id: legacy.client_id, grant_type: 'password', username: 'nobody' });
    assert.equal(noUser.status, 400, noUser.text);
    assert.match(noUser.json.message, /username/);
    const malformed = await fetch(`${b.adminUrl}/admin/v1/tokens/preview`, {
        method: 'POST', headers: { Authorization: `Bearer ${b.adminToken}`, 'Content-Type': 'application/json' }, body: '{' });
    assert.equal(malformed.status, 400);
    assert.equal(await activeCount(c.client_id), 0);
});

test('effective access: every scope and claim a user or a client can obtain, each with its source', async () => {
    const legacy = await register({ client_name: 'access legacy', grant_types: ['password', 'refresh_token'],
                                    scope: 'openid email groups profile', token_endpoint_auth_method: 'client_secret_post' });
    const machine = await register({ client_name: 'access machine', grant_types: ['client_credentials', EXCHANGE],
                                     scope: 'orders:read', token_exchange_audiences: ['https://api.example/x'] });
    const u = await adminFetch(b, 'POST', '/admin/v1/oauth/access', { username: 'dana' });
    assert.equal(u.status, 200, u.text);
    assert.equal(u.json.subject.kind, 'user');
    assert.equal(u.json.subject.username, 'dana');
    const viaLegacy = u.json.clients.find((c) => c.clientId === legacy.client_id);
    assert.ok(viaLegacy, 'the password client can act for dana');
    assert.ok(!u.json.clients.some((c) => c.clientId === machine.client_id), 'a client_credentials client never acts for a user');
    assert.deepEqual(viaLegacy.scopes.map((s) => s.scope), ['openid', 'email', 'groups', 'profile']);
    assert.equal(viaLegacy.scopes[0].source, 'clientRecord');
    const at = viaLegacy.accessToken;
    assert.equal(at.claims.sub, user.id);
    assert.equal(at.sources.sub.source, 'userAttribute');
    assert.equal(at.claims.email, 'dana@example.com');
    assert.equal(at.sources.email.source, 'userAttribute');
    assert.deepEqual(at.claims.groups, ['ops']);
    assert.equal(at.sources.groups.source, 'group');
    // the id_token carries the profile claims the access token does not
    assert.equal(viaLegacy.idToken.claims.name, 'Dana');
    assert.equal(viaLegacy.idToken.sources.name.source, 'userAttribute');
    assert.equal(viaLegacy.idToken.claims.aud, legacy.client_id);
    assert.equal(viaLegacy.idToken.sources.aud.source, 'clientRecord');
    assert.equal(at.claims.name, undefined);
    assert.equal(await activeCount(legacy.client_id), 0, 'nothing was issued');

    const c = await adminFetch(b, 'POST', '/admin/v1/oauth/access', { client_id: machine.client_id });
    assert.equal(c.status, 200, c.text);
    assert.equal(c.json.subject.kind, 'client');
    assert.equal(c.json.actsForUsers, false);
    assert.deepEqual(c.json.audiences.map((a) => a.source), ['clientRecord', 'request', 'exchangePolicy']);
    assert.equal(c.json.audiences[1].audience, `${b.serviceUrl}/v1`, 'client_credentials: the orders API (an orders scope), not any URI');
    assert.equal(c.json.audiences[2].audience, 'https://api.example/x');
    assert.equal(c.json.clientCredentials.claims.sub, machine.client_id);
    assert.equal(c.json.clientCredentials.sources.scope.source, 'clientRecord');

    for (const [body, status] of [[{}, 400], [{ username: 'dana', client_id: machine.client_id }, 400],
                                  [{ username: 'nobody' }, 400], [{ client_id: 'nope' }, 404]]) {
        const r = await adminFetch(b, 'POST', '/admin/v1/oauth/access', body);
        assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
    }
});

// A storage failure answers what could not be done; the database's own text (tables,
// constraints, file paths) goes to the operator's log, never to the caller: before, a public
// device client and a registrant read it. SQLite triggers stand in for the failure.
test('a storage failure at device authorization and registration: server_error without the database\'s text, which the log has',
     { skip: POSTGRES_BASE ? 'SQLite triggers (the PostgreSQL run has its own failure tests)' : false }, async () => {
    const device = await register({ client_name: 'device under failure', token_endpoint_auth_method: 'none',
                                    grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], scope: 'openid' });
    const initial = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens', {});
    assert.equal(initial.status, 201, initial.text);
    sql("CREATE TRIGGER test_fail_device BEFORE INSERT ON oauth_device_codes BEGIN SELECT RAISE(ABORT, 'INTERNAL-DETAIL oauth_device_codes /var/lib/x'); END");
    sql("CREATE TRIGGER test_fail_register BEFORE INSERT ON oauth_clients BEGIN SELECT RAISE(ABORT, 'INTERNAL-DETAIL oauth_clients'); END");
    try {
        const d = await deviceAuthorization(device, { scope: 'openid' });
        assert.equal(d.status, 500, d.text);
        assert.deepEqual(d.json, { error: 'server_error', error_description: 'the device code could not be stored' });
        const registered = await fetch(`${b.serviceUrl}/oauth2/register`, {
            method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${initial.json.token}` },
            body: JSON.stringify({ client_name: 'registered under failure', redirect_uris: ['https://app.example/cb'] }) });
        const text = await registered.text();
        assert.equal(registered.status, 500, text);
        assert.deepEqual(JSON.parse(text), { error: 'server_error', error_description: 'the client could not be stored' });
        await waitFor(() => (b.stderr.match(/INTERNAL-DETAIL/g) ?? []).length >= 2 || null,
                      { message: 'both failures in the log' });
    } finally {
        sql('DROP TRIGGER test_fail_device');
        sql('DROP TRIGGER test_fail_register');
    }
    const again = await deviceAuthorization(device, { scope: 'openid' });
    assert.equal(again.status, 200, again.text);
});

// Revoking a refresh token's family is what stops a stolen refresh token: when the statement fails,
// a reuse and an administrator's revocation answer the failure, never success, and nothing is
// issued. Once the family can be revoked, the reuse revokes it. A SQLite trigger is the failure.
test('a refresh family that cannot be revoked: its reuse and an administrator\'s revocation answer an error; once it can be, the reuse revokes it',
     { skip: POSTGRES_BASE ? 'SQLite triggers (the PostgreSQL run has its own failure tests)' : false }, async () => {
    const c = await register({ client_name: 'family under failure', grant_types: ['password', 'refresh_token'],
                               scope: 'openid offline_access', token_endpoint_auth_method: 'client_secret_post' });
    const secret = { client_id: c.client_id, client_secret: c.client_secret };
    const first = await post('/oauth2/token', { grant_type: 'password', username: 'dana', password: PASSWORD,
                                                scope: 'openid offline_access', ...secret });
    assert.equal(first.status, 200, first.text);
    const rotated = await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: first.json.refresh_token, ...secret });
    assert.equal(rotated.status, 200, rotated.text);
    const live = async () => (await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(c.client_id)}`)).json.items;
    const newest = (await live()).find((t) => t.kind === 'refresh');
    assert.ok(newest, 'the rotated refresh token is live');
    sql("CREATE TRIGGER test_fail_family BEFORE UPDATE OF revoked_at ON oauth_tokens WHEN OLD.family IS NOT NULL BEGIN SELECT RAISE(ABORT, 'INTERNAL-DETAIL family'); END");
    try {
        const reuse = await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: first.json.refresh_token, ...secret });
        assert.equal(reuse.status, 500, reuse.text);
        assert.deepEqual(reuse.json, { error: 'server_error', error_description: 'the refresh token\'s family could not be revoked' });
        const del = await adminFetch(b, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(newest.id)}`);
        assert.equal(del.status, 500, del.text);
        assert.deepEqual(del.json, { error: 'revocation-failed', message: 'the token\'s family could not be revoked' });
        assert.equal((await live()).length, 3, 'nothing was revoked, and the caller was told');
    } finally {
        sql('DROP TRIGGER test_fail_family');
    }
    const reuse = await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: first.json.refresh_token, ...secret });
    assertOAuthError(reuse, 400, 'invalid_grant');
    assert.deepEqual(await live(), [], 'the whole family revoked');
    const stolen = await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: rotated.json.refresh_token, ...secret });
    assertOAuthError(stolen, 400, 'invalid_grant');
});
