import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { sessions, waitlists } from '../../schema/index.ts';
import type { SessionRow, SessionWithWaitlist, SessionsStore } from '../../../../domain/availability/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const sessionAt = preparedPerDb((db) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.experienceId, sql.placeholder('experienceId')), eq(sessions.startLocal, sql.placeholder('startLocal'))))
    .prepare(),
);

export function findSessionAt(db: Db, experienceId: string, startLocal: string): SessionRow | undefined {
  return sessionAt(db).get({ experienceId, startLocal });
}

const sessionsBetween = preparedPerDb((db) =>
  db
    .select({ session: sessions, waitlistId: waitlists.id })
    .from(sessions)
    .leftJoin(waitlists, eq(waitlists.experienceId, sessions.experienceId))
    .where(
      and(
        eq(sessions.experienceId, sql.placeholder('experienceId')),
        gte(sessions.startLocal, sql.placeholder('fromLocal')),
        lt(sessions.startLocal, sql.placeholder('beforeLocal')),
      ),
    )
    .orderBy(asc(sessions.startLocal))
    .prepare(),
);

export function sessionsInRange(db: Db, experienceId: string, fromLocal: string, beforeLocal: string): SessionWithWaitlist[] {
  return sessionsBetween(db).all({ experienceId, fromLocal, beforeLocal });
}

export const sessionsStore = {
  findSessionAt,
  sessionsInRange,
} satisfies SqliteStore<SessionsStore>;
