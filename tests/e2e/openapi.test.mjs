// The served OpenAPI document is valid, its JSON and YAML forms agree, and real answers of
// the /v1 API match what it declares (status, media type, body schema, Location).
//
//   GATEHOUSE_BINARY=build/app/gatehouse node --test --test-reporter=spec openapi.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';

import { adminFetch, serviceFetch, startBackend } from './lib/backend.mjs';

// The resource the binary serves (with `servers` set at serve time).
const SOURCE_DOCUMENT = JSON.parse(
    readFileSync(new URL('../../backend/orders/openapi.json', import.meta.url), 'utf8'));

let backend;

before(async () => {
    backend = await startBackend();
});

after(async () => {
    if (!backend)
        return;
    const code = await backend.stop();
    assert.equal(code, 0, `gatehouse stops cleanly on SIGTERM; stderr:\n${backend.stderr}`);
});

function mediaType(response) {
    return (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

async function fetchDocument() {
    const r = await serviceFetch(backend, 'GET', '/openapi.json');
    assert.equal(r.status, 200, r.text);
    assert.equal(mediaType(r), 'application/json');
    assert.ok(r.json && typeof r.json === 'object', 'the body is a JSON object');
    return r.json;
}

describe('OpenAPI document', () => {
    test('/openapi.json is a valid OpenAPI 3.0.2 document', async () => {
        const doc = await fetchDocument();
        assert.equal(doc.openapi, '3.0.2');
        // validate() dereferences in place: give it a copy.
        const api = await SwaggerParser.validate(structuredClone(doc));
        assert.equal(api.info.title, 'Gatehouse Order Service');
        const post = doc.paths['/v1/customers/{customerId}/orders'].post;
        assert.deepEqual(post.tags, ['Order Service']);
        assert.equal(post.summary, 'Place Order');
        assert.ok(post.callbacks.orderStatusChange['{$request.body#/orderStatusCallbackUrl}'].post);
    });

    test('/openapi.yaml is the same document', async () => {
        const doc = await fetchDocument();
        const r = await serviceFetch(backend, 'GET', '/openapi.yaml');
        assert.equal(r.status, 200, r.text);
        assert.equal(mediaType(r), 'application/yaml');
        // js-yaml is the parser swagger-parser itself uses for YAML.
        const fromYaml = yaml.load(r.text);
        assert.deepEqual(fromYaml, doc);
        await SwaggerParser.validate(fromYaml);
    });

    test('servers[0].url is the service listener', async () => {
        const doc = await fetchDocument();
        assert.ok(Array.isArray(doc.servers) && doc.servers.length >= 1);
        assert.equal(doc.servers[0].url, backend.serviceUrl);
    });

    test('it is backend/orders/openapi.json with servers set', async () => {
        const doc = await fetchDocument();
        assert.deepEqual(doc, { ...SOURCE_DOCUMENT, servers: [{ url: backend.serviceUrl }] });
        // Same key order as the source file, too.
        assert.deepEqual(Object.keys(doc), Object.keys(SOURCE_DOCUMENT));
    });

    test('answers are stable', async () => {
        for (const path of ['/openapi.json', '/openapi.yaml']) {
            const a = await serviceFetch(backend, 'GET', path);
            const b = await serviceFetch(backend, 'GET', path);
            assert.equal(a.status, 200, a.text);
            assert.equal(a.text, b.text, `${path} is the same every time`);
        }
    });
});

// --- responses against the document ---------------------------------------------------------

// Compiles the schema the document declares for operation + status + media type. The
// document is dereferenced first; Ajv v8 understands OpenAPI 3.0's `nullable` (next to
// `type`) and treats `readOnly` as an annotation, which is right for responses.
class ResponseValidator {
    static async create(doc) {
        const v = new ResponseValidator();
        v.api = await SwaggerParser.dereference(structuredClone(doc));
        v.ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
        addFormats(v.ajv);
        v.ajv.addKeyword('example'); // OpenAPI 3.0 annotation
        v.ajv.addFormat('decimal', /^[0-9]+(\.[0-9]+)?$/);
        v.compiled = new Map();
        return v;
    }

    // Asserts that `r` is a documented answer of method + pathTemplate and that its body
    // matches the declared schema. Returns the response object of the document.
    check(method, pathTemplate, r) {
        const pathItem = this.api.paths[pathTemplate];
        assert.ok(pathItem, `${pathTemplate} is documented`);
        const op = pathItem[method.toLowerCase()];
        assert.ok(op, `${method} ${pathTemplate} is documented`);
        const status = String(r.status);
        const declared = op.responses[status] ?? op.responses[`${status[0]}XX`] ??
                         op.responses.default;
        assert.ok(declared, `${op.operationId}: status ${status} is documented (body: ${r.text})`);
        if (!declared.content) {
            assert.equal(r.text, '', `${op.operationId} ${status}: no body is documented`);
            return declared;
        }
        const type = mediaType(r);
        const content = declared.content[type];
        assert.ok(content, `${op.operationId} ${status}: Content-Type ${type} is one of ` +
                           `${Object.keys(declared.content).join(', ')}`);
        const key = `${op.operationId} ${status} ${type}`;
        let validate = this.compiled.get(key);
        if (!validate) {
            validate = this.ajv.compile(content.schema);
            this.compiled.set(key, validate);
        }
        assert.ok(r.json !== undefined, `${key}: the body is JSON: ${r.text}`);
        const ok = validate(r.json);
        assert.ok(ok, `${key}: the body does not match the schema:\n` +
                      `${JSON.stringify(validate.errors, null, 2)}\nbody: ${r.text}`);
        return declared;
    }
}

const ORDERS = '/v1/customers/{customerId}/orders';
const ORDER = '/v1/customers/{customerId}/orders/{orderId}';

describe('responses match the document', () => {
    let v;
    let customerId;
    let beers;
    let order;
    const customerRef = `e2e-${randomUUID()}`;

    // The schemas come from the source file, so that these checks do not depend on the
    // /openapi.json route (the tests above check that it serves the same document).
    before(async () => {
        v = await ResponseValidator.create(SOURCE_DOCUMENT);
    });

    function expectProblem(r, status, code) {
        assert.equal(r.status, status, r.text);
        assert.equal(mediaType(r), 'application/problem+json');
        assert.equal(r.json?.code, code, r.text);
        assert.equal(r.json?.status, status);
    }

    test('a customer from the admin API', async () => {
        const r = await adminFetch(backend, 'POST', '/admin/v1/customers', { name: 'e2e' });
        assert.equal(r.status, 201, r.text);
        customerId = r.json.customer.id;
        assert.match(customerId, /^[0-9a-f-]{36}$/i);
        assert.match(r.json.webhookSecret, /^whsec_/);
    });

    test('GET /v1/beers', async () => {
        const r = await serviceFetch(backend, 'GET', '/v1/beers');
        assert.equal(r.status, 200, r.text);
        v.check('GET', '/v1/beers', r);
        beers = r.json.content;
        assert.ok(beers.length >= 2, 'the demo catalog has at least two beers');
    });

    test('GET /v1/beers with filters and paging', async () => {
        const style = beers[0].beerStyle;
        const r = await serviceFetch(backend, 'GET',
                                     `/v1/beers?beerStyle=${style}&pageNumber=0&pageSize=1`);
        assert.equal(r.status, 200, r.text);
        v.check('GET', '/v1/beers', r);
        assert.equal(r.json.pageSize, 1);
        assert.ok(r.json.content.every((b) => b.beerStyle === style));
        const name = beers[0].beerName.slice(1, 4).toUpperCase();
        const byName = await serviceFetch(backend, 'GET',
                                          `/v1/beers?beerName=${encodeURIComponent(name)}`);
        v.check('GET', '/v1/beers', byName);
        assert.ok(byName.json.content.some((b) => b.id === beers[0].id));
    });

    test('GET /v1/beers/{beerId}', async () => {
        const r = await serviceFetch(backend, 'GET', `/v1/beers/${beers[0].id}`);
        assert.equal(r.status, 200, r.text);
        v.check('GET', '/v1/beers/{beerId}', r);
        assert.deepEqual(r.json, beers[0]);
    });

    test('GET /v1/beers/upc/{upc}', async () => {
        const r = await serviceFetch(backend, 'GET',
                                     `/v1/beers/upc/${encodeURIComponent(beers[1].upc)}`);
        assert.equal(r.status, 200, r.text);
        v.check('GET', '/v1/beers/upc/{upc}', r);
        assert.equal(r.json.id, beers[1].id);
    });

    test('POST an order with two lines: 201 with Location', async () => {
        const body = {
            customerRef,
            beerOrderLines: [
                { upc: beers[0].upc, orderQuantity: 1 },
                { upc: beers[1].upc, orderQuantity: 2 },
            ],
        };
        const r = await serviceFetch(backend, 'POST', `/v1/customers/${customerId}/orders`, body);
        assert.equal(r.status, 201, r.text);
        const declared = v.check('POST', ORDERS, r);
        assert.ok(declared.headers.Location, 'Location is documented');
        order = r.json;
        assert.ok(r.headers.location, '201 carries Location');
        assert.equal(new URL(r.headers.location, backend.serviceUrl).pathname,
                     `/v1/customers/${customerId}/orders/${order.id}`);
        assert.equal(order.customerId, customerId);
        assert.equal(order.customerRef, customerRef);
        assert.equal(order.beerOrderLines.length, 2);
        assert.equal(order.version, 1);
        assert.ok(!('orderStatusCallbackUrl' in order), 'omitted when not given');
    });

    test('POST with an absent body: an order with no lines', async () => {
        const r = await serviceFetch(backend, 'POST', `/v1/customers/${customerId}/orders`);
        assert.equal(r.status, 201, r.text);
        v.check('POST', ORDERS, r);
        assert.deepEqual(r.json.beerOrderLines, []);
        assert.equal(r.json.customerRef, null);
    });

    test('POST with the same Idempotency-Key and body answers the original 201', async () => {
        const key = `e2e-${randomUUID()}`;
        const body = JSON.stringify({ beerOrderLines: [{ upc: beers[0].upc, orderQuantity: 1 }] });
        const path = `/v1/customers/${customerId}/orders`;
        const first = await serviceFetch(backend, 'POST', path, body, { 'Idempotency-Key': key });
        assert.equal(first.status, 201, first.text);
        v.check('POST', ORDERS, first);
        const again = await serviceFetch(backend, 'POST', path, body, { 'Idempotency-Key': key });
        assert.equal(again.status, 201, again.text);
        v.check('POST', ORDERS, again);
        assert.equal(again.json.id, first.json.id);
        assert.equal(again.text, first.text);
        const other = await serviceFetch(backend, 'POST', path, { beerOrderLines: [] },
                                         { 'Idempotency-Key': key });
        v.check('POST', ORDERS, other);
        expectProblem(other, 409, 'idempotency-key-reused');
    });

    test('GET the order', async () => {
        const r = await serviceFetch(backend, 'GET',
                                     `/v1/customers/${customerId}/orders/${order.id}`);
        assert.equal(r.status, 200, r.text);
        v.check('GET', ORDER, r);
        assert.equal(r.json.id, order.id);
    });

    test('GET the list of orders', async () => {
        const r = await serviceFetch(backend, 'GET',
                                     `/v1/customers/${customerId}/orders?pageNumber=0&pageSize=100`);
        assert.equal(r.status, 200, r.text);
        v.check('GET', ORDERS, r);
        assert.ok(r.json.content.some((o) => o.id === order.id));
    });

    test('PUT cancel', async () => {
        const r = await serviceFetch(backend, 'PUT',
                                     `/v1/customers/${customerId}/orders/${order.id}/cancel`);
        assert.equal(r.status, 200, r.text);
        v.check('PUT', `${ORDER}/cancel`, r);
        assert.equal(r.json.orderStatus, 'CANCELLED');
    });

    test('409 invalid-state-transition: pickup of a CANCELLED order', async () => {
        const r = await serviceFetch(backend, 'PUT',
                                     `/v1/customers/${customerId}/orders/${order.id}/pickup`);
        v.check('PUT', `${ORDER}/pickup`, r);
        expectProblem(r, 409, 'invalid-state-transition');
    });

    test('400 malformed-json', async () => {
        const r = await serviceFetch(backend, 'POST', `/v1/customers/${customerId}/orders`,
                                     '{"beerOrderLines": [');
        v.check('POST', ORDERS, r);
        expectProblem(r, 400, 'malformed-json');
    });

    test('400 validation-failed: orderQuantity 1000', async () => {
        const r = await serviceFetch(backend, 'POST', `/v1/customers/${customerId}/orders`, {
            beerOrderLines: [{ upc: beers[0].upc, orderQuantity: 1000 }],
        });
        v.check('POST', ORDERS, r);
        expectProblem(r, 400, 'validation-failed');
        assert.ok(r.json.errors.some((e) => e.field === '/beerOrderLines/0/orderQuantity' &&
                                            e.code === 'out-of-range'),
                  r.text);
    });

    test('400 invalid-path-parameter', async () => {
        const r = await serviceFetch(backend, 'GET', '/v1/customers/not-a-uuid/orders');
        v.check('GET', ORDERS, r);
        expectProblem(r, 400, 'invalid-path-parameter');
        // `instance` stays a URI reference when the path holds percent-encoded characters.
        const encoded = await serviceFetch(backend, 'GET', '/v1/customers/not%20a%20uuid/orders');
        v.check('GET', ORDERS, encoded);
        expectProblem(encoded, 400, 'invalid-path-parameter');
    });

    test('400 invalid-query-parameter', async () => {
        const r = await serviceFetch(backend, 'GET', '/v1/beers?pageSize=101');
        v.check('GET', '/v1/beers', r);
        expectProblem(r, 400, 'invalid-query-parameter');
        const style = await serviceFetch(backend, 'GET', '/v1/beers?beerStyle=NOT_A_STYLE');
        v.check('GET', '/v1/beers', style);
        expectProblem(style, 400, 'invalid-query-parameter');
    });

    test('400 invalid-header: Idempotency-Key not visible ASCII', async () => {
        const r = await serviceFetch(backend, 'POST', `/v1/customers/${customerId}/orders`, {},
                                     { 'Idempotency-Key': 'has a space' });
        v.check('POST', ORDERS, r);
        expectProblem(r, 400, 'invalid-header');
    });

    test('415 unsupported-media-type', async () => {
        const r = await serviceFetch(backend, 'POST', `/v1/customers/${customerId}/orders`,
                                     'customerRef=x', { 'Content-Type': 'text/plain' });
        v.check('POST', ORDERS, r);
        expectProblem(r, 415, 'unsupported-media-type');
    });

    test('413 payload-too-large', async () => {
        // A backend of its own with a small body limit, so that the request is small enough
        // to be sent completely before the listener answers and closes.
        const small = await startBackend({ args: ['--max-body-bytes', '1000'] });
        try {
            const c = await adminFetch(small, 'POST', '/admin/v1/customers', { name: 'e2e' });
            assert.equal(c.status, 201, c.text);
            const r = await serviceFetch(small, 'POST',
                                         `/v1/customers/${c.json.customer.id}/orders`,
                                         { customerRef: 'x'.repeat(4000) });
            v.check('POST', ORDERS, r);
            expectProblem(r, 413, 'payload-too-large');
        } finally {
            await small.stop();
        }
    });

    test('404 customer-not-found', async () => {
        const r = await serviceFetch(backend, 'POST', `/v1/customers/${randomUUID()}/orders`, {});
        v.check('POST', ORDERS, r);
        expectProblem(r, 404, 'customer-not-found');
    });

    test('404 order-not-found and beer-not-found', async () => {
        const o = await serviceFetch(backend, 'GET',
                                     `/v1/customers/${customerId}/orders/${randomUUID()}`);
        v.check('GET', ORDER, o);
        expectProblem(o, 404, 'order-not-found');
        const b = await serviceFetch(backend, 'GET', `/v1/beers/${randomUUID()}`);
        v.check('GET', '/v1/beers/{beerId}', b);
        expectProblem(b, 404, 'beer-not-found');
    });

    test('409 duplicate-customer-ref', async () => {
        const r = await serviceFetch(backend, 'POST', `/v1/customers/${customerId}/orders`,
                                     { customerRef });
        v.check('POST', ORDERS, r);
        expectProblem(r, 409, 'duplicate-customer-ref');
    });
});
