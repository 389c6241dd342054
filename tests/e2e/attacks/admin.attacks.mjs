// Attacks on the admin API (README "Admin API", docs/admin-tokens.md): no token, a wrong, a
// revoked or a misplaced one (query string, Basic), scoped tokens reaching outside their areas
// (clients, users, RBAC, OAuth tokens, the audit log, kubeconfigs, settings, the cluster
// passthrough), escalation through admin-token creation, and path tricks around the area
// check. Each answer is the documented 401 / 403, and the root token re-reads what the attack
// aimed at: nothing was created, revoked or changed.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { X509Certificate, randomUUID } from 'node:crypto';
import * as jose from 'jose';

import { startBackend, adminFetch, request, waitFor } from '../lib/backend.mjs';
import { adminKube, kubeRequest } from '../lib/cluster.mjs';
import { attack, activeTokenIds, assertOAuthError, formPost, later, registerClient } from './lib/attack.mjs';
import { redeem, signIn, tokenRequest } from './lib/flow.mjs';
import { UserAgent, form } from '../lib/browser.mjs';

const invalid = { error: 'unauthorized', message: 'invalid admin token' };

describe('admin API: tokens, scopes and escalation', () => {
    let b;
    let reader; // orders:read
    let delegate; // admin:write + orders:read: may create tokens, at most with what it holds
    let clusterReader; // cluster:read
    let victimClient; // an OAuth client holding one active token

    async function createToken(name, permissions, as = b.adminToken, extra = {}) {
        return request(`${b.adminUrl}/admin/v1/admin-tokens`, 'POST', { name, permissions, ...extra },
                       { Authorization: `Bearer ${as}` });
    }

    before(async () => {
        b = await startBackend();
        const made = {};
        for (const [name, permissions] of [['reader', ['orders:read']], ['delegate', ['admin:write', 'orders:read']],
                                           ['cluster-reader', ['cluster:read']]]) {
            const r = await createToken(name, permissions);
            assert.equal(r.status, 201, r.text);
            made[name] = r.json;
        }
        reader = made.reader;
        delegate = made.delegate;
        clusterReader = made['cluster-reader'];
        victimClient = await registerClient(b, { client_name: 'victim', grant_types: ['client_credentials'], scope: 'orders:read' });
        const t = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: victimClient.client_id });
        assert.equal(t.status, 200, t.text);
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    const as = (token, method, path, body, headers = {}) =>
        request(b.adminUrl + path, method, body, token === undefined ? headers : { Authorization: `Bearer ${token}`, ...headers });

    function assertUnauthorized(r, body, what) {
        assert.equal(r.status, 401, `${what}: ${r.text}`);
        assert.deepEqual(r.json, body, what);
        assert.equal(r.headers['www-authenticate'], 'Bearer realm="gatehouse-admin"', what);
    }

    function assertForbidden(r, message, what) {
        assert.equal(r.status, 403, `${what}: ${r.text}`);
        assert.deepEqual(r.json, { error: 'forbidden', message }, what);
    }

    const refusedWrite = (token, area, holds) => `admin token '${token}' may not change the ${area} area (it holds ${holds})`;
    const refusedRead = (token, area, holds) => `admin token '${token}' may not read the ${area} area (it holds ${holds})`;

    async function clientNames() {
        const r = await adminFetch(b, 'GET', '/admin/v1/clients');
        assert.equal(r.status, 200, r.text);
        return r.json.items.map((c) => c.client_name);
    }

    async function usernames() {
        const r = await adminFetch(b, 'GET', '/admin/v1/users');
        assert.equal(r.status, 200, r.text);
        return r.json.items.map((u) => u.username);
    }

    async function tokenNames() {
        const r = await adminFetch(b, 'GET', '/admin/v1/admin-tokens');
        assert.equal(r.status, 200, r.text);
        return r.json.items.map((t) => t.name);
    }

    // --- what an expiring oauth:write token issues ends with it (docs/admin-tokens.md) -----------
    // An oauth:write token that ends in a minute issues every credential the oauth area hands
    // out, on a backend of its own; a later check (run once the other modules have run, by then
    // the minute is over) presents each after that end, and stops that backend.
    const outliving = {};
    const payloadOf = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url'));
    const clientAssertion = (eb, clientId, key) =>
        new jose.SignJWT({ jti: randomUUID() }).setProtectedHeader({ alg: 'ES256', kid: 'ci-key' })
            .setIssuer(clientId).setSubject(clientId).setAudience(eb.serviceUrl)
            .setIssuedAt().setExpirationTime('2m').sign(key);
    const partnerAssertion = (eb, key) =>
        new jose.SignJWT({ jti: randomUUID() }).setProtectedHeader({ alg: 'ES256', kid: 'ci-idp' })
            .setIssuer('https://ci-idp.example').setSubject('partner-user').setAudience(eb.serviceUrl)
            .setIssuedAt().setExpirationTime('2m').sign(key);
    const keyAuthentication = async (eb, clientId, key) => ({
        grant_type: 'client_credentials', client_id: clientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await clientAssertion(eb, clientId, key) });

    attack('admin: an oauth:write token that expires in a minute issues a client secret, a rotated secret, a client key, a minted token, an initial access token\'s registration, a trusted issuer and passwords that outlive it', async () => {
        const eb = outliving.b = await startBackend();
        const root = (method, path, body) => adminFetch(eb, method, path, body);
        const made = await request(`${eb.adminUrl}/admin/v1/admin-tokens`, 'POST',
                                   { name: 'ci-oauth', permissions: ['oauth:write'], expiresIn: 60 },
                                   { Authorization: `Bearer ${eb.adminToken}` });
        assert.equal(made.status, 201, made.text);
        const ci = (method, path, body) => request(eb.adminUrl + path, method, body, { Authorization: `Bearer ${made.json.token}` });
        outliving.endsAt = Date.parse(made.json.expiresAt);
        const endsS = Math.floor(outliving.endsAt / 1000);
        const m2m = { grant_types: ['client_credentials'], scope: 'openid' };
        const registered = async (metadata) => {
            const r = await root('POST', '/admin/v1/clients', metadata);
            assert.equal(r.status, 201, r.text);
            return r.json;
        };
        // A client it registers: the secret ends with it (RFC 7591 client_secret_expires_at),
        // and so do the client's tokens.
        const own = await ci('POST', '/admin/v1/clients', { client_name: 'ci-keeper', ...m2m });
        assert.equal(own.status, 201, own.text);
        assert.equal(own.json.client_secret_expires_at, endsS);
        assert.equal((await root('GET', `/admin/v1/clients/${own.json.client_id}`)).json.client_secret_expires_at, endsS);
        const t = await tokenRequest(eb, own.json, { grant_type: 'client_credentials' });
        assert.equal(t.status, 200, t.text);
        assert.ok(payloadOf(t.json.access_token).exp <= endsS, `exp ${payloadOf(t.json.access_token).exp}, the admin token ends ${endsS}`);
        assert.ok(t.json.expires_in <= 60, `expires_in ${t.json.expires_in}`);
        // The secret it rotates of the root token's client.
        const rootClient = await registered({ client_name: 'root-m2m', ...m2m });
        assert.equal(rootClient.client_secret_expires_at, 0);
        const rotated = await ci('POST', `/admin/v1/clients/${rootClient.client_id}/rotate-secret`);
        assert.equal(rotated.status, 200, rotated.text);
        assert.equal(rotated.json.client_secret_expires_at, endsS);
        // A private_key_jwt client with its key.
        const key = await jose.generateKeyPair('ES256', { extractable: true });
        const jwk = { ...(await jose.exportJWK(key.publicKey)), kid: 'ci-key', alg: 'ES256', use: 'sig' };
        const keyed = await ci('POST', '/admin/v1/clients', { client_name: 'ci-key', ...m2m,
                                                              token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] } });
        assert.equal(keyed.status, 201, keyed.text);
        assert.equal(keyed.json.client_secret_expires_at, endsS);
        // A key it adds to the root token's key client: the client's keys end with it; the root
        // token's change that keeps that key keeps the end, one that replaces every key lifts it.
        const keyJwk = async (kid) => ({ ...(await jose.exportJWK((await jose.generateKeyPair('ES256', { extractable: true })).publicKey)),
                                         kid, alg: 'ES256', use: 'sig' });
        const rootJwk = await keyJwk('root-key');
        const keyMeta = { client_name: 'root-key-client', ...m2m, token_endpoint_auth_method: 'private_key_jwt' };
        const rootKeyed = await registered({ ...keyMeta, jwks: { keys: [rootJwk] } });
        assert.equal(rootKeyed.client_secret_expires_at, 0);
        const planted = await keyJwk('planted');
        const withPlanted = await ci('PUT', `/admin/v1/clients/${rootKeyed.client_id}`, { ...keyMeta, jwks: { keys: [rootJwk, planted] } });
        assert.equal(withPlanted.status, 200, withPlanted.text);
        assert.equal(withPlanted.json.client_secret_expires_at, endsS);
        const renamed = await root('PUT', `/admin/v1/clients/${rootKeyed.client_id}`,
                                   { ...keyMeta, client_name: 'renamed', jwks: { keys: [rootJwk, planted] } });
        assert.equal(renamed.status, 200, renamed.text);
        assert.equal(renamed.json.client_secret_expires_at, endsS, 'the planted key is still there: the end stays');
        const rekeyed = await root('PUT', `/admin/v1/clients/${rootKeyed.client_id}`, { ...keyMeta, jwks: { keys: [await keyJwk('fresh')] } });
        assert.equal(rekeyed.status, 200, rekeyed.text);
        assert.equal(rekeyed.json.client_secret_expires_at, 0, 'every key replaced by the root token');
        // A token it mints for another of the root token's clients.
        const other = await registered({ client_name: 'root-m2m-2', ...m2m });
        const minted = await ci('POST', '/admin/v1/tokens', { client_id: other.client_id });
        assert.equal(minted.status, 200, minted.text);
        assert.ok(payloadOf(minted.json.access_token).exp <= endsS, `minted exp ${payloadOf(minted.json.access_token).exp}`);
        // An initial access token (asked for a day) and a client registered with it.
        const iat = await ci('POST', '/admin/v1/initial-access-tokens',
                             { expiresIn: 86400, maxUses: 5, policy: { grantTypes: ['client_credentials'], scopes: ['openid'] } });
        assert.equal(iat.status, 201, iat.text);
        assert.ok(Date.parse(iat.json.expiresAt) <= outliving.endsAt, `the initial access token ends ${iat.json.expiresAt}`);
        assert.equal(Date.parse(iat.json.credentialsUntil), outliving.endsAt);
        const dynamic = await request(`${eb.serviceUrl}/oauth2/register`, 'POST', { client_name: 'ci-registered', ...m2m },
                                      { Authorization: `Bearer ${iat.json.token}` });
        assert.equal(dynamic.status, 201, dynamic.text);
        assert.equal(dynamic.json.client_secret_expires_at, endsS);
        // A trusted issuer with its keys, for a client of the root token's with the jwt-bearer grant.
        const idp = await jose.generateKeyPair('ES256', { extractable: true });
        const idpJwk = { ...(await jose.exportJWK(idp.publicKey)), kid: 'ci-idp', alg: 'ES256', use: 'sig' };
        const trusted = await ci('POST', '/admin/v1/trusted-issuers',
                                 { issuer: 'https://ci-idp.example', jwks: { keys: [idpJwk] }, scopes: ['openid'], anySubject: true });
        assert.equal(trusted.status, 201, trusted.text);
        assert.ok(Date.parse(trusted.json.expiresAt) <= outliving.endsAt, `the trust ends ${trusted.json.expiresAt}`);
        const bearerClient = await registered({ client_name: 'root-bearer', scope: 'openid',
                                                grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'] });
        const asserted = await tokenRequest(eb, bearerClient, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
                                                                assertion: await partnerAssertion(eb, idp.privateKey) });
        assert.equal(asserted.status, 200, asserted.text);
        assert.ok(payloadOf(asserted.json.access_token).exp <= endsS, `jwt-bearer exp ${payloadOf(asserted.json.access_token).exp}`);
        // A user it makes, and a password it resets of the root token's user: each password ends
        // with it, and so does what a sign-in with it gets (access, id and refresh tokens).
        const legacy = await registered({ client_name: 'root-legacy', grant_types: ['password', 'refresh_token'],
                                          scope: 'openid offline_access' });
        const person = await ci('POST', '/admin/v1/users', { username: 'ci-person', password: 'a long password 1' });
        assert.equal(person.status, 201, person.text);
        assert.equal(Date.parse(person.json.passwordEndsAt), outliving.endsAt);
        const victim = await root('POST', '/admin/v1/users', { username: 'root-person', password: 'the root password 1' });
        assert.equal(victim.status, 201, victim.text);
        assert.equal(victim.json.passwordEndsAt, undefined);
        const reset = await ci('PATCH', `/admin/v1/users/${victim.json.id}`, { password: 'a long password 2' });
        assert.equal(reset.status, 200, reset.text);
        assert.equal(Date.parse(reset.json.passwordEndsAt), outliving.endsAt);
        const signIns = {};
        for (const [username, password] of [['ci-person', 'a long password 1'], ['root-person', 'a long password 2']]) {
            const r = await tokenRequest(eb, legacy, { grant_type: 'password', username, password, scope: 'openid offline_access' });
            assert.equal(r.status, 200, r.text);
            for (const jwt of [r.json.access_token, r.json.id_token])
                assert.ok(payloadOf(jwt).exp <= endsS, `${username}: exp ${payloadOf(jwt).exp}`);
            assert.ok(r.json.refresh_token, r.text);
            signIns[username] = { password, refresh: r.json.refresh_token };
        }
        // And in a browser: the session it leaves behind.
        const webApp = await registered({ client_name: 'root-web', redirect_uris: ['https://web.example/cb'], scope: 'openid' });
        const browser = await signIn(eb, webApp, { username: 'ci-person', password: 'a long password 1' });
        const web = await redeem(eb, webApp, browser);
        assert.ok(payloadOf(web.id_token).exp <= endsS, `browser sign-in: exp ${payloadOf(web.id_token).exp}`);
        // Each works now.
        const byKey = await formPost(eb, '/oauth2/token', await keyAuthentication(eb, keyed.json.client_id, key.privateKey));
        assert.equal(byKey.status, 200, byKey.text);
        for (const client of [rotated.json, dynamic.json]) {
            const r = await tokenRequest(eb, client, { grant_type: 'client_credentials' });
            assert.equal(r.status, 200, r.text);
        }
        Object.assign(outliving, { own: own.json, rotated: rotated.json, dynamic: dynamic.json, keyed: keyed.json,
                                   key, idp, bearerClient, rootClient, legacy, signIns, victim: victim.json,
                                   webApp, browserUa: browser.ua });
    });

    later('admin: after the expiring oauth:write token ended, the secrets, the key, the registration, the trusted issuer and the passwords it left authenticate nothing', async () => {
        const eb = outliving.b;
        assert.ok(eb, 'the backend of the first attack started');
        try {
            assert.ok(outliving.bearerClient, 'the credentials were issued (the first attack of admin.attacks.mjs)');
            const wait = outliving.endsAt + 1000 - Date.now();
            if (wait > 0)
                await new Promise((resolve) => setTimeout(resolve, wait));
            const ended = /^this client's credentials ended at .*, with the admin token that issued them: an administrator can issue new ones \(rotate-secret\)$/;
            for (const [what, client] of [['its own client', outliving.own], ['the rotated secret', outliving.rotated],
                                          ['the registered client', outliving.dynamic]]) {
                const r = await tokenRequest(eb, client, { grant_type: 'client_credentials' });
                assertOAuthError(r, 401, 'invalid_client', ended, what);
                assert.deepEqual(await activeTokenIds(eb, client.client_id), [], `${what}: no active token`);
            }
            const byKey = await formPost(eb, '/oauth2/token', await keyAuthentication(eb, outliving.keyed.client_id, outliving.key.privateKey));
            assertOAuthError(byKey, 401, 'invalid_client', ended, 'the key');
            // Nor does the root token mint for such a client: its tokens would be dead on arrival.
            const mint = await adminFetch(eb, 'POST', '/admin/v1/tokens', { client_id: outliving.own.client_id });
            assert.equal(mint.status, 409, mint.text);
            assert.equal(mint.json.error, 'credentials-ended', mint.text);
            assert.match(mint.json.message, /^client .*'s credentials ended at .*: rotate its secret first$/);
            assert.deepEqual(await activeTokenIds(eb, outliving.own.client_id), [], 'nothing minted');
            const asserted = await tokenRequest(eb, outliving.bearerClient, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
                                                                             assertion: await partnerAssertion(eb, outliving.idp.privateKey) });
            assertOAuthError(asserted, 400, 'invalid_grant', /^the assertion's issuer is not trusted$/, 'the trusted issuer');
            assert.deepEqual(await activeTokenIds(eb, outliving.bearerClient.client_id), [], 'no jwt-bearer token active');
            // The passwords it set sign nobody in, and what signing in with them got ended too.
            for (const [username, { password, refresh }] of Object.entries(outliving.signIns)) {
                const signIn = await tokenRequest(eb, outliving.legacy, { grant_type: 'password', username, password, scope: 'openid' });
                assertOAuthError(signIn, 400, 'invalid_grant',
                                 /^the password ended with the admin token that set it: an administrator can reset it$/, username);
                const refreshed = await tokenRequest(eb, outliving.legacy, { grant_type: 'refresh_token', refresh_token: refresh });
                assertOAuthError(refreshed, 400, 'invalid_grant', null, `${username}'s refresh token`);
            }
            assert.deepEqual(await activeTokenIds(eb, outliving.legacy.client_id), [], 'no token of a sign-in active');
            // The browser: its session still finds the user, but its code is worth nothing; a new
            // sign-in is told why it is refused.
            const fromSession = await signIn(eb, outliving.webApp, {}, { ua: outliving.browserUa });
            const code = await tokenRequest(eb, outliving.webApp, { grant_type: 'authorization_code', code: fromSession.code,
                                                                   redirect_uri: 'https://web.example/cb', code_verifier: fromSession.verifier });
            assertOAuthError(code, 400, 'invalid_grant', /^the user's password ended at .*, with the admin token that set it$/, 'the session');
            assert.deepEqual(await activeTokenIds(eb, outliving.webApp.client_id), [], 'no token from the session');
            const ua = new UserAgent();
            const u = new URL('/oauth2/authorize', eb.serviceUrl);
            for (const [k, v] of Object.entries({ response_type: 'code', client_id: outliving.webApp.client_id, scope: 'openid',
                                                  redirect_uri: 'https://web.example/cb', code_challenge_method: 'S256',
                                                  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' }))
                u.searchParams.set(k, v);
            const toLogin = await ua.fetch(u);
            assert.equal(toLogin.status, 303, toLogin.text);
            const f = form((await ua.fetch(toLogin.location)).text, 'login-form');
            const page = await ua.fetch(new URL(f.action, eb.serviceUrl), { method: 'POST',
                                                                            form: { ...f.fields, username: 'ci-person', password: 'a long password 1' } });
            assert.equal(page.status, 403, page.text.slice(0, 300));
            assert.ok(page.text.includes('This password ended with the admin token that set it: ask an administrator to reset it.'),
                      page.text.slice(0, 2000));
            // The root token's reset gives the user a password without an end.
            const reset = await adminFetch(eb, 'PATCH', `/admin/v1/users/${outliving.victim.id}`, { password: 'the root password 2' });
            assert.equal(reset.status, 200, reset.text);
            assert.equal(reset.json.passwordEndsAt, undefined);
            const back = await tokenRequest(eb, outliving.legacy, { grant_type: 'password', username: 'root-person',
                                                                   password: 'the root password 2', scope: 'openid' });
            assert.equal(back.status, 200, back.text);
            // The root token's rotation issues a secret of its own, without an end.
            const lifted = await adminFetch(eb, 'POST', `/admin/v1/clients/${outliving.rootClient.client_id}/rotate-secret`);
            assert.equal(lifted.status, 200, lifted.text);
            assert.equal(lifted.json.client_secret_expires_at, 0);
            const works = await tokenRequest(eb, lifted.json, { grant_type: 'client_credentials' });
            assert.equal(works.status, 200, works.text);
        } finally {
            assert.equal(await eb.stop(), 0, eb.stderr);
        }
    });

    // --- no or bad credentials --------------------------------------------------------------------

    attack('admin: no token → 401, and a client create without one creates nothing', async () => {
        assertUnauthorized(await as(undefined, 'GET', '/admin/v1/clients'),
                           { error: 'unauthorized', message: 'missing admin token' }, 'GET without token');
        assertUnauthorized(await as(undefined, 'POST', '/admin/v1/clients',
                                    { client_name: 'anon-client', grant_types: ['client_credentials'] }),
                           { error: 'unauthorized', message: 'missing admin token' }, 'POST without token');
        assertUnauthorized(await as(undefined, 'GET', '/metrics'), { error: 'unauthorized', message: 'missing admin token' }, '/metrics');
        assert.ok(!(await clientNames()).includes('anon-client'));
    });

    attack('admin: no token with a 60 kB body declared and never sent → 401 at once, the connection ends (the body is not awaited nor held)', async () => {
        const net = await import('node:net');
        const answer = await new Promise((resolve, reject) => {
            const socket = net.connect(b.ports.admin, '127.0.0.1');
            let text = '';
            const started = Date.now();
            socket.setEncoding('latin1');
            socket.on('data', (c) => { text += c; });
            socket.on('close', () => resolve({ text, ms: Date.now() - started }));
            socket.on('error', reject);
            socket.write('POST /admin/v1/users HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n' +
                         'Content-Length: 60000\r\n\r\n{"username":"body-holder"');
            setTimeout(() => { socket.destroy(); resolve({ text, ms: Date.now() - started, held: true }); }, 10_000);
        });
        assert.ok(!answer.held, `the server held the connection, waiting for the body: ${answer.text}`);
        assert.match(answer.text, /^HTTP\/1\.1 401 /, answer.text);
        assert.match(answer.text, /\r\nConnection: close\r\n/i, answer.text);
        assert.match(answer.text, /missing admin token/, answer.text);
        const users = await adminFetch(b, 'GET', '/admin/v1/users');
        assert.ok(!users.text.includes('body-holder'));
    });

    attack('admin: a wrong token (the root token with one character changed) → 401, no user created', async () => {
        const t = b.adminToken;
        const wrong = t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A');
        assertUnauthorized(await as(wrong, 'POST', '/admin/v1/users', { username: 'wrong-token-user', password: 'password 123' }),
                           invalid, 'one character off');
        assertUnauthorized(await as(`gha_${'A'.repeat(43)}`, 'GET', '/admin/v1/users'), invalid, 'a made-up scoped token');
        assertUnauthorized(await as(`${reader.token}x`, 'GET', '/admin/v1/orders'), invalid, 'a scoped token with a suffix');
        assert.ok(!(await usernames()).includes('wrong-token-user'));
    });

    attack('admin: the root token in the query string or as Basic credentials → 401, nothing created', async () => {
        const body = { client_name: 'misplaced-token', grant_types: ['client_credentials'] };
        for (const q of ['access_token', 'token'])
            assertUnauthorized(await as(undefined, 'POST', `/admin/v1/clients?${q}=${encodeURIComponent(b.adminToken)}`, body),
                               { error: 'unauthorized', message: 'missing admin token' }, `?${q}=`);
        const basic = `Basic ${Buffer.from(`admin:${b.adminToken}`).toString('base64')}`;
        assertUnauthorized(await as(undefined, 'POST', '/admin/v1/clients', body, { Authorization: basic }),
                           { error: 'unauthorized', message: 'missing admin token' }, 'Basic');
        assert.ok(!(await clientNames()).includes('misplaced-token'));
    });

    attack('admin: a revoked scoped token → 401 at once, nothing created', async () => {
        const made = await createToken('short-lived-writer', ['orders:write', 'oauth:write']);
        assert.equal(made.status, 201, made.text);
        assert.equal((await as(made.json.token, 'GET', '/admin/v1/clients')).status, 200, 'works before');
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/admin-tokens/${made.json.id}`)).status, 204);
        assertUnauthorized(await as(made.json.token, 'POST', '/admin/v1/clients',
                                    { client_name: 'after-revocation', grant_types: ['client_credentials'] }), invalid, 'revoked');
        assert.ok(!(await clientNames()).includes('after-revocation'));
    });

    // --- a scoped orders:read token outside its area ------------------------------------------------

    attack('admin: an orders:read token creating an OAuth client → 403, no client', async () => {
        const r = await as(reader.token, 'POST', '/admin/v1/clients',
                           { client_name: 'reader-made', grant_types: ['client_credentials'], scope: 'orders:write' });
        assertForbidden(r, refusedWrite('reader', 'oauth', 'orders:read'), 'client');
        assert.ok(!(await clientNames()).includes('reader-made'));
    });

    attack('admin: an orders:read token creating a user → 403, no user', async () => {
        const r = await as(reader.token, 'POST', '/admin/v1/users', { username: 'reader-made-user', password: 'password 123' });
        assertForbidden(r, refusedWrite('reader', 'oauth', 'orders:read'), 'user');
        assert.ok(!(await usernames()).includes('reader-made-user'));
    });

    attack('admin: an orders:read token importing an RBAC binding to cluster-admin → 403, no binding', async () => {
        const manifest = JSON.stringify({
            apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'reader-admin' },
            subjects: [{ kind: 'User', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' }],
            roleRef: { kind: 'ClusterRole', name: 'cluster-admin', apiGroup: 'rbac.authorization.k8s.io' } });
        const r = await as(reader.token, 'POST', '/admin/v1/cluster/rbac/import', manifest);
        assertForbidden(r, refusedWrite('reader', 'cluster', 'orders:read'), 'RBAC import');
        const k = await adminKube(b, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/reader-admin');
        assert.equal(k.status, 404, k.text);
    });

    attack('admin: rotating a customer\'s webhook secret with no token or an orders:read token → 401 / 403, the secrets stay', async () => {
        const made = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'rotation-victim' });
        assert.equal(made.status, 201, made.text);
        const id = made.json.customer.id;
        const customer = async () => {
            const r = await adminFetch(b, 'GET', '/admin/v1/customers');
            assert.equal(r.status, 200, r.text);
            return r.json.items.find((c) => c.id === id);
        };
        const before = await customer();
        assert.ok(before, 'the customer is listed');
        const path = `/admin/v1/customers/${id}/rotate-secret`;
        assertUnauthorized(await as(undefined, 'POST', path), { error: 'unauthorized', message: 'missing admin token' }, 'no token');
        const r = await as(reader.token, 'POST', path);
        assertForbidden(r, refusedWrite('reader', 'orders', 'orders:read'), 'rotate-secret');
        assert.ok(!r.text.includes('whsec_'), 'no secret in the refusal');
        assert.deepEqual(await customer(), before, 'the secrets (fingerprints, expiry) are unchanged');
    });

    attack('admin: holding the order lifecycle with no token → 401, with an orders:read token → 403; it keeps running', async () => {
        const state = async () => (await as(b.adminToken, 'GET', '/admin/v1/orders/lifecycle')).json;
        assert.equal((await state()).held, false);
        for (const verb of ['hold', 'release']) {
            const path = `/admin/v1/orders/lifecycle/${verb}`;
            assertUnauthorized(await as(undefined, 'POST', path), { error: 'unauthorized', message: 'missing admin token' }, `${verb} without a token`);
            assertForbidden(await as(reader.token, 'POST', path), refusedWrite('reader', 'orders', 'orders:read'), verb);
            assert.equal((await state()).held, false, `still running after a refused ${verb}`);
        }
        // The reader may look.
        const read = await as(reader.token, 'GET', '/admin/v1/orders/lifecycle');
        assert.equal(read.status, 200, read.text);
    });

    attack('admin: an orders:read token revoking an OAuth token → 403, the token stays active', async () => {
        const before = await activeTokenIds(b, victimClient.client_id);
        assert.equal(before.length, 1);
        const r = await as(reader.token, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(before[0])}`);
        assertForbidden(r, refusedWrite('reader', 'oauth', 'orders:read'), 'revoke');
        assert.deepEqual(await activeTokenIds(b, victimClient.client_id), before);
    });

    attack('admin: an orders:read token minting an OAuth access token → 403, none issued', async () => {
        const before = await activeTokenIds(b, victimClient.client_id);
        const r = await as(reader.token, 'POST', '/admin/v1/tokens', { client_id: victimClient.client_id });
        assertForbidden(r, refusedWrite('reader', 'oauth', 'orders:read'), 'mint');
        assert.equal(r.json.access_token, undefined);
        assert.deepEqual(await activeTokenIds(b, victimClient.client_id), before);
    });

    attack('admin: an admin:write token reaching other areas through /admin/v1/settings (cluster modes, anonymous access, webhook allowlist, orders tokens, password hashing, listeners) → 403, nothing changed', async () => {
        const clusterBefore = (await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json;
        const settingsBefore = (await adminFetch(b, 'GET', '/admin/v1/settings')).json;
        for (const [key, value, message] of [
            ['authorization-mode', 'AlwaysAllow,RBAC', /may not change authorization-mode: that also needs cluster:write$/],
            ['anonymous-auth', !clusterBefore.anonymousAuth, /may not change anonymous-auth: that also needs cluster:write$/],
            ['enable-admission-plugins', 'NodeRestriction', /that also needs cluster:write$/],
            ['oidc-username-prefix', 'x:', /that also needs cluster:write$/],
            ['webhook-allowlist', '10.0.0.0/8', /may not change webhook-allowlist: that also needs orders:write$/],
            ['orders-require-token', false, /may not change orders-require-token: that also needs oauth:write$/],
            ['oauth-open-registration', true, /that also needs oauth:write$/],
            ['password-hash-memory', 19456, /may not change password-hash-memory: that also needs oauth:write$/],
            ['admin-address', '0.0.0.0', /may not change admin-address: only the root admin token changes listeners$/],
            ['admin-tls', false, /only the root admin token changes listeners$/],
            ['demo', true, /may not change demo: only the root admin token changes demo mode \(it creates users with a public password, OAuth clients and RBAC objects\)$/],
            ['demo-data', false, /may not change demo-data: that also needs orders:write$/],
        ]) {
            const r = await as(delegate.token, 'PUT', `/admin/v1/settings/${key}`, { value });
            assert.equal(r.status, 403, `${key}: ${r.text}`);
            assert.match(r.json.message, message, key);
        }
        assert.deepEqual((await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json, clusterBefore);
        assert.deepEqual((await adminFetch(b, 'GET', '/admin/v1/settings')).json, settingsBefore);
        // A hardening value kept for the next start is not dropped by it either.
        assert.equal((await adminFetch(b, 'PUT', '/admin/v1/settings/webhook-allowlist', { value: '203.0.113.0/24' })).status, 200);
        const kept = (await adminFetch(b, 'GET', '/admin/v1/settings')).json;
        const dropped = await as(delegate.token, 'DELETE', '/admin/v1/settings/webhook-allowlist');
        assert.equal(dropped.status, 403, dropped.text);
        assert.match(dropped.json.message, /that also needs orders:write$/);
        assert.deepEqual((await adminFetch(b, 'GET', '/admin/v1/settings')).json, kept);
        assert.equal((await adminFetch(b, 'DELETE', '/admin/v1/settings/webhook-allowlist')).status, 200);
    });

    attack('admin: an oauth:write token minting a token for a client allowed to act for the cluster → 403, none issued', async () => {
        const made = await createToken('oauth-writer', ['oauth:write']);
        assert.equal(made.status, 201, made.text);
        const gateway = await registerClient(b, { client_name: 'cluster m2m', grant_types: ['client_credentials'], scope: 'openid' });
        assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${gateway.client_id}/cluster-access`, { allowed: true })).status, 200);
        const r = await as(made.json.token, 'POST', '/admin/v1/tokens', { client_id: gateway.client_id });
        assert.equal(r.status, 403, r.text);
        assert.match(r.json.message, /may not mint a token for a client allowed to act for the cluster: that also needs cluster:write/);
        assert.equal(r.json.access_token, undefined);
        assert.deepEqual(await activeTokenIds(b, gateway.client_id), []);
    });

    attack('admin: an oauth:write token hands out the orders API (a client with its scopes, a token or a secret for one, registrations that may ask for them) → 403, nothing issued', async () => {
        const made = await createToken('oauth-only', ['oauth:write']);
        assert.equal(made.status, 201, made.text);
        const oauthOnly = made.json.token;
        const needs = (what, area) => new RegExp(`${what}: that also needs ${area}$`);
        // An orders client an administrator of the orders area made (unbound: every customer).
        const m2m = await registerClient(b, { client_name: 'orders m2m', grant_types: ['client_credentials'],
                                              scope: 'orders:read orders:write' });
        const reader = await registerClient(b, { client_name: 'orders reader', grant_types: ['client_credentials'],
                                                 scope: 'orders:read' });
        const plain = await registerClient(b, { client_name: 'plain m2m', grant_types: ['client_credentials'], scope: 'openid' });
        const clientsBefore = await clientNames();
        const made2 = await as(oauthOnly, 'POST', '/admin/v1/clients',
                               { client_name: 'orders by oauth', grant_types: ['client_credentials'], scope: 'orders:write' });
        assert.equal(made2.status, 403, made2.text);
        assert.match(made2.json.message, needs('may not register a client with the orders API\'s scopes', 'orders:write'));
        assert.equal(made2.json.client_secret, undefined);
        for (const [client, area] of [[m2m, 'orders:write'], [reader, 'orders:read']]) {
            const minted = await as(oauthOnly, 'POST', '/admin/v1/tokens', { client_id: client.client_id });
            assert.equal(minted.status, 403, minted.text);
            assert.match(minted.json.message, needs('may not mint a token for a client with the orders API\'s scopes', area));
            assert.equal(minted.json.access_token, undefined);
            assert.deepEqual(await activeTokenIds(b, client.client_id), [], `${client.client_name}: none issued`);
            const rotated = await as(oauthOnly, 'POST', `/admin/v1/clients/${client.client_id}/rotate-secret`);
            assert.equal(rotated.status, 403, rotated.text);
            assert.match(rotated.json.message, needs('may not rotate the secret of a client with the orders API\'s scopes', area));
            assert.equal(rotated.json.client_secret, undefined);
        }
        // Giving a plain client the scopes, or changing an orders client (here: narrowing its
        // scope while adding a grant), are both refused.
        for (const [client, metadata] of [
            [plain, { client_name: plain.client_name, grant_types: ['client_credentials'], scope: 'openid orders:write' }],
            [reader, { client_name: reader.client_name, grant_types: ['client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'], scope: 'openid' }]]) {
            const before = (await adminFetch(b, 'GET', `/admin/v1/clients/${client.client_id}`)).json;
            const changed = await as(oauthOnly, 'PUT', `/admin/v1/clients/${client.client_id}`, metadata);
            assert.equal(changed.status, 403, changed.text);
            assert.match(changed.json.message, needs('may not change a client with the orders API\'s scopes', 'orders:(read|write)'));
            assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/clients/${client.client_id}`)).json, before, 'unchanged');
        }
        // Registrations (RFC 7591) that may ask for them: an initial access token's policy, the
        // server's policy.
        const iat = await as(oauthOnly, 'POST', '/admin/v1/initial-access-tokens',
                             { policy: { grantTypes: ['client_credentials'], scopes: ['openid', 'orders:write'] } });
        assert.equal(iat.status, 403, iat.text);
        assert.match(iat.json.message, needs('may not let registrations ask for the orders API\'s scopes', 'orders:write'));
        assert.equal(iat.json.token, undefined);
        const scopesBefore = (await adminFetch(b, 'GET', '/admin/v1/settings/oauth-registration-scopes')).json.value;
        const settingsAndOAuth = await createToken('settings-and-oauth', ['admin:write', 'oauth:write']);
        assert.equal(settingsAndOAuth.status, 201, settingsAndOAuth.text);
        const policy = await as(settingsAndOAuth.json.token, 'PUT', '/admin/v1/settings/oauth-registration-scopes',
                                { value: 'openid,orders:read,orders:write' });
        assert.equal(policy.status, 403, policy.text);
        assert.match(policy.json.message, /may not change oauth-registration-scopes: that also needs orders:write/);
        assert.equal((await adminFetch(b, 'GET', '/admin/v1/settings/oauth-registration-scopes')).json.value, scopesBefore);
        // An initial access token without a policy of its own registers under the server's: once
        // an administrator let that ask for orders scopes, the same check applies.
        const widened = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-registration-scopes',
                                         { value: 'openid,orders:read,orders:write' });
        assert.equal(widened.status, 200, widened.text);
        try {
            const plainIat = await as(oauthOnly, 'POST', '/admin/v1/initial-access-tokens', { maxUses: 1 });
            assert.equal(plainIat.status, 403, plainIat.text);
            assert.match(plainIat.json.message, needs('may not let registrations ask for the orders API\'s scopes', 'orders:(read|write)'));
            assert.equal(plainIat.json.token, undefined);
        } finally {
            const restored = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-registration-scopes', { value: scopesBefore });
            assert.equal(restored.status, 200, restored.text);
        }
        const plainIat = await as(oauthOnly, 'POST', '/admin/v1/initial-access-tokens', { maxUses: 1 });
        assert.equal(plainIat.status, 201, `without orders scopes in the server's policy: ${plainIat.text}`);
        // Sign-in protection guards the orders clients' users (and the cluster's) too.
        for (const [key, value] of [['oauth-lockout-threshold', 1000], ['oauth-lockout-duration', '1s'], ['oauth-login-rate', 100000]]) {
            const before = (await adminFetch(b, 'GET', `/admin/v1/settings/${key}`)).json;
            const loosened = await as(settingsAndOAuth.json.token, 'PUT', `/admin/v1/settings/${key}`, { value });
            assert.equal(loosened.status, 403, loosened.text);
            assert.match(loosened.json.message, new RegExp(`may not change ${key}: that also needs cluster:write`));
            assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/settings/${key}`)).json, before, `${key} unchanged`);
        }
        assert.deepEqual(await clientNames(), clientsBefore, 'no client made');
        // A trusted issuer whose assertions may carry them: added so, or an existing one's keys
        // replaced (its scopes are kept then).
        const issuersBefore = (await adminFetch(b, 'GET', '/admin/v1/trusted-issuers')).json;
        const jwks = { keys: [{ kty: 'EC', crv: 'P-256', kid: 'forged',
                                x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }] };
        const added = await as(oauthOnly, 'POST', '/admin/v1/trusted-issuers',
                               { issuer: 'https://forged.example', jwks, scopes: ['orders:read'], anySubject: true });
        assert.equal(added.status, 403, added.text);
        assert.match(added.json.message, needs('may not let an issuer\'s assertions carry the orders API\'s scopes', 'orders:read'));
        const partner = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers',
                                         { issuer: 'https://partner.example', jwks, scopes: ['openid', 'orders:write'], anySubject: true });
        assert.equal(partner.status, 201, partner.text);
        const withPartner = (await adminFetch(b, 'GET', '/admin/v1/trusted-issuers')).json;
        const rekeyed = await as(oauthOnly, 'POST', '/admin/v1/trusted-issuers',
                                 { issuer: 'https://partner.example', jwks: { keys: [{ ...jwks.keys[0], kid: 'attacker' }] } });
        assert.equal(rekeyed.status, 403, rekeyed.text);
        assert.match(rekeyed.json.message, needs('may not let an issuer\'s assertions carry the orders API\'s scopes', 'orders:write'));
        // Nor narrowed or removed (that revokes what its assertions carried of them).
        const narrowed = await as(oauthOnly, 'POST', '/admin/v1/trusted-issuers',
                                  { issuer: 'https://partner.example', jwks, scopes: ['openid'] });
        assert.equal(narrowed.status, 403, narrowed.text);
        assert.match(narrowed.json.message, needs('may not change an issuer whose assertions carry the orders API\'s scopes', 'orders:write'));
        const removed = await as(oauthOnly, 'DELETE', `/admin/v1/trusted-issuers?issuer=${encodeURIComponent('https://partner.example')}`);
        assert.equal(removed.status, 403, removed.text);
        assert.match(removed.json.message, needs('may not remove an issuer whose assertions carry the orders API\'s scopes', 'orders:write'));
        assert.deepEqual((await adminFetch(b, 'GET', '/admin/v1/trusted-issuers')).json, withPartner, 'the partner\'s keys kept');
        const plainIssuer = await as(oauthOnly, 'POST', '/admin/v1/trusted-issuers',
                                     { issuer: 'https://plain-idp.example', jwks, scopes: ['openid'], subjects: ['someone'] });
        assert.equal(plainIssuer.status, 201, plainIssuer.text);
        assert.equal((await adminFetch(b, 'GET', '/admin/v1/trusted-issuers')).json.items.length, issuersBefore.items.length + 2);
        // One without them stays the oauth area's alone.
        const plainRemoved = await as(oauthOnly, 'DELETE', `/admin/v1/trusted-issuers?issuer=${encodeURIComponent('https://plain-idp.example')}`);
        assert.equal(plainRemoved.status, 204, plainRemoved.text);
        // Clients without the orders API's scopes stay the oauth area's alone; with the orders
        // area as well, the same calls are allowed.
        const ok = await as(oauthOnly, 'POST', '/admin/v1/tokens', { client_id: plain.client_id });
        assert.equal(ok.status, 200, ok.text);
        const both = await createToken('oauth-and-orders-reader', ['oauth:write', 'orders:read']);
        const readerToken = await as(both.json.token, 'POST', '/admin/v1/tokens', { client_id: reader.client_id });
        assert.equal(readerToken.status, 200, readerToken.text);
        const writerToken = await as(both.json.token, 'POST', '/admin/v1/tokens', { client_id: m2m.client_id });
        assert.equal(writerToken.status, 403, 'orders:read is not enough for a client with orders:write');
    });

    attack('admin: an orders:read token reading the audit log → 403, no entries', async () => {
        const r = await as(reader.token, 'GET', '/admin/v1/audit');
        assertForbidden(r, refusedRead('reader', 'audit', 'orders:read'), 'audit');
        assert.equal(r.json.items, undefined);
    });

    attack('admin: an orders:read token issuing a system:masters kubeconfig → 403, no certificate', async () => {
        const r = await as(reader.token, 'POST', '/admin/v1/cluster/kubeconfigs',
                           { kind: 'user', name: 'reader-root', groups: ['system:masters'] });
        assertForbidden(r, refusedWrite('reader', 'cluster', 'orders:read'), 'kubeconfig');
        assert.ok(!/BEGIN|kubeconfig/i.test(r.text), 'no key material');
    });

    attack('admin: a cluster:write token that expires in an hour leaves itself a ten-year system:masters certificate (they cannot be revoked)', async () => {
        const made = await createToken('ci-cluster', ['cluster:write'], b.adminToken, { expiresIn: 3600 });
        assert.equal(made.status, 201, made.text);
        const tokenEnds = Date.parse(made.json.expiresAt);
        const r = await as(made.json.token, 'POST', '/admin/v1/cluster/kubeconfigs',
                           { kind: 'user', name: 'ci-root', groups: ['system:masters'], validityDays: 3650 });
        assert.equal(r.status, 201, r.text);
        const notAfter = Date.parse(new X509Certificate(r.json.certificatePem).validTo);
        assert.ok(notAfter <= tokenEnds, `the certificate ends ${new Date(notAfter).toISOString()}, after the token (${made.json.expiresAt})`);
        assert.ok(Date.parse(r.json.expiresAt) <= tokenEnds, `the answer's expiresAt ${r.json.expiresAt}`);
        // The root token (which never expires) still issues what it asks for.
        const root = await adminFetch(b, 'POST', '/admin/v1/cluster/kubeconfigs', { kind: 'user', name: 'long-lived', validityDays: 30 });
        assert.equal(root.status, 201, root.text);
        assert.ok(Date.parse(new X509Certificate(root.json.certificatePem).validTo) > Date.now() + 29 * 86400_000);
    });

    attack('admin: a cluster:write token that expires in 15 minutes mints a 48-hour service account token, through the passthrough and as system:masters through requests', async () => {
        const made = await createToken('ci-robot', ['cluster:write'], b.adminToken, { expiresIn: 900 });
        assert.equal(made.status, 201, made.text);
        const tokenEnds = Date.parse(made.json.expiresAt);
        const account = await as(made.json.token, 'POST', '/admin/v1/cluster/k8s/api/v1/namespaces/default/serviceaccounts',
                                 { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ci-robot' } });
        assert.equal(account.status, 201, account.text);
        const tokenRequest = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 172800 } };
        const path = '/api/v1/namespaces/default/serviceaccounts/ci-robot/token';
        const check = (answer, via) => {
            assert.equal(answer.kind, 'TokenRequest', JSON.stringify(answer));
            const ends = Date.parse(answer.status.expirationTimestamp);
            assert.ok(ends <= tokenEnds, `${via}: the service account token ends ${answer.status.expirationTimestamp}, after the admin token (${made.json.expiresAt})`);
            assert.ok(answer.spec.expirationSeconds <= 900, `${via}: spec.expirationSeconds ${answer.spec.expirationSeconds}`);
            const payload = JSON.parse(Buffer.from(answer.status.token.split('.')[1], 'base64url'));
            assert.ok(payload.exp * 1000 <= tokenEnds, `${via}: exp ${payload.exp}`);
        };
        const direct = await as(made.json.token, 'POST', `/admin/v1/cluster/k8s${path}`, tokenRequest);
        assert.equal(direct.status, 201, direct.text);
        check(direct.json, 'the passthrough');
        const viaRequests = await as(made.json.token, 'POST', '/admin/v1/cluster/requests',
                                     { user: 'root', groups: ['system:masters'], method: 'POST', path, body: JSON.stringify(tokenRequest) });
        assert.equal(viaRequests.status, 200, viaRequests.text);
        assert.equal(viaRequests.json.code, 201, viaRequests.text);
        check(viaRequests.json.body, 'requests');
        // The root token (which never expires) still gets the 48 hours it asks for.
        const root = await adminFetch(b, 'POST', `/admin/v1/cluster/k8s${path}`, tokenRequest);
        assert.equal(root.status, 201, root.text);
        assert.equal(root.json.spec.expirationSeconds, 172800);
    });

    // A service account bound to cluster-admin, made with `token` through the passthrough.
    async function adminAccount(token, name) {
        const account = await as(token, 'POST', '/admin/v1/cluster/k8s/api/v1/namespaces/kube-system/serviceaccounts',
                                 { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
        assert.equal(account.status, 201, account.text);
        const binding = await as(token, 'POST', '/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
            apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name },
            subjects: [{ kind: 'ServiceAccount', name, namespace: 'kube-system' }],
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' } });
        assert.equal(binding.status, 201, binding.text);
        return `/api/v1/namespaces/kube-system/serviceaccounts/${name}/token`;
    }
    const twoDays = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 172800 } };
    const claimsOf = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url'));

    attack('admin: a cluster:write token that never expires mints a 48-hour service account token (its certificates get a day)', async () => {
        const made = await createToken('sa-contractor', ['cluster:write']);
        assert.equal(made.status, 201, made.text);
        const path = await adminAccount(made.json.token, 'contractor-keeper');
        const asked = Date.now();
        const r = await as(made.json.token, 'POST', `/admin/v1/cluster/k8s${path}`, twoDays);
        assert.equal(r.status, 201, r.text);
        assert.ok(r.json.spec.expirationSeconds <= 86400, `spec.expirationSeconds ${r.json.spec.expirationSeconds}`);
        const ends = Date.parse(r.json.status.expirationTimestamp);
        assert.ok(ends <= Date.now() + 86400_000 && ends >= asked + 86400_000 - 5000, r.json.status.expirationTimestamp);
        assert.ok(claimsOf(r.json.status.token).exp * 1000 <= Date.now() + 86400_000);
    });

    attack('admin: a cluster:write token that expires renews its service account\'s token with itself, or with its certificate, past its own end', async () => {
        const made = await createToken('ci-renewer', ['cluster:write'], b.adminToken, { expiresIn: 900 });
        assert.equal(made.status, 201, made.text);
        const tokenEnds = Date.parse(made.json.expiresAt);
        const path = await adminAccount(made.json.token, 'ci-keeper');
        const first = await as(made.json.token, 'POST', `/admin/v1/cluster/k8s${path}`, twoDays);
        assert.equal(first.status, 201, first.text);
        // Each token asks the cluster itself for a 48-hour one: every one of them still ends with
        // the admin token, and says so in its claims.
        let token = first.json.status.token;
        for (const step of ['renewed once', 'renewed twice']) {
            const r = await kubeRequest(b, 'POST', path, { body: twoDays, headers: { Authorization: `Bearer ${token}` } });
            assert.equal(r.status, 201, `${step}: ${r.text}`);
            assert.ok(r.json.spec.expirationSeconds <= 900, `${step}: spec.expirationSeconds ${r.json.spec.expirationSeconds}`);
            assert.ok(Date.parse(r.json.status.expirationTimestamp) <= tokenEnds, `${step}: ${r.json.status.expirationTimestamp}`);
            const claims = claimsOf(r.json.status.token);
            assert.ok(claims.exp * 1000 <= tokenEnds, `${step}: exp ${claims.exp}`);
            assert.equal(claims['gatehouse.io/not-after'], Math.floor(tokenEnds / 1000), JSON.stringify(claims));
            token = r.json.status.token;
        }
        // Impersonating someone else does not lift it.
        const imp = await kubeRequest(b, 'POST', path, { body: twoDays, headers: { Authorization: `Bearer ${token}`,
                                                                                 'Impersonate-User': 'root',
                                                                                 'Impersonate-Group': 'system:masters' } });
        assert.equal(imp.status, 201, imp.text);
        assert.ok(Date.parse(imp.json.status.expirationTimestamp) <= tokenEnds, `impersonating: ${imp.json.status.expirationTimestamp}`);
        // The certificate the same admin token issued ends with it; so does what it asks for.
        const kc = await as(made.json.token, 'POST', '/admin/v1/cluster/kubeconfigs',
                            { kind: 'user', name: 'ci-cert', groups: ['system:masters'], validityDays: 3650 });
        assert.equal(kc.status, 201, kc.text);
        const certEnds = Date.parse(new X509Certificate(kc.json.certificatePem).validTo);
        const byCert = await kubeRequest(b, 'POST', path, { body: twoDays, creds: kc.json });
        assert.equal(byCert.status, 201, byCert.text);
        assert.ok(Date.parse(byCert.json.status.expirationTimestamp) <= certEnds,
                  `with the certificate: ${byCert.json.status.expirationTimestamp}, the certificate ends ${new Date(certEnds).toISOString()}`);
        // A long-lived certificate (the root token's) still gets the 48 hours it asks for.
        const rootKc = await adminFetch(b, 'POST', '/admin/v1/cluster/kubeconfigs',
                                        { kind: 'user', name: 'long-cert', groups: ['system:masters'], validityDays: 30 });
        assert.equal(rootKc.status, 201, rootKc.text);
        const long = await kubeRequest(b, 'POST', path, { body: twoDays, creds: rootKc.json });
        assert.equal(long.status, 201, long.text);
        assert.equal(long.json.spec.expirationSeconds, 172800);
        assert.equal(claimsOf(long.json.status.token)['gatehouse.io/not-after'],
                     Math.floor(Date.parse(new X509Certificate(rootKc.json.certificatePem).validTo) / 1000));
    });

    attack('admin: an orders:write token that expires takes a customer\'s webhook signing secret (a new customer\'s, or a rotated one) that outlives it', async () => {
        // A signing secret is shared with the customer's receiver: it cannot end with the token,
        // so such a token never receives one. Whoever held it could sign deliveries for ever.
        const made = await createToken('onboarding-contractor', ['orders:write'], b.adminToken, { expiresIn: 900 });
        assert.equal(made.status, 201, made.text);
        const customers = async () => (await adminFetch(b, 'GET', '/admin/v1/customers')).json;
        const before = await customers();
        const existing = before.items[0];
        assert.ok(existing?.id, JSON.stringify(before).slice(0, 300));
        const secretBefore = (await adminFetch(b, 'GET', `/admin/v1/customers/${existing.id}`)).json;
        const message = /^admin token 'onboarding-contractor' expires, and may not (create a customer|rotate a customer's webhook signing secret).*: a webhook signing secret is shared with the customer's receiver and cannot end with the token\. Use a token without an expiry\.$/;
        for (const [method, path, body] of [['POST', '/admin/v1/customers', { name: 'Contracted Taproom' }],
                                            ['POST', `/admin/v1/customers/${existing.id}/rotate-secret`, undefined]]) {
            const r = await as(made.json.token, method, path, body);
            assert.equal(r.status, 403, `${path}: ${r.text}`);
            assert.equal(r.json.error, 'secret-outlives-token', r.text);
            assert.match(r.json.message, message);
            assert.equal(r.json.webhookSecret, undefined);
        }
        assert.deepEqual(await customers(), before, 'no customer made');
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/customers/${existing.id}`)).json, secretBefore, 'the secret unchanged');
        // A token without an expiry, in the same area, does both (the legitimate path).
        const lasting = await createToken('onboarding-staff', ['orders:write']);
        assert.equal(lasting.status, 201, lasting.text);
        const c = await as(lasting.json.token, 'POST', '/admin/v1/customers', { name: 'Staffed Taproom' });
        assert.equal(c.status, 201, c.text);
        assert.match(c.json.webhookSecret, /^whsec_/);
        const rotated = await as(lasting.json.token, 'POST', `/admin/v1/customers/${c.json.customer.id}/rotate-secret`);
        assert.equal(rotated.status, 200, rotated.text);
        assert.match(rotated.json.webhookSecret, /^whsec_/);
    });

    attack('admin: an orders:read token reads a delivery\'s signed headers to send the message again → the signature is shown cut, never whole', async () => {
        const order = await adminFetch(b, 'POST', '/admin/v1/test-orders', {});
        assert.equal(order.status, 201, order.text);
        const orderId = order.json.id;
        let delivery;
        await waitFor(async () => {
            const list = await as(reader.token, 'GET', `/admin/v1/deliveries?state=succeeded&orderId=${orderId}`);
            assert.equal(list.status, 200, list.text);
            const done = list.json.items.find((d) => d.state === 'succeeded');
            if (!done)
                return false;
            delivery = await as(reader.token, 'GET', `/admin/v1/deliveries/${encodeURIComponent(done.id)}`);
            return delivery.status === 200 && delivery.json.attempts.length > 0;
        }, { message: 'a delivered callback with its attempt' });
        const headers = delivery.json.attempts[0].requestHeaders;
        assert.equal(headers['webhook-id'], delivery.json.id);
        assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]{8}\u2026$/, JSON.stringify(headers));
        // Nowhere in the answer a whole HMAC-SHA256 (44 base64 characters).
        assert.ok(!/v1,[A-Za-z0-9+/=]{12,}/.test(delivery.text), delivery.text);
        // The receiver was sent the whole one, and verified it.
        const received = (await adminFetch(b, 'GET', '/admin/v1/demo-receiver')).json.received
            .filter((x) => x.webhookId === delivery.json.id);
        assert.ok(received.length > 0 && received.every((x) => x.verified === true), JSON.stringify(received));
    });

    attack('admin: a cluster:write token that never expires leaves itself a ten-year system:masters certificate, then is revoked', async () => {
        const made = await createToken('contractor', ['cluster:write']);
        assert.equal(made.status, 201, made.text);
        assert.equal(made.json.expiresAt ?? null, null, made.text);
        const asked = Date.now();
        const r = await as(made.json.token, 'POST', '/admin/v1/cluster/kubeconfigs',
                           { kind: 'user', name: 'mallory', groups: ['system:masters'], validityDays: 3650 });
        assert.equal(r.status, 201, r.text);
        const notAfter = Date.parse(new X509Certificate(r.json.certificatePem).validTo);
        // A day at most (the certificate's end is in whole seconds).
        assert.ok(notAfter <= Date.now() + 86400_000 && notAfter >= asked + 86400_000 - 5000,
                  `the certificate ends ${new Date(notAfter).toISOString()}`);
        assert.ok(Math.abs(Date.parse(r.json.expiresAt) - notAfter) < 1000, `the answer's expiresAt ${r.json.expiresAt}`);
    });

    attack('admin: an orders:read token turning anonymous cluster access off → 403, setting unchanged', async () => {
        const before = (await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json;
        const r = await as(reader.token, 'PUT', '/admin/v1/cluster/settings', { anonymousAuth: !before.anonymousAuth });
        assertForbidden(r, refusedWrite('reader', 'cluster', 'orders:read'), 'settings');
        assert.deepEqual((await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json, before);
    });

    attack('admin: an orders:read token creating or revoking admin tokens → 403, nothing created or revoked', async () => {
        const create = await createToken('reader-child', ['orders:read'], reader.token);
        assertForbidden(create, refusedWrite('reader', 'admin', 'orders:read'), 'create');
        const list = await adminFetch(b, 'GET', '/admin/v1/admin-tokens');
        const delegateId = list.json.items.find((t) => t.name === 'delegate').id;
        const del = await as(reader.token, 'DELETE', `/admin/v1/admin-tokens/${delegateId}`);
        assertForbidden(del, refusedWrite('reader', 'admin', 'orders:read'), 'revoke');
        const names = await tokenNames();
        assert.ok(!names.includes('reader-child') && names.includes('delegate'), names.join(','));
        assert.equal((await as(delegate.token, 'GET', '/admin/v1/admin-tokens')).status, 200, 'the delegate still works');
    });

    // --- escalation through admin-token creation -----------------------------------------------------

    for (const [what, permissions, missing] of [
        ['orders:write', ['orders:write'], 'orders:write'],
        ['*:write', ['*:write'], 'orders:write'], // the first area it lacks
        ['oauth:read', ['orders:read', 'oauth:read'], 'oauth:read'],
    ]) {
        attack(`admin: escalation — a token holding admin:write + orders:read creating a token with ${what} → 403, not created`, async () => {
            const name = `escalated-${what.replace(/[^a-z]/g, '')}`;
            const r = await createToken(name, permissions, delegate.token);
            assert.equal(r.status, 403, r.text);
            assert.equal(r.json.error, 'forbidden');
            assert.equal(r.json.message, `admin token 'delegate' cannot grant ${missing}, which it does not hold itself`);
            assert.equal(r.json.token, undefined);
            assert.ok(!(await tokenNames()).includes(name));
        });
    }

    attack('admin: a token holding admin:write + orders:read revoking a broader token (cluster:write) → 403, the token keeps working', async () => {
        const broader = await createToken('cluster-operator', ['cluster:write', 'orders:read']);
        assert.equal(broader.status, 201, broader.text);
        const list = await adminFetch(b, 'GET', '/admin/v1/admin-tokens');
        const id = list.json.items.find((t) => t.name === 'cluster-operator').id;
        const del = await as(delegate.token, 'DELETE', `/admin/v1/admin-tokens/${id}`);
        assert.equal(del.status, 403, del.text);
        assert.equal(del.json.error, 'forbidden');
        assert.equal(del.json.message, 'admin token \'delegate\' cannot revoke a token with cluster:write, which it does not hold itself');
        assert.ok((await tokenNames()).includes('cluster-operator'));
        assert.equal((await as(broader.json.token, 'GET', '/admin/v1/cluster/settings')).status, 200, 'still works');
        // Within its own powers it may: a token with orders:read only.
        const narrow = await createToken('narrow', ['orders:read'], delegate.token);
        assert.equal(narrow.status, 201, narrow.text);
        const narrowId = (await adminFetch(b, 'GET', '/admin/v1/admin-tokens')).json.items.find((t) => t.name === 'narrow').id;
        assert.equal((await as(delegate.token, 'DELETE', `/admin/v1/admin-tokens/${narrowId}`)).status, 204);
    });

    // --- cluster:read doing cluster writes ---------------------------------------------------------

    attack('admin: a cluster:read token performing a request as system:masters (POST cluster/requests) → 403, node unchanged', async () => {
        const before = (await adminKube(b, 'GET', '/api/v1/nodes/node-1')).json;
        const r = await as(clusterReader.token, 'POST', '/admin/v1/cluster/requests', {
            user: 'root', groups: ['system:masters'], node: 'node-1', labels: { 'reader-was-here': 'yes' } });
        assertForbidden(r, refusedWrite('cluster-reader', 'cluster', 'cluster:read'), 'requests');
        assert.deepEqual((await adminKube(b, 'GET', '/api/v1/nodes/node-1')).json, before);
    });

    attack('admin: a cluster:read token labelling a node through the k8s passthrough → 403, node unchanged', async () => {
        const before = (await adminKube(b, 'GET', '/api/v1/nodes/node-2')).json;
        const r = await as(clusterReader.token, 'PATCH', '/admin/v1/cluster/k8s/api/v1/nodes/node-2',
                           { metadata: { labels: { 'reader-was-here': 'yes' } } }, { 'Content-Type': 'application/merge-patch+json' });
        assertForbidden(r, refusedWrite('cluster-reader', 'cluster', 'cluster:read'), 'passthrough');
        assert.deepEqual((await adminKube(b, 'GET', '/api/v1/nodes/node-2')).json, before);
    });

    // --- path tricks around the area check ------------------------------------------------------------

    // A request with the path exactly as written (fetch would normalise dot segments).
    function rawRequest(method, path, token, body) {
        return new Promise((resolve, reject) => {
            const payload = body === undefined ? undefined : JSON.stringify(body);
            const req = http.request({ host: '127.0.0.1', port: b.ports.admin, method, path, agent: false,
                                       headers: { Authorization: `Bearer ${token}`,
                                                  ...(payload ? { 'Content-Type': 'application/json',
                                                                  'Content-Length': Buffer.byteLength(payload) } : {}) } },
                                     (res) => {
                                         let text = '';
                                         res.setEncoding('utf8');
                                         res.on('data', (c) => { text += c; });
                                         res.on('end', () => resolve({ status: res.statusCode, text }));
                                     });
            req.on('error', reject);
            req.end(payload);
        });
    }

    attack('admin: path tricks (dot segments, encoded characters, double slashes) keep an orders:read token in its area', async () => {
        const body = { client_name: 'path-trick', grant_types: ['client_credentials'] };
        const changeOrders = refusedWrite('reader', 'orders', 'orders:read');
        const changeOauth = refusedWrite('reader', 'oauth', 'orders:read');
        const changeAdmin = refusedWrite('reader', 'admin', 'orders:read');
        const notFound = (p) => ({ error: 'not-found', message: `no such path: ${p}` });
        for (const [method, path, status, answer] of [
            // The area is read from the decoded path: a dot segment after an orders noun stays in
            // the orders area (and is no route), an encoded letter is decoded before the check.
            ['POST', '/admin/v1/orders/../clients', 403, { error: 'forbidden', message: changeOrders }],
            ['POST', '/admin/v1/orders/%2e%2e/clients', 403, { error: 'forbidden', message: changeOrders }],
            ['POST', '/admin/v1/orders%2F..%2Fclients', 403, { error: 'forbidden', message: changeOrders }],
            ['POST', '/admin/v1/%63lients', 403, { error: 'forbidden', message: changeOauth }],
            // Unknown nouns (another case, an empty or a dot segment) fall to the admin area.
            ['POST', '/admin/v1/Clients', 403, { error: 'forbidden', message: changeAdmin }],
            ['POST', '/admin/v1//clients', 403, { error: 'forbidden', message: changeAdmin }],
            ['POST', '/admin/v1/./clients', 403, { error: 'forbidden', message: changeAdmin }],
            // Outside /admin/ no admin route matches at all.
            ['POST', '//admin/v1/clients', 404, notFound('//admin/v1/clients')],
            ['POST', '/admin//v1/clients', 404, notFound('/admin//v1/clients')],
            // Reads of the audit log: a dot segment passes the orders read check but reaches no route.
            ['GET', '/admin/v1/orders/../audit', 404, notFound('/admin/v1/orders/../audit')],
            ['GET', '/admin/v1/orders/%2e%2e/audit', 404, notFound('/admin/v1/orders/../audit')],
            ['GET', '/admin/v1/%61udit', 403, { error: 'forbidden', message: refusedRead('reader', 'audit', 'orders:read') }],
            ['GET', '//admin/v1/audit', 404, notFound('//admin/v1/audit')],
        ]) {
            const r = await rawRequest(method, path, reader.token, method === 'POST' ? body : undefined);
            assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
            assert.deepEqual(JSON.parse(r.text), answer, `${method} ${path}`);
        }
        assert.ok(!(await clientNames()).includes('path-trick'), 'no client created');
    });

});
