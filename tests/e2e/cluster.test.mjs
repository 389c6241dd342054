// The Kubernetes-compatible cluster API (HTTPS, client certificates, Node + RBAC authorization,
// NodeRestriction admission) as its users see it: kubectl (/usr/bin/kubectl, the gcloud
// dispatcher that runs kubectl 1.32 for "minor":"32"), curl, openssl, Debian's python3-kubernetes
// (kube_client.py) and raw HTTPS. Expected texts and Status bytes follow
// /work/shared/reference/kube.md (kube-apiserver 1.32).
//
// One backend is shared by most tests (they run in file order and some build on earlier state,
// e.g. the RBAC import); separate backends only for command-line flags.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import yaml from 'js-yaml';

import { startBackend, adminFetch, binaryPath, waitFor, TIMEOUT_MS } from './lib/backend.mjs';
import {
    tempDir, run, kubectl as kubectlRaw, curl, pyClient, issueKubeconfig, writeKubeconfig,
    writePems, clusterCaPath, kubeRequest, adminKube, statusBody, compact, pretty,
    foreignCertificate,
} from './lib/cluster.mjs';

let b;          // the shared backend
let dir;        // its scratch directory (kubeconfigs, PEMs)
let cacheDir;   // its kubectl discovery cache (KUBECACHEDIR)
let admin;      // issued kubeconfig: user admin, group system:masters
let node1;      // issued kubeconfig: node node-1
let files = {}; // kubeconfig paths by name

const kubectl = (who, args, opts = {}) => kubectlRaw(args, { kubeconfig: files[who], cacheDir, ...opts });

// curl with the status code appended; resolves to {code (exit), status, body, stderr}.
async function curlStatus(args) {
    const r = await curl(['-s', '-S', '-w', '\n%{http_code}', ...args]);
    const cut = r.stdout.lastIndexOf('\n');
    return { code: r.code, status: Number(r.stdout.slice(cut + 1)), body: r.stdout.slice(0, cut), stderr: r.stderr };
}

async function nodeLabels(backend, name) {
    const r = await adminKube(backend, 'GET', `/api/v1/nodes/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.json.metadata.labels ?? {};
}

function lines(text) {
    return text.split('\n').filter((l) => l.trim() !== '');
}

// stderr lines that are not kubectl's scope warnings
function errorLines(stderr) {
    return lines(stderr).filter((l) => !l.startsWith('Warning: '));
}

const anonymousForbidden = statusBody({
    message: 'forbidden: User "system:anonymous" cannot get path "/"', reason: 'Forbidden', details: {}, code: 403 });
const unauthorized = statusBody({ message: 'Unauthorized', reason: 'Unauthorized', code: 401 });

function anonymousKubeconfig(backend, name) {
    // The CA, a cluster and a context, and no client certificate, key or token. The user entry
    // carries basic-auth fields only because kubectl prompts ("Please enter Username:") for a
    // user entry that cannot identify anybody; Kubernetes has no basic-auth authenticator since
    // 1.19, so these requests are anonymous exactly like ones without an Authorization header.
    const text = yaml.dump({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: backend.clusterUrl, 'certificate-authority': clusterCaPath(backend) } }],
        contexts: [{ name: 'anon', context: { cluster: 'c', user: 'anon' } }],
        'current-context': 'anon',
        users: [{ name: 'anon', user: { username: 'nobody', password: 'nothing' } }],
    });
    return writeKubeconfig(dir, name, text);
}

async function importRbac(backend, text) {
    return adminFetch(backend, 'POST', '/admin/v1/cluster/rbac/import', text, { 'Content-Type': 'application/yaml' });
}

async function peerCertificate(port, servername = 'localhost') {
    return new Promise((resolve, reject) => {
        const s = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
            const c = s.getPeerCertificate(true);
            s.end();
            resolve(c);
        });
        s.on('error', reject);
    });
}

before(async () => {
    dir = tempDir();
    cacheDir = mkdtempSync(join(dir, 'kubecache-'));
    b = await startBackend();
    admin = await issueKubeconfig(b, { kind: 'user', name: 'admin', groups: ['system:masters'] });
    node1 = await issueKubeconfig(b, { kind: 'node', name: 'node-1' });
    files.admin = writeKubeconfig(dir, 'admin', admin.kubeconfig);
    files.node1 = writeKubeconfig(dir, 'node1', node1.kubeconfig);
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

// 1 ------------------------------------------------------------------------------------------
test('kubectl as admin (system:masters): get nodes / ns, get --raw /, version, auth can-i', async () => {
    assert.equal(admin.user, 'admin');
    assert.deepEqual(admin.groups, ['system:masters']);
    assert.equal(admin.server, b.clusterUrl);

    const nodes = await kubectl('admin', ['get', 'nodes']);
    assert.equal(nodes.code, 0, nodes.stderr);
    const [header, ...rows] = lines(nodes.stdout);
    assert.deepEqual(header.split(/\s+/), ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    assert.deepEqual(rows.map((r) => r.split(/\s+/)[0]), ['node-1', 'node-2', 'node-3']);
    for (const r of rows) {
        const [, status, roles, , version] = r.split(/\s+/);
        assert.equal(status, 'Ready', r);
        assert.equal(roles, '<none>', r);
        assert.equal(version, 'v1.32.4', r);
    }

    const ns = await kubectl('admin', ['get', 'ns']);
    assert.equal(ns.code, 0, ns.stderr);
    const [nsHeader, ...nsRows] = lines(ns.stdout);
    assert.deepEqual(nsHeader.split(/\s+/), ['NAME', 'STATUS', 'AGE']);
    const names = nsRows.map((r) => r.split(/\s+/)[0]);
    for (const n of ['default', 'kube-node-lease', 'kube-public', 'kube-system'])
        assert.ok(names.includes(n), `namespace ${n} listed: ${ns.stdout}`);
    for (const r of nsRows)
        assert.equal(r.split(/\s+/)[1], 'Active', r);

    const raw = await kubectl('admin', ['get', '--raw', '/']);
    assert.equal(raw.code, 0, raw.stderr);
    const paths = JSON.parse(raw.stdout).paths;
    for (const p of ['/api', '/api/v1', '/apis', '/apis/', '/healthz', '/livez', '/readyz', '/version'])
        assert.ok(paths.includes(p), `${p} in ${paths}`);
    assert.deepEqual([...paths].sort(), paths, 'paths sorted');
    assert.ok(raw.stdout.startsWith('{\n  "paths": [\n'), 'indented JSON');

    const version = await kubectl('admin', ['version']);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^Server Version: v1\.32\.4$/m);

    const can = await kubectl('admin', ['auth', 'can-i', 'list', 'namespaces']);
    assert.equal(can.code, 0, can.stderr);
    assert.equal(can.stdout, 'yes\n');
    const healthz = await kubectl('admin', ['auth', 'can-i', 'get', '/healthz']);
    assert.equal(healthz.stdout, 'yes\n');
    assert.equal(healthz.code, 0);
});

// 2 ------------------------------------------------------------------------------------------
test('kubectl as node agent node-1: NodeRestriction and the Node authorizer', async () => {
    assert.equal(node1.user, 'system:node:node-1');
    assert.deepEqual(node1.groups, ['system:nodes']);

    const own = await kubectl('node1', ['label', 'node', 'node-1', 'foo=bar']);
    assert.equal(own.code, 0, own.stderr);
    assert.equal(own.stdout, 'node/node-1 labeled\n');
    assert.equal((await nodeLabels(b, 'node-1')).foo, 'bar');

    const prot = await kubectl('node1', ['label', 'node', 'node-1', 'node-restriction.kubernetes.io/x=y']);
    assert.equal(prot.code, 1);
    assert.deepEqual(errorLines(prot.stderr), [
        'Error from server (Forbidden): nodes "node-1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/x']);
    assert.equal((await nodeLabels(b, 'node-1'))['node-restriction.kubernetes.io/x'], undefined);

    const noSlash = await kubectl('node1', ['label', 'node', 'node-1', 'node-restriction.kubernetes.io=ok']);
    assert.equal(noSlash.code, 0, noSlash.stderr);
    const ordinary = await kubectl('node1', ['label', 'node', 'node-1', 'example.com/ordinary=1']);
    assert.equal(ordinary.code, 0, ordinary.stderr);
    const labels = await nodeLabels(b, 'node-1');
    assert.equal(labels['node-restriction.kubernetes.io'], 'ok');
    assert.equal(labels['example.com/ordinary'], '1');

    // other reserved prefixes (kube.md §4.1)
    const role = await kubectl('node1', ['label', 'node', 'node-1', 'node-role.kubernetes.io/worker=']);
    assert.equal(role.code, 1);
    assert.deepEqual(errorLines(role.stderr), [
        'Error from server (Forbidden): nodes "node-1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/worker']);
    const zone = await kubectl('node1', ['label', 'node', 'node-1', '--overwrite', 'topology.kubernetes.io/zone=zone-z']);
    assert.equal(zone.code, 0, zone.stderr);

    // kubectl label GETs the node first: the Node authorizer refuses reading another node
    const other = await kubectl('node1', ['label', 'node', 'node-2', 'foo=bar']);
    assert.equal(other.code, 1);
    assert.deepEqual(errorLines(other.stderr), [
        'Error from server (Forbidden): nodes "node-2" is forbidden: User "system:node:node-1" cannot get resource ' +
        '"nodes" in API group "" at the cluster scope: node \'node-1\' cannot read \'node-2\', only its own Node object']);
    assert.equal((await nodeLabels(b, 'node-2')).foo, undefined);

    const ns = await kubectl('node1', ['get', 'ns']);
    assert.equal(ns.code, 1);
    assert.deepEqual(errorLines(ns.stderr), [
        'Error from server (Forbidden): namespaces is forbidden: User "system:node:node-1" cannot list resource ' +
        '"namespaces" in API group "" at the cluster scope']);

    const allNodes = await kubectl('node1', ['get', 'nodes']);
    assert.equal(allNodes.code, 1);
    assert.deepEqual(errorLines(allNodes.stderr), [
        'Error from server (Forbidden): nodes is forbidden: User "system:node:node-1" cannot list resource "nodes" ' +
        'in API group "" at the cluster scope: node \'node-1\' cannot read all nodes, only its own Node object']);
    const self = await kubectl('node1', ['get', 'node', 'node-1']);
    assert.equal(self.code, 0, self.stderr);
    assert.match(self.stdout, /^node-1\s+Ready\s/m);

    const canNs = await kubectl('node1', ['auth', 'can-i', 'list', 'namespaces']);
    assert.equal(canNs.code, 1);
    assert.equal(canNs.stdout, 'no\n');
    // `can-i get nodes/NAME` asks about the name NAME (kube.md §5)
    const canSelf = await kubectl('node1', ['auth', 'can-i', 'get', 'nodes/node-1']);
    assert.equal(canSelf.stdout, 'yes\n');
    assert.equal(canSelf.code, 0);
    const canOther = await kubectl('node1', ['auth', 'can-i', 'get', 'nodes/node-2']);
    assert.equal(canOther.code, 1);
    assert.equal(canOther.stdout, "no - node 'node-1' cannot read 'node-2', only its own Node object\n");
    const canPatchOther = await kubectl('node1', ['auth', 'can-i', 'patch', 'nodes/node-2']);
    assert.equal(canPatchOther.stdout, 'yes\n', 'the Node authorizer allows patch on any name; admission limits it');
    const canDelete = await kubectl('node1', ['auth', 'can-i', 'delete', 'nodes/node-1']);
    assert.equal(canDelete.code, 1);
    assert.match(canDelete.stdout, /^no\b/);
});

// 3 ------------------------------------------------------------------------------------------
test('user alice (group devs): no access until an imported ClusterRole + ClusterRoleBinding', async () => {
    const alice = await issueKubeconfig(b, { kind: 'user', name: 'alice', groups: ['devs'] });
    assert.equal(alice.user, 'alice');
    assert.deepEqual(alice.groups, ['devs']);
    files.alice = writeKubeconfig(dir, 'alice', alice.kubeconfig);

    const whoami = await kubectl('alice', ['auth', 'whoami']);
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.deepEqual(lines(whoami.stdout).map((l) => l.split(/\s{2,}/)), [
        ['ATTRIBUTE', 'VALUE'], ['Username', 'alice'], ['Groups', '[devs system:authenticated]']]);

    const before = await kubectl('alice', ['auth', 'can-i', 'list', 'nodes']);
    assert.equal(before.code, 1);
    assert.equal(before.stdout, 'no\n');
    const denied = await kubectl('alice', ['get', 'nodes']);
    assert.equal(denied.code, 1);
    assert.deepEqual(errorLines(denied.stderr), [
        'Error from server (Forbidden): nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope']);

    const manifest = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: node-reader
rules:
- apiGroups: [""]
  resources: ["nodes"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: devs-read-nodes
subjects:
- kind: Group
  name: devs
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: node-reader
  apiGroup: rbac.authorization.k8s.io
`;
    const imported = await importRbac(b, manifest);
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(imported.json.results.map((r) => [r.kind, r.name, r.action, r.code]), [
        ['ClusterRole', 'node-reader', 'created', 201],
        ['ClusterRoleBinding', 'devs-read-nodes', 'created', 201]]);

    const can = await kubectl('alice', ['auth', 'can-i', 'list', 'nodes']);
    assert.equal(can.code, 0, can.stderr);
    assert.equal(can.stdout, 'yes\n');
    const cannotPatch = await kubectl('alice', ['auth', 'can-i', 'patch', 'nodes']);
    assert.equal(cannotPatch.stdout, 'no\n');
    const nodes = await kubectl('alice', ['get', 'nodes']);
    assert.equal(nodes.code, 0, nodes.stderr);
    assert.deepEqual(lines(nodes.stdout).slice(1).map((r) => r.split(/\s+/)[0]), ['node-1', 'node-2', 'node-3']);
    const label = await kubectl('alice', ['label', 'node', 'node-3', 'alice=was-here']);
    assert.equal(label.code, 1);
    assert.deepEqual(errorLines(label.stderr), [
        'Error from server (Forbidden): nodes "node-3" is forbidden: User "alice" cannot patch resource "nodes" in API group "" at the cluster scope']);

    // importing the same manifest again replaces
    const again = await importRbac(b, manifest);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json.results.map((r) => r.action), ['replaced', 'replaced']);

    const who = await adminFetch(b, 'GET', '/admin/v1/cluster/who-can?resource=nodes');
    assert.equal(who.status, 200, who.text);
    assert.ok(who.json.verbs.includes('list'));
    const devs = who.json.subjects.find((s) => s.kind === 'Group' && s.name === 'devs');
    assert.ok(devs, who.text);
    assert.equal(devs.verbs.get, true);
    assert.equal(devs.verbs.list, true);
    assert.equal(devs.verbs.patch, false);
    const masters = who.json.subjects.find((s) => s.kind === 'Group' && s.name === 'system:masters');
    assert.ok(masters && masters.verbs.patch === true && masters.verbs.delete === true, who.text);
});

// 4 ------------------------------------------------------------------------------------------
test('anonymous: 403 Forbidden while allowed, 401 Unauthorized after anonymousAuth=false (live)', async () => {
    const url = b.clusterUrl;
    const ca = clusterCaPath(b);
    files.anon = anonymousKubeconfig(b, 'anon');

    const kc = await kubectl('anon', ['get', '--raw', '/']);
    assert.equal(kc.code, 1);
    assert.deepEqual(errorLines(kc.stderr), ['Error from server (Forbidden): forbidden: User "system:anonymous" cannot get path "/"']);

    const root = await curlStatus(['--cacert', ca, `${url}/`]);
    assert.equal(root.status, 403);
    assert.equal(root.body, pretty(anonymousForbidden), 'curl User-Agent: indented, no trailing newline');
    const rootK = await curlStatus(['-k', `${url}/`]);
    assert.equal(rootK.body, pretty(anonymousForbidden));
    const healthz = await curlStatus(['--cacert', ca, `${url}/healthz`]);
    assert.equal(healthz.status, 200);
    assert.equal(healthz.body, 'ok');
    const version = await curlStatus(['--cacert', ca, `${url}/version`]);
    assert.equal(version.status, 200);
    assert.equal(JSON.parse(version.body).gitVersion, 'v1.32.4');
    const api = await curlStatus(['--cacert', ca, `${url}/api`]);
    assert.equal(api.status, 403);
    assert.equal(JSON.parse(api.body).message, 'forbidden: User "system:anonymous" cannot get path "/api"');

    const settings = await adminFetch(b, 'GET', '/admin/v1/cluster/settings');
    assert.equal(settings.status, 200);
    assert.equal(settings.json.anonymousAuth, true);
    const off = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { anonymousAuth: false });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.json.anonymousAuth, false);
    try {
        const r401 = await curlStatus(['--cacert', ca, `${url}/`]);
        assert.equal(r401.status, 401);
        assert.equal(r401.body, pretty(unauthorized));
        const compact401 = await curlStatus(['--cacert', ca, '-A', 'e2e-test', `${url}/`]);
        assert.equal(compact401.body, compact(unauthorized), 'other User-Agents: compact + "\\n"');
        const kc401 = await kubectl('anon', ['get', '--raw', '/']);
        assert.equal(kc401.code, 1);
        assert.deepEqual(errorLines(kc401.stderr), ['error: You must be logged in to the server (Unauthorized)']);
        // the admin's client certificate still works
        const adminRaw = await kubectl('admin', ['get', '--raw', '/healthz']);
        assert.equal(adminRaw.code, 0, adminRaw.stderr);
        // kube.md §2.2: with --anonymous-auth=false every path answers 401, /healthz too
        const answers = {};
        for (const p of ['/version', '/livez', '/healthz', '/readyz'])
            answers[p] = (await curlStatus(['--cacert', ca, `${url}${p}`])).status;
        assert.deepEqual(answers, { '/version': 401, '/livez': 401, '/healthz': 401, '/readyz': 401 },
                         'GET without credentials while anonymousAuth=false');
    } finally {
        const on = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { anonymousAuth: true });
        assert.equal(on.status, 200, on.text);
    }
    assert.equal((await curlStatus(['--cacert', ca, `${url}/`])).status, 403, 'anonymous is back');
});

test('--anonymous-auth=false at start: 401 on every path, for curl and kubectl', async () => {
    const off = await startBackend({ args: ['--anonymous-auth=false'] });
    try {
        const s = await adminFetch(off, 'GET', '/admin/v1/cluster/settings');
        assert.equal(s.json.anonymousAuth, false);
        const ca = clusterCaPath(off);
        const root = await curlStatus(['--cacert', ca, `${off.clusterUrl}/`]);
        assert.equal(root.status, 401);
        assert.equal(root.body, pretty(unauthorized));
        const offCache = mkdtempSync(join(dir, 'kubecache-off-'));
        const kc = await kubectlRaw(['get', '--raw', '/'], { kubeconfig: anonymousKubeconfig(off, 'anon-off'), cacheDir: offCache });
        assert.equal(kc.code, 1);
        assert.deepEqual(errorLines(kc.stderr), ['error: You must be logged in to the server (Unauthorized)']);
        const offAdmin = await issueKubeconfig(off, { kind: 'user', name: 'root', groups: ['system:masters'] });
        const nodes = await kubectlRaw(['get', 'nodes', '-o', 'name'],
                                       { kubeconfig: writeKubeconfig(dir, 'off-admin', offAdmin.kubeconfig), cacheDir: offCache });
        assert.equal(nodes.code, 0, nodes.stderr);
        assert.equal(nodes.stdout, 'node/node-1\nnode/node-2\nnode/node-3\n');
        const answers = {};
        for (const p of ['/version', '/api', '/livez', '/healthz', '/readyz'])
            answers[p] = (await curlStatus(['--cacert', ca, `${off.clusterUrl}${p}`])).status;
        assert.deepEqual(answers, { '/version': 401, '/api': 401, '/livez': 401, '/healthz': 401, '/readyz': 401 },
                         'GET without credentials under --anonymous-auth=false');
    } finally {
        assert.equal(await off.stop(), 0, off.stderr);
    }
});

// 5 ------------------------------------------------------------------------------------------
test('client certificates with curl: CA-signed authenticates, a foreign CA gives 401, wrong file order fails client-side', async () => {
    const url = b.clusterUrl;
    const ca = clusterCaPath(b);
    const pems = writePems(dir, 'admin', admin);
    assert.equal(admin.caPem, readFileSync(ca, 'utf8'), 'caPem is the cluster CA');

    const review = await curlStatus(['--cacert', ca, '--cert', pems.certificate, '--key', pems.key,
                                     '-X', 'POST', '-H', 'Content-Type: application/json',
                                     '-d', '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}',
                                     `${url}/apis/authentication.k8s.io/v1/selfsubjectreviews`]);
    assert.equal(review.status, 201, review.body);
    const ssr = JSON.parse(review.body);
    assert.equal(ssr.kind, 'SelfSubjectReview');
    assert.equal(ssr.apiVersion, 'authentication.k8s.io/v1');
    assert.deepEqual(ssr.status.userInfo, { username: 'admin', groups: ['system:masters', 'system:authenticated'] });

    const nodePems = writePems(dir, 'node1', node1);
    const nodeReview = await curlStatus(['--cacert', ca, '--cert', nodePems.certificate, '--key', nodePems.key,
                                         '-X', 'POST', '-H', 'Content-Type: application/json', '-d', '{}',
                                         `${url}/apis/authentication.k8s.io/v1/selfsubjectreviews`]);
    assert.equal(nodeReview.status, 201, nodeReview.body);
    assert.deepEqual(JSON.parse(nodeReview.body).status.userInfo,
                     { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] });

    const root = await curlStatus(['--cacert', ca, '--cert', pems.certificate, '--key', pems.key, `${url}/`]);
    assert.equal(root.status, 200);
    assert.ok(JSON.parse(root.body).paths.includes('/api'));

    // a certificate of another CA (even claiming system:masters) is a failed authentication: 401,
    // not anonymous, although anonymous access is on (kube.md §1.2, §2.1)
    const foreign = await foreignCertificate(dir);
    for (const p of ['/version', '/', '/api/v1/nodes']) {
        const r = await curlStatus(['--cacert', ca, '--cert', foreign.certFile, '--key', foreign.keyFile, `${url}${p}`]);
        assert.equal(r.status, 401, `${p}: ${r.body}`);
        assert.equal(r.body, pretty(unauthorized), p);
    }
    // Every connection shares one TLS context (core/tlsserver.h); verification stays per
    // connection: alternating CA-signed and foreign certificates keep their own verdicts.
    for (let i = 0; i < 3; ++i) {
        const good = await curlStatus(['--cacert', ca, '--cert', pems.certificate, '--key', pems.key, `${url}/api/v1/nodes`]);
        assert.equal(good.status, 200, good.body);
        const bad = await curlStatus(['--cacert', ca, '--cert', foreign.certFile, '--key', foreign.keyFile, `${url}/api/v1/nodes`]);
        assert.equal(bad.status, 401, bad.body);
        const none = await curlStatus(['--cacert', ca, `${url}/api/v1/nodes`]);
        assert.equal(none.status, 403, none.body);
    }

    // certificate and key swapped: curl refuses before any request (exit 58)
    const swapped = await curl(['-s', '-S', '--cacert', ca, '--cert', pems.key, '--key', pems.certificate, `${url}/version`]);
    assert.equal(swapped.code, 58, swapped.stderr);
    assert.match(swapped.stderr, /could not load PEM client certificate|unable to set private key file/);
});

test('TLS names: a name outside the SANs fails verification, kubernetes.default.svc and --tls-extra-sans succeed', async () => {
    const port = b.ports.cluster;
    const ca = clusterCaPath(b);
    const bad = await curl(['-s', '-S', '--resolve', `notinsans.example:${port}:127.0.0.1`, '--cacert', ca,
                            `https://notinsans.example:${port}/version`]);
    assert.equal(bad.code, 60, bad.stderr);
    assert.match(bad.stderr, /no alternative certificate subject name matches target host name 'notinsans\.example'/);

    for (const name of ['kubernetes.default.svc', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc.cluster.local', 'localhost']) {
        const ok = await curlStatus(['--resolve', `${name}:${port}:127.0.0.1`, '--cacert', ca, `https://${name}:${port}/version`]);
        assert.equal(ok.code, 0, `${name}: ${ok.stderr}`);
        assert.equal(ok.status, 200, name);
        assert.equal(JSON.parse(ok.body).minor, '32');
    }

    const extra = await startBackend({ args: ['--tls-extra-sans', 'gatehouse.example,10.11.12.13'] });
    try {
        const p = extra.ports.cluster;
        const xca = clusterCaPath(extra);
        const ok = await curlStatus(['--resolve', `gatehouse.example:${p}:127.0.0.1`, '--cacert', xca, `https://gatehouse.example:${p}/version`]);
        assert.equal(ok.code, 0, ok.stderr);
        assert.equal(ok.status, 200);
        const still = await curl(['-s', '-S', '--resolve', `notinsans.example:${p}:127.0.0.1`, '--cacert', xca, `https://notinsans.example:${p}/version`]);
        assert.equal(still.code, 60, still.stderr);
        const cert = await peerCertificate(p);
        assert.match(cert.subjectaltname, /DNS:gatehouse\.example/);
        assert.match(cert.subjectaltname, /IP Address:10\.11\.12\.13/);
        // the main backend does not accept that name
        const other = await curl(['-s', '-S', '--resolve', `gatehouse.example:${port}:127.0.0.1`, '--cacert', ca, `https://gatehouse.example:${port}/version`]);
        assert.equal(other.code, 60, other.stderr);
    } finally {
        assert.equal(await extra.stop(), 0, extra.stderr);
    }
});

test('server certificate: a TLS server leaf of the cluster CA (usage, SANs incl. the in-cluster service IP 10.96.0.1)', async () => {
    const cert = await peerCertificate(b.ports.cluster);
    assert.equal(cert.issuer.CN, 'gatehouse-cluster-ca');
    assert.equal(cert.ca, false);
    assert.ok(cert.ext_key_usage.includes('1.3.6.1.5.5.7.3.1'), 'TLS server authentication');
    const sans = cert.subjectaltname.split(', ');
    for (const s of ['DNS:localhost', 'DNS:kubernetes', 'DNS:kubernetes.default', 'DNS:kubernetes.default.svc',
                     'DNS:kubernetes.default.svc.cluster.local', 'IP Address:127.0.0.1'])
        assert.ok(sans.includes(s), `${s} in ${cert.subjectaltname}`);
    const svc = await adminKube(b, 'GET', '/api/v1/namespaces/default/services/kubernetes');
    assert.equal(svc.json.spec.clusterIP, '10.96.0.1');
    // seed: the certificate is valid for "the in-cluster service and node IP addresses"; a pod
    // reaching https://10.96.0.1 (the default/kubernetes ClusterIP) must be able to verify it
    assert.ok(sans.includes('IP Address:10.96.0.1'), `the service ClusterIP 10.96.0.1 in ${cert.subjectaltname}`);
});

test('without the cluster CA curl fails certificate verification (seed §5.1)', async () => {
    const r = await curl(['-s', '-S', `${b.clusterUrl}/version`]);
    assert.equal(r.code, 60, r.stderr);
    // like kube-apiserver, only the leaf is sent: the client cannot find its issuer
    assert.match(r.stderr, /SSL certificate problem: unable to get local issuer certificate/);
});

// 6 ------------------------------------------------------------------------------------------
test('no plain-HTTP API: http:// to the cluster port gets no HTTP answer; service and admin listeners do not serve /api', async () => {
    const plain = await curl(['-s', '-S', '-o', '/dev/null', '-w', '%{http_code}', `http://127.0.0.1:${b.ports.cluster}/api/v1/nodes`]);
    assert.notEqual(plain.code, 0, 'curl fails');
    assert.equal(plain.stdout, '000', 'no HTTP status');

    const raw = await new Promise((resolve, reject) => {
        const s = net.connect({ host: '127.0.0.1', port: b.ports.cluster }, () => {
            s.write('GET /api/v1/nodes HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
        });
        const chunks = [];
        s.setTimeout(5000, () => s.destroy()); // short on purpose: no answer is expected
        s.on('data', (c) => chunks.push(c));
        s.on('close', () => resolve(Buffer.concat(chunks)));
        s.on('error', (e) => (e.code === 'ECONNRESET' ? resolve(Buffer.concat(chunks)) : reject(e)));
    });
    const text = raw.toString('latin1');
    if (text.startsWith('HTTP/'))
        assert.match(text, /^HTTP\/1\.[01] 400 /, `only a "use HTTPS" 400 may come back: ${text}`);
    assert.ok(!text.includes('NodeList') && !text.includes('node-1'), 'no API data in plain text');

    for (const base of [b.serviceUrl, b.adminUrl]) {
        for (const p of ['/api/v1/nodes', '/api', '/version']) {
            const r = await fetch(base + p, { headers: { Authorization: `Bearer ${b.adminToken}` } });
            const body = await r.text();
            assert.ok(r.status === 404 || r.status === 401, `${base}${p}: ${r.status}`);
            assert.ok(!body.includes('node-1') && !body.includes('"gitVersion"'), `${base}${p} serves no cluster data`);
        }
    }
});

// 7 ------------------------------------------------------------------------------------------
test('python3-kubernetes client: list, strategic-merge patch, NodeRestriction, version, 404, SSAR', async () => {
    const v = await pyClient(files.node1, 'version');
    assert.equal(v.ok, true, JSON.stringify(v));
    assert.equal(v.result.git_version, 'v1.32.4');
    assert.equal(v.result.minor, '32');

    const list = await pyClient(files.admin, 'list_nodes');
    assert.equal(list.ok, true, JSON.stringify(list));
    assert.deepEqual(list.result.names, ['node-1', 'node-2', 'node-3']);
    assert.equal(list.result.kind, 'NodeList');

    const ok = await pyClient(files.node1, 'patch_labels', 'node-1', JSON.stringify({ 'py-client': 'yes' }));
    assert.equal(ok.ok, true, JSON.stringify(ok));
    assert.equal(ok.result.labels['py-client'], 'yes');
    assert.equal((await nodeLabels(b, 'node-1'))['py-client'], 'yes');

    const prot = await pyClient(files.node1, 'patch_labels', 'node-1', JSON.stringify({ 'node-restriction.kubernetes.io/x': 'y' }));
    assert.equal(prot.ok, false);
    assert.equal(prot.exitCode, 2, JSON.stringify(prot));
    assert.equal(prot.status, 403);
    assert.equal(prot.reason, 'Forbidden');
    assert.deepEqual(prot.body, statusBody({
        message: 'nodes "node-1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/x',
        reason: 'Forbidden', details: { name: 'node-1', kind: 'nodes' }, code: 403 }));

    const other = await pyClient(files.node1, 'patch_labels', 'node-2', JSON.stringify({ 'py-client': 'yes' }));
    assert.equal(other.status, 403, JSON.stringify(other));
    assert.equal(other.reason, 'Forbidden');
    assert.equal(other.body.message, 'nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"');
    assert.deepEqual(other.body.details, { name: 'node-2', kind: 'nodes' });
    assert.equal((await nodeLabels(b, 'node-2'))['py-client'], undefined);

    const missing = await pyClient(files.admin, 'read_node', 'nope');
    assert.equal(missing.status, 404, JSON.stringify(missing));
    assert.equal(missing.reason, 'Not Found');
    assert.equal(missing.body.message, 'nodes "nope" not found');
    assert.equal(missing.body.reason, 'NotFound');

    const read = await pyClient(files.node1, 'read_node', 'node-1');
    assert.equal(read.ok, true, JSON.stringify(read));
    assert.equal(read.result.kubeletVersion, 'v1.32.4');

    // SSAR as the Python client sends it (JSON without apiVersion / kind)
    const canSelf = await pyClient(files.node1, 'can_i', 'get', 'nodes', 'node-1');
    assert.equal(canSelf.ok, true, JSON.stringify(canSelf));
    assert.equal(canSelf.result.allowed, true);
    const canAll = await pyClient(files.node1, 'can_i', 'list', 'nodes');
    assert.equal(canAll.result.allowed, false);
    assert.equal(canAll.result.reason, "node 'node-1' cannot read all nodes, only its own Node object");

    // A LocalSubjectAccessReview as the Python client's callers write it, metadata.namespace
    // set: answered, as kube does; without it too; another namespace in the body is kube's 400.
    for (const bodyNs of ['default', '-']) {
        const local = await pyClient(files.admin, 'local_can_i', 'default', bodyNs, 'nobody', 'list', 'pods');
        assert.equal(local.ok, true, JSON.stringify(local));
        assert.equal(local.result.allowed, false, JSON.stringify(local));
    }
    const mixed = await pyClient(files.admin, 'local_can_i', 'default', 'kube-system', 'nobody', 'list', 'pods');
    assert.equal(mixed.status, 400, JSON.stringify(mixed));
    assert.equal(mixed.body.message, 'the namespace of the provided object does not match the namespace sent on the request');
    assert.equal(mixed.body.reason, 'BadRequest');
});

// 8 ------------------------------------------------------------------------------------------
test('Status bodies over HTTPS with a client certificate: exact bytes for 404, 405, 409, 415, 422, 400, 403', async () => {
    const as = (method, path, opts = {}) => kubeRequest(b, method, path, { creds: admin, ...opts });
    const expectStatus = (r, body, ctx) => {
        assert.equal(r.status, body.code, `${ctx}: ${r.text}`);
        assert.match(r.headers['content-type'], /^application\/json/, ctx);
        assert.equal(r.text, compact(body), ctx);
    };

    const notFound = statusBody({ message: 'nodes "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'nodes' }, code: 404 });
    expectStatus(await as('GET', '/api/v1/nodes/x'), notFound, 'GET missing node');
    assert.equal(compact(notFound),
                 '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"nodes"},"code":404}\n');
    const prettyR = await as('GET', '/api/v1/nodes/x?pretty=true');
    assert.equal(prettyR.text, pretty(notFound), '?pretty=true');
    expectStatus(await as('GET', '/api/v1/nonexistent'),
                 statusBody({ message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 }),
                 'unknown resource');

    expectStatus(await as('PUT', '/api/v1/nodes', { body: {} }),
                 statusBody({ message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 }),
                 'PUT on a collection');

    expectStatus(await as('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-3' } } }),
                 statusBody({ message: 'nodes "node-3" already exists', reason: 'AlreadyExists', details: { name: 'node-3', kind: 'nodes' }, code: 409 }),
                 'create existing');
    const current = await as('GET', '/api/v1/nodes/node-3');
    assert.equal(current.status, 200);
    const stale = structuredClone(current.json);
    stale.metadata.resourceVersion = '1';
    stale.metadata.labels = { ...stale.metadata.labels, stale: 'yes' };
    const conflict = statusBody({
        message: 'Operation cannot be fulfilled on nodes "node-3": the object has been modified; please apply your changes to the latest version and try again',
        reason: 'Conflict', details: { name: 'node-3', kind: 'nodes' }, code: 409 });
    expectStatus(await as('PUT', '/api/v1/nodes/node-3', { body: stale }), conflict, 'PUT with a stale resourceVersion');
    expectStatus(await as('PATCH', '/api/v1/nodes/node-3', { body: { metadata: { resourceVersion: '1', labels: { stale: 'yes' } } },
                                                              headers: { 'Content-Type': 'application/merge-patch+json' } }),
                 conflict, 'PATCH with a stale resourceVersion');
    assert.equal((await nodeLabels(b, 'node-3')).stale, undefined);
    const fresh = structuredClone(current.json);
    fresh.metadata.labels = { ...fresh.metadata.labels, fresh: 'yes' };
    const put = await as('PUT', '/api/v1/nodes/node-3', { body: fresh });
    assert.equal(put.status, 200, put.text);
    assert.notEqual(put.json.metadata.resourceVersion, current.json.metadata.resourceVersion);

    const r415 = await as('PATCH', '/api/v1/nodes/node-3', { body: 'metadata: {}', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(r415.status, 415, r415.text);
    assert.equal(r415.json.reason, 'UnsupportedMediaType');
    assert.ok(r415.text.startsWith('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: '), r415.text);
    assert.ok(r415.text.endsWith('","reason":"UnsupportedMediaType","code":415}\n'), 'no details');
    assert.ok(r415.json.message.includes('application/merge-patch+json'));

    const bad = await as('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'Bad_Name' } } });
    assert.equal(bad.status, 422, bad.text);
    const rfc1123 = 'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')';
    expectStatus(bad, statusBody({
        message: `Node "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${rfc1123}`,
        reason: 'Invalid',
        details: { name: 'Bad_Name', kind: 'Node', causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${rfc1123}`, field: 'metadata.name' }] },
        code: 422 }), 'invalid node name');

    const badLabel = await as('PATCH', '/api/v1/nodes/node-3', { body: { metadata: { labels: { ok: 'bad value!' } } },
                                                                  headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(badLabel.status, 422, badLabel.text);
    assert.equal(badLabel.json.reason, 'Invalid');
    assert.ok(badLabel.json.message.startsWith('Node "node-3" is invalid: metadata.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters'), badLabel.json.message);
    assert.equal(badLabel.json.details.kind, 'Node');
    assert.equal(badLabel.json.details.causes[0].field, 'metadata.labels');
    assert.equal((await nodeLabels(b, 'node-3')).ok, undefined);

    const malformed = await as('POST', '/api/v1/nodes', { body: '{"apiVersion":' });
    assert.equal(malformed.status, 400, malformed.text);
    assert.equal(malformed.json.reason, 'BadRequest');
    assert.equal(malformed.json.details, undefined, 'BadRequest has no details');
    assert.ok(malformed.text.endsWith('"reason":"BadRequest","code":400}\n'), malformed.text);

    // authorization comes before routing: a user without rights gets 403, never 404
    const bob = await issueKubeconfig(b, { kind: 'user', name: 'bob' });
    const denied = await kubeRequest(b, 'GET', '/api/v1/nonexistent', { creds: bob });
    expectStatus(denied, statusBody({
        message: 'nonexistent is forbidden: User "bob" cannot list resource "nonexistent" in API group "" at the cluster scope',
        reason: 'Forbidden', details: { kind: 'nonexistent' }, code: 403 }), 'denied user, unknown resource');
    assert.equal(denied.headers['x-content-type-options'], 'nosniff');
    expectStatus(await kubeRequest(b, 'GET', '/api/v1/nodes/x', { creds: bob }), statusBody({
        message: 'nodes "x" is forbidden: User "bob" cannot get resource "nodes" in API group "" at the cluster scope',
        reason: 'Forbidden', details: { name: 'x', kind: 'nodes' }, code: 403 }), 'denied user, missing node');
    expectStatus(await kubeRequest(b, 'PUT', '/api/v1/nodes', { creds: bob, body: {} }), statusBody({
        message: 'nodes is forbidden: User "bob" cannot update resource "nodes" in API group "" at the cluster scope',
        reason: 'Forbidden', details: { kind: 'nodes' }, code: 403 }), 'denied user, wrong method');
    expectStatus(await kubeRequest(b, 'PATCH', '/api/v1/nodes/n1/status', { creds: bob, body: {}, headers: { 'Content-Type': 'application/merge-patch+json' } }), statusBody({
        message: 'nodes "n1" is forbidden: User "bob" cannot patch resource "nodes/status" in API group "" at the cluster scope',
        reason: 'Forbidden', details: { name: 'n1', kind: 'nodes' }, code: 403 }), 'subresource');
    const bobRoot = await kubeRequest(b, 'GET', '/', { creds: bob });
    expectStatus(bobRoot, statusBody({ message: 'forbidden: User "bob" cannot get path "/"', reason: 'Forbidden', details: {}, code: 403 }), 'GET / as bob');
    const nsForbidden = await kubeRequest(b, 'GET', '/api/v1/namespaces/default/pods?watch=1', { creds: bob });
    assert.equal(nsForbidden.json.message, 'pods is forbidden: User "bob" cannot watch resource "pods" in API group "" in the namespace "default"');
    assert.deepEqual(nsForbidden.json.details, { kind: 'pods' });
});

// 9 ------------------------------------------------------------------------------------------
test('explain (dry run) and requests (for real) as another identity', async () => {
    const nodeAgent = { user: 'system:node:node-1', groups: ['system:nodes'] };
    const before2 = await nodeLabels(b, 'node-2');

    const other = { ...nodeAgent, node: 'node-2', labels: { foo: 'bar' } };
    const ex = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', other);
    assert.equal(ex.status, 200, ex.text);
    assert.equal(ex.json.code, 403);
    assert.equal(ex.json.dryRun, true);
    assert.equal(ex.json.authentication.user.username, 'system:node:node-1');
    assert.deepEqual(ex.json.authentication.user.groups, ['system:nodes', 'system:authenticated']);
    assert.equal(ex.json.request.verb, 'patch');
    assert.equal(ex.json.request.resource, 'nodes');
    assert.equal(ex.json.request.name, 'node-2');
    assert.equal(ex.json.authorization.decision, 'allow');
    assert.equal(ex.json.authorization.decidedBy, 'Node');
    assert.equal(ex.json.admission.decision, 'deny');
    assert.equal(ex.json.admission.plugin, 'NodeRestriction');
    const nrStep = ex.json.admission.steps.find((s) => s.plugin === 'NodeRestriction');
    assert.equal(nrStep.message, 'node "node-1" is not allowed to modify node "node-2"');
    assert.deepEqual(ex.json.status, statusBody({
        message: 'nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"',
        reason: 'Forbidden', details: { name: 'node-2', kind: 'nodes' }, code: 403 }));
    assert.deepEqual(await nodeLabels(b, 'node-2'), before2, 'explain stores nothing');

    const protectedLabel = await adminFetch(b, 'POST', '/admin/v1/cluster/explain',
                                            { ...nodeAgent, node: 'node-1', labels: { 'node-restriction.kubernetes.io/x': 'y' } });
    assert.equal(protectedLabel.json.code, 403);
    assert.equal(protectedLabel.json.admission.decision, 'deny');
    assert.equal(protectedLabel.json.admission.plugin, 'NodeRestriction');
    assert.equal(protectedLabel.json.admission.steps.find((s) => s.plugin === 'NodeRestriction').message,
                 'is not allowed to modify labels: node-restriction.kubernetes.io/x');
    assert.equal(protectedLabel.json.status.message,
                 'nodes "node-1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/x');

    // an allowed change is only simulated
    const dry = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { ...nodeAgent, node: 'node-1', labels: { 'dry-run': 'yes' } });
    assert.equal(dry.json.code, 200, dry.text);
    assert.equal(dry.json.dryRun, true);
    assert.equal(dry.json.admission.decision, 'allow');
    assert.equal((await nodeLabels(b, 'node-1'))['dry-run'], undefined, 'explain stores nothing');

    // system:masters: the privileged-group authorizer allows before Node and RBAC (kube.md §3.2)
    const adminEx = await adminFetch(b, 'POST', '/admin/v1/cluster/explain',
                                     { user: 'admin', groups: ['system:masters'], method: 'GET', path: '/api/v1/nodes' });
    assert.equal(adminEx.json.code, 200, adminEx.text);
    assert.equal(adminEx.json.authorization.decision, 'allow');
    assert.equal(adminEx.json.request.verb, 'list');
    // the RBAC attribution of a binding to ClusterRole cluster-admin
    const bound = await importRbac(b, `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: olga-admin}
subjects: [{kind: User, name: olga, apiGroup: rbac.authorization.k8s.io}]
roleRef: {kind: ClusterRole, name: cluster-admin, apiGroup: rbac.authorization.k8s.io}
`);
    assert.equal(bound.json.results[0].code, 201, bound.text);
    const olga = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { user: 'olga', method: 'GET', path: '/api/v1/nodes' });
    assert.equal(olga.json.code, 200, olga.text);
    assert.equal(olga.json.authorization.decision, 'allow');
    assert.equal(olga.json.authorization.decidedBy, 'RBAC');
    assert.equal(olga.json.authorization.rbac.bindingKind, 'ClusterRoleBinding');
    assert.equal(olga.json.authorization.rbac.bindingName, 'olga-admin');
    assert.equal(olga.json.authorization.rbac.roleName, 'cluster-admin');
    assert.equal(olga.json.authorization.reason, 'RBAC: allowed by ClusterRoleBinding "olga-admin" of ClusterRole "cluster-admin" to User "olga"');

    const alice = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { user: 'alice', groups: ['devs'], method: 'GET', path: '/api/v1/nodes' });
    assert.equal(alice.json.authorization.rbac.bindingName, 'devs-read-nodes');
    const bobEx = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { user: 'bob', method: 'GET', path: '/api/v1/nodes' });
    assert.equal(bobEx.json.code, 403);
    assert.equal(bobEx.json.authorization.decision, 'deny');
    assert.equal(bobEx.json.status.message, 'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope');

    // The denial explainer: bindings that name bob but do not apply, each with why.
    const near = await importRbac(b, `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: pod-lister}
rules: [{apiGroups: [""], resources: [pods], verbs: [list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: bob-pods, namespace: default}
subjects: [{kind: User, name: bob, apiGroup: rbac.authorization.k8s.io}]
roleRef: {kind: ClusterRole, name: pod-lister, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bob-ghost}
subjects: [{kind: User, name: bob, apiGroup: rbac.authorization.k8s.io}]
roleRef: {kind: ClusterRole, name: no-such-role, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bob-lister}
subjects: [{kind: User, name: bob, apiGroup: rbac.authorization.k8s.io}]
roleRef: {kind: ClusterRole, name: pod-lister, apiGroup: rbac.authorization.k8s.io}
`);
    assert.deepEqual(near.json.results.map((r) => r.code), [201, 201, 201, 201], near.text);
    const bobWhy = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { user: 'bob', method: 'GET', path: '/api/v1/nodes' });
    assert.equal(bobWhy.json.code, 403, bobWhy.text);
    assert.equal(bobWhy.json.denial.stage, 'authorization');
    assert.equal(bobWhy.json.denial.by, 'Node, RBAC');
    assert.equal(bobWhy.json.denial.message, bobEx.json.status.message);
    const misses = Object.fromEntries(bobWhy.json.authorization.nearMisses.map((n) => [n.bindingName, n]));
    assert.equal(bobWhy.json.denial.nearMisses, bobWhy.json.authorization.nearMisses.length);
    assert.equal(misses['bob-pods'].code, 'namespace');
    assert.equal(misses['bob-pods'].bindingNamespace, 'default');
    assert.equal(misses['bob-pods'].message, 'a RoleBinding grants only inside namespace "default"; the request is cluster-wide');
    assert.equal(misses['bob-ghost'].code, 'roleNotFound');
    assert.equal(misses['bob-ghost'].message, 'roleRef names ClusterRole "no-such-role", which does not exist');
    assert.equal(misses['bob-lister'].code, 'noRuleMatches');
    assert.deepEqual(misses['bob-lister'].subject, { kind: 'User', name: 'bob' });
    assert.deepEqual(misses['bob-lister'].rules[0].codes, ['resource']);
    assert.deepEqual(misses['bob-lister'].rules[0].messages, ['resource "nodes" is not in [pods]']);
    // the bootstrap binding every authenticated user has, through the group
    assert.equal(misses['system:basic-user'].subject.kind, 'Group');
    assert.equal(misses['system:basic-user'].subject.name, 'system:authenticated');
    // Effective access, the who-can matrix read the other way: what bob holds and why.
    const acc = await adminFetch(b, 'POST', '/admin/v1/cluster/access', { user: 'bob' });
    assert.equal(acc.status, 200, acc.text);
    assert.deepEqual(acc.json.user, { username: 'bob', groups: ['system:authenticated'] });
    assert.equal(acc.json.privileged, false);
    const podCells = acc.json.access.filter((c) => c.resource === 'pods');
    assert.deepEqual(podCells.map((c) => [c.scope, c.namespace ?? null, c.verb, c.via.map((v) => v.bindingName)]),
                     [['cluster', null, 'list', ['bob-lister']], ['namespace', 'default', 'list', ['bob-pods']]]);
    assert.equal(podCells[1].via[0].roleName, 'pod-lister');
    assert.equal(podCells[1].via[0].ruleIndex, 0);
    assert.deepEqual(podCells[1].via[0].subject, { kind: 'User', name: 'bob' });
    // through the group every authenticated user is in: discovery URLs and self reviews
    const version = acc.json.access.find((c) => c.nonResourceURL === '/version');
    assert.equal(version.verb, 'get');
    assert.ok(version.via.some((v) => v.bindingName === 'system:discovery' && v.subject.name === 'system:authenticated'));
    assert.ok(acc.json.access.some((c) => c.resource === 'selfsubjectaccessreviews' && c.verb === 'create'));
    assert.ok(!acc.json.access.some((c) => c.via.some((v) => v.bindingName === 'bob-ghost')), 'a missing role grants nothing');
    // each cell is what the real authorizer allows
    const listPods = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { user: 'bob', method: 'GET', path: '/api/v1/pods' });
    assert.equal(listPods.json.authorization.decision, 'allow', listPods.text);
    const admins = await adminFetch(b, 'POST', '/admin/v1/cluster/access', { user: 'root', groups: ['system:masters'] });
    assert.equal(admins.json.privileged, true);
    assert.match(admins.json.notes[0], /system:masters/);
    const agent = await adminFetch(b, 'POST', '/admin/v1/cluster/access', nodeAgent);
    assert.ok(agent.json.notes.some((n) => n.includes('the Node authorizer also grants node "node-1"')), agent.text);
    for (const badBody of [{}, { user: 'x', groups: 'g' }]) {
        const r = await adminFetch(b, 'POST', '/admin/v1/cluster/access', badBody);
        assert.equal(r.status, 400, r.text);
    }

    // bob can list pods in default: nothing is missed, nothing is listed
    const bobPods = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { user: 'bob', method: 'GET', path: '/api/v1/namespaces/default/pods' });
    assert.equal(bobPods.json.code, 200, bobPods.text);
    assert.equal(bobPods.json.authorization.nearMisses, undefined);
    assert.equal(bobPods.json.denial, undefined);
    // a denial by the Node authorizer quotes it
    const nodeRead = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { ...nodeAgent, method: 'GET', path: '/api/v1/nodes/node-2' });
    assert.equal(nodeRead.json.code, 403, nodeRead.text);
    assert.deepEqual(nodeRead.json.denial.quotes, [{ authorizer: 'Node', decision: 'no-opinion', reason: "node 'node-1' cannot read 'node-2', only its own Node object" }]);
    // an admission denial names the plugin and quotes the answer
    assert.deepEqual(ex.json.denial, { stage: 'admission', by: 'NodeRestriction', message: ex.json.status.message });
    // the real request is recorded with the same explanation for the cluster-requests view
    const bobReal = await adminFetch(b, 'POST', '/admin/v1/cluster/requests', { user: 'bob', method: 'GET', path: '/api/v1/nodes' });
    assert.equal(bobReal.json.code, 403);
    assert.equal(bobReal.json.trace.denial.stage, 'authorization');

    // the real request endpoint: same input, same code; allowed changes are stored
    const real = await adminFetch(b, 'POST', '/admin/v1/cluster/requests', other);
    assert.equal(real.status, 200, real.text);
    assert.equal(real.json.code, 403);
    assert.equal(real.json.body.message, ex.json.status.message);
    assert.deepEqual(await nodeLabels(b, 'node-2'), before2);
    const realOwn = await adminFetch(b, 'POST', '/admin/v1/cluster/requests', { ...nodeAgent, node: 'node-1', labels: { 'via-requests': 'yes' } });
    assert.equal(realOwn.json.code, 200, realOwn.text);
    assert.equal(realOwn.json.body.metadata.labels['via-requests'], 'yes');
    assert.equal((await nodeLabels(b, 'node-1'))['via-requests'], 'yes');

    const recent = await adminFetch(b, 'GET', '/admin/v1/cluster/requests');
    assert.equal(recent.status, 200);
    const denial = recent.json.items.find((i) => i.user === 'system:node:node-1' && i.path === '/api/v1/nodes/node-2' && i.code === 403 && i.stage === 'admission');
    assert.ok(denial, 'the NodeRestriction denial is in the recent decisions');
    assert.equal(denial.verb, 'patch');
    assert.equal(denial.verdict, 'denied');
    assert.equal(denial.deniedBy, 'NodeRestriction');
    // oldest first: the last one is the request made after the bindings were imported
    const bobRecent = recent.json.items.filter((i) => i.user === 'bob' && i.path === '/api/v1/nodes' && i.code === 403).at(-1);
    assert.ok(bobRecent, 'bob\'s denial is in the recent decisions');
    assert.equal(bobRecent.stage, 'authorization');
    assert.equal(bobRecent.deniedBy, 'Node, RBAC');
    assert.equal(bobRecent.nearMisses.find((n) => n.bindingName === 'bob-ghost').code, 'roleNotFound');
    assert.equal(bobRecent.nearMisses.find((n) => n.bindingName === 'bob-pods').code, 'namespace');
});

test('explain: anonymous GET / is an authorization deny (403) while anonymous access is on', async () => {
    const settings = await adminFetch(b, 'GET', '/admin/v1/cluster/settings');
    assert.equal(settings.json.anonymousAuth, true);
    const real = await curlStatus(['--cacert', clusterCaPath(b), `${b.clusterUrl}/`]);
    assert.equal(real.status, 403);
    const ex = await adminFetch(b, 'POST', '/admin/v1/cluster/explain', { anonymous: true, method: 'GET', path: '/' });
    assert.equal(ex.status, 200, ex.text);
    assert.equal(ex.json.code, 403, `explain must predict what curl got (403): ${ex.text}`);
    assert.equal(ex.json.authentication?.user?.username, 'system:anonymous');
    assert.equal(ex.json.authorization?.decision, 'deny');
    assert.deepEqual(ex.json.status, anonymousForbidden);
    const req = await adminFetch(b, 'POST', '/admin/v1/cluster/requests', { anonymous: true, method: 'GET', path: '/version' });
    assert.equal(req.json.code, 200, `anonymous GET /version is open: ${req.text}`);
});

// 10 -----------------------------------------------------------------------------------------
test('kubeconfig: embedded data, the redacted view equals kubectl config view, file references work', async () => {
    const full = yaml.load(admin.kubeconfig);
    assert.equal(full.apiVersion, 'v1');
    assert.equal(full.kind, 'Config');
    assert.equal(full.clusters[0].cluster.server, b.clusterUrl);
    const b64 = (s) => Buffer.from(s).toString('base64');
    assert.equal(full.clusters[0].cluster['certificate-authority-data'], b64(admin.caPem));
    assert.equal(full.users[0].user['client-certificate-data'], b64(admin.certificatePem));
    assert.equal(full.users[0].user['client-key-data'], b64(admin.keyPem));
    assert.equal(full['current-context'], full.contexts[0].name);

    const redacted = yaml.load(admin.redacted);
    assert.equal(redacted.clusters[0].cluster['certificate-authority-data'], 'DATA+OMITTED');
    assert.equal(redacted.users[0].user['client-certificate-data'], 'DATA+OMITTED');
    assert.equal(redacted.users[0].user['client-key-data'], 'DATA+OMITTED');
    assert.ok(!admin.redacted.includes(b64(admin.keyPem)), 'no key data');
    assert.ok(!admin.redacted.includes('PRIVATE KEY'));
    const keyBody = admin.keyPem.split('\n').filter((l) => l && !l.startsWith('-----')).join('');
    assert.ok(!admin.redacted.includes(keyBody.slice(0, 40)), 'no raw key material');

    const view = await kubectlRaw(['config', 'view'], { kubeconfig: files.admin, cacheDir });
    assert.equal(view.code, 0, view.stderr);
    assert.deepEqual(yaml.load(view.stdout), redacted, 'kubectl config view == redacted');
    assert.equal((view.stdout.match(/DATA\+OMITTED/g) ?? []).length, 3);
    const raw = await kubectlRaw(['config', 'view', '--raw'], { kubeconfig: files.admin, cacheDir });
    assert.deepEqual(yaml.load(raw.stdout), full, 'kubectl config view --raw == kubeconfig');

    const fdir = mkdtempSync(join(dir, 'files-'));
    const paths = { ca: join(fdir, 'ca.crt'), certificate: join(fdir, 'carol.crt'), key: join(fdir, 'carol.key') };
    const carol = await issueKubeconfig(b, { kind: 'user', name: 'carol', groups: ['system:masters'], files: paths });
    const fy = yaml.load(carol.kubeconfig);
    assert.equal(fy.clusters[0].cluster['certificate-authority'], paths.ca);
    assert.equal(fy.users[0].user['client-certificate'], paths.certificate);
    assert.equal(fy.users[0].user['client-key'], paths.key);
    assert.equal(fy.clusters[0].cluster['certificate-authority-data'], undefined);
    assert.equal(fy.users[0].user['client-key-data'], undefined);
    assert.ok(!carol.kubeconfig.includes(b64(carol.keyPem)));
    writeFileSync(paths.ca, carol.caPem);
    writeFileSync(paths.certificate, carol.certificatePem);
    writeFileSync(paths.key, carol.keyPem, { mode: 0o600 });
    files.carol = writeKubeconfig(dir, 'carol', carol.kubeconfig);
    const nodes = await kubectl('carol', ['get', 'nodes', '-o', 'name']);
    assert.equal(nodes.code, 0, nodes.stderr);
    assert.equal(nodes.stdout, 'node/node-1\nnode/node-2\nnode/node-3\n');
    const carolView = await kubectl('carol', ['config', 'view']);
    assert.deepEqual(yaml.load(carolView.stdout), yaml.load(carol.redacted), 'file references stay visible in both views');
});

// 11 -----------------------------------------------------------------------------------------
test('bad admin input: 400 with {error, message}, nothing created or changed', async () => {
    const bad = async (method, path, body, headers) => {
        const r = await adminFetch(b, method, path, body, headers);
        assert.equal(r.status, 400, `${method} ${path} ${typeof body === 'string' ? body : JSON.stringify(body)}: ${r.status} ${r.text}`);
        assert.equal(typeof r.json?.error, 'string', r.text);
        assert.ok(r.json.message.length > 0, r.text);
        return r;
    };
    for (const body of ['{"kind":"user"', '[]', { kind: 'x', name: 'a' }, { kind: 'user', name: '' },
                        { kind: 'node', name: '' }, { kind: 'user', name: 'a', groups: [1] }, { kind: 'user', name: 'a', groups: [''] }])
        await bad('POST', '/admin/v1/cluster/kubeconfigs', body);

    const settings = (await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json;
    for (const body of ['{', { authorizationModes: ['Node'] }, { authorizationModes: ['AlwaysAllow'] }, { admissionPlugins: ['Foo'] },
                        { bogus: 1 }, { anonymousAuth: 'no' }])
        await bad('PUT', '/admin/v1/cluster/settings', body);
    assert.deepEqual((await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json, settings, 'settings unchanged');

    const labels1 = await nodeLabels(b, 'node-1');
    for (const body of ['{', { path: '/' }, { user: 'a', groups: 'x', method: 'GET', path: '/' }, { user: 'a', path: 'nope' },
                        { user: 'system:node:node-1', groups: ['system:nodes'], node: 'node-1', labels: 'x' }]) {
        await bad('POST', '/admin/v1/cluster/explain', body);
        await bad('POST', '/admin/v1/cluster/requests', body);
    }
    assert.deepEqual(await nodeLabels(b, 'node-1'), labels1);

    const yamlHeaders = { 'Content-Type': 'application/yaml' };
    await bad('POST', '/admin/v1/cluster/rbac/import', 'kind: [ : ::', yamlHeaders);
    const mixed = await bad('POST', '/admin/v1/cluster/rbac/import', `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: should-not-exist}
rules: []
---
apiVersion: v1
kind: Pod
metadata: {name: p}
`, yamlHeaders);
    assert.match(mixed.json.message, /Pod/);
    const absent = await adminKube(b, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/should-not-exist');
    assert.equal(absent.status, 404, 'nothing of a refused manifest is imported');
});

test('bad admin input: wrong JSON types on POST /admin/v1/cluster/kubeconfigs are refused, not ignored', async () => {
    // A value of the wrong JSON type must not be silently dropped or replaced by a default: a
    // "groups": "devs" that vanishes issues a certificate without the group the caller asked for.
    const cases = {
        'groups: "devs"': { kind: 'user', name: 'typo', groups: 'devs' },
        'groups: {a: 1}': { kind: 'user', name: 'typo', groups: { a: 1 } },
        'kind: 5': { kind: 5, name: 'typo' },
        'files: "x"': { kind: 'user', name: 'typo', files: 'x' },
        'validityDays: "abc"': { kind: 'user', name: 'typo', validityDays: 'abc' },
        // Beyond a certificate's common name or organization (64): refused, not a 500.
        'a 65-character user name': { kind: 'user', name: 'u'.repeat(65) },
        'a 53-character node name': { kind: 'node', name: 'n'.repeat(53) },
        'a 65-character group': { kind: 'user', name: 'typo', groups: ['g'.repeat(65)] },
    };
    const answers = {};
    for (const [label, body] of Object.entries(cases))
        answers[label] = (await adminFetch(b, 'POST', '/admin/v1/cluster/kubeconfigs', body)).status;
    assert.deepEqual(answers, Object.fromEntries(Object.keys(cases).map((k) => [k, 400])));
    const longest = await adminFetch(b, 'POST', '/admin/v1/cluster/kubeconfigs', { kind: 'node', name: 'n'.repeat(52) });
    assert.equal(longest.status, 201, longest.text);
    // Ten years asked: never past the CA's own end (its certificate, ten years from its start).
    const decade = await adminFetch(b, 'POST', '/admin/v1/cluster/kubeconfigs', { kind: 'user', name: 'decade', validityDays: 3650 });
    assert.equal(decade.status, 201, decade.text);
    const caEnd = new X509Certificate(readFileSync(clusterCaPath(b))).validTo;
    assert.ok(Date.parse(decade.json.expiresAt) <= Date.parse(caEnd), `${decade.json.expiresAt} after the CA's ${caEnd}`);
    const certData = decade.json.kubeconfig.match(/client-certificate-data: (\S+)/);
    assert.ok(certData, decade.json.kubeconfig.slice(0, 300));
    const issued = new X509Certificate(Buffer.from(certData[1], 'base64'));
    assert.ok(Date.parse(issued.validTo) <= Date.parse(caEnd), `${issued.validTo} after the CA's ${caEnd}`);
});

// 12 -----------------------------------------------------------------------------------------
test('namespaces: NamespaceLifecycle (missing and terminating namespaces) and finalizers', async () => {
    const pod = (name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    const created = await adminKube(b, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.status.phase, 'Active');
    const p = await adminKube(b, 'POST', '/api/v1/namespaces/team-a/pods', pod('p1'));
    assert.equal(p.status, 201, p.text);

    const missing = await kubeRequest(b, 'POST', '/api/v1/namespaces/nope/pods', { creds: admin, body: pod('p1') });
    assert.equal(missing.text, compact(statusBody({ message: 'namespaces "nope" not found', reason: 'NotFound',
                                                    details: { name: 'nope', kind: 'namespaces' }, code: 404 })));

    const held = await adminKube(b, 'POST', '/api/v1/namespaces',
                                 { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    assert.equal(held.status, 201, held.text);
    const del = await adminKube(b, 'DELETE', '/api/v1/namespaces/held');
    assert.equal(del.status, 200, del.text);
    assert.equal(del.json.status.phase, 'Terminating');
    const get = await adminKube(b, 'GET', '/api/v1/namespaces/held');
    assert.equal(get.status, 200);
    assert.equal(get.json.status.phase, 'Terminating');
    assert.ok(get.json.metadata.deletionTimestamp);
    const ns = await kubectl('admin', ['get', 'ns', 'held', '--no-headers']);
    assert.match(ns.stdout, /^held\s+Terminating\s/);

    const inTerminating = await kubeRequest(b, 'POST', '/api/v1/namespaces/held/pods', { creds: admin, body: pod('p2') });
    assert.equal(inTerminating.text, compact(statusBody({
        message: 'pods "p2" is forbidden: unable to create new content in namespace held because it is being terminated',
        reason: 'Forbidden', details: { name: 'p2', kind: 'pods' }, code: 403 })));

    const release = await adminKube(b, 'PATCH', '/api/v1/namespaces/held', { metadata: { finalizers: null } },
                                    { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(release.status, 200, release.text);
    const gone = await waitFor(async () => {
        const r = await adminKube(b, 'GET', '/api/v1/namespaces/held');
        return r.status === 404 ? r : null;
    }, { message: 'the namespace gone' });
    assert.equal(gone.status, 404, gone.text);
    assert.equal(gone.json.message, 'namespaces "held" not found');
});

// 13 -----------------------------------------------------------------------------------------
async function waitForVersion(backend, port, { up }) {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
        let ok = false;
        try {
            const r = await kubeRequest(backend, 'GET', '/version', { port });
            ok = r.status === 200 && JSON.parse(r.text).minor === '32';
        } catch {
            ok = false;
        }
        if (ok === up)
            return;
        if (Date.now() > deadline)
            throw new Error(`port ${port} did not ${up ? 'answer' : 'close'} within ${TIMEOUT_MS} ms`);
        await sleep(100);
    }
}

let nodePort;
test('NodePort: service default/kubernetes type NodePort opens the API on a node port (30000-32767)', async () => {
    const svc = '/api/v1/namespaces/default/services/kubernetes';
    const before = await adminKube(b, 'GET', svc);
    assert.equal(before.json.spec.type, 'ClusterIP');
    assert.equal(before.json.spec.clusterIP, '10.96.0.1');
    assert.equal(before.json.spec.ports[0].port, 443);
    const r = await adminKube(b, 'PATCH', svc, { spec: { type: 'NodePort' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.spec.type, 'NodePort');
    nodePort = r.json.spec.ports[0].nodePort;
    assert.ok(Number.isInteger(nodePort) && nodePort >= 30000 && nodePort <= 32767, `nodePort ${nodePort}`);
    await waitForVersion(b, nodePort, { up: true });
    const got = await curlStatus(['--cacert', clusterCaPath(b), `https://127.0.0.1:${nodePort}/version`]);
    assert.equal(got.status, 200, got.stderr);
    // same authentication and authorization as the cluster port
    const anon = await curlStatus(['--cacert', clusterCaPath(b), `https://127.0.0.1:${nodePort}/`]);
    assert.equal(anon.body, pretty(anonymousForbidden));
    const asAdmin = await kubeRequest(b, 'GET', '/api/v1/nodes', { port: nodePort, creds: admin });
    assert.equal(asAdmin.status, 200);
});

test('NodePort: patching type back to ClusterIP (type only) clears the nodePort and closes the port', async () => {
    assert.ok(nodePort, 'the previous test opened a node port');
    const svc = '/api/v1/namespaces/default/services/kubernetes';
    try {
        // kube-apiserver (>= 1.20) drops unchanged node ports when the type no longer needs them
        const r = await adminKube(b, 'PATCH', svc, { spec: { type: 'ClusterIP' } }, { 'Content-Type': 'application/merge-patch+json' });
        assert.equal(r.status, 200, `merge patch {"spec":{"type":"ClusterIP"}}: ${r.status} ${r.text}`);
        assert.equal(r.json.spec.type, 'ClusterIP');
        assert.equal(r.json.spec.ports[0].nodePort, undefined);
        await waitForVersion(b, nodePort, { up: false });
    } finally {
        // make sure the service is back to ClusterIP for later tests, spelling out the ports
        const cur = await adminKube(b, 'GET', svc);
        if (cur.json.spec.type !== 'ClusterIP') {
            const fix = await adminKube(b, 'PATCH', svc, [{ op: 'replace', path: '/spec/type', value: 'ClusterIP' },
                                                          { op: 'remove', path: '/spec/ports/0/nodePort' }],
                                        { 'Content-Type': 'application/json-patch+json' });
            assert.equal(fix.status, 200, fix.text);
            assert.equal(fix.json.spec.ports[0].nodePort, undefined);
            await waitForVersion(b, nodePort, { up: false });
        }
    }
});

// 14 -----------------------------------------------------------------------------------------
test('--authorization-mode without RBAC: the process exits non-zero at start, naming RBAC', async () => {
    for (const mode of ['Node', 'AlwaysAllow']) {
        const data = mkdtempSync(join(dir, 'authz-'));
        const r = await run(binaryPath(), ['--headless', '--data-dir', data, '--service-port', '0', '--cluster-port', '0',
                                           '--admin-port', '0', '--authorization-mode', mode],
                            { env: { QT_LOGGING_RULES: 'gatehouse.access=false' } });
        assert.equal(r.timedOut, false, `--authorization-mode ${mode} must not start serving`);
        assert.notEqual(r.code, 0, `--authorization-mode ${mode}: exit code`);
        assert.match(r.stderr, /RBAC/);
        assert.ok(!existsSync(join(data, 'ports.json')), 'never listened');
    }
    const ok = await startBackend({ args: ['--authorization-mode', 'RBAC,Node', '--enable-admission-plugins', 'NodeRestriction'] });
    try {
        const s = await adminFetch(ok, 'GET', '/admin/v1/cluster/settings');
        assert.deepEqual(s.json.authorizationModes, ['RBAC', 'Node']);
        assert.deepEqual(s.json.admissionPlugins, ['NodeRestriction']);
    } finally {
        assert.equal(await ok.stop(), 0, ok.stderr);
    }
});

test('a pod\'s status is the server\'s: what a create sends in status is dropped (edit may not write pods/status)', async () => {
    const pods = '/admin/v1/cluster/k8s/api/v1/namespaces/default/pods';
    const forged = { conditions: [{ type: 'Ready', status: 'True' }], hostIP: '203.0.113.5', podIP: '203.0.113.6',
                     podIPs: [{ ip: '203.0.113.6' }], phase: 'Succeeded' };
    const made = await adminFetch(b, 'POST', pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'status-forged' },
                                                     spec: { containers: [{ name: 'c', image: 'busybox' }] }, status: forged });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.json.status, { phase: 'Pending' });
    assert.deepEqual((await adminFetch(b, 'GET', `${pods}/status-forged`)).json.status, { phase: 'Pending' });
    assert.equal((await adminFetch(b, 'DELETE', `${pods}/status-forged`)).status, 200);
});

test('bootstrap roles: edit and admin only read pods/status and services/status; a role stored with the old status writes gets today\'s rules at start', async () => {
    const k = await startBackend();
    const roles = (p) => `/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/clusterroles${p}`;
    const writesStatus = (role) => role.rules.some((r) => r.resources?.some((x) => x.endsWith('/status')) &&
                                                        r.verbs.includes('patch'));
    const oldEdit = [
        { verbs: ['get', 'list', 'watch', 'create', 'delete', 'deletecollection', 'patch', 'update'], apiGroups: [''],
          resources: ['pods', 'pods/status', 'services', 'services/status', 'serviceaccounts'] },
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'] }];
    let again;
    try {
        for (const name of ['edit', 'admin']) {
            const r = await adminFetch(k, 'GET', roles(`/${name}`));
            assert.equal(r.status, 200, r.text);
            assert.equal(writesStatus(r.json), false, `${name}: ${JSON.stringify(r.json.rules)}`);
            assert.ok(r.json.rules.some((x) => x.resources?.includes('pods/status') && x.verbs.includes('get')), name);
        }
        // As an earlier version stored edit; admin changed by an administrator (kept as it is).
        const edit = (await adminFetch(k, 'GET', roles('/edit'))).json;
        const putEdit = await adminFetch(k, 'PUT', roles('/edit'), { ...edit, rules: oldEdit });
        assert.equal(putEdit.status, 200, putEdit.text);
        const admin = (await adminFetch(k, 'GET', roles('/admin'))).json;
        const own = [...oldEdit, { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }];
        assert.equal((await adminFetch(k, 'PUT', roles('/admin'), { ...admin, rules: own })).status, 200);
        assert.equal(await k.stop(), 0, k.stderr);
        again = await startBackend({ dataDir: k.dataDir });
        const editNow = (await adminFetch(again, 'GET', roles('/edit'))).json;
        assert.equal(writesStatus(editNow), false, JSON.stringify(editNow.rules));
        assert.equal(editNow.metadata.uid, edit.metadata.uid, 'the same object, updated');
        assert.deepEqual((await adminFetch(again, 'GET', roles('/admin'))).json.rules, own, 'an administrator\'s role is left alone');
    } finally {
        if (again)
            assert.equal(await again.stop(), 0, again.stderr);
        else
            await k.stop();
    }
});

// 15 -----------------------------------------------------------------------------------------
test('settings apply live: without NodeRestriction a node agent may label another node', async () => {
    const orig = (await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json;
    const patch = (labels) => kubeRequest(b, 'PATCH', '/api/v1/nodes/node-2', {
        creds: node1, body: { metadata: { labels } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal((await patch({ 'live-toggle': 'a' })).status, 403);
    const off = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { admissionPlugins: ['NamespaceLifecycle', 'ServiceAccount'] });
    assert.equal(off.status, 200, off.text);
    try {
        const r = await patch({ 'live-toggle': 'b' });
        assert.equal(r.status, 200, r.text);
        assert.equal((await nodeLabels(b, 'node-2'))['live-toggle'], 'b');
    } finally {
        const back = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { admissionPlugins: orig.admissionPlugins });
        assert.equal(back.status, 200, back.text);
    }
    const again = await patch({ 'live-toggle': null });
    assert.equal(again.status, 403, again.text);
    assert.equal(again.json.message, 'nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"');
});

test('writes: a new object is never being deleted, a pod keeps its node and service account, a JSON patch cannot grow an object past 1.5 MiB nor copy past its budget', async () => {
    // deletionTimestamp set by the client on create: dropped (it kept a service account's
    // tokens working after a real deletion, tokenauth trusting the stored time).
    const sa = await adminKube(b, 'POST', '/api/v1/namespaces/default/serviceaccounts', {
        apiVersion: 'v1', kind: 'ServiceAccount',
        metadata: { name: 'pre-deleted', finalizers: ['example.com/hold'],
                    deletionTimestamp: '2099-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 } });
    assert.equal(sa.status, 201, sa.text);
    assert.equal(sa.json.metadata.deletionTimestamp, undefined, sa.text);
    assert.equal(sa.json.metadata.deletionGracePeriodSeconds, undefined, sa.text);
    const del = await adminKube(b, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/pre-deleted');
    assert.equal(del.status, 200, del.text);
    const at = Date.parse(del.json.metadata.deletionTimestamp);
    assert.ok(Math.abs(at - Date.now()) < 120_000, `the server's deletion time, not the client's: ${del.text}`);

    // A pod's node and service account are fixed once it exists (kube's pod update rules).
    const pod = await adminKube(b, 'POST', '/api/v1/namespaces/default/pods', {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bound' },
        spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } });
    assert.equal(pod.status, 201, pod.text);
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    for (const spec of [{ nodeName: 'node-2' }, { serviceAccountName: 'other' }]) {
        const moved = await adminKube(b, 'PATCH', '/api/v1/namespaces/default/pods/bound', { spec }, merge);
        assert.equal(moved.status, 422, moved.text);
        assert.equal(moved.json.reason, 'Invalid');
        assert.match(moved.json.message, /spec: Forbidden: pod updates may not change fields other than/);
    }
    const labelled = await adminKube(b, 'PATCH', '/api/v1/namespaces/default/pods/bound',
                                     { metadata: { labels: { tier: 'web' } } }, merge);
    assert.equal(labelled.status, 200, labelled.text);
    assert.equal(labelled.json.spec.nodeName, 'node-1');

    // JSON patch copies count by their size, strings too: 60 copies of a 250 kB string are
    // past the 10 MiB budget (each counted 16 bytes before: a 15 MB pod was stored).
    const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
    const copies = (n) => [{ op: 'add', path: '/spec/containers/0/args', value: ['x'.repeat(250_000)] },
                           ...Array.from({ length: n }, () => ({ op: 'copy', from: '/spec/containers/0/args/0',
                                                                 path: '/spec/containers/0/args/-' }))];
    const many = await adminKube(b, 'PATCH', '/api/v1/namespaces/default/pods/bound', copies(60), jsonPatch);
    assert.equal(many.status, 422, many.text.slice(0, 400));
    assert.match(many.json.message, /the values copied add up to more than 10485760 bytes/);
    // Six copies stay within the budget, but the pod would be 1.75 MB: refused, nothing stored.
    const six = await adminKube(b, 'PATCH', '/api/v1/namespaces/default/pods/bound', copies(6), jsonPatch);
    assert.equal(six.status, 413, six.text.slice(0, 400));
    assert.equal(six.json.reason, 'RequestEntityTooLarge');
    assert.match(six.json.message, /the limit is 1572864/);
    const after = await adminKube(b, 'GET', '/api/v1/namespaces/default/pods/bound');
    assert.equal(after.json.spec.containers[0].args, undefined);
    assert.ok(after.text.length < 10_000, `${after.text.length} bytes stored`);
});

test('RBAC rules validated as kube does: a resource rule needs apiGroups and resources, a URL rule nothing else (422, nothing stored)', async () => {
    const as = (method, path, opts = {}) => kubeRequest(b, method, path, { creds: admin, ...opts });
    const role = (kind, name, rules) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name }, rules });
    const cases = [
        ['clusterroles', role('ClusterRole', 'no-groups', [{ resources: ['*'], verbs: ['*'] }]),
         [['rules[0].apiGroups', 'FieldValueRequired', 'Required value: resource rules must supply at least one api group']]],
        ['clusterroles', role('ClusterRole', 'no-resources', [{ apiGroups: [''], verbs: ['get'] }]),
         [['rules[0].resources', 'FieldValueRequired', 'Required value: resource rules must supply at least one resource']]],
        ['clusterroles', role('ClusterRole', 'both', [{ apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/healthz'], verbs: ['get'] }]),
         [['rules[0].nonResourceURLs', 'FieldValueInvalid',
           'Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs']]],
        ['namespaces/default/roles', role('Role', 'urls', [{ nonResourceURLs: ['/metrics', '/healthz'], verbs: ['get'] }]),
         [['rules[0].nonResourceURLs', 'FieldValueInvalid',
           'Invalid value: []string{"/metrics", "/healthz"}: namespaced rules cannot apply to non-resource URLs']]],
    ];
    for (const [path, body, causes] of cases) {
        const r = await as('POST', `/apis/rbac.authorization.k8s.io/v1/${path}`, { body });
        assert.equal(r.status, 422, `${body.metadata.name}: ${r.text}`);
        assert.equal(r.json.reason, 'Invalid');
        assert.deepEqual(r.json.details.causes.map((c) => [c.field, c.reason, c.message]), causes, body.metadata.name);
        assert.equal((await as('GET', `/apis/rbac.authorization.k8s.io/v1/${path}/${body.metadata.name}`)).status, 404, 'nothing stored');
    }
    // What kube takes: a URL rule alone, and a resource rule with both.
    for (const [path, body] of [
        ['clusterroles', role('ClusterRole', 'url-reader', [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }])],
        ['namespaces/default/roles', role('Role', 'pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }])]]) {
        const r = await as('POST', `/apis/rbac.authorization.k8s.io/v1/${path}`, { body });
        assert.equal(r.status, 201, r.text);
    }
});
