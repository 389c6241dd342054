// The authorization server so far (issue 5, first slice) against strict, real clients:
// oauth4webapi for discovery, client_credentials, introspection and revocation, and jose
// validating the RFC 9068 JWT access token against the server's JWKS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import * as jose from 'jose';

import { startBackend, adminFetch, request } from './lib/backend.mjs';

let b;
let issuer;
let as; // the discovered authorization server metadata

async function register(metadata) {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', metadata);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
    return r.json;
}

const opts = { [oauth.allowInsecureRequests]: true };

before(async () => {
    b = await startBackend();
    issuer = new URL(b.serviceUrl);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...opts, algorithm: 'oidc' }));
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

test('discovery: the issuer byte for byte, both well-known documents alike', async () => {
    assert.equal(as.issuer, b.serviceUrl);
    assert.equal(as.token_endpoint, `${b.serviceUrl}/oauth2/token`);
    // The grants of the slices so far, whatever the order; later slices add more.
    for (const g of ['authorization_code', 'client_credentials', 'refresh_token'])
        assert.ok(as.grant_types_supported.includes(g), `${g} in ${as.grant_types_supported}`);
    assert.equal(new Set(as.grant_types_supported).size, as.grant_types_supported.length, 'no grant listed twice');
    const rfc8414 = await request(`${b.serviceUrl}/.well-known/oauth-authorization-server`, 'GET');
    assert.deepEqual(rfc8414.json, as);
    const jwks = await request(as.jwks_uri, 'GET');
    assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
    for (const k of jwks.json.keys) {
        assert.ok(k.kid && ['RS256', 'ES256'].includes(k.alg) && k.use === 'sig', JSON.stringify(k));
        assert.equal(k.d, undefined, 'no private parts in the JWKS');
    }
});

for (const method of ['client_secret_basic', 'client_secret_post']) {
    test(`client_credentials with ${method}: JWT valid against the JWKS, introspected, revoked`, async () => {
        const c = await register({ client_name: `m2m ${method}`, grant_types: ['client_credentials'],
                                   scope: 'orders:read orders:write', token_endpoint_auth_method: method });
        const client = { client_id: c.client_id };
        const auth = method === 'client_secret_basic' ? oauth.ClientSecretBasic(c.client_secret)
                                                      : oauth.ClientSecretPost(c.client_secret);
        const resp = await oauth.clientCredentialsGrantRequest(as, client, auth,
                                                               new URLSearchParams({ scope: 'orders:read' }), opts);
        assert.equal(resp.headers.get('cache-control'), 'no-store');
        const tokens = await oauth.processClientCredentialsResponse(as, client, resp);
        assert.equal(tokens.token_type, 'bearer');
        assert.equal(tokens.scope, 'orders:read');
        assert.equal(tokens.expires_in, 3600);

        // RFC 9068 as a resource server checks it: typ at+jwt, iss, aud, exp, signature. An
        // orders scope and no resource: the orders API's resource indicator is the audience.
        const jwks = jose.createRemoteJWKSet(new URL(as.jwks_uri));
        const { payload, protectedHeader } = await jose.jwtVerify(tokens.access_token, jwks, {
            issuer: b.serviceUrl, audience: `${b.serviceUrl}/v1`, typ: 'at+jwt', algorithms: ['RS256'] });
        assert.equal(protectedHeader.typ, 'at+jwt');
        assert.equal(payload.client_id, c.client_id);
        assert.equal(payload.sub, c.client_id);
        assert.equal(payload.scope, 'orders:read');
        assert.ok(payload.jti && payload.iat && payload.exp - payload.iat === 3600);
        // jti: the issue time (ms, 12 hex digits) and 128 random bits.
        const [jtiTime, jtiRandom] = payload.jti.split('.');
        assert.match(jtiTime, /^[0-9a-f]{12}$/);
        assert.match(jtiRandom, /^[A-Za-z0-9_-]{22}$/);
        assert.ok(Math.abs(parseInt(jtiTime, 16) - payload.iat * 1000) < 1000, payload.jti);

        const intro = await oauth.processIntrospectionResponse(as, client,
            await oauth.introspectionRequest(as, client, auth, tokens.access_token, opts));
        assert.equal(intro.active, true);
        assert.equal(intro.client_id, c.client_id);
        assert.equal(intro.scope, 'orders:read');

        await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, tokens.access_token, opts));
        const after = await oauth.processIntrospectionResponse(as, client,
            await oauth.introspectionRequest(as, client, auth, tokens.access_token, opts));
        assert.equal(after.active, false);
        // Revoking an unknown token answers 200 too (RFC 7009 §2.2).
        await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, 'no-such-token', opts));
    });
}

test('the form endpoints take at most 64 KiB: a larger form is 413 and nothing is read; one just under is read as any', async () => {
    const form = (bytes) => {
        const parts = ['grant_type=client_credentials', 'client_id=nobody'];
        for (let i = 0; parts.join('&').length < bytes; ++i)
            parts.push(`p${i}=x`);
        return parts.join('&');
    };
    const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
    for (const path of ['/oauth2/token', '/oauth2/revoke', '/oauth2/introspect', '/oauth2/device_authorization']) {
        const large = await request(`${b.serviceUrl}${path}`, 'POST', form(70 * 1024), headers);
        assert.equal(large.status, 413, `${path}: ${large.text.slice(0, 200)}`);
        assert.equal(large.json?.access_token, undefined);
        // Under the limit the form is parsed: a parameter it does not know is no error, the
        // unknown client is.
        const small = await request(`${b.serviceUrl}${path}`, 'POST', form(60 * 1024), headers);
        assert.notEqual(small.status, 413, `${path}: ${small.text.slice(0, 200)}`);
        assert.ok(small.status === 400 || small.status === 401, `${path}: ${small.status} ${small.text.slice(0, 200)}`);
    }
});

test('opaque access tokens: issue time and 256 bits, introspectable, not JWTs, stored in issue order', async () => {
    const c = await register({ client_name: 'opaque', grant_types: ['client_credentials'], scope: 'a b',
                               access_token_format: 'opaque' });
    const client = { client_id: c.client_id };
    const auth = oauth.ClientSecretBasic(c.client_secret);
    const issue = async () => oauth.processClientCredentialsResponse(as, client,
        await oauth.clientCredentialsGrantRequest(as, client, auth, new URLSearchParams(), opts));
    const before = Date.now();
    const tokens = await issue();
    const [time, random] = tokens.access_token.split('.');
    assert.match(time, /^[0-9a-f]{12}$/, tokens.access_token.length.toString());
    assert.match(random, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(parseInt(time, 16) >= before - 1000 && parseInt(time, 16) <= Date.now() + 1000);
    assert.equal(tokens.scope, 'a b');
    const intro = await oauth.processIntrospectionResponse(as, client,
        await oauth.introspectionRequest(as, client, auth, tokens.access_token, opts));
    assert.equal(intro.active, true);
    // A changed random part is another token; a changed time part finds nothing either.
    for (const forged of [`${time}.${random.slice(0, -1)}${random.endsWith('A') ? 'B' : 'A'}`,
                          `${(parseInt(time, 16) + 1).toString(16).padStart(12, '0')}.${random}`, random]) {
        const r = await oauth.processIntrospectionResponse(as, client,
            await oauth.introspectionRequest(as, client, auth, forged, opts));
        assert.equal(r.active, false, forged);
    }
    // The admin ids (the storage keys) begin with the issue time: a later token sorts after.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await issue();
    const listed = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${c.client_id}`);
    assert.equal(listed.status, 200, listed.text);
    const ids = listed.json.items.map((t) => t.id);
    assert.equal(ids.length, 2);
    assert.ok(ids[0].startsWith(`${later.access_token.split('.')[0]}.`), ids[0]);
    assert.ok(ids[1].startsWith(`${time}.`), ids[1]);
    assert.ok(ids[0] > ids[1], ids.join(' '));
    assert.ok(!ids.some((id) => id.includes(random)), 'the id is not the token');
});

// An opaque client_credentials token is made on the server's thread, every other on its pool:
// both paths give the same answers.
for (const format of ['jwt', 'opaque'])
test(`errors per RFC 6749 §5.2: status, body, no-store, Basic challenge only after Basic (${format} client)`, async () => {
    const c = await register({ client_name: 'errors', grant_types: ['client_credentials'], scope: 'orders:read',
                               access_token_format: format });
    const tokenUrl = as.token_endpoint;
    const basic = (id, secret) => 'Basic ' + Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const cases = [
        ['wrong secret (Basic)', 'grant_type=client_credentials', { Authorization: basic(c.client_id, 'nope') }, 401, 'invalid_client', true],
        ['unknown client (post)', 'grant_type=client_credentials&client_id=nobody&client_secret=x', {}, 401, 'invalid_client', false],
        ['no client authentication', 'grant_type=client_credentials', {}, 401, 'invalid_client', false],
        ['post for a Basic client', `grant_type=client_credentials&client_id=${c.client_id}&client_secret=${c.client_secret}`, {}, 401, 'invalid_client', false],
        ['scope outside the record', 'grant_type=client_credentials&scope=admin', { Authorization: basic(c.client_id, c.client_secret) }, 400, 'invalid_scope', false],
        ['unsupported grant type', 'grant_type=magic', { Authorization: basic(c.client_id, c.client_secret) }, 400, 'unsupported_grant_type', false],
        ['missing grant type', 'scope=orders:read', { Authorization: basic(c.client_id, c.client_secret) }, 400, 'invalid_request', false],
        ['repeated parameter', 'grant_type=client_credentials&grant_type=client_credentials', { Authorization: basic(c.client_id, c.client_secret) }, 400, 'invalid_request', false],
        ['bad resource', 'grant_type=client_credentials&resource=relative/path', { Authorization: basic(c.client_id, c.client_secret) }, 400, 'invalid_target', false],
        ['Basic without a colon', 'grant_type=client_credentials', { Authorization: 'Basic ' + Buffer.from(c.client_id).toString('base64') }, 401, 'invalid_client', true],
        ['Basic and client_secret', `grant_type=client_credentials&client_secret=${c.client_secret}`, { Authorization: basic(c.client_id, c.client_secret) }, 400, 'invalid_request', false],
        ['an assertion for a secret client', `grant_type=client_credentials&client_id=${c.client_id}&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=a.b.c`, {}, 401, 'invalid_client', false],
    ];
    for (const [name, body, headers, status, error, challenge] of cases) {
        const r = await request(tokenUrl, 'POST', body, { ...form, ...headers });
        assert.equal(r.status, status, `${name}: ${r.text}`);
        assert.equal(r.json?.error, error, name);
        assert.equal(r.headers['cache-control'], 'no-store', name);
        assert.equal(Boolean(r.headers['www-authenticate']), challenge, `${name}: WWW-Authenticate`);
    }
    const json = await request(tokenUrl, 'POST', { grant_type: 'client_credentials' },
                               { Authorization: basic(c.client_id, c.client_secret) });
    assert.equal(json.status, 400);
    assert.equal(json.json.error, 'invalid_request', 'a JSON body is refused');
    // And the right credentials still get a token of the client's format.
    const ok = await request(tokenUrl, 'POST', 'grant_type=client_credentials',
                             { ...form, Authorization: basic(c.client_id, c.client_secret) });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.access_token.split('.').length, format === 'jwt' ? 3 : 2);
});

test('a public client cannot use client_credentials; registration refuses it up front', async () => {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients',
                               { client_name: 'spa', grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' });
    assert.equal(r.status, 400);
    assert.equal(r.json.error, 'invalid_client_metadata');
    const spa = await register({ client_name: 'spa', grant_types: ['authorization_code'],
                                 redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' });
    assert.equal(spa.client_secret, undefined, 'public clients get no secret');
    const t = await request(as.token_endpoint, 'POST', `grant_type=client_credentials&client_id=${spa.client_id}`,
                            { 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(t.status, 400);
    assert.equal(t.json.error, 'unauthorized_client');
    const bad = await adminFetch(b, 'POST', '/admin/v1/clients',
                                 { client_name: 'x', redirect_uris: ['http://evil.example/cb'] });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error, 'invalid_redirect_uri');
});

test('a rotated secret replaces the old one; a deleted client loses its tokens', async () => {
    const c = await register({ client_name: 'rotating', grant_types: ['client_credentials'], scope: 's' });
    const client = { client_id: c.client_id };
    const first = await oauth.processClientCredentialsResponse(as, client,
        await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(c.client_secret), new URLSearchParams(), opts));
    const rot = await adminFetch(b, 'POST', `/admin/v1/clients/${c.client_id}/rotate-secret`);
    assert.equal(rot.status, 200);
    assert.notEqual(rot.json.client_secret, c.client_secret);
    await assert.rejects(oauth.processClientCredentialsResponse(as, client,
        await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(c.client_secret), new URLSearchParams(), opts)));
    const other = await register({ client_name: 'introspector', grant_types: ['client_credentials'], scope: 's',
                                   resource_server: true });
    const otherAuth = oauth.ClientSecretBasic(other.client_secret);
    const del = await adminFetch(b, 'DELETE', `/admin/v1/clients/${c.client_id}`);
    assert.equal(del.status, 204);
    const intro = await oauth.processIntrospectionResponse(as, { client_id: other.client_id },
        await oauth.introspectionRequest(as, { client_id: other.client_id }, otherAuth, first.access_token, opts));
    assert.equal(intro.active, false);
    const list = await adminFetch(b, 'GET', '/admin/v1/clients');
    assert.ok(!list.text.includes(rot.json.client_secret), 'secrets are never listed');
});
