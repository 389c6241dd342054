// Webhook delivery benchmark: a running gatehouse (GH_SERVICE, GH_ADMIN, GH_TOKEN) delivers
// the status changes of ORDERS orders to a local Node receiver. Prints deliveries per second
// (first to last receipt) and the latency from each status change (its history time) to its
// receipt, then the receiver's own capacity measured with the same connection count as the
// peer. Run by tests/bench/run.sh webhooks.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
// The reference Standard Webhooks library, installed by `npm ci` in tests/e2e.
import standardwebhooks from '../e2e/node_modules/standardwebhooks/dist/index.js';

const { Webhook } = standardwebhooks;

const service = process.env.GH_SERVICE;
const admin = process.env.GH_ADMIN;
const token = process.env.GH_TOKEN;
const ORDERS = Number(process.env.ORDERS ?? 2000);
const now = () => performance.timeOrigin + performance.now(); // ms with µs resolution

const received = new Map(); // webhook-id -> {at, orderId, status}
let verifier = null;
let verified = 0;
const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
        const at = now();
        const body = Buffer.concat(chunks).toString();
        const id = req.headers['webhook-id'];
        if (!received.has(id)) {
            const j = JSON.parse(body);
            received.set(id, { at, orderId: j.orderId, status: j.orderStatus });
            // Verify every 50th with the reference library: the signatures are real.
            if (verifier && received.size % 50 === 0) {
                verifier.verify(body, req.headers);
                ++verified;
            }
        }
        res.writeHead(204).end();
    });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${server.address().port}`;

async function call(base, method, path, body, headers = {}) {
    const r = await fetch(base + path, {
        method, body: body ? JSON.stringify(body) : undefined,
        headers: { 'Content-Type': 'application/json', ...headers },
    });
    return { status: r.status, json: await r.json().catch(() => null) };
}
const adminCall = (m, p, b) => call(admin, m, p, b, { Authorization: `Bearer ${token}` });

const c = await adminCall('POST', '/admin/v1/customers', { name: 'bench' });
const customer = c.json.customer.id;
verifier = new Webhook(c.json.webhookSecret);
for (const b of (await adminCall('GET', '/admin/v1/beers')).json.items)
    await adminCall('POST', `/admin/v1/beers/${b.id}/restock`, { quantity: 100000 });
const upcs = (await call(service, 'GET', '/v1/beers?pageSize=100')).json.content.map((b) => b.upc);

// The orders of the bursts are placed by wrk (tests/bench/bulkorders.lua), a process of its
// own, as in the other scenarios: placed from this event loop, which also receives, they went in
// at about 600 per second and the burst measured that. wrk stops once `count` orders were
// answered 201; the ones still in flight then are made too, so the server's count is used.
// (The time counted is first to last receipt, so these waits are not in it.)
const bulkOrders = fileURLToPath(new URL('./bulkorders.lua', import.meta.url));
async function placeOrders(count, lines, refPrefix) {
    const before = (await call(service, 'GET', `/v1/customers/${customer}/orders?pageSize=1`)).json.totalElements;
    const out = await new Promise((resolve, reject) => {
        const wrk = spawn('wrk', ['-t1', '-c16', '-d600s', '-s', bulkOrders, service], {
            env: { ...process.env, GH_CUSTOMER: customer, GH_UPCS: upcs.join(' '), GH_REF_PREFIX: refPrefix,
                   GH_CALLBACK: `${receiverUrl}/hooks`, GH_COUNT: String(count), GH_LINES: String(lines) },
            stdio: ['ignore', 'pipe', 'inherit'],
        });
        let text = '';
        wrk.stdout.on('data', (c) => {
            text += c;
            if (/^stopped$/m.test(text))
                wrk.kill('SIGINT'); // its thread is done; this ends its sleep through -d
        });
        wrk.on('error', reject);
        wrk.on('close', () => resolve(text));
    });
    const m = /orders created (\d+) failed (\d+)/.exec(out);
    if (!m || Number(m[1]) < count || Number(m[2]) !== 0)
        throw new Error(`placing ${count} orders with wrk: ${out}`);
    // The last requests may still be on their way to the writer: count once its queue stayed
    // empty over two polls 50 ms apart.
    for (let empty = 0; empty < 2;) {
        await new Promise((r) => setTimeout(r, 50));
        empty = (await adminCall('GET', '/admin/v1/status')).json.writer.queued === 0 ? empty + 1 : 0;
    }
    const after = (await call(service, 'GET', `/v1/customers/${customer}/orders?pageSize=1`)).json.totalElements;
    return after - before;
}

const t0 = now();
const burstOrders = await placeOrders(ORDERS, 2, 'burst');
const expected = burstOrders * 5;
const deadline = now() + 300_000;
while (received.size < expected && now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
if (received.size < expected)
    throw new Error(`only ${received.size} of ${expected} deliveries arrived`);

const times = [...received.values()].map((r) => r.at);
const first = Math.min(...times);
const last = Math.max(...times);
const rate = (expected - 1) / ((last - first) / 1000);

// Latency, measured apart from the burst (which queues deliveries behind each other): orders
// one at a time, each status change's receipt minus its time in the order history
// (milliseconds, so the numbers carry up to 1 ms of rounding).
const LATENCY_ORDERS = Number(process.env.LATENCY_ORDERS ?? 300);
const latencyIds = [];
for (let n = 0; n < LATENCY_ORDERS; ++n) {
    const r = await call(service, 'POST', `/v1/customers/${customer}/orders`, {
        beerOrderLines: [{ upc: upcs[n % upcs.length], orderQuantity: 1 }],
        orderStatusCallbackUrl: `${receiverUrl}/hooks`,
    });
    if (r.status !== 201)
        throw new Error(`order answered ${r.status}`);
    latencyIds.push(r.json.id);
    await new Promise((res) => setTimeout(res, 2));
}
const latencyExpected = expected + LATENCY_ORDERS * 5;
while (received.size < latencyExpected && now() < deadline + 60_000)
    await new Promise((r) => setTimeout(r, 20));
if (received.size < latencyExpected)
    throw new Error(`only ${received.size - expected} of ${latencyExpected - expected} deliveries ` +
                    'of the latency orders arrived');
const latencies = [];
const byOrder = new Map();
for (const r of received.values()) {
    if (!byOrder.has(r.orderId)) byOrder.set(r.orderId, []);
    byOrder.get(r.orderId).push(r);
}
for (const id of latencyIds) {
    const o = await adminCall('GET', `/admin/v1/orders/${id}`);
    for (const h of o.json.history) {
        const got = (byOrder.get(id) ?? []).find((r) => r.status === h.status);
        if (got)
            latencies.push(got.at - Date.parse(h.at));
    }
}
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];

// The delivery engine alone: ORDERS orders placed while the lifecycle is held (only their NEW
// callbacks go out), then released. Their other four status changes are committed in batches
// and delivered while this process only receives: deliveries per second from the release to
// the last receipt.
const before = received.size;
const held = await adminCall('POST', '/admin/v1/orders/lifecycle/hold');
if (held.status !== 200)
    throw new Error(`hold answered ${held.status}`);
const heldOrders = await placeOrders(ORDERS, 1, 'held');
while (received.size < before + heldOrders && now() < deadline + 120_000)
    await new Promise((r) => setTimeout(r, 20));
const releasedAt = now();
const released = await adminCall('POST', '/admin/v1/orders/lifecycle/release');
if (released.status !== 200)
    throw new Error(`release answered ${released.status}`);
const releasedExpected = before + heldOrders * 5;
while (received.size < releasedExpected && now() < deadline + 180_000)
    await new Promise((r) => setTimeout(r, 5));
if (received.size < releasedExpected)
    throw new Error(`only ${received.size - before} of ${heldOrders * 5} deliveries of the held orders arrived`);
let releasedLast = 0;
for (const r of received.values())
    releasedLast = Math.max(releasedLast, r.at);
const releasedRate = (heldOrders * 4) / ((releasedLast - releasedAt) / 1000);

console.log(JSON.stringify({
    orders: burstOrders, deliveries: expected, verifiedSample: verified, latencySamples: latencies.length,
    seconds: +((last - t0) / 1000).toFixed(2),
    deliveriesPerSecond: Math.round(rate),
    latencyP50ms: +pct(0.5).toFixed(2), latencyP99ms: +pct(0.99).toFixed(2),
    releasedDeliveries: heldOrders * 4, releasedDeliveriesPerSecond: Math.round(releasedRate),
    receiverUrl,
}));
// Keep serving for the peer measurement (run.sh runs wrk against receiverUrl, then kills us).
if (process.env.KEEP_SERVING !== '1')
    process.exit(0);
