// Attacks on the Kubernetes-compatible cluster API (docs/cluster.md): client certificates that
// must not authenticate (foreign CA, expired, not yet valid, wrong usage), NodeRestriction, RBAC
// escalation, anonymous access, forged and orphaned service-account tokens, forged OIDC tokens.
// Each answer is the exact Kubernetes Status, and the object attacked is re-read through the
// admin passthrough (adminKube) to show nothing changed.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import https from 'node:https';
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import * as jose from 'jose';

import { startBackend, adminFetch, request, waitFor } from '../lib/backend.mjs';
import {
    tempDir, run, issueKubeconfig, kubeRequest, adminKube, statusBody, compact, foreignCertificate, protobuf, clusterCa,
    kubectl, writeKubeconfig, openWatch,
} from '../lib/cluster.mjs';
import { attack, nowSeconds } from './lib/attack.mjs';

const SA_ISSUER = 'https://kubernetes.default.svc.cluster.local';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const RBAC = 'rbac.authorization.k8s.io';

const unauthorized = statusBody({ message: 'Unauthorized', reason: 'Unauthorized', code: 401 });

// The exact Status bytes (compact JSON + "\n": the User-Agent is not curl's).
function assertStatus(r, expected, what) {
    assert.equal(r.status, expected.code, `${what}: ${r.text}`);
    assert.match(r.headers['content-type'] ?? '', /^application\/json/, what);
    assert.equal(r.text, compact(expected), what);
}

const forbidden = (message, details) => statusBody({ message, reason: 'Forbidden', details, code: 403 });

describe('cluster: certificates, NodeRestriction, RBAC escalation, anonymous, bearer tokens', () => {
    let b;
    let dir;
    let node1; // issued kubeconfig of node-1 (system:node:node-1)
    let mallory; // a user who may write RBAC objects but holds little else

    before(async () => {
        dir = tempDir('gatehouse-attacks-cluster-');
        b = await startBackend();
        node1 = await issueKubeconfig(b, { kind: 'node', name: 'node-1' });
        mallory = await issueKubeconfig(b, { kind: 'user', name: 'mallory', groups: ['rbac-editors'] });
        const imported = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: rbac-editor
rules:
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["roles", "rolebindings", "clusterroles", "clusterrolebindings"]
  verbs: ["get", "list", "create", "update", "patch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: rbac-editors
subjects:
- kind: Group
  name: rbac-editors
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: rbac-editor
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: default
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list"]
`, { 'Content-Type': 'application/yaml' });
        assert.equal(imported.status, 200, imported.text);
        assert.ok(imported.json.results.every((r) => r.code === 201), imported.text);
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    // --- helpers --------------------------------------------------------------------------------

    async function read(path) {
        const r = await adminKube(b, 'GET', path);
        assert.equal(r.status, 200, `${path}: ${r.text}`);
        return r.json;
    }

    async function assertAbsent(path, what) {
        const r = await adminKube(b, 'GET', path);
        assert.equal(r.status, 404, `${what}: ${path} must not exist: ${r.text}`);
    }

    // The object at `path` is exactly what it was (resourceVersion included).
    async function assertUnchanged(path, before, what) {
        assert.deepEqual(await read(path), before, `${what}: ${path} unchanged`);
    }

    // A write with these credentials (a label on node-3): 401 Unauthorized, node-3 unchanged.
    async function assertWriteUnauthorized(opts, what) {
        const before3 = await read('/api/v1/nodes/node-3');
        const r = await kubeRequest(b, 'PATCH', '/api/v1/nodes/node-3', {
            ...opts, body: { metadata: { labels: { pwned: 'yes' } } }, headers: { ...MERGE, ...(opts.headers ?? {}) } });
        assertStatus(r, unauthorized, `${what}: write`);
        await assertUnchanged('/api/v1/nodes/node-3', before3, what);
    }

    // A certificate for /O=<org>/CN=<cn> signed by the backend's own cluster CA (read from
    // <dataDir>/pki/ca.key: it simulates a stale or misissued certificate), with the validity
    // window and extended key usage given. Resolves to {certificatePem, keyPem}.
    let serial = 1;
    async function caSigned(name, { start, end, eku = 'clientAuth', org = 'system:masters', cn = name } = {}) {
        const d = join(dir, `ca-${name}`);
        mkdirSync(d);
        writeFileSync(join(d, 'index.txt'), '');
        writeFileSync(join(d, 'serial'), `${(serial++).toString(16).padStart(2, '0')}\n`);
        writeFileSync(join(d, 'ca.cnf'), [
            '[ca]', 'default_ca = d', '[d]', `database = ${d}/index.txt`, `new_certs_dir = ${d}`, `serial = ${d}/serial`,
            'default_md = sha256', 'policy = p', 'unique_subject = no', 'copy_extensions = none', 'x509_extensions = ext',
            '[p]', 'organizationName = optional', 'commonName = supplied',
            '[ext]', 'basicConstraints = critical,CA:FALSE', 'keyUsage = critical,digitalSignature,keyEncipherment',
            `extendedKeyUsage = ${eku}`, ''].join('\n'));
        const key = join(d, 'client.key');
        const csr = join(d, 'client.csr');
        const crt = join(d, 'client.crt');
        let r = await run('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                                      '-keyout', key, '-out', csr, '-subj', `/O=${org}/CN=${cn}`]);
        assert.equal(r.code, 0, r.stderr);
        const pki = join(b.dataDir, 'pki');
        r = await run('openssl', ['ca', '-batch', '-config', join(d, 'ca.cnf'), '-cert', join(pki, 'ca.crt'),
                                  '-keyfile', join(pki, 'ca.key'), '-in', csr, '-out', crt, '-notext',
                                  '-startdate', start, '-enddate', end]);
        assert.equal(r.code, 0, r.stderr);
        return { certificatePem: readFileSync(crt, 'utf8'), keyPem: readFileSync(key, 'utf8') };
    }

    // openssl's YYYYMMDDHHMMSSZ, `days` from now.
    const asn1Time = (days) => `${new Date(Date.now() + days * 86400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

    // An admission webhook on 127.0.0.1 with a certificate of its own (self-signed for
    // IP:127.0.0.1): answer(request) resolves to the AdmissionReview's response fields (uid and
    // allowed are filled in unless given). Resolves to {server, url, caBundle}; close the server.
    async function webhookServer(name, answer) {
        const key = join(dir, `${name}.key`);
        const crt = join(dir, `${name}.crt`);
        const made = await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                                           '-keyout', key, '-out', crt, '-days', '1', '-subj', `/CN=${name}`,
                                           '-addext', 'subjectAltName=IP:127.0.0.1']);
        assert.equal(made.code, 0, made.stderr);
        const server = https.createServer({ key: readFileSync(key), cert: readFileSync(crt) }, (req, res) => {
            let body = '';
            req.on('data', (c) => { body += c; });
            req.on('end', async () => {
                const { request } = JSON.parse(body);
                const response = { uid: request.uid, allowed: true, ...(await answer(request)) };
                res.writeHead(200, { 'Content-Type': 'application/json' });
                res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
            });
        });
        await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
        return { server, url: `https://127.0.0.1:${server.address().port}/`, caBundle: readFileSync(crt).toString('base64') };
    }

    // --- client certificates ----------------------------------------------------------------------

    attack('cluster: anonymous access turned off — a watch an anonymous client opened before ends at once, not at its timeout', async () => {
        // An operator let anonymous clients watch namespaces, then turns anonymous access off.
        const imported = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: anonymous-namespace-watcher
rules:
- apiGroups: [""]
  resources: ["namespaces"]
  verbs: ["list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: anonymous-namespace-watcher
subjects:
- kind: Group
  name: system:unauthenticated
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: anonymous-namespace-watcher
  apiGroup: rbac.authorization.k8s.io
`, { 'Content-Type': 'application/yaml' });
        assert.equal(imported.status, 200, imported.text);
        let started;
        const firstEvent = new Promise((resolve) => { started = resolve; });
        let text = '';
        const ended = new Promise((resolve, reject) => {
            const req = https.request({ host: '127.0.0.1', port: b.ports.cluster, method: 'GET', agent: false,
                                        path: '/api/v1/namespaces?watch=1&timeoutSeconds=600', ca: clusterCa(b) }, (res) => {
                assert.equal(res.statusCode, 200);
                res.on('data', (c) => { text += c.toString('utf8'); started(); });
                res.on('end', resolve);
                res.on('error', resolve);
            });
            req.on('error', reject);
            req.end();
        });
        try {
            await firstEvent;
            assert.match(text, /"type":"ADDED"/, 'the watch streams the namespaces first');
            const off = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { anonymousAuth: false });
            assert.equal(off.status, 200, off.text);
            const at = Date.now();
            const timer = new Promise((resolve) => setTimeout(() => resolve('still open'), 15_000));
            assert.notEqual(await Promise.race([ended, timer]), 'still open', 'the anonymous watch ended');
            assert.ok(Date.now() - at < 15_000);
            // With the 401 a new request gets, as its last event.
            const last = JSON.parse(text.trim().split('\n').at(-1));
            assert.deepEqual(last, { type: 'ERROR', object: JSON.parse(compact(unauthorized)) });
            // And a new one is refused.
            assert.equal((await kubeRequest(b, 'GET', '/api/v1/namespaces?watch=1&timeoutSeconds=1')).status, 401);
        } finally {
            assert.equal((await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { anonymousAuth: true })).status, 200);
            await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/clusterrolebindings/anonymous-namespace-watcher`);
            await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/clusterroles/anonymous-namespace-watcher`);
        }
    });

    // How long an open watch may run on once its rights are gone (with room for a slow machine):
    // a binding's deletion and the settings are checked at once, everything else every 5 s
    // (docs/cluster.md "Watch").
    const RECHECK_MS = 15_000;
    // The watch ended by the server within RECHECK_MS, its last event an ERROR: that Status.
    async function watchEndedWith(w, what) {
        const timer = new Promise((resolve) => setTimeout(() => resolve('still open'), RECHECK_MS));
        const outcome = await Promise.race([w.ended, timer]);
        if (outcome === 'still open')
            w.close();
        assert.notEqual(outcome, 'still open', `${what}: the watch still runs ${RECHECK_MS} ms later`);
        const last = w.events.at(-1);
        assert.equal(last?.type, 'ERROR', `${what}: ${JSON.stringify(w.events.slice(-2))}`);
        return last.object;
    }

    attack('cluster: a user\'s watch runs on after the binding that allowed it is deleted — ends with the 403 a new request gets, other watches go on', async () => {
        const watcher = await issueKubeconfig(b, { kind: 'user', name: 'ns-watcher' });
        const imported = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ns-watcher
rules:
- apiGroups: [""]
  resources: ["namespaces"]
  verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: ns-watcher
subjects:
- kind: User
  name: ns-watcher
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: ns-watcher
  apiGroup: rbac.authorization.k8s.io
`, { 'Content-Type': 'application/yaml' });
        assert.equal(imported.status, 200, imported.text);
        const w = await openWatch(b, '/api/v1/namespaces?watch=1', { creds: watcher });
        assert.equal(w.status, 200);
        // A watch whose (decoded) path holds a line break: its end is logged, but never as a
        // line the client wrote.
        const forger = await openWatch(b, '/api/v1/watch/namespaces/x%0Aforged%20log%20line', { creds: watcher });
        assert.equal(forger.status, 200);
        // node-1's watch of itself (the Node authorizer, no binding) is not the one taken away.
        const own = await openWatch(b, '/api/v1/nodes?watch=1&fieldSelector=metadata.name%3Dnode-1', { creds: node1 });
        assert.equal(own.status, 200);
        try {
            await waitFor(() => w.events.length > 0 && own.events.length > 0, { message: 'the first events' });
            assert.equal(w.events[0].type, 'ADDED');
            const del = await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/clusterrolebindings/ns-watcher`);
            assert.equal(del.status, 200, del.text);
            const status = await watchEndedWith(w, 'binding deleted');
            await watchEndedWith(forger, 'binding deleted (the forger)');
            await waitFor(() => b.stderr.includes('x%0Aforged log line'), { message: 'the end of the forger\'s watch logged' });
            assert.ok(!b.stderr.split('\n').some((l) => l.startsWith('forged log line')), 'a log line of the client\'s');
            const fresh = await kubeRequest(b, 'GET', '/api/v1/namespaces?watch=1', { creds: watcher });
            assert.equal(fresh.status, 403, fresh.text);
            assert.deepEqual(status, fresh.json, 'the Status a new watch gets');
            assert.match(status.message, /^namespaces is forbidden: User "ns-watcher" cannot watch resource "namespaces"/);
            // The watch still allowed goes on.
            const label = await adminKube(b, 'PATCH', '/api/v1/nodes/node-1', { metadata: { labels: { 'watch-check': 'yes' } } }, MERGE);
            assert.equal(label.status, 200, label.text);
            await waitFor(() => own.events.some((e) => e.type === 'MODIFIED' && e.object.metadata.labels?.['watch-check'] === 'yes'),
                          { message: 'node-1 still sees its own changes' });
            assert.ok(own.events.every((e) => e.type !== 'ERROR'), JSON.stringify(own.events.at(-1)));
        } finally {
            w.close();
            forger.close();
            own.close();
            await adminKube(b, 'PATCH', '/api/v1/nodes/node-1', { metadata: { labels: { 'watch-check': null } } }, MERGE);
            await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/clusterroles/ns-watcher`);
        }
    });

    attack('cluster: a foreign-CA certificate claiming O=system:masters → 401 although anonymous access is on', async () => {
        const settings = await adminFetch(b, 'GET', '/admin/v1/cluster/settings');
        assert.equal(settings.json.anonymousAuth, true, 'anonymous access is on');
        const foreign = await foreignCertificate(dir, 'mallory-root', 'system:masters');
        for (const path of ['/api/v1/nodes', '/version', '/'])
            assertStatus(await kubeRequest(b, 'GET', path, { creds: foreign }), unauthorized, `GET ${path}`);
        await assertWriteUnauthorized({ creds: foreign }, 'foreign CA');
    });

    // The identity a handshake verified is only good until the certificate expires: a client
    // that keeps its connection alive (a request a minute) must not keep an expired
    // system:masters certificate working (nor one an admin token's expiry capped).
    attack('cluster: a client certificate that expires while its kept-alive connection stays open → 401 on that connection', async () => {
        const expiresAt = Math.floor(Date.now() / 1000) * 1000 + 4000;
        const asn1At = (ms) => `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
        const brief = await caSigned('brief', { start: asn1Time(-1), end: asn1At(expiresAt) });
        const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: clusterCa(b),
                                        cert: brief.certificatePem, key: brief.keyPem });
        const get = (path, method = 'GET', body) => new Promise((resolve, reject) => {
            const req = https.request({ host: '127.0.0.1', port: b.ports.cluster, method, path, agent,
                                        headers: body ? { 'Content-Type': 'application/merge-patch+json' } : {} }, (res) => {
                let text = '';
                res.setEncoding('utf8');
                res.on('data', (c) => { text += c; });
                res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text, reused: req.reusedSocket }));
            });
            req.on('error', reject);
            req.end(body ? JSON.stringify(body) : undefined);
        });
        try {
            const first = await get('/api/v1/nodes');
            assert.equal(first.status, 200, `valid still: ${first.text}`);
            let r = first;
            while (Date.now() < expiresAt + 8000) {
                await new Promise((resolve) => setTimeout(resolve, 400));
                r = await get('/api/v1/nodes');
                assert.ok(r.reused, 'the same connection throughout');
                if (r.status !== 200)
                    break;
                assert.ok(Date.now() < expiresAt + 3000, `still answered as system:masters ${Date.now() - expiresAt} ms after the certificate expired`);
            }
            assertStatus(r, unauthorized, 'expired on a kept-alive connection');
            const before3 = await read('/api/v1/nodes/node-3');
            const write = await get('/api/v1/nodes/node-3', 'PATCH', { metadata: { labels: { pwned: 'yes' } } });
            assert.ok(write.reused, 'the same connection');
            assertStatus(write, unauthorized, 'write on a kept-alive connection');
            await assertUnchanged('/api/v1/nodes/node-3', before3, 'expired on a kept-alive connection');
        } finally {
            agent.destroy();
        }
    });

    // Before authentication, on the thread that serves every listener: a stranger's chain of
    // self-made CAs had every signature in it checked (with 16384-bit keys, 18 times a
    // handshake's CPU), up to OpenSSL's 100 KiB. Now the chain is at most 64 KiB (as Go reads a
    // handshake message) and verification stops at its first error.
    attack('cluster: a client certificate chain of 64 KiB and more (self-made CAs) → the handshake is refused; a smaller foreign chain → 401; other clients answered', async () => {
        const chainDir = join(dir, 'long-chain');
        mkdirSync(chainDir);
        const pems = [];
        for (let i = 0; i < 10; ++i) {
            const key = join(chainDir, `ca${i}.key`);
            const crt = join(chainDir, `ca${i}.crt`);
            const made = await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                                               '-keyout', key, '-out', crt, '-days', '1', '-subj', `/CN=junk-ca-${i}`,
                                               '-addext', 'basicConstraints=critical,CA:TRUE',
                                               '-addext', `nsComment=${'x'.repeat(7000)}`]);
            assert.equal(made.code, 0, made.stderr);
            pems.push(readFileSync(crt, 'utf8'));
        }
        const leaf = await foreignCertificate(dir, 'chained', 'system:masters');
        const settled = (p) => p.then((r) => ({ status: r.status, text: r.text }), (e) => ({ error: e.code ?? e.message }));
        // 10 × ~7.5 KiB: past the limit, refused during the handshake.
        const long = await settled(kubeRequest(b, 'GET', '/api/v1/nodes', {
            creds: { certificatePem: leaf.certificatePem + pems.join(''), keyPem: leaf.keyPem } }));
        assert.ok(long.error, `a 75 KiB chain must not complete a handshake: ${JSON.stringify(long)}`);
        // Three of them: a foreign chain like any other, answered 401.
        const short = await kubeRequest(b, 'GET', '/api/v1/nodes', {
            creds: { certificatePem: leaf.certificatePem + pems.slice(0, 3).join(''), keyPem: leaf.keyPem } });
        assertStatus(short, unauthorized, 'a short foreign chain');
        const root = await issueKubeconfig(b, { kind: 'user', name: 'after-chains', groups: ['system:masters'] });
        assert.equal((await kubeRequest(b, 'GET', '/api/v1/nodes/node-1', { creds: root })).status, 200, 'still serving');
    });

    attack('cluster: an expired client certificate of the cluster CA (O=system:masters) → 401', async () => {
        const stale = await caSigned('expired', { start: asn1Time(-30), end: asn1Time(-1) });
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', { creds: stale }), unauthorized, 'expired');
        await assertWriteUnauthorized({ creds: stale }, 'expired');
    });

    attack('cluster: a client certificate of the cluster CA not valid yet (O=system:masters) → 401', async () => {
        const early = await caSigned('future', { start: asn1Time(1), end: asn1Time(30) });
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', { creds: early }), unauthorized, 'not yet valid');
        await assertWriteUnauthorized({ creds: early }, 'not yet valid');
    });

    attack('cluster: a cluster-CA certificate without clientAuth usage (serverAuth only, O=system:masters) → 401', async () => {
        const server = await caSigned('server-usage', { start: asn1Time(-1), end: asn1Time(30), eku: 'serverAuth' });
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', { creds: server }), unauthorized, 'serverAuth only');
        await assertWriteUnauthorized({ creds: server }, 'serverAuth only');
    });

    // --- NodeRestriction and the Node authorizer ----------------------------------------------------

    const asNode = (method, path, body, headers = MERGE) => kubeRequest(b, method, path, { creds: node1, body, headers });

    attack('cluster: Node authorizer — node-1 watches node-2 or every node → 403; its own watch sees only itself', async () => {
        const other = await kubeRequest(b, 'GET', '/api/v1/watch/nodes/node-2?timeoutSeconds=1', { creds: node1 });
        assertStatus(other, forbidden('nodes "node-2" is forbidden: User "system:node:node-1" cannot watch resource "nodes" in ' +
                                      'API group "" at the cluster scope: node \'node-1\' cannot read \'node-2\', only its own Node object',
                                      { name: 'node-2', kind: 'nodes' }), 'watch node-2 by path');
        const bySelector = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&fieldSelector=metadata.name%3Dnode-2&timeoutSeconds=1',
                                             { creds: node1 });
        assert.equal(bySelector.status, 403, bySelector.text);
        const all = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&timeoutSeconds=1', { creds: node1 });
        assert.equal(all.status, 403, all.text);
        // Its own node, by selector: a stream of that node only, while node-2 changes too.
        const own = kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&fieldSelector=metadata.name%3Dnode-1&timeoutSeconds=2', { creds: node1 });
        const r = await adminKube(b, 'PATCH', '/api/v1/nodes/node-2', { metadata: { annotations: { 'example.com/touched': 'yes' } } }, MERGE);
        assert.equal(r.status, 200, r.text);
        const seen = await own;
        assert.equal(seen.status, 200, seen.text);
        const names = seen.text.trim().split('\n').map((l) => JSON.parse(l).object.metadata.name);
        assert.deepEqual([...new Set(names)], ['node-1'], seen.text);
    });

    attack('cluster: NodeRestriction — node-1 labels node-2 → 403, node-2 unchanged', async () => {
        const before2 = await read('/api/v1/nodes/node-2');
        const r = await asNode('PATCH', '/api/v1/nodes/node-2', { metadata: { labels: { 'example.com/hijacked': 'yes' } } });
        assertStatus(r, forbidden('nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"',
                                  { name: 'node-2', kind: 'nodes' }), 'label another node');
        await assertUnchanged('/api/v1/nodes/node-2', before2, 'label another node');
    });

    attack('cluster: NodeRestriction — node-1 sets a node-restriction.kubernetes.io/ label on itself → 403', async () => {
        const before1 = await read('/api/v1/nodes/node-1');
        const r = await asNode('PATCH', '/api/v1/nodes/node-1',
                               { metadata: { labels: { 'node-restriction.kubernetes.io/secure-zone': 'true' } } });
        assertStatus(r, forbidden('nodes "node-1" is forbidden: is not allowed to modify labels: ' +
                                  'node-restriction.kubernetes.io/secure-zone',
                                  { name: 'node-1', kind: 'nodes' }), 'restricted label');
        await assertUnchanged('/api/v1/nodes/node-1', before1, 'restricted label');
    });

    attack('cluster: NodeRestriction — node-1 removes a NoSchedule taint from itself → 403, the taint stays', async () => {
        const set = await adminKube(b, 'PATCH', '/api/v1/nodes/node-1',
                                    { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } }, MERGE);
        assert.equal(set.status, 200, set.text);
        const before1 = await read('/api/v1/nodes/node-1');
        const r = await asNode('PATCH', '/api/v1/nodes/node-1', { spec: { taints: null } });
        assertStatus(r, forbidden('nodes "node-1" is forbidden: node "node-1" is not allowed to modify taints',
                                  { name: 'node-1', kind: 'nodes' }), 'taints');
        await assertUnchanged('/api/v1/nodes/node-1', before1, 'taints');
        assert.deepEqual(before1.spec.taints, [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
    });

    attack('cluster: NodeRestriction — node-1 registers a node under another name → 403, not created', async () => {
        const r = await asNode('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-evil' } },
                               { 'Content-Type': 'application/json' });
        assertStatus(r, forbidden('nodes "node-evil" is forbidden: node "node-1" is not allowed to modify node "node-evil"',
                                  { name: 'node-evil', kind: 'nodes' }), 'another node');
        await assertAbsent('/api/v1/nodes/node-evil', 'another node');
    });

    attack('cluster: Node authorizer — node-1 deletes node-2 → 403, node-2 still there', async () => {
        const before2 = await read('/api/v1/nodes/node-2');
        const r = await asNode('DELETE', '/api/v1/nodes/node-2');
        assertStatus(r, forbidden('nodes "node-2" is forbidden: User "system:node:node-1" cannot delete resource "nodes" in ' +
                                  'API group "" at the cluster scope', { name: 'node-2', kind: 'nodes' }), 'delete');
        await assertUnchanged('/api/v1/nodes/node-2', before2, 'delete');
    });

    attack('cluster: NodeRestriction — node-1 creates an ordinary (non-mirror) pod → 403, not created', async () => {
        const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'node-evil-pod', namespace: 'default' },
                      spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } };
        const r = await asNode('POST', '/api/v1/namespaces/default/pods', pod, { 'Content-Type': 'application/json' });
        assertStatus(r, forbidden('pods "node-evil-pod" is forbidden: pod does not have "kubernetes.io/config.mirror" ' +
                                  'annotation, node "node-1" can only create mirror pods',
                                  { name: 'node-evil-pod', kind: 'pods' }), 'non-mirror pod');
        await assertAbsent('/api/v1/namespaces/default/pods/node-evil-pod', 'non-mirror pod');
    });

    attack('cluster: NodeRestriction — node-1 creates mirror pods naming secrets or configmaps indirectly (projected, env, envFrom, imagePullSecrets, CSI) → 403, none created', async () => {
        const nodeUid = (await read('/api/v1/nodes/node-1')).metadata.uid;
        const c = { name: 'c', image: 'busybox' };
        for (const [i, [spec, named]] of [
            [{ volumes: [{ name: 'v', projected: { sources: [{ secret: { name: 'db-password' } }] } }] }, 'secrets'],
            [{ volumes: [{ name: 'v', projected: { sources: [{ configMap: { name: 'settings' } }] } }] }, 'configmaps'],
            [{ containers: [{ ...c, env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db-password', key: 'p' } } }] }] }, 'secrets'],
            [{ containers: [{ ...c, envFrom: [{ configMapRef: { name: 'settings' } }] }] }, 'configmaps'],
            [{ initContainers: [{ ...c, envFrom: [{ secretRef: { name: 'db-password' } }] }] }, 'secrets'],
            [{ imagePullSecrets: [{ name: 'registry' }] }, 'secrets'],
            [{ volumes: [{ name: 'v', csi: { driver: 'x', nodePublishSecretRef: { name: 'db-password' } } }] }, 'secrets'],
        ].entries()) {
            const name = `mirror-indirect-${i}`;
            const pod = { apiVersion: 'v1', kind: 'Pod', metadata: {
                name, namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'x' },
                ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: nodeUid, controller: true }] },
                spec: { nodeName: 'node-1', containers: [c], ...spec } };
            const r = await asNode('POST', '/api/v1/namespaces/default/pods', pod, { 'Content-Type': 'application/json' });
            assertStatus(r, forbidden(`pods "${name}" is forbidden: node "node-1" can not create pods that reference ${named}`,
                                      { name, kind: 'pods' }), JSON.stringify(spec));
            await assertAbsent(`/api/v1/namespaces/default/pods/${name}`, name);
        }
    });

    attack('cluster: NodeRestriction — node-1 mints the default service account\'s token of a namespace through a mirror pod → 400, no token', async () => {
        // docs/cluster.md: nodes may be given serviceaccounts/token, as kube's kubelet role does.
        const grant = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: node-token-requester
rules:
- apiGroups: [""]
  resources: ["serviceaccounts/token"]
  verbs: ["create"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: node-token-requesters
subjects:
- kind: Group
  name: system:nodes
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: node-token-requester
  apiGroup: rbac.authorization.k8s.io
`, { 'Content-Type': 'application/yaml' });
        assert.equal(grant.status, 200, grant.text);
        try {
            const nodeUid = (await read('/api/v1/nodes/node-1')).metadata.uid;
            const mirror = { apiVersion: 'v1', kind: 'Pod', metadata: {
                name: 'mirror-no-account', namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'x' },
                ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: nodeUid, controller: true }] },
                spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } };
            const made = await asNode('POST', '/api/v1/namespaces/default/pods', mirror, { 'Content-Type': 'application/json' });
            assert.equal(made.status, 201, made.text);
            assert.equal(made.json.spec.serviceAccountName, undefined, 'a mirror pod runs as no account');
            const r = await asNode('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
                apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
                spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mirror-no-account', uid: made.json.metadata.uid } } },
            { 'Content-Type': 'application/json' });
            assertStatus(r, statusBody({ message: 'cannot bind token for serviceaccount "default" to pod running with different ' +
                                                  'serviceaccount name.', reason: 'BadRequest', code: 400 }), 'mirror pod');
            assert.ok(!/"token"/.test(r.text), 'no token');
            assert.equal((await asNode('DELETE', '/api/v1/namespaces/default/pods/mirror-no-account')).status, 200);
        } finally {
            for (const path of ['clusterrolebindings/node-token-requesters', 'clusterroles/node-token-requester'])
                assert.equal((await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/${path}`)).status, 200, path);
        }
    });

    attack('cluster: NodeRestriction — node-1 creates mirror pods with a generic ephemeral volume, a clusterTrustBundle projection or the deprecated serviceAccount field → 403, none created', async () => {
        const nodeUid = (await read('/api/v1/nodes/node-1')).metadata.uid;
        const claim = { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
        for (const [i, [spec, refused]] of [
            [{ volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: claim } }] }, 'use generic ephemeral volumes'],
            [{ volumes: [{ name: 'v', projected: { sources: [{ clusterTrustBundle: { name: 'corp-ca', path: 'ca.pem' } }] } }] },
                'reference clustertrustbundles'],
            // kube reads the deprecated field as serviceAccountName (Convert_v1_PodSpec_To_core_PodSpec).
            [{ serviceAccount: 'default' }, 'reference a service account'],
            [{ serviceAccountName: 'default' }, 'reference a service account'],
        ].entries()) {
            const name = `mirror-reach-${i}`;
            const pod = { apiVersion: 'v1', kind: 'Pod', metadata: {
                name, namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'x' },
                ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: nodeUid, controller: true }] },
                spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }], ...spec } };
            const r = await asNode('POST', '/api/v1/namespaces/default/pods', pod, { 'Content-Type': 'application/json' });
            assertStatus(r, forbidden(`pods "${name}" is forbidden: node "node-1" can not create pods that ${refused}`,
                                      { name, kind: 'pods' }), JSON.stringify(spec));
            await assertAbsent(`/api/v1/namespaces/default/pods/${name}`, name);
        }
    });

    // --- pod and node updates (kube's ValidatePodUpdate / ValidateNodeUpdate) ------------------------

    const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };
    // kube's 422 for field causes ({reason, field, message}, written in kube's key order).
    const invalid = (kind, name, causes) => statusBody({
        message: `${kind} "${name}" is invalid: ${causes.length === 1 ? `${causes[0].field}: ${causes[0].message}`
            : `[${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}]`}`,
        reason: 'Invalid',
        details: { name, kind, causes: causes.map(({ reason, message, field }) => ({ reason, message, field })) },
        code: 422 });
    const POD_SPEC_FORBIDDEN = 'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,' +
        '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing ' +
        'tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';
    const specForbidden = (name) => invalid('Pod', name, [{ reason: 'FieldValueForbidden', message: POD_SPEC_FORBIDDEN, field: 'spec' }]);

    // A user with the edit ClusterRole in team-edit (kubectl's own files, for kubectl run / patch).
    let editor;
    let editorFiles;
    async function asEditor() {
        if (editor)
            return editor;
        assert.equal((await adminKube(b, 'POST', '/api/v1/namespaces',
                                      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-edit' } })).status, 201);
        const bound = await adminKube(b, 'POST', `/apis/${RBAC}/v1/namespaces/team-edit/rolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'eddie-edit' },
            subjects: [{ kind: 'User', name: 'eddie', apiGroup: RBAC }],
            roleRef: { kind: 'ClusterRole', name: 'edit', apiGroup: RBAC } });
        assert.equal(bound.status, 201, bound.text);
        editor = await issueKubeconfig(b, { kind: 'user', name: 'eddie' });
        editorFiles = { kubeconfig: writeKubeconfig(dir, 'eddie', editor.kubeconfig), cacheDir: mkdtempSync(join(dir, 'kubecache-')) };
        return editor;
    }
    const asEddie = async (method, path, body, headers = JSON_PATCH) =>
        kubeRequest(b, method, path, { creds: await asEditor(), body, headers });

    attack('cluster: pod updates — an edit user makes its own pod privileged, host-networked, re-commanded, hostPath-mounted, moved to a node or another account → 422 as kube, the pod unchanged', async () => {
        await asEditor();
        const made = await kubectl(['run', 'p3', '--image=busybox', '--restart=Never', '-n', 'team-edit'], editorFiles);
        assert.equal(made.code, 0, made.stderr);
        const path = '/api/v1/namespaces/team-edit/pods/p3';
        const before = await read(path);
        // The reported reproduction, through kubectl.
        const privileged = [{ op: 'add', path: '/spec/containers/0/securityContext', value: { privileged: true } }];
        const patched = await kubectl(['patch', 'pod', 'p3', '-n', 'team-edit', '--type', 'json', '-p', JSON.stringify(privileged)],
                                      editorFiles);
        assert.equal(patched.code, 1, patched.stdout);
        assert.equal(patched.stderr.trim(), `The Pod "p3" is invalid: spec: ${POD_SPEC_FORBIDDEN}`);
        await assertUnchanged(path, before, 'kubectl patch');
        for (const ops of [
            privileged,
            [{ op: 'add', path: '/spec/hostNetwork', value: true }],
            [{ op: 'add', path: '/spec/hostPID', value: true }],
            [{ op: 'add', path: '/spec/containers/0/command', value: ['sh', '-c', 'cat /host/etc/shadow'] }],
            [{ op: 'add', path: '/spec/volumes', value: [{ name: 'host', hostPath: { path: '/' } }] }],
            [{ op: 'add', path: '/spec/nodeName', value: 'node-1' }],
            [{ op: 'replace', path: '/spec/serviceAccountName', value: 'builder' }],
            [{ op: 'add', path: '/spec/serviceAccount', value: 'builder' }, { op: 'remove', path: '/spec/serviceAccountName' }],
            [{ op: 'add', path: '/spec/automountServiceAccountToken', value: true }],
        ]) {
            const r = await asEddie('PATCH', path, ops);
            assertStatus(r, specForbidden('p3'), JSON.stringify(ops));
            await assertUnchanged(path, before, JSON.stringify(ops));
        }
        // A second container (a sidecar with the host's root): kube's own cause.
        const sidecar = await asEddie('PATCH', path, [{ op: 'add', path: '/spec/containers/-', value: { name: 'x', image: 'busybox' } }]);
        assertStatus(sidecar, invalid('Pod', 'p3', [{ reason: 'FieldValueForbidden', field: 'spec.containers',
                                                      message: 'Forbidden: pod updates may not add or remove containers' }]), 'sidecar');
        await assertUnchanged(path, before, 'sidecar');
    });

    attack('cluster: ServiceAccount admission — an edit user\'s pod runs as an account that does not exist yet (whoever creates it later finds the pod running as it) → 403 as kube, not created', async () => {
        await asEditor();
        const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p-ghost' },
                      spec: { serviceAccountName: 'ghost', containers: [{ name: 'c', image: 'busybox' }] } };
        const json = { 'Content-Type': 'application/json' };
        for (const spec of [pod.spec, { serviceAccount: 'ghost', containers: pod.spec.containers }]) {
            const r = await asEddie('POST', '/api/v1/namespaces/team-edit/pods', { ...pod, spec }, json);
            assertStatus(r, forbidden('pods "p-ghost" is forbidden: error looking up service account team-edit/ghost: ' +
                                      'serviceaccount "ghost" not found', { name: 'p-ghost', kind: 'pods' }), JSON.stringify(spec));
            await assertAbsent('/api/v1/namespaces/team-edit/pods/p-ghost', JSON.stringify(spec));
        }
        // Once the account exists, the same pod is created.
        const sa = await asEddie('POST', '/api/v1/namespaces/team-edit/serviceaccounts',
                                 { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ghost' } }, json);
        assert.equal(sa.status, 201, sa.text);
        const made = await asEddie('POST', '/api/v1/namespaces/team-edit/pods', pod, json);
        assert.equal(made.status, 201, made.text);
        assert.equal(made.json.spec.serviceAccountName, 'ghost');
    });

    attack('cluster: ServiceAccount admission — an edit user\'s mirror pod names an account (one that does not exist yet, or the deprecated field), a secret or a token projection → 403 as kube, not created', async () => {
        await asEditor();
        const json = { 'Content-Type': 'application/json' };
        const containers = [{ name: 'c', image: 'busybox' }];
        const cases = [
            [{ serviceAccountName: 'ghost-m' }, 'a mirror pod may not reference service accounts'],
            [{ serviceAccount: 'ghost-m' }, 'a mirror pod may not reference service accounts'],
            [{ serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
            [{ volumes: [{ name: 's', secret: { secretName: 'x' } }] }, 'a mirror pod may not reference secrets'],
            [{ imagePullSecrets: [{ name: 'x' }] }, 'a mirror pod may not reference secrets'],
            [{ volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token', audience: 'x' } }] } }] },
             'a mirror pod may not use ServiceAccountToken volume projections'],
        ];
        for (const [i, [extra, message]] of cases.entries()) {
            const name = `m-ghost-${i}`;
            const r = await asEddie('POST', '/api/v1/namespaces/team-edit/pods', { apiVersion: 'v1', kind: 'Pod',
                metadata: { name, annotations: { 'kubernetes.io/config.mirror': 'x' } },
                spec: { nodeName: 'node-1', containers, ...extra } }, json);
            assertStatus(r, forbidden(`pods "${name}" is forbidden: ${message}`, { name, kind: 'pods' }), JSON.stringify(extra));
            await assertAbsent(`/api/v1/namespaces/team-edit/pods/${name}`, JSON.stringify(extra));
        }
        // A mirror pod naming nothing is still the editor's to make (kube: the same).
        const plain = await asEddie('POST', '/api/v1/namespaces/team-edit/pods', { apiVersion: 'v1', kind: 'Pod',
            metadata: { name: 'm-plain', annotations: { 'kubernetes.io/config.mirror': 'x' } },
            spec: { nodeName: 'node-1', containers } }, json);
        assert.equal(plain.status, 201, plain.text);
        assert.equal(plain.json.spec.serviceAccountName, undefined, 'runs as no account');
    });

    attack('cluster: pod updates — the mirror pod annotation cannot be added by an edit user nor removed by an administrator → 422 as kube, unchanged', async () => {
        await asEditor();
        const path = '/api/v1/namespaces/team-edit/pods/p-plain';
        const made = await asEddie('POST', '/api/v1/namespaces/team-edit/pods', { apiVersion: 'v1', kind: 'Pod',
            metadata: { name: 'p-plain' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }, { 'Content-Type': 'application/json' });
        assert.equal(made.status, 201, made.text);
        const before = await read(path);
        const added = await asEddie('PATCH', path, { metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } } }, MERGE);
        assertStatus(added, invalid('Pod', 'p-plain', [{ reason: 'FieldValueForbidden', field: 'metadata.annotations[kubernetes.io/config.mirror]',
                                                         message: 'Forbidden: may not add mirror pod annotation' }]), 'add');
        await assertUnchanged(path, before, 'add');

        const nodeUid = (await read('/api/v1/nodes/node-1')).metadata.uid;
        const mirror = await asNode('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: {
            name: 'mirror-kept', namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'x' },
            ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: nodeUid, controller: true }] },
            spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } }, { 'Content-Type': 'application/json' });
        assert.equal(mirror.status, 201, mirror.text);
        const mirrorPath = '/api/v1/namespaces/default/pods/mirror-kept';
        const was = await read(mirrorPath);
        for (const value of [null, 'y']) {
            const r = await adminKube(b, 'PATCH', mirrorPath, { metadata: { annotations: { 'kubernetes.io/config.mirror': value } } }, MERGE);
            assert.equal(r.status, 422, r.text);
            assert.deepEqual(r.json, invalid('Pod', 'mirror-kept', [{ reason: 'FieldValueForbidden',
                field: 'metadata.annotations[kubernetes.io/config.mirror]', message: 'Forbidden: may not remove or update mirror pod annotation' }]),
            String(value));
            await assertUnchanged(mirrorPath, was, String(value));
        }
        assert.equal((await asNode('DELETE', mirrorPath)).status, 200);
    });

    attack('cluster: pod updates — what kube allows stays allowed: a new image, an added toleration, a deadline set then shortened; a removed toleration or a longer deadline → 422', async () => {
        await asEditor();
        const path = '/api/v1/namespaces/team-edit/pods/p-allowed';
        const made = await asEddie('POST', '/api/v1/namespaces/team-edit/pods', { apiVersion: 'v1', kind: 'Pod',
            metadata: { name: 'p-allowed' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }],
                                                     tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }] } },
                                   { 'Content-Type': 'application/json' });
        assert.equal(made.status, 201, made.text);
        const image = await kubectl(['set', 'image', 'pod/p-allowed', 'c=busybox:1.37', '-n', 'team-edit'], editorFiles);
        assert.equal(image.code, 0, image.stderr);
        const tolerated = await asEddie('PATCH', path, [{ op: 'add', path: '/spec/tolerations/-',
                                                          value: { key: 'gpu', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 } }]);
        assert.equal(tolerated.status, 200, tolerated.text);
        for (const seconds of [600, 300]) {
            const r = await asEddie('PATCH', path, { spec: { activeDeadlineSeconds: seconds } }, MERGE);
            assert.equal(r.status, 200, r.text);
        }
        const now = await read(path);
        assert.equal(now.spec.containers[0].image, 'busybox:1.37');
        assert.deepEqual(now.spec.tolerations.map((t) => t.key), ['dedicated', 'gpu']);
        assert.equal(now.spec.activeDeadlineSeconds, 300);

        const removed = await asEddie('PATCH', path, [{ op: 'remove', path: '/spec/tolerations/0' }]);
        assertStatus(removed, invalid('Pod', 'p-allowed', [{ reason: 'FieldValueForbidden', field: 'spec.tolerations',
            message: 'Forbidden: existing toleration can not be modified except its tolerationSeconds' }]), 'toleration removed');
        const longer = await asEddie('PATCH', path, { spec: { activeDeadlineSeconds: 900 } }, MERGE);
        assertStatus(longer, invalid('Pod', 'p-allowed', [{ reason: 'FieldValueInvalid', field: 'spec.activeDeadlineSeconds',
            message: 'Invalid value: 900: must be less than or equal to previous value' }]), 'longer deadline');
        await assertUnchanged(path, now, 'refused updates');
    });

    attack('cluster: node updates — podCIDR(s) and providerID, once set, change for nobody (an administrator, the node itself) → 422 as kube, unchanged', async () => {
        const path = '/api/v1/nodes/node-1';
        const set = await adminKube(b, 'PATCH', path, { spec: { podCIDR: '10.244.1.0/24', providerID: 'gce://demo/zone/node-1' } }, MERGE);
        assert.equal(set.status, 200, set.text);
        assert.deepEqual(set.json.spec.podCIDRs, ['10.244.1.0/24'], 'podCIDRs follows podCIDR, as kube converts it');
        const before = await read(path);
        const cidrCause = { reason: 'FieldValueForbidden', field: 'spec.podCIDRs',
                            message: 'Forbidden: node updates may not change podCIDR except from "" to valid' };
        const providerCause = { reason: 'FieldValueForbidden', field: 'spec.providerID',
                                message: 'Forbidden: node updates may not change providerID except from "" to valid' };
        for (const [spec, causes] of [
            [{ podCIDR: '10.244.9.0/24', podCIDRs: ['10.244.9.0/24'] }, [cidrCause]],
            [{ podCIDRs: ['10.244.1.0/24', 'fd00::/64'] }, [cidrCause]],
            [{ podCIDR: null, podCIDRs: null }, [cidrCause]],
            [{ providerID: 'aws:///us-east-1a/i-0123' }, [providerCause]],
            [{ podCIDRs: ['10.0.0.0/8'], providerID: '' }, [cidrCause, providerCause]],
        ]) {
            for (const [who, send] of [['admin', (body) => adminKube(b, 'PATCH', path, body, MERGE)],
                                       ['node-1', (body) => asNode('PATCH', path, body)]]) {
                const r = await send({ spec });
                assert.equal(r.status, 422, `${who} ${JSON.stringify(spec)}: ${r.text}`);
                assert.deepEqual(r.json, invalid('Node', 'node-1', causes), `${who} ${JSON.stringify(spec)}`);
                await assertUnchanged(path, before, `${who} ${JSON.stringify(spec)}`);
            }
        }
        // podCIDR is podCIDRs[0], as kube converts it: another podCIDR beside the same podCIDRs is
        // not kept (it would tell a reader of podCIDR another range).
        const stale = await adminKube(b, 'PATCH', path, { spec: { podCIDR: '10.9.9.0/24' } }, MERGE);
        assert.equal(stale.status, 200, stale.text);
        assert.equal(stale.json.spec.podCIDR, '10.244.1.0/24');
        assert.deepEqual((await read(path)).spec.podCIDRs, ['10.244.1.0/24']);
    });

    attack('cluster: a ClusterRole or ClusterRoleBinding sent with a namespace is stored without one (never read as a Role there)', async () => {
        for (const [kind, path, body] of [
            ['ClusterRole', 'clusterroles', { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }],
            ['ClusterRoleBinding', 'clusterrolebindings', { subjects: [{ kind: 'User', name: 'nobody', apiGroup: RBAC }],
                                                            roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: RBAC } }]]) {
            const r = await adminKube(b, 'POST', `/apis/${RBAC}/v1/${path}`,
                                      { apiVersion: `${RBAC}/v1`, kind, metadata: { name: 'namespaced-by-mistake', namespace: 'team-a' }, ...body });
            assert.equal(r.status, 201, r.text);
            assert.equal(r.json.metadata.namespace, undefined, `${kind}: ${r.text}`);
            const stored = await read(`/apis/${RBAC}/v1/${path}/namespaced-by-mistake`);
            assert.equal(stored.metadata.namespace, undefined, kind);
            assert.equal((await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/${path}/namespaced-by-mistake`)).status, 200);
        }
    });

    // --- RBAC escalation prevention -----------------------------------------------------------------

    const asMallory = (method, path, body) => kubeRequest(b, method, path, { creds: mallory, body });
    const escalation = (gr, name, missing) => forbidden(
        `${gr} "${name}" is forbidden: user "mallory" (groups=["rbac-editors" "system:authenticated"]) is attempting ` +
        `to grant RBAC permissions not currently held:\n${missing.join('\n')}`,
        { name, group: RBAC, kind: gr.split('.')[0] });

    attack('cluster: RBAC escalation — creating a ClusterRole with permissions not held → 403, not created', async () => {
        const role = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'pwn' },
                       rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }] };
        const r = await asMallory('POST', `/apis/${RBAC}/v1/clusterroles`, role);
        assertStatus(r, escalation(`clusterroles.${RBAC}`, 'pwn',
                                   ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
                                    '{APIGroups:[""], Resources:["secrets"], Verbs:["list"]}']), 'ClusterRole');
        await assertAbsent(`/apis/${RBAC}/v1/clusterroles/pwn`, 'ClusterRole');
    });

    attack('cluster: RBAC escalation — binding cluster-admin to oneself → 403 "attempting to grant RBAC permissions not currently held"', async () => {
        const binding = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'mallory-admin' },
                          subjects: [{ kind: 'User', name: 'mallory', apiGroup: RBAC }],
                          roleRef: { kind: 'ClusterRole', name: 'cluster-admin', apiGroup: RBAC } };
        const r = await asMallory('POST', `/apis/${RBAC}/v1/clusterrolebindings`, binding);
        assertStatus(r, escalation(`clusterrolebindings.${RBAC}`, 'mallory-admin',
                                   ['{APIGroups:["*"], Resources:["*"], Verbs:["*"]}', '{NonResourceURLs:["*"], Verbs:["*"]}']),
                     'ClusterRoleBinding');
        await assertAbsent(`/apis/${RBAC}/v1/clusterrolebindings/mallory-admin`, 'ClusterRoleBinding');
        const can = await asMallory('GET', '/api/v1/namespaces/kube-system/secrets');
        assert.equal(can.status, 403, 'mallory still cannot read secrets');
    });

    attack('cluster: RBAC escalation — a RoleBinding to the admin ClusterRole in a namespace → 403, not created', async () => {
        const binding = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'mallory-ns-admin', namespace: 'default' },
                          subjects: [{ kind: 'User', name: 'mallory', apiGroup: RBAC }],
                          roleRef: { kind: 'ClusterRole', name: 'admin', apiGroup: RBAC } };
        const r = await asMallory('POST', `/apis/${RBAC}/v1/namespaces/default/rolebindings`, binding);
        // The admin role has dozens of rules: the whole Status but the rule list exactly, then
        // the list line by line.
        assert.equal(r.status, 403, r.text);
        const [head, ...rules] = r.json.message.split('\n');
        assert.deepEqual({ ...r.json, message: head }, forbidden(
            `rolebindings.${RBAC} "mallory-ns-admin" is forbidden: user "mallory" (groups=["rbac-editors" ` +
            '"system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
            { name: 'mallory-ns-admin', group: RBAC, kind: 'rolebindings' }), 'RoleBinding');
        assert.ok(rules.length > 10, r.json.message);
        for (const rule of rules)
            assert.match(rule, /^\{(APIGroups:\[[^\]]*\], Resources:\[[^\]]*\], )?(ResourceNames:\[[^\]]*\], )?Verbs:\["[a-z*]+"\]\}$/, rule);
        for (const rule of ['{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
                            '{APIGroups:[""], Resources:["serviceaccounts"], Verbs:["create"]}'])
            assert.ok(rules.includes(rule), `${rule} in ${r.json.message}`);
        await assertAbsent(`/apis/${RBAC}/v1/namespaces/default/rolebindings/mallory-ns-admin`, 'RoleBinding');
    });

    attack('cluster: RBAC escalation — widening an existing Role (update) → 403, the Role unchanged', async () => {
        const path = `/apis/${RBAC}/v1/namespaces/default/roles/pod-reader`;
        const before = await read(path);
        const wider = structuredClone(before);
        wider.rules.push({ apiGroups: [''], resources: ['secrets'], verbs: ['get'] });
        const r = await asMallory('PUT', path, wider);
        assertStatus(r, escalation(`roles.${RBAC}`, 'pod-reader',
                                   ['{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
                                    '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}',
                                    '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}']), 'Role update');
        await assertUnchanged(path, before, 'Role update');
    });

    // A role or binding that no URL can name cannot be deleted by name (kubectl delete, the
    // CLI, the admin passthrough): a copy of one's own binding kept one's access after the
    // administrator deleted the original ("b\0" shows as "b" in a terminal; NUL is refused in
    // every request target, and 70,000 characters are beyond the request line's limit).
    attack('cluster: RBAC names no URL can hold (NUL, format characters, line separators, half a surrogate pair, 70,000 characters) → 422, nothing created', async () => {
        const names = (items) => items.map((i) => i.metadata.name);
        const bindingsBefore = names((await read(`/apis/${RBAC}/v1/clusterrolebindings`)).items);
        const rolesBefore = names((await read(`/apis/${RBAC}/v1/namespaces/default/roles`)).items);
        const roleBindingsBefore = names((await read(`/apis/${RBAC}/v1/namespaces/default/rolebindings`)).items);
        const clusterRolesBefore = names((await read(`/apis/${RBAC}/v1/clusterroles`)).items);
        const cases = [
            ['clusterrolebindings', { kind: 'ClusterRoleBinding', metadata: { name: 'rbac-editors\u0000' },
                                      subjects: [{ kind: 'User', name: 'mallory', apiGroup: RBAC }],
                                      roleRef: { kind: 'ClusterRole', name: 'rbac-editor', apiGroup: RBAC } },
             /may not contain control or format characters/],
            ['clusterrolebindings', { kind: 'ClusterRoleBinding', metadata: { generateName: 'copy\u202e' },
                                      subjects: [{ kind: 'User', name: 'mallory', apiGroup: RBAC }],
                                      roleRef: { kind: 'ClusterRole', name: 'rbac-editor', apiGroup: RBAC } },
             /may not contain control or format characters/],
            ['namespaces/default/rolebindings', { kind: 'RoleBinding', metadata: { name: 'view\ud800x' },
                                                  subjects: [{ kind: 'User', name: 'mallory', apiGroup: RBAC }],
                                                  roleRef: { kind: 'ClusterRole', name: 'rbac-editor', apiGroup: RBAC } },
             /must be valid Unicode \(no unpaired surrogates\)/],
            ['clusterroles', { kind: 'ClusterRole', metadata: { name: 'line\u2028break' }, rules: [] },
             /may not contain control or format characters/],
            ['namespaces/default/roles', { kind: 'Role', metadata: { name: 'z'.repeat(70000) },
                                           rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
             /must be no more than 253 characters/],
        ];
        for (const [resource, object, message] of cases) {
            const r = await asMallory('POST', `/apis/${RBAC}/v1/${resource}`, { apiVersion: `${RBAC}/v1`, ...object });
            assert.equal(r.status, 422, r.text.slice(0, 300));
            assert.equal(r.json.reason, 'Invalid', r.text.slice(0, 300));
            assert.match(r.json.details.causes[0].message, message);
            assert.equal(r.json.details.causes[0].field, 'metadata.name');
        }
        assert.deepEqual(names((await read(`/apis/${RBAC}/v1/clusterrolebindings`)).items), bindingsBefore);
        assert.deepEqual(names((await read(`/apis/${RBAC}/v1/namespaces/default/roles`)).items), rolesBefore);
        assert.deepEqual(names((await read(`/apis/${RBAC}/v1/namespaces/default/rolebindings`)).items), roleBindingsBefore);
        assert.deepEqual(names((await read(`/apis/${RBAC}/v1/clusterroles`)).items), clusterRolesBefore);
        // 253 characters still are a name (as a DNS subdomain may be).
        const long = 'r'.repeat(253);
        const made = await asMallory('POST', `/apis/${RBAC}/v1/namespaces/default/roles`, {
            apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: long }, rules: [] });
        assert.equal(made.status, 201, made.text);
        assert.equal((await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/namespaces/default/roles/${long}`)).status, 200);
        // A generateName of 250 characters is cut to 58 before the 5 random ones (as kube).
        const generated = await asMallory('POST', `/apis/${RBAC}/v1/namespaces/default/roles`, {
            apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { generateName: 'g'.repeat(250) }, rules: [] });
        assert.equal(generated.status, 201, generated.text.slice(0, 300));
        assert.match(generated.json.metadata.name, /^g{58}[a-z0-9]{5}$/);
        assert.equal((await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/namespaces/default/roles/${generated.json.metadata.name}`)).status, 200);
        // Cut between the halves of a character: the half is left out, not refused.
        const emoji = await asMallory('POST', `/apis/${RBAC}/v1/namespaces/default/roles`, {
            apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { generateName: `${'a'.repeat(57)}\u{1F600}` }, rules: [] });
        assert.equal(emoji.status, 201, emoji.text.slice(0, 300));
        assert.match(emoji.json.metadata.name, /^a{57}[a-z0-9]{5}$/);
        assert.equal((await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/namespaces/default/roles/${emoji.json.metadata.name}`)).status, 200);
    });

    // An aggregationRule gathers the rules of every ClusterRole its selectors pick ({} picks all,
    // cluster-admin included): setting one needs cluster-admin's rules, as kube's storage says.
    attack('cluster: RBAC escalation — an aggregationRule added to an empty ClusterRole already bound to oneself → 403, nothing gained', async () => {
        const path = `/apis/${RBAC}/v1/clusterroles/gather`;
        const made = await asMallory('POST', `/apis/${RBAC}/v1/clusterroles`,
                                     { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'gather' }, rules: [] });
        assert.equal(made.status, 201, made.text);
        const bound = await asMallory('POST', `/apis/${RBAC}/v1/clusterrolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'gather-mallory' },
            subjects: [{ kind: 'User', name: 'mallory', apiGroup: RBAC }],
            roleRef: { kind: 'ClusterRole', name: 'gather', apiGroup: RBAC } });
        assert.equal(bound.status, 201, bound.text);
        const before = await read(path);
        const refusal = forbidden(`clusterroles.${RBAC} "gather" is forbidden: must have cluster-admin privileges to use the aggregationRule`,
                                  { name: 'gather', group: RBAC, kind: 'clusterroles' });
        for (const selectors of [[{}], [{ matchLabels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } }]]) {
            const r = await kubeRequest(b, 'PATCH', path, { creds: mallory, headers: MERGE,
                                                            body: { aggregationRule: { clusterRoleSelectors: selectors } } });
            assertStatus(r, refusal, JSON.stringify(selectors));
        }
        await assertUnchanged(path, before, 'aggregationRule');
        const created = await asMallory('POST', `/apis/${RBAC}/v1/clusterroles`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'gather-2' },
            aggregationRule: { clusterRoleSelectors: [{}] } });
        assertStatus(created, forbidden(`clusterroles.${RBAC} "gather-2" is forbidden: must have cluster-admin privileges to use the aggregationRule`,
                                        { name: 'gather-2', group: RBAC, kind: 'clusterroles' }), 'create');
        await assertAbsent(`/apis/${RBAC}/v1/clusterroles/gather-2`, 'aggregated ClusterRole');
        assert.equal((await asMallory('GET', '/api/v1/namespaces/kube-system/secrets')).status, 403, 'mallory still cannot read secrets');
    });

    // kube's ClusterRole storage: any change of a role whose old or new version aggregates needs
    // cluster-admin's rules (the rules sent are not what it grants), except the garbage
    // collector's fields. An RBAC editor bound to an administrator's aggregated role that
    // gathers nothing yet labels a powerful aggregated role so that its own gathers it, or
    // strips the powerful one of its rule.
    attack('cluster: RBAC escalation — an administrator\'s aggregated ClusterRole relabelled (gathered by one\'s own) or stripped of its aggregationRule → 403', async () => {
        const AGG_OPS = 'example.com/agg-ops';
        const AGG_TOOLS = 'example.com/agg-tools';
        for (const role of [
            { metadata: { name: 'ops-all', labels: { [AGG_OPS]: 'true' } }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] },
            { metadata: { name: 'ops-admin' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGG_OPS]: 'true' } }] } },
            { metadata: { name: 'team-tools' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGG_TOOLS]: 'true' } }] } }]) {
            const r = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterroles`, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', ...role });
            assert.equal(r.status, 201, r.text);
        }
        const bound = await asMallory('POST', `/apis/${RBAC}/v1/clusterrolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'tools-mallory' },
            subjects: [{ kind: 'User', name: 'mallory', apiGroup: RBAC }],
            roleRef: { kind: 'ClusterRole', name: 'team-tools', apiGroup: RBAC } });
        assert.equal(bound.status, 201, `team-tools gathers nothing yet: ${bound.text}`);
        const path = `/apis/${RBAC}/v1/clusterroles/ops-admin`;
        const before = await read(path);
        assert.equal(before.rules.length, 1, 'ops-admin gathered ops-all');
        const refusal = forbidden(`clusterroles.${RBAC} "ops-admin" is forbidden: must have cluster-admin privileges to use the aggregationRule`,
                                  { name: 'ops-admin', group: RBAC, kind: 'clusterroles' });
        for (const [what, body] of [
            ['a label its own aggregated role picks', { metadata: { labels: { [AGG_TOOLS]: 'true' } }, rules: [] }],
            ['its aggregationRule removed', { aggregationRule: null, rules: [] }],
            ['its aggregationRule widened', { aggregationRule: { clusterRoleSelectors: [{}] }, rules: [] }]]) {
            const r = await kubeRequest(b, 'PATCH', path, { creds: mallory, headers: MERGE, body });
            assertStatus(r, refusal, what);
        }
        const put = structuredClone(before);
        put.metadata.labels = { [AGG_TOOLS]: 'true' };
        put.rules = [];
        assertStatus(await asMallory('PUT', path, put), refusal, 'PUT');
        await assertUnchanged(path, before, 'aggregated role');
        assert.equal((await read(`/apis/${RBAC}/v1/clusterroles/team-tools`)).rules?.length ?? 0, 0, 'team-tools still gathers nothing');
        assert.equal((await asMallory('GET', '/api/v1/namespaces/kube-system/secrets')).status, 403, 'mallory still cannot read secrets');
        // The garbage collector's fields stay anybody's with update (kube's IsOnlyMutatingGCFields).
        const fin = await kubeRequest(b, 'PATCH', path, { creds: mallory, headers: MERGE,
                                                         body: { metadata: { finalizers: ['example.com/keep'] } } });
        assert.equal(fin.status, 200, fin.text);
        const unfin = await kubeRequest(b, 'PATCH', path, { creds: mallory, headers: MERGE, body: { metadata: { finalizers: null } } });
        assert.equal(unfin.status, 200, unfin.text);
        assert.deepEqual((await read(path)).rules, before.rules, 'still gathers what it did');
    });

    attack('cluster: RBAC — the legitimate path: an administrator\'s aggregated ClusterRole grants what labelled roles add, at once, and no more once the label goes', async () => {
        const carol = await issueKubeconfig(b, { kind: 'user', name: 'carol' });
        const LABEL = 'example.com/aggregate-to-widgets';
        const created = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterroles`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'widgets' },
            aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [LABEL]: 'true' } }] }, rules: [] });
        assert.equal(created.status, 201, created.text);
        const bound = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'widgets-carol' },
            subjects: [{ kind: 'User', name: 'carol', apiGroup: RBAC }],
            roleRef: { kind: 'ClusterRole', name: 'widgets', apiGroup: RBAC } });
        assert.equal(bound.status, 201, bound.text);
        const listNodes = () => kubeRequest(b, 'GET', '/api/v1/nodes', { creds: carol });
        assert.equal((await listNodes()).status, 403, 'nothing picked yet');
        const added = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterroles`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'node-lister', labels: { [LABEL]: 'true' } },
            rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }] });
        assert.equal(added.status, 201, added.text);
        assert.equal((await listNodes()).status, 200, 'picked by the aggregated role');
        assert.equal((await kubeRequest(b, 'GET', '/api/v1/namespaces', { creds: carol })).status, 403, 'no more than it gathered');
        // The gathered rules are written into the aggregated role, as kube's controller does.
        const widgetRules = async () => (await adminKube(b, 'GET', `/apis/${RBAC}/v1/clusterroles/widgets`)).json.rules;
        await waitFor(async () => (await widgetRules())?.length === 1 || null, { message: 'the gathered rules in the object' });
        assert.deepEqual(await widgetRules(), [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]);
        const unlabelled = await adminKube(b, 'PATCH', `/apis/${RBAC}/v1/clusterroles/node-lister`,
                                           { metadata: { labels: { [LABEL]: null } } }, MERGE);
        assert.equal(unlabelled.status, 200, unlabelled.text);
        assert.equal((await listNodes()).status, 403, 'the label gone, the rules go');
        await waitFor(async () => (await widgetRules())?.length === 0 || null, { message: 'the rules gone from the object' });
    });

    attack('cluster: RBAC — two aggregated roles that pick each other keep no rule once its source loses its label (the rules written back do not feed the cycle)', async () => {
        const dave = await issueKubeconfig(b, { kind: 'user', name: 'dave' });
        const role = (name, labels, extra) => adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterroles`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, labels }, ...extra });
        for (const [name, labels, extra] of [
            ['ring-a', { 'example.com/ring-b': 'true' }, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/ring-a': 'true' } }] } }],
            ['ring-b', { 'example.com/ring-a': 'true' }, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/ring-b': 'true' } }] } }],
            ['ring-source', { 'example.com/ring-a': 'true' }, { rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }] }]]) {
            const r = await role(name, labels, extra);
            assert.equal(r.status, 201, r.text);
        }
        const bound = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'ring-b-dave' },
            subjects: [{ kind: 'User', name: 'dave', apiGroup: RBAC }],
            roleRef: { kind: 'ClusterRole', name: 'ring-b', apiGroup: RBAC } });
        assert.equal(bound.status, 201, bound.text);
        const listNodes = () => kubeRequest(b, 'GET', '/api/v1/nodes', { creds: dave });
        assert.equal((await listNodes()).status, 200, 'ring-b picks ring-a, which picks the source');
        const rulesOf = async (name) => (await adminKube(b, 'GET', `/apis/${RBAC}/v1/clusterroles/${name}`)).json.rules ?? [];
        await waitFor(async () => ((await rulesOf('ring-a')).length === 1 && (await rulesOf('ring-b')).length === 1) || null,
                      { message: 'the gathered rules written into both' });
        const unlabelled = await adminKube(b, 'PATCH', `/apis/${RBAC}/v1/clusterroles/ring-source`,
                                           { metadata: { labels: { 'example.com/ring-a': null } } }, MERGE);
        assert.equal(unlabelled.status, 200, unlabelled.text);
        assert.equal((await listNodes()).status, 403, 'the source gone, nothing left in the ring');
        await waitFor(async () => ((await rulesOf('ring-a')).length === 0 && (await rulesOf('ring-b')).length === 0) || null,
                      { message: 'the rules gone from both objects' });
        assert.equal((await listNodes()).status, 403, 'and the rules written back give nothing either');
    });

    attack('cluster: RBAC escalation in a protobuf body — binding cluster-admin to oneself as kubectl sends it → 403, not created', async () => {
        const { ld, envelope, contentType } = protobuf;
        const raw = Buffer.concat([
            ld(1, ld(1, 'mallory-admin-pb')),
            ld(2, Buffer.concat([ld(1, 'User'), ld(2, RBAC), ld(3, 'mallory')])),
            ld(3, Buffer.concat([ld(1, RBAC), ld(2, 'ClusterRole'), ld(3, 'cluster-admin')]))]);
        const r = await kubeRequest(b, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, {
            creds: mallory, body: envelope(`${RBAC}/v1`, 'ClusterRoleBinding', raw), headers: { 'Content-Type': contentType } });
        assertStatus(r, escalation(`clusterrolebindings.${RBAC}`, 'mallory-admin-pb',
                                   ['{APIGroups:["*"], Resources:["*"], Verbs:["*"]}', '{NonResourceURLs:["*"], Verbs:["*"]}']),
                     'protobuf ClusterRoleBinding');
        await assertAbsent(`/apis/${RBAC}/v1/clusterrolebindings/mallory-admin-pb`, 'protobuf ClusterRoleBinding');
    });

    attack('cluster: malformed protobuf bodies (truncated, 10,000 nested groups, a kind in the wrong place) → 400/415, nothing created', async () => {
        const { ld, envelope, contentType } = protobuf;
        // As a cluster admin: the body is read only after authorization has let the request in.
        const root = await issueKubeconfig(b, { kind: 'user', name: 'root-pb', groups: ['system:masters'] });
        const post = (body) => kubeRequest(b, 'POST', '/api/v1/namespaces', { creds: root, body, headers: { 'Content-Type': contentType } });
        const truncated = envelope('v1', 'Namespace', ld(1, ld(1, 'pb-truncated'))).subarray(0, 30);
        const nested = envelope('v1', 'Namespace', Buffer.concat([ld(1, ld(1, 'pb-nested')),
                                                                  Buffer.alloc(10000, 0x7b), Buffer.alloc(10000, 0x7c)]));
        for (const [body, what] of [[truncated, 'truncated'], [nested, 'nested groups']]) {
            const r = await post(body);
            assert.equal(r.status, 400, `${what}: ${r.text}`);
            assert.equal(r.json.reason, 'BadRequest', what);
            assert.match(r.json.message, /^malformed protobuf body/, what);
        }
        const foreign = await post(envelope('apps/v1', 'Deployment', ld(1, ld(1, 'pb-deployment'))));
        assert.equal(foreign.status, 415, foreign.text);
        for (const name of ['pb-truncated', 'pb-nested', 'pb-deployment'])
            await assertAbsent(`/api/v1/namespaces/${name}`, name);
    });

    // --- anonymous ----------------------------------------------------------------------------------

    attack('cluster: anonymous user reading nodes → 403 Forbidden', async () => {
        const r = await kubeRequest(b, 'GET', '/api/v1/nodes');
        assertStatus(r, forbidden('nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" ' +
                                  'at the cluster scope', { kind: 'nodes' }), 'anonymous list nodes');
        const one = await kubeRequest(b, 'GET', '/api/v1/nodes/node-1');
        assertStatus(one, forbidden('nodes "node-1" is forbidden: User "system:anonymous" cannot get resource "nodes" in ' +
                                    'API group "" at the cluster scope', { name: 'node-1', kind: 'nodes' }), 'anonymous get node');
    });

    attack('cluster: anonymous user reading the OpenAPI documents → 403 (they are for authenticated users, as in kube)', async () => {
        for (const path of ['/openapi/v3', '/openapi/v3/api/v1']) {
            const r = await kubeRequest(b, 'GET', path);
            assertStatus(r, forbidden(`forbidden: User "system:anonymous" cannot get path "${path}"`, {}), path);
        }
    });

    attack('cluster: anonymous user binding system:anonymous to cluster-admin → 403, not created', async () => {
        const binding = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'anon-admin' },
                          subjects: [{ kind: 'User', name: 'system:anonymous', apiGroup: RBAC }],
                          roleRef: { kind: 'ClusterRole', name: 'cluster-admin', apiGroup: RBAC } };
        const r = await kubeRequest(b, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, { body: binding });
        assertStatus(r, forbidden(`clusterrolebindings.${RBAC} is forbidden: User "system:anonymous" cannot create resource ` +
                                  `"clusterrolebindings" in API group "${RBAC}" at the cluster scope`,
                                  { group: RBAC, kind: 'clusterrolebindings' }), 'anonymous binding');
        await assertAbsent(`/apis/${RBAC}/v1/clusterrolebindings/anon-admin`, 'anonymous binding');
    });

    // --- bearer tokens: service accounts and OIDC ----------------------------------------------------

    // A service account in default bound to cluster-admin; resolves to its stored object.
    async function privilegedServiceAccount(name) {
        const sa = await adminKube(b, 'POST', '/api/v1/namespaces/default/serviceaccounts',
                                   { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
        assert.equal(sa.status, 201, sa.text);
        const crb = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: `${name}-admin` },
            subjects: [{ kind: 'ServiceAccount', name, namespace: 'default' }],
            roleRef: { kind: 'ClusterRole', name: 'cluster-admin', apiGroup: RBAC } });
        assert.equal(crb.status, 201, crb.text);
        return sa.json;
    }

    async function saToken(name, spec = { expirationSeconds: 3600 }) {
        const r = await adminKube(b, 'POST', `/api/v1/namespaces/default/serviceaccounts/${name}/token`,
                                  { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });
        assert.equal(r.status, 201, r.text);
        return r.json.status.token;
    }

    const bearer = (t) => ({ headers: { Authorization: `Bearer ${t}` } });

    attack('cluster: a forged service-account token (foreign key, real kid and uid) for a cluster-admin account → 401', async () => {
        const sa = await privilegedServiceAccount('deployer');
        const real = await saToken('deployer');
        assert.equal((await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(real))).status, 200, 'the real token works');
        const foreign = await jose.generateKeyPair('ES256');
        const now = nowSeconds();
        const forged = await new jose.SignJWT({
            iss: SA_ISSUER, sub: 'system:serviceaccount:default:deployer', aud: [SA_ISSUER], iat: now, nbf: now,
            exp: now + 3600, jti: randomUUID(),
            'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'deployer', uid: sa.metadata.uid } },
        }).setProtectedHeader({ alg: 'ES256', kid: jose.decodeProtectedHeader(real).kid }).sign(foreign.privateKey);
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(forged)), unauthorized, 'forged');
        await assertWriteUnauthorized(bearer(forged), 'forged service-account token');
    });

    attack('cluster: a service-account token whose payload was tampered (another account) → 401', async () => {
        await privilegedServiceAccount('builder');
        const real = await saToken('builder');
        const [h, p, s] = real.split('.');
        const claims = JSON.parse(Buffer.from(p, 'base64url'));
        claims.sub = 'system:serviceaccount:kube-system:default';
        claims['kubernetes.io'].namespace = 'kube-system';
        const tampered = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(tampered)), unauthorized, 'tampered');
        await assertWriteUnauthorized(bearer(tampered), 'tampered service-account token');
    });

    attack('cluster: a service-account token after its account is deleted (and re-created by the same name) → 401', async () => {
        await privilegedServiceAccount('ci');
        const token = await saToken('ci');
        assert.equal((await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(token))).status, 200, 'works while the account exists');
        const del = await adminKube(b, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/ci');
        assert.equal(del.status, 200, del.text);
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(token)), unauthorized, 'deleted account');
        await assertWriteUnauthorized(bearer(token), 'deleted account');
        const again = await adminKube(b, 'POST', '/api/v1/namespaces/default/serviceaccounts',
                                      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ci' } });
        assert.equal(again.status, 201, again.text);
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(token)), unauthorized, 're-created account (new uid)');
    });

    attack('cluster: a pod-bound service-account token after its pod is deleted (and re-created by the same name) → 401; a dry-run TokenRequest signs nothing', async () => {
        await privilegedServiceAccount('pod-runner');
        const create = () => adminKube(b, 'POST', '/api/v1/namespaces/default/pods', {
            apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bound-pod' },
            spec: { serviceAccountName: 'pod-runner', containers: [{ name: 'c', image: 'busybox' }] } });
        assert.equal((await create()).status, 201);
        const token = await saToken('pod-runner', { expirationSeconds: 3600,
                                                    boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'bound-pod' } });
        assert.equal((await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(token))).status, 200, 'works while the pod exists');
        const del = await adminKube(b, 'DELETE', '/api/v1/namespaces/default/pods/bound-pod');
        assert.equal(del.status, 200, del.text);
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(token)), unauthorized, 'deleted pod');
        await assertWriteUnauthorized(bearer(token), 'deleted pod');
        assert.equal((await create()).status, 201);
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(token)), unauthorized, 're-created pod (new uid)');

        const dry = await adminKube(b, 'POST', '/api/v1/namespaces/default/serviceaccounts/pod-runner/token?dryRun=All',
                                    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
        assert.equal(dry.status, 201, dry.text);
        assert.equal(dry.json.status.token, '', 'no credential from a dry run');
    });

    attack('cluster: a service account\'s watch runs on after its account is deleted — ends with 401', async () => {
        await privilegedServiceAccount('watch-bot');
        const token = await saToken('watch-bot');
        const w = await openWatch(b, '/api/v1/namespaces/default/serviceaccounts?watch=1', bearer(token));
        assert.equal(w.status, 200);
        try {
            const made = await adminKube(b, 'POST', '/api/v1/namespaces/default/serviceaccounts',
                                         { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'watched-before' } });
            assert.equal(made.status, 201, made.text);
            await waitFor(() => w.events.some((e) => e.object?.metadata?.name === 'watched-before'), { message: 'the account seen' });
            const del = await adminKube(b, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/watch-bot');
            assert.equal(del.status, 200, del.text);
            assert.deepEqual(await watchEndedWith(w, 'account deleted'), JSON.parse(compact(unauthorized)));
            const after = await adminKube(b, 'POST', '/api/v1/namespaces/default/serviceaccounts',
                                          { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'made-after' } });
            assert.equal(after.status, 201, after.text);
            assert.ok(!w.events.some((e) => e.object?.metadata?.name === 'made-after'), 'nothing after the end');
        } finally {
            w.close();
            await adminKube(b, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/watched-before');
            await adminKube(b, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/made-after');
            await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/clusterrolebindings/watch-bot-admin`);
        }
    });

    attack('cluster: a service-account token for another audience (TokenRequest audiences) → 401', async () => {
        await privilegedServiceAccount('vault-client');
        const token = await saToken('vault-client', { expirationSeconds: 3600, audiences: ['https://vault.example'] });
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(token)), unauthorized, 'audience');
        await assertWriteUnauthorized(bearer(token), 'another audience');
    });

    attack('cluster: a forged OIDC token (this authorization server as iss, foreign key, aud kubernetes) → 401', async () => {
        const foreign = await jose.generateKeyPair('RS256');
        const forged = await new jose.SignJWT({ iss: b.serviceUrl, sub: 'root', aud: 'kubernetes', groups: ['system:masters'] })
            .setProtectedHeader({ alg: 'RS256', kid: 'any' }).setIssuedAt().setExpirationTime('10m').sign(foreign.privateKey);
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(forged)), unauthorized, 'forged OIDC');
        await assertWriteUnauthorized(bearer(forged), 'forged OIDC token');
    });

    attack('cluster: a real access token of the authorization server not issued for the kubernetes audience → 401', async () => {
        const c = await adminFetch(b, 'POST', '/admin/v1/clients', { client_name: 'not-for-kube', grant_types: ['client_credentials'],
                                                                    scope: 'orders:read' });
        assert.equal(c.status, 201, c.text);
        const t = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: c.json.client_id });
        assert.equal(t.status, 200, t.text);
        assert.notEqual(jose.decodeJwt(t.json.access_token).aud, 'kubernetes');
        assertStatus(await kubeRequest(b, 'GET', '/api/v1/nodes', bearer(t.json.access_token)), unauthorized, 'audience');
        await assertWriteUnauthorized(bearer(t.json.access_token), 'another audience');
    });
    // --- admission webhooks ------------------------------------------------------------------------

    const ADMISSION = 'admissionregistration.k8s.io';

    attack('cluster: admission webhooks — a user who may write RBAC, or a node, registers a webhook → 403, none registered', async () => {
        const config = { apiVersion: `${ADMISSION}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'sniffer' },
                         webhooks: [{ name: 'sniff.evil.example.com', clientConfig: { url: 'https://127.0.0.1:1/sniff' },
                                      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
                                      sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Ignore' }] };
        for (const [who, creds, user] of [['mallory', mallory, 'mallory'], ['node-1', node1, 'system:node:node-1']]) {
            const r = await kubeRequest(b, 'POST', `/apis/${ADMISSION}/v1/validatingwebhookconfigurations`, { creds, body: config });
            assertStatus(r, forbidden(`validatingwebhookconfigurations.${ADMISSION} is forbidden: User "${user}" cannot create ` +
                                      `resource "validatingwebhookconfigurations" in API group "${ADMISSION}" at the cluster scope`,
                                      { group: ADMISSION, kind: 'validatingwebhookconfigurations' }), who);
        }
        await assertAbsent(`/apis/${ADMISSION}/v1/validatingwebhookconfigurations/sniffer`, 'webhook configuration');
    });

    attack('cluster: admission webhooks — what a mutating webhook adds is still judged: NodeRestriction and RBAC escalation refuse it', async () => {
        // The administrator's own (careless) webhook: it adds a restricted label to every node
        // update and a secrets rule to every Role.
        const patches = {
            Node: [{ op: 'add', path: '/metadata/labels/node-restriction.kubernetes.io~1trusted', value: 'yes' }],
            Role: [{ op: 'add', path: '/rules/-', value: { apiGroups: [''], resources: ['secrets'], verbs: ['get'] } }],
            TokenRequest: [{ op: 'remove', path: '/spec/boundObjectRef' }],
        };
        const { server, url, caBundle } = await webhookServer('hook', (request) => ({
            patchType: 'JSONPatch',
            patch: Buffer.from(JSON.stringify(patches[request.kind.kind] ?? [])).toString('base64') }));
        try {
            const created = await adminKube(b, 'POST', `/apis/${ADMISSION}/v1/mutatingwebhookconfigurations`, {
                apiVersion: `${ADMISSION}/v1`, kind: 'MutatingWebhookConfiguration', metadata: { name: 'careless' },
                webhooks: [{ name: 'careless.policy.example.com',
                             clientConfig: { url, caBundle },
                             rules: [{ operations: ['UPDATE'], apiGroups: ['', RBAC], apiVersions: ['v1'], resources: ['nodes', 'roles'] },
                                     { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts/token'] }],
                             sideEffects: 'None', admissionReviewVersions: ['v1'] }] });
            assert.equal(created.status, 201, created.text);

            const before1 = await read('/api/v1/nodes/node-1');
            const r = await asNode('PATCH', '/api/v1/nodes/node-1', { metadata: { labels: { 'example.com/rack': 'r9' } } });
            assertStatus(r, forbidden('nodes "node-1" is forbidden: is not allowed to modify labels: ' +
                                      'node-restriction.kubernetes.io/trusted', { name: 'node-1', kind: 'nodes' }), 'mutated node label');
            await assertUnchanged('/api/v1/nodes/node-1', before1, 'mutated node label');

            const path = `/apis/${RBAC}/v1/namespaces/default/roles/pod-reader`;
            const before = await read(path);
            const same = structuredClone(before);
            same.metadata.labels = { touched: 'yes' };
            const u = await asMallory('PUT', path, same);
            assert.equal(u.status, 403, u.text);
            assert.ok(u.json.message.includes('is attempting to grant RBAC permissions not currently held'), u.text);
            assert.ok(u.json.message.includes('{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'), u.text);
            await assertUnchanged(path, before, 'mutated Role');

            // A token node-1 asks for, bound to a pod on node-1 (allowed), unbound by the webhook.
            const grant = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, {
                apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'careless-node-tokens' },
                subjects: [{ kind: 'Group', name: 'system:nodes', apiGroup: RBAC }],
                roleRef: { kind: 'ClusterRole', name: 'careless-token-requester', apiGroup: RBAC } });
            assert.equal(grant.status, 201, grant.text);
            assert.equal((await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterroles`, {
                apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'careless-token-requester' },
                rules: [{ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] }] })).status, 201);
            const pod = await adminKube(b, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod',
                metadata: { name: 'on-node-1' }, spec: { nodeName: 'node-1', serviceAccountName: 'default',
                                                         containers: [{ name: 'c', image: 'busybox' }] } });
            assert.equal(pod.status, 201, pod.text);
            try {
                const t = await asNode('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
                    apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
                    spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'on-node-1', uid: pod.json.metadata.uid } } },
                { 'Content-Type': 'application/json' });
                assert.equal(t.status, 403, t.text);
                assert.match(t.json.message, /node requested token not bound to a pod$/);
                assert.ok(!/"token"/.test(t.text), 'no token');
            } finally {
                await adminKube(b, 'DELETE', '/api/v1/namespaces/default/pods/on-node-1');
                await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/clusterrolebindings/careless-node-tokens`);
                await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/clusterroles/careless-token-requester`);
            }
        } finally {
            await adminKube(b, 'DELETE', `/apis/${ADMISSION}/v1/mutatingwebhookconfigurations/careless`);
            server.close();
        }
    });
    attack('cluster: RBAC escalation — a binding whose rules the caller lost while a webhook was answering → 403 at storage, nothing created', async () => {
        // Mallory may write RoleBindings and holds pod-reader in default (her own binding): she
        // may bind it to a friend. A validating webhook holds her request; meanwhile an
        // administrator takes her binding away. The escalation check at storage sees that.
        const own = await adminKube(b, 'POST', `/apis/${RBAC}/v1/namespaces/default/rolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'mallory-pods', namespace: 'default' },
            subjects: [{ kind: 'User', name: 'mallory', apiGroup: RBAC }],
            roleRef: { kind: 'Role', name: 'pod-reader', apiGroup: RBAC } });
        assert.equal(own.status, 201, own.text);
        let arrived;
        const asked = new Promise((resolve) => { arrived = resolve; });
        let release;
        const released = new Promise((resolve) => { release = resolve; });
        const { server, url, caBundle } = await webhookServer('slow-hook', async (request) => {
            if (request.name === 'mallory-friend')
                arrived();
            await released;
            return {};
        });
        const hooks = `/apis/${ADMISSION}/v1/validatingwebhookconfigurations`;
        try {
            const created = await adminKube(b, 'POST', hooks, {
                apiVersion: `${ADMISSION}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'slow-rbac' },
                webhooks: [{ name: 'slow.rbac.example.com', timeoutSeconds: 20,
                             clientConfig: { url, caBundle },
                             rules: [{ operations: ['CREATE'], apiGroups: [RBAC], apiVersions: ['v1'], resources: ['rolebindings'] }],
                             sideEffects: 'None', admissionReviewVersions: ['v1'] }] });
            assert.equal(created.status, 201, created.text);
            const friend = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'mallory-friend', namespace: 'default' },
                             subjects: [{ kind: 'User', name: 'friend', apiGroup: RBAC }],
                             roleRef: { kind: 'Role', name: 'pod-reader', apiGroup: RBAC } };
            const pending = asMallory('POST', `/apis/${RBAC}/v1/namespaces/default/rolebindings`, friend);
            await asked;
            const removed = await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/namespaces/default/rolebindings/mallory-pods`);
            assert.equal(removed.status, 200, removed.text);
            release();
            const r = await pending;
            assert.equal(r.status, 403, r.text);
            assert.equal(r.json.message,
                         `rolebindings.${RBAC} "mallory-friend" is forbidden: user "mallory" (groups=["rbac-editors" ` +
                         `"system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
                         '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}\n{APIGroups:[""], Resources:["pods"], Verbs:["list"]}');
            await assertAbsent(`/apis/${RBAC}/v1/namespaces/default/rolebindings/mallory-friend`, 'RoleBinding');
        } finally {
            release();
            await adminKube(b, 'DELETE', `${hooks}/slow-rbac`);
            await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/namespaces/default/rolebindings/mallory-pods`);
            server.closeAllConnections?.();
            server.close();
        }
    });

    attack('cluster: server-side apply — patch rights alone do not create (create is asked too) → 403, nothing created', async () => {
        const imported = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: pod-patcher
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "patch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: pod-patchers
subjects:
- kind: Group
  name: pod-patchers
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: pod-patcher
  apiGroup: rbac.authorization.k8s.io
`, { 'Content-Type': 'application/yaml' });
        assert.equal(imported.status, 200, imported.text);
        const patcher = await issueKubeconfig(b, { kind: 'user', name: 'patcher', groups: ['pod-patchers'] });
        const body = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: sneaky\n  namespace: default\n' +
                     'spec:\n  containers:\n  - name: c\n    image: busybox\n';
        const r = await kubeRequest(b, 'PATCH', '/api/v1/namespaces/default/pods/sneaky?fieldManager=patcher', {
            creds: patcher, body, headers: { 'Content-Type': 'application/apply-patch+yaml' } });
        assertStatus(r, forbidden('pods "sneaky" is forbidden: User "patcher" cannot create resource "pods" in API group "" ' +
                                  'in the namespace "default"', { name: 'sneaky', kind: 'pods' }), 'apply-create');
        await assertAbsent('/api/v1/namespaces/default/pods/sneaky', 'apply-create');
    });

    attack('cluster: namespaces/<ns>/namespaces[/<other>] — a grant inside one namespace never reaches the others → 404, nothing changed', async () => {
        for (const ns of ['tenant-a', 'tenant-b'])
            assert.equal((await adminKube(b, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
        const imported = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: own-namespace
  namespace: tenant-a
rules:
- apiGroups: [""]
  resources: ["namespaces"]
  verbs: ["get", "list", "watch", "create", "patch", "update", "delete"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: own-namespace
  namespace: tenant-a
subjects:
- kind: User
  name: tenant
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: own-namespace
  apiGroup: rbac.authorization.k8s.io
`, { 'Content-Type': 'application/yaml' });
        assert.equal(imported.status, 200, imported.text);
        const tenant = await issueKubeconfig(b, { kind: 'user', name: 'tenant' });
        // Her grant works on her namespace itself.
        assert.equal((await kubeRequest(b, 'GET', '/api/v1/namespaces/tenant-a', { creds: tenant })).status, 200);
        const before = await read('/api/v1/namespaces/tenant-b');
        const notFound = statusBody({ message: 'the server could not find the requested resource', reason: 'NotFound',
                                      details: {}, code: 404 });
        for (const [method, path, body] of [
            ['GET', '/api/v1/namespaces/tenant-a/namespaces'],
            ['GET', '/api/v1/namespaces/tenant-a/namespaces/tenant-b'],
            ['GET', '/api/v1/namespaces/tenant-a/namespaces?watch=1'],
            ['GET', '/api/v1/watch/namespaces/tenant-a/namespaces'],
            ['PATCH', '/api/v1/namespaces/tenant-a/namespaces/tenant-b', { metadata: { labels: { owner: 'tenant' } } }],
            ['DELETE', '/api/v1/namespaces/tenant-a/namespaces/tenant-b'],
            ['POST', '/api/v1/namespaces/tenant-a/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tenant-c' } }],
        ]) {
            const r = await kubeRequest(b, method, path, { creds: tenant, body, headers: method === 'PATCH' ? MERGE : {} });
            assertStatus(r, notFound, `${method} ${path}`);
        }
        await assertUnchanged('/api/v1/namespaces/tenant-b', before, 'tenant-b');
        await assertAbsent('/api/v1/namespaces/tenant-c', 'created through the nested path');
    });

    attack('cluster: events.k8s.io/v1 is the same Events through another group — a role for core events only cannot read or write them there → 403, nothing created', async () => {
        const imported = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: core-event-writer
  namespace: default
rules:
- apiGroups: [""]
  resources: ["events"]
  verbs: ["get", "list", "watch", "create", "patch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: core-event-writer
  namespace: default
subjects:
- kind: User
  name: eve
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: core-event-writer
  apiGroup: rbac.authorization.k8s.io
`, { 'Content-Type': 'application/yaml' });
        assert.equal(imported.status, 200, imported.text);
        const eve = await issueKubeconfig(b, { kind: 'user', name: 'eve' });
        // Her role works where it was given.
        assert.equal((await kubeRequest(b, 'GET', '/api/v1/namespaces/default/events', { creds: eve })).status, 200);
        const denied = (verb) => forbidden(`events.events.k8s.io is forbidden: User "eve" cannot ${verb} resource "events" in API group ` +
                                           '"events.k8s.io" in the namespace "default"', { group: 'events.k8s.io', kind: 'events' });
        for (const path of ['/apis/events.k8s.io/v1/namespaces/default/events', '/apis/events.k8s.io/v1/namespaces/default/events?watch=1'])
            assertStatus(await kubeRequest(b, 'GET', path, { creds: eve }), denied(path.includes('watch') ? 'watch' : 'list'), path);
        const event = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'eve-was-here', namespace: 'default' },
                        eventTime: '2026-11-29T00:00:00.000000Z', reportingController: 'example.com/eve', reportingInstance: 'eve-0',
                        action: 'Forge', reason: 'Forged', note: 'forged', type: 'Normal', regarding: { kind: 'Node', name: 'node-1' } };
        const created = await kubeRequest(b, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', { creds: eve, body: event });
        assertStatus(created, forbidden('events.events.k8s.io is forbidden: User "eve" cannot create resource "events" in API group ' +
                                        '"events.k8s.io" in the namespace "default"', { group: 'events.k8s.io', kind: 'events' }), 'create');
        await assertAbsent('/api/v1/namespaces/default/events/eve-was-here', 'create through events.k8s.io');
    });

    // A user holding one ClusterRole (created here with `rules`, bound cluster-wide): her
    // issued kubeconfig.
    async function userWithClusterRole(user, role, rules) {
        const r = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterroles`,
                                  { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: role }, rules });
        assert.equal(r.status, 201, r.text);
        const crb = await adminKube(b, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, {
            apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: `${role}-${user}` },
            subjects: [{ kind: 'User', name: user, apiGroup: RBAC }],
            roleRef: { kind: 'ClusterRole', name: role, apiGroup: RBAC } });
        assert.equal(crb.status, 201, crb.text);
        return issueKubeconfig(b, { kind: 'user', name: user });
    }

    attack('cluster: the legacy /watch/ paths are for GET only — a read-only user\'s watch grant never creates, patches, deletes or mints a token there → 405, nothing changed', async () => {
        const ns = 'watch-writes';
        assert.equal((await adminKube(b, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
        const sa = await adminKube(b, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`,
                                   { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
        assert.equal(sa.status, 201, sa.text);
        // The common "read-only" ClusterRole: get, list, watch on every resource and subresource.
        const viewer = await userWithClusterRole('watcher', 'read-everything',
                                                 [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }]);
        // Her grant is real: she may watch there.
        const watch = await kubeRequest(b, 'GET', `/api/v1/watch/namespaces/${ns}/serviceaccounts?timeoutSeconds=1`, { creds: viewer });
        assert.equal(watch.status, 200, watch.text);
        const nsBefore = await read(`/api/v1/namespaces/${ns}`);
        const saBefore = await read(`/api/v1/namespaces/${ns}/serviceaccounts/robot`);
        const notAllowed = statusBody({ message: 'the server does not allow this method on the requested resource',
                                        reason: 'MethodNotAllowed', details: {}, code: 405 });
        for (const [method, path, body] of [
            ['POST', `/api/v1/watch/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'planted' } }],
            ['POST', `/api/v1/watch/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'planted' },
                                                           spec: { containers: [{ name: 'c', image: 'busybox' }] } }],
            ['PATCH', `/api/v1/watch/namespaces/${ns}/serviceaccounts/robot`, { metadata: { labels: { pwned: 'yes' } } }],
            ['PUT', `/api/v1/watch/namespaces/${ns}/serviceaccounts/robot`, { ...saBefore, metadata: { ...saBefore.metadata, labels: { pwned: 'yes' } } }],
            ['DELETE', `/api/v1/watch/namespaces/${ns}/serviceaccounts/robot`],
            ['DELETE', `/api/v1/watch/namespaces/${ns}`],
            ['POST', `/api/v1/watch/namespaces/${ns}/serviceaccounts/robot/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }],
        ]) {
            const r = await kubeRequest(b, method, path, { creds: viewer, body, headers: method === 'PATCH' ? MERGE : {} });
            assertStatus(r, notAllowed, `${method} ${path}`);
        }
        await assertUnchanged(`/api/v1/namespaces/${ns}`, nsBefore, 'the namespace');
        await assertUnchanged(`/api/v1/namespaces/${ns}/serviceaccounts/robot`, saBefore, 'the service account');
        await assertAbsent(`/api/v1/namespaces/${ns}/serviceaccounts/planted`, 'created through /watch/');
        await assertAbsent(`/api/v1/namespaces/${ns}/pods/planted`, 'created through /watch/');
        // Not even a cluster administrator writes there: it is no route.
        const root = await issueKubeconfig(b, { kind: 'user', name: 'root-watch', groups: ['system:masters'] });
        assertStatus(await kubeRequest(b, 'DELETE', `/api/v1/watch/namespaces/${ns}`, { creds: root }), notAllowed, 'administrator');
        await assertUnchanged(`/api/v1/namespaces/${ns}`, nsBefore, 'the namespace, after the administrator');
    });

    attack('cluster: a namespace cannot wear another\'s kubernetes.io/metadata.name label (webhook namespaceSelectors trust it) — patch, update, apply and finalize keep it its own name', async () => {
        const ns = 'label-spoof';
        assert.equal((await adminKube(b, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
        const owner = await userWithClusterRole('ns-owner', 'namespace-owner',
                                                [{ apiGroups: [''], resources: ['namespaces', 'namespaces/finalize'],
                                                   verbs: ['get', 'patch', 'update'] }]);
        const KEY = 'kubernetes.io/metadata.name';
        const labelOf = async () => (await read(`/api/v1/namespaces/${ns}`)).metadata.labels?.[KEY];
        assert.equal(await labelOf(), ns);

        const patched = await kubeRequest(b, 'PATCH', `/api/v1/namespaces/${ns}`, {
            creds: owner, headers: MERGE, body: { metadata: { labels: { [KEY]: 'kube-system', team: 'a' } } } });
        assert.equal(patched.status, 200, patched.text);
        assert.equal(patched.json.metadata.labels[KEY], ns, 'merge patch');
        assert.equal(patched.json.metadata.labels.team, 'a', 'the other label is taken');
        const removed = await kubeRequest(b, 'PATCH', `/api/v1/namespaces/${ns}`, {
            creds: owner, headers: { 'Content-Type': 'application/json-patch+json' },
            body: [{ op: 'remove', path: '/metadata/labels/kubernetes.io~1metadata.name' }] });
        assert.equal(removed.status, 200, removed.text);
        assert.equal(await labelOf(), ns, 'JSON patch removing it');
        const current = await read(`/api/v1/namespaces/${ns}`);
        const updated = await kubeRequest(b, 'PUT', `/api/v1/namespaces/${ns}`, {
            creds: owner, body: { ...current, metadata: { ...current.metadata, labels: { [KEY]: 'kube-system' } } } });
        assert.equal(updated.status, 200, updated.text);
        assert.equal(await labelOf(), ns, 'update');

        // finalize moves spec.finalizers only, and the body's name must be the URL's.
        const before = await read(`/api/v1/namespaces/${ns}`);
        const forged = { ...before, metadata: { ...before.metadata, name: 'kube-system', labels: { [KEY]: 'kube-system' } } };
        const mismatch = await kubeRequest(b, 'PUT', `/api/v1/namespaces/${ns}/finalize`, { creds: owner, body: forged });
        assertStatus(mismatch, statusBody({ message: `the name of the object (kube-system) does not match the name on the URL (${ns})`,
                                            reason: 'BadRequest', code: 400 }), 'finalize with another name');
        await assertUnchanged(`/api/v1/namespaces/${ns}`, before, 'after the refused finalize');
        const finalize = await kubeRequest(b, 'PUT', `/api/v1/namespaces/${ns}/finalize`, { creds: owner, body: {
            ...before, metadata: { ...before.metadata, labels: { [KEY]: 'kube-system' }, annotations: { planted: 'yes' } },
            spec: { finalizers: [] } } });
        assert.equal(finalize.status, 200, finalize.text);
        const after = await read(`/api/v1/namespaces/${ns}`);
        assert.deepEqual(after.spec.finalizers ?? [], [], 'the finalizers moved');
        assert.deepEqual(after.metadata.labels, before.metadata.labels, 'finalize changes no label');
        assert.equal(after.metadata.annotations, before.metadata.annotations, 'finalize changes no annotation');
    });

    attack('cluster: namespaces/status cannot bring a Terminating namespace back to Active (content made then would outlive its deletion) nor make an Active one Terminating — 422, as kube', async () => {
        const ns = 'revive';
        assert.equal((await adminKube(b, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace',
                                                                       metadata: { name: ns, finalizers: ['example.com/hold'] } })).status, 201);
        const reviver = await userWithClusterRole('reviver', 'namespace-reviver', [
            { apiGroups: [''], resources: ['namespaces', 'namespaces/status'], verbs: ['get', 'patch', 'update'] },
            { apiGroups: [RBAC], resources: ['rolebindings'], verbs: ['create', 'get', 'list'] },
            { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'create'] }]);
        // An Active namespace cannot be made Terminating through its status either.
        const other = 'not-terminating';
        assert.equal((await adminKube(b, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: other } })).status, 201);
        const otherBefore = await read(`/api/v1/namespaces/${other}`);
        const stop = await kubeRequest(b, 'PATCH', `/api/v1/namespaces/${other}/status`, {
            creds: reviver, headers: MERGE, body: { status: { phase: 'Terminating' } } });
        assert.equal(stop.status, 422, stop.text);
        assert.equal(stop.json.reason, 'Invalid');
        assert.deepEqual(stop.json.details.causes, [{ reason: 'FieldValueInvalid', field: 'status.Phase',
            message: 'Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty' }]);
        await assertUnchanged(`/api/v1/namespaces/${other}`, otherBefore, 'the Active namespace');

        assert.equal((await adminKube(b, 'DELETE', `/api/v1/namespaces/${ns}`)).status, 200);
        const terminating = await read(`/api/v1/namespaces/${ns}`);
        assert.equal(terminating.status.phase, 'Terminating');
        for (const [how, request] of [
            ['merge patch', { method: 'PATCH', headers: MERGE, body: { status: { phase: 'Active' } } }],
            ['update', { method: 'PUT', body: { ...terminating, status: { phase: 'Active' } } }],
            ['no phase', { method: 'PATCH', headers: MERGE, body: { status: { phase: null } } }]]) {
            for (const creds of [reviver, undefined]) {
                const r = creds
                    ? await kubeRequest(b, request.method, `/api/v1/namespaces/${ns}/status`, { creds, headers: request.headers, body: request.body })
                    : await adminKube(b, request.method, `/api/v1/namespaces/${ns}/status`, request.body, request.headers);
                assert.equal(r.status, 422, `${how}: ${r.text}`);
                assert.match(r.json.message, new RegExp(`^Namespace "${ns}" is invalid: status\\.Phase: Invalid value: .*may only be 'Terminating' if \`deletionTimestamp\` is not empty$`), how);
            }
        }
        await assertUnchanged(`/api/v1/namespaces/${ns}`, terminating, 'the Terminating namespace');
        // So nothing new goes in, and nothing of it survives its removal.
        const binding = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'planted', namespace: ns },
                          subjects: [{ kind: 'User', name: 'reviver', apiGroup: RBAC }],
                          roleRef: { kind: 'ClusterRole', name: 'namespace-reviver', apiGroup: RBAC } };
        const planted = await kubeRequest(b, 'POST', `/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`, { creds: reviver, body: binding });
        assert.equal(planted.status, 403, planted.text);
        assert.match(planted.json.message, /because it is being terminated$/);
        const released = await adminKube(b, 'PATCH', `/api/v1/namespaces/${ns}`, { metadata: { finalizers: null } }, MERGE);
        assert.equal(released.status, 200, released.text);
        await assertAbsent(`/api/v1/namespaces/${ns}`, 'the released namespace');
        assert.equal((await adminKube(b, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
        assert.deepEqual((await read(`/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`)).items, [], 'the same name, made again, is empty');
    });

    attack('cluster: a node\'s patch with tens of thousands of list elements (strategic merge, server-side apply) → answered in seconds; the other listeners answer meanwhile', async () => {
        const N = 60000;
        const names = Array.from({ length: N }, (_, i) => `f${i}`);
        const timed = async (what, expected, fn) => {
            const started = Date.now();
            // Every listener shares the store's writer: the admin API must answer meanwhile.
            const [r, health] = await Promise.all([fn(), (async () => {
                await new Promise((resolve) => setTimeout(resolve, 200));
                const t = Date.now();
                const h = await request(`${b.adminUrl}/healthz`, 'GET');
                return { status: h.status, ms: Date.now() - t };
            })()]);
            assert.equal(r.status, expected, `${what}: ${r.text.slice(0, 300)}`);
            assert.equal(health.status, 200, `${what}: /healthz on the admin listener`);
            // A generous bound (5 s here under the sanitizers) against the minutes to hours of
            // comparing each list element with each.
            assert.ok(Date.now() - started < 60000, `${what} took ${Date.now() - started} ms`);
            assert.ok(health.ms < 60000, `${what}: /healthz waited ${health.ms} ms`);
            return r;
        };
        const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };
        const stored = await timed('finalizers (a union list)', 200, () => kubeRequest(b, 'PATCH', '/api/v1/nodes/node-1', {
            creds: node1, headers: SMP, body: { metadata: { finalizers: names } } }));
        const owned = await timed('ownerReferences (merged on uid)', 200, () => kubeRequest(b, 'PATCH', '/api/v1/nodes/node-1', {
            creds: node1, headers: SMP,
            body: { metadata: { ownerReferences: names.slice(0, 12000).map((n) => ({ apiVersion: 'v1', kind: 'C', name: n, uid: n })) } } }));
        assert.equal(owned.json.metadata.ownerReferences.length, 12000);
        const emptied = await timed('deleting from a primitive list', 200, () => kubeRequest(b, 'PATCH', '/api/v1/nodes/node-1', {
            creds: node1, headers: SMP, body: { metadata: { '$deleteFromPrimitiveList/finalizers': names } } }));
        assert.equal(stored.json.metadata.finalizers.length, N, 'the union stored every finalizer');
        assert.deepEqual(emptied.json.metadata.finalizers ?? [], [], 'and deleted every one');
        // Server-side apply: a manager's set of finalizers, then none (each one dropped).
        const root = await issueKubeconfig(b, { kind: 'user', name: 'root-lists', groups: ['system:masters'] });
        const apply = (finalizers) => kubeRequest(b, 'PATCH', '/api/v1/namespaces/default/serviceaccounts/many?fieldManager=lists', {
            creds: root, headers: { 'Content-Type': 'application/apply-patch+yaml' },
            body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'many', namespace: 'default', finalizers } }) });
        const many = await timed('apply a set', 201, () => apply(names.slice(0, 30000)));
        assert.equal(many.json.metadata.finalizers.length, 30000);
        const none = await timed('apply it away', 200, () => apply([]));
        assert.deepEqual(none.json.metadata.finalizers ?? [], [], 'every finalizer the manager dropped is gone');
        // node-1 as the other attacks expect it.
        const clean = await adminKube(b, 'PATCH', '/api/v1/nodes/node-1', { metadata: { finalizers: null, ownerReferences: null } }, MERGE);
        assert.equal(clean.status, 200, clean.text.slice(0, 300));
    });

    attack('cluster: twenty thousand unknown fields (fieldValidation=Warn, the default) → at most 4 KiB of Warning headers, as kube', async () => {
        const root = await issueKubeconfig(b, { kind: 'user', name: 'root-warnings', groups: ['system:masters'] });
        const body = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'warned', namespace: 'default' } };
        for (let i = 0; i < 20000; ++i)
            body[`unknownField${i}`] = i;
        const r = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/serviceaccounts', { creds: root, body });
        assert.equal(r.status, 201, r.text.slice(0, 300));
        const warnings = r.headers.warning ?? '';
        assert.match(warnings, /^299 - "unknown field \\"unknownField0\\""/);
        // 4 KiB of text, and the header's own framing (299 - "...", quotes escaped).
        assert.ok(warnings.length < 6000, `${warnings.length} bytes of Warning headers`);
        assert.equal((await adminKube(b, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/warned')).status, 200);
    });

    attack('cluster: members of the wrong JSON type (a string for a number, a scalar for a list, a number for a name), sent whole, patched or applied → 400 as kube\'s decoding, nothing stored', async () => {
        const root = await issueKubeconfig(b, { kind: 'user', name: 'root-types', groups: ['system:masters'] });
        const cannot = (kind, version, why) => statusBody({
            message: `${kind} in version "${version}" cannot be handled as a ${kind}: ${why}`, reason: 'BadRequest', code: 400 });
        // 1. A string where kube has an int32: stored, it broke kubectl describe -A, the Python client and
        //    every protobuf list or watch of pods (500 "could not be encoded"), for everybody.
        const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'typed', namespace: 'default' },
                      spec: { containers: [{ name: 'c', image: 'busybox' }], priority: 'high' } };
        let r = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/pods', { creds: root, body: pod });
        assertStatus(r, cannot('Pod', 'v1', 'spec.priority is not an integer'), 'priority as a string');
        await assertAbsent('/api/v1/namespaces/default/pods/typed', 'priority as a string');
        // 2. A scalar where kube has a list: resourceNames "p1" read as no names at all, which means
        //    every name.
        const role = { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'one-pod', namespace: 'default' },
                       rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: 'p1' }] };
        r = await kubeRequest(b, 'POST', `/apis/${RBAC}/v1/namespaces/default/roles`, { creds: root, body: role });
        assertStatus(r, cannot('Role', `${RBAC}/v1`, 'rules[0].resourceNames is not an array'), 'resourceNames as a string');
        await assertAbsent(`/apis/${RBAC}/v1/namespaces/default/roles/one-pod`, 'resourceNames as a string');
        // The same through a merge patch of a role that exists, and through server-side apply.
        role.rules[0].resourceNames = ['p1'];
        r = await kubeRequest(b, 'POST', `/apis/${RBAC}/v1/namespaces/default/roles`, { creds: root, body: role });
        assert.equal(r.status, 201, r.text);
        const stored = await read(`/apis/${RBAC}/v1/namespaces/default/roles/one-pod`);
        r = await kubeRequest(b, 'PATCH', `/apis/${RBAC}/v1/namespaces/default/roles/one-pod`, {
            creds: root, body: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: 'p1' }] },
            headers: MERGE });
        assertStatus(r, cannot('Role', `${RBAC}/v1`, 'rules[0].resourceNames is not an array'), 'merge patch');
        r = await kubeRequest(b, 'PATCH', `/apis/${RBAC}/v1/namespaces/default/roles/one-pod?fieldManager=t&force=true`, {
            creds: root, body: `apiVersion: ${RBAC}/v1\nkind: Role\nmetadata:\n  name: one-pod\n  namespace: default\n` +
                               'rules:\n- apiGroups: [""]\n  resources: [pods]\n  verbs: [get]\n  resourceNames: p1\n',
            headers: { 'Content-Type': 'application/apply-patch+yaml' } });
        assert.equal(r.status, 400, r.text);
        await assertUnchanged(`/apis/${RBAC}/v1/namespaces/default/roles/one-pod`, stored, 'patched and applied');
        assert.equal((await adminKube(b, 'DELETE', `/apis/${RBAC}/v1/namespaces/default/roles/one-pod`)).status, 200);
        // 3. A node's mirror pod whose serviceAccountName is a number: admission read it as no account,
        //    and a TokenRequest bound to the pod read it as the account "123".
        const nodeUid = (await read('/api/v1/nodes/node-1')).metadata.uid;
        const mirror = { apiVersion: 'v1', kind: 'Pod', metadata: {
            name: 'mirror-numeric-account', namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'x' },
            ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: nodeUid, controller: true }] },
            spec: { nodeName: 'node-1', serviceAccountName: 123, containers: [{ name: 'c', image: 'busybox' }] } };
        r = await asNode('POST', '/api/v1/namespaces/default/pods', mirror, { 'Content-Type': 'application/json' });
        assertStatus(r, cannot('Pod', 'v1', 'spec.serviceAccountName is not a string'), 'numeric account');
        await assertAbsent('/api/v1/namespaces/default/pods/mirror-numeric-account', 'numeric account');
        // 4. A name or label key ending in a newline (PCRE's $ matched before it): a second "default"
        //    account in listings, and a node-restriction.kubernetes.io label key NodeRestriction missed.
        r = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/serviceaccounts', {
            creds: root, body: { metadata: { name: 'default\n' } } });
        assert.equal(r.status, 422, r.text);
        assert.equal(r.json.reason, 'Invalid', r.text);
        await assertAbsent('/api/v1/namespaces/default/serviceaccounts/default%0A', 'name with a newline');
        const node1Before = await read('/api/v1/nodes/node-1');
        r = await asNode('PATCH', '/api/v1/nodes/node-1', { metadata: { labels: { 'node-restriction.kubernetes.io\n/x': 'y' } } });
        assert.equal(r.status, 422, r.text);
        r = await asNode('PATCH', '/api/v1/nodes/node-1', { metadata: { labels: { team: 'blue\n' } } });
        assert.equal(r.status, 422, r.text);
        await assertUnchanged('/api/v1/nodes/node-1', node1Before, 'labels with a newline');
    });

    attack('cluster: server-side apply — a few hundred bytes of nested YAML aliases (CVE-2019-11253) → 400 at once, the server keeps serving', async () => {
        const root = await issueKubeconfig(b, { kind: 'user', name: 'root-yaml', groups: ['system:masters'] });
        const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
        for (let i = 1; i < 10; ++i) {
            const prev = String.fromCharCode(96 + i);
            const name = String.fromCharCode(97 + i);
            levels.push(`${name}: &${name} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`);
        }
        const body = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  namespace: default\n${levels.join('\n')}\n`;
        const started = Date.now();
        const r = await kubeRequest(b, 'PATCH', '/api/v1/namespaces/default/serviceaccounts/bomb?fieldManager=x', {
            creds: root, body: body.replace('kind: ConfigMap', 'kind: ServiceAccount'),
            headers: { 'Content-Type': 'application/apply-patch+yaml' } });
        assert.equal(r.status, 400, r.text);
        assert.match(r.json.message, /expands to more values than it has bytes/);
        assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
        const alive = await kubeRequest(b, 'GET', '/api/v1/nodes/node-1', { creds: root });
        assert.equal(alive.status, 200, alive.text);
        await assertAbsent('/api/v1/namespaces/default/serviceaccounts/bomb', 'alias bomb');
    });
});
