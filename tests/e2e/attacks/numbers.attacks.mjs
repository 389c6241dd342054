// Numbers at the edges: values a double holds but an integer type does not (2^63, 1e19,
// -2^63), fractions and strings where a whole number is asked for. Before, a cast of such a
// double to an integer ran before the range check (undefined behaviour; the sanitizer build
// stopped the process, all three services with it), a count the server raises overflowed, and
// toInt()'s default stood in for a value that was there but not whole (a certificate for 365
// days when 0.5 was asked). Each case asserts the answer, that the process still answers, and
// that nothing was made of the refused value.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startBackend, adminFetch, serviceFetch } from '../lib/backend.mjs';
import { issueKubeconfig, kubeRequest } from '../lib/cluster.mjs';
import { attack } from './lib/attack.mjs';

const MERGE = { 'Content-Type': 'application/merge-patch+json' };

describe('numbers: integers beyond their type, fractions and strings where a whole number is asked', () => {
    let b;
    let root; // a system:masters certificate
    let node; // system:node:node-n

    before(async () => {
        b = await startBackend({ args: ['--demo'] });
        root = await issueKubeconfig(b, { kind: 'user', name: 'numbers-root', groups: ['system:masters'] });
        node = await issueKubeconfig(b, { kind: 'node', name: 'node-n' });
        const registered = await kubeRequest(b, 'POST', '/api/v1/nodes', {
            creds: node, body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-n' } } });
        assert.equal(registered.status, 201, registered.text);
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    async function assertAlive(what) {
        const h = await serviceFetch(b, 'GET', '/healthz');
        assert.equal(h.status, 200, `${what}: the server still answers (${b.stderr.slice(-2000)})`);
    }

    attack('numbers: a cluster object holding int64\'s largest value, and one holding 1e19 in free-form fields, stored and read back; the server goes on', async () => {
        // As text: JSON.stringify would round it to 2^63, which no int64 holds (refused).
        const pod = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"int64-max"},' +
                    '"spec":{"terminationGracePeriodSeconds":9223372036854775807,"containers":[{"name":"c","image":"x"}]}}';
        const made = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/pods', { creds: root, body: pod });
        assert.equal(made.status, 201, made.text);
        // Written back exactly, as kube-apiserver writes an int64.
        assert.match(made.text, /"terminationGracePeriodSeconds":9223372036854775807[,}]/);
        for (const path of ['/api/v1/namespaces/default/pods/int64-max', '/api/v1/namespaces/default/pods']) {
            const read = await kubeRequest(b, 'GET', path, { creds: root });
            assert.equal(read.status, 200, path);
            assert.match(read.text, /"terminationGracePeriodSeconds":9223372036854775807[,}]/, path);
        }
        const beyond = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/pods', {
            creds: root, body: pod.replace('int64-max', 'beyond').replace('9223372036854775807', '9223372036854775808') });
        assert.equal(beyond.status, 400, beyond.text);
        assert.match(beyond.json.message, /spec\.terminationGracePeriodSeconds is not an integer/);
        const event = { apiVersion: 'v1', kind: 'Event',
                        metadata: { name: 'huge-fields', managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'v1',
                                                                           fieldsType: 'FieldsV1', fieldsV1: { 'f:x': 1e19 } }] },
                        involvedObject: { kind: 'Node', name: 'node-n' }, reason: 'R', message: 'm', type: 'Normal' };
        const recorded = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/events', { creds: node, body: event });
        assert.equal(recorded.status, 201, recorded.text);
        const read = await kubeRequest(b, 'GET', '/api/v1/namespaces/default/events/huge-fields', { creds: root });
        assert.equal(read.status, 200, read.text);
        assert.equal(read.json.metadata.managedFields[0].fieldsV1['f:x'], 1e19);
        await assertAlive('after int64 extremes');
    });

    attack('numbers: an AdmissionDenied event whose count was set to the largest int is counted no further, and the refused write that would raise it answers 403 as before', async () => {
        const refusedPatch = () => kubeRequest(b, 'PATCH', '/api/v1/nodes/node-n', {
            creds: node, headers: MERGE, body: { metadata: { labels: { 'node-restriction.kubernetes.io/x': 'y' } } } });
        assert.equal((await refusedPatch()).status, 403);
        const events = await kubeRequest(b, 'GET',
            '/api/v1/namespaces/default/events?fieldSelector=reason%3DAdmissionDenied,involvedObject.name%3Dnode-n', { creds: root });
        assert.equal(events.json.items.length, 1, events.text);
        const name = events.json.items[0].metadata.name;
        const set = await kubeRequest(b, 'PATCH', `/api/v1/namespaces/default/events/${name}`, {
            creds: node, headers: MERGE, body: { count: 2147483647 } });
        assert.equal(set.status, 200, set.text);
        assert.equal((await refusedPatch()).status, 403);
        await assertAlive('after the count at its largest');
        const again = await kubeRequest(b, 'GET', `/api/v1/namespaces/default/events/${name}`, { creds: root });
        assert.equal(again.json.count, 2147483647);
    });

    attack('numbers: refused writes naming a megabyte-long object, or a namespace nobody made, leave no event', async () => {
        const before = (await kubeRequest(b, 'GET', '/api/v1/events', { creds: root })).json.items.length;
        // A pod naming a service account that does not exist: refused by admission, before the
        // name is validated.
        const long = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/pods', {
            creds: root, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b'.repeat(300_000) },
                                 spec: { serviceAccountName: 'nope', containers: [{ name: 'c', image: 'x' }] } } });
        assert.equal(long.status, 403, long.text.slice(0, 300));
        const mirror = await kubeRequest(b, 'POST', '/api/v1/namespaces/not-yet/pods', {
            creds: node, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'm1' },
                                 spec: { nodeName: 'node-n', serviceAccountName: 'x', containers: [{ name: 'c', image: 'x' }] } } });
        assert.ok([403, 404].includes(mirror.status), mirror.text);
        await new Promise((resolve) => setTimeout(resolve, 300)); // events are recorded after the answer
        const after = await kubeRequest(b, 'GET', '/api/v1/events', { creds: root });
        assert.equal(after.json.items.length, before, JSON.stringify(after.json.items.map((e) => [e.metadata.namespace, e.metadata.name.slice(0, 40)])));
    });

    attack('numbers: a TokenRequest asking "3600", 600.5, true or [600] seconds is 400, not an unbounded or rounded token; null is the default hour', async () => {
        const sa = await kubeRequest(b, 'POST', '/api/v1/namespaces/default/serviceaccounts', {
            creds: root, body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'numbers-sa' } } });
        assert.equal(sa.status, 201, sa.text);
        const ask = (expirationSeconds) => kubeRequest(b, 'POST', '/api/v1/namespaces/default/serviceaccounts/numbers-sa/token', {
            creds: root, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds } } });
        for (const value of ['3600', 600.5, true, [600]]) {
            const r = await ask(value);
            assert.equal(r.status, 400, `${JSON.stringify(value)}: ${r.text}`);
            assert.equal(r.json.reason, 'BadRequest');
            assert.equal(r.json.message,
                         'TokenRequest in version "v1" cannot be handled as a TokenRequest: spec.expirationSeconds is not an integer');
            assert.equal(r.json.status?.token, undefined);
        }
        const byDefault = await ask(null);
        assert.equal(byDefault.status, 201, byDefault.text);
        assert.equal(byDefault.json.spec.expirationSeconds, 3600);
        await assertAlive('TokenRequest numbers');
    });

    attack('numbers: a restock of 1e19, 1.5 or "5" units is refused with 400 invalid-quantity, the stock unchanged', async () => {
        const beer = (await serviceFetch(b, 'GET', '/v1/beers?pageSize=1')).json.content[0];
        for (const quantity of [1e19, -1e19, 1.5, '5', 0, 100001]) {
            const r = await adminFetch(b, 'POST', `/admin/v1/beers/${beer.id}/restock`, { quantity });
            assert.equal(r.status, 400, `${quantity}: ${r.text}`);
            assert.equal(r.json.error, 'invalid-quantity', r.text);
        }
        await assertAlive('after the restocks');
        const now = (await serviceFetch(b, 'GET', `/v1/beers/${beer.id}`)).json;
        assert.equal(now.quantityOnHand, beer.quantityOnHand);
    });

    attack('numbers: a certificate for 0.5 or 1e19 days is refused, not issued for the default 365; "30" is the wrong type', async () => {
        for (const validityDays of [0.5, 1e19, -1e19, 3650.5]) {
            const r = await adminFetch(b, 'POST', '/admin/v1/cluster/kubeconfigs', { kind: 'user', name: 'half-day', validityDays });
            assert.equal(r.status, 400, `${validityDays}: ${r.text}`);
            assert.match(r.json.message, /validityDays must be a whole number from 1 to 3650/);
        }
        const typed = await adminFetch(b, 'POST', '/admin/v1/cluster/kubeconfigs', { kind: 'user', name: 'half-day', validityDays: '30' });
        assert.equal(typed.status, 400, typed.text);
        assert.match(typed.json.message, /"validityDays" has the wrong type/);
    });

    attack('numbers: a client\'s access_token_lifetime of 300.7, "100" or 1e19 is refused, not stored as the default 3600', async () => {
        const named = async () => (await adminFetch(b, 'GET', '/admin/v1/clients')).json.items
            .filter((c) => c.client_name === 'odd lifetime').length;
        for (const lifetime of [300.7, '100', 1e19, -1e19]) {
            const r = await adminFetch(b, 'POST', '/admin/v1/clients', {
                client_name: 'odd lifetime', grant_types: ['client_credentials'], scope: 'orders:read', access_token_lifetime: lifetime });
            assert.equal(r.status, 400, `${lifetime}: ${r.text}`);
            assert.equal(r.json.error, 'invalid_client_metadata');
            assert.match(r.json.message, /access_token_lifetime must be a whole number of seconds from 30 to 86400/);
        }
        assert.equal(await named(), 0, 'no client made');
    });

    attack('numbers: the demo receiver given webhook-timestamp -2^63 answers 400, and goes on', async () => {
        const origin = (await adminFetch(b, 'GET', '/admin/v1/demo-receiver')).json.url;
        for (const ts of ['-9223372036854775808', '9223372036854775807']) {
            const r = await fetch(`${origin}/hooks/00000000-0000-4000-8000-000000000000`, {
                method: 'POST', body: '{}',
                headers: { 'content-type': 'application/json', 'webhook-id': 'msg_x', 'webhook-timestamp': ts,
                           'webhook-signature': 'v1,abc' } });
            assert.equal(r.status, 400, ts);
        }
        await assertAlive('after the timestamps');
    });
});
