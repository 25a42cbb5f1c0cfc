/** The experience document's custom questions: read by GET, written back whole by PATCH, asked by the next checkout. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../support/db.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { guest } from '../../support/checkout.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { createBrandFamily } from '../../../fixtures/factories/brands.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createHost } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const { brand, keys } = await createBrandFamily(db);
const host = await createHost(db, brand.id, { firstName: 'Rita', lastName: 'Sousa' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(CHECKOUT_NOW), holdTtlSeconds: 900 });
});

const base = `/v1/brands/${brand.id}/experiences`;

const document = (overrides: Record<string, unknown> = {}) => ({
  title: 'Sunset Sail',
  slug: `sunset-sail-${randomUUID().slice(0, 8)}`,
  headline: 'The river at dusk',
  description: 'Two hours on the Tagus.',
  category: { name: 'Boat tours' },
  location: { longitude: -9.1393, latitude: 38.7223, name: 'Doca de Alcântara', timezoneId: 'Europe/Lisbon', additionalInfo: '' },
  maxParticipantsCount: 8,
  sessionDurationMinutes: 120,
  coverPicture: { uri: { original: 'https://cdn.example/sail.jpg' } },
  bookingAvailabilityMode: 'group',
  healthAndSafety: '',
  type: 'tour',
  hostedBy: { id: host.id },
  priceTiers: [{ name: 'Adult', price: 40 }],
  ...overrides,
});

const diet = {
  prompt: 'Any dietary needs?',
  fieldType: 'single_select',
  options: [
    { key: 'none', value: 'None' },
    { key: 'veg', value: 'Vegetarian' },
  ],
  config: { isRequired: true, scope: 'participant' },
};

const create = (body: unknown) => t.rest('POST', base, { key: keys.brand, body });
const read = (id: string) => t.rest('GET', `${base}/${id}`, { key: keys.brand });
const patch = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  t.rest('PATCH', `${base}/${id}`, { key: keys.brand, body, headers: { authorization: `Bearer ${keys.brand}`, ...headers } });
const checkout = (experienceId: string, sessionTime: string, participant: Record<string, unknown>, purchaser?: Record<string, unknown>) =>
  t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
    key: keys.brand,
    body: {
      data: [{ experienceId, sessionTime, participants: [participant] }],
      ...(purchaser ? { purchaser } : {}),
    },
  });

describe('customQuestions in the experience document', () => {
  it('round-trips GET -> edit -> PATCH: ids kept, new questions get ids, a removed one is no longer asked, and checkout asks what was written', async () => {
    const made = await create(document({ customQuestions: [diet] }));
    expect(made.status).toBe(201);
    const id = made.body.id;
    const [first] = made.body.customQuestions;
    expect(made.body.customQuestions).toEqual([
      {
        customQuestionId: first.customQuestionId,
        prompt: 'Any dietary needs?',
        fieldType: 'single_select',
        options: diet.options,
        termsAndConditions: null,
        config: {
          experienceId: id,
          experienceQuestionId: first.config.experienceQuestionId,
          isRequired: true,
          isActive: true,
          order: 1,
          scope: 'participant',
          conditions: null,
          conditionsMatchType: null,
        },
      },
    ]);
    const session = await createSession(db, { id, timezoneId: 'Europe/Lisbon' }, { startLocal: '2027-01-12T10:00:00' });
    const unanswered = await checkout(id, '2027-01-12T10:00', guest('Ana'));
    expect([unanswered.status, unanswered.body.error.code]).toEqual([422, 'ANSWER_REQUIRED']);

    // Read, edit, send back: the diet question becomes optional and gains a follow-up shown for vegetarians;
    // a required purchaser question is added.
    const got = await read(id);
    expect(got.body.customQuestions).toEqual(made.body.customQuestions);
    const edited = [
      { ...got.body.customQuestions[0], config: { ...got.body.customQuestions[0].config, isRequired: false } },
      {
        prompt: 'Which kind?',
        fieldType: 'input',
        config: {
          isRequired: true,
          scope: 'participant',
          conditions: [{ rule: 'value_matches', conditionKey: first.customQuestionId, conditionValue: 'veg' }],
          conditionsMatchType: 'any',
        },
      },
      { prompt: 'A phone number for the day', fieldType: 'input', config: { isRequired: true, scope: 'purchaser' } },
    ];
    const changed = await patch(id, { customQuestions: edited }, { 'if-match': String(got.headers.etag) });
    expect([changed.status, changed.headers.etag]).toEqual([200, '"2"']);
    const [kept, followUp, phone] = changed.body.customQuestions;
    expect([kept.customQuestionId, kept.config.experienceQuestionId, kept.config.isRequired]).toEqual([
      first.customQuestionId,
      first.config.experienceQuestionId,
      false,
    ]);
    expect(followUp.config).toMatchObject({
      order: 2,
      conditions: [{ rule: 'value_matches', conditionKey: first.customQuestionId, conditionValue: 'veg' }],
      conditionsMatchType: 'any',
    });
    expect([phone.prompt, phone.config.scope, phone.config.order]).toEqual(['A phone number for the day', 'purchaser', 3]);
    expect(new Set([kept.customQuestionId, followUp.customQuestionId, phone.customQuestionId]).size).toBe(3);
    expect((await read(id)).body.customQuestions).toEqual(changed.body.customQuestions);
    // GraphQL reads the same questions.
    const gql = await t.gql(
      `query ($brandId: UUID!, $id: UUID!) { experience(brandId: $brandId, id: $id) { customQuestions { customQuestionId prompt } } }`,
      { brandId: brand.id, id },
      { key: keys.brand },
    );
    expect(gql.body.data.experience.customQuestions.map((q: { prompt: string }) => q.prompt)).toEqual([
      'Any dietary needs?',
      'Which kind?',
      'A phone number for the day',
    ]);

    // The next checkout asks the new purchaser question, and the follow-up of a vegetarian.
    const noPhone = await checkout(id, '2027-01-12T10:00', guest('Ana'));
    expect([noPhone.status, noPhone.body.error.code]).toEqual([422, 'ANSWER_REQUIRED']);
    const veg = [{ questionId: first.customQuestionId, answer: [{ key: 'veg', value: 'Vegetarian' }] }];
    const purchaser = {
      firstName: 'Ana',
      lastName: 'Silva',
      customQuestionResponses: [{ questionId: phone.customQuestionId, answer: [{ value: '+351 900 000 000' }] }],
    };
    const noKind = await checkout(id, '2027-01-12T10:00', guest('Ana', 'Adult', { customQuestionResponses: veg }), purchaser);
    expect([noKind.status, noKind.body.error.code]).toEqual([422, 'ANSWER_REQUIRED']);
    const answered = await checkout(
      id,
      '2027-01-12T10:00',
      guest('Ana', 'Adult', {
        customQuestionResponses: [...veg, { questionId: followUp.customQuestionId, answer: [{ value: 'Vegan' }] }],
      }),
      purchaser,
    );
    expect(answered.status).toBe(201);

    // Sent back without the follow-up: it is no longer asked (kept inactive, since an answer was given to it).
    const dropped = await patch(id, { customQuestions: [changed.body.customQuestions[0], changed.body.customQuestions[2]] });
    expect(dropped.status).toBe(200);
    expect(dropped.body.customQuestions.map((q: { customQuestionId: string }) => q.customQuestionId)).toEqual([
      first.customQuestionId,
      phone.customQuestionId,
    ]);
    const assignments = await db.all<{ active: number | boolean }>(
      'SELECT is_active AS active FROM experience_questions WHERE experience_id = ? AND question_id = ?',
      id,
      followUp.customQuestionId,
    );
    expect(assignments.map((a) => Boolean(a.active))).toEqual([false]);
    const answers = await db.all<{ n: number }>(
      `SELECT count(*) AS n FROM answers a JOIN bookings b ON b.id = a.booking_id WHERE b.experience_id = ?`,
      id,
    );
    expect(Number(answers[0]!.n)).toBe(3);
    const withoutKind = await checkout(id, '2027-01-12T10:00', guest('Bea', 'Adult', { customQuestionResponses: veg }), purchaser);
    expect(withoutKind.status).toBe(201);
    expect(session.id).toBeDefined();
  });

  it('leaves the questions as they are when a PATCH does not name them', async () => {
    const id = (await create(document({ customQuestions: [diet] }))).body.id;
    const before = (await read(id)).body.customQuestions;
    const res = await patch(id, { title: 'Sunset Sail & Wine' });
    expect(res.status).toBe(200);
    expect(res.body.customQuestions).toEqual(before);
  });

  const parent = (id: string) => ({ ...diet, customQuestionId: id });
  it.each([
    [[{ ...diet, fieldType: 'radio' }], 'customQuestions.0.fieldType'],
    [[{ ...diet, options: [] }], 'customQuestions.0.options'],
    [
      [
        {
          ...diet,
          options: [
            { key: 'a', value: 'A' },
            { key: 'a', value: 'B' },
          ],
        },
      ],
      'customQuestions.0.options.1.key',
    ],
    [
      [{ prompt: 'Name?', fieldType: 'input', options: [{ key: 'a', value: 'A' }], config: { scope: 'purchaser' } }],
      'customQuestions.0.options',
    ],
    [[{ ...diet, config: { scope: 'everyone' } }], 'customQuestions.0.config.scope'],
    [[{ ...diet, prompt: '' }], 'customQuestions.0.prompt'],
    [[{ ...diet, customQuestionId: randomUUID() }], 'customQuestions.0.customQuestionId'],
  ])('refuses %j naming %s, writing nothing', async (questions, field) => {
    const id = (await create(document())).body.id;
    const res = await patch(id, { customQuestions: questions });
    expect([res.status, res.body.error.code, res.body.error.details.field]).toEqual([400, 'VALIDATION_FAILED', field]);
    const got = await read(id);
    expect([got.headers.etag, got.body.customQuestions]).toEqual(['"1"', []]);
  });

  it('checks conditions: a parent question of the same document, one of its option keys, no cycle', async () => {
    const made = (await create(document({ customQuestions: [diet, { ...diet, prompt: 'Allergies?' }] }))).body;
    const [a, b] = made.customQuestions;
    const when = (conditionKey: string, conditionValue: string) => ({
      scope: 'participant',
      conditions: [{ rule: 'value_matches', conditionKey, conditionValue }],
    });
    const cases: Array<[unknown[], string]> = [
      [[a, { ...b, config: when(a.customQuestionId, 'vegan') }], 'customQuestions.1.config.conditions.0.conditionValue'],
      [[a, { ...b, config: when(randomUUID(), 'veg') }], 'customQuestions.1.config.conditions.0.conditionKey'],
      [[{ ...b, config: when(a.customQuestionId, 'veg') }], 'customQuestions.0.config.conditions.0.conditionKey'],
      [
        [
          { ...a, config: when(b.customQuestionId, 'veg') },
          { ...b, config: when(a.customQuestionId, 'veg') },
        ],
        'customQuestions.0.config.conditions',
      ],
      [[{ ...a, config: when(a.customQuestionId, 'veg') }], 'customQuestions.0.config.conditions.0.conditionKey'],
    ];
    for (const [questions, field] of cases) {
      const res = await patch(made.id, { customQuestions: questions });
      expect([res.status, res.body.error.details?.field]).toEqual([400, field]);
    }
    const got = await read(made.id);
    expect([got.headers.etag, got.body.customQuestions]).toEqual(['"1"', made.customQuestions]);
    expect(parent(a.customQuestionId).customQuestionId).toBe(a.customQuestionId);
  });

  it('refuses to change a question another experience asks too (send it without its id for a copy), and 412s a stale If-Match', async () => {
    const one = (await create(document({ customQuestions: [diet] }))).body;
    const shared = one.customQuestions[0];
    const two = (await create(document({ customQuestions: [shared] }))).body;
    expect(two.customQuestions[0].customQuestionId).toBe(shared.customQuestionId);
    const changed = await patch(two.id, { customQuestions: [{ ...shared, prompt: 'Food?' }] });
    expect([changed.status, changed.body.error.details.field]).toEqual([400, 'customQuestions.0']);
    const copy = await patch(two.id, { customQuestions: [{ ...shared, customQuestionId: null, prompt: 'Food?' }] });
    expect(copy.status).toBe(200);
    expect(copy.body.customQuestions[0].customQuestionId).not.toBe(shared.customQuestionId);
    expect((await read(one.id)).body.customQuestions[0].prompt).toBe('Any dietary needs?');

    const stale = await patch(two.id, { customQuestions: [] }, { 'if-match': '"1"' });
    expect([stale.status, stale.body.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await read(two.id)).body.customQuestions.map((q: { prompt: string }) => q.prompt)).toEqual(['Food?']);
  });

  it('GraphQL createExperience and updateExperience take the same customQuestions', async () => {
    const res = await t.gql(
      `mutation ($brandId: UUID!, $input: JSONObject!) { createExperience(brandId: $brandId, input: $input) { experience { uuid customQuestions { prompt config { scope isRequired } } } } }`,
      { brandId: brand.id, input: document({ customQuestions: [diet] }) },
      { key: keys.brand },
    );
    expect(res.body.data.createExperience.experience.customQuestions).toEqual([
      { prompt: 'Any dietary needs?', config: { scope: 'PARTICIPANT', isRequired: true } },
    ]);
    const bad = await t.gql(
      `mutation ($brandId: UUID!, $id: UUID!, $input: JSONObject!) { updateExperience(brandId: $brandId, id: $id, input: $input) { etag } }`,
      { brandId: brand.id, id: res.body.data.createExperience.experience.uuid, input: { customQuestions: [{ ...diet, options: null }] } },
      { key: keys.brand },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'customQuestions.0.options' });
  });
});
