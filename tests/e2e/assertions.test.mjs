// JWT assertions end to end, with keys made by `jose`: private_key_jwt client authentication
// (RFC 7523 §2.2), the jwt-bearer grant from trusted issuers (RFC 7523 §2.1), token exchange
// (RFC 8693) with delegation; and the attacks: replayed jti, wrong key, alg none, HS256,
// expired, wrong audience, untrusted issuer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import * as jose from 'jose';
import * as oauth from 'oauth4webapi';

import { startBackend, adminFetch, request } from './lib/backend.mjs';

const IDP = 'https://idp.example.test';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const AT = 'urn:ietf:params:oauth:token-type:access_token';
const JWT = 'urn:ietf:params:oauth:token-type:jwt';

let b;
let tokenEndpoint;
let idpKey; // the trusted issuer's ES256 key pair
let user;

async function register(metadata) {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', metadata);
    assert.equal(r.status, 201, r.text);
    return r.json;
}

function token(params, headers = {}) {
    return request(tokenEndpoint, 'POST', new URLSearchParams(params).toString(),
                   { 'Content-Type': 'application/x-www-form-urlencoded', ...headers });
}

function basic(c) {
    return { Authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}` };
}

function assertError(r, status, error, pattern) {
    assert.equal(r.status, status, r.text);
    assert.equal(r.json?.error, error, r.text);
    if (pattern)
        assert.match(r.json.error_description, pattern);
}

async function sign(claims, key, alg, kid, { exp = '2m' } = {}) {
    let jwt = new jose.SignJWT(claims).setProtectedHeader({ alg, kid }).setIssuedAt();
    if (exp)
        jwt = jwt.setExpirationTime(exp);
    return jwt.sign(key);
}

// Unsigned or HMAC tokens, built by hand (jose refuses to make alg none).
function forged(header, claims, signature = '') {
    const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    return `${part(header)}.${part(claims)}.${signature}`;
}

before(async () => {
    b = await startBackend();
    tokenEndpoint = `${b.serviceUrl}/oauth2/token`;
    idpKey = await jose.generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await jose.exportJWK(idpKey.publicKey)), kid: 'idp-1', alg: 'ES256', use: 'sig' };
    // What its assertions may become here: the administrator's list, not the client's.
    // And whom they may name: a local user by username, and two subjects of the partner's own.
    const r = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers',
                               { issuer: IDP, jwks: { keys: [jwk] }, scopes: ['email', 'orders:read'],
                                 subjects: ['jb-user', 'service-42', 'partner-user'] });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.scopes, ['email', 'orders:read']);
    assert.deepEqual(r.json.subjects, ['jb-user', 'service-42', 'partner-user']);
    assert.equal(r.json.anySubject, false);
    const u = await adminFetch(b, 'POST', '/admin/v1/users',
                               { username: 'jb-user', password: 'jwt bearer user', email: 'jb@example.com' });
    user = u.json;
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

test('trusted issuers: admin validation, list, replace, delete', async () => {
    const priv = await jose.exportJWK((await jose.generateKeyPair('ES256', { extractable: true })).privateKey);
    for (const bad of [{ issuer: 'not a url', jwks: { keys: [{ kty: 'EC' }] } },
                       { issuer: 'https://x.example' },
                       { issuer: 'https://x.example', jwks: { keys: [] } },
                       { issuer: 'https://x.example', jwks: { keys: [priv] } },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, scopes: 'email' },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, scopes: ['a b'] },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, audiences: [] },
                       // whom it may assert: said explicitly, well-formed, one way
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] } },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, subjects: 'jb-user' },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, subjects: [''] },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, subjects: [7] },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, subjects: ['a\u0000b'] },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, subjects: ['x'.repeat(256)] },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, anySubject: 'yes' },
                       { issuer: 'https://x.example', jwks: { keys: [{ kty: 'EC' }] }, anySubject: true, subjects: ['a'] }]) {
        const r = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', bad);
        assert.equal(r.status, 400, JSON.stringify(bad));
        assert.equal(r.json.error, 'validation-failed');
    }
    // This server's own issuer, and the cluster's service-account issuer, are never outside
    // issuers: their tokens (a pod's service-account token among them) would become assertions.
    const ownKey = await jose.exportJWK((await jose.generateKeyPair('RS256')).publicKey);
    for (const own of [b.serviceUrl, 'https://kubernetes.default.svc.cluster.local']) {
        const r = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', { issuer: own, jwks: { keys: [ownKey] }, anySubject: true });
        assert.equal(r.status, 400, `${own}: ${r.text}`);
        assert.equal(r.json.error, 'validation-failed');
        assert.match(r.json.message, /^issuer: .* is this server's own issuer/);
    }
    const list = await adminFetch(b, 'GET', '/admin/v1/trusted-issuers');
    assert.deepEqual(list.json.items.map((i) => i.issuer), [IDP]);
    const other = 'https://other.example.test/tenant?x=1';
    const pub = await jose.exportJWK((await jose.generateKeyPair('RS256')).publicKey);
    const noSubjects = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', { issuer: other, jwks: { keys: [pub] } });
    assert.equal(noSubjects.status, 400, noSubjects.text);
    assert.match(noSubjects.json.message, /subjects: name whom this issuer may assert/);
    const added = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', { issuer: other, jwks: { keys: [pub] }, anySubject: true });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.json.anySubject, true);
    // Re-adding with new keys only keeps whom it may assert.
    const rekeyed = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', { issuer: other, jwks: { keys: [pub] } });
    assert.equal(rekeyed.status, 201, rekeyed.text);
    assert.equal(rekeyed.json.anySubject, true);
    const del = await adminFetch(b, 'DELETE', `/admin/v1/trusted-issuers?issuer=${encodeURIComponent(other)}`);
    assert.equal(del.status, 204);
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/trusted-issuers?issuer=${encodeURIComponent(other)}`)).status, 404);
});

test('registered keys: private members, an RSA exponent of 1 or 3, a 1024-bit modulus, another curve or a symmetric key are refused, for a client and a trusted issuer', async () => {
    // p and q alone are the private key (stored, shown to oauth:read and in the audit log); with
    // e = 1 a padded digest is itself a valid signature, so anyone could sign as the client.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const full = privateKey.export({ format: 'jwk' });
    const pub = { kty: 'RSA', n: full.n, e: full.e, kid: 'k1', use: 'sig' };
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    const cases = [
        [{ ...pub, p: full.p, q: full.q, dp: full.dp, dq: full.dq, qi: full.qi }, /'p' is a private member/],
        [{ ...pub, d: full.d }, /'d' is a private member/],
        [{ ...pub, e: 'AQ' }, /RSA exponent not accepted \(odd, at least 65537\)/],
        [{ ...pub, e: 'Aw' }, /RSA exponent not accepted/],
        [{ ...small, kid: 'small' }, /RSA key size not accepted \(2048 to 4096 bits\)/],
        [{ ...p384, kid: 'p384' }, /only EC P-256 keys are accepted/],
        [{ kty: 'oct', k: 'c2VjcmV0', kid: 'sym' }, /'k' is a private member/],
        [{ ...pub, alg: 'HS256' }, /HMAC algs are refused/],
    ];
    for (const [jwk, pattern] of cases) {
        const c = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: 'bad key', token_endpoint_auth_method: 'private_key_jwt', grant_types: ['client_credentials'],
            jwks: { keys: [jwk] } });
        assert.equal(c.status, 400, `${JSON.stringify(Object.keys(jwk))}: ${c.text}`);
        assert.equal(c.json.error, 'invalid_client_metadata');
        assert.match(c.json.message, pattern);
        assert.ok(!c.text.includes(full.p.slice(0, 20)), 'no private member echoed');
        const t = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', {
            issuer: 'https://bad-key.example', jwks: { keys: [jwk] }, anySubject: true });
        assert.equal(t.status, 400, t.text);
        assert.match(t.json.message, pattern);
    }
    const clients = (await adminFetch(b, 'GET', '/admin/v1/clients')).json.items;
    assert.ok(!clients.some((c) => c.client_name === 'bad key'), 'no client made');
    assert.equal((await adminFetch(b, 'GET', '/admin/v1/trusted-issuers')).json.items
        .filter((i) => i.issuer === 'https://bad-key.example').length, 0);
    // The public part alone is a good key.
    const good = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'good key', token_endpoint_auth_method: 'private_key_jwt', grant_types: ['client_credentials'],
        jwks: { keys: [pub] } });
    assert.equal(good.status, 201, good.text);
});

test('private_key_jwt: a signed assertion authenticates the client once', async () => {
    const keys = await jose.generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await jose.exportJWK(keys.publicKey)), kid: 'client-key-1', alg: 'RS256', use: 'sig' };
    const noKeys = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'pkjwt', token_endpoint_auth_method: 'private_key_jwt', grant_types: ['client_credentials'] });
    assert.equal(noKeys.status, 400);
    const c = await register({ client_name: 'pkjwt', token_endpoint_auth_method: 'private_key_jwt',
                               grant_types: ['client_credentials'], scope: 'orders:read', jwks: { keys: [jwk] } });
    assert.equal(c.client_secret, undefined, 'no secret for private_key_jwt');
    const assertion = (claims = {}, key = keys.privateKey, opts) => sign(
        { iss: c.client_id, sub: c.client_id, aud: b.serviceUrl, jti: randomUUID(), ...claims }, key, 'RS256',
        'client-key-1', opts);
    const params = (a) => ({ grant_type: 'client_credentials',
                             client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
                             client_assertion: a });
    const a1 = await assertion();
    const ok = await token(params(a1));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.scope, 'orders:read');
    assertError(await token(params(a1)), 401, 'invalid_client', /already used/);
    // An assertion in the last second it is accepted (exp + the 60 s leeway): its jti is still
    // remembered then (it was forgotten a second early, and the same assertion passed again).
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    const lastSecond = await assertion({ exp: Math.floor(Date.now() / 1000) - 60 }, keys.privateKey, { exp: null });
    const second = Math.floor(Date.now() / 1000);
    const once = await token(params(lastSecond));
    assert.equal(once.status, 200, once.text);
    // Answered within that second (the case that passed before): refused as used, not expired.
    const replay = await token(params(lastSecond));
    const sameSecond = Math.floor(Date.now() / 1000) === second;
    assertError(replay, 401, 'invalid_client', sameSecond ? /already used/ : /already used|expired/);
    // One assertion presented ten times at once: exactly one is accepted.
    const a2 = await assertion();
    const racing = await Promise.all(Array.from({ length: 10 }, () => token(params(a2))));
    assert.deepEqual(racing.map((r) => r.status).sort(), [200, ...Array(9).fill(401)], racing.map((r) => r.text).join('\n'));

    const other = await jose.generateKeyPair('RS256');
    assertError(await token(params(await assertion({}, other.privateKey))), 401, 'invalid_client', /signature/);
    assertError(await token(params(await assertion({ aud: 'https://elsewhere.example' }))), 401, 'invalid_client', /aud/);
    assertError(await token(params(await assertion({ sub: 'someone-else' }))), 401, 'invalid_client', /sub/);
    assertError(await token(params(await assertion({ exp: Math.floor(Date.now() / 1000) - 600 }, keys.privateKey,
                                                   { exp: null }))), 401, 'invalid_client', /expired/);
    assertError(await token(params(await assertion({}, keys.privateKey, { exp: '2h' }))), 401, 'invalid_client',
                /in the future/);
    assertError(await token(params(await assertion({ jti: undefined }))), 401, 'invalid_client', /jti/);
    assertError(await token(params(forged({ alg: 'none' }, { iss: c.client_id, sub: c.client_id, aud: b.serviceUrl,
                                                             exp: Math.floor(Date.now() / 1000) + 60, jti: 'x' }))),
                401, 'invalid_client');
    assertError(await token({ ...params(await assertion()), client_assertion_type: 'urn:bogus' }), 401, 'invalid_client');

    // oauth4webapi's PrivateKeyJwt makes the same kind of assertion.
    const as = await oauth.processDiscoveryResponse(new URL(b.serviceUrl), await oauth.discoveryRequest(
        new URL(b.serviceUrl), { [oauth.allowInsecureRequests]: true }));
    assert.ok(as.token_endpoint_auth_methods_supported.includes('private_key_jwt'));
    const resp = await oauth.clientCredentialsGrantRequest(
        as, { client_id: c.client_id }, oauth.PrivateKeyJwt({ key: keys.privateKey, kid: 'client-key-1' }),
        new URLSearchParams(), { [oauth.allowInsecureRequests]: true });
    assert.equal(resp.status, 200, await resp.clone().text());

    // Introspection takes the same method, and discovery says so (a confidential client's
    // methods; not "none").
    assert.deepEqual(as.introspection_endpoint_auth_methods_supported,
                     ['client_secret_basic', 'client_secret_post', 'private_key_jwt']);
    const { access_token } = await resp.json();
    const intro = await oauth.processIntrospectionResponse(as, { client_id: c.client_id },
        await oauth.introspectionRequest(as, { client_id: c.client_id },
                                         oauth.PrivateKeyJwt({ key: keys.privateKey, kid: 'client-key-1' }),
                                         access_token, { [oauth.allowInsecureRequests]: true }));
    assert.equal(intro.active, true);
    assert.equal(intro.client_id, c.client_id);

    // One method per request (RFC 6749 §2.3): an assertion beside a client_secret is refused
    // whichever of the two the client is registered for.
    assertError(await token({ ...params(await assertion()), client_secret: 'anything' }), 400, 'invalid_request',
                /one client authentication method/);
});

test('jwt-bearer: a trusted issuer\'s assertion becomes an access token, once', async () => {
    const c = await register({ client_name: 'bearer', grant_types: [JWT_BEARER], scope: 'openid email orders:read' });
    const assertion = (claims = {}, key = idpKey.privateKey, alg = 'ES256', kid = 'idp-1') => sign(
        { iss: IDP, sub: 'jb-user', aud: b.serviceUrl, jti: randomUUID(), ...claims }, key, alg, kid,
        { exp: 'exp' in claims ? null : '2m' });
    const a1 = await assertion();
    const ok = await token({ grant_type: JWT_BEARER, assertion: a1, scope: 'email orders:read' }, basic(c));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.refresh_token, undefined);
    const jwks = jose.createRemoteJWKSet(new URL(`${b.serviceUrl}/oauth2/jwks`));
    const { payload } = await jose.jwtVerify(ok.json.access_token, jwks, { issuer: b.serviceUrl });
    assert.equal(payload.sub, user.id, 'a local user named by sub');
    assert.equal(payload.email, 'jb@example.com');
    assert.equal(payload.client_id, c.client_id);

    assertError(await token({ grant_type: JWT_BEARER, assertion: a1 }, basic(c)), 400, 'invalid_grant', /already used/);
    // In its last accepted second too (exp + the 60 s leeway).
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    const lastSecond = await assertion({ exp: Math.floor(Date.now() / 1000) - 60 });
    const second = Math.floor(Date.now() / 1000);
    const once = await token({ grant_type: JWT_BEARER, assertion: lastSecond }, basic(c));
    assert.equal(once.status, 200, once.text);
    const replay = await token({ grant_type: JWT_BEARER, assertion: lastSecond }, basic(c));
    const sameSecond = Math.floor(Date.now() / 1000) === second;
    assertError(replay, 400, 'invalid_grant', sameSecond ? /already used/ : /already used|expired/);
    const external = await token({ grant_type: JWT_BEARER, assertion: await assertion({ sub: 'service-42' }) }, basic(c));
    assert.equal(external.status, 200);
    assert.equal(jose.decodeJwt(external.json.access_token).sub, 'service-42');
    // No scope asked: the client's scopes that the issuer is allowed, never all of the client's.
    assert.equal(external.json.scope, 'email orders:read');
    // An issuer an administrator gave no scope: its assertions become tokens without any scope.
    const bare = 'https://bare.idp.example';
    const bareKey = await jose.generateKeyPair('ES256', { extractable: true });
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', {
        issuer: bare, jwks: { keys: [{ ...(await jose.exportJWK(bareKey.publicKey)), kid: 'b1', alg: 'ES256' }] },
        subjects: ['svc'] })).status, 201);
    const noScope = await token({ grant_type: JWT_BEARER, assertion: await sign(
        { iss: bare, sub: 'svc', aud: b.serviceUrl, jti: randomUUID() }, bareKey.privateKey, 'ES256', 'b1', { exp: '2m' }) },
                               basic(c));
    assert.equal(noScope.status, 200, noScope.text);
    assert.equal(noScope.json.scope, '');
    assert.equal(jose.decodeJwt(noScope.json.access_token).scope, undefined);
    // openid is the client's, but not allowed for this issuer's assertions.
    assertError(await token({ grant_type: JWT_BEARER, assertion: await assertion(), scope: 'openid' }, basic(c)),
                400, 'invalid_scope', /this issuer/);

    const stranger = await jose.generateKeyPair('ES256');
    const cases = [
        [await sign({ iss: 'https://evil.example', sub: 'x', aud: b.serviceUrl, jti: randomUUID() },
                    stranger.privateKey, 'ES256', 'idp-1'), /not trusted/],
        [await assertion({}, stranger.privateKey), /signature/],
        [await assertion({ aud: 'https://other-as.example' }), /aud/],
        [await assertion({ jti: undefined }), /jti/],
        [await assertion({ sub: undefined }), /sub/],
        [await assertion({ exp: Math.floor(Date.now() / 1000) - 3600 }), /expired/],
        [await assertion({ nbf: Math.floor(Date.now() / 1000) + 3600 }), /nbf/],
        [forged({ alg: 'none', kid: 'idp-1' }, { iss: IDP, sub: 'x', aud: b.serviceUrl, jti: 'n',
                                                 exp: Math.floor(Date.now() / 1000) + 60 }), /signature/],
    ];
    // HS256 "signed" with the public key as the secret: the classic key-confusion attack.
    const pubJwk = await jose.exportJWK(idpKey.publicKey);
    const hs = await new jose.SignJWT({ iss: IDP, sub: 'x', aud: b.serviceUrl, jti: randomUUID() })
        .setProtectedHeader({ alg: 'HS256', kid: 'idp-1' }).setExpirationTime('2m')
        .sign(new TextEncoder().encode(JSON.stringify(pubJwk)));
    cases.push([hs, /signature/]);
    for (const [a, why] of cases)
        assertError(await token({ grant_type: JWT_BEARER, assertion: a }, basic(c)), 400, 'invalid_grant', why);
    assertError(await token({ grant_type: JWT_BEARER }, basic(c)), 400, 'invalid_request');
    assertError(await token({ grant_type: JWT_BEARER, assertion: await assertion(), scope: 'orders:write' }, basic(c)),
                400, 'invalid_scope');
    const without = await register({ client_name: 'no bearer', grant_types: ['client_credentials'] });
    assertError(await token({ grant_type: JWT_BEARER, assertion: await assertion() }, basic(without)),
                400, 'unauthorized_client');
});

test('token exchange: audience policy, scope narrowing, delegation with act', async () => {
    const api = 'https://api.example.test/orders';
    const frontend = await register({ client_name: 'frontend', grant_types: ['client_credentials'],
                                      scope: 'orders:read orders:write' });
    const subject = (await token({ grant_type: 'client_credentials', scope: 'orders:read' }, basic(frontend))).json;
    const gateway = await register({ client_name: 'gateway', grant_types: [EXCHANGE, 'client_credentials'],
                                     scope: 'orders:read orders:write', token_exchange_audiences: [api] });
    const exchanged = await token({ grant_type: EXCHANGE, subject_token: subject.access_token, subject_token_type: AT,
                                    audience: api }, basic(gateway));
    assert.equal(exchanged.status, 200, exchanged.text);
    assert.equal(exchanged.json.issued_token_type, AT);
    assert.equal(exchanged.json.token_type, 'Bearer');
    assert.equal(exchanged.json.scope, 'orders:read', 'never more than the subject token had');
    const jwks = jose.createRemoteJWKSet(new URL(`${b.serviceUrl}/oauth2/jwks`));
    const { payload } = await jose.jwtVerify(exchanged.json.access_token, jwks, { issuer: b.serviceUrl, audience: api });
    assert.equal(payload.sub, frontend.client_id);
    assert.equal(payload.client_id, gateway.client_id);
    assert.equal(payload.act, undefined);

    assertError(await token({ grant_type: EXCHANGE, subject_token: subject.access_token, subject_token_type: AT,
                              audience: 'https://not-allowed.example' }, basic(gateway)), 400, 'invalid_target');
    assertError(await token({ grant_type: EXCHANGE, subject_token: subject.access_token, subject_token_type: AT,
                              scope: 'orders:write' }, basic(gateway)), 400, 'invalid_scope');

    // Delegation: the gateway acts for the frontend's subject.
    const actor = (await token({ grant_type: 'client_credentials' }, basic(gateway))).json;
    const delegated = await token({ grant_type: EXCHANGE, subject_token: subject.access_token, subject_token_type: AT,
                                    actor_token: actor.access_token, actor_token_type: AT, resource: api }, basic(gateway));
    assert.equal(delegated.status, 200, delegated.text);
    assert.deepEqual(jose.decodeJwt(delegated.json.access_token).act, { sub: gateway.client_id });
    // Exchanged again: without an actor the delegation stays (it does not pass for the subject's
    // own token); with one, the earlier actors are nested under it (RFC 8693 §4.1).
    const again = await token({ grant_type: EXCHANGE, subject_token: delegated.json.access_token, subject_token_type: AT,
                                audience: api }, basic(gateway));
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(jose.decodeJwt(again.json.access_token).act, { sub: gateway.client_id });
    let chained = delegated.json.access_token;
    for (let depth = 2; depth <= 8; ++depth) {
        const next = await token({ grant_type: EXCHANGE, subject_token: chained, subject_token_type: AT,
                                   actor_token: actor.access_token, actor_token_type: AT, resource: api }, basic(gateway));
        assert.equal(next.status, 200, next.text);
        chained = next.json.access_token;
        let act = jose.decodeJwt(chained).act;
        for (let i = 0; i < depth; ++i, act = act.act)
            assert.equal(act?.sub, gateway.client_id, `actor ${i} of ${depth}`);
        assert.equal(act, undefined);
    }
    assertError(await token({ grant_type: EXCHANGE, subject_token: chained, subject_token_type: AT,
                              actor_token: actor.access_token, actor_token_type: AT, resource: api }, basic(gateway)),
                400, 'invalid_request', /^the chain of delegation would name more than 8 actors$/);

    // Opaque tokens carry no claims: the chain of delegation is recorded with the token, so
    // introspection says who acts, and exchanging it again keeps the actors (it must not pass
    // for the subject's own token) or nests them under a new one.
    const opaqueGateway = await register({ client_name: 'opaque gateway', grant_types: [EXCHANGE, 'client_credentials'],
                                           scope: 'orders:read orders:write', token_exchange_audiences: [api],
                                           access_token_format: 'opaque' });
    const introspect = async (value, as) => {
        const r = await request(`${b.serviceUrl}/oauth2/introspect`, 'POST', new URLSearchParams({ token: value }).toString(),
                                { 'Content-Type': 'application/x-www-form-urlencoded', ...basic(as) });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.active, true, r.text);
        return r.json;
    };
    const opaqueActor = (await token({ grant_type: 'client_credentials' }, basic(opaqueGateway))).json;
    const opaqueDelegated = await token({ grant_type: EXCHANGE, subject_token: subject.access_token, subject_token_type: AT,
                                          actor_token: opaqueActor.access_token, actor_token_type: AT, resource: api },
                                        basic(opaqueGateway));
    assert.equal(opaqueDelegated.status, 200, opaqueDelegated.text);
    assert.notEqual(opaqueDelegated.json.access_token.split('.').length, 3, 'an opaque token, not a JWT');
    const seen = await introspect(opaqueDelegated.json.access_token, opaqueGateway);
    assert.equal(seen.sub, frontend.client_id);
    assert.deepEqual(seen.act, { sub: opaqueGateway.client_id });
    // Not delegated: no act at all.
    assert.equal((await introspect(opaqueActor.access_token, opaqueGateway)).act, undefined);
    // Exchanged again by another client, without an actor: the JWT it gets keeps the actor.
    const kept = await token({ grant_type: EXCHANGE, subject_token: opaqueDelegated.json.access_token,
                               subject_token_type: AT, audience: api }, basic(gateway));
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(jose.decodeJwt(kept.json.access_token).act, { sub: opaqueGateway.client_id });
    // With an actor: nested under it, opaque again, and introspection shows the whole chain.
    const nested = await token({ grant_type: EXCHANGE, subject_token: opaqueDelegated.json.access_token,
                                 subject_token_type: AT, actor_token: opaqueActor.access_token, actor_token_type: AT,
                                 resource: api }, basic(opaqueGateway));
    assert.equal(nested.status, 200, nested.text);
    assert.deepEqual((await introspect(nested.json.access_token, opaqueGateway)).act,
                     { sub: opaqueGateway.client_id, act: { sub: opaqueGateway.client_id } });
    // A JWT's introspection says the same as its claim.
    assert.deepEqual((await introspect(delegated.json.access_token, gateway)).act, { sub: gateway.client_id });

    // Another client's token is no actor token for the gateway: the actor is the caller.
    assertError(await token({ grant_type: EXCHANGE, subject_token: subject.access_token, subject_token_type: AT,
                              actor_token: subject.access_token, actor_token_type: AT, resource: api },
                            basic(gateway)), 400, 'invalid_grant', /actor_token was issued to another client/);

    // A trusted issuer's JWT as the subject; its act names the issuer.
    const idpJwt = await sign({ iss: IDP, sub: 'partner-user', aud: b.serviceUrl, jti: randomUUID() }, idpKey.privateKey,
                              'ES256', 'idp-1');
    const fromIdp = await token({ grant_type: EXCHANGE, subject_token: idpJwt, subject_token_type: JWT,
                                  actor_token: idpJwt, actor_token_type: JWT }, basic(gateway));
    assert.equal(fromIdp.status, 200, fromIdp.text);
    const claims = jose.decodeJwt(fromIdp.json.access_token);
    assert.equal(claims.sub, 'partner-user');
    assert.deepEqual(claims.act, { sub: 'partner-user', iss: IDP });
    // The exchanged token expires with the partner's (20 s), not after the client's lifetime.
    const shortLived = await sign({ iss: IDP, sub: 'partner-user', aud: b.serviceUrl, jti: randomUUID() }, idpKey.privateKey, 'ES256',
                                  'idp-1', { exp: '20s' });
    const fromShort = await token({ grant_type: EXCHANGE, subject_token: shortLived, subject_token_type: JWT },
                                  basic(gateway));
    assert.equal(fromShort.status, 200, fromShort.text);
    assert.ok(fromShort.json.expires_in <= 21, `expires_in ${fromShort.json.expires_in}`);
    assert.ok(jose.decodeJwt(fromShort.json.access_token).exp <= jose.decodeJwt(shortLived).exp);
    // One just past its exp (still within the verifier's leeway) becomes nothing.
    const justExpired = await sign({ iss: IDP, sub: 'partner-user', aud: b.serviceUrl, jti: randomUUID(),
                                     exp: Math.floor(Date.now() / 1000) - 5 }, idpKey.privateKey, 'ES256', 'idp-1',
                                   { exp: null });
    assertError(await token({ grant_type: EXCHANGE, subject_token: justExpired, subject_token_type: JWT },
                            basic(gateway)), 400, 'invalid_grant', /expired/);

    // Refusals.
    await request(`${b.serviceUrl}/oauth2/revoke`, 'POST', new URLSearchParams({ token: subject.access_token }).toString(),
                  { 'Content-Type': 'application/x-www-form-urlencoded', ...basic(frontend) });
    assertError(await token({ grant_type: EXCHANGE, subject_token: subject.access_token, subject_token_type: AT },
                            basic(gateway)), 400, 'invalid_grant');
    assertError(await token({ grant_type: EXCHANGE, subject_token: 'x', subject_token_type: 'urn:ietf:params:oauth:token-type:saml2' },
                            basic(gateway)), 400, 'invalid_request');
    assertError(await token({ grant_type: EXCHANGE, subject_token_type: AT }, basic(gateway)), 400, 'invalid_request');
    assertError(await token({ grant_type: EXCHANGE, subject_token: actor.access_token, subject_token_type: AT,
                              actor_token: actor.access_token }, basic(gateway)), 400, 'invalid_request');
    assertError(await token({ grant_type: EXCHANGE, subject_token: actor.access_token, subject_token_type: AT,
                              requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' }, basic(gateway)),
                400, 'invalid_request');
    const strange = await sign({ iss: 'https://evil.example', sub: 'x', aud: b.serviceUrl },
                               (await jose.generateKeyPair('ES256')).privateKey, 'ES256', 'k');
    assertError(await token({ grant_type: EXCHANGE, subject_token: strange, subject_token_type: JWT }, basic(gateway)),
                400, 'invalid_grant', /trusted/);
    assertError(await token({ grant_type: EXCHANGE, subject_token: actor.access_token, subject_token_type: AT },
                            basic(frontend)), 400, 'unauthorized_client');
});

test('trusted issuers assert only the subjects an administrator listed; narrowing them revokes what they carried', async () => {
    // A local user the partner was never meant to speak for (an operator, say).
    const boss = (await adminFetch(b, 'POST', '/admin/v1/users',
                                   { username: 'jb-boss', password: 'jwt bearer boss', email: 'boss@example.com' })).json;
    const c = await register({ client_name: 'subjects', grant_types: [JWT_BEARER, EXCHANGE], scope: 'email orders:read' });
    const signed = (sub, exp = '2m') => sign({ iss: IDP, sub, aud: b.serviceUrl, jti: randomUUID() },
                                             idpKey.privateKey, 'ES256', 'idp-1', { exp });
    const introspect = async (t) => (await request(`${b.serviceUrl}/oauth2/introspect`, 'POST',
        new URLSearchParams({ token: t }).toString(),
        { 'Content-Type': 'application/x-www-form-urlencoded', ...basic(c) })).json.active;
    const trust = (body) => adminFetch(b, 'POST', '/admin/v1/trusted-issuers', { issuer: IDP, jwks: idpJwks, ...body });
    const idpJwks = (await adminFetch(b, 'GET', '/admin/v1/trusted-issuers')).json.items.find((i) => i.issuer === IDP).jwks;

    // Not listed: by username, by id, or a name of the partner's own.
    const asBoss = await signed('jb-boss');
    for (const a of [asBoss, await signed(boss.id), await signed('someone-else')])
        assertError(await token({ grant_type: JWT_BEARER, assertion: a }, basic(c)), 400, 'invalid_grant',
                    /may not assert the subject/);
    assertError(await token({ grant_type: EXCHANGE, subject_token: await signed('jb-boss'), subject_token_type: JWT },
                            basic(c)), 400, 'invalid_grant', /may not assert the subject 'jb-boss'/);
    // Listed by username, asserted by id: the same user.
    const byId = await token({ grant_type: JWT_BEARER, assertion: await signed(user.id) }, basic(c));
    assert.equal(byId.status, 200, byId.text);
    assert.equal(jose.decodeJwt(byId.json.access_token).sub, user.id);

    // An entry meant as the partner's own sub that a local username matches in another case
    // does not let it assert that local user: a local user is known by its id and username.
    assert.equal((await trust({ subjects: ['jb-user', 'service-42', 'partner-user', 'JB-Boss'] })).status, 201);
    assertError(await token({ grant_type: JWT_BEARER, assertion: await signed('JB-Boss') }, basic(c)), 400,
                'invalid_grant', /may not assert the subject 'JB-Boss'/);
    // Listed now: the refused assertion was not spent by its refusal.
    const widened = await trust({ subjects: ['jb-user', 'service-42', 'partner-user', 'jb-boss'] });
    assert.equal(widened.status, 201, widened.text);
    const bossToken = await token({ grant_type: JWT_BEARER, assertion: asBoss }, basic(c));
    assert.equal(bossToken.status, 200, bossToken.text);
    assert.equal(jose.decodeJwt(bossToken.json.access_token).sub, boss.id);
    const exchanged = await token({ grant_type: EXCHANGE, subject_token: await signed('jb-boss'), subject_token_type: JWT },
                                  basic(c));
    assert.equal(exchanged.status, 200, exchanged.text);
    assert.equal(await introspect(bossToken.json.access_token), true);
    assert.equal(await introspect(exchanged.json.access_token), true);

    // Taken away again: what its assertions and tokens became for that subject is revoked (with
    // the rest of the issuer's, as when a scope is taken away).
    const narrowed = await trust({ subjects: ['jb-user', 'service-42', 'partner-user'] });
    assert.equal(narrowed.status, 201, narrowed.text);
    assert.deepEqual(narrowed.json.subjects, ['jb-user', 'service-42', 'partner-user']);
    assert.equal(await introspect(bossToken.json.access_token), false);
    assert.equal(await introspect(exchanged.json.access_token), false);
    assert.equal(await introspect(byId.json.access_token), false);
    assertError(await token({ grant_type: JWT_BEARER, assertion: await signed('jb-boss') }, basic(c)), 400,
                'invalid_grant', /may not assert/);

    // Any subject, when an administrator says so; then back to the list (no token to revoke
    // for the widening, every one for the narrowing).
    assert.equal((await trust({ anySubject: true })).status, 201);
    const anyone = await token({ grant_type: JWT_BEARER, assertion: await signed('jb-boss') }, basic(c));
    assert.equal(anyone.status, 200, anyone.text);
    const listed = await trust({ subjects: ['jb-user', 'service-42', 'partner-user'] });
    assert.equal(listed.json.anySubject, false);
    assert.equal(await introspect(anyone.json.access_token), false);
});
