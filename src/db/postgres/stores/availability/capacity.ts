import { and, eq, isNull, sql } from 'drizzle-orm';
import type { CapacityStore, SessionRow } from '../../../../domain/availability/store.ts';
import { sessions } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';

/**
 * Takes `count` places of a session if it is not cancelled and that many remain on sale (capacity less reserved places and places
 * held for waitlist offers); false (and nothing changed) otherwise. The check and the write are one
 * statement: the row lock PostgreSQL takes for the UPDATE makes racing takes, on any gateway, wait and
 * re-check the condition on the row as the earlier one left it. The table's CHECK backs it.
 */
export async function takePlaces(db: PgExecutor, sessionId: string, count: number): Promise<boolean> {
  if (count === 0) return true;
  const result = await db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} + ${count}` })
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.cancelledAt),
        sql`${sessions.reserved} + ${sessions.heldForOffers} + ${count} <= ${sessions.capacity}`,
      ),
    );
  return result.rowCount === 1;
}

/**
 * The same conditional UPDATE with the publishable share as a second condition: racing holds wait for the row
 * lock and re-check both on the row as the earlier one left it. When it takes nothing, what is on sale (read
 * after it, a statement of its own) tells which limit refused.
 */
export async function takePublishablePlaces(
  db: PgExecutor,
  sessionId: string,
  count: number,
  sharePercent: number,
): Promise<'taken' | 'sold-out' | 'share-exhausted'> {
  if (count === 0) return 'taken';
  const result = await db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} + ${count}`, publishableHeld: sql`${sessions.publishableHeld} + ${count}` })
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.cancelledAt),
        sql`${sessions.reserved} + ${sessions.heldForOffers} + ${count} <= ${sessions.capacity}`,
        sql`(${sessions.publishableHeld} + ${count}) * 100 <= ${sessions.capacity} * ${sharePercent}`,
      ),
    );
  if (result.rowCount === 1) return 'taken';
  const [row] = await db
    .select({ remaining: sql<number>`${sessions.capacity} - ${sessions.reserved} - ${sessions.heldForOffers}` })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return (row?.remaining ?? 0) >= count ? 'share-exhausted' : 'sold-out';
}

const placesReleased = preparedPerExecutor((db) =>
  db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} - ${sql.placeholder('count')}::integer` })
    .where(eq(sessions.id, sql.placeholder('id')))
    .returning()
    .prepare('release_places'),
);

/** Gives `count` places back to a session; the UPDATE (one named statement) returns the row it wrote (and locked). */
export async function releasePlaces(db: PgExecutor, sessionId: string, count: number): Promise<SessionRow | undefined> {
  if (count === 0) return undefined;
  const [row] = await placesReleased(db).execute({ id: sessionId, count });
  return row;
}

/** `count` places of publishable holds leave the share (they stay reserved unless released too). */
export async function leavePublishableShare(db: PgExecutor, sessionId: string, count: number): Promise<void> {
  if (count === 0) return;
  await db
    .update(sessions)
    .set({ publishableHeld: sql`${sessions.publishableHeld} - ${count}` })
    .where(eq(sessions.id, sessionId));
}

export const capacityStore = {
  takePlaces,
  takePublishablePlaces,
  releasePlaces,
  leavePublishableShare,
} satisfies PostgresStore<CapacityStore>;
