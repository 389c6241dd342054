// Name lookups that never answer (a DNS server that drops every query) must not reach from one
// service into another: an unauthenticated order placer choosing callback host names that
// resolve slowly could fill Qt's process-wide lookup pool (20 threads) and hold up a cluster
// admission webhook's lookup until its deadline — under failurePolicy Ignore the write then
// went ahead without the policy. Runs in a network namespace of its own (netns/run.sh): only
// loopback, resolv.conf naming 127.0.0.1:53 (this test's silent DNS server, 10 s timeout), and
// /etc/hosts naming hook.gatehouse.test, the webhook. The second test: a proxy named in the
// environment (http_proxy) is not used for callbacks.
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
const reviews = []; // namespaces the webhook was asked about

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

before(async () => {
    assert.match(readFileSync('/etc/resolv.conf', 'utf8'), /nameserver 127\.0\.0\.1/,
                 'run through tests/e2e/netns/run.sh (a network namespace of its own)');
    dns = dgram.createSocket('udp4');
    dns.on('message', (msg) => queried.add(qname(msg))); // never answered
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

    b = await startBackend();
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
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
    hook?.close();
    dns?.close();
});

const createNamespace = (name) => adminFetch(b, 'POST', '/admin/v1/cluster/k8s/api/v1/namespaces',
                                             { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

test('callback names that never resolve neither skip a fail-open admission webhook nor take more than 16 lookups', async () => {
    // No namespace is created before the flood: Qt's lookup cache would then know the webhook's
    // name for a minute, and the flood would not have to wait for it to be looked up.
    const customer = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'flooder' });
    assert.equal(customer.status, 201, customer.text);
    const orders = `${b.serviceUrl}/v1/customers/${customer.json.customer.id}/orders`;
    // More than Qt's pool has threads (20): without a cap every one of them would be stuck.
    const flood = Array.from({ length: 40 }, (_, i) => request(orders, 'POST', {
        orderStatusCallbackUrl: `http://slow-${i}.flood.gatehouse.test/cb` }));
    // Sixteen lookups are stuck in the resolver now; the others were turned away at once.
    await waitFor(() => [...queried].filter((n) => n.includes('.flood.')).length >= 16 || null,
                  { message: 'sixteen lookups at the silent DNS server' });
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // The webhook's own lookup (in /etc/hosts) is not queued behind them: the policy is asked.
    const during = await createNamespace('denied-during-flood');
    assert.equal(during.status, 403, during.text);
    assert.match(during.json.message, /admission webhook "namespaces\.policy\.gatehouse\.test" denied the request: policy says no/);
    assert.ok(reviews.includes('denied-during-flood'), JSON.stringify(reviews));
    const allowed = await createNamespace('allowed-during-flood');
    assert.equal(allowed.status, 201, allowed.text);

    const answers = await Promise.all(flood);
    const busy = answers.filter((r) => r.status === 503);
    const unresolved = answers.filter((r) => r.status === 400);
    assert.equal(busy.length + unresolved.length, 40, JSON.stringify(answers.map((r) => r.status)));
    assert.equal(unresolved.length, 16, 'sixteen lookups at once');
    for (const r of busy) {
        assert.equal(r.headers['retry-after'], '1');
        assert.match(r.headers['content-type'], /application\/problem\+json/);
        assert.equal(r.json.code, 'callback-lookups-busy', r.text);
    }
    for (const r of unresolved)
        assert.match(r.json.errors[0].message, /^slow-\d+\.flood\.gatehouse\.test does not resolve to a public address$/);
    const stored = await adminFetch(b, 'GET', `/admin/v1/orders?customerId=${customer.json.customer.id}`);
    assert.deepEqual(stored.json.items, [], 'no order stored');
    assert.equal([...queried].filter((n) => n === 'hook.gatehouse.test').length, 0,
                 'the webhook was found in /etc/hosts');
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
