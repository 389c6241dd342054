// A user signing in through a client (authorization code + PKCE over plain HTTP, as
// lib/browser.mjs drives the pages) and redeeming the code: the legitimate flow the trust
// boundary attacks start from.
//
//   const flow = await signIn(b, client, user, { scope: 'openid' });   // {code, verifier, ua}
//   const tokens = await redeem(b, client, flow);                       // the token response

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';

import { basicAuth, formPost } from './attack.mjs';
import { UserAgent, form } from '../../lib/browser.mjs';

// Authorize (with `ua`'s session if it has one), sign in and consent when asked. user:
// {username, password}. Resolves to {code, verifier, ua}.
// redirectUri null: the request names none (the client's only one is meant).
export async function signIn(b, client, user, { scope = 'openid', ua = new UserAgent(),
                                                redirectUri = client.redirect_uris[0] } = {}) {
    const issuer = b.serviceUrl;
    const verifier = randomBytes(32).toString('base64url');
    const u = new URL('/oauth2/authorize', issuer);
    if (redirectUri !== null)
        u.searchParams.set('redirect_uri', redirectUri);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, scope,
                                          state: randomBytes(8).toString('base64url'),
                                          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
                                          code_challenge_method: 'S256' }))
        u.searchParams.set(k, v);
    let r = await ua.fetch(u);
    assert.equal(r.status, 303, `authorize: ${r.text.slice(0, 300)}`);
    if (r.location.pathname === '/oauth2/login') {
        const f = form((await ua.fetch(r.location)).text, 'login-form');
        r = await ua.fetch(new URL(f.action, issuer), { method: 'POST',
                                                        form: { ...f.fields, username: user.username,
                                                                password: user.password } });
        assert.equal(r.status, 303, `login: ${r.text.slice(0, 300)}`);
    }
    if (r.location.pathname === '/oauth2/consent') {
        const f = form((await ua.fetch(r.location)).text, 'consent-form');
        r = await ua.fetch(new URL(f.action, issuer), { method: 'POST', form: { ...f.fields, decision: 'allow' } });
    }
    assert.equal(r.status, 303, `back to the client: ${r.text.slice(0, 300)}`);
    const code = r.location.searchParams.get('code');
    assert.ok(code, `a code in ${r.rawLocation}`);
    return { code, verifier, ua };
}

// The token endpoint as `client` (Basic for a confidential one, client_id otherwise).
export function tokenRequest(b, client, fields) {
    if (client.client_secret)
        return formPost(b, '/oauth2/token', fields, basicAuth(client.client_id, client.client_secret));
    return formPost(b, '/oauth2/token', { ...fields, client_id: client.client_id });
}

// Redeems the code of a signIn; throws unless 200. Resolves to the token response.
export async function redeem(b, client, flow) {
    const r = await tokenRequest(b, client, { grant_type: 'authorization_code', code: flow.code,
                                              redirect_uri: client.redirect_uris[0], code_verifier: flow.verifier });
    assert.equal(r.status, 200, r.text);
    return r.json;
}

// signIn, then redeem.
export async function tokensFor(b, client, user, options) {
    return redeem(b, client, await signIn(b, client, user, options));
}

// RFC 7662 introspection by a confidential client; resolves to the answer's JSON (200,
// no-store). A client learns about its own tokens; a resource server (resource_server: true)
// also about other clients' access tokens for its audiences (its client id, its
// allowed_resources, the orders API's with an orders: scope), never their refresh tokens.
export async function introspect(b, client, token) {
    const r = await formPost(b, '/oauth2/introspect', { token }, basicAuth(client.client_id, client.client_secret));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['cache-control'], 'no-store', 'introspection: no-store');
    return r.json;
}

// Introspection as a resource server (a client registered with resource_server: true): only
// for access tokens for its audience, for which it answers true while they live.
export async function isActive(b, resourceServer, token) {
    return (await introspect(b, resourceServer, token)).active;
}
