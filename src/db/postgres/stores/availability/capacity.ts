import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { CapacityStore, SessionRow, SessionWithWaitlist } from '../../../../domain/availability/store.ts';
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
 * The same conditional UPDATE with the publishable share as a second condition (`takeItemPlaces`'s): racing
 * holds wait for the row lock and re-check both on the row as the earlier one left it.
 */
export async function takePublishablePlaces(
  db: PgExecutor,
  sessionId: string,
  count: number,
  sharePercent: number,
): Promise<'taken' | 'sold-out' | 'share-exhausted'> {
  if (count === 0) return 'taken';
  const result = await takeItemPlaces(db, sessionId, count, sharePercent);
  return 'taken' in result ? 'taken' : result.refused;
}

const asked = sql.placeholder('count');
const share = sql.placeholder('sharePercent');
const itemTake = preparedPerExecutor((db) =>
  db
    .update(sessions)
    .set({
      reserved: sql`${sessions.reserved} + ${asked}::integer`,
      publishableHeld: sql`${sessions.publishableHeld} + CASE WHEN ${share}::integer IS NULL THEN 0 ELSE ${asked}::integer END`,
    })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        isNull(sessions.cancelledAt),
        sql`${sessions.reserved} + ${sessions.heldForOffers} + ${asked}::integer <= ${sessions.capacity}`,
        sql`(${share}::integer IS NULL OR (${sessions.publishableHeld} + ${asked}::integer) * 100 <= ${sessions.capacity} * ${share}::integer)`,
      ),
    )
    // The session's own name: inside the subquery an unqualified experience_id would be the waitlist's.
    .returning({
      ...getTableColumns(sessions),
      waitlistId: sql<string | null>`(SELECT w.id FROM waitlists w WHERE w.experience_id = "sessions"."experience_id")`,
    })
    .prepare('take_item_places'),
);

const onSale = preparedPerExecutor((db) =>
  db
    .select({ remaining: sql<number>`${sessions.capacity} - ${sessions.reserved} - ${sessions.heldForOffers}` })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare('session_on_sale'),
);

/**
 * One named conditional UPDATE for both guards (the share's condition void without a share), returning the
 * row it wrote (and locked) with the experience's waitlist. When it takes nothing, what is on sale (read
 * after it, a statement of its own) tells which limit refused.
 */
export async function takeItemPlaces(
  db: PgExecutor,
  sessionId: string,
  count: number,
  sharePercent: number | null,
): Promise<{ taken: SessionWithWaitlist } | { refused: 'sold-out' | 'share-exhausted' }> {
  const [row] = await itemTake(db).execute({ sessionId, count, sharePercent });
  if (row) {
    const { waitlistId, ...session } = row;
    return { taken: { session, waitlistId } };
  }
  if (sharePercent === null) return { refused: 'sold-out' };
  const [found] = await onSale(db).execute({ sessionId });
  return { refused: (found?.remaining ?? 0) >= count ? 'share-exhausted' : 'sold-out' };
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
  takeItemPlaces,
  releasePlaces,
  leavePublishableShare,
} satisfies PostgresStore<CapacityStore>;
