/** Instants come back from PostgreSQL as the SQLite side stores them: ISO 8601 UTC with milliseconds and a Z. */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePostgres, migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { isoInstant } from '../../src/db/postgres/schema/columns.ts';
import { organizations } from '../../src/db/postgres/schema/index.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describePostgres('timestamptz columns', () => {
  const database = freshPostgresDatabase();
  let db: PgDb;
  /** A pool whose sessions show times in India (UTC+05:30), where PostgreSQL writes another offset. */
  let kolkata: PgDb;
  beforeAll(async () => {
    db = openPostgres(database.url());
    await migratePostgres(db);
    const url = new URL(database.url());
    url.searchParams.set('options', '-c TimeZone=Asia/Kolkata');
    kolkata = openPostgres(url.toString());
  });
  afterAll(() => Promise.all([closePostgres(db), closePostgres(kolkata)]));

  it('round-trip an ISO instant unchanged, through Drizzle and through the pool, in any session zone', async () => {
    await db.insert(organizations).values({ id: 'org-round-trip', name: 'Round trip', createdAt: '2026-03-29T00:59:59.123Z' });

    for (const pool of [db, kolkata]) {
      const [row] = await pool.select().from(organizations).where(eq(organizations.id, 'org-round-trip'));
      expect(row!.createdAt).toBe('2026-03-29T00:59:59.123Z');
      const raw = await pool.$client.query(`SELECT created_at FROM organizations WHERE id = 'org-round-trip'`);
      expect(raw.rows[0].created_at).toBe('2026-03-29T00:59:59.123Z');
    }
    const shown = await kolkata.$client.query(`SELECT created_at::text AS text FROM organizations WHERE id = 'org-round-trip'`);
    expect(shown.rows[0].text).toBe('2026-03-29 06:29:59.123+05:30');
  });

  it('write the default creation time as an ISO instant to the millisecond', async () => {
    const before = Date.now();
    const [row] = await kolkata.insert(organizations).values({ id: 'org-default', name: 'Default' }).returning();

    expect(row!.createdAt).toMatch(iso);
    expect(Date.parse(row!.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    const stored = await db.$client.query(
      `SELECT created_at = date_trunc('milliseconds', created_at) AS whole FROM organizations WHERE id = 'org-default'`,
    );
    expect(stored.rows[0].whole).toBe(true);
  });
});

describe('isoInstant', () => {
  const parsed = (text: string) => pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ)(text).toISOString();

  it.each([
    ['2026-03-29 00:59:59+00', '2026-03-29T00:59:59.000Z'],
    ['2026-03-29 00:59:59.1+00', '2026-03-29T00:59:59.100Z'],
    ['2026-03-29 00:59:59.12+00', '2026-03-29T00:59:59.120Z'],
    ['2026-03-29 00:59:59.123+00', '2026-03-29T00:59:59.123Z'],
    ['1970-01-01 00:00:00+00', '1970-01-01T00:00:00.000Z'],
    ['2024-02-29 23:59:59.999+00', '2024-02-29T23:59:59.999Z'],
    // Not a UTC session's form to the millisecond: node-postgres' parser answers.
    ['2026-03-29 06:29:59.123+05:30', '2026-03-29T00:59:59.123Z'],
    ['2026-03-28 20:59:59.5-04', '2026-03-29T00:59:59.500Z'],
    ['2026-03-29 00:59:59.123456+00', '2026-03-29T00:59:59.123Z'],
  ])('writes %j as %j, as parsing it to a Date does', (text, iso) => {
    expect(isoInstant(text)).toBe(iso);
    expect(isoInstant(text)).toBe(parsed(text));
  });
});
