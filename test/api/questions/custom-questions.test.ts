import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../support/db.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { assignQuestion, createExperience, createQuestion } from '../../../fixtures/factories/catalog.ts';
import { statementsSent } from '../../support/statements.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db);
const brand = await createBrand(db, { organizationId: org.id });
const sister = await createBrand(db, { organizationId: org.id });
const outsider = await createBrand(db);
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;

const tour = (await createExperience(db, brand.id)).experience;
const other = (await createExperience(db, brand.id)).experience;
const silent = (await createExperience(db, brand.id)).experience;
const sisterTour = (await createExperience(db, sister.id)).experience;
const strangerTour = (await createExperience(db, outsider.id)).experience;

const [small, large] = [randomUUID(), randomUUID()];
const size = await createQuestion(db, brand.id, {
  prompt: 'Wetsuit size',
  fieldType: 'single_select',
  options: [
    { key: small, value: 'S' },
    { key: large, value: 'L' },
  ],
});
const extras = await createQuestion(db, brand.id, { prompt: 'Extras', fieldType: 'multiple_select', options: [] });
// Options stored on a text question are not part of its snapshot.
const allergies = await createQuestion(db, brand.id, { prompt: 'Allergies', fieldType: 'input', options: [{ key: small, value: 'S' }] });
const notes = await createQuestion(db, brand.id, { prompt: 'Notes for the skipper', fieldType: 'textarea' });
const waiver = await createQuestion(db, brand.id, {
  prompt: 'Accept the waiver',
  fieldType: 'terms_and_conditions',
  termsAndConditions: { label: 'I accept', mediaId: 'doc-1', isOverrided: true, mediaUrl: 'https://cdn.example.test/waiver.pdf' },
});
const rules = await createQuestion(db, brand.id, {
  prompt: 'Accept the house rules',
  fieldType: 'terms_and_conditions',
  termsAndConditions: { label: 'I agree', mediaId: 'doc-2', isOverrided: false },
});
const retired = await createQuestion(db, brand.id, { prompt: 'Retired question' });

// Inserted out of order: the API sorts by `order`.
const aWaiver = await assignQuestion(db, tour.id, waiver.id, { order: 5, isRequired: true, scope: 'purchaser' });
const aSize = await assignQuestion(db, tour.id, size.id, { order: 1, isRequired: true });
const aRetired = await assignQuestion(db, tour.id, retired.id, { order: 0, isActive: false });
const aExtras = await assignQuestion(db, tour.id, extras.id, {
  order: 2,
  conditions: [{ rule: 'value_matches', conditionKey: size.id, conditionValue: large }],
  conditionsMatchType: 'any',
});
const aAllergies = await assignQuestion(db, tour.id, allergies.id, { order: 3, conditions: [], conditionsMatchType: 'all' });
const aNotes = await assignQuestion(db, tour.id, notes.id, { order: 4, scope: 'purchaser' });
const aRules = await assignQuestion(db, tour.id, rules.id, { order: 6 });
const aOther = await assignQuestion(db, other.id, notes.id, { order: 1 });

beforeAll(async () => {
  t = await startApp(db);
});

const config = (a: { id: string; experienceId: string; isRequired: boolean; isActive: boolean; order: number; scope: string }) => ({
  experienceId: a.experienceId,
  experienceQuestionId: a.id,
  isRequired: a.isRequired,
  isActive: a.isActive,
  order: a.order,
  scope: a.scope,
  conditions: null,
  conditionsMatchType: null,
});

const expectedTour = [
  {
    customQuestionId: size.id,
    prompt: 'Wetsuit size',
    fieldType: 'single_select',
    options: [
      { key: small, value: 'S' },
      { key: large, value: 'L' },
    ],
    termsAndConditions: null,
    config: config(aSize),
  },
  {
    customQuestionId: extras.id,
    prompt: 'Extras',
    fieldType: 'multiple_select',
    options: [],
    termsAndConditions: null,
    config: {
      ...config(aExtras),
      conditions: [{ rule: 'value_matches', conditionKey: size.id, conditionValue: large }],
      conditionsMatchType: 'any',
    },
  },
  {
    customQuestionId: allergies.id,
    prompt: 'Allergies',
    fieldType: 'input',
    options: null,
    termsAndConditions: null,
    config: config(aAllergies),
  },
  {
    customQuestionId: notes.id,
    prompt: 'Notes for the skipper',
    fieldType: 'textarea',
    options: null,
    termsAndConditions: null,
    config: config(aNotes),
  },
  {
    customQuestionId: waiver.id,
    prompt: 'Accept the waiver',
    fieldType: 'terms_and_conditions',
    options: null,
    termsAndConditions: { label: 'I accept', mediaId: 'doc-1', isOverrided: true, mediaUrl: 'https://cdn.example.test/waiver.pdf' },
    config: config(aWaiver),
  },
  {
    customQuestionId: rules.id,
    prompt: 'Accept the house rules',
    fieldType: 'terms_and_conditions',
    options: null,
    termsAndConditions: { label: 'I agree', mediaId: 'doc-2', isOverrided: false },
    config: config(aRules),
  },
];

const path = (brandId: string, experienceId: string) => `/v1/brands/${brandId}/experiences/${experienceId}/custom-questions`;

describe('GET /v1/brands/{brandId}/experiences/{experienceId}/custom-questions', () => {
  it('lists the active questions in order, each type with its own details', async () => {
    const res = await t.rest('GET', path(brand.id, tour.id), { key: brandKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expectedTour });
    expect(res.body.data.map((q: { customQuestionId: string }) => q.customQuestionId)).not.toContain(aRetired.questionId);
    expect(res.body.data[5].termsAndConditions).not.toHaveProperty('mediaUrl');
  });

  it('gives an empty list for an experience without questions', async () => {
    const res = await t.rest('GET', path(brand.id, silent.id), { key: orgKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('answers 404 for an unknown experience and for another brand’s experience', async () => {
    const unknown = await t.rest('GET', path(brand.id, randomUUID()), { key: brandKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', path(brand.id, sisterTour.id), { key: orgKey })).status).toBe(404);
  });

  it('answers 403 outside the key scope, 401 without a key, 400 on a malformed id', async () => {
    expect((await t.rest('GET', path(outsider.id, strangerTour.id), { key: orgKey })).status).toBe(403);
    expect((await t.rest('GET', path(brand.id, tour.id))).status).toBe(401);
    const bad = await t.rest('GET', path(brand.id, 'nope'), { key: brandKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'experienceId' } });
  });
});

const fields = `customQuestions {
  customQuestionId prompt fieldType options { key value }
  termsAndConditions { label mediaId isOverrided mediaUrl }
  config { experienceId experienceQuestionId isRequired isActive order scope
    conditions { rule conditionKey conditionValue } conditionsMatchType }
}`;

/** The REST snapshot as GraphQL shows it: enum names, and null for an absent `mediaUrl`. */
const asGraphQL = (q: (typeof expectedTour)[number]) => ({
  ...q,
  fieldType: q.fieldType.toUpperCase(),
  termsAndConditions: q.termsAndConditions && { mediaUrl: null, ...q.termsAndConditions },
  config: {
    ...q.config,
    scope: q.config.scope.toUpperCase(),
    conditionsMatchType: q.config.conditionsMatchType?.toUpperCase() ?? null,
    conditions: q.config.conditions?.map((c) => ({ ...c, rule: c.rule.toUpperCase() })) ?? null,
  },
});

describe('GraphQL Experience.customQuestions', () => {
  it('agrees with REST', async () => {
    const res = await t.gql(
      `query($b: UUID!, $id: UUID!) { experience(brandId: $b, id: $id) { ${fields} } }`,
      { b: brand.id, id: tour.id },
      { key: brandKey },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.experience.customQuestions).toEqual(expectedTour.map(asGraphQL));
  });

  it('loads the questions of several experiences with one statement', async () => {
    const query = `query($b: UUID!, $one: UUID!, $two: UUID!, $three: UUID!) {
      one: experience(brandId: $b, id: $one) { ${fields} }
      two: experience(brandId: $b, id: $two) { ${fields} }
      three: experience(brandId: $b, id: $three) { ${fields} }
    }`;
    const { sql, result } = await statementsSent(db, () =>
      t.gql(query, { b: brand.id, one: tour.id, two: other.id, three: silent.id }, { key: brandKey }),
    );
    expect(result.body.errors).toBeUndefined();
    const { one, two, three } = result.body.data;
    expect(one.customQuestions.map((q: { prompt: string }) => q.prompt)).toEqual(expectedTour.map((q) => q.prompt));
    expect(two.customQuestions).toEqual([
      {
        customQuestionId: notes.id,
        prompt: 'Notes for the skipper',
        fieldType: 'TEXTAREA',
        options: null,
        termsAndConditions: null,
        config: { ...config(aOther), scope: 'PARTICIPANT' },
      },
    ]);
    expect(three.customQuestions).toEqual([]);
    expect(sql.filter((s) => s.includes('from "experience_questions"'))).toHaveLength(1);
  });
});
