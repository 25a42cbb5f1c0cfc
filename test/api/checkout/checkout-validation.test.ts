/**
 * Every way a checkout can be refused, on both faces, with its code and field; and that a refused
 * checkout writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { CREATE_PAYMENT_INTENT, checkoutRows, guest } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { assignQuestion, createExperience, createQuestion } from '../../../fixtures/factories/catalog.ts';
import { createAddOn, createCoupon, createCreditCode } from '../../../fixtures/factories/checkout.ts';

const NOW = '2026-11-25T12:00:00.000Z';
const db = await freshDb();
const rows = checkoutRows(db);
const org = await createOrganization(db);
const brand = await createBrand(db, { organizationId: org.id, currency: 'EUR' });
const sister = await createBrand(db, { organizationId: org.id, currency: 'JPY' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const sisterKey = (await createApiKey(db, { brandId: sister.id })).secret;

const sail = (await createExperience(db, brand.id, { minimumRequiredToBook: 1, maximumAllowedToBook: 4 })).experience;
const pairs = (await createExperience(db, brand.id, { minimumRequiredToBook: 2 })).experience;
const closed = (await createExperience(db, brand.id, { isBookable: false })).experience;
const quiz = (await createExperience(db, brand.id, { title: 'Wine quiz' })).experience;
const foreign = (await createExperience(db, sister.id, { timezoneId: 'Asia/Tokyo' })).experience;
const otherAddOn = await createAddOn(db, pairs.id);
await createCoupon(db, brand.id, { code: 'OLD', validUntil: '2026-11-01' });
await createCoupon(db, brand.id, { code: 'PAUSED', active: false });
await createCreditCode(db, brand.id, { code: 'GIFT10', balanceMinor: 1000 });

const sailSession = await createSession(db, sail, { startLocal: '2026-12-01T09:00:00', durationMinutes: 120, capacity: 3 });
const pairsSession = await createSession(db, pairs, { startLocal: '2026-12-01T09:00:00' });
const closedSession = await createSession(db, closed, { startLocal: '2026-12-01T09:00:00' });
const quizSession = await createSession(db, quiz, { startLocal: '2026-12-01T09:00:00' });
const foreignSession = await createSession(db, foreign, { startLocal: '2026-12-01T09:00:00' });
// Started an hour before the clock (12:00 UTC is 12:00 in Lisbon in November).
await createSession(db, sail, { startLocal: '2026-11-25T11:00:00', durationMinutes: 120, capacity: 3 });

// The quiz asks each participant their diet (required) and, for vegetarians only, which kind (required);
// the purchaser must accept the waiver.
const VEG = randomUUID();
const NONE = randomUUID();
const diet = await createQuestion(db, brand.id, {
  prompt: 'Diet?',
  fieldType: 'single_select',
  options: [
    { key: VEG, value: 'Vegetarian' },
    { key: NONE, value: 'None' },
  ],
});
const kind = await createQuestion(db, brand.id, { prompt: 'Which kind?', fieldType: 'input' });
const waiver = await createQuestion(db, brand.id, {
  prompt: 'Waiver',
  fieldType: 'terms_and_conditions',
  termsAndConditions: { label: 'I agree', mediaId: 'm1', isOverrided: false },
});
await assignQuestion(db, quiz.id, diet.id, { isRequired: true, order: 1 });
await assignQuestion(db, quiz.id, kind.id, {
  isRequired: true,
  order: 2,
  conditions: [{ rule: 'value_matches', conditionKey: diet.id, conditionValue: VEG }],
  conditionsMatchType: 'any',
});
await assignQuestion(db, quiz.id, waiver.id, { isRequired: true, order: 0, scope: 'purchaser' });

let t: TestApp;
beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(NOW) });
});

const item = (overrides: Record<string, unknown> = {}) => ({
  experienceId: sail.id,
  sessionTime: '2026-12-01T09:00',
  participants: [guest('Ana')],
  ...overrides,
});
const answered = (name: string, dietKey: string, extra: object[] = []) =>
  guest(name, 'Adult', { customQuestionResponses: [{ questionId: diet.id, answer: [{ key: dietKey }] }, ...extra] });
const accepted = { questionId: waiver.id, answer: [{ value: 'true' }] };
const quizItem = (participants: object[]) => ({ experienceId: quiz.id, sessionTime: '2026-12-01T09:00', participants });

type Case = [name: string, body: Record<string, unknown>, status: number, code: string, field: string];

const cases: Case[] = [
  ['no items', { data: [] }, 400, 'VALIDATION_FAILED', 'data'],
  ['no participants', { data: [item({ participants: [] })] }, 400, 'VALIDATION_FAILED', 'data.0.participants'],
  ['an unknown experience', { data: [item({ experienceId: randomUUID() })] }, 404, 'NOT_FOUND', 'data.0.experienceId'],
  ["another brand's experience", { data: [item({ experienceId: foreign.id })] }, 404, 'NOT_FOUND', 'data.0.experienceId'],
  ['an experience not bookable', { data: [item({ experienceId: closed.id })] }, 422, 'EXPERIENCE_NOT_BOOKABLE', 'data.0.experienceId'],
  ['a malformed sessionTime', { data: [item({ sessionTime: '2026-13-01T09:00' })] }, 400, 'VALIDATION_FAILED', 'data.0.sessionTime'],
  ['a sessionTime with no session', { data: [item({ sessionTime: '2026-12-01T10:00' })] }, 422, 'SESSION_NOT_FOUND', 'data.0.sessionTime'],
  [
    'an offset that lands on no session',
    { data: [item({ sessionTime: '2026-12-01T09:00+01:00' })] },
    422,
    'SESSION_NOT_FOUND',
    'data.0.sessionTime',
  ],
  ['a duration unlike the session', { data: [item({ sessionDuration: 90 })] }, 422, 'SESSION_NOT_FOUND', 'data.0.sessionDuration'],
  [
    'a session that has already started',
    { data: [item({ sessionTime: '2026-11-25T11:00' })] },
    422,
    'SESSION_STARTED',
    'data.0.sessionTime',
  ],
  [
    'an unknown price tier',
    { data: [item({ participants: [guest('Ana'), guest('Rui', 'VIP')] })] },
    422,
    'UNKNOWN_PRICE_TIER',
    'data.0.participants.1.priceTierName',
  ],
  [
    'fewer participants than the minimum',
    { data: [item({ experienceId: pairs.id })] },
    422,
    'PARTICIPANT_COUNT_OUT_OF_RANGE',
    'data.0.participants',
  ],
  [
    'more participants than the maximum',
    { data: [item({ participants: ['A', 'B', 'C', 'D', 'E'].map((n) => guest(n)) })] },
    422,
    'PARTICIPANT_COUNT_OUT_OF_RANGE',
    'data.0.participants',
  ],
  [
    'more participants than places left',
    { data: [item({ participants: ['A', 'B', 'C', 'D'].map((n) => guest(n)) })] },
    409,
    'CAPACITY_EXCEEDED',
    'data.0.participants',
  ],
  [
    'two items that together exceed the places',
    { data: [item({ participants: [guest('A'), guest('B')] }), item({ participants: [guest('C'), guest('D')] })] },
    409,
    'CAPACITY_EXCEEDED',
    'data.1.participants',
  ],
  [
    "another experience's add-on",
    { data: [item({ listingAddOns: [{ addOnId: otherAddOn.id, quantity: 1 }] })] },
    422,
    'UNKNOWN_ADD_ON',
    'data.0.listingAddOns.0.addOnId',
  ],
  [
    'an add-on quantity of 0',
    { data: [item({ listingAddOns: [{ addOnId: otherAddOn.id, quantity: 0 }] })] },
    400,
    'VALIDATION_FAILED',
    'data.0.listingAddOns.0.quantity',
  ],
  ['an unknown coupon', { data: [item({ couponCode: 'NOPE' })] }, 422, 'INVALID_COUPON', 'data.0.couponCode'],
  ['an expired coupon', { data: [item({ couponCode: 'old' })] }, 422, 'INVALID_COUPON', 'data.0.couponCode'],
  ['an inactive coupon', { data: [item({ couponCode: 'PAUSED' })] }, 422, 'INVALID_COUPON', 'data.0.couponCode'],
  [
    'an unknown credit code',
    { data: [item({ appliedCreditCodes: [{ code: 'NOPE', appliedValue: 1, sequence: 1 }] })] },
    422,
    'INVALID_CREDIT_CODE',
    'data.0.appliedCreditCodes.0.code',
  ],
  [
    'credit over the balance',
    { data: [item({ appliedCreditCodes: [{ code: 'gift10', appliedValue: 10.01, sequence: 1 }] })] },
    422,
    'INVALID_CREDIT_CODE',
    'data.0.appliedCreditCodes.0.appliedValue',
  ],
  [
    'one credit code over its balance across two items',
    {
      data: [
        item({ appliedCreditCodes: [{ code: 'GIFT10', appliedValue: 6, sequence: 1 }] }),
        item({ appliedCreditCodes: [{ code: 'GIFT10', appliedValue: 5, sequence: 1 }] }),
      ],
    },
    422,
    'INVALID_CREDIT_CODE',
    'data.1.appliedCreditCodes.0.appliedValue',
  ],
  [
    'a credit value with too many decimals',
    { data: [item({ appliedCreditCodes: [{ code: 'GIFT10', appliedValue: 0.001, sequence: 1 }] })] },
    400,
    'VALIDATION_FAILED',
    'data.0.appliedCreditCodes.0.appliedValue',
  ],
  [
    'a discount amount with too many decimals',
    { data: [item({ discountAmount: 1.005 })] },
    400,
    'VALIDATION_FAILED',
    'data.0.discountAmount',
  ],
  ['a negative discount amount', { data: [item({ discountAmount: -1 })] }, 400, 'VALIDATION_FAILED', 'data.0.discountAmount'],
  ['a percentage with 3 decimals', { data: [item({ discountPercentage: 12.345 })] }, 400, 'VALIDATION_FAILED', 'data.0.discountPercentage'],
  ['a percentage above 100', { data: [item({ discountPercentage: 100.5 })] }, 400, 'VALIDATION_FAILED', 'data.0.discountPercentage'],
  [
    'a malformed intended code',
    { data: [item({ intendedConfirmationCode: 'AB-1' })] },
    400,
    'VALIDATION_FAILED',
    'data.0.intendedConfirmationCode',
  ],
  [
    'a malformed email',
    { data: [item({ participants: [guest('Ana', 'Adult', { emailAddress: 'ana-at-home' })] })] },
    400,
    'VALIDATION_FAILED',
    'data.0.participants.0.emailAddress',
  ],
  [
    'a blank first name',
    { data: [item({ participants: [{ ...guest('Ana'), firstName: '' }] })] },
    400,
    'VALIDATION_FAILED',
    'data.0.participants.0.firstName',
  ],
  ['a duration of 0', { data: [item({ sessionDuration: 0 })] }, 400, 'VALIDATION_FAILED', 'data.0.sessionDuration'],
  [
    'a required answer missing',
    { data: [quizItem([guest('Ana', 'Adult', { customQuestionResponses: [accepted] })])] },
    422,
    'ANSWER_REQUIRED',
    'data.0.participants.0.customQuestionResponses',
  ],
  [
    'terms not accepted by the purchaser',
    { purchaser: { firstName: 'Marta', lastName: 'Reis' }, data: [quizItem([answered('Ana', NONE)])] },
    422,
    'ANSWER_REQUIRED',
    'purchaser.customQuestionResponses',
  ],
  [
    'an option key the question lacks',
    { data: [quizItem([answered('Ana', randomUUID(), [accepted])])] },
    422,
    'INVALID_ANSWER',
    'data.0.participants.0.customQuestionResponses.0.answer.0.key',
  ],
  [
    'a question of no item',
    { data: [quizItem([answered('Ana', NONE, [accepted, { questionId: randomUUID(), answer: [{ value: 'x' }] }])])] },
    422,
    'UNKNOWN_QUESTION',
    'data.0.participants.0.customQuestionResponses.2.questionId',
  ],
  [
    'a shown conditional question unanswered',
    { data: [quizItem([answered('Ana', VEG, [accepted])])] },
    422,
    'ANSWER_REQUIRED',
    'data.0.participants.0.customQuestionResponses',
  ],
  [
    'a second participant without the required answer',
    { data: [quizItem([answered('Ana', NONE, [accepted]), guest('Rui')])] },
    422,
    'ANSWER_REQUIRED',
    'data.0.participants.1.customQuestionResponses',
  ],
];

describe('refused checkouts, on both faces', () => {
  it.each(cases)('%s', async (_name, body, status, code, field) => {
    const cartId = randomUUID();
    const rest = await t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, { key, body });
    expect({ status: rest.status, code: rest.body.error?.code, field: rest.body.error?.details?.field }).toEqual({ status, code, field });
    const gql = await t.gql(CREATE_PAYMENT_INTENT, { brandId: brand.id, cartId, input: body }, { key });
    expect(gql.body.data).toBeNull();
    expect({ code: gql.body.errors[0].extensions.code, field: gql.body.errors[0].extensions.field }).toEqual({ code, field });
    expect(await rows.cart(cartId)).toBeUndefined();
  });

  it('wrote nothing for any of them', async () => {
    expect(
      await Promise.all([rows.count('bookings'), rows.count('carts'), rows.count('payment_intents'), rows.count('credit_redemptions')]),
    ).toEqual([0, 0, 0, 0]);
    expect(
      await Promise.all([sailSession, pairsSession, closedSession, quizSession, foreignSession].map((s) => rows.reserved(s.id))),
    ).toEqual([0, 0, 0, 0, 0]);
    expect(await db.value("SELECT balance_minor FROM credit_codes WHERE code = 'GIFT10'")).toBe(1000);
  });
});

describe('checks that need the currency or the transport', () => {
  it('refuses a yen discount with decimals (JPY has none)', async () => {
    const body = {
      data: [{ experienceId: foreign.id, sessionTime: '2026-12-01T09:00', participants: [guest('Aoi')], discountAmount: 1.5 }],
    };
    const rest = await t.rest('POST', `/v1/brands/${sister.id}/carts/${randomUUID()}/payment_intents`, { key: sisterKey, body });
    expect(rest.status).toBe(400);
    expect(rest.body.error.details.field).toBe('data.0.discountAmount');
    const gql = await t.gql(CREATE_PAYMENT_INTENT, { brandId: sister.id, cartId: randomUUID(), input: body }, { key: sisterKey });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'data.0.discountAmount' });
  });

  it('refuses ids that are not UUIDs (REST names the field, GraphQL refuses the variable)', async () => {
    const body = { data: [item({ experienceId: 'sunset-sail' })] };
    const rest = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, { key, body });
    expect(rest.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'data.0.experienceId' } });
    const badCart = await t.rest('POST', `/v1/brands/${brand.id}/carts/not-a-uuid/payment_intents`, { key, body: { data: [item()] } });
    expect(badCart.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'cartId' } });
    const gql = await t.gql(CREATE_PAYMENT_INTENT, { brandId: brand.id, cartId: randomUUID(), input: body }, { key });
    expect(gql.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('refuses unknown body fields on REST', async () => {
    const rest = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key,
      body: { data: [item({ colour: 'blue' })] },
    });
    expect(rest.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'data.0.colour' } });
  });
});

describe('conditional questions', () => {
  it('are required only when shown, and answers are stored with their question snapshots', async () => {
    const cartId = randomUUID();
    const body = {
      data: [
        quizItem([answered('Ana', NONE, [accepted]), answered('Rui', VEG, [{ questionId: kind.id, answer: [{ value: '  Vegan ' }] }])]),
      ],
    };
    const res = await t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, { key, body });
    expect(res.status).toBe(201);
    const [booking] = await rows.bookingsOfCart(cartId);
    const view = (await t.rest('GET', `/v1/bookings/${booking!.id}`, { key })).body;
    const config = (order: number, scope: string, extra: object = {}) => ({
      experienceId: quiz.id,
      experienceQuestionId: expect.any(String),
      isRequired: true,
      isActive: true,
      order,
      scope,
      conditions: null,
      conditionsMatchType: null,
      ...extra,
    });
    // The first participant is the purchaser: the waiver it accepted is the purchaser's answer.
    expect(view.purchaser.customQuestionAnswers).toEqual([
      {
        id: expect.any(String),
        answer: [{ value: true }],
        question: {
          customQuestionId: waiver.id,
          prompt: 'Waiver',
          fieldType: 'terms_and_conditions',
          options: null,
          termsAndConditions: { label: 'I agree', mediaId: 'm1', isOverrided: false },
          config: config(0, 'purchaser'),
        },
      },
    ]);
    const dietSnapshot = {
      customQuestionId: diet.id,
      prompt: 'Diet?',
      fieldType: 'single_select',
      options: [
        { key: VEG, value: 'Vegetarian' },
        { key: NONE, value: 'None' },
      ],
      termsAndConditions: null,
      config: config(1, 'participant'),
    };
    expect(view.participants[0].customQuestionAnswers).toEqual([
      { id: expect.any(String), answer: [{ value: 'None', key: NONE }], question: dietSnapshot },
    ]);
    expect(view.participants[1].customQuestionAnswers).toEqual([
      { id: expect.any(String), answer: [{ value: 'Vegetarian', key: VEG }], question: dietSnapshot },
      {
        id: expect.any(String),
        answer: [{ value: 'Vegan' }],
        question: {
          customQuestionId: kind.id,
          prompt: 'Which kind?',
          fieldType: 'input',
          options: null,
          termsAndConditions: null,
          config: config(2, 'participant', {
            conditions: [{ rule: 'value_matches', conditionKey: diet.id, conditionValue: VEG }],
            conditionsMatchType: 'any',
          }),
        },
      },
    ]);
  });
});
