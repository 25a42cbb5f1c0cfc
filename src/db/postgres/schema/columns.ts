import { sql } from 'drizzle-orm';
import { customType } from 'drizzle-orm/pg-core';
import pg from 'pg';

const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

/**
 * A `timestamptz` value as PostgreSQL writes it (`2026-01-15 10:00:00.123+00`, in the session's zone) as
 * the SQLite side stores instants: ISO 8601 UTC with milliseconds and a `Z`.
 */
export function isoInstant(value: string): string {
  const utc = UTC_TEXT.exec(value);
  if (utc) return `${utc[1]}T${utc[2]}.${utc[3] === undefined ? '000' : utc[3].padEnd(3, '0')}Z`;
  return parseTimestamptz(value).toISOString();
}

/**
 * An instant as PostgreSQL writes it in a UTC session (DateStyle ISO), to the millisecond at most: rewritten as
 * text, where parsing it into a Date and formatting that took most of a review page's row mapping. Any other
 * form (another zone's offset, microseconds, a year past 9999 or BC) goes through node-postgres' parser.
 */
const UTC_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,3}))?\+00$/;

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
