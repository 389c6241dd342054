// Dynamic client registration (RFC 7591) guarded by initial access tokens from the admin API,
// and client configuration (RFC 7592) with the registration access token; oauth4webapi as
// the strict client for the registration response.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';

import { startBackend, adminFetch, readEvents, request } from './lib/backend.mjs';

let b;
let as;
const opts = { [oauth.allowInsecureRequests]: true };

// A registrant is bound to customers its token's policy names (docs/oauth.md).
const CUSTOMER = '5b0a3c1e-7a61-4c43-9a52-0d6f1f1f2a10';
const M2M = { client_name: 'registered m2m', grant_types: ['client_credentials'], scope: 'orders:read',
              orders_customers: [CUSTOMER],
              token_endpoint_auth_method: 'client_secret_basic', contacts: ['ops@example.com'] };
// What an initial access token must allow for M2M: the server's own registration policy allows
// neither client_credentials nor an orders scope (docs/oauth.md, "Trust boundaries").
const M2M_POLICY = { grantTypes: ['client_credentials'], scopes: ['orders:read'], customers: [CUSTOMER] };

async function initialAccessToken(body = {}) {
    const r = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens', body);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.ok(r.json.token.length >= 43);
    return r.json;
}

function register(metadata, token, contentType = 'application/json') {
    return request(`${b.serviceUrl}/oauth2/register`, 'POST',
                   typeof metadata === 'string' ? metadata : JSON.stringify(metadata),
                   { 'Content-Type': contentType, ...(token ? { Authorization: `Bearer ${token}` } : {}) });
}

function configuration(method, clientId, token, body) {
    return request(`${b.serviceUrl}/oauth2/register/${clientId}`, method,
                   body === undefined ? undefined : JSON.stringify(body),
                   token ? { Authorization: `Bearer ${token}` } : {});
}

function assertError(r, status, error) {
    assert.equal(r.status, status, r.text);
    assert.equal(r.json?.error, error, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
}

before(async () => {
    b = await startBackend();
    const issuer = new URL(b.serviceUrl);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...opts, algorithm: 'oidc' }));
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

test('registration needs an initial access token unless open registration is on', async () => {
    assert.equal(as.registration_endpoint, `${b.serviceUrl}/oauth2/register`);
    const none = await register(M2M);
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer realm="gatehouse"');
    const bogus = await register(M2M, 'not-a-token');
    assertError(bogus, 401, 'invalid_token');
    assert.match(bogus.headers['www-authenticate'], /error="invalid_token"/);
});

test('a confidential client registers, authenticates and is configured with RFC 7592', async () => {
    const iat = await initialAccessToken({ maxUses: 2, expiresIn: 3600, policy: M2M_POLICY });
    assert.deepEqual(iat.policy, { grantTypes: ['client_credentials'], scopes: ['orders:read'],
                                   audiences: [], customers: [CUSTOMER] });
    const response = await oauth.dynamicClientRegistrationRequest(as, M2M, { ...opts, initialAccessToken: iat.token });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const c = await oauth.processDynamicClientRegistrationResponse(response);
    assert.ok(c.client_id && c.client_secret);
    assert.equal(c.client_secret_expires_at, 0);
    assert.ok(Math.abs(c.client_id_issued_at - Date.now() / 1000) < 60);
    assert.equal(c.client_name, M2M.client_name);
    assert.deepEqual(c.grant_types, M2M.grant_types);
    assert.deepEqual(c.contacts, M2M.contacts);
    assert.equal(c.registration_client_uri, `${b.serviceUrl}/oauth2/register/${c.client_id}`);
    assert.ok(c.registration_access_token.length >= 43);

    // The secret works at the token endpoint.
    const tokens = await oauth.processClientCredentialsResponse(as, c, await oauth.clientCredentialsGrantRequest(
        as, c, oauth.ClientSecretBasic(c.client_secret), new URLSearchParams({ scope: 'orders:read' }), opts));
    assert.equal(tokens.scope, 'orders:read');

    // Read.
    const read = await configuration('GET', c.client_id, c.registration_access_token);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.json.client_name, M2M.client_name);
    assert.equal(read.json.client_secret, undefined, 'the secret is never shown again');
    assert.equal(read.json.registration_client_uri, c.registration_client_uri);
    assertError(await configuration('GET', c.client_id, 'wrong'), 401, 'invalid_token');
    assert.equal((await configuration('GET', c.client_id)).status, 401);

    // Update: full replacement of the metadata, within what the client was given.
    const updated = await configuration('PUT', c.client_id, c.registration_access_token, {
        ...M2M, client_id: c.client_id, client_name: 'renamed m2m', scope: 'orders:read' });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.json.client_name, 'renamed m2m');
    assert.equal(updated.json.scope, 'orders:read');
    // An update is no way around the policy: a scope the client never had is refused, named.
    const wider = await configuration('PUT', c.client_id, c.registration_access_token, {
        ...M2M, client_id: c.client_id, scope: 'orders:read orders:write' });
    assertError(wider, 400, 'invalid_client_metadata');
    assert.match(wider.json.error_description, /scope: 'orders:write' is not allowed/);
    assert.equal((await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json.scope, 'orders:read');
    assert.equal((await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json.client_name, 'renamed m2m');
    assertError(await configuration('PUT', c.client_id, c.registration_access_token, { ...M2M, client_id: 'other' }),
                400, 'invalid_client_metadata');
    assertError(await configuration('PUT', c.client_id, c.registration_access_token,
                                    { ...M2M, client_id: c.client_id, registration_access_token: 'x' }),
                400, 'invalid_client_metadata');
    assertError(await configuration('PUT', c.client_id, c.registration_access_token,
                                    { ...M2M, client_id: c.client_id, client_secret: 'not the secret' }),
                400, 'invalid_client_metadata');
    assertError(await configuration('PUT', c.client_id, c.registration_access_token,
                                    { ...M2M, client_id: c.client_id, redirect_uris: ['http://evil.example/cb'] }),
                400, 'invalid_redirect_uri');

    // Another client's registration access token does not open this one.
    const other = (await register({ client_name: 'other', grant_types: ['client_credentials'] }, iat.token)).json;
    assertError(await configuration('GET', c.client_id, other.registration_access_token), 401, 'invalid_token');

    // Delete: the client and its tokens are gone.
    const deleted = await configuration('DELETE', c.client_id, c.registration_access_token);
    assert.equal(deleted.status, 204);
    assert.equal((await configuration('GET', c.client_id, c.registration_access_token)).status, 401);
    const refused = await oauth.clientCredentialsGrantRequest(as, c, oauth.ClientSecretBasic(c.client_secret),
                                                              new URLSearchParams(), opts);
    assert.equal(refused.status, 401);
});

test('an RFC 7592 update is held to the policy of the initial access token the client registered with, not to the server\'s', async () => {
    const iat = await initialAccessToken({ policy: M2M_POLICY });
    const c = (await register({ ...M2M, client_name: 'narrow m2m' }, iat.token)).json;
    assert.ok(c.registration_access_token, JSON.stringify(c));
    assert.equal(c.registration_policy, undefined, 'the policy is not metadata');
    // Everything the server's own policy allows (a user-facing app: sign-in, refresh tokens,
    // the device flow, identity scopes), but the token's did not.
    const userFacing = { ...M2M, client_id: c.client_id, client_name: 'Gatehouse',
                         grant_types: ['client_credentials', 'authorization_code', 'refresh_token',
                                       'urn:ietf:params:oauth:grant-type:device_code'],
                         scope: 'orders:read openid profile email offline_access',
                         redirect_uris: ['https://attacker.example/cb'] };
    const widened = await configuration('PUT', c.client_id, c.registration_access_token, userFacing);
    assertError(widened, 400, 'invalid_client_metadata');
    assert.match(widened.json.error_description, /grant_types: 'authorization_code' is not allowed/);
    const onlyScopes = await configuration('PUT', c.client_id, c.registration_access_token,
                                           { ...M2M, client_id: c.client_id, scope: 'orders:read openid email' });
    assertError(onlyScopes, 400, 'invalid_client_metadata');
    assert.match(onlyScopes.json.error_description, /scope: 'openid' is not allowed/);
    // An administrator's change keeps the client under that policy (and rereads it from the
    // database): the registrant may use what the administrator gave, nothing more.
    const admin = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`,
                                   { ...M2M, client_name: 'narrow m2m', scope: 'orders:read orders:write' });
    assert.equal(admin.status, 200, admin.text);
    assert.equal(admin.json.registration_policy, undefined);
    const kept = await configuration('PUT', c.client_id, c.registration_access_token,
                                     { ...M2M, client_id: c.client_id, scope: 'orders:write' });
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.json.scope, 'orders:write');
    assertError(await configuration('PUT', c.client_id, c.registration_access_token, userFacing),
                400, 'invalid_client_metadata');
    const stored = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
    assert.deepEqual(stored.grant_types, ['client_credentials']);
    assert.equal(stored.scope, 'orders:write');
    assert.deepEqual(stored.redirect_uris, []);
});

test('what an administrator takes from a registered client its registrant cannot put back; rotate-secret rotates the registration access token (alone for a client without a secret)', async () => {
    const iat = await initialAccessToken({ policy: { grantTypes: ['authorization_code', 'refresh_token'],
                                                     scopes: ['openid', 'offline_access', 'orders:read'],
                                                     customers: [CUSTOMER] } });
    const kept = 'https://app.example/cb';
    const dropped = 'https://old.app.example/cb';
    const full = { client_name: 'web app', token_endpoint_auth_method: 'client_secret_basic',
                   grant_types: ['authorization_code', 'refresh_token'], scope: 'openid offline_access orders:read',
                   orders_customers: [CUSTOMER],
                   redirect_uris: [kept, dropped] };
    const c = (await register(full, iat.token)).json;
    assert.ok(c.registration_access_token, JSON.stringify(c));
    const narrowed = { client_name: 'web app', token_endpoint_auth_method: 'client_secret_basic',
                       grant_types: ['authorization_code'], scope: 'openid orders:read', redirect_uris: [kept],
                       orders_customers: [CUSTOMER] };
    const admin = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, narrowed);
    assert.equal(admin.status, 200, admin.text);
    const put = (metadata, token = c.registration_access_token) =>
        configuration('PUT', c.client_id, token, { ...narrowed, ...metadata, client_id: c.client_id });
    // Each thing taken away, put back by the registrant: refused and named; nothing changes.
    for (const [back, pattern] of [[{ redirect_uris: [kept, dropped] }, /redirect_uris: 'https:\/\/old\.app\.example\/cb' is not allowed/],
                                   [{ grant_types: ['authorization_code', 'refresh_token'] }, /grant_types: 'refresh_token' is not allowed/],
                                   [{ scope: 'openid offline_access orders:read' }, /scope: 'offline_access' is not allowed/]]) {
        const r = await put(back);
        assertError(r, 400, 'invalid_client_metadata');
        assert.match(r.json.error_description, pattern);
    }
    const stored = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
    assert.deepEqual([stored.redirect_uris, stored.grant_types, stored.scope], [[kept], ['authorization_code'], 'openid orders:read']);
    // Narrowing further, and back up to what the administrator left, is the registrant's.
    assert.equal((await put({ scope: 'openid' })).status, 200);
    const back = await put({});
    assert.equal(back.status, 200, back.text);
    assert.equal(back.json.scope, 'openid orders:read');

    // rotate-secret: a new secret and a new registration access token, both once; the old
    // registration token opens nothing (it could have a secret issued again by going public and back).
    const rotated = await adminFetch(b, 'POST', `/admin/v1/clients/${c.client_id}/rotate-secret`);
    assert.equal(rotated.status, 200, rotated.text);
    assert.ok(rotated.json.client_secret && rotated.json.registration_access_token, rotated.text);
    assert.notEqual(rotated.json.registration_access_token, c.registration_access_token);
    assertError(await configuration('GET', c.client_id, c.registration_access_token), 401, 'invalid_token');
    assertError(await put({ token_endpoint_auth_method: 'none' }), 401, 'invalid_token');
    const mine = await configuration('GET', c.client_id, rotated.json.registration_access_token);
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.json.token_endpoint_auth_method, 'client_secret_basic');
    assert.equal(mine.json.client_secret, undefined, 'a read shows no secret');
    // A client the administrator registered has no registration token to rotate.
    const own = await adminFetch(b, 'POST', '/admin/v1/clients', M2M);
    const ownRotated = await adminFetch(b, 'POST', `/admin/v1/clients/${own.json.client_id}/rotate-secret`);
    assert.equal(ownRotated.status, 200, ownRotated.text);
    assert.equal(ownRotated.json.registration_access_token, undefined);

    // A registered client without a secret (public here): its registration access token is
    // rotated alone, so a leaked one is withdrawn without deleting the client.
    const iat2 = await initialAccessToken({ maxUses: 1 });
    const pub = await register({ client_name: 'public registrant', token_endpoint_auth_method: 'none',
                                 redirect_uris: ['https://app.example/cb'] }, iat2.token);
    assert.equal(pub.status, 201, pub.text);
    assert.equal(pub.json.client_secret, undefined);
    const pubRotated = await adminFetch(b, 'POST', `/admin/v1/clients/${pub.json.client_id}/rotate-secret`);
    assert.equal(pubRotated.status, 200, pubRotated.text);
    assert.equal(pubRotated.json.client_secret, undefined, 'no secret for a public client');
    assert.equal(pubRotated.json.token_endpoint_auth_method, 'none');
    assert.ok(pubRotated.json.registration_access_token, pubRotated.text);
    assertError(await configuration('GET', pub.json.client_id, pub.json.registration_access_token), 401, 'invalid_token');
    assert.equal((await configuration('GET', pub.json.client_id, pubRotated.json.registration_access_token)).status, 200);
    // One an administrator registered without a secret: nothing to rotate.
    const ownPublic = await adminFetch(b, 'POST', '/admin/v1/clients', { client_name: 'own public', token_endpoint_auth_method: 'none',
                                                                           grant_types: ['authorization_code'],
                                                                           redirect_uris: ['https://own.example/cb'] });
    assert.equal(ownPublic.status, 201, ownPublic.text);
    const nothing = await adminFetch(b, 'POST', `/admin/v1/clients/${ownPublic.json.client_id}/rotate-secret`);
    assert.equal(nothing.status, 409, nothing.text);
    assert.equal(nothing.json.error, 'public-client', nothing.text);
});

test('initial access tokens are spent per registration; refused metadata spends nothing', async () => {
    const iat = await initialAccessToken({ maxUses: 1 });
    assertError(await register({ client_name: 'x', token_endpoint_auth_method: 'magic' }, iat.token),
                400, 'invalid_client_metadata');
    assertError(await register({ client_name: 'x', redirect_uris: ['http://evil.example/cb'] }, iat.token),
                400, 'invalid_redirect_uri');
    assertError(await register('{"client_name":', iat.token), 400, 'invalid_client_metadata');
    assertError(await register('client_name=x', iat.token, 'application/x-www-form-urlencoded'),
                400, 'invalid_client_metadata');
    assertError(await register([], iat.token), 400, 'invalid_client_metadata');
    // The consent page shows logo_uri to every user: https (http only on loopback), nothing else.
    for (const logo of ['javascript:alert(1)', 'data:image/svg+xml,<svg/>', 'http://tracker.example/p.gif',
                        'https://user:pw@cdn.example/logo.png', `https://cdn.example/${'a'.repeat(2100)}.png`, 'logo.png', 42]) {
        const r = await register({ client_name: 'x', redirect_uris: ['https://app.example/cb'], logo_uri: logo }, iat.token);
        assertError(r, 400, 'invalid_client_metadata');
        assert.match(r.json.error_description, /logo_uri must be an https URL/, String(logo).slice(0, 40));
    }

    // A public client: no secret at all.
    const pub = await register({ client_name: 'spa', token_endpoint_auth_method: 'none',
                                 redirect_uris: ['http://127.0.0.1:5555/cb'], scope: 'openid' }, iat.token);
    assert.equal(pub.status, 201, pub.text);
    assert.equal(pub.json.client_secret, undefined);
    assert.equal(pub.json.client_secret_expires_at, undefined);
    assert.deepEqual(pub.json.redirect_uris, ['http://127.0.0.1:5555/cb']);

    assertError(await register(M2M, iat.token), 401, 'invalid_token'); // used up
    const list = await adminFetch(b, 'GET', '/admin/v1/initial-access-tokens');
    const listed = list.json.items.find((t) => t.id === iat.id);
    assert.equal(listed.usedCount, 1);
    assert.equal(listed.maxUses, 1);
    assert.equal(listed.token, undefined, 'the token is shown once only');

    const revoked = await initialAccessToken();
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/initial-access-tokens/${revoked.id}`)).status, 204);
    assertError(await register(M2M, revoked.token), 401, 'invalid_token');
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/initial-access-tokens/${revoked.id}`)).status, 404);
    for (const bad of [{ maxUses: 0 }, { maxUses: 'two' }, { expiresIn: 5 }, { expiresIn: 1.5 },
                       { policy: 'open' }, { policy: { grantTypes: 'client_credentials' } },
                       { policy: { grantTypes: ['magic'] } }, { policy: { scopes: [''] } },
                       { policy: { everything: true } }, { unknown: 1 }]) {
        const r = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens', bad);
        assert.equal(r.status, 400, JSON.stringify(bad));
        assert.equal(r.json.error, 'validation-failed');
    }
});

test('cluster access is set through its own call only, with a strict body', async () => {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', M2M);
    assert.equal(r.status, 201, r.text);
    const id = r.json.client_id;
    for (const bad of [{}, { allowed: 'yes' }, [], { allowed: true, also: 1 }, '{']) {
        const res = await adminFetch(b, 'PUT', `/admin/v1/clients/${id}/cluster-access`, bad);
        assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
        assert.equal(res.json.error, 'malformed-json');
    }
    assert.equal((await adminFetch(b, 'PUT', '/admin/v1/clients/nope/cluster-access', { allowed: true })).status, 404);
    const created = await adminFetch(b, 'POST', '/admin/v1/clients', { ...M2M, cluster_access: true });
    assert.equal(created.status, 400, created.text);
    assert.match(created.json.message, /cluster_access is not client metadata/);
    assert.equal((await adminFetch(b, 'GET', `/admin/v1/clients/${id}`)).json.cluster_access, undefined);
    const set = await adminFetch(b, 'PUT', `/admin/v1/clients/${id}/cluster-access`, { allowed: true });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.json.cluster_access, true);
    // Sent back unchanged with the rest of the metadata, it is no change; the flag stays.
    const again = await adminFetch(b, 'PUT', `/admin/v1/clients/${id}`, { ...M2M, client_name: 'renamed', cluster_access: true });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.cluster_access, true);
    const unset = await adminFetch(b, 'PUT', `/admin/v1/clients/${id}/cluster-access`, { allowed: false });
    assert.equal(unset.json.cluster_access, undefined);
});

test('clients registered by the admin have no registration access token', async () => {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', M2M);
    assert.equal(r.status, 201);
    assert.equal(r.json.registration_access_token, undefined);
    assert.equal((await configuration('GET', r.json.client_id, 'anything')).status, 401);
    const updated = await adminFetch(b, 'PUT', `/admin/v1/clients/${r.json.client_id}`,
                                     { ...M2M, token_endpoint_auth_method: 'none', grant_types: ['authorization_code'],
                                       redirect_uris: ['https://app.example/cb'] });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.json.client_secret, undefined, 'now public: no secret');
    assert.equal((await adminFetch(b, 'PUT', '/admin/v1/clients/nope', M2M)).status, 404);
});

test('open registration: no initial access token needed, within the registration policy', async () => {
    const open = await startBackend({ args: ['--oauth-open-registration'], env: { GATEHOUSE_OAUTH_LOGIN_RATE: '4' } });
    try {
        const web = { client_name: 'web app', redirect_uris: ['https://app.example/cb'], scope: 'openid email' };
        const r = await request(`${open.serviceUrl}/oauth2/register`, 'POST', JSON.stringify(web),
                                { 'Content-Type': 'application/json' });
        assert.equal(r.status, 201, r.text);
        assert.ok(r.json.client_secret && r.json.registration_access_token);
        assert.deepEqual(r.json.grant_types, ['authorization_code']);
        // An anonymous registrant gets no machine grant.
        const m2m = await request(`${open.serviceUrl}/oauth2/register`, 'POST', JSON.stringify(M2M),
                                  { 'Content-Type': 'application/json' });
        assert.equal(m2m.status, 400, m2m.text);
        assert.equal(m2m.json.error, 'invalid_client_metadata');
        assert.match(m2m.json.error_description, /grant_types: 'client_credentials' is not allowed/);
        // Anyone may register: per address, oauth-login-rate registrations a minute (4 here).
        for (let i = 0; i < 2; ++i) {
            const more = await request(`${open.serviceUrl}/oauth2/register`, 'POST', JSON.stringify(web),
                                       { 'Content-Type': 'application/json' });
            assert.equal(more.status, 201, more.text);
        }
        const flood = await request(`${open.serviceUrl}/oauth2/register`, 'POST', JSON.stringify(web),
                                    { 'Content-Type': 'application/json' });
        assert.equal(flood.status, 429, flood.text);
        assert.equal(flood.json.error, 'invalid_request');
        assert.match(flood.json.error_description, /too many registrations from this address/);
        assert.ok(Number(flood.headers['retry-after']) >= 1);
        const clients = await adminFetch(open, 'GET', '/admin/v1/clients');
        assert.equal(clients.json.items.filter((c) => c.client_name === 'web app').length, 3);
    } finally {
        assert.equal(await open.stop(), 0, open.stderr);
    }
});

test('client changes are announced on the admin event stream', async () => {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', { ...M2M, client_name: 'announced' });
    assert.equal(r.status, 201);
    const id = r.json.client_id;
    assert.equal((await adminFetch(b, 'POST', `/admin/v1/clients/${id}/rotate-secret`)).status, 200);
    assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${id}`, { ...M2M, client_name: 'renamed' })).status, 200);
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/clients/${id}`)).status, 204);
    const iat = await initialAccessToken({ policy: M2M_POLICY });
    const dynamic = await register({ ...M2M, client_name: 'dynamic' }, iat.token);
    assert.equal(dynamic.status, 201, dynamic.text);
    const events = (await readEvents(b, 800)).filter((e) => e.type.startsWith('oauth.client.'));
    const mine = events.filter((e) => e.data.data.clientId === id).map((e) => e.type);
    assert.deepEqual(mine, ['oauth.client.registered', 'oauth.client.secret-rotated', 'oauth.client.updated',
                            'oauth.client.deleted']);
    const dyn = events.find((e) => e.data.data.clientId === dynamic.json.client_id);
    assert.equal(dyn.data.data.via, 'dynamic');
    for (const e of events)
        assert.ok(!e.raw.includes('client_secret') && !e.raw.includes(dynamic.json.client_secret), 'no secrets in events');
});

test('a registrant\'s post_logout_redirect_uris are bounded by the policy\'s redirectUris, at registration and in an update; a refusal spends nothing', async () => {
    const app = 'https://app.example.test/cb';
    const out = 'https://app.example.test/signed-out';
    const iat = await initialAccessToken({ maxUses: 1, policy: { grantTypes: ['authorization_code'], scopes: ['openid'],
                                                                 redirectUris: [app, out] } });
    const wanted = { client_name: 'logout app', grant_types: ['authorization_code'], scope: 'openid',
                     token_endpoint_auth_method: 'none', redirect_uris: [app] };
    const before = (await adminFetch(b, 'GET', '/admin/v1/clients')).json.items.length;
    // An attacker's registration: its sign-out would send users anywhere.
    const evil = await register({ ...wanted, post_logout_redirect_uris: ['https://evil.example/landing'] }, iat.token);
    assertError(evil, 400, 'invalid_client_metadata');
    assert.match(evil.json.error_description, /post_logout_redirect_uris: 'https:\/\/evil\.example\/landing' is not allowed/);
    assert.equal((await adminFetch(b, 'GET', '/admin/v1/clients')).json.items.length, before, 'no client made');
    // The token was not spent: the allowed one registers with it.
    const ok = await register({ ...wanted, post_logout_redirect_uris: [out] }, iat.token);
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.json.post_logout_redirect_uris, [out]);
    // Its own update may not add one either; the client is unchanged.
    const update = await configuration('PUT', ok.json.client_id, ok.json.registration_access_token,
                                       { ...wanted, client_id: ok.json.client_id,
                                         post_logout_redirect_uris: [out, 'https://evil.example/landing'] });
    assertError(update, 400, 'invalid_client_metadata');
    const read = await configuration('GET', ok.json.client_id, ok.json.registration_access_token);
    assert.deepEqual(read.json.post_logout_redirect_uris, [out]);
});
