import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { sessions } from '../../schema/index.ts';
import type { CapacityStore } from '../../../../domain/availability/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const take = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} + ${sql.placeholder('count')}` })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        sql`${sessions.reserved} + ${sessions.heldForOffers} + ${sql.placeholder('count')} <= ${sessions.capacity}`,
      ),
    )
    .prepare(),
);

export function takePlaces(db: Db, sessionId: string, count: number): boolean {
  if (count === 0) return true;
  return take(db).run({ sessionId, count }).changes === 1;
}

const release = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({ reserved: sql`${sessions.reserved} - ${sql.placeholder('count')}` })
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare(),
);

export function releasePlaces(db: Db, sessionId: string, count: number): void {
  if (count === 0) return;
  release(db).run({ sessionId, count });
}

export const capacityStore = {
  takePlaces,
  releasePlaces,
} satisfies SqliteStore<CapacityStore>;
