/**
 * Hostile input on every POST of both faces: each REST POST route and each GraphQL mutation gets a few
 * hundred random bodies (edited valid bodies, arbitrary JSON, malformed bytes) with a valid key. No answer
 * may be a 5xx, leave the error shape, or show internals. The seed is fixed, so a failure replays:
 * FUZZ_SEED=<seed> reruns another sequence, FUZZ_RUNS=<n> changes the count per target.
 */
import { createHmac, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTypeDefs } from '../../../src/graphql/server.ts';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb, testEngine } from '../../support/db.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { assignQuestion, createExperience, createQuestion } from '../../../fixtures/factories/catalog.ts';
import { createAddOn, createCoupon, createCreditCode } from '../../../fixtures/factories/checkout.ts';
import { times } from '../../../fixtures/factories/in-turn.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { createWaitlistEntry } from '../../../fixtures/factories/waitlists.ts';
import { createWebhookEndpoint } from '../../../fixtures/factories/webhooks.ts';
import { checkGraphqlAnswer, checkRestAnswer, fuzzBody, mutated, type Answer, type FuzzBody } from '../../support/fuzz.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const NOW = new Date('2026-11-25T12:00:00.000Z');
const PROCESSOR_SECRET = 'fuzz-processor-secret';
console.info(`fuzz: seed ${SEED}, ${RUNS} bodies per target (FUZZ_SEED / FUZZ_RUNS to change)`);

const db = await freshDb();
const brand = await createBrand(db, {
  currency: 'EUR',
  featuresActive: [
    'reviews',
    'customQuestions',
    'priceTiers',
    'shoppingCart',
    'unlistedExperience',
    'creditCard',
    'enableRescheduleBookings',
  ],
});
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const open = await createSession(db, experience, { startLocal: '2026-12-01T09:00:00', capacity: 100_000 });
const soldOut = await createSession(db, experience, { startLocal: '2026-12-02T09:00:00', capacity: 1 });
const addOn = await createAddOn(db, experience.id);
const coupon = await createCoupon(db, brand.id);
const credit = await createCreditCode(db, brand.id, { balanceMinor: 1_000_000 });
const question = await createQuestion(db, brand.id);
await assignQuestion(db, experience.id, question.id);
const waitlist = await createWaitlist(db, experience.id);
const paid = await times(5, () => createPaidBooking(db, { brandId: brand.id, session: open, participants: [{}, {}] }));
await createPaidBooking(db, { brandId: brand.id, session: soldOut });
const entry = await createWaitlistEntry(db, { waitlist, session: soldOut, brandId: brand.id, position: 1 });
const endpoint = await createWebhookEndpoint(db, brand.id, { url: 'http://127.0.0.1:9/hooks' });
// The catalogue writes act on objects of their own, so archiving or cancelling them leaves the others' depth alone.
const { experience: catalogued } = await createExperience(db, brand.id);
const spare = await createSession(db, catalogued, { startLocal: '2026-12-03T09:00:00', capacity: 4 });
let t: TestApp;
let intent: { secret: string; reference: string };

beforeAll(async () => {
  t = await startApp(db, {
    now: () => NOW,
    payments: new SandboxProcessor({ webhookSecret: PROCESSOR_SECRET, now: () => NOW }),
  });
  const checkout = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, { key, body: cart() });
  const secret: string = checkout.body.paymentIntentSecret;
  intent = { secret, reference: secret.split('_secret_')[0]! };
});

const person = (name: string) => ({
  firstName: name,
  lastName: 'Silva',
  emailAddress: `${name.toLowerCase()}@example.test`,
  phoneNumber: '+351 900 000 000',
});
/** Ids that differ on every call but repeat from run to run, so a seed replays the same requests. */
let serial = 0;
const nextId = () => `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`;

// Templates build fresh objects every time: edits change them in place.
const cart = () => ({
  data: [
    {
      experienceId: experience.id,
      sessionTime: '2026-12-01T09:00',
      sessionDuration: 120,
      participants: [
        { ...person('Ana'), priceTierName: 'Adult', customQuestionResponses: [{ questionId: question.id, answer: [{ value: 'None' }] }] },
        { ...person('Rui'), priceTierName: 'Child' },
      ],
      couponCode: coupon.code,
      discountAmount: 1.5,
      discountPercentage: 5,
      notes: 'Window seat',
      metadata: { channel: 'fuzz', nested: { ok: true } },
      listingAddOns: [{ addOnId: addOn.id, quantity: 2 }],
      appliedCreditCodes: [{ code: credit.code, appliedValue: 5, sequence: 1 }],
    },
  ],
  getOnlyTotalNetAmount: false,
  purchaser: person('Eva'),
});
const cancel = () => ({
  bookings: paid.map(({ booking, participants }, i) => ({
    bookingId: booking.id,
    ...[{ cancel: true }, { participants: [participants[0]!.id] }, { refundAmount: 1 }][i % 3],
  })),
});
const join = () => ({
  sessionStartDate: '2026-12-02',
  sessionStartTime: '09:00',
  sessionDuration: 120,
  purchaser: person('Lia'),
  participants: [{ ...person('Lia'), priceTierName: 'Adult' }],
});
const webhook = () => ({ url: 'http://127.0.0.1:9/hooks', events: ['booking.confirmed', 'booking.cancelled'] });
const experienceDocument = () => ({
  title: 'Harbour walk',
  slug: `harbour-walk-${nextId()}`,
  headline: 'By the water',
  description: 'Two hours along the river.',
  location: { longitude: -9.14, latitude: 38.72, name: 'Cais do Sodré', timezoneId: 'Europe/Lisbon' },
  maxParticipantsCount: 8,
  sessionDurationMinutes: 120,
  priceTiers: [{ name: 'Adult', price: 30 }],
});
const schedule = () => ({
  schedule: {
    rrule: 'FREQ=WEEKLY;BYDAY=TU,TH',
    from: '2027-01-05',
    until: '2027-01-31',
    startTimes: ['10:00', '14:00'],
    exceptions: ['2027-01-12'],
  },
  capacity: 6,
});
const hostDocument = () => ({
  firstName: 'Rita',
  lastName: 'Sousa',
  emailAddress: 'rita@harbour.test',
  description: 'Skipper',
  profilePicture: { uri: { original: 'https://cdn.example/rita.jpg' }, altText: 'Rita' },
});
let couponSerial = 0;
const couponDocument = () => ({
  code: `FUZZ${++couponSerial}`,
  percentOff: 12.5,
  validFrom: '2026-01-01',
  validUntil: '2027-12-31',
  active: true,
});
const creditCodeDocument = () => ({ code: `GIFT${++couponSerial}`, balanceMinor: 2500 });
const listing = () => ({ experienceId: catalogued.id, title: 'Harbour walk', summary: 'Two hours by the water', isFeatured: true });
const processorEvent = () => ({ id: `evt_${nextId()}`, type: 'payment_intent.succeeded', data: { intentReference: intent.reference } });

interface RestTarget {
  url: () => string;
  body: () => any;
  /** Signs the body as the payment processor would (half the time), to reach past the signature check. */
  signed?: boolean;
}

const restTargets: Record<string, RestTarget> = {
  '/v1/bookings/cancel': { url: () => '/v1/bookings/cancel', body: cancel },
  '/v1/brands/{brandId}/carts/{cartId}/payment_intents': {
    url: () => `/v1/brands/${brand.id}/carts/${nextId()}/payment_intents`,
    body: cart,
  },
  '/v1/brands/{brandId}/waitlists/{waitlistId}/entries': {
    url: () => `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries`,
    body: join,
  },
  '/v1/brands/{brandId}/webhooks': { url: () => `/v1/brands/${brand.id}/webhooks`, body: webhook },
  '/v1/sandbox/payment_intents/confirm': {
    url: () => '/v1/sandbox/payment_intents/confirm',
    body: () => ({ paymentIntentSecret: intent.secret, outcome: 'succeeded' }),
  },
  '/v1/webhooks/payments': { url: () => '/v1/webhooks/payments', body: processorEvent, signed: true },
  '/v1/bookings/{bookingId}/reschedule': {
    url: () => `/v1/bookings/${paid[0]!.booking.id}/reschedule`,
    body: () => ({ sessionTime: '2026-12-02T09:00', sessionDuration: 120 }),
  },
  '/v1/brands/{brandId}/experiences': { url: () => `/v1/brands/${brand.id}/experiences`, body: experienceDocument },
  '/v1/brands/{brandId}/experiences/{experienceId}/archive': {
    url: () => `/v1/brands/${brand.id}/experiences/${catalogued.id}/archive`,
    body: () => ({}),
  },
  '/v1/brands/{brandId}/experiences/{experienceId}/unarchive': {
    url: () => `/v1/brands/${brand.id}/experiences/${catalogued.id}/unarchive`,
    body: () => ({}),
  },
  '/v1/brands/{brandId}/experiences/{experienceId}/sessions': {
    url: () => `/v1/brands/${brand.id}/experiences/${catalogued.id}/sessions`,
    body: schedule,
  },
  '/v1/brands/{brandId}/coupons': { url: () => `/v1/brands/${brand.id}/coupons`, body: couponDocument },
  '/v1/brands/{brandId}/credit-codes': { url: () => `/v1/brands/${brand.id}/credit-codes`, body: creditCodeDocument },
  '/v1/brands/{brandId}/hosts': { url: () => `/v1/brands/${brand.id}/hosts`, body: hostDocument },
  '/v1/brands/{brandId}/listings': { url: () => `/v1/brands/${brand.id}/listings`, body: listing },
  '/v1/brands/{brandId}/listings/{listingId}/publish': {
    url: () => `/v1/brands/${brand.id}/listings/${nextId()}/publish`,
    body: () => ({}),
  },
  '/v1/brands/{brandId}/sessions/{sessionId}/cancel': {
    url: () => `/v1/brands/${brand.id}/sessions/${spare.id}/cancel`,
    body: () => ({ reason: 'storm' }),
  },
  '/graphql': { url: () => '/graphql', body: () => ({ query: 'mutation { __typename }', variables: {} }) },
};

function signature(payload: string | Buffer): string {
  const at = Math.floor(NOW.getTime() / 1000);
  return `t=${at},v1=${createHmac('sha256', PROCESSOR_SECRET).update(`${at}.${payload.toString()}`).digest('hex')}`;
}

/** What each target answered, `status code` -> count: printed, so a reader sees how deep the bodies got. */
const outcomes = new Map<string, Map<string, number>>();
afterAll(() => {
  for (const [target, counts] of outcomes) {
    const summary = [...counts].sort((a, b) => b[1] - a[1]).map(([outcome, n]) => `${outcome} x${n}`);
    console.info(`fuzz ${target}: ${summary.join(', ')}`);
  }
});

function tally(target: string, answer: Answer): void {
  let code = '';
  try {
    const body = JSON.parse(answer.text);
    code = body.error?.code ?? body.errors?.[0]?.extensions?.code ?? '';
  } catch {
    code = 'not JSON';
  }
  const counts = outcomes.get(target) ?? new Map<string, number>();
  const outcome = `${answer.status}${code ? ` ${code}` : ''}`;
  counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  outcomes.set(target, counts);
}

async function post(
  target: string,
  url: string,
  { payload, contentType, idempotencyKey }: FuzzBody,
  extra: Record<string, string> = {},
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...extra };
  if (contentType) headers['content-type'] = contentType;
  if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
  const res = await t.app.inject({ method: 'POST', url, headers, payload });
  const answer = { status: res.statusCode, text: res.body, headers: res.headers };
  tally(target, answer);
  return answer;
}

/**
 * 400 requests a target: on PostgreSQL a request that writes costs several times what it does on
 * SQLite (docs/performance.md), and the cancel target took 10-13 s of the default 20 there.
 */
const fuzzTimeout = testEngine === 'postgresql' ? 60_000 : 20_000;

describe('fuzz: REST POST routes', { timeout: fuzzTimeout }, () => {
  it('covers every POST route of the OpenAPI document, and /graphql', async () => {
    const paths = (await t.rest('GET', '/openapi.json')).body.paths as Record<string, { post?: unknown }>;
    expect([...Object.keys(paths).filter((p) => paths[p]!.post), '/graphql'].sort()).toEqual(Object.keys(restTargets).sort());
  });

  for (const [route, target] of Object.entries(restTargets)) {
    it(`answers ${RUNS} random bodies on POST ${route} without a 5xx or internals`, async () => {
      const check = route === '/graphql' ? checkGraphqlAnswer : checkRestAnswer;
      await fc.assert(
        fc.asyncProperty(fuzzBody(target.body), fc.boolean(), async (body, sign) => {
          const extra = target.signed && sign ? { 'sandbox-signature': signature(body.payload) } : undefined;
          check(await post(route, target.url(), body, extra));
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }
});

const mutations: Record<string, { query: string; variables: () => any }> = {
  createPaymentIntent: {
    query:
      'mutation($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) { createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) { totalNetAmount paymentIntentSecret } }',
    variables: () => ({ brandId: brand.id, cartId: nextId(), input: cart() }),
  },
  cancelBookings: {
    query:
      'mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) { items { id status amountRefunded } errors { index code field } } }',
    variables: () => ({ input: cancel() }),
  },
  joinWaitlist: {
    query:
      'mutation($brandId: UUID!, $waitlistId: UUID!, $input: JoinWaitlistInput!) { joinWaitlist(brandId: $brandId, waitlistId: $waitlistId, input: $input) { entry { id position } } }',
    variables: () => ({ brandId: brand.id, waitlistId: waitlist.id, input: join() }),
  },
  leaveWaitlist: {
    query: 'mutation($brandId: UUID!, $entryId: UUID!) { leaveWaitlist(brandId: $brandId, entryId: $entryId) { entry { id status } } }',
    variables: () => ({ brandId: brand.id, entryId: entry.id }),
  },
  createWebhookEndpoint: {
    query:
      'mutation($brandId: UUID!, $url: URL!, $events: [EventType!]) { createWebhookEndpoint(brandId: $brandId, url: $url, events: $events) { endpoint { id } } }',
    variables: () => ({ brandId: brand.id, url: webhook().url, events: ['BOOKING_CONFIRMED', 'BOOKING_CANCELLED'] }),
  },
  rescheduleBooking: {
    query:
      'mutation($input: RescheduleBookingInput!) { rescheduleBooking(input: $input) { booking { id } previousSession { startDateTime } } }',
    variables: () => ({ input: { bookingId: paid[1]!.booking.id, sessionTime: '2026-12-02T09:00', sessionDuration: 120 } }),
  },
  deleteWebhookEndpoint: {
    query: 'mutation($brandId: UUID!, $id: UUID!) { deleteWebhookEndpoint(brandId: $brandId, id: $id) { endpoint { id } } }',
    variables: () => ({ brandId: brand.id, id: endpoint.id }),
  },
  createExperience: {
    query:
      'mutation($brandId: UUID!, $input: JSONObject!) { createExperience(brandId: $brandId, input: $input) { experience { id } etag } }',
    variables: () => ({ brandId: brand.id, input: experienceDocument() }),
  },
  updateExperience: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $input: JSONObject!, $ifMatch: String) { updateExperience(brandId: $brandId, id: $id, input: $input, ifMatch: $ifMatch) { experience { id } etag } }',
    variables: () => ({ brandId: brand.id, id: catalogued.id, input: { headline: 'By the river' }, ifMatch: '"1"' }),
  },
  archiveExperience: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $ifMatch: String) { archiveExperience(brandId: $brandId, id: $id, ifMatch: $ifMatch) { experience { id } etag } }',
    variables: () => ({ brandId: brand.id, id: nextId(), ifMatch: '*' }),
  },
  unarchiveExperience: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $ifMatch: String) { unarchiveExperience(brandId: $brandId, id: $id, ifMatch: $ifMatch) { experience { id } etag } }',
    variables: () => ({ brandId: brand.id, id: nextId(), ifMatch: '*' }),
  },
  scheduleSessions: {
    query:
      'mutation($brandId: UUID!, $experienceId: UUID!, $input: ScheduleSessionsInput!) { scheduleSessions(brandId: $brandId, experienceId: $experienceId, input: $input) { __typename } }',
    variables: () => ({ brandId: brand.id, experienceId: catalogued.id, input: schedule() }),
  },
  updateSession: {
    query:
      'mutation($brandId: UUID!, $sessionId: UUID!, $input: UpdateSessionInput!) { updateSession(brandId: $brandId, sessionId: $sessionId, input: $input) { __typename } }',
    variables: () => ({ brandId: brand.id, sessionId: spare.id, input: { capacity: 5 } }),
  },
  cancelSession: {
    query:
      'mutation($brandId: UUID!, $sessionId: UUID!, $input: CancelSessionInput) { cancelSession(brandId: $brandId, sessionId: $sessionId, input: $input) { __typename } }',
    variables: () => ({ brandId: brand.id, sessionId: nextId(), input: { reason: 'storm' } }),
  },
  createCoupon: {
    query: 'mutation($brandId: UUID!, $input: CouponInput!) { createCoupon(brandId: $brandId, input: $input) { coupon { id } etag } }',
    variables: () => ({ brandId: brand.id, input: couponDocument() }),
  },
  updateCoupon: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $input: CouponInput!, $ifMatch: String) { updateCoupon(brandId: $brandId, id: $id, input: $input, ifMatch: $ifMatch) { coupon { id } etag } }',
    variables: () => ({ brandId: brand.id, id: nextId(), input: { active: false, amountOffMinor: 500, percentOff: null }, ifMatch: null }),
  },
  issueCreditCode: {
    query:
      'mutation($brandId: UUID!, $input: CreditCodeInput!) { issueCreditCode(brandId: $brandId, input: $input) { creditCode { id } etag } }',
    variables: () => ({ brandId: brand.id, input: creditCodeDocument() }),
  },
  updateCreditCode: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $input: CreditCodeInput!, $ifMatch: String) { updateCreditCode(brandId: $brandId, id: $id, input: $input, ifMatch: $ifMatch) { creditCode { id } etag } }',
    variables: () => ({ brandId: brand.id, id: nextId(), input: { balanceMinor: 100 }, ifMatch: null }),
  },
  createHost: {
    query: 'mutation($brandId: UUID!, $input: HostInput!) { createHost(brandId: $brandId, input: $input) { host { id } etag } }',
    variables: () => ({ brandId: brand.id, input: hostDocument() }),
  },
  updateHost: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $input: HostInput!, $ifMatch: String) { updateHost(brandId: $brandId, id: $id, input: $input, ifMatch: $ifMatch) { host { id } etag } }',
    variables: () => ({ brandId: brand.id, id: nextId(), input: { lastName: 'Matos', allowOverlappingBookings: true }, ifMatch: null }),
  },
  createListing: {
    query: 'mutation($brandId: UUID!, $input: ListingInput!) { createListing(brandId: $brandId, input: $input) { listing { id } etag } }',
    variables: () => ({ brandId: brand.id, input: listing() }),
  },
  updateListingDraft: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $input: ListingInput!, $ifMatch: String) { updateListingDraft(brandId: $brandId, id: $id, input: $input, ifMatch: $ifMatch) { listing { id } etag } }',
    variables: () => ({
      brandId: brand.id,
      id: nextId(),
      input: { title: 'Harbour walk at dusk', kind: 'EXPERIENCE', productLine: 'ACTIVATE' },
      ifMatch: null,
    }),
  },
  publishListing: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $ifMatch: String) { publishListing(brandId: $brandId, id: $id, ifMatch: $ifMatch) { listing { id } etag } }',
    variables: () => ({ brandId: brand.id, id: nextId(), ifMatch: null }),
  },
  updateBrandSettings: {
    query:
      'mutation($brandId: UUID!, $input: BrandSettingsInput!, $ifMatch: String) { updateBrandSettings(brandId: $brandId, input: $input, ifMatch: $ifMatch) { etag } }',
    variables: () => ({ brandId: brand.id, input: { name: 'Harbour tours', validateRoomCharge: false }, ifMatch: null }),
  },
  updateWebhookEndpoint: {
    query:
      'mutation($brandId: UUID!, $id: UUID!, $status: WebhookEndpointStatus!) { updateWebhookEndpoint(brandId: $brandId, id: $id, status: $status) { endpoint { id status } } }',
    variables: () => ({ brandId: brand.id, id: endpoint.id, status: 'DISABLED' }),
  },
};

describe('fuzz: GraphQL mutations', { timeout: fuzzTimeout }, () => {
  it('covers every mutation of the schema', () => {
    const mutation = buildSchema(loadTypeDefs()).getMutationType() as GraphQLObjectType;
    expect(Object.keys(mutation.getFields()).sort()).toEqual(Object.keys(mutations).sort());
  });

  for (const [name, { query, variables }] of Object.entries(mutations)) {
    it(`answers ${RUNS} random variable sets for ${name} without INTERNAL_SERVER_ERROR or internals`, async () => {
      const randomVariables = fc.oneof(
        { weight: 8, arbitrary: mutated(variables) },
        { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...Object.keys(variables())), fc.jsonValue({ maxDepth: 3 })) },
        { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
      );
      await fc.assert(
        fc.asyncProperty(randomVariables, async (vars) => {
          const payload = JSON.stringify({ query, variables: vars }) ?? '';
          checkGraphqlAnswer(await post(name, '/graphql', { payload, contentType: 'application/json', idempotencyKey: null }));
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }
});
