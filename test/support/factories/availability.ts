import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { waitlists } from '../../../src/db/schema.ts';

/** The experience's waitlist (an experience has at most one). */
export function createWaitlist(db: Db, experienceId: string) {
  const row = { id: randomUUID(), experienceId, createdAt: '2026-01-15T10:00:00.000Z' };
  db.insert(waitlists).values(row).run();
  return row;
}
