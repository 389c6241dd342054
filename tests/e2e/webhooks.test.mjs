// Order status webhooks end to end: the real gatehouse binary delivers to a real local
// receiver, which verifies every request with the npm `standardwebhooks` library.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

import { startBackend, serviceFetch, adminFetch, waitFor, TIMEOUT_MS } from './lib/backend.mjs';

const RETRY_ARGS = ['--webhook-allow-loopback', '--webhook-retry-schedule', '300ms,300ms,300ms',
                    '--webhook-jitter-percent', '0'];

// --- the receiver -------------------------------------------------------------------------

class Receiver {
    constructor() {
        this.requests = []; // every request: {path, headers, body, at, verified, error, status}
        this.secrets = new Map(); // customerId -> [whsec_...]
        this.failures = new Map(); // webhook-id -> answered failures so far
        this.toggleOk = false;
        this.hanging = [];
        this.server = http.createServer((req, res) => this.handle(req, res));
    }

    async listen() {
        await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
        this.url = `http://127.0.0.1:${this.server.address().port}`;
    }

    close() {
        this.server.closeAllConnections?.();
        return new Promise((resolve) => this.server.close(resolve));
    }

    verify(customerId, body, headers) {
        const secrets = this.secrets.get(customerId) ?? [];
        const errors = [];
        for (const s of secrets) {
            try {
                new Webhook(s).verify(body, headers);
                return { verified: true, by: s };
            } catch (e) {
                errors.push(e.message);
            }
        }
        return { verified: false, error: errors.join('; ') || 'no secret' };
    }

    handle(req, res) {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            const url = new URL(req.url, this.url);
            const [, kind, customerId, arg] = url.pathname.split('/');
            const { verified, error, by } = this.verify(customerId, body, req.headers);
            const id = req.headers['webhook-id'];
            const rec = { path: url.pathname, kind, headers: req.headers, body, at: Date.now(),
                          verified, error, by, id, json: verified ? JSON.parse(body) : null };
            this.requests.push(rec);
            const answer = (status, headers = {}) => {
                rec.status = status;
                res.writeHead(status, headers).end(status >= 300 ? 'nope' : '');
            };
            if (!verified)
                return answer(400);
            switch (kind) {
            case 'ok':
                return answer(204);
            case 'fail': { // fail the first N attempts of every webhook-id
                const n = this.failures.get(id) ?? 0;
                if (n < Number(arg)) {
                    this.failures.set(id, n + 1);
                    return answer(500);
                }
                return answer(200);
            }
            case 'toggle':
                return answer(this.toggleOk ? 200 : 503);
            case 'gone':
                return answer(410);
            case 'retry-after': {
                const n = this.failures.get(id) ?? 0;
                if (n < 1) {
                    this.failures.set(id, n + 1);
                    return answer(429, { 'Retry-After': '2' });
                }
                return answer(204);
            }
            case 'retry-after-huge': // a delay in seconds that overflows 64 bits as milliseconds
                return answer(503, { 'Retry-After': '9223372036854775807' });
            case 'hang': // never answers
                this.hanging.push(res);
                return undefined;
            case 'redirect':
                return answer(302, { Location: `${this.url}/ok/${customerId}` });
            default:
                return answer(404);
            }
        });
    }

    forOrder(orderId) {
        return this.requests.filter((r) => r.json?.orderId === orderId);
    }

    // Statuses of the deliveries the receiver accepted (2xx), in arrival order.
    acceptedStatuses(orderId) {
        return this.forOrder(orderId).filter((r) => r.status < 300).map((r) => r.json.orderStatus);
    }
}

// --- helpers ------------------------------------------------------------------------------

const LIFECYCLE = ['NEW', 'VALIDATION_PENDING', 'VALIDATED', 'ALLOCATION_PENDING', 'ALLOCATED'];

let backend;
let receiver;
let upcs;

async function newCustomer(b, name) {
    const r = await adminFetch(b, 'POST', '/admin/v1/customers', { name });
    assert.equal(r.status, 201, r.text);
    receiver.secrets.set(r.json.customer.id, [r.json.webhookSecret]);
    return r.json.customer.id;
}

async function placeOrder(b, customerId, callbackPath, extra = {}) {
    const body = {
        beerOrderLines: [{ upc: upcs[0], orderQuantity: 1 }, { upc: upcs[1], orderQuantity: 2 }],
        ...extra,
    };
    if (callbackPath)
        body.orderStatusCallbackUrl = `${receiver.url}${callbackPath}`;
    const r = await serviceFetch(b, 'POST', `/v1/customers/${customerId}/orders`, body);
    assert.equal(r.status, 201, r.text);
    return r.json.id;
}

async function deliveriesOf(b, orderId) {
    const r = await adminFetch(b, 'GET', `/admin/v1/deliveries?orderId=${orderId}&limit=1000`);
    assert.equal(r.status, 200);
    return r.json.items;
}

// Every status change of these orders (a Set or Map of order ids) arrived with one webhook-id,
// however often it was sent.
function assertOneWebhookIdPerChange(orderIds) {
    const byChange = new Map();
    for (const r of receiver.requests.filter((x) => orderIds.has(x.json?.orderId))) {
        const key = `${r.json.orderId}/${r.json.orderStatus}`;
        if (!byChange.has(key))
            byChange.set(key, new Set());
        byChange.get(key).add(r.id);
    }
    for (const [key, set] of byChange)
        assert.equal(set.size, 1, `${key} arrived with ${set.size} different webhook-ids`);
}

async function delivery(b, id) {
    const r = await adminFetch(b, 'GET', `/admin/v1/deliveries/${id}`);
    assert.equal(r.status, 200, r.text);
    return r.json;
}

before(async () => {
    receiver = new Receiver();
    await receiver.listen();
    backend = await startBackend({ args: RETRY_ARGS });
    const beers = await serviceFetch(backend, 'GET', '/v1/beers?pageSize=100');
    // Plenty of stock: the demo catalog's first two beers with at least 500 on hand.
    upcs = beers.json.content.filter((b) => b.quantityOnHand >= 500).map((b) => b.upc);
    assert.ok(upcs.length >= 2);
});

after(async () => {
    if (backend)
        assert.equal(await backend.stop(), 0, backend.stderr);
    await receiver?.close();
});

// --- tests --------------------------------------------------------------------------------

test('every status change is delivered once, signed, with the exact body, in order', async () => {
    const customer = await newCustomer(backend, 'signed');
    const orderId = await placeOrder(backend, customer, `/ok/${customer}`);
    await waitFor(() => receiver.acceptedStatuses(orderId).length === 5, { message: '5 callbacks' });
    const got = receiver.forOrder(orderId);
    assert.deepEqual(got.map((r) => r.json.orderStatus), LIFECYCLE);
    for (const r of got) {
        assert.equal(r.verified, true, r.error);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.body, JSON.stringify({ orderId, orderStatus: r.json.orderStatus }));
        assert.match(r.headers['webhook-id'], /^msg_[0-9a-f]{32}$/);
        assert.match(r.headers['webhook-timestamp'], /^\d+$/);
        assert.match(r.headers['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/);
    }
    assert.equal(new Set(got.map((r) => r.id)).size, 5, 'one webhook-id per status change');

    const pickup = await serviceFetch(backend, 'PUT', `/v1/customers/${customer}/orders/${orderId}/pickup`);
    assert.equal(pickup.status, 200);
    await waitFor(() => receiver.acceptedStatuses(orderId).at(-1) === 'PICKED_UP', { message: 'PICKED_UP' });

    // The delivery log records each attempt with its answer.
    const log = await deliveriesOf(backend, orderId);
    assert.equal(log.length, 6);
    await waitFor(async () => (await deliveriesOf(backend, orderId)).every((d) => d.state === 'succeeded'),
                  { message: 'all deliveries succeeded' });
    const d = await delivery(backend, log[0].id);
    assert.equal(d.attempts.length, 1);
    assert.equal(d.attempts[0].status, 204);
    assert.equal(typeof d.attempts[0].latencyMs, 'number');
});

test('deliveries to one receiver reuse kept-alive connections, not one connection each', async () => {
    // A plain receiver that counts the TCP connections it accepts and answers 204.
    let connections = 0;
    const ids = new Set();
    const counting = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
            ids.add(req.headers['webhook-id']);
            res.writeHead(204).end();
        });
    });
    counting.keepAliveTimeout = 60_000; // Node's 5 s would close idle connections mid-test
    counting.on('connection', () => { connections += 1; });
    await new Promise((resolve) => counting.listen(0, '127.0.0.1', resolve));
    try {
        const url = `http://127.0.0.1:${counting.address().port}/hooks`;
        const customer = await newCustomer(backend, 'keep-alive');
        const orders = 40; // at most 40 attempts at once: one order's deliveries go in turn
        for (let wave = 1; wave <= 2; ++wave) {
            await Promise.all(Array.from({ length: orders }, async () => {
                const r = await serviceFetch(backend, 'POST', `/v1/customers/${customer}/orders`, {
                    beerOrderLines: [{ upc: upcs[0], orderQuantity: 1 }],
                    orderStatusCallbackUrl: url,
                });
                assert.equal(r.status, 201, r.text);
            }));
            await waitFor(() => ids.size === wave * orders * 5,
                          { message: `${wave * orders * 5} deliveries (${ids.size} so far)` });
        }
        // 400 deliveries in two bursts over at most `orders` connections (the second burst
        // reuses the first one's). Keeping only a few idle connections per receiver gave a
        // new connection to most deliveries.
        assert.ok(connections <= orders, `${connections} connections for ${ids.size} deliveries`);
    } finally {
        counting.closeAllConnections();
        await new Promise((resolve) => counting.close(resolve));
    }
});

test('an order without a callback URL records its changes and sends nothing', async () => {
    const customer = await newCustomer(backend, 'silent');
    const before = receiver.requests.length;
    const orderId = await placeOrder(backend, customer, null);
    await waitFor(async () => (await adminFetch(backend, 'GET', `/admin/v1/orders/${orderId}`)).json.orderStatus === 'ALLOCATED',
                  { message: 'ALLOCATED' });
    const o = await adminFetch(backend, 'GET', `/admin/v1/orders/${orderId}`);
    assert.deepEqual(o.json.history.map((h) => h.status), LIFECYCLE);
    assert.deepEqual(o.json.deliveries, []);
    assert.equal(receiver.requests.length, before);
});

test('a receiver failing twice gets the same webhook-id again, and later statuses wait', async () => {
    const customer = await newCustomer(backend, 'flaky');
    const orderId = await placeOrder(backend, customer, `/fail/${customer}/2`);
    await waitFor(() => receiver.acceptedStatuses(orderId).length === 5, { message: '5 accepted' });
    assert.deepEqual(receiver.acceptedStatuses(orderId), LIFECYCLE, 'accepted in status order');
    const all = receiver.forOrder(orderId);
    // Each status change: two 500s, then the 200 — all three with one webhook-id; the next
    // status change was not sent before the previous one succeeded.
    for (let i = 0; i < LIFECYCLE.length; ++i) {
        const same = all.filter((r) => r.json.orderStatus === LIFECYCLE[i]);
        assert.deepEqual(same.map((r) => r.status), [500, 500, 200]);
        assert.equal(new Set(same.map((r) => r.id)).size, 1);
        if (i > 0) {
            const prevOk = all.find((r) => r.json.orderStatus === LIFECYCLE[i - 1] && r.status === 200);
            assert.ok(same[0].at >= prevOk.at, `${LIFECYCLE[i]} was sent before ${LIFECYCLE[i - 1]} succeeded`);
        }
    }
    const first = (await deliveriesOf(backend, orderId))[0];
    const d = await delivery(backend, first.id);
    assert.deepEqual(d.attempts.map((a) => a.status), [500, 500, 200]);
    assert.match(d.attempts[0].error, /500/);
});

test('a delivery that keeps failing is given up as failed and can be redelivered', async () => {
    const customer = await newCustomer(backend, 'down');
    receiver.toggleOk = false;
    const orderId = await placeOrder(backend, customer, `/toggle/${customer}`);
    // 1 attempt + 3 retries, then failed; the next status change is attempted after it.
    const [first] = await waitFor(async () => {
        const ds = await deliveriesOf(backend, orderId);
        return ds.length && ds[0].state === 'failed' ? ds : null;
    }, { message: 'first delivery failed' });
    const d = await delivery(backend, first.id);
    assert.equal(d.attempts.length, 4);
    assert.ok(d.attempts.every((a) => a.status === 503));
    assert.match(d.lastError, /503/);

    receiver.toggleOk = true;
    const r = await adminFetch(backend, 'POST', `/admin/v1/deliveries/${first.id}/redeliver`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.state, 'pending');
    await waitFor(async () => (await delivery(backend, first.id)).state === 'succeeded', { message: 'redelivered' });
    const after = await delivery(backend, first.id);
    assert.equal(after.attempts.at(-1).trigger, 'manual');
    assert.equal(after.attempts.at(-1).status, 200);
    const copies = receiver.forOrder(orderId).filter((x) => x.json.orderStatus === 'NEW');
    assert.equal(new Set(copies.map((x) => x.id)).size, 1, 'the redelivery keeps the webhook-id');
    // Redelivering a delivery that is still pending is refused.
    const again = await adminFetch(backend, 'POST', `/admin/v1/deliveries/${first.id}/redeliver`);
    assert.ok([200, 409].includes(again.status));
});

test('410 Gone disables the endpoint; nothing more is sent until it is enabled', async () => {
    const customer = await newCustomer(backend, 'gone');
    const orderId = await placeOrder(backend, customer, `/gone/${customer}`);
    const endpoint = await waitFor(async () => {
        const eps = (await adminFetch(backend, 'GET', '/admin/v1/endpoints')).json.items;
        return eps.find((e) => e.url.endsWith(`/gone/${customer}`) && e.state === 'disabled');
    }, { message: 'endpoint disabled' });
    assert.match(endpoint.disabledReason, /410/);
    await waitFor(async () => (await deliveriesOf(backend, orderId)).length === 5 &&
                              (await deliveriesOf(backend, orderId)).every((d) => d.state === 'failed'),
                  { message: 'all failed' });
    assert.equal(receiver.forOrder(orderId).length, 1, 'one attempt, then no more');
    const later = (await deliveriesOf(backend, orderId)).at(-1);
    assert.match(later.lastError, /endpoint disabled/);

    const en = await adminFetch(backend, 'POST', `/admin/v1/endpoints/${endpoint.id}/enable`);
    assert.equal(en.status, 200);
    assert.equal(en.json.state, 'enabled');
});

test('the endpoint list comes a page at a time, newest first, by customer and state; a bad state is a 400', async () => {
    const customer = await newCustomer(backend, 'many-endpoints');
    const urls = [];
    for (const path of ['a', 'b', 'c']) {
        await placeOrder(backend, customer, `/paged/${path}/${customer}`);
        urls.push(`${receiver.url}/paged/${path}/${customer}`);
    }
    const list = async (query) => {
        const r = await adminFetch(backend, 'GET', `/admin/v1/endpoints?${new URLSearchParams(query)}`);
        assert.equal(r.status, 200, r.text);
        return r.json.items;
    };
    const all = await waitFor(async () => {
        const items = await list({ customerId: customer });
        return items.length === 3 ? items : null;
    }, { message: 'three endpoints' });
    assert.deepEqual(all.map((e) => e.url).sort(), [...urls].sort());
    assert.ok(all.every((e) => e.customerId === customer && e.state === 'enabled' && Number.isInteger(e.pendingDeliveries)));
    // Two pages of two: the second starts after the first's last row, and together they are the three.
    const first = await list({ customerId: customer, limit: 2 });
    assert.deepEqual(first.map((e) => e.id), all.slice(0, 2).map((e) => e.id));
    const second = await list({ customerId: customer, limit: 2, before: first[1].id });
    assert.deepEqual(second.map((e) => e.id), [all[2].id]);
    assert.deepEqual(await list({ customerId: customer, limit: 2, before: all[2].id }), [], 'nothing older');
    assert.deepEqual(await list({ customerId: customer, state: 'disabled' }), []);
    assert.equal((await list({ customerId: customer, state: 'enabled' })).length, 3);
    const bad = await adminFetch(backend, 'GET', '/admin/v1/endpoints?state=gone');
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.error, 'invalid-state');
    assert.match(bad.json.message, /state must be enabled or disabled/);
});

test('Retry-After on 429 replaces the scheduled delay', async () => {
    const customer = await newCustomer(backend, 'throttled');
    const orderId = await placeOrder(backend, customer, `/retry-after/${customer}`);
    await waitFor(() => receiver.acceptedStatuses(orderId).length >= 1, { message: 'accepted after Retry-After' });
    const news = receiver.forOrder(orderId).filter((r) => r.json.orderStatus === 'NEW');
    assert.deepEqual(news.map((r) => r.status), [429, 204]);
    const gap = news[1].at - news[0].at;
    assert.ok(gap >= 1800, `second attempt after ${gap} ms; Retry-After said 2 s (schedule 300 ms)`);
});

test('a Retry-After too large for any clock waits the longest allowed (1 h), and the server lives on', async () => {
    const customer = await newCustomer(backend, 'throttled for ever');
    const orderId = await placeOrder(backend, customer, `/retry-after-huge/${customer}`);
    await waitFor(() => receiver.forOrder(orderId).length >= 1, { message: 'the first attempt' });
    const first = receiver.forOrder(orderId)[0];
    assert.equal(first.status, 503);
    const waiting = await waitFor(async () => {
        const r = await adminFetch(backend, 'GET', `/admin/v1/deliveries?orderId=${orderId}&limit=1000`);
        const d = r.json.items.find((x) => x.attempts === 1);
        return d?.state === 'pending' ? d : null;
    }, { message: 'the attempt recorded' });
    const wait = Date.parse(waiting.nextAttemptAt) - first.at;
    assert.ok(wait > 3_500_000 && wait < 3_700_000, `next attempt in ${wait} ms: ${JSON.stringify(waiting)}`);
    // (A multiplication that overflowed aborted the sanitizer build here, and again at every start.)
    const health = await serviceFetch(backend, 'GET', '/v1/beers?pageSize=1');
    assert.equal(health.status, 200);
    assert.equal(receiver.forOrder(orderId).length, 1, 'no second attempt within the hour');
});

test('redirects are not followed and count as failures', async () => {
    const customer = await newCustomer(backend, 'moved');
    const orderId = await placeOrder(backend, customer, `/redirect/${customer}`);
    const [first] = await waitFor(async () => {
        const ds = await deliveriesOf(backend, orderId);
        return ds.length && ds[0].state === 'failed' ? ds : null;
    }, { message: 'redirected delivery failed' });
    const d = await delivery(backend, first.id);
    assert.ok(d.attempts.every((a) => a.status === 302));
    assert.match(d.lastError, /redirect/);
    assert.ok(receiver.forOrder(orderId).every((r) => r.kind === 'redirect'), 'the Location was never fetched');
});

test('after a secret rotation both the old and the new secret verify', async () => {
    const customer = await newCustomer(backend, 'rotating');
    const oldSecret = receiver.secrets.get(customer)[0];
    const rot = await adminFetch(backend, 'POST', `/admin/v1/customers/${customer}/rotate-secret`);
    assert.equal(rot.status, 200, rot.text);
    assert.notEqual(rot.json.webhookSecret, oldSecret);
    assert.match(rot.json.webhookSecret, /^whsec_/);
    receiver.secrets.set(customer, [rot.json.webhookSecret]);
    const orderId = await placeOrder(backend, customer, `/ok/${customer}`);
    await waitFor(() => receiver.acceptedStatuses(orderId).length === 5, { message: 'signed with the new secret' });
    for (const r of receiver.forOrder(orderId)) {
        assert.equal(r.headers['webhook-signature'].split(' ').length, 2, 'two signatures while they overlap');
        new Webhook(oldSecret).verify(r.body, r.headers); // throws if the old one does not match
        new Webhook(rot.json.webhookSecret).verify(r.body, r.headers);
    }
    // The list shows fingerprints, never the secret.
    const list = await adminFetch(backend, 'GET', '/admin/v1/customers');
    assert.ok(!list.text.includes(rot.json.webhookSecret.slice(6)));
});

test('a rotated-out secret stops signing at previousSecretExpiresAt, not up to 5 s later', async () => {
    const b = await startBackend({ args: [...RETRY_ARGS, '--webhook-secret-overlap', '2s'] });
    try {
        const customer = await newCustomer(b, 'overlap ends');
        const oldSecret = receiver.secrets.get(customer)[0];
        const rot = await adminFetch(b, 'POST', `/admin/v1/customers/${customer}/rotate-secret`);
        assert.equal(rot.status, 200, rot.text);
        receiver.secrets.set(customer, [rot.json.webhookSecret, oldSecret]);
        const ends = Date.parse(rot.json.previousSecretExpiresAt);
        assert.ok(Number.isFinite(ends), rot.text);
        // A callback during the overlap: the dispatcher reads the customer's keys (both) now.
        const during = await placeOrder(b, customer, `/ok/${customer}`);
        await waitFor(() => receiver.forOrder(during).length > 0, { message: 'a callback during the overlap' });
        if (Date.now() < ends - 500)
            assert.equal(receiver.forOrder(during)[0].headers['webhook-signature'].split(' ').length, 2,
                         'two signatures while they overlap');
        // Once the overlap is over, every attempt carries the new signature alone.
        while (Date.now() < ends + 50)
            await new Promise((resolve) => setTimeout(resolve, ends + 50 - Date.now()));
        const after = await placeOrder(b, customer, `/ok/${customer}`);
        await waitFor(() => receiver.acceptedStatuses(after).length === 5, { message: 'signed with the new secret' });
        for (const r of receiver.forOrder(after)) {
            assert.equal(r.headers['webhook-signature'].split(' ').length, 1,
                         `one signature after ${rot.json.previousSecretExpiresAt}: ${r.headers['webhook-signature']}`);
            new Webhook(rot.json.webhookSecret).verify(r.body, r.headers);
        }
    } finally {
        assert.equal(await b.stop(), 0, b.stderr);
    }
});

test('rotating the secret of an unknown customer is a 404 and creates no secret', async () => {
    const unknown = '0d9a3f0e-0000-4000-8000-00000000beef';
    const rot = await adminFetch(backend, 'POST', `/admin/v1/customers/${unknown}/rotate-secret`);
    assert.equal(rot.status, 404, rot.text);
    assert.equal(rot.json.error, 'customer-not-found', rot.text);
    assert.match(rot.json.message, /no customer with id/);
    assert.ok(!rot.text.includes('whsec_'), 'no secret in the answer');
    // Not a customer afterwards either (no half-created owner), and a malformed id is a 400.
    const list = await adminFetch(backend, 'GET', '/admin/v1/customers');
    assert.ok(!list.text.includes(unknown));
    const bad = await adminFetch(backend, 'POST', '/admin/v1/customers/not-a-uuid/rotate-secret');
    assert.equal(bad.status, 400, bad.text);
});

test('kill -9 during a burst of 500 orders loses no status change', { timeout: 4 * TIMEOUT_MS }, async () => {
    const b = await startBackend({ args: RETRY_ARGS });
    const beers = await serviceFetch(b, 'GET', '/v1/beers?pageSize=100');
    const plenty = beers.json.content.filter((x) => x.quantityOnHand >= 500).map((x) => x.upc);
    const customer = await newCustomer(b, 'burst');
    const accepted = [];
    let sent = 0;
    let killed = false;
    const worker = async () => {
        while (sent < 500 && !killed) {
            const n = sent++;
            try {
                const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {
                    customerRef: `burst-${n}`,
                    beerOrderLines: [{ upc: plenty[n % plenty.length], orderQuantity: 1 }],
                    orderStatusCallbackUrl: `${receiver.url}/ok/${customer}`,
                });
                if (r.status === 201)
                    accepted.push(r.json.id);
            } catch {
                // the connection died with the process
            }
            if (accepted.length === 250 && !killed) {
                killed = true;
                await b.kill9();
            }
        }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    assert.ok(killed, 'the backend was killed mid-burst');

    const again = await startBackend({ dataDir: b.dataDir, args: RETRY_ARGS });
    try {
        // Every order the client saw accepted survived the crash.
        const listed = await adminFetch(again, 'GET', `/admin/v1/orders?customerId=${customer}&limit=1000`);
        const ids = new Set(listed.json.items.map((o) => o.id));
        for (const id of accepted)
            assert.ok(ids.has(id), `order ${id} answered 201 but is gone after the crash`);
        // Every recorded status change of every order reaches the receiver at least once.
        await waitFor(async () => {
            for (const id of ids) {
                const o = await adminFetch(again, 'GET', `/admin/v1/orders/${id}`);
                if (!['ALLOCATED', 'PENDING_INVENTORY'].includes(o.json.orderStatus))
                    return false;
                const want = o.json.history.map((h) => h.status);
                const got = new Set(receiver.acceptedStatuses(id));
                if (!want.every((s) => got.has(s)))
                    return false;
            }
            return true;
        }, { timeoutMs: 2 * TIMEOUT_MS, intervalMs: 500, message: 'all status changes delivered after restart' });
        // Duplicates (sent before the crash, recorded after) carry the same webhook-id.
        assertOneWebhookIdPerChange(ids);
    } finally {
        assert.equal(await again.stop(), 0, again.stderr);
    }
});

test('an endpoint failing longer than webhook-disable-after is disabled', async () => {
    const b = await startBackend({ args: [...RETRY_ARGS, '--webhook-disable-after', '500ms'] });
    try {
        const beers = await serviceFetch(b, 'GET', '/v1/beers?pageSize=100');
        const customer = await newCustomer(b, 'sustained');
        receiver.toggleOk = false;
        const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {
            beerOrderLines: [{ upc: beers.json.content[0].upc, orderQuantity: 1 }],
            orderStatusCallbackUrl: `${receiver.url}/toggle/${customer}`,
        });
        assert.equal(r.status, 201);
        const endpoint = await waitFor(async () => {
            const eps = (await adminFetch(b, 'GET', '/admin/v1/endpoints')).json.items;
            return eps.find((e) => e.customerId === customer && e.state === 'disabled');
        }, { message: 'endpoint disabled after sustained failure' });
        assert.match(endpoint.disabledReason, /failing without a success/);
        assert.ok(endpoint.failingSince);
    } finally {
        receiver.toggleOk = true;
        assert.equal(await b.stop(), 0, b.stderr);
    }
});

test('the URL policy is checked again at delivery time', async () => {
    // Accepted while loopback receivers were allowed; after a restart without the switch, the
    // pending delivery's next attempt is refused before any connection is made.
    const b = await startBackend({ args: RETRY_ARGS });
    const customer = await newCustomer(b, 'policy');
    receiver.toggleOk = false;
    const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {
        orderStatusCallbackUrl: `${receiver.url}/toggle/${customer}`,
    });
    assert.equal(r.status, 201);
    const orderId = r.json.id;
    await waitFor(() => receiver.forOrder(orderId).length >= 1, { message: 'first attempt' });
    assert.equal(await b.stop(), 0, b.stderr);
    const seen = receiver.forOrder(orderId).length;

    const again = await startBackend({ dataDir: b.dataDir, args: ['--webhook-retry-schedule', '100ms,100ms,100ms,100ms'] });
    try {
        const first = (await deliveriesOf(again, orderId))[0];
        const d = await waitFor(async () => {
            const x = await delivery(again, first.id);
            return x.attempts.some((a) => /loopback/.test(a.error ?? '')) ? x : null;
        }, { message: 'an attempt refused by the URL policy' });
        const refused = d.attempts.find((a) => /loopback/.test(a.error ?? ''));
        assert.equal(refused.status, null);
        assert.equal(receiver.forOrder(orderId).length, seen, 'no request reached the receiver');
    } finally {
        receiver.toggleOk = true;
        assert.equal(await again.stop(), 0, again.stderr);
    }
});

test('endpoints are read as attempts need them, not all at start; a disabled one stays disabled across a restart', async () => {
    // Every callback URL an order names is an endpoint: a dispatcher that read them all at start
    // (and kept them) held as many as anyone ever named.
    const b = await startBackend({ args: RETRY_ARGS });
    let again;
    try {
        const customer = await newCustomer(b, 'endpoints held');
        const orders = [];
        for (const n of [1, 2, 3])
            orders.push(await placeOrder(b, customer, `/ok/${customer}?n=${n}`));
        await waitFor(() => orders.every((o) => receiver.acceptedStatuses(o).length === 5) || null,
                      { message: 'the three orders\' callbacks' });
        const held = async (x) => (await adminFetch(x, 'GET', '/admin/v1/status')).json.webhooks.endpointsHeld;
        assert.equal(await held(b), 3);
        const eps = (await adminFetch(b, 'GET', `/admin/v1/endpoints?customerId=${customer}`)).json.items;
        assert.equal(eps.length, 3);
        // A fourth one fails (its receiver answers 503), and is disabled after the restart.
        receiver.toggleOk = false;
        const toggled = await placeOrder(b, customer, `/toggle/${customer}`);
        await waitFor(() => receiver.forOrder(toggled).length >= 1 || null, { message: 'a first attempt' });
        assert.equal(await b.stop(), 0, b.stderr);

        again = await startBackend({ dataDir: b.dataDir, args: RETRY_ARGS });
        // Four endpoints exist; at most the failing one, whose deliveries are pending, is read.
        assert.equal((await adminFetch(again, 'GET', `/admin/v1/endpoints?customerId=${customer}`)).json.items.length, 4);
        assert.ok(await held(again) <= 1, 'only what pending deliveries need is read at start');
        const toggleEndpoint = (await adminFetch(again, 'GET', `/admin/v1/endpoints?customerId=${customer}`))
            .json.items.find((e) => e.url.endsWith(`/toggle/${customer}`));
        const off = await adminFetch(again, 'POST', `/admin/v1/endpoints/${toggleEndpoint.id}/disable`);
        assert.equal(off.status, 200, off.text);
        const seen = receiver.forOrder(toggled).length;
        receiver.toggleOk = true;
        // A new order to the first URL goes out: its endpoint is read then.
        const fresh = await placeOrder(again, customer, `/ok/${customer}?n=1`);
        await waitFor(() => receiver.acceptedStatuses(fresh).length === 5 || null, { message: 'the new order\'s callbacks' });
        // The disabled endpoint's pending deliveries fail without reaching the receiver.
        await waitFor(async () => (await deliveriesOf(again, toggled)).every((d) => d.state === 'failed') || null,
                      { message: 'the disabled endpoint\'s deliveries failed' });
        assert.match((await deliveriesOf(again, toggled)).at(-1).lastError, /endpoint disabled/);
        assert.equal(receiver.forOrder(toggled).length, seen, 'nothing sent to the disabled endpoint');
        assert.ok(await held(again) <= 2, 'only the endpoints attempts needed');
    } finally {
        receiver.toggleOk = true;
        if (again)
            assert.equal(await again.stop(), 0, again.stderr);
        else
            await b.stop();
    }
});

test('with few deliveries held in memory, the rest wait in the database and keep their order', { timeout: 2 * TIMEOUT_MS }, async () => {
    const b = await startBackend({ args: [...RETRY_ARGS, '--webhook-max-queued', '10', '--webhook-max-in-flight', '4'] });
    try {
        const beers = await serviceFetch(b, 'GET', '/v1/beers?pageSize=100');
        const upc = beers.json.content.find((x) => x.quantityOnHand >= 500).upc;
        const customer = await newCustomer(b, 'queued');
        const ids = [];
        await Promise.all(Array.from({ length: 8 }, async () => {
            while (ids.length < 60) {
                const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {
                    beerOrderLines: [{ upc, orderQuantity: 1 }],
                    orderStatusCallbackUrl: `${receiver.url}/ok/${customer}`,
                });
                assert.equal(r.status, 201);
                ids.push(r.json.id);
            }
        }));
        await waitFor(() => ids.every((id) => receiver.acceptedStatuses(id).length === 5),
                      { message: 'all deliveries of 60 orders' });
        for (const id of ids)
            assert.deepEqual(receiver.acceptedStatuses(id), LIFECYCLE, `order ${id} out of order`);
    } finally {
        assert.equal(await b.stop(), 0, b.stderr);
    }
});

test('one customer whose receiver keeps failing holds at most a quarter of the memory queue: another customer\'s callbacks go out at once', { timeout: 2 * TIMEOUT_MS }, async () => {
    // Orders can be placed by anyone who knows a customer's id, with any callback URL: 150
    // deliveries retried an hour later filled all 40 places, and every other customer's
    // deliveries waited in the database until they drained.
    const b = await startBackend({ args: ['--webhook-allow-loopback', '--webhook-retry-schedule', '1h',
                                          '--webhook-jitter-percent', '0', '--webhook-max-queued', '40',
                                          '--webhook-max-in-flight', '8'] });
    try {
        const flooder = await newCustomer(b, 'flooder');
        const victim = await newCustomer(b, 'victim');
        const flooded = [];
        for (let i = 0; i < 30; ++i)
            flooded.push(await placeOrder(b, flooder, `/fail/${flooder}/1000000`));
        // Flooded orders' first deliveries failed and wait for their retry in an hour.
        await waitFor(() => flooded.filter((id) => receiver.forOrder(id).length >= 1).length >= 2 ? true : null,
                      { message: 'failed first attempts of flooded orders' });
        const orderId = await placeOrder(b, victim, `/ok/${victim}`);
        await waitFor(() => receiver.acceptedStatuses(orderId).length === LIFECYCLE.length ? true : null,
                      { message: 'the other customer\'s five callbacks', timeoutMs: 10_000 });
        assert.deepEqual(receiver.acceptedStatuses(orderId), LIFECYCLE);
        // The flooded customer's deliveries are all still there, waiting (none lost).
        const flooderDeliveries = await Promise.all(flooded.map((id) => deliveriesOf(b, id)));
        assert.equal(flooderDeliveries.flat().length, 30 * LIFECYCLE.length);
        assert.ok(flooderDeliveries.flat().every((d) => d.state === 'pending'));
    } finally {
        assert.equal(await b.stop(), 0, b.stderr);
    }
});

test('a customer\'s endpoint whose receiver never answers takes its turn with the customer\'s other endpoints: their callbacks go out meanwhile', { timeout: 2 * TIMEOUT_MS }, async () => {
    // Anyone who knows a customer's id may place orders for it, with a callback that hangs:
    // 40 of them held the customer's two slots for 1.5 s each, in turn, and its own order's
    // callbacks waited behind all of them (about half a minute for the first). Their retries
    // wait an hour: with a second's wait, a loaded machine saw the first hanging deliveries
    // use up their two attempts (failed) before the customer's own callbacks were all in.
    const b = await startBackend({ args: ['--webhook-allow-loopback', '--webhook-retry-schedule', '1h',
                                          '--webhook-jitter-percent', '0', '--webhook-timeout-ms', '1500',
                                          '--webhook-max-in-flight', '8'] });
    try {
        const customer = await newCustomer(b, 'stalled');
        const hung = [];
        for (let i = 0; i < 40; ++i)
            hung.push(await placeOrder(b, customer, `/hang/${customer}`));
        await waitFor(() => receiver.hanging.length >= 2 ? true : null, { message: 'two hanging attempts' });
        const started = Date.now();
        const orderId = await placeOrder(b, customer, `/ok/${customer}`);
        await waitFor(() => receiver.acceptedStatuses(orderId).length === LIFECYCLE.length ? true : null,
                      { message: 'the customer\'s own five callbacks while the hanging ones take their turns', timeoutMs: 20_000 });
        assert.deepEqual(receiver.acceptedStatuses(orderId), LIFECYCLE);
        const took = Date.now() - started;
        assert.ok(took < 20_000, `took ${took} ms`);
        // The hanging orders' deliveries are all still there (none dropped for it).
        const theirs = (await Promise.all(hung.map((id) => deliveriesOf(b, id)))).flat();
        assert.ok(theirs.length >= hung.length, `${theirs.length} deliveries of the hanging orders`);
        assert.ok(theirs.every((d) => d.state === 'pending'), JSON.stringify(theirs.find((d) => d.state !== 'pending')));
    } finally {
        for (const res of receiver.hanging.splice(0))
            res.destroy();
        assert.equal(await b.stop(), 0, b.stderr);
    }
});

test('an attempt that gets no answer within webhook-timeout-ms fails and is retried', async () => {
    const b = await startBackend({ args: [...RETRY_ARGS, '--webhook-timeout-ms', '300'] });
    try {
        const customer = await newCustomer(b, 'silent-receiver');
        const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {
            orderStatusCallbackUrl: `${receiver.url}/hang/${customer}`,
        });
        assert.equal(r.status, 201);
        const [first] = await waitFor(async () => {
            const ds = await deliveriesOf(b, r.json.id);
            return ds.length && ds[0].attempts >= 2 ? ds : null;
        }, { message: 'two timed-out attempts' });
        const d = await delivery(b, first.id);
        const a = d.attempts[0];
        assert.equal(a.status, null);
        assert.match(a.error, /timed out after 300 ms/);
        assert.ok(a.latencyMs >= 300 && a.latencyMs < 3000, `latency ${a.latencyMs}`);
    } finally {
        for (const res of receiver.hanging.splice(0))
            res.destroy();
        assert.equal(await b.stop(), 0, b.stderr);
    }
});

// --- safe bulk redelivery (issue 8) ----------------------------------------------------------

// Places `orders` orders to the always-OK receiver and waits until all their deliveries
// succeeded; returns the customer and its delivered requests so far.
async function deliveredCustomer(b, name, orders) {
    const customer = await newCustomer(b, name);
    const ids = [];
    for (let i = 0; i < orders; ++i)
        ids.push(await placeOrder(b, customer, `/ok/${customer}`));
    await waitFor(async () => {
        for (const id of ids) {
            const ds = await deliveriesOf(b, id);
            if (ds.length < LIFECYCLE.length || ds.some((d) => d.state !== 'succeeded'))
                return false;
        }
        return true;
    }, { message: `${name}: every delivery succeeded` });
    return customer;
}

function requestsOf(customer) {
    return receiver.requests.filter((r) => r.path === `/ok/${customer}`);
}

async function job(b, id) {
    const r = await adminFetch(b, 'GET', `/admin/v1/redeliveries/${id}`);
    assert.equal(r.status, 200, r.text);
    return r.json;
}

test('bulk redelivery: preview with payloads, then redelivery at most ratePerSecond, same webhook-ids, kept in history', async () => {
    const customer = await deliveredCustomer(backend, 'bulk', 4);
    const total = 4 * LIFECYCLE.length;
    const filter = { customerId: customer, state: 'succeeded' };
    const preview = await adminFetch(backend, 'POST', '/admin/v1/redeliveries/preview', { filter });
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.json.count, total);
    assert.equal(preview.json.capped, false);
    assert.equal(preview.json.deliveries.length, total);
    const payload = JSON.parse(preview.json.deliveries[0].payload);
    assert.deepEqual(Object.keys(payload), ['orderId', 'orderStatus']);
    assert.equal(payload.orderStatus, preview.json.deliveries[0].orderStatus);
    assert.equal(requestsOf(customer).length, total, 'a preview sends nothing');

    const before = requestsOf(customer).length;
    const rate = 8;
    const started = await adminFetch(backend, 'POST', '/admin/v1/redeliveries', { filter, ratePerSecond: rate });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.json.state, 'running');
    assert.equal(started.json.total, total);
    const done = await waitFor(async () => {
        const j = await job(backend, started.json.id);
        return j.state === 'completed' ? j : null;
    }, { message: 'the job completed' });
    assert.equal(done.done, total);
    assert.equal(done.failed, 0);
    assert.ok(done.finishedAt);
    const resent = await waitFor(() => {
        const r = requestsOf(customer).slice(before);
        return r.length >= total ? r : null;
    }, { message: 'every redelivery arrived' });
    assert.equal(resent.length, total);
    // the same webhook-ids as the first deliveries, each once more
    const firstIds = new Set(requestsOf(customer).slice(0, before).map((r) => r.id));
    assert.ok(resent.every((r) => firstIds.has(r.id) && r.verified));
    assert.equal(new Set(resent.map((r) => r.id)).size, total);
    // the rate: 20 sends at 8/s take at least ~19/8 s, and no second holds more than 8 (+1 burst)
    const times = resent.map((r) => r.at).sort((a, b) => a - b);
    assert.ok(times.at(-1) - times[0] >= ((total - 1) / rate) * 1000 * 0.8,
              `span ${times.at(-1) - times[0]} ms for ${total} at ${rate}/s`);
    for (const t of times)
        assert.ok(times.filter((x) => x >= t && x < t + 1000).length <= rate + 2, 'at most the rate per second');
    // the attempt log says manual
    const sample = await delivery(backend, preview.json.deliveries[0].id);
    assert.equal(sample.attempts.at(-1).trigger, 'manual');
    // history
    const history = await adminFetch(backend, 'GET', '/admin/v1/redeliveries');
    assert.equal(history.json.items[0].id, started.json.id);
    assert.deepEqual(history.json.items[0].filter, filter);
});

test('bulk redelivery: cancel stops it and nothing more is sent; it resumes after a crash', async () => {
    const customer = await deliveredCustomer(backend, 'bulk-cancel', 4);
    const before = requestsOf(customer).length;
    const started = await adminFetch(backend, 'POST', '/admin/v1/redeliveries',
                                     { filter: { customerId: customer, state: 'succeeded' }, ratePerSecond: 2 });
    assert.equal(started.status, 201, started.text);
    const total = 4 * LIFECYCLE.length;
    // Cancelled under way: once two are sent (at 2/s, far from all of them).
    await waitFor(async () => (await job(backend, started.json.id)).sent >= 2, { message: 'two sent' });
    const cancelled = await adminFetch(backend, 'POST', `/admin/v1/redeliveries/${started.json.id}/cancel`);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.json.state, 'cancelled');
    assert.ok(cancelled.json.sent >= 2 && cancelled.json.sent < total, `sent ${cancelled.json.sent} of ${total}`);
    // A settle on purpose: at 2/s the next send would come within half a second; none may.
    await new Promise((r) => setTimeout(r, 1500));
    const after = await job(backend, started.json.id);
    assert.equal(after.state, 'cancelled');
    assert.equal(after.sent, cancelled.json.sent, 'nothing sent after the cancel');
    assert.equal(requestsOf(customer).length - before, after.sent);
    const again = await adminFetch(backend, 'POST', `/admin/v1/redeliveries/${started.json.id}/cancel`);
    assert.equal(again.status, 409, again.text);
    assert.equal((await adminFetch(backend, 'POST', '/admin/v1/redeliveries/no-such-job/cancel')).status, 404);
    assert.equal((await adminFetch(backend, 'GET', '/admin/v1/redeliveries/no-such-job')).status, 404);

    // A job running when the process dies resumes where it was.
    const b = await startBackend({ args: RETRY_ARGS });
    try {
        const c = await deliveredCustomer(b, 'bulk-crash', 2);
        const total = 2 * LIFECYCLE.length;
        const n0 = requestsOf(c).length;
        const s = await adminFetch(b, 'POST', '/admin/v1/redeliveries', { filter: { customerId: c, state: 'succeeded' }, ratePerSecond: 4 });
        assert.equal(s.status, 201, s.text);
        // Killed under way: once it has sent some (at 4/s, far from all of them).
        await waitFor(async () => (await job(b, s.json.id)).sent >= 2, { message: 'two sent before the crash' });
        await b.kill9();
        const b2 = await startBackend({ dataDir: b.dataDir, args: RETRY_ARGS });
        try {
            const j = await waitFor(async () => {
                const x = await job(b2, s.json.id);
                return x.state === 'completed' ? x : null;
            }, { message: 'the resumed job completed' });
            // Counted in each marking transaction: a crash loses no count (one marked again
            // after the restart counts twice).
            assert.ok(j.done + j.failed >= total, JSON.stringify(j));
            // every delivery was redelivered at least once (at-least-once across the crash)
            const ids = new Set(requestsOf(c).slice(n0).map((r) => r.id));
            await waitFor(() => new Set(requestsOf(c).slice(n0).map((r) => r.id)).size === total,
                          { message: `all ${total} webhook-ids redelivered (have ${ids.size})` });
        } finally {
            assert.equal(await b2.stop(), 0, b2.stderr);
        }
    } finally {
        await b.stop().catch(() => {});
    }
});

test('bulk redelivery: at most 4 jobs run at once (409, nothing stored); the actor label is printable', async () => {
    const customer = await deliveredCustomer(backend, 'bulk-limit', 1);
    const filter = { customerId: customer, state: 'succeeded' };
    const running = [];
    try {
        for (let i = 0; i < 4; ++i) {
            const r = await adminFetch(backend, 'POST', '/admin/v1/redeliveries',
                                       { filter, ratePerSecond: 0.1, actor: i === 0 ? 'ops\u001b[2J\nforged\tlabel' : undefined });
            assert.equal(r.status, 201, r.text);
            running.push(r.json.id);
        }
        assert.equal((await job(backend, running[0])).actor, 'ops[2Jforgedlabel', 'control characters dropped');
        const ids = async () => (await adminFetch(backend, 'GET', '/admin/v1/redeliveries')).json.items.map((j) => j.id);
        const before = await ids();
        const fifth = await adminFetch(backend, 'POST', '/admin/v1/redeliveries', { filter, ratePerSecond: 1000 });
        assert.equal(fifth.status, 409, fifth.text);
        assert.equal(fifth.json.error, 'too-many-redelivery-jobs');
        assert.match(fifth.json.message, /^4 redelivery jobs are running \(at most 4\): wait for one to finish, or cancel one$/);
        assert.deepEqual(await ids(), before, 'nothing stored');
        const cancelled = await adminFetch(backend, 'POST', `/admin/v1/redeliveries/${running.shift()}/cancel`);
        assert.equal(cancelled.status, 200, cancelled.text);
        const next = await adminFetch(backend, 'POST', '/admin/v1/redeliveries', { filter, ratePerSecond: 0.1 });
        assert.equal(next.status, 201, next.text);
        running.push(next.json.id);
    } finally {
        for (const id of running)
            await adminFetch(backend, 'POST', `/admin/v1/redeliveries/${id}/cancel`);
    }
});

test('bulk redelivery: bad input gets a clear error', async () => {
    const cases = [
        [{ filter: 'x' }, 400, 'invalid-filter'],
        [{ filter: { colour: 'red' } }, 400, 'invalid-filter'],
        [{ filter: { state: 'pending' } }, 400, 'invalid-filter'],
        [{ filter: { from: 'yesterday' } }, 400, 'invalid-filter'],
        [{ filter: { customerId: 7 } }, 400, 'invalid-filter'],
        [{ filter: {}, ratePerSecond: 0 }, 400, 'invalid-rate'],
        [{ filter: {}, ratePerSecond: 5000 }, 400, 'invalid-rate'],
        [{ filter: {}, ratePerSecond: 'fast' }, 400, 'invalid-rate'],
        [{ filter: { customerId: '00000000-0000-0000-0000-000000000000' } }, 422, 'nothing-to-redeliver'],
    ];
    for (const [body, status, code] of cases) {
        const r = await adminFetch(backend, 'POST', '/admin/v1/redeliveries', body);
        assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
        assert.equal(r.json.error, code, r.text);
        assert.ok(r.json.message.length > 10, r.text);
    }
    const p = await adminFetch(backend, 'POST', '/admin/v1/redeliveries/preview', { filter: { state: 'nope' } });
    assert.equal(p.status, 400);
    const malformed = await adminFetch(backend, 'POST', '/admin/v1/redeliveries', '{');
    assert.equal(malformed.status, 400);
});

// --- the asynchronous lifecycle -----------------------------------------------------------

async function lifecycle(b) {
    const r = await adminFetch(b, 'GET', '/admin/v1/orders/lifecycle');
    assert.equal(r.status, 200, r.text);
    return r.json;
}

test('holding the lifecycle keeps new orders in NEW, through a restart; release runs them in order', { timeout: 2 * TIMEOUT_MS }, async () => {
    const b = await startBackend({ args: RETRY_ARGS });
    let again;
    try {
        const customer = await newCustomer(b, 'held');
        const held = await adminFetch(b, 'POST', '/admin/v1/orders/lifecycle/hold');
        assert.equal(held.status, 200, held.text);
        assert.deepEqual(held.json, { held: true, backlog: 0 });
        // Audited like every admin change: who held it, and the state before and after.
        const audit = await waitFor(async () => (await adminFetch(b, 'GET', '/admin/v1/audit?limit=1000'))
            .json.items.find((e) => e.action === 'hold'), { message: 'the audit entry of the hold' });
        assert.equal(audit.kind, 'order');
        assert.equal(audit.target, 'lifecycle');
        assert.deepEqual([audit.before?.held, audit.after?.held], [false, true], JSON.stringify(audit));
        const ids = [];
        for (let i = 0; i < 4; ++i) {
            const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {
                beerOrderLines: [{ upc: upcs[0], orderQuantity: 1 }],
                orderStatusCallbackUrl: `${receiver.url}/ok/${customer}`,
            });
            assert.equal(r.status, 201, r.text);
            assert.equal(r.json.orderStatus, 'NEW');
            ids.push(r.json.id);
        }
        // Accepted, announced (their NEW callback), and nothing more.
        await waitFor(() => ids.every((id) => receiver.acceptedStatuses(id).length === 1),
                      { message: 'the NEW callbacks' });
        await new Promise((r) => setTimeout(r, 300));
        for (const id of ids) {
            const o = await serviceFetch(b, 'GET', `/v1/customers/${customer}/orders/${id}`);
            assert.equal(o.json.orderStatus, 'NEW');
            assert.deepEqual(receiver.acceptedStatuses(id), ['NEW']);
        }
        assert.deepEqual(await lifecycle(b), { held: true, backlog: 4 });
        const status = await adminFetch(b, 'GET', '/admin/v1/status');
        assert.equal(status.json.orders.lifecycleHeld, true);
        // A pickup cannot overtake the lifecycle.
        const early = await serviceFetch(b, 'PUT', `/v1/customers/${customer}/orders/${ids[0]}/pickup`);
        assert.equal(early.status, 409, early.text);
        assert.equal(early.json.code, 'invalid-state-transition');

        // A restart does not release what an administrator held.
        assert.equal(await b.stop(), 0, b.stderr);
        again = await startBackend({ dataDir: b.dataDir, args: RETRY_ARGS });
        assert.deepEqual(await lifecycle(again), { held: true, backlog: 4 });
        await new Promise((r) => setTimeout(r, 300));
        for (const id of ids)
            assert.equal((await adminFetch(again, 'GET', `/admin/v1/orders/${id}`)).json.orderStatus, 'NEW');

        const released = await adminFetch(again, 'POST', '/admin/v1/orders/lifecycle/release');
        assert.equal(released.status, 200, released.text);
        assert.equal(released.json.held, false);
        await waitFor(() => ids.every((id) => receiver.acceptedStatuses(id).length === 5),
                      { message: 'every callback after the release' });
        for (const id of ids) {
            assert.deepEqual(receiver.acceptedStatuses(id), LIFECYCLE);
            const o = await adminFetch(again, 'GET', `/admin/v1/orders/${id}`);
            assert.deepEqual(o.json.history.map((h) => h.status), LIFECYCLE);
        }
        assert.deepEqual(await lifecycle(again), { held: false, backlog: 0 });
        // Releasing twice, or holding an unknown thing, changes nothing.
        assert.equal((await adminFetch(again, 'POST', '/admin/v1/orders/lifecycle/release')).status, 200);
        assert.equal((await adminFetch(again, 'POST', '/admin/v1/orders/lifecycle/pause')).status, 404);
    } finally {
        if (again)
            assert.equal(await again.stop(), 0, again.stderr);
        else
            await b.stop();
    }
});

test('kill -9 while thousands of accepted orders sit between NEW and ALLOCATED: none lost, none oversold', { timeout: 6 * TIMEOUT_MS }, async () => {
    const ORDERS = 3000;
    const STOCK = 2000; // of the contested beer: a third of the orders must wait
    const b = await startBackend({ args: RETRY_ARGS });
    const customer = await newCustomer(b, 'crash-lifecycle');
    // A beer of its own for this test: take what is on hand to exactly STOCK.
    const beers = (await adminFetch(b, 'GET', '/admin/v1/beers')).json.items;
    const contested = beers.find((x) => x.quantityOnHand <= STOCK && !x.discontinued);
    assert.ok(contested, 'a beer with at most STOCK on hand');
    if (contested.quantityOnHand < STOCK) {
        const r = await adminFetch(b, 'POST', `/admin/v1/beers/${contested.id}/restock`,
                                   { quantity: STOCK - contested.quantityOnHand });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.quantityOnHand, STOCK);
    }
    // Held, so that the accepted orders pile up in NEW; then released and killed mid-way.
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/orders/lifecycle/hold')).status, 200);
    const accepted = [];
    let next = 0;
    const worker = async () => {
        while (next < ORDERS) {
            const n = next++;
            const r = await serviceFetch(b, 'POST', `/v1/customers/${customer}/orders`, {
                customerRef: `crash-${n}`,
                beerOrderLines: [{ upc: contested.upc, orderQuantity: 1 }],
                orderStatusCallbackUrl: `${receiver.url}/ok/${customer}`,
            });
            assert.equal(r.status, 201, r.text);
            assert.equal(r.json.orderStatus, 'NEW');
            accepted.push(r.json.id);
        }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    assert.equal(accepted.length, ORDERS);
    assert.equal((await lifecycle(b)).backlog, ORDERS);
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/orders/lifecycle/release')).status, 200);
    // Killed once the lifecycle is under way (a batch committed) and thousands still wait.
    let backlogAtKill;
    await waitFor(async () => {
        backlogAtKill = (await lifecycle(b)).backlog;
        return backlogAtKill < ORDERS;
    }, { intervalMs: 5, message: 'the lifecycle under way' });
    await b.kill9();
    assert.ok(backlogAtKill >= 1000, `${backlogAtKill} orders waited at the kill`);

    const again = await startBackend({ dataDir: b.dataDir, args: RETRY_ARGS });
    try {
        await waitFor(async () => (await lifecycle(again)).backlog === 0,
                      { timeoutMs: 2 * TIMEOUT_MS, message: 'the take-up after the crash' });
        const orders = [];
        for (let before = '';;) {
            const page = await adminFetch(again, 'GET',
                `/admin/v1/orders?customerId=${customer}&limit=1000${before && `&before=${before}`}`);
            assert.equal(page.status, 200, page.text);
            orders.push(...page.json.items);
            if (page.json.items.length < 1000)
                break;
            before = page.json.items.at(-1).id;
        }
        // Every acknowledged order is there, exactly once, in a final status of its lifecycle.
        assert.equal(orders.length, ORDERS);
        assert.deepEqual(new Set(orders.map((o) => o.id)), new Set(accepted));
        const allocated = orders.filter((o) => o.orderStatus === 'ALLOCATED');
        const waiting = orders.filter((o) => o.orderStatus === 'PENDING_INVENTORY');
        // None oversold: exactly the stock there was went out, one unit an order.
        assert.equal(allocated.length, STOCK);
        assert.equal(waiting.length, ORDERS - STOCK);
        const after = (await adminFetch(again, 'GET', '/admin/v1/beers')).json.items
            .find((x) => x.id === contested.id);
        assert.equal(after.quantityOnHand, 0);
        // A restock allocates the waiting ones.
        const restock = await adminFetch(again, 'POST', `/admin/v1/beers/${contested.id}/restock`,
                                         { quantity: ORDERS - STOCK });
        assert.equal(restock.status, 200, restock.text);
        assert.equal(restock.json.quantityOnHand, 0);

        // Every status change reaches the receiver at least once; a duplicate (sent before the
        // crash, recorded as sent only after it) keeps its webhook-id.
        const expected = new Map();
        for (const o of orders)
            expected.set(o.id, o.orderStatus === 'ALLOCATED' ? LIFECYCLE
                : [...LIFECYCLE.slice(0, 4), 'PENDING_INVENTORY', 'ALLOCATED']);
        await waitFor(() => {
            const got = new Map();
            for (const r of receiver.requests) {
                if (r.status >= 300 || !expected.has(r.json?.orderId))
                    continue;
                if (!got.has(r.json.orderId))
                    got.set(r.json.orderId, new Set());
                got.get(r.json.orderId).add(r.json.orderStatus);
            }
            for (const [id, want] of expected)
                if (!want.every((s) => got.get(id)?.has(s)))
                    return false;
            return true;
        }, { timeoutMs: 3 * TIMEOUT_MS, intervalMs: 500, message: 'every status change delivered' });
        assertOneWebhookIdPerChange(expected);
    } finally {
        assert.equal(await again.stop(), 0, again.stderr);
    }
});
