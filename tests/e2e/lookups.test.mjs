// Name lookups that never answer (a DNS server that drops every query) must not reach from one
// service into another, nor from one customer to the others: an unauthenticated order placer
// choosing callback host names that resolve slowly filled Qt's process-wide lookup pool (20
// threads) and held up a cluster admission webhook's lookup until its deadline (under
// failurePolicy Ignore the write then went ahead without the policy); later, four customers'
// names filled the intake's 16 lookups. Lookups are c-ares' now (Core::Resolver): no thread
// each, 4 a customer at the intake. Runs in a network namespace of its own (netns/run.sh): only
// loopback, resolv.conf naming 127.0.0.1:53 (this test's silent DNS server, 10 s timeout), and
// /etc/hosts naming hook.gatehouse.test, the webhook. The second test: a proxy named in the
// environment (http_proxy) is not used for callbacks. The third: the webhook dispatcher's own
// lookups (names the DNS server answers once, for the order's check, and never again) hold up
// only their customer's deliveries.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startBackend, adminFetch, request, waitFor } from './lib/backend.mjs';
import { tempDir, run } from './lib/cluster.mjs';

let b;
let dns;
let hook;
let dir;
const queried = new Set(); // names the silent DNS server was asked for
// Names it answers once (each query type: A with 10.9.9.9, AAAA with nothing), name -> the
// types answered; asked again after that, it stays silent and notes the name in `reasked`.
const answerOnce = new Map();
const reasked = new Set();
const reviews = []; // namespaces the webhook was asked about
const nxdomain = new Set(); // names it says do not exist (NXDOMAIN)
const asked = new Map(); // name -> how many queries came for it

async function openssl(args) {
    const r = await run('openssl', args);
    if (r.code !== 0)
        throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
}

// The QNAME of a DNS query: length-prefixed labels after the 12-byte header.
function qname(msg) {
    const labels = [];
    for (let i = 12; i < msg.length && msg[i] !== 0; i += msg[i] + 1)
        labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('latin1'));
    return labels.join('.');
}

// Where the question ends (its name, then type and class).
function questionEnd(msg) {
    let i = 12;
    while (i < msg.length && msg[i] !== 0)
        i += msg[i] + 1;
    return i + 5;
}

// The answer to `query`: A 10.9.9.9 (TTL 60 s) for type A, no records for any other type.
function answer(query, end, qtype) {
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // its id
    header.writeUInt16BE(0x8180, 2); // a response, recursion available, no error
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(qtype === 1 ? 1 : 0, 6);
    const question = query.subarray(12, end);
    if (qtype !== 1)
        return Buffer.concat([header, question]);
    return Buffer.concat([header, question, Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 9, 9, 9])]);
}

before(async () => {
    assert.match(readFileSync('/etc/resolv.conf', 'utf8'), /nameserver 127\.0\.0\.1/,
                 'run through tests/e2e/netns/run.sh (a network namespace of its own)');
    dns = dgram.createSocket('udp4');
    dns.on('message', (msg, from) => {
        const name = qname(msg);
        queried.add(name);
        asked.set(name, (asked.get(name) ?? 0) + 1);
        if (nxdomain.has(name)) {
            const end = questionEnd(msg);
            const header = Buffer.alloc(12);
            msg.copy(header, 0, 0, 2); // its id
            header.writeUInt16BE(0x8183, 2); // a response, recursion available, NXDOMAIN
            header.writeUInt16BE(1, 4);
            dns.send(Buffer.concat([header, msg.subarray(12, end)]), from.port, from.address);
            return;
        }
        const answered = answerOnce.get(name);
        if (!answered)
            return; // never answered
        const end = questionEnd(msg);
        const qtype = msg.readUInt16BE(end - 4);
        if (answered.has(qtype)) {
            reasked.add(name);
            return;
        }
        answered.add(qtype);
        dns.send(answer(msg, end, qtype), from.port, from.address);
    });
    await new Promise((resolve) => dns.bind(53, '127.0.0.1', resolve));

    dir = tempDir('lookups-');
    const ca = { key: join(dir, 'ca.key'), crt: join(dir, 'ca.crt') };
    await openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                   '-keyout', ca.key, '-out', ca.crt, '-days', '1', '-subj', '/CN=lookups webhook CA']);
    writeFileSync(join(dir, 'hook.ext'), 'subjectAltName=DNS:hook.gatehouse.test\n');
    await openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                   '-keyout', join(dir, 'hook.key'), '-out', join(dir, 'hook.csr'), '-subj', '/CN=hook']);
    await openssl(['x509', '-req', '-in', join(dir, 'hook.csr'), '-CA', ca.crt, '-CAkey', ca.key,
                   '-CAcreateserial', '-out', join(dir, 'hook.crt'), '-days', '1',
                   '-extfile', join(dir, 'hook.ext')]);
    // The policy: no namespace whose name starts with "denied-".
    hook = https.createServer({ key: readFileSync(join(dir, 'hook.key')), cert: readFileSync(join(dir, 'hook.crt')) },
                              (req, res) => {
        let body = '';
        req.on('data', (c) => { body += c; });
        req.on('end', () => {
            const review = JSON.parse(body).request;
            const name = review.object?.metadata?.name ?? '';
            reviews.push(name);
            const denied = name.startsWith('denied-');
            res.writeHead(200, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
                                     response: { uid: review.uid, allowed: !denied,
                                                 ...(denied ? { status: { code: 403, message: 'policy says no' } } : {}) } }));
        });
    });
    await new Promise((resolve) => hook.listen(0, '127.0.0.1', resolve));

    b = await startBackend({ args: ['--webhook-allowlist', '10.9.9.9/32'] });
    const vwc = await adminFetch(b, 'POST', '/admin/v1/cluster/k8s/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
        apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'namespace-policy' },
        webhooks: [{ name: 'namespaces.policy.gatehouse.test', sideEffects: 'None', admissionReviewVersions: ['v1'],
                     failurePolicy: 'Ignore', timeoutSeconds: 3,
                     clientConfig: { url: `https://hook.gatehouse.test:${hook.address().port}/validate`,
                                     caBundle: readFileSync(ca.crt).toString('base64') },
                     rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }] }],
    });
    assert.equal(vwc.status, 201, vwc.text);
});

after(async () => {
    // The servers go whatever the backend's exit says: left open, they would keep this file's
    // process alive until ctest's timeout and hide the failure behind it.
    try {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    } finally {
        hook?.close();
        hook?.closeAllConnections?.();
        dns?.close();
    }
});

const createNamespace = (name) => adminFetch(b, 'POST', '/admin/v1/cluster/k8s/api/v1/namespaces',
                                             { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

test('callback names that never resolve: 4 lookups a customer, no thread each; another customer\'s name and a fail-open admission webhook are looked up meanwhile', async () => {
    // No namespace is created before the flood: the webhook's name is looked up during it.
    const customers = [];
    for (let i = 1; i <= 12; ++i) {
        const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: `flooder ${i}` });
        assert.equal(c.status, 201, c.text);
        customers.push(c.json.customer.id);
    }
    const latecomer = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'latecomer' });
    assert.equal(latecomer.status, 201, latecomer.text);
    const orders = (id) => `${b.serviceUrl}/v1/customers/${id}/orders`;
    // Twelve customers, six names each: 48 lookups wait at the silent DNS server at once, more
    // than Qt's lookup pool had threads (20) and than the intake took when lookups held
    // threads (16, which four customers filled).
    const flood = customers.map((id, c) => Promise.all(Array.from({ length: 6 }, (_, i) =>
        request(orders(id), 'POST', { orderStatusCallbackUrl: `http://slow-${c}-${i}.flood.gatehouse.test/cb` }))));
    const flooded = () => [...queried].filter((n) => n.includes('.flood.')).length;
    await waitFor(() => flooded() >= 48 || null, { message: 'forty-eight lookups at the silent DNS server' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(flooded(), 48, [...queried].join(' '));

    // Another customer's name is looked up at once (the DNS server answers it: 10.9.9.9, on
    // the allowlist) and its order taken, long before the flood's lookups give up (9 s).
    answerOnce.set('late.gatehouse.test', new Set());
    const asked = Date.now();
    const late = await request(orders(latecomer.json.customer.id), 'POST',
                               { orderStatusCallbackUrl: 'http://late.gatehouse.test:9/cb' });
    assert.equal(late.status, 201, late.text);
    assert.ok(Date.now() - asked < 5000, `answered after ${Date.now() - asked} ms`);
    assert.ok(queried.has('late.gatehouse.test'));
    // Its next order with that name takes the answer of a minute ago: the DNS server, which
    // answers a name once only, is not asked again (else this would wait 9 s and be refused).
    const again = await request(orders(latecomer.json.customer.id), 'POST',
                                { orderStatusCallbackUrl: 'http://late.gatehouse.test:9/again' });
    assert.equal(again.status, 201, again.text);
    assert.ok(Date.now() - asked < 5000, `answered after ${Date.now() - asked} ms`);

    // The webhook's own lookup (in /etc/hosts) is not queued behind them: the policy is asked.
    const during = await createNamespace('denied-during-flood');
    assert.equal(during.status, 403, during.text);
    assert.match(during.json.message, /admission webhook "namespaces\.policy\.gatehouse\.test" denied the request: policy says no/);
    assert.ok(reviews.includes('denied-during-flood'), JSON.stringify(reviews));
    const allowed = await createNamespace('allowed-during-flood');
    assert.equal(allowed.status, 201, allowed.text);

    const answered = await Promise.all(flood);
    for (const [c, answers] of answered.entries()) {
        const busy = answers.filter((r) => r.status === 503);
        const unresolved = answers.filter((r) => r.status === 400);
        assert.equal(busy.length + unresolved.length, 6, JSON.stringify(answers.map((r) => r.status)));
        assert.equal(unresolved.length, 4, `flooder ${c + 1}: four lookups at once`);
        for (const r of busy) {
            assert.equal(r.headers['retry-after'], '1');
            assert.match(r.headers['content-type'], /application\/problem\+json/);
            assert.equal(r.json.code, 'callback-lookups-busy', r.text);
            assert.equal(r.json.detail, 'too many of this customer\'s callback host names are being looked up; try again in a second');
        }
        for (const r of unresolved)
            assert.match(r.json.errors[0].message, /^slow-\d+-\d+\.flood\.gatehouse\.test does not resolve to a public address$/);
        const stored = await adminFetch(b, 'GET', `/admin/v1/orders?customerId=${customers[c]}`);
        assert.deepEqual(stored.json.items, [], 'no order stored');
    }
    assert.equal([...queried].filter((n) => n === 'hook.gatehouse.test').length, 0,
                 'the webhook was found in /etc/hosts');
});

test('a callback name that does not exist is kept a minute, as a name that resolves is: the order placer cannot tell "does not exist" from "not public" by how fast the answer comes again', async () => {
    const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'prober' });
    assert.equal(c.status, 201, c.text);
    const orders = `${b.serviceUrl}/v1/customers/${c.json.customer.id}/orders`;
    const name = 'nowhere.gatehouse.test';
    nxdomain.add(name);
    const place = async (attempt) => {
        const r = await request(orders, 'POST', { orderStatusCallbackUrl: `http://${name}/cb-${attempt}` });
        assert.equal(r.status, 400, r.text);
        assert.equal(r.json.errors[0].message, `${name} does not resolve to a public address`, r.text);
    };
    await place(1);
    // Asked once (A and AAAA), then answered from the cache: the next orders send no query.
    const first = asked.get(name);
    assert.ok(first >= 1, 'the DNS server was asked');
    for (const attempt of [2, 3, 4])
        await place(attempt);
    assert.equal(asked.get(name), first, `queries for ${name}: ${asked.get(name)} after ${first}`);
    const stored = await adminFetch(b, 'GET', `/admin/v1/orders?customerId=${c.json.customer.id}`);
    assert.deepEqual(stored.json.items, [], 'no order stored');
});

test('a proxy named in the environment does not carry the callbacks: they go to the address that was checked', async () => {
    // A proxy that counts every connection (and answers none), and a receiver on 10.9.9.9, an
    // address that is not loopback (Qt never proxies loopback).
    const proxied = [];
    const proxy = net.createServer((s) => { proxied.push(s.remoteAddress); s.destroy(); });
    await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const received = [];
    const receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => { body += c; });
        req.on('end', () => { received.push(JSON.parse(body)); res.writeHead(204); res.end(); });
    });
    await new Promise((resolve) => receiver.listen(0, '10.9.9.9', resolve));
    const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
    const p = await startBackend({ args: ['--webhook-allowlist', '10.9.9.9/32'],
                                   env: { http_proxy: proxyUrl, HTTP_PROXY: proxyUrl, https_proxy: proxyUrl,
                                          all_proxy: proxyUrl, no_proxy: '' } });
    try {
        const customer = await adminFetch(p, 'POST', '/admin/v1/customers', { name: 'behind a proxy' });
        assert.equal(customer.status, 201, customer.text);
        const order = await request(`${p.serviceUrl}/v1/customers/${customer.json.customer.id}/orders`, 'POST', {
            orderStatusCallbackUrl: `http://10.9.9.9:${receiver.address().port}/cb` });
        assert.equal(order.status, 201, order.text);
        // Every status change of the order reaches the receiver itself.
        await waitFor(() => received.some((e) => e.orderStatus === 'ALLOCATED') || null,
                      { message: 'the callbacks at the receiver' });
        assert.deepEqual(received.map((e) => e.orderStatus),
                         ['NEW', 'VALIDATION_PENDING', 'VALIDATED', 'ALLOCATION_PENDING', 'ALLOCATED']);
        assert.ok(received.every((e) => e.orderId === order.json.id), JSON.stringify(received));
        assert.deepEqual(proxied, [], 'no connection through the proxy');
    } finally {
        assert.equal(await p.stop(), 0, p.stderr);
        receiver.close();
        proxy.close();
    }
});

test('delivery lookups that never answer hold up only their customer: two at once', async () => {
    // A receiver on 10.9.9.9 (allowlisted), named in /etc/hosts as good.gatehouse.test, and by
    // the DNS server for the slow customer's names: once only, for the order's own check.
    const received = [];
    const receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => { body += c; });
        req.on('end', () => { received.push({ host: req.headers.host, ...JSON.parse(body) }); res.writeHead(204); res.end(); });
    });
    await new Promise((resolve) => receiver.listen(0, '10.9.9.9', resolve));
    const port = receiver.address().port;
    writeFileSync('/etc/hosts', `${readFileSync('/etc/hosts', 'utf8')}10.9.9.9 good.gatehouse.test\n`);
    const p = await startBackend({ args: ['--webhook-allowlist', '10.9.9.9/32'] });
    try {
        const customer = async (name) => {
            const c = await adminFetch(p, 'POST', '/admin/v1/customers', { name });
            assert.equal(c.status, 201, c.text);
            return `${p.serviceUrl}/v1/customers/${c.json.customer.id}/orders`;
        };
        const slow = await customer('slow resolver');
        const good = await customer('good resolver');
        // More names than Qt's lookup pool has threads (20): on such a pool they would hold up
        // every other lookup in the process for as long as they wait.
        const names = Array.from({ length: 25 }, (_, i) => `d${i}.once.gatehouse.test`);
        for (const n of names)
            answerOnce.set(n, new Set());
        for (const n of names) {
            const r = await request(slow, 'POST', { orderStatusCallbackUrl: `http://${n}:${port}/cb` });
            assert.equal(r.status, 201, r.text);
        }
        // (The first test's latecomer, whose deliveries ask for its name again, is not counted.)
        const slowAsked = () => [...reasked].filter((n) => n.endsWith('.once.gatehouse.test'));
        await waitFor(() => slowAsked().length >= 2 || null, { message: 'two delivery lookups at the silent DNS server' });
        // The other customer's callbacks go out meanwhile, long before those lookups time out.
        const order = await request(good, 'POST', { orderStatusCallbackUrl: `http://good.gatehouse.test:${port}/cb` });
        assert.equal(order.status, 201, order.text);
        await waitFor(() => received.some((e) => e.orderId === order.json.id && e.orderStatus === 'ALLOCATED') || null,
                      { timeoutMs: 5000, message: 'the other customer\'s callbacks, within 5 s (the stuck lookups take 9 s)' });
        assert.deepEqual(received.filter((e) => e.orderId === order.json.id).map((e) => e.orderStatus),
                         ['NEW', 'VALIDATION_PENDING', 'VALIDATED', 'ALLOCATION_PENDING', 'ALLOCATED']);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assert.equal(slowAsked().length, 2, `the slow customer's lookups at once: ${slowAsked().join(' ')}`);
        assert.deepEqual(received.filter((e) => e.host !== `good.gatehouse.test:${port}`), [], 'nothing reached the slow names');
    } finally {
        assert.equal(await p.stop(), 0, p.stderr);
        receiver.close();
    }
});

test('a resolv.conf that changes is read again: the next lookups go to the DNS server it names now', async () => {
    // A second DNS server on 127.0.0.2, which answers moved.gatehouse.test (10.9.9.9, on the
    // allowlist); the first one never answers that name.
    const second = dgram.createSocket('udp4');
    const askedSecond = [];
    second.on('message', (msg, from) => {
        const end = questionEnd(msg);
        askedSecond.push(qname(msg));
        second.send(answer(msg, end, msg.readUInt16BE(end - 4)), from.port, from.address);
    });
    await new Promise((resolve) => second.bind(53, '127.0.0.2', resolve));
    const conf = readFileSync('/etc/resolv.conf', 'utf8');
    try {
        const c = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'moved network' });
        assert.equal(c.status, 201, c.text);
        const orders = `${b.serviceUrl}/v1/customers/${c.json.customer.id}/orders`;
        // A lookup now opens the resolver's channel with the old configuration.
        await request(orders, 'POST', { orderStatusCallbackUrl: 'http://hook.gatehouse.test/cb' });
        writeFileSync('/etc/resolv.conf', 'nameserver 127.0.0.2\noptions timeout:10 attempts:1\n');
        await new Promise((resolve) => setTimeout(resolve, 1500)); // looked at once a second
        const started = Date.now();
        const moved = await request(orders, 'POST', { orderStatusCallbackUrl: 'http://moved.gatehouse.test:9/cb' });
        assert.equal(moved.status, 201, moved.text);
        assert.ok(Date.now() - started < 5000, `answered after ${Date.now() - started} ms`);
        assert.ok(askedSecond.includes('moved.gatehouse.test'), askedSecond.join(' '));
        assert.ok(!queried.has('moved.gatehouse.test'), 'the old server was not asked');
    } finally {
        writeFileSync('/etc/resolv.conf', conf);
        second.close();
    }
});
