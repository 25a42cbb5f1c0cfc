import { beforeAll, describe, expect, it } from 'vitest';
import { experienceQuery, quoteMutation } from '../../fixtures/graphql/documents.ts';
import { quoteInput } from '../../fixtures/graphql/quote.ts';
import { demoIds } from '../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../src/db/demo/index.ts';
import { sqliteEngine } from '../../src/db/sqlite/database.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { freshSqliteDb } from '../support/db.ts';
import { compiledStatements } from '../support/statements.ts';

/**
 * Building a query with Drizzle and compiling it in SQLite cost more than running it, so the statements
 * of the hottest requests are prepared once per connection. These requests, made a second time, must
 * compile nothing.
 */
const db = freshSqliteDb();
await seedDemoDataIfEmpty(sqliteEngine(db.connection));
const key = 'sk_test_lisbon_demo';
const brandId = demoIds.brands.lisbon;
let t: TestApp;

beforeAll(async () => {
  // The response cache (on by default) would answer the repeated requests without running any query.
  t = await startApp(db, { http: { RESPONSE_CACHE_MAX_BYTES: 0 } });
});

/** SQL text of every statement compiled on `db` while `fn` runs. */
const compiled = <T>(fn: () => Promise<T>) => compiledStatements(db.connection, fn);

describe('statements prepared once', () => {
  it.each([
    ['featured listings (REST)', () => t.rest('GET', '/v3/listings/featured?locale=pt&version=latest', { key })],
    ['featured listings (GraphQL)', () => t.gql('{ featuredListings(unlisted: true) { id title rating { total } } }', {}, { key })],
    ['experience page', () => t.gql(experienceQuery, { brandId, id: demoIds.experiences.tagusSunsetSail }, { key })],
    ['quote', () => t.gql(quoteMutation, { brandId, cartId: '00000000-0000-4000-8000-00000000c0de', input: quoteInput }, { key })],
  ])('%s compiles no statement the second time', async (_, request) => {
    const first = await compiled(request);
    expect(first.result.status).toBe(200);
    expect(first.result.body.errors).toBeUndefined();
    const second = await compiled(request);
    expect(second.result.body).toEqual(first.result.body);
    expect(second.sql).toEqual([]);
  });
});
