// Admission webhooks (issue 29, part 5): the operator's own policy services, asked by the
// cluster API as kube-apiserver asks them. Real kubectl 1.32 against the real binary; the
// webhooks are a small HTTPS server in this test with its own CA (openssl), named in
// caBundle; a second CA plays the stranger.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startBackend, adminFetch, request } from './lib/backend.mjs';
import {
    tempDir, kubectl as kubectlRaw, issueKubeconfig, writeKubeconfig, adminKube, run,
} from './lib/cluster.mjs';

let b;
let dir;
let cacheDir;
let adminFile;
let server;
let port;
let closedPort;
let caBundle;
let strangerBundle;
const seen = []; // every AdmissionReview the webhooks received: { path, request }

const kubectl = (args) => kubectlRaw(args, { kubeconfig: adminFile, cacheDir });
async function ok(args) {
    const r = await kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
}
async function refused(args) {
    const r = await kubectl(args);
    assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} should have failed:\n${r.stdout}`);
    return r.stderr;
}

async function openssl(args) {
    const r = await run('openssl', args);
    if (r.code !== 0)
        throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
}

// A CA and, when `server` is given, a server certificate it signs for 127.0.0.1 and the
// service name policy.webhooks.svc.
async function makeCa(name) {
    const key = join(dir, `${name}-ca.key`);
    const crt = join(dir, `${name}-ca.crt`);
    await openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                   '-keyout', key, '-out', crt, '-days', '1', '-subj', `/CN=${name} webhook CA`]);
    return { key, crt };
}

async function serverCertificate(ca) {
    const key = join(dir, 'webhook.key');
    const csr = join(dir, 'webhook.csr');
    const crt = join(dir, 'webhook.crt');
    const ext = join(dir, 'webhook.ext');
    writeFileSync(ext, 'subjectAltName=IP:127.0.0.1,DNS:policy.webhooks.svc\n');
    await openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                   '-keyout', key, '-out', csr, '-subj', '/CN=policy webhook']);
    await openssl(['x509', '-req', '-in', csr, '-CA', ca.crt, '-CAkey', ca.key, '-CAcreateserial',
                   '-out', crt, '-days', '1', '-extfile', ext]);
    return { key: readFileSync(key), cert: readFileSync(crt) };
}

function answer(res, request, response) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({
        apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
        response: { uid: request.uid, ...response },
    }));
}

// The webhooks, by path.
const handlers = {
    // Refuses team=blocked on nodes.
    '/deny-team-label': (req, res) => {
        const labels = req.object?.metadata?.labels ?? {};
        if (labels.team === 'blocked')
            return answer(res, req, { allowed: false, status: { code: 403, message: 'team label "blocked" is not allowed on nodes' } });
        answer(res, req, { allowed: true, warnings: ['team labels are audited'] });
    },
    // Adds policy.example.com/checked=true (a JSONPatch).
    '/add-label': (req, res) => {
        const patch = req.object.metadata.labels
            ? [{ op: 'add', path: '/metadata/labels/policy.example.com~1checked', value: 'true' }]
            : [{ op: 'add', path: '/metadata/labels', value: { 'policy.example.com/checked': 'true' } }];
        answer(res, req, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
    },
    // Renames the object: a webhook may not.
    '/rename': (req, res) => {
        const patch = [{ op: 'replace', path: '/metadata/name', value: 'somebody-else' }];
        answer(res, req, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
    },
    '/deny-all': (req, res) => answer(res, req, { allowed: false }),
    // Token minting: none for the service account "locked".
    '/deny-token': (req, res) => {
        if (req.object?.metadata?.name === 'locked')
            return answer(res, req, { allowed: false, status: { code: 403, message: 'tokens for "locked" are not issued' } });
        answer(res, req, { allowed: true });
    },
    // Tokens live ten minutes at most.
    '/shorten-token': (req, res) => {
        const patch = [{ op: 'add', path: '/spec/expirationSeconds', value: 600 }];
        answer(res, req, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
    },
    '/observe': (req, res) => answer(res, req, { allowed: true }),
    // A policy written for core v1 Events: reads the core field `message`.
    '/core-event-policy': (req, res) => {
        if (req.object?.message === 'forbidden words')
            return answer(res, req, { allowed: false, status: { code: 403, message: 'no forbidden words in events' } });
        answer(res, req, { allowed: true });
    },
    // Adds a label to the core v1 form of an Event.
    '/label-core-event': (req, res) => {
        const patch = [{ op: 'add', path: '/metadata/labels', value: { 'policy.example.com/seen': 'core' } }];
        answer(res, req, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
    },
    // Patches whatever it is asked about, deletes included.
    '/patch-anything': (req, res) => {
        const patch = [{ op: 'add', path: '/metadata/labels', value: { patched: 'yes' } }];
        answer(res, req, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
    },
    '/slow': (req, res) => setTimeout(() => answer(res, req, { allowed: true }), 3000),
    '/wrong-uid': (req, res) => answer(res, { uid: 'not-the-request' }, { allowed: true }),
    // A megabyte of uid, echoed by the error if nothing bounds it.
    '/long-uid': (req, res) => answer(res, { uid: 'u'.repeat(1 << 20) }, { allowed: true }),
    '/huge': (req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
                                 response: { uid: req.uid, allowed: true, warnings: ['x'.repeat(4 * 1024 * 1024)] } }));
    },
};

function webhook(name, path, { rules, failurePolicy = 'Fail', timeoutSeconds, bundle = caBundle, service, ...rest } = {}) {
    const clientConfig = service
        ? { service: { namespace: 'webhooks', name: 'policy', path, port }, caBundle: bundle }
        : { url: `https://127.0.0.1:${port}${path}`, caBundle: bundle };
    return {
        name, clientConfig, rules, failurePolicy, sideEffects: 'None', admissionReviewVersions: ['v1'],
        ...(timeoutSeconds ? { timeoutSeconds } : {}), ...rest,
    };
}

const nodeUpdates = [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['nodes'] }];

async function apply(kind, name, webhooks) {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({
        apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks,
    }));
    return ok(['apply', '-f', file]);
}

async function nodeLabels(name) {
    return JSON.parse(await ok(['get', 'node', name, '-o', 'json'])).metadata.labels;
}

before(async () => {
    dir = tempDir('gatehouse-admission-');
    cacheDir = mkdtempSync(join(dir, 'kubecache-'));
    const ca = await makeCa('policy');
    const stranger = await makeCa('stranger');
    caBundle = readFileSync(ca.crt).toString('base64');
    strangerBundle = readFileSync(stranger.crt).toString('base64');
    server = https.createServer(await serverCertificate(ca), (req, res) => {
        let body = '';
        req.on('data', (c) => { body += c; });
        req.on('end', () => {
            const review = JSON.parse(body);
            const url = new URL(req.url, 'https://x');
            seen.push({ path: url.pathname, query: url.search, request: review.request, headers: req.headers });
            const h = handlers[url.pathname];
            if (!h) {
                res.writeHead(404);
                res.end();
                return;
            }
            h(review.request, res);
        });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = server.address().port;
    // A port nothing listens on: bound, then closed. Outside the ephemeral range (32768 on),
    // from which every other test's listener on port 0 is given its port: one of them took a
    // closed ephemeral port meanwhile once, and the "down" webhook answered in plain HTTP.
    for (;;) {
        const candidate = 20000 + Math.floor(Math.random() * 10000);
        const probe = https.createServer();
        const bound = await new Promise((resolve) => {
            probe.once('error', () => resolve(false));
            probe.listen(candidate, '127.0.0.1', () => resolve(true));
        });
        if (!bound)
            continue;
        closedPort = candidate;
        await new Promise((resolve) => probe.close(resolve));
        break;
    }

    b = await startBackend();
    const admin = await issueKubeconfig(b, { kind: 'user', name: 'admin', groups: ['system:masters'] });
    adminFile = writeKubeconfig(dir, 'admin', admin.kubeconfig);
});

after(async () => {
    server?.close();
    server?.closeAllConnections?.();
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

test('a validating webhook denies a node label: kubectl prints kube\'s exact message, nothing changes, and the denial is an event', async () => {
    assert.equal(await apply('ValidatingWebhookConfiguration', 'team-policy',
                             [webhook('deny-team.policy.example.com', '/deny-team-label', { rules: nodeUpdates })]),
                 'validatingwebhookconfiguration.admissionregistration.k8s.io/team-policy created\n');
    // Stored with kube's defaults, listed with kube's columns.
    const stored = JSON.parse(await ok(['get', 'validatingwebhookconfiguration', 'team-policy', '-o', 'json']));
    assert.equal(stored.webhooks[0].timeoutSeconds, 10);
    assert.equal(stored.webhooks[0].matchPolicy, 'Equivalent');
    assert.deepEqual(stored.webhooks[0].namespaceSelector, {});
    assert.equal(stored.webhooks[0].rules[0].scope, '*');
    assert.match(await ok(['get', 'validatingwebhookconfigurations']), /^NAME\s+WEBHOOKS\s+AGE\nteam-policy\s+1\s+\d+s\n$/);

    const before = await nodeLabels('node-1');
    assert.equal(await refused(['label', 'node', 'node-1', 'team=blocked']),
                 'Error from server: admission webhook "deny-team.policy.example.com" denied the request: team label "blocked" is not allowed on nodes\n');
    assert.deepEqual(await nodeLabels('node-1'), before);
    const events = await ok(['get', 'events', '--field-selector', 'reason=AdmissionDenied', '-o', 'json']);
    assert.ok(JSON.parse(events).items.some((e) => e.involvedObject.name === 'node-1' &&
        e.message.includes('admission webhook "deny-team.policy.example.com" denied the request')), events);

    // Allowed: the webhook's warning reaches kubectl, and it saw what kube-apiserver sends.
    const r = await kubectl(['label', 'node', 'node-1', 'team=payments']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'node/node-1 labeled\n');
    assert.equal(r.stderr, 'Warning: team labels are audited\n');
    assert.equal((await nodeLabels('node-1')).team, 'payments');
    const last = seen.at(-1);
    assert.equal(last.path, '/deny-team-label');
    assert.equal(last.query, '?timeout=10s');
    assert.equal(last.request.operation, 'UPDATE');
    assert.deepEqual(last.request.kind, { group: '', version: 'v1', kind: 'Node' });
    assert.deepEqual(last.request.resource, { group: '', version: 'v1', resource: 'nodes' });
    assert.equal(last.request.name, 'node-1');
    assert.equal(last.request.userInfo.username, 'admin');
    assert.ok(last.request.userInfo.groups.includes('system:masters'));
    assert.equal(last.request.object.metadata.labels.team, 'payments');
    assert.equal(last.request.oldObject.metadata.labels.team, undefined);
    assert.equal(last.request.object.kind, 'Node');
    assert.equal(last.request.dryRun, false);
    assert.deepEqual(last.request.options, { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });
});

test('a server-side dry run asks the webhooks with dryRun true and stores nothing', async () => {
    const r = await kubectl(['label', 'node', 'node-2', 'team=dry', '--dry-run=server']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'node/node-2 labeled (server dry run)\n');
    assert.equal(seen.at(-1).request.dryRun, true);
    assert.equal((await nodeLabels('node-2')).team, undefined);
    // A dry run that a webhook refuses is refused the same way.
    assert.match(await refused(['label', 'node', 'node-2', 'team=blocked', '--dry-run=server']),
                 /denied the request: team label "blocked" is not allowed on nodes/);
    // An unknown dryRun value is kube's 422.
    const bad = await adminKube(b, 'PATCH', '/api/v1/nodes/node-2?dryRun=Some', { metadata: { labels: { a: 'b' } } },
                                { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.json.message, /dryRun\[0\]: Unsupported value: "Some": supported values: "All"/);
    assert.equal((await nodeLabels('node-2')).a, undefined);
});

test('the admin API\'s explain (the console\'s verdict panel) shows each webhook\'s answer and names the one that said no', async () => {
    const r = await adminFetch(b, 'POST', '/admin/v1/cluster/explain',
                               { user: 'alice', groups: ['system:masters'], node: 'node-1', labels: { team: 'blocked' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.code, 403);
    assert.equal(r.json.admission.decision, 'deny');
    assert.equal(r.json.admission.plugin, 'ValidatingAdmissionWebhook');
    assert.equal(r.json.admission.webhook, 'deny-team.policy.example.com');
    const step = r.json.admission.steps.find((s) => s.webhook === 'deny-team.policy.example.com');
    assert.equal(step.decision, 'deny');
    assert.ok(step.latencyMs >= 0, JSON.stringify(step));
    assert.equal(r.json.denial.stage, 'admission');
    assert.equal(r.json.denial.by, 'admission webhook "deny-team.policy.example.com"');
    assert.equal(seen.at(-1).request.dryRun, true);
    assert.equal((await nodeLabels('node-1')).team, 'payments');

    const allowed = await adminFetch(b, 'POST', '/admin/v1/cluster/explain',
                                     { user: 'alice', groups: ['system:masters'], node: 'node-1', labels: { team: 'ok' } });
    assert.equal(allowed.json.code, 200, allowed.text);
    const plugins = allowed.json.admission.steps.map((s) => s.webhook ?? s.plugin);
    assert.ok(plugins.includes('NodeRestriction') && plugins.includes('deny-team.policy.example.com'), JSON.stringify(plugins));
    // A cluster:read admin token explains too, but the webhooks are not told that alice is
    // labelling node-1 (an AdmissionReview names her): the answer says they were not asked.
    const reader = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'explain-reader', permissions: ['cluster:read'] });
    assert.equal(reader.status, 201, reader.text);
    const asked = seen.length;
    const readOnly = await request(`${b.adminUrl}/admin/v1/cluster/explain`, 'POST',
                                   JSON.stringify({ user: 'alice', groups: ['system:masters'], node: 'node-1', labels: { team: 'blocked' } }),
                                   { Authorization: `Bearer ${reader.json.token}`, 'Content-Type': 'application/json' });
    assert.equal(readOnly.status, 200, readOnly.text);
    assert.equal(seen.length, asked, 'no AdmissionReview sent');
    assert.equal(readOnly.json.webhooksNotAsked, 'admission webhooks are configured but were not asked: asking them needs cluster:write');
    assert.equal(readOnly.json.code, 200, 'the built-in chain alone allows it');
    assert.ok(!readOnly.json.admission.steps.some((s) => s.webhook), JSON.stringify(readOnly.json.admission.steps));
    assert.equal(allowed.json.webhooksNotAsked, undefined, 'asked for a cluster:write caller');
});

test('failurePolicy: Fail refuses while the webhook is down, Ignore lets the request through', async () => {
    const down = (failurePolicy) => [{
        ...webhook('deny-team.policy.example.com', '/deny-team-label', { rules: nodeUpdates, failurePolicy }),
        clientConfig: { url: `https://127.0.0.1:${closedPort}/deny-team-label`, caBundle },
    }];
    await apply('ValidatingWebhookConfiguration', 'team-policy', down('Fail'));
    assert.equal(await refused(['label', 'node', 'node-3', 'zone=a']),
                 'Error from server (InternalError): Internal error occurred: failed calling webhook "deny-team.policy.example.com": ' +
                 `failed to call webhook: Post "https://127.0.0.1:${closedPort}/deny-team-label?timeout=10s": ` +
                 `dial tcp 127.0.0.1:${closedPort}: connect: connection refused\n`);
    assert.equal((await nodeLabels('node-3')).zone, undefined);

    await apply('ValidatingWebhookConfiguration', 'team-policy', down('Ignore'));
    assert.equal(await ok(['label', 'node', 'node-3', 'zone=a']), 'node/node-3 labeled\n');
    assert.equal((await nodeLabels('node-3')).zone, 'a');
});

test('a webhook that does not answer in timeoutSeconds fails the request after that long', async () => {
    await apply('ValidatingWebhookConfiguration', 'team-policy',
                [webhook('slow.policy.example.com', '/slow', { rules: nodeUpdates, timeoutSeconds: 1 })]);
    const started = Date.now();
    assert.equal(await refused(['label', 'node', 'node-3', 'zone=b', '--overwrite']),
                 'Error from server (InternalError): Internal error occurred: failed calling webhook "slow.policy.example.com": ' +
                 `failed to call webhook: Post "https://127.0.0.1:${port}/slow?timeout=1s": context deadline exceeded\n`);
    const took = Date.now() - started;
    assert.ok(took < 2900, `took ${took} ms`);
    assert.equal((await nodeLabels('node-3')).zone, 'a');
});

test('a webhook with a certificate from another CA, a wrong uid, or an oversized answer is a failed call', async () => {
    await apply('ValidatingWebhookConfiguration', 'team-policy',
                [webhook('stranger.policy.example.com', '/deny-team-label', { rules: nodeUpdates, bundle: strangerBundle })]);
    assert.match(await refused(['label', 'node', 'node-3', 'zone=c', '--overwrite']),
                 /^Error from server \(InternalError\): Internal error occurred: failed calling webhook "stranger.policy.example.com": failed to call webhook: Post ".*": tls: failed to verify certificate: /);
    await apply('ValidatingWebhookConfiguration', 'team-policy',
                [webhook('uid.policy.example.com', '/wrong-uid', { rules: nodeUpdates })]);
    assert.match(await refused(['label', 'node', 'node-3', 'zone=c', '--overwrite']),
                 /failed calling webhook "uid.policy.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "not-the-request"\n$/);
    // What the webhook wrote is echoed 128 characters long at most (the error is kept in the
    // trace, the recent requests and an Event).
    await apply('ValidatingWebhookConfiguration', 'team-policy',
                [webhook('long-uid.policy.example.com', '/long-uid', { rules: nodeUpdates })]);
    assert.match(await refused(['label', 'node', 'node-3', 'zone=c', '--overwrite']),
                 /failed calling webhook "long-uid.policy.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "u{128}"\n$/);
    await apply('ValidatingWebhookConfiguration', 'team-policy',
                [webhook('huge.policy.example.com', '/huge', { rules: nodeUpdates })]);
    assert.match(await refused(['label', 'node', 'node-3', 'zone=c', '--overwrite']),
                 /failed calling webhook "huge.policy.example.com": received invalid webhook response: the response is larger than 3145728 bytes\n$/);
    assert.equal((await nodeLabels('node-3')).zone, 'a');
});

test('a mutating webhook adds a label; selectors choose what it sees; it may not rename the object', async () => {
    // Reached through a service reference: the Service's external address (its externalName
    // here), the certificate checked for policy.webhooks.svc.
    await ok(['create', 'namespace', 'webhooks']);
    const svc = join(dir, 'svc.json');
    // External IPs are validated as kube does: not loopback, link-local (the metadata address)
    // or unspecified, so a Service cannot point a webhook call at this server or the metadata.
    for (const [ip, why] of [['127.0.0.1', 'may not be in the loopback range (127.0.0.0/8, ::1/128)'],
                             ['169.254.169.254', 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
                             ['localhost', 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']]) {
        writeFileSync(svc, JSON.stringify({
            apiVersion: 'v1', kind: 'Service', metadata: { name: 'policy', namespace: 'webhooks' },
            spec: { ports: [{ port, protocol: 'TCP' }], externalIPs: [ip] },
        }));
        assert.equal(await refused(['apply', '-f', svc]),
                     `The Service "policy" is invalid: spec.externalIPs[0]: Invalid value: "${ip}": ${why}\n`);
    }
    // An externalName is a DNS name (kube's check), and an IP literal there is held to what
    // externalIPs are.
    const external = (name) => writeFileSync(svc, JSON.stringify({
        apiVersion: 'v1', kind: 'Service', metadata: { name: 'policy', namespace: 'webhooks' },
        spec: { type: 'ExternalName', externalName: name, ports: [{ port, protocol: 'TCP' }] },
    }));
    for (const [name, why] of [['169.254.169.254', /: may not be in the link-local range \(169\.254\.0\.0\/16, fe80::\/10\)\n$/],
                               ['127.0.0.1.', /: may not be in the loopback range \(127\.0\.0\.0\/8, ::1\/128\)\n$/],
                               ['::1', /: a lowercase RFC 1123 subdomain must consist of/]]) {
        external(name);
        const answer = await refused(['apply', '-f', svc]);
        assert.ok(answer.startsWith(`The Service "policy" is invalid: spec.externalName: Invalid value: "${name.replace(/\.$/, '')}"`), answer);
        assert.match(answer, why);
    }
    external('localhost');
    await ok(['apply', '-f', svc]);
    await apply('MutatingWebhookConfiguration', 'labeller', [webhook('add-label.policy.example.com', '/add-label', {
        service: true,
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces', 'serviceaccounts'] }],
        objectSelector: { matchExpressions: [{ key: 'skip-policy', operator: 'DoesNotExist' }] },
    })]);
    assert.equal(await ok(['create', 'namespace', 'team-m']), 'namespace/team-m created\n');
    const ns = JSON.parse(await ok(['get', 'namespace', 'team-m', '-o', 'json']));
    assert.equal(ns.metadata.labels['policy.example.com/checked'], 'true');
    assert.equal(ns.metadata.labels['kubernetes.io/metadata.name'], 'team-m');
    const last = seen.at(-1);
    assert.equal(last.headers.host, `policy.webhooks.svc:${port}`);
    assert.equal(last.request.operation, 'CREATE');
    assert.equal(last.request.oldObject, null);

    // The object selector: a labelled object is not sent.
    const count = seen.length;
    const skip = join(dir, 'skip.json');
    writeFileSync(skip, JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-s', labels: { 'skip-policy': 'yes' } } }));
    await ok(['create', '-f', skip]);
    assert.equal(seen.length, count);
    assert.equal(JSON.parse(await ok(['get', 'namespace', 'team-s', '-o', 'json'])).metadata.labels['policy.example.com/checked'], undefined);

    // A namespace selector: service accounts only in namespaces labelled policy=enforced.
    await apply('MutatingWebhookConfiguration', 'labeller', [webhook('add-label.policy.example.com', '/add-label', {
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'], scope: 'Namespaced' }],
        namespaceSelector: { matchLabels: { policy: 'enforced' } },
    })]);
    await ok(['create', 'serviceaccount', 'free', '-n', 'team-m']);
    await ok(['label', 'namespace', 'team-m', 'policy=enforced']);
    await ok(['create', 'serviceaccount', 'watched', '-n', 'team-m']);
    const labelsOf = async (n) => JSON.parse(await ok(['get', 'serviceaccount', n, '-n', 'team-m', '-o', 'json'])).metadata.labels ?? {};
    assert.equal((await labelsOf('free'))['policy.example.com/checked'], undefined);
    assert.equal((await labelsOf('watched'))['policy.example.com/checked'], 'true');

    // reinvocationPolicy IfNeeded: asked once more when a later webhook changed the object.
    const saCreates = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }];
    await apply('MutatingWebhookConfiguration', 'a-observer',
                [webhook('observe.policy.example.com', '/observe', { rules: saCreates, reinvocationPolicy: 'IfNeeded' })]);
    await apply('MutatingWebhookConfiguration', 'labeller',
                [webhook('add-label.policy.example.com', '/add-label', { rules: saCreates })]);
    const observed = seen.length;
    await ok(['create', 'serviceaccount', 'observed', '-n', 'team-m']);
    const calls = seen.slice(observed).map((s) => s.path);
    assert.deepEqual(calls, ['/observe', '/add-label', '/observe']);
    assert.equal(seen.at(-1).request.object.metadata.labels['policy.example.com/checked'], 'true');
    await ok(['delete', 'mutatingwebhookconfiguration', 'a-observer']);

    await apply('MutatingWebhookConfiguration', 'labeller', [webhook('rename.policy.example.com', '/rename', {
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
    })]);
    assert.equal(await refused(['create', 'serviceaccount', 'renamed', '-n', 'team-m']),
                 'error: failed to create serviceaccount: Internal error occurred: admission webhook "rename.policy.example.com" changed metadata.name\n');
    for (const n of ['renamed', 'somebody-else'])
        assert.notEqual((await kubectl(['get', 'serviceaccount', n, '-n', 'team-m'])).code, 0);
    // A mutating webhook may not change what is being deleted (kube's words).
    await apply('MutatingWebhookConfiguration', 'labeller', [webhook('patch-anything.policy.example.com', '/patch-anything', {
        rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
    })]);
    assert.equal(await refused(['delete', 'serviceaccount', 'watched', '-n', 'team-m']),
                 'Error from server (InternalError): Internal error occurred: admission webhook "patch-anything.policy.example.com" ' +
                 'attempted to modify the object, which is not supported for this operation\n');
    assert.equal((await labelsOf('watched'))['policy.example.com/checked'], 'true');
    assert.equal((await labelsOf('watched')).patched, undefined);
    await ok(['delete', 'mutatingwebhookconfiguration', 'labeller']);
});

test('matchPolicy Equivalent: a policy for core v1 Events is asked about events.k8s.io/v1 writes, in core form, and its patch lands; Exact is not asked', async () => {
    const coreEvents = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['events'] }];
    await apply('ValidatingWebhookConfiguration', 'core-event-policy',
                [webhook('events.policy.example.com', '/core-event-policy', { rules: coreEvents })]);
    await apply('MutatingWebhookConfiguration', 'core-event-labels',
                [webhook('labels.events.example.com', '/label-core-event', { rules: coreEvents })]);
    await apply('ValidatingWebhookConfiguration', 'core-event-exact',
                [webhook('exact.events.example.com', '/observe', { rules: coreEvents, matchPolicy: 'Exact' })]);
    try {
        const event = (name, note) => ({
            apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name, namespace: 'default' },
            eventTime: '2026-11-29T01:02:03.456789Z', reportingController: 'example.com/policy', reportingInstance: 'p-0',
            action: 'Check', reason: 'Checked', note, type: 'Normal', regarding: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } });
        const path = '/apis/events.k8s.io/v1/namespaces/default/events';
        seen.length = 0;
        const refused = await adminKube(b, 'POST', path, event('ev-refused', 'forbidden words'));
        assert.equal(refused.status, 403, refused.text);
        assert.equal(refused.json.message, 'admission webhook "events.policy.example.com" denied the request: no forbidden words in events');
        assert.equal((await adminKube(b, 'GET', `${path}/ev-refused`)).status, 404, 'not stored');
        const asked = seen.find((s) => s.path === '/core-event-policy');
        assert.ok(asked, 'the core policy was asked');
        assert.deepEqual(asked.request.kind, { group: '', version: 'v1', kind: 'Event' });
        assert.deepEqual(asked.request.resource, { group: '', version: 'v1', resource: 'events' });
        assert.deepEqual(asked.request.requestKind, { group: 'events.k8s.io', version: 'v1', kind: 'Event' });
        assert.deepEqual(asked.request.requestResource, { group: 'events.k8s.io', version: 'v1', resource: 'events' });
        assert.equal(asked.request.object.apiVersion, 'v1');
        assert.equal(asked.request.object.note, undefined, 'in core form: message, not note');
        assert.ok(!seen.some((s) => s.path === '/observe'), 'matchPolicy Exact is not asked');

        seen.length = 0;
        const created = await adminKube(b, 'POST', path, event('ev-allowed', 'all fine'));
        assert.equal(created.status, 201, created.text);
        assert.equal(created.json.note, 'all fine');
        assert.equal(created.json.message, undefined, 'answered in events.k8s.io form');
        assert.deepEqual(created.json.metadata.labels, { 'policy.example.com/seen': 'core' }, 'the core-form patch landed');
        const core = await adminKube(b, 'GET', '/api/v1/namespaces/default/events/ev-allowed');
        assert.equal(core.json.message, 'all fine');
        assert.deepEqual(core.json.metadata.labels, { 'policy.example.com/seen': 'core' });
    } finally {
        for (const [kind, name] of [['validatingwebhookconfiguration', 'core-event-policy'], ['mutatingwebhookconfiguration', 'core-event-labels'],
                                    ['validatingwebhookconfiguration', 'core-event-exact']])
            await ok(['delete', kind, name]);
    }
});

test('webhook configurations are checked with kube\'s messages, and never sent to a webhook', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({
        apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'bad' },
        webhooks: [{ name: 'short', clientConfig: { url: 'http://127.0.0.1:1/x' }, rules: nodeUpdates, sideEffects: 'Some', admissionReviewVersions: ['v1'], timeoutSeconds: 31,
                     matchConditions: [{ name: 'c', expression: 'true' }] }],
    }));
    const err = await refused(['apply', '-f', file]);
    for (const part of [
        'webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
        'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
        'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
        'webhooks[0].matchConditions: Forbidden: CEL match conditions are not supported by this server',
        'webhooks[0].clientConfig.url: Invalid value: "http://127.0.0.1:1/x": \'https\' is the only allowed URL scheme',
    ])
        assert.ok(err.includes(part), `${part}\nnot in:\n${err}`);
    assert.notEqual((await kubectl(['get', 'validatingwebhookconfiguration', 'bad'])).code, 0);

    // A webhook that refuses everything cannot keep the administrator from removing it.
    await apply('ValidatingWebhookConfiguration', 'team-policy', [webhook('deny-all.policy.example.com', '/deny-all', {
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
    })]);
    assert.equal(await refused(['label', 'node', 'node-3', 'zone=d', '--overwrite']),
                 'Error from server: admission webhook "deny-all.policy.example.com" denied the request without explanation\n');
    assert.equal(await ok(['delete', 'validatingwebhookconfiguration', 'team-policy']),
                 'validatingwebhookconfiguration.admissionregistration.k8s.io "team-policy" deleted\n');
    assert.equal(await ok(['label', 'node', 'node-3', 'zone=d', '--overwrite']), 'node/node-3 labeled\n');
});

test('token minting is a write policy webhooks decide on: a TokenRequest (serviceaccounts/token) is sent to them, refused, or shortened', async () => {
    const tokenCreates = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts/token'] }];
    await ok(['create', 'serviceaccount', 'locked']);
    await ok(['create', 'serviceaccount', 'free']);
    await apply('ValidatingWebhookConfiguration', 'token-policy', [webhook('tokens.policy.example.com', '/deny-token', { rules: tokenCreates })]);
    try {
        const from = seen.length;
        const err = await refused(['create', 'token', 'locked']);
        assert.ok(err.includes('admission webhook "tokens.policy.example.com" denied the request: tokens for "locked" are not issued'), err);
        const token = (await ok(['create', 'token', 'free'])).trim();
        assert.match(token, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
        // What the webhook saw is what kube-apiserver sends for a TokenRequest.
        const asked = seen.slice(from).filter((x) => x.path === '/deny-token').map((x) => x.request);
        assert.deepEqual(asked.map((r) => [r.operation, r.name, r.namespace, r.subResource, r.object.kind, r.object.apiVersion]),
                         [['CREATE', 'locked', 'default', 'token', 'TokenRequest', 'authentication.k8s.io/v1'],
                          ['CREATE', 'free', 'default', 'token', 'TokenRequest', 'authentication.k8s.io/v1']]);
        assert.deepEqual(asked[0].kind, { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' });
        assert.deepEqual(asked[0].resource, { group: '', version: 'v1', resource: 'serviceaccounts' });
        // The refusal is an event on the service account.
        const events = JSON.parse(await ok(['get', 'events', '--field-selector', 'involvedObject.name=locked,reason=AdmissionDenied', '-o', 'json']));
        assert.equal(events.items.length, 1, JSON.stringify(events));
        assert.match(events.items[0].message, /^token request by admin denied: admission webhook "tokens.policy.example.com" denied the request/);

        // A mutating webhook shortens every token to ten minutes, whatever was asked.
        await apply('MutatingWebhookConfiguration', 'token-shortener', [webhook('shorten.policy.example.com', '/shorten-token', { rules: tokenCreates })]);
        const issued = JSON.parse(await ok(['create', 'token', 'free', '--duration=2h', '-o', 'json']));
        assert.equal(issued.kind, 'TokenRequest');
        assert.equal(issued.spec.expirationSeconds, 600);
        const [, payload] = issued.status.token.split('.');
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
        assert.equal(claims.exp - claims.iat, 600);
    } finally {
        await ok(['delete', 'validatingwebhookconfiguration', 'token-policy', '--ignore-not-found']);
        await ok(['delete', 'mutatingwebhookconfiguration', 'token-shortener', '--ignore-not-found']);
    }
    // Without the policy, "locked" gets its token, for as long as kubectl asked (its protobuf
    // TokenRequest decoded, the answer in protobuf too).
    const plain = JSON.parse(await ok(['create', 'token', 'locked', '--duration=20m', '-o', 'json']));
    assert.equal(plain.spec.expirationSeconds, 1200);
    assert.match(plain.status.token, /^eyJ/);
});
