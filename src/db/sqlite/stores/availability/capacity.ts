import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { sessions } from '../../schema/index.ts';
import type { CapacityStore, SessionRow, SessionWithWaitlist } from '../../../../domain/availability/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const take = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} + ${sql.placeholder('count')}` })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        isNull(sessions.cancelledAt),
        sql`${sessions.reserved} + ${sessions.heldForOffers} + ${sql.placeholder('count')} <= ${sessions.capacity}`,
      ),
    )
    .prepare(),
);

export function takePlaces(db: Db, sessionId: string, count: number): boolean {
  if (count === 0) return true;
  return take(db).run({ sessionId, count }).changes === 1;
}

const asked = sql.placeholder('count');
const share = sql.placeholder('sharePercent');
const itemTake = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({
      reserved: sql`${sessions.reserved} + ${asked}`,
      publishableHeld: sql`${sessions.publishableHeld} + CASE WHEN ${share} IS NULL THEN 0 ELSE ${asked} END`,
    })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        isNull(sessions.cancelledAt),
        sql`${sessions.reserved} + ${sessions.heldForOffers} + ${asked} <= ${sessions.capacity}`,
        sql`(${share} IS NULL OR (${sessions.publishableHeld} + ${asked}) * 100 <= ${sessions.capacity} * ${share})`,
      ),
    )
    // The session's own name: inside the subquery an unqualified experience_id would be the waitlist's.
    .returning({
      ...getTableColumns(sessions),
      waitlistId: sql<string | null>`(SELECT w.id FROM waitlists w WHERE w.experience_id = "sessions"."experience_id")`,
    })
    .prepare(),
);

const onSale = preparedPerDb((db) =>
  db
    .select({ remaining: sql<number>`${sessions.capacity} - ${sessions.reserved} - ${sessions.heldForOffers}` })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare(),
);

/** `takeItemPlaces` with a share; when it takes nothing, what is on sale tells which limit refused. */
export function takePublishablePlaces(
  db: Db,
  sessionId: string,
  count: number,
  sharePercent: number,
): 'taken' | 'sold-out' | 'share-exhausted' {
  if (count === 0) return 'taken';
  const result = takeItemPlaces(db, sessionId, count, sharePercent);
  return 'taken' in result ? 'taken' : result.refused;
}

/** One conditional UPDATE for both guards (the share's condition void without a share), returning the row it wrote. */
export function takeItemPlaces(
  db: Db,
  sessionId: string,
  count: number,
  sharePercent: number | null,
): { taken: SessionWithWaitlist } | { refused: 'sold-out' | 'share-exhausted' } {
  const row = itemTake(db).get({ sessionId, count, sharePercent });
  if (row) {
    const { waitlistId, ...session } = row;
    return { taken: { session, waitlistId } };
  }
  if (sharePercent === null) return { refused: 'sold-out' };
  return { refused: (onSale(db).get({ sessionId })?.remaining ?? 0) >= count ? 'share-exhausted' : 'sold-out' };
}

const release = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} - ${sql.placeholder('count')}` })
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .returning()
    .prepare(),
);

export function releasePlaces(db: Db, sessionId: string, count: number): SessionRow | undefined {
  if (count === 0) return undefined;
  return release(db).get({ sessionId, count });
}

const leaveShare = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({ publishableHeld: sql`${sessions.publishableHeld} - ${sql.placeholder('count')}` })
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare(),
);

export function leavePublishableShare(db: Db, sessionId: string, count: number): void {
  if (count === 0) return;
  leaveShare(db).run({ sessionId, count });
}

export const capacityStore = {
  takePlaces,
  takePublishablePlaces,
  takeItemPlaces,
  releasePlaces,
  leavePublishableShare,
} satisfies SqliteStore<CapacityStore>;
