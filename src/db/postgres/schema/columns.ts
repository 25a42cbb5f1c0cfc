import { sql } from 'drizzle-orm';
import { customType } from 'drizzle-orm/pg-core';
import pg from 'pg';

const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

/**
 * A `timestamptz` value as PostgreSQL writes it (`2026-01-15 10:00:00.123+00`, in the session's zone) as
 * the SQLite side stores instants: ISO 8601 UTC with milliseconds and a `Z`.
 */
export function isoInstant(value: string): string {
  return parseTimestamptz(value).toISOString();
}

/**
 * An instant: ISO 8601 UTC text on SQLite, `timestamptz` here so the database compares and orders them as
 * times. Milliseconds (precision 3), as JavaScript has them: a value read and written back is the same
 * value. A custom type because Drizzle's node-postgres driver hands every `timestamptz` it selects over
 * as PostgreSQL's text, whatever parser the pool has; this one turns it into the ISO form.
 */
export const instant = customType<{ data: string; driverData: string }>({
  dataType: () => 'timestamp(3) with time zone',
  fromDriver: isoInstant,
});

/** Creation time, set by the database when the writer gives none. */
export const createdAt = () =>
  instant('created_at')
    .notNull()
    .default(sql`now()`);
