// Scoped admin tokens (docs/admin-tokens.md): the root token in <data-dir>/admin-token may do
// everything; tokens created through the admin API hold AREA:read / AREA:write permissions.
// Each area's reads and writes are checked (403 "forbidden" with the token's name and what it
// holds), compute-only POSTs count as reads, nobody grants more than they hold, the event
// stream only carries the events of readable areas, a revoked token stops at once (its open
// stream closes), tokens survive a restart, the audit log names them, and bad input gets 400.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startBackend, request, adminFetch, waitFor, binaryPath } from './lib/backend.mjs';
import { run } from './lib/cluster.mjs';

let b;

before(async () => {
    b = await startBackend();
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

async function createToken(name, permissions, extra = {}, as = null) {
    const headers = as ? { Authorization: `Bearer ${as}` } : {};
    return request(`${b.adminUrl}/admin/v1/admin-tokens`, 'POST', { name, permissions, ...extra },
                   { Authorization: `Bearer ${b.adminToken}`, ...headers });
}

function withToken(token, method, path, body) {
    return request(b.adminUrl + path, method, body, { Authorization: `Bearer ${token}` });
}

// Opens the event stream with `token` and collects frames until `stop()`.
async function openStream(token) {
    const ac = new AbortController();
    const res = await fetch(`${b.adminUrl}/admin/v1/events`, {
        headers: { Authorization: `Bearer ${token}` }, signal: ac.signal });
    assert.equal(res.status, 200);
    const state = { text: '', ended: false };
    const done = (async () => {
        const decoder = new TextDecoder();
        try {
            for await (const chunk of res.body) state.text += decoder.decode(chunk, { stream: true });
        } catch (e) {
            if (e.name !== 'AbortError')
                throw e;
        }
        state.ended = true;
    })();
    return {
        state,
        types: () => [...state.text.matchAll(/^event: (.*)$/gm)].map((m) => m[1]),
        async stop() { ac.abort(); await done; },
    };
}

test('create: the token once, prefixed, no-store; list and show never the token', async () => {
    const r = await createToken('reader', ['orders:read', 'audit:read']);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.match(r.json.token, /^gha_[A-Za-z0-9_-]{40,}$/);
    assert.equal(r.json.name, 'reader');
    assert.deepEqual(r.json.permissions, ['orders:read', 'audit:read']);
    assert.equal(r.json.expiresAt, null);
    const list = await adminFetch(b, 'GET', '/admin/v1/admin-tokens');
    assert.equal(list.status, 200);
    const row = list.json.items.find((t) => t.name === 'reader');
    assert.ok(row, list.text);
    assert.equal(row.token, undefined);
    assert.ok(!list.text.includes(r.json.token));
    assert.equal(row.createdBy, 'the root admin token');
    const one = await adminFetch(b, 'GET', `/admin/v1/admin-tokens/${row.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.json.id, row.id);
    assert.equal(one.json.token, undefined);
    // The status says who the caller is.
    const status = await withToken(r.json.token, 'GET', '/admin/v1/status');
    assert.equal(status.status, 200);
    assert.deepEqual(status.json.principal,
                     { root: false, id: row.id, name: 'reader', permissions: ['orders:read', 'audit:read'] });
    const rootStatus = await adminFetch(b, 'GET', '/admin/v1/status');
    assert.deepEqual(rootStatus.json.principal, { root: true, name: 'root', permissions: ['*:write'] });
    // The orders and webhooks counters are the orders area's (as the stats series are).
    assert.equal(typeof status.json.webhooks?.attempts, 'number', status.text);
    assert.equal(typeof status.json.orders?.lifecycleBacklog, 'number', status.text);
    const { json: { token: clusterReader } } = await createToken('status-cluster-reader', ['cluster:read']);
    const other = await withToken(clusterReader, 'GET', '/admin/v1/status');
    assert.equal(other.status, 200, other.text);
    assert.equal(other.json.webhooks, undefined, other.text);
    assert.equal(other.json.orders, undefined, other.text);
    assert.equal(other.json.principal.name, 'status-cluster-reader');
    // Used: lastUsedAt is set.
    const again = await adminFetch(b, 'GET', `/admin/v1/admin-tokens/${row.id}`);
    assert.ok(!Number.isNaN(Date.parse(again.json.lastUsedAt)), again.text);
});

test('each area: read allowed, write refused with 403 naming the token and what it holds', async () => {
    const { json: { token } } = await createToken('orders-reader', ['orders:read']);
    for (const path of ['/admin/v1/orders', '/admin/v1/customers', '/admin/v1/beers', '/admin/v1/deliveries',
                        '/admin/v1/endpoints', '/admin/v1/redeliveries'])
        assert.equal((await withToken(token, 'GET', path)).status, 200, path);
    const write = await withToken(token, 'POST', '/admin/v1/customers', { name: 'nope' });
    assert.equal(write.status, 403, write.text);
    assert.deepEqual(write.json, { error: 'forbidden',
        message: "admin token 'orders-reader' may not change the orders area (it holds orders:read)" });
    // Nothing was created.
    const customers = await adminFetch(b, 'GET', '/admin/v1/customers');
    assert.ok(!customers.json.items.some((c) => c.name === 'nope'));
    for (const [path, area] of [['/admin/v1/clients', 'oauth'], ['/admin/v1/users', 'oauth'],
                                ['/admin/v1/tokens', 'oauth'], ['/admin/v1/signing-keys', 'oauth'],
                                ['/admin/v1/cluster/settings', 'cluster'],
                                ['/admin/v1/cluster/requests', 'cluster'], ['/admin/v1/audit', 'audit'],
                                ['/admin/v1/admin-tokens', 'admin'], ['/admin/v1/no-such-thing', 'admin']]) {
        const r = await withToken(token, 'GET', path);
        assert.equal(r.status, 403, `${path}: ${r.text}`);
        assert.equal(r.json.message,
                     `admin token 'orders-reader' may not read the ${area} area (it holds orders:read)`);
    }
    // What every valid token may use.
    assert.equal((await withToken(token, 'GET', '/metrics')).status, 200);
    assert.equal((await withToken(token, 'GET', '/admin/v1/status')).status, 200);

    const { json: { token: writer } } = await createToken('orders-writer', ['orders:write']);
    const created = await withToken(writer, 'POST', '/admin/v1/customers', { name: 'by writer' });
    assert.equal(created.status, 201, created.text);
    assert.equal((await withToken(writer, 'GET', '/admin/v1/orders')).status, 200); // write includes read
});

test('compute-only POSTs are reads: explain and access with cluster:read, previews with oauth:read', async () => {
    const { json: { token } } = await createToken('cluster-reader', ['cluster:read', 'oauth:read']);
    const explain = await withToken(token, 'POST', '/admin/v1/cluster/explain',
                                    { user: 'alice', method: 'GET', path: '/api/v1/nodes' });
    assert.notEqual(explain.status, 403, explain.text);
    assert.equal(explain.status, 200, explain.text);
    const access = await withToken(token, 'POST', '/admin/v1/cluster/access', { user: 'alice' });
    assert.equal(access.status, 200, access.text);
    const inspect = await withToken(token, 'POST', '/admin/v1/jwt/inspect', { token: 'x.y.z' });
    assert.notEqual(inspect.status, 403, inspect.text);
    // A change is not.
    const settings = await withToken(token, 'PUT', '/admin/v1/cluster/settings', { anonymousAuth: false });
    assert.equal(settings.status, 403, settings.text);
    const s = await adminFetch(b, 'GET', '/admin/v1/cluster/settings');
    assert.equal(s.json.anonymousAuth, true);
});

test('no escalation: a token grants at most what it holds', async () => {
    const { json: { token, id: delegateId } } = await createToken('delegate', ['admin:write', 'orders:read']);
    const ok = await createToken('sub', ['orders:read'], {}, token);
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.json.name, 'sub');
    const more = await createToken('sub-writer', ['orders:write'], {}, token);
    assert.equal(more.status, 403, more.text);
    assert.equal(more.json.message, "admin token 'delegate' cannot grant orders:write, which it does not hold itself");
    const all = await createToken('sub-all', ['*:read'], {}, token);
    assert.equal(all.status, 403, all.text);
    const list = await adminFetch(b, 'GET', '/admin/v1/admin-tokens');
    assert.ok(!list.json.items.some((t) => t.name === 'sub-writer' || t.name === 'sub-all'));
    assert.equal(list.json.items.find((t) => t.name === 'sub').createdBy, `admin token 'delegate' #${delegateId.slice(0, 8)}`);
    // Revoked, and its name taken again: the new 'delegate' is not named the creator of 'sub'.
    assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/admin-tokens/${delegateId}`)).status, 204);
    const { json: again } = await createToken('delegate', ['admin:write', 'orders:read']);
    assert.notEqual(again.id, delegateId);
    assert.equal((await createToken('sub-of-the-new', ['orders:read'], {}, again.token)).status, 201);
    const after = (await adminFetch(b, 'GET', '/admin/v1/admin-tokens')).json.items;
    assert.equal(after.find((t) => t.name === 'sub').createdBy, `admin token 'delegate' #${delegateId.slice(0, 8)}`);
    assert.equal(after.find((t) => t.name === 'sub-of-the-new').createdBy, `admin token 'delegate' #${again.id.slice(0, 8)}`);
});

test('no outliving: a token that expires creates only tokens that expire by then', async () => {
    const { json: { token } } = await createToken('short-lived', ['admin:write', 'orders:write'], { expiresIn: 120 });
    const forever = await createToken('forever', ['orders:write'], {}, token);
    assert.equal(forever.status, 403, forever.text);
    assert.equal(forever.json.error, 'forbidden');
    assert.match(forever.json.message, /^admin token 'short-lived' expires at \d{4}-\d\d-\d\dT[\d:]+Z: it can create only tokens that expire by then \(expiresIn at most 1[01]\d seconds\)$/);
    const longer = await createToken('longer', ['orders:read'], { expiresIn: 3600 }, token);
    assert.equal(longer.status, 403, longer.text);
    const within = await createToken('within', ['orders:read'], { expiresIn: 60 }, token);
    assert.equal(within.status, 201, within.text);
    const left = Date.parse(within.json.expiresAt) - Date.now();
    assert.ok(left > 50_000 && left <= 60_000, `${left}`);
    const list = await adminFetch(b, 'GET', '/admin/v1/admin-tokens');
    assert.ok(!list.json.items.some((t) => t.name === 'forever' || t.name === 'longer'), 'nothing stored for a refusal');
    // A token without an expiry still creates one without (the root token too).
    const { json: { token: lasting } } = await createToken('lasting', ['admin:write', 'orders:read']);
    const child = await createToken('lasting-child', ['orders:read'], {}, lasting);
    assert.equal(child.status, 201, child.text);
    assert.equal(child.json.expiresAt, null);
});

test('effective access: a user\'s cluster identity only to a token that may read the cluster area', async () => {
    const user = await adminFetch(b, 'POST', '/admin/v1/users',
                                  { username: 'ada.access', password: 'correct horse battery', groups: ['dev'] });
    assert.equal(user.status, 201, user.text);
    const root = await adminFetch(b, 'POST', '/admin/v1/oauth/access', { username: 'ada.access' });
    assert.equal(root.status, 200, root.text);
    assert.ok(root.json.cluster && Array.isArray(root.json.cluster.groups), root.text);
    const { json: { token: oauthOnly } } = await createToken('oauth-only', ['oauth:read']);
    const narrow = await withToken(oauthOnly, 'POST', '/admin/v1/oauth/access', { username: 'ada.access' });
    assert.equal(narrow.status, 200, narrow.text);
    assert.equal(narrow.json.cluster, undefined, narrow.text);
    assert.deepEqual(Object.keys(narrow.json).sort(), Object.keys(root.json).filter((k) => k !== 'cluster').sort());
    const { json: { token: both } } = await createToken('oauth-cluster', ['oauth:read', 'cluster:read']);
    const wide = await withToken(both, 'POST', '/admin/v1/oauth/access', { username: 'ada.access' });
    assert.deepEqual(wide.json.cluster, root.json.cluster);
});

test('bad input: 400 for malformed JSON, wrong types, unknown permissions, bad names; 409 for a taken name', async () => {
    const raw = await request(`${b.adminUrl}/admin/v1/admin-tokens`, 'POST', '{"name": "x", ',
                              { Authorization: `Bearer ${b.adminToken}` });
    assert.equal(raw.status, 400);
    assert.equal(raw.json.error, 'malformed-json');
    for (const [body, expect] of [
        [{ name: 5, permissions: ['orders:read'] }, /name: a string/],
        [{ name: 'a', permissions: 'orders:read' }, /permissions: a list/],
        [{ name: 'a', permissions: [7] }, /permissions: a list of strings/],
        [{ name: 'a', permissions: [] }, /at least one permission/],
        [{ name: 'a', permissions: ['orders:delete'] }, /'orders:delete' is not a permission/],
        [{ name: 'a', permissions: ['billing:read'] }, /'billing:read' is not a permission/],
        [{ name: '', permissions: ['orders:read'] }, /1 to 64 printable/],
        [{ name: 'x'.repeat(65), permissions: ['orders:read'] }, /1 to 64 printable/],
        [{ name: 'tab\there', permissions: ['orders:read'] }, /1 to 64 printable/],
        [{ name: 'root', permissions: ['orders:read'] }, /'root' is the data directory's token/],
        [{ name: 'a', permissions: ['orders:read'], expiresIn: 10 }, /expiresIn/],
        [{ name: 'a', permissions: ['orders:read'], expiresIn: 'soon' }, /expiresIn/],
        [{ name: 'a', permissions: ['orders:read'], expiresIn: 61.5 }, /expiresIn/],
    ]) {
        const r = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', body);
        assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
        assert.match(r.json.message, expect, JSON.stringify(body));
    }
    const first = await createToken('twice', ['orders:read']);
    assert.equal(first.status, 201);
    const second = await createToken('twice', ['audit:read']);
    assert.equal(second.status, 409, second.text);
    assert.equal(second.json.error, 'admin-token-exists');
    const expiring = await createToken('expiring', ['orders:read'], { expiresIn: 3600 });
    assert.equal(expiring.status, 201, expiring.text);
    const left = Date.parse(expiring.json.expiresAt) - Date.now();
    assert.ok(left > 3590_000 && left <= 3600_000, `${left}`);
    // Unknown and garbage tokens: 401, the same for both.
    for (const t of ['gha_' + 'A'.repeat(43), 'not-even-close', first.json.token + 'x']) {
        const r = await withToken(t, 'GET', '/admin/v1/orders');
        assert.equal(r.status, 401, t);
        assert.equal(r.json.message, 'invalid admin token');
    }
    assert.equal((await adminFetch(b, 'DELETE', '/admin/v1/admin-tokens/no-such-id')).status, 404);
});

test('the event stream carries only readable areas; revoking closes it and the token stops at once', async () => {
    const { json: created } = await createToken('stream-reader', ['orders:read']);
    const stream = await openStream(created.token);
    // An orders event, an oauth event and a cluster event.
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'seen' })).status, 201);
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'unseen', grant_types: ['client_credentials'], scope: 'orders:read' })).status, 201);
    assert.equal((await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { anonymousAuth: true })).status, 200);
    await waitFor(() => stream.types().includes('customer.created'), { message: 'customer.created on the stream' });
    // The root token's stream sees the others, so they were published.
    const rootStream = await openStream(b.adminToken);
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'unseen 2', grant_types: ['client_credentials'], scope: 'orders:read' })).status, 201);
    await waitFor(() => rootStream.types().some((t) => t.startsWith('audit.')), { message: 'root sees audit events' });
    await rootStream.stop();
    // A later orders event as a barrier: the stream is ordered, so anything of the other areas
    // published before it would be on the stream by the time it is.
    const createdSoFar = () => stream.types().filter((t) => t === 'customer.created').length;
    const customersBefore = createdSoFar();
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'barrier' })).status, 201);
    await waitFor(() => createdSoFar() > customersBefore, { message: 'the barrier\'s customer.created on the stream' });
    const types = stream.types();
    assert.ok(!types.some((t) => t.startsWith('oauth.') || t.startsWith('cluster.') || t.startsWith('audit.')),
              types.join(','));
    assert.ok(!stream.state.text.includes('unseen'), 'no data of other areas');

    const list = await adminFetch(b, 'GET', '/admin/v1/admin-tokens');
    const id = list.json.items.find((t) => t.name === 'stream-reader').id;
    const del = await adminFetch(b, 'DELETE', `/admin/v1/admin-tokens/${id}`);
    assert.equal(del.status, 204, del.text);
    await waitFor(() => stream.state.ended, { message: 'the revoked token\'s stream closed' });
    await stream.stop();
    assert.equal((await withToken(created.token, 'GET', '/admin/v1/orders')).status, 401);
    assert.equal((await adminFetch(b, 'GET', `/admin/v1/admin-tokens/${id}`)).status, 404);
});

test('audit: creating and revoking tokens is recorded; a scoped token names itself as the actor', async () => {
    const { json: created } = await createToken('audited-writer', ['orders:write']);
    const entries = await waitFor(async () => {
        const r = await adminFetch(b, 'GET', '/admin/v1/audit?kind=admin-token');
        return r.json.items.find((e) => e.target === created.id) ? r.json.items : null;
    }, { message: 'audit entry of the token' });
    const entry = entries.find((e) => e.target === created.id);
    assert.equal(entry.action, 'create');
    assert.ok(!JSON.stringify(entry).includes(created.token), 'the token is never in the audit log');
    const c = await request(`${b.adminUrl}/admin/v1/customers`, 'POST', { name: 'by scoped' }, {
        Authorization: `Bearer ${created.token}`, 'X-Gatehouse-Actor': 'bob', 'User-Agent': 'e2e/1' });
    assert.equal(c.status, 201, c.text);
    const customerId = c.json.customer?.id ?? c.json.id;
    assert.ok(customerId, c.text);
    const byScoped = await waitFor(async () => {
        const r = await adminFetch(b, 'GET', `/admin/v1/audit?kind=customer&target=${customerId}`);
        return r.json.items[0];
    }, { message: 'audit entry of the customer' });
    assert.equal(byScoped.actor, `bob via admin token 'audited-writer' #${created.id.slice(0, 8)} (e2e/1 from 127.0.0.1)`);
});

test('tokens survive a restart; the root token is unchanged', async () => {
    const { json: created } = await createToken('durable', ['cluster:read']);
    assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend({ dataDir: b.dataDir });
    const r = await withToken(created.token, 'GET', '/admin/v1/cluster/settings');
    assert.equal(r.status, 200, r.text);
    assert.equal((await withToken(created.token, 'GET', '/admin/v1/orders')).status, 403);
    assert.ok(!b.stderr.includes(created.token) && !b.stdout.includes(created.token), 'never logged');
});

test('/admin-proof answers without a token only an HMAC of the nonce: a bad nonce is 400, nothing else is served or changed', async () => {
    const proof = (nonce) => request(`${b.adminUrl}/admin-proof?nonce=${encodeURIComponent(nonce)}`, 'GET');
    for (const bad of ['', 'short', 'x'.repeat(129), 'not base64url!!not base64url!!', '../admin/v1/status?x=aaaaaaaaaaaaaaaaaaaa']) {
        const r = await proof(bad);
        assert.equal(r.status, 400, `${bad}: ${r.text}`);
        assert.equal(r.json.error, 'invalid-query-parameter');
    }
    const nonce = 'A'.repeat(22);
    const first = await proof(nonce);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers['cache-control'], 'no-store');
    assert.deepEqual(Object.keys(first.json), ['proof']);
    assert.match(first.json.proof, /^[A-Za-z0-9_-]{43}$/);
    const token = readFileSync(join(b.dataDir, 'admin-token'), 'utf8').trim();
    assert.ok(!first.text.includes(token), 'the token itself is never answered');
    // Bound to the address and port the request reached (the connection's own end).
    assert.equal(first.json.proof, createHmac('sha256', token)
        .update(`gatehouse-admin-proof/2\n${nonce}\n127.0.0.1:${b.ports.admin}`).digest('base64url'));
    assert.notEqual((await proof('B'.repeat(22))).json.proof, first.json.proof);
    // The rest of the admin API still needs a token.
    assert.equal((await request(`${b.adminUrl}/admin/v1/status`, 'GET')).status, 401);
});

// Another local user's program on a loopback port: passes every connection on to `port`
// (127.0.0.1) and keeps every byte its clients sent.
async function forwarder(port) {
    const seen = [];
    const sockets = new Set();
    const server = createServer((client) => {
        const upstream = connect(port, '127.0.0.1');
        for (const s of [client, upstream]) {
            sockets.add(s);
            s.on('error', () => { client.destroy(); upstream.destroy(); });
            s.on('close', () => { client.destroy(); upstream.destroy(); sockets.delete(s); });
        }
        client.on('data', (d) => seen.push(d));
        client.pipe(upstream);
        upstream.pipe(client);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        port: server.address().port,
        received: () => Buffer.concat(seen).toString('latin1'),
        async close() {
            for (const s of sockets) s.destroy();
            await new Promise((resolve) => server.close(resolve));
        },
    };
}

test('/admin-proof relayed to a Gatehouse with the same root token proves nothing: gatehouse admin sends no token through the relay', async () => {
    // A Gatehouse killed with kill -9 left ports.json naming its admin port, which another
    // local user holds now and relays to a running Gatehouse with the same root token (the
    // operator copied admin-token into each data directory, deploy/README.md).
    const relay = await forwarder(b.ports.admin);
    const stale = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-stale-'));
    try {
        writeFileSync(join(stale, 'admin-token'), `${b.adminToken}\n`, { mode: 0o600 });
        writeFileSync(join(stale, 'ports.json'), JSON.stringify({
            admin: relay.port, urls: { admin: `http://127.0.0.1:${relay.port}` }, pid: 999999 }));
        const viaPorts = await run(binaryPath(), ['admin', 'status', '--data-dir', stale]);
        assert.equal(viaPorts.code, 1, viaPorts.stdout + viaPorts.stderr);
        assert.ok(viaPorts.stderr.includes(
            `http://127.0.0.1:${relay.port} is not the Gatehouse of ${stale}; no admin token was sent. ` +
            `${join(stale, 'ports.json')} names it: is it left from a Gatehouse that did not stop cleanly?`),
                  viaPorts.stderr);
        // A mistyped --admin-url that happens to be the relay's port, with the running one's
        // own data directory: the same.
        const typo = await run(binaryPath(), ['admin', 'status', '--data-dir', b.dataDir,
                                              '--admin-url', `http://127.0.0.1:${relay.port}`]);
        assert.equal(typo.code, 1, typo.stdout + typo.stderr);
        assert.ok(typo.stderr.includes(
            `is not the Gatehouse of ${b.dataDir}; no admin token was sent. The root token of ` +
            `${b.dataDir} goes only to its own Gatehouse: pass --admin-token for this one`), typo.stderr);
        assert.ok(!viaPorts.stderr.includes(b.adminToken) && !typo.stderr.includes(b.adminToken));
        // The relay did pass both nonces on (the real listener answered them, for its own
        // address), and never saw a token.
        const seen = relay.received();
        assert.equal(seen.match(/^GET \/admin-proof\?nonce=[A-Za-z0-9_-]{32} /gm)?.length, 2, seen);
        assert.ok(!/authorization/i.test(seen), seen);
        assert.ok(!seen.includes(b.adminToken), 'the token never reached the relay');
        // Reached directly, the same Gatehouse proves itself: through ports.json and by URL.
        const direct = await run(binaryPath(), ['admin', 'status', '--data-dir', b.dataDir]);
        assert.equal(direct.code, 0, direct.stderr);
        assert.match(direct.stdout, /token: {5}root/);
        const byUrl = await run(binaryPath(), ['admin', 'status', '--data-dir', b.dataDir,
                                               '--admin-url', `http://localhost:${b.ports.admin}`]);
        assert.equal(byUrl.code, 0, byUrl.stderr);
    } finally {
        await relay.close();
        rmSync(stale, { recursive: true, force: true });
    }
});

test('a token named for a plain http URL goes only to a listener that proves it holds that token: a program on the port (even one that read the database), a loose token file and a revoked token get nothing sent', async () => {
    // Another local user's program on the port a Gatehouse held (a restart, a dropped SSH
    // tunnel): it answers everything, and keeps every byte.
    // It has read the database too: the token's stored hash (hex SHA-256), with which it makes
    // the best proof it can (the token's own proof key is sealed, and not that hash).
    const seen = [];
    let storedHash = '';
    const squatter = createServer((socket) => socket.on('data', (d) => {
        seen.push(d);
        const nonce = /nonce=([A-Za-z0-9_-]+)/.exec(Buffer.concat(seen).toString('latin1'))?.[1] ?? '';
        const endpoint = `127.0.0.1:${squatter.address().port}`;
        const proof = createHmac('sha256', storedHash).update(`gatehouse-admin-proof/3\n${nonce}\n${endpoint}`).digest('base64url');
        const body = JSON.stringify({ proof, endpoint });
        socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    }));
    await new Promise((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const made = await createToken(`proof-reader-${Date.now()}`, ['orders:read']);
    assert.equal(made.status, 201, made.text);
    const scoped = made.json;
    storedHash = createHash('sha256').update(scoped.token).digest('hex');
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-named-'));
    const relay = await forwarder(b.ports.admin); // a reverse proxy on this machine (nginx)
    try {
        const file = join(dir, 'scoped.token');
        writeFileSync(file, `${scoped.token}\n`, { mode: 0o600 });
        const status = (url) => run(binaryPath(), ['admin', 'status', '--data-dir', '/nonexistent',
                                                   '--admin-url', url, '--admin-token-file', file]);
        const refused = await status(`http://127.0.0.1:${squatter.address().port}`);
        assert.equal(refused.code, 1, refused.stdout + refused.stderr);
        assert.ok(refused.stderr.includes(`does not prove that it holds this admin token at 127.0.0.1:${squatter.address().port}; no admin token was sent`),
                  refused.stderr);
        const received = Buffer.concat(seen).toString('latin1');
        assert.match(received, /^GET \/admin-proof\?nonce=[A-Za-z0-9_-]{32}&token=[A-Za-z0-9_-]{22} /);
        assert.ok(!/authorization/i.test(received) && !received.includes(scoped.token), received);
        // The Gatehouse itself proves it, directly and through a proxy on another local port.
        const direct = await status(b.adminUrl);
        assert.equal(direct.code, 0, direct.stderr);
        assert.match(direct.stdout, /proof-reader/);
        const proxied = await status(`http://127.0.0.1:${relay.port}`);
        assert.equal(proxied.code, 0, proxied.stderr);
        // A loose token file is refused before anything connects (as the data directory's own).
        const loose = join(dir, 'loose.token');
        writeFileSync(loose, `${scoped.token}\n`, { mode: 0o644 });
        const looseRun = await run(binaryPath(), ['admin', 'status', '--admin-url', b.adminUrl, '--admin-token-file', loose]);
        assert.equal(looseRun.code, 2, looseRun.stderr);
        assert.ok(looseRun.stderr.includes(`the admin token file ${loose} cannot be trusted: ${loose} is open to others (mode 644)`),
                  looseRun.stderr);
        // A revoked token: the Gatehouse says it does not know it, and it is not sent.
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/admin-tokens/${scoped.id}`)).status, 204);
        const revoked = await status(b.adminUrl);
        assert.equal(revoked.code, 1, revoked.stdout + revoked.stderr);
        assert.ok(revoked.stderr.includes('does not know this admin token (revoked or expired?); no admin token was sent'),
                  revoked.stderr);
    } finally {
        await relay.close();
        await new Promise((resolve) => squatter.close(resolve));
        rmSync(dir, { recursive: true, force: true });
    }
});

test('under umask 000 the data directory gives nobody else a key, a token or write access', {
    skip: process.env.GATEHOUSE_TEST_POSTGRES ? 'about the files of a SQLite data directory' : false,
}, async () => {
    // The most permissive umask a service manager may leave: nothing may come out wider.
    const root = mkdtempSync(join(tmpdir(), 'gatehouse-umask-'));
    const dataDir = join(root, 'srv', 'gatehouse', 'data'); // its parents made by Gatehouse
    const before = process.umask(0);
    let b;
    try {
        b = await startBackend({ dataDir });
    } finally {
        process.umask(before);
    }
    try {
        const mode = (p) => (statSync(join(dataDir, p)).mode & 0o777).toString(8);
        assert.equal(mode('.'), '700');
        for (const secret of ['admin-token', 'database-key', 'gatehouse.db', 'pki/ca.key', 'pki/sa.key',
                              'pki/server.key'])
            assert.equal(mode(secret), '600', secret);
        // Public, but writable by the owner alone.
        for (const open of ['ports.json', 'gatehouse.lock'])
            assert.equal(mode(open), '644', open);
        for (const parent of [join(root, 'srv'), join(root, 'srv', 'gatehouse')])
            assert.equal((statSync(parent).mode & 0o777).toString(8), '755', parent);
    } finally {
        assert.equal(await b.stop(), 0, b.stderr);
        rmSync(root, { recursive: true, force: true });
    }
});

test('a -wal or -shm a killed run left readable by others is owner-only again once the next run opens it', {
    skip: process.env.GATEHOUSE_TEST_POSTGRES ? 'about the files of a SQLite data directory' : false,
}, async () => {
    // The WAL holds the latest commits (password hashes, audit entries) until a checkpoint.
    const first = await startBackend();
    const dataDir = first.dataDir;
    assert.equal((await adminFetch(first, 'POST', '/admin/v1/users', { username: 'wal-user', password: 'a long enough password 1' })).status, 201);
    await first.kill9();
    const { chmodSync, existsSync } = await import('node:fs');
    const sides = ['gatehouse.db-wal', 'gatehouse.db-shm'].filter((f) => existsSync(join(dataDir, f)));
    assert.ok(sides.includes('gatehouse.db-wal'), 'a kill -9 leaves the WAL');
    for (const f of ['gatehouse.db', ...sides])
        chmodSync(join(dataDir, f), 0o644);
    const again = await startBackend({ dataDir });
    try {
        for (const f of ['gatehouse.db', 'gatehouse.db-wal', 'gatehouse.db-shm'])
            if (existsSync(join(dataDir, f)))
                assert.equal((statSync(join(dataDir, f)).mode & 0o777).toString(8), '600', f);
        assert.equal((await adminFetch(again, 'GET', '/admin/v1/users')).json.items.some((u) => u.username === 'wal-user'), true,
                     'nothing lost');
    } finally {
        assert.equal(await again.stop(), 0, again.stderr);
    }
});

test('a data directory whose admin token others may read or write is not trusted: gatehouse admin sends the token it was given nowhere', async () => {
    // Another local user made a data directory (or a link to one) with a root token of their
    // own and a listener that proves itself with it: the token passed with --admin-token-file
    // would go to that listener.
    const planted = 'gha_' + 'p'.repeat(40);
    const seen = [];
    const listener = createServer((socket) => {
        socket.on('data', (d) => {
            seen.push(d);
            const text = Buffer.concat(seen).toString('latin1');
            const nonce = /GET \/admin-proof\?nonce=([A-Za-z0-9_-]+) /.exec(text)?.[1];
            if (nonce && text.includes('\r\n\r\n')) {
                const proof = createHmac('sha256', planted)
                    .update(`gatehouse-admin-proof/2\n${nonce}\n127.0.0.1:${listener.address().port}`).digest('base64url');
                const body = JSON.stringify({ proof, version: 2 });
                socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
            }
        });
    });
    await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-planted-'));
    try {
        writeFileSync(join(dir, 'admin-token'), `${planted}\n`, { mode: 0o644 });
        writeFileSync(join(dir, 'ports.json'), JSON.stringify({
            admin: listener.address().port, urls: { admin: `http://127.0.0.1:${listener.address().port}` }, pid: 999999 }));
        const mine = join(dir, 'mine.token');
        writeFileSync(mine, `${b.adminToken}\n`, { mode: 0o600 });
        const r = await run(binaryPath(), ['admin', 'status', '--data-dir', dir, '--admin-token-file', mine]);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.ok(r.stderr.includes(`gatehouse admin: the admin token of ${dir} cannot be trusted: ${join(dir, 'admin-token')} is open to others (mode 644)`),
                  r.stderr);
        assert.ok(r.stderr.includes('no admin token was sent'), r.stderr);
        const received = Buffer.concat(seen).toString('latin1');
        assert.ok(!/authorization/i.test(received) && !received.includes(b.adminToken), received);
    } finally {
        await new Promise((resolve) => listener.close(resolve));
        rmSync(dir, { recursive: true, force: true });
    }
});

// A misspelt member read as absent gave the longest credential ({"expires_in": 60}: an admin
// token that never expires; {"validity_days": 1}: a year of system:masters). Members a route
// does not know are refused, wrong types are refused instead of read as the default, and names
// people read hold no control or bidi characters. Nothing is made by a refused request.
test('admin input: unknown members, wrong types and unreadable names are refused; nothing is made', async () => {
    const count = async (path, pick = (x) => x) => (await adminFetch(b, 'GET', path)).json.items.filter(pick).length;
    const tokensBefore = await count('/admin/v1/admin-tokens');
    const refusals = [
        ['POST', '/admin/v1/admin-tokens', { name: 'typo', permissions: ['orders:read'], expires_in: 60 }, /unknown field 'expires_in'/],
        ['POST', '/admin/v1/cluster/kubeconfigs', { name: 'typo-kc', groups: ['system:masters'], validity_days: 1 }, /unknown field 'validity_days'/],
        ['POST', '/admin/v1/cluster/kubeconfigs', { name: 'eve\nusers:' }, /name and groups must not contain control characters/],
        ['POST', '/admin/v1/cluster/kubeconfigs', { name: 'eve', groups: ['ops\u202e'] }, /must not contain bidirectional control characters/],
        ['POST', '/admin/v1/customers', { name: 'Typo', webhookUrl: 'x' }, /unknown field 'webhookUrl'/],
        ['POST', '/admin/v1/customers', { name: 'Cust\u001b[2J' }, /name must not contain control characters/],
        ['POST', '/admin/v1/customers', { name: 'Cust\u202e' }, /bidirectional/],
        ['POST', '/admin/v1/signing-keys/rotate', { alg: ['ES256'] }, /alg must be RS256 or ES256/],
        ['POST', '/admin/v1/test-orders', { customerId: 12345 }, /customerId must be a UUID/],
        ['POST', '/admin/v1/test-orders', { lines: 'x' }, /lines must be an array/],
        ['POST', '/admin/v1/redeliveries', { filter: {}, rate: 5 }, /unknown field 'rate'/],
        ['POST', '/admin/v1/clients', { client_name: 'typed', grant_types: ['client_credentials'], scope: ['orders:read'] }, /scope must be a string/],
        ['POST', '/admin/v1/clients', { client_name: 'typed', grant_types: ['client_credentials'], token_endpoint_auth_method: 5 }, /token_endpoint_auth_method must be a string/],
        ['POST', '/admin/v1/clients', { client_name: 'typed', grant_types: ['client_credentials'], contacts: 'a@example.com' }, /contacts must be an array of strings/],
        ['POST', '/admin/v1/clients', { client_name: 'typed', grant_types: ['client_credentials'], scope: 'orders:read x\u001b[2J' }, /scope must be at most 100 space-separated scope tokens/],
        ['POST', '/admin/v1/users', { username: 'ctl-user', password: 'a long password 1', name: 'Eve\u001b]0;x\u0007' }, /name must not contain control characters/],
        ['POST', '/admin/v1/users', { username: 'ctl-user', password: 'a long password 1', groups: ['devs\u0000'] }, /groups: each group must not contain control characters/],
        ['POST', '/admin/v1/users', { username: 'ctl-user', password: 'a long password 1', groups: ['ops\u202e'] }, /bidirectional/],
    ];
    for (const [method, path, body, pattern] of refusals) {
        const r = await adminFetch(b, method, path, body);
        assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
        assert.match(r.json.message ?? r.json.error_description ?? r.text, pattern, `${path}: ${r.text}`);
    }
    assert.equal(await count('/admin/v1/admin-tokens'), tokensBefore, 'no admin token made');
    assert.equal(await count('/admin/v1/customers', (c) => /^(Typo|Cust)/.test(c.name)), 0, 'no customer made');
    assert.equal(await count('/admin/v1/clients', (c) => c.client_name === 'typed'), 0, 'no client made');
    assert.equal((await adminFetch(b, 'GET', '/admin/v1/users/ctl-user')).status, 404, 'no user made');
    // The members each route knows still work.
    const ok = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'known', permissions: ['orders:read'], expiresIn: 60 });
    assert.equal(ok.status, 201, ok.text);
    assert.ok(ok.json.expiresAt, ok.text);
});
