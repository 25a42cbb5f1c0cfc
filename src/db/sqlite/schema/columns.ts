import { sql } from 'drizzle-orm';
import { text } from 'drizzle-orm/sqlite-core';

/** Creation time, ISO 8601 UTC with milliseconds, set by the database. */
export const createdAt = () =>
  text('created_at')
    .notNull()
    .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);
