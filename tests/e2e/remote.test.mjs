// Remote administration over HTTPS (--admin-tls, docs/remote.md): the admin API answers over
// TLS with the server certificate, whose SHA-256 fingerprint the backend logs at start;
// `gatehouse admin` trusts it through the data directory's CA when it reads ports.json, and
// elsewhere only when given the fingerprint (--admin-fingerprint / GATEHOUSE_ADMIN_FINGERPRINT);
// a wrong fingerprint is refused with the one actually presented.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startBackend, binaryPath, waitFor } from './lib/backend.mjs';
import { curl, run } from './lib/cluster.mjs';

let b;

before(async () => {
    b = await startBackend({ args: ['--admin-tls'] });
});

after(async () => {
    if (b)
        assert.equal(await b.stop(), 0, b.stderr);
});

function admin(args, env = {}) {
    return run(binaryPath(), ['admin', ...args], { env });
}

test('HTTPS admin API with the logged fingerprint; the CLI trusts by CA or by fingerprint only', async () => {
    assert.match(b.adminUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
    const logged = await waitFor(() => /certificate SHA-256 fingerprint ([0-9A-F:]{95})/.exec(b.stderr + b.stdout),
                                 { message: 'the fingerprint in the log' });
    const fingerprint = logged[1];
    const openssl = await run('openssl', ['x509', '-noout', '-fingerprint', '-sha256', '-in', `${b.dataDir}/pki/server.crt`]);
    assert.equal(openssl.stdout.trim(), `sha256 Fingerprint=${fingerprint}`);
    // Plain HTTP on the admin port gets nothing.
    const plain = await curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', b.adminUrl.replace('https', 'http') + '/healthz']);
    assert.notEqual(plain.stdout, '200');
    // curl with the data directory's CA.
    const ok = await curl(['-s', '--cacert', `${b.dataDir}/pki/ca.crt`, '-H', `Authorization: Bearer ${b.adminToken}`,
                           `${b.adminUrl}/admin/v1/status`]);
    assert.equal(JSON.parse(ok.stdout).principal.root, true);

    // The CLI on the same machine: ports.json + the data directory's CA.
    const local = await admin(['status', '--data-dir', b.dataDir]);
    assert.equal(local.code, 0, local.stderr);
    assert.match(local.stdout, /token: {5}root/);
    // From elsewhere (no data directory): refused, naming the fingerprint to check.
    const remote = ['status', '--admin-url', b.adminUrl, '--admin-token', b.adminToken, '--data-dir', '/nonexistent'];
    const refused = await admin(remote);
    assert.equal(refused.code, 1);
    assert.ok(refused.stderr.includes(`its certificate is not trusted (SHA-256 ${fingerprint})`), refused.stderr);
    assert.ok(!refused.stderr.includes(b.adminToken), 'the token is never printed');
    const pinned = await admin([...remote, '--admin-fingerprint', fingerprint.toLowerCase()]);
    assert.equal(pinned.code, 0, pinned.stderr);
    const byEnv = await admin(remote, { GATEHOUSE_ADMIN_FINGERPRINT: fingerprint });
    assert.equal(byEnv.code, 0, byEnv.stderr);
    // A fingerprint that differs in its first byte (whatever that byte is).
    const otherFirst = (fingerprint.startsWith('00') ? 'FF' : '00') + fingerprint.slice(2);
    assert.notEqual(otherFirst, fingerprint);
    const wrong = await admin([...remote, '--admin-fingerprint', otherFirst]);
    assert.equal(wrong.code, 1);
    assert.ok(wrong.stderr.includes(fingerprint), wrong.stderr);
});
