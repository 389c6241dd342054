// Every setting through the admin API (docs/settings.md): value, default, source and whether a
// change applies live (the cluster's anonymous access, authorizers, admission plugins) or is
// kept for the next start; a setting given explicitly (flag, environment) cannot be changed
// there; bad input gets 400; the kept value is in effect after a restart; the audit log and
// the event stream see each change; scoped tokens need the admin area.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startBackend, adminFetch, request, readEvents, waitFor } from './lib/backend.mjs';
import { curl } from './lib/cluster.mjs';

let b;

before(async () => {
    b = await startBackend({ env: { GATEHOUSE_OAUTH_LOGIN_RATE: '30' } });
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

async function setting(key) {
    const r = await adminFetch(b, 'GET', `/admin/v1/settings/${key}`);
    assert.equal(r.status, 200, r.text);
    return r.json;
}

function anonymousStatus() {
    return curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', '--cacert', `${b.dataDir}/pki/ca.crt`,
                 `${b.clusterUrl}/version`]).then((r) => r.stdout);
}

test('the list: every setting with value, default, source, group and how it applies', async () => {
    const r = await adminFetch(b, 'GET', '/admin/v1/settings');
    assert.equal(r.status, 200, r.text);
    const byKey = Object.fromEntries(r.json.items.map((i) => [i.key, i]));
    assert.ok(r.json.items.length >= 40, `${r.json.items.length} settings`);
    assert.equal(r.json.restartRequired, false);
    const retry = byKey['webhook-retry-schedule'];
    assert.deepEqual({ ...retry, description: undefined }, {
        id: 'webhook-retry-schedule', key: 'webhook-retry-schedule', group: 'webhooks', type: 'list',
        valueName: 'delays', description: undefined, value: '5s,5m,30m,2h,5h,10h,10h',
        default: '5s,5m,30m,2h,5h,10h,10h', source: 'default', applies: 'restart', pending: null,
        restartRequired: false, editable: true, environment: 'GATEHOUSE_WEBHOOK_RETRY_SCHEDULE' });
    assert.equal(byKey['anonymous-auth'].applies, 'live');
    assert.equal(byKey['anonymous-auth'].type, 'bool');
    assert.equal(byKey['service-port'].source, 'flag --service-port');
    assert.equal(byKey['service-port'].editable, false);
    assert.equal(byKey['oauth-login-rate'].source, 'environment GATEHOUSE_OAUTH_LOGIN_RATE');
    assert.equal(byKey['oauth-login-rate'].value, '30');
    assert.equal(byKey['oauth-code-lifetime'].value, '1m');
    assert.equal(byKey['data-dir'].editable, false);
    for (const item of r.json.items)
        assert.ok(['listeners', 'limits', 'oauth', 'webhooks', 'cluster', 'storage'].includes(item.group), item.key);
});

test('a live setting applies at once: anonymous access off, then on', async () => {
    assert.equal(await anonymousStatus(), '200');
    const off = await adminFetch(b, 'PUT', '/admin/v1/settings/anonymous-auth', { value: false });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.json.value, 'false');
    assert.equal(off.json.source, 'admin API');
    assert.equal(off.json.restartRequired, false);
    assert.equal(await anonymousStatus(), '401');
    // The cluster's own settings agree.
    const cs = await adminFetch(b, 'GET', '/admin/v1/cluster/settings');
    assert.equal(cs.json.anonymousAuth, false);
    const on = await adminFetch(b, 'PUT', '/admin/v1/settings/anonymous-auth', { value: 'true' });
    assert.equal(on.status, 200, on.text);
    assert.equal(await anonymousStatus(), '200');
    const bad = await adminFetch(b, 'PUT', '/admin/v1/settings/authorization-mode', { value: 'Node' });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.json.message, /RBAC/);
    assert.equal((await setting('authorization-mode')).value, 'Node,RBAC');
    assert.equal((await adminFetch(b, 'DELETE', '/admin/v1/settings/anonymous-auth')).status, 409);
});

test('bad input: unknown key 404, malformed body 400, invalid value 400 with the flag\'s words, fixed 409', async () => {
    assert.equal((await adminFetch(b, 'PUT', '/admin/v1/settings/no-such-setting', { value: '1' })).status, 404);
    for (const body of ['{"value":', '[1]', '{"value": {"a": 1}}', '{"value": 1.5}', '{}']) {
        const r = await request(`${b.adminUrl}/admin/v1/settings/max-connections`, 'PUT', body,
                                { Authorization: `Bearer ${b.adminToken}` });
        assert.equal(r.status, 400, `${body}: ${r.text}`);
        assert.equal(r.json.error, 'malformed-json');
    }
    const invalid = await adminFetch(b, 'PUT', '/admin/v1/settings/max-connections', { value: 'lots' });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.json, { error: 'invalid-setting', message: 'max-connections: expected an integer from 1 to 1000000' });
    const dur = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-code-lifetime', { value: 'soon' });
    assert.equal(dur.status, 400);
    assert.match(dur.json.message, /is not a duration/);
    const fixed = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-login-rate', { value: 5 });
    assert.equal(fixed.status, 409, fixed.text);
    assert.equal(fixed.json.message,
                 'oauth-login-rate is given by environment GATEHOUSE_OAUTH_LOGIN_RATE, which wins at every start; change it there');
    assert.equal((await adminFetch(b, 'PUT', '/admin/v1/settings/data-dir', { value: '/tmp/x' })).status, 409);
    assert.equal((await setting('max-connections')).pending, null, 'nothing kept');
});

test('the registration policy and the OIDC group mappings are live; bad values get 400 and change nothing', async () => {
    const grants = await setting('oauth-registration-grant-types');
    assert.equal(grants.applies, 'live');
    assert.equal(grants.group, 'oauth');
    assert.equal(grants.value, 'authorization_code,refresh_token,urn:ietf:params:oauth:grant-type:device_code');
    const mappings = await setting('oidc-group-mappings');
    assert.equal(mappings.applies, 'live');
    assert.equal(mappings.group, 'cluster');
    for (const [key, value, pattern] of [
        ['oauth-registration-grant-types', 'authorization_code,magic', /'magic' is not a supported grant type/],
        ['oidc-group-mappings', 'ops', /'ops' is not an oidc-group=cluster-group pair/],
        ['oidc-group-mappings', 'a=b,a=c', /mapped twice/],
    ]) {
        const r = await adminFetch(b, 'PUT', `/admin/v1/settings/${key}`, { value });
        assert.equal(r.status, 400, `${key}=${value}: ${r.text}`);
        assert.match(r.json.message, pattern);
    }
    assert.equal((await setting('oauth-registration-grant-types')).value, grants.value);
    assert.equal((await setting('oidc-group-mappings')).value, '');
    // A good value applies at once (the next registration, the next token), and is kept.
    const ok = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-registration-scopes', { value: 'openid,email' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.value, 'openid,email');
    assert.equal(ok.json.source, 'admin API');
    const back = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-registration-scopes',
                                  { value: 'openid,profile,email,offline_access' });
    assert.equal(back.status, 200, back.text);
    // A list cleared is kept as an empty list (it was a server error: the empty list was
    // stored as NULL), and can be set again.
    const audiences = (await setting('oauth-registration-audiences')).value;
    const cleared = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-registration-audiences', { value: '' });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.json.value, '');
    assert.equal((await setting('oauth-registration-audiences')).value, '');
    const restored = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-registration-audiences', { value: audiences || '' });
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.json.value, audiences);
});

test('a restart setting is kept for the next start, can be discarded, and is in effect after a restart', async () => {
    const events = readEvents(b, 2500);
    const kept = await adminFetch(b, 'PUT', '/admin/v1/settings/webhook-retry-schedule', { value: '1s, 10s' });
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.json.value, '5s,5m,30m,2h,5h,10h,10h', 'still running with the old one');
    assert.equal(kept.json.pending, '1s,10s', 'normalized as the flag would take it');
    assert.equal(kept.json.restartRequired, true);
    assert.equal((await adminFetch(b, 'GET', '/admin/v1/settings')).json.restartRequired, true);
    const seen = await events;
    assert.ok(seen.some((e) => e.type === 'setting.changed' && e.data.data.key === 'webhook-retry-schedule'),
              seen.map((e) => e.type).join(','));

    // Discard, then keep another one; setting the running value again drops what is kept.
    const keep2 = await adminFetch(b, 'PUT', '/admin/v1/settings/max-connections', { value: 2048 });
    assert.equal(keep2.json.pending, '2048');
    const same = await adminFetch(b, 'PUT', '/admin/v1/settings/max-connections', { value: '1024' });
    assert.equal(same.json.pending, null);
    assert.equal((await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-code-lifetime', { value: '90s' })).json.pending, '90s');
    const discarded = await adminFetch(b, 'DELETE', '/admin/v1/settings/oauth-code-lifetime');
    assert.equal(discarded.status, 200, discarded.text);
    assert.equal(discarded.json.pending, null);

    // Each change is in the audit log.
    const audit = await waitFor(async () => {
        const r = await adminFetch(b, 'GET', '/admin/v1/audit?kind=setting&target=webhook-retry-schedule');
        return r.json.items[0];
    }, { message: 'audit entry' });
    assert.equal(audit.action, 'update');
    assert.equal(audit.after.pending, '1s,10s');
    assert.equal(audit.consequences.summary, undefined, 'a restart setting causes no verdicts');

    // After a restart with the same flags and environment: in effect, nothing pending.
    assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend({ dataDir: b.dataDir, env: { GATEHOUSE_OAUTH_LOGIN_RATE: '30' } });
    const after = await setting('webhook-retry-schedule');
    assert.equal(after.value, '1s,10s');
    assert.equal(after.source, 'admin API');
    assert.equal(after.pending, null);
    assert.equal((await setting('oauth-code-lifetime')).value, '1m', 'the discarded one is not applied');
    // A flag given at start wins over the kept value.
    assert.equal(await b.stop(), 0, b.stderr);
    b = await startBackend({ dataDir: b.dataDir, args: ['--webhook-retry-schedule', '2s'],
                             env: { GATEHOUSE_OAUTH_LOGIN_RATE: '30' } });
    const flagged = await setting('webhook-retry-schedule');
    assert.equal(flagged.value, '2s');
    assert.equal(flagged.source, 'flag --webhook-retry-schedule');
    assert.equal(flagged.editable, false);
});

test('password hashing cost: kept for the next start as a pair, never below OWASP\'s minimum', async () => {
    // Gatehouse's own defaults here (the suite's backends hash cheaper: tests/e2e/lib/backend.mjs).
    const defaults = { GATEHOUSE_PASSWORD_HASH_MEMORY: null, GATEHOUSE_PASSWORD_HASH_ITERATIONS: null };
    const setting = async (backend, key) => (await adminFetch(backend, 'GET', `/admin/v1/settings/${key}`)).json;
    const put = (backend, key, value) => adminFetch(backend, 'PUT', `/admin/v1/settings/${key}`, { value });
    let own = await startBackend({ env: defaults });
    try {
        assert.equal((await setting(own, 'password-hash-memory')).value, '65536');
        assert.equal((await setting(own, 'password-hash-memory')).group, 'oauth');
        const low = await put(own, 'password-hash-memory', 8192);
        assert.equal(low.status, 400, low.text);
        assert.match(low.json.message, /password-hash-memory 8192 \(admin API\) x password-hash-iterations 3 \(default\) is below OWASP's minimum/);
        assert.equal((await setting(own, 'password-hash-memory')).pending, null, 'nothing kept');
        // Each half is judged with the other half the next start will have: its kept value.
        assert.equal((await put(own, 'password-hash-memory', 19456)).json.pending, '19456');
        const onePass = await put(own, 'password-hash-iterations', 1);
        assert.equal(onePass.status, 400, onePass.text);
        assert.match(onePass.json.message, /password-hash-memory 19456 \(admin API\) x password-hash-iterations 1 \(admin API\) is below/);
        assert.equal((await put(own, 'password-hash-iterations', 2)).json.pending, '2');
        // 7 MiB needs 5 passes: with the kept 2 it is refused, and the kept 19456 stays.
        assert.equal((await put(own, 'password-hash-memory', 7168)).status, 400, 'with 2 passes: below');
        assert.equal((await setting(own, 'password-hash-memory')).pending, '19456');
        assert.equal(await own.stop(), 0, own.stderr);
        own = await startBackend({ dataDir: own.dataDir, env: defaults });
        for (const [key, value] of [['password-hash-memory', '19456'], ['password-hash-iterations', '2']]) {
            const now = await setting(own, key);
            assert.equal(now.value, value, key);
            assert.equal(now.source, 'admin API', key);
            assert.equal(now.pending, null, key);
        }
        assert.equal(await own.stop(), 0, own.stderr);

        // A kept half that meets a lower explicit one at the next start: the pair is not used.
        own = await startBackend({ dataDir: own.dataDir, env: { ...defaults, GATEHOUSE_PASSWORD_HASH_ITERATIONS: '1' } });
        const memory = await setting(own, 'password-hash-memory');
        assert.equal(memory.value, '65536', 'the kept 19456 with 1 pass would be below');
        assert.equal(memory.source, 'default');
        assert.equal((await setting(own, 'password-hash-iterations')).value, '1');
        assert.match(own.stderr, /ignoring the kept values of password-hash-memory and password-hash-iterations: password-hash-memory 19456 \(admin API\) x password-hash-iterations 1 \(environment GATEHOUSE_PASSWORD_HASH_ITERATIONS\) is below OWASP's minimum/);
    } finally {
        if (!own.exited)
            assert.equal(await own.stop(), 0, own.stderr);
    }
});

test('scoped tokens: the settings belong to the admin area', async () => {
    const t = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'settings-reader', permissions: ['admin:read'] });
    assert.equal(t.status, 201, t.text);
    const auth = { Authorization: `Bearer ${t.json.token}` };
    assert.equal((await request(`${b.adminUrl}/admin/v1/settings`, 'GET', undefined, auth)).status, 200);
    const write = await request(`${b.adminUrl}/admin/v1/settings/max-connections`, 'PUT', { value: '10' }, auth);
    assert.equal(write.status, 403, write.text);
    const o = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'orders-only', permissions: ['orders:write'] });
    const denied = await request(`${b.adminUrl}/admin/v1/settings`, 'GET', undefined, { Authorization: `Bearer ${o.json.token}` });
    assert.equal(denied.status, 403, denied.text);
});

// Whose X-Forwarded-For is believed decides whose sign-in limit a client counts into: only the
// root token may change trusted-proxies, even a token with every area's write may not, and
// "every address" is refused outright. Nothing is kept for the next start by a refused request.
test('webhook-allowlist: entries are checked when set; ranges wider than /8 (IPv6 /16) are refused; nothing kept', async () => {
    for (const [value, message] of [
        ['0.0.0.0/0', "webhook-allowlist: '0.0.0.0/0' is wider than /8: name the networks webhooks may reach"],
        ['10.0.0.0/8, ::/0', "webhook-allowlist: '::/0' is wider than /16: name the networks webhooks may reach"],
        ['::ffff:0:0/96', "webhook-allowlist: '::ffff:0:0/96' takes in IPv4-mapped addresses (IPv4 in IPv6 form) wider than /8: name the IPv4 networks instead"],
        ['::/16', "webhook-allowlist: '::/16' takes in IPv4-mapped addresses (IPv4 in IPv6 form) wider than /8: name the IPv4 networks instead"],
        ['2002::/16', "webhook-allowlist: '2002::/16' takes in 6to4 addresses (IPv4 in IPv6 form) wider than /8: name the IPv4 networks instead"],
        ['64:ff9b:1::/48', "webhook-allowlist: '64:ff9b:1::/48' takes in local-use NAT64 addresses (IPv4 in IPv6 form) wider than /8: name the IPv4 networks instead"],
        ['not a host/99', "webhook-allowlist: 'not a host/99' is not a CIDR range"],
        ['hooks.internal, bad host', "webhook-allowlist: 'bad host' is not a host name, an IP address or a CIDR range"]]) {
        const r = await adminFetch(b, 'PUT', '/admin/v1/settings/webhook-allowlist', { value });
        assert.equal(r.status, 400, `${value}: ${r.text}`);
        assert.equal(r.json.message, message);
        assert.equal((await setting('webhook-allowlist')).pending, null, `${value}: nothing kept`);
    }
    const named = await adminFetch(b, 'PUT', '/admin/v1/settings/webhook-allowlist',
                                   { value: '10.20.0.0/16, fd00:1::/48, ::ffff:10.0.0.0/104, 192.168.1.7, hooks.internal' });
    assert.equal(named.status, 200, named.text);
    assert.equal(named.json.pending, '10.20.0.0/16,fd00:1::/48,::ffff:10.0.0.0/104,192.168.1.7,hooks.internal');
    assert.equal((await adminFetch(b, 'DELETE', '/admin/v1/settings/webhook-allowlist')).status, 200);
});

test('trusted-proxies: only the root admin token changes it; 0.0.0.0/0 is refused; nothing kept', async () => {
    const all = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name: 'all-areas', permissions: ['*:write'] });
    assert.equal(all.status, 201, all.text);
    const scoped = await request(`${b.adminUrl}/admin/v1/settings/trusted-proxies`, 'PUT', { value: '203.0.113.9' },
                                 { Authorization: `Bearer ${all.json.token}` });
    assert.equal(scoped.status, 403, scoped.text);
    assert.match(scoped.json.message, /only the root admin token/);
    assert.equal((await setting('trusted-proxies')).pending, null);
    const everyone = await adminFetch(b, 'PUT', '/admin/v1/settings/trusted-proxies', { value: '10.0.0.5, 0.0.0.0/0' });
    assert.equal(everyone.status, 400, everyone.text);
    assert.match(everyone.json.message, /would believe every client/);
    assert.equal((await setting('trusted-proxies')).pending, null);
    const named = await adminFetch(b, 'PUT', '/admin/v1/settings/trusted-proxies', { value: '10.0.0.5, 10.1.0.0/16' });
    assert.equal(named.status, 200, named.text);
    assert.equal(named.json.pending, '10.0.0.5,10.1.0.0/16');
    assert.equal(named.json.restartRequired, true);
    assert.equal((await adminFetch(b, 'DELETE', '/admin/v1/settings/trusted-proxies')).status, 200);
});
