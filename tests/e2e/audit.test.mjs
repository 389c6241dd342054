// The audit log (issue 8): every administrative change with its actor, time and a field-by-
// field before/after, secrets never stored, linked to what it caused next (tokens issued under
// a client record, cluster verdicts after a setting change, delivery attempts of a
// redelivery); dry runs and refused changes are not changes; live on the event stream.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startBackend, adminFetch, request, readEvents, waitFor } from './lib/backend.mjs';
import { curl, tempDir } from './lib/cluster.mjs';

let b;
const ACTOR = { 'X-Gatehouse-Actor': 'e2e-alice', 'User-Agent': 'audit-e2e/1.0' };

async function admin(method, path, body) {
    return adminFetch(b, method, path, body, ACTOR);
}

// The newest entries matching `match`, waiting for the writer to have stored them.
async function entries(query, count = 1) {
    return waitFor(async () => {
        const r = await adminFetch(b, 'GET', `/admin/v1/audit?${query}`);
        assert.equal(r.status, 200, r.text);
        return r.json.items.length >= count ? r.json.items : null;
    }, { message: `audit entries for ${query}` });
}

function change(entry, field) {
    return entry.changes.find((c) => c.field === field);
}

before(async () => {
    b = await startBackend();
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

test('clients: create, update, rotate-secret, delete with actor, field changes, no secret; tokens issued under each record', async () => {
    const created = await admin('POST', '/admin/v1/clients', {
        client_name: 'audited', grant_types: ['client_credentials'], scope: 'orders:read' });
    assert.equal(created.status, 201, created.text);
    const id = created.json.client_id;
    const secret = created.json.client_secret;
    const [c] = await entries(`kind=client&target=${id}`);
    assert.equal(c.action, 'create');
    assert.equal(c.actor, 'e2e-alice (audit-e2e/1.0 from 127.0.0.1)');
    assert.equal(c.method, 'POST');
    assert.equal(c.status, 201);
    assert.equal(c.before, null);
    assert.equal(c.after.client_name, 'audited');
    assert.ok(!Number.isNaN(Date.parse(c.at)));
    assert.deepEqual(change(c, 'scope'), { field: 'scope', before: null, after: 'orders:read', added: true });

    const updated = await admin('PUT', `/admin/v1/clients/${id}`, {
        client_name: 'audited v2', grant_types: ['client_credentials'], scope: 'orders:read orders:write' });
    assert.equal(updated.status, 200, updated.text);
    const [u] = await entries(`kind=client&target=${id}`, 2); // stored after the answer: wait for it
    assert.equal(u.action, 'update');
    assert.deepEqual(change(u, 'client_name'), { field: 'client_name', before: 'audited', after: 'audited v2' });
    assert.deepEqual(change(u, 'scope'), { field: 'scope', before: 'orders:read', after: 'orders:read orders:write' });
    assert.equal(u.changes.length, 2, JSON.stringify(u.changes));

    // a token issued under the new record is this update's consequence, not the create's
    const token = await request(`${b.serviceUrl}/oauth2/token`, 'POST', 'grant_type=client_credentials', {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
    assert.equal(token.status, 200, token.text);
    const [u2, c2] = await entries(`kind=client&target=${id}`, 2);
    assert.equal(u2.consequences.tokensIssued, 1, JSON.stringify(u2.consequences));
    assert.match(u2.consequences.summary, /1 token\(s\) issued under this client record/);
    assert.equal(u2.consequences.items[0].clientId, id);
    assert.equal(c2.consequences.tokensIssued, 0);

    const rotated = await admin('POST', `/admin/v1/clients/${id}/rotate-secret`);
    assert.equal(rotated.status, 200, rotated.text);
    const deleted = await admin('DELETE', `/admin/v1/clients/${id}`);
    assert.equal(deleted.status, 204, deleted.text);
    const all = await entries(`kind=client&target=${id}`, 4);
    assert.deepEqual(all.map((e) => e.action), ['delete', 'rotate-secret', 'update', 'create']);
    assert.equal(all[0].after, null);
    assert.equal(all[0].before.client_name, 'audited v2');
    const text = JSON.stringify(all);
    for (const s of [secret, rotated.json.client_secret].filter(Boolean))
        assert.ok(!text.includes(s), 'no client secret in the audit log');
});

test('users, keys, customers: passwords and webhook secrets never stored', async () => {
    const PASSWORD = 'audit password 123';
    const u = await admin('POST', '/admin/v1/users', { username: 'audrey', password: PASSWORD, email: 'a@example.com' });
    assert.equal(u.status, 201, u.text);
    const [ue] = await entries('kind=user');
    assert.equal(ue.action, 'create');
    assert.equal(ue.after.username, 'audrey');
    const rot = await admin('POST', '/admin/v1/signing-keys/rotate', { alg: 'ES256' });
    assert.equal(rot.status, 200, rot.text);
    const [ke] = await entries('kind=key');
    assert.equal(ke.action, 'rotate');
    assert.equal(ke.target, 'ES256');
    assert.ok(ke.changes.length > 0, 'the key list changed');
    const cust = await admin('POST', '/admin/v1/customers', { name: 'Audited Pub' });
    assert.equal(cust.status, 201, cust.text);
    const [ce] = await entries('kind=customer');
    assert.equal(ce.target, cust.json.customer.id);
    assert.equal(ce.after.name, 'Audited Pub');
    // a demo token minted for a client: recorded against the client, the token redacted
    const c = await admin('POST', '/admin/v1/clients', { client_name: 'minted', grant_types: ['client_credentials'], scope: 'orders:read' });
    const minted = await admin('POST', '/admin/v1/tokens', { client_id: c.json.client_id });
    assert.equal(minted.status, 200, minted.text);
    const [te] = await entries('kind=token');
    assert.equal(te.action, 'mint');
    assert.equal(te.target, c.json.client_id);
    assert.equal(te.after.access_token, '[redacted]');
    const all = JSON.stringify((await adminFetch(b, 'GET', '/admin/v1/audit?limit=1000')).json);
    assert.ok(!all.includes(minted.json.access_token), 'no token');
    assert.ok(!all.includes(PASSWORD), 'no password');
    assert.ok(!all.includes(cust.json.webhookSecret), 'no webhook secret');
});

test('objects named like the dry runs (access, explain, preview, inspect) are audited like any other', async () => {
    for (const name of ['inspect', 'access', 'preview', 'explain']) {
        const created = await admin('POST', '/admin/v1/users', { username: name, password: 'named like a dry run' });
        assert.equal(created.status, 201, created.text);
        const changed = await admin('PATCH', `/admin/v1/users/${name}`, { groups: ['system:masters'] });
        assert.equal(changed.status, 200, changed.text);
        const of = (action) => waitFor(async () => {
            const r = await adminFetch(b, 'GET', '/admin/v1/audit?kind=user&limit=1000');
            assert.equal(r.status, 200, r.text);
            return r.json.items.find((e) => e.action === action && [name, created.json.id].includes(e.target)) ?? null;
        }, { message: `the ${action} of user ${name} in the audit log` });
        const e = await of('update');
        assert.deepEqual(change(e, 'groups').after, ['system:masters'], name);
        const deleted = await admin('DELETE', `/admin/v1/users/${name}`);
        assert.ok([200, 204].includes(deleted.status), deleted.text);
        await of('delete');
    }
});

test('redelivery: a bulk job\'s consequences are its own deliveries\' attempts, not every manual attempt since', async () => {
    // Two customers, each with a test order whose callbacks reach the built-in demo receiver.
    const customer = async (name) => (await admin('POST', '/admin/v1/customers', { name })).json.customer.id;
    const [mine, other] = [await customer('Bulk Audited'), await customer('Bystander')];
    const orders = [];
    for (const c of [mine, other]) {
        const o = await admin('POST', '/admin/v1/test-orders', { customerId: c });
        assert.equal(o.status, 201, o.text);
        orders.push(o.json.id);
    }
    const settled = (id) => waitFor(async () => {
        const d = (await adminFetch(b, 'GET', `/admin/v1/deliveries?orderId=${id}`)).json.items;
        return d.length >= 5 && d.every((x) => x.state === 'succeeded') ? d : null;
    }, { message: `the deliveries of order ${id}` });
    const [own, theirs] = [await settled(orders[0]), await settled(orders[1])];
    const job = await admin('POST', '/admin/v1/redeliveries', { filter: { customerId: mine, state: 'succeeded' }, ratePerSecond: 1000 });
    assert.equal(job.status, 201, job.text);
    // Another customer's delivery redelivered by hand in the same window: not the job's.
    assert.equal((await admin('POST', `/admin/v1/deliveries/${theirs[0].id}/redeliver`)).status, 200);
    await waitFor(async () => (await adminFetch(b, 'GET', `/admin/v1/redeliveries/${job.json.id}`)).json.state === 'completed',
                  { message: 'the job completed' });
    const entry = await waitFor(async () => {
        const r = await adminFetch(b, 'GET', '/admin/v1/audit?kind=redelivery&limit=100');
        const e = r.json.items.find((x) => x.target === job.json.id && x.action === 'create');
        return e && e.consequences.attemptsSucceeded + e.consequences.attemptsFailed >= own.length ? e : null;
    }, { message: 'the job\'s audit entry with its attempts' });
    assert.equal(entry.consequences.attemptsSucceeded + entry.consequences.attemptsFailed, own.length,
                 JSON.stringify(entry.consequences));
    const ownIds = new Set(own.map((d) => d.id));
    assert.ok(entry.consequences.items.every((i) => ownIds.has(i.deliveryId)), JSON.stringify(entry.consequences.items));
});

test('cluster: a node label and a setting with before/after; the verdicts after the setting', async () => {
    const label = await admin('POST', '/admin/v1/cluster/requests', {
        user: 'system:node:node-1', groups: ['system:nodes'], node: 'node-1', labels: { rack: 'audit-r1' } });
    assert.equal(label.status, 200, label.text);
    assert.equal(label.json.code, 200, label.text);
    const [ne] = await entries('kind=node&target=node-1');
    assert.equal(ne.action, 'label');
    assert.deepEqual(change(ne, 'metadata.labels.rack'), { field: 'metadata.labels.rack', before: null, after: 'audit-r1', added: true });
    assert.equal(change(ne, 'metadata.resourceVersion'), undefined, 'noise fields are left out');

    const off = await admin('PUT', '/admin/v1/cluster/settings', { anonymousAuth: false });
    assert.equal(off.status, 200, off.text);
    const dir = tempDir();
    const anon = await curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', '--cacert', `${b.dataDir}/pki/ca.crt`, `${b.clusterUrl}/version`]);
    assert.equal(anon.stdout, '401');
    const [se] = await waitFor(async () => {
        const r = await entries('kind=setting');
        return r[0].consequences.denied >= 1 ? r : null;
    }, { message: 'the denied request counted after the setting change' });
    assert.deepEqual(change(se, 'anonymousAuth'), { field: 'anonymousAuth', before: true, after: false });
    assert.match(se.consequences.summary, /denied since/);
    assert.equal((await admin('PUT', '/admin/v1/cluster/settings', { anonymousAuth: true })).status, 200);
    await entries('kind=setting', 2); // stored before the next test counts entries
    void dir;
});

test('cluster: an RBAC change and the anonymous-access setting name the earlier requests they turned', async () => {
    const carol = { user: 'audit-carol', groups: ['audit-team'] };
    const listPods = { ...carol, method: 'GET', path: '/api/v1/namespaces/default/pods' };
    const asCarol = async () => {
        const r = await admin('POST', '/admin/v1/cluster/requests', listPods);
        assert.equal(r.status, 200, r.text);
        return r.json.code;
    };
    for (let i = 0; i < 3; ++i)
        assert.equal(await asCarol(), 403);
    // A request that no change can turn: a rejected credential.
    const forged = await curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', '--cacert', `${b.dataDir}/pki/ca.crt`,
                               '-H', 'Authorization: Bearer forged.token.value', `${b.clusterUrl}/api/v1/namespaces/default/pods`]);
    assert.equal(forged.stdout, '401');

    const yaml = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: audit-pod-reader, namespace: default}
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: audit-carol-reads, namespace: default}
subjects:
- {kind: User, name: audit-carol, apiGroup: rbac.authorization.k8s.io}
roleRef: {kind: Role, name: audit-pod-reader, apiGroup: rbac.authorization.k8s.io}
`;
    const imported = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', yaml,
                                      { ...ACTOR, 'Content-Type': 'application/yaml' });
    assert.equal(imported.status, 200, imported.text);
    // One entry per object, the import's verdicts with its last.
    const [role] = await entries('kind=rbac&target=default/audit-pod-reader');
    assert.equal(role.action, 'create');
    assert.equal(role.before, null);
    assert.deepEqual(role.after.rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    const [granted] = await entries('kind=rbac&target=default/audit-carol-reads');
    assert.equal(granted.action, 'create');
    assert.deepEqual(granted.after.subjects, [{ kind: 'User', name: 'audit-carol', apiGroup: 'rbac.authorization.k8s.io' }]);
    const c = granted.consequences;
    assert.equal(c.verdictsChanged, 3, JSON.stringify(c));
    assert.match(c.summary, /^3 earlier request\(s\) decided otherwise after it \(3 now allowed, 0 now denied\)/);
    assert.equal(c.verdictChanges.length, 1, 'the same request three times is one line; nothing the RBAC change did not turn');
    const turned = c.verdictChanges[0];
    assert.equal(turned.user, 'audit-carol');
    assert.deepEqual(turned.groups, ['audit-team', 'system:authenticated']);
    assert.equal(turned.path, listPods.path);
    assert.equal(turned.verb, 'list');
    assert.equal(turned.requests, 3);
    assert.equal(turned.verdict, 'now allowed');
    assert.deepEqual({ stage: turned.then.stage, authorized: turned.then.authorized },
                     { stage: 'authorization', authorized: false });
    assert.match(turned.then.reason, /^pods is forbidden: User "audit-carol" cannot list resource "pods"/);
    assert.equal(turned.now.authorized, true);
    assert.match(turned.now.reason, /^RBAC: allowed by RoleBinding "audit-carol-reads\/default" of Role "audit-pod-reader" to User "audit-carol"$/);
    assert.ok(!JSON.stringify(c.verdictChanges).includes('forged'), 'a rejected credential is never turned');
    // Stored with the entry: reading it again later gives the same answer.
    const again = await admin('GET', `/admin/v1/audit/${granted.id}`);
    assert.deepEqual(again.json.effects.verdictChanges.changes, c.verdictChanges);

    // Allowed now; taking the binding away turns all four of carol's recent requests (each
    // decided under the policy just before the change and just after it).
    assert.equal(await asCarol(), 200);
    const removed = await admin('DELETE', '/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/audit-carol-reads');
    assert.equal(removed.status, 200, removed.text);
    // (The import's create entry is there already: wait for the second.)
    const [revoked] = await entries('kind=rbac&target=default/audit-carol-reads', 2);
    assert.equal(revoked.action, 'delete');
    assert.equal(revoked.consequences.verdictsChanged, 4, JSON.stringify(revoked.consequences));
    assert.equal(revoked.consequences.verdictChanges.length, 1);
    const lost = revoked.consequences.verdictChanges[0];
    assert.equal(lost.requests, 4);
    assert.equal(lost.verdict, 'now denied');
    assert.equal(lost.then.authorized, true);
    assert.match(lost.then.reason, /RoleBinding "audit-carol-reads\/default"/);
    assert.equal(lost.now.stage, 'authorization');
    // In the words of the 403 the same request gets now.
    const refused = await admin('POST', '/admin/v1/cluster/requests', listPods);
    assert.equal(refused.json.code, 403);
    assert.equal(lost.now.reason, refused.json.body.message);
    assert.match(lost.now.reason, /User "audit-carol" cannot list resource "pods"/);

    // Anonymous access off turns the anonymous requests made before; on again turns back the
    // ones refused meanwhile.
    const anon = () => curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', '--cacert', `${b.dataDir}/pki/ca.crt`, `${b.clusterUrl}/version`]);
    assert.equal((await anon()).stdout, '200');
    assert.equal((await admin('PUT', '/admin/v1/cluster/settings', { anonymousAuth: false })).status, 200);
    // The newest setting entry once it is the one that set anonymousAuth to `value`.
    const anonymousSetTo = (value) => waitFor(async () => {
        const [newest] = await entries('kind=setting');
        return newest.changes.some((x) => x.field === 'anonymousAuth' && x.after === value) ? newest : null;
    }, { message: `the setting change to anonymousAuth ${value}` });
    const off = await anonymousSetTo(false);
    const lostAnon = off.consequences.verdictChanges.find((x) => x.path === '/version');
    assert.ok(lostAnon, JSON.stringify(off.consequences));
    assert.equal(lostAnon.user, 'system:anonymous');
    assert.equal(lostAnon.verdict, 'now denied');
    assert.equal(lostAnon.now.stage, 'authentication');
    assert.equal(lostAnon.now.reason, 'no credentials presented and anonymous access is off');
    assert.equal((await anon()).stdout, '401');
    assert.equal((await admin('PUT', '/admin/v1/cluster/settings', { anonymousAuth: true })).status, 200);
    const on = await anonymousSetTo(true);
    const back = on.consequences.verdictChanges.find((x) => x.path === '/version' && x.anonymous === true);
    assert.ok(back, JSON.stringify(on.consequences));
    assert.equal(back.verdict, 'now allowed');
    assert.deepEqual(back.then, { stage: 'authentication', authorized: false, reason: 'no credentials presented and anonymous access is off' });
    assert.equal(back.user, 'system:anonymous');
    assert.match(back.now.reason, /system:public-info-viewer/);
});

test('cluster: what is recorded is what the cluster did — a refused request is no change, a name is the one changed, an import records each object, a claimed actor cannot hide the token', async () => {
    const RBAC = '/apis/rbac.authorization.k8s.io/v1';
    const binding = (name, users) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
                                        metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
                                        subjects: users.map((u) => ({ kind: 'User', name: u, apiGroup: 'rbac.authorization.k8s.io' })) });
    const made = await admin('POST', `/admin/v1/cluster/k8s${RBAC}/clusterrolebindings`, binding('ops-viewers', ['olga']));
    assert.equal(made.status, 201, made.text);
    // 1. Performed as nobody: the cluster refuses (403), the admin API answers 200 around it. It
    //    was recorded as "rbac delete 'cluster-admin'".
    const refused = await admin('POST', '/admin/v1/cluster/requests',
                                { user: 'nobody', method: 'DELETE', path: `${RBAC}/clusterrolebindings/cluster-admin` });
    assert.equal(refused.status, 200, refused.text);
    assert.equal(refused.json.code, 403);
    // 2. A name encoded twice through the passthrough: the cluster changes ops-viewers; it was
    //    recorded as "%6Fps-viewers", with nothing before.
    const put = await admin('PUT', `/admin/v1/cluster/k8s${RBAC}/clusterrolebindings/%256Fps-viewers`,
                            binding('ops-viewers', ['olga', 'eve']));
    assert.equal(put.status, 200, put.text);
    const [updated] = await entries('kind=rbac&target=ops-viewers', 2);
    assert.equal(updated.action, 'update');
    assert.deepEqual(updated.before.subjects.map((x) => x.name), ['olga']);
    assert.deepEqual(updated.after.subjects.map((x) => x.name), ['olga', 'eve']);
    const all = (await adminFetch(b, 'GET', '/admin/v1/audit?kind=rbac&limit=1000')).json.items;
    assert.ok(!all.some((e) => e.target === 'cluster-admin'), 'the refused delete is not recorded');
    assert.ok(!all.some((e) => e.target.includes('%')), JSON.stringify(all.map((e) => e.target)));
    // 3. An import that replaces a binding records the binding, before and after.
    const imported = await adminFetch(b, 'POST', '/admin/v1/cluster/rbac/import', JSON.stringify(binding('ops-viewers', ['olga', 'eve', 'mallory'])),
                                      { ...ACTOR, 'Content-Type': 'application/json' });
    assert.equal(imported.status, 200, imported.text);
    assert.equal(imported.json.results[0].action, 'replaced');
    const [replaced] = await entries('kind=rbac&target=ops-viewers', 3);
    assert.equal(replaced.action, 'update');
    assert.deepEqual(replaced.before.subjects.map((x) => x.name), ['olga', 'eve']);
    assert.deepEqual(replaced.after.subjects.map((x) => x.name), ['olga', 'eve', 'mallory']);
    // 4. A scoped token's caller claims to be someone with parentheses and a right-to-left
    //    override: the Audit page shows the actor up to its first " (", which was the claim.
    const scoped = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'audit-claims', permissions: ['cluster:write'] });
    assert.equal(scoped.status, 201, scoped.text);
    const claimed = await request(`${b.adminUrl}/admin/v1/cluster/k8s${RBAC}/clusterrolebindings/ops-viewers`, 'DELETE', undefined,
                                  { Authorization: `Bearer ${scoped.json.token}`, 'User-Agent': 'audit-e2e/1.0',
                                    // (UTF-8 bytes: Node sends a header's text as Latin-1)
                                    'X-Gatehouse-Actor': Buffer.from('admin token (gatehouse-admin-cli from 127.0.0.1)\u202e', 'utf8').toString('latin1') });
    assert.equal(claimed.status, 200, claimed.text);
    const [deleted] = await entries('kind=rbac&target=ops-viewers', 4);
    assert.equal(deleted.action, 'delete');
    assert.equal(deleted.actor, "admin token gatehouse-admin-cli from 127.0.0.1 via admin token 'audit-claims' " +
                 `#${scoped.json.id.slice(0, 8)} (audit-e2e/1.0 from 127.0.0.1)`);
});

test('dry runs, reads and refused changes are not recorded; filters and errors; live audit.entry events', async () => {
    const before = (await adminFetch(b, 'GET', '/admin/v1/audit?limit=1000')).json.items.length;
    assert.equal((await admin('POST', '/admin/v1/cluster/explain', { user: 'bob', method: 'GET', path: '/api/v1/nodes' })).status, 200);
    assert.equal((await admin('POST', '/admin/v1/cluster/access', { user: 'bob' })).status, 200);
    assert.equal((await admin('POST', '/admin/v1/redeliveries/preview', { filter: {} })).status, 200);
    assert.equal((await admin('POST', '/admin/v1/clients', { client_name: 'x', token_endpoint_auth_method: 'magic' })).status, 400);
    assert.equal((await admin('DELETE', '/admin/v1/clients/no-such-client')).status, 404);
    assert.equal((await admin('GET', '/admin/v1/clients')).status, 200);
    // A recorded change as a barrier: entries are stored in order, so once its entry is there,
    // an entry of any request above would be there too.
    const barrier = await admin('POST', '/admin/v1/customers', { name: 'audit barrier' });
    assert.equal(barrier.status, 201, barrier.text);
    const stored = await waitFor(async () => {
        const items = (await adminFetch(b, 'GET', '/admin/v1/audit?limit=1000')).json.items;
        return items.some((e) => e.kind === 'customer' && e.target === barrier.json.customer.id) ? items : null;
    }, { message: 'the barrier\'s audit entry' });
    assert.equal(stored.length, before + 1, JSON.stringify(stored.slice(0, 3)));

    for (const q of ['since=yesterday', 'limit=0', 'limit=5000', 'before=x'])
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/audit?${q}`)).status, 400, q);
    assert.equal((await adminFetch(b, 'GET', '/admin/v1/audit/999999')).status, 404);
    const one = (await adminFetch(b, 'GET', '/admin/v1/audit?limit=1')).json.items[0];
    const byId = await adminFetch(b, 'GET', `/admin/v1/audit/${one.id}`);
    assert.equal(byId.status, 200);
    assert.equal(byId.json.id, one.id);
    const paged = await adminFetch(b, 'GET', `/admin/v1/audit?before=${one.id}&limit=1`);
    assert.ok(Number(paged.json.items[0].id) < Number(one.id));

    const events = await readEvents(b, 500);
    const audit = events.filter((e) => e.type === 'audit.entry');
    assert.ok(audit.length >= 5, `audit.entry events: ${audit.length}`);
    assert.ok(audit.every((e) => e.data.data.id && e.data.data.kind), JSON.stringify(audit[0]));
});
