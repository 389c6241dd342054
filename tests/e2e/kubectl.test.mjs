// The cluster API for the kubectl commands people type every day (issue 29), with the real
// kubectl 1.32 against the real binary: typed-client commands that send
// application/vnd.kubernetes.protobuf (create namespace, serviceaccount, role, rolebinding,
// clusterrole, clusterrolebinding, service) and read the protobuf answer back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import https from 'node:https';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startBackend, waitFor, adminFetch, POSTGRES_BASE } from './lib/backend.mjs';
import {
    clusterCa, decodeK8sBody, decodeWatchFrames, tempDir, kubectl as kubectlRaw, kubectlBinary, issueKubeconfig, writeKubeconfig, kubeRequest, adminKube, protobuf, pyClient,
} from './lib/cluster.mjs';

let b;
let dir;
let cacheDir;
let admin;
const files = {};

const kubectl = (who, args) => kubectlRaw(args, { kubeconfig: files[who], cacheDir });

async function ok(who, args) {
    const r = await kubectl(who, args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
}

before(async () => {
    dir = tempDir();
    cacheDir = mkdtempSync(join(dir, 'kubecache-'));
    b = await startBackend();
    admin = await issueKubeconfig(b, { kind: 'user', name: 'admin', groups: ['system:masters'] });
    files.admin = writeKubeconfig(dir, 'admin', admin.kubeconfig);
});

after(async () => {
    if (b) {
        assert.equal(await b.stop(), 0, b.stderr);
        // Every answer that kubectl asked in protobuf had a protobuf form.
        assert.ok(!b.stderr.includes('the protobuf form failed'), b.stderr);
    }
});

test('kubectl create namespace|serviceaccount|role|rolebinding|clusterrole|clusterrolebinding|service (protobuf bodies)', async () => {
    assert.equal(await ok('admin', ['create', 'namespace', 'team-a']), 'namespace/team-a created\n');
    assert.equal(await ok('admin', ['create', 'serviceaccount', 'robot', '-n', 'team-a']),
                 'serviceaccount/robot created\n');
    assert.equal(await ok('admin', ['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods', '-n', 'team-a']),
                 'role.rbac.authorization.k8s.io/pod-reader created\n');
    assert.equal(await ok('admin', ['create', 'rolebinding', 'robot-reads', '--role=pod-reader',
                                    '--serviceaccount=team-a:robot', '-n', 'team-a']),
                 'rolebinding.rbac.authorization.k8s.io/robot-reads created\n');
    assert.equal(await ok('admin', ['create', 'clusterrole', 'node-viewer', '--verb=get,list,watch', '--resource=nodes']),
                 'clusterrole.rbac.authorization.k8s.io/node-viewer created\n');
    assert.equal(await ok('admin', ['create', 'clusterrolebinding', 'alice-views-nodes', '--clusterrole=node-viewer',
                                    '--user=alice', '--group=devs']),
                 'clusterrolebinding.rbac.authorization.k8s.io/alice-views-nodes created\n');
    assert.equal(await ok('admin', ['create', 'service', 'clusterip', 'web', '--tcp=80:8080', '-n', 'team-a']),
                 'service/web created\n');

    assert.equal(await ok('admin', ['run', 'shell', '--image=busybox:1.36', '--port=8080', '--labels=app=shell',
                                    '-n', 'team-a', '--', 'sleep', '3600']),
                 'pod/shell created\n');

    // What was stored is what kubectl meant (read back as JSON, not through protobuf).
    const pod = JSON.parse(await ok('admin', ['get', 'pod', 'shell', '-n', 'team-a', '-o', 'json']));
    assert.deepEqual(pod.metadata.labels, { app: 'shell' });
    assert.equal(pod.spec.containers[0].image, 'busybox:1.36');
    assert.deepEqual(pod.spec.containers[0].args, ['sleep', '3600']);
    assert.deepEqual(pod.spec.containers[0].ports, [{ containerPort: 8080 }]);
    const ns = JSON.parse(await ok('admin', ['get', 'namespace', 'team-a', '-o', 'json']));
    assert.equal(ns.status.phase, 'Active');
    assert.deepEqual(ns.spec.finalizers, ['kubernetes']);
    const role = JSON.parse(await ok('admin', ['get', 'role', 'pod-reader', '-n', 'team-a', '-o', 'json']));
    assert.deepEqual(role.rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    const rb = JSON.parse(await ok('admin', ['get', 'rolebinding', 'robot-reads', '-n', 'team-a', '-o', 'json']));
    assert.deepEqual(rb.subjects, [{ kind: 'ServiceAccount', name: 'robot', namespace: 'team-a' }]);
    assert.deepEqual(rb.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' });
    const crb = JSON.parse(await ok('admin', ['get', 'clusterrolebinding', 'alice-views-nodes', '-o', 'json']));
    assert.deepEqual(crb.subjects, [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
    ]);
    const svc = JSON.parse(await ok('admin', ['get', 'service', 'web', '-n', 'team-a', '-o', 'json']));
    assert.equal(svc.spec.type, 'ClusterIP');
    assert.deepEqual(svc.spec.ports.map((p) => [p.name, p.port, p.targetPort, p.protocol]), [['80-8080', 80, 8080, 'TCP']]);
    assert.match(svc.spec.clusterIP, /^10\.96\./);

    // The bindings work: the service account may list pods in team-a, alice may list nodes.
    const sar = async (user, groups, attrs) => {
        const r = await adminKube(b, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews',
                                  { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
                                    spec: { user, groups, resourceAttributes: attrs } });
        assert.equal(r.status, 201, r.text);
        return r.json.status.allowed === true;
    };
    assert.equal(await sar('system:serviceaccount:team-a:robot', ['system:serviceaccounts'],
                           { namespace: 'team-a', verb: 'list', resource: 'pods' }), true);
    assert.equal(await sar('system:serviceaccount:team-a:robot', ['system:serviceaccounts'],
                           { namespace: 'default', verb: 'list', resource: 'pods' }), false);
    assert.equal(await sar('alice', [], { verb: 'list', resource: 'nodes' }), true);
});

test('kubectl create token --bound-object-kind Pod|Node: bound to the object, checked as kube checks it; a dry run signs nothing', async () => {
    await ok('admin', ['create', 'serviceaccount', 'runner']);
    const pod = await adminKube(b, 'POST', '/api/v1/namespaces/default/pods', {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'job-1' },
        spec: { serviceAccountName: 'runner', nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } });
    assert.equal(pod.status, 201, pod.text);
    const node = (await adminKube(b, 'GET', '/api/v1/nodes/node-1')).json;
    const issued = JSON.parse(await ok('admin', ['create', 'token', 'runner', '--bound-object-kind', 'Pod',
                                                 '--bound-object-name', 'job-1', '-o', 'json']));
    assert.deepEqual(issued.spec.boundObjectRef, { kind: 'Pod', apiVersion: 'v1', name: 'job-1' });
    const claims = JSON.parse(Buffer.from(issued.status.token.split('.')[1], 'base64url'));
    assert.deepEqual(claims['kubernetes.io'].pod, { name: 'job-1', uid: pod.json.metadata.uid });
    assert.deepEqual(claims['kubernetes.io'].node, { name: 'node-1', uid: node.metadata.uid }, 'the pod\'s node, for information');
    const whoami = (token) => kubeRequest(b, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        headers: { Authorization: `Bearer ${token}` },
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    const me = await whoami(issued.status.token);
    assert.equal(me.status, 201, me.text);
    assert.equal(me.json.status.userInfo.username, 'system:serviceaccount:default:runner');

    // Node-bound.
    const nodeBound = JSON.parse(await ok('admin', ['create', 'token', 'runner', '--bound-object-kind', 'Node',
                                                    '--bound-object-name', 'node-1', '-o', 'json']));
    const nodeClaims = JSON.parse(Buffer.from(nodeBound.status.token.split('.')[1], 'base64url'));
    assert.deepEqual(nodeClaims['kubernetes.io'].node, { name: 'node-1', uid: node.metadata.uid });
    assert.equal(nodeClaims['kubernetes.io'].pod, undefined);

    // kube's refusals, as kubectl shows them.
    const missing = await kubectl('admin', ['create', 'token', 'runner', '--bound-object-kind', 'Pod', '--bound-object-name', 'ghost']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /pods "ghost" not found/);
    const wrongUid = await kubectl('admin', ['create', 'token', 'runner', '--bound-object-kind', 'Pod', '--bound-object-name', 'job-1',
                                             '--bound-object-uid', '00000000-0000-0000-0000-000000000000']);
    assert.notEqual(wrongUid.code, 0);
    assert.match(wrongUid.stderr, /Operation cannot be fulfilled on Pod "job-1": the UID in the bound object reference \(00000000-0000-0000-0000-000000000000\) does not match the UID in record/);
    const otherAccount = await kubectl('admin', ['create', 'token', 'default', '--bound-object-kind', 'Pod', '--bound-object-name', 'job-1']);
    assert.notEqual(otherAccount.code, 0);
    assert.match(otherAccount.stderr, /cannot bind token for serviceaccount "default" to pod running with different serviceaccount name/);
    const tokenPath = '/api/v1/namespaces/default/serviceaccounts/runner/token';
    const kind = await adminKube(b, 'POST', tokenPath, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
                                                          spec: { boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'web' } } });
    assert.equal(kind.status, 400, kind.text);
    assert.equal(kind.json.message, 'cannot bind token to object of type apps/v1, Kind=Deployment');

    // A node granted serviceaccounts/token (as kube's kubelet role grants it): NodeRestriction
    // lets it mint only tokens bound, by uid, to a pod scheduled on itself.
    await ok('admin', ['create', 'clusterrole', 'node-tokens', '--verb=create', '--resource=serviceaccounts/token']);
    await ok('admin', ['create', 'clusterrolebinding', 'node-tokens', '--clusterrole=node-tokens', '--group=system:nodes']);
    const agent = await issueKubeconfig(b, { kind: 'node', name: 'node-1' });
    files.tokenNode = writeKubeconfig(dir, 'token-node', agent.kubeconfig);
    const elsewhere = await adminKube(b, 'POST', '/api/v1/namespaces/default/pods', {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'job-2' },
        spec: { serviceAccountName: 'runner', nodeName: 'node-2', containers: [{ name: 'c', image: 'busybox' }] } });
    assert.equal(elsewhere.status, 201, elsewhere.text);
    const asNode = (args) => kubectl('tokenNode', ['create', 'token', 'runner', ...args]);
    for (const [args, message] of [
        [[], 'node requested token not bound to a pod'],
        [['--bound-object-kind', 'Node', '--bound-object-name', 'node-1'], 'node requested token not bound to a pod'],
        [['--bound-object-kind', 'Pod', '--bound-object-name', 'job-1'], 'node requested token with a pod binding without a uid'],
        [['--bound-object-kind', 'Pod', '--bound-object-name', 'job-2', '--bound-object-uid', elsewhere.json.metadata.uid],
         'node requested token bound to a pod scheduled on a different node']]) {
        const r = await asNode(args);
        assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}`);
        // (kubectl's own wording for this command, around the server's message)
        assert.equal(r.stderr, `error: failed to create token: serviceaccounts "runner" is forbidden: ${message}\n`, args.join(' '));
    }
    const own = await asNode(['--bound-object-kind', 'Pod', '--bound-object-name', 'job-1', '--bound-object-uid', pod.json.metadata.uid]);
    assert.equal(own.code, 0, own.stderr);
    const ownMe = await whoami(own.stdout.trim());
    assert.equal(ownMe.json.status.userInfo.username, 'system:serviceaccount:default:runner');
    await ok('admin', ['delete', 'clusterrolebinding', 'node-tokens']);
    await ok('admin', ['delete', 'clusterrole', 'node-tokens']);

    // ?dryRun=All: every check, no token.
    const dry = await adminKube(b, 'POST', `${tokenPath}?dryRun=All`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
                                                                        spec: { expirationSeconds: 3600 } });
    assert.equal(dry.status, 201, dry.text);
    assert.equal(dry.json.status.token, '', 'a dry run signs nothing');
    const dryMissing = await adminKube(b, 'POST', `${tokenPath}?dryRun=All`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
                                                                               spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ghost' } } });
    assert.equal(dryMissing.status, 404, 'a dry run checks the bound object');
    const badDry = await adminKube(b, 'POST', `${tokenPath}?dryRun=Some`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    assert.equal(badDry.status, 422, badDry.text);
    assert.match(badDry.json.message, /dryRun\[0\]: Unsupported value: "Some": supported values: "All"/);
});

test('the protobuf answer kubectl decodes is the object JSON shows', async () => {
    // kubectl create -o json prints the object it decoded from the server's protobuf answer.
    const created = JSON.parse(await ok('admin', ['create', 'namespace', 'team-b', '-o', 'json']));
    const stored = JSON.parse(await ok('admin', ['get', 'namespace', 'team-b', '-o', 'json']));
    assert.equal(created.metadata.name, 'team-b');
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp'])
        assert.equal(created.metadata[k], stored.metadata[k], k);
    assert.deepEqual(created.metadata.labels, stored.metadata.labels);
    assert.deepEqual(created.spec, stored.spec);
    assert.deepEqual(created.status, stored.status);

    const sa = JSON.parse(await ok('admin', ['create', 'serviceaccount', 'builder', '-n', 'team-b', '-o', 'json']));
    assert.equal(sa.metadata.namespace, 'team-b');
    assert.match(sa.metadata.uid, /^[0-9a-f-]{36}$/);
});

test('errors keep kube\'s messages: AlreadyExists, a missing namespace, RBAC', async () => {
    const again = await kubectl('admin', ['create', 'namespace', 'team-a']);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, 'Error from server (AlreadyExists): namespaces "team-a" already exists\n');

    const missing = await kubectl('admin', ['create', 'serviceaccount', 'x', '-n', 'nowhere']);
    assert.equal(missing.code, 1);
    // (kubectl's own wording for this command, around the server's message)
    assert.equal(missing.stderr, 'error: failed to create serviceaccount: namespaces "nowhere" not found\n');

    const bob = await issueKubeconfig(b, { kind: 'user', name: 'bob', groups: ['devs'] });
    files.bob = writeKubeconfig(dir, 'bob', bob.kubeconfig);
    const denied = await kubectl('bob', ['create', 'namespace', 'bobs']);
    assert.equal(denied.code, 1);
    assert.equal(denied.stderr, 'Error from server (Forbidden): namespaces is forbidden: User "bob" cannot create ' +
                                'resource "namespaces" in API group "" at the cluster scope\n');

    // A cluster IP another service holds (the kubernetes service's).
    const svc = join(dir, 'taken-ip.json');
    writeFileSync(svc, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'taken', namespace: 'default' },
                                        spec: { clusterIP: '10.96.0.1', ports: [{ port: 80 }] } }));
    const taken = await kubectl('admin', ['create', '-f', svc]);
    assert.equal(taken.code, 1);
    assert.equal(taken.stderr, `The Service "taken" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: ` +
                               'failed to allocate IP 10.96.0.1: provided IP is already allocated\n');
});

test('kubectl delete --dry-run=server deletes nothing; DeleteOptions preconditions and dryRun in the body, as kube reads them', async () => {
    await ok('admin', ['create', 'namespace', 'dry-del']);
    await ok('admin', ['create', 'serviceaccount', 'keep', '-n', 'dry-del']);
    await ok('admin', ['create', 'rolebinding', 'keep', '--clusterrole=view', '--serviceaccount=dry-del:keep', '-n', 'dry-del']);
    // kubectl sends the dry run as DeleteOptions in the body (client-go), not in the query.
    const dry = await ok('admin', ['delete', 'rolebinding', 'keep', '-n', 'dry-del', '--dry-run=server']);
    assert.equal(dry, 'rolebinding.rbac.authorization.k8s.io "keep" deleted (server dry run)\n');
    await ok('admin', ['get', 'rolebinding', 'keep', '-n', 'dry-del']);
    const dryNs = await ok('admin', ['delete', 'namespace', 'dry-del', '--dry-run=server']);
    assert.equal(dryNs, 'namespace "dry-del" deleted (server dry run)\n');
    assert.match(await ok('admin', ['get', 'namespace', 'dry-del', '-o', 'jsonpath={.status.phase}']), /^Active$/);
    await ok('admin', ['get', 'serviceaccount', 'keep', '-n', 'dry-del']);

    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    const path = '/apis/rbac.authorization.k8s.io/v1/namespaces/dry-del/rolebindings/keep';
    const del = (options) => kubeRequest(b, 'DELETE', path, { creds, body: JSON.stringify(options),
                                                              headers: { 'Content-Type': 'application/json' } });
    const stored = (await kubeRequest(b, 'GET', path, { creds })).json;
    // Bad options: kube's answers, nothing deleted.
    const badDry = await del({ kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['Some'] });
    assert.equal(badDry.status, 422, badDry.text);
    assert.match(badDry.json.message, /dryRun\[0\]: Unsupported value: "Some": supported values: "All"/);
    const notOptions = await del({ kind: 'Pod', apiVersion: 'v1' });
    assert.equal(notOptions.status, 400, notOptions.text);
    // Preconditions that do not hold: 409, nothing deleted.
    const wrongUid = await del({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-its-uid' } });
    assert.equal(wrongUid.status, 409, wrongUid.text);
    assert.equal(wrongUid.json.reason, 'Conflict');
    assert.ok(wrongUid.json.message.includes(`Precondition failed: UID in precondition: not-its-uid, UID in object meta: ${stored.metadata.uid}`),
              wrongUid.json.message);
    const oldVersion = await del({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: '1' } });
    assert.equal(oldVersion.status, 409, oldVersion.text);
    assert.match(oldVersion.json.message, /Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: /);
    assert.equal((await kubeRequest(b, 'GET', path, { creds })).status, 200, 'still there');
    // Preconditions that hold: deleted.
    const right = await del({ kind: 'DeleteOptions', apiVersion: 'v1',
                              preconditions: { uid: stored.metadata.uid, resourceVersion: stored.metadata.resourceVersion } });
    assert.equal(right.status, 200, right.text);
    assert.equal((await kubeRequest(b, 'GET', path, { creds })).status, 404);
    await ok('admin', ['delete', 'namespace', 'dry-del']);
});

test('protobuf on the wire: answers in protobuf when asked first, bad bodies get a Status', async () => {
    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    const proto = 'application/vnd.kubernetes.protobuf';

    const got = await kubeRequest(b, 'GET', '/api/v1/namespaces/team-a', { creds, headers: { Accept: `${proto},application/json` } });
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-type'], proto);
    assert.equal(got.raw.subarray(0, 4).toString('latin1'), 'k8s\0');
    assert.ok(got.raw.includes(Buffer.from('team-a')), 'the name is in the body');
    // JSON first is JSON.
    const json = await kubeRequest(b, 'GET', '/api/v1/namespaces/team-a', { creds, headers: { Accept: `application/json,${proto}` } });
    assert.equal(json.headers['content-type'], 'application/json');
    assert.equal(json.json.metadata.name, 'team-a');

    // A list.
    const list = await kubeRequest(b, 'GET', '/api/v1/namespaces', { creds, headers: { Accept: proto } });
    assert.equal(list.status, 200);
    assert.equal(list.headers['content-type'], proto);
    assert.ok(list.raw.includes(Buffer.from('NamespaceList')));

    // Every served list and a node (with its status) have a protobuf form.
    for (const path of ['/api/v1/nodes', '/api/v1/nodes/node-1', '/api/v1/pods', '/api/v1/services', '/api/v1/serviceaccounts',
                        '/apis/rbac.authorization.k8s.io/v1/clusterroles', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
                        '/apis/rbac.authorization.k8s.io/v1/roles', '/apis/rbac.authorization.k8s.io/v1/rolebindings']) {
        const r = await kubeRequest(b, 'GET', path, { creds, headers: { Accept: proto } });
        assert.equal(r.status, 200, `${path}: ${r.text}`);
        assert.equal(r.headers['content-type'], proto, path);
    }

    // A namespace in protobuf, made by hand: created.
    const body = protobuf.envelope('v1', 'Namespace', protobuf.ld(1, protobuf.ld(1, 'hand-made')));
    const made = await kubeRequest(b, 'POST', '/api/v1/namespaces', { creds, body, headers: { 'Content-Type': proto } });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.json.metadata.name, 'hand-made');

    // Malformed: 400, nothing created.
    const truncated = Buffer.concat([protobuf.envelope('v1', 'Namespace', protobuf.ld(1, protobuf.ld(1, 'broken'))).subarray(0, 20)]);
    const bad = await kubeRequest(b, 'POST', '/api/v1/namespaces', { creds, body: truncated, headers: { 'Content-Type': proto } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.kind, 'Status');
    assert.equal(bad.json.reason, 'BadRequest');
    assert.match(bad.json.message, /malformed protobuf body/);
    const noMagic = await kubeRequest(b, 'POST', '/api/v1/namespaces', { creds, body: '{"metadata":{"name":"x"}}', headers: { 'Content-Type': proto } });
    assert.equal(noMagic.status, 400, noMagic.text);
    assert.match(noMagic.json.message, /magic/);
    // A kind without a protobuf form: 415, as kube answers for a type it cannot decode.
    const deployment = protobuf.envelope('apps/v1', 'Deployment', protobuf.ld(1, protobuf.ld(1, 'd')));
    const unsupported = await kubeRequest(b, 'POST', '/api/v1/namespaces', { creds, body: deployment, headers: { 'Content-Type': proto } });
    assert.equal(unsupported.status, 415, unsupported.text);
    assert.equal(unsupported.json.reason, 'UnsupportedMediaType');
    // Another kind in the body than the URL's: 400 with kube's message.
    const wrongKind = protobuf.envelope('v1', 'ServiceAccount', protobuf.ld(1, protobuf.ld(1, 'sa')));
    const mismatch = await kubeRequest(b, 'POST', '/api/v1/namespaces', { creds, body: wrongKind, headers: { 'Content-Type': proto } });
    assert.equal(mismatch.status, 400, mismatch.text);
    assert.equal(mismatch.json.message, 'the kind in the data (ServiceAccount) does not match the expected kind (Namespace)');

    const names = (await kubeRequest(b, 'GET', '/api/v1/namespaces', { creds })).json.items.map((n) => n.metadata.name);
    assert.ok(!names.includes('broken') && !names.includes('x') && !names.includes('d') && !names.includes('sa'), names.join());
});

test('kubectl create -f and apply -f with default validation (server-side, through /openapi/v3)', async () => {
    const node = join(dir, 'node.json');
    writeFileSync(node, JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-9', labels: { tier: 'edge' } } }));
    assert.equal(await ok('admin', ['create', '-f', node]), 'node/node-9 created\n');

    const ns = join(dir, 'team-c.yaml');
    writeFileSync(ns, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-c\n  labels:\n    stage: one\n');
    assert.equal(await ok('admin', ['apply', '-f', ns]), 'namespace/team-c created\n');
    assert.equal(await ok('admin', ['apply', '-f', ns]), 'namespace/team-c unchanged\n');
    writeFileSync(ns, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-c\n  labels:\n    stage: two\n');
    assert.equal(await ok('admin', ['apply', '-f', ns]), 'namespace/team-c configured\n');
    const applied = JSON.parse(await ok('admin', ['get', 'namespace', 'team-c', '-o', 'json']));
    assert.equal(applied.metadata.labels.stage, 'two');
    assert.ok(applied.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'].includes('"two"'));
});

test('owner references: kube\'s 422 for a reference without a uid and for a second controller, through kubectl; a valid one is kept', async () => {
    const owner = JSON.parse(await ok('admin', ['get', 'namespace', 'team-c', '-o', 'json']));
    const ref = { apiVersion: 'v1', kind: 'Namespace', name: 'team-c', uid: owner.metadata.uid, controller: true };
    const orphan = join(dir, 'orphan.json');
    writeFileSync(orphan, JSON.stringify({ apiVersion: 'v1', kind: 'Namespace',
                                           metadata: { name: 'orphan', ownerReferences: [{ ...ref, uid: '' }] } }));
    const refused = await kubectl('admin', ['create', '-f', orphan]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, 'The Namespace "orphan" is invalid: metadata.ownerReferences.uid: Invalid value: "": must not be empty\n');
    assert.equal((await kubectl('admin', ['get', 'namespace', 'orphan'])).code, 1, 'nothing was created');

    const child = join(dir, 'child.json');
    writeFileSync(child, JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'child', ownerReferences: [ref] } }));
    assert.equal(await ok('admin', ['create', '-f', child]), 'namespace/child created\n');
    const second = { apiVersion: 'v1', kind: 'Node', name: 'node-9', uid: 'f00d', controller: true };
    const twice = await kubectl('admin', ['patch', 'namespace', 'child', '--type', 'merge', '-p',
                                          JSON.stringify({ metadata: { ownerReferences: [ref, second] } })]);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /^The Namespace "child" is invalid: metadata\.ownerReferences: Invalid value: \[\]v1\.OwnerReference\{.*\}: Only one reference can have Controller set to true\. Found "true" in references for Namespace\/team-c and Node\/node-9\n$/);
    const kept = JSON.parse(await ok('admin', ['get', 'namespace', 'child', '-o', 'json']));
    assert.deepEqual(kept.metadata.ownerReferences, [ref], 'unchanged');
});

test('field validation: Strict refuses an unknown field with kube\'s message, Warn drops it with a warning, Ignore drops it', async () => {
    const bad = join(dir, 'bad-node.json');
    writeFileSync(bad, JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-bad' }, spec: { foo: 1, podCIDR: '10.1.0.0/24' } }));
    const strict = await kubectl('admin', ['create', '-f', bad]);
    assert.equal(strict.code, 1);
    assert.equal(strict.stderr, `Error from server (BadRequest): error when creating "${bad}": Node in version "v1" cannot be ` +
                                'handled as a Node: strict decoding error: unknown field "spec.foo"\n');
    assert.equal((await kubectl('admin', ['get', 'node', 'node-bad'])).code, 1, 'nothing was created');

    const warn = await kubectl('admin', ['create', '-f', bad, '--validate=warn']);
    assert.equal(warn.code, 0, warn.stderr);
    assert.equal(warn.stderr, 'Warning: unknown field "spec.foo"\n');
    const stored = JSON.parse(await ok('admin', ['get', 'node', 'node-bad', '-o', 'json']));
    assert.equal(stored.spec.podCIDR, '10.1.0.0/24');
    assert.ok(!('foo' in stored.spec), 'the unknown field is dropped');

    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    const patch = (query, body) => kubeRequest(b, 'PATCH', `/api/v1/nodes/node-bad${query}`, {
        creds, body, headers: { 'Content-Type': 'application/merge-patch+json' } });
    const refused = await patch('?fieldValidation=Strict', { spec: { bar: true, unschedulable: true } });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.json.message, 'strict decoding error: unknown field "spec.bar"');
    const ignored = await patch('?fieldValidation=Ignore', { spec: { bar: true, unschedulable: true } });
    assert.equal(ignored.status, 200, ignored.text);
    assert.equal(ignored.headers.warning, undefined);
    assert.equal(ignored.json.spec.unschedulable, true);
    assert.ok(!('bar' in ignored.json.spec));
    const warned = await patch('', { metadata: { labels: { x: 'y' } }, spec: { baz: 1 } });
    assert.equal(warned.status, 200, warned.text);
    assert.equal(warned.headers.warning, '299 - "unknown field \\"spec.baz\\""');
    // Duplicate members (JSON as curl sends it; kubectl itself never sends them): Strict names
    // each, Warn warns and keeps the last, in bodies and in merge patches alike.
    const raw = '{"apiVersion":"v1","kind":"Node","metadata":{"name":"node-dup","labels":{"a":"1","a":"2"}},' +
                '"spec":{"podCIDR":"10.2.0.0/24","podCIDR":"10.3.0.0/24"}}';
    const create = (query) => kubeRequest(b, 'POST', `/api/v1/nodes${query}`, { creds, body: raw, headers: { 'Content-Type': 'application/json' } });
    const dupStrict = await create('?fieldValidation=Strict');
    assert.equal(dupStrict.status, 400, dupStrict.text);
    assert.equal(dupStrict.json.message, 'Node in version "v1" cannot be handled as a Node: strict decoding error: ' +
                                         'duplicate field "metadata.labels.a", duplicate field "spec.podCIDR"');
    assert.equal((await kubectl('admin', ['get', 'node', 'node-dup'])).code, 1, 'nothing was created');
    const dupWarn = await create('');
    assert.equal(dupWarn.status, 201, dupWarn.text);
    assert.equal(dupWarn.headers.warning, '299 - "duplicate field \\"metadata.labels.a\\"", 299 - "duplicate field \\"spec.podCIDR\\""');
    assert.equal(dupWarn.json.metadata.labels.a, '2');
    assert.equal(dupWarn.json.spec.podCIDR, '10.3.0.0/24');
    const dupPatch = await kubeRequest(b, 'PATCH', '/api/v1/nodes/node-dup?fieldValidation=Strict', {
        creds, body: '{"spec":{"unschedulable":true,"unschedulable":false}}', headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(dupPatch.status, 400, dupPatch.text);
    assert.equal(dupPatch.json.message, 'strict decoding error: duplicate field "spec.unschedulable"');

    const bogus = await patch('?fieldValidation=Loose', { spec: {} });
    assert.equal(bogus.status, 400, bogus.text);
    assert.equal(bogus.json.message, 'fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"');
});

test('kubectl explain node.spec from /openapi/v3', async () => {
    const out = await ok('admin', ['explain', 'node.spec']);
    assert.match(out, /^KIND:\s+Node\nVERSION:\s+v1\n\nFIELD: spec <NodeSpec>\n/);
    assert.match(out, /\n {4}NodeSpec describes the attributes that a node is created with\.\n/);
    assert.match(out, /\n {2}podCIDR\t<string>\n {4}PodCIDR represents the pod IP range assigned to the node\.\n/);
    assert.match(out, /\n {2}taints\t<\[\]Taint>\n/);
    assert.match(out, /\n {2}unschedulable\t<boolean>\n/);
    const fields = await ok('admin', ['explain', 'pods.spec.containers.livenessProbe.httpGet.port']);
    assert.match(fields, /FIELD: port <IntOrString>/);
    const missing = await kubectl('admin', ['explain', 'node.spec.nothing']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /field "nothing" does not exist/);
});

test('Python watch.Watch().stream(list_node): ADDED, MODIFIED, DELETED in order, resumed from a resourceVersion, 410 past the window', async () => {
    const list = await adminKube(b, 'GET', '/api/v1/nodes');
    const rv0 = list.json.metadata.resourceVersion;
    // The changes happen first: a watch from rv0 replays them from the window.
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-w', labels: { watch: 'py' } } };
    assert.equal((await adminKube(b, 'POST', '/api/v1/nodes', node)).status, 201);
    assert.equal((await adminKube(b, 'PATCH', '/api/v1/nodes/node-w', { metadata: { labels: { step: 'two' } } },
                                  { 'Content-Type': 'application/merge-patch+json' })).status, 200);
    assert.equal((await adminKube(b, 'DELETE', '/api/v1/nodes/node-w')).status, 200);

    const all = await pyClient(files.admin, 'watch_nodes', rv0, '3', 'watch=py');
    assert.equal(all.ok, true, JSON.stringify(all));
    assert.deepEqual(all.result.events.map((e) => [e.type, e.name, e.labels.step ?? '']),
                     [['ADDED', 'node-w', ''], ['MODIFIED', 'node-w', 'two'], ['DELETED', 'node-w', 'two']]);
    const rvs = all.result.events.map((e) => Number(e.resourceVersion));
    assert.ok(rvs[0] > Number(rv0) && rvs[0] < rvs[1] && rvs[1] < rvs[2], rvs.join());

    // Resumed after the ADDED: the two later events only.
    const resumed = await pyClient(files.admin, 'watch_nodes', String(rvs[0]), '2', 'watch=py');
    assert.deepEqual(resumed.result.events.map((e) => e.type), ['MODIFIED', 'DELETED']);

    // A label selector the object leaves: DELETED for this watcher, although the node stays.
    assert.equal((await adminKube(b, 'POST', '/api/v1/nodes', { ...node, metadata: { name: 'node-x', labels: { watch: 'py' } } })).status, 201);
    const from = (await adminKube(b, 'GET', '/api/v1/nodes/node-x')).json.metadata.resourceVersion;
    assert.equal((await adminKube(b, 'PATCH', '/api/v1/nodes/node-x', { metadata: { labels: { watch: 'other' } } },
                                  { 'Content-Type': 'application/merge-patch+json' })).status, 200);
    const left = await pyClient(files.admin, 'watch_nodes', from, '1', 'watch=py');
    assert.deepEqual(left.result.events.map((e) => [e.type, e.name, e.labels.watch]), [['DELETED', 'node-x', 'py']]);
});

test('watch on the wire: initial ADDED, the initial-events-end bookmark, timeoutSeconds, RBAC for watch, 410 after a restart', async () => {
    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    const events = (text) => text.trim().split('\n').map((l) => JSON.parse(l));

    // Everything now, then the end of the initial events, then the timeout ends the stream.
    const initial = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&sendInitialEvents=true&allowWatchBookmarks=true' +
                                      '&resourceVersionMatch=NotOlderThan&timeoutSeconds=1&labelSelector=tier%3Dedge', { creds });
    assert.equal(initial.status, 200);
    assert.equal(initial.headers['content-type'], 'application/json');
    assert.equal(initial.headers['transfer-encoding'], 'chunked');
    const got = events(initial.text);
    assert.deepEqual(got.map((e) => [e.type, e.object.kind, e.object.metadata.name ?? '']),
                     [['ADDED', 'Node', 'node-9'], ['BOOKMARK', 'Node', '']]);
    assert.equal(got[1].object.metadata.annotations['k8s.io/initial-events-end'], 'true');
    assert.equal(got[0].object.apiVersion, 'v1');

    const invalid = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&sendInitialEvents=true', { creds });
    assert.equal(invalid.status, 422, invalid.text);
    assert.equal(invalid.json.message, 'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents ' +
                 'requires setting resourceVersionMatch to NotOlderThan, allowWatchBookmarks: Required value: sendInitialEvents ' +
                 'requires allowWatchBookmarks=true]');

    // The legacy /watch/ path for one object.
    const one = await kubeRequest(b, 'GET', '/api/v1/watch/nodes/node-9?timeoutSeconds=1', { creds });
    assert.deepEqual(events(one.text).map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'node-9']]);

    // bob-w (group testers) may not watch nodes: 403 with kube's words, before any stream.
    const bob = await issueKubeconfig(b, { kind: 'user', name: 'bob-w', groups: ['testers'] });
    const denied = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1', { creds: bob });
    assert.equal(denied.status, 403);
    assert.equal(denied.json.message, 'nodes is forbidden: User "bob-w" cannot watch resource "nodes" in API group "" at the cluster scope');

    const bad = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&resourceVersion=abc', { creds });
    assert.equal(bad.status, 400, bad.text);

    // After a restart the window starts anew: an older resourceVersion is 410 Expired (an ERROR event).
    const rv = (await adminKube(b, 'GET', '/api/v1/nodes')).json.metadata.resourceVersion;
    assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend({ dataDir: b.dataDir });
    // New ports: a kubeconfig that points at them (the cluster CA is the same).
    admin = await issueKubeconfig(b, { kind: 'user', name: 'admin', groups: ['system:masters'] });
    files.admin = writeKubeconfig(dir, 'admin', admin.kubeconfig);
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-after-restart' } };
    assert.equal((await adminKube(b, 'POST', '/api/v1/nodes', node)).status, 201);
    const old = await kubeRequest(b, 'GET', `/api/v1/nodes?watch=1&resourceVersion=${Number(rv) - 1}`, { creds });
    assert.equal(old.status, 200);
    const [error] = events(old.text);
    assert.equal(error.type, 'ERROR');
    assert.deepEqual({ ...error.object, message: undefined }, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: undefined, reason: 'Expired', code: 410 });
    // The window begins past a jump of a million (ObjectStore::StartStep): a database put back
    // from a backup numbers its changes from an older revision, and a watch resumed from one a
    // client saw before must not take them for what it missed.
    const oldest = error.object.message.match(new RegExp(`^too old resource version: ${Number(rv) - 1} \\((\\d+)\\)$`));
    assert.ok(oldest, error.object.message);
    // (On PostgreSQL the instances share the revision: no jump, docs/storage.md.)
    assert.ok(Number(oldest[1]) >= Number(rv) + (POSTGRES_BASE ? 0 : 1_000_000), `${oldest[1]} after ${rv}`);
    // From ahead of the store (a client that saw a newer copy of the database): 504, kube's
    // "Too large resource version", before any stream; the client lists again.
    const ahead = Number(oldest[1]) + 5_000_000;
    const tooLarge = await kubeRequest(b, 'GET', `/api/v1/nodes?watch=1&resourceVersion=${ahead}`, { creds });
    assert.equal(tooLarge.status, 504, tooLarge.text);
    assert.equal(tooLarge.json.reason, 'Timeout');
    assert.match(tooLarge.json.message, new RegExp(`^Too large resource version: ${ahead}, current: \\d+$`));
    assert.deepEqual(tooLarge.json.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
                                              retryAfterSeconds: 1 });
    const py = await pyClient(files.admin, 'watch_nodes', String(Number(rv) - 1), '1', '');
    assert.equal(py.ok, false);
    assert.equal(py.status, 410, JSON.stringify(py));
});

test('a subresource serves only its own verbs: get on serviceaccounts/token or namespaces/finalize is 405, never the parent object', async () => {
    assert.equal((await adminKube(b, 'POST', '/api/v1/namespaces/default/serviceaccounts',
                                  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'minter' } })).status, 201);
    assert.equal((await adminKube(b, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'subresources-only' },
        rules: [{ apiGroups: [''], resources: ['serviceaccounts/token', 'namespaces/finalize', 'nodes/status'], verbs: ['*'] }] })).status, 201);
    assert.equal((await adminKube(b, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'subresources-only' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'subresources-only' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'sub-only' }] })).status, 201);
    const creds = await issueKubeconfig(b, { kind: 'user', name: 'sub-only' });
    // The parents: forbidden.
    for (const path of ['/api/v1/namespaces/default/serviceaccounts/minter', '/api/v1/namespaces/default'])
        assert.equal((await kubeRequest(b, 'GET', path, { creds })).status, 403, path);
    // Their create-only and update-only subresources: 405 MethodNotAllowed, no object.
    for (const path of ['/api/v1/namespaces/default/serviceaccounts/minter/token', '/api/v1/namespaces/default/finalize',
                        '/api/v1/watch/namespaces/default/serviceaccounts/minter/token',
                        '/api/v1/namespaces/default/serviceaccounts/minter/token?watch=1&timeoutSeconds=1']) {
        const r = await kubeRequest(b, 'GET', path, { creds });
        assert.equal(r.status, 405, `${path}: ${r.text}`);
        assert.equal(r.json.kind, 'Status', path);
        assert.equal(r.json.reason, 'MethodNotAllowed', path);
        assert.ok(!r.text.includes('"ServiceAccount"') && !r.text.includes('"Namespace"'), r.text);
    }
    // What the subresources do serve still works: a token, and a node's status.
    const token = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/serviceaccounts/minter/token',
                                    { creds, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
    assert.equal(token.status, 201, token.text);
    const status = await kubeRequest(b, 'GET', '/api/v1/nodes/node-9/status', { creds });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.json.metadata.name, 'node-9');
});

test('watch: a timeoutSeconds past the server\'s limit is cut to it, never overflowed (the stream stays open, the server up)', async () => {
    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    // 4294968 s in milliseconds overflowed an int: UBSan stopped the server, a release build
    // ended the stream after 0.7 s.
    const chunks = [];
    let ended = false;
    const req = https.request({ host: '127.0.0.1', port: b.ports.cluster, method: 'GET', agent: false,
                                path: '/api/v1/nodes?watch=1&timeoutSeconds=4294968', ca: clusterCa(b),
                                cert: creds.certificatePem, key: creds.keyPem }, (res) => {
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => { ended = true; });
        res.on('error', () => { ended = true; });
    });
    req.on('error', () => { ended = true; });
    req.end();
    await waitFor(() => chunks.length > 0);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(ended, false, 'the watch ended early');
    assert.match(Buffer.concat(chunks).toString(), /"type":"ADDED"/);
    req.destroy();
    const version = await kubeRequest(b, 'GET', '/version', { creds });
    assert.equal(version.status, 200);
});

test('protobuf watch: length-prefixed WatchEvent frames that protobufjs decodes, ADDED/MODIFIED/DELETED, BOOKMARK, 410 as an ERROR frame', async () => {
    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    const names = { Node: 'k8s.io.api.core.v1.Node', Status: 'k8s.io.apimachinery.pkg.apis.meta.v1.Status' };
    // client-go's typed clients ask for protobuf first, then JSON.
    const accept = { Accept: 'application/vnd.kubernetes.protobuf, application/json' };
    const from = (await adminKube(b, 'GET', '/api/v1/nodes')).json.metadata.resourceVersion;
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-pb', labels: { watch: 'pb' } } };
    assert.equal((await adminKube(b, 'POST', '/api/v1/nodes', node)).status, 201);
    assert.equal((await adminKube(b, 'PATCH', '/api/v1/nodes/node-pb', { metadata: { labels: { step: 'two' } } },
                                  { 'Content-Type': 'application/merge-patch+json' })).status, 200);
    assert.equal((await adminKube(b, 'DELETE', '/api/v1/nodes/node-pb')).status, 200);

    const w = await kubeRequest(b, 'GET', `/api/v1/nodes?watch=1&resourceVersion=${from}&timeoutSeconds=1&labelSelector=watch%3Dpb`,
                                { creds, headers: accept });
    assert.equal(w.status, 200);
    assert.equal(w.headers['content-type'], 'application/vnd.kubernetes.protobuf;stream=watch');
    const events = decodeWatchFrames(w.raw, names);
    assert.deepEqual(events.map((e) => [e.type, e.apiVersion, e.kind, e.object.metadata.name, e.object.metadata.labels.step ?? '']),
                     [['ADDED', 'v1', 'Node', 'node-pb', ''], ['MODIFIED', 'v1', 'Node', 'node-pb', 'two'],
                      ['DELETED', 'v1', 'Node', 'node-pb', 'two']]);
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    assert.ok(rvs[0] > Number(from) && rvs[0] < rvs[1] && rvs[1] < rvs[2], JSON.stringify(rvs));
    assert.equal(events[0].object.metadata.labels.watch, 'pb');

    // The initial events and the bookmark that ends them, in frames too.
    const initial = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&sendInitialEvents=true&allowWatchBookmarks=true' +
                                      '&resourceVersionMatch=NotOlderThan&timeoutSeconds=1&fieldSelector=metadata.name%3Dnode-after-restart',
                                      { creds, headers: accept });
    const first = decodeWatchFrames(initial.raw, names);
    assert.deepEqual(first.map((e) => [e.type, e.kind, e.object.metadata.name ?? '']),
                     [['ADDED', 'Node', 'node-after-restart'], ['BOOKMARK', 'Node', '']]);
    assert.equal(first[1].object.metadata.annotations['k8s.io/initial-events-end'], 'true');

    // Older than the window (it began at the restart): one ERROR frame with a Status, then the end.
    const old = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&resourceVersion=1', { creds, headers: accept });
    assert.equal(old.status, 200);
    const [error, ...rest] = decodeWatchFrames(old.raw, names);
    assert.equal(rest.length, 0);
    assert.deepEqual([error.type, error.apiVersion, error.kind, error.object.code, error.object.reason, error.object.status],
                     ['ERROR', 'v1', 'Status', 410, 'Expired', 'Failure']);
    assert.match(error.object.message, /^too old resource version: 1 \(\d+\)$/);

    // A Table asked for beside protobuf stays JSON (kubectl get -w), and JSON alone stays JSON.
    const json = await kubeRequest(b, 'GET', '/api/v1/nodes?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dnode-after-restart',
                                   { creds, headers: { Accept: 'application/json' } });
    assert.equal(json.headers['content-type'], 'application/json');
    assert.equal(JSON.parse(json.text.trim()).object.metadata.name, 'node-after-restart');
});

test('kubectl get nodes -w sees a label change made by another client', async () => {
    const child = spawn(kubectlBinary(), ['--kubeconfig', files.admin, 'get', 'nodes', '-w', '--show-labels'],
                        { env: { ...process.env, KUBECACHEDIR: cacheDir, HOME: cacheDir, KUBECONFIG: '' } });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    try {
        await waitFor(() => out.includes('node-after-restart'), { timeoutMs: 20000, message: 'the first table' });
        const r = await adminKube(b, 'PATCH', '/api/v1/nodes/node-after-restart', { metadata: { labels: { seen: 'by-watch' } } },
                                  { 'Content-Type': 'application/merge-patch+json' });
        assert.equal(r.status, 200);
        await waitFor(() => /node-after-restart\s.*seen=by-watch/.test(out), { timeoutMs: 20000, message: 'the change' });
        assert.match(out, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+LABELS\n/);
    } finally {
        child.kill();
    }
});

test('kubectl get events and describe node: a kubeconfig issued, an admission denial (aggregated), a label change', async () => {
    const agent = await issueKubeconfig(b, { kind: 'node', name: 'node-1' });
    files.node1 = writeKubeconfig(dir, 'node1', agent.kubeconfig);
    // (kubectl label would first GET node-2, which the Node authorizer refuses: a PATCH as the
    // kubelet sends it passes authorization and meets NodeRestriction.)
    for (let i = 0; i < 2; ++i) {
        const denied = await kubeRequest(b, 'PATCH', '/api/v1/nodes/node-2', {
            creds: agent, body: { metadata: { labels: { stolen: 'yes' } } },
            headers: { 'Content-Type': 'application/merge-patch+json' } });
        assert.equal(denied.status, 403, denied.text);
        assert.match(denied.json.message, /node "node-1" is not allowed to modify node "node-2"/);
    }
    assert.equal(await ok('admin', ['label', 'node', 'node-1', 'tier=gold']), 'node/node-1 labeled\n');

    const expectEvents = async () => {
        const list = JSON.parse(await ok('admin', ['get', 'events', '-n', 'default', '-o', 'json']));
        const find = (reason, name) => list.items.find((e) => e.reason === reason && e.involvedObject.name === name);
        return { issued: find('KubeconfigIssued', 'node-1'), denied: find('AdmissionDenied', 'node-2'), labelled: find('LabelsChanged', 'node-1') };
    };
    let found;
    await waitFor(async () => {
        found = await expectEvents();
        return found.issued && found.denied?.count === 2 && found.labelled;
    }, { timeoutMs: 10000, message: 'the three events' });
    assert.equal(found.issued.type, 'Normal');
    assert.match(found.issued.message, /^kubeconfig issued to system:node:node-1 \(groups system:nodes\), client certificate valid until \d{4}-/);
    assert.equal(found.denied.type, 'Warning');
    assert.equal(found.denied.message, 'update by system:node:node-1 denied: nodes "node-2" is forbidden: ' +
                                       'node "node-1" is not allowed to modify node "node-2"');
    assert.equal(found.labelled.message, 'labels changed by admin: +tier=gold');
    assert.equal(found.labelled.source.component, 'gatehouse');
    const nodeUid = JSON.parse(await ok('admin', ['get', 'node', 'node-1', '-o', 'json'])).metadata.uid;
    assert.equal(found.labelled.involvedObject.uid, nodeUid);

    const table = await ok('admin', ['get', 'events', '-n', 'default']);
    assert.match(table, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n/);
    assert.match(table, /\n\S+\s+Warning\s+AdmissionDenied\s+node\/node-2\s+update by system:node:node-1 denied/);
    assert.match(table, /\n\S+\s+Normal\s+LabelsChanged\s+node\/node-1\s+labels changed by admin: \+tier=gold\n/);

    const describe = await ok('admin', ['describe', 'node', 'node-1']);
    const events = describe.slice(describe.indexOf('\nEvents:'));
    assert.match(events, /LabelsChanged\s+\S+\s+gatehouse\s+labels changed by admin: \+tier=gold/);
    assert.match(events, /KubeconfigIssued\s+\S+\s+gatehouse\s+kubeconfig issued to system:node:node-1/);

    // Field selectors describe uses, and one that events do not have.
    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    const selected = await kubeRequest(b, 'GET', '/api/v1/events?fieldSelector=involvedObject.kind%3DNode,involvedObject.name%3Dnode-2,reason%3DAdmissionDenied', { creds });
    assert.equal(selected.status, 200, selected.text);
    assert.deepEqual(selected.json.items.map((e) => e.count), [2]);
    const unsupported = await kubeRequest(b, 'GET', '/api/v1/events?fieldSelector=spec.nodeName%3Dx', { creds });
    assert.equal(unsupported.status, 400, unsupported.text);
});

test('events.k8s.io/v1: the same Events in its shape (Python EventsV1Api, kubectl, protobuf, watch), a controller\'s Event, kube\'s validation', async () => {
    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    // The events recorded above, read through events.k8s.io/v1 by the Python client, with a
    // field selector in v1 terms.
    const listed = await pyClient(files.admin, 'list_events_v1', 'default', 'regarding.name=node-2,reason=AdmissionDenied');
    assert.equal(listed.ok, true, JSON.stringify(listed));
    assert.deepEqual(listed.result.items.map((e) => [e.reason, e.type, e.action, e.regarding.kind, e.regarding.name, e.reportingController, e.deprecatedCount]),
                     [['AdmissionDenied', 'Warning', 'Admit', 'Node', 'node-2', 'gatehouse', 2]]);
    assert.match(listed.result.items[0].note, /^update by system:node:node-1 denied/);
    // The Python client parses it into a datetime, whose isoformat() leaves out a fraction of
    // zero microseconds (one event in a thousand on a millisecond clock): the raw answer below
    // says that the API sends all six digits, as kube's MicroTime does.
    assert.match(listed.result.items[0].eventTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    const raw = await kubeRequest(b, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events', { creds });
    assert.equal(raw.status, 200, raw.text);
    assert.ok(raw.json.items.length > 0, raw.text);
    for (const e of raw.json.items)
        assert.match(e.eventTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, JSON.stringify(e));

    // A controller's Event, in the shape client-go's events recorder writes, through the Python client.
    const ev = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'node-1.ctrl', namespace: 'default' },
                 eventTime: '2026-11-29T01:02:03.456789Z', reportingController: 'example.com/labeler', reportingInstance: 'labeler-0',
                 action: 'Relabel', reason: 'Relabelled', note: 'tier checked', type: 'Normal',
                 regarding: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } };
    const created = await pyClient(files.admin, 'create_event_v1', 'default', JSON.stringify(ev));
    assert.equal(created.ok, true, JSON.stringify(created));
    assert.deepEqual(created.result.items.map((e) => [e.name, e.note, e.eventTime, e.regarding.name]),
                     [['node-1.ctrl', 'tier checked', '2026-11-29T01:02:03.456789+00:00', 'node-1']]);
    // The same Event in core/v1: kubectl get events shows it, in core's words.
    const core = JSON.parse(await ok('admin', ['get', 'events', '-n', 'default', '--field-selector', 'reportingComponent=example.com/labeler', '-o', 'json']));
    assert.deepEqual(core.items.map((e) => [e.apiVersion ?? 'v1', e.metadata.name, e.message, e.involvedObject.name, e.reportingComponent, e.action, e.note]),
                     [['v1', 'node-1.ctrl', 'tier checked', 'node-1', 'example.com/labeler', 'Relabel', undefined]]);
    // kubectl get events.v1.events.k8s.io: the v1 shape, and kube's table.
    const v1 = JSON.parse(await ok('admin', ['get', 'events.v1.events.k8s.io', 'node-1.ctrl', '-n', 'default', '-o', 'json']));
    assert.deepEqual([v1.apiVersion, v1.kind, v1.note, v1.regarding.name, v1.reportingController, v1.message, v1.involvedObject],
                     ['events.k8s.io/v1', 'Event', 'tier checked', 'node-1', 'example.com/labeler', undefined, undefined]);
    assert.match(await ok('admin', ['get', 'events.events.k8s.io', '-n', 'default']), /\n\S+\s+Normal\s+Relabelled\s+node\/node-1\s+tier checked\n/);

    // Protobuf, as client-go asks: an events.k8s.io.v1.EventList that protobufjs decodes.
    const pb = await kubeRequest(b, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=reportingController%3Dexample.com%2Flabeler',
                                 { creds, headers: { Accept: `${protobuf.contentType}, application/json` } });
    assert.equal(pb.status, 200);
    assert.equal(pb.headers['content-type'], protobuf.contentType);
    const list = decodeK8sBody(pb.raw, { EventList: 'k8s.io.api.events.v1.EventList' });
    assert.equal(list.apiVersion, 'events.k8s.io/v1');
    assert.deepEqual(list.object.items.map((e) => [e.metadata.name, e.note, e.regarding.name, e.reportingInstance]),
                     [['node-1.ctrl', 'tier checked', 'node-1', 'labeler-0']]);

    // A watch through events.k8s.io/v1 sends the v1 shape.
    const w = await kubeRequest(b, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dnode-1.ctrl', { creds });
    const [added] = w.text.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual([added.type, added.object.apiVersion, added.object.note, added.object.message], ['ADDED', 'events.k8s.io/v1', 'tier checked', undefined]);

    // kube's validation of Events written through events.k8s.io/v1.
    const post = (body) => kubeRequest(b, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', { creds, body });
    const noTime = await post({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'bad-1' }, type: 'Loud', reason: 'x', deprecatedCount: 3 });
    assert.equal(noTime.status, 422, noTime.text);
    assert.equal(noTime.json.message, 'Event.events.k8s.io "bad-1" is invalid: [eventTime: Required value, type: Invalid value: "": ' +
                 'has invalid value: Loud, deprecatedCount: Invalid value: "": needs to be unset]');
    const unreported = await post({ ...ev, metadata: { name: 'bad-2' }, reportingInstance: 'x'.repeat(129), action: '', series: { count: 1 } });
    assert.equal(unreported.status, 422, unreported.text);
    assert.deepEqual(unreported.json.details.causes.map((c) => c.field),
                     ['reportingInstance', 'action', 'series.count', 'series.lastObservedTime']);
    // What an Event says cannot change afterwards; its series can.
    const patch = (body) => kubeRequest(b, 'PATCH', '/apis/events.k8s.io/v1/namespaces/default/events/node-1.ctrl',
                                        { creds, body, headers: { 'Content-Type': 'application/merge-patch+json' } });
    const rewritten = await patch({ note: 'something else' });
    assert.equal(rewritten.status, 422, rewritten.text);
    assert.equal(rewritten.json.message, 'Event.events.k8s.io "node-1.ctrl" is invalid: message: Invalid value: "something else": field is immutable');
    const series = await patch({ series: { count: 2, lastObservedTime: '2026-11-29T01:05:00.000000Z' } });
    assert.equal(series.status, 200, series.text);
    assert.deepEqual(series.json.series, { count: 2, lastObservedTime: '2026-11-29T01:05:00.000000Z' });
    assert.equal(series.json.note, 'tier checked');
    // Deleted through one version, gone from the other.
    assert.equal((await kubeRequest(b, 'DELETE', '/apis/events.k8s.io/v1/namespaces/default/events/node-1.ctrl', { creds })).status, 200);
    assert.equal((await kubeRequest(b, 'GET', '/api/v1/namespaces/default/events/node-1.ctrl', { creds })).status, 404);
});

test('kubectl apply --server-side: creates, re-applies, takes away what it no longer applies, and a conflict with kube\'s message', async () => {
    const file = join(dir, 'ssa.yaml');
    const manifest = (labels) => writeFileSync(file, [
        'apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: team-ssa', '  labels:',
        ...Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"`), ''].join('\n'));
    manifest({ team: 'payments', tier: 'gold' });
    assert.equal(await ok('admin', ['apply', '--server-side', '-f', file]), 'namespace/team-ssa serverside-applied\n');
    let ns = JSON.parse(await ok('admin', ['get', 'namespace', 'team-ssa', '-o', 'json', '--show-managed-fields']));
    assert.equal(ns.metadata.labels.team, 'payments');
    assert.equal(ns.metadata.labels['kubernetes.io/metadata.name'], 'team-ssa');
    const mine = ns.metadata.managedFields.find((m) => m.manager === 'kubectl');
    assert.equal(mine.operation, 'Apply');
    assert.deepEqual(mine.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:team': {}, 'f:tier': {} } } });
    // Unchanged, then without tier: tier goes.
    assert.equal(await ok('admin', ['apply', '--server-side', '-f', file]), 'namespace/team-ssa serverside-applied\n');
    manifest({ team: 'payments' });
    await ok('admin', ['apply', '--server-side', '-f', file]);
    ns = JSON.parse(await ok('admin', ['get', 'namespace', 'team-ssa', '-o', 'json']));
    assert.equal(ns.metadata.labels.tier, undefined);
    assert.equal(ns.metadata.labels.team, 'payments');

    // Another client changes the team label; the next apply of the old value is a conflict.
    await ok('admin', ['label', 'namespace', 'team-ssa', 'team=risk', '--overwrite']);
    const r = await kubectl('admin', ['apply', '--server-side', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.ok(r.stderr.startsWith('error: Apply failed with 1 conflict: conflict with "kubectl-label" using v1: .metadata.labels.team\n'), r.stderr);
    assert.equal(JSON.parse(await ok('admin', ['get', 'namespace', 'team-ssa', '-o', 'json'])).metadata.labels.team, 'risk');
    // --force-conflicts takes the field over.
    assert.equal(await ok('admin', ['apply', '--server-side', '--force-conflicts', '-f', file]), 'namespace/team-ssa serverside-applied\n');
    ns = JSON.parse(await ok('admin', ['get', 'namespace', 'team-ssa', '-o', 'json', '--show-managed-fields']));
    assert.equal(ns.metadata.labels.team, 'payments');
    assert.equal(ns.metadata.managedFields.find((m) => m.manager === 'kubectl-label'), undefined);

    // Another manager, through the API: a dry run stores nothing; a missing fieldManager is kube's 422.
    const creds = { certificatePem: admin.certificatePem, keyPem: admin.keyPem };
    const patch = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-ssa\n  labels:\n    owner: ci\n';
    const apply = (query) => kubeRequest(b, 'PATCH', `/api/v1/namespaces/team-ssa${query}`,
                                         { creds, body: patch, headers: { 'Content-Type': 'application/apply-patch+yaml' } });
    const missing = await apply('');
    assert.equal(missing.status, 422, missing.text);
    assert.equal(missing.json.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const dry = await apply('?fieldManager=ci&dryRun=All');
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.json.metadata.labels.owner, 'ci');
    assert.equal(JSON.parse(await ok('admin', ['get', 'namespace', 'team-ssa', '-o', 'json'])).metadata.labels.owner, undefined);
    const done = await apply('?fieldManager=ci');
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.metadata.labels.team, 'payments');
    assert.deepEqual(done.json.metadata.managedFields.map((m) => `${m.manager}/${m.operation}`).sort(),
                     ['ci/Apply', 'kubectl/Apply']);
    const force = await kubeRequest(b, 'PATCH', '/api/v1/namespaces/team-ssa?force=true',
                                    { creds, body: { metadata: { labels: { a: 'b' } } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(force.status, 422, force.text);
    assert.equal(force.json.message, 'PatchOptions.meta.k8s.io "" is invalid: force: Invalid value: true: may not be specified for non-apply patch');

    // An apply creates what does not exist yet (201).
    const created = await kubeRequest(b, 'PATCH', '/api/v1/namespaces/default/serviceaccounts/applied?fieldManager=ci', {
        creds, body: 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: applied\n  namespace: default\n  labels:\n    app: ci\n',
        headers: { 'Content-Type': 'application/apply-patch+yaml' } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.metadata.managedFields[0].manager, 'ci');
    assert.deepEqual(created.json.metadata.managedFields[0].fieldsV1, { 'f:metadata': { 'f:labels': { 'f:app': {} } } });
});

test('impersonation (kubectl --as, --as-group): allowed by the impersonate verb only, refused with kube\'s 403 otherwise; the request acts as that identity', async () => {
    const carol = await issueKubeconfig(b, { kind: 'user', name: 'carol', groups: [] });
    files.carol = writeKubeconfig(dir, 'carol', carol.kubeconfig);
    // carol may impersonate the user bob and the group devs, nothing else.
    await ok('admin', ['create', 'clusterrole', 'impersonator', '--verb=impersonate', '--resource=users,groups',
                       '--resource-name=bob', '--resource-name=devs']);
    await ok('admin', ['create', 'clusterrolebinding', 'carol-impersonates', '--clusterrole=impersonator', '--user=carol']);
    await ok('admin', ['create', 'namespace', 'team-i']);
    const whoami = async (who, args) => JSON.parse(await ok(who, ['auth', 'whoami', '-o', 'json', ...args])).status.userInfo;

    // A cluster admin acts as bob: bob's identity and bob's rights, not its own.
    assert.deepEqual(await whoami('admin', ['--as=bob']), { username: 'bob', groups: ['system:authenticated'] });
    assert.equal((await kubectl('admin', ['auth', 'can-i', 'delete', 'nodes'])).stdout, 'yes\n');
    const asBob = await kubectl('admin', ['auth', 'can-i', 'delete', 'nodes', '--as=bob']);
    assert.equal(asBob.stdout, 'no\n', asBob.stderr);
    const created = await kubectl('admin', ['create', 'namespace', 'made-as-bob', '--as=bob']);
    assert.notEqual(created.code, 0);
    assert.equal(created.stderr, 'Error from server (Forbidden): namespaces is forbidden: User "bob" cannot create resource "namespaces" in API group "" at the cluster scope\n');
    // A service account gets its groups.
    assert.deepEqual(await whoami('admin', ['--as=system:serviceaccount:team-i:robot']), {
        username: 'system:serviceaccount:team-i:robot',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team-i', 'system:authenticated'] });

    // carol within her rights.
    assert.deepEqual(await whoami('carol', ['--as=bob', '--as-group=devs']), { username: 'bob', groups: ['devs', 'system:authenticated'] });
    // The request log says who acted as bob (kube's audit: user and impersonatedUser).
    const recent = (await adminFetch(b, 'GET', '/admin/v1/cluster/requests?limit=50')).json.items;
    const review = recent.find((r) => r.path === '/apis/authentication.k8s.io/v1/selfsubjectreviews' && r.user === 'bob' &&
                                      r.impersonatedBy === 'carol');
    assert.ok(review, JSON.stringify(recent.slice(0, 5)));
    assert.ok(recent.filter((r) => r.user === 'admin').every((r) => r.impersonatedBy === undefined));
    // ... and beyond them: kube's 403, nothing done as anyone.
    for (const [args, error] of [
        [['--as=dave'], 'users "dave" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope'],
        [['--as=bob', '--as-group=system:masters'], 'groups "system:masters" is forbidden: User "carol" cannot impersonate resource "groups" in API group "" at the cluster scope'],
        [['--as=system:serviceaccount:team-i:robot'], 'serviceaccounts "robot" is forbidden: User "carol" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team-i"'],
        // Not a service account's name (kube's SplitUsername): a user's, asked as one.
        [['--as=system:serviceaccount:team-i:Bad_Name'], 'users "system:serviceaccount:team-i:Bad_Name" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope'],
    ]) {
        const r = await kubectl('carol', ['create', 'namespace', 'made-by-carol', ...args]);
        assert.notEqual(r.code, 0, args.join(' '));
        assert.equal(r.stderr, `Error from server (Forbidden): ${error}\n`, args.join(' '));
    }
    // A header sent twice counts once, with its first value, as kube reads it.
    const reviewAs = (headers) => kubeRequest(b, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        creds: carol, headers, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    const first = await reviewAs({ 'Impersonate-User': ['bob', 'dave'] });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.json.status.userInfo.username, 'bob');
    const second = await reviewAs({ 'Impersonate-User': ['dave', 'bob'] });
    assert.equal(second.status, 403, second.text);
    assert.equal(second.json.message,
                 'users "dave" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope');
    // A uid or an extra carol holds no impersonate right on: refused the same way, nothing done.
    for (const [headers, error] of [
        [{ 'Impersonate-User': 'bob', 'Impersonate-Uid': 'u-1' }, 'uids.authentication.k8s.io "u-1" is forbidden: User "carol" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope'],
        [{ 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'admin' }, 'userextras.authentication.k8s.io "admin" is forbidden: User "carol" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope'],
    ]) {
        const r = await kubeRequest(b, 'POST', '/api/v1/namespaces', {
            creds: carol, headers, body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'made-by-carol' } } });
        assert.equal(r.status, 403, r.text);
        assert.equal(JSON.parse(r.text).message, error);
    }
    assert.notEqual((await kubectl('admin', ['get', 'namespace', 'made-by-carol'])).code, 0, 'nothing created');
    // A group without a user is no request at all.
    const bare = await kubeRequest(b, 'GET', '/api/v1/namespaces', { creds: carol, headers: { 'Impersonate-Group': 'devs' } });
    assert.equal(bare.status, 400, bare.text);
    assert.equal(JSON.parse(bare.text).message, 'requested impersonation of groups without impersonating a user');
});

test('kube\'s answers at the edges: an apply through status creates nothing, a namespace\'s access review asks about no URL, a warning cannot add a header', async () => {
    // Server-side apply through pods/status: 404, as kube's status REST answers; no pod made.
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: ghost\n  namespace: team-i\nspec:\n  containers:\n  - name: c\n    image: busybox\n';
    const applied = await kubeRequest(b, 'PATCH', '/api/v1/namespaces/team-i/pods/ghost/status?fieldManager=e2e', {
        creds: admin, body: pod, headers: { 'Content-Type': 'application/apply-patch+yaml' } });
    assert.equal(applied.status, 404, applied.text);
    assert.equal(JSON.parse(applied.text).message, 'pods "ghost" not found');
    assert.equal((await kubeRequest(b, 'GET', '/api/v1/namespaces/team-i/pods/ghost', { creds: admin })).status, 404);
    // A LocalSubjectAccessReview may not ask about URLs (cluster-wide): 422 as in kube.
    const lsar = await kubeRequest(b, 'POST', '/apis/authorization.k8s.io/v1/namespaces/team-i/localsubjectaccessreviews', {
        creds: admin, body: { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview',
                              spec: { user: 'root', groups: ['system:masters'], nonResourceAttributes: { path: '/metrics', verb: 'get' } } } });
    assert.equal(lsar.status, 422, lsar.text);
    assert.match(JSON.parse(lsar.text).message,
                 /spec\.nonResourceAttributes: Invalid value: authorization\.NonResourceAttributes\{Path:"\/metrics", Verb:"get"\}: disallowed on this kind of request/);
    // An unknown field named with CR LF: the warning stays one header line.
    const sa = await kubeRequest(b, 'POST', '/api/v1/namespaces/team-i/serviceaccounts?dryRun=All&fieldValidation=Warn', {
        creds: admin, body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'warned' }, 'x\r\nX-Injected: 1': true } });
    assert.equal(sa.status, 201, sa.text);
    assert.equal(sa.headers['x-injected'], undefined, JSON.stringify(sa.headers));
    assert.match(String(sa.headers.warning), /X-Injected: 1/);
});

test('TokenReview reviews a token for the audiences asked: an API server token is no token for vault, and a token for vault is not one for the API server', async () => {
    await ok('admin', ['create', 'serviceaccount', 'reviewed', '-n', 'team-i']);
    const apiToken = (await ok('admin', ['create', 'token', 'reviewed', '-n', 'team-i'])).trim();
    const vaultToken = (await ok('admin', ['create', 'token', 'reviewed', '-n', 'team-i', '--audience', 'vault'])).trim();
    const review = async (token, audiences) => {
        const r = await kubeRequest(b, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
            creds: admin, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview',
                                  spec: { token, ...(audiences ? { audiences } : {}) } } });
        assert.equal(r.status, 201, r.text);
        assert.ok(!r.text.includes(token), 'the token is not echoed');
        return JSON.parse(r.text).status;
    };
    const user = 'system:serviceaccount:team-i:reviewed';
    const api = await review(apiToken);
    assert.equal(api.authenticated, true, JSON.stringify(api));
    assert.equal(api.user.username, user);
    assert.deepEqual(api.audiences, ['https://kubernetes.default.svc.cluster.local']);
    const apiForVault = await review(apiToken, ['vault']);
    assert.equal(apiForVault.authenticated, false, JSON.stringify(apiForVault));
    assert.match(apiForVault.error, /not for the audiences asked \(vault\)/);
    const vault = await review(vaultToken, ['vault', 'other']);
    assert.equal(vault.authenticated, true, JSON.stringify(vault));
    assert.equal(vault.user.username, user);
    assert.deepEqual(vault.audiences, ['vault']);
    const vaultForApi = await review(vaultToken);
    assert.equal(vaultForApi.authenticated, false, JSON.stringify(vaultForApi));
    // ... nor does it reach the API itself.
    const direct = await kubeRequest(b, 'GET', '/api/v1/namespaces/team-i/serviceaccounts', {
        headers: { Authorization: `Bearer ${vaultToken}` } });
    assert.equal(direct.status, 401, direct.text);
});
