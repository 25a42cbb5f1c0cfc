/**
 * The brand settings' feature flags that govern the API (docs/rest.md, "Brand features"): for each, the
 * same brand with the flag and without it, on both faces. A refusal is 422 FEATURE_NOT_ENABLED naming
 * the flag (and the field that asked for it).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { governingFlags, type GoverningFlag } from '../../../src/domain/catalog/features.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { assignQuestion, createExperience, createHost, createQuestion } from '../../../fixtures/factories/catalog.ts';
import { createListing } from '../../../fixtures/factories/listings.ts';
import { createReviews } from '../../../fixtures/factories/reviews.ts';

const db = await freshDb();
const brand = await createBrand(db, { hostsLimit: 10 });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const host = await createHost(db, brand.id);
await createHost(db, brand.id);
await createHost(db, brand.id);
const { experience } = await createExperience(db, brand.id, { title: 'Tram Walk' }, { host });
const { experience: hidden } = await createExperience(db, brand.id, { title: 'Private Studio', isUnlisted: true }, { host });
await createListing(db, brand.id, { experienceId: hidden.id, isUnlisted: true, content: { title: 'Private Studio' } });
await createListing(db, brand.id, { experienceId: experience.id, content: { title: 'Tram Walk' } });
await createReviews(db, { brandId: brand.id, experienceId: experience.id, hostId: host.id }, 3);
const question = await createQuestion(db, brand.id, { prompt: 'Any allergies?', fieldType: 'input' });
await assignQuestion(db, experience.id, question.id, { isRequired: true, scope: 'participant' });
await createSession(db, experience, { startLocal: '2027-03-01T10:00:00' });
await createSession(db, hidden, { startLocal: '2027-03-01T10:00:00' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2027-02-01T12:00:00.000Z') });
});

const allFlags = [...governingFlags];
const setFeatures = (flags: readonly string[]) =>
  db.run('UPDATE brands SET features_active = ? WHERE id = ?', JSON.stringify(flags), brand.id);
const without = (flag: GoverningFlag) => setFeatures(allFlags.filter((f) => f !== flag));

beforeEach(async () => {
  await setFeatures(allFlags);
});

const refusal = (flag: GoverningFlag, field?: string) => ({ code: 'FEATURE_NOT_ENABLED', details: { flag, ...(field ? { field } : {}) } });
const gqlCode = (body: any) => ({ code: body.errors?.[0]?.extensions?.code, flag: body.errors?.[0]?.extensions?.flag });

const participant = (tier = 'Adult') => ({
  firstName: 'Ana',
  lastName: 'Silva',
  priceTierName: tier,
  customQuestionResponses: [{ questionId: question.id, answer: [{ value: 'none' }] }],
});
const plain = { firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult' };
const item = (over: Record<string, unknown> = {}) => ({
  experienceId: experience.id,
  sessionTime: '2027-03-01T10:00',
  participants: [participant()],
  ...over,
});
const quote = (data: unknown[]) =>
  t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, { key, body: { data, getOnlyTotalNetAmount: true } });
const quoteMutation = `mutation($b: UUID!, $c: UUID!, $input: CreatePaymentIntentInput!) { createPaymentIntent(brandId: $b, cartId: $c, input: $input) { totalNetAmount } }`;
const gqlQuote = (data: unknown[]) =>
  t.gql(quoteMutation, { b: brand.id, c: randomUUID(), input: { data, getOnlyTotalNetAmount: true } }, { key });

describe('unlistedExperience', () => {
  it('governs unlisted listings, and reading or booking an unlisted experience', async () => {
    const listed = await t.rest('GET', '/v3/listings/featured?unlisted=true', { key });
    expect(listed.body.data.map((l: any) => l.title)).toEqual(['Private Studio']);
    expect((await t.rest('GET', `/v1/brands/${brand.id}/experiences/${hidden.id}`, { key })).status).toBe(200);
    expect((await quote([item({ experienceId: hidden.id, participants: [plain] })])).status).toBe(200);

    await without('unlistedExperience');
    const refused = await t.rest('GET', '/v3/listings/featured?unlisted=true', { key });
    expect([refused.status, refused.body.error]).toMatchObject([422, refusal('unlistedExperience', 'unlisted')]);
    expect((await t.rest('GET', '/v3/listings/featured', { key })).body.data.map((l: any) => l.title)).toEqual(['Tram Walk']);
    const graph = await t.gql(`query($b: UUID!) { featuredListings(brandId: $b, unlisted: true) { title } }`, { b: brand.id }, { key });
    expect(gqlCode(graph.body)).toEqual({ code: 'FEATURE_NOT_ENABLED', flag: 'unlistedExperience' });
    const read = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${hidden.id}`, { key });
    expect([read.status, read.body.error]).toMatchObject([422, refusal('unlistedExperience')]);
    const booked = await quote([item({ experienceId: hidden.id, participants: [plain] })]);
    expect([booked.status, booked.body.error]).toMatchObject([422, refusal('unlistedExperience', 'data.0.experienceId')]);
    expect(gqlCode((await gqlQuote([item({ experienceId: hidden.id, participants: [plain] })])).body)).toEqual({
      code: 'FEATURE_NOT_ENABLED',
      flag: 'unlistedExperience',
    });
  });
});

describe('shoppingCart', () => {
  it('governs carts of more than one item; one item needs nothing', async () => {
    const two = [item(), item({ participants: [participant('Child')] })];
    // 45.50 + 20.00, 23 % VAT on each.
    expect((await quote(two)).body.totalNetAmount).toBe(80.57);
    await without('shoppingCart');
    const refused = await quote(two);
    expect([refused.status, refused.body.error]).toMatchObject([422, refusal('shoppingCart', 'data')]);
    expect(gqlCode((await gqlQuote(two)).body)).toEqual({ code: 'FEATURE_NOT_ENABLED', flag: 'shoppingCart' });
    expect((await quote([item()])).body.totalNetAmount).toBe(55.97);
  });
});

describe('customQuestions', () => {
  it('governs whether questions are asked, required and answered', async () => {
    const questions = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}/custom-questions`, { key });
    expect(questions.body.data.map((q: any) => q.prompt)).toEqual(['Any allergies?']);
    const unanswered = await quote([item({ participants: [plain] })]);
    expect(unanswered.body.error.code).toBe('ANSWER_REQUIRED');

    await without('customQuestions');
    expect((await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}/custom-questions`, { key })).body.data).toEqual([]);
    const graph = await t.gql(
      `query($b: UUID!, $e: UUID!) { experience(brandId: $b, id: $e) { customQuestions { prompt } } }`,
      { b: brand.id, e: experience.id },
      { key },
    );
    expect(graph.body.data.experience.customQuestions).toEqual([]);
    // Not asked, so not required...
    expect((await quote([item({ participants: [plain] })])).status).toBe(200);
    // ...and answers are refused rather than dropped.
    const answered = await quote([item()]);
    expect([answered.status, answered.body.error]).toMatchObject([
      422,
      refusal('customQuestions', 'data.0.participants.0.customQuestionResponses'),
    ]);
    expect(gqlCode((await gqlQuote([item()])).body)).toEqual({ code: 'FEATURE_NOT_ENABLED', flag: 'customQuestions' });
  });
});

describe('reviews', () => {
  it('governs reviews and the ratings drawn from them', async () => {
    const page = await t.rest('GET', `/v1/experiences/${experience.id}/reviews`, { key });
    expect(page.body[0].items).toHaveLength(3);
    expect((await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}`, { key })).body.ratings).toMatchObject({ total: 3 });

    await without('reviews');
    const refused = await t.rest('GET', `/v1/experiences/${experience.id}/reviews`, { key });
    expect([refused.status, refused.body.error]).toMatchObject([422, refusal('reviews')]);
    const graph = await t.gql(`query($e: UUID!) { experienceReviews(experienceId: $e) { totalCount } }`, { e: experience.id }, { key });
    expect(gqlCode(graph.body)).toEqual({ code: 'FEATURE_NOT_ENABLED', flag: 'reviews' });
    const read = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}`, { key });
    expect('ratings' in read.body).toBe(false);
    const listings = await t.rest('GET', '/v3/listings/featured', { key });
    expect(listings.body.data.map((l: any) => l.rating)).toEqual([null]);
  });
});

describe('priceTiers', () => {
  it("governs tiers beyond an experience's first", async () => {
    const read = async () => (await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}`, { key })).body.priceTiers;
    expect(await read()).toEqual([
      { name: 'Adult', price: 45.5 },
      { name: 'Child', price: 20 },
    ]);
    await without('priceTiers');
    expect(await read()).toEqual([{ name: 'Adult', price: 45.5 }]);
    const child = await quote([item({ participants: [participant('Child')] })]);
    expect([child.status, child.body.error]).toMatchObject([422, refusal('priceTiers', 'data.0.participants.0.priceTierName')]);
    expect(gqlCode((await gqlQuote([item({ participants: [participant('Child')] })])).body)).toEqual({
      code: 'FEATURE_NOT_ENABLED',
      flag: 'priceTiers',
    });
    expect((await quote([item()])).body.totalNetAmount).toBe(55.97);
    const unknown = await quote([item({ participants: [participant('Senior')] })]);
    expect(unknown.body.error).toMatchObject({ code: 'UNKNOWN_PRICE_TIER', details: { tiers: ['Adult'] } });
  });
});

describe('hostsLimit', () => {
  it('serves at most that many hosts', async () => {
    expect((await t.rest('GET', `/v1/brands/${brand.id}/hosts`, { key })).body.data).toHaveLength(3);
    await db.run('UPDATE brands SET hosts_limit = 2 WHERE id = ?', brand.id);
    expect((await t.rest('GET', `/v1/brands/${brand.id}/hosts`, { key })).body.data).toHaveLength(2);
    const graph = await t.gql(`query($b: UUID!) { hosts(brandId: $b) { id } }`, { b: brand.id }, { key });
    expect(graph.body.data.hosts).toHaveLength(2);
    await db.run('UPDATE brands SET hosts_limit = 10 WHERE id = ?', brand.id);
  });
});

describe('what the API shows of it', () => {
  it('keeps the experience brand, which features are judged by, out of the REST answer', async () => {
    const read = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}`, { key });
    expect(Object.keys(read.body)).not.toContain('brandId');
  });
});
