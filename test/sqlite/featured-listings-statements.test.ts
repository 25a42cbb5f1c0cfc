import { beforeAll, describe, expect, it } from 'vitest';
import { findBrand } from '../../src/db/sqlite/stores/catalog/brands.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { freshSqliteDb } from '../support/db.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience, createMedia, createVibe } from '../../fixtures/factories/catalog.ts';
import {
  attachMedia,
  attachVibe,
  createContentTranslation,
  createListing,
  createListingContent,
} from '../../fixtures/factories/listings.ts';
import { createReviews } from '../../fixtures/factories/reviews.ts';
import { countStatements } from '../support/statements.ts';

const db = freshSqliteDb();
let t: TestApp;

/** A brand with `count` featured listings, each with every nested part: the most a listing can cost. */
async function brandWithListings(count: number) {
  const brand = await createBrand(db);
  const vibes = [await createVibe(db, brand.id, 'Relaxing'), await createVibe(db, brand.id, 'Lively')];
  for (let i = 0; i < count; i++) {
    const { experience, host } = await createExperience(db, brand.id);
    await createReviews(db, { brandId: brand.id, experienceId: experience.id, hostId: host.id }, [{ rating: 4 }]);
    const { listing, content } = await createListing(db, brand.id, { kind: 'experience', experienceId: experience.id, displayOrder: i });
    await createListingContent(db, listing.id, { version: 'draft', title: `Draft ${i}` });
    await createContentTranslation(db, content!.id, 'pt', { title: `Título ${i}`, summary: 'Resumo' });
    await attachMedia(db, listing.id, (await createMedia(db, brand.id)).id, 1);
    await attachMedia(db, listing.id, (await createMedia(db, brand.id)).id, 2, 'gallery');
    for (const [position, vibe] of vibes.entries()) await attachVibe(db, listing.id, vibe.id, position);
  }
  return (await createApiKey(db, { brandId: brand.id })).secret;
}

const smallKey = await brandWithListings(3);
const largeKey = await brandWithListings(200);

beforeAll(async () => {
  // These tests count what computing an answer costs: the response cache (a hit costs one statement) is off.
  t = await startApp(db, { http: { RESPONSE_CACHE_MAX_BYTES: 0 } });
  // A key is looked up on its first request after a write only: make that request before counting.
  for (const key of [smallKey, largeKey]) await t.rest('GET', '/v3/listings/featured', { key });
});

describe('statement counting', () => {
  it('sees every query Drizzle runs', async () => {
    const { count, sql } = await countStatements(db.connection, () => findBrand(db.connection, 'none'));
    expect(count).toBe(1);
    expect(sql[0]).toMatch(/^select .* from "brands"/);
  });
});

describe('featured listings cost', () => {
  const call = (key: string, query: string) =>
    countStatements(db.connection, () => t.rest('GET', `/v3/listings/featured${query}`, { key }));

  // The data generation (src/db/sqlite/generation.ts), then in one read transaction: listings with
  // categories and hosts, contents, translations (only with a locale), media, vibes, ratings. The brand was
  // read by the request before, under the same generation (readingEachBrandOnce): 8 and 7 when each request read it.
  it.each([
    ['?locale=pt&version=latest', 7],
    ['', 6],
  ])('costs the same for 3 listings and for 200 (%s: %i statements)', async (query, expected) => {
    const small = await call(smallKey, query);
    const large = await call(largeKey, query);
    expect(small.result.body.data).toHaveLength(3);
    expect(large.result.body.data).toHaveLength(200);
    expect(large.result.body.data[199].medias).toHaveLength(2);
    expect(small.sql).toEqual(large.sql);
    const [generation, begin, ...rest] = large.sql;
    expect(generation).toBe('SELECT version FROM data_generation');
    expect([begin, rest.at(-1)]).toEqual(['BEGIN DEFERRED', 'COMMIT']);
    expect(large.count - 2).toBe(expected);
  });

  it('translates and picks drafts in the large list too', async () => {
    const { result } = await call(largeKey, '?locale=pt');
    expect(result.body.data[150].title).toBe('Título 150');
    expect((await call(largeKey, '?version=latest')).result.body.data[150].title).toBe('Draft 150');
  });
});
