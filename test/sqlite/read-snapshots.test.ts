import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCheckout } from '../../src/db/sqlite/stores/checkout/checkout.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { freshSqliteDb } from '../support/db.ts';
import { recordStatements } from '../support/statements.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createListing } from '../../fixtures/factories/listings.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';

/**
 * A store call that reads with several statements sees one snapshot of the file (client.ts, readTogether):
 * a commit by another process landing between two of its statements is seen by none of them, and by the
 * next call. The other process is a second connection to the same file, committing just before the call's
 * later statement runs.
 */
const folder = mkdtempSync(join(tmpdir(), 'tessera-snapshots-'));
const file = join(folder, 'tessera.db');
const db = freshSqliteDb(file);
const other = new Database(file);
other.pragma('busy_timeout = 5000');
let t: TestApp;

afterAll(() => {
  other.close();
  db.connection.$client.close();
  rmSync(folder, { recursive: true, force: true });
});

/**
 * Runs `fn` with `write` committed on the other connection just before the first statement of this
 * process whose text matches `before` runs; returns what `fn` returned and whether the write happened.
 */
async function committingBetween<T>(before: RegExp, write: string, fn: () => Promise<T> | T): Promise<{ result: T; wrote: boolean }> {
  let wrote = false;
  const restore = recordStatements(db, (sql) => {
    if (wrote || !before.test(sql)) return;
    wrote = true;
    other.prepare(write).run();
  });
  try {
    return { result: await fn(), wrote };
  } finally {
    restore();
  }
}

const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const { content } = await createListing(db, brand.id, { kind: 'experience', experienceId: experience.id, content: { title: 'Before' } });
const session = await createSession(db, experience, { startLocal: '2030-06-01T10:00:00', capacity: 10 });

beforeAll(async () => {
  t = await startApp(db, { http: { RESPONSE_CACHE_MAX_BYTES: 0 } });
});

describe('reads of one store call share a snapshot', () => {
  it('a featured page does not mix listings read before a commit with contents read after it', async () => {
    const featured = () => t.rest('GET', '/v3/listings/featured', { key });
    const { result, wrote } = await committingBetween(
      /from "listing_contents"/,
      `UPDATE listing_contents SET title = 'After' WHERE id = '${content!.id}'`,
      featured,
    );
    expect(wrote).toBe(true);
    expect(result.body.data.map((listing: { title: string }) => listing.title)).toEqual(['Before']);
    expect((await featured()).body.data.map((listing: { title: string }) => listing.title)).toEqual(['After']);
  });

  it("a checkout's reads see the session's capacity as of its first statement", async () => {
    const read = () =>
      readCheckout(db.connection, {
        brandId: brand.id,
        cartId: 'no-such-cart',
        experienceIds: [experience.id],
        starts: [{ experienceId: experience.id, startLocal: session.startLocal }],
        at: '2030-05-01T00:00:00.000Z',
      });
    const { result, wrote } = await committingBetween(
      /from "sessions"/,
      `UPDATE sessions SET capacity = 3 WHERE id = '${session.id}'`,
      read,
    );
    expect(wrote).toBe(true);
    expect(result.experiences.map((e) => e.experience.id)).toEqual([experience.id]);
    expect(result.sessions.map((s) => s.session.capacity)).toEqual([10]);
    expect(read().sessions.map((s) => s.session.capacity)).toEqual([3]);
  });
});
