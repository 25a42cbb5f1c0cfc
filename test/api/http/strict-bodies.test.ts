/**
 * REST request bodies are taken exactly as sent: for every POST route with a JSON body, every field of
 * its schema is sent once in a converted form (a number or a boolean as text, a single value for a list,
 * text as a number) and refused with VALIDATION_FAILED naming that field, with nothing written. The
 * routes come from the OpenAPI document, so a new route without a body here fails this test.
 */
import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createCheckout } from '../../../fixtures/factories/checkouts.ts';
import { inTurn } from '../../../fixtures/factories/in-turn.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const session = await createSession(db, experience, { startLocal: '2027-03-01T10:00:00', durationMinutes: 120 });
const paid = await createPaidBooking(db, { brandId: brand.id, session, participants: [{}, {}] });
const waitlist = await createWaitlist(db, experience.id);
const checkout = await createCheckout(db, { brandId: brand.id, items: [{ session }] });
let t: TestApp;
let document: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>> };

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2027-02-01T12:00:00.000Z') });
  document = (await t.rest('GET', '/openapi.json')).body;
});

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; additionalProperties?: unknown };
type Path = Array<string | number>;

const person = { firstName: 'Ana', lastName: 'Silva', emailAddress: 'ana@example.com', phoneNumber: '+351900000000' };
const answers = [{ questionId: randomUUID(), answer: [{ value: 'yes', key: randomUUID() }] }];

/** A body per route, schema-valid, with every field its schema has: each is then sent converted, one at a time. */
const bodies: Record<string, { url: string; body: Record<string, unknown> }> = {
  'POST /v1/bookings/cancel': {
    url: '/v1/bookings/cancel',
    body: { bookings: [{ bookingId: paid.booking.id, cancel: true, participants: [paid.participants[0]!.id], refundAmount: 5 }] },
  },
  'POST /v1/brands/{brandId}/carts/{cartId}/payment_intents': {
    url: `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`,
    body: {
      data: [
        {
          sessionTime: '2027-03-01T10:00:00',
          participants: [{ ...person, priceTierName: 'Adult', customQuestionResponses: answers }],
          experienceId: experience.id,
          sessionDuration: 120,
          couponCode: 'NONE',
          discountAmount: 1,
          discountPercentage: 5,
          accessCode: 'A1',
          notes: 'window seat',
          metadata: { channel: 'test' },
          internalNotes: 'none',
          listingAddOns: [{ addOnId: randomUUID(), quantity: 1 }],
          appliedCreditCodes: [{ code: 'GIFT', appliedValue: 2, sequence: 1 }],
          intendedConfirmationCode: 'ABC123',
          waitlistEntryId: randomUUID(),
          resourceGroupId: 'r1',
          resourceQuantity: 1,
        },
      ],
      getOnlyTotalNetAmount: false,
      purchaser: { ...person, customQuestionResponses: answers },
      paymentMethod: 'room-charge',
      roomNumber: '412',
      memberNumber: 'GOLD-1',
    },
  },
  'POST /v1/brands/{brandId}/waitlists/{waitlistId}/entries': {
    url: `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries`,
    body: {
      sessionStartDate: '2027-03-01',
      sessionStartTime: '10:00',
      sessionDuration: 120,
      purchaser: { ...person, customQuestionResponses: answers },
      participants: [{ ...person, priceTierName: 'Adult', customQuestionResponses: answers }],
    },
  },
  'POST /v1/brands/{brandId}/webhooks': {
    url: `/v1/brands/${brand.id}/webhooks`,
    body: { url: 'http://127.0.0.1:9/hooks', events: ['booking.created'] },
  },
  'POST /v1/bookings/{bookingId}/reschedule': {
    url: `/v1/bookings/${paid.booking.id}/reschedule`,
    body: { sessionTime: '2027-03-02T10:00', sessionDuration: 120 },
  },
  'POST /v1/brands/{brandId}/experiences': {
    // The experience document is checked by the domain (its schema names no property), so nothing here is converted.
    url: `/v1/brands/${brand.id}/experiences`,
    body: { title: 'Harbour walk' },
  },
  'POST /v1/brands/{brandId}/experiences/{experienceId}/sessions': {
    url: `/v1/brands/${brand.id}/experiences/${experience.id}/sessions`,
    body: {
      sessions: [{ startDateTime: '2027-03-05T10:00', capacity: 6, duration: 90 }],
      schedule: {
        rrule: 'FREQ=WEEKLY;BYDAY=TU',
        from: '2027-03-01',
        until: '2027-03-31',
        startTimes: ['10:00'],
        exceptions: ['2027-03-16'],
      },
      capacity: 6,
      duration: 90,
    },
  },
  'POST /v1/brands/{brandId}/coupons': {
    // The coupon document is checked by the domain (its schema names no property), so nothing here is converted.
    url: `/v1/brands/${brand.id}/coupons`,
    body: { code: 'STRICT' },
  },
  'POST /v1/brands/{brandId}/credit-codes': {
    // The credit code document is checked by the domain (its schema names no property), so nothing here is converted.
    url: `/v1/brands/${brand.id}/credit-codes`,
    body: { code: 'STRICT' },
  },
  'POST /v1/brands/{brandId}/hosts': {
    // The host document is checked by the domain (its schema names no property), so nothing here is converted.
    url: `/v1/brands/${brand.id}/hosts`,
    body: { firstName: 'Rita' },
  },
  'POST /v1/brands/{brandId}/listings': {
    url: `/v1/brands/${brand.id}/listings`,
    body: {
      experienceId: experience.id,
      kind: 'experience',
      productLine: 'activate',
      title: 'Harbour walk',
      summary: 'Two hours by the water',
      slug: 'harbour-walk',
      advertisedPrice: 30,
      startingPrice: 25,
      hidePrice: false,
      pricePerType: 'person',
      maxParticipants: 8,
      order: 1,
      isExclusive: false,
      isUnlisted: false,
      isFeatured: true,
      resourceGroupCollectionId: 'c1',
      bookingAvailabilityMode: 'group',
      category: { id: randomUUID() },
      hostedBy: { id: randomUUID() },
      pointsEligible: false,
      eventDates: { startDate: '2027-03-01', endDate: '2027-03-31' },
      vibes: [{ id: randomUUID() }],
    },
  },
  'POST /v1/brands/{brandId}/sessions/{sessionId}/cancel': {
    url: `/v1/brands/${brand.id}/sessions/${session.id}/cancel`,
    body: { reason: 'storm' },
  },
  'POST /v1/sandbox/payment_intents/confirm': {
    url: '/v1/sandbox/payment_intents/confirm',
    body: { paymentIntentSecret: checkout.secret, outcome: 'succeeded' },
  },
};

const bodySchemaOf = (route: string): Schema | undefined => {
  const [method, path] = route.split(' ') as [string, string];
  return document.paths[path]?.[method.toLowerCase()]?.requestBody?.content['application/json']?.schema;
};

/** The schema's branch that describes `value` (a nullable field is `anyOf [T, null]`). */
function branch(schema: Schema, value: unknown): Schema {
  if (!schema.anyOf) return schema;
  return schema.anyOf.find((s) => s.type !== 'null' && (s.type !== 'array' || Array.isArray(value))) ?? schema.anyOf[0]!;
}

/** Every field the body carries with the schema describing it, and every schema property the body lacks. */
function fields(schema: Schema, value: unknown, path: Path = []): { present: Array<{ path: Path; schema: Schema }>; missing: string[] } {
  const own = branch(schema, value);
  const present = path.length > 0 ? [{ path, schema: own }] : [];
  const missing: string[] = [];
  if (own.type === 'object' && own.properties) {
    for (const [name, child] of Object.entries(own.properties)) {
      const v = (value as Record<string, unknown>)[name];
      if (v === undefined) missing.push([...path, name].join('.'));
      else {
        const sub = fields(child, v, [...path, name]);
        present.push(...sub.present);
        missing.push(...sub.missing);
      }
    }
  } else if (own.type === 'array' && own.items && Array.isArray(value) && value.length > 0) {
    const sub = fields(own.items, value[0], [...path, 0]);
    present.push(...sub.present);
    missing.push(...sub.missing);
  }
  return { present, missing };
}

/** The field's value in the converted form a lenient parser would take: text for numbers and booleans, one value for a list, a number for text. */
function converted(schema: Schema, value: unknown): unknown {
  switch (schema.type) {
    case 'number':
    case 'integer':
    case 'boolean':
      return String(value);
    case 'array':
      return (value as unknown[])[0];
    case 'object':
      return 'text';
    default:
      return 7;
  }
}

function withValue(body: unknown, path: Path, value: unknown): unknown {
  // Through JSON, not structuredClone: the bodies share objects, which a clone would keep shared.
  const copy = JSON.parse(JSON.stringify(body)) as Record<string | number, unknown>;
  let at = copy;
  for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  at[path[path.length - 1]!] = value;
  return copy;
}

const counts = () =>
  inTurn(
    [
      'bookings',
      'participants',
      'payment_intents',
      'carts',
      'refunds',
      'waitlist_entries',
      'webhook_endpoints',
      'events',
      'idempotency_keys',
    ],
    async (table) => [table, await db.value<number>(`SELECT count(*) AS n FROM ${table}`)],
  );
const paidState = () => db.one('SELECT status, amount_refunded_minor AS refunded FROM bookings WHERE id = ?', paid.booking.id);

describe('REST bodies are taken as sent, never converted', () => {
  it('has a body for every POST route with a JSON body, carrying every field of its schema, valid as it stands', () => {
    const routes = Object.entries(document.paths).flatMap(([path, ops]) => (ops.post?.requestBody ? [`POST ${path}`] : []));
    expect(routes.sort()).toEqual(Object.keys(bodies).sort());
    const ajv = addFormats.default(new Ajv({ strict: false }));
    for (const [route, { body }] of Object.entries(bodies)) {
      const schema = bodySchemaOf(route)!;
      expect({ route, missing: fields(schema, body).missing }).toEqual({ route, missing: [] });
      expect({ route, valid: ajv.validate(schema, body), errors: ajv.errors ?? null }).toEqual({ route, valid: true, errors: null });
    }
  });

  const cases = () =>
    Object.entries(bodies).flatMap(([route, { url, body }]) =>
      fields(bodySchemaOf(route)!, body).present.map(({ path, schema }) => ({
        route,
        url,
        body: withValue(body, path, converted(schema, pathValue(body, path))),
        field: path.join('.'),
      })),
    );

  it('refuses every field sent converted, naming it, with nothing written', async () => {
    const before = await counts();
    const stateBefore = await paidState();
    const refused: string[] = [];
    for (const { route, url, body, field } of cases()) {
      const res = await t.rest('POST', url, { key, body });
      // Cancel items are judged one by one: a converted item field is that item's error, in a 200.
      const error = res.status === 200 && route === 'POST /v1/bookings/cancel' ? res.body.errors[0] : res.body.error;
      expect({
        route,
        field,
        status: res.status === 200 ? 200 : res.status,
        code: error?.code,
        named: error?.details?.field ?? error?.field,
      }).toEqual({
        route,
        field,
        status: route === 'POST /v1/bookings/cancel' && field.startsWith('bookings.0') ? 200 : 400,
        code: 'VALIDATION_FAILED',
        named: field,
      });
      if (route === 'POST /v1/bookings/cancel' && res.status === 200) expect(res.body.items).toEqual([]);
      refused.push(`${route} ${field}`);
    }
    expect(refused.length).toBeGreaterThan(60);
    expect(await counts()).toEqual(before);
    expect(await paidState()).toEqual(stateBefore);
  });

  it('still reads query strings and path parameters from text, as documented', async () => {
    const res = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}/availability?from=2027-03-01&to=2027-03-02`, {
      key,
    });
    expect(res.status).toBe(200);
    const reviews = await t.rest('GET', `/v1/experiences/${experience.id}/reviews?page=1&limit=5`, { key });
    expect([reviews.status, reviews.body[0].links.first]).toEqual([200, `/v1/experiences/${experience.id}/reviews?page=1&limit=5`]);
  });
});

function pathValue(body: unknown, path: Path): unknown {
  return path.reduce<unknown>((at, step) => (at as Record<string | number, unknown>)[step], body);
}
