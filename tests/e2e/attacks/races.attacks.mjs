// Races between a grant and an administrator's change: a decision read on a request thread, the
// change committed by the writer, then the grant's tokens stored after it. Each attack runs the
// race a few dozen times with the change landing at different points of the grant (the grant's
// own time spread in steps) and asserts that, once the change was answered, nothing the change
// should have ended is alive: a consent revoked while its code was being redeemed, a password
// reset or a group taken away while a password was being checked, a lock while an assertion
// was being turned into a token, a registration access token rotated while its holder updated
// the client. (Before the fixes, 24 of 40, 1 of 20, 8 of 30 and 16 of 76 rounds left a token
// alive: the grants' last checks in the writer's transaction compared against the grant's own
// earlier time, or checked only deletion and locks, or nothing.)
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as jose from 'jose';

import { startBackend, adminFetch, request } from '../lib/backend.mjs';
import { UserAgent, form } from '../lib/browser.mjs';
import { attack, registerClient } from './lib/attack.mjs';
import { signIn, tokenRequest, introspect } from './lib/flow.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('races: a grant against an administrator\'s change', () => {
    let b;

    before(async () => {
        b = await startBackend({ env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    async function newUser(username, groups = []) {
        const password = `pw-${randomBytes(9).toString('base64url')}`;
        const r = await adminFetch(b, 'POST', '/admin/v1/users', { username, password, groups });
        assert.equal(r.status, 201, r.text);
        return { ...r.json, password };
    }

    // How long `fn` takes here (the race's window is spread over it).
    async function timed(fn) {
        const t0 = Date.now();
        await fn();
        return Math.max(1, Date.now() - t0);
    }

    attack('race: a code redeemed while its consent is revoked keeps its tokens', async () => {
        const user = await newUser('race-consent');
        const rp = await registerClient(b, { client_name: 'race rp', token_endpoint_auth_method: 'client_secret_basic',
                                             grant_types: ['authorization_code', 'refresh_token'],
                                             scope: 'openid offline_access', redirect_uris: ['https://rp.example/cb'] });
        const ua = new UserAgent();
        let issued = 0;
        for (let i = 0; i < 30; ++i) {
            const flow = await signIn(b, rp, user, { scope: 'openid offline_access', ua });
            const redeemed = tokenRequest(b, rp, { grant_type: 'authorization_code', code: flow.code,
                                                   redirect_uri: rp.redirect_uris[0], code_verifier: flow.verifier });
            await sleep(i % 8);
            const revoked = await adminFetch(b, 'DELETE', `/admin/v1/consents/${user.id}/${rp.client_id}`);
            assert.equal(revoked.status, 204, revoked.text);
            const t = await redeemed;
            if (t.status !== 200)
                continue;
            issued += 1;
            for (const token of [t.json.access_token, t.json.refresh_token])
                assert.equal((await introspect(b, rp, token)).active, false, `round ${i}: a token outlived the revoked consent`);
        }
        assert.ok(issued < 30, 'some redemptions lost the race (the check ran)');
    });

    attack('race: a code redeemed while its browser session signs out keeps its tokens', async () => {
        const user = await newUser('race-logout');
        const rp = await registerClient(b, { client_name: 'race logout rp', token_endpoint_auth_method: 'client_secret_basic',
                                             grant_types: ['authorization_code'], scope: 'openid',
                                             redirect_uris: ['https://rp.example/cb'] });
        const redeem = (flow) => tokenRequest(b, rp, { grant_type: 'authorization_code', code: flow.code,
                                                       redirect_uri: rp.redirect_uris[0], code_verifier: flow.verifier });
        const redeemMs = await timed(async () => assert.equal((await redeem(await signIn(b, rp, user))).status, 200));
        let issued = 0;
        for (let i = 0; i < 30; ++i) {
            const flow = await signIn(b, rp, user, { scope: 'openid' });
            const page = await flow.ua.fetch(new URL('/oauth2/logout', b.serviceUrl));
            const confirm = form(page.text, 'logout-form');
            const redeemed = redeem(flow);
            await sleep(Math.floor((redeemMs * (i % 8)) / 8));
            const out = await flow.ua.fetch(new URL(confirm.action, b.serviceUrl), { method: 'POST', form: confirm.fields });
            assert.equal(out.status, 200, out.text.slice(0, 300));
            const t = await redeemed;
            if (t.status !== 200) {
                assert.equal(t.json.error, 'invalid_grant', t.text);
                continue;
            }
            issued += 1;
            assert.equal((await introspect(b, rp, t.json.access_token)).active, false,
                         `round ${i}: a token outlived the sign-out`);
        }
        assert.ok(issued < 30, 'some redemptions lost the race (the check ran)');
    });

    for (const change of ['password', 'groups']) {
        attack(`race: a password grant checked against a password reset or a removed group (${change}) keeps its token`, async () => {
            const user = await newUser(`race-${change}`, ['ops']);
            const c = await registerClient(b, { client_name: `race password ${change}`, token_endpoint_auth_method: 'client_secret_basic',
                                                grant_types: ['password'], scope: 'openid groups' });
            let password = user.password;
            const grant = (pw) => tokenRequest(b, c, { grant_type: 'password', username: user.username, password: pw,
                                                       scope: 'openid groups' });
            const grantMs = await timed(async () => assert.equal((await grant(password)).status, 200));
            for (let i = 0; i < 20; ++i) {
                assert.equal((await adminFetch(b, 'PATCH', `/admin/v1/users/${user.id}`, { groups: ['ops'] })).status, 200);
                const old = password;
                const granted = grant(old);
                await sleep(Math.floor((grantMs * 0.8 * (i % 10)) / 10));
                const patch = change === 'password' ? { password: (password = `pw-${i}-${randomBytes(6).toString('hex')}`) }
                    : { groups: [] };
                const changed = await adminFetch(b, 'PATCH', `/admin/v1/users/${user.id}`, patch);
                assert.equal(changed.status, 200, changed.text);
                const t = await granted;
                if (t.status !== 200) {
                    assert.equal(t.json.error, 'invalid_grant', t.text);
                    continue;
                }
                const claims = jose.decodeJwt(t.json.access_token);
                const live = await request(`${b.serviceUrl}/oauth2/userinfo`, 'GET', undefined,
                                           { Authorization: `Bearer ${t.json.access_token}` });
                if (change === 'password')
                    assert.equal(live.status, 401, `round ${i}: a token won with the old password outlived the reset`);
                else if (live.status === 200)
                    assert.ok(!(claims.groups ?? []).includes('ops'), `round ${i}: a live token names the removed group`);
            }
        });
    }

    attack('race: an assertion turned into a token while its user is locked keeps its token', async () => {
        const user = await newUser('race-lock');
        const idp = await jose.generateKeyPair('ES256', { extractable: true });
        const issuer = 'https://idp.race.example';
        const t = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', {
            issuer, jwks: { keys: [{ ...(await jose.exportJWK(idp.publicKey)), kid: 'r', alg: 'ES256' }] }, scopes: ['orders:read'],
            subjects: [user.username] });
        assert.equal(t.status, 201, t.text);
        const gateway = await registerClient(b, { client_name: 'race gateway', scope: 'orders:read',
                                                  grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'] });
        const grant = async () => tokenRequest(b, gateway, {
            grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
            assertion: await new jose.SignJWT({ sub: user.username, aud: b.serviceUrl, jti: randomBytes(8).toString('hex') })
                .setProtectedHeader({ alg: 'ES256', kid: 'r' }).setIssuer(issuer).setIssuedAt().setExpirationTime('5m')
                .sign(idp.privateKey) });
        const grantMs = await timed(async () => assert.equal((await grant()).status, 200));
        for (let i = 0; i < 30; ++i) {
            // Several grants in flight, the lock among them.
            const granted = Array.from({ length: 4 }, () => grant());
            await sleep(Math.floor((grantMs * (i % 6)) / 6));
            assert.equal((await adminFetch(b, 'POST', `/admin/v1/users/${user.id}/lock`)).status, 200);
            for (const r of await Promise.all(granted))
                if (r.status === 200)
                    assert.equal((await introspect(b, gateway, r.json.access_token)).active, false,
                                 `round ${i}: a token of a locked user is active`);
            assert.equal((await adminFetch(b, 'POST', `/admin/v1/users/${user.id}/unlock`)).status, 200);
        }
    });

    attack('race: a token exchanged while an administrator takes a scope from the subject token\'s client keeps the scope', async () => {
        const service = await registerClient(b, { client_name: 'race narrowed', grant_types: ['client_credentials'],
                                                  scope: 'orders:read orders:write' });
        const gateway = await registerClient(b, { client_name: 'race exchanger', scope: 'orders:read orders:write',
                                                  grant_types: ['urn:ietf:params:oauth:grant-type:token-exchange'] });
        const rs = await registerClient(b, { client_name: 'race resource server', grant_types: ['client_credentials'],
                                             scope: 'orders:read', resource_server: true });
        const setScope = async (scope) => assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${service.client_id}`, {
            client_name: service.client_name, grant_types: ['client_credentials'], scope })).status, 200);
        const subject = async () => (await tokenRequest(b, service, { grant_type: 'client_credentials',
                                                                      scope: 'orders:read orders:write' })).json.access_token;
        const exchange = (token) => tokenRequest(b, gateway, {
            grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', subject_token: token,
            subject_token_type: 'urn:ietf:params:oauth:token-type:access_token' });
        const exchangeMs = await timed(async () => assert.equal((await exchange(await subject())).status, 200));
        for (let i = 0; i < 30; ++i) {
            const token = await subject();
            // Several exchanges in flight, the narrowing among them.
            const exchanged = Array.from({ length: 4 }, () => exchange(token));
            await sleep(Math.floor((exchangeMs * (i % 6)) / 6));
            await setScope('orders:read');
            for (const r of await Promise.all(exchanged)) {
                if (r.status !== 200)
                    continue;
                const seen = await introspect(b, rs, r.json.access_token);
                assert.ok(!seen.active || !seen.scope.split(' ').includes('orders:write'),
                          `round ${i}: an exchanged token kept orders:write: ${JSON.stringify(seen)}`);
            }
            await setScope('orders:read orders:write');
        }
    });

    attack('race: an RFC 7592 update with a registration access token that rotate-secret is withdrawing', async () => {
        const iat = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens', { maxUses: 40 });
        assert.equal(iat.status, 201, iat.text);
        const metadata = { client_name: 'race registrant', token_endpoint_auth_method: 'client_secret_basic',
                           grant_types: ['authorization_code'], scope: 'openid', redirect_uris: ['https://app.example/cb'] };
        for (let i = 0; i < 20; ++i) {
            const reg = await request(`${b.serviceUrl}/oauth2/register`, 'POST', JSON.stringify(metadata),
                                      { 'Content-Type': 'application/json', Authorization: `Bearer ${iat.json.token}` });
            assert.equal(reg.status, 201, reg.text);
            const c = reg.json;
            // The old token's holder points the client at its own redirect URI.
            const attacker = ['https://attacker.example/cb'];
            const hijack = request(`${b.serviceUrl}/oauth2/register/${c.client_id}`, 'PUT', JSON.stringify({
                ...metadata, client_id: c.client_id, redirect_uris: attacker }),
                                   { 'Content-Type': 'application/json', Authorization: `Bearer ${c.registration_access_token}` });
            await sleep(i % 4);
            const rotated = await adminFetch(b, 'POST', `/admin/v1/clients/${c.client_id}/rotate-secret`);
            const r = await hijack;
            const stored = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
            assert.equal(rotated.status, 200, rotated.text);
            // Either the registrant came first (its token was still the client's) and its update
            // stands, or the rotation withdrew the token first and nothing of the update is stored.
            assert.ok([200, 401].includes(r.status), `round ${i}: ${r.text}`);
            assert.deepEqual(stored.redirect_uris, r.status === 200 ? attacker : metadata.redirect_uris,
                             `round ${i}: an update with the withdrawn token (${r.status}) ${r.text}`);
            assert.equal(stored.token_endpoint_auth_method, 'client_secret_basic', `round ${i}`);
        }
    });
});
