// Starts the real `gatehouse --headless` binary on ephemeral ports and talks to it over HTTP.
// Shared by the e2e tests (openapi.test.mjs, webhooks.test.mjs).
//
//   const b = await startBackend({ args: ['--webhook-allow-loopback'] });
//   const r = await serviceFetch(b, 'GET', '/v1/beers');
//   await b.stop();                       // SIGTERM, resolves to the exit code
//   const again = await startBackend({ dataDir: b.dataDir });   // restart on the same data
//
// The binary is process.env.GATEHOUSE_BINARY (CTest sets it to $<TARGET_FILE:gatehouse>).

import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
    cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync,
    utimesSync, writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// The one upper bound for every wait in the e2e tests (the same variable as the C++ and QML
// suites, tests/helpers/testtimeouts.h): GATEHOUSE_TEST_TIMEOUT_MS, 60 s by default. A wait
// ends as soon as its condition holds; only a real hang reaches the bound.
export const TIMEOUT_MS = (() => {
    const ms = Number.parseInt(process.env.GATEHOUSE_TEST_TIMEOUT_MS ?? '', 10);
    return Number.isFinite(ms) && ms > 0 ? ms : 60_000;
})();

const POLL_MS = 50;
const START_TIMEOUT_MS = TIMEOUT_MS;
const STOP_TIMEOUT_MS = TIMEOUT_MS;
const STDERR_KEEP_BYTES = 1024 * 1024; // a whole sanitizer report

const createdDirs = new Set();
const running = new Set();

// Whatever happens to the test process, no backend outlives it and no temporary data
// directory is left behind (GATEHOUSE_E2E_KEEP=1 keeps them for a post-mortem).
process.on('exit', () => {
    for (const proc of running) {
        try {
            proc.kill('SIGKILL');
        } catch {
            // already gone
        }
    }
    if (process.env.GATEHOUSE_E2E_KEEP === '1') {
        for (const dir of createdDirs) process.stderr.write(`kept data dir ${dir}\n`);
        return;
    }
    for (const dir of createdDirs) rmSync(dir, { recursive: true, force: true });
});

export function binaryPath() {
    const bin = process.env.GATEHOUSE_BINARY;
    if (!bin)
        throw new Error('GATEHOUSE_BINARY is not set: the path of the built gatehouse executable');
    return bin;
}

// GATEHOUSE_TEST_POSTGRES (the URL of a server's maintenance database, as
// tests/postgres/server.sh writes it: postgresql:///postgres?host=<socket dir>&user=..., or the
// file it wrote it to) runs every backend on PostgreSQL: each new data directory gets a
// database of its own, created here, and a restart on the same directory finds it again
// (<dir>/postgres-database). Unset: SQLite, the default.
export const POSTGRES_BASE = (() => {
    const v = process.env.GATEHOUSE_TEST_POSTGRES || '';
    return !v || v.startsWith('postgres') ? v : readFileSync(v, 'utf8').trim();
})();

// A new database (a copy of `template`, a database's name, when given).
export function createPostgresDatabase(name = `e2e_${randomBytes(8).toString('hex')}`, template = '') {
    const argv = ['--maintenance-db', POSTGRES_BASE, ...(template ? ['--template', template] : []), name];
    let r;
    // Two copies of one template at the same moment can collide ("being accessed by other
    // users"): again, shortly after.
    for (let attempt = 0; attempt < 20; ++attempt) {
        r = spawnSync('createdb', argv, { encoding: 'utf8' });
        if (r.status === 0 || !template || !/accessed by other users/.test(r.stderr ?? ''))
            break;
        spawnSync('sleep', ['0.1']);
    }
    if (r.status !== 0)
        throw new Error(`createdb ${name} failed: ${r.error?.message ?? ''}${r.stderr}`);
    const u = new URL(POSTGRES_BASE);
    u.pathname = `/${name}`;
    return u.toString();
}

function postgresArgs(dataDir, args, env) {
    if (!POSTGRES_BASE || args.includes('--database') || env.GATEHOUSE_DATABASE)
        return [];
    const file = join(dataDir, 'postgres-database');
    if (!existsSync(file))
        writeFileSync(file, createPostgresDatabase());
    return ['--database', readFileSync(file, 'utf8').trim()];
}

// A new data directory starts as a copy of one that a backend of the same binary (and the
// same PostgreSQL server) already started on and stopped cleanly: its migrations applied, its
// signing keys, cluster CA and bootstrap objects made. A first start under the sanitizers costs
// about 1.1 CPU-s (two RSA-2048 keys are half of it), a start on a copy about 0.35; the suite
// starts well over a hundred on new directories. Made once per build and engine (under the
// binary's folder, e2e-templates/), by whichever test process gets there first.
// Not for what a first start itself decides: `fresh: true`, a data directory of the test's own,
// --demo, a database or database key named by the test (args or env), or GATEHOUSE_E2E_FRESH=1
// (every backend on a new directory starts from nothing, as before).
const TEMPLATE_LEFT_OUT = new Set(['ports.json', 'gatehouse.lock', 'postgres-database']);

function templateWanted({ fresh, args, env }) {
    if (fresh || process.env.GATEHOUSE_E2E_FRESH === '1')
        return false;
    if (args.some((a) => /^--(demo|database|database-key-file|config)(=|$)/.test(a)))
        return false;
    return !['GATEHOUSE_DATABASE', 'GATEHOUSE_DEMO', 'GATEHOUSE_DATABASE_KEY_FILE', 'GATEHOUSE_CONFIG']
        .some((k) => env[k] !== undefined && env[k] !== null);
}

let templateMade = null; // this process's: a promise of the template's directory

function template() {
    // A failure is not remembered: the next backend tries again.
    templateMade ??= makeTemplate().catch((e) => {
        templateMade = null;
        throw e;
    });
    return templateMade;
}

async function makeTemplate() {
    const bin = binaryPath();
    const st = statSync(bin);
    const key = createHash('sha256')
        .update(`${bin}\n${st.size}\n${st.mtimeMs}\n${POSTGRES_BASE}`).digest('hex').slice(0, 16);
    const root = join(dirname(bin), 'e2e-templates');
    const dir = join(root, key);
    if (existsSync(join(dir, 'admin-token'))) {
        const now = new Date();
        utimesSync(dir, now, now); // in use: not pruned (below) by a test process of another engine
    } else {
        mkdirSync(root, { recursive: true, mode: 0o700 });
        // Those of earlier builds (or PostgreSQL servers) go after a day.
        for (const old of readdirSync(root)) {
            const path = join(root, old);
            try {
                if (Date.now() - statSync(path).mtimeMs > 86_400_000)
                    rmSync(path, { recursive: true, force: true });
            } catch {
                // renamed or removed by another test process meanwhile
            }
        }
        const making = mkdtempSync(join(root, 'making-'));
        try {
            const b = await startBackend({ dataDir: making, fresh: true });
            const code = await b.stop();
            if (code !== 0)
                throw new Error(`the template backend exited with ${code}:\n${b.stderr}`);
            for (const f of ['ports.json', 'gatehouse.lock'])
                rmSync(join(making, f), { force: true });
            try {
                renameSync(making, dir); // complete, or not there at all
            } catch (e) {
                if (!existsSync(join(dir, 'admin-token')))
                    throw e;
                // Another test process made it first: theirs.
            }
        } finally {
            rmSync(making, { recursive: true, force: true });
        }
    }
    return dir;
}

async function fromTemplate(dataDir) {
    const from = await template();
    cpSync(from, dataDir, {
        recursive: true,
        filter: (src) => src === from || !TEMPLATE_LEFT_OUT.has(src.slice(from.length + 1)),
    });
    if (POSTGRES_BASE) {
        const name = new URL(readFileSync(join(from, 'postgres-database'), 'utf8').trim()).pathname.slice(1);
        writeFileSync(join(dataDir, 'postgres-database'),
                      createPostgresDatabase(undefined, decodeURIComponent(name)));
    }
}

function readJsonIfExists(path) {
    try {
        return JSON.parse(readFileSync(path, 'utf8'));
    } catch {
        return null; // absent, or not completely written yet
    }
}

/**
 * Spawns `gatehouse --headless --data-dir <dir> --service-port 0 --cluster-port 0
 * --admin-port 0 ...args` and waits until it wrote <dir>/ports.json with its own pid.
 *
 * @param {{dataDir?: string, args?: string[], env?: Record<string, string>, fresh?: boolean}} [options]
 *   dataDir: reuse a directory (e.g. to restart after stop()/kill9()); default: a new
 *   temporary directory, removed when the test process exits, as a copy of the template
 *   (above) unless `fresh` (a first start from nothing).
 *   args: extra command-line arguments. env: extra environment variables (null removes one).
 *   Password hashes are made at OWASP's least argon2id cost (19 MiB, 2 passes) instead of the
 *   default 64 MiB with 3, a fifth of the CPU: argon2id was a third of the attack suite's
 *   (GATEHOUSE_PASSWORD_HASH_MEMORY/ITERATIONS; env: {...: null} keeps Gatehouse's default).
 * @returns {Promise<Backend>}
 */
export async function startBackend({ dataDir, args = [], env = {}, fresh = false } = {}) {
    const bin = binaryPath();
    if (!dataDir) {
        dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'));
        createdDirs.add(dataDir);
        if (templateWanted({ fresh, args, env }))
            await fromTemplate(dataDir);
    }
    const portsFile = join(dataDir, 'ports.json');
    const argv = [
        '--headless', '--data-dir', dataDir,
        '--service-port', '0', '--cluster-port', '0', '--admin-port', '0',
        ...postgresArgs(dataDir, args, env),
        ...args,
    ];
    const procEnv = {
        ...process.env,
        QT_LOGGING_RULES: 'gatehouse.access=false',
        GATEHOUSE_PASSWORD_HASH_MEMORY: '19456',
        GATEHOUSE_PASSWORD_HASH_ITERATIONS: '2',
        ...env,
    };
    for (const [k, v] of Object.entries(procEnv))
        if (v === null || v === undefined)
            delete procEnv[k];
    const proc = spawn(bin, argv, { env: procEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(proc);

    let stderr = '';
    let stdout = '';
    const keep = (buf, chunk) => (buf + chunk).slice(-STDERR_KEEP_BYTES);
    proc.stderr.setEncoding('utf8');
    proc.stdout.setEncoding('utf8');
    proc.stderr.on('data', (c) => { stderr = keep(stderr, c); });
    proc.stdout.on('data', (c) => { stdout = keep(stdout, c); });

    let exit = null; // {code, signal} once the process is gone
    const exited = new Promise((resolve) => {
        proc.on('exit', (code, signal) => {
            exit = { code, signal };
            running.delete(proc);
            resolve(exit);
        });
    });
    let spawnError = null;
    proc.on('error', (e) => { spawnError = e; });

    const deadline = Date.now() + START_TIMEOUT_MS;
    let ports = null;
    for (;;) {
        if (spawnError)
            throw new Error(`cannot start ${bin}: ${spawnError.message}`);
        const p = readJsonIfExists(portsFile);
        if (p && p.pid === proc.pid) {
            ports = p;
            break;
        }
        if (exit) {
            throw new Error(`${bin} exited (code ${exit.code}, signal ${exit.signal}) before ` +
                            `writing ${portsFile}; stderr:\n${stderr}`);
        }
        if (Date.now() > deadline) {
            proc.kill('SIGKILL');
            await exited;
            throw new Error(`${bin} did not write ${portsFile} within ${START_TIMEOUT_MS} ms; ` +
                            `stderr:\n${stderr}`);
        }
        await sleep(POLL_MS);
    }

    const adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const urls = ports.urls ?? {};

    /** @type {Backend} */
    const backend = {
        proc,
        pid: proc.pid,
        dataDir,
        ports: {
            service: ports.service,
            cluster: ports.cluster,
            admin: ports.admin,
        },
        urls,
        serviceUrl: urls.service,
        clusterUrl: urls.cluster,
        adminUrl: urls.admin,
        adminToken,
        get stderr() { return stderr; },
        get stdout() { return stdout; },
        get exited() { return exit; },
        // Sends `signal` and resolves to the exit code (128 + signal number when the process
        // died of a signal). Rejects, after a SIGKILL, if it does not stop within TIMEOUT_MS.
        async stop(signal = 'SIGTERM') {
            if (!exit) {
                proc.kill(signal);
                // ref: false: a pending timer must not keep the test process alive.
                const timer = sleep(STOP_TIMEOUT_MS, 'timeout', { ref: false });
                if ((await Promise.race([exited, timer])) === 'timeout') {
                    proc.kill('SIGKILL');
                    await exited;
                    throw new Error(`gatehouse did not stop within ${STOP_TIMEOUT_MS} ms after ` +
                                    `${signal}; stderr:\n${stderr}`);
                }
            }
            return exitCode(await exited);
        },
        // Crash: SIGKILL, no chance to clean up. Resolves once the process is gone.
        async kill9() {
            if (!exit)
                proc.kill('SIGKILL');
            return exitCode(await exited);
        },
    };
    return backend;
}

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGTERM: 15 };

function exitCode({ code, signal }) {
    if (code !== null)
        return code;
    return 128 + (SIGNALS[signal] ?? 0);
}

function headersObject(headers) {
    const out = {};
    for (const [name, value] of headers) out[name.toLowerCase()] = value;
    return out;
}

/**
 * One HTTP request. A string or Buffer body is sent as is (e.g. malformed JSON); any other
 * non-undefined body is sent as JSON. Content-Type defaults to application/json when a body is
 * given. Resolves to {status, headers (lower-case names), json (parsed body when the
 * Content-Type says JSON and it parses; else undefined), text}.
 */
// An HTTP request from `localAddress` (127.0.0.2, ...: another client address on loopback, for
// per-address limits), without keep-alive; resolves to {status, headers, text}.
export function fromAddress(localAddress, url, { method = 'GET', headers = {}, body } = {}) {
    return new Promise((resolve, reject) => {
        const req = httpRequest(url, { method, headers, localAddress, agent: false, timeout: TIMEOUT_MS }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => { text += c; });
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
        });
        req.on('error', reject);
        req.end(body);
    });
}

export async function request(url, method, body, headers = {}) {
    const h = { ...headers };
    let payload;
    if (body !== undefined) {
        payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
        if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type'))
            h['Content-Type'] = 'application/json';
    }
    const res = await fetch(url, { method, headers: h, body: payload, redirect: 'manual' });
    const text = await res.text();
    const hs = headersObject(res.headers);
    let json;
    if (text.length > 0 && /json/i.test(hs['content-type'] ?? '')) {
        try {
            json = JSON.parse(text);
        } catch {
            json = undefined;
        }
    }
    return { status: res.status, headers: hs, json, text };
}

// A request to the service listener, e.g. serviceFetch(b, 'GET', '/v1/beers').
export function serviceFetch(b, method, path, body, headers = {}) {
    return request(b.serviceUrl + path, method, body, headers);
}

// A request to the admin listener with the admin token,
// e.g. adminFetch(b, 'POST', '/admin/v1/customers', {name: 'e2e'}).
export function adminFetch(b, method, path, body, headers = {}) {
    return request(b.adminUrl + path, method, body,
                   { Authorization: `Bearer ${b.adminToken}`, ...headers });
}

// Polls `fn` (sync or async) every `intervalMs` until it returns a truthy value, which it
// resolves to; rejects with `message` after `timeoutMs` (TIMEOUT_MS unless given).
export async function waitFor(fn, { timeoutMs = TIMEOUT_MS, intervalMs = POLL_MS,
                                    message = 'condition' } = {}) {
    const deadline = Date.now() + timeoutMs;
    let last;
    for (;;) {
        last = await fn();
        if (last)
            return last;
        if (Date.now() > deadline)
            throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}`);
        await sleep(intervalMs);
    }
}

/**
 * @typedef {object} Backend
 * @property {import('node:child_process').ChildProcess} proc
 * @property {number} pid
 * @property {string} dataDir
 * @property {{service: number, cluster: number, admin: number}} ports
 * @property {{service: string, cluster: string, admin: string}} urls
 * @property {string} serviceUrl  e.g. http://127.0.0.1:41234 (no trailing slash)
 * @property {string} clusterUrl  https://...
 * @property {string} adminUrl
 * @property {string} adminToken
 * @property {string} stderr      the last 64 KiB the process wrote to stderr
 * @property {string} stdout
 * @property {{code: number|null, signal: string|null}|null} exited
 * @property {(signal?: string) => Promise<number>} stop
 * @property {() => Promise<number>} kill9
 */

// What the admin event stream (SSE) holds from the start, read for `ms` milliseconds.
export async function readEvents(backend, ms) {
    const ac = new AbortController();
    const res = await fetch(`${backend.adminUrl}/admin/v1/events?since=0`,
                            { headers: { Authorization: `Bearer ${backend.adminToken}` }, signal: ac.signal });
    if (res.status !== 200)
        throw new Error(`the event stream answered ${res.status}`);
    const timer = setTimeout(() => ac.abort(), ms);
    let text = '';
    const decoder = new TextDecoder();
    try {
        for await (const chunk of res.body) text += decoder.decode(chunk, { stream: true });
    } catch (e) {
        if (e.name !== 'AbortError')
            throw e;
    } finally {
        clearTimeout(timer);
    }
    return [...text.matchAll(/^event: (.*)\ndata: (.*)$/gm)].map((m) => ({ type: m[1], data: JSON.parse(m[2]), raw: m[0] }));
}

// Watches an admin event stream (SSE) from now on: {events (each {type, data, instance, seq},
// growing as they come), ended (the server ended the stream), close()}. Resolves once the
// stream answered 200.
export async function watchEvents(adminUrl, token) {
    const ac = new AbortController();
    const res = await fetch(`${adminUrl}/admin/v1/events`,
                            { headers: { Authorization: `Bearer ${token}` }, signal: ac.signal });
    if (res.status !== 200)
        throw new Error(`the event stream answered ${res.status}`);
    const events = [];
    const decoder = new TextDecoder();
    let text = '';
    let ended = false;
    const reading = (async () => {
        try {
            for await (const chunk of res.body) {
                text += decoder.decode(chunk, { stream: true });
                let end;
                while ((end = text.indexOf('\n\n')) >= 0) {
                    const frame = text.slice(0, end);
                    text = text.slice(end + 2);
                    const data = /^data: (.*)$/m.exec(frame);
                    if (data)
                        events.push(JSON.parse(data[1]));
                }
            }
            ended = true;
        } catch (e) {
            if (e.name !== 'AbortError')
                throw e;
        }
    })();
    return { events, get ended() { return ended; }, close: async () => { ac.abort(); await reading; } };
}
