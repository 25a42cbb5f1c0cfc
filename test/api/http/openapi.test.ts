/**
 * The OpenAPI document at /openapi.json, as generators read it: every operation named and summarized,
 * named component schemas, the headers clients send, every error status with the error schema, and an
 * example on every body that its own schema accepts (so the examples cannot drift from the answers).
 */
import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
await createSession(db, experience, { startLocal: '2027-03-01T10:00:00', durationMinutes: 120 });

type Schema = Record<string, any>;
interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string }>;
  requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema; example?: unknown }> }>;
}

let t: TestApp;
let document: { servers: unknown[]; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
let operations: Array<{ name: string; method: string; path: string; operation: Operation }>;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2027-02-01T12:00:00.000Z') });
  document = (await t.rest('GET', '/openapi.json')).body;
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method, path, operation })),
  );
});

const statuses = (operationId: string) =>
  Object.keys(operations.find((o) => o.operation.operationId === operationId)!.operation.responses).map(Number);

describe('the OpenAPI document', () => {
  it('names and summarizes every operation, serves from its own address, and leaves GraphQL out', () => {
    expect(document.servers).toEqual([{ url: '/', description: 'The gateway serving this document' }]);
    expect(Object.keys(document.paths)).not.toContain('/graphql');
    expect(operations).toHaveLength(50);
    for (const { name, operation } of operations) {
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary, name).toBeTruthy();
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description, `${name} ${status}`).not.toBe('Default Response');
      }
    }
    expect(new Set(operations.map((o) => o.operation.operationId)).size).toBe(50);
  });

  it('names its component schemas', () => {
    const names = Object.keys(document.components.schemas);
    expect(names).toEqual(expect.arrayContaining(['Error', 'Booking', 'Listing', 'Experience', 'WaitlistEntry', 'Cart', 'PaymentIntent']));
    expect(names.filter((name) => /^def-\d+$/.test(name))).toEqual([]);
    const getBooking = operations.find((o) => o.operation.operationId === 'getBooking')!.operation;
    expect(getBooking.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Booking' });
    expect(getBooking.responses['404']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('documents Idempotency-Key on every POST that takes an API key, Tessera-Brand-Id wherever a key is taken, Tessera-Human-Check where a brand may ask for it', () => {
    const humanChecked = ['createPaymentIntent', 'joinWaitlist'];
    const versionChecked = [
      'updateExperience',
      'archiveExperience',
      'unarchiveExperience',
      'updateListingDraft',
      'publishListing',
      'updateBrandSettings',
      'updateHost',
      'updateCoupon',
      'updateCreditCode',
    ];
    for (const { name, method, operation } of operations) {
      const headers = (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
      const authenticated = !name.includes('/webhooks/payments') && !name.includes('/sandbox/') && !name.includes('/payments/settings');
      const expected = [
        ...(versionChecked.includes(operation.operationId!) ? ['if-match'] : []),
        ...(authenticated && method === 'post' ? ['Idempotency-Key'] : []),
        ...(authenticated ? ['Tessera-Brand-Id'] : []),
        ...(humanChecked.includes(operation.operationId!) ? ['Tessera-Human-Check'] : []),
      ];
      expect(headers, name).toEqual(expected);
    }
    const featured = operations.find((o) => o.operation.operationId === 'getFeaturedListings')!.operation;
    expect(featured.parameters!.find((p) => p.name === 'Tessera-Brand-Id')!.description).toMatch(/required with an organization key/);
  });

  it('lists every status a route can answer', () => {
    expect(statuses('cancelBookings')).toEqual([200, 400, 401, 403, 409, 413, 415, 422, 429, 503]);
    expect(statuses('createPaymentIntent')).toEqual([200, 201, 400, 401, 403, 404, 409, 413, 414, 415, 422, 429, 502, 503]);
    expect(statuses('getBooking')).toEqual([200, 400, 401, 403, 404, 414, 429, 503]);
    expect(statuses('getFeaturedListings')).toEqual([200, 400, 401, 403, 429, 503]);
    expect(statuses('receivePaymentWebhook')).toEqual([200, 400, 413, 429, 503]);
    expect(statuses('confirmSandboxPayment')).toEqual([200, 400, 404, 413, 415, 429, 503]);
    const limited = operations.find((o) => o.operation.operationId === 'listHosts')!.operation.responses['429'] as { headers?: object };
    expect(Object.keys(limited.headers!)).toEqual(['Retry-After']);
    // Every route can meet a database outage, an overload or a drain: 503 with Retry-After.
    const unavailable = operations.find((o) => o.operation.operationId === 'listHosts')!.operation.responses['503'] as {
      headers?: object;
      description?: string;
    };
    expect(Object.keys(unavailable.headers!)).toEqual(['Retry-After']);
    expect(unavailable.description).toMatch(/DATABASE_UNAVAILABLE.*OVERLOADED.*SERVICE_UNAVAILABLE/);
  });

  it('states the decimals money fields accept', () => {
    const body = operations.find((o) => o.operation.operationId === 'createPaymentIntent')!.operation.requestBody!;
    const item = body.content['application/json']!.schema.properties.data.items.properties;
    expect(item.discountPercentage).toMatchObject({ minimum: 0, maximum: 100, multipleOf: 0.01 });
    expect(item.discountAmount.description).toMatch(/at most as many decimals as that currency has \(EUR, USD: 2.*JPY: 0/);
    const cancel = operations.find((o) => o.operation.operationId === 'cancelBookings')!.operation.requestBody!;
    const refund = cancel.content['application/json']!.schema.properties.bookings.items.properties.refundAmount;
    expect(refund.description).toMatch(/at most as many decimals as that currency has/);
  });

  it('has an example on every request body and answer, each valid against its own schema with no field it does not define', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    // The document's components, under an id: a body's `#/components/...` reference is read against it.
    const base = 'https://tessera.test/openapi.json';
    ajv.addSchema({ $id: base, components: { schemas: closed(document.components.schemas) } });
    const compile = (schema: Schema) =>
      ajv.compile(JSON.parse(JSON.stringify(closed(schema)).replaceAll('"#/components/', `"${base}#/components/`)));
    let checked = 0;
    for (const { name, operation } of operations) {
      const bodies = [
        ...Object.values(operation.requestBody?.content ?? {}).map((media) => ['request', media] as const),
        ...Object.entries(operation.responses).flatMap(([status, r]) =>
          Object.values(r.content ?? {}).map((media) => [status, media] as const),
        ),
      ];
      for (const [what, media] of bodies) {
        expect(media.example, `${name} ${what}`).toBeDefined();
        const validate = compile(media.schema);
        expect(validate(media.example) ? [] : validate.errors, `${name} ${what}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBe(495);
  });
});

describe('money fields as documented', () => {
  it('takes a percentage with 2 decimals and refuses a third', async () => {
    const quote = (discountPercentage: number) =>
      t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
        key,
        body: {
          getOnlyTotalNetAmount: true,
          data: [
            {
              experienceId: experience.id,
              sessionTime: '2027-03-01T10:00:00',
              discountPercentage,
              participants: [{ firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult' }],
            },
          ],
        },
      });
    const ok = await quote(33.33);
    // 45.50 less 33.33 % is 30.33, plus the factory's 23 % VAT.
    expect([ok.status, ok.body]).toEqual([200, { totalNetAmount: 37.31 }]);
    const refused = await quote(33.333);
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([
      400,
      'VALIDATION_FAILED',
      { field: 'data.0.discountPercentage' },
    ]);
  });
});

/** The schema with `unevaluatedProperties: false` on every object that lists its properties: an example's extra field fails. */
function closed(schema: Schema): Schema {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Schema = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === 'example' || k === 'enum' || k === 'const' ? v : closed(v)]),
  );
  if (copy.properties && copy.additionalProperties === undefined) copy.unevaluatedProperties = false;
  return copy;
}
