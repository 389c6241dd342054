// Gatehouse on PostgreSQL (docs/storage.md), end to end: choosing the database, what is shown
// of its URL, restarts on it, one instance per database, and a database that cannot be used.
// The service-level suites themselves run on PostgreSQL as e2e_postgres_* (same files, with
// GATEHOUSE_TEST_POSTGRES set). Needs GATEHOUSE_TEST_POSTGRES (ctest's postgres fixture).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import {
    POSTGRES_BASE, adminFetch, binaryPath, createPostgresDatabase, request, serviceFetch,
    startBackend, waitFor,
} from './lib/backend.mjs';
import { run, tempDir } from './lib/cluster.mjs';

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

test('a second instance on the same database is refused and the first keeps serving; once it stops, another may start',
     { skip }, async () => {
    const url = createPostgresDatabase();
    const first = await startBackend({ args: ['--database', url] });
    const dir = tempDir('gatehouse-pg-second-');
    const second = await run(binaryPath(), [
        '--headless', '--data-dir', dir, '--database', withPassword(url),
        '--service-port', '0', '--cluster-port', '0', '--admin-port', '0',
    ]);
    assert.notEqual(second.code, 0);
    assert.match(second.stderr, /another Gatehouse instance uses the database postgresql:\/\/gatehouse@/);
    assert.ok(!second.stderr.includes('hunter2-secret'));
    assert.equal((await serviceFetch(first, 'GET', '/v1/beers')).status, 200);
    assert.equal(await first.stop(), 0);
    // Another data directory holds another database-key: the sealed secrets do not open (the
    // webhook secrets, checked first at start; then the signing keys).
    const stranger = await run(binaryPath(), [
        '--headless', '--data-dir', tempDir('gatehouse-pg-stranger-'), '--database', url,
        '--service-port', '0', '--cluster-port', '0', '--admin-port', '0',
    ]);
    assert.notEqual(stranger.code, 0);
    assert.match(stranger.stderr, /a webhook secret of customer [0-9a-f-]{36} cannot be read: a sealed value does not open with the database key.*Start with the database key that sealed it/s);
    // Another data directory with the first one's key as --database-key-file (how instances
    // of one database share it): the sealed secrets open, it starts and makes no key of its own.
    const keyFile = join(tempDir('gatehouse-pg-key-'), 'shared-key');
    copyFileSync(join(first.dataDir, 'database-key'), keyFile);
    chmodSync(keyFile, 0o600);
    const third = await startBackend({ args: ['--database', url, '--database-key-file', keyFile] });
    running.push(third);
    assert.equal((await serviceFetch(third, 'GET', '/v1/beers')).status, 200);
    assert.ok(!existsSync(join(third.dataDir, 'database-key')));
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

test('connections the server ends (a restart, an administrator) are opened again: writes go on, the claim on the database holds',
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
    const ended = spawnSync('psql', [POSTGRES_BASE, '-Atc',
        `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${name}'`],
    { encoding: 'utf8' });
    assert.equal(ended.status, 0, ended.stderr);
    assert.ok(Number(ended.stdout.trim()) >= 2, `ended ${ended.stdout}`); // the writer's, the claim's, ...
    // The writer notices at its next BEGIN and opens a new connection: no write fails.
    const after = await register('after');
    assert.equal(after.status, 201, JSON.stringify(after.json));
    // A reader thread notices on its next query (that one answers 500) and reconnects.
    await waitFor(async () => (await adminFetch(b, 'GET', `/admin/v1/clients/${after.json.client_id}`)).status === 200,
                  { message: `the client read back; stderr:\n${b.stderr.slice(-3000)}` });
    assert.match(b.stderr + b.stdout, /was lost/);
    // Within 5 s the claim is made again: a second instance is still refused.
    await waitFor(() => /claiming the database again/.test(b.stderr + b.stdout),
                  { message: 'the claim made again' });
    const second = await run(binaryPath(), [
        '--headless', '--data-dir', tempDir('gatehouse-pg-second-'), '--database', url,
        '--service-port', '0', '--cluster-port', '0', '--admin-port', '0',
    ]);
    assert.notEqual(second.code, 0);
    assert.match(second.stderr, /another Gatehouse instance uses the database/);
    assert.equal((await serviceFetch(b, 'GET', '/v1/beers')).status, 200);
});
