// A real browser through the authorization code flow: Debian's headless Chromium driven by
// playwright-core logs in on the server-rendered login page, consents, and ends at the
// client's redirect URI (a small HTTP server here on 127.0.0.1 that records what arrives);
// the code is exchanged with oauth4webapi (PKCE, state, iss, nonce checked).
//
// Needs /usr/bin/chromium (Debian package `chromium`, scripts/dev.sh installs it); the
// executable can be overridden with GATEHOUSE_CHROMIUM. A missing browser fails the tests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import * as oauth from 'oauth4webapi';
import * as jose from 'jose';
import { chromium } from 'playwright-core';

import { startBackend, adminFetch, TIMEOUT_MS } from './lib/backend.mjs';

const CHROMIUM = process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium';
const opts = { [oauth.allowInsecureRequests]: true };
// A 1x1 PNG for the client's logo.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let b;
let as;
let browser;
let rp; // the client's own web server: {server, url, callbacks: URL[], logoRequests}
let client; // registered public client
let user;

async function startClientServer() {
    const state = { callbacks: [], logoRequests: 0 };
    const server = createServer((req, res) => {
        const url = new URL(req.url, `http://${req.headers.host}`);
        if (url.pathname === '/cb') {
            state.callbacks.push(url);
            res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
            res.end('<!doctype html><title>client</title><h1 id="done">Back at the client</h1>');
        } else if (url.pathname === '/logo.png') {
            state.logoRequests += 1;
            res.writeHead(200, { 'Content-Type': 'image/png' });
            res.end(PNG);
        } else {
            res.writeHead(404).end();
        }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return Object.assign(state, { server, url: `http://127.0.0.1:${server.address().port}` });
}

async function authorizeRequest(extra = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const params = { response_type: 'code', client_id: client.client_id, redirect_uri: client.redirect_uris[0],
                     scope: 'openid profile email orders:read offline_access', state: oauth.generateRandomState(),
                     nonce: oauth.generateRandomNonce(),
                     code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
                     ...extra };
    const url = new URL(as.authorization_endpoint);
    url.search = new URLSearchParams(params).toString();
    return { url, params, verifier };
}

const atCallback = (url) => url.href.startsWith(`${rp.url}/cb?`);

before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install the Debian package chromium (scripts/dev.sh test does)`);
    b = await startBackend();
    const issuer = new URL(b.serviceUrl);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...opts, algorithm: 'oidc' }));
    rp = await startClientServer();
    const reg = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'Browser Beer Shop', token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'], scope: 'openid profile email groups orders:read offline_access',
        redirect_uris: [`${rp.url}/cb`], logo_uri: `${rp.url}/logo.png` });
    assert.equal(reg.status, 201, reg.text);
    client = reg.json;
    const password = 'browser-password-1234';
    const u = await adminFetch(b, 'POST', '/admin/v1/users', { username: 'browser.user', password, email: 'b@example.org',
                                                                 email_verified: true, name: 'Browser User', groups: ['g'] });
    assert.equal(u.status, 201, u.text);
    user = { ...u.json, password };
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});

after(async () => {
    await browser?.close();
    rp?.server.close();
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

test('Chromium: login, consent, back at the redirect URI with code/state/iss; PKCE exchange', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(TIMEOUT_MS); // the suites' one bound for waitForURL() and the like
    try {
        const page = await context.newPage();
        const req = await authorizeRequest();
        const landing = await page.goto(req.url.href);
        assert.equal(landing.status(), 200);
        assert.equal(new URL(page.url()).pathname, '/oauth2/login', page.url());
        assert.equal(await page.getAttribute('#password', 'type'), 'password');

        await page.fill('#username', user.username);
        await page.fill('#password', user.password);
        await Promise.all([page.waitForURL((u) => u.pathname === '/oauth2/consent'), page.click('#login-submit')]);

        const cookies = await context.cookies(b.serviceUrl + '/oauth2/');
        const session = cookies.find((c) => c.name === 'gh_session');
        assert.ok(session, `gh_session set: ${JSON.stringify(cookies)}`);
        assert.equal(session.httpOnly, true);
        assert.equal(session.sameSite, 'Lax');
        assert.equal(session.path, '/oauth2');
        assert.equal(await page.evaluate(() => document.cookie), '', 'no cookie readable by script');

        // What the user is asked: the client by name and logo, one item per scope.
        assert.ok((await page.textContent('h1')).includes('Browser Beer Shop'));
        const logo = page.locator('#client-logo');
        assert.equal(await logo.getAttribute('src'), client.logo_uri);
        assert.ok(await logo.isVisible(), 'the logo is shown');
        assert.ok(await logo.evaluate((img) => img.complete && img.naturalWidth === 1), 'the logo loaded');
        assert.ok(rp.logoRequests >= 1, 'the browser fetched the logo');
        const scopes = await page.locator('#scopes li[data-scope]').evaluateAll((lis) => lis.map((li) => li.dataset.scope));
        assert.deepEqual(scopes.sort(), ['email', 'offline_access', 'openid', 'orders:read', 'profile']);
        // offline_access is what brings the refresh token below (OpenID Connect Core §11).
        assert.match(await page.textContent('#scopes li[data-scope="offline_access"]'), /Stay signed in/,
                     'offline_access is shown as staying signed in');
        assert.ok(await page.locator('#consent-deny').isVisible());

        await Promise.all([page.waitForURL(atCallback), page.click('#consent-allow')]);
        assert.equal(await page.textContent('#done'), 'Back at the client');
        const callback = rp.callbacks.at(-1);
        assert.equal(callback.href, page.url());
        assert.equal(callback.searchParams.get('state'), req.params.state);
        assert.equal(callback.searchParams.get('iss'), b.serviceUrl);
        assert.ok(callback.searchParams.get('code'));

        const c = { client_id: client.client_id };
        const params = oauth.validateAuthResponse(as, c, callback, req.params.state);
        const tokens = await oauth.processAuthorizationCodeResponse(as, c,
            await oauth.authorizationCodeGrantRequest(as, c, oauth.None(), params, req.params.redirect_uri, req.verifier, opts),
            { expectedNonce: req.params.nonce, requireIdToken: true });
        assert.equal(tokens.token_type, 'bearer');
        assert.ok(tokens.refresh_token, 'a refresh token for offline_access');
        const jwks = jose.createRemoteJWKSet(new URL(as.jwks_uri));
        const { payload } = await jose.jwtVerify(tokens.id_token, jwks, { issuer: b.serviceUrl, audience: client.client_id });
        assert.equal(payload.sub, user.id);
        assert.equal(payload.nonce, req.params.nonce);
        assert.equal(payload.preferred_username, user.username);
        assert.equal(payload.email, user.email);
        const at = await jose.jwtVerify(tokens.access_token, jwks, { issuer: b.serviceUrl, typ: 'at+jwt' });
        assert.equal(at.payload.sub, user.id);

        // The same browser again: session and consent remembered, straight back to the client.
        const again = await authorizeRequest({ scope: 'openid email' });
        await page.goto(again.url.href);
        await page.waitForURL(atCallback);
        assert.equal(rp.callbacks.at(-1).searchParams.get('state'), again.params.state);
        assert.ok(rp.callbacks.at(-1).searchParams.get('code'));
    } finally {
        await context.close();
    }
});

test('Chromium: a wrong password shows the alert on the login page; the right one then goes on', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(TIMEOUT_MS); // the suites' one bound for waitForURL() and the like
    try {
        const page = await context.newPage();
        // groups: a scope not consented to yet, so the consent page comes after the login.
        const req = await authorizeRequest({ scope: 'openid groups' });
        await page.goto(req.url.href);
        await page.fill('#username', user.username);
        await page.fill('#password', 'definitely-not-it');
        const [resp] = await Promise.all([
            page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth2/login' && r.request().method() === 'POST'),
            page.click('#login-submit'),
        ]);
        assert.equal(resp.status(), 401);
        const alert = page.locator('p.error[role="alert"]');
        await alert.waitFor({ state: 'visible' });
        assert.ok((await alert.textContent()).trim().length > 0, 'the alert says something');
        assert.equal(await page.inputValue('#password'), '', 'the password field is empty again');
        assert.ok(!(await page.content()).includes('definitely-not-it'), 'the wrong password is not in the page');

        await page.fill('#username', user.username);
        await page.fill('#password', user.password);
        await Promise.all([page.waitForURL((u) => u.pathname === '/oauth2/consent'), page.click('#login-submit')]);
        await Promise.all([page.waitForURL(atCallback), page.click('#consent-deny')]);
        const callback = rp.callbacks.at(-1);
        assert.equal(callback.searchParams.get('error'), 'access_denied');
        assert.equal(callback.searchParams.get('state'), req.params.state);
        assert.equal(callback.searchParams.get('iss'), b.serviceUrl);
    } finally {
        await context.close();
    }
});
