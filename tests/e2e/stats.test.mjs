// The dashboard's series (GET /admin/v1/stats/series, stats.series events): per-minute
// counters of the last hour counted from what the backend publishes. Orders placed through
// the service API and the admin API's test orders, their webhook deliveries (to the built-in
// demo receiver: succeeded; to a closed port: failed), a client_credentials token, cluster
// requests (allowed and denied) — each shows up in the current minute and the totals. A scoped
// token reads the series too, but only its areas' counters, on the REST side and the stream.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';

import { startBackend, request, adminFetch, serviceFetch, waitFor } from './lib/backend.mjs';
import { kubeRequest } from './lib/cluster.mjs';

// Failing deliveries give up quickly.
const ARGS = ['--webhook-allow-loopback', '--webhook-retry-schedule', '200ms,200ms',
              '--webhook-jitter-percent', '0'];

let b;

before(async () => {
    b = await startBackend({ args: ARGS });
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

async function series(token = b.adminToken) {
    const r = await request(`${b.adminUrl}/admin/v1/stats/series`, 'GET', undefined,
                            { Authorization: `Bearer ${token}` });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
    return r.json;
}

const totalTokens = (t) => Object.values(t.tokensByGrant ?? {}).reduce((a, n) => a + n, 0);

// A port on 127.0.0.1 where nothing listens.
async function closedPort() {
    const server = net.createServer();
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address();
    await new Promise((resolve) => server.close(resolve));
    return port;
}

test('shape: 60 one-minute buckets, oldest first, the current minute last; totals; areas', async () => {
    const s = await series();
    assert.equal(s.bucketSeconds, 60);
    assert.equal(s.buckets.length, 60);
    assert.deepEqual(s.areas, ['orders', 'oauth', 'cluster']);
    const starts = s.buckets.map((x) => Date.parse(x.start));
    for (let i = 1; i < starts.length; ++i)
        assert.equal(starts[i] - starts[i - 1], 60_000, `bucket ${i}`);
    assert.equal(starts[59] % 60_000, 0);
    assert.ok(Math.abs(Date.now() - starts[59]) < 120_000, s.buckets[59].start);
    for (const bucket of s.buckets)
        assert.deepEqual(Object.keys(bucket).sort(), ['clusterAllowed', 'clusterDenied', 'deliveriesFailed',
            'deliveriesSucceeded', 'orders', 'start', 'tokensByGrant']);
    assert.deepEqual(Object.keys(s.totals).sort(), ['clusterAllowed', 'clusterDenied', 'deliveriesFailed',
        'deliveriesSucceeded', 'orders', 'tokensByGrant']);
    for (const key of ['orders', 'deliveriesSucceeded', 'deliveriesFailed', 'clusterAllowed', 'clusterDenied'])
        assert.equal(s.totals[key], s.buckets.reduce((a, x) => a + x[key], 0), key);
});

test('orders, deliveries, a client_credentials token and cluster requests are counted', async () => {
    const before = (await series()).totals;

    // Orders: two test orders (callbacks to the demo receiver) and one through the service API
    // whose callback fails.
    for (let i = 0; i < 2; ++i) {
        const r = await adminFetch(b, 'POST', '/admin/v1/test-orders', {});
        assert.equal(r.status, 201, r.text);
    }
    const customer = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'stats e2e' });
    assert.equal(customer.status, 201, customer.text);
    const beers = await serviceFetch(b, 'GET', '/v1/beers?pageSize=100');
    const upc = beers.json.content.find((x) => x.quantityOnHand >= 10).upc;
    const port = await closedPort();
    const placed = await serviceFetch(b, 'POST', `/v1/customers/${customer.json.customer.id}/orders`, {
        beerOrderLines: [{ upc, orderQuantity: 1 }],
        orderStatusCallbackUrl: `http://127.0.0.1:${port}/hook`,
    });
    assert.equal(placed.status, 201, placed.text);

    // A client_credentials token.
    const client = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'stats', grant_types: ['client_credentials'], scope: 'orders:read' });
    assert.equal(client.status, 201, client.text);
    const token = await request(`${b.serviceUrl}/oauth2/token`, 'POST', 'grant_type=client_credentials', {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${client.json.client_id}:${client.json.client_secret}`).toString('base64')}` });
    assert.equal(token.status, 200, token.text);

    // Cluster requests as anonymous: /version is allowed, listing nodes is denied.
    assert.equal((await kubeRequest(b, 'GET', '/version')).status, 200);
    assert.equal((await kubeRequest(b, 'GET', '/api/v1/nodes')).status, 403);
    assert.equal((await kubeRequest(b, 'GET', '/api/v1/namespaces')).status, 403);

    const after = await waitFor(async () => {
        const t = (await series()).totals;
        return t.orders >= before.orders + 3 && t.deliveriesSucceeded > before.deliveriesSucceeded &&
            t.deliveriesFailed > before.deliveriesFailed && t.clusterDenied >= before.clusterDenied + 2
            ? t : null;
    }, { message: 'the series to count orders, deliveries and cluster requests' });
    assert.equal(after.orders, before.orders + 3);
    assert.equal((after.tokensByGrant.client_credentials ?? 0) - (before.tokensByGrant.client_credentials ?? 0), 1);
    assert.equal(totalTokens(after) - totalTokens(before), 1, 'one access token, nothing else');
    assert.ok(after.clusterAllowed >= before.clusterAllowed + 1, JSON.stringify(after));
    assert.equal(after.clusterDenied, before.clusterDenied + 2);
    // Each test order reports its status changes to the demo receiver: several successes.
    assert.ok(after.deliveriesSucceeded >= before.deliveriesSucceeded + 2, JSON.stringify(after));

    // The counts are in the current (or, across a minute boundary, the previous) minute.
    const s = await series();
    const recent = s.buckets.slice(-2);
    assert.ok(recent.reduce((a, x) => a + x.orders, 0) >= 3, JSON.stringify(recent));
});

test('the stream carries stats.series with the current minute', async () => {
    const ac = new AbortController();
    const res = await fetch(`${b.adminUrl}/admin/v1/events`, {
        headers: { Authorization: `Bearer ${b.adminToken}` }, signal: ac.signal });
    assert.equal(res.status, 200);
    let text = '';
    const reading = (async () => {
        const decoder = new TextDecoder();
        try {
            for await (const chunk of res.body) text += decoder.decode(chunk, { stream: true });
        } catch (e) {
            if (e.name !== 'AbortError')
                throw e;
        }
    })();
    const r = await adminFetch(b, 'POST', '/admin/v1/test-orders', {});
    assert.equal(r.status, 201, r.text);
    const event = await waitFor(() => {
        const frames = [...text.matchAll(/^event: stats\.series\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]));
        return frames.find((f) => f.data.bucket.orders >= 1);
    }, { message: 'a stats.series event counting the order' });
    ac.abort();
    await reading;
    assert.equal(event.type, 'stats.series');
    assert.equal(event.data.bucketSeconds, 60);
    assert.equal(Date.parse(event.data.bucket.start) % 60_000, 0);
    assert.deepEqual(event.data.areas, ['orders', 'oauth', 'cluster']);
    assert.ok('tokensByGrant' in event.data.bucket && 'clusterDenied' in event.data.bucket);
});

test('a scoped token sees only the counters of the areas it may read', async () => {
    const created = await adminFetch(b, 'POST', '/admin/v1/admin-tokens',
                                     { name: 'stats-orders', permissions: ['orders:read'] });
    assert.equal(created.status, 201, created.text);
    const scoped = created.json.token;

    const s = await series(scoped);
    assert.deepEqual(s.areas, ['orders']);
    assert.equal(s.buckets.length, 60);
    for (const bucket of s.buckets)
        assert.deepEqual(Object.keys(bucket).sort(), ['deliveriesFailed', 'deliveriesSucceeded', 'orders', 'start']);
    assert.deepEqual(Object.keys(s.totals).sort(), ['deliveriesFailed', 'deliveriesSucceeded', 'orders']);
    const root = await series();
    assert.equal(s.totals.orders, root.totals.orders);

    const audit = await adminFetch(b, 'POST', '/admin/v1/admin-tokens',
                                   { name: 'stats-audit', permissions: ['audit:read'] });
    const none = await series(audit.json.token);
    assert.deepEqual(none.areas, []);
    assert.deepEqual(none.totals, {});
    assert.deepEqual(Object.keys(none.buckets[0]), ['start']);

    // On the stream: the scoped token's stats.series frames carry no oauth or cluster numbers.
    const rootBefore = (await series()).totals;
    const ac = new AbortController();
    const res = await fetch(`${b.adminUrl}/admin/v1/events`, {
        headers: { Authorization: `Bearer ${scoped}` }, signal: ac.signal });
    let text = '';
    const reading = (async () => {
        const decoder = new TextDecoder();
        try {
            for await (const chunk of res.body) text += decoder.decode(chunk, { stream: true });
        } catch (e) {
            if (e.name !== 'AbortError')
                throw e;
        }
    })();
    const client = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'stats scoped', grant_types: ['client_credentials'], scope: 'orders:read' });
    const minted = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: client.json.client_id });
    assert.equal(minted.status, 200, minted.text);
    assert.equal((await kubeRequest(b, 'GET', '/api/v1/nodes')).status, 403);
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/test-orders', {})).status, 201);
    const frames = await waitFor(() => {
        const f = [...text.matchAll(/^event: stats\.series\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]));
        return f.some((x) => x.data.bucket.orders >= 1) ? f : null;
    }, { message: 'stats.series on the scoped stream' });
    // The cluster request is counted (batched, it can come after the order)...
    await waitFor(async () => (await series()).totals.clusterDenied > rootBefore.clusterDenied,
                  { message: 'the cluster request counted' });
    // ...and a settle on purpose over the next publication (about once a second): a frame that
    // would carry its numbers to the scoped stream is there by then.
    await new Promise((r) => setTimeout(r, 1500));
    ac.abort();
    await reading;
    for (const f of [...text.matchAll(/^event: stats\.series\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]))) {
        assert.deepEqual(f.data.areas, ['orders']);
        assert.deepEqual(Object.keys(f.data.bucket).sort(), ['deliveriesFailed', 'deliveriesSucceeded', 'orders', 'start']);
    }
    assert.ok(frames.length >= 1);
    assert.ok(!text.includes('tokensByGrant') && !text.includes('clusterDenied'), 'no oauth or cluster numbers');
});
