/**
 * What the bench's uncached reads (T3u: an experience page with its questions, prices and 20 reviews;
 * T1u: the featured listings, every field; bench/lib/targets.ts) send PostgreSQL per request, on the demo
 * data the bench reads, with the response cache off as the bench's "uncached" gateway runs. Each statement
 * outside a transaction is a round trip and a transaction of its own. The API-key lookup is left out
 * (statementsSent). PRINT_SQL=1 prints each request's statements.
 */
import { expect, it } from 'vitest';
import { startApp } from '../support/app.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { statementsSent, tally, untilDataVersionSteady } from '../support/statements.ts';
import { demoIds } from '../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../src/db/demo/index.ts';
import { experienceQuery, featuredListingsQuery } from '../../fixtures/graphql/documents.ts';

/** The bench's key and brand (bench/lib/data.ts), which tests cannot import. */
const key = 'sk_test_lisbon_demo';
const brandId = demoIds.brands.lisbon;

const db = adminUrl ? await freshPostgresDb() : undefined;

describePostgres('the bench uncached reads on PostgreSQL', () => {
  const now = new Date();
  const start = async () => {
    await seedDemoDataIfEmpty({ seed: db!.seed }, now);
    return startApp(db!, { now: () => now, http: { RESPONSE_CACHE_MAX_BYTES: 0 } });
  };
  const measure = async (name: string, send: () => Promise<{ status: number; body: any }>) => {
    await send();
    await untilDataVersionSteady(db!);
    const warm = await send();
    expect(warm.status).toBe(200);
    expect(warm.body.errors).toBeUndefined();
    const { sql, result } = await statementsSent(db!, send);
    expect(result.body).toStrictEqual(warm.body);
    const counts = tally(sql);
    if (process.env.PRINT_SQL) {
      console.log('=== ' + name + ' ' + JSON.stringify(counts) + '\n' + sql.map((q) => q.replace(/\s+/g, ' ').slice(0, 600)).join('\n'));
    }
    return { counts, body: result.body };
  };

  it('T3u, an experience page with its reviews, sends its statements', async () => {
    const t = await start();
    const variables = { brandId, id: demoIds.experiences.tagusSunsetSail };
    const { counts, body: answer } = await measure('T3u', () => t.gql(experienceQuery, variables, { key }));
    // The demo's sail has 6 reviews: the page asks for 20 and gets them all.
    expect(answer.data.experience.reviews.edges).toHaveLength(6);
    // 8 statements (8 transactions) before issue 38's read work: the brand, the experience's record, its
    // ratings, the reviewed experience and its review count, the questions, the reviews page, and the record
    // and ratings again for the reviews' experience. 6 with the loader answering the reviews' experience
    // from the page's; 5 with the record and its ratings one statement; 4 with the brand read once per data
    // version, not per request; 3 with the reviewed experience and its review count read in the page's
    // statement. Left: the record, the questions, the page.
    expect(counts).toStrictEqual({ statements: 3, transactions: 3 });
  });

  it('T1u, the featured listings with every field, sends its statements', async () => {
    const t = await start();
    const { counts, body: answer } = await measure('T1u', () => t.gql(featuredListingsQuery, {}, { key }));
    expect(answer.data.featuredListings.length).toBeGreaterThan(0);
    // 2 statements (2 transactions) before issue 38's read work: the brand and the listings page; 1 with the
    // brand read once per data version.
    expect(counts).toStrictEqual({ statements: 1, transactions: 1 });
  });
});
