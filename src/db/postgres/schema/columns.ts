import { timestamp } from 'drizzle-orm/pg-core';

/**
 * An instant. The SQLite side stores these as ISO 8601 UTC text; here they are `timestamptz`, so the
 * database compares and orders them as times, and the client's type parser (../client.ts) hands them
 * back as the same ISO strings.
 */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** Creation time, set by the database when the writer gives none. */
export const createdAt = () => instant('created_at').notNull().defaultNow();
