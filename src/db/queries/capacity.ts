import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { sessions } from '../schema.ts';

/**
 * Takes `count` places of a session if that many remain on sale (capacity less reserved places and places
 * held for waitlist offers); false (and nothing changed) otherwise. The check and the write are one
 * statement, and the table's CHECK backs it.
 */
export function takePlaces(db: Db, sessionId: string, count: number): boolean {
  if (count === 0) return true;
  const result = db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} + ${count}` })
    .where(and(eq(sessions.id, sessionId), sql`${sessions.reserved} + ${sessions.heldForOffers} + ${count} <= ${sessions.capacity}`))
    .run();
  return result.changes === 1;
}

/** Gives `count` places back to a session. */
export function releasePlaces(db: Db, sessionId: string, count: number): void {
  if (count === 0) return;
  db.update(sessions)
    .set({ reserved: sql`${sessions.reserved} - ${count}` })
    .where(eq(sessions.id, sessionId))
    .run();
}
