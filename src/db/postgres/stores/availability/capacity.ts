import { and, eq, sql } from 'drizzle-orm';
import type { CapacityStore } from '../../../../domain/availability/store.ts';
import { sessions } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';

/**
 * Takes `count` places of a session if that many remain on sale (capacity less reserved places and places
 * held for waitlist offers); false (and nothing changed) otherwise. The check and the write are one
 * statement: the row lock PostgreSQL takes for the UPDATE makes racing takes, on any gateway, wait and
 * re-check the condition on the row as the earlier one left it. The table's CHECK backs it.
 */
export async function takePlaces(db: PgExecutor, sessionId: string, count: number): Promise<boolean> {
  if (count === 0) return true;
  const result = await db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} + ${count}` })
    .where(and(eq(sessions.id, sessionId), sql`${sessions.reserved} + ${sessions.heldForOffers} + ${count} <= ${sessions.capacity}`));
  return result.rowCount === 1;
}

/** Gives `count` places back to a session. */
export async function releasePlaces(db: PgExecutor, sessionId: string, count: number): Promise<void> {
  if (count === 0) return;
  await db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} - ${count}` })
    .where(eq(sessions.id, sessionId));
}

export const capacityStore = {
  takePlaces,
  releasePlaces,
} satisfies PostgresStore<CapacityStore>;
