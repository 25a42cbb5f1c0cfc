/**
 * Publishable keys: what a browser may do with a brand's public key, on both faces. Every REST route of
 * the OpenAPI document and every GraphQL root field is tried, so a new operation is for secret keys
 * unless it is deliberately opened; the key answers only to its own origins.
 */
import { randomUUID } from 'node:crypto';
import { buildSchema } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { publishableMutationFields, publishableQueryFields } from '../../../src/graphql/publishable.ts';
import { resolvers } from '../../../src/graphql/resolvers/index.ts';

const SHOP = 'https://shop.example';
const db = await freshDb();
const brand = await createBrand(db);
const secretKey = (await createApiKey(db, { brandId: brand.id })).secret;
const publishable = await createPublishableKey(db, brand.id, [SHOP, 'http://localhost:5173']);
const key = publishable.secret;
const { experience } = await createExperience(db, brand.id);
await createSession(db, experience, { startLocal: '2027-03-01T10:00:00', capacity: 10 });
const soldOut = await createSession(db, experience, { startLocal: '2027-03-02T10:00:00', capacity: 2, reserved: 2 });
const waitlist = await createWaitlist(db, experience.id);
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2027-02-01T12:00:00.000Z') });
});

const fromShop = { origin: SHOP };
const forbiddenRest = (method: string, url: string) => ({
  status: 403,
  body: {
    error: {
      code: 'FORBIDDEN',
      message: `A publishable key may not call ${method} ${url}: use a secret key (sk_...) from a server`,
      details: { keyKind: 'publishable' },
      requestId: expect.any(String),
    },
  },
});

describe('REST with a publishable key', () => {
  it('opens exactly the catalogue, availability, checkout and waitlist routes; every other route is 403 FORBIDDEN', async () => {
    const document = (await t.rest('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const open: string[] = [];
    const documented: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (Array.isArray(operation.security) && operation.security.length === 0) continue; // no key at all
        if (path === '/graphql') continue;
        const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement as object));
        if (schemes.includes('Publishable-Key')) documented.push(`${method.toUpperCase()} ${path}`);
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'brandId' ? brand.id : randomUUID()));
        const res = await t.rest(method.toUpperCase() as 'GET' | 'POST' | 'DELETE', url, {
          headers: { authorization: `Bearer ${key}`, ...fromShop },
          ...(method === 'post' ? { body: {} } : {}),
        });
        if (res.status === 403) {
          const fastifyPath = path.replace(/\{(\w+)\}/g, ':$1');
          expect({ status: res.status, body: res.body }).toEqual(forbiddenRest(method.toUpperCase(), fastifyPath));
        } else {
          open.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(open.sort()).toEqual([
      'DELETE /v1/brands/{brandId}/waitlists/{waitlistId}/entries/{entryId}',
      'GET /v1/brands/{brandId}/experiences/{experienceId}',
      'GET /v1/brands/{brandId}/experiences/{experienceId}/availability',
      'GET /v1/brands/{brandId}/experiences/{experienceId}/custom-questions',
      'GET /v1/brands/{brandId}/hosts',
      'GET /v1/brands/{brandId}/hosts/{hostId}',
      'GET /v1/brands/{brandId}/listings/{listingId}',
      'GET /v1/brands/{brandId}/settings',
      'GET /v1/experiences/{experienceId}/reviews',
      'GET /v3/listings/featured',
      'POST /v1/brands/{brandId}/carts/{cartId}/payment_intents',
      'POST /v1/brands/{brandId}/waitlists/{waitlistId}/entries',
    ]);
    // The document tells generated clients the same.
    expect(documented.sort()).toEqual(open);
  });

  it('checks out and pays through the client secret, but may not read or cancel what it sold', async () => {
    const cartId = randomUUID();
    const checkout = await t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, {
      headers: { authorization: `Bearer ${key}`, ...fromShop },
      body: {
        data: [
          {
            sessionTime: '2027-03-01T10:00:00',
            experienceId: experience.id,
            participants: [{ firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult' }],
          },
        ],
      },
    });
    expect(checkout.status).toBe(201);
    const [booking] = checkout.body.bookings as Array<{ id: string; status: string }>;
    expect(booking!.status).toBe('processing');
    const paid = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
      headers: fromShop,
      body: { paymentIntentSecret: checkout.body.paymentIntentSecret, outcome: 'succeeded' },
    });
    expect(paid).toMatchObject({ status: 200, body: { paymentIntentStatus: 'succeeded' } });

    const read = await t.rest('GET', `/v1/bookings/${booking!.id}`, { headers: { authorization: `Bearer ${key}`, ...fromShop } });
    expect({ status: read.status, body: read.body }).toEqual(forbiddenRest('GET', '/v1/bookings/:bookingId'));
    const cancel = await t.rest('POST', '/v1/bookings/cancel', {
      headers: { authorization: `Bearer ${key}`, ...fromShop },
      body: { bookings: [{ bookingId: booking!.id, cancel: true }] },
    });
    expect({ status: cancel.status, body: cancel.body }).toEqual(forbiddenRest('POST', '/v1/bookings/cancel'));
    const bySecret = await t.rest('GET', `/v1/bookings/${booking!.id}`, { key: secretKey });
    expect(bySecret.body.status).toBe('confirmed');
  });

  it('joins and leaves a waitlist', async () => {
    const joined = await t.rest('POST', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries`, {
      headers: { authorization: `Bearer ${key}`, ...fromShop },
      body: {
        sessionStartDate: soldOut.startLocal.slice(0, 10),
        sessionStartTime: '10:00',
        sessionDuration: 120,
        purchaser: { firstName: 'Rui', lastName: 'Costa', emailAddress: 'rui@example.com' },
        participants: [{ firstName: 'Rui', lastName: 'Costa', priceTierName: 'Adult' }],
      },
    });
    expect(joined.status).toBe(201);
    const left = await t.rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/${joined.body.id}`, {
      headers: { authorization: `Bearer ${key}`, ...fromShop },
    });
    expect(left.status).toBe(200);
  });

  it('answers only to the origins it lists (and to callers without an Origin, which no browser is)', async () => {
    const settings = `/v1/brands/${brand.id}/settings`;
    const from = (origin?: string) =>
      t.rest('GET', settings, { headers: { authorization: `Bearer ${key}`, ...(origin ? { origin } : {}) } });
    expect((await from(SHOP)).status).toBe(200);
    expect((await from('http://localhost:5173')).status).toBe(200);
    expect((await from()).status).toBe(200);
    const elsewhere = await from('https://evil.example');
    expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({
      status: 403,
      body: {
        error: {
          code: 'FORBIDDEN',
          message: 'This publishable key may not be used from https://evil.example: it lists https://shop.example, http://localhost:5173',
          details: { keyKind: 'publishable', origin: 'https://evil.example' },
          requestId: expect.any(String),
        },
      },
    });
    // A secret key is not bound to origins (CORS decides what browsers may read).
    expect(
      (await t.rest('GET', settings, { headers: { authorization: `Bearer ${secretKey}`, origin: 'https://evil.example' } })).status,
    ).toBe(200);
  });
});

describe('GraphQL with a publishable key', () => {
  const gql = (query: string, variables?: Record<string, unknown>) => t.gql(query, variables, { key, headers: fromShop });

  it('guards every root field: the listed ones run, every other one is FORBIDDEN before it does anything', async () => {
    const sdl = readdirSync('schema')
      .map((file) => readFileSync(`schema/${file}`, 'utf8'))
      .join('\n');
    const schema = buildSchema(`type Query { _: Int } type Mutation { _: Int }\n${sdl}`, { assumeValid: true });
    const principal = {
      kind: 'publishable' as const,
      keyId: publishable.id,
      organizationId: null,
      brandIds: [brand.id],
      headerBrandId: null,
    };
    const refused: string[] = [];
    for (const [root, fields, open] of [
      ['Query', schema.getQueryType()!.getFields(), publishableQueryFields],
      ['Mutation', schema.getMutationType()!.getFields(), publishableMutationFields],
    ] as const) {
      for (const name of Object.keys(fields)) {
        if (name === '_') continue;
        const resolve = (resolvers as Record<string, Record<string, (...args: unknown[]) => unknown>>)[root]![name]!;
        let error: unknown = null;
        try {
          // No database, no arguments: a guarded field throws before it reads anything.
          await resolve({}, {}, { principal, caller: () => ({ principal }) }, { fieldName: name });
        } catch (thrown) {
          error = thrown;
        }
        const forbidden = (error as { code?: string } | null)?.code === 'FORBIDDEN';
        if (forbidden) {
          expect((error as Error).message).toBe(`A publishable key may not use ${name}: use a secret key (sk_...) from a server`);
          refused.push(name);
        }
        expect(forbidden).toBe(!(name in open));
      }
    }
    expect(refused.sort()).toEqual([
      'archiveExperience',
      'booking',
      'bookings',
      'cancelBookings',
      'cancelSession',
      'cart',
      'coupons',
      'createCoupon',
      'createExperience',
      'createHost',
      'createListing',
      'createWebhookEndpoint',
      'creditCodes',
      'deleteWebhookEndpoint',
      'events',
      'issueCreditCode',
      'organization',
      'publishListing',
      'rescheduleBooking',
      'scheduleSessions',
      'unarchiveExperience',
      'updateBrandSettings',
      'updateCoupon',
      'updateCreditCode',
      'updateExperience',
      'updateHost',
      'updateListingDraft',
      'updateSession',
      'updateWebhookEndpoint',
      'waitlist',
      'webhookDeliveries',
      'webhookEndpoints',
    ]);
  });

  it('reads the catalogue, prices a cart and tells the key who it is', async () => {
    const res = await gql(
      `query($brandId: UUID!, $id: UUID!) {
        viewer { kind brands { uuid } }
        experience(brandId: $brandId, id: $id) { uuid }
      }`,
      { brandId: brand.id, id: experience.id },
    );
    expect(res.body).toEqual({
      data: { viewer: { kind: 'PUBLISHABLE', brands: [{ uuid: brand.id }] }, experience: { uuid: experience.id } },
    });
    const quote = await gql(
      `mutation($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
        createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) { totalNetAmount paymentIntentSecret }
      }`,
      {
        brandId: brand.id,
        cartId: randomUUID(),
        input: {
          getOnlyTotalNetAmount: true,
          data: [
            {
              sessionTime: '2027-03-01T10:00:00',
              experienceId: experience.id,
              participants: [{ firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult' }],
            },
          ],
        },
      },
    );
    expect(quote.body.errors).toBeUndefined();
    expect(quote.body.data.createPaymentIntent.paymentIntentSecret).toBeNull();
  });

  it('refuses the rest with FORBIDDEN naming the key kind, leaving allowed fields of the same request alone', async () => {
    const res = await gql(`query($brandId: UUID!, $id: UUID!) { brandSettings(brandId: $brandId) { uuid } booking(id: $id) { uuid } }`, {
      brandId: brand.id,
      id: randomUUID(),
    });
    expect(res.body.data).toEqual({ brandSettings: { uuid: brand.id }, booking: null });
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        message: 'A publishable key may not use booking: use a secret key (sk_...) from a server',
        path: ['booking'],
        extensions: expect.objectContaining({ code: 'FORBIDDEN', keyKind: 'publishable' }),
      }),
    ]);
  });

  it('refuses a page on an origin the key does not list', async () => {
    const res = await t.gql('{ viewer { kind } }', undefined, { key, headers: { origin: 'https://evil.example' } });
    expect(res.body.errors?.[0]).toMatchObject({
      message: 'This publishable key may not be used from https://evil.example: it lists https://shop.example, http://localhost:5173',
      extensions: { code: 'FORBIDDEN' },
    });
  });
});
