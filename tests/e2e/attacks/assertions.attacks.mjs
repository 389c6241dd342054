// JWT forgery against every place that trusts a signature (docs/oauth.md, "Third slice"): the
// resource server (`--orders-require-token`), private_key_jwt client authentication, the
// jwt-bearer grant and token exchange. Forgeries: `alg: none`, HS256 "signed" with the public
// key (HS/RS confusion), a foreign kid, a foreign key claiming this issuer, a tampered payload;
// and assertions that are expired, not yet valid, replayed, for another audience or from an
// untrusted issuer. Each is refused and nothing is stored: no token row for the client, no order.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';

import { startBackend, adminFetch, serviceFetch } from '../lib/backend.mjs';
import {
    attack, assertNoTokens, activeTokenIds, registerClient, basicAuth, formPost, assertOAuthError,
    unsignedJwt, tamperedJwt, nowSeconds,
} from './lib/attack.mjs';

const IDP = 'https://idp.example.test';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const AT = 'urn:ietf:params:oauth:token-type:access_token';
const JWT = 'urn:ietf:params:oauth:token-type:jwt';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const API = 'https://api.example.test/orders';
const VERIFY_FAILED = /^the assertion's signature does not verify: signature verification failed$/;

// The PEM of a public JWK: what an HS/RS confusion attacker uses as the HMAC secret.
async function publicPem(jwk, alg) {
    return jose.exportSPKI(await jose.importJWK(jwk, alg, { extractable: true }));
}

function hs256(claims, header, secretText) {
    return new jose.SignJWT(claims).setProtectedHeader({ alg: 'HS256', ...header })
        .sign(new TextEncoder().encode(secretText));
}

function sign(claims, key, header, { exp = nowSeconds() + 120 } = {}) {
    const jwt = new jose.SignJWT(claims).setProtectedHeader(header).setIssuedAt();
    if (exp !== null)
        jwt.setExpirationTime(exp);
    return jwt.sign(key);
}

describe('assertions: forged and stale JWTs at the resource server, client authentication, jwt-bearer and token exchange', () => {
    let b;
    let issuer;
    let tokenEndpoint;
    let serverKid; // the kid of the server's active RS256 key
    let serverPem; // its public key as PEM
    let stranger; // a foreign RS256 key pair
    let idpKey; // the trusted issuer's ES256 key pair
    let idpPem;
    let customer;
    let reader; // a real JWT access token with orders:read (and its client)

    before(async () => {
        b = await startBackend({ args: ['--orders-require-token'] });
        issuer = b.serviceUrl;
        tokenEndpoint = `${issuer}/oauth2/token`;
        stranger = await jose.generateKeyPair('RS256', { extractable: true });
        idpKey = await jose.generateKeyPair('ES256', { extractable: true });
        const idpJwk = { ...(await jose.exportJWK(idpKey.publicKey)), kid: 'idp-1', alg: 'ES256', use: 'sig' };
        idpPem = await publicPem(idpJwk, 'ES256');
        const t = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers',
                                   { issuer: IDP, jwks: { keys: [idpJwk] }, scopes: ['openid', 'email', 'orders:read'], anySubject: true });
        assert.equal(t.status, 201, t.text);
        const u = await adminFetch(b, 'POST', '/admin/v1/users', { username: 'jb-victim', password: 'a long password 1' });
        assert.equal(u.status, 201, u.text);
        const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'attacked customer' });
        assert.equal(c.status, 201, c.text);
        customer = c.json.customer.id;

        const readerClient = await registerClient(b, { client_name: 'reader', grant_types: ['client_credentials'],
                                                       scope: 'orders:read' });
        const minted = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: readerClient.client_id });
        assert.equal(minted.status, 200, minted.text);
        reader = { client: readerClient, token: minted.json.access_token };
        serverKid = jose.decodeProtectedHeader(reader.token).kid;
        const jwks = (await serviceFetch(b, 'GET', '/oauth2/jwks')).json;
        const jwk = jwks.keys.find((k) => k.kid === serverKid);
        assert.ok(jwk, `the access token's kid ${serverKid} is in the JWKS`);
        serverPem = await publicPem(jwk, 'RS256');

        // The controls: the real token reads the customer's orders, and a real orders:write
        // token creates an order with the very request the forgeries send (for another
        // customer, whose orders nobody checks).
        const read = await serviceFetch(b, 'GET', `/v1/customers/${customer}/orders`, undefined,
                                        { Authorization: `Bearer ${reader.token}` });
        assert.equal(read.status, 200, read.text);
        const writerClient = await registerClient(b, { client_name: 'writer', grant_types: ['client_credentials'],
                                                       scope: 'orders:read orders:write' });
        const writer = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: writerClient.client_id });
        assert.equal(writer.status, 200, writer.text);
        const other = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'control customer' });
        const created = await serviceFetch(b, 'POST', `/v1/customers/${other.json.customer.id}/orders`, {},
                                           { Authorization: `Bearer ${writer.json.access_token}` });
        assert.equal(created.status, 201, created.text);
    });

    // "aud must name this server (ISSUER or ...)", the endpoints it accepts after the issuer.
    // A client assertion names the issuer alone; a jwt-bearer grant's may name the token endpoint.
    const audRefused = () => new RegExp(`^aud must name this server \\(${issuer.replace(/[.]/g, '\\.')}( or |\\)$)`);

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    // --- the resource server: POST /v1/customers/{id}/orders needs orders:write ---------------------

    // The claims of a real access token of this server, widened to orders:write.
    const writerClaims = () => ({ ...jose.decodeJwt(reader.token), scope: 'orders:read orders:write', jti: randomUUID() });

    async function assertOrderRefused(bearer, what) {
        const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {},
                                     { Authorization: `Bearer ${bearer}` });
        assert.equal(r.status, 401, `${what}: ${r.text}`);
        assert.match(r.headers['content-type'], /^application\/problem\+json/, what);
        const detail = 'the access token is not valid (signature, type, issuer or expiry)';
        assert.equal(r.headers['www-authenticate'],
                     `Bearer realm="gatehouse", error="invalid_token", error_description="${detail}"`, what);
        assert.deepEqual(r.json, { type: 'urn:gatehouse:problem:invalid-token', title: 'Unauthorized', status: 401, detail }, what);
        assert.equal(r.headers.location, undefined, `${what}: nothing created`);
        const orders = await adminFetch(b, 'GET', `/admin/v1/orders?customerId=${customer}`);
        assert.equal(orders.status, 200, orders.text);
        assert.deepEqual(orders.json.items, [], `${what}: no order for the customer`);
    }

    attack('resource server: alg "none" access token refused, no order created', async () => {
        await assertOrderRefused(unsignedJwt({ alg: 'none', typ: 'at+jwt', kid: serverKid }, writerClaims()), 'alg none');
    });

    attack('resource server: HS256 signed with the server\'s RSA public key (HS/RS confusion) refused', async () => {
        const forged = await hs256(writerClaims(), { typ: 'at+jwt', kid: serverKid }, serverPem);
        await assertOrderRefused(forged, 'HS256 with the public key');
    });

    attack('resource server: a token signed by a foreign key under a foreign kid refused', async () => {
        const forged = await sign(writerClaims(), stranger.privateKey, { alg: 'RS256', typ: 'at+jwt', kid: 'attacker-key' });
        await assertOrderRefused(forged, 'foreign kid');
    });

    attack('resource server: a foreign key claiming this issuer and the server\'s kid refused', async () => {
        const forged = await sign(writerClaims(), stranger.privateKey, { alg: 'RS256', typ: 'at+jwt', kid: serverKid });
        await assertOrderRefused(forged, 'foreign key, server kid');
    });

    attack('resource server: a real access token with its scope widened (payload tampered) refused', async () => {
        await assertOrderRefused(tamperedJwt(reader.token, { scope: 'orders:read orders:write' }), 'tampered scope');
    });

    attack('resource server: a trusted issuer\'s JWT (assertion key, not this server\'s) refused as an access token', async () => {
        const forged = await sign({ iss: issuer, sub: 'partner', aud: issuer, scope: 'orders:write', jti: randomUUID() },
                                  idpKey.privateKey, { alg: 'ES256', typ: 'at+jwt', kid: 'idp-1' });
        await assertOrderRefused(forged, 'trusted issuer key');
    });

    // --- private_key_jwt client authentication --------------------------------------------------

    // A private_key_jwt client with its own RS256 key: {client, key, assertion(claims, opts)}.
    async function keyClient(name) {
        const key = await jose.generateKeyPair('RS256', { extractable: true });
        const jwk = { ...(await jose.exportJWK(key.publicKey)), kid: `${name}-key`, alg: 'RS256', use: 'sig' };
        const client = await registerClient(b, { client_name: name, token_endpoint_auth_method: 'private_key_jwt',
                                                 grant_types: ['client_credentials'], scope: 'orders:read',
                                                 jwks: { keys: [jwk] } });
        const claims = (extra = {}) => ({ iss: client.client_id, sub: client.client_id, aud: issuer,
                                          jti: randomUUID(), ...extra });
        return { client, key, jwk, kid: jwk.kid, claims,
                 pem: await publicPem(jwk, 'RS256'),
                 assertion: (extra = {}, opts = {}) => sign(claims(extra), opts.key ?? key.privateKey,
                                                            { alg: 'RS256', kid: opts.kid ?? jwk.kid }, opts) };
    }

    const withAssertion = (a, extra = {}) => formPost(b, '/oauth2/token', {
        grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: a, ...extra });

    let pk; // the client attacked by the private_key_jwt cases
    async function pkClient() {
        pk ??= await keyClient('pkjwt-target');
        return pk;
    }

    async function assertClientRefused(c, a, pattern, what) {
        const r = await withAssertion(a);
        assertOAuthError(r, 401, 'invalid_client', pattern, what);
        await assertNoTokens(b, c.client.client_id, what);
    }

    attack('private_key_jwt: an alg "none" client assertion refused, no token', async () => {
        const c = await pkClient();
        await assertClientRefused(c, unsignedJwt({ alg: 'none', kid: c.kid }, { ...c.claims(), exp: nowSeconds() + 60 }),
                                  /^the assertion's signature does not verify: alg 'none' is refused$/, 'alg none');
    });

    attack('private_key_jwt: HS256 signed with the client\'s registered public key (HS/RS confusion) refused', async () => {
        const c = await pkClient();
        const a = await hs256({ ...c.claims(), exp: nowSeconds() + 60 }, { kid: c.kid }, c.pem);
        await assertClientRefused(c, a, /^the assertion's signature does not verify: HMAC algs are refused$/,
                                  'HS256 with the public key');
    });

    attack('private_key_jwt: an assertion signed by a foreign key under the client\'s kid refused', async () => {
        const c = await pkClient();
        await assertClientRefused(c, await c.assertion({}, { key: stranger.privateKey }), VERIFY_FAILED, 'foreign key');
    });

    attack('private_key_jwt: an assertion signed by a foreign key under a foreign kid refused', async () => {
        const c = await pkClient();
        await assertClientRefused(c, await c.assertion({}, { key: stranger.privateKey, kid: 'attacker-key' }),
                                  /^the assertion's signature does not verify: no key with kid 'attacker-key'$/, 'foreign kid');
    });

    attack('private_key_jwt: a valid assertion with a tampered payload (another jti, later exp) refused', async () => {
        const c = await pkClient();
        const a = tamperedJwt(await c.assertion(), { jti: randomUUID(), exp: nowSeconds() + 300 });
        await assertClientRefused(c, a, VERIFY_FAILED, 'tampered');
    });

    attack('private_key_jwt: an expired client assertion refused', async () => {
        const c = await pkClient();
        await assertClientRefused(c, await c.assertion({}, { exp: nowSeconds() - 600 }), /^the assertion has expired$/, 'expired');
    });

    attack('private_key_jwt: a client assertion not valid yet (nbf an hour ahead) refused', async () => {
        const c = await pkClient();
        await assertClientRefused(c, await c.assertion({ nbf: nowSeconds() + 3600 }), /^the assertion is not valid yet \(nbf\)$/, 'nbf');
    });

    attack('private_key_jwt: a client assertion for another audience refused', async () => {
        const c = await pkClient();
        await assertClientRefused(c, await c.assertion({ aud: 'https://other-as.example/token' }), audRefused(), 'audience');
    });

    attack('private_key_jwt: audience injection (aud the token endpoint\'s URL, or a list naming it, as a client makes it for an attacker\'s authorization server that advertises this token endpoint) refused', async () => {
        const c = await pkClient();
        await assertClientRefused(c, await c.assertion({ aud: tokenEndpoint }), audRefused(), 'the token endpoint');
        await assertClientRefused(c, await c.assertion({ aud: [tokenEndpoint, 'https://attacker.example'] }),
                                  audRefused(), 'a list naming the token endpoint');
        await assertClientRefused(c, await c.assertion({ aud: [issuer, 'https://attacker.example'] }),
                                  /^aud must be this server's issuer identifier \(.*\) as one string, not a list$/,
                                  'a list naming the issuer');
    });

    attack('private_key_jwt: a client assertion signed with another client\'s key refused', async () => {
        const c = await pkClient();
        const other = await keyClient('pkjwt-other');
        // c's identity, signed by the other client's key (and kid).
        const a = await sign(c.claims(), other.key.privateKey, { alg: 'RS256', kid: other.kid });
        await assertClientRefused(c, a, new RegExp(`^the assertion's signature does not verify: no key with kid '${other.kid}'$`),
                                  'another client\'s key');
        await assertNoTokens(b, other.client.client_id, 'the other client');
    });

    attack('private_key_jwt: a replayed client assertion (same jti) refused; only the first got a token', async () => {
        const c = await keyClient('pkjwt-replay');
        const a = await c.assertion();
        const first = await withAssertion(a);
        assert.equal(first.status, 200, first.text);
        const held = await activeTokenIds(b, c.client.client_id);
        assert.equal(held.length, 1);
        assertOAuthError(await withAssertion(a), 401, 'invalid_client', /^this client_assertion was already used \(jti\)$/, 'replayed jti');
        assert.deepEqual(await activeTokenIds(b, c.client.client_id), held, 'no second token');
    });

    // --- the jwt-bearer grant (RFC 7523 §2.1) from the trusted issuer ---------------------------------

    let bearerClient;
    async function bearer() {
        bearerClient ??= await registerClient(b, { client_name: 'jwt-bearer target', grant_types: [JWT_BEARER],
                                                   scope: 'openid email orders:read' });
        return bearerClient;
    }

    const idpClaims = (extra = {}) => ({ iss: IDP, sub: 'jb-victim', aud: issuer, jti: randomUUID(), ...extra });
    const idpAssertion = (extra = {}, opts = {}) => sign(idpClaims(extra), opts.key ?? idpKey.privateKey,
                                                         { alg: opts.alg ?? 'ES256', kid: opts.kid ?? 'idp-1' }, opts);

    async function assertGrantRefused(assertion, pattern, what, client) {
        const c = client ?? await bearer();
        const r = await formPost(b, '/oauth2/token', { grant_type: JWT_BEARER, assertion },
                                 basicAuth(c.client_id, c.client_secret));
        assertOAuthError(r, 400, 'invalid_grant', pattern, what);
        await assertNoTokens(b, c.client_id, what);
    }

    attack('jwt-bearer: an alg "none" assertion naming the trusted issuer refused, no token', async () => {
        await assertGrantRefused(unsignedJwt({ alg: 'none', kid: 'idp-1' }, { ...idpClaims(), exp: nowSeconds() + 60 }),
                                 /^the assertion's signature does not verify: alg 'none' is refused$/, 'alg none');
    });

    attack('jwt-bearer: HS256 signed with the trusted issuer\'s public key (HS/EC confusion) refused', async () => {
        const a = await hs256({ ...idpClaims(), exp: nowSeconds() + 60 }, { kid: 'idp-1' }, idpPem);
        await assertGrantRefused(a, /^the assertion's signature does not verify: HMAC algs are refused$/,
                                 'HS256 with the public key');
    });

    attack('jwt-bearer: a foreign key with the trusted issuer\'s iss and kid refused', async () => {
        const foreign = await jose.generateKeyPair('ES256');
        await assertGrantRefused(await idpAssertion({}, { key: foreign.privateKey }), VERIFY_FAILED, 'foreign key');
    });

    attack('jwt-bearer: a foreign key claiming this authorization server as issuer refused', async () => {
        const a = await sign(idpClaims({ iss: issuer }), stranger.privateKey, { alg: 'RS256', kid: serverKid });
        await assertGrantRefused(a, /^the assertion's issuer is not trusted$/, 'this issuer');
    });

    attack('jwt-bearer: an assertion from an untrusted issuer refused', async () => {
        const a = await sign(idpClaims({ iss: 'https://evil.example' }), stranger.privateKey, { alg: 'RS256', kid: 'idp-1' });
        await assertGrantRefused(a, /^the assertion's issuer is not trusted$/, 'untrusted issuer');
    });

    attack('jwt-bearer: a tampered assertion (sub changed to another user) refused', async () => {
        await assertGrantRefused(tamperedJwt(await idpAssertion(), { sub: 'admin' }), VERIFY_FAILED, 'tampered');
    });

    attack('jwt-bearer: an expired assertion refused', async () => {
        await assertGrantRefused(await idpAssertion({}, { exp: nowSeconds() - 3600 }), /^the assertion has expired$/, 'expired');
    });

    attack('jwt-bearer: an assertion not valid yet (nbf an hour ahead) refused', async () => {
        await assertGrantRefused(await idpAssertion({ nbf: nowSeconds() + 3600 }), /not valid yet \(nbf\)/, 'nbf');
    });

    attack('jwt-bearer: an assertion for another authorization server (wrong aud) refused', async () => {
        await assertGrantRefused(await idpAssertion({ aud: 'https://other-as.example' }), audRefused(),
                                 'audience');
    });

    attack('jwt-bearer: a replayed assertion (same jti) refused; only the first got a token', async () => {
        const c = await registerClient(b, { client_name: 'jwt-bearer replay', grant_types: [JWT_BEARER], scope: 'orders:read' });
        const a = await idpAssertion();
        const first = await formPost(b, '/oauth2/token', { grant_type: JWT_BEARER, assertion: a },
                                     basicAuth(c.client_id, c.client_secret));
        assert.equal(first.status, 200, first.text);
        const held = await activeTokenIds(b, c.client_id);
        assert.equal(held.length, 1);
        const again = await formPost(b, '/oauth2/token', { grant_type: JWT_BEARER, assertion: a },
                                     basicAuth(c.client_id, c.client_secret));
        assertOAuthError(again, 400, 'invalid_grant', /^this assertion was already used \(jti\)$/, 'replayed jti');
        assert.deepEqual(await activeTokenIds(b, c.client_id), held, 'no second token');
    });

    // A trusted issuer's JWT naming this server is an assertion whichever grant it is shown to: the
    // token exchange once let it be spent again (and for 400 days) after the jwt-bearer grant spent it.
    let spender;
    async function jwtAndExchange() {
        spender ??= await registerClient(b, { client_name: 'jwt-bearer and exchange', grant_types: [JWT_BEARER, EXCHANGE],
                                              scope: 'orders:read', token_exchange_audiences: [API] });
        const basic = basicAuth(spender.client_id, spender.client_secret);
        return {
            client: spender,
            bearer: (a) => formPost(b, '/oauth2/token', { grant_type: JWT_BEARER, assertion: a }, basic),
            exchange: (a) => formPost(b, '/oauth2/token', { grant_type: EXCHANGE, subject_token: a,
                                                            subject_token_type: JWT, audience: API }, basic),
        };
    }

    attack('jwt-bearer then token exchange: a spent assertion is no subject token; no second token', async () => {
        const s = await jwtAndExchange();
        const a = await idpAssertion();
        const first = await s.bearer(a);
        assert.equal(first.status, 200, first.text);
        const held = await activeTokenIds(b, s.client.client_id);
        assertOAuthError(await s.exchange(a), 400, 'invalid_grant', /^this token was already used \(jti\)$/,
                         'exchanged after jwt-bearer');
        assert.deepEqual(await activeTokenIds(b, s.client.client_id), held, 'no second token');
    });

    attack('token exchange then jwt-bearer or a second exchange: a trusted issuer\'s subject token is spent once', async () => {
        const s = await jwtAndExchange();
        const a = await idpAssertion();
        // A dry run (the console's token preview) spends nothing.
        const preview = await adminFetch(b, 'POST', '/admin/v1/tokens/preview', {
            client_id: s.client.client_id, grant_type: EXCHANGE, subject_token: a, subject_token_type: JWT, audience: API });
        assert.equal(preview.status, 200, preview.text);
        const first = await s.exchange(a);
        assert.equal(first.status, 200, first.text);
        const held = await activeTokenIds(b, s.client.client_id);
        assertOAuthError(await s.exchange(a), 400, 'invalid_grant', /^this token was already used \(jti\)$/,
                         'exchanged twice');
        assertOAuthError(await s.bearer(a), 400, 'invalid_grant', /^this assertion was already used \(jti\)$/,
                         'jwt-bearer after the exchange');
        assert.deepEqual(await activeTokenIds(b, s.client.client_id), held, 'no second token');
    });

    attack('token exchange: a trusted issuer\'s subject token valid for more than an hour, or without a jti, refused', async () => {
        const s = await jwtAndExchange();
        const before = await activeTokenIds(b, s.client.client_id);
        assertOAuthError(await s.exchange(await idpAssertion({}, { exp: nowSeconds() + 400 * 86400 - 60 })), 400,
                         'invalid_grant', /^exp is more than 3600 s in the future$/, 'a 400-day token');
        assertOAuthError(await s.exchange(await idpAssertion({ jti: undefined })), 400, 'invalid_grant',
                         /^jti is required$/, 'no jti');
        assert.deepEqual(await activeTokenIds(b, s.client.client_id), before, 'no token');
    });

    // --- token exchange (RFC 8693) ------------------------------------------------------------------

    let gateway; // may exchange for API only
    let frontend; // holds the real subject tokens
    async function clients() {
        gateway ??= await registerClient(b, { client_name: 'gateway', grant_types: [EXCHANGE],
                                              scope: 'orders:read orders:write', token_exchange_audiences: [API] });
        frontend ??= await registerClient(b, { client_name: 'frontend', grant_types: ['client_credentials'],
                                               scope: 'orders:read orders:write' });
        return { gateway, frontend };
    }

    async function subjectToken(scope = 'orders:read') {
        const { frontend: f } = await clients();
        const r = await formPost(b, '/oauth2/token', { grant_type: 'client_credentials', scope },
                                 basicAuth(f.client_id, f.client_secret));
        assert.equal(r.status, 200, r.text);
        return r.json.access_token;
    }

    async function assertExchangeRefused(fields, status, error, pattern, what) {
        const { gateway: g } = await clients();
        const r = await formPost(b, '/oauth2/token', { grant_type: EXCHANGE, ...fields },
                                 basicAuth(g.client_id, g.client_secret));
        assertOAuthError(r, status, error, pattern, what);
        await assertNoTokens(b, g.client_id, what);
    }

    const selfClaims = (extra = {}) => ({ iss: issuer, sub: 'someone', aud: API, client_id: 'x',
                                          scope: 'orders:read orders:write', jti: randomUUID(), ...extra });

    attack('token exchange: a subject JWT signed by a foreign key with this issuer\'s iss and kid refused', async () => {
        const forged = await sign(selfClaims(), stranger.privateKey, { alg: 'RS256', typ: 'at+jwt', kid: serverKid });
        await assertExchangeRefused({ subject_token: forged, subject_token_type: JWT, audience: API },
                                    400, 'invalid_grant', VERIFY_FAILED, 'foreign key');
    });

    attack('token exchange: an alg "none" subject JWT claiming this issuer refused', async () => {
        const forged = unsignedJwt({ alg: 'none', typ: 'at+jwt', kid: serverKid }, { ...selfClaims(), exp: nowSeconds() + 60 });
        await assertExchangeRefused({ subject_token: forged, subject_token_type: JWT, audience: API },
                                    400, 'invalid_grant', /^the assertion's signature does not verify: alg 'none' is refused$/, 'alg none');
    });

    attack('token exchange: an HS256 subject JWT signed with the server\'s public key refused', async () => {
        const forged = await hs256({ ...selfClaims(), exp: nowSeconds() + 60 }, { typ: 'at+jwt', kid: serverKid }, serverPem);
        await assertExchangeRefused({ subject_token: forged, subject_token_type: JWT, audience: API },
                                    400, 'invalid_grant', /^the assertion's signature does not verify: HMAC algs are refused$/, 'HS256');
    });

    attack('token exchange: a real access token with a widened scope (tampered) refused', async () => {
        const forged = tamperedJwt(await subjectToken('orders:read'), { scope: 'orders:read orders:write' });
        await assertExchangeRefused({ subject_token: forged, subject_token_type: AT, audience: API, scope: 'orders:write' },
                                    400, 'invalid_grant', VERIFY_FAILED, 'tampered');
    });

    attack('token exchange: a subject token from an untrusted issuer refused', async () => {
        const foreign = await sign({ iss: 'https://evil.example', sub: 'x', aud: issuer }, stranger.privateKey,
                                   { alg: 'RS256', kid: 'k' });
        await assertExchangeRefused({ subject_token: foreign, subject_token_type: JWT, audience: API },
                                    400, 'invalid_grant', /^the token is not from this server or a trusted issuer$/, 'untrusted');
    });

    attack('token exchange: a trusted issuer\'s token not naming this server as audience refused', async () => {
        const t = await idpAssertion({ aud: 'https://elsewhere.example' });
        await assertExchangeRefused({ subject_token: t, subject_token_type: JWT, audience: API },
                                    400, 'invalid_grant', audRefused(), 'audience');
    });

    attack('token exchange: an expired trusted-issuer subject token refused', async () => {
        const t = await idpAssertion({}, { exp: nowSeconds() - 3600 });
        await assertExchangeRefused({ subject_token: t, subject_token_type: JWT, audience: API },
                                    400, 'invalid_grant', /^the assertion has expired$/, 'expired');
    });

    attack('token exchange: a forged actor_token beside a real subject token refused', async () => {
        const subject = await subjectToken();
        const actor = await sign(selfClaims({ sub: 'admin' }), stranger.privateKey, { alg: 'RS256', typ: 'at+jwt', kid: serverKid });
        await assertExchangeRefused({ subject_token: subject, subject_token_type: AT, actor_token: actor,
                                      actor_token_type: JWT, audience: API },
                                    400, 'invalid_grant', VERIFY_FAILED, 'forged actor');
    });

    attack('token exchange: a revoked subject token refused', async () => {
        const { frontend: f } = await clients();
        const subject = await subjectToken();
        const revoked = await formPost(b, '/oauth2/revoke', { token: subject }, basicAuth(f.client_id, f.client_secret));
        assert.equal(revoked.status, 200, revoked.text);
        await assertExchangeRefused({ subject_token: subject, subject_token_type: AT, audience: API },
                                    400, 'invalid_grant', /^the token was revoked \(with the grant it came from\)$/, 'revoked');
    });

    attack('token exchange: an audience outside the client\'s exchange policy refused', async () => {
        await assertExchangeRefused({ subject_token: await subjectToken(), subject_token_type: AT,
                                      audience: 'https://admin.internal.example' },
                                    400, 'invalid_target', /^this client may not exchange tokens for 'https:\/\/admin\.internal\.example'$/,
                                    'audience policy');
    });
});
