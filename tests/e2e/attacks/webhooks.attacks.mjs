// SSRF through the order status webhook (docs/orders.md, "Webhooks"; backend/webhooks/
// urlpolicy.cpp): orderStatusCallbackUrl pointing at this host, private networks, the cloud
// metadata address, in every spelling (IPv4-mapped IPv6, NAT64, decimal / octal / hex IPv4,
// names resolving to loopback, user-info tricks, other schemes). The backend runs without
// --webhook-allow-loopback. The URL policy refuses the order at creation (400
// validation-failed, errors[].code callback-url-refused); each case also asserts that no
// order and no delivery exist and that a real listener on the loopback port got no request.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { lookup } from 'node:dns/promises';

import { startBackend, adminFetch, serviceFetch, waitFor } from '../lib/backend.mjs';
import { attack } from './lib/attack.mjs';

describe('webhooks: callback URLs that would reach this host or a private network', () => {
    let b;
    let listener; // a real HTTP server on 127.0.0.1 that counts what reaches it
    const hits = [];
    let port;

    before(async () => {
        listener = http.createServer((req, res) => {
            hits.push({ method: req.method, url: req.url, headers: req.headers });
            req.resume();
            res.writeHead(204).end();
        });
        await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
        port = listener.address().port;
        b = await startBackend();
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
        listener.closeAllConnections?.();
        await new Promise((resolve) => listener.close(resolve));
        assert.deepEqual(hits, [], 'no request ever reached the loopback listener');
    });

    // Each case has its own customer and its own path on the listener, so that an order an
    // earlier (failing) case let through cannot make a later case fail or pass.
    let caseNo = 0;

    // urlOf(path): the attack's callback URL; path is this case's own path on the listener.
    async function assertRefused(urlOf, pattern, what) {
        const path = `/case-${++caseNo}/hook`;
        const url = urlOf(path);
        const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: `ssrf ${caseNo}` });
        assert.equal(c.status, 201, c.text);
        const customer = c.json.customer.id;
        const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, { orderStatusCallbackUrl: url });
        assert.equal(r.status, 400, `${what}: ${r.text}`);
        assert.match(r.headers['content-type'], /^application\/problem\+json/, what);
        assert.equal(r.json.code, 'validation-failed', what);
        assert.equal(r.headers.location, undefined, `${what}: no Location`);
        assert.equal(r.json.errors?.length, 1, `${what}: one field error: ${r.text}`);
        const [e] = r.json.errors;
        assert.equal(e.field, '/orderStatusCallbackUrl', what);
        assert.equal(e.code, 'callback-url-refused', what);
        assert.match(e.message, pattern, `${what}: the reason`);
        // Nothing was created and nothing was sent.
        const orders = await adminFetch(b, 'GET', `/admin/v1/orders?customerId=${customer}`);
        assert.equal(orders.status, 200, orders.text);
        assert.deepEqual(orders.json.items, [], `${what}: no order`);
        const deliveries = await adminFetch(b, 'GET', '/admin/v1/deliveries?limit=1000');
        assert.equal(deliveries.status, 200, deliveries.text);
        assert.deepEqual(deliveries.json.items.filter((d) => d.customerId === customer), [], `${what}: no delivery`);
        const endpoints = await adminFetch(b, 'GET', '/admin/v1/endpoints');
        assert.ok(!endpoints.json.items.some((x) => x.customerId === customer), `${what}: no endpoint`);
        assert.deepEqual(hits.filter((h) => h.url === path), [],
                         `${what}: no request reached the listener on 127.0.0.1:${port}`);
    }

    const loopback = /^127\.0\.0\.1 is a loopback address$/; // QUrl reads every IPv4 spelling as 127.0.0.1
    const cases = [
        ['127.0.0.1', (p) => `http://127.0.0.1:${port}${p}`, /^127\.0\.0\.1 is a loopback address$/],
        ['[::1]', (p) => `http://[::1]:${port}${p}`, /^::1 is a loopback address$/],
        ['IPv4-mapped [::ffff:127.0.0.1]', (p) => `http://[::ffff:127.0.0.1]:${port}${p}`,
         /^::ffff:127\.0\.0\.1 \(IPv4-mapped 127\.0\.0\.1\) is a loopback address$/],
        ['IPv4-mapped in hex [::ffff:7f00:1]', (p) => `http://[::ffff:7f00:1]:${port}${p}`,
         /^::ffff:127\.0\.0\.1 \(IPv4-mapped 127\.0\.0\.1\) is a loopback address$/],
        ['NAT64 [64:ff9b::7f00:1]', (p) => `http://[64:ff9b::7f00:1]:${port}${p}`,
         /^64:ff9b::7f00:1 \(NAT64 127\.0\.0\.1\) is a loopback address$/],
        ['decimal IPv4 2130706433', (p) => `http://2130706433:${port}${p}`, loopback],
        ['hex IPv4 0x7f.1', (p) => `http://0x7f.1:${port}${p}`, loopback],
        ['octal IPv4 017700000001', (p) => `http://017700000001:${port}${p}`, loopback],
        ['short IPv4 127.1', (p) => `http://127.1:${port}${p}`, loopback],
        ['0.0.0.0', (p) => `http://0.0.0.0:${port}${p}`, /^0\.0\.0\.0 is a "this network" \(0\.0\.0\.0\/8\) address$/],
        ['the unspecified IPv6 address [::]', (p) => `http://[::]:${port}${p}`, /^:: is the unspecified address$/],
        ['10.x private', () => 'http://10.0.0.1/hook', /^10\.0\.0\.1 is a private address$/],
        ['169.254.169.254 (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/',
         /^169\.254\.169\.254 is a link-local \(cloud metadata\) address$/],
        ['cloud metadata, IPv4-mapped [::ffff:a9fe:a9fe]', () => 'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
         /^::ffff:169\.254\.169\.254 \(IPv4-mapped 169\.254\.169\.254\) is a link-local \(cloud metadata\) address$/],
        ['IPv6 unique-local [fd00::1]', () => 'http://[fd00::1]/hook', /^fd00::1 is a unique-local \(private\) address$/],
        ['user-info trick evil.example@127.0.0.1', (p) => `http://evil.example@127.0.0.1:${port}${p}`,
         /^user-info \(user:password@\) is not allowed in the URL$/],
        ['gopher scheme', (p) => `gopher://127.0.0.1:${port}${p}`, /^scheme gopher is not allowed; use http or https$/],
        ['file scheme', () => 'file:///etc/passwd', /^scheme file is not allowed; use http or https$/],
    ];
    for (const [what, url, pattern] of cases) {
        attack(`webhooks SSRF: callback URL ${what} refused at order creation, nothing sent`, async () => {
            await assertRefused(url, pattern, what);
        });
    }

    attack('webhooks: an order placer points its callbacks at another customer\'s (or another path of the) built-in demo receiver', async () => {
        // The demo receiver listens on loopback and its URLs skip the address check, but only
        // its /hooks/<customer> URL of the order's own customer: another customer's there would
        // fill that customer's log (GET /admin/v1/demo-receiver) with what this placer sends.
        const origin = (await adminFetch(b, 'GET', '/admin/v1/demo-receiver')).json.url;
        assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/);
        const ids = [];
        for (const name of ['placer', 'bystander']) {
            const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: `demo receiver ${name}` });
            assert.equal(c.status, 201, c.text);
            ids.push(c.json.customer.id);
        }
        const [placer, bystander] = ids;
        const orders = async () => (await adminFetch(b, 'GET', `/admin/v1/orders?customerId=${placer}`)).json;
        const before = JSON.stringify(await orders());
        for (const url of [`${origin}/hooks/${bystander}`, `${origin}/hooks/${bystander}?fail=0`,
                           `${origin}/hooks/${placer}x`, `${origin}/hooks/${placer}/more`, `${origin}/elsewhere`]) {
            const r = await serviceFetch(b, 'POST', `/v1/customers/${placer}/orders`, { orderStatusCallbackUrl: url });
            assert.equal(r.status, 400, `${url}: ${r.text}`);
            assert.equal(r.json.errors?.[0]?.code, 'callback-url-refused', url);
            assert.match(r.json.errors[0].message, /^127\.0\.0\.1 is a loopback address$/, url);
        }
        assert.equal(JSON.stringify(await orders()), before, 'no order created');
        // Its own URL there is taken, and its callbacks arrive, verified, under its own name.
        const own = await serviceFetch(b, 'POST', `/v1/customers/${placer}/orders`, { orderStatusCallbackUrl: `${origin}/hooks/${placer}?fail=0` });
        assert.equal(own.status, 201, own.text);
        const got = await waitFor(async () => {
            const received = (await adminFetch(b, 'GET', '/admin/v1/demo-receiver')).json.received;
            return received.find((x) => x.orderId === own.json.id) ?? null;
        }, { message: 'the placer\'s own callback at the demo receiver' });
        assert.equal(got.customerId, placer);
        assert.equal(got.verified, true);
        const received = (await adminFetch(b, 'GET', '/admin/v1/demo-receiver')).json.received;
        assert.ok(!received.some((x) => x.customerId === bystander), JSON.stringify(received));
    });

    // The demo receiver's port is anyone's on this host: forged POSTs to it are answered, but
    // they neither push out what the server really sent nor tell whether a customer exists.
    attack('webhooks: forged POSTs to the built-in demo receiver — the genuine records stay, an unknown customer answers as a bad signature', async () => {
        const origin = (await adminFetch(b, 'GET', '/admin/v1/demo-receiver')).json.url;
        const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'demo receiver forged' });
        assert.equal(c.status, 201, c.text);
        const customer = c.json.customer.id;
        const own = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, { orderStatusCallbackUrl: `${origin}/hooks/${customer}` });
        assert.equal(own.status, 201, own.text);
        const genuine = async () => (await adminFetch(b, 'GET', '/admin/v1/demo-receiver')).json.received
            .filter((x) => x.orderId === own.json.id && x.verified);
        await waitFor(async () => (await genuine()).length > 0 || null, { message: 'the genuine callback' });
        const forge = (who) => fetch(`${origin}/hooks/${who}`, { method: 'POST', headers: {
            'content-type': 'application/json', 'webhook-id': `msg_forged${Math.random()}`,
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
        body: JSON.stringify({ orderId: 'forged', orderStatus: 'DELIVERED' }) });
        const known = await forge(customer);
        const unknown = await forge('00000000-0000-4000-8000-000000000000');
        assert.equal(known.status, 400);
        assert.equal(unknown.status, 400);
        assert.deepEqual(await unknown.json(), await known.json(), 'the same answer for an unknown customer');
        for (let i = 0; i < 250; ++i)
            assert.equal((await forge(customer)).status, 400);
        assert.ok((await genuine()).length > 0, 'the genuine records are still there');
        const forged = (await adminFetch(b, 'GET', '/admin/v1/demo-receiver')).json.received.filter((x) => !x.verified);
        assert.ok(forged.length > 0 && forged.length <= 20, `${forged.length} unverified records kept`);
    });

    // An allowlisted name is for a partner's host on a private network. It let every address
    // through: once its DNS answered loopback (rebinding between two attempts) or the metadata
    // address, signed POSTs went there.
    attack('webhooks SSRF: an allowlisted name that resolves to loopback → refused at order creation, nothing sent', async () => {
        const allowing = await startBackend({ args: ['--webhook-allowlist', 'localhost'] });
        try {
            const c = await adminFetch(allowing, 'POST', '/admin/v1/customers', { name: 'allowlisted name' });
            assert.equal(c.status, 201, c.text);
            const customer = c.json.customer.id;
            const path = `/case-${++caseNo}/hook`;
            const r = await serviceFetch(allowing, 'POST', `/v1/customers/${customer}/orders`,
                                         { orderStatusCallbackUrl: `http://localhost:${port}${path}` });
            assert.equal(r.status, 400, r.text);
            assert.equal(r.json.errors?.[0]?.code, 'callback-url-refused', r.text);
            assert.match(r.json.errors[0].message, /^localhost does not resolve to a public address$/);
            const orders = await adminFetch(allowing, 'GET', `/admin/v1/orders?customerId=${customer}`);
            assert.deepEqual(orders.json.items, [], 'no order');
            await new Promise((resolve) => setTimeout(resolve, 300));
            assert.deepEqual(hits.filter((h) => h.url === path), [], 'nothing reached the listener');
        } finally {
            assert.equal(await allowing.stop(), 0, allowing.stderr);
        }
    });

    // Names that resolve to loopback through the system resolver (/etc/hosts). Where one does
    // not resolve on this machine (localhost. with glibc, ip6-localhost without Debian's
    // /etc/hosts line) the lookup fails, which is refused as well (fail closed).
    for (const [what, name] of [['localhost', 'localhost'], ['localhost. (trailing dot)', 'localhost.'],
                                ['ip6-localhost (a name for ::1 in /etc/hosts)', 'ip6-localhost'],
                                ['a name that resolves nowhere', 'hooks.nowhere.invalid']]) {
        attack(`webhooks SSRF: callback URL ${what} refused at order creation, nothing sent`, async () => {
            const resolves = (await lookup(name, { all: true }).catch(() => [])).length > 0;
            const quoted = name.replace(/\./g, '\\.');
            // One answer either way: what a name resolves to is not the placer's to learn.
            await assertRefused((p) => `http://${name}:${port}${p}`,
                                new RegExp(`^${quoted} does not resolve to a public address$`),
                                `${what} (${resolves ? 'resolves here' : 'does not resolve here'})`);
        });
    }
});
