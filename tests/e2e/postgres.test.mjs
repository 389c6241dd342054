// Gatehouse on PostgreSQL (docs/storage.md), end to end: choosing the database, what is shown
// of its URL, restarts on it, several instances on one database, and a database that cannot be
// used.
// The service-level suites themselves run on PostgreSQL as e2e_postgres_* (same files, with
// GATEHOUSE_TEST_POSTGRES set). Needs GATEHOUSE_TEST_POSTGRES (ctest's postgres fixture).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import {
    POSTGRES_BASE, adminFetch, binaryPath, createPostgresDatabase, request, serviceFetch,
    startBackend, waitFor, watchEvents,
} from './lib/backend.mjs';
import { UserAgent, form } from './lib/browser.mjs';
import { adminKube, clusterCa, issueKubeconfig, kubeRequest, run, tempDir } from './lib/cluster.mjs';
import * as jose from 'jose';

const skip = POSTGRES_BASE ? false : 'needs GATEHOUSE_TEST_POSTGRES (ctest: e2e_postgres)';
const running = [];
after(async () => {
    for (const b of running) await b.stop();
});

// The URL with a password in it: trust authentication ignores it, so it shows whether the
// password leaks anywhere. (The test server's URLs have no host, only a socket directory in
// their query, which Node's URL class cannot give credentials: plain string work here.)
function withPassword(url, password = 'hunter2-secret') {
    assert.ok(url.startsWith('postgresql:///'), url);
    return url.replace('postgresql:///', `postgresql://gatehouse:${password}@/`);
}

function withoutPassword(url) {
    return url.replace(/^postgresql:\/\/gatehouse:[^@]*@/, 'postgresql://gatehouse@');
}

// psql on the database of `url`: what the statements print (unaligned, tuples only), or the
// test fails with psql's error.
function psqlAt(url, sql) {
    const r = spawnSync('psql', [url, '-Atc', sql], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
}

// Polls `check` every 25 ms until it holds (the time it took), failing with `message` after `ms`.
async function within(ms, check, message) {
    const start = Date.now();
    for (;;) {
        if (await check())
            return Date.now() - start;
        assert.ok(Date.now() - start < ms, message);
        await sleep(25);
    }
}

// The HTTP status of an anonymous GET /version on b's cluster listener.
function anonymousStatus(b) {
    return spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--cacert',
                              `${b.dataDir}/pki/ca.crt`, `${b.clusterUrl}/version`], { encoding: 'utf8' }).stdout;
}

// One instance of a new database, and psql on that database (standing in for another instance).
async function oneInstance() {
    const url = createPostgresDatabase();
    const b = await startBackend({ args: ['--database', url] });
    running.push(b);
    return { url, name: new URL(url).pathname.slice(1), b, psql: (sql) => psqlAt(url, sql) };
}

// Two instances of one new database: b with a's database key (how instances share it).
async function twoInstances(args = []) {
    const url = createPostgresDatabase();
    const a = await startBackend({ args: ['--database', url, ...args] });
    running.push(a);
    const keyFile = join(tempDir('gatehouse-pg-key-'), 'shared-key');
    copyFileSync(join(a.dataDir, 'database-key'), keyFile);
    chmodSync(keyFile, 0o600);
    const b = await startBackend({ args: ['--database', url, '--database-key-file', keyFile, ...args] });
    running.push(b);
    return { url, a, b };
}

function databaseUrl(name) {
    const u = new URL(POSTGRES_BASE);
    u.pathname = `/${name}`;
    return u.toString();
}

test('GATEHOUSE_DATABASE selects PostgreSQL; status and settings show it without its password; the API cannot change it',
     { skip }, async () => {
    const url = withPassword(createPostgresDatabase());
    const b = await startBackend({ env: { GATEHOUSE_DATABASE: url } });
    running.push(b);
    const status = await adminFetch(b, 'GET', '/admin/v1/status');
    assert.equal(status.status, 200);
    assert.equal(status.json.database.driver, 'QPSQL');
    assert.equal(status.json.database.path, withoutPassword(url));
    assert.ok(status.json.database.schemaVersion >= 18);

    const settings = await adminFetch(b, 'GET', '/admin/v1/settings');
    const db = settings.json.items.find((i) => i.key === 'database');
    assert.equal(db.value, withoutPassword(url));
    assert.equal(db.source, 'environment GATEHOUSE_DATABASE');
    assert.equal(db.group, 'storage');
    assert.equal(db.editable, false);
    const put = await adminFetch(b, 'PUT', '/admin/v1/settings/database', { value: 'postgresql://h/other' });
    assert.equal(put.status, 409);
    assert.equal(put.json.error, 'setting-read-only');

    for (const text of [JSON.stringify(status.json), JSON.stringify(settings.json), b.stderr, b.stdout])
        assert.ok(!text.includes('hunter2-secret'), 'the password is never shown');
    assert.match(b.stderr + b.stdout, /ready; data dir .* database postgresql:\/\/gatehouse@/);
});

test('a restart on the same database keeps clients, orders and signing keys; the database holds them sealed',
     { skip }, async () => {
    const b = await startBackend();
    const client = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'kept on postgres', grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_basic',
    });
    assert.equal(client.status, 201, JSON.stringify(client.json));
    const discovery = (await serviceFetch(b, 'GET', '/.well-known/openid-configuration')).json;
    const jwks = (await request(discovery.jwks_uri, 'GET')).json;
    assert.ok(jwks.keys.length >= 1);
    const token = await request(discovery.token_endpoint, 'POST', 'grant_type=client_credentials', {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.json.client_id}:${client.json.client_secret}`).toString('base64')}`,
    });
    assert.equal(token.status, 200, JSON.stringify(token.json));
    assert.equal(await b.stop(), 0);

    const again = await startBackend({ dataDir: b.dataDir });
    running.push(again);
    const kept = await adminFetch(again, 'GET', `/admin/v1/clients/${client.json.client_id}`);
    assert.equal(kept.status, 200);
    assert.equal(kept.json.client_name, 'kept on postgres');
    const rediscovered = (await serviceFetch(again, 'GET', '/.well-known/openid-configuration')).json;
    assert.deepEqual((await request(rediscovered.jwks_uri, 'GET')).json, jwks);
    const introspect = await request(rediscovered.introspection_endpoint, 'POST',
        `token=${encodeURIComponent(token.json.access_token)}`, {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${client.json.client_id}:${client.json.client_secret}`).toString('base64')}`,
        });
    assert.equal(introspect.status, 200);
    assert.equal(introspect.json.active, true);
    // Whoever reads the database alone finds no private key: sealed with <data-dir>/database-key.
    const pems = spawnSync('psql', [readFileSync(join(b.dataDir, 'postgres-database'), 'utf8').trim(), '-Atc',
        'SELECT private_pem FROM oauth_signing_keys'], { encoding: 'utf8' });
    assert.equal(pems.status, 0, pems.stderr);
    const rows = pems.stdout.trim().split('\n');
    assert.ok(rows.length >= 4);
    for (const row of rows) {
        assert.match(row, /^sealed:v1:/);
        assert.ok(!row.includes('PRIVATE KEY'));
    }
    // Webhook secrets, too: a customer made now, and the demo customer.
    const customer = await adminFetch(again, 'POST', '/admin/v1/customers', { name: 'Sealed on postgres' });
    assert.equal(customer.status, 201);
    const secrets = spawnSync('psql', [readFileSync(join(b.dataDir, 'postgres-database'), 'utf8').trim(), '-Atc',
        'SELECT secret FROM webhook_secrets'], { encoding: 'utf8' });
    assert.equal(secrets.status, 0, secrets.stderr);
    const secretRows = secrets.stdout.trim().split('\n');
    assert.ok(secretRows.length >= 2, secrets.stdout);
    for (const row of secretRows) {
        assert.match(row, /^sealed:v1:/);
        assert.ok(!row.includes(customer.json.webhookSecret.slice(6, 18)));
    }
    assert.equal(statSync(join(b.dataDir, 'database-key')).mode & 0o777, 0o600);
});

test('a second instance needs the first one\'s database key; with it, it serves beside the first',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const first = await startBackend({ args: ['--database', url] });
    running.push(first);
    // Another data directory holds another database-key: the sealed secrets do not open (the
    // webhook secrets, checked first at start; then the signing keys). No password in the output.
    const stranger = await run(binaryPath(), [
        '--headless', '--data-dir', tempDir('gatehouse-pg-stranger-'), '--database', withPassword(url),
        '--service-port', '0', '--cluster-port', '0', '--admin-port', '0',
    ]);
    assert.notEqual(stranger.code, 0);
    assert.match(stranger.stderr, /a webhook secret of customer [0-9a-f-]{36} cannot be read: a sealed value does not open with the database key.*Start with the database key that sealed it/s);
    assert.ok(!stranger.stderr.includes('hunter2-secret'));
    // Another data directory with the first one's key as --database-key-file (how instances
    // of one database share it): the sealed secrets open, it starts beside the first and makes
    // no key of its own.
    const keyFile = join(tempDir('gatehouse-pg-key-'), 'shared-key');
    copyFileSync(join(first.dataDir, 'database-key'), keyFile);
    chmodSync(keyFile, 0o600);
    const second = await startBackend({ args: ['--database', url, '--database-key-file', keyFile] });
    running.push(second);
    assert.equal((await serviceFetch(second, 'GET', '/v1/beers')).status, 200);
    assert.equal((await serviceFetch(first, 'GET', '/v1/beers')).status, 200);
    assert.ok(!existsSync(join(second.dataDir, 'database-key')));
    const instances = (await adminFetch(first, 'GET', '/admin/v1/status')).json.instances;
    assert.equal(instances.filter((i) => i.alive).length, 2, JSON.stringify(instances));
    assert.equal(instances.filter((i) => i.leads).length, 1, JSON.stringify(instances));
});

test('two instances of one database: a sign-in begun on one finishes on the other, a refresh token rotated on one and reused on the other revokes its family, holding the order lifecycle on one holds it on the other within a second, an order made on one is advanced and picked up through the other',
     { skip }, async () => {
    const { url, a, b } = await twoInstances();

    // --- a sign-in begun on a (authorize, the login page) finishes on b (login, consent) ---
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    const user = await adminFetch(a, 'POST', '/admin/v1/users', { username: 'across', password });
    assert.equal(user.status, 201, user.text);
    const redirectUri = 'http://127.0.0.1:9/callback';
    const client = await adminFetch(a, 'POST', '/admin/v1/clients', {
        client_name: 'across instances', redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic', scope: 'openid offline_access',
    });
    assert.equal(client.status, 201, client.text);
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client.json.client_id)}:${encodeURIComponent(client.json.client_secret)}`).toString('base64')}`;
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL('/oauth2/authorize', a.serviceUrl);
    for (const [k, v] of Object.entries({
        response_type: 'code', client_id: client.json.client_id, redirect_uri: redirectUri,
        scope: 'openid offline_access', state: 'st-across',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    })) authorize.searchParams.set(k, v);
    const ua = new UserAgent();
    let r = await ua.fetch(authorize);
    assert.equal(r.status, 303, r.text.slice(0, 400));
    assert.equal(r.location.pathname, '/oauth2/login');
    const page = await ua.fetch(r.location);
    assert.equal(page.status, 200);
    const login = form(page.text, 'login-form');
    // The form posted to b instead (a load balancer's choice).
    r = await ua.fetch(new URL(login.action, b.serviceUrl), { method: 'POST', form: { ...login.fields, username: 'across', password } });
    assert.equal(r.status, 303, r.text.slice(0, 400));
    if (r.location.pathname === '/oauth2/consent') {
        const consent = await ua.fetch(new URL(r.location.pathname + r.location.search, b.serviceUrl));
        assert.equal(consent.status, 200, consent.text.slice(0, 400));
        const f = form(consent.text, 'consent-form');
        r = await ua.fetch(new URL(f.action, b.serviceUrl), { method: 'POST', form: { ...f.fields, decision: 'allow' } });
    }
    assert.ok([302, 303].includes(r.status), `${r.status} ${r.text.slice(0, 400)}`);
    assert.equal(`${r.location.origin}${r.location.pathname}`, redirectUri);
    assert.equal(r.location.searchParams.get('state'), 'st-across');
    const code = r.location.searchParams.get('code');
    assert.ok(code, r.rawLocation);
    // The code, issued by b, is redeemed at a.
    const token = (instance, fields) => request(new URL('/oauth2/token', instance.serviceUrl).toString(), 'POST',
        new URLSearchParams(fields).toString(),
        { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' });
    const issued = await token(a, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
    assert.equal(issued.status, 200, issued.text);
    assert.ok(issued.json.refresh_token);

    // --- a refresh token rotated on b, then the old one reused on a ---
    const rotated = await token(b, { grant_type: 'refresh_token', refresh_token: issued.json.refresh_token });
    assert.equal(rotated.status, 200, rotated.text);
    const reused = await token(a, { grant_type: 'refresh_token', refresh_token: issued.json.refresh_token });
    assert.equal(reused.status, 400, reused.text);
    assert.equal(reused.json.error, 'invalid_grant');
    assert.match(reused.json.error_description, /already used; its family is revoked/);
    // The family is revoked on both: the rotated token is refused at b.
    const afterReuse = await token(b, { grant_type: 'refresh_token', refresh_token: rotated.json.refresh_token });
    assert.equal(afterReuse.status, 400, afterReuse.text);
    assert.equal(afterReuse.json.error, 'invalid_grant');
    // The code replayed at b: refused.
    const replayed = await token(b, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
    assert.equal(replayed.status, 400, replayed.text);
    assert.equal(replayed.json.error, 'invalid_grant');

    // --- a's event stream shows b's events too, each naming its instance ---
    const idOf = async (instance) => (await adminFetch(instance, 'GET', '/admin/v1/status')).json.processId;
    const [aId, bId] = [await idOf(a), await idOf(b)];
    assert.notEqual(aId, bId);
    const watch = await watchEvents(a.adminUrl, a.adminToken);
    // b relays once it heard that a watches (within about 100 ms): changes on b until one shows.
    let pings = 0;
    await waitFor(async () => {
        const ping = await adminFetch(b, 'POST', '/admin/v1/customers', { name: `Ping ${++pings}` });
        assert.equal(ping.status, 201, ping.text);
        return watch.events.some((e) => e.instance === bId && e.type === 'customer.created');
    }, { intervalMs: 100, message: "b's events on a's stream" });
    const ownEvent = await adminFetch(a, 'POST', '/admin/v1/customers', { name: 'On a' });
    assert.equal(ownEvent.status, 201, ownEvent.text);
    await waitFor(() => watch.events.some((e) => e.type === 'customer.created' && e.data.name === 'On a'),
                  { message: "a's own event" });
    const fromA = watch.events.find((e) => e.type === 'customer.created' && e.data.name === 'On a');
    assert.equal(fromA.instance, aId, JSON.stringify(fromA));
    // No dashboard counters of b's on a's stream: those are each instance's own.
    assert.ok(!watch.events.some((e) => e.instance === bId && e.type.startsWith('stats')),
              JSON.stringify(watch.events.filter((e) => e.type.startsWith('stats')).slice(0, 3)));

    // --- the order lifecycle held on a is held on b within a second ---
    const lifecycle = async (instance) => (await adminFetch(instance, 'GET', '/admin/v1/orders/lifecycle')).json;
    const held = await adminFetch(a, 'POST', '/admin/v1/orders/lifecycle/hold');
    assert.equal(held.status, 200, held.text);
    // Within a second on an idle machine (the change feed reads every 50 ms); 5 s allowed for a
    // loaded one.
    await waitFor(async () => (await lifecycle(b)).held === true, { timeoutMs: 5000, message: 'held on b' });
    const customer = await adminFetch(a, 'POST', '/admin/v1/customers', { name: 'Two instances' });
    assert.equal(customer.status, 201, customer.text);
    const beers = await serviceFetch(b, 'GET', '/v1/beers?pageSize=100');
    const upc = beers.json.content.find((x) => x.quantityOnHand >= 500).upc;
    const made = await serviceFetch(b, 'POST', `/v1/customers/${customer.json.customer.id}/orders`,
                                    { beerOrderLines: [{ upc, orderQuantity: 1 }] });
    assert.equal(made.status, 201, made.text);
    const orderId = made.json.id;
    const statusOn = async (instance) => (await serviceFetch(instance, 'GET', `/v1/customers/${customer.json.customer.id}/orders/${orderId}`)).json.orderStatus;
    assert.equal(await statusOn(a), 'NEW');
    await sleep(500);
    assert.equal(await statusOn(a), 'NEW'); // held on b too: not advanced
    // Released on b: released on a, and the order (b's) runs.
    const released = await adminFetch(b, 'POST', '/admin/v1/orders/lifecycle/release');
    assert.equal(released.status, 200, released.text);
    await waitFor(async () => (await lifecycle(a)).held === false, { timeoutMs: 5000, message: 'released on a' });
    await waitFor(async () => (await statusOn(a)) === 'ALLOCATED', { message: 'the order allocated' });
    // Picked up through a, delivered through b.
    const pickup = await serviceFetch(a, 'PUT', `/v1/customers/${customer.json.customer.id}/orders/${orderId}/pickup`);
    assert.ok([200, 204].includes(pickup.status), pickup.text);
    assert.equal(await statusOn(b), 'PICKED_UP');
    const history = await adminFetch(b, 'GET', `/admin/v1/orders/${orderId}`);
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(history.json.history.map((h) => h.status),
                     ['NEW', 'VALIDATION_PENDING', 'VALIDATED', 'ALLOCATION_PENDING', 'ALLOCATED', 'PICKED_UP']);
    // The order made on b showed on a's stream as b's, the pickup through a as a's.
    await waitFor(() => watch.events.some((e) => e.type === 'order.status' && JSON.stringify(e.data).includes(orderId) && JSON.stringify(e.data).includes('PICKED_UP')),
                  { message: 'the pickup on the stream' });
    const created = watch.events.find((e) => e.type === 'order.created' && JSON.stringify(e.data).includes(orderId));
    assert.ok(created, JSON.stringify(watch.events.map((e) => e.type)));
    assert.equal(created.instance, bId, JSON.stringify(created));
    const picked = watch.events.find((e) => e.type === 'order.status' && JSON.stringify(e.data).includes(orderId) && JSON.stringify(e.data).includes('PICKED_UP'));
    assert.equal(picked.instance, aId, JSON.stringify(picked));
    await watch.close();
});

test('two instances of one database take the same customerRef or Idempotency-Key at once: one order, the others 409 duplicate-customer-ref or the original 201 replayed, never a 500',
     { skip }, async () => {
    const { url, a, b } = await twoInstances();
    const customer = await adminFetch(a, 'POST', '/admin/v1/customers', { name: 'Racing refs' });
    assert.equal(customer.status, 201, customer.text);
    const customerId = customer.json.customer.id;
    const upc = (await serviceFetch(a, 'GET', '/v1/beers?pageSize=100')).json.content
        .find((x) => x.quantityOnHand >= 500).upc;
    const path = `/v1/customers/${customerId}/orders`;
    const orderRows = (where) => psqlAt(url, `SELECT COUNT(*) FROM orders WHERE customer_id = '${customerId}' AND ${where}`);
    // Rounds of 16 requests, half to each instance, sent together: the instances' checks run
    // in transactions of their own, so both can find the value free and insert it.
    for (let round = 0; round < 4; ++round) {
        const customerRef = `race-${round}-${randomBytes(4).toString('hex')}`;
        const answers = await Promise.all(Array.from({ length: 16 }, (_, i) =>
            serviceFetch(i % 2 ? a : b, 'POST', path, { customerRef, beerOrderLines: [{ upc, orderQuantity: 1 }] })));
        assert.equal(answers.filter((r) => r.status === 201).length, 1, JSON.stringify(answers.map((r) => [r.status, r.text])));
        for (const r of answers.filter((x) => x.status !== 201)) {
            assert.equal(r.status, 409, r.text);
            assert.equal(r.json.code, 'duplicate-customer-ref', r.text);
        }
        assert.equal(orderRows(`customer_ref = '${customerRef}'`), '1');

        const key = `race-key-${round}-${randomBytes(4).toString('hex')}`;
        const body = JSON.stringify({ beerOrderLines: [{ upc, orderQuantity: 2 }] });
        const replays = await Promise.all(Array.from({ length: 16 }, (_, i) =>
            serviceFetch(i % 2 ? a : b, 'POST', path, body, { 'Idempotency-Key': key })));
        for (const r of replays) assert.equal(r.status, 201, r.text);
        const ids = new Set(replays.map((r) => r.json.id));
        assert.equal(ids.size, 1, JSON.stringify([...ids]));
        assert.equal(new Set(replays.map((r) => r.text)).size, 1); // the original 201, byte for byte
            assert.equal(orderRows(`id = '${[...ids][0]}'`), '1');
    }
    // Nothing else was made: four orders by customerRef, four by key.
    assert.equal(orderRows('true'), '8');
});

test('two instances: at most 4 bulk redelivery jobs run at once on both together (each counts in the fleet\'s turn), the others 409 too-many-redelivery-jobs',
     { skip }, async () => {
    const receiver = http.createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(204).end()); });
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
        const { url, a, b } = await twoInstances(['--webhook-allow-loopback']);
        const running = () => psqlAt(url, "SELECT count(*) FROM webhook_redelivery_jobs WHERE state = 'running'");
        const customer = await adminFetch(a, 'POST', '/admin/v1/customers', { name: 'Bulk jobs' });
        assert.equal(customer.status, 201, customer.text);
        const upc = (await serviceFetch(a, 'GET', '/v1/beers?pageSize=100')).json.content
            .find((x) => x.quantityOnHand >= 500).upc;
        const order = await serviceFetch(a, 'POST', `/v1/customers/${customer.json.customer.id}/orders`, {
            beerOrderLines: [{ upc, orderQuantity: 1 }],
            orderStatusCallbackUrl: `http://127.0.0.1:${receiver.address().port}/hooks` });
        assert.equal(order.status, 201, order.text);
        await waitFor(async () => {
            const d = await adminFetch(a, 'GET', `/admin/v1/deliveries?orderId=${order.json.id}&limit=10`);
            return d.json.items.some((x) => x.state === 'succeeded') || null;
        }, { message: 'a delivery that succeeded' });
        // Rounds of 16 requests, half to each instance, sent together: each instance's count
        // saw only what the other had committed, and 5 or 6 jobs ran.
        for (let round = 0; round < 4; ++round) {
            const answers = await Promise.all(Array.from({ length: 16 }, (_, i) =>
                adminFetch(i % 2 ? a : b, 'POST', '/admin/v1/redeliveries',
                           { filter: { state: 'succeeded' }, ratePerSecond: 0.1 })));
            const started = answers.filter((r) => r.status === 201);
            assert.equal(started.length, 4, JSON.stringify(answers.map((r) => [r.status, r.json?.code])));
            for (const r of answers.filter((x) => x.status !== 201)) {
                assert.equal(r.status, 409, r.text);
                assert.equal(r.json.error, 'too-many-redelivery-jobs', r.text);
            }
            // (The database's count: an instance lists a job another instance cancelled as running
            // until it next writes its progress.)
            assert.equal(running(), '4');
            for (const r of started)
                assert.equal((await adminFetch(round % 2 ? a : b, 'POST', `/admin/v1/redeliveries/${r.json.id}/cancel`)).status, 200);
            assert.equal(running(), '0');
        }
    } finally {
        receiver.close();
    }
});

test('the cluster\'s CA and service-account key are the database\'s: another data directory uses them (its own kept aside), so a client certificate and a service-account token of one instance are good on the other',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const a = await startBackend({ args: ['--database', url] });
    running.push(a);
    const admin = await issueKubeconfig(a, { kind: 'user', name: 'pki-admin', groups: ['system:masters'] });
    assert.equal((await kubeRequest(a, 'GET', '/api/v1/nodes', { creds: admin })).status, 200);
    const minted = await adminKube(a, 'POST', '/api/v1/namespaces/default/serviceaccounts/default/token',
                                   { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    assert.equal(minted.status, 201, minted.text);
    const token = minted.json.status.token;
    // In the database: the certificate as it is, the keys sealed.
    assert.equal(psqlAt(url, "SELECT certificate FROM cluster_pki WHERE name = 'ca'"), clusterCa(a).trim());
    for (const row of psqlAt(url, 'SELECT sealed_key FROM cluster_pki ORDER BY name').split('\n'))
        assert.match(row, /^sealed:v1:/);
    assert.equal(await a.stop(), 0);

    // Another data directory that made a CA of its own first (on a database of its own), with
    // the first one's database key (how instances of one database share it).
    const keyFile = join(tempDir('gatehouse-pg-key-'), 'shared-key');
    copyFileSync(join(a.dataDir, 'database-key'), keyFile);
    chmodSync(keyFile, 0o600);
    const dir = tempDir('gatehouse-pg-pki-');
    const alone = await startBackend({ dataDir: dir, args: ['--database-key-file', keyFile] });
    const ownCa = clusterCa(alone);
    assert.notEqual(ownCa, clusterCa(a));
    assert.equal(await alone.stop(), 0);
    const b = await startBackend({ dataDir: dir, args: ['--database', url, '--database-key-file', keyFile] });
    running.push(b);
    assert.equal(clusterCa(b), clusterCa(a));
    assert.equal(readFileSync(join(dir, 'pki', 'ca.key'), 'utf8'), readFileSync(join(a.dataDir, 'pki', 'ca.key'), 'utf8'));
    assert.equal(readFileSync(join(dir, 'pki', 'sa.key'), 'utf8'), readFileSync(join(a.dataDir, 'pki', 'sa.key'), 'utf8'));
    for (const f of ['ca.key', 'sa.key'])
        assert.equal(statSync(join(dir, 'pki', f)).mode & 0o777, 0o600, f);
    const kept = readdirSync(join(dir, 'pki')).filter((f) => f.includes('.replaced-')).sort();
    assert.deepEqual(kept.map((f) => f.replace(/\.replaced-.*/, '')), ['ca.crt', 'ca.key', 'sa.key']);
    assert.equal(readFileSync(join(dir, 'pki', kept[0]), 'utf8'), ownCa);
    assert.match(b.stderr + b.stdout, /is not the cluster's in the database, which every instance uses now; kept as/);
    // B's server certificate is issued by that CA (kubeRequest trusts pki/ca.crt only), and what
    // A issued is good here: the client certificate and the service-account token.
    assert.equal((await kubeRequest(b, 'GET', '/api/v1/nodes', { creds: admin })).status, 200);
    const asAccount = await kubeRequest(b, 'GET', '/api/v1/namespaces/default/secrets',
                                        { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(asAccount.status, 403, asAccount.text);
    assert.match(asAccount.json.message, /^secrets is forbidden: User "system:serviceaccount:default:default" cannot list resource "secrets"/);
    const forged = await kubeRequest(b, 'GET', '/api/v1/namespaces/default/secrets',
                                     { headers: { Authorization: `Bearer ${token.slice(0, -4)}AAAA` } });
    assert.equal(forged.status, 401);
    // A restart changes nothing and keeps nothing more aside.
    assert.equal(await b.stop(), 0);
    const again = await startBackend({ dataDir: dir, args: ['--database', url, '--database-key-file', keyFile] });
    running.push(again);
    assert.equal(clusterCa(again), clusterCa(a));
    assert.equal(readdirSync(join(dir, 'pki')).filter((f) => f.includes('.replaced-')).length, 3);
    assert.equal(await again.stop(), 0);
    // A data directory with another database key cannot open them, and says which setting it
    // needs (the webhook secrets, checked before, are dropped for it to get that far).
    psqlAt(url, 'DELETE FROM webhook_secrets');
    const stranger = await run(binaryPath(), [
        '--headless', '--data-dir', tempDir('gatehouse-pg-stranger-'), '--database', url,
        '--service-port', '0', '--cluster-port', '0', '--admin-port', '0',
    ]);
    assert.notEqual(stranger.code, 0);
    assert.match(stranger.stderr, /the cluster's ca key in the database does not open with this instance's database key: every instance of a database needs the same one \(database-key-file/);
});

test('a database that cannot be used: a clear message that names it, never its password', { skip }, async () => {
    const cases = [
        [withPassword(databaseUrl('no_such_database')), /no_such_database.*does not exist/s],
        [withPassword(databaseUrl('db')).replace('?', '?application_name=x%09host=evil&'), /the value of 'application_name'/],
        [withPassword(databaseUrl('db')).replace('?', '?sslpassword=hunter2-secret&'), /give the password in the URL's user part/],
        ['mysql://gatehouse:hunter2-secret@localhost/db', /invalid value '\(not shown\)' for database .*postgresql:\/\//],
        ['postgresql://gatehouse:hunter2-secret@localhost/', /names no database/],
    ];
    for (const [url, message] of cases) {
        const dir = tempDir('gatehouse-pg-bad-');
        const r = await run(binaryPath(), [
            '--headless', '--data-dir', dir, '--database', url,
            '--service-port', '0', '--cluster-port', '0', '--admin-port', '0',
        ]);
        assert.notEqual(r.code, 0, url);
        assert.match(r.stderr, message);
        assert.ok(!r.stderr.includes('hunter2-secret'), r.stderr);
    }
});

test('connections the server ends (a restart, an administrator) are opened again: writes go on',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const name = new URL(url).pathname.slice(1);
    const b = await startBackend({ args: ['--database', url] });
    running.push(b);
    const register = (clientName) => adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: clientName, grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_basic',
    });
    assert.equal((await register('before')).status, 201);
    // Ended and gone (the timeout waits for each backend to exit).
    const ended = spawnSync('psql', [POSTGRES_BASE, '-Atc',
        `SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity WHERE datname = '${name}'`],
    { encoding: 'utf8' });
    assert.equal(ended.status, 0, ended.stderr);
    assert.ok(Number(ended.stdout.trim()) >= 2, `ended ${ended.stdout}`); // the writer's, a reader's, ...
    // The writer notices at its next BEGIN and opens a new connection: no write fails.
    const after = await register('after');
    assert.equal(after.status, 201, JSON.stringify(after.json));
    // A reader thread whose connection was idle asks before its query whether the server
    // ended it, and opens a new one: no read fails either (it answered 500, later 503).
    await sleep(50);
    for (let i = 0; i < 8; ++i) {
        const read = await adminFetch(b, 'GET', `/admin/v1/clients/${after.json.client_id}`);
        assert.equal(read.status, 200, `read ${i}: ${read.text}; stderr:\n${b.stderr.slice(-3000)}`);
        assert.equal((await serviceFetch(b, 'GET', '/v1/beers')).status, 200);
    }
    assert.match(b.stderr + b.stdout, /was lost/);
});

test('a database that cannot be reached for seconds: requests meanwhile are answered 503 with Retry-After (never a wrong "not found"), the process waits quietly (a few log lines, little CPU), and every order acknowledged before reaches its last status with every callback once it answers again',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const name = new URL(url).pathname.slice(1);
    const b = await startBackend({ args: ['--database', url, '--webhook-allow-loopback'] });
    running.push(b);
    let logBytes = 0;
    let logLines = 0;
    const countLog = (c) => { logBytes += c.length; logLines += c.split('\n').length - 1; };
    b.proc.stderr.on('data', countLog);
    b.proc.stdout.on('data', countLog);
    const got = new Map(); // order id -> statuses received
    const receiver = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
            const j = JSON.parse(Buffer.concat(chunks).toString());
            if (!got.has(j.orderId)) got.set(j.orderId, new Set());
            got.get(j.orderId).add(j.orderStatus);
            res.writeHead(204).end();
        });
    });
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const cpuSeconds = () => {
        const f = readFileSync(`/proc/${b.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in ticks of 10 ms
    };
    try {
        const customer = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'Outage' });
        assert.equal(customer.status, 201, customer.text);
        const customerId = customer.json.customer.id;
        const upc = (await serviceFetch(b, 'GET', '/v1/beers?pageSize=100')).json.content
            .find((x) => x.quantityOnHand >= 500).upc;
        const registered = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: 'outage', grant_types: ['client_credentials'],
            token_endpoint_auth_method: 'client_secret_basic',
        });
        assert.equal(registered.status, 201, registered.text);
        const client = registered.json;
        const tokenFor = (c) => request(`${b.serviceUrl}/oauth2/token`, 'POST', 'grant_type=client_credentials', {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`,
        });
        const issued = await tokenFor(client);
        assert.equal(issued.status, 200, issued.text);
        const introspect = () => request(`${b.serviceUrl}/oauth2/introspect`, 'POST',
                                         new URLSearchParams({ token: issued.json.access_token }).toString(), {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        });
        assert.equal((await introspect()).json.active, true);
        const user = await adminFetch(b, 'POST', '/admin/v1/users', { username: 'outage-user', password: 'outage-password-1' });
        assert.equal(user.status, 201, user.text);
        // A client registered dynamically (RFC 7591), read back with its registration access
        // token (RFC 7592), and an initial access token kept for later.
        const iat = async () => {
            const r = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens', {
                maxUses: 1, expiresIn: 3600, policy: { grantTypes: ['client_credentials'], scopes: [] } });
            assert.equal(r.status, 201, r.text);
            return r.json.token;
        };
        const dynamicRegistration = (token) => request(`${b.serviceUrl}/oauth2/register`, 'POST',
            JSON.stringify({ client_name: 'outage dyn', grant_types: ['client_credentials'],
                             token_endpoint_auth_method: 'client_secret_basic' }),
            { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` });
        const dyn = await dynamicRegistration(await iat());
        assert.equal(dyn.status, 201, dyn.text);
        const spareIat = await iat();
        const readRegistration = () => request(`${b.serviceUrl}/oauth2/register/${dyn.json.client_id}`, 'GET', undefined,
                                               { Authorization: `Bearer ${dyn.json.registration_access_token}` });
        assert.equal((await readRegistration()).status, 200);
        // A browser signed in (a session cookie), to sign out while the database is gone.
        const codeClient = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: 'outage web', redirect_uris: ['http://127.0.0.1:9/cb'], scope: 'openid',
            grant_types: ['authorization_code'], token_endpoint_auth_method: 'none',
        });
        assert.equal(codeClient.status, 201, codeClient.text);
        const browser = new UserAgent();
        const authorize = new URL('/oauth2/authorize', b.serviceUrl);
        for (const [k, v] of Object.entries({
            response_type: 'code', client_id: codeClient.json.client_id, redirect_uri: 'http://127.0.0.1:9/cb',
            scope: 'openid', state: 'st', code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
            code_challenge_method: 'S256',
        })) authorize.searchParams.set(k, v);
        let step = await browser.fetch(authorize);
        assert.equal(step.location?.pathname, '/oauth2/login', step.text.slice(0, 300));
        const login = form((await browser.fetch(step.location)).text, 'login-form');
        step = await browser.fetch(new URL(login.action, b.serviceUrl),
                                   { method: 'POST', form: { ...login.fields, username: 'outage-user', password: 'outage-password-1' } });
        assert.equal(step.status, 303, step.text.slice(0, 300));
        assert.ok(browser.cookies.has('gh_session'), 'signed in');
        const device = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: 'outage device', token_endpoint_auth_method: 'none',
            grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
        });
        assert.equal(device.status, 201, device.text);
        const started = await request(`${b.serviceUrl}/oauth2/device_authorization`, 'POST',
                                      new URLSearchParams({ client_id: device.json.client_id }).toString(),
                                      { 'content-type': 'application/x-www-form-urlencoded' });
        assert.equal(started.status, 200, started.text);
        const poll = () => request(`${b.serviceUrl}/oauth2/token`, 'POST', new URLSearchParams({
            grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
            device_code: started.json.device_code, client_id: device.json.client_id,
        }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
        const order = () => serviceFetch(b, 'POST', `/v1/customers/${customerId}/orders`, {
            beerOrderLines: [{ upc, orderQuantity: 1 }],
            orderStatusCallbackUrl: `http://127.0.0.1:${receiver.address().port}/hooks`,
        });
        // Orders on their way through the lifecycle when the database goes.
        assert.equal((await adminFetch(b, 'POST', '/admin/v1/orders/lifecycle/hold')).status, 200);
        const acknowledged = [];
        for (let i = 0; i < 40; ++i) {
            const r = await order();
            assert.equal(r.status, 201, r.text);
            acknowledged.push(r.json.id);
        }
        await waitFor(() => acknowledged.every((id) => got.get(id)?.has('NEW')),
                      { message: 'the NEW callbacks' });
        // The lifecycle, released, waits for a lock on the orders; then the database refuses
        // every connection, and those open are ended (as a restart or a failover does): the
        // lifecycle's batch fails in the middle, and what comes after cannot begin.
        const locker = spawn('psql', [url, '-At', '-v', 'ON_ERROR_STOP=1'], { stdio: ['pipe', 'pipe', 'pipe'] });
        let lockerOut = '';
        locker.stdout.on('data', (c) => { lockerOut += c; });
        locker.stderr.on('data', (c) => { lockerOut += c; });
        locker.stdin.write('BEGIN;\nLOCK TABLE orders IN ACCESS EXCLUSIVE MODE;\nSELECT \'locked\';\n');
        await waitFor(() => lockerOut.includes('locked'), { message: 'the lock on the orders' });
        assert.equal((await adminFetch(b, 'POST', '/admin/v1/orders/lifecycle/release')).status, 200);
        await waitFor(() => psqlAt(POSTGRES_BASE, `SELECT count(*) FROM pg_stat_activity WHERE datname = '${name}' AND wait_event_type = 'Lock'`) !== '0',
                      { message: 'the lifecycle waiting for the lock' });
        psqlAt(POSTGRES_BASE, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        psqlAt(POSTGRES_BASE, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${name}'`);
        locker.stdin.end();
        // Meanwhile every answer says "try again", never a wrong "not found" or empty list.
        const unavailable = (r, what) => {
            assert.equal(r.status, 503, `${what} while the database is gone: ${r.status} ${r.text}`);
            assert.equal(r.headers['retry-after'], '1', what);
        };
        const refused = await order();
        unavailable(refused, 'an order');
        assert.equal(refused.json.type, 'urn:gatehouse:problem:database-unavailable', refused.text);
        const read = await serviceFetch(b, 'GET', `/v1/customers/${customerId}/orders/${acknowledged[0]}`);
        unavailable(read, 'an acknowledged order');
        assert.equal(read.json.type, 'urn:gatehouse:problem:database-unavailable', read.text);
        unavailable(await serviceFetch(b, 'GET', `/v1/customers/${customerId}/orders`), 'the customer\'s orders');
        unavailable(await serviceFetch(b, 'GET', '/v1/beers'), 'the beers');
        unavailable(await serviceFetch(b, 'GET', `/v1/beers/upc/${upc}`), 'a beer');
        unavailable(await adminFetch(b, 'GET', `/admin/v1/orders/${acknowledged[0]}`), 'an order (admin)');
        const token = await tokenFor(client);
        unavailable(token, 'a token');
        assert.equal(token.json.error, 'temporarily_unavailable', token.text);
        assert.equal(token.headers['cache-control'], 'no-store');
        // Registration: neither token is said to be invalid (their holders would drop them).
        const readBack = await readRegistration();
        unavailable(readBack, 'a registration read back');
        assert.equal(readBack.json.error, 'temporarily_unavailable', readBack.text);
        const dynamicRefused = await dynamicRegistration(spareIat);
        unavailable(dynamicRefused, 'a registration');
        assert.equal(dynamicRefused.json.error, 'temporarily_unavailable', dynamicRefused.text);
        // A token that cannot be read is not inactive (its holder would throw it away).
        const inspected = await introspect();
        unavailable(inspected, 'an introspection');
        assert.equal(inspected.json.error, 'temporarily_unavailable', inspected.text);
        // The admin API: lists are not empty, and a change whose checks cannot read what they
        // guard is refused, not let through.
        for (const path of ['/admin/v1/users', '/admin/v1/clients', '/admin/v1/initial-access-tokens']) {
            const listed = await adminFetch(b, 'GET', path);
            unavailable(listed, path);
            assert.equal(listed.json.error, 'database-unavailable', listed.text);
        }
        // A user that cannot be read is not one that does not exist (404). (A client is
        // answered from the cache every instance keeps current.)
        const one = await adminFetch(b, 'GET', `/admin/v1/users/${user.json.id}`);
        unavailable(one, 'a user');
        assert.equal(one.json.error, 'database-unavailable', one.text);
        const changed = await adminFetch(b, 'PUT', `/admin/v1/clients/${client.client_id}`,
                                         { client_name: 'changed in an outage', grant_types: ['client_credentials'] });
        unavailable(changed, 'a client change');
        assert.equal(changed.json.error, 'database-unavailable', changed.text);
        unavailable(await adminFetch(b, 'PATCH', `/admin/v1/users/${user.json.id}`, { name: 'Changed' }), 'a user change');
        unavailable(await adminFetch(b, 'POST', `/admin/v1/users/${user.json.id}/unlock`), 'an unlock');
        // A token minted for a client is not issued, and its client (whose scopes the area
        // checks guard) is not "no such client" (404) for a read that failed.
        const minted = await adminFetch(b, 'POST', '/admin/v1/tokens', { client_id: client.client_id });
        unavailable(minted, 'a token minted by an administrator');
        assert.ok(!minted.json.access_token, minted.text);
        // Signing out cannot be done, and is not pretended: no "Signed out", the cookie kept.
        const logout = await browser.fetch(new URL('/oauth2/logout', b.serviceUrl));
        assert.equal(logout.status, 503, logout.text.slice(0, 400));
        assert.equal(logout.headers.get('retry-after'), '1');
        assert.doesNotMatch(logout.text, /Signed out/);
        assert.ok(browser.cookies.has('gh_session'), 'the session cookie is kept');
        // A device code that cannot be read is not "unknown" (the device would give up).
        const polled = await poll();
        unavailable(polled, 'a device code poll');
        assert.equal(polled.json.error, 'temporarily_unavailable', polled.text);
        const linesBefore = logLines;
        const bytesBefore = logBytes;
        const cpuBefore = cpuSeconds();
        await sleep(4000);
        const cpu = cpuSeconds() - cpuBefore;
        const lines = logLines - linesBefore;
        // Every job and request tried the database at once and logged it: 32,000 lines and
        // more than a core a second (270 MB of log in 10 s).
        assert.ok(lines < 100 && logBytes - bytesBefore < 20_000,
                  `${lines} lines (${logBytes - bytesBefore} bytes) of log in 4 s of outage:\n${b.stderr.slice(-2000)}`);
        assert.ok(cpu < 1.5, `${cpu} s of CPU in 4 s of outage`);
        assert.equal(b.exited, null, 'the process runs on');
        assert.match(b.stderr + b.stdout, /the lifecycle waits for the database/);
        psqlAt(POSTGRES_BASE, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
        // Back: what was acknowledged finishes, each order with all five callbacks, and new
        // orders are taken.
        await waitFor(() => acknowledged.every((id) => got.get(id)?.size === 5),
                      { timeoutMs: 60_000, message: `every callback of the acknowledged orders; stderr:\n${b.stderr.slice(-3000)}` });
        const after = await order();
        assert.equal(after.status, 201, after.text);
        assert.equal((await tokenFor(client)).status, 200);
        assert.equal((await introspect()).json.active, true);
        assert.equal((await readRegistration()).status, 200);
        assert.equal((await dynamicRegistration(spareIat)).status, 201, 'the spare token was not spent');
        const signOut = await browser.fetch(new URL('/oauth2/logout', b.serviceUrl));
        assert.equal(signOut.status, 200, signOut.text.slice(0, 400));
        assert.ok(form(signOut.text, 'logout-form'), 'the session is still there to end');
        const listed = await adminFetch(b, 'GET', '/admin/v1/users');
        assert.ok(listed.json.items.some((u) => u.username === 'outage-user'), listed.text);
        const pending = await poll();
        assert.equal(pending.json?.error, 'authorization_pending', pending.text);
        const again = await serviceFetch(b, 'GET', `/v1/customers/${customerId}/orders/${acknowledged[0]}`);
        assert.equal(again.status, 200, again.text);
        assert.match(b.stderr + b.stdout, /answers again, after \d+ ms/);
        assert.match(b.stderr + b.stdout, /the lifecycle goes on/);
    } finally {
        psqlAt(POSTGRES_BASE, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(resolve));
    }
});

test('a database that reads but refuses writes (read-only, as a standby after a failover): a password sign-in is "try again", never "wrong password", and reads answer as before',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const name = new URL(url).pathname.slice(1);
    const b = await startBackend({ args: ['--database', url] });
    running.push(b);
    try {
        const password = `pw-${randomBytes(12).toString('base64url')}`;
        assert.equal((await adminFetch(b, 'POST', '/admin/v1/users', { username: 'ro-user', password })).status, 201);
        const c = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: 'legacy', grant_types: ['password'], scope: 'openid',
            token_endpoint_auth_method: 'client_secret_post' });
        assert.equal(c.status, 201, c.text);
        const signIn = (pw) => request(`${b.serviceUrl}/oauth2/token`, 'POST',
            new URLSearchParams({ grant_type: 'password', username: 'ro-user', password: pw, scope: 'openid',
                                  client_id: c.json.client_id, client_secret: c.json.client_secret }).toString(),
            { 'Content-Type': 'application/x-www-form-urlencoded' });
        assert.equal((await signIn(password)).status, 200);
        psqlAt(POSTGRES_BASE, `ALTER DATABASE ${name} SET default_transaction_read_only = on`);
        psqlAt(POSTGRES_BASE, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${name}'`);
        await waitFor(async () => (await serviceFetch(b, 'GET', '/v1/beers')).status === 200,
                      { message: 'reads answer on new connections' });
        const refused = await signIn(password);
        assert.equal(refused.status, 503, refused.text);
        assert.equal(refused.json.error, 'temporarily_unavailable', refused.text);
        assert.equal(refused.headers['retry-after'], '1');
        // A write refused is "try again" (503, as for a database out of reach), not a failed
        // write (500), nor taken for a name in use (it answered 409 admin-token-exists).
        for (const [path, body] of [['/admin/v1/admin-tokens', { name: 'ro-token', permissions: ['orders:read'] }],
                                    ['/admin/v1/users', { username: 'ro-other', password }]]) {
            const made = await adminFetch(b, 'POST', path, body);
            assert.equal(made.status, 503, `${path}: ${made.text}`);
            assert.equal(made.json.error, 'database-unavailable', made.text);
            assert.match(made.json.message, /accepts no writes at the moment \(read-only\)/, made.text);
            assert.equal(made.headers['retry-after'], '1', path);
        }
        // Nothing was counted against the user: back to writable, the password works at once.
        psqlAt(POSTGRES_BASE, `ALTER DATABASE ${name} SET default_transaction_read_only = off`);
        psqlAt(POSTGRES_BASE, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${name}'`);
        await waitFor(async () => (await signIn(password)).status === 200, { message: 'a sign-in once writable' });
        // (A connection ended by the server fails the one request that finds it so: 503.)
        let user;
        await waitFor(async () => (user = await adminFetch(b, 'GET', '/admin/v1/users/ro-user')).status === 200,
                      { message: 'the user read again' });
        assert.equal(user.json.failedSignIns, 0, user.text);
    } finally {
        psqlAt(POSTGRES_BASE, `ALTER DATABASE ${name} SET default_transaction_read_only = off`);
    }
});

test('delivery results have a writer of their own: while a transaction elsewhere holds the orders table, and the order placed meanwhile waits for it, an attempt\'s result is recorded; the order is answered once the lock goes',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const b = await startBackend({ args: ['--database', url, '--webhook-allow-loopback'] });
    running.push(b);
    const status = await adminFetch(b, 'GET', '/admin/v1/status');
    assert.deepEqual(Object.keys(status.json.resultWriter ?? {}).sort(), ['batches', 'jobs', 'queued'],
                     JSON.stringify(status.json));
    // A receiver that keeps its answer to the first callback until let go.
    let letGo;
    const held = new Promise((resolve) => { letGo = resolve; });
    const arrived = [];
    const receiver = http.createServer((req, res) => {
        req.resume();
        req.on('end', async () => {
            arrived.push(req.headers['webhook-id']);
            if (arrived.length === 1)
                await held;
            res.writeHead(204).end();
        });
    });
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const locker = spawn('psql', [url, '-At', '-v', 'ON_ERROR_STOP=1'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let lockerOut = '';
    locker.stdout.on('data', (c) => { lockerOut += c; });
    locker.stderr.on('data', (c) => { lockerOut += c; });
    try {
        // The lifecycle held: the first order makes its NEW delivery and nothing else.
        assert.equal((await adminFetch(b, 'POST', '/admin/v1/orders/lifecycle/hold')).status, 200);
        const customer = await adminFetch(b, 'POST', '/admin/v1/customers', { name: 'Results apart' });
        assert.equal(customer.status, 201, customer.text);
        const customerId = customer.json.customer.id;
        const beers = await serviceFetch(b, 'GET', '/v1/beers?pageSize=100');
        const upc = beers.json.content.find((x) => x.quantityOnHand >= 500).upc;
        const order = {
            beerOrderLines: [{ upc, orderQuantity: 1 }],
            orderStatusCallbackUrl: `http://127.0.0.1:${receiver.address().port}/hooks`,
        };
        const first = await serviceFetch(b, 'POST', `/v1/customers/${customerId}/orders`, order);
        assert.equal(first.status, 201, first.text);
        await waitFor(() => arrived.length === 1, { message: 'the first callback at the receiver' });
        const stateOfFirst = async () => {
            const r = await adminFetch(b, 'GET', `/admin/v1/deliveries?orderId=${first.json.id}&limit=10`);
            assert.equal(r.status, 200, r.text);
            assert.equal(r.json.items.length, 1, r.text);
            return r.json.items[0].state;
        };
        assert.equal(await stateOfFirst(), 'pending');

        // Another transaction holds the orders table: the second order's write waits for it,
        // and with it the orders' writer.
        locker.stdin.write("BEGIN;\nLOCK TABLE orders IN SHARE MODE;\nSELECT 'locked';\n");
        await waitFor(() => lockerOut.includes('locked'), { message: 'the lock (psql)' });
        let answered = null;
        const second = serviceFetch(b, 'POST', `/v1/customers/${customerId}/orders`, order)
            .then((r) => { answered = r; return r; });
        const waiting = () => Number(psqlAt(url, "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'orders' AND NOT l.granted"));
        await waitFor(() => waiting() >= 1, { message: 'the second order waiting for the lock' });

        // The first attempt's answer comes: its result is written while the orders wait.
        letGo();
        await waitFor(async () => (await stateOfFirst()) === 'succeeded',
                      { timeoutMs: 10_000, message: 'the result recorded while the orders\' writer waits' });
        assert.equal(answered, null, 'the second order is still waiting for the lock');
        assert.ok(waiting() >= 1);

        locker.stdin.end('COMMIT;\n');
        const r = await second;
        assert.equal(r.status, 201, r.text);
        assert.equal((await serviceFetch(b, 'GET', `/v1/customers/${customerId}/orders/${r.json.id}`)).json.orderStatus, 'NEW');
    } finally {
        letGo();
        if (locker.exitCode === null)
            locker.kill();
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(resolve));
    }
});

test('a row another instance changes is read again here within a second (clients, admin tokens, signing keys, live settings), also after the listening connection was lost',
     { skip }, async () => {
    // The other instance is psql here: what the feed hears are the database's own
    // notifications, whoever wrote the row.
    const { url, name, b, psql } = await oneInstance();
    const register = async (clientName) => {
        const r = await adminFetch(b, 'POST', '/admin/v1/clients', {
            client_name: clientName, grant_types: ['client_credentials'],
            token_endpoint_auth_method: 'client_secret_basic',
        });
        assert.equal(r.status, 201, r.text);
        return r.json;
    };
    const tokenFor = (c) => request(`${b.serviceUrl}/oauth2/token`, 'POST', 'grant_type=client_credentials', {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`,
    });
    const client = await register('changed elsewhere');
    assert.equal((await tokenFor(client)).status, 200); // read, and cached
    const made = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'reader', permissions: ['orders:read'] });
    assert.equal(made.status, 201, made.text);
    const asReader = () => request(`${b.adminUrl}/admin/v1/customers`, 'GET', undefined,
                                   { Authorization: `Bearer ${made.json.token}` });
    assert.equal((await asReader()).status, 200);
    const stream = await watchEvents(b.adminUrl, made.json.token);

    // Another writer rotates the client's secret away and deletes the admin token.
    psql(`UPDATE oauth_clients SET secret_hash = 'elsewhere' WHERE client_id = '${client.client_id}'`);
    psql(`DELETE FROM admin_tokens WHERE name = 'reader'`);
    await within(1000, async () => (await tokenFor(client)).status === 401, 'the client changed elsewhere is read again');
    await within(1000, async () => (await asReader()).status === 401, 'the admin token deleted elsewhere stops');
    // A flood of distinct announcements (any role that may connect may NOTIFY): the tables
    // read whole are read once per poll, not once per announcement (3,000 reloads of the
    // signing keys kept the change feed busy for minutes).
    const { readdirSync, readFileSync: readProc } = await import('node:fs');
    const feedCpu = () => {
        for (const t of readdirSync(`/proc/${b.pid}/task`)) {
            const stat = readProc(`/proc/${b.pid}/task/${t}/stat`, 'utf8');
            if (stat.includes('(change-feed)')) {
                const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
                return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, seconds
            }
        }
        throw new Error('no change-feed thread');
    };
    const cpuBefore = feedCpu();
    psql(`SELECT pg_notify('gatehouse_changes', t || ':' || g) FROM generate_series(1, 1000) g, `
         + `unnest(ARRAY['oauth_signing_keys', 'admin_tokens', 'cluster_state']) t`);
    await new Promise((r) => setTimeout(r, 1500));
    const spent = feedCpu() - cpuBefore;
    assert.ok(spent < 3, `the change feed spent ${spent} s of CPU on 3,000 announcements`);
    assert.equal((await adminFetch(b, 'GET', '/admin/v1/status')).status, 200);
    // Its event stream here ends with it (it ran on to the next keepalive, 15 s).
    await within(3000, async () => stream.ended, 'the event stream of the admin token deleted elsewhere ends');
    await stream.close();

    // Another instance rotates the RS256 key (what POST /admin/v1/signing-keys/rotate does
    // there): within a second this one signs with the key that was promoted.
    const keys = (await adminFetch(b, 'GET', '/admin/v1/signing-keys')).json.items;
    const active = keys.find((k) => k.alg === 'RS256' && k.state === 'active').kid;
    const next = keys.find((k) => k.alg === 'RS256' && k.state === 'next').kid;
    const signer = await register('signs after a rotation elsewhere');
    const kidOf = async () => jose.decodeProtectedHeader((await tokenFor(signer)).json.access_token).kid;
    assert.equal(await kidOf(), active);
    psql(`UPDATE oauth_signing_keys SET state = 'retired', retire_after = ${Date.now() + 86_400_000} WHERE kid = '${active}';
          UPDATE oauth_signing_keys SET state = 'active' WHERE kid = '${next}'`);
    await within(1000, async () => (await kidOf()) === next, 'the key promoted elsewhere signs here');
    const states = Object.fromEntries((await adminFetch(b, 'GET', '/admin/v1/signing-keys')).json.items.map((k) => [k.kid, k.state]));
    assert.equal(states[active], 'retired');
    assert.ok((await request(`${b.serviceUrl}/oauth2/jwks`, 'GET')).json.keys.some((k) => k.kid === active),
              'the retired key stays published');

    // Another instance turns anonymous cluster access off and narrows the scopes dynamic
    // registration may ask for (PUT /admin/v1/settings there): in force here within a second.
    const setting = async (key) => (await adminFetch(b, 'GET', '/admin/v1/settings')).json.items.find((i) => i.key === key).value;
    const anonymous = () => anonymousStatus(b);
    assert.equal(anonymous(), '200');
    psql(`INSERT INTO settings (key, value, updated_at) VALUES ('cluster.settings', '{"anonymousAuth":false}', 'elsewhere')
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    psql(`INSERT INTO settings (key, value, updated_at) VALUES ('config:oauth-registration-scopes', 'openid,email', 'elsewhere')
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    await within(1000, async () => anonymous() === '401', 'anonymous access turned off elsewhere');
    assert.equal(await setting('anonymous-auth'), 'false');
    await within(1000, async () => (await setting('oauth-registration-scopes')) === 'openid,email',
                 'the registration scopes narrowed elsewhere');

    // The listening connection ends (a database restart, an administrator), and a client is
    // deleted before it listens again: that notification is lost, so once it listens again
    // everything cached is read anew.
    const second = await register('deleted while not listening');
    assert.equal((await tokenFor(second)).status, 200);
    psql(`BEGIN; DELETE FROM oauth_clients WHERE client_id = '${second.client_id}';
          SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '${name}' AND query LIKE 'LISTEN%';
          COMMIT`);
    await waitFor(() => /listening for changes again/.test(b.stderr + b.stdout), { message: 'the feed listens again' });
    await within(1000, async () => (await tokenFor(second)).status === 401, 'a change made while not listening');
    // And changes are heard as before.
    const third = await register('after the loss');
    assert.equal((await tokenFor(third)).status, 200);
    psql(`DELETE FROM oauth_clients WHERE client_id = '${third.client_id}'`);
    await within(1000, async () => (await tokenFor(third)).status === 401, 'a change heard after the loss');
    // A restart ends every connection, also the one the changes are read on (idle, it looks
    // alive until a query fails); here it ends before the change commits, so the change is
    // read on that connection: a new one is opened for it, and an admin token deleted
    // meanwhile is refused within seconds (before, it stayed good until the table changed
    // once more).
    const scoped = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'deleted in a restart', permissions: ['orders:read'] });
    assert.equal(scoped.status, 201, scoped.text);
    const asScoped = () => request(`${b.adminUrl}/admin/v1/status`, 'GET', undefined, { Authorization: `Bearer ${scoped.json.token}` });
    assert.equal((await asScoped()).status, 200);
    psql(`BEGIN; DELETE FROM admin_tokens WHERE id = '${scoped.json.id}';
          SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid();
          COMMIT`);
    await within(3000, async () => (await asScoped()).status === 401, 'an admin token deleted in a restart');
    assert.ok(!(b.stderr + b.stdout).includes(second.client_secret));
});

test('a change made here is never undone by a read of another instance\'s change that began before it (settings, admin tokens, signing keys)',
     { skip }, async () => {
    // Another instance announces changes to every table without pause, so that this one reads
    // its caches again all the time, also while the administrator changes them here. A read
    // that began before a change made here and ended after it must not be applied over it:
    // settings switched back, a revoked admin token working again, a rotation undone.
    const url = createPostgresDatabase();
    const b = await startBackend({ args: ['--database', url] });
    running.push(b);
    const announcer = spawn('psql', [url, '-Atc', `DO $$ BEGIN FOR i IN 1..30000 LOOP
        PERFORM pg_notify('gatehouse_changes', 'settings:cluster.settings');
        PERFORM pg_notify('gatehouse_changes', 'admin_tokens:elsewhere');
        PERFORM pg_notify('gatehouse_changes', 'oauth_signing_keys:elsewhere');
        COMMIT; PERFORM pg_sleep(0.002); END LOOP; END $$`], { stdio: 'ignore' });
    const pause = (ms) => new Promise((r) => setTimeout(r, ms));
    // What the administrator sees must stay what was set, across more than one 50 ms read.
    const holds = async (check, message) => {
        for (let i = 0; i < 4; ++i) {
            assert.ok(await check(), `${message} (${i * 20} ms after)`);
            await pause(20);
        }
    };
    try {
        await pause(200);
        const plugins = [['NamespaceLifecycle', 'ServiceAccount'], ['NamespaceLifecycle', 'ServiceAccount', 'NodeRestriction']];
        for (let i = 0; i < 60; ++i) {
            const want = plugins[i % 2];
            const put = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { admissionPlugins: want });
            assert.equal(put.status, 200, put.text);
            await holds(async () => JSON.stringify((await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json.admissionPlugins) === JSON.stringify(want),
                        `round ${i}: the admission plugins just set`);
        }
        for (let i = 0; i < 10; ++i) {
            const made = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: `churn-${i}`, permissions: ['orders:read'] });
            assert.equal(made.status, 201, made.text);
            const use = async () => (await request(`${b.adminUrl}/admin/v1/customers`, 'GET', undefined,
                                                   { Authorization: `Bearer ${made.json.token}` })).status;
            await holds(async () => (await use()) === 200, `round ${i}: the admin token just created works`);
            const gone = await adminFetch(b, 'DELETE', `/admin/v1/admin-tokens/${made.json.id}`);
            assert.equal(gone.status, 204, gone.text);
            await holds(async () => (await use()) === 401, `round ${i}: the admin token just revoked stays revoked`);
        }
        for (let i = 0; i < 8; ++i) {
            const rotated = await adminFetch(b, 'POST', '/admin/v1/signing-keys/rotate', { alg: 'ES256' });
            assert.equal(rotated.status, 200, rotated.text);
            const active = rotated.json.items.find((k) => k.alg === 'ES256' && k.state === 'active').kid;
            await holds(async () => (await adminFetch(b, 'GET', '/admin/v1/signing-keys')).json.items
                .find((k) => k.alg === 'ES256' && k.state === 'active').kid === active,
                        `rotation ${i}: the key just promoted stays active`);
        }
        assert.equal(announcer.exitCode, null, 'changes were announced all along');
    } finally {
        announcer.kill();
    }
});

test('instances: every instance of the database is listed (status, gatehouse admin status) with its heartbeat, which one leads the periodic jobs, and those gone; the lead passes on',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const b = await startBackend({ args: ['--database', url] });
    running.push(b);
    const psql = (sql) => psqlAt(url, sql);
    const status = async () => (await adminFetch(b, 'GET', '/admin/v1/status')).json;
    let s = await status();
    const self = s.instances.find((i) => i.self);
    assert.ok(self, JSON.stringify(s.instances));
    assert.equal(self.id, s.processId);
    assert.match(self.id, /^[^/]+\/\d+\/[A-Za-z0-9_-]+$/);
    assert.equal(self.version, s.version);
    assert.equal(self.alive, true);
    assert.equal(self.leads, true);
    await waitFor(async () => (await status()).instances.find((i) => i.self).listeners.admin === b.adminUrl,
                  { message: 'the listeners written with the heartbeat' });
    assert.ok(Math.abs(Date.parse(self.heartbeatAt) - Date.now()) < 10_000, self.heartbeatAt);

    // Two more instances as their rows say: one beating, one gone two minutes ago.
    const now = Date.now();
    psql(`INSERT INTO gatehouse_instances (id, version, listeners, started_at, heartbeat_at) VALUES
          ('other-host/42/abc', '9.9.9', '{"admin":"https://10.0.0.2:9443"}', ${now - 60_000}, ${now}),
          ('gone-host/7/xyz', '0.9.0', '{"admin":"https://10.0.0.3:9443"}', ${now - 600_000}, ${now - 120_000})`);
    s = await status();
    assert.equal(s.instances.length, 3);
    const byId = Object.fromEntries(s.instances.map((i) => [i.id, i]));
    assert.deepEqual([byId['other-host/42/abc'].alive, byId['other-host/42/abc'].leads, byId['other-host/42/abc'].self],
                     [true, false, false]);
    assert.equal(byId['other-host/42/abc'].listeners.admin, 'https://10.0.0.2:9443');
    assert.equal(byId['gone-host/7/xyz'].alive, false);
    const cli = await run(binaryPath(), ['admin', 'status', '--data-dir', b.dataDir]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /instances:/);
    assert.ok(cli.stdout.includes(`${self.id}  ${s.version}  ${b.adminUrl}`), cli.stdout);
    assert.match(cli.stdout, new RegExp(`${self.id.replace(/[/]/g, '\\/')}.*\\(this one, leads the periodic jobs\\)`));
    assert.match(cli.stdout, /other-host\/42\/abc {2}9\.9\.9 {2}https:\/\/10\.0\.0\.2:9443 {2}heartbeat \S+\n/);
    assert.match(cli.stdout, /gone-host\/7\/xyz .*\(gone\)/);

    // The other instance holds the lead (this one's lapsed, say): this one stops leading at its
    // next heartbeat, and takes the lead back once the other's expired.
    psql(`UPDATE gatehouse_leader SET holder = 'other-host/42/abc', expires_at = ${Date.now() + 600_000}`);
    await waitFor(() => /no longer leads the periodic jobs/.test(b.stderr + b.stdout), { timeoutMs: 15_000, message: 'the lead lost' });
    s = await status();
    assert.equal(s.instances.find((i) => i.self).leads, false);
    assert.equal(s.instances.find((i) => i.id === 'other-host/42/abc').leads, true);
    psql(`UPDATE gatehouse_leader SET expires_at = ${Date.now() - 1}`);
    await waitFor(() => /leads the periodic jobs now/.test(b.stderr + b.stdout), { timeoutMs: 15_000, message: 'the lead taken back' });
    assert.equal((await status()).instances.find((i) => i.self).leads, true);

    // A stop removes this instance's row and gives the lead up.
    assert.equal(await b.stop(), 0, b.stderr);
    assert.equal(psql(`SELECT COUNT(*) FROM gatehouse_instances WHERE id = '${self.id}'`), '0');
    assert.equal(psql(`SELECT COUNT(*) FROM gatehouse_leader WHERE holder = '${self.id}'`), '0');
});

test('sign-in attempts per address are counted in the database: what another instance counted limits here',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const b = await startBackend({ args: ['--database', url] });
    running.push(b);
    const password = 'rate limited password';
    assert.equal((await adminFetch(b, 'POST', '/admin/v1/users', { username: 'rate.user', password })).status, 201);
    const c = await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'counted', grant_types: ['password'], token_endpoint_auth_method: 'client_secret_post' });
    assert.equal(c.status, 201, c.text);
    const attempt = () => request(`${b.serviceUrl}/oauth2/token`, 'POST', new URLSearchParams({
        grant_type: 'password', username: 'rate.user', password, client_id: c.json.client_id,
        client_secret: c.json.client_secret }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    const psql = (sql) => psqlAt(url, sql);
    const first = await attempt();
    assert.equal(first.status, 200, first.text);
    assert.equal(psql(`SELECT attempts FROM oauth_login_rate WHERE address = '127.0.0.1'`), '1');
    // Another instance counted 19 more attempts from this address in the same minute: the
    // 21st is refused here, with the wait until the window ends.
    psql(`UPDATE oauth_login_rate SET attempts = attempts + 19 WHERE address = '127.0.0.1'`);
    const limited = await attempt();
    assert.equal(limited.status, 429, limited.text);
    assert.match(limited.json.error_description, /too many sign-in attempts/);
    const wait = Number(limited.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
    // A window that ended starts again at one.
    psql(`UPDATE oauth_login_rate SET window_start = window_start - 60000 WHERE address = '127.0.0.1'`);
    assert.equal((await attempt()).status, 200);
    assert.equal(psql(`SELECT attempts FROM oauth_login_rate WHERE address = '127.0.0.1'`), '1');
});

test('another instance\'s change is never written back over: a live setting beside another one changed here, a client\'s or a user\'s narrowing beside a change here, and a change whose read failed is read again',
     { skip }, async () => {
    // psql stands in for the other instance; session_replication_role=replica keeps the
    // change from being announced, so this instance has not heard of it when it writes.
    const { url, name, b, psql } = await oneInstance();
    const quietly = (sql) => psql(`SET session_replication_role = replica; ${sql}`);
    const inBackground = (sql) => {
        const p = spawn('psql', [url, '-Atc', sql], { stdio: 'ignore' });
        return new Promise((resolve) => p.on('exit', resolve));
    };
    const anonymous = () => anonymousStatus(b);
    const stored = () => JSON.parse(psql(`SELECT value FROM settings WHERE key = 'cluster.settings'`) || '{}');

    // 1. Anonymous access turned off elsewhere, not heard yet; here another cluster setting
    //    changes (both ways to change one): the row keeps both, and once this instance reads
    //    its own change back, anonymous access is off here too.
    for (const [what, change] of [
        ['PUT /admin/v1/settings/oidc-group-mappings', () => adminFetch(b, 'PUT', '/admin/v1/settings/oidc-group-mappings', { value: 'devs=team-devs' })],
        ['PUT /admin/v1/cluster/settings', () => adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { oidcGroupMappings: ['ops=team-ops'] })]]) {
        const reset = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { anonymousAuth: true });
        assert.equal(reset.status, 200, reset.text);
        await within(1000, async () => anonymous() === '200', `${what}: anonymous access on again`);
        quietly(`UPDATE settings SET value = jsonb_set(value::jsonb, '{anonymousAuth}', 'false')::text WHERE key = 'cluster.settings'`);
        assert.equal(anonymous(), '200', `${what}: not heard here (the setup)`);
        const r = await change();
        assert.equal(r.status, 200, `${what}: ${r.text}`);
        const row = stored();
        assert.equal(row.anonymousAuth, false, `${what}: the other instance's change kept: ${JSON.stringify(row)}`);
        assert.ok(row.oidcGroupMappings.length === 1, `${what}: ${JSON.stringify(row)}`);
        await within(1000, async () => anonymous() === '401', `${what}: anonymous access off here too`);
    }

    // 2. A client's scope narrowed elsewhere while its cluster access changes here: the change
    //    here waits for the other transaction and keeps its narrowing.
    const client = (await adminFetch(b, 'POST', '/admin/v1/clients', {
        client_name: 'narrowed elsewhere', grant_types: ['client_credentials'], scope: 'orders:read orders:write' })).json;
    assert.ok(client.client_id);
    const narrowing = inBackground(`BEGIN;
        UPDATE oauth_clients SET record = replace(record, '"orders:read orders:write"', '"orders:read"') WHERE client_id = '${client.client_id}';
        SELECT pg_sleep(1.5); COMMIT`);
    await sleep(400);
    const access = await adminFetch(b, 'PUT', `/admin/v1/clients/${client.client_id}/cluster-access`, { allowed: true });
    assert.equal(access.status, 200, access.text);
    await narrowing;
    const record = JSON.parse(psql(`SELECT record FROM oauth_clients WHERE client_id = '${client.client_id}'`));
    assert.equal(record.scope, 'orders:read', 'the narrowing elsewhere is kept');
    assert.equal(record.cluster_access, true, JSON.stringify(record));

    // 3. The same for a user: a group taken away elsewhere while the e-mail changes here.
    const user = await adminFetch(b, 'POST', '/admin/v1/users', { username: 'grouped', password: 'a long enough password 1',
                                                                    groups: ['admins', 'dev'] });
    assert.equal(user.status, 201, user.text);
    const ungrouping = inBackground(`BEGIN; UPDATE oauth_users SET groups = '["dev"]' WHERE username = 'grouped';
        SELECT pg_sleep(1.5); COMMIT`);
    await sleep(400);
    const patched = await adminFetch(b, 'PATCH', '/admin/v1/users/grouped', { email: 'grouped@example.org' });
    assert.equal(patched.status, 200, patched.text);
    await ungrouping;
    assert.equal(psql(`SELECT groups FROM oauth_users WHERE username = 'grouped'`), '["dev"]', 'the group taken elsewhere stays taken');
    assert.equal(psql(`SELECT email FROM oauth_users WHERE username = 'grouped'`), 'grouped@example.org');

    // 4. An admin token deleted elsewhere; the read of the announcement fails (its connection
    //    ended while it waited for a lock): it is read again, and the token stops.
    const made = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'read again', permissions: ['orders:read'] });
    assert.equal(made.status, 201, made.text);
    const use = async () => (await request(`${b.adminUrl}/admin/v1/customers`, 'GET', undefined,
                                           { Authorization: `Bearer ${made.json.token}` })).status;
    assert.equal(await use(), 200);
    const holding = inBackground(`SET session_replication_role = replica; BEGIN;
        DELETE FROM admin_tokens WHERE id = '${made.json.id}';
        LOCK TABLE admin_tokens IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(2); COMMIT`);
    await sleep(300);
    psql(`SELECT pg_notify('gatehouse_changes', 'admin_tokens:elsewhere')`);
    await within(2000, async () => Number(psql(`SELECT count(*) FROM pg_stat_activity WHERE datname = '${name}'
        AND wait_event_type = 'Lock' AND query LIKE '%admin_tokens%'`)) > 0, 'the read waits for the lock');
    psql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'
          AND wait_event_type = 'Lock' AND query LIKE '%admin_tokens%'`);
    await holding;
    await within(5000, async () => (await use()) === 401, 'the admin token deleted elsewhere stops, its failed read read again');
});
