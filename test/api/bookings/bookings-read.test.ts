import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QuestionSnapshotJson } from '../../../src/domain/shared/json-types.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createCart, createPaymentIntent } from '../../../fixtures/factories/carts.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db);
const brand = await createBrand(db, { name: 'Coast Lisbon', organizationId: org.id, currency: 'EUR' });
const sister = await createBrand(db, { name: 'Coast Tokyo', organizationId: org.id, currency: 'JPY' });
const outsider = await createBrand(db, { name: 'Elsewhere' });
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;

const sail = (await createExperience(db, brand.id, { title: 'Sunset Sail', timezoneId: 'Europe/Lisbon' })).experience;
const sailSession = await createSession(db, sail, { startLocal: '2026-12-01T09:00:00' });
const cart = await createCart(db, brand.id, { confirmationCode: 'CARTLX01', status: 'paid' });
const intent = await createPaymentIntent(db, cart, { amountMinor: 6550, status: 'succeeded' });
const purchaserId = randomUUID();
const full = await createBooking(db, {
  brandId: brand.id,
  session: sailSession,
  participants: [
    { firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult', priceMinor: 4550 },
    { firstName: 'Rita', lastName: 'Silva', priceTierName: 'Child', priceMinor: 2000, cancelledAt: '2026-11-21T08:00:00.000Z' },
  ],
  amountRefundedMinor: 2000,
  overrides: {
    confirmationCode: 'LX7K2Q',
    cartId: cart.id,
    cartConfirmationCode: 'CARTLX01',
    paymentIntentId: intent.id,
    purchaserId,
    purchaserPhone: '+351 912 345 678',
    notes: 'Window seat please',
    internalNotes: 'Regular guest',
    createdAt: '2026-11-20T10:15:30.123Z',
  },
});
const plain = await createBooking(db, { brandId: brand.id, session: sailSession, status: 'processing' });

const tokyoTour = (await createExperience(db, sister.id, { title: 'Night Food Walk', timezoneId: 'Asia/Tokyo' })).experience;
const tokyoSession = await createSession(db, tokyoTour, { startLocal: '2026-12-03T19:30:00' });
const yen = await createBooking(db, {
  brandId: sister.id,
  session: tokyoSession,
  currency: 'JPY',
  participants: [{ firstName: 'Yui', lastName: 'Sato', priceMinor: 8000 }],
  amountRefundedMinor: 1500,
  overrides: { paymentMethod: 'cash' },
});
const foreignExperience = (await createExperience(db, outsider.id)).experience;
const foreign = await createBooking(db, { brandId: outsider.id, session: await createSession(db, foreignExperience) });

const question = (
  scope: 'purchaser' | 'participant',
  fieldType: QuestionSnapshotJson['fieldType'],
  prompt: string,
): QuestionSnapshotJson => ({
  customQuestionId: randomUUID(),
  prompt,
  fieldType,
  options:
    fieldType === 'single_select'
      ? [
          { key: 'k-veg', value: 'Vegetarian' },
          { key: 'k-none', value: 'None' },
        ]
      : null,
  termsAndConditions: null,
  config: {
    experienceId: sail.id,
    experienceQuestionId: randomUUID(),
    isRequired: true,
    isActive: true,
    order: scope === 'purchaser' ? 1 : 2,
    scope,
    conditions: null,
    conditionsMatchType: null,
  },
});
const hotel = { id: randomUUID(), question: question('purchaser', 'input', 'Hotel name?'), answer: [{ value: 'Pestana' }] };
const diet = {
  id: randomUUID(),
  question: question('participant', 'single_select', 'Diet?'),
  answer: [{ value: 'Vegetarian', key: 'k-veg' }],
};
await db.insert('answers', { ...hotel, bookingId: full.booking.id, participantId: null, position: 0 });
await db.insert('answers', { ...diet, bookingId: full.booking.id, participantId: full.participants[0]!.id, position: 1 });

beforeAll(async () => {
  t = await startApp(db);
});

const [ana, rita] = full.participants;
const fullJson = {
  id: full.booking.id,
  confirmationCode: 'LX7K2Q',
  cartId: cart.id,
  cartConfirmationCode: 'CARTLX01',
  amount: 65.5,
  currency: 'EUR',
  amountRefunded: 20,
  status: 'confirmed',
  purchaser: {
    id: purchaserId,
    firstName: 'Ana',
    lastName: 'Silva',
    emailAddress: 'guest@example.test',
    phoneNumber: '+351 912 345 678',
    customQuestionAnswers: [hotel],
  },
  participants: [
    {
      id: ana!.id,
      firstName: 'Ana',
      lastName: 'Silva',
      emailAddress: null,
      phoneNumber: null,
      priceTierName: 'Adult',
      cancelledAt: null,
      customQuestionAnswers: [diet],
    },
    {
      id: rita!.id,
      firstName: 'Rita',
      lastName: 'Silva',
      emailAddress: null,
      phoneNumber: null,
      priceTierName: 'Child',
      cancelledAt: '2026-11-21T08:00:00.000Z',
    },
  ],
  paymentMethod: 'credit-card',
  createdAt: '2026-11-20T10:15:30.123Z',
  notes: 'Window seat please',
  internalNotes: 'Regular guest',
  event: { timezone: 'Europe/Lisbon', startDateTime: '2026-12-01T09:00:00' },
  experience: { id: sail.id, title: 'Sunset Sail' },
};

const get = (id: string, key?: string, headers?: Record<string, string>) => t.rest('GET', `/v1/bookings/${id}`, { key, headers });

describe('GET /v1/bookings/{bookingId}', () => {
  it('returns every field of the spec Booking, exactly', async () => {
    const res = await get(full.booking.id, brandKey);
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual(fullJson);
  });

  it('omits customQuestionAnswers where no answers were recorded', async () => {
    const res = await get(plain.booking.id, brandKey);
    expect(res.body.status).toBe('processing');
    expect(res.body.purchaser).not.toHaveProperty('customQuestionAnswers');
    expect(res.body.participants[0]).not.toHaveProperty('customQuestionAnswers');
    expect(res.body).not.toHaveProperty('brandId');
  });

  it('shows JPY amounts without decimals, to an organization key of the brand', async () => {
    const res = await get(yen.booking.id, orgKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ amount: 8000, amountRefunded: 1500, currency: 'JPY', paymentMethod: 'cash' });
    expect(res.body.event).toStrictEqual({ timezone: 'Asia/Tokyo', startDateTime: '2026-12-03T19:30:00' });
    expect((await get(full.booking.id, orgKey)).status).toBe(200);
  });

  it("answers 404 for another brand's booking and for an unknown id", async () => {
    for (const [id, key] of [
      [foreign.booking.id, brandKey],
      [yen.booking.id, brandKey],
      [foreign.booking.id, orgKey],
      [randomUUID(), brandKey],
    ] as const) {
      const res = await get(id, key);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('hides the other brands of an organization key narrowed by Tessera-Brand-Id', async () => {
    expect((await get(yen.booking.id, orgKey, { 'tessera-brand-id': brand.id })).status).toBe(404);
    expect((await get(yen.booking.id, orgKey, { 'tessera-brand-id': sister.id })).status).toBe(200);
  });

  it('answers 401 without a key and 400 naming bookingId for a malformed id', async () => {
    const anon = await get(full.booking.id);
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('UNAUTHENTICATED');
    const bad = await get('not-a-uuid', brandKey);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'bookingId' } });
  });
});

const answerFields = `id: key answer { value key } question { customQuestionId prompt fieldType options { key value }
  termsAndConditions { label mediaId isOverrided mediaUrl }
  config { experienceId experienceQuestionId isRequired isActive order scope conditions { rule conditionKey conditionValue } conditionsMatchType } }`;
// Raw ids (`uuid`, `key`) under REST's names, so the two faces compare field for field.
const bookingQuery = `query($id: UUID!) { booking(id: $id) {
  id: uuid confirmationCode cartId cartConfirmationCode amount currency amountRefunded status
  purchaser { id: key firstName lastName emailAddress phoneNumber customQuestionAnswers { ${answerFields} } }
  participants { id: uuid firstName lastName emailAddress phoneNumber priceTierName cancelledAt customQuestionAnswers { ${answerFields} } }
  paymentMethod createdAt notes internalNotes event { timezone startDateTime } experience { id: uuid title }
} }`;

const upper = (v: string) => v.toUpperCase().replace(/-/g, '_');
const answersAsGraphQL = (list: any[] | undefined) =>
  list?.map((a) => ({
    ...a,
    answer: a.answer.map((v: any) => ({ value: v.value, key: v.key ?? null })),
    question: {
      ...a.question,
      fieldType: upper(a.question.fieldType),
      config: { ...a.question.config, scope: upper(a.question.config.scope) },
    },
  })) ?? null;

/** The REST Booking as GraphQL spells it: enum values in SCREAMING_SNAKE_CASE, absent answers as null. */
const asGraphQL = (rest: any) => ({
  ...rest,
  status: upper(rest.status),
  paymentMethod: upper(rest.paymentMethod),
  purchaser: { ...rest.purchaser, customQuestionAnswers: answersAsGraphQL(rest.purchaser.customQuestionAnswers) },
  participants: rest.participants.map((p: any) => ({ ...p, customQuestionAnswers: answersAsGraphQL(p.customQuestionAnswers) })),
});

describe('GraphQL booking', () => {
  it('agrees with REST field for field', async () => {
    for (const [id, key] of [
      [full.booking.id, brandKey],
      [plain.booking.id, brandKey],
      [yen.booking.id, orgKey],
    ] as const) {
      const [gql, rest] = await Promise.all([t.gql(bookingQuery, { id }, { key }), get(id, key)]);
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.booking).toStrictEqual(asGraphQL(rest.body));
    }
    const gql = await t.gql(bookingQuery, { id: full.booking.id }, { key: brandKey });
    expect(gql.body.data.booking.status).toBe('CONFIRMED');
    expect(gql.body.data.booking.purchaser.customQuestionAnswers[0].answer).toStrictEqual([{ value: 'Pestana', key: null }]);
  });

  it("is null for an unknown booking and another brand's, however the key is narrowed", async () => {
    for (const [id, key, headers] of [
      [randomUUID(), brandKey, {}],
      [foreign.booking.id, brandKey, {}],
      [foreign.booking.id, orgKey, {}],
      [yen.booking.id, orgKey, { 'tessera-brand-id': brand.id }],
    ] as const) {
      const res = await t.gql(bookingQuery, { id }, { key, headers });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.booking).toBeNull();
    }
  });

  it('gives UNAUTHENTICATED without a key and BAD_USER_INPUT for a malformed id', async () => {
    expect((await t.gql(bookingQuery, { id: full.booking.id })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await t.gql(bookingQuery, { id: 'nope' }, { key: brandKey })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
