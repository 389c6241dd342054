// The authorization server, second slice (docs/oauth.md, "Second slice"): users through the
// admin API, the authorization code flow with PKCE driven by fetch (a tiny cookie jar, the
// login and consent pages parsed from their HTML), refresh token rotation and reuse
// detection, the id_token (oauth4webapi, jose, openid-client and Debian's python3-jwcrypto
// as relying parties) and userinfo. Every case asserts what a user or a client sees: status,
// headers, body fields, the parts of a redirect's Location.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import * as oauth from 'oauth4webapi';
import * as jose from 'jose';
import * as oidc from 'openid-client';

import { startBackend, adminFetch, request, readEvents, binaryPath, waitFor } from './lib/backend.mjs';
import { UserAgent, element, form, assertErrorPage, tags, textOf } from './lib/browser.mjs';

const opts = { [oauth.allowInsecureRequests]: true };
const FULL_SCOPE = 'openid profile email groups orders:read offline_access';
// The default request's scope with offline_access: only then does a user grant bring a refresh
// token (OpenID Connect Core §11).
const OFFLINE_SCOPE = 'openid profile email offline_access';
// Debian's python3 (where python3-jwcrypto lives), not whatever python3 is first on PATH.
const PYTHON = process.env.GATEHOUSE_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const VERIFY_ID_TOKEN = fileURLToPath(new URL('./verify_id_token.py', import.meta.url));

let b;
let issuer; // b.serviceUrl, the issuer byte for byte
let as; // discovered authorization server metadata
let jwks;
let spa; // public client, PKCE, one redirect URI, a logo and a name that needs escaping
let spa2; // another public client
let web; // confidential client (client_secret_basic)
let multi; // public client with two redirect URIs
let m2m; // confidential client_credentials client with a redirect URI: a resource server for the
         // orders API (orders:read), introspects other clients' access tokens for it, no code flow
const passwords = new Set(); // every password sent; none may show up in the backend's stderr

// secure (an https issuer): the cookie is named with the __Host- prefix, Secure, Path=/ (a
// sibling subdomain cannot set such a cookie); otherwise its plain name, Path=/oauth2.
function assertCookie(r, base, what, { secure = false } = {}) {
    const name = secure ? `__Host-${base}` : base;
    const c = r.setCookies.find((x) => x.name === name);
    assert.ok(c, `${what}: Set-Cookie ${name}; got ${JSON.stringify(r.setCookies)}`);
    assert.ok(c.value.length >= 16, `${what}: ${name} carries an unguessable value`);
    assert.equal(c.attrs.httponly, true, `${what}: ${name} HttpOnly`);
    assert.equal(String(c.attrs.samesite).toLowerCase(), 'lax', `${what}: ${name} SameSite=Lax`);
    assert.equal(c.attrs.path, secure ? '/' : '/oauth2', `${what}: ${name} Path`);
    assert.equal(c.attrs.domain, undefined, `${what}: ${name} no Domain`);
    assert.equal(Boolean(c.attrs.secure), secure, `${what}: ${name} Secure exactly when the issuer is https`);
    return c;
}

// ---------------------------------------------------------------------------------------------
// Admin API, users and clients.

async function register(metadata) {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', metadata);
    assert.equal(r.status, 201, r.text);
    const c = r.json;
    c.auth = c.client_secret ? oauth.ClientSecretBasic(c.client_secret) : oauth.None();
    return c;
}

let userCounter = 0;

// A new user (fields may be overridden) with a random password; resolves to the record plus
// `password`.
async function createUser(fields = {}) {
    userCounter += 1;
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    const body = { username: `user${userCounter}.${randomBytes(3).toString('hex')}`, password,
                   email: `user${userCounter}@example.org`, email_verified: true,
                   name: `User Number ${userCounter}`, groups: ['brewers', 'tasters'], ...fields };
    passwords.add(body.password);
    const r = await adminFetch(b, 'POST', '/admin/v1/users', body);
    assert.equal(r.status, 201, r.text);
    return { ...r.json, password: body.password };
}

function assertNoSecrets(r, password, what) {
    assert.ok(!r.text.includes(password), `${what}: the password is not in the answer`);
    assert.ok(!/argon2|password/i.test(r.text), `${what}: no password or hash field: ${r.text}`);
}

// ---------------------------------------------------------------------------------------------
// The authorization request, login and consent.

function authorizeUrl(params, extraPairs = []) {
    const u = new URL(as.authorization_endpoint);
    for (const [k, v] of Object.entries(params))
        if (v !== undefined)
            u.searchParams.append(k, v);
    for (const [k, v] of extraPairs) u.searchParams.append(k, v);
    return u;
}

// Parameters of a fresh request for client `c` (PKCE S256, state, nonce); `extra` overrides,
// an undefined value leaves a parameter out.
async function newRequest(c, extra = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const params = { response_type: 'code', client_id: c.client_id, redirect_uri: c.redirect_uris[0],
                     scope: 'openid profile email', state: oauth.generateRandomState(),
                     nonce: oauth.generateRandomNonce(),
                     code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
                     code_challenge_method: 'S256', ...extra };
    return { params, verifier };
}

function locationBase(loc) {
    return `${loc.origin}${loc.pathname}`;
}

function assertRedirectedTo(r, redirectUri, what) {
    assert.equal(r.status, 303, `${what}: 303 (${r.text.slice(0, 400)})`);
    assert.ok(r.location, `${what}: a Location`);
    assert.equal(locationBase(r.location), redirectUri, `${what}: back to the redirect URI (${r.rawLocation})`);
}

// An error redirect (RFC 6749 §4.1.2.1, RFC 9207): error, error_description, state, iss; no code.
function assertErrorRedirect(r, redirectUri, error, state, what) {
    assert.ok([302, 303].includes(r.status), `${what}: redirected, got ${r.status} (${r.text.slice(0, 400)})`);
    assert.equal(locationBase(r.location), redirectUri, `${what}: to the redirect URI (${r.rawLocation})`);
    const q = r.location.searchParams;
    assert.equal(q.get('error'), error, `${what}: error (${r.rawLocation})`);
    assert.ok(q.get('error_description'), `${what}: error_description`);
    assert.equal(q.get('state'), state, `${what}: state echoed`);
    assert.equal(q.get('iss'), issuer, `${what}: iss`);
    assert.equal(q.get('code'), null, `${what}: no code`);
}

async function loginPage(ua, url) {
    const r = await ua.fetch(url);
    assert.equal(r.status, 200, `login page: ${r.text.slice(0, 400)}`);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    return r;
}

// Posts the login form of `page` (a response showing the login form) to `base`.
function submitLogin(ua, page, username, password, base = as.issuer) {
    const f = form(page.text, 'login-form');
    return ua.fetch(new URL(f.action, base), { method: 'POST', form: { ...f.fields, username, password } });
}

async function consentPage(ua, url) {
    const r = await ua.fetch(url);
    assert.equal(r.status, 200, `consent page: ${r.text.slice(0, 400)}`);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    return r;
}

function submitConsent(ua, page, decision, base = as.issuer) {
    const f = form(page.text, 'consent-form');
    return ua.fetch(new URL(f.action, base), { method: 'POST', form: { ...f.fields, decision } });
}

const isPage = (loc, path) => loc && loc.origin === issuer && loc.pathname === path;

// The whole front channel: authorize, log in when asked, consent when asked. Resolves to
// {params, verifier, ua, callback (the final Location URL), steps (['login', 'consent']),
// consent (the consent page's response, when it was shown)}.
async function runFlow(c, user, { ua = new UserAgent(), extra = {}, decision = 'allow' } = {}) {
    const req = await newRequest(c, extra);
    const steps = [];
    let consent;
    let r = await ua.fetch(authorizeUrl(req.params));
    assert.equal(r.status, 303, `authorize: ${r.text.slice(0, 400)}`);
    if (isPage(r.location, '/oauth2/login')) {
        steps.push('login');
        r = await submitLogin(ua, await loginPage(ua, r.location), user.username, user.password);
        assert.equal(r.status, 303, `login: ${r.text.slice(0, 400)}`);
    }
    if (isPage(r.location, '/oauth2/consent')) {
        steps.push('consent');
        consent = await consentPage(ua, r.location);
        r = await submitConsent(ua, consent, decision);
    }
    assert.ok([302, 303].includes(r.status), `back to the client: ${r.status} ${r.text.slice(0, 400)}`);
    assert.equal(locationBase(r.location), req.params.redirect_uri ?? c.redirect_uris[0]);
    return { ...req, ua, callback: r.location, steps, consent };
}

// The scopes a consent page lists (its <li data-scope> items), sorted.
function listedScopes(page) {
    return tags(page.text).filter((t) => t.tag === 'li' && t.attrs['data-scope'] !== undefined)
                          .map((t) => t.attrs['data-scope']).sort();
}

// The code exchange through oauth4webapi (state and iss checked, id_token claims validated,
// nonce compared).
async function exchange(c, flow) {
    const client = { client_id: c.client_id };
    const params = oauth.validateAuthResponse(as, client, flow.callback, flow.params.state);
    const resp = await oauth.authorizationCodeGrantRequest(as, client, c.auth, params,
                                                           flow.params.redirect_uri, flow.verifier, opts);
    assert.equal(resp.headers.get('cache-control'), 'no-store');
    if (!flow.params.scope.split(' ').includes('openid'))
        return oauth.processAuthorizationCodeResponse(as, client, resp);
    return oauth.processAuthorizationCodeResponse(as, client, resp,
                                                  { expectedNonce: flow.params.nonce, requireIdToken: true });
}

async function refresh(c, refreshToken, scope) {
    const client = { client_id: c.client_id };
    const additionalParameters = scope === undefined ? undefined : { scope };
    return oauth.processRefreshTokenResponse(as, client,
        await oauth.refreshTokenGrantRequest(as, client, c.auth, refreshToken, { ...opts, additionalParameters }));
}

// A raw token request by client `c` (Basic for confidential clients, client_id otherwise).
function tokenRequest(c, fields) {
    const body = new URLSearchParams(fields);
    const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
    if (c.client_secret)
        headers.Authorization = 'Basic ' + Buffer.from(`${encodeURIComponent(c.client_id)}:${encodeURIComponent(c.client_secret)}`).toString('base64');
    else
        body.set('client_id', c.client_id);
    return request(as.token_endpoint, 'POST', body.toString(), headers);
}

function assertTokenError(r, errors, what) {
    const allowed = [errors].flat();
    assert.equal(r.status, 400, `${what}: status (${r.text})`);
    assert.ok(allowed.includes(r.json?.error), `${what}: error ${allowed.join(' or ')}, got ${r.text}`);
    assert.equal(r.headers['cache-control'], 'no-store', `${what}: no-store`);
}

// Introspection by the resource server m2m (RFC 7662): it learns about other clients' access
// tokens for the orders API only (a user token with an orders: scope), never about their refresh
// tokens nor tokens for another audience ({"active": false} as for an unknown token). A check
// that a token is dead uses it only where it answers true while the token lives.
async function introspect(token) {
    const client = { client_id: m2m.client_id };
    return oauth.processIntrospectionResponse(as, client,
        await oauth.introspectionRequest(as, client, m2m.auth, token, opts));
}

// The kinds (access, refresh) of the ACTIVE tokens client `c` holds for user `userId`, sorted,
// as the admin API lists them: the oracle for refresh tokens, which no resource server may
// introspect.
async function activeKinds(c, userId) {
    const r = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(c.client_id)}&user=${encodeURIComponent(userId)}`);
    assert.equal(r.status, 200, r.text);
    for (const t of r.json.items)
        assert.ok(t.clientId === c.client_id && t.subject === userId, `listed for the client and the user: ${JSON.stringify(t)}`);
    return r.json.items.map((t) => t.kind).sort();
}

const atHash = (accessToken) => createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
const sorted = (scope) => scope.split(' ').filter(Boolean).sort();

function userinfo(token, method = 'GET') {
    const headers = token === undefined ? {} : { Authorization: `Bearer ${token}` };
    return request(as.userinfo_endpoint, method, undefined, headers);
}

function runPython(args, input) {
    return new Promise((resolve, reject) => {
        const p = spawn(PYTHON, [VERIFY_ID_TOKEN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (d) => { stdout += d; });
        p.stderr.on('data', (d) => { stderr += d; });
        p.on('error', reject);
        p.on('close', (code) => resolve({ code, stdout, stderr }));
        p.stdin.end(input);
    });
}

// ---------------------------------------------------------------------------------------------

before(async () => {
    // The per-address login rate limit is tested on its own backend (with the default); here
    // dozens of logins come from 127.0.0.1 within a minute.
    b = await startBackend({ env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
    issuer = b.serviceUrl;
    as = await oauth.processDiscoveryResponse(new URL(issuer),
        await oauth.discoveryRequest(new URL(issuer), { ...opts, algorithm: 'oidc' }));
    jwks = jose.createRemoteJWKSet(new URL(as.jwks_uri));
    const codeClient = { grant_types: ['authorization_code', 'refresh_token'], scope: FULL_SCOPE };
    spa = await register({ ...codeClient, client_name: 'Beer & "Co" <shop>', token_endpoint_auth_method: 'none',
                           redirect_uris: ['http://127.0.0.1:9/cb'], logo_uri: 'https://cdn.example.org/beer-logo.png' });
    spa2 = await register({ ...codeClient, client_name: 'Other app', token_endpoint_auth_method: 'none',
                            redirect_uris: ['http://127.0.0.1:9/other'] });
    web = await register({ ...codeClient, client_name: 'Web shop', token_endpoint_auth_method: 'client_secret_basic',
                           redirect_uris: ['https://shop.example.org/callback'] });
    multi = await register({ ...codeClient, client_name: 'Two doors', token_endpoint_auth_method: 'none',
                             redirect_uris: ['http://127.0.0.1:9/one', 'http://127.0.0.1:9/two'] });
    // A resource server: it may introspect other clients' tokens (RFC 7662 §4).
    m2m = await register({ client_name: 'Introspector', grant_types: ['client_credentials'], scope: 'orders:read',
                           token_endpoint_auth_method: 'client_secret_basic', redirect_uris: ['http://127.0.0.1:9/m2m'],
                           resource_server: true });
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

// --- discovery -------------------------------------------------------------------------------

test('discovery: authorization and userinfo endpoints, code + S256 only, RFC 9207 iss', async () => {
    assert.equal(as.issuer, issuer);
    assert.equal(as.authorization_endpoint, `${issuer}/oauth2/authorize`);
    assert.equal(as.userinfo_endpoint, `${issuer}/oauth2/userinfo`);
    assert.deepEqual(as.response_types_supported, ['code']);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    for (const g of ['authorization_code', 'refresh_token', 'client_credentials'])
        assert.ok(as.grant_types_supported.includes(g), `grant_types_supported has ${g}: ${as.grant_types_supported}`);
    const rfc8414 = await request(`${issuer}/.well-known/oauth-authorization-server`, 'GET');
    assert.deepEqual(rfc8414.json, as, 'both well-known documents alike');
});

test('discovery: the OpenID Provider Metadata that OIDC Discovery 1.0 §3 requires', () => {
    assert.ok(Array.isArray(as.subject_types_supported) && as.subject_types_supported.length > 0,
              `subject_types_supported: ${as.subject_types_supported}`);
    assert.ok(as.id_token_signing_alg_values_supported?.includes('RS256'),
              `id_token_signing_alg_values_supported: ${as.id_token_signing_alg_values_supported}`);
});

// --- users admin API -------------------------------------------------------------------------

test('users: created (201) without password or hash; read by id and by username; listed', async () => {
    const body = { username: 'Alice.B_c@d-9', password: 'correct horse battery', email: 'alice@example.org',
                   email_verified: true, name: 'Alice B', groups: ['admins', 'brewers'] };
    passwords.add(body.password);
    const r = await adminFetch(b, 'POST', '/admin/v1/users', body);
    assert.equal(r.status, 201, r.text);
    assertNoSecrets(r, body.password, 'create');
    const u = r.json;
    assert.ok(typeof u.id === 'string' && u.id.length > 0);
    assert.equal(u.username, body.username);
    assert.equal(u.email, body.email);
    assert.equal(u.email_verified, true);
    assert.equal(u.name, body.name);
    assert.deepEqual(u.groups, body.groups);
    assert.equal(u.locked, false);
    assert.equal(u.lockedUntil, undefined, 'lockedUntil only while locked');
    assert.ok(u.createdAt, 'createdAt');

    for (const key of [u.id, u.username, encodeURIComponent(u.username)]) {
        const g = await adminFetch(b, 'GET', `/admin/v1/users/${key}`);
        assert.equal(g.status, 200, `GET by ${key}: ${g.text}`);
        assert.deepEqual(g.json, u);
        assertNoSecrets(g, body.password, `GET ${key}`);
    }
    const list = await adminFetch(b, 'GET', '/admin/v1/users');
    assert.equal(list.status, 200);
    assert.deepEqual(list.json.items.find((x) => x.id === u.id), u);
    assertNoSecrets(list, body.password, 'list');

    // The edges of what is allowed: 64 characters; 8 bytes that are 4 characters.
    const long = await adminFetch(b, 'POST', '/admin/v1/users', { username: 'x'.repeat(64), password: 'üüüü' });
    assert.equal(long.status, 201, `64-character username, 8-byte password: ${long.text}`);
    assert.deepEqual(long.json.groups ?? [], []);
});

// The stored argon2id hash of a user (its PHC string), from the backend's own database.
function storedPasswordHash(backend, username) {
    const sql = 'SELECT password_hash FROM oauth_users WHERE username = ';
    const pg = join(backend.dataDir, 'postgres-database');
    const r = existsSync(pg)
        ? spawnSync('psql', [readFileSync(pg, 'utf8').trim(), '-At', '-v', `u=${username}`, '-f', '-'],
                    { input: `${sql}:'u';\n`, encoding: 'utf8' })
        : spawnSync('python3', ['-c', `import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(
                    "${sql}?", (sys.argv[2],)).fetchone()[0])`, join(backend.dataDir, 'gatehouse.db'), username],
                    { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
}

test('users: new passwords get the configured argon2id cost (64 MiB, 3 passes unless set); below OWASP\'s minimum the start is refused', async () => {
    // The suite's backends hash at OWASP's least cost (tests/e2e/lib/backend.mjs).
    const cheap = await adminFetch(b, 'POST', '/admin/v1/users', { username: 'cost.set', password: 'a long password' });
    assert.equal(cheap.status, 201, cheap.text);
    assert.match(storedPasswordHash(b, 'cost.set'), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);

    // Nothing set: Gatehouse's own default; and such a user signs in on the other backend's
    // password check too (the cost is read from each stored hash).
    const plain = await startBackend({ env: { GATEHOUSE_PASSWORD_HASH_MEMORY: null,
                                              GATEHOUSE_PASSWORD_HASH_ITERATIONS: null } });
    try {
        const r = await adminFetch(plain, 'POST', '/admin/v1/users', { username: 'cost.default', password: 'a long password' });
        assert.equal(r.status, 201, r.text);
        assert.match(storedPasswordHash(plain, 'cost.default'), /^\$argon2id\$v=19\$m=65536,t=3,p=1\$/);
        const s = await adminFetch(plain, 'GET', '/admin/v1/settings/password-hash-memory');
        assert.equal(s.status, 200, s.text);
        assert.equal(s.json.value, '65536');
        assert.equal(s.json.source, 'default');
    } finally {
        assert.equal(await plain.stop(), 0, plain.stderr);
    }

    // The same database at the suite's cheaper cost: a wrong password changes nothing; a
    // sign-in makes the hash again at the current cost, and the password still works.
    const cheaper = await startBackend({ dataDir: plain.dataDir });
    try {
        const c = await adminFetch(cheaper, 'POST', '/admin/v1/clients', {
            client_name: 'legacy', grant_types: ['password'], scope: 'openid',
            token_endpoint_auth_method: 'client_secret_post' });
        assert.equal(c.status, 201, c.text);
        const signIn = (password) => request(`${cheaper.serviceUrl}/oauth2/token`, 'POST',
            new URLSearchParams({ grant_type: 'password', username: 'cost.default', password, scope: 'openid',
                                  client_id: c.json.client_id, client_secret: c.json.client_secret }).toString(),
            { 'Content-Type': 'application/x-www-form-urlencoded' });
        const before = storedPasswordHash(cheaper, 'cost.default');
        assert.equal((await signIn('not the password')).status, 400);
        assert.equal(storedPasswordHash(cheaper, 'cost.default'), before, 'a wrong password changes nothing');
        const ok = await signIn('a long password');
        assert.equal(ok.status, 200, ok.text);
        await waitFor(() => /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/.test(storedPasswordHash(cheaper, 'cost.default')),
                      { message: 'the hash made again at the current cost' });
        assert.equal((await signIn('a long password')).status, 200, 'the password still works');
        assert.equal((await signIn('not the password')).status, 400);
    } finally {
        assert.equal(await cheaper.stop(), 0, cheaper.stderr);
    }

    // Too little memory, too few passes, or both: a clear message naming where it came from.
    const cases = [
        [['--password-hash-memory', '4096'], {}, /password-hash-memory.*expected an integer from 7168/],
        [['--password-hash-iterations', '0'], {}, /password-hash-iterations.*expected an integer from 1 to 32/],
        [['--password-hash-memory', '8192'], { GATEHOUSE_PASSWORD_HASH_ITERATIONS: '4' },
         /password-hash-memory 8192 \(flag --password-hash-memory\) x password-hash-iterations 4 \(environment GATEHOUSE_PASSWORD_HASH_ITERATIONS\) is below OWASP's minimum/],
    ];
    for (const [args, env, message] of cases) {
        const dir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-cost-'));
        try {
            const env2 = { ...process.env, ...env };
            delete env2.GATEHOUSE_DATABASE;
            const r = spawnSync(binaryPath(), ['--headless', '--data-dir', dir, '--service-port', '0',
                                               '--cluster-port', '0', '--admin-port', '0', ...args],
                                { env: env2, encoding: 'utf8', timeout: 60_000 });
            assert.notEqual(r.status, 0, `${args.join(' ')} started`);
            assert.match(r.stderr, message);
            assert.ok(!existsSync(join(dir, 'gatehouse.db')), 'nothing made before the refusal');
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    }
});

test('users: validation errors name the field; malformed JSON', async () => {
    const ok = { username: 'valid.user', password: 'long enough' };
    const cases = [
        ['username missing', { password: ok.password }, 'username'],
        ['username empty', { ...ok, username: '' }, 'username'],
        ['username with a space', { ...ok, username: 'bad user' }, 'username'],
        ['username with a slash', { ...ok, username: 'a/b' }, 'username'],
        ['username not ASCII', { ...ok, username: 'jürgen' }, 'username'],
        ['username of 65 characters', { ...ok, username: 'x'.repeat(65) }, 'username'],
        ['username a number', { ...ok, username: 42 }, 'username'],
        ['username a UUID (another user\'s id, say)', { ...ok, username: '0b3f5e2a-9c61-4a8e-b1d2-3c4d5e6f7a8b' }, 'username'],
        ['password missing', { username: ok.username }, 'password'],
        ['password of 7 bytes', { ...ok, password: '1234567' }, 'password'],
        ['password of 3 characters but 6 bytes', { ...ok, password: 'üüü' }, 'password'],
        ['password of 1025 bytes', { ...ok, password: 'p'.repeat(1025) }, 'password'],
        ['password a number', { ...ok, password: 12345678 }, 'password'],
        ['groups a string', { ...ok, groups: 'admins' }, 'groups'],
        ['groups with a number', { ...ok, groups: ['admins', 7] }, 'groups'],
        ['email_verified a string', { ...ok, email_verified: 'yes' }, 'email_verified'],
        ['email a number', { ...ok, email: 5 }, 'email'],
        ['name an object', { ...ok, name: { first: 'A' } }, 'name'],
    ];
    for (const [what, body, field] of cases) {
        const r = await adminFetch(b, 'POST', '/admin/v1/users', body);
        assert.equal(r.status, 400, `${what}: ${r.text}`);
        assert.equal(r.json?.error, 'validation-failed', `${what}: ${r.text}`);
        assert.ok(r.json.message.includes(field), `${what}: the message names ${field}: ${r.json.message}`);
    }
    for (const raw of ['{"username": "x", ', 'not json', '']) {
        const r = await adminFetch(b, 'POST', '/admin/v1/users', raw);
        assert.equal(r.status, 400, `${JSON.stringify(raw)}: ${r.text}`);
        assert.equal(r.json?.error, 'malformed-json', `${JSON.stringify(raw)}: ${r.text}`);
    }
    const list = await adminFetch(b, 'GET', '/admin/v1/users');
    assert.ok(!list.json.items.some((u) => u.username === ok.username), 'nothing was created');
});

test('users: a duplicate username, in any case, is 409 duplicate-username', async () => {
    const u = await createUser({ username: 'Duplicate.Me' });
    for (const username of ['Duplicate.Me', 'duplicate.me', 'DUPLICATE.ME']) {
        const r = await adminFetch(b, 'POST', '/admin/v1/users', { username, password: 'another password' });
        assert.equal(r.status, 409, `${username}: ${r.text}`);
        assert.equal(r.json.error, 'duplicate-username');
    }
    const g = await adminFetch(b, 'GET', `/admin/v1/users/${u.id}`);
    assert.equal(g.json.username, 'Duplicate.Me', 'the first one is untouched');
});

test('a client registered without any scope completes the code flow (its code and consent are stored with an empty scope, not refused with a server error)', async () => {
    const c = await register({ grant_types: ['authorization_code'], client_name: 'Scopeless',
                               token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:9/scopeless'] });
    assert.equal(c.scope ?? '', '');
    const user = await createUser();
    const flow = await runFlow(c, user, { extra: { scope: undefined, nonce: undefined } });
    assert.deepEqual(flow.steps, ['login', 'consent']);
    assert.deepEqual(listedScopes(flow.consent), []);
    const code = new URL(flow.callback).searchParams.get('code');
    assert.ok(code, flow.callback);
    const r = await tokenRequest(c, { grant_type: 'authorization_code', code,
                                      redirect_uri: c.redirect_uris[0], code_verifier: flow.verifier });
    assert.equal(r.status, 200, r.text);
    assert.ok(r.json.access_token);
    assert.equal(r.json.id_token, undefined);
});

test('users: PATCH fields and password; unknown user 404; DELETE 204 then 404', async () => {
    const u = await createUser();
    const p = await adminFetch(b, 'PATCH', `/admin/v1/users/${u.username}`,
                               { email: 'new@example.org', email_verified: false, name: 'New Name', groups: ['x'] });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.json.id, u.id);
    assert.equal(p.json.username, u.username);
    assert.equal(p.json.email, 'new@example.org');
    assert.equal(p.json.email_verified, false);
    assert.equal(p.json.name, 'New Name');
    assert.deepEqual(p.json.groups, ['x']);
    assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/users/${u.id}`)).json, p.json);

    const bad = await adminFetch(b, 'PATCH', `/admin/v1/users/${u.id}`, { groups: 'x' });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.error, 'validation-failed');
    const short = await adminFetch(b, 'PATCH', `/admin/v1/users/${u.id}`, { password: 'short' });
    assert.equal(short.status, 400, short.text);
    assert.equal(short.json.error, 'validation-failed');
    const malformed = await adminFetch(b, 'PATCH', `/admin/v1/users/${u.id}`, '{');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.error, 'malformed-json');

    const newPassword = `new-${randomBytes(9).toString('base64url')}`;
    passwords.add(newPassword);
    const pw = await adminFetch(b, 'PATCH', `/admin/v1/users/${u.id}`, { password: newPassword });
    assert.equal(pw.status, 200, pw.text);
    assertNoSecrets(pw, newPassword, 'PATCH password');
    const ua = new UserAgent();
    const { params } = await newRequest(spa);
    const page = await loginPage(ua, (await ua.fetch(authorizeUrl(params))).location);
    const old = await submitLogin(ua, page, u.username, u.password);
    assert.equal(old.status, 401, 'the old password no longer works');
    const now = await submitLogin(ua, old, u.username, newPassword);
    assert.equal(now.status, 303, `the new password works: ${now.text.slice(0, 300)}`);

    for (const [method, path, body] of [['GET', '/admin/v1/users/nobody'], ['PATCH', '/admin/v1/users/nobody', { name: 'x' }],
                                        ['POST', '/admin/v1/users/nobody/unlock'], ['DELETE', '/admin/v1/users/nobody']]) {
        const r = await adminFetch(b, method, path, body);
        assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
        assert.equal(r.json.error, 'user-not-found', `${method} ${path}`);
    }
    const del = await adminFetch(b, 'DELETE', `/admin/v1/users/${u.username}`);
    assert.equal(del.status, 204, del.text);
    assert.equal(del.text, '');
    assert.equal((await adminFetch(b, 'GET', `/admin/v1/users/${u.id}`)).status, 404);
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/users/${u.id}`)).status, 404);
    const gone = await submitLogin(ua, await loginPage(ua, (await ua.fetch(authorizeUrl({ ...params, prompt: 'login' }))).location),
                                   u.username, newPassword);
    assert.equal(gone.status, 401, 'a deleted user cannot log in');
});

// --- the happy path --------------------------------------------------------------------------

test('code flow, public client + PKCE: cookies, login and consent pages, code/state/iss; tokens verified', async () => {
    const user = await createUser();
    const ua = new UserAgent();
    const { params, verifier } = await newRequest(spa, { scope: FULL_SCOPE });

    const start = await ua.fetch(authorizeUrl(params));
    assert.equal(start.status, 303, start.text);
    assert.ok(isPage(start.location, '/oauth2/login'), `to the login page: ${start.rawLocation}`);
    const interaction = start.location.searchParams.get('interaction');
    assert.ok(interaction, 'interaction=ID');
    assertCookie(start, 'gh_interaction', 'authorize');

    const page = await loginPage(ua, start.location);
    const lf = form(page.text, 'login-form');
    assert.equal(lf.method, 'post');
    assert.equal(new URL(lf.action, issuer).pathname, '/oauth2/login');
    assert.equal(lf.fields.interaction, interaction);
    assert.ok(lf.fields.csrf?.length >= 16, 'a csrf field');
    assert.equal(element(page.text, 'username')?.attrs.name, 'username');
    assert.equal(element(page.text, 'password')?.attrs.type, 'password');
    assert.equal(element(page.text, 'password')?.attrs.name, 'password');
    assert.equal(element(page.text, 'login-submit')?.attrs.type, 'submit');

    const authBefore = Math.floor(Date.now() / 1000);
    const loggedIn = await submitLogin(ua, page, user.username, user.password);
    const authAfter = Math.ceil(Date.now() / 1000);
    assert.equal(loggedIn.status, 303, loggedIn.text);
    assert.ok(isPage(loggedIn.location, '/oauth2/consent'), `to the consent page: ${loggedIn.rawLocation}`);
    assert.equal(loggedIn.location.searchParams.get('interaction'), interaction);
    const session = assertCookie(loggedIn, 'gh_session', 'login');
    const maxAge = session.attrs['max-age'];
    const expires = session.attrs.expires ? Date.parse(session.attrs.expires) : undefined;
    assert.ok(maxAge === '28800' || (expires && Math.abs(expires - Date.now() - 8 * 3600_000) < 120_000),
              `gh_session lasts 8 hours: ${JSON.stringify(session.attrs)}`);

    const consent = await consentPage(ua, loggedIn.location);
    const h1 = element(consent.text, (t) => t.tag === 'h1');
    assert.ok(h1?.text.includes(spa.client_name), `<h1> names the client: ${h1?.text}`);
    assert.ok(!consent.text.includes('<shop>'), 'the client name is HTML-escaped');
    assert.equal(element(consent.text, 'client-logo')?.tag, 'img');
    assert.equal(element(consent.text, 'client-logo').attrs.src, spa.logo_uri);
    const ul = element(consent.text, 'scopes');
    assert.equal(ul?.tag, 'ul');
    const listed = tags(consent.text).filter((t) => t.tag === 'li' && t.attrs['data-scope'] !== undefined)
                                     .map((t) => t.attrs['data-scope']);
    assert.deepEqual(listed.sort(), sorted(FULL_SCOPE), 'one <li data-scope> per requested scope');
    for (const s of listed)
        assert.ok(element(consent.text, (t) => t.tag === 'li' && t.attrs['data-scope'] === s).text.length > s.length,
                  `${s}: a name and a one-line meaning`);
    const cf = form(consent.text, 'consent-form');
    assert.equal(cf.method, 'post');
    assert.equal(new URL(cf.action, issuer).pathname, '/oauth2/consent');
    assert.equal(cf.fields.interaction, interaction);
    assert.ok(cf.fields.csrf, 'a csrf field');
    for (const [id, value] of [['consent-allow', 'allow'], ['consent-deny', 'deny']]) {
        const button = element(consent.text, id);
        assert.equal(button?.tag, 'button', id);
        assert.equal(button.attrs.name, 'decision', id);
        assert.equal(button.attrs.value, value, id);
    }

    const done = await submitConsent(ua, consent, 'allow');
    assertRedirectedTo(done, spa.redirect_uris[0], 'allow');
    const q = done.location.searchParams;
    assert.match(q.get('code') ?? '', /^[A-Za-z0-9_-]{43,}$/, 'a code of at least 256 bits');
    assert.equal(q.get('state'), params.state);
    assert.equal(q.get('iss'), issuer);
    assert.ok(done.rawLocation.includes(`iss=${encodeURIComponent(issuer)}`), `iss percent-encoded: ${done.rawLocation}`);

    // The same consent form posted again (back button, double click) yields no second code.
    const replay = await submitConsent(ua, consent, 'allow');
    assert.equal(replay.location?.searchParams.get('code') ?? null, null,
                 `a finished interaction issues no second code: ${replay.status} ${replay.rawLocation}`);
    assertErrorPage(replay, 'consent form posted again', undefined);

    const tokens = await exchange(spa, { params, verifier, callback: done.location });
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.expires_in, 3600);
    assert.deepEqual(sorted(tokens.scope), sorted(FULL_SCOPE));
    assert.ok(typeof tokens.refresh_token === 'string' && tokens.refresh_token.length >= 43, 'a refresh token');

    // The id_token as a relying party checks it: signature against the JWKS, then the claims.
    const id = await jose.jwtVerify(tokens.id_token, jwks, { issuer, audience: spa.client_id,
                                                             algorithms: ['RS256'], typ: 'JWT' });
    const c = id.payload;
    assert.equal(id.protectedHeader.alg, 'RS256');
    assert.ok(id.protectedHeader.kid, 'kid');
    assert.equal(c.sub, user.id, 'sub is the user id');
    assert.equal(c.aud, spa.client_id);
    assert.equal(c.nonce, params.nonce);
    assert.ok(c.auth_time >= authBefore - 1 && c.auth_time <= authAfter + 1, `auth_time ${c.auth_time} is the login`);
    assert.ok(c.iat >= authBefore - 1 && c.exp > c.iat);
    assert.equal(c.at_hash, atHash(tokens.access_token), 'at_hash: left half of SHA-256 of the access token');
    assert.equal(c.email, user.email);
    assert.equal(c.email_verified, true);
    assert.equal(c.name, user.name);
    assert.equal(c.preferred_username, user.username);
    assert.deepEqual(c.groups, user.groups);

    // The access token (RFC 9068) for a user: with an orders scope, for the orders API (its
    // resource indicator is the default audience, RFC 9068 §3).
    const at = await jose.jwtVerify(tokens.access_token, jwks, { issuer, audience: `${issuer}/v1`, typ: 'at+jwt',
                                                                 algorithms: ['RS256'] });
    assert.equal(at.payload.sub, user.id);
    assert.equal(at.payload.client_id, spa.client_id);
    assert.deepEqual(sorted(at.payload.scope), sorted(FULL_SCOPE));
    assert.equal(at.payload.email, user.email);
    assert.equal(at.payload.email_verified, true);
    assert.deepEqual(at.payload.groups, user.groups);

    const intro = await introspect(tokens.access_token);
    assert.equal(intro.active, true);
    assert.equal(intro.sub, user.id);
    assert.equal(intro.client_id, spa.client_id);
    assert.deepEqual(sorted(intro.scope), sorted(FULL_SCOPE));
    assert.equal(intro.aud, `${issuer}/v1`, 'for the orders API, which m2m serves');
    // The refresh token is live (the admin API lists it active), but a resource server learns
    // nothing of another client's refresh token: exactly what an unknown token gets.
    assert.deepEqual(await activeKinds(spa, user.id), ['access', 'refresh'], 'the refresh token is live');
    assert.deepEqual(await introspect(tokens.refresh_token), { active: false },
                     'a resource server is told nothing of another client\'s refresh token');
});

test('id_token verified by python3-jwcrypto; tampered, wrong audience or wrong nonce refused', async () => {
    const user = await createUser();
    const flow = await runFlow(spa, user, { extra: { scope: 'openid email' } });
    const tokens = await exchange(spa, flow);
    const ok = await runPython([issuer, spa.client_id, flow.params.nonce], tokens.id_token);
    assert.equal(ok.code, 0, `verify_id_token.py: ${ok.stderr}`);
    const claims = JSON.parse(ok.stdout);
    assert.equal(claims.sub, user.id);
    assert.equal(claims.iss, issuer);
    assert.equal(claims.aud, spa.client_id);
    assert.equal(claims.nonce, flow.params.nonce);
    assert.equal(claims.email, user.email);

    // Another subject in the payload, the signature kept.
    const [h, p, s] = tokens.id_token.split('.');
    const forged = JSON.parse(Buffer.from(p, 'base64url'));
    forged.sub = 'someone-else';
    const tampered = [h, Buffer.from(JSON.stringify(forged)).toString('base64url'), s].join('.');
    const cases = [
        ['tampered payload', [issuer, spa.client_id, flow.params.nonce], tampered],
        ['signature cut', [issuer, spa.client_id, flow.params.nonce], `${h}.${p}.${s.slice(0, -4)}AAAA`],
        ['another audience', [issuer, spa2.client_id, flow.params.nonce], tokens.id_token],
        ['another nonce', [issuer, spa.client_id, 'not-the-nonce'], tokens.id_token],
    ];
    for (const [what, args, token] of cases) {
        const r = await runPython(args, token);
        assert.notEqual(r.code, 0, `${what}: refused (stdout ${r.stdout})`);
        assert.match(r.stderr, /id_token rejected/, what);
    }
});

test('confidential client without PKCE; a code_verifier for a code without challenge is refused', async () => {
    const user = await createUser();
    const noPkce = { code_challenge: undefined, code_challenge_method: undefined };
    const flow = await runFlow(web, user, { extra: { ...noPkce, scope: OFFLINE_SCOPE } });
    const tokens = await exchange(web, { ...flow, verifier: oauth.nopkce });
    assert.ok(tokens.access_token && tokens.id_token && tokens.refresh_token);

    const again = await runFlow(web, user, { ua: flow.ua, extra: noPkce });
    assert.deepEqual(again.steps, [], 'session and consent remembered');
    const code = again.callback.searchParams.get('code');
    const r = await tokenRequest(web, { grant_type: 'authorization_code', code, redirect_uri: web.redirect_uris[0],
                                        code_verifier: oauth.generateRandomCodeVerifier() });
    assertTokenError(r, 'invalid_grant', 'verifier for a code without challenge');

    const third = await runFlow(web, user, { ua: flow.ua, extra: noPkce });
    const wrongSecret = await request(as.token_endpoint, 'POST',
        new URLSearchParams({ grant_type: 'authorization_code', code: third.callback.searchParams.get('code'),
                              redirect_uri: web.redirect_uris[0] }).toString(),
        { 'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: 'Basic ' + Buffer.from(`${web.client_id}:wrong`).toString('base64') });
    assert.equal(wrongSecret.status, 401, wrongSecret.text);
    assert.equal(wrongSecret.json.error, 'invalid_client');
});

test('openid-client: discovery, authorization code grant, refresh, userinfo', async () => {
    const user = await createUser();
    const config = await oidc.discovery(new URL(issuer), spa.client_id, undefined, oidc.None(),
                                        { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: spa.redirect_uris[0], scope: 'openid profile groups offline_access',
                                                     code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
                                                     code_challenge_method: 'S256', state, nonce });
    const ua = new UserAgent();
    let r = await ua.fetch(url);
    r = await submitLogin(ua, await loginPage(ua, r.location), user.username, user.password);
    r = await submitConsent(ua, await consentPage(ua, r.location), 'allow');
    assertRedirectedTo(r, spa.redirect_uris[0], 'openid-client flow');

    const tokens = await oidc.authorizationCodeGrant(config, r.location, { pkceCodeVerifier: verifier, expectedState: state,
                                                                             expectedNonce: nonce, idTokenExpected: true });
    const claims = tokens.claims();
    assert.equal(claims.sub, user.id);
    assert.equal(claims.preferred_username, user.username);
    assert.deepEqual(claims.groups, user.groups);
    assert.equal(claims.email, undefined, 'no email claim without the email scope');

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    assert.equal(info.name, user.name);
    assert.deepEqual(info.groups, user.groups);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.notEqual(refreshed.access_token, tokens.access_token);
    const info2 = await oidc.fetchUserInfo(config, refreshed.access_token, claims.sub);
    assert.equal(info2.sub, user.id);
});

// Taken here, checked by the last test of the file once the lifetimes have passed.
let expiring;

test('expiry, part 1: a code (60 s) and a 30-second access token, both good now', async () => {
    const user = await createUser();
    // orders:read: the token is for the orders API, so the resource server m2m may introspect it.
    const shortLived = await register({ client_name: 'Short-lived', token_endpoint_auth_method: 'none', scope: 'openid orders:read',
                                        grant_types: ['authorization_code'], access_token_lifetime: 30,
                                        redirect_uris: ['http://127.0.0.1:9/short'] });
    const ua = new UserAgent();
    const first = await runFlow(shortLived, user, { ua, extra: { scope: 'openid orders:read' } });
    const tokens = await exchange(shortLived, first);
    assert.equal(tokens.expires_in, 30);
    assert.equal((await userinfo(tokens.access_token)).status, 200);
    assert.equal((await introspect(tokens.access_token)).active, true, 'live: the resource server sees it');
    const pending = await runFlow(shortLived, user, { ua, extra: { scope: 'openid' } });
    expiring = { client: shortLived, tokens, pending, at: Date.now() };
});

// --- the authorization endpoint refusing ------------------------------------------------------

test('authorize: missing or unknown client_id → HTML error page 400, never a redirect', async () => {
    const { params } = await newRequest(spa);
    const cases = [
        ['client_id missing', { ...params, client_id: undefined }],
        ['client_id empty', { ...params, client_id: '' }],
        ['client_id unknown', { ...params, client_id: 'nobody' }],
        ['client_id unknown, no redirect_uri', { ...params, client_id: 'nobody', redirect_uri: undefined }],
        ['client_id with a different case', { ...params, client_id: spa.client_id.toUpperCase() === spa.client_id
                                                                        ? spa.client_id.toLowerCase() : spa.client_id.toUpperCase() }],
    ];
    for (const [what, p] of cases) {
        const r = await new UserAgent().fetch(authorizeUrl(p));
        assertErrorPage(r, what);
    }
    const post = await new UserAgent().fetch(as.authorization_endpoint, { method: 'POST', form: { ...params, client_id: 'nobody' } });
    assertErrorPage(post, 'POST with an unknown client');
});

test('authorize: redirect_uri byte for byte — every near miss is an HTML error page, not a redirect', async () => {
    const { params } = await newRequest(spa);
    const registered = spa.redirect_uris[0]; // http://127.0.0.1:9/cb
    const nearMisses = [
        ['prefix', 'http://127.0.0.1:9/c'],
        ['longer last segment', 'http://127.0.0.1:9/cbx'],
        ['extra path', 'http://127.0.0.1:9/cb/extra'],
        ['trailing slash', 'http://127.0.0.1:9/cb/'],
        ['percent-encoded variant', 'http://127.0.0.1:9/%63b'],
        ['added query', 'http://127.0.0.1:9/cb?next=https://evil.example'],
        ['fragment', 'http://127.0.0.1:9/cb#x'],
        ['upper-case scheme', 'HTTP://127.0.0.1:9/cb'],
        ['another loopback name', 'http://localhost:9/cb'],
        ['userinfo trick', 'http://127.0.0.1:9@evil.example/cb'],
        ['another client\'s URI', spa2.redirect_uris[0]],
        ['https instead of http', 'https://127.0.0.1:9/cb'],
    ];
    for (const [what, uri] of nearMisses) {
        assert.notEqual(uri, registered);
        const r = await new UserAgent().fetch(authorizeUrl({ ...params, redirect_uri: uri }));
        assertErrorPage(r, what);
        // Another error in the same request must not turn it into a redirect either.
        const both = await new UserAgent().fetch(authorizeUrl({ ...params, redirect_uri: uri, response_type: 'token' }));
        assertErrorPage(both, `${what} + response_type=token`);
    }
    const xss = await new UserAgent().fetch(authorizeUrl({ ...params, redirect_uri: 'http://127.0.0.1:9/cb"><script>alert(1)</script>' }));
    assertErrorPage(xss, 'markup in redirect_uri');
    assert.ok(!xss.text.includes('<script>alert(1)'), 'the request is not reflected as markup');
});

test('authorize: a loopback IP redirect URI in any port (RFC 8252 §7.3): the code comes back to that port and redeems with it; a name, https or another path stays exact', async () => {
    // A native app (kubectl's OIDC login, a CLI) listens on whichever loopback port is free.
    const user = await createUser();
    const native = await register({ grant_types: ['authorization_code'], scope: 'openid', client_name: 'Native CLI',
                                    token_endpoint_auth_method: 'none',
                                    redirect_uris: ['http://127.0.0.1/callback', 'http://[::1]:8000/callback'] });
    for (const uri of ['http://127.0.0.1:49152/callback', 'http://127.0.0.1:8000/callback', 'http://[::1]:18000/callback',
                       'http://[::1]/callback']) {
        const flow = await runFlow(native, user, { extra: { redirect_uri: uri, scope: 'openid' } });
        assert.equal(locationBase(flow.callback), uri);
        const tokens = await exchange(native, flow);
        assert.ok(tokens.id_token, uri);
        // The token request names the port the authorization request named, no other.
        const again = await runFlow(native, user, { ua: flow.ua, extra: { redirect_uri: uri, scope: 'openid' } });
        const other = uri.includes('49152') ? 'http://127.0.0.1:49153/callback' : 'http://127.0.0.1:49152/callback';
        const r = await tokenRequest(native, { grant_type: 'authorization_code', code: again.callback.searchParams.get('code'),
                                               redirect_uri: other, code_verifier: again.verifier });
        assertTokenError(r, 'invalid_grant', `${uri} redeemed with ${other}`);
    }
    const { params } = await newRequest(native, { scope: 'openid' });
    for (const [what, uri] of [['another path', 'http://127.0.0.1:49152/other'],
                               ['a longer path', 'http://127.0.0.1:49152/callback/x'],
                               ['an added query', 'http://127.0.0.1:49152/callback?x=1'],
                               ['localhost (a name, RFC 8252 §8.3)', 'http://localhost:49152/callback'],
                               ['https', 'https://127.0.0.1:49152/callback'],
                               ['another loopback address', 'http://127.0.0.2:49152/callback'],
                               ['a host that begins like it', 'http://127.0.0.1.evil.example/callback'],
                               ['userinfo after the port', 'http://127.0.0.1:49152@evil.example/callback'],
                               ['a port too large', 'http://127.0.0.1:65536/callback']])
        assertErrorPage(await new UserAgent().fetch(authorizeUrl({ ...params, redirect_uri: uri })), what);
    // A registered https or non-loopback URI keeps its port: web's is exact.
    const webReq = await newRequest(web);
    assertErrorPage(await new UserAgent().fetch(authorizeUrl({ ...webReq.params, redirect_uri: 'https://shop.example.org:8443/callback' })),
                    'https with another port');
});

test('authorize: a client with two redirect URIs must name one; a client with one may omit it', async () => {
    const user = await createUser();
    const { params } = await newRequest(multi);
    assertErrorPage(await new UserAgent().fetch(authorizeUrl({ ...params, redirect_uri: undefined })), 'two URIs, none named');
    const second = await new UserAgent().fetch(authorizeUrl({ ...params, redirect_uri: multi.redirect_uris[1] }));
    assert.equal(second.status, 303, second.text);
    assert.ok(isPage(second.location, '/oauth2/login'), second.rawLocation);

    // One redirect URI, left out: the code comes back to it and is exchanged without redirect_uri.
    const flow = await runFlow(spa, user, { extra: { redirect_uri: undefined } });
    assert.equal(locationBase(flow.callback), spa.redirect_uris[0]);
    const r = await tokenRequest(spa, { grant_type: 'authorization_code', code: flow.callback.searchParams.get('code'),
                                        code_verifier: flow.verifier });
    assert.equal(r.status, 200, r.text);
    assert.ok(r.json.access_token && r.json.id_token);
});

test('authorize by POST (form) works as GET; no refresh_token without the refresh_token grant', async () => {
    const user = await createUser();
    const ua = new UserAgent();
    const { params, verifier } = await newRequest(spa);
    const post = await ua.fetch(as.authorization_endpoint, { method: 'POST', form: params });
    assert.equal(post.status, 303, post.text);
    assert.ok(isPage(post.location, '/oauth2/login'), post.rawLocation);
    let r = await submitLogin(ua, await loginPage(ua, post.location), user.username, user.password);
    r = await submitConsent(ua, await consentPage(ua, r.location), 'allow');
    assertRedirectedTo(r, spa.redirect_uris[0], 'POST authorize');
    assert.ok((await exchange(spa, { params, verifier, callback: r.location })).access_token);

    const codeOnly = await register({ client_name: 'No refresh', token_endpoint_auth_method: 'none',
                                      grant_types: ['authorization_code'], scope: 'openid',
                                      redirect_uris: ['http://127.0.0.1:9/code-only'] });
    const t = await exchange(codeOnly, await runFlow(codeOnly, user, { ua, extra: { scope: 'openid' } }));
    assert.ok(t.access_token && t.id_token);
    assert.equal(t.refresh_token, undefined, 'no refresh token for a client without the refresh_token grant');
});

test('authorize: redirected errors carry error, error_description, state and iss', async () => {
    const state = 's t/ä&=?#'; // has to come back exactly
    const v = oauth.generateRandomCodeVerifier();
    const cases = [
        ['repeated parameter', spa, {}, [['scope', 'openid']], 'invalid_request'],
        ['code_challenge_method=plain', spa, { code_challenge: v, code_challenge_method: 'plain' }, [], 'invalid_request'],
        ['challenge without method', spa, { code_challenge_method: undefined }, [], 'invalid_request'],
        ['unknown challenge method', spa, { code_challenge_method: 'S512' }, [], 'invalid_request'],
        ['challenge method in lower case', spa, { code_challenge_method: 's256' }, [], 'invalid_request'],
        ['challenge of 42 characters', spa, { code_challenge: 'a'.repeat(42) }, [], 'invalid_request'],
        ['challenge of 129 characters', spa, { code_challenge: 'a'.repeat(129) }, [], 'invalid_request'],
        ['challenge with a non-base64url character', spa, { code_challenge: `${'a'.repeat(42)}+` }, [], 'invalid_request'],
        ['challenge with padding', spa, { code_challenge: `${'a'.repeat(42)}=` }, [], 'invalid_request'],
        ['public client without PKCE', spa, { code_challenge: undefined, code_challenge_method: undefined }, [], 'invalid_request'],
        ['response_type=token', spa, { response_type: 'token' }, [], 'unsupported_response_type'],
        ['response_type=code id_token', spa, { response_type: 'code id_token' }, [], 'unsupported_response_type'],
        ['response_type=CODE', spa, { response_type: 'CODE' }, [], 'unsupported_response_type'],
        ['unknown scope', spa, { scope: 'openid admin' }, [], 'invalid_scope'],
        ['scope outside the client record', spa, { scope: 'openid orders:write' }, [], 'invalid_scope'],
        ['client without authorization_code', m2m, { scope: 'orders:read' }, [], 'unauthorized_client'],
    ];
    for (const [what, c, extra, pairs, error] of cases) {
        const { params } = await newRequest(c, { state, ...extra });
        const r = await new UserAgent().fetch(authorizeUrl(params, pairs));
        assertErrorRedirect(r, c.redirect_uris[0], error, state, what);
        // oauth4webapi reads it the same way.
        assert.throws(() => oauth.validateAuthResponse(as, { client_id: c.client_id }, r.location, state),
                      (e) => e instanceof oauth.AuthorizationResponseError && e.error === error, what);
    }
    // Without state, none comes back.
    const { params } = await newRequest(spa, { state: undefined, response_type: 'token' });
    const r = await new UserAgent().fetch(authorizeUrl(params));
    assertErrorRedirect(r, spa.redirect_uris[0], 'unsupported_response_type', null, 'no state');
});

test('authorize: prompt=none → login_required without a session, consent_required without consent', async () => {
    const user = await createUser();
    const state = 'quiet';
    const { params } = await newRequest(spa, { prompt: 'none', state });
    assertErrorRedirect(await new UserAgent().fetch(authorizeUrl(params)), spa.redirect_uris[0], 'login_required', state,
                        'no session');

    const flow = await runFlow(spa, user); // a session, consent for spa only
    const other = await newRequest(spa2, { prompt: 'none', state });
    assertErrorRedirect(await flow.ua.fetch(authorizeUrl(other.params)), spa2.redirect_uris[0], 'consent_required', state,
                        'session without consent');

    const silent = await newRequest(spa, { prompt: 'none', state });
    const r = await flow.ua.fetch(authorizeUrl(silent.params));
    assertRedirectedTo(r, spa.redirect_uris[0], 'session and consent');
    assert.ok(r.location.searchParams.get('code'));
    assert.equal(r.location.searchParams.get('state'), state);
});

test('consent: deny → access_denied with state and iss; nothing remembered', async () => {
    const user = await createUser();
    const ua = new UserAgent();
    const { params } = await newRequest(spa);
    let r = await ua.fetch(authorizeUrl(params));
    r = await submitLogin(ua, await loginPage(ua, r.location), user.username, user.password);
    r = await submitConsent(ua, await consentPage(ua, r.location), 'deny');
    assertErrorRedirect(r, spa.redirect_uris[0], 'access_denied', params.state, 'deny');
    const again = await ua.fetch(authorizeUrl((await newRequest(spa)).params));
    assert.equal(again.status, 303);
    assert.ok(isPage(again.location, '/oauth2/consent'), `asked again, no login: ${again.rawLocation}`);
    const list = await adminFetch(b, 'GET', `/admin/v1/consents?user=${user.id}`);
    assert.deepEqual(list.json.items, []);
});

test('consent: one form submitted twice at once → one code, the other a 400 error page', async () => {
    const user = await createUser();
    const ua = new UserAgent();
    const { params } = await newRequest(spa);
    let r = await ua.fetch(authorizeUrl(params));
    r = await submitLogin(ua, await loginPage(ua, r.location), user.username, user.password);
    const page = await consentPage(ua, r.location);
    const both = await Promise.all([submitConsent(ua, page, 'allow'), submitConsent(ua, page, 'allow')]);
    const codes = both.filter((x) => x.status === 303 && x.location?.searchParams.get('code'));
    assert.equal(codes.length, 1, both.map((x) => `${x.status} ${x.rawLocation ?? x.text.slice(0, 200)}`).join('\n'));
    const refused = both.find((x) => x !== codes[0]);
    assert.equal(refused.status, 400);
    assert.match(refused.text, /The consent form has expired or does not belong to this browser/);
});

// --- sessions and consents ---------------------------------------------------------------------

test('session: remembered consent skips both pages with the same auth_time; wider scope and prompt ask again', async () => {
    const user = await createUser();
    const first = await runFlow(spa, user, { extra: { scope: 'openid profile' } });
    assert.deepEqual(first.steps, ['login', 'consent']);
    const t1 = await exchange(spa, first);

    await sleep(1100); // auth_time has a resolution of one second
    const second = await runFlow(spa, user, { ua: first.ua, extra: { scope: 'openid profile' } });
    assert.deepEqual(second.steps, [], 'straight back with a code');
    const c2 = oauth.getValidatedIdTokenClaims(await exchange(spa, second));
    const c1 = oauth.getValidatedIdTokenClaims(t1);
    assert.equal(c2.auth_time, c1.auth_time, 'auth_time is the login, not the token');
    assert.equal(c2.sub, user.id);

    const narrower = await runFlow(spa, user, { ua: first.ua, extra: { scope: 'openid' } });
    assert.deepEqual(narrower.steps, [], 'a narrower scope is covered');

    const wider = await runFlow(spa, user, { ua: first.ua, extra: { scope: 'openid profile email' } });
    assert.deepEqual(wider.steps, ['consent'], 'a wider scope is asked for, without a new login');
    const widerAgain = await runFlow(spa, user, { ua: first.ua, extra: { scope: 'openid email' } });
    assert.deepEqual(widerAgain.steps, [], 'and then remembered');

    const forcedConsent = await runFlow(spa, user, { ua: first.ua, extra: { prompt: 'consent' } });
    assert.deepEqual(forcedConsent.steps, ['consent'], 'prompt=consent');
    const forcedLogin = await runFlow(spa, user, { ua: first.ua, extra: { prompt: 'login' } });
    assert.deepEqual(forcedLogin.steps, ['login'], 'prompt=login');
    // max_age (OIDC Core 3.1.2.1): a younger sign-in is enough, an older one signs in again.
    const young = await runFlow(spa, user, { ua: first.ua, extra: { max_age: '3600' } });
    assert.deepEqual(young.steps, [], 'max_age=3600 after a fresh login');
    const zero = await runFlow(spa, user, { ua: first.ua, extra: { max_age: '0' } });
    assert.deepEqual(zero.steps, ['login'], 'max_age=0');
    await sleep(1100);
    const expired = await runFlow(spa, user, { ua: first.ua, extra: { max_age: '1' } });
    assert.deepEqual(expired.steps, ['login'], 'max_age=1 a second later');
    const silent = await newRequest(spa, { max_age: '0', prompt: 'none' });
    assertErrorRedirect(await first.ua.fetch(authorizeUrl(silent.params)), spa.redirect_uris[0], 'login_required',
                        silent.params.state, 'max_age=0 with prompt=none');
    for (const [extra, error] of [[{ max_age: 'soon' }, 'invalid_request'], [{ max_age: '-1' }, 'invalid_request'],
                                  [{ request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported'],
                                  [{ request_uri: 'https://app.example/req.jwt' }, 'request_uri_not_supported'],
                                  // RFC 8707: refused, not ignored (the token would not be bound to it).
                                  [{ resource: 'https://partner.example/api' }, 'invalid_target'],
                                  [{ response_mode: 'form_post' }, 'invalid_request'],
                                  [{ response_mode: 'fragment' }, 'invalid_request']]) {
        const bad = await newRequest(spa, extra);
        assertErrorRedirect(await first.ua.fetch(authorizeUrl(bad.params)), spa.redirect_uris[0], error,
                            bad.params.state, JSON.stringify(extra));
    }
    // A state too long to go back in a Location header (more than 2,048 bytes once
    // percent-encoded; 683 '!' are 2,049) gets the error page, never a redirect, whatever else
    // is wrong with the request: a 6 KB Location made nginx answer 502 and drop the instance
    // from its upstreams. 682 fit, and go back whole.
    for (const extra of [{}, { response_type: 'token' }, { scope: 'nope' }]) {
        const long = await newRequest(spa, { ...extra, state: '!'.repeat(683) });
        const page = await first.ua.fetch(authorizeUrl(long.params));
        assert.equal(page.status, 400, `${JSON.stringify(extra)}: ${page.text.slice(0, 300)}`);
        assert.equal(page.location, null, 'no redirect');
        assert.match(page.text, /state is longer than 2048 bytes once percent-encoded/);
    }
    const fits = await newRequest(spa, { response_type: 'token', state: '!'.repeat(682) });
    const fitsAnswer = await first.ua.fetch(authorizeUrl(fits.params));
    assertErrorRedirect(fitsAnswer, spa.redirect_uris[0], 'unsupported_response_type', fits.params.state, 'a state that fits');
    assert.ok(fitsAnswer.rawLocation.length < 4096, `${fitsAnswer.rawLocation.length} bytes`);
    const query = await runFlow(spa, user, { ua: first.ua, extra: { response_mode: 'query' } });
    assert.deepEqual(query.steps, [], 'response_mode=query, the default');
    const fresh = await runFlow(spa, user, { extra: { scope: 'openid' } });
    assert.deepEqual(fresh.steps, ['login'], 'another browser logs in; the consent is the user\'s');
});

test('consents: listed, revoked through the admin API (asked again), 404 consent-not-found', async () => {
    const user = await createUser();
    const flow = await runFlow(spa, user, { extra: { scope: 'openid email' } });
    const list = await adminFetch(b, 'GET', `/admin/v1/consents?user=${user.id}`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.json.items.length, 1, list.text);
    const item = list.json.items[0];
    assert.equal(item.userId, user.id);
    assert.equal(item.username, user.username);
    assert.equal(item.clientId, spa.client_id);
    assert.deepEqual(sorted(item.scope), ['email', 'openid']);
    assert.ok(item.grantedAt);
    const byClient = await adminFetch(b, 'GET', `/admin/v1/consents?client=${spa.client_id}`);
    assert.ok(byClient.json.items.some((i) => i.userId === user.id));
    assert.ok(byClient.json.items.every((i) => i.clientId === spa.client_id));
    const otherClient = await adminFetch(b, 'GET', `/admin/v1/consents?client=${spa2.client_id}&user=${user.id}`);
    assert.deepEqual(otherClient.json.items, []);
    const all = await adminFetch(b, 'GET', '/admin/v1/consents');
    assert.ok(all.json.items.some((i) => i.userId === user.id && i.clientId === spa.client_id));

    const del = await adminFetch(b, 'DELETE', `/admin/v1/consents/${user.id}/${spa.client_id}`);
    assert.equal(del.status, 204, del.text);
    const again = await adminFetch(b, 'DELETE', `/admin/v1/consents/${user.id}/${spa.client_id}`);
    assert.equal(again.status, 404);
    assert.equal(again.json.error, 'consent-not-found');
    const none = await adminFetch(b, 'DELETE', `/admin/v1/consents/${user.id}/${spa2.client_id}`);
    assert.equal(none.status, 404);
    assert.equal(none.json.error, 'consent-not-found');
    assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/consents?user=${user.id}`)).json.items, []);

    const silent = await newRequest(spa, { scope: 'openid email', prompt: 'none' });
    assertErrorRedirect(await flow.ua.fetch(authorizeUrl(silent.params)), spa.redirect_uris[0], 'consent_required',
                        silent.params.state, 'after revocation, prompt=none');
    const asked = await runFlow(spa, user, { ua: flow.ua, extra: { scope: 'openid email' } });
    assert.deepEqual(asked.steps, ['consent'], 'the consent page again, the session kept');
});

test('consents: a deleted client\'s consents go with it', async () => {
    const user = await createUser();
    const gone = await register({ grant_types: ['authorization_code', 'refresh_token'], scope: FULL_SCOPE,
                                  client_name: 'Short-lived app', token_endpoint_auth_method: 'none',
                                  redirect_uris: spa.redirect_uris });
    await runFlow(gone, user, { extra: { scope: 'openid email' } });
    const before = await adminFetch(b, 'GET', `/admin/v1/consents?client=${gone.client_id}`);
    assert.equal(before.json.items.length, 1, before.text);
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/clients/${gone.client_id}`)).status, 204);
    assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/consents?client=${gone.client_id}`)).json.items, []);
    assert.ok(!(await adminFetch(b, 'GET', `/admin/v1/consents?user=${user.id}`)).json.items.some((i) => i.clientId === gone.client_id));
});

// --- the token endpoint ------------------------------------------------------------------------

test('code replay → invalid_grant, and the tokens issued from the code are revoked', async () => {
    const user = await createUser();
    // orders:read: the access token is for the orders API, which the resource server m2m serves.
    const flow = await runFlow(spa, user, { extra: { scope: `${OFFLINE_SCOPE} orders:read` } });
    const code = flow.callback.searchParams.get('code');
    const fields = { grant_type: 'authorization_code', code, redirect_uri: spa.redirect_uris[0], code_verifier: flow.verifier };
    // A resource indicator (RFC 8707) is refused, and the code is not spent: a token asked to be
    // bound to another resource server was issued for the orders API and userinfo before.
    const bound = await tokenRequest(spa, { ...fields, resource: 'https://partner.example/api' });
    assertTokenError(bound, 'invalid_target', 'resource at the code exchange');
    assert.match(bound.json.error_description, /^resource is taken only by the client_credentials and token exchange grants/);
    const first = await tokenRequest(spa, fields);
    assert.equal(first.status, 200, first.text);
    assert.ok(first.json.refresh_token, 'a refresh token (offline_access)');
    assertTokenError(await tokenRequest(spa, { grant_type: 'refresh_token', refresh_token: first.json.refresh_token,
                                               resource: 'https://partner.example/api' }),
                     'invalid_target', 'resource at the refresh');
    assert.equal((await introspect(first.json.access_token)).active, true);
    assert.equal((await userinfo(first.json.access_token)).status, 200);
    assert.deepEqual(await activeKinds(spa, user.id), ['access', 'refresh'], 'both live');

    assertTokenError(await tokenRequest(spa, fields), 'invalid_grant', 'replay');
    assert.equal((await introspect(first.json.access_token)).active, false, 'the access token is revoked');
    assert.deepEqual(await activeKinds(spa, user.id), [], 'the access and the refresh token are revoked');
    assert.equal((await userinfo(first.json.access_token)).status, 401);
    assertTokenError(await tokenRequest(spa, { grant_type: 'refresh_token', refresh_token: first.json.refresh_token }),
                     'invalid_grant', 'refresh after replay');
});

test('code exchange refusals: PKCE mismatch, missing verifier, another client, redirect_uri, unknown code', async () => {
    const user = await createUser();
    const ua = new UserAgent();
    await runFlow(spa, user, { ua });
    const nextCode = async (c = spa) => {
        const f = await runFlow(c, user, { ua });
        return { code: f.callback.searchParams.get('code'), verifier: f.verifier, redirect_uri: f.params.redirect_uri };
    };
    const base = (f) => ({ grant_type: 'authorization_code', code: f.code, redirect_uri: f.redirect_uri, code_verifier: f.verifier });

    let f = await nextCode();
    assertTokenError(await tokenRequest(spa, { ...base(f), code_verifier: oauth.generateRandomCodeVerifier() }),
                     'invalid_grant', 'another verifier');
    f = await nextCode();
    const challenge = await oauth.calculatePKCECodeChallenge(f.verifier);
    assertTokenError(await tokenRequest(spa, { ...base(f), code_verifier: challenge }), 'invalid_grant',
                     'the challenge as verifier (plain)');
    f = await nextCode();
    const { code_verifier: _v, ...noVerifier } = base(f);
    assertTokenError(await tokenRequest(spa, noVerifier), ['invalid_grant', 'invalid_request'], 'verifier missing');
    f = await nextCode();
    assertTokenError(await tokenRequest(spa2, base(f)), 'invalid_grant', 'another client presents the code');
    f = await nextCode();
    assertTokenError(await tokenRequest(spa, { ...base(f), redirect_uri: `${spa.redirect_uris[0]}/` }), 'invalid_grant',
                     'another redirect_uri');
    f = await nextCode();
    const { redirect_uri: _r, ...noRedirect } = base(f);
    assertTokenError(await tokenRequest(spa, noRedirect), ['invalid_grant', 'invalid_request'], 'redirect_uri missing');
    assertTokenError(await tokenRequest(spa, { ...base(f), code: randomBytes(32).toString('base64url') }), 'invalid_grant',
                     'unknown code');
    assertTokenError(await tokenRequest(spa, { ...base(f), code: '' }), ['invalid_grant', 'invalid_request'], 'empty code');
    f = await nextCode();
    const twice = new URLSearchParams([...Object.entries(base(f)), ['code', f.code], ['client_id', spa.client_id]]);
    const repeated = await request(as.token_endpoint, 'POST', twice.toString(), { 'Content-Type': 'application/x-www-form-urlencoded' });
    assertTokenError(repeated, 'invalid_request', 'code repeated');
});

test('refresh: rotated; reusing the old one → invalid_grant and the whole family is revoked', async () => {
    const user = await createUser();
    const t0 = await exchange(spa, await runFlow(spa, user, { extra: { scope: 'openid email orders:read offline_access' } }));
    const t1 = await refresh(spa, t0.refresh_token);
    assert.ok(t1.refresh_token && t1.refresh_token !== t0.refresh_token, 'a new refresh token');
    assert.notEqual(t1.access_token, t0.access_token);
    assert.deepEqual(sorted(t1.scope), ['email', 'offline_access', 'openid', 'orders:read']);
    assert.equal(t1.expires_in, 3600);
    const at1 = await jose.jwtVerify(t1.access_token, jwks, { issuer, audience: `${issuer}/v1`, typ: 'at+jwt' });
    assert.equal(at1.payload.sub, user.id);
    assert.equal(at1.payload.email, user.email);
    if (t1.id_token) {
        const c = oauth.getValidatedIdTokenClaims(t1);
        const c0 = oauth.getValidatedIdTokenClaims(t0);
        assert.equal(c.sub, user.id);
        assert.equal(c.auth_time, c0.auth_time, 'a refreshed id_token keeps auth_time');
        assert.equal(c.at_hash, atHash(t1.access_token));
    }
    // The rotated refresh token is dead: of the refresh tokens only t1's is active (the access
    // tokens of t0 and t1 stay).
    assert.deepEqual(await activeKinds(spa, user.id), ['access', 'access', 'refresh'], 'the rotated refresh token is dead');
    const t2 = await refresh(spa, t1.refresh_token);
    assert.deepEqual(await activeKinds(spa, user.id), ['access', 'access', 'access', 'refresh']);
    for (const [what, token] of [['newest', t2.access_token], ['middle', t1.access_token], ['first', t0.access_token]])
        assert.equal((await introspect(token)).active, true, `the ${what} access token is live`);

    // The attacker (or a confused client) presents t0's refresh token again.
    assertTokenError(await tokenRequest(spa, { grant_type: 'refresh_token', refresh_token: t0.refresh_token }),
                     'invalid_grant', 'reuse of a rotated refresh token');
    for (const [what, token] of [['newest access token', t2.access_token], ['middle access token', t1.access_token],
                                 ['first access token', t0.access_token]])
        assert.equal((await introspect(token)).active, false, `${what} revoked with the family`);
    assert.deepEqual(await activeKinds(spa, user.id), [], 'the newest refresh token revoked with the family');
    assertTokenError(await tokenRequest(spa, { grant_type: 'refresh_token', refresh_token: t2.refresh_token }),
                     'invalid_grant', 'the newest refresh token after the reuse');
    assert.equal((await userinfo(t2.access_token)).status, 401);

    // Another client cannot use someone else's refresh token.
    const mine = await exchange(spa, await runFlow(spa, user, { extra: { scope: OFFLINE_SCOPE } }));
    assert.ok(mine.refresh_token, 'a refresh token to steal');
    assertTokenError(await tokenRequest(spa2, { grant_type: 'refresh_token', refresh_token: mine.refresh_token }),
                     'invalid_grant', 'another client\'s refresh token');
    assertTokenError(await tokenRequest(spa, { grant_type: 'refresh_token', refresh_token: 'nonsense' }),
                     'invalid_grant', 'unknown refresh token');
});

test('refresh: the scope may narrow, never widen (invalid_scope)', async () => {
    const user = await createUser();
    const original = 'openid profile email orders:read offline_access';
    const t0 = await exchange(spa, await runFlow(spa, user, { extra: { scope: original } }));
    const narrow = await refresh(spa, t0.refresh_token, 'openid orders:read');
    assert.deepEqual(sorted(narrow.scope), ['openid', 'orders:read']);
    // The refresh grant still rotates when the narrowed scope leaves offline_access out.
    assert.ok(narrow.refresh_token && narrow.refresh_token !== t0.refresh_token, 'a new refresh token');
    const at = await jose.jwtVerify(narrow.access_token, jwks, { issuer, audience: `${issuer}/v1`, typ: 'at+jwt' });
    assert.deepEqual(sorted(at.payload.scope), ['openid', 'orders:read']);
    assert.equal(at.payload.email, undefined, 'no email claim without the email scope');
    const info = await userinfo(narrow.access_token);
    assert.equal(info.status, 200, info.text);
    assert.equal(info.json.sub, user.id);
    assert.equal(info.json.email, undefined);
    assert.equal(info.json.name, undefined);

    for (const scope of ['openid groups', 'openid orders:write', 'openid nonsense', `${original} groups`]) {
        const t = await exchange(spa, await runFlow(spa, user, { extra: { scope: original } }));
        assertTokenError(await tokenRequest(spa, { grant_type: 'refresh_token', refresh_token: t.refresh_token, scope }),
                         'invalid_scope', `widening to '${scope}'`);
    }
});

test('refresh: revoking a refresh token (RFC 7009) revokes its family', async () => {
    const user = await createUser();
    // orders:read: the access tokens are for the orders API, which the resource server m2m serves.
    const t0 = await exchange(spa, await runFlow(spa, user, { extra: { scope: `${OFFLINE_SCOPE} orders:read` } }));
    const t1 = await refresh(spa, t0.refresh_token);
    assert.equal((await introspect(t0.access_token)).active, true, 'rotation leaves issued access tokens alone');
    assert.equal((await introspect(t1.access_token)).active, true);
    assert.deepEqual(await activeKinds(spa, user.id), ['access', 'access', 'refresh'], 't1\'s refresh token is live');
    const client = { client_id: spa.client_id };
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, spa.auth, t1.refresh_token,
        { ...opts, additionalParameters: { token_type_hint: 'refresh_token' } }));
    for (const [what, token] of [['t0 access', t0.access_token], ['t1 access', t1.access_token]])
        assert.equal((await introspect(token)).active, false, `${what} revoked`);
    assert.deepEqual(await activeKinds(spa, user.id), [], 't1 refresh revoked');
    assertTokenError(await tokenRequest(spa, { grant_type: 'refresh_token', refresh_token: t1.refresh_token }),
                     'invalid_grant', 'revoked refresh token');
});

test('refresh: only offline_access brings a refresh token (OIDC Core §11), even to a client with the refresh_token grant', async () => {
    const user = await createUser();
    const c = await register({ client_name: 'Offline or not', token_endpoint_auth_method: 'none',
                               grant_types: ['authorization_code', 'refresh_token'], scope: FULL_SCOPE,
                               redirect_uris: ['http://127.0.0.1:9/offline'] });
    const storedKinds = async () => {
        const r = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(c.client_id)}`);
        assert.equal(r.status, 200, r.text);
        return r.json.items.map((t) => t.kind).sort();
    };

    // Without offline_access: the consent page does not offer it; the grant lasts as long as its
    // access token.
    const online = await runFlow(c, user, { extra: { scope: 'openid profile' } });
    assert.deepEqual(online.steps, ['login', 'consent']);
    assert.deepEqual(listedScopes(online.consent), ['openid', 'profile']);
    const t = await exchange(c, online);
    assert.ok(t.access_token && t.id_token, 'an access token and an id_token');
    assert.deepEqual(sorted(t.scope), ['openid', 'profile']);
    assert.equal(t.refresh_token, undefined, 'no refresh token without offline_access');
    assert.deepEqual(await storedKinds(), ['access'], 'only the access token is stored');

    // With it: asked for on the consent page (a scope not consented to yet), and a refresh token
    // comes, live and rotating.
    const offline = await runFlow(c, user, { ua: online.ua, extra: { scope: 'openid profile offline_access' } });
    assert.deepEqual(offline.steps, ['consent'], 'offline_access is asked for, without a new login');
    assert.deepEqual(listedScopes(offline.consent), ['offline_access', 'openid', 'profile']);
    const li = element(offline.consent.text, (x) => x.tag === 'li' && x.attrs['data-scope'] === 'offline_access');
    assert.match(li.text, /Stay signed in when you are not using it/);
    const t2 = await exchange(c, offline);
    assert.ok(t2.access_token && t2.id_token);
    assert.deepEqual(sorted(t2.scope), ['offline_access', 'openid', 'profile']);
    assert.ok(typeof t2.refresh_token === 'string' && t2.refresh_token.length >= 43, 'a refresh token for offline_access');
    // Live (listed active, and it refreshes below).
    assert.deepEqual(await storedKinds(), ['access', 'access', 'refresh']);
    const t3 = await refresh(c, t2.refresh_token);
    assert.ok(t3.refresh_token && t3.refresh_token !== t2.refresh_token, 'rotated');

    // offline_access consented to before but not requested now: no refresh token.
    const again = await runFlow(c, user, { ua: online.ua, extra: { scope: 'openid profile' } });
    assert.deepEqual(again.steps, [], 'consent remembered');
    const t4 = await exchange(c, again);
    assert.equal(t4.refresh_token, undefined, 'offline_access is the request\'s, not the remembered consent\'s');
});

// --- userinfo ----------------------------------------------------------------------------------

test('userinfo: claims by scope, GET and POST', async () => {
    const user = await createUser();
    const ua = new UserAgent();
    const expectations = [
        ['openid', { sub: user.id }],
        ['openid email', { sub: user.id, email: user.email, email_verified: true }],
        ['openid profile', { sub: user.id, name: user.name, preferred_username: user.username }],
        ['openid groups', { sub: user.id, groups: user.groups }],
        [FULL_SCOPE, { sub: user.id, email: user.email, email_verified: true, name: user.name,
                       preferred_username: user.username, groups: user.groups }],
    ];
    const claimNames = ['sub', 'email', 'email_verified', 'name', 'preferred_username', 'groups'];
    for (const [scope, expected] of expectations) {
        const t = await exchange(spa, await runFlow(spa, user, { ua, extra: { scope } }));
        for (const method of ['GET', 'POST']) {
            const r = await userinfo(t.access_token, method);
            assert.equal(r.status, 200, `${scope} ${method}: ${r.text}`);
            assert.match(r.headers['content-type'], /^application\/json/);
            const got = Object.fromEntries(claimNames.filter((n) => n in r.json).map((n) => [n, r.json[n]]));
            assert.deepEqual(got, expected, `${scope} ${method}`);
        }
        const lower = await request(as.userinfo_endpoint, 'GET', undefined, { Authorization: `bearer ${t.access_token}` });
        assert.equal(lower.status, 200, `the auth scheme is case-insensitive (RFC 7235 §2.1): ${lower.text}`);
    }
});

test('userinfo: 401 without or with a bad token, 403 insufficient_scope without openid', async () => {
    const none = await userinfo(undefined);
    assert.equal(none.status, 401);
    assert.match(none.headers['www-authenticate'] ?? '', /^Bearer\b/);
    assert.match(none.headers['www-authenticate'], /realm="gatehouse"/);
    assert.doesNotMatch(none.headers['www-authenticate'], /error=/, 'no error when no token was sent');

    const user = await createUser();
    const t = await exchange(spa, await runFlow(spa, user, { extra: { scope: 'openid' } }));
    const [h, p, s] = t.access_token.split('.');
    const forged = JSON.parse(Buffer.from(p, 'base64url'));
    forged.sub = 'someone-else';
    const bad = [
        ['garbage', 'Bearer garbage'],
        ['forged JWT', `Bearer ${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`],
        ['truncated signature', `Bearer ${h}.${p}.${s.slice(0, 10)}`],
        ['unknown opaque', `Bearer ${randomBytes(32).toString('base64url')}`],
    ];
    for (const [what, authorization] of bad) {
        const r = await request(as.userinfo_endpoint, 'GET', undefined, { Authorization: authorization });
        assert.equal(r.status, 401, `${what}: ${r.text}`);
        assert.match(r.headers['www-authenticate'] ?? '', /^Bearer\b/, what);
        assert.match(r.headers['www-authenticate'], /error="invalid_token"/, what);
        assert.match(r.headers['www-authenticate'], /realm="gatehouse"/, what);
    }

    // A client_credentials token (no user, no openid) and a user token without openid.
    const m2mTokens = await oauth.processClientCredentialsResponse(as, { client_id: m2m.client_id },
        await oauth.clientCredentialsGrantRequest(as, { client_id: m2m.client_id }, m2m.auth,
                                                  new URLSearchParams({ scope: 'orders:read' }), opts));
    const noOpenid = await exchange(spa, await runFlow(spa, user, { extra: { scope: 'orders:read' } }));
    assert.equal(noOpenid.id_token, undefined, 'no id_token without openid');
    for (const [what, token] of [['client_credentials', m2mTokens.access_token], ['user token without openid', noOpenid.access_token]]) {
        const r = await userinfo(token);
        assert.equal(r.status, 403, `${what}: ${r.text}`);
        assert.match(r.headers['www-authenticate'] ?? '', /error="insufficient_scope"/, what);
    }
});

// --- the login page ----------------------------------------------------------------------------

test('login: wrong password or unknown user → 401 with role="alert", the same message; then the right one', async () => {
    const user = await createUser();
    const ua = new UserAgent();
    const { params } = await newRequest(spa);
    const page = await loginPage(ua, (await ua.fetch(authorizeUrl(params))).location);
    const wrongPassword = 'Not-The-Password-42';
    passwords.add(wrongPassword);
    const wrong = await submitLogin(ua, page, user.username, wrongPassword);
    assert.equal(wrong.status, 401, wrong.text);
    assert.match(wrong.headers.get('content-type') ?? '', /^text\/html/);
    const alert = element(wrong.text, (t) => t.tag === 'p' && t.attrs.role === 'alert');
    assert.ok(alert?.text, `<p role="alert"> with a message: ${wrong.text}`);
    assert.ok(/\berror\b/.test(tags(wrong.text).find((t) => t.tag === 'p' && t.attrs.role === 'alert').attrs.class),
              'class="error"');
    assert.ok(!wrong.text.includes(wrongPassword), 'the password is not echoed');
    assert.ok(form(wrong.text, 'login-form').fields.csrf, 'the form again');

    const unknown = await submitLogin(ua, wrong, 'no.such.user', wrongPassword);
    assert.equal(unknown.status, 401);
    assert.equal(element(unknown.text, (t) => t.tag === 'p' && t.attrs.role === 'alert')?.text, alert.text,
                 'an unknown user reads like a wrong password');
    const empty = await submitLogin(ua, unknown, user.username, '');
    assert.ok([400, 401].includes(empty.status), `empty password: ${empty.status}`);

    const right = await submitLogin(ua, unknown, user.username, user.password);
    assert.equal(right.status, 303, right.text);
    assert.ok(isPage(right.location, '/oauth2/consent'), right.rawLocation);
});

async function loginAttempt(user, password) {
    const ua = new UserAgent();
    const { params } = await newRequest(spa);
    const page = await loginPage(ua, (await ua.fetch(authorizeUrl(params))).location);
    return submitLogin(ua, page, user.username, password);
}

// The answer to a wrong password: 401, the login page again, its alert and nothing else (no
// Retry-After, no word of a lock). A locked account gets exactly this, whatever the password,
// or its answer would tell that the name exists (only names that exist lock).
const alertOf = (r) => element(r.text, (t) => t.tag === 'p' && t.attrs.role === 'alert')?.text;
function assertAnsweredAsWrong(r, wrongAnswer, what) {
    assert.equal(r.status, 401, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
    assert.equal(r.rawLocation, null, `${what}: no redirect`);
    assert.equal(r.headers.get('retry-after'), null, `${what}: no Retry-After`);
    assert.equal(alertOf(r), alertOf(wrongAnswer), `${what}: the wrong password's message`);
    assert.doesNotMatch(textOf(r.text), /locked/i, `${what}: no word of a lock`);
    assert.equal(r.setCookies.find((c) => c.name === 'gh_session'), undefined, `${what}: no session`);
}

test('login: locked after 5 failures — answered as a wrong password is, even with the right one, as an unknown name is; unlock lets in', async () => {
    const user = await createUser();
    const failures = [];
    for (let i = 1; i <= 5; i += 1) {
        failures.push(await loginAttempt(user, `wrong-${i}-password`));
        assert.equal(failures.at(-1).status, 401, `failure ${i}`);
    }
    const wrongAnswer = failures[0];
    assert.match(alertOf(wrongAnswer), /Wrong username or password\./);
    assertAnsweredAsWrong(failures[4], wrongAnswer, 'the failure that locks');
    assertAnsweredAsWrong(await loginAttempt(user, user.password), wrongAnswer, 'right password while locked');
    assertAnsweredAsWrong(await loginAttempt(user, 'wrong-6-password'), wrongAnswer, 'wrong password while locked');
    // A name that does not exist, tried as often: the same answers.
    const nobody = { username: `nobody-${randomBytes(4).toString('hex')}` };
    for (let i = 1; i <= 6; i += 1)
        assertAnsweredAsWrong(await loginAttempt(nobody, `wrong-${i}-password`), wrongAnswer, `unknown name, try ${i}`);
    // The administrator's event stream tells them apart: the two attempts on the locked account
    // were "locked", the unknown name's all "failure".
    const logins = (await readEvents(b, 500)).filter((e) => e.type === 'oauth.login').map((e) => e.data.data);
    assert.deepEqual(logins.filter((d) => d.username === user.username).map((d) => d.outcome),
                     ['failure', 'failure', 'failure', 'failure', 'failure', 'locked', 'locked']);
    // A name that is no user's is not passed on (it may be a password typed into the wrong
    // field): null, knownUser false.
    assert.equal(logins.filter((d) => d.username === nobody.username).length, 0, JSON.stringify(logins));
    assert.ok(logins.filter((d) => d.username === null && d.knownUser === false && d.outcome === 'failure').length >= 6,
              JSON.stringify(logins));
    assert.ok(logins.filter((d) => d.username === user.username).every((d) => d.knownUser === true));
    const otherCase = await loginAttempt({ username: user.username.toUpperCase() }, user.password);
    assert.notEqual(otherCase.status, 303, 'the lock holds for the username in another case');

    const shown = await adminFetch(b, 'GET', `/admin/v1/users/${user.id}`);
    assert.equal(shown.json.locked, true);
    assert.ok(shown.json.lockedUntil, 'lockedUntil while locked');
    assert.equal(shown.json.failedSignIns, 5, 'the attempts while locked were not counted');
    const unlock = await adminFetch(b, 'POST', `/admin/v1/users/${user.username}/unlock`);
    assert.equal(unlock.status, 200, unlock.text);
    assert.equal(unlock.json.locked, false);
    assert.equal(unlock.json.failedSignIns, 0);
    assert.equal(unlock.json.lockedUntil, undefined);
    const ok = await loginAttempt(user, user.password);
    assert.equal(ok.status, 303, `after unlock: ${ok.text.slice(0, 300)}`);

    // Consecutive failures: a success in between starts the count again.
    const other = await createUser();
    for (let i = 1; i <= 4; i += 1)
        assert.equal((await loginAttempt(other, `wrong-${i}-password`)).status, 401);
    assert.equal((await loginAttempt(other, other.password)).status, 303);
    for (let i = 1; i <= 4; i += 1)
        assert.equal((await loginAttempt(other, `wrong-${i}-password`)).status, 401, `second run, failure ${i}`);
    assert.equal((await loginAttempt(other, other.password)).status, 303, 'not locked: the failures were not consecutive');
});

test('login and consent: a csrf field or cookie not belonging to the interaction → 400 error page', async () => {
    const user = await createUser();
    const ua = new UserAgent();
    const { params } = await newRequest(spa);
    const start = await ua.fetch(authorizeUrl(params));
    const page = await loginPage(ua, start.location);
    const f = form(page.text, 'login-form');
    const creds = { username: user.username, password: user.password };
    const loginUrl = new URL('/oauth2/login', issuer);

    const other = new UserAgent(); // a browser with its own interaction (and cookie)
    const otherStart = await other.fetch(authorizeUrl((await newRequest(spa)).params));
    const otherForm = form((await loginPage(other, otherStart.location)).text, 'login-form');

    const attempts = [
        ['wrong csrf', ua, { ...f.fields, csrf: 'x'.repeat(f.fields.csrf.length), ...creds }],
        ['csrf missing', ua, { interaction: f.fields.interaction, ...creds }],
        ['another interaction\'s csrf', ua, { ...f.fields, csrf: otherForm.fields.csrf, ...creds }],
        ['no cookie', new UserAgent(), { ...f.fields, ...creds }],
        ['another interaction\'s cookie', other, { ...f.fields, ...creds }],
    ];
    for (const [what, agent, fields] of attempts) {
        const r = await agent.fetch(loginUrl, { method: 'POST', form: fields });
        assertErrorPage(r, `login, ${what}`, undefined);
        assert.equal(r.setCookies.find((c) => c.name === 'gh_session'), undefined, `${what}: no session`);
    }
    assertErrorPage(await new UserAgent().fetch(start.location), 'login page without the cookie', undefined);
    assertErrorPage(await ua.fetch(new URL('/oauth2/login?interaction=nope', issuer)), 'login page, unknown interaction', undefined);

    // The consent form, after a real login.
    const fresh = new UserAgent();
    let r = await fresh.fetch(authorizeUrl((await newRequest(spa)).params));
    r = await submitLogin(fresh, await loginPage(fresh, r.location), user.username, user.password);
    assert.equal(r.status, 303);
    const consent = await consentPage(fresh, r.location);
    const cf = form(consent.text, 'consent-form');
    const consentUrl = new URL('/oauth2/consent', issuer);
    for (const [what, agent, fields] of [
        ['wrong csrf', fresh, { ...cf.fields, csrf: 'y'.repeat(cf.fields.csrf.length), decision: 'allow' }],
        ['no cookies', new UserAgent(), { ...cf.fields, decision: 'allow' }],
    ]) {
        const resp = await agent.fetch(consentUrl, { method: 'POST', form: fields });
        assertErrorPage(resp, `consent, ${what}`, undefined);
    }
    assertErrorPage(await new UserAgent().fetch(r.location), 'consent page without cookies', undefined);
    assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/consents?user=${user.id}`)).json.items, [],
                     'no consent was recorded');
});

// --- users and their tokens ---------------------------------------------------------------------

test('deleting a user revokes their tokens and consents', async () => {
    const user = await createUser();
    // orders:read: the access token is for the orders API, which the resource server m2m serves.
    const flow = await runFlow(spa, user, { extra: { scope: `${OFFLINE_SCOPE} orders:read` } });
    const t = await exchange(spa, flow);
    assert.equal((await introspect(t.access_token)).active, true);
    assert.deepEqual(await activeKinds(spa, user.id), ['access', 'refresh'], 'both live');
    assert.equal((await userinfo(t.access_token)).status, 200);
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/users/${user.id}`)).status, 204);
    assert.equal((await introspect(t.access_token)).active, false, 'access token');
    assert.deepEqual(await activeKinds(spa, user.id), [], 'access and refresh token revoked');
    assertTokenError(await tokenRequest(spa, { grant_type: 'refresh_token', refresh_token: t.refresh_token }),
                     'invalid_grant', 'refresh for a deleted user');
    assert.equal((await userinfo(t.access_token)).status, 401);
    assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/consents?user=${user.id}`)).json.items, []);
    // The browser session of the deleted user yields no code.
    const r = await flow.ua.fetch(authorizeUrl((await newRequest(spa)).params));
    assert.equal(r.status, 303);
    assert.equal(r.location.searchParams.get('code'), null, `no code for a deleted user: ${r.rawLocation}`);
});

test('no password in stderr or in the oauth.login events', async () => {
    assert.ok(passwords.size > 10);
    for (const p of passwords)
        assert.ok(!b.stderr.includes(p), `a password in stderr:\n${b.stderr}`);
    const events = await readEvents(b, 1000);
    const logins = events.filter((e) => e.type === 'oauth.login');
    assert.ok(logins.length > 0, `oauth.login events: ${events.map((e) => e.type)}`);
    const outcomes = new Set(logins.map((e) => e.data.data.outcome));
    assert.ok(outcomes.has('success') && outcomes.has('failure'), `success and failure recorded: ${[...outcomes]}`);
    for (const e of events)
        for (const p of passwords)
            assert.ok(!e.raw.includes(p), `a password in event ${e.raw}`);
});

// --- the per-address rate limit, on a backend of its own (default 20 attempts a minute) ---------

test('login: more than 20 attempts a minute from one address → 429 with Retry-After', async () => {
    const own = await startBackend();
    try {
        const ownAs = await oauth.processDiscoveryResponse(new URL(own.serviceUrl),
            await oauth.discoveryRequest(new URL(own.serviceUrl), { ...opts, algorithm: 'oidc' }));
        const c = (await adminFetch(own, 'POST', '/admin/v1/clients', { client_name: 'rate', token_endpoint_auth_method: 'none',
            grant_types: ['authorization_code'], scope: 'openid', redirect_uris: ['http://127.0.0.1:9/rate'] })).json;
        const password = 'the right password';
        passwords.add(password);
        assert.equal((await adminFetch(own, 'POST', '/admin/v1/users', { username: 'rater', password })).status, 201);
        const ua = new UserAgent();
        const verifier = oauth.generateRandomCodeVerifier();
        const url = new URL(ownAs.authorization_endpoint);
        url.search = new URLSearchParams({ response_type: 'code', client_id: c.client_id, scope: 'openid',
                                           code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
                                           code_challenge_method: 'S256' }).toString();
        let page = await ua.fetch(await ua.fetch(url).then((r) => r.location));
        assert.equal(page.status, 200);
        for (let i = 1; i <= 20; i += 1) {
            const f = form(page.text, 'login-form');
            page = await ua.fetch(new URL(f.action, own.serviceUrl),
                                  { method: 'POST', form: { ...f.fields, username: `ghost${i}`, password: 'wrong password' } });
            assert.equal(page.status, 401, `attempt ${i}`);
        }
        const f = form(page.text, 'login-form');
        const limited = await ua.fetch(new URL(f.action, own.serviceUrl),
                                       { method: 'POST', form: { ...f.fields, username: 'rater', password } });
        assert.equal(limited.status, 429, `attempt 21: ${limited.text.slice(0, 300)}`);
        const retry = Number(limited.headers.get('retry-after'));
        assert.ok(Number.isInteger(retry) && retry > 0 && retry <= 60, `Retry-After ${limited.headers.get('retry-after')}`);
        assert.ok(!own.stderr.includes(password));
    } finally {
        assert.equal(await own.stop(), 0, own.stderr);
    }
});

// --- an https issuer behind a proxy, and a restart, on a backend of its own -------------------

test('https issuer: Secure cookies, https iss; browser sessions, sign-ins under way and tokens outlive a restart', async () => {
    const publicUrl = 'https://login.example.org';
    const env = { GATEHOUSE_PUBLIC_BASE_URL: publicUrl };
    let own = await startBackend({ env });
    try {
        const disc = await request(`${own.serviceUrl}/.well-known/openid-configuration`, 'GET');
        assert.equal(disc.json.issuer, publicUrl);
        assert.equal(disc.json.authorization_endpoint, `${publicUrl}/oauth2/authorize`);
        const local = (url) => new URL(url.pathname + url.search, own.serviceUrl); // through the "proxy"
        const reg = async (metadata) => {
            const r = await adminFetch(own, 'POST', '/admin/v1/clients', metadata);
            assert.equal(r.status, 201, r.text);
            return r.json;
        };
        const c = await reg({ client_name: 'Behind TLS', token_endpoint_auth_method: 'none',
                              scope: 'openid email orders:read offline_access',
                              grant_types: ['authorization_code', 'refresh_token'], redirect_uris: ['https://app.example.org/cb'] });
        // A resource server for the orders API: it may introspect the user's orders:read token.
        const introspector = await reg({ client_name: 'RS', grant_types: ['client_credentials'], scope: 'orders:read',
                                         resource_server: true });
        const password = `pw-${randomBytes(9).toString('base64url')}`;
        passwords.add(password);
        const u = await adminFetch(own, 'POST', '/admin/v1/users', { username: 'tls.user', password, email: 't@example.org' });
        assert.equal(u.status, 201, u.text);

        const ua = new UserAgent({ behindTls: true });
        const verifier = oauth.generateRandomCodeVerifier();
        const params = { response_type: 'code', client_id: c.client_id, scope: 'openid email orders:read offline_access', state: 'tls',
                         nonce: 'n-tls', code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
                         code_challenge_method: 'S256' };
        let r = await ua.fetch(`${own.serviceUrl}/oauth2/authorize?${new URLSearchParams(params)}`);
        assert.equal(r.status, 303, r.text);
        assertCookie(r, 'gh_interaction', 'https authorize', { secure: true });
        r = await submitLogin(ua, await loginPage(ua, local(r.location)), 'tls.user', password, own.serviceUrl);
        assert.equal(r.status, 303, r.text);
        assertCookie(r, 'gh_session', 'https login', { secure: true });
        r = await submitConsent(ua, await consentPage(ua, local(r.location)), 'allow', own.serviceUrl);
        assertRedirectedTo(r, c.redirect_uris[0], 'https issuer');
        assert.equal(r.location.searchParams.get('iss'), publicUrl);

        const token = (fields) => request(`${own.serviceUrl}/oauth2/token`, 'POST', new URLSearchParams({ client_id: c.client_id, ...fields }).toString(),
                                          { 'Content-Type': 'application/x-www-form-urlencoded' });
        const t = await token({ grant_type: 'authorization_code', code: r.location.searchParams.get('code'),
                                code_verifier: verifier });
        assert.equal(t.status, 200, t.text);
        assert.ok(t.json.refresh_token, 'a refresh token (offline_access)');
        assert.equal(jose.decodeJwt(t.json.id_token).iss, publicUrl);
        assert.equal(jose.decodeJwt(t.json.access_token).iss, publicUrl);
        assert.equal(jose.decodeJwt(t.json.access_token).aud, `${publicUrl}/v1`, 'for the orders API');

        // A sign-in started before the restart, its login page open in a second browser.
        const pendingUa = new UserAgent({ behindTls: true });
        const pendingVerifier = oauth.generateRandomCodeVerifier();
        const pendingParams = { ...params, state: 'across', code_challenge: await oauth.calculatePKCECodeChallenge(pendingVerifier) };
        const started = await pendingUa.fetch(`${own.serviceUrl}/oauth2/authorize?${new URLSearchParams(pendingParams)}`);
        assert.equal(started.status, 303, started.text);
        const pendingLogin = await loginPage(pendingUa, local(started.location));

        const dataDir = own.dataDir;
        assert.equal(await own.stop(), 0, own.stderr);
        own = await startBackend({ dataDir, env });
        const intro = await request(`${own.serviceUrl}/oauth2/introspect`, 'POST', `token=${encodeURIComponent(t.json.access_token)}`,
            { 'Content-Type': 'application/x-www-form-urlencoded',
              Authorization: 'Basic ' + Buffer.from(`${introspector.client_id}:${introspector.client_secret}`).toString('base64') });
        assert.equal(intro.status, 200, intro.text);
        assert.equal(intro.json.active, true, 'the access token survives the restart');
        assert.equal(intro.json.aud, `${publicUrl}/v1`);
        const refreshed = await token({ grant_type: 'refresh_token', refresh_token: t.json.refresh_token });
        assert.equal(refreshed.status, 200, `the refresh token survives the restart: ${refreshed.text}`);
        // The browser session and the consent outlive the restart (they are in the database):
        // the code comes without a login page.
        const again = await ua.fetch(`${own.serviceUrl}/oauth2/authorize?${new URLSearchParams({ ...params, state: 'after' })}`);
        assert.equal(again.status, 303, again.text);
        assertRedirectedTo(again, c.redirect_uris[0], 'the browser session survives the restart');
        assert.equal(again.location.searchParams.get('state'), 'after');
        // The sign-in started before the restart finishes after it, and its code is good.
        r = await submitLogin(pendingUa, pendingLogin, 'tls.user', password, own.serviceUrl);
        assert.equal(r.status, 303, r.text);
        assertRedirectedTo(r, c.redirect_uris[0], 'a sign-in across the restart (consent remembered)');
        assert.equal(r.location.searchParams.get('state'), 'across');
        const across = await token({ grant_type: 'authorization_code', code: r.location.searchParams.get('code'),
                                     code_verifier: pendingVerifier });
        assert.equal(across.status, 200, across.text);
        assert.ok(!own.stderr.includes(password));
    } finally {
        assert.equal(await own.stop(), 0, own.stderr);
    }
});

test('expiry, part 2: after 61 s the code is invalid_grant, the access token 401 and inactive', async () => {
    assert.ok(expiring, 'part 1 ran');
    const wait = expiring.at + 61_000 - Date.now();
    if (wait > 0)
        await sleep(wait);
    const { client: c, tokens, pending } = expiring;
    assertTokenError(await tokenRequest(c, { grant_type: 'authorization_code', code: pending.callback.searchParams.get('code'),
                                             redirect_uri: pending.params.redirect_uri, code_verifier: pending.verifier }),
                     'invalid_grant', 'a code older than 60 s');
    const r = await userinfo(tokens.access_token);
    assert.equal(r.status, 401, `an expired access token: ${r.text}`);
    assert.match(r.headers['www-authenticate'] ?? '', /error="invalid_token"/);
    assert.equal((await introspect(tokens.access_token)).active, false);
});

test('RP-initiated logout: a confirmation on this server\'s own form ends the browser session, then back to a registered post_logout_redirect_uri with state; never elsewhere', async () => {
    assert.equal(as.end_session_endpoint, `${issuer}/oauth2/logout`);
    const back = 'https://rp.example.test/signed-out';
    // Registered by the same rules as redirect_uris.
    for (const bad of ['http://rp.example.test/out', 'https://rp.example.test/out#x', 'relative/out'])
        assert.equal((await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: 'bad logout', token_endpoint_auth_method: 'none', redirect_uris: ['https://rp.example.test/cb'],
            post_logout_redirect_uris: [bad] })).json?.error, 'invalid_redirect_uri', bad);
    const c = await register({ client_name: 'Logout RP', token_endpoint_auth_method: 'none', scope: 'openid profile email',
                               redirect_uris: ['https://rp.example.test/cb'], post_logout_redirect_uris: [back] });
    assert.deepEqual(c.post_logout_redirect_uris, [back]);
    const user = await createUser();
    const flow = await runFlow(c, user);
    const tokens = await exchange(c, flow);
    assert.ok(tokens.id_token);
    const ua = flow.ua;
    const logoutUrl = (params) => {
        const u = new URL(as.end_session_endpoint);
        for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
        return u;
    };

    // Refused before anything else: an unregistered target, another client's, a forged hint.
    const otherTokens = await exchange(spa, await runFlow(spa, user, { extra: { scope: 'openid' } }));
    for (const [params, why] of [
        [{ id_token_hint: tokens.id_token, post_logout_redirect_uri: 'https://evil.example/' }, /not registered/],
        [{ id_token_hint: otherTokens.id_token, post_logout_redirect_uri: back }, /not registered/],
        [{ post_logout_redirect_uri: back }, /needs id_token_hint or client_id/],
        [{ id_token_hint: `${tokens.id_token.slice(0, -4)}AAAA` }, /not an id_token this server issued/],
        [{ id_token_hint: tokens.id_token, client_id: spa.client_id }, /not the id_token_hint's audience/],
    ]) {
        const r = await ua.fetch(logoutUrl(params));
        assertErrorPage(r, JSON.stringify(params));
        assert.match(element(r.text, 'error-description').text, why);
    }
    // A request alone (a link or an image on any site) signs nobody out: it asks. A cross-site
    // POST comes without the session cookie (SameSite=Lax): its answer clears no cookie either.
    const crossSite = await new UserAgent().fetch(logoutUrl({}), { method: 'POST', form: {} });
    assert.equal(crossSite.status, 200, crossSite.text);
    assert.deepEqual(crossSite.setCookies, []);
    const ask = await ua.fetch(logoutUrl({ id_token_hint: tokens.id_token, post_logout_redirect_uri: back, state: 's 1' }));
    assert.equal(ask.status, 200, ask.text);
    assert.equal(element(ask.text, 'username').text, user.username);
    const f = form(ask.text, 'logout-form');
    assert.equal(f.method, 'post');
    // Another browser's (or a forged) form token: refused, still signed in.
    const forged = await ua.fetch(new URL(f.action, issuer), { method: 'POST', form: { ...f.fields, csrf: 'x'.repeat(43) } });
    assertErrorPage(forged, 'a forged sign-out form');
    const stillIn = await ua.fetch(authorizeUrl((await newRequest(c)).params));
    assert.equal(stillIn.status, 303);
    assert.ok(!isPage(stillIn.location, '/oauth2/login'), `still signed in (${stillIn.rawLocation})`);
    // A consent page of another application, left open in this browser.
    const c2 = await register({ client_name: 'Other RP', token_endpoint_auth_method: 'none', scope: 'openid profile',
                                redirect_uris: ['https://rp2.example.test/cb'] });
    const pending = await ua.fetch(authorizeUrl((await newRequest(c2, { scope: 'openid profile' })).params));
    assert.ok(isPage(pending.location, '/oauth2/consent'), pending.rawLocation);
    const leftOpen = await consentPage(ua, pending.location);
    // Confirmed: the session ends, back to the client with its state (sent as 's+1').
    const oldCookie = ua.cookies.get('gh_session');
    assert.ok(oldCookie);
    const out = await ua.fetch(new URL(f.action, issuer), { method: 'POST', form: f.fields });
    assert.equal(out.status, 303, out.text);
    assert.equal(out.rawLocation, `${back}?state=s%201`);
    // The consent page left open gives the next person at this computer nothing.
    const allowed = await submitConsent(ua, leftOpen, 'allow');
    assertErrorPage(allowed, 'a consent page left open after the sign-out');
    assert.match(element(allowed.text, 'error-description').text, /signed out/);
    assert.ok(out.setCookies.some((sc) => sc.name === 'gh_session' && sc.value === '' && sc.attrs['max-age'] === '0'),
              JSON.stringify(out.setCookies));
    const again = await ua.fetch(authorizeUrl((await newRequest(c)).params));
    assert.ok(isPage(again.location, '/oauth2/login'), `signed out: the login page (${again.rawLocation})`);
    // The old cookie is worth nothing now, even sent again by hand.
    const replay = new UserAgent();
    replay.cookies.set('gh_session', oldCookie);
    const replayed = await replay.fetch(authorizeUrl((await newRequest(c)).params));
    assert.ok(isPage(replayed.location, '/oauth2/login'), `the old cookie: the login page (${replayed.rawLocation})`);
    // Nobody signed in: straight back, nothing to confirm; without a target, a page that says so.
    const direct = await ua.fetch(logoutUrl({ client_id: c.client_id, post_logout_redirect_uri: back }));
    assert.equal(direct.status, 303);
    assert.equal(direct.rawLocation, back);
    // A state that would not fit a Location header once encoded: the error page, no redirect.
    const tooLong = await ua.fetch(logoutUrl({ client_id: c.client_id, post_logout_redirect_uri: back, state: '!'.repeat(683) }));
    assertErrorPage(tooLong, 'a state of 2,049 bytes once encoded');
    assert.match(tooLong.text, /state is longer than 2048 bytes once percent-encoded/);
    const plain = await ua.fetch(logoutUrl({}));
    assert.equal(plain.status, 200);
    assert.ok(element(plain.text, 'signed-out'));
    // openid-client builds the same request.
    const config = await oidc.discovery(new URL(issuer), c.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const built = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token, post_logout_redirect_uri: back, state: 's-2' });
    const viaLib = await new UserAgent().fetch(built);
    assert.equal(viaLib.status, 303, viaLib.text);
    assert.equal(viaLib.rawLocation, `${back}?state=s-2`);
});
