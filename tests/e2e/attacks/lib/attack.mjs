// The attack catalogue's harness: attack() wraps node:test's test() and counts the attacks that
// were refused as expected; run.mjs prints the count at the end ("N attacks refused").
//
//   import { attack, assertNoTokens } from './lib/attack.mjs';
//   describe('oauth attacks', () => {
//       before(async () => { b = await startBackend(); });
//       after(async () => { assert.equal(await b.stop(), 0, b.stderr); });
//       attack('oauth: PKCE downgrade — code redeemed without code_verifier', async () => {
//           ... assert the refusal ...
//           await assertNoTokens(b, client.client_id);   // ... and that nothing was issued
//       });
//   });
//
// Every case asserts both: the exact refusal (status, error code, message) and the absence of
// its effect (no token row, no order, no RBAC object, no label, no request at a listener).
// A protection that does not hold is written anyway and marked { todo: 'what was seen' }.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { adminFetch, request } from '../../lib/backend.mjs';

let refused = 0;
const titles = new Set();

/**
 * One attack: a node:test test() whose passing counts as one refused attack.
 * options: node:test options (todo, skip, timeout).
 */
export function attack(title, fn, options = {}) {
    if (titles.has(title))
        throw new Error(`two attacks are called "${title}"`);
    titles.add(title);
    return test(title, options, async (t) => {
        await fn(t);
        refused += 1;
    });
}

// A check whose time comes later (a credential that should stop working once a minute is over):
// run.mjs runs these as attacks after every module, so that the wait overlaps the modules after
// the one that asked. Registered when the module loads (beside its attacks); the check itself
// finds what an earlier attack left it, and stops any backend that attack left running.
const laterChecks = [];
export function later(title, fn) {
    laterChecks.push({ title, fn });
}
export function laterAttacks() {
    return laterChecks;
}

// How many attacks passed (were refused, and left nothing behind) so far.
export function refusedCount() {
    return refused;
}

// The line run.mjs prints last.
export function countLine() {
    return `${refused} attacks refused`;
}

// --- OAuth helpers ----------------------------------------------------------------------------

// The ids of the active (neither revoked nor expired) access and refresh tokens of a client,
// newest first, as the admin API lists them.
export async function activeTokenIds(b, clientId) {
    const r = await adminFetch(b, 'GET', `/admin/v1/tokens?client=${encodeURIComponent(clientId)}&limit=1000`);
    assert.equal(r.status, 200, r.text);
    return r.json.items.map((t) => t.id);
}

// The client holds no active token at all.
export async function assertNoTokens(b, clientId, what = 'after the attack') {
    const ids = await activeTokenIds(b, clientId);
    assert.deepEqual(ids, [], `${what}: no active token for client ${clientId}`);
}

// The client holds exactly the tokens it held before (`before`: ids from activeTokenIds).
export async function assertTokensUnchanged(b, clientId, before, what = 'after the attack') {
    assert.deepEqual(await activeTokenIds(b, clientId), before, `${what}: no token issued or revoked for ${clientId}`);
}

// POST /admin/v1/clients; throws unless 201.
export async function registerClient(b, metadata) {
    const r = await adminFetch(b, 'POST', '/admin/v1/clients', metadata);
    assert.equal(r.status, 201, r.text);
    return r.json;
}

export function basicAuth(clientId, secret) {
    return { Authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` };
}

// A form POST (application/x-www-form-urlencoded) to an endpoint of the service listener.
export function formPost(b, path, fields, headers = {}) {
    return request(`${b.serviceUrl}${path}`, 'POST', new URLSearchParams(fields).toString(),
                   { 'Content-Type': 'application/x-www-form-urlencoded', ...headers });
}

// An OAuth error answer (RFC 6749 §5.2): status, error, and error_description matching `pattern`.
export function assertOAuthError(r, status, error, pattern, what = '') {
    assert.equal(r.status, status, `${what}: status (${r.text})`);
    assert.equal(r.json?.error, error, `${what}: error (${r.text})`);
    assert.equal(r.json.access_token, undefined, `${what}: no access_token in the answer`);
    if (pattern)
        assert.match(r.json.error_description ?? '', pattern, `${what}: error_description`);
    assert.equal(r.headers['cache-control'], 'no-store', `${what}: Cache-Control no-store`);
}

// --- JWTs built by hand (jose refuses to make these) -----------------------------------------

const b64 = (o) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');

// header.payload.signature with the signature as given (default: empty, as for alg "none").
export function unsignedJwt(header, claims, signature = '') {
    return `${b64(header)}.${b64(claims)}.${signature}`;
}

// The same JWT with its payload replaced and the original signature kept.
export function tamperedJwt(jwt, change) {
    const [h, p, s] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    return `${h}.${b64({ ...claims, ...change })}.${s}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
