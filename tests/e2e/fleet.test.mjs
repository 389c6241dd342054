// Three instances of one PostgreSQL database behind nginx, started by the recipe itself
// (deploy/run-local.sh, deploy/README.md): a burst of orders with status callbacks spread across
// them through nginx, and the instance that leads killed (-9) in the middle. Every acknowledged
// order exists and runs its whole lifecycle, every status callback of each reaches the receiver
// at least once (with one webhook-id per change), and no delivery is attempted by two instances
// at once. The cluster listener passes TLS through nginx untouched; the admin listener behind it
// lists the instances. Needs GATEHOUSE_TEST_POSTGRES (ctest: e2e_postgres_fleet).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomBytes } from 'node:crypto';
import { connect, createServer as createTcpServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { POSTGRES_BASE, TIMEOUT_MS, binaryPath, createPostgresDatabase, fromAddress, request, waitFor, watchEvents } from './lib/backend.mjs';
import { form } from './lib/browser.mjs';
import { tempDir } from './lib/cluster.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';
const skip = !POSTGRES_BASE ? 'needs GATEHOUSE_TEST_POSTGRES (ctest: e2e_postgres_fleet)'
    : !existsSync('/usr/sbin/nginx') || !existsSync(STREAM_MODULE)
        ? 'needs nginx and libnginx-mod-stream (Debian)' : false;
const LIFECYCLE = ['NEW', 'VALIDATION_PENDING', 'VALIDATED', 'ALLOCATION_PENDING', 'ALLOCATED'];

let fleetProcess;
let receiver;
// Whatever the test left running when it failed: the fleet, and the receiver (a listening
// server keeps node's event loop, and so the test process, alive until ctest's timeout).
after(async () => {
    if (fleetProcess && fleetProcess.exitCode === null) {
        fleetProcess.kill('SIGTERM');
        await new Promise((resolve) => fleetProcess.once('exit', resolve));
    }
    receiver?.close();
});

function portFree(port) {
    return new Promise((resolve) => {
        const s = createTcpServer();
        s.once('error', () => resolve(false));
        s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
}

// A base port whose 3 front ports and 9 instance ports (base + 10 ...) are all free.
async function freeBase() {
    for (let tries = 0; tries < 50; ++tries) {
        // Below Linux's ephemeral range (32768-60999): a port free now is not taken meanwhile
        // by another test's outgoing connection (an instance failed to listen on one once).
        const base = 20000 + Math.floor(Math.random() * 12000);
        const ports = [0, 1, 2, ...Array.from({ length: 9 }, (_, i) => 10 + i)].map((o) => base + o);
        if ((await Promise.all(ports.map(portFree))).every(Boolean))
            return base;
    }
    throw new Error('no free port range');
}

// Records every callback: webhook-id, order, status, when it began and ended (answered after
// 20 ms, or cut off when its sender died).
function startReceiver() {
    const hits = [];
    const server = createHttpServer((req, res) => {
        let body = '';
        // The connection (its port, and how many requests it carried): a failure names both.
        req.socket.requests = (req.socket.requests ?? 0) + 1;
        const hit = { id: req.headers['webhook-id'], start: Date.now(), end: 0,
                      port: req.socket.remotePort, nth: req.socket.requests };
        hits.push(hit);
        req.on('data', (c) => { body += c; });
        req.on('end', () => {
            try {
                const p = JSON.parse(body);
                hit.orderId = p.orderId;
                hit.status = p.orderStatus;
            } catch { /* recorded without them */ }
            setTimeout(() => { hit.end = Date.now(); res.end(); }, 20);
        });
        res.on('close', () => { if (!hit.end) hit.end = Date.now(); });
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
        hits, url: `http://127.0.0.1:${server.address().port}/hook`,
        close: () => { server.closeAllConnections(); server.close(); },
    })));
}

// The local TCP ports of process `pid`'s sockets (Linux: its descriptors, then /proc/net/tcp*).
function tcpPortsOf(pid) {
    const inodes = new Set();
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
            const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
            if (m)
                inodes.add(m[1]);
        } catch { /* closed meanwhile */ }
    }
    const ports = new Set();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
        let text = '';
        try { text = readFileSync(table, 'utf8'); } catch { continue; }
        for (const line of text.split('\n').slice(1)) {
            const f = line.trim().split(/\s+/);
            if (f.length > 9 && inodes.has(f[9]))
                ports.add(parseInt(f[1].split(':')[1], 16));
        }
    }
    return ports;
}

// Stops process `pid` (SIGSTOP), then returns once it no longer runs (its state T).
async function stopped(pid) {
    process.kill(pid, 'SIGSTOP');
    for (let i = 0; i < 5000; ++i) {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (/^[TtZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)))
            return;
        await sleep(1);
    }
    throw new Error(`process ${pid} did not stop`);
}

// What each instance logged about leases and attempts (for a failure's message).
function webhookLogs(dir, words) {
    return ['instance-1', 'instance-2', 'instance-3'].map((name) => {
        let text = '';
        try { text = readFileSync(join(dir, name, 'log'), 'utf8'); } catch { /* none */ }
        const lines = text.split('\n').filter((l) => /stale|took over|another instance|has ended/.test(l) ||
                                                      words.some((w) => w && l.includes(w)));
        return `${name}:\n${lines.slice(-25).join('\n')}`;
    }).join('\n');
}

// One HTTP request from a chosen local address (127.0.0.2, 127.0.0.3: other clients than
// nginx's 127.0.0.1). Resolves to {status, headers, text}.
// Raw bytes to 127.0.0.1:port; resolves to the whole answer (the server closes after it).
function rawExchange(port, bytes) {
    return new Promise((resolve, reject) => {
        const s = connect({ host: '127.0.0.1', port }, () => s.write(bytes));
        let text = '';
        s.setEncoding('utf8');
        s.on('data', (c) => { text += c; });
        s.on('end', () => resolve(text));
        s.on('error', reject);
        s.setTimeout(TIMEOUT_MS, () => s.destroy(new Error('no answer')));
    });
}

// A sign-in page reached from `localAddress` through nginx: the authorize request, its cookie,
// and the login form. Resolves to {cookie, action, fields}.
async function loginFormFrom(localAddress, service, clientId, redirectUri) {
    const authorize = new URL('/oauth2/authorize', service);
    for (const [k, v] of Object.entries({
        response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'openid',
        state: 'st', code_challenge: randomBytes(32).toString('base64url'), code_challenge_method: 'S256',
    })) authorize.searchParams.set(k, v);
    const r = await fromAddress(localAddress, authorize);
    assert.equal(r.status, 303, r.text.slice(0, 400));
    const cookie = (r.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const page = await fromAddress(localAddress, new URL(r.headers.location, service), { headers: { Cookie: cookie } });
    assert.equal(page.status, 200, page.text.slice(0, 400));
    const f = form(page.text, 'login-form');
    return { cookie, action: new URL(f.action, service), fields: f.fields };
}

function httpsGet(url, ca) {
    return new Promise((resolve, reject) => {
        const req = httpsRequest(url, { ca, servername: 'localhost', timeout: TIMEOUT_MS }, (res) => {
            let text = '';
            res.on('data', (c) => { text += c; });
            res.on('end', () => resolve({ status: res.statusCode, text }));
        });
        req.on('error', reject);
        req.end();
    });
}

test('three instances behind nginx (deploy/run-local.sh): a burst of orders with callbacks, the leading instance killed -9 in the middle; every acknowledged order runs its lifecycle and every status callback arrives, never two attempts of one at once',
     { skip, timeout: 12 * 60_000 }, async (t) => {
    receiver = await startReceiver();
    const dir = tempDir('gatehouse-fleet-');
    const base = await freeBase();
    let output = '';
    fleetProcess = spawn('bash', [join(ROOT, 'deploy', 'run-local.sh'), dir], {
        env: {
            ...process.env,
            GATEHOUSE_PORT_BASE: String(base),
            GATEHOUSE_DATABASE: createPostgresDatabase(),
            GATEHOUSE_BINARY: binaryPath(),
            GATEHOUSE_ARGS: '--webhook-allow-loopback --webhook-retry-schedule 1s,1s,2s,2s,5s,5s,10s,10s,30s',
            QT_LOGGING_RULES: 'gatehouse.access=false\ngatehouse.webhooks.debug=true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    fleetProcess.stdout.on('data', (c) => { output += c; });
    fleetProcess.stderr.on('data', (c) => { output += c; });
    await waitFor(() => /==> ready/.test(output) || fleetProcess.exitCode !== null,
                  { timeoutMs: 4 * TIMEOUT_MS, message: 'the fleet started' });
    assert.match(output, /==> ready/, output.slice(-3000));
    const fleet = JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8'));
    assert.equal(fleet.service, `http://127.0.0.1:${base}`);
    assert.equal(fleet.instances.length, 3);
    const token = readFileSync(fleet.adminTokenFile, 'utf8').trim();
    const admin = (method, path, body) => request(fleet.admin + path, method, body, { Authorization: `Bearer ${token}` });

    // The admin listener behind nginx (any instance answers) lists the three, one leading.
    const status = await admin('GET', '/admin/v1/status');
    assert.equal(status.status, 200, status.text);
    assert.equal(status.json.instances.filter((i) => i.alive).length, 3, JSON.stringify(status.json.instances));
    const leader = status.json.instances.find((i) => i.leads);
    assert.ok(leader, JSON.stringify(status.json.instances));
    // The instance that leads, found by its own admin port, dies after the first 100 orders.
    let victim;
    const ids = new Map(); // instance -> its id
    for (const i of fleet.instances) {
        const own = await request(`http://127.0.0.1:${i.admin}/admin/v1/status`, 'GET', undefined,
                                  { Authorization: `Bearer ${token}` });
        ids.set(i, own.json.processId);
        if (own.json.processId === leader.id)
            victim = i;
    }
    assert.ok(victim, 'the leading instance found');
    // A console on one instance that lives watches the whole burst: the events of all three.
    const watched = fleet.instances.find((i) => i !== victim);
    // (The others hear that it watches within about 100 ms: long before the burst below.)
    const watch = await watchEvents(`http://127.0.0.1:${watched.admin}`, token);
    // The cluster listener through the TCP pass-through: TLS with the cluster's CA, answered.
    const version = await httpsGet(`${fleet.cluster}/version`, readFileSync(fleet.clusterCa));
    assert.equal(version.status, 200, version.text);
    assert.match(version.text, /"gitVersion"/);

    // Behind nginx the admin listener still wants a token: none, or a forged one, is refused
    // and changes nothing, whichever instance answers.
    for (const headers of [{}, { Authorization: `Bearer ${token.slice(0, -4)}AAAA` }]) {
        for (let i = 0; i < 3; ++i) {
            const refused = await request(`${fleet.admin}/admin/v1/customers`, 'POST', { name: 'Intruder' }, headers);
            assert.equal(refused.status, 401, refused.text);
        }
    }
    const customers = await admin('GET', '/admin/v1/customers');
    assert.equal(customers.status, 200, customers.text);
    assert.ok(!JSON.stringify(customers.json).includes('Intruder'), customers.text);
    // Client addresses (trusted-proxies 127.0.0.1, run-local.sh): behind nginx a client on
    // 127.0.0.2 is 127.0.0.2 in the audit log, whatever X-Forwarded-For it writes itself; sent
    // straight to an instance, its X-Forwarded-For is not read at all.
    const who = { 'X-Gatehouse-Actor': 'xff-check', 'User-Agent': 'fleet-e2e/1.0',
                  Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    for (const [url, name] of [[fleet.admin, 'Via nginx'], [`http://127.0.0.1:${fleet.instances[1].admin}`, 'Direct']]) {
        const made = await fromAddress('127.0.0.2', `${url}/admin/v1/customers`, {
            method: 'POST', headers: { ...who, 'X-Forwarded-For': '198.51.100.66' }, body: JSON.stringify({ name: name }) });
        assert.equal(made.status, 201, made.text);
    }
    const audited = await waitFor(async () => {
        const r = await admin('GET', `/admin/v1/audit?actor=${encodeURIComponent('xff-check (fleet-e2e/1.0 from 127.0.0.2)')}`);
        return r.status === 200 && r.json.items.length >= 2 ? r.json.items : null;
    }, { message: 'both creations audited as from 127.0.0.2' });
    assert.deepEqual(audited.map((e) => e.after?.name).sort(), ['Direct', 'Via nginx'], JSON.stringify(audited));
    const forged = await admin('GET', '/admin/v1/audit?limit=1000');
    assert.ok(!forged.text.includes('198.51.100.66'), 'a client-written address is never recorded');

    // The per-address sign-in limit counts each client on its own behind nginx: 127.0.0.2 gets
    // its 20 attempts a minute (oauth-login-rate), spread over the instances, each with a new
    // forged X-Forwarded-For, then 429; 127.0.0.3, behind the same nginx, is not held back.
    const redirectUri = 'http://127.0.0.1:9/callback';
    const client = await admin('POST', '/admin/v1/clients', {
        client_name: 'fleet sign-in', redirect_uris: [redirectUri], grant_types: ['authorization_code'],
        response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'openid' });
    assert.equal(client.status, 201, client.text);
    const attempt = async (localAddress, login, n) => fromAddress(localAddress, login.action, {
        method: 'POST',
        headers: { Cookie: login.cookie, 'Content-Type': 'application/x-www-form-urlencoded',
                   'X-Forwarded-For': `203.0.113.${n % 250}` },
        body: new URLSearchParams({ ...login.fields, username: `nobody-${n}`, password: 'wrong' }).toString(),
    });
    const second = await loginFormFrom('127.0.0.2', fleet.service, client.json.client_id, redirectUri);
    const answers = [];
    for (let n = 1; n <= 21; ++n)
        answers.push((await attempt('127.0.0.2', second, n)).status);
    assert.deepEqual(answers, [...Array(20).fill(401), 429], answers.join(' '));
    const third = await loginFormFrom('127.0.0.3', fleet.service, client.json.client_id, redirectUri);
    const other = await attempt('127.0.0.3', third, 1);
    assert.equal(other.status, 401, other.text.slice(0, 400));
    assert.equal((await attempt('127.0.0.2', second, 99)).status, 429);

    // A client's long OAuth state never makes an answer head nginx cannot hold (a 6 KB Location
    // was a 502 "upstream sent too big header", and nginx took the instance out): 2,049 bytes
    // once encoded is an error page; 2,046 go back to the client, through nginx. Every instance
    // stays in: the next requests, one per instance, are answered.
    const authorizeWith = (state, responseType = 'code') => {
        const u = new URL('/oauth2/authorize', fleet.service);
        for (const [k, v] of Object.entries({ response_type: responseType, client_id: client.json.client_id,
                                              redirect_uri: redirectUri, state }))
            u.searchParams.set(k, v);
        return fromAddress('127.0.0.4', u.href);
    };
    for (let i = 0; i < 3; ++i) {
        const long = await authorizeWith('!'.repeat(683));
        assert.equal(long.status, 400, long.text.slice(0, 400));
        assert.match(long.text, /state is longer than 2048 bytes once percent-encoded/);
        const back = await authorizeWith('!'.repeat(682), 'token');
        assert.equal(back.status, 303, back.text.slice(0, 400));
        assert.ok(back.headers.location.startsWith(`${redirectUri}?error=unsupported_response_type`), back.headers.location);
    }
    for (let i = 0; i < 3; ++i)
        assert.equal((await fromAddress('127.0.0.4', `${fleet.service}/healthz`)).status, 200, 'every instance still in');
    // HTTP/1.0 without a Host header (old health checkers): nginx sends the instance one.
    const oldClient = await rawExchange(base, 'GET /healthz HTTP/1.0\r\n\r\n');
    assert.match(oldClient, /^HTTP\/1\.1 200 /, oldClient.slice(0, 400));

    const customer = await admin('POST', '/admin/v1/customers', { name: 'Fleet' });
    assert.equal(customer.status, 201, customer.text);
    const customerId = customer.json.customer.id;
    const beers = await request(`${fleet.service}/v1/beers?pageSize=100`, 'GET');
    const upc = beers.json.content.filter((b) => b.quantityOnHand >= 500)[0].upc;

    const acknowledged = new Set();
    let refused = 0;
    let sent = 0;
    let killedAt = 0;
    let victimPorts = new Set(); // the connections the killed instance had (its callbacks')
    const place = async () => {
        while (sent < 300) {
            sent += 1;
            if (sent === 100 && !killedAt) {
                // Stopped first, so that the connections it sent callbacks on are known: the
                // receiver, busy under this load, may note a request the instance sent just
                // before it died seconds later (1.8 s seen), after a survivor's attempt began.
                killedAt = -1;
                await stopped(victim.pid);
                victimPorts = tcpPortsOf(victim.pid);
                process.kill(victim.pid, 'SIGKILL');
                killedAt = Date.now();
            }
            const r = await request(`${fleet.service}/v1/customers/${customerId}/orders`, 'POST', {
                beerOrderLines: [{ upc, orderQuantity: 1 }], orderStatusCallbackUrl: receiver.url,
            }).catch(() => ({ status: 0 }));
            if (r.status === 201)
                acknowledged.add(r.json.id);
            else
                refused += 1; // not acknowledged: whether it exists is not promised
        }
    };
    await Promise.all(Array.from({ length: 8 }, place));
    assert.ok(killedAt > 0);
    assert.ok(acknowledged.size >= 250, `${acknowledged.size} acknowledged, ${refused} refused`);
    t.diagnostic(`${acknowledged.size} orders acknowledged, ${refused} refused; instance ${victim.pid} (the lead) killed`);

    // Every acknowledged order exists (read through nginx, any instance) and is allocated: those
    // the dead instance had not advanced are taken up by the new lead.
    const statusOf = async (id) => (await request(`${fleet.service}/v1/customers/${customerId}/orders/${id}`, 'GET')).json?.orderStatus;
    await waitFor(async () => {
        for (const id of acknowledged)
            if (await statusOf(id) !== 'ALLOCATED')
                return false;
        return true;
    }, { timeoutMs: 5 * 60_000, intervalMs: 2000, message: 'every acknowledged order allocated' });
    t.diagnostic(`every acknowledged order allocated ${Date.now() - killedAt} ms after the kill`);

    // The watching instance showed orders made on each of the three, each event naming its own.
    const creators = new Set(watch.events.filter((e) => e.type === 'order.created').map((e) => e.instance));
    assert.deepEqual([...creators].sort(), [...ids.values()].sort(),
                     `order.created seen from ${[...creators].join(', ')}`);
    t.diagnostic(`the stream of ${ids.get(watched)} showed ${watch.events.length} events of ${creators.size} instances`);
    await watch.close();

    // Every status change of every acknowledged order reached the receiver, with one webhook-id.
    const seen = () => {
        const byOrder = new Map();
        for (const h of receiver.hits) {
            if (!h.end || !acknowledged.has(h.orderId))
                continue;
            if (!byOrder.has(h.orderId))
                byOrder.set(h.orderId, new Map());
            byOrder.get(h.orderId).set(h.status, h.id);
        }
        return byOrder;
    };
    await waitFor(() => {
        const byOrder = seen();
        return [...acknowledged].every((id) => LIFECYCLE.every((s) => byOrder.get(id)?.has(s)));
    }, { timeoutMs: 5 * 60_000, intervalMs: 2000, message: 'every status callback received' });
    t.diagnostic(`every status callback received ${Date.now() - killedAt} ms after the kill (${receiver.hits.length} requests)`);
    const changeOf = new Map(); // webhook-id -> "order status"
    for (const h of receiver.hits) {
        if (!h.id)
            continue;
        const what = `${h.orderId} ${h.status}`;
        assert.equal(changeOf.get(h.id) ?? what, what, `webhook-id ${h.id} carried two changes`);
        changeOf.set(h.id, what);
    }
    // Never two attempts of one delivery at once by live instances. The dead instance's last
    // ones were cut off when it died, and a survivor that finds its process gone takes its
    // leases over at once (docs/storage.md), so one of the dead instance's (told by its
    // connection) may overlap a survivor's: the receiver notes its end only when it answers it
    // or sees its socket close, and, busy under this load, may note its start late.
    assert.ok(victimPorts.size > 0, 'the killed instance had connections');
    const byId = new Map();
    for (const h of receiver.hits)
        byId.set(h.id, [...(byId.get(h.id) ?? []), h]);
    let victims = 0;
    const conn = (h) => `port ${h.port}, request ${h.nth} of its connection` +
                        (victimPorts.has(h.port) ? ', the killed instance\'s' : '');
    for (const [id, list] of byId) {
        list.sort((a, b) => a.start - b.start);
        for (let i = 1; i < list.length; ++i) {
            for (let j = 0; j < i; ++j) {
                if (list[i].start >= list[j].end)
                    continue;
                const cutOff = victimPorts.has(list[j].port) || victimPorts.has(list[i].port);
                assert.ok(cutOff, `delivery ${id}: an attempt began at ${list[i].start} (${conn(list[i])}), ` +
                                  `before the one of ${list[j].start} (${conn(list[j])}) ended at ` +
                                  `${list[j].end} (killed at ${killedAt})\n` + webhookLogs(dir, [id, list[i].orderId]));
                victims += 1;
            }
        }
    }
    t.diagnostic(`${victims} attempts of the killed instance overlapped a survivor's taking over`);
    // The two left: alive; the dead one shown gone once its heartbeat is old.
    await waitFor(async () => {
        const s = await admin('GET', '/admin/v1/status');
        return s.status === 200 && s.json.instances.filter((i) => i.alive).length === 2;
    }, { timeoutMs: 60_000, message: 'two instances alive' });

    fleetProcess.kill('SIGTERM');
    const code = await new Promise((resolve) => fleetProcess.once('exit', resolve));
    assert.equal(code, 0, output.slice(-3000));
    assert.match(output, /==> stopping/);
    receiver.close();
    receiver = undefined;
    await sleep(10);
});
