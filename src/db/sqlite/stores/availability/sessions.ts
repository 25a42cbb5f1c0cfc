import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { sessions, waitlists } from '../../schema/index.ts';
import type { SessionsStore } from '../../../port/availability.ts';
import type { SqliteStore } from '../../store-binding.ts';

export type SessionRow = typeof sessions.$inferSelect;

const sessionAt = preparedPerDb((db) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.experienceId, sql.placeholder('experienceId')), eq(sessions.startLocal, sql.placeholder('startLocal'))))
    .prepare(),
);

/**
 * The session of an experience starting at `startLocal` (`YYYY-MM-DDTHH:MM:SS`, the experience's zone).
 * Every quote and checkout item asks: prepared once.
 */
export function findSessionAt(db: Db, experienceId: string, startLocal: string): SessionRow | undefined {
  return sessionAt(db).get({ experienceId, startLocal });
}

export interface SessionWithWaitlist {
  session: SessionRow;
  waitlistId: string | null;
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

/**
 * Sessions of an experience whose local start is in [`fromLocal`, `beforeLocal`), by start, with the
 * experience's waitlist id: one statement, one range of the (experience_id, start_local) index.
 * Local starts compare correctly as strings because they all have the same fixed-width shape.
 */
export function sessionsInRange(db: Db, experienceId: string, fromLocal: string, beforeLocal: string): SessionWithWaitlist[] {
  return sessionsBetween(db).all({ experienceId, fromLocal, beforeLocal });
}

export const sessionsStore = {
  findSessionAt,
  sessionsInRange,
} satisfies SqliteStore<SessionsStore>;
