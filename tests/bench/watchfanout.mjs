// Watch fan-out (issue 29): N watchers on one node over mTLS while another connection changes
// that node's labels as fast as the server takes them for a while; counts the events every
// watcher received and samples the server's resident memory before, during and after.
//
//   node tests/bench/watchfanout.mjs --port P --ca CA --cert CRT --key KEY --pid PID
//        [--watchers 100] [--seconds 10]
//
// Prints one JSON object: watchers, changes, changesPerSecond, delivered, expected,
// deliveredRatio (1 = every change reached every watcher), closedEarly (watchers ended by the
// server: fell behind), rssBeforeMiB, rssPeakMiB, rssAfterMiB.
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({
    options: {
        port: { type: 'string' }, ca: { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' },
        pid: { type: 'string' }, watchers: { type: 'string', default: '100' }, seconds: { type: 'string', default: '10' },
    },
});
const tlsOptions = { ca: readFileSync(a.ca), cert: readFileSync(a.cert), key: readFileSync(a.key) };
const agent = new https.Agent({ ...tlsOptions, keepAlive: true, maxSockets: 4 });

function rssMiB() {
    const status = readFileSync(`/proc/${a.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

function request(method, path, body) {
    return new Promise((resolve, reject) => {
        const req = https.request({ host: '127.0.0.1', port: Number(a.port), method, path, agent,
                                    headers: body ? { 'Content-Type': 'application/merge-patch+json' } : {} }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
        });
        req.on('error', reject);
        req.end(body);
    });
}

const node = JSON.parse((await request('GET', '/api/v1/nodes/node-1')).text);
const since = node.metadata.resourceVersion;
const counts = [];
let closedEarly = 0;
let stopping = false;
const streams = [];
for (let i = 0; i < Number(a.watchers); ++i) {
    counts.push(0);
    await new Promise((resolve, reject) => {
        const req = https.request({
            host: '127.0.0.1', port: Number(a.port), ...tlsOptions, agent: false,
            path: `/api/v1/nodes?watch=1&fieldSelector=metadata.name%3Dnode-1&resourceVersion=${since}&timeoutSeconds=600`,
        }, (res) => {
            let rest = '';
            res.on('data', (d) => {
                rest += d;
                const lines = rest.split('\n');
                rest = lines.pop();
                for (const l of lines)
                    if (l.includes('"MODIFIED"'))
                        ++counts[i];
            });
            res.on('end', () => { if (!stopping) ++closedEarly; });
            resolve();
        });
        req.on('error', (e) => (stopping ? undefined : reject(e)));
        req.end();
        streams.push(req);
    });
}

const rssBefore = rssMiB();
let rssPeak = rssBefore;
const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rssMiB()); }, 200);
const deadline = Date.now() + Number(a.seconds) * 1000;
let changes = 0;
async function changer() {
    while (Date.now() < deadline) {
        const r = await request('PATCH', '/api/v1/nodes/node-1', JSON.stringify({ metadata: { labels: { bench: String(changes) } } }));
        if (r.status !== 200)
            throw new Error(`PATCH answered ${r.status}: ${r.text}`);
        ++changes;
    }
}
const started = Date.now();
await Promise.all([changer(), changer(), changer(), changer()]);
const elapsed = (Date.now() - started) / 1000;
// Let the last events arrive.
const expected = changes * Number(a.watchers);
const settle = Date.now() + 10000;
while (counts.reduce((x, y) => x + y, 0) + closedEarly * 0 < expected && Date.now() < settle)
    await new Promise((r) => setTimeout(r, 100));
clearInterval(sampler);
stopping = true;
for (const s of streams)
    s.destroy();
await new Promise((r) => setTimeout(r, 1500));
const delivered = counts.reduce((x, y) => x + y, 0);
console.log(JSON.stringify({
    watchers: Number(a.watchers), changes, changesPerSecond: changes / elapsed, delivered, expected,
    deliveredRatio: delivered / expected, closedEarly,
    rssBeforeMiB: rssBefore, rssPeakMiB: rssPeak, rssAfterMiB: rssMiB(),
}));
agent.destroy();
