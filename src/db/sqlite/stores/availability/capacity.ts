import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { sessions } from '../../schema/index.ts';
import type { CapacityStore, SessionRow } from '../../../../domain/availability/store.ts';
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

const takePublishable = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({
      reserved: sql`${sessions.reserved} + ${sql.placeholder('count')}`,
      publishableHeld: sql`${sessions.publishableHeld} + ${sql.placeholder('count')}`,
    })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        isNull(sessions.cancelledAt),
        sql`${sessions.reserved} + ${sessions.heldForOffers} + ${sql.placeholder('count')} <= ${sessions.capacity}`,
        sql`(${sessions.publishableHeld} + ${sql.placeholder('count')}) * 100 <= ${sessions.capacity} * ${sql.placeholder('sharePercent')}`,
      ),
    )
    .prepare(),
);

const onSale = preparedPerDb((db) =>
  db
    .select({ remaining: sql<number>`${sessions.capacity} - ${sessions.reserved} - ${sessions.heldForOffers}` })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare(),
);

/** One conditional UPDATE, as `takePlaces`; when it takes nothing, what is on sale tells which limit refused. */
export function takePublishablePlaces(
  db: Db,
  sessionId: string,
  count: number,
  sharePercent: number,
): 'taken' | 'sold-out' | 'share-exhausted' {
  if (count === 0) return 'taken';
  if (takePublishable(db).run({ sessionId, count, sharePercent }).changes === 1) return 'taken';
  return (onSale(db).get({ sessionId })?.remaining ?? 0) >= count ? 'share-exhausted' : 'sold-out';
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
  releasePlaces,
  leavePublishableShare,
} satisfies SqliteStore<CapacityStore>;
