// The orders API as an OAuth resource server (--orders-require-token): RFC 6750 answers,
// orders:read for reads and orders:write for changes, JWTs checked locally and, like opaque
// tokens, refused at once when revoked. Off by default, as the seed shows no authentication.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as jose from 'jose';

import { startBackend, adminFetch, serviceFetch, request } from './lib/backend.mjs';

let b;
let customer;

async function clientToken(scope, format = 'jwt') {
    const c = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: `rs ${scope} ${format}`, grant_types: ['client_credentials'], scope, access_token_format: format });
    assert.equal(c.status, 201, c.text);
    const t = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: c.json.client_id });
    assert.equal(t.status, 200, t.text);
    return { ...t.json, client: c.json };
}

const bearer = (t) => ({ Authorization: `Bearer ${t}` });

function assertChallenge(r, status, error, scope) {
    assert.equal(r.status, status, r.text);
    assert.match(r.headers['content-type'], /^application\/problem\+json/);
    const h = r.headers['www-authenticate'];
    assert.ok(h.startsWith('Bearer realm="gatehouse"'), h);
    if (error)
        assert.match(h, new RegExp(`error="${error}"`));
    else
        assert.ok(!h.includes('error='), 'no error code when no token was sent (RFC 6750 §3.1)');
    if (scope)
        assert.match(h, new RegExp(`scope="${scope}"`));
    assert.equal(r.json.status, status);
}

before(async () => {
    b = await startBackend({ args: ['--orders-require-token'] });
    const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'resource server' });
    assert.equal(c.status, 201, c.text);
    customer = c.json.customer.id;
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

test('no token: 401 with a bare Bearer challenge; health stays open', async () => {
    assertChallenge(await serviceFetch(b, 'GET', '/v1/beers'), 401);
    assertChallenge(await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {}), 401);
    assert.equal((await serviceFetch(b, 'GET', '/healthz')).status, 200);
    assert.equal((await serviceFetch(b, 'GET', '/.well-known/openid-configuration')).status, 200);
});

test('orders:read reads but cannot write; orders:write writes', async () => {
    const reader = await clientToken('orders:read');
    assert.equal((await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(reader.access_token))).status, 200);
    assert.equal((await serviceFetch(b, 'GET', `/v1/customers/${customer}/orders`, undefined,
                                     bearer(reader.access_token))).status, 200);
    assertChallenge(await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {},
                                       bearer(reader.access_token)), 403, 'insufficient_scope', 'orders:write');
    const writer = await clientToken('orders:read orders:write');
    const created = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {}, bearer(writer.access_token));
    assert.equal(created.status, 201, created.text);
    const onlyWrite = await clientToken('orders:write');
    assertChallenge(await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(onlyWrite.access_token)),
                    403, 'insufficient_scope', 'orders:read');
});

test('opaque tokens by introspection; revoked and foreign tokens refused', async () => {
    const opaque = await clientToken('orders:read', 'opaque');
    assert.equal(opaque.access_token.split('.').length, 2); // <issue time>.<random>: not a JWT
    assert.equal((await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(opaque.access_token))).status, 200);
    const id = (await adminFetch(b, 'GET', `/admin/v1/tokens?client=${opaque.client.client_id}`)).json.items[0].id;
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/tokens/${id}`)).status, 204);
    assertChallenge(await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(opaque.access_token)), 401, 'invalid_token');

    assertChallenge(await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer('made-up-token')), 401, 'invalid_token');
    const keys = await jose.generateKeyPair('RS256');
    const real = await clientToken('orders:read');
    const header = jose.decodeProtectedHeader(real.access_token);
    const forged = await new jose.SignJWT(jose.decodeJwt(real.access_token))
        .setProtectedHeader({ alg: 'RS256', kid: header.kid, typ: 'at+jwt' }).sign(keys.privateKey);
    assertChallenge(await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(forged)), 401, 'invalid_token');
    const [h, p, s] = real.access_token.split('.');
    const widened = Buffer.from(JSON.stringify({ ...jose.decodeJwt(real.access_token), scope: 'orders:read orders:write' }))
        .toString('base64url');
    assertChallenge(await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {},
                                       bearer(`${h}.${widened}.${s}`)), 401, 'invalid_token');
    const none = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${p}.`;
    assertChallenge(await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(none)), 401, 'invalid_token');
});

test('a revoked JWT is refused at once, as an opaque token is', async () => {
    const jwt = await clientToken('orders:read');
    assert.equal(jwt.access_token.split('.').length, 3);
    assert.equal((await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(jwt.access_token))).status, 200);
    // Still valid by signature, issuer, type, audience and expiry; only its record says revoked.
    const id = (await adminFetch(b, 'GET', `/admin/v1/tokens?client=${jwt.client.client_id}`)).json.items[0].id;
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/tokens/${id}`)).status, 204);
    assert.ok(jose.decodeJwt(jwt.access_token).exp > Date.now() / 1000 + 60);
    const refused = await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(jwt.access_token));
    assertChallenge(refused, 401, 'invalid_token');
    assert.match(refused.json.detail, /revoked/);
    // The client's other token is untouched.
    const again = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: jwt.client.client_id });
    assert.equal(again.status, 200, again.text);
    assert.equal((await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(again.json.access_token))).status, 200);
    // A client that does not exist: the admin API's own error, nothing minted.
    const none = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: 'no-such-client' });
    assert.equal(none.status, 404, none.text);
    assert.deepEqual(none.json, { error: 'client-not-found', message: 'no client no-such-client' });
});

test('a scope an administrator takes from a client is taken from its live tokens: JWT, opaque and introspection', async () => {
    const jwt = await clientToken('orders:read orders:write');
    const opaque = await clientToken('orders:read orders:write', 'opaque');
    const place = (t) => serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {}, bearer(t));
    assert.equal((await place(jwt.access_token)).status, 201);
    assert.equal((await place(opaque.access_token)).status, 201);
    // A confidential client of the orders API that introspects the opaque token.
    const rs = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'introspecting rs', grant_types: ['client_credentials'], scope: 'orders:read',
        resource_server: true });
    assert.equal(rs.status, 201, rs.text);
    const introspect = async () => {
        const r = await request(`${b.serviceUrl}/oauth2/introspect`, 'POST',
            new URLSearchParams({ token: opaque.access_token }).toString(), {
                'Content-Type': 'application/x-www-form-urlencoded',
                Authorization: `Basic ${Buffer.from(`${rs.json.client_id}:${rs.json.client_secret}`).toString('base64')}` });
        assert.equal(r.status, 200, r.text);
        return r.json;
    };
    assert.equal((await introspect()).scope, 'orders:read orders:write');
    for (const t of [jwt, opaque]) {
        const narrowed = await adminFetch(b, 'PUT', `/admin/v1/clients/${t.client.client_id}`, {
            client_name: t.client.client_name, grant_types: ['client_credentials'], scope: 'orders:read',
            access_token_format: t.client.access_token_format });
        assert.equal(narrowed.status, 200, narrowed.text);
    }
    const before = (await serviceFetch(b, 'GET', `/v1/customers/${customer}/orders`, undefined,
                                       bearer(jwt.access_token))).json;
    for (const t of [jwt, opaque]) {
        const refused = await place(t.access_token);
        assertChallenge(refused, 403, 'insufficient_scope', 'orders:write');
        assert.match(refused.json.detail, /^this request needs the scope orders:write, which the access token's client does not have$/);
        // What the client still has keeps working.
        assert.equal((await serviceFetch(b, 'GET', '/v1/beers', undefined, bearer(t.access_token))).status, 200);
    }
    assert.deepEqual((await serviceFetch(b, 'GET', `/v1/customers/${customer}/orders`, undefined,
                                         bearer(jwt.access_token))).json, before, 'nothing was placed');
    const now = await introspect();
    assert.equal(now.active, true);
    assert.equal(now.scope, 'orders:read');
    // Given back to the clients: not to these tokens (taken out of what they store).
    for (const t of [jwt, opaque]) {
        const restored = await adminFetch(b, 'PUT', `/admin/v1/clients/${t.client.client_id}`, {
            client_name: t.client.client_name, grant_types: ['client_credentials'], scope: 'orders:read orders:write',
            access_token_format: t.client.access_token_format });
        assert.equal(restored.status, 200, restored.text);
        const refused = await place(t.access_token);
        assertChallenge(refused, 403, 'insufficient_scope', 'orders:write');
        assert.equal(refused.json.detail, 'this request needs the scope orders:write');
    }
    assert.equal((await introspect()).scope, 'orders:read');
    assert.equal((await place((await clientToken('orders:read orders:write')).access_token)).status, 201, 'a new token has it');
});

test('a token exchanged from a bound client\'s token reaches only that client\'s customers, however the gateway is bound', async () => {
    const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
    const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
    const newCustomer = async (name) => {
        const r = await adminFetch(b, 'POST', '/admin/v1/customers', { name });
        assert.equal(r.status, 201, r.text);
        return r.json.customer.id;
    };
    const other = await newCustomer('not the subject\'s');
    const gateways = await newCustomer('the gateway\'s own');
    const newClient = async (metadata) => {
        const r = await adminFetch(b, 'POST', '/admin/v1/clients', metadata);
        assert.equal(r.status, 201, r.text);
        return r.json;
    };
    const subjectClient = { client_name: 'bound subject', grant_types: ['client_credentials'], scope: 'orders:read',
                            orders_customers: [customer] };
    const bound = await newClient(subjectClient);
    const minted = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: bound.client_id });
    assert.equal(minted.status, 200, minted.text);
    const exchangeAs = async (gateway, subjectToken = minted.json.access_token) => {
        const basic = Buffer.from(`${encodeURIComponent(gateway.client_id)}:${encodeURIComponent(gateway.client_secret)}`)
            .toString('base64');
        const r = await request(`${b.serviceUrl}/oauth2/token`, 'POST',
                                new URLSearchParams({ grant_type: EXCHANGE, subject_token: subjectToken,
                                                      subject_token_type: ACCESS_TOKEN }).toString(),
                                { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${basic}` });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.scope, 'orders:read');
        return bearer(r.json.access_token);
    };
    const status = async (auth, who) => (await serviceFetch(b, 'GET', `/v1/customers/${who}/orders`, undefined, auth)).status;
    // An unbound gateway (an administrator's, acting for every customer) gets the subject's reach, no more.
    const open = await exchangeAs(await newClient({ client_name: 'open gateway', grant_types: [EXCHANGE], scope: 'orders:read' }));
    assert.equal(await status(open, customer), 200);
    assert.equal(await status(open, other), 404, 'another customer, through an unbound gateway');
    assert.equal(await status(open, gateways), 404);
    // A gateway bound to its own customer: what both reach, here nothing.
    const narrow = await exchangeAs(await newClient({ client_name: 'bound gateway', grant_types: [EXCHANGE], scope: 'orders:read',
                                                      orders_customers: [gateways] }));
    for (const who of [customer, other, gateways])
        assert.equal(await status(narrow, who), 404, `${who} through a gateway bound to another customer`);
    // An exchange of an exchange: the whole chain is asked.
    const hop = await exchangeAs(await newClient({ client_name: 'second hop', grant_types: [EXCHANGE], scope: 'orders:read' }),
                                 open.Authorization.slice('Bearer '.length));
    assert.equal(await status(hop, customer), 200);
    assert.equal(await status(hop, other), 404, 'two hops from the bound client');
    // The subject's client moved to another customer: what was exchanged from its token follows at once.
    const moved = await adminFetch(b, 'PUT', `/admin/v1/clients/${bound.client_id}`, { ...subjectClient, orders_customers: [other] });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(await status(open, customer), 404, 'the subject\'s client no longer reaches it');
    assert.equal(await status(open, other), 200);
});

test('off by default', async () => {
    const open = await startBackend();
    try {
        assert.equal((await request(`${open.serviceUrl}/v1/beers`, 'GET')).status, 200);
    } finally {
        assert.equal(await open.stop(), 0, open.stderr);
    }
});

test('a client bound to customers (orders_customers) reaches only theirs: any other is a customer that does not exist', async () => {
    const o = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'someone else' });
    assert.equal(o.status, 201, o.text);
    const other = o.json.customer.id;
    // The nil UUID is a customer id like any other: an administrator may create that customer.
    const NIL = '00000000-0000-0000-0000-000000000000';
    const nil = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'nil', id: NIL });
    assert.equal(nil.status, 201, nil.text);
    const free = await clientToken('orders:read orders:write');
    const before = await serviceFetch(b, 'GET', `/v1/customers/${other}/orders`, undefined, bearer(free.access_token));
    assert.equal((await serviceFetch(b, 'GET', `/v1/customers/${NIL}/orders`, undefined, bearer(free.access_token))).status, 200);
    assert.equal(before.status, 200, before.text);

    for (const format of ['jwt', 'opaque']) {
        const c = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: `bound ${format}`, grant_types: ['client_credentials'], scope: 'orders:read orders:write',
            access_token_format: format, orders_customers: [customer.toUpperCase()] });
        assert.equal(c.status, 201, c.text);
        assert.deepEqual(c.json.orders_customers, [customer]); // stored in canonical form
        const t = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: c.json.client_id });
        assert.equal(t.status, 200, t.text);
        const auth = bearer(t.json.access_token);
        // Its own customer and the catalogue: as before.
        assert.equal((await serviceFetch(b, 'GET', `/v1/customers/${customer}/orders`, undefined, auth)).status, 200);
        assert.equal((await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {}, auth)).status, 201);
        assert.equal((await serviceFetch(b, 'GET', '/v1/beers', undefined, auth)).status, 200);
        // Another customer, read or written, by any spelling of its id: what an unknown id gets.
        const unknown = '00000000-0000-4000-8000-000000000000';
        const missing = await serviceFetch(b, 'GET', `/v1/customers/${unknown}/orders`, undefined, bearer(free.access_token));
        assert.equal(missing.status, 404, missing.text);
        const strip = (j) => ({ ...j, instance: undefined, requestId: undefined, detail: j.detail.replace(/[0-9a-f-]{36}$/, 'ID') });
        for (const [method, path, body] of [
            ['GET', `/v1/customers/${other}/orders`],
            ['GET', `/v1/customers/${other.toUpperCase()}/orders`],
            ['POST', `/v1/customers/${other}/orders`, { customerRef: `from bound ${format}` }],
            ['PUT', `/v1/customers/${other}/orders/${unknown}/cancel`]]) {
            const r = await serviceFetch(b, method, path, body, auth);
            assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
            assert.deepEqual(strip(r.json), strip(missing.json), `${method} ${path}`);
            assert.equal(r.json.detail, `no customer with id ${other}`);
        }
        for (const [method, body] of [['GET'], ['POST', { customerRef: `nil from bound ${format}` }]]) {
            const r = await serviceFetch(b, method, `/v1/customers/${NIL}/orders`, body, auth);
            assert.equal(r.status, 404, `${method} the nil customer's orders: ${r.text}`);
            assert.equal(r.json.detail, `no customer with id ${NIL}`);
        }
    }
    // Nothing was placed for the other customer.
    const after = await serviceFetch(b, 'GET', `/v1/customers/${other}/orders`, undefined, bearer(free.access_token));
    assert.equal(after.json.totalElements, before.json.totalElements);

    // Bad metadata is refused, naming the field.
    for (const bad of ['x', ['not-a-uuid'], [42]]) {
        const r = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: 'bad', grant_types: ['client_credentials'], scope: 'orders:read', orders_customers: bad });
        assert.equal(r.status, 400, r.text);
        assert.match(r.text, /orders_customers must be an array of customer ids/);
    }

    // A client's own update (RFC 7592) may narrow its customers, never widen them or drop them.
    const iat = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens',
                                 { policy: { grantTypes: ['client_credentials'], scopes: ['orders:read'],
                                             customers: [customer, other] } });
    assert.equal(iat.status, 201, iat.text);
    const metadata = { client_name: 'self-bound', grant_types: ['client_credentials'], scope: 'orders:read',
                       token_endpoint_auth_method: 'client_secret_basic' };
    const reg = await request(`${b.serviceUrl}/oauth2/register`, 'POST',
                              JSON.stringify({ ...metadata, orders_customers: [customer] }),
                              { 'Content-Type': 'application/json', Authorization: `Bearer ${iat.json.token}` });
    assert.equal(reg.status, 201, reg.text);
    const update = (body) => request(`${b.serviceUrl}/oauth2/register/${reg.json.client_id}`, 'PUT',
                                     JSON.stringify({ ...metadata, client_id: reg.json.client_id, ...body }),
                                     { 'Content-Type': 'application/json', Authorization: `Bearer ${reg.json.registration_access_token}` });
    for (const wider of [{}, { orders_customers: [customer, other] }, { orders_customers: [other] }]) {
        const r = await update(wider);
        assert.equal(r.status, 400, r.text);
        assert.equal(r.json.error, 'invalid_client_metadata');
        assert.match(r.json.error_description, /^orders_customers: only an administrator may widen/);
    }
    const same = await update({ orders_customers: [customer] });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/clients/${reg.json.client_id}`)).json.orders_customers, [customer]);
});
