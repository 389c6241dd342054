// gatehouse --demo (docs/demo.md): on a new data directory the backend fills itself through its
// own admin API with what a training session needs — users alice and bob, three OAuth clients,
// the shop namespace with RBAC for devs and alice, a second customer and test orders that run
// to the demo receiver — with "demo mode" as the audit log's actor; a restart adds nothing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';

import { startBackend, adminFetch, serviceFetch, request, waitFor } from './lib/backend.mjs';

let b;
let seededDir; // the first test's data directory, filled by demo mode

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

async function items(path) {
    const r = await adminFetch(b, 'GET', path);
    assert.equal(r.status, 200, r.text);
    return r.json.items;
}

test('the demo data, made through the admin API, once', async () => {
    b = await startBackend({ args: ['--demo'] });
    seededDir = b.dataDir;
    const status = await adminFetch(b, 'GET', '/admin/v1/status');
    assert.equal(status.json.demo, true);
    const orders = await waitFor(async () => {
        const o = await items('/admin/v1/orders');
        return o.length >= 3 ? o : null;
    }, { message: 'the three test orders' });
    assert.equal(orders.length, 3);
    const users = await waitFor(async () => {
        const u = await items('/admin/v1/users');
        return u.length >= 2 ? u : null;
    }, { message: 'the demo users' });
    assert.deepEqual(users.map((u) => [u.username, u.groups]).sort(),
                     [['alice', ['devs']], ['bob', ['ops']]]);
    const clients = await items('/admin/v1/clients');
    assert.deepEqual(clients.map((c) => c.client_name).sort(), ['Demo web app', 'Inventory service', 'Legacy till']);
    const customers = await items('/admin/v1/customers');
    assert.ok(customers.some((c) => c.name === 'Hopfen & Malz GmbH'), JSON.stringify(customers));
    const binding = await adminFetch(b, 'GET',
        '/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings/alice-reads-pods');
    assert.equal(binding.status, 200, binding.text);
    // RBAC works as the tour says: alice may list pods in shop, not in default; devs may patch nodes.
    const explain = async (body) => (await adminFetch(b, 'POST', '/admin/v1/cluster/explain', body)).json;
    assert.equal((await explain({ user: 'alice', method: 'GET', path: '/api/v1/namespaces/shop/pods' })).code, 200);
    assert.equal((await explain({ user: 'alice', method: 'GET', path: '/api/v1/namespaces/default/pods' })).code, 403);
    assert.equal((await explain({ user: 'carol', groups: ['devs'], method: 'GET', path: '/api/v1/nodes' })).code, 200);
    // The demo users sign in with the documented password (the Legacy till's password grant).
    const till = clients.find((c) => c.client_name === 'Legacy till');
    const secret = await adminFetch(b, 'POST', `/admin/v1/clients/${till.client_id}/rotate-secret`);
    assert.equal(secret.status, 200, secret.text);
    const form = new URLSearchParams({ grant_type: 'password', username: 'alice', password: 'gatehouse-demo', scope: 'openid' });
    const token = await serviceFetch(b, 'POST', '/oauth2/token', form.toString(), {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: 'Basic ' + Buffer.from(`${till.client_id}:${secret.json.client_secret}`).toString('base64') });
    assert.equal(token.status, 200, token.text);
    // The test orders reach the demo receiver.
    await waitFor(async () => {
        const d = await items('/admin/v1/deliveries?state=succeeded');
        return d.length >= 3;
    }, { message: 'deliveries to the demo receiver' });
    // The audit log names the demo.
    const audit = (await items('/admin/v1/audit?limit=100')).filter((e) => e.actor.startsWith('demo mode'));
    // (The RBAC import is an entry per object: two roles and two bindings.)
    assert.equal(audit.length, 14, JSON.stringify(audit.map((e) => [e.kind, e.action, e.target])));
    assert.ok(audit.every((e) => e.actor.startsWith('demo mode (gatehouse-demo from 127.0.0.1')), audit[0].actor);

    // A restart in demo mode adds nothing.
    assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend({ dataDir: b.dataDir, args: ['--demo'] });
    await waitFor(() => b.stderr.includes('demo mode: the demo data is there already'),
                  { message: 'the seeder saw the marker' });
    assert.equal((await items('/admin/v1/users')).length, 2);
    assert.equal((await items('/admin/v1/clients')).length, 3);
    assert.equal((await items('/admin/v1/orders')).length, 3);
    assert.ok(!b.stderr.includes('not created'), b.stderr);
});

test('demo mode never puts its accounts into a data directory in use, nor does a scoped admin token turn it on', async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend();
    const real = await adminFetch(b, 'POST', '/admin/v1/users', { username: 'real-user', password: 'a real password 1' });
    assert.equal(real.status, 201, real.text);
    // An operator of the orders area with admin:write: the settings API does not let them.
    const ops = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'orders-ops', permissions: ['orders:write', 'admin:write'] });
    assert.equal(ops.status, 201, ops.text);
    const as = (method, path, body) => request(`${b.adminUrl}${path}`, method, body,
                                               { Authorization: `Bearer ${ops.json.token}` });
    const demo = await as('PUT', '/admin/v1/settings/demo', { value: true });
    assert.equal(demo.status, 403, demo.text);
    assert.match(demo.json.message, /may not change demo: only the root admin token changes demo mode/);
    const data = await as('PUT', '/admin/v1/settings/demo-data', { value: true });
    assert.equal(data.status, 403, data.text);
    assert.match(data.json.message, /may not change demo-data: that also needs cluster:write$/);
    assert.equal((await as('PUT', '/admin/v1/settings/demo-receiver-port', { value: 0 })).status, 200);
    // The root token may; the next start is in demo mode but makes no accounts beside real ones.
    const root = await adminFetch(b, 'PUT', '/admin/v1/settings/demo', { value: true });
    assert.equal(root.status, 200, root.text);
    assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend({ dataDir: b.dataDir });
    assert.equal((await adminFetch(b, 'GET', '/admin/v1/status')).json.demo, true);
    await waitFor(() => b.stderr.includes('demo mode: this data directory holds users or OAuth clients already'),
                  { message: 'the seeder refused the data directory' });
    assert.deepEqual((await items('/admin/v1/users')).map((u) => u.username), ['real-user']);
    assert.deepEqual(await items('/admin/v1/clients'), []);
    const ns = await adminFetch(b, 'GET', '/admin/v1/cluster/k8s/api/v1/namespaces/shop');
    assert.equal(ns.status, 404, ns.text);
});

test('demo mode beyond loopback only with --demo-allow-network; demo users left with the public password are named at a start without demo mode', async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
    b = null;
    // The demo users' password is public: a service listener that the network reaches is
    // refused, naming the fix, before anything listens.
    await assert.rejects(startBackend({ args: ['--demo', '--service-address', '0.0.0.0'] }), (e) => {
        assert.ok(e.message.includes('exited (code 1, signal null) before writing'), e.message);
        assert.ok(e.message.includes(
            'demo mode (flag --demo) with the service listener on 0.0.0.0, which is not loopback ' +
            '(flag --service-address): the demo users alice and bob have a public password ' +
            '(docs/demo.md), and anyone who reaches that address could sign in as them. Bind the ' +
            'service listener to 127.0.0.1 (--service-address), turn demo mode off, or pass ' +
            '--demo-allow-network if everyone on that network may'), e.message);
        return true;
    });
    await assert.rejects(startBackend({ args: ['--service-address', '::'], env: { GATEHOUSE_DEMO: 'true' } }),
                         /demo mode \(environment GATEHOUSE_DEMO\) with the service listener on ::, which is not loopback/);
    // Said explicitly: it runs, with a warning.
    b = await startBackend({ args: ['--demo', '--demo-allow-network', '--service-address', '0.0.0.0'] });
    assert.ok(b.stderr.includes('demo mode with the service listener on 0.0.0.0 (demo-allow-network from ' +
                                'flag --demo-allow-network): anyone who reaches it signs in as the demo ' +
                                'users alice and bob with their public password (docs/demo.md)'), b.stderr);
    assert.equal(await b.stop(), 0, b.stderr);

    // Demo mode off on a data directory it filled: alice and bob still have the public
    // password, and the log says so.
    const named = (users) => `demo mode is off, but the demo ${users} of this data directory still ` +
        `${users.includes(',') ? 'sign' : 'signs'} in with the public demo password (docs/demo.md): ` +
        `anyone who reaches the service listener ${b.serviceUrl} can sign in as`;
    b = await startBackend({ dataDir: seededDir });
    await waitFor(() => b.stderr.includes(named('users alice, bob')), { message: 'the warning naming alice and bob' });
    // One of them given a password of its own: only the other is named.
    const changed = await adminFetch(b, 'PATCH', '/admin/v1/users/alice', { password: 'alice has her own now 1' });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend({ dataDir: seededDir });
    await waitFor(() => b.stderr.includes(named('user bob')), { message: 'the warning naming bob' });
    assert.ok(!b.stderr.includes('alice, bob'), b.stderr);
    assert.ok(!b.stderr.includes('gatehouse-demo'), 'the password itself is not logged');
});
