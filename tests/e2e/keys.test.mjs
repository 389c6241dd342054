// Signing keys: RS256 by default, ES256 per client; rotation publishes the next key before it
// signs and keeps the retired one published while tokens it signed are still valid.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as jose from 'jose';

import { startBackend, adminFetch, request } from './lib/backend.mjs';

let b;
const PASSWORD = 'key rotation password';

async function jwks() {
    const r = await request(`${b.serviceUrl}/oauth2/jwks`, 'GET');
    assert.equal(r.status, 200);
    return r.json;
}

async function client(metadata) {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'keys', grant_types: ['password', 'client_credentials'], scope: 'openid email', ...metadata });
    assert.equal(r.status, 201, r.text);
    return r.json;
}

async function passwordTokens(c) {
    const r = await request(`${b.serviceUrl}/oauth2/token`, 'POST', new URLSearchParams({
        grant_type: 'password', username: 'kim', password: PASSWORD, scope: 'openid email',
        client_id: c.client_id, client_secret: c.client_secret }).toString(),
                            { 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(r.status, 200, r.text);
    return r.json;
}

before(async () => {
    b = await startBackend();
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users',
                                   { username: 'kim', password: PASSWORD, email: 'kim@example.com' })).status, 201);
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

test('a new server publishes an active and a next key per algorithm', async () => {
    const set = await jwks();
    assert.equal(set.keys.length, 4);
    for (const k of set.keys) {
        assert.equal(k.use, 'sig');
        assert.equal(k.d, undefined);
        assert.ok(k.kid);
    }
    assert.deepEqual(set.keys.map((k) => k.alg).sort(), ['ES256', 'ES256', 'RS256', 'RS256']);
    assert.deepEqual(set.keys.filter((k) => k.alg === 'ES256').map((k) => k.crv), ['P-256', 'P-256']);
    const listed = (await adminFetch(b, 'GET', '/admin/v1/signing-keys')).json.items;
    assert.deepEqual(listed.map((k) => `${k.alg}:${k.state}`).sort(),
                     ['ES256:active', 'ES256:next', 'RS256:active', 'RS256:next']);
    const discovery = (await request(`${b.serviceUrl}/.well-known/openid-configuration`, 'GET')).json;
    assert.deepEqual(discovery.id_token_signing_alg_values_supported, ['RS256', 'ES256']);
});

test('ES256 per client: access token and id_token', async () => {
    const c = await client({ access_token_signed_response_alg: 'ES256', id_token_signed_response_alg: 'ES256',
                             token_endpoint_auth_method: 'client_secret_post' });
    assert.equal(c.access_token_signed_response_alg, 'ES256');
    const t = await passwordTokens(c);
    const set = jose.createLocalJWKSet(await jwks());
    const at = await jose.jwtVerify(t.access_token, set, { issuer: b.serviceUrl, typ: 'at+jwt' });
    assert.equal(at.protectedHeader.alg, 'ES256');
    const id = await jose.jwtVerify(t.id_token, set, { issuer: b.serviceUrl, audience: c.client_id });
    assert.equal(id.protectedHeader.alg, 'ES256');
    assert.equal(id.payload.email, 'kim@example.com');
    const rs = await client({ token_endpoint_auth_method: 'client_secret_post' });
    const rsTokens = await passwordTokens(rs);
    assert.equal(jose.decodeProtectedHeader(rsTokens.access_token).alg, 'RS256', 'RS256 by default');
    const bad = await adminFetch(b, 'POST', '/admin/v1/clients', { client_name: 'x', grant_types: ['client_credentials'], access_token_signed_response_alg: 'HS256' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.message, /RS256 or ES256/);
});

test('rotation: the next key was published before it signs; the retired one stays published', async () => {
    const c = await client({ token_endpoint_auth_method: 'client_secret_post' });
    const before = await jwks();
    const listed = (await adminFetch(b, 'GET', '/admin/v1/signing-keys')).json.items;
    const active = listed.find((k) => k.alg === 'RS256' && k.state === 'active').kid;
    const next = listed.find((k) => k.alg === 'RS256' && k.state === 'next').kid;
    const old = await passwordTokens(c);
    assert.equal(jose.decodeProtectedHeader(old.access_token).kid, active);

    const rotated = await adminFetch(b, 'POST', '/admin/v1/signing-keys/rotate', { alg: 'RS256' });
    assert.equal(rotated.status, 200, rotated.text);
    const states = Object.fromEntries(rotated.json.items.map((k) => [k.kid, k]));
    assert.equal(states[active].state, 'retired');
    assert.ok(Date.parse(states[active].retireAfter) > Date.now() + 86_000_000);
    assert.equal(states[next].state, 'active');

    const fresh = await passwordTokens(c);
    assert.equal(jose.decodeProtectedHeader(fresh.access_token).kid, next);
    // A verifier that cached the JWKS before the rotation already knows the new key.
    await jose.jwtVerify(fresh.access_token, jose.createLocalJWKSet(before), { issuer: b.serviceUrl });
    // And the JWKS after the rotation still verifies the token signed before it.
    const after = await jwks();
    await jose.jwtVerify(old.access_token, jose.createLocalJWKSet(after), { issuer: b.serviceUrl });
    assert.equal(after.keys.filter((k) => k.alg === 'RS256').length, 3);
    assert.ok(after.keys.some((k) => !before.keys.find((o) => o.kid === k.kid)), 'a new next key');

    const bad = await adminFetch(b, 'POST', '/admin/v1/signing-keys/rotate', { alg: 'HS256' });
    assert.equal(bad.status, 400);
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/signing-keys/rotate', '{')).status, 400);
});

test('server-aware JWT inspector: key state, stored token state, revoke in place, client and user, millisecond warning', async () => {
    const inspect = async (token) => {
        const r = await adminFetch(b, 'POST', '/admin/v1/jwt/inspect', { token });
        assert.equal(r.status, 200, r.text);
        return r.json;
    };
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users',
                                   { username: 'lee', password: PASSWORD, email: 'lee@example.com' })).status, 201);
    const c = await client({ token_endpoint_auth_method: 'client_secret_post', client_name: 'inspected' });
    const signIn = async () => {
        const r = await request(`${b.serviceUrl}/oauth2/token`, 'POST', new URLSearchParams({
            grant_type: 'password', username: 'lee', password: PASSWORD, scope: 'openid email',
            client_id: c.client_id, client_secret: c.client_secret }).toString(),
                                { 'Content-Type': 'application/x-www-form-urlencoded' });
        assert.equal(r.status, 200, r.text);
        return r.json;
    };
    const t = await signIn();
    const listed = (await adminFetch(b, 'GET', '/admin/v1/signing-keys')).json.items;
    const activeKid = listed.find((k) => k.alg === 'RS256' && k.state === 'active').kid;

    let r = await inspect(t.access_token);
    assert.equal(r.valid, true, JSON.stringify(r.checks));
    assert.equal(r.server.issuedHere, true);
    assert.equal(r.server.key.kid, activeKid);
    assert.equal(r.server.key.state, 'active');
    assert.equal(r.server.stored.state, 'active');
    assert.equal(r.server.stored.revocable, true);
    assert.deepEqual(r.server.client, { clientId: c.client_id, exists: true, clientName: 'inspected' });
    assert.equal(r.server.user.exists, true);
    assert.equal(r.server.user.username, 'lee');
    assert.deepEqual(r.warnings, []);

    // after a rotation the same token names a retired, still published key
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/signing-keys/rotate', { alg: 'RS256' })).status, 200);
    r = await inspect(t.access_token);
    assert.equal(r.server.key.state, 'retired');
    assert.match(r.server.key.detail, /retired key, still published/);
    assert.equal(r.valid, true);

    // revoke in place with the id the inspector gave
    const del = await adminFetch(b, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(r.server.stored.id)}`);
    assert.equal(del.status, 204, del.text);
    r = await inspect(t.access_token);
    assert.equal(r.server.stored.state, 'revoked');
    assert.equal(r.server.stored.revocable, false);
    assert.ok(r.server.stored.revokedAt);

    // an id_token is recorded too (token exchange asks whether its grant is alive, the cluster
    // accepts it as a bearer token): revoked with the access token it came with, and revocable
    // in place on its own; its client is its audience
    r = await inspect(t.id_token);
    assert.equal(r.server.stored.kind, 'id');
    assert.equal(r.server.stored.state, 'revoked');
    assert.equal(r.server.client.clientId, c.client_id);
    const fresh = await signIn();
    r = await inspect(fresh.id_token);
    assert.equal(r.server.stored.state, 'active');
    assert.equal(r.server.stored.revocable, true);
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(r.server.stored.id)}`)).status,
                 204);
    assert.equal((await inspect(fresh.id_token)).server.stored.state, 'revoked');
    assert.equal((await inspect(fresh.access_token)).server.stored.state, 'active', 'the access token is not the id_token\'s child');

    // the user and the client gone
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/users/lee`)).status, 204);
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/clients/${c.client_id}`)).status, 204);
    r = await inspect(t.access_token);
    assert.equal(r.server.user.exists, false);
    assert.equal(r.server.client.exists, false);

    // a forged token: this issuer, the active kid and a real client, signed with another key. The
    // verdict was "invalid", but the server's facts said "issued here", "the active signing key"
    // and named the client.
    const other = await client({ token_endpoint_auth_method: 'client_secret_post', client_name: 'named in a forgery' });
    const forger = await jose.generateKeyPair('RS256');
    const forged = await new jose.SignJWT({ sub: 'x', client_id: other.client_id })
        .setProtectedHeader({ alg: 'RS256', kid: activeKid, typ: 'at+jwt' })
        .setIssuer(b.serviceUrl).setIssuedAt().setExpirationTime('1h').sign(forger.privateKey);
    r = await inspect(forged);
    assert.equal(r.valid, false);
    assert.equal(r.server.issuedHere, false);
    assert.equal(r.server.key.known, false);
    assert.equal(r.server.key.state, undefined);
    assert.match(r.server.key.detail, /^its signature does not verify with this server's published keys/);
    assert.equal(r.server.client, undefined, 'no client vouched for');
    assert.equal(r.server.stored.detail, 'not issued by this server');

    // a foreign token with a timestamp in milliseconds
    const { privateKey } = await jose.generateKeyPair('ES256');
    const foreign = await new jose.SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'ES256', kid: 'elsewhere' })
        .setIssuer('https://idp.example').setExpirationTime(Date.now() + 3_600_000).sign(privateKey);
    r = await inspect(foreign);
    assert.equal(r.server.issuedHere, false);
    assert.equal(r.server.key.known, false);
    assert.equal(r.server.stored.state, 'notStored');
    assert.equal(r.server.stored.detail, 'not issued by this server');
    assert.equal(r.server.client, undefined);
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0], /^exp is \d{13}: that looks like milliseconds/);
    // not a JWT at all: no server part, the decoder's own error
    r = await inspect('not-a-jwt');
    assert.equal(r.server, undefined);
});

test('keys survive a restart; the retired key is still published after it', async () => {
    const before = (await jwks()).keys.map((k) => k.kid).sort();
    const dataDir = b.dataDir;
    assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend({ dataDir });
    assert.deepEqual((await jwks()).keys.map((k) => k.kid).sort(), before);
});
