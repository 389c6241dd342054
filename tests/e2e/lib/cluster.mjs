// Helpers for the Kubernetes-compatible cluster API tests (cluster.test.mjs): issuing
// kubeconfigs through the admin API, running kubectl / curl / openssl / the Python client as
// child processes, and raw HTTPS requests with a client certificate.
//
//   const kc = await issueKubeconfig(b, { kind: 'user', name: 'alice', groups: ['devs'] });
//   const file = writeKubeconfig(dir, 'alice', kc.kubeconfig);
//   const r = await kubectl(['get', 'nodes'], { kubeconfig: file, cacheDir });
//   r.code; r.stdout; r.stderr;
//   const h = await kubeRequest(b, 'GET', '/api/v1/nodes/x', { creds: kc });
//   h.status; h.text; h.json; h.headers;

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import protobufjs from 'protobufjs';

import { adminFetch, TIMEOUT_MS } from './backend.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const KUBE_CLIENT_PY = join(HERE, '..', 'kube_client.py');
export const PYTHON = '/usr/bin/python3'; // Debian's, where python3-kubernetes lives

// The kubectl the tests speak to: kubectl 1.32, the version Gatehouse is measured against. The
// test command puts one into .tools/ when the machine's is older (Debian 12's
// kubernetes-client is 1.20: scripts/packages.sh, ensure_kubectl); otherwise the machine's.
export const KUBECTL_TOOLS = join(HERE, '..', '..', '..', '.tools', 'kubectl-v1.32.3', 'kubectl');
export function kubectlBinary() {
    if (existsSync(KUBECTL_TOOLS))
        return KUBECTL_TOOLS;
    return existsSync('/usr/bin/kubectl') ? '/usr/bin/kubectl' : 'kubectl';
}

const tempDirs = new Set();
process.on('exit', () => {
    if (process.env.GATEHOUSE_E2E_KEEP === '1')
        return;
    for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

// A temporary directory removed when the test process exits.
export function tempDir(prefix = 'gatehouse-cluster-') {
    const d = mkdtempSync(join(tmpdir(), prefix));
    tempDirs.add(d);
    return d;
}

/**
 * Runs `cmd args` with stdin closed (kubectl must never wait for a prompt), killing it after
 * `timeoutMs`. Resolves to {code, signal, stdout, stderr, timedOut}; never rejects for a
 * non-zero exit.
 */
export function run(cmd, args, { env = {}, timeoutMs = TIMEOUT_MS, cwd } = {}) {
    return new Promise((resolve, reject) => {
        const child = spawn(cmd, args, {
            cwd,
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        let timedOut = false;
        child.stdout.setEncoding('utf8');
        child.stderr.setEncoding('utf8');
        child.stdout.on('data', (c) => { stdout += c; });
        child.stderr.on('data', (c) => { stderr += c; });
        const timer = setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
        }, timeoutMs);
        child.on('error', (e) => {
            clearTimeout(timer);
            reject(new Error(`cannot run ${cmd}: ${e.message}`));
        });
        child.on('close', (code, signal) => {
            clearTimeout(timer);
            resolve({ code, signal, stdout, stderr, timedOut });
        });
    });
}

/**
 * kubectl with an explicit --kubeconfig and a private discovery cache (KUBECACHEDIR; the cache
 * is keyed by host:port, so one directory per backend). HOME also points into the cache
 * directory so nothing of the real ~/.kube is read or written.
 */
export function kubectl(args, { kubeconfig, cacheDir, timeoutMs = TIMEOUT_MS } = {}) {
    if (!kubeconfig || !cacheDir)
        throw new Error('kubectl() needs kubeconfig and cacheDir');
    return run(kubectlBinary(), ['--kubeconfig', kubeconfig, ...args], {
        env: { KUBECACHEDIR: cacheDir, HOME: cacheDir, KUBECONFIG: '' },
        timeoutMs,
    });
}

// curl, as a user would type it; resolves like run().
export function curl(args, { timeoutMs = TIMEOUT_MS } = {}) {
    return run('curl', args, { timeoutMs });
}

/**
 * kube_client.py KUBECONFIG ACTION ARGS... through Debian's python3. Resolves to the JSON the
 * script printed plus {exitCode, stderr}.
 */
export async function pyClient(kubeconfig, action, ...args) {
    const r = await run(PYTHON, [KUBE_CLIENT_PY, kubeconfig, action, ...args], { timeoutMs: TIMEOUT_MS });
    let out;
    try {
        out = JSON.parse(r.stdout);
    } catch {
        throw new Error(`kube_client.py ${action} printed no JSON (exit ${r.code}):\n` +
                        `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
    }
    return { ...out, exitCode: r.code, stderr: r.stderr };
}

// POST /admin/v1/cluster/kubeconfigs; throws unless 201. Resolves to the JSON answer.
export async function issueKubeconfig(b, body) {
    const r = await adminFetch(b, 'POST', '/admin/v1/cluster/kubeconfigs', body);
    if (r.status !== 201)
        throw new Error(`issuing a kubeconfig for ${JSON.stringify(body)} answered ${r.status}: ${r.text}`);
    return r.json;
}

// Writes a kubeconfig (mode 0600) into dir and returns its path.
export function writeKubeconfig(dir, name, text) {
    const path = join(dir, `${name}.kubeconfig`);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
}

// Writes the PEMs of an issued kubeconfig as ca.crt / NAME.crt / NAME.key (key 0600).
export function writePems(dir, name, issued) {
    const files = {
        ca: join(dir, `${name}-ca.crt`),
        certificate: join(dir, `${name}.crt`),
        key: join(dir, `${name}.key`),
    };
    writeFileSync(files.ca, issued.caPem);
    writeFileSync(files.certificate, issued.certificatePem);
    writeFileSync(files.key, issued.keyPem, { mode: 0o600 });
    return files;
}

// The cluster CA of a backend (<dataDir>/pki/ca.crt).
export function clusterCaPath(b) {
    return join(b.dataDir, 'pki', 'ca.crt');
}

export function clusterCa(b) {
    return readFileSync(clusterCaPath(b), 'utf8');
}

/**
 * One HTTPS request to the cluster listener. creds: {certificatePem, keyPem} (an issued
 * kubeconfig answer) or undefined for none. The CA is the backend's cluster CA. A string or
 * Buffer body is sent as is, any other body as JSON (Content-Type application/json unless
 * given). Resolves to {status, headers, text, json, raw} (raw: the body's bytes).
 */
export function kubeRequest(b, method, path, { creds, body, headers = {}, port, servername } = {}) {
    const h = { 'User-Agent': 'gatehouse-e2e/1', ...headers };
    let payload;
    if (body !== undefined) {
        payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
        if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type'))
            h['Content-Type'] = 'application/json';
        h['Content-Length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
        const req = https.request({
            host: '127.0.0.1',
            port: port ?? b.ports.cluster,
            method,
            path,
            headers: h,
            ca: clusterCa(b),
            cert: creds?.certificatePem,
            key: creds?.keyPem,
            servername,
            agent: false,
            timeout: TIMEOUT_MS,
        }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
                const raw = Buffer.concat(chunks);
                const text = raw.toString('utf8');
                let json;
                if (/json/i.test(res.headers['content-type'] ?? '')) {
                    try {
                        json = JSON.parse(text);
                    } catch {
                        json = undefined;
                    }
                }
                resolve({ status: res.statusCode, headers: res.headers, text, json, raw });
            });
            res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
        req.on('error', reject);
        if (payload !== undefined)
            req.write(payload);
        req.end();
    });
}

/**
 * An open watch on the cluster listener (a JSON-lines stream), with the credentials of
 * kubeRequest. Resolves once the answer's head is in, to {status, events, ended, close}:
 * events fills with each parsed line as it arrives; ended resolves when the server ends the
 * stream (to the events so far); close() ends it from this side.
 */
export function openWatch(b, path, { creds, headers = {} } = {}) {
    return new Promise((resolve, reject) => {
        const req = https.request({
            host: '127.0.0.1', port: b.ports.cluster, method: 'GET', path, agent: false,
            headers: { 'User-Agent': 'gatehouse-e2e/1', ...headers },
            ca: clusterCa(b), cert: creds?.certificatePem, key: creds?.keyPem,
        }, (res) => {
            const events = [];
            let rest = '';
            const ended = new Promise((done) => {
                res.on('data', (c) => {
                    rest += c.toString('utf8');
                    let nl;
                    while ((nl = rest.indexOf('\n')) >= 0) {
                        const line = rest.slice(0, nl);
                        rest = rest.slice(nl + 1);
                        if (line.trim())
                            events.push(JSON.parse(line));
                    }
                });
                res.on('end', () => done(events));
                res.on('error', () => done(events));
                res.on('close', () => done(events));
            });
            resolve({ status: res.statusCode, events, ended, close: () => req.destroy() });
        });
        req.on('error', reject);
        req.end();
    });
}

// The admin passthrough: ANY /admin/v1/cluster/k8s/<kube path> as cluster-admin.
export function adminKube(b, method, kubePath, body, headers = {}) {
    return adminFetch(b, method, `/admin/v1/cluster/k8s${kubePath}`, body, headers);
}

// The Status body kube writes: fields in the order kind, apiVersion, metadata, status, message,
// reason, details, code; `details` left out when undefined.
export function statusBody({ message, reason, details, code }) {
    const s = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason };
    if (details !== undefined)
        s.details = details;
    s.code = code;
    return s;
}

// Compact + "\n" (the normal form) and the 2-space indented form without a trailing newline
// (?pretty=true, or a curl / Wget / Mozilla User-Agent).
export const compact = (s) => `${JSON.stringify(s)}\n`;
export const pretty = (s) => JSON.stringify(s, null, 2);

/**
 * A self-signed certificate and key from a foreign CA (openssl req -x509), subject
 * /O=<org>/CN=<cn>. Resolves to {certificatePem, keyPem, certFile, keyFile}.
 */
export async function foreignCertificate(dir, cn = 'mallory', org = 'system:masters') {
    const keyFile = join(dir, `foreign-${cn}.key`);
    const certFile = join(dir, `foreign-${cn}.crt`);
    const r = await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256',
                                    '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1',
                                    '-subj', `/O=${org}/CN=${cn}`]);
    if (r.code !== 0)
        throw new Error(`openssl req -x509 failed: ${r.stderr}`);
    return { certificatePem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8'),
             certFile, keyFile };
}

// Kubernetes' protobuf wire format, for hand-made bodies: varint, a length-delimited field,
// and the "k8s\0" + runtime.Unknown envelope around an object's message.
export const protobuf = {
    varint(n) {
        const out = [];
        do {
            let byte = n % 128;
            n = Math.floor(n / 128);
            if (n > 0)
                byte |= 0x80;
            out.push(byte);
        } while (n > 0);
        return Buffer.from(out);
    },
    ld(field, contents) {
        const c = Buffer.isBuffer(contents) ? contents : Buffer.from(contents, 'utf8');
        return Buffer.concat([protobuf.varint(field * 8 + 2), protobuf.varint(c.length), c]);
    },
    envelope(apiVersion, kind, raw) {
        return Buffer.concat([Buffer.from('k8s\0', 'latin1'),
                              protobuf.ld(1, Buffer.concat([protobuf.ld(1, apiVersion), protobuf.ld(2, kind)])),
                              protobuf.ld(2, raw)]);
    },
    contentType: 'application/vnd.kubernetes.protobuf',
};

// Kubernetes' own messages (the .proto files the backend is built from), read by protobufjs: a
// decoder that is not the backend's, for what the backend writes.
let k8sProtoRoot;
export function k8sProto() {
    if (!k8sProtoRoot) {
        const dir = join(HERE, '..', '..', '..', 'backend', 'cluster', 'proto');
        const root = new protobufjs.Root();
        root.resolvePath = (origin, target) => join(dir, target.replace(/^.*?(k8s\.io\/)/, '$1'));
        root.loadSync(['k8s.io/api/core/v1/generated.proto', 'k8s.io/api/rbac/v1/generated.proto',
                       'k8s.io/api/events/v1/generated.proto',
                       'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto',
                       'k8s.io/apimachinery/pkg/runtime/generated.proto'], { keepCase: true });
        k8sProtoRoot = root;
    }
    return k8sProtoRoot;
}

// A "k8s\0" + runtime.Unknown body: { apiVersion, kind, object } with the object decoded as its
// message (messageNames: { Kind: 'k8s.io.api.core.v1.Kind' }).
export function decodeK8sBody(buf, messageNames) {
    if (buf.subarray(0, 4).toString('latin1') !== 'k8s\0')
        throw new Error(`no k8s\\0 magic: ${buf.subarray(0, 8).toString('hex')}`);
    const root = k8sProto();
    const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(buf.subarray(4));
    const { apiVersion, kind } = unknown.typeMeta;
    const name = messageNames[kind];
    if (!name)
        throw new Error(`unexpected kind ${kind} (${apiVersion})`);
    const type = root.lookupType(name);
    return { apiVersion, kind, object: type.toObject(type.decode(unknown.raw), { defaults: false }) };
}

// The frames of a protobuf watch stream (application/vnd.kubernetes.protobuf;stream=watch):
// a 4-byte big-endian length, then a meta.v1.WatchEvent whose object.raw is a protobuf body.
export function decodeWatchFrames(raw, messageNames) {
    const root = k8sProto();
    const watchEvent = root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent');
    const events = [];
    for (let at = 0; at < raw.length;) {
        if (at + 4 > raw.length)
            throw new Error(`a truncated frame length at ${at}`);
        const n = raw.readUInt32BE(at);
        if (at + 4 + n > raw.length)
            throw new Error(`a truncated frame at ${at}: ${n} bytes announced, ${raw.length - at - 4} there`);
        const e = watchEvent.decode(raw.subarray(at + 4, at + 4 + n));
        events.push({ type: e.type, ...decodeK8sBody(Buffer.from(e.object.raw), messageNames) });
        at += 4 + n;
    }
    return events;
}
