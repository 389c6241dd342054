// Issue 26's numbered paths between the services (docs/oauth.md, "Trust boundaries"): token
// exchange that inflates scope or takes a dead grant, dynamic registration that hands out
// privileges, a relying party becoming the user inside the cluster, and OIDC groups reaching the
// cluster unfiltered. Each case asserts the refusal and that nothing was issued or changed; the
// describe() on kubectl's own OIDC client walks the legitimate path that must keep working; the
// last one checks that what an administrator takes away is gone from what was derived from it.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as jose from 'jose';

import { startBackend, adminFetch, request, waitFor } from '../lib/backend.mjs';
import { kubeRequest, openWatch, adminKube } from '../lib/cluster.mjs';
import {
    attack, assertNoTokens, activeTokenIds, assertTokensUnchanged, registerClient, assertOAuthError, formPost, basicAuth,
} from './lib/attack.mjs';
import { signIn, redeem, tokenRequest, tokensFor, isActive, introspect } from './lib/flow.mjs';
import { UserAgent, form, element, assertErrorPage } from '../lib/browser.mjs';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const JWT = 'urn:ietf:params:oauth:token-type:jwt';
const REVIEW = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

async function newUser(b, name, groups = []) {
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    const r = await adminFetch(b, 'POST', '/admin/v1/users', { username: name, password, groups });
    assert.equal(r.status, 201, r.text);
    return { ...r.json, password };
}

// Who the cluster says the bearer of `token` is (SelfSubjectReview): {status, user}.
async function clusterIdentity(b, token) {
    const r = await kubeRequest(b, 'POST', REVIEW, {
        headers: { Authorization: `Bearer ${token}` },
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    return { status: r.status, user: r.json?.status?.userInfo, text: r.text };
}

async function scopedAdminToken(b, name, permissions) {
    const r = await adminFetch(b, 'POST', '/admin/v1/admin-tokens', { name, permissions });
    assert.equal(r.status, 201, r.text);
    return r.json.token;
}

async function clientCount(b) {
    const r = await adminFetch(b, 'GET', '/admin/v1/clients');
    assert.equal(r.status, 200, r.text);
    return r.json.items.length;
}

describe('trust boundaries: token exchange, registration, the cluster audience', () => {
    let b;
    let alice;
    let rp; // a relying party alice merely signed in to; it may exchange tokens
    let rs; // a resource server for the orders API (introspects other clients' access tokens for it)
    let counter = 0;
    const IDP = 'https://idp.partner.example';
    let idpKey;

    before(async () => {
        b = await startBackend({ args: ['--oauth-open-registration'],
                                 env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
        alice = await newUser(b, 'alice', ['devs']);
        rp = await registerClient(b, {
            client_name: 'relying party', token_endpoint_auth_method: 'client_secret_basic',
            grant_types: ['authorization_code', 'refresh_token', EXCHANGE],
            scope: 'openid profile orders:read orders:write offline_access', redirect_uris: ['https://rp.example/cb'],
            token_exchange_audiences: ['kubernetes', 'https://api.partner.example'] });
        rs = await registerClient(b, { client_name: 'resource server', grant_types: ['client_credentials'],
                                       scope: 'orders:read', resource_server: true });
        idpKey = await jose.generateKeyPair('ES256', { extractable: true });
        const jwk = { ...(await jose.exportJWK(idpKey.publicKey)), kid: 'idp', alg: 'ES256' };
        const t = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers',
                                   { issuer: IDP, jwks: { keys: [jwk] }, scopes: ['orders:read'], anySubject: true });
        assert.equal(t.status, 201, t.text);
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    const exchange = (fields) => tokenRequest(b, rp, { grant_type: EXCHANGE, ...fields });

    // --- 1. token exchange never inflates, never revives ----------------------------------------

    attack('trust 1: a token exchanged for a partner API reads the user\'s claims at userinfo', async () => {
        // What the partner receives is for the partner: replayed at userinfo it would read
        // alice's profile with what she gave the relying party (node oidc-provider refuses a
        // token with an audience there too).
        const tokens = await tokensFor(b, rp, alice, { scope: 'openid profile' });
        const info = (token) => request(`${b.serviceUrl}/oauth2/userinfo`, 'GET', undefined,
                                        { Authorization: `Bearer ${token}` });
        const own = await info(tokens.access_token);
        assert.equal(own.status, 200, own.text);
        assert.equal(own.json.preferred_username, 'alice');
        const r = await exchange({ subject_token: tokens.access_token, subject_token_type: ACCESS_TOKEN,
                                   audience: 'https://api.partner.example', scope: 'openid profile' });
        assert.equal(r.status, 200, r.text);
        assert.equal(jose.decodeJwt(r.json.access_token).aud, 'https://api.partner.example');
        const replayed = await info(r.json.access_token);
        assert.equal(replayed.status, 401, replayed.text);
        assert.equal(replayed.json.error, 'invalid_token');
        assert.match(replayed.headers['www-authenticate'], /token audience prevents accessing the userinfo endpoint/);
        assert.ok(!replayed.text.includes('alice'), replayed.text);
    });

    attack('trust 1: an id_token for openid alone exchanged for orders:write', async () => {
        const tokens = await tokensFor(b, rp, alice, { scope: 'openid' });
        const before = await activeTokenIds(b, rp.client_id);
        const r = await exchange({ subject_token: tokens.id_token, subject_token_type: ID_TOKEN, scope: 'orders:write' });
        assertOAuthError(r, 400, 'invalid_scope', /'orders:write' exceeds what the subject token was granted/, 'orders:write');
        await assertTokensUnchanged(b, rp.client_id, before);
    });

    attack('trust 1: an id_token for openid alone, no scope asked, becomes at most openid', async () => {
        const tokens = await tokensFor(b, rp, alice, { scope: 'openid' });
        const r = await exchange({ subject_token: tokens.id_token, subject_token_type: ID_TOKEN });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.scope, 'openid', 'never the client\'s whole registration');
        const claims = jose.decodeJwt(r.json.access_token);
        assert.equal(claims.sub, alice.id);
        assert.ok(!String(claims.scope).includes('orders'), claims.scope);
    });

    attack('trust 1: an id_token named as an access_token (typ mismatch)', async () => {
        const tokens = await tokensFor(b, rp, alice, { scope: 'openid orders:read' });
        const before = await activeTokenIds(b, rp.client_id);
        for (const type of [ACCESS_TOKEN, JWT]) {
            const r = await exchange({ subject_token: tokens.id_token, subject_token_type: type });
            assertOAuthError(r, 400, 'invalid_request', /not an access token \(typ JWT, not at\+jwt\)/, type);
        }
        await assertTokensUnchanged(b, rp.client_id, before);
    });

    attack('trust 1: an access token named as an id_token (typ mismatch)', async () => {
        const tokens = await tokensFor(b, rp, alice, { scope: 'openid orders:read' });
        const before = await activeTokenIds(b, rp.client_id);
        const r = await exchange({ subject_token: tokens.access_token, subject_token_type: ID_TOKEN });
        assertOAuthError(r, 400, 'invalid_request', /is an access token \(typ at\+jwt\)/, 'id_token type');
        await assertTokensUnchanged(b, rp.client_id, before);
    });

    attack('trust 1: an access token an administrator revoked', async () => {
        const tokens = await tokensFor(b, rp, alice, { scope: 'openid orders:read' });
        const stored = (await adminFetch(b, 'POST', '/admin/v1/jwt/inspect', { token: tokens.access_token })).json.server.stored;
        assert.equal(stored.state, 'active');
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(stored.id)}`)).status, 204);
        assert.equal(await isActive(b, rs, tokens.access_token), false);
        const before = await activeTokenIds(b, rp.client_id);
        const r = await exchange({ subject_token: tokens.access_token, subject_token_type: ACCESS_TOKEN });
        assertOAuthError(r, 400, 'invalid_grant', /revoked/, 'revoked by the admin');
        await assertTokensUnchanged(b, rp.client_id, before);
    });

    attack('trust 1: an access token and an id_token whose code was replayed', async () => {
        const flow = await signIn(b, rp, alice, { scope: 'openid orders:read' });
        const tokens = await redeem(b, rp, flow);
        const again = await tokenRequest(b, rp, { grant_type: 'authorization_code', code: flow.code,
                                                  redirect_uri: rp.redirect_uris[0], code_verifier: flow.verifier });
        assertOAuthError(again, 400, 'invalid_grant', /already used/, 'replay');
        const before = await activeTokenIds(b, rp.client_id);
        for (const [token, type] of [[tokens.access_token, ACCESS_TOKEN], [tokens.id_token, ID_TOKEN]]) {
            const r = await exchange({ subject_token: token, subject_token_type: type });
            assertOAuthError(r, 400, 'invalid_grant', /revoked/, `${type} after the replay`);
        }
        await assertTokensUnchanged(b, rp.client_id, before);
    });

    attack('trust 1: an id_token after refresh-token reuse revoked its family', async () => {
        const tokens = await tokensFor(b, rp, alice, { scope: 'openid orders:read offline_access' });
        assert.ok(tokens.refresh_token, 'a refresh token (offline_access)');
        const rotated = await tokenRequest(b, rp, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
        assert.equal(rotated.status, 200, rotated.text);
        const reuse = await tokenRequest(b, rp, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
        assertOAuthError(reuse, 400, 'invalid_grant', /family is revoked/, 'reuse');
        const before = await activeTokenIds(b, rp.client_id);
        for (const id of [tokens.id_token, rotated.json.id_token]) {
            const r = await exchange({ subject_token: id, subject_token_type: ID_TOKEN });
            assertOAuthError(r, 400, 'invalid_grant', /revoked/, 'id_token of a revoked family');
        }
        await assertTokensUnchanged(b, rp.client_id, before);
    });

    attack('trust 1: an id_token after the user revoked their consent', async () => {
        const bob = await newUser(b, `bob${++counter}`);
        const tokens = await tokensFor(b, rp, bob, { scope: 'openid orders:read' });
        const revoked = await adminFetch(b, 'DELETE', `/admin/v1/consents/${bob.id}/${rp.client_id}`);
        assert.equal(revoked.status, 204, revoked.text);
        const before = await activeTokenIds(b, rp.client_id);
        const r = await exchange({ subject_token: tokens.id_token, subject_token_type: ID_TOKEN });
        assertOAuthError(r, 400, 'invalid_grant', /revoked/, 'consent revoked');
        await assertTokensUnchanged(b, rp.client_id, before);
    });

    attack('trust 1: an exchanged token outlives the grant it came from', async () => {
        const gateway = await registerClient(b, { client_name: `gateway ${++counter}`, grant_types: [EXCHANGE],
                                                  scope: 'openid orders:read', access_token_lifetime: 86400 });
        const flow = await signIn(b, rp, alice, { scope: 'openid orders:read' });
        const tokens = await redeem(b, rp, flow);
        const r = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: tokens.access_token,
                                                   subject_token_type: ACCESS_TOKEN });
        assert.equal(r.status, 200, r.text);
        // never longer than the subject token (1 h), although the gateway's own lifetime is a day
        const subjectExp = jose.decodeJwt(tokens.access_token).exp;
        assert.ok(jose.decodeJwt(r.json.access_token).exp <= subjectExp, 'capped at the subject token\'s exp');
        assert.ok(r.json.expires_in <= 3600, r.text);
        assert.equal(await isActive(b, rs, r.json.access_token), true);
        // The code is replayed: the grant dies, and the exchanged token with it.
        const replay = await tokenRequest(b, rp, { grant_type: 'authorization_code', code: flow.code,
                                                   redirect_uri: rp.redirect_uris[0], code_verifier: flow.verifier });
        assertOAuthError(replay, 400, 'invalid_grant', /already used/, 'replay');
        assert.equal(await isActive(b, rs, r.json.access_token), false, 'the exchanged token is revoked too');
        await assertNoTokens(b, gateway.client_id);
    });

    attack('trust 1: a scope an administrator took from the subject token\'s client comes back through a gateway\'s exchange', async () => {
        // The gateway pattern: the gateway may hold orders:write itself; the subject token's
        // client no longer does, and its live token no longer carries it (the orders API).
        const service = await registerClient(b, { client_name: `narrowed ${++counter}`, grant_types: ['client_credentials'],
                                                  scope: 'orders:read orders:write' });
        const gateway = await registerClient(b, { client_name: `gateway ${++counter}`, grant_types: [EXCHANGE],
                                                  scope: 'orders:read orders:write' });
        const t = await tokenRequest(b, service, { grant_type: 'client_credentials', scope: 'orders:read orders:write' });
        assert.equal(t.status, 200, t.text);
        const narrowed = await adminFetch(b, 'PUT', `/admin/v1/clients/${service.client_id}`, {
            client_name: service.client_name, grant_types: ['client_credentials'], scope: 'orders:read' });
        assert.equal(narrowed.status, 200, narrowed.text);
        const before = await activeTokenIds(b, gateway.client_id);
        const asked = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: t.json.access_token,
                                                       subject_token_type: ACCESS_TOKEN, scope: 'orders:write' });
        assertOAuthError(asked, 400, 'invalid_scope',
                         /'orders:write' exceeds what the subject token was granted \(less what an administrator took from its client since\)/,
                         'orders:write asked');
        await assertTokensUnchanged(b, gateway.client_id, before);
        const unasked = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: t.json.access_token,
                                                         subject_token_type: ACCESS_TOKEN });
        assert.equal(unasked.status, 200, unasked.text);
        assert.equal(unasked.json.scope, 'orders:read', 'what the subject token still carries');
        assert.ok(!String(jose.decodeJwt(unasked.json.access_token).scope).includes('orders:write'), unasked.text);
        // A token of a client that is gone is exchanged for nothing.
        const t2 = await tokenRequest(b, service, { grant_type: 'client_credentials', scope: 'orders:read' });
        assert.equal(t2.status, 200, t2.text);
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/clients/${service.client_id}`)).status, 204);
        const gone = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: t2.json.access_token,
                                                      subject_token_type: ACCESS_TOKEN });
        assert.equal(gone.status, 400, gone.text);
        assert.equal(gone.json.error, 'invalid_grant', gone.text);
    });

    attack('trust 1: a gateway\'s token exchanged before an administrator took a scope from the subject token\'s client keeps the scope', async () => {
        const service = await registerClient(b, { client_name: `narrowed later ${++counter}`, grant_types: ['client_credentials'],
                                                  scope: 'orders:read orders:write' });
        const gateway = await registerClient(b, { client_name: `early gateway ${++counter}`, grant_types: [EXCHANGE],
                                                  scope: 'orders:read orders:write' });
        const t = await tokenRequest(b, service, { grant_type: 'client_credentials', scope: 'orders:read orders:write' });
        assert.equal(t.status, 200, t.text);
        const exchanged = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: t.json.access_token,
                                                           subject_token_type: ACCESS_TOKEN });
        assert.equal(exchanged.status, 200, exchanged.text);
        assert.equal(exchanged.json.scope, 'orders:read orders:write');
        assert.equal(await isActive(b, rs, exchanged.json.access_token), true);
        // A change that takes nothing away leaves it.
        const renamed = await adminFetch(b, 'PUT', `/admin/v1/clients/${service.client_id}`, {
            client_name: `${service.client_name} renamed`, grant_types: ['client_credentials'], scope: 'orders:read orders:write' });
        assert.equal(renamed.status, 200, renamed.text);
        assert.equal(await isActive(b, rs, exchanged.json.access_token), true, 'nothing was taken away');
        const narrowed = await adminFetch(b, 'PUT', `/admin/v1/clients/${service.client_id}`, {
            client_name: service.client_name, grant_types: ['client_credentials'], scope: 'orders:read' });
        assert.equal(narrowed.status, 200, narrowed.text);
        assert.equal(await isActive(b, rs, exchanged.json.access_token), false, 'exchanged before the scope was taken');
        // The service's own token lives on, without what was taken (every check reads its client now).
        const own = await introspect(b, rs, t.json.access_token);
        assert.equal(own.active, true);
        assert.equal(own.scope, 'orders:read');
    });

    attack('trust 1: a token exchanged from a trusted issuer\'s token keeps a scope an administrator took from that issuer', async () => {
        const issuer = `https://idp.narrowed${++counter}.example`;
        const key = await jose.generateKeyPair('ES256', { extractable: true });
        const jwks = { keys: [{ ...(await jose.exportJWK(key.publicKey)), kid: 'n', alg: 'ES256' }] };
        const trust = (body) => adminFetch(b, 'POST', '/admin/v1/trusted-issuers', { issuer, jwks, ...body });
        assert.equal((await trust({ scopes: ['orders:read', 'openid'], subjects: ['partner-user'] })).status, 201);
        const partnerToken = () => new jose.SignJWT({ sub: 'partner-user', aud: b.serviceUrl, jti: randomBytes(8).toString('hex') })
            .setProtectedHeader({ alg: 'ES256', kid: 'n' }).setIssuer(issuer).setIssuedAt().setExpirationTime('5m')
            .sign(key.privateKey);
        const exchangeOne = async () => {
            const r = await exchange({ subject_token: await partnerToken(), subject_token_type: JWT, scope: 'orders:read' });
            assert.equal(r.status, 200, r.text);
            return r.json.access_token;
        };
        const kept = await exchangeOne();
        // New keys (their rotation), the same scopes or more: nothing was taken away.
        assert.equal((await trust({})).status, 201);
        assert.equal((await trust({ scopes: ['orders:read', 'openid', 'email'] })).status, 201);
        assert.equal(await isActive(b, rs, kept), true, 'keys rotated, scopes widened');
        // orders:read taken from the issuer: what came from its tokens goes.
        assert.equal((await trust({ scopes: ['openid', 'email'] })).status, 201);
        assert.equal(await isActive(b, rs, kept), false, 'after orders:read was taken from the issuer');
        const asked = await exchange({ subject_token: await partnerToken(), subject_token_type: JWT, scope: 'orders:read' });
        assertOAuthError(asked, 400, 'invalid_scope', /exceeds/, 'orders:read asked after it was taken');
    });

    attack('trust 1: exchanged tokens outlive their subject token — revoked by an administrator, by its client (RFC 7009), or with its client', async () => {
        // A service's client_credentials token (no grant family behind it), exchanged by a gateway, and exchanged again.
        const service = await registerClient(b, { client_name: `service ${++counter}`, grant_types: ['client_credentials'], scope: 'orders:read' });
        const gateway = await registerClient(b, { client_name: `gateway ${counter}`, grant_types: [EXCHANGE], scope: 'orders:read' });
        const subjectToken = async () => {
            const r = await tokenRequest(b, service, { grant_type: 'client_credentials', scope: 'orders:read' });
            assert.equal(r.status, 200, r.text);
            return r.json.access_token;
        };
        const exchanged = async (subject) => {
            const r = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: subject, subject_token_type: ACCESS_TOKEN });
            assert.equal(r.status, 200, r.text);
            return r.json.access_token;
        };
        const chain = async () => {
            const s = await subjectToken();
            const e1 = await exchanged(s);
            const e2 = await exchanged(e1);
            for (const t of [s, e1, e2])
                assert.equal(await isActive(b, rs, t), true);
            return [s, e1, e2];
        };
        // 1. An administrator revokes the subject token: the whole chain dies with it.
        let [s, e1, e2] = await chain();
        const id = (await adminFetch(b, 'POST', '/admin/v1/jwt/inspect', { token: s })).json.server.stored.id;
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(id)}`)).status, 204);
        for (const [t, what] of [[s, 'subject'], [e1, 'exchanged'], [e2, 'exchanged twice']])
            assert.equal(await isActive(b, rs, t), false, `admin revocation: ${what}`);
        // 2. The service revokes its own token.
        [s, e1, e2] = await chain();
        const revoked = await formPost(b, '/oauth2/revoke', { token: s }, basicAuth(service.client_id, service.client_secret));
        assert.equal(revoked.status, 200, revoked.text);
        for (const [t, what] of [[s, 'subject'], [e1, 'exchanged'], [e2, 'exchanged twice']])
            assert.equal(await isActive(b, rs, t), false, `RFC 7009: ${what}`);
        // Revoking the middle of a chain takes what came after it, not what came before.
        [s, e1, e2] = await chain();
        const middle = (await adminFetch(b, 'POST', '/admin/v1/jwt/inspect', { token: e1 })).json.server.stored.id;
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(middle)}`)).status, 204);
        assert.deepEqual([await isActive(b, rs, s), await isActive(b, rs, e1), await isActive(b, rs, e2)], [true, false, false]);
        // 3. The service's client is deleted: the gateway's tokens made from its tokens go too.
        const [s3, e13, e23] = await chain();
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/clients/${service.client_id}`)).status, 204);
        for (const [t, what] of [[s3, 'subject'], [e13, 'exchanged'], [e23, 'exchanged twice'], [s, 'an earlier subject']])
            assert.equal(await isActive(b, rs, t), false, `client deleted: ${what}`);
    });

    attack('trust 1: a trusted issuer\'s token asks for more than the administrator allows that issuer', async () => {
        const subject = await new jose.SignJWT({ sub: 'partner-user', aud: b.serviceUrl, jti: randomBytes(8).toString('hex') })
            .setProtectedHeader({ alg: 'ES256', kid: 'idp' }).setIssuer(IDP).setIssuedAt().setExpirationTime('5m')
            .sign(idpKey.privateKey);
        const before = await activeTokenIds(b, rp.client_id);
        const r = await exchange({ subject_token: subject, subject_token_type: JWT, scope: 'orders:write' });
        assertOAuthError(r, 400, 'invalid_scope', /exceeds/, 'beyond the issuer\'s scopes');
        await assertTokensUnchanged(b, rp.client_id, before);
        // Without a scope: the issuer's list, not the client's registration.
        const ok = await exchange({ subject_token: subject, subject_token_type: JWT });
        assert.equal(ok.status, 200, ok.text);
        assert.equal(ok.json.scope, 'orders:read');
    });

    // --- 2. dynamic registration within the policy -----------------------------------------------

    const registerOpen = (metadata, token) => request(`${b.serviceUrl}/oauth2/register`, 'POST', JSON.stringify(metadata),
        { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) });

    for (const [what, metadata, field] of [
        ['client_credentials with orders:write (defeating --orders-require-token)',
         { grant_types: ['client_credentials'], scope: 'orders:write' }, /grant_types: 'client_credentials'/],
        ['the password grant', { grant_types: ['password'], scope: 'openid' }, /grant_types: 'password'/],
        ['the jwt-bearer grant', { grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'] },
         /grant_types: 'urn:ietf:params:oauth:grant-type:jwt-bearer'/],
        ['token exchange', { grant_types: [EXCHANGE] }, /grant_types: 'urn:ietf:params:oauth:grant-type:token-exchange'/],
        ['an orders scope on a code client', { redirect_uris: ['https://x.example/cb'], scope: 'openid orders:write' },
         /scope: 'orders:write'/],
        ['token_exchange_audiences naming the cluster',
         { redirect_uris: ['https://x.example/cb'], token_exchange_audiences: ['kubernetes'] },
         /token_exchange_audiences: 'kubernetes'/],
        ['allowed_resources', { redirect_uris: ['https://x.example/cb'], allowed_resources: ['https://api.example/'] },
         /allowed_resources: 'https:\/\/api.example\/'/],
        ['cluster_access', { redirect_uris: ['https://x.example/cb'], cluster_access: true }, /cluster_access is not client metadata/],
        ['resource_server (introspect other clients\' access tokens)', { redirect_uris: ['https://x.example/cb'], resource_server: true },
         /resource_server/],
    ]) {
        attack(`trust 2: anonymous registration asks for ${what}`, async () => {
            const before = await clientCount(b);
            const r = await registerOpen({ client_name: `anon ${++counter}`, ...metadata });
            assertOAuthError(r, 400, 'invalid_client_metadata', field, what);
            assert.equal(await clientCount(b), before, 'no client registered');
        });
    }

    attack('trust 1: a public client (no secret, no key) re-mints a leaked token under its own identity by token exchange', async () => {
        // Its client_id is no proof: whoever holds a token of alice's could exchange it there,
        // for that client's audiences. An administrator's client, an open registration, and an
        // administrator's change of a confidential exchanging client to "none" are refused alike.
        const before = await clientCount(b);
        const metadata = { client_name: 'public exchanger', token_endpoint_auth_method: 'none',
                           grant_types: ['authorization_code', EXCHANGE], scope: 'openid orders:read',
                           redirect_uris: ['https://public.example/cb'] };
        const byAdmin = await adminFetch(b, 'POST', '/admin/v1/clients', metadata);
        assert.equal(byAdmin.status, 400, byAdmin.text);
        assert.equal(byAdmin.json.error, 'invalid_client_metadata', byAdmin.text);
        assert.equal(byAdmin.json.error_description ?? byAdmin.json.message,
                     `${EXCHANGE} needs a confidential client (token_endpoint_auth_method other than none)`, byAdmin.text);
        const open = await registerOpen(metadata);
        assertOAuthError(open, 400, 'invalid_client_metadata',
                         /^urn:ietf:params:oauth:grant-type:token-exchange needs a confidential client/, 'open registration');
        const shown = (await adminFetch(b, 'GET', `/admin/v1/clients/${rp.client_id}`)).json;
        const madePublic = await adminFetch(b, 'PUT', `/admin/v1/clients/${rp.client_id}`, {
            client_name: shown.client_name, grant_types: shown.grant_types, redirect_uris: shown.redirect_uris,
            scope: shown.scope, token_exchange_audiences: shown.token_exchange_audiences, token_endpoint_auth_method: 'none' });
        assert.equal(madePublic.status, 400, madePublic.text);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/clients/${rp.client_id}`)).json.token_endpoint_auth_method,
                     shown.token_endpoint_auth_method);
        assert.equal(await clientCount(b), before);
    });

    attack('trust 2: an initial access token without a policy does not lift the server\'s', async () => {
        const iat = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens', { maxUses: 1 });
        assert.equal(iat.status, 201, iat.text);
        const before = await clientCount(b);
        const r = await registerOpen({ client_name: 'with iat', grant_types: ['client_credentials'], scope: 'orders:read' },
                                     iat.json.token);
        assertOAuthError(r, 400, 'invalid_client_metadata', /client_credentials/, 'iat without policy');
        assert.equal(await clientCount(b), before);
        const listed = (await adminFetch(b, 'GET', '/admin/v1/initial-access-tokens')).json.items.find((t) => t.id === iat.json.id);
        assert.equal(listed.usedCount, 0, 'the refused registration did not spend the token');
    });

    attack('trust 2: a registrant given the orders API picks whose orders it reaches (another customer, or everyone\'s by binding to none)', async () => {
        const A = randomUUID();
        const B = randomUUID();
        const m2m = { grant_types: ['client_credentials'], scope: 'orders:read', token_endpoint_auth_method: 'client_secret_basic' };
        // A token for customer A's partner, and one whose policy names no customer at all.
        const forA = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens',
                                      { policy: { grantTypes: ['client_credentials'], scopes: ['orders:read'], customers: [A.toUpperCase()] } });
        assert.equal(forA.status, 201, forA.text);
        assert.deepEqual(forA.json.policy.customers, [A], 'stored in canonical form');
        const noCustomers = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens',
                                             { policy: { grantTypes: ['client_credentials'], scopes: ['orders:read'] } });
        assert.equal(noCustomers.status, 201, noCustomers.text);
        const before = await clientCount(b);
        for (const [token, metadata, field] of [
            [forA.json.token, {}, /^orders_customers: a client with the orders API's scopes must be bound to customers the registration policy names \(allowed: /],
            [forA.json.token, { orders_customers: [B] }, new RegExp(`^orders_customers: '${B}' is not allowed by the registration policy`)],
            [forA.json.token, { orders_customers: [A, B] }, new RegExp(`^orders_customers: '${B}' is not allowed`)],
            [noCustomers.json.token, {}, /must be bound to customers the registration policy names \(allowed: none\)/],
            [noCustomers.json.token, { orders_customers: [A] }, new RegExp(`^orders_customers: '${A}' is not allowed`)]]) {
            const r = await registerOpen({ client_name: `picks ${++counter}`, ...m2m, ...metadata }, token);
            assertOAuthError(r, 400, 'invalid_client_metadata', field, JSON.stringify(metadata));
        }
        // Open registration, even with the orders scopes in the server's policy, binds no customer.
        const scopesBefore = (await adminFetch(b, 'GET', '/admin/v1/settings/oauth-registration-scopes')).json.value;
        const opened = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-registration-scopes', { value: 'openid,orders:read' });
        assert.equal(opened.status, 200, opened.text);
        try {
            for (const metadata of [{}, { orders_customers: [A] }]) {
                const r = await registerOpen({ client_name: `open picks ${++counter}`, redirect_uris: ['https://picks.example/cb'],
                                               scope: 'openid orders:read', ...metadata });
                assertOAuthError(r, 400, 'invalid_client_metadata', /^orders_customers: /, `open ${JSON.stringify(metadata)}`);
            }
        } finally {
            const back = await adminFetch(b, 'PUT', '/admin/v1/settings/oauth-registration-scopes', { value: scopesBefore });
            assert.equal(back.status, 200, back.text);
        }
        assert.equal(await clientCount(b), before, 'no client registered');
        // Within its policy: bound to A, and its tokens reach A's orders only.
        const ok = await registerOpen({ client_name: `bound ${++counter}`, ...m2m, orders_customers: [A] }, forA.json.token);
        assert.equal(ok.status, 201, ok.text);
        assert.deepEqual(ok.json.orders_customers, [A]);
    });

    attack('trust 2: an RFC 7592 update widens a registered client\'s scope and grants', async () => {
        const reg = await registerOpen({ client_name: 'grows later', redirect_uris: ['https://grow.example/cb'], scope: 'openid' });
        assert.equal(reg.status, 201, reg.text);
        const c = reg.json;
        for (const [metadata, field] of [[{ scope: 'openid orders:write' }, /scope: 'orders:write'/],
                                          [{ grant_types: ['authorization_code', 'client_credentials'] }, /client_credentials/]]) {
            const r = await request(`${b.serviceUrl}/oauth2/register/${c.client_id}`, 'PUT',
                                    JSON.stringify({ client_id: c.client_id, client_name: c.client_name,
                                                     redirect_uris: c.redirect_uris, scope: 'openid', ...metadata }),
                                    { 'Content-Type': 'application/json', Authorization: `Bearer ${c.registration_access_token}` });
            assertOAuthError(r, 400, 'invalid_client_metadata', field, JSON.stringify(metadata));
        }
        const now = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
        assert.equal(now.scope, 'openid');
        assert.deepEqual(now.grant_types, ['authorization_code']);
    });

    attack('trust 2: an open registration gives itself day-long tokens (and id_tokens)', async () => {
        const before = await clientCount(b);
        const r = await registerOpen({ client_name: 'long lived', redirect_uris: ['https://long.example/cb'], scope: 'openid',
                                       access_token_lifetime: 86400 });
        assertOAuthError(r, 400, 'invalid_client_metadata',
                         /^access_token_lifetime: a registration may ask for at most 3600 seconds; only an administrator may lengthen a client's tokens$/,
                         'a day');
        assert.equal(await clientCount(b), before);
        const hour = await registerOpen({ client_name: 'an hour', redirect_uris: ['https://hour.example/cb'], scope: 'openid',
                                          access_token_lifetime: 3600 });
        assert.equal(hour.status, 201, hour.text);
    });

    attack('trust 2: an RFC 7592 update undoes an administrator\'s shorter token lifetime or moves the client onto a new secret', async () => {
        const reg = await registerOpen({ client_name: 'keyed later', redirect_uris: ['https://keyed.example/cb'], scope: 'openid' });
        assert.equal(reg.status, 201, reg.text);
        const c = reg.json;
        // The administrator shortens its tokens and takes its secret (a public client from now on).
        const admin = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, {
            client_name: c.client_name, redirect_uris: c.redirect_uris, scope: 'openid', grant_types: c.grant_types,
            token_endpoint_auth_method: 'none', access_token_lifetime: 300 });
        assert.equal(admin.status, 200, admin.text);
        const before = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
        const base = { client_id: c.client_id, client_name: c.client_name, redirect_uris: c.redirect_uris, scope: 'openid',
                       grant_types: c.grant_types, token_endpoint_auth_method: 'none', access_token_lifetime: 300 };
        for (const [metadata, field] of [
            [{ access_token_lifetime: 86400 }, /access_token_lifetime: only an administrator may lengthen a client's tokens \(now 300 seconds\)/],
            [{ token_endpoint_auth_method: 'client_secret_basic' },
             /token_endpoint_auth_method: only an administrator may change how a client authenticates \(now none\)/]]) {
            const r = await request(`${b.serviceUrl}/oauth2/register/${c.client_id}`, 'PUT', JSON.stringify({ ...base, ...metadata }),
                                    { 'Content-Type': 'application/json', Authorization: `Bearer ${c.registration_access_token}` });
            assertOAuthError(r, 400, 'invalid_client_metadata', field, JSON.stringify(metadata));
            assert.equal(r.json.client_secret, undefined, 'no secret issued');
        }
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json, before, 'unchanged');
        // Narrowing stays the registrant's.
        const shorter = await request(`${b.serviceUrl}/oauth2/register/${c.client_id}`, 'PUT',
                                      JSON.stringify({ ...base, access_token_lifetime: 120 }),
                                      { 'Content-Type': 'application/json', Authorization: `Bearer ${c.registration_access_token}` });
        assert.equal(shorter.status, 200, shorter.text);
        assert.equal(shorter.json.access_token_lifetime, 120);
    });

    // An RFC 7592 update by the holder of the registration access token, with `metadata`
    // replacing what the client has now (as the admin API shows it).
    const updateRegistered = (c, metadata) => request(`${b.serviceUrl}/oauth2/register/${c.client_id}`, 'PUT',
        JSON.stringify({ client_id: c.client_id, ...metadata }),
        { 'Content-Type': 'application/json', Authorization: `Bearer ${c.registration_access_token}` });

    attack('trust 2: an RFC 7592 update adds its own private_key_jwt key after an administrator took the client\'s secret', async () => {
        const iat = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens',
                                     { maxUses: 1, policy: { grantTypes: ['client_credentials'], scopes: ['profile'] } });
        assert.equal(iat.status, 201, iat.text);
        const reg = await registerOpen({ client_name: `keyed machine ${++counter}`, grant_types: ['client_credentials'],
                                         scope: 'profile' }, iat.json.token);
        assert.equal(reg.status, 201, reg.text);
        const c = reg.json;
        // The administrator moves it onto a key of their own: the secret is gone.
        const adminKey = await jose.generateKeyPair('ES256', { extractable: true });
        const adminJwk = { ...(await jose.exportJWK(adminKey.publicKey)), kid: 'admin', alg: 'ES256' };
        const metadata = { client_name: c.client_name, grant_types: ['client_credentials'], scope: 'profile',
                           token_endpoint_auth_method: 'private_key_jwt' };
        const moved = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, { ...metadata, jwks: { keys: [adminJwk] } });
        assert.equal(moved.status, 200, moved.text);
        const before = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
        // The registrant adds its own key, alone or beside the administrator's (the same key
        // under another kid is its own too).
        const own = await jose.generateKeyPair('ES256', { extractable: true });
        const ownJwk = { ...(await jose.exportJWK(own.publicKey)), kid: 'own', alg: 'ES256' };
        for (const keys of [[ownJwk], [adminJwk, ownJwk]]) {
            const r = await updateRegistered(c, { ...metadata, jwks: { keys } });
            assertOAuthError(r, 400, 'invalid_client_metadata',
                             /^jwks: only an administrator may add a key to this client/, `${keys.length} key(s)`);
        }
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json, before, 'unchanged');
        // Its own key opens nothing; the administrator's key still works, under another kid too.
        const assertion = (key, kid) => new jose.SignJWT({ jti: randomUUID() })
            .setProtectedHeader({ alg: 'ES256', kid }).setIssuer(c.client_id).setSubject(c.client_id)
            .setAudience(b.serviceUrl).setIssuedAt().setExpirationTime('2m').sign(key);
        const grant = async (key, kid) => formPost(b, '/oauth2/token', {
            grant_type: 'client_credentials', client_assertion: await assertion(key, kid),
            client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' });
        assertOAuthError(await grant(own.privateKey, 'own'), 401, 'invalid_client', /./, 'the registrant\'s key');
        await assertNoTokens(b, c.client_id, 'the registrant\'s key');
        const renamed = await updateRegistered(c, { ...metadata, jwks: { keys: [{ ...adminJwk, kid: 'renamed' }] } });
        assert.equal(renamed.status, 200, renamed.text);
        assert.equal((await grant(adminKey.privateKey, 'renamed')).status, 200, 'the administrator\'s key');
    });

    attack('trust 2: an RFC 7592 update moves an exchange audience an administrator allowed into allowed_resources', async () => {
        const reg = await registerOpen({ client_name: `audiences ${++counter}`, redirect_uris: ['https://aud.example/cb'],
                                         scope: 'openid' });
        assert.equal(reg.status, 201, reg.text);
        const c = reg.json;
        const PAY = 'https://pay.internal';
        const metadata = { client_name: c.client_name, redirect_uris: c.redirect_uris, scope: 'openid',
                           grant_types: ['client_credentials', EXCHANGE], token_exchange_audiences: [PAY] };
        const admin = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, { ...metadata, allowed_resources: [] });
        assert.equal(admin.status, 200, admin.text);
        const before = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
        const moved = await updateRegistered(c, { ...metadata, allowed_resources: [PAY] });
        assertOAuthError(moved, 400, 'invalid_client_metadata', /^allowed_resources: 'https:\/\/pay\.internal' is not allowed/);
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json, before, 'unchanged');
        const direct = await tokenRequest(b, { ...c, client_secret: c.client_secret },
                                          { grant_type: 'client_credentials', resource: PAY, scope: 'openid' });
        assertOAuthError(direct, 400, 'invalid_target', /./, 'no token for the exchange audience');
        await assertNoTokens(b, c.client_id);
        // What the administrator left stays the registrant's to keep.
        const kept = await updateRegistered(c, metadata);
        assert.equal(kept.status, 200, kept.text);
        assert.deepEqual(kept.json.token_exchange_audiences, [PAY]);
    });

    attack('trust 2: a client exchanges its own client_credentials token for an exchange audience it may not ask for directly', async () => {
        // token_exchange_audiences pass users' tokens on; the client's own token (no user behind
        // it) goes only where client_credentials would take it (allowed_resources).
        const PAY = 'https://pay-own.internal';
        const c = await registerClient(b, { client_name: `own exchange ${++counter}`, grant_types: ['client_credentials', EXCHANGE],
                                            scope: 'openid', token_exchange_audiences: [PAY] });
        const direct = await tokenRequest(b, c, { grant_type: 'client_credentials', resource: PAY });
        assertOAuthError(direct, 400, 'invalid_target', /^resource 'https:\/\/pay-own\.internal' is not among this client's allowed_resources$/);
        const own = await tokenRequest(b, c, { grant_type: 'client_credentials' });
        assert.equal(own.status, 200, own.text);
        const before = await activeTokenIds(b, c.client_id);
        for (const target of [{ audience: PAY }, { resource: PAY }]) {
            const r = await tokenRequest(b, c, { grant_type: EXCHANGE, subject_token: own.json.access_token,
                                                 subject_token_type: ACCESS_TOKEN, ...target });
            assertOAuthError(r, 400, 'invalid_target',
                             /^the subject token is this client's own \(client_credentials\): it is exchanged only for an audience the client may ask for directly \(allowed_resources\), not for 'https:\/\/pay-own\.internal'$/,
                             JSON.stringify(target));
        }
        await assertTokensUnchanged(b, c.client_id, before);
        // Where client_credentials goes, the exchange goes too: no audience asked for (its
        // default), or one an administrator put among its allowed_resources.
        const plain = await tokenRequest(b, c, { grant_type: EXCHANGE, subject_token: own.json.access_token,
                                                 subject_token_type: ACCESS_TOKEN });
        assert.equal(plain.status, 200, plain.text);
        assert.equal(jose.decodeJwt(plain.json.access_token).aud, c.client_id);
        const allowed = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, {
            client_name: c.client_name, grant_types: ['client_credentials', EXCHANGE], scope: 'openid',
            token_exchange_audiences: [PAY], allowed_resources: [PAY] });
        assert.equal(allowed.status, 200, allowed.text);
        const now = await tokenRequest(b, c, { grant_type: EXCHANGE, subject_token: own.json.access_token,
                                               subject_token_type: ACCESS_TOKEN, audience: PAY });
        assert.equal(now.status, 200, now.text);
        assert.equal(jose.decodeJwt(now.json.access_token).aud, PAY);
    });

    attack('trust 2: a remembered consent redirects to a redirect URI the registrant added afterwards (RFC 7592)', async () => {
        const HONEST = 'https://honest.example/cb';
        const PHISH = 'https://phish.example/added';
        const reg = await registerOpen({ client_name: `remembered ${++counter}`, redirect_uris: [HONEST],
                                         token_endpoint_auth_method: 'none', scope: 'openid' });
        assert.equal(reg.status, 201, reg.text);
        const c = reg.json;
        const ua = new UserAgent();
        await signIn(b, c, alice, { scope: 'openid', ua }); // consented once, at the honest address
        const added = await updateRegistered(c, { client_name: c.client_name, redirect_uris: [HONEST, PHISH],
                                                  token_endpoint_auth_method: 'none', scope: 'openid' });
        assert.equal(added.status, 200, added.text);
        const authorize = (fields = {}) => {
            const u = new URL('/oauth2/authorize', b.serviceUrl);
            for (const [k, v] of Object.entries({ client_id: c.client_id, redirect_uri: PHISH, response_type: 'code',
                                                  scope: 'openid', state: 'st', code_challenge: 'a'.repeat(43),
                                                  code_challenge_method: 'S256', ...fields }))
                u.searchParams.set(k, v);
            return ua.fetch(u);
        };
        // Signed in, consent remembered: the consent page again, naming where the answer goes.
        let r = await authorize();
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.location.pathname, '/oauth2/consent', `no code sent to ${r.rawLocation}`);
        const page = await ua.fetch(r.location);
        assert.match(element(page.text, 'redirect-origin')?.text ?? '', /return to https:\/\/phish\.example\./);
        // Silently: consent_required, on a page with a link (the address is nobody's vetted one).
        r = await authorize({ prompt: 'none' });
        assert.equal(r.status, 400, r.text.slice(0, 300));
        assert.equal(r.location, null, `no redirect (Location ${r.rawLocation})`);
        assert.equal(new URL(element(r.text, 'continue').attrs.href).searchParams.get('error'), 'consent_required');
        assert.equal(new URL(element(r.text, 'continue').attrs.href).searchParams.get('code'), null);
    });

    attack('trust 2: a live policy change applies to the next registration, and needs oauth:write', async () => {
        const adminOnly = await scopedAdminToken(b, `settings only ${++counter}`, ['admin:write']);
        const denied = await request(`${b.adminUrl}/admin/v1/settings/oauth-registration-grant-types`, 'PUT',
                                     JSON.stringify({ value: 'authorization_code,client_credentials' }),
                                     { Authorization: `Bearer ${adminOnly}`, 'Content-Type': 'application/json' });
        assert.equal(denied.status, 403, denied.text);
        assert.match(denied.json.message, /also needs oauth:write/);
        const still = (await adminFetch(b, 'GET', '/admin/v1/settings/oauth-registration-grant-types')).json;
        assert.equal(still.value, 'authorization_code,refresh_token,urn:ietf:params:oauth:grant-type:device_code');
        const before = await clientCount(b);
        const r = await registerOpen({ client_name: 'still m2m', grant_types: ['client_credentials'] });
        assertOAuthError(r, 400, 'invalid_client_metadata', /client_credentials/, 'policy unchanged');
        assert.equal(await clientCount(b), before);
    });

    // RFC 9700 §4.11.2: this server's address must not vouch for a stranger's. A client that
    // registered itself, with redirect URIs no administrator or initial access token fixed, gets a
    // page with a link where an administrator's client gets a redirect.
    attack('trust 2: a stranger\'s open registration makes this server an open redirector (errors, prompt=none, a refusal, a sign-out)', async () => {
        const PHISH = 'https://phish.example/landing';
        const reg = await registerOpen({ client_name: `lookalike ${++counter}`, redirect_uris: [PHISH],
                                         post_logout_redirect_uris: ['https://phish.example/bye'],
                                         token_endpoint_auth_method: 'none', scope: 'openid profile' });
        assert.equal(reg.status, 201, reg.text);
        const c = reg.json;
        const authorize = (fields) => {
            const u = new URL('/oauth2/authorize', b.serviceUrl);
            for (const [k, v] of Object.entries({ client_id: c.client_id, redirect_uri: PHISH, response_type: 'code',
                                                  state: 'st', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256',
                                                  ...fields }))
                u.searchParams.set(k, v);
            return u;
        };
        const assertLinkOnly = (r, what, error, status = 400) => {
            assert.equal(r.status, status, `${what}: ${r.text.slice(0, 300)}`);
            assert.equal(r.location, null, `${what}: no redirect (Location ${r.rawLocation})`);
            assert.match(r.headers.get('content-type') ?? '', /^text\/html/, what);
            const link = element(r.text, 'continue');
            assert.ok(link, `${what}: a link back in ${r.text}`);
            const to = new URL(link.attrs.href);
            assert.equal(to.origin, 'https://phish.example', what);
            if (error)
                assert.equal(to.searchParams.get('error'), error, `${what}: the link carries the error`);
            assert.equal(element(r.text, 'continue-origin').text, 'https://phish.example', `${what}: the page names the host`);
            assert.ok(element(r.text, 'unvetted'), `${what}: says nobody checked the address`);
        };
        const ua = new UserAgent();
        for (const [what, fields, error] of [
            ['a scope it does not have', { scope: 'openid orders:read' }, 'invalid_scope'],
            ['an unsupported response_type', { response_type: 'token' }, 'unsupported_response_type'],
            ['prompt=none without a session', { scope: 'openid', prompt: 'none' }, 'login_required']])
            assertLinkOnly(await ua.fetch(authorize(fields)), what, error);
        // A refusal at the consent page: the page said where the browser goes; denying shows a link.
        let r = await ua.fetch(authorize({ scope: 'openid' }));
        assert.equal(r.location?.pathname, '/oauth2/login', r.text.slice(0, 300));
        const login = form((await ua.fetch(r.location)).text, 'login-form');
        r = await ua.fetch(new URL(login.action, b.serviceUrl), { method: 'POST',
            form: { ...login.fields, username: alice.username, password: alice.password } });
        assert.equal(r.location?.pathname, '/oauth2/consent', r.text.slice(0, 300));
        const page = await ua.fetch(r.location);
        assert.match(element(page.text, 'redirect-origin')?.text ?? '', /return to https:\/\/phish\.example\. This application registered itself/);
        const consent = form(page.text, 'consent-form');
        assertLinkOnly(await ua.fetch(new URL(consent.action, b.serviceUrl), { method: 'POST', form: { ...consent.fields, decision: 'deny' } }),
                       'consent denied', 'access_denied');
        // A sign-out: with nobody signed in, and after confirming one.
        const logout = new URL('/oauth2/logout', b.serviceUrl);
        logout.searchParams.set('client_id', c.client_id);
        logout.searchParams.set('post_logout_redirect_uri', 'https://phish.example/bye');
        assertLinkOnly(await new UserAgent().fetch(logout), 'sign-out without a session', undefined, 200);
        const confirm = form((await ua.fetch(logout)).text, 'logout-form');
        assertLinkOnly(await ua.fetch(new URL(confirm.action, b.serviceUrl), { method: 'POST', form: confirm.fields }),
                       'sign-out confirmed', undefined, 200);
        // The administrator sees why, and vouches for the client by saving it as listed (what the
        // console's Vouch button sends): from then on, redirects.
        const seen = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
        assert.equal(seen.self_registered, true);
        assert.equal(seen.redirects_vetted, false);
        const saved = await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}`, seen);
        assert.equal(saved.status, 200, saved.text);
        assert.equal(saved.json.redirects_vetted, true);
        assert.equal(saved.json.self_registered, true);
        assert.deepEqual({ ...saved.json, redirects_vetted: false }, seen, 'nothing else changed');
        r = await new UserAgent().fetch(authorize({ scope: 'openid orders:read' }));
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.location.origin, 'https://phish.example');
        assert.equal(r.location.searchParams.get('error'), 'invalid_scope');
    });

    // Device-code phishing: a stranger registers a device client under a name of its choosing and
    // sends the victim the verification link. The consent page says when a client registered
    // itself; the device page said nothing, and showed the chosen name alone.
    attack('trust 2: device-code phishing — a self-registered client named like the helpdesk, shown to the user as any other', async () => {
        const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
        const reg = await registerOpen({ client_name: 'IT Helpdesk (Gatehouse)', token_endpoint_auth_method: 'none',
                                         grant_types: [DEVICE, 'refresh_token'], scope: 'openid offline_access' });
        assert.equal(reg.status, 201, reg.text);
        const started = await formPost(b, '/oauth2/device_authorization', { client_id: reg.json.client_id, scope: 'openid offline_access' });
        assert.equal(started.status, 200, started.text);
        const ua = new UserAgent();
        const entry = await ua.fetch(started.json.verification_uri_complete);
        assert.equal(entry.status, 200, entry.text);
        const entered = form(entry.text, 'device-form');
        const page = await ua.fetch(new URL(entered.action, b.serviceUrl), { method: 'POST',
            form: { ...entered.fields, user_code: started.json.user_code, username: alice.username, password: alice.password } });
        assert.equal(page.status, 200, page.text);
        assert.equal(element(page.text, 'client-name')?.text, 'IT Helpdesk (Gatehouse)');
        const note = element(page.text, 'unvetted');
        assert.ok(note, `the page says the client registered itself:\n${page.text}`);
        assert.match(note.text, /registered itself with Gatehouse: no administrator has checked it/);
        assert.equal(element(page.text, 'client-id')?.text, reg.json.client_id);
        // An administrator saves the client (vouching for its redirect URIs, or narrowing a scope):
        // the registrant renames it through RFC 7592, and the device page still says whose name it is.
        const seen = (await adminFetch(b, 'GET', `/admin/v1/clients/${reg.json.client_id}`)).json;
        const saved = await adminFetch(b, 'PUT', `/admin/v1/clients/${reg.json.client_id}`, seen);
        assert.equal(saved.status, 200, saved.text);
        assert.equal(saved.json.redirects_vetted, true);
        const renamed = await request(`${b.serviceUrl}/oauth2/register/${reg.json.client_id}`, 'PUT',
                                      JSON.stringify({ client_id: reg.json.client_id, client_name: 'Gatehouse IT Helpdesk',
                                                       token_endpoint_auth_method: 'none', grant_types: [DEVICE, 'refresh_token'],
                                                       scope: 'openid offline_access' }),
                                      { 'Content-Type': 'application/json',
                                        Authorization: `Bearer ${reg.json.registration_access_token}` });
        assert.equal(renamed.status, 200, renamed.text);
        const again = await formPost(b, '/oauth2/device_authorization', { client_id: reg.json.client_id, scope: 'openid offline_access' });
        assert.equal(again.status, 200, again.text);
        const entry2 = await ua.fetch(again.json.verification_uri_complete);
        const entered2 = form(entry2.text, 'device-form');
        const page2 = await ua.fetch(new URL(entered2.action, b.serviceUrl), { method: 'POST',
            form: { ...entered2.fields, user_code: again.json.user_code } });
        assert.equal(page2.status, 200, page2.text);
        assert.equal(element(page2.text, 'client-name')?.text, 'Gatehouse IT Helpdesk');
        assert.match(element(page2.text, 'unvetted')?.text ?? '', /registered itself with Gatehouse, and its name is its own choice/,
                     `a renamed client after an administrator's save:\n${page2.text}`);
        assert.equal(element(page2.text, 'client-id')?.text, reg.json.client_id);
    });

    // What the sign-in pages tell the user of a stranger's client must be what the browser does:
    // a redirect URI whose host a browser reads otherwise than Qt, a look-alike host in Unicode, a
    // name with bidirectional controls or a terminal's escape sequences.
    attack('trust 2: dynamic registration — redirect URIs a browser reads with another host (https:///host, https:host, a user name), names with bidi or control characters → 400; look-alike hosts shown in punycode', async () => {
        for (const [what, uri] of [['three slashes', 'https:///phish.example/cb'], ['no slashes', 'https:phish.example/cb'],
                                   ['a user name', 'https://good.example@phish.example/cb'],
                                   ['an empty user name', 'https://@phish.example/cb'],
                                   ['a backslash', 'https://good.example\\@phish.example/cb'],
                                   ['sign-out: three slashes', null]]) {
            const metadata = { client_name: `hosts ${++counter}`, token_endpoint_auth_method: 'none', scope: 'openid',
                               redirect_uris: [uri ?? 'https://app.example/cb'] };
            if (!uri)
                metadata.post_logout_redirect_uris = ['https:///phish.example/bye'];
            const r = await registerOpen(metadata);
            assert.equal(r.status, 400, `${what}: ${r.text}`);
            assert.equal(r.json.error, 'invalid_redirect_uri', `${what}: ${r.text}`);
        }
        for (const [what, name, why] of [['a right-to-left override', 'Gatehouse Console \u202egnp.exe', 'bidirectional control'],
                                         ['an isolate', 'Billing \u2067x', 'bidirectional control'],
                                         ['an escape sequence', 'zz\r\u001b[2K\u001b[999C', 'control']]) {
            const r = await registerOpen({ client_name: name, token_endpoint_auth_method: 'none', scope: 'openid',
                                           redirect_uris: ['https://app.example/cb'] });
            assertOAuthError(r, 400, 'invalid_client_metadata', new RegExp(`^client_name must not contain ${why} characters$`), what);
        }
        const contacts = await registerOpen({ client_name: `contacts ${++counter}`, token_endpoint_auth_method: 'none',
                                              scope: 'openid', redirect_uris: ['https://app.example/cb'],
                                              contacts: ['ops@example.org\u001b]52;c;cHdu\u0007'] });
        assertOAuthError(contacts, 400, 'invalid_client_metadata', /^contacts must not contain control characters$/, 'contacts');
        // A look-alike host (Cyrillic letters that render as "apple.com") is named as the browser
        // reaches it, in punycode, on the consent page and on the error page.
        const LOOKALIKE = 'https://xn--80ak6aa92e.com/cb';
        const reg = await registerOpen({ client_name: `lookalike ${++counter}`, token_endpoint_auth_method: 'none',
                                         scope: 'openid', redirect_uris: [LOOKALIKE] });
        assert.equal(reg.status, 201, reg.text);
        const u = new URL('/oauth2/authorize', b.serviceUrl);
        for (const [k, v] of Object.entries({ client_id: reg.json.client_id, redirect_uri: LOOKALIKE, response_type: 'token' }))
            u.searchParams.set(k, v);
        const r = await new UserAgent().fetch(u);
        assert.equal(r.status, 400, r.text.slice(0, 300));
        assert.equal(element(r.text, 'continue-origin')?.text, 'https://xn--80ak6aa92e.com', r.text);
        u.searchParams.set('response_type', 'code');
        u.searchParams.set('scope', 'openid');
        u.searchParams.set('code_challenge', 'a'.repeat(43));
        u.searchParams.set('code_challenge_method', 'S256');
        const ua = new UserAgent();
        let step = await ua.fetch(u);
        assert.equal(step.location?.pathname, '/oauth2/login', step.text.slice(0, 300));
        const login = form((await ua.fetch(step.location)).text, 'login-form');
        step = await ua.fetch(new URL(login.action, b.serviceUrl), { method: 'POST',
            form: { ...login.fields, username: alice.username, password: alice.password } });
        assert.equal(step.location?.pathname, '/oauth2/consent', step.text.slice(0, 300));
        const consent = await ua.fetch(step.location);
        assert.match(element(consent.text, 'redirect-origin')?.text ?? '', /return to https:\/\/xn--80ak6aa92e\.com\. This application/,
                     consent.text);
    });

    attack('trust 2: the legitimate path — an initial access token that fixes the redirect URIs, and an administrator\'s own client, redirect at once', async () => {
        const CB = 'https://partner.example/cb';
        const iat = await adminFetch(b, 'POST', '/admin/v1/initial-access-tokens',
                                     { maxUses: 1, policy: { redirectUris: [CB] } });
        assert.equal(iat.status, 201, iat.text);
        const reg = await registerOpen({ client_name: `partner ${++counter}`, redirect_uris: [CB], scope: 'openid',
                                         token_endpoint_auth_method: 'none' }, iat.json.token);
        assert.equal(reg.status, 201, reg.text);
        const seen = (await adminFetch(b, 'GET', `/admin/v1/clients/${reg.json.client_id}`)).json;
        assert.equal(seen.self_registered, true);
        assert.equal(seen.redirects_vetted, true);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/clients/${rp.client_id}`)).json.redirects_vetted, true);
        for (const [client, uri] of [[reg.json, CB], [rp, rp.redirect_uris[0]]]) {
            const u = new URL('/oauth2/authorize', b.serviceUrl);
            for (const [k, v] of Object.entries({ client_id: client.client_id, redirect_uri: uri, response_type: 'code',
                                                  scope: 'openid orders:admin', code_challenge: 'a'.repeat(43),
                                                  code_challenge_method: 'S256' }))
                u.searchParams.set(k, v);
            const r = await new UserAgent().fetch(u);
            assert.equal(r.status, 303, r.text.slice(0, 300));
            assert.equal(`${r.location.origin}${r.location.pathname}`, uri);
            assert.equal(r.location.searchParams.get('error'), 'invalid_scope');
        }
    });

    // --- 3. an RP never becomes the user inside the cluster -----------------------------------

    attack('trust 3: an RP exchanges the user\'s id_token for the cluster\'s audience', async () => {
        const tokens = await tokensFor(b, rp, alice, { scope: 'openid' });
        const before = await activeTokenIds(b, rp.client_id);
        const r = await exchange({ subject_token: tokens.id_token, subject_token_type: ID_TOKEN, audience: 'kubernetes' });
        assertOAuthError(r, 400, 'invalid_target', /not allowed this client to act for the cluster/, 'no cluster access');
        await assertTokensUnchanged(b, rp.client_id, before);
        // and whatever the RP holds is no cluster identity
        for (const t of [tokens.id_token, tokens.access_token])
            assert.equal((await clusterIdentity(b, t)).status, 401);
    });

    attack('trust 3: a client allowed for the cluster exchanges a token not issued for it', async () => {
        const gateway = await registerClient(b, { client_name: `cluster gateway ${++counter}`, grant_types: [EXCHANGE],
                                                  scope: 'openid', token_exchange_audiences: ['kubernetes'] });
        const flag = await adminFetch(b, 'PUT', `/admin/v1/clients/${gateway.client_id}/cluster-access`, { allowed: true });
        assert.equal(flag.status, 200, flag.text);
        assert.equal(flag.json.cluster_access, true);
        const rpTokens = await tokensFor(b, rp, alice, { scope: 'openid' }); // the RP's, not for the cluster
        const r = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: rpTokens.access_token,
                                                   subject_token_type: ACCESS_TOKEN, audience: 'kubernetes' });
        assertOAuthError(r, 400, 'invalid_target', /not issued for the cluster API/, 'subject not for the cluster');
        await assertNoTokens(b, gateway.client_id);
    });

    attack('trust 3: a relying party\'s token laundered — exchanged first for the gateway itself, then for the cluster', async () => {
        const gateway = await registerClient(b, { client_name: `two-step gateway ${++counter}`, grant_types: [EXCHANGE],
                                                  scope: 'openid', token_exchange_audiences: ['kubernetes'] });
        assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${gateway.client_id}/cluster-access`, { allowed: true })).status, 200);
        const rpTokens = await tokensFor(b, rp, alice, { scope: 'openid' }); // the RP's, not for the cluster
        const first = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: rpTokens.access_token,
                                                       subject_token_type: ACCESS_TOKEN });
        assert.equal(first.status, 200, first.text);
        const before = await activeTokenIds(b, gateway.client_id);
        const second = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: first.json.access_token,
                                                        subject_token_type: ACCESS_TOKEN, audience: 'kubernetes' });
        assertOAuthError(second, 400, 'invalid_target',
                         new RegExp(`^the subject token descends from a token of a client not allowed to act for the cluster \\(${rp.client_id}\\)$`), 'laundered');
        await assertTokensUnchanged(b, gateway.client_id, before);
        assert.equal((await clusterIdentity(b, first.json.access_token)).status, 401);
    });

    attack('trust 3: a gateway allowed for the cluster exchanges its own client_credentials token into a cluster identity', async () => {
        const gateway = await registerClient(b, { client_name: `self gateway ${++counter}`, grant_types: [EXCHANGE, 'client_credentials'],
                                                  scope: 'openid', token_exchange_audiences: ['kubernetes'] });
        assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${gateway.client_id}/cluster-access`, { allowed: true })).status, 200);
        const own = await tokenRequest(b, gateway, { grant_type: 'client_credentials' });
        assert.equal(own.status, 200, own.text);
        const before = await activeTokenIds(b, gateway.client_id);
        const r = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: own.json.access_token,
                                                   subject_token_type: ACCESS_TOKEN, audience: 'kubernetes' });
        assertOAuthError(r, 400, 'invalid_target', /^the subject token is this client's own \(client_credentials\): .* not for 'kubernetes'$/,
                         'the gateway is no cluster user of its own');
        await assertTokensUnchanged(b, gateway.client_id, before);
        assert.equal((await clusterIdentity(b, own.json.access_token)).status, 401);
        // A user's token it passes on still reaches the cluster as the user (the legitimate path
        // is 'trust 3: the legitimate path — kubectl's login …').
    });

    attack('trust 3: another issuer\'s token laundered — exchanged first for the gateway itself, then for the cluster', async () => {
        const gateway = await registerClient(b, { client_name: `laundering gateway ${++counter}`, grant_types: [EXCHANGE],
                                                  scope: 'openid orders:read', token_exchange_audiences: ['kubernetes'] });
        assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${gateway.client_id}/cluster-access`, { allowed: true })).status, 200);
        // The partner's token names alice (a local username).
        const partner = await new jose.SignJWT({ sub: 'alice', aud: b.serviceUrl, jti: randomBytes(8).toString('hex') })
            .setProtectedHeader({ alg: 'ES256', kid: 'idp' }).setIssuer(IDP).setIssuedAt().setExpirationTime('5m')
            .sign(idpKey.privateKey);
        // Step 1, allowed: not for the cluster, within what the administrator allows that issuer.
        const first = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: partner, subject_token_type: JWT });
        assert.equal(first.status, 200, first.text);
        assert.equal((await clusterIdentity(b, first.json.access_token)).status, 401);
        // Step 2: this server's own token now, but it descends from the partner's: never the cluster.
        const second = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: first.json.access_token,
                                                        subject_token_type: ACCESS_TOKEN, audience: 'kubernetes' });
        assertOAuthError(second, 400, 'invalid_target', /descends from another issuer \(https:\/\/idp\.partner\.example\)/, 'laundered');
        // Nor a third hop.
        const hop = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: first.json.access_token,
                                                     subject_token_type: ACCESS_TOKEN });
        assert.equal(hop.status, 200, hop.text);
        const third = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: hop.json.access_token,
                                                       subject_token_type: ACCESS_TOKEN, audience: 'kubernetes' });
        assertOAuthError(third, 400, 'invalid_target', /descends from another issuer/, 'laundered twice');
    });

    // An actor from another issuer in a token for the cluster: its `act` would name the
    // partner's identity, which removing that issuer (revoking its tokens by origin) would miss.
    attack('trust 1: a user\'s token the client holds named as the actor — a delegation by that user that never happened', async () => {
        const bob = await newUser(b, `bob-${++counter}`, []);
        const aliceTokens = await tokensFor(b, rp, alice, { scope: 'openid' });
        const bobTokens = await tokensFor(b, rp, bob, { scope: 'openid' });
        const before = await activeTokenIds(b, rp.client_id);
        for (const [actor_token, actor_token_type] of [[bobTokens.access_token, ACCESS_TOKEN], [bobTokens.id_token, ID_TOKEN]]) {
            const r = await exchange({ subject_token: aliceTokens.access_token, subject_token_type: ACCESS_TOKEN,
                                       actor_token, actor_token_type, audience: 'https://api.partner.example' });
            assertOAuthError(r, 400, 'invalid_grant',
                             /^the actor_token names a user, not the client that asks: this server's actor token is the client's own \(client_credentials\)$/,
                             actor_token_type);
        }
        await assertTokensUnchanged(b, rp.client_id, before);
    });

    attack('trust 3: another issuer\'s actor_token beside a subject token for the cluster', async () => {
        const gateway = await registerClient(b, { client_name: `actor gateway ${++counter}`,
                                                  grant_types: ['client_credentials', EXCHANGE],
                                                  scope: 'orders:read', token_exchange_audiences: ['kubernetes'] });
        assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${gateway.client_id}/cluster-access`, { allowed: true })).status, 200);
        const own = await tokenRequest(b, gateway, { grant_type: 'client_credentials', scope: 'orders:read' });
        assert.equal(own.status, 200, own.text);
        const partner = await new jose.SignJWT({ sub: 'alice', aud: b.serviceUrl, jti: randomBytes(8).toString('hex') })
            .setProtectedHeader({ alg: 'ES256', kid: 'idp' }).setIssuer(IDP).setIssuedAt().setExpirationTime('5m')
            .sign(idpKey.privateKey);
        const before = await activeTokenIds(b, gateway.client_id);
        const r = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: own.json.access_token,
                                                   subject_token_type: ACCESS_TOKEN, actor_token: partner,
                                                   actor_token_type: JWT, audience: 'kubernetes' });
        assertOAuthError(r, 400, 'invalid_target',
                         /^the actor_token comes from another issuer \(https:\/\/idp\.partner\.example\), and is never part of a token for the cluster API$/);
        await assertTokensUnchanged(b, gateway.client_id, before);
    });

    attack('trust 3: the holder of a registration token changes or deletes a client an administrator allowed to act for the cluster (RFC 7592)', async () => {
        const reg = await registerOpen({ client_name: `kubectl login ${++counter}`, redirect_uris: ['http://127.0.0.1:8000/callback'], scope: 'openid' });
        assert.equal(reg.status, 201, reg.text);
        const c = reg.json;
        assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${c.client_id}/cluster-access`, { allowed: true })).status, 200);
        const before = (await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json;
        const r = await request(`${b.serviceUrl}/oauth2/register/${c.client_id}`, 'PUT',
                                JSON.stringify({ client_id: c.client_id, client_name: c.client_name, scope: 'openid',
                                                 redirect_uris: [...c.redirect_uris, 'https://evil.example/cb'] }),
                                { 'Content-Type': 'application/json', Authorization: `Bearer ${c.registration_access_token}` });
        assertOAuthError(r, 403, 'access_denied', /only an administrator \(cluster:write\) may change it/, 'update');
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json, before, 'unchanged');
        // Nor deleted with it: that would revoke every cluster token the client issued.
        const gone = await request(`${b.serviceUrl}/oauth2/register/${c.client_id}`, 'DELETE', undefined,
                                   { Authorization: `Bearer ${c.registration_access_token}` });
        assertOAuthError(gone, 403, 'access_denied', /only an administrator \(cluster:write\) may change it/, 'delete');
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/clients/${c.client_id}`)).json, before, 'still there');
        // Its metadata stays readable with the same token.
        const read = await request(`${b.serviceUrl}/oauth2/register/${c.client_id}`, 'GET', undefined,
                                   { Authorization: `Bearer ${c.registration_access_token}` });
        assert.equal(read.status, 200, read.text);
    });

    attack('trust 3: cluster access needs cluster:write, and the metadata cannot carry it', async () => {
        const oauthOnly = await scopedAdminToken(b, `oauth writer ${++counter}`, ['oauth:write']);
        const r = await request(`${b.adminUrl}/admin/v1/clients/${rp.client_id}/cluster-access`, 'PUT',
                                JSON.stringify({ allowed: true }),
                                { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' });
        assert.equal(r.status, 403, r.text);
        assert.match(r.json.message, /may not let a client act for the cluster: that also needs cluster:write/);
        const viaMetadata = await adminFetch(b, 'PUT', `/admin/v1/clients/${rp.client_id}`, {
            client_name: rp.client_name, token_endpoint_auth_method: 'client_secret_basic',
            grant_types: rp.grant_types, scope: rp.scope, redirect_uris: rp.redirect_uris,
            token_exchange_audiences: rp.token_exchange_audiences, cluster_access: true });
        assert.equal(viaMetadata.status, 400, viaMetadata.text);
        assert.match(viaMetadata.json.message, /cluster-access/);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/clients/${rp.client_id}`)).json.cluster_access, undefined);
        const audit = await adminFetch(b, 'GET', `/admin/v1/audit?kind=client&target=${rp.client_id}`);
        assert.ok(!audit.json.items.some((e) => e.action === 'cluster-access'), 'nothing changed, nothing audited');
    });

    attack('trust 3: an oauth:write admin token changes a client allowed to act for the cluster', async () => {
        const flagged = await registerClient(b, { client_name: `flagged ${++counter}`, grant_types: ['authorization_code'],
                                                  scope: 'openid', redirect_uris: ['https://flagged.example/cb'] });
        assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${flagged.client_id}/cluster-access`,
                                       { allowed: true })).status, 200);
        const before = (await adminFetch(b, 'GET', `/admin/v1/clients/${flagged.client_id}`)).json;
        const oauthOnly = await scopedAdminToken(b, `client editor ${counter}`, ['oauth:write']);
        const headers = { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' };
        const widened = await request(`${b.adminUrl}/admin/v1/clients/${flagged.client_id}`, 'PUT', JSON.stringify({
            client_name: flagged.client_name, grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
            scope: 'openid groups', redirect_uris: ['https://flagged.example/cb', 'https://evil.example/cb'] }), headers);
        assert.equal(widened.status, 403, widened.text);
        assert.match(widened.json.message, /may not change a client allowed to act for the cluster: that also needs cluster:write/);
        const rotated = await request(`${b.adminUrl}/admin/v1/clients/${flagged.client_id}/rotate-secret`, 'POST', '', headers);
        assert.equal(rotated.status, 403, rotated.text);
        const deleted = await request(`${b.adminUrl}/admin/v1/clients/${flagged.client_id}`, 'DELETE', '', headers);
        assert.equal(deleted.status, 403, deleted.text);
        assert.match(deleted.json.message, /may not delete a client allowed to act for the cluster: that also needs cluster:write/);
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/clients/${flagged.client_id}`)).json, before, 'unchanged');
        // Nor one with the orders API's scopes (that is the orders area's).
        const orders = await registerClient(b, { client_name: `orders client ${counter}`, grant_types: ['client_credentials'],
                                                 scope: 'orders:read orders:write' });
        const ordersDeleted = await request(`${b.adminUrl}/admin/v1/clients/${orders.client_id}`, 'DELETE', '', headers);
        assert.equal(ordersDeleted.status, 403, ordersDeleted.text);
        assert.match(ordersDeleted.json.message, /may not delete a client with the orders API's scopes: that also needs orders:write/);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/clients/${orders.client_id}`)).status, 200, 'still there');
        // A client of neither is oauth:write's to delete.
        const plain = await registerClient(b, { client_name: `plain ${counter}`, grant_types: ['client_credentials'], scope: 'openid' });
        assert.equal((await request(`${b.adminUrl}/admin/v1/clients/${plain.client_id}`, 'DELETE', '', headers)).status, 204);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/clients/${plain.client_id}`)).status, 404);
        // A client secret still works as before (it was not rotated).
        const t = await tokenRequest(b, flagged, { grant_type: 'authorization_code', code: 'x',
                                                   redirect_uri: 'https://flagged.example/cb' });
        assertOAuthError(t, 400, 'invalid_grant', /unknown/, 'the old secret still authenticates');
    });

    // --- 4. OIDC groups: no system: group from a token -------------------------------------------

    attack('trust 4: an oauth:write admin token creates a user in system:masters', async () => {
        const oauthOnly = await scopedAdminToken(b, `user admin ${++counter}`, ['oauth:write']);
        const before = (await adminFetch(b, 'GET', '/admin/v1/users')).json.items.length;
        const r = await request(`${b.adminUrl}/admin/v1/users`, 'POST',
                                JSON.stringify({ username: `would-be-admin${counter}`, password: 'long enough pw',
                                                 groups: ['devs', 'system:masters'] }),
                                { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' });
        assert.equal(r.status, 403, r.text);
        assert.match(r.json.message, /may not give a user the group "system:masters": that also needs cluster:write/);
        assert.equal((await adminFetch(b, 'GET', '/admin/v1/users')).json.items.length, before, 'no user created');
        const patch = await request(`${b.adminUrl}/admin/v1/users/${alice.id}`, 'PATCH',
                                    JSON.stringify({ groups: ['devs', 'system:nodes'] }),
                                    { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' });
        assert.equal(patch.status, 403, patch.text);
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/users/${alice.id}`)).json.groups, ['devs']);
    });

    attack('trust 4: an oauth:write admin token resets the password of a user in a cluster group', async () => {
        const admin = await newUser(b, `cluster-admin${++counter}`, ['system:masters']);
        const oauthOnly = await scopedAdminToken(b, `helpdesk ${counter}`, ['oauth:write']);
        const headers = { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' };
        for (const change of [{ password: 'taken over now' }, { username: `renamed${counter}` }, { groups: ['devs'] }]) {
            const r = await request(`${b.adminUrl}/admin/v1/users/${admin.id}`, 'PATCH', JSON.stringify(change), headers);
            assert.equal(r.status, 403, `${JSON.stringify(change)}: ${r.text}`);
            assert.match(r.json.message, /may not change user ".*", who is in the cluster group "system:masters"/);
        }
        // The old password still signs in; the user is as it was.
        const tokens = await tokensFor(b, rp, admin, { scope: 'openid' });
        assert.ok(tokens.id_token);
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/users/${admin.id}`)).json.groups, ['system:masters']);
    });

    attack('trust 4: an oauth:write admin token takes over a user whom a ClusterRoleBinding names', async () => {
        const dave = await newUser(b, `bound-admin${++counter}`, ['devs']);
        // As the cluster knows them: oidc-username-claim sub with the issuer's prefix.
        const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
                          metadata: { name: `dave-admin-${counter}` },
                          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
                          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: `${b.serviceUrl}#${dave.id}` }] };
        const made = await adminFetch(b, 'POST', '/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding);
        assert.equal(made.status, 201, made.text);
        const oauthOnly = await scopedAdminToken(b, `helpdesk ${counter}`, ['oauth:write']);
        const headers = { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' };
        for (const change of [{ password: 'taken over now' }, { email: `dave${counter}@example.com` }]) {
            const r = await request(`${b.adminUrl}/admin/v1/users/${dave.id}`, 'PATCH', JSON.stringify(change), headers);
            assert.equal(r.status, 403, `${JSON.stringify(change)}: ${r.text}`);
            assert.match(r.json.message,
                         new RegExp(`may not change user "bound-admin${counter}" \\(the cluster's ClusterRoleBinding "dave-admin-${counter}" names them\\): that also needs cluster:write`));
        }
        // The old password still signs in; the user is as it was.
        assert.ok((await tokensFor(b, rp, dave, { scope: 'openid' })).id_token);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/users/${dave.id}`)).json.email ?? '', dave.email ?? '');
        // With cluster:write as well the change is allowed; a user no binding names needs no
        // cluster:write. (orders:write as well: users here sign in to rp, which has the orders
        // API's scopes.)
        const both = await scopedAdminToken(b, `cluster helpdesk ${counter}`, ['oauth:write', 'cluster:write', 'orders:write']);
        const allowed = await request(`${b.adminUrl}/admin/v1/users/${dave.id}`, 'PATCH', JSON.stringify({ password: 'reset by both' }),
                                      { Authorization: `Bearer ${both}`, 'Content-Type': 'application/json' });
        assert.equal(allowed.status, 200, allowed.text);
        const plain = await newUser(b, `plain${counter}`, ['devs']);
        const ordersToo = await scopedAdminToken(b, `orders helpdesk ${counter}`, ['oauth:write', 'orders:write']);
        const reset = await request(`${b.adminUrl}/admin/v1/users/${plain.id}`, 'PATCH', JSON.stringify({ password: 'plain reset pw' }),
                                    { Authorization: `Bearer ${ordersToo}`, 'Content-Type': 'application/json' });
        assert.equal(reset.status, 200, reset.text);
    });

    attack('trust 4: an oauth:write admin token resets a member of, or adds a user to, a group a RoleBinding names', async () => {
        const group = `deployers${++counter}`;
        const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding',
                          metadata: { name: `${group}-edit`, namespace: 'default' },
                          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
                          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }] };
        const made = await adminFetch(b, 'POST', '/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', binding);
        assert.equal(made.status, 201, made.text);
        const member = await newUser(b, `deployer${counter}`, ['devs', group]);
        const outsider = await newUser(b, `outsider${counter}`, ['devs']);
        const oauthOnly = await scopedAdminToken(b, `helpdesk ${counter}`, ['oauth:write']);
        const headers = { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' };
        const why = `the cluster's RoleBinding "${group}-edit" in namespace "default" names their group "${group}"`;
        const reset = await request(`${b.adminUrl}/admin/v1/users/${member.id}`, 'PATCH', JSON.stringify({ password: 'taken over now' }), headers);
        assert.equal(reset.status, 403, reset.text);
        assert.ok(reset.json.message.includes(`may not change user "deployer${counter}" (${why})`), reset.json.message);
        const added = await request(`${b.adminUrl}/admin/v1/users/${outsider.id}`, 'PATCH', JSON.stringify({ groups: ['devs', group] }), headers);
        assert.equal(added.status, 403, added.text);
        assert.ok(added.json.message.includes(`may not make user "outsider${counter}" a cluster identity (${why})`), added.json.message);
        assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/users/${outsider.id}`)).json.groups, ['devs']);
        const created = await request(`${b.adminUrl}/admin/v1/users`, 'POST',
                                      JSON.stringify({ username: `newcomer${counter}`, password: 'long enough pw', groups: [group] }), headers);
        assert.equal(created.status, 403, created.text);
        assert.ok(created.json.message.includes(`may not make user "newcomer${counter}" a cluster identity (${why})`), created.json.message);
        const names = (await adminFetch(b, 'GET', '/admin/v1/users')).json.items.map((u) => u.username);
        assert.ok(!names.includes(`newcomer${counter}`), 'no user created');
        // The member still signs in with the old password.
        assert.ok((await tokensFor(b, rp, member, { scope: 'openid' })).id_token);
    });

    attack('trust 4: an oauth:write admin token makes a user the cluster user a binding names', async () => {
        // With oidc-username-claim email the cluster user is the email (no prefix): a binding for
        // an address no user has yet must not be claimable by creating or re-addressing a user.
        const e = await startBackend({ args: ['--oidc-username-claim', 'email'] });
        try {
            const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
                              metadata: { name: 'ops-lead-admin' },
                              roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
                              subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'ops-lead@example.com' }] };
            const made = await adminFetch(e, 'POST', '/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding);
            assert.equal(made.status, 201, made.text);
            const oauthOnly = await scopedAdminToken(e, 'helpdesk', ['oauth:write']);
            const headers = { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' };
            const users = async () => (await adminFetch(e, 'GET', '/admin/v1/users')).json.items.length;
            const before = await users();
            const created = await request(`${e.adminUrl}/admin/v1/users`, 'POST', JSON.stringify({
                username: 'not-ops-lead', password: 'long enough pw', email: 'ops-lead@example.com' }), headers);
            assert.equal(created.status, 403, created.text);
            assert.match(created.json.message,
                         /may not make user "not-ops-lead" a cluster identity \(the cluster's ClusterRoleBinding "ops-lead-admin" names them\): that also needs cluster:write/);
            assert.equal(await users(), before, 'no user created');
            const eve = await newUser(e, 'eve', ['devs']);
            const readdressed = await request(`${e.adminUrl}/admin/v1/users/${eve.id}`, 'PATCH',
                                              JSON.stringify({ email: 'ops-lead@example.com' }), headers);
            assert.equal(readdressed.status, 403, readdressed.text);
            assert.notEqual((await adminFetch(e, 'GET', `/admin/v1/users/${eve.id}`)).json.email, 'ops-lead@example.com');
            // Any other address is the helpdesk's to give.
            const other = await request(`${e.adminUrl}/admin/v1/users/${eve.id}`, 'PATCH',
                                        JSON.stringify({ email: 'eve@example.com' }), headers);
            assert.equal(other.status, 200, other.text);
            assert.equal(other.json.email, 'eve@example.com');
        } finally {
            assert.equal(await e.stop(), 0, e.stderr);
        }
    });

    attack('trust 4: an oauth:write admin token makes a twin who waits for the bindings of a user the cluster knows by email', async () => {
        // With oidc-username-claim email two users with one address are one cluster user: a twin
        // made before any binding names the address gets every binding made to it later.
        const e = await startBackend({ args: ['--oidc-username-claim', 'email'] });
        try {
            const alice = await adminFetch(e, 'POST', '/admin/v1/users', {
                username: 'alice', password: 'long enough pw', email: 'alice@corp.example', email_verified: true });
            assert.equal(alice.status, 201, alice.text);
            const oauthOnly = await scopedAdminToken(e, 'helpdesk', ['oauth:write']);
            const headers = { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' };
            const users = async () => (await adminFetch(e, 'GET', '/admin/v1/users')).json.items.map((u) => u.username).sort();
            const before = await users();
            const twin = await request(`${e.adminUrl}/admin/v1/users`, 'POST', JSON.stringify({
                username: 'mallory', password: 'long enough pw', email: 'alice@corp.example', email_verified: true }), headers);
            assert.equal(twin.status, 409, twin.text);
            assert.equal(twin.json.error, 'cluster-username-taken', twin.text);
            assert.match(twin.json.message, /user "alice" already has this email, which is the username the cluster knows them by \(oidc-username-claim email\)/);
            assert.deepEqual(await users(), before, 'no user created');
            // Nor by re-addressing a user, nor by the root token (whoever binds alice later).
            const eve = await newUser(e, 'eve');
            const readdressed = await request(`${e.adminUrl}/admin/v1/users/${eve.id}`, 'PATCH',
                                              JSON.stringify({ email: 'alice@corp.example' }), headers);
            assert.equal(readdressed.status, 409, readdressed.text);
            const byRoot = await adminFetch(e, 'PATCH', `/admin/v1/users/${eve.id}`, { email: 'alice@corp.example' });
            assert.equal(byRoot.status, 409, byRoot.text);
            assert.notEqual((await adminFetch(e, 'GET', `/admin/v1/users/${eve.id}`)).json.email, 'alice@corp.example');
            // alice herself keeps her address through other changes, and another address is free.
            const renamed = await request(`${e.adminUrl}/admin/v1/users/${alice.json.id}`, 'PATCH',
                                          JSON.stringify({ name: 'Alice A.' }), headers);
            assert.equal(renamed.status, 200, renamed.text);
            const other = await request(`${e.adminUrl}/admin/v1/users/${eve.id}`, 'PATCH',
                                        JSON.stringify({ email: 'eve@corp.example' }), headers);
            assert.equal(other.status, 200, other.text);
        } finally {
            assert.equal(await e.stop(), 0, e.stderr);
        }
    });

    attack('trust 4: an oauth:write admin token gives a user a group mapped to system:masters', async () => {
        const m = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { oidcGroupMappings: ['platform=system:masters'] });
        assert.equal(m.status, 200, m.text);
        try {
            const oauthOnly = await scopedAdminToken(b, `mapper-abuser ${++counter}`, ['oauth:write']);
            const r = await request(`${b.adminUrl}/admin/v1/users/${alice.id}`, 'PATCH', JSON.stringify({ groups: ['devs', 'platform'] }),
                                    { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' });
            assert.equal(r.status, 403, r.text);
            assert.match(r.json.message, /may not give a user the group "platform"/);
            assert.deepEqual((await adminFetch(b, 'GET', `/admin/v1/users/${alice.id}`)).json.groups, ['devs']);
        } finally {
            assert.equal((await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { oidcGroupMappings: [] })).status, 200);
        }
    });

    attack('trust 4: an oauth:write admin token makes or resets a user who signs in to a client with the orders API\'s scopes', async () => {
        // rp takes users' sign-ins (authorization_code) and has orders:read and orders:write:
        // whoever knows a user's password gets those scopes through it, as a token minted for rp
        // would give (and that needs orders:write).
        const oauthOnly = await scopedAdminToken(b, `orders helpdesk ${++counter}`, ['oauth:write']);
        const headers = { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' };
        const why = `users sign in to client "relying party" (${rp.client_id}), which has the orders API's scopes: that also needs orders:write`;
        const count = async () => (await adminFetch(b, 'GET', '/admin/v1/users')).json.items.length;
        const before = await count();
        const created = await request(`${b.adminUrl}/admin/v1/users`, 'POST',
                                      JSON.stringify({ username: `mallory${counter}`, password: 'correct horse 1' }), headers);
        assert.equal(created.status, 403, created.text);
        assert.ok(created.json.message.includes(`may not create a user: ${why}`), created.json.message);
        assert.equal(await count(), before, 'no user created');
        // Nor is orders:read enough where the client writes.
        const reader = await scopedAdminToken(b, `orders reader ${counter}`, ['oauth:write', 'orders:read']);
        const readerCreated = await request(`${b.adminUrl}/admin/v1/users`, 'POST',
                                            JSON.stringify({ username: `mallory${counter}`, password: 'correct horse 1' }),
                                            { Authorization: `Bearer ${reader}`, 'Content-Type': 'application/json' });
        assert.equal(readerCreated.status, 403, readerCreated.text);
        assert.equal(await count(), before, 'no user created');

        const shopper = await newUser(b, `shopper${counter}`, ['devs']);
        const reset = await request(`${b.adminUrl}/admin/v1/users/${shopper.id}`, 'PATCH',
                                    JSON.stringify({ password: 'taken over now' }), headers);
        assert.equal(reset.status, 403, reset.text);
        assert.ok(reset.json.message.includes(`may not reset a user's password: ${why}`), reset.json.message);
        // The old password still signs in (and reaches the orders API through rp).
        const tokens = await tokensFor(b, rp, shopper, { scope: 'openid orders:read' });
        assert.match(tokens.scope, /orders:read/);
        // Lifting an administrator's lock gives the account back: the orders area's too.
        assert.equal((await adminFetch(b, 'POST', `/admin/v1/users/${shopper.id}/lock`)).status, 200);
        const unlocked = await request(`${b.adminUrl}/admin/v1/users/${shopper.id}/unlock`, 'POST', '', headers);
        assert.equal(unlocked.status, 403, unlocked.text);
        assert.ok(unlocked.json.message.includes(`may not lift an administrator's lock: ${why}`), unlocked.json.message);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/users/${shopper.id}`)).json.locked, true, 'still locked');
        // Deleting the user ends their orders access for good: orders:write too.
        const deleted = await request(`${b.adminUrl}/admin/v1/users/${shopper.id}`, 'DELETE', '', headers);
        assert.equal(deleted.status, 403, deleted.text);
        assert.ok(deleted.json.message.includes(`may not delete a user: ${why}`), deleted.json.message);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/users/${shopper.id}`)).status, 200, 'still there');
        // A change that hands nobody a password stays oauth:write's alone.
        const renamed = await request(`${b.adminUrl}/admin/v1/users/${shopper.id}`, 'PATCH',
                                      JSON.stringify({ name: `Shopper ${counter}` }), headers);
        assert.equal(renamed.status, 200, renamed.text);
        // With orders:write as well: allowed.
        const both = await scopedAdminToken(b, `orders and oauth ${counter}`, ['oauth:write', 'orders:write']);
        const allowed = await request(`${b.adminUrl}/admin/v1/users`, 'POST',
                                      JSON.stringify({ username: `newhire${counter}`, password: 'correct horse 1' }),
                                      { Authorization: `Bearer ${both}`, 'Content-Type': 'application/json' });
        assert.equal(allowed.status, 201, allowed.text);
    });

    attack('trust 1: a user named after a client_id takes over nothing of its client_credentials tokens', async () => {
        // A client's own token names the client as its subject (sub = client_id); a user whose
        // username is that id must not become the subject of an exchange, of introspection or of
        // userinfo.
        const svc = await registerClient(b, { client_name: `service ${++counter}`, grant_types: ['client_credentials'],
                                              scope: 'openid orders:read' });
        const own = await tokenRequest(b, svc, { grant_type: 'client_credentials', scope: 'openid orders:read' });
        assert.equal(own.status, 200, own.text);
        const namesake = await newUser(b, svc.client_id.toLowerCase(), ['devs']);
        const r = await exchange({ subject_token: own.json.access_token, subject_token_type: ACCESS_TOKEN, scope: 'orders:read' });
        assert.equal(r.status, 200, r.text);
        const claims = jose.decodeJwt(r.json.access_token);
        assert.equal(claims.sub, svc.client_id, 'the client stays the subject');
        assert.notEqual(claims.sub, namesake.id);
        for (const claim of ['preferred_username', 'email', 'groups', 'name'])
            assert.equal(claims[claim], undefined, `${claim}: ${JSON.stringify(claims)}`);
        const seen = await introspect(b, rs, r.json.access_token);
        assert.equal(seen.active, true);
        assert.equal(seen.sub, svc.client_id);
        assert.equal(seen.username, undefined, JSON.stringify(seen));
        const info = await request(`${b.serviceUrl}/oauth2/userinfo`, 'GET', undefined,
                                   { Authorization: `Bearer ${own.json.access_token}` });
        assert.equal(info.status, 401, info.text);
        assert.ok(!info.text.includes(namesake.id), info.text);
    });

    attack('trust 4: an admin:write token maps a token group to system:masters without cluster:write', async () => {
        const adminOnly = await scopedAdminToken(b, `mapper ${++counter}`, ['admin:write']);
        const r = await request(`${b.adminUrl}/admin/v1/settings/oidc-group-mappings`, 'PUT',
                                JSON.stringify({ value: 'devs=system:masters' }),
                                { Authorization: `Bearer ${adminOnly}`, 'Content-Type': 'application/json' });
        assert.equal(r.status, 403, r.text);
        assert.match(r.json.message, /also needs cluster:write/);
        assert.equal((await adminFetch(b, 'GET', '/admin/v1/settings/oidc-group-mappings')).json.value, '');
        assert.deepEqual((await adminFetch(b, 'GET', '/admin/v1/cluster/settings')).json.oidcGroupMappings, []);
    });
});

// The cluster's own OIDC client (the one kubectl signs in with) reaches the cluster as the user;
// everything else about the cluster's audience stays refused.
describe('trust boundaries: the cluster\'s own OIDC client', () => {
    let b;
    let kubectl; // public client, PKCE, loopback redirect: kubectl's login flow
    let carol;
    let root; // a user an administrator put in system:masters directly
    let ops; // a user in the group an administrator maps to system:masters
    let counter = 0;

    before(async () => {
        const first = await startBackend({ env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
        kubectl = await registerClient(first, { client_name: 'kubectl', token_endpoint_auth_method: 'none',
                                                grant_types: ['authorization_code', 'refresh_token'],
                                                scope: 'openid groups offline_access', redirect_uris: ['http://127.0.0.1:8000/'] });
        // kube-apiserver's --oidc-client-id names the client registered at the IdP.
        const dataDir = first.dataDir;
        assert.equal(await first.stop(), 0, first.stderr);
        b = await startBackend({ dataDir, args: ['--oidc-client-id', kubectl.client_id],
                                 env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
        carol = await newUser(b, 'carol', ['devs']);
        root = await newUser(b, 'root-wannabe', ['devs', 'system:masters']);
        ops = await newUser(b, 'operator', ['ops']);
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    const setClusterAccess = async (allowed) => {
        const r = await adminFetch(b, 'PUT', `/admin/v1/clients/${kubectl.client_id}/cluster-access`, { allowed });
        assert.equal(r.status, 200, r.text);
    };

    attack('trust 3: the cluster\'s own client signs a user in before an administrator allowed it', async () => {
        const flow = await signIn(b, kubectl, carol, { scope: 'openid groups' });
        const r = await tokenRequest(b, kubectl, { grant_type: 'authorization_code', code: flow.code,
                                                   redirect_uri: kubectl.redirect_uris[0], code_verifier: flow.verifier });
        assertOAuthError(r, 400, 'unauthorized_client', /cluster API's audience.*not allowed this client/, 'not allowed yet');
        await assertNoTokens(b, kubectl.client_id);
    });

    attack('trust 3: the legitimate path — kubectl\'s login reaches the cluster as the user, until revoked or disallowed', async () => {
        await setClusterAccess(true);
        // The flag is audited (the entry is stored just after the answer).
        await waitFor(async () => (await adminFetch(b, 'GET', `/admin/v1/audit?kind=client&target=${kubectl.client_id}`))
            .json.items.some((e) => e.action === 'cluster-access'), { message: 'the cluster-access audit entry' });
        const tokens = await tokensFor(b, kubectl, carol, { scope: 'openid groups' });
        const who = await clusterIdentity(b, tokens.id_token);
        assert.equal(who.status, 201, who.text);
        assert.equal(who.user.username, `${b.serviceUrl}#${carol.id}`);
        assert.deepEqual(who.user.groups, ['devs', 'system:authenticated']);
        // A revoked id_token no longer reaches the cluster.
        const stored = await adminFetch(b, 'POST', '/admin/v1/jwt/inspect', { token: tokens.id_token });
        assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(stored.json.server.stored.id)}`)).status, 204);
        const after = await clusterIdentity(b, tokens.id_token);
        assert.equal(after.status, 401, after.text);
        // Nor does any token of the client once the administrator takes the flag away.
        const fresh = await tokensFor(b, kubectl, carol, { scope: 'openid groups' });
        assert.equal((await clusterIdentity(b, fresh.id_token)).status, 201);
        await setClusterAccess(false);
        assert.equal((await clusterIdentity(b, fresh.id_token)).status, 401);
        await setClusterAccess(true);
    });

    attack('trust 3: a user\'s OIDC token asks for a 48-hour service account token that renews itself past the OIDC token\'s end', async () => {
        await setClusterAccess(true);
        // carol may ask for tokens of an account (what a binding by any administrator gives).
        const name = `keeper-${++counter}`;
        const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
        for (const [path, body] of [
            ['/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }],
            [`${rbac}/roles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name },
                                rules: [{ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] }] }],
            [`${rbac}/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name },
                                       subjects: [{ kind: 'User', name: `${b.serviceUrl}#${carol.id}`, apiGroup: 'rbac.authorization.k8s.io' },
                                                  { kind: 'ServiceAccount', name, namespace: 'default' }],
                                       roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name } }]]) {
            const r = await adminFetch(b, 'POST', `/admin/v1/cluster/k8s${path}`, body);
            assert.equal(r.status, 201, r.text);
        }
        const tokens = await tokensFor(b, kubectl, carol, { scope: 'openid groups' });
        const oidcEnds = jose.decodeJwt(tokens.id_token).exp;
        const twoDays = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 172800 } };
        const path = `/api/v1/namespaces/default/serviceaccounts/${name}/token`;
        let token = tokens.id_token;
        for (const step of ['with the OIDC token', 'renewed by the account token', 'renewed again']) {
            const r = await kubeRequest(b, 'POST', path, { body: twoDays, headers: { Authorization: `Bearer ${token}` } });
            assert.equal(r.status, 201, `${step}: ${r.text}`);
            const claims = jose.decodeJwt(r.json.status.token);
            assert.ok(claims.exp <= oidcEnds, `${step}: exp ${claims.exp}, the OIDC token ends ${oidcEnds}`);
            assert.ok(Date.parse(r.json.status.expirationTimestamp) <= oidcEnds * 1000, `${step}: ${r.json.status.expirationTimestamp}`);
            assert.ok(r.json.spec.expirationSeconds < 172800, `${step}: spec.expirationSeconds ${r.json.spec.expirationSeconds}`);
            assert.equal(claims['gatehouse.io/not-after'], oidcEnds, `${step}: ${JSON.stringify(claims)}`);
            token = r.json.status.token;
        }
    });

    attack('trust 3: the cluster\'s own client disallowed — its tokens still reach the cluster through a gateway\'s exchange (made before, or after)', async () => {
        await setClusterAccess(true);
        const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
        const gateway = await registerClient(b, { client_name: `cluster gateway ${++counter}`, grant_types: [EXCHANGE],
                                                  scope: 'openid groups', token_exchange_audiences: [kubectl.client_id] });
        assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${gateway.client_id}/cluster-access`, { allowed: true })).status, 200);
        const exchange = (subject) => tokenRequest(b, gateway, {
            grant_type: EXCHANGE, subject_token: subject, subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
            audience: kubectl.client_id });
        const tokens = await tokensFor(b, kubectl, carol, { scope: 'openid groups' });
        const before = await exchange(tokens.access_token);
        assert.equal(before.status, 200, before.text);
        assert.equal((await clusterIdentity(b, before.json.access_token)).status, 201, 'the exchanged token reaches the cluster while allowed');
        await setClusterAccess(false);
        try {
            assert.equal((await clusterIdentity(b, tokens.access_token)).status, 401, 'kubectl\'s own token');
            assert.equal((await clusterIdentity(b, before.json.access_token)).status, 401, 'exchanged before the flag was taken');
            assert.equal((await introspect(b, gateway, before.json.access_token)).active, false, 'revoked');
            const again = await exchange(tokens.access_token);
            assertOAuthError(again, 400, 'invalid_target', /^the subject token's client is no longer allowed to act for the cluster$/, 'exchanged after');
            // Nor in two steps: first for the gateway itself (no cluster involved), then that.
            const hop = await tokenRequest(b, gateway, { grant_type: EXCHANGE, subject_token: tokens.access_token,
                                                         subject_token_type: 'urn:ietf:params:oauth:token-type:access_token' });
            assert.equal(hop.status, 200, hop.text);
            const gatewayBefore = await activeTokenIds(b, gateway.client_id);
            const laundered = await exchange(hop.json.access_token);
            assertOAuthError(laundered, 400, 'invalid_target',
                             new RegExp(`^the subject token descends from a token of a client not allowed to act for the cluster \\(${kubectl.client_id}\\)$`), 'in two steps');
            await assertTokensUnchanged(b, gateway.client_id, gatewayBefore);
        } finally {
            await setClusterAccess(true);
        }
    });

    attack('trust 3: another issuer\'s assertion through the cluster\'s own client (jwt-bearer)', async () => {
        await setClusterAccess(true);
        const idp = await jose.generateKeyPair('ES256', { extractable: true });
        const issuer = 'https://idp.evil.example';
        const t = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', {
            issuer, jwks: { keys: [{ ...(await jose.exportJWK(idp.publicKey)), kid: 'e', alg: 'ES256' }] },
            scopes: ['openid', 'groups'], anySubject: true });
        assert.equal(t.status, 201, t.text);
        const metadata = (await adminFetch(b, 'GET', `/admin/v1/clients/${kubectl.client_id}`)).json;
        const widened = await adminFetch(b, 'PUT', `/admin/v1/clients/${kubectl.client_id}`, {
            client_name: metadata.client_name, token_endpoint_auth_method: 'none', scope: metadata.scope,
            redirect_uris: metadata.redirect_uris,
            grant_types: [...metadata.grant_types, 'urn:ietf:params:oauth:grant-type:jwt-bearer'] });
        assert.equal(widened.status, 200, widened.text);
        const before = await activeTokenIds(b, kubectl.client_id);
        try {
            const assertion = await new jose.SignJWT({ sub: carol.username, aud: b.serviceUrl, jti: randomBytes(8).toString('hex') })
                .setProtectedHeader({ alg: 'ES256', kid: 'e' }).setIssuer(issuer).setIssuedAt().setExpirationTime('5m')
                .sign(idp.privateKey);
            const r = await tokenRequest(b, kubectl, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
            assertOAuthError(r, 400, 'unauthorized_client', /another issuer never becomes a token for the cluster/, 'jwt-bearer');
            await assertTokensUnchanged(b, kubectl.client_id, before);
        } finally {
            const back = await adminFetch(b, 'PUT', `/admin/v1/clients/${kubectl.client_id}`, {
                client_name: metadata.client_name, token_endpoint_auth_method: 'none', scope: metadata.scope,
                redirect_uris: metadata.redirect_uris, grant_types: metadata.grant_types });
            assert.equal(back.status, 200, back.text);
        }
    });

    attack('trust 4: a user in system:masters signs in with kubectl and is not cluster-admin', async () => {
        await setClusterAccess(true);
        const tokens = await tokensFor(b, kubectl, root, { scope: 'openid groups' });
        assert.deepEqual(jose.decodeJwt(tokens.id_token).groups, ['devs', 'system:masters'], 'the token carries it');
        const who = await clusterIdentity(b, tokens.id_token);
        assert.equal(who.status, 201, who.text);
        assert.deepEqual(who.user.groups, ['devs', 'system:authenticated'], 'system:masters dropped');
        const nodes = await kubeRequest(b, 'GET', '/api/v1/nodes', { headers: { Authorization: `Bearer ${tokens.id_token}` } });
        assert.equal(nodes.status, 403, nodes.text);
        assert.match(nodes.json.message, /cannot list resource "nodes"/);
        // The denial explainer names the dropped group.
        const denied = await waitFor(async () => {
            const decisions = await adminFetch(b, 'GET', '/admin/v1/cluster/requests');
            return decisions.json.items.find((d) => d.path === '/api/v1/nodes' && d.code === 403 &&
                                                    d.user === `${b.serviceUrl}#${root.id}`);
        });
        assert.deepEqual(denied.droppedGroups, ['system:masters']);
        assert.deepEqual(denied.groups, ['devs', 'system:authenticated']);
        // Effective access shows what the cluster makes of the user.
        const access = await adminFetch(b, 'POST', '/admin/v1/oauth/access', { username: root.username });
        assert.equal(access.status, 200, access.text);
        assert.deepEqual(access.json.cluster.groups, ['devs', 'system:authenticated']);
        assert.deepEqual(access.json.cluster.droppedGroups, ['system:masters']);
        assert.equal(access.json.cluster.reachable, true);
    });

    attack('trust 4: a user taken out of a group keeps that group\'s cluster access through the tokens issued before', async () => {
        await setClusterAccess(true);
        const group = `label-team${++counter}`;
        const leaver = await newUser(b, `leaver${counter}`, ['devs', group]);
        const tokens = await tokensFor(b, kubectl, leaver, { scope: 'openid groups offline_access' });
        assert.ok(tokens.refresh_token, 'a refresh token too');
        const before = await clusterIdentity(b, tokens.id_token);
        assert.equal(before.status, 201, before.text);
        assert.deepEqual(before.user.groups, ['devs', group, 'system:authenticated']);
        // Adding a group takes nothing away: the tokens stay.
        const added = await adminFetch(b, 'PATCH', `/admin/v1/users/${leaver.id}`, { groups: ['devs', group, 'extra'] });
        assert.equal(added.status, 200, added.text);
        assert.equal((await clusterIdentity(b, tokens.id_token)).status, 201);
        // Taking one away ends every token that carries it: id token, access token, refresh token.
        const removed = await adminFetch(b, 'PATCH', `/admin/v1/users/${leaver.id}`, { groups: ['devs', 'extra'] });
        assert.equal(removed.status, 200, removed.text);
        for (const [kind, token] of [['id_token', tokens.id_token], ['access_token', tokens.access_token]]) {
            const who = await clusterIdentity(b, token);
            assert.equal(who.status, 401, `${kind}: ${who.text}`);
        }
        const refreshed = await tokenRequest(b, kubectl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
        assertOAuthError(refreshed, 400, 'invalid_grant', /./, 'the refresh token');
        // A new sign-in carries the groups the user has now.
        const now = await clusterIdentity(b, (await tokensFor(b, kubectl, leaver, { scope: 'openid groups' })).id_token);
        assert.equal(now.status, 201, now.text);
        assert.deepEqual(now.user.groups, ['devs', 'extra', 'system:authenticated']);
        // Another email ends them too (the cluster may read the username from it).
        const fresh = await tokensFor(b, kubectl, leaver, { scope: 'openid groups' });
        const readdressed = await adminFetch(b, 'PATCH', `/admin/v1/users/${leaver.id}`, { email: `leaver${counter}@example.com` });
        assert.equal(readdressed.status, 200, readdressed.text);
        assert.equal((await clusterIdentity(b, fresh.id_token)).status, 401);
        // And another display name (oidc-username-claim may read name).
        const named = await tokensFor(b, kubectl, leaver, { scope: 'openid groups' });
        assert.equal((await clusterIdentity(b, named.id_token)).status, 201);
        const renamed = await adminFetch(b, 'PATCH', `/admin/v1/users/${leaver.id}`, { name: `Leaver ${counter}` });
        assert.equal(renamed.status, 200, renamed.text);
        assert.equal((await clusterIdentity(b, named.id_token)).status, 401);
    });

    attack('trust 4: an oauth:write admin token makes a user after a binding gave system:authenticated more than the defaults', async () => {
        await setClusterAccess(true);
        const oauthOnly = await scopedAdminToken(b, `helpdesk ${++counter}`, ['oauth:write']);
        const headers = { Authorization: `Bearer ${oauthOnly}`, 'Content-Type': 'application/json' };
        const createUser = (username) => request(`${b.adminUrl}/admin/v1/users`, 'POST',
                                                 JSON.stringify({ username, password: 'correct horse 1' }), headers);
        // With the defaults alone (discovery, reviews of oneself, public information) making a
        // user is the helpdesk's.
        const first = await createUser(`everyone${counter}`);
        assert.equal(first.status, 201, first.text);
        const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
                          metadata: { name: `all-view-${counter}` },
                          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
                          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }] };
        const path = '/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/clusterrolebindings';
        const made = await adminFetch(b, 'POST', path, binding);
        assert.equal(made.status, 201, made.text);
        try {
            // Now every user reads the cluster: a new one, or a password reset, is the cluster's business too.
            const count = async () => (await adminFetch(b, 'GET', '/admin/v1/users')).json.items.length;
            const before = await count();
            const created = await createUser(`newcomer${counter}`);
            assert.equal(created.status, 403, created.text);
            assert.ok(created.json.message.includes(`may not make user "newcomer${counter}" a cluster identity (the cluster lets every signed-in user (system:authenticated) `),
                      created.json.message);
            assert.ok(created.json.message.includes(`(ClusterRoleBinding "all-view-${counter}")): that also needs cluster:write`), created.json.message);
            assert.equal(await count(), before, 'no user created');
            const reset = await request(`${b.adminUrl}/admin/v1/users/${first.json.id}`, 'PATCH',
                                        JSON.stringify({ password: 'taken over now' }), headers);
            assert.equal(reset.status, 403, reset.text);
            assert.ok(reset.json.message.includes(`may not change user "everyone${counter}" (the cluster lets every signed-in user (system:authenticated) `),
                      reset.json.message);
            // The old password still signs in, and the binding gives what it says.
            const tokens = await tokensFor(b, kubectl, { username: `everyone${counter}`, password: 'correct horse 1' },
                                           { scope: 'openid groups' });
            const pods = await kubeRequest(b, 'GET', '/api/v1/namespaces/default/pods',
                                           { headers: { Authorization: `Bearer ${tokens.id_token}` } });
            assert.equal(pods.status, 200, pods.text);
        } finally {
            assert.equal((await adminFetch(b, 'DELETE', `${path}/all-view-${counter}`)).status, 200);
        }
        // The defaults again: the helpdesk's.
        const after = await createUser(`newcomer${counter}`);
        assert.equal(after.status, 201, after.text);
    });

    attack('trust 4: an oauth:write admin token lifts an administrator\'s lock on a user a RoleBinding names', async () => {
        await setClusterAccess(true);
        const group = `lockable${++counter}`;
        const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding',
                          metadata: { name: `${group}-view`, namespace: 'default' },
                          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
                          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }] };
        const made = await adminFetch(b, 'POST', '/admin/v1/cluster/k8s/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', binding);
        assert.equal(made.status, 201, made.text);
        const member = await newUser(b, `lockable${counter}`, [group]);
        const plain = await newUser(b, `plain-locked${counter}`, ['nobody-binds-this']);
        for (const u of [member, plain])
            assert.equal((await adminFetch(b, 'POST', `/admin/v1/users/${u.id}/lock`)).status, 200);
        const helpdesk = await scopedAdminToken(b, `unlocker ${counter}`, ['oauth:write']);
        const headers = { Authorization: `Bearer ${helpdesk}`, 'Content-Type': 'application/json' };
        const refused = await request(`${b.adminUrl}/admin/v1/users/${member.id}/unlock`, 'POST', '', headers);
        assert.equal(refused.status, 403, refused.text);
        assert.ok(refused.json.message.includes(`may not change user "lockable${counter}" (the cluster's RoleBinding "${group}-view" in namespace "default" names their group "${group}")`) &&
                  refused.json.message.endsWith('that also needs cluster:write'), refused.json.message);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/users/${member.id}`)).json.locked, true, 'still locked');
        // Nor may it delete the cluster identity (ending the user's cluster access for good).
        const deleted = await request(`${b.adminUrl}/admin/v1/users/${member.id}`, 'DELETE', '', headers);
        assert.equal(deleted.status, 403, deleted.text);
        assert.ok(deleted.json.message.includes(`may not delete user "lockable${counter}" (the cluster's RoleBinding "${group}-view" in namespace "default" names their group "${group}")`),
                  deleted.json.message);
        assert.equal((await adminFetch(b, 'GET', `/admin/v1/users/${member.id}`)).status, 200, 'still there');
        // The user still cannot sign in; a user no binding names is the help desk's to unlock.
        const plainUnlock = await request(`${b.adminUrl}/admin/v1/users/${plain.id}/unlock`, 'POST', '', headers);
        assert.equal(plainUnlock.status, 200, plainUnlock.text);
        assert.equal(plainUnlock.json.locked, false);
        // With cluster:write as well the lock is lifted.
        const both = await scopedAdminToken(b, `cluster unlocker ${counter}`, ['oauth:write', 'cluster:write']);
        const lifted = await request(`${b.adminUrl}/admin/v1/users/${member.id}/unlock`, 'POST', '',
                                     { Authorization: `Bearer ${both}`, 'Content-Type': 'application/json' });
        assert.equal(lifted.status, 200, lifted.text);
        assert.equal(lifted.json.locked, false);
        assert.ok((await tokensFor(b, kubectl, member, { scope: 'openid groups' })).id_token);
    });

    attack('trust 4: an explicit mapping by an administrator is the only way in', async () => {
        await setClusterAccess(true);
        const before = await clusterIdentity(b, (await tokensFor(b, kubectl, ops, { scope: 'openid groups' })).id_token);
        assert.deepEqual(before.user.groups, ['ops', 'system:authenticated']);
        const m = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { oidcGroupMappings: ['ops=system:masters'] });
        assert.equal(m.status, 200, m.text);
        try {
            const tokens = await tokensFor(b, kubectl, ops, { scope: 'openid groups' });
            const who = await clusterIdentity(b, tokens.id_token);
            assert.deepEqual(who.user.groups, ['system:masters', 'system:authenticated']);
            const nodes = await kubeRequest(b, 'GET', '/api/v1/nodes', { headers: { Authorization: `Bearer ${tokens.id_token}` } });
            assert.equal(nodes.status, 200, nodes.text);
            // The unmapped system:masters of the other user is still dropped.
            const rootWho = await clusterIdentity(b, (await tokensFor(b, kubectl, root, { scope: 'openid groups' })).id_token);
            assert.deepEqual(rootWho.user.groups, ['devs', 'system:authenticated']);
        } finally {
            const reset = await adminFetch(b, 'PUT', '/admin/v1/cluster/settings', { oidcGroupMappings: [] });
            assert.equal(reset.status, 200, reset.text);
        }
    });
});

// What an administrator takes away is gone from everything derived from it, at once: the
// id_token issued beside a revoked access token (the cluster accepts id_tokens), the refresh
// family of a client that lost offline_access, a code or sign-in under way when a redirect URI
// or a scope was removed, the tokens minted from a trusted issuer's assertions.
describe('revocation reaches what was derived', () => {
    let b;
    let kubectl;
    let dave;
    // Loopback redirect URIs match in any port (RFC 8252 §7.3): the other one differs in its
    // path, so that taking APP away takes it away.
    const APP = 'http://127.0.0.1:8000/';
    const OTHER_APP = 'http://127.0.0.1:8001/other';
    const FULL = { client_name: 'kubectl', token_endpoint_auth_method: 'none',
                   grant_types: ['authorization_code', 'refresh_token'], scope: 'openid groups offline_access',
                   redirect_uris: [APP, OTHER_APP] };

    before(async () => {
        const first = await startBackend({ env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
        kubectl = await registerClient(first, FULL);
        const dataDir = first.dataDir;
        assert.equal(await first.stop(), 0, first.stderr);
        b = await startBackend({ dataDir, args: ['--oidc-client-id', kubectl.client_id],
                                 env: { GATEHOUSE_OAUTH_LOGIN_RATE: '100000' } });
        const allowed = await adminFetch(b, 'PUT', `/admin/v1/clients/${kubectl.client_id}/cluster-access`, { allowed: true });
        assert.equal(allowed.status, 200, allowed.text);
        dave = await newUser(b, 'dave', ['devs']);
    });

    after(async () => {
        if (b)
            assert.equal(await b.stop(), 0, b.stderr);
    });

    // The administrator's change of the kubectl client; `undo` puts FULL back.
    const change = async (metadata) => {
        const r = await adminFetch(b, 'PUT', `/admin/v1/clients/${kubectl.client_id}`, { ...FULL, ...metadata, cluster_access: true });
        assert.equal(r.status, 200, r.text);
    };
    const undo = () => change({});

    attack('revocation: the id_token issued with a revoked access token still reaches the cluster (RFC 7009 and the admin API)', async () => {
        for (const how of ['rfc7009', 'admin']) {
            const tokens = await tokensFor(b, kubectl, dave, { scope: 'openid groups offline_access' });
            assert.equal((await clusterIdentity(b, tokens.id_token)).status, 201, `${how}: the id_token reaches the cluster`);
            if (how === 'rfc7009') {
                const r = await formPost(b, '/oauth2/revoke', { token: tokens.access_token, client_id: kubectl.client_id });
                assert.equal(r.status, 200, r.text);
            } else {
                const stored = await adminFetch(b, 'POST', '/admin/v1/jwt/inspect', { token: tokens.access_token });
                const id = stored.json.server.stored.id;
                assert.equal((await adminFetch(b, 'DELETE', `/admin/v1/tokens/${encodeURIComponent(id)}`)).status, 204);
            }
            const after = await clusterIdentity(b, tokens.id_token);
            assert.equal(after.status, 401, `${how}: ${after.text}`);
            // The refresh token is not the access token's child: it still works.
            const refreshed = await tokenRequest(b, kubectl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
            assert.equal(refreshed.status, 200, `${how}: ${refreshed.text}`);
        }
    });

    attack('revocation: a cluster watch opened with a token runs on after the token is revoked (RFC 7009) or its client disallowed', async () => {
        const user = `${b.serviceUrl}#${dave.id}`;
        const crb = await adminKube(b, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
            apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'dave-view' },
            subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' } });
        assert.equal(crb.status, 201, crb.text);
        const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized',
                               reason: 'Unauthorized', code: 401 };
        const watchAs = async (token) => {
            const w = await openWatch(b, '/api/v1/namespaces/default/serviceaccounts?watch=1',
                                      { headers: { Authorization: `Bearer ${token}` } });
            assert.equal(w.status, 200);
            return w;
        };
        // Ended by the server within 15 s (5 s between checks, room for a slow machine), its last
        // event the 401.
        const endsUnauthorized = async (w, what) => {
            const timer = new Promise((resolve) => setTimeout(() => resolve('still open'), 15_000));
            const outcome = await Promise.race([w.ended, timer]);
            w.close();
            assert.notEqual(outcome, 'still open', `${what}: the watch still runs`);
            assert.deepEqual(w.events.at(-1), { type: 'ERROR', object: unauthorized }, what);
        };
        try {
            const tokens = await tokensFor(b, kubectl, dave, { scope: 'openid groups' });
            const byAccess = await watchAs(tokens.access_token);
            const other = await tokensFor(b, kubectl, dave, { scope: 'openid groups' });
            const byOther = await watchAs(other.access_token);
            const cm = await adminKube(b, 'POST', '/api/v1/namespaces/default/serviceaccounts',
                                       { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'seen-by-dave' } });
            assert.equal(cm.status, 201, cm.text);
            await waitFor(() => [byAccess, byOther].every((w) => w.events.some((e) => e.object?.metadata?.name === 'seen-by-dave')),
                          { message: 'both watches see the account' });
            const r = await formPost(b, '/oauth2/revoke', { token: tokens.access_token, client_id: kubectl.client_id });
            assert.equal(r.status, 200, r.text);
            await endsUnauthorized(byAccess, 'revoked (RFC 7009)');
            assert.ok(byOther.events.every((e) => e.type !== 'ERROR'), 'the token not revoked watches on');
            // The administrator takes the client's cluster access away: its other token's watch ends.
            assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${kubectl.client_id}/cluster-access`, { allowed: false })).status, 200);
            await endsUnauthorized(byOther, 'client disallowed');
        } finally {
            assert.equal((await adminFetch(b, 'PUT', `/admin/v1/clients/${kubectl.client_id}/cluster-access`, { allowed: true })).status, 200);
            await adminKube(b, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/seen-by-dave');
            await adminKube(b, 'DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/dave-view');
        }
    });

    attack('revocation: a client an administrator took offline_access from keeps refreshing its families, or gets them back with it', async () => {
        const tokens = await tokensFor(b, kubectl, dave, { scope: 'openid groups offline_access' });
        const once = await tokenRequest(b, kubectl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
        assert.equal(once.status, 200, once.text);
        await change({ scope: 'openid groups' });
        try {
            const r = await tokenRequest(b, kubectl, { grant_type: 'refresh_token', refresh_token: once.json.refresh_token });
            assertOAuthError(r, 400, 'invalid_grant', /offline_access is no longer among this client's scopes/, 'refresh');
        } finally {
            await undo();
        }
        // Given back: the families it ended stay ended (a leaked refresh token with them).
        const again = await tokenRequest(b, kubectl, { grant_type: 'refresh_token', refresh_token: once.json.refresh_token });
        assertOAuthError(again, 400, 'invalid_grant', /^the refresh token was revoked$/, 'refresh after offline_access came back');
        const fresh = await tokensFor(b, kubectl, dave, { scope: 'openid groups offline_access' });
        const renewed = await tokenRequest(b, kubectl, { grant_type: 'refresh_token', refresh_token: fresh.refresh_token });
        assert.equal(renewed.status, 200, `a new sign-in's family works: ${renewed.text}`);
    });

    attack('revocation: a client an administrator took the refresh_token grant from gets its families back with it', async () => {
        const tokens = await tokensFor(b, kubectl, dave, { scope: 'openid groups offline_access' });
        await change({ grant_types: ['authorization_code'] });
        try {
            const r = await tokenRequest(b, kubectl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
            assertOAuthError(r, 400, 'unauthorized_client', /refresh_token is not among this client's grant_types/, 'refresh');
        } finally {
            await undo();
        }
        const again = await tokenRequest(b, kubectl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
        assertOAuthError(again, 400, 'invalid_grant', /^the refresh token was revoked$/, 'refresh after the grant came back');
    });

    attack('revocation: a groups scope taken from the cluster\'s client still names the user\'s groups in the cluster and at userinfo', async () => {
        const tokens = await tokensFor(b, kubectl, dave, { scope: 'openid groups offline_access' });
        const devs = (who) => (who.user?.groups ?? []).filter((g) => g.endsWith('devs'));
        const userinfo = () => request(`${b.serviceUrl}/oauth2/userinfo`, 'GET', undefined,
                                       { Authorization: `Bearer ${tokens.access_token}` });
        const before = await clusterIdentity(b, tokens.id_token);
        assert.equal(before.status, 201, before.text);
        assert.equal(devs(before).length, 1, JSON.stringify(before.user));
        assert.deepEqual((await userinfo()).json.groups, ['devs']);
        await change({ scope: 'openid offline_access' });
        try {
            const after = await clusterIdentity(b, tokens.id_token);
            assert.equal(after.status, 201, after.text);
            assert.equal(after.user.username, before.user.username, 'still the user');
            assert.deepEqual(devs(after), [], JSON.stringify(after.user));
            const info = await userinfo();
            assert.equal(info.status, 200, info.text);
            assert.equal(info.json.sub, dave.id);
            assert.equal(info.json.groups, undefined, info.text);
        } finally {
            await undo();
        }
        // Given back, not to this token (the scope was taken out of what it stores): a new
        // sign-in's has them.
        assert.equal(devs(await clusterIdentity(b, tokens.id_token)).length, 0);
        const fresh = await tokensFor(b, kubectl, dave, { scope: 'openid groups offline_access' });
        assert.equal(devs(await clusterIdentity(b, fresh.id_token)).length, 1);
    });

    attack('revocation: a code issued before its redirect URI was removed is redeemed there', async () => {
        const flow = await signIn(b, kubectl, dave, { scope: 'openid groups' });
        const before = await activeTokenIds(b, kubectl.client_id);
        await change({ redirect_uris: [OTHER_APP] });
        try {
            const r = await tokenRequest(b, kubectl, { grant_type: 'authorization_code', code: flow.code,
                                                       redirect_uri: APP, code_verifier: flow.verifier });
            assertOAuthError(r, 400, 'invalid_grant', /redirect_uri is no longer registered/, 'redeem');
            await assertTokensUnchanged(b, kubectl.client_id, before);
        } finally {
            await undo();
        }
    });

    attack('revocation: a code asked for without redirect_uri (the client\'s only one) is redeemed after that URI was removed', async () => {
        await change({ redirect_uris: [APP] });
        try {
            // While the URI is registered, such a code is redeemed without a redirect_uri
            // (RFC 6749 §4.1.3), and comes back there.
            const kept = await signIn(b, kubectl, dave, { scope: 'openid groups', redirectUri: null });
            const ok = await tokenRequest(b, kubectl, { grant_type: 'authorization_code', code: kept.code,
                                                        code_verifier: kept.verifier });
            assert.equal(ok.status, 200, ok.text);
            const flow = await signIn(b, kubectl, dave, { scope: 'openid groups', redirectUri: null });
            const before = await activeTokenIds(b, kubectl.client_id);
            await change({ redirect_uris: [OTHER_APP] });
            const r = await tokenRequest(b, kubectl, { grant_type: 'authorization_code', code: flow.code,
                                                       code_verifier: flow.verifier });
            assertOAuthError(r, 400, 'invalid_grant', /redirect_uri is no longer registered/, 'redeem');
            await assertTokensUnchanged(b, kubectl.client_id, before);
        } finally {
            await undo();
        }
    });

    attack('revocation: a sign-in under way when its redirect URI and a scope were removed ends with them', async () => {
        // The user is at the login page when the administrator changes the client.
        const start = async (scope) => {
            const ua = new UserAgent();
            const verifier = randomBytes(32).toString('base64url');
            const u = new URL('/oauth2/authorize', b.serviceUrl);
            for (const [k, v] of Object.entries({ response_type: 'code', client_id: kubectl.client_id, redirect_uri: APP,
                                                  scope, state: 's', code_challenge_method: 'S256',
                                                  code_challenge: createHash('sha256').update(verifier).digest('base64url') }))
                u.searchParams.set(k, v);
            const r = await ua.fetch(u);
            assert.equal(r.status, 303, r.text);
            assert.equal(r.location.pathname, '/oauth2/login');
            const f = form((await ua.fetch(r.location)).text, 'login-form');
            const submit = () => ua.fetch(new URL(f.action, b.serviceUrl), { method: 'POST',
                form: { ...f.fields, username: dave.username, password: dave.password } });
            return { submit, verifier, ua };
        };
        const gone = await start('openid groups');
        await change({ redirect_uris: [OTHER_APP] });
        try {
            const r = await gone.submit();
            assertErrorPage(r, 'a removed redirect URI');
            assert.match(r.text, /redirect URI is no longer registered/);
        } finally {
            await undo();
        }
        // A scope taken away while the user signs in is not in the code's tokens.
        const narrowed = await start('openid groups offline_access');
        await change({ scope: 'openid groups', grant_types: ['authorization_code'] });
        try {
            let r = await narrowed.submit();
            if (r.location?.pathname === '/oauth2/consent') {
                const f = form((await narrowed.ua.fetch(r.location)).text, 'consent-form');
                r = await narrowed.ua.fetch(new URL(f.action, b.serviceUrl), { method: 'POST',
                                                                              form: { ...f.fields, decision: 'allow' } });
            }
            assert.equal(r.status, 303, r.text);
            const code = r.location.searchParams.get('code');
            const t = await tokenRequest(b, kubectl, { grant_type: 'authorization_code', code, redirect_uri: APP,
                                                       code_verifier: narrowed.verifier });
            assert.equal(t.status, 200, t.text);
            assert.equal(t.json.scope, 'openid groups');
            assert.equal(t.json.refresh_token, undefined);
        } finally {
            await undo();
        }
    });

    attack('revocation: a refusal at the consent page is sent to a redirect URI removed while the user decided', async () => {
        // A user who never consented to the client stops at the consent page.
        const erin = await newUser(b, 'erin');
        const atConsent = async () => {
            const ua = new UserAgent();
            const u = new URL('/oauth2/authorize', b.serviceUrl);
            for (const [k, v] of Object.entries({ response_type: 'code', client_id: kubectl.client_id, redirect_uri: APP,
                                                  scope: 'openid', state: 'st', code_challenge_method: 'S256',
                                                  code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url') }))
                u.searchParams.set(k, v);
            const r = await ua.fetch(u);
            assert.equal(r.status, 303, r.text);
            const f = form((await ua.fetch(r.location)).text, 'login-form');
            const signedIn = await ua.fetch(new URL(f.action, b.serviceUrl), { method: 'POST',
                form: { ...f.fields, username: erin.username, password: erin.password } });
            assert.equal(signedIn.status, 303, signedIn.text);
            assert.equal(signedIn.location.pathname, '/oauth2/consent');
            const c = form((await ua.fetch(signedIn.location)).text, 'consent-form');
            return () => ua.fetch(new URL(c.action, b.serviceUrl), { method: 'POST', form: { ...c.fields, decision: 'deny' } });
        };
        const deny = await atConsent();
        await change({ redirect_uris: [OTHER_APP] });
        try {
            const r = await deny();
            assertErrorPage(r, 'a refusal for a removed redirect URI', 'access_denied');
            assert.match(r.text, /redirect URI is no longer registered/);
        } finally {
            await undo();
        }
        // Where the URI is still registered, the application is told (RFC 6749 §4.1.2.1).
        const r = await (await atConsent())();
        assert.equal(r.status, 303, r.text);
        assert.equal(`${r.location.origin}${r.location.pathname}`, APP);
        assert.equal(r.location.searchParams.get('error'), 'access_denied');
        assert.equal(r.location.searchParams.get('state'), 'st');
    });

    attack('revocation: tokens minted from a trusted issuer\'s assertions outlive the issuer\'s removal', async () => {
        const idp = await jose.generateKeyPair('ES256', { extractable: true });
        const issuer = 'https://idp.partner.example';
        const t = await adminFetch(b, 'POST', '/admin/v1/trusted-issuers', {
            issuer, jwks: { keys: [{ ...(await jose.exportJWK(idp.publicKey)), kid: 'p', alg: 'ES256' }] }, scopes: ['orders:read'],
            subjects: [dave.username] });
        assert.equal(t.status, 201, t.text);
        const gateway = await registerClient(b, { client_name: 'partner gateway', scope: 'orders:read',
                                                  grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'] });
        const assertion = await new jose.SignJWT({ sub: dave.username, aud: b.serviceUrl, jti: randomBytes(8).toString('hex') })
            .setProtectedHeader({ alg: 'ES256', kid: 'p' }).setIssuer(issuer).setIssuedAt().setExpirationTime('5m')
            .sign(idp.privateKey);
        const minted = await tokenRequest(b, gateway, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
        assert.equal(minted.status, 200, minted.text);
        assert.equal((await introspect(b, gateway, minted.json.access_token)).active, true);
        const removed = await adminFetch(b, 'DELETE', `/admin/v1/trusted-issuers?issuer=${encodeURIComponent(issuer)}`);
        assert.equal(removed.status, 204, removed.text);
        assert.deepEqual(await introspect(b, gateway, minted.json.access_token), { active: false });
        await assertNoTokens(b, gateway.client_id, 'after the issuer was removed');
    });
});
