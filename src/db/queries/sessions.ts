import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { sessions, waitlists } from '../schema.ts';

export type SessionRow = typeof sessions.$inferSelect;

/** The session of an experience starting at `startLocal` (`YYYY-MM-DDTHH:MM:SS`, the experience's zone). */
export function findSessionAt(db: Db, experienceId: string, startLocal: string): SessionRow | undefined {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.experienceId, experienceId), eq(sessions.startLocal, startLocal)))
    .get();
}

export interface SessionWithWaitlist {
  session: SessionRow;
  waitlistId: string | null;
}

/**
 * Sessions of an experience whose local start is in [`fromLocal`, `beforeLocal`), by start, with the
 * experience's waitlist id: one statement, one range of the (experience_id, start_local) index.
 * Local starts compare correctly as strings because they all have the same fixed-width shape.
 */
export function sessionsInRange(db: Db, experienceId: string, fromLocal: string, beforeLocal: string): SessionWithWaitlist[] {
  return db
    .select({ session: sessions, waitlistId: waitlists.id })
    .from(sessions)
    .leftJoin(waitlists, eq(waitlists.experienceId, sessions.experienceId))
    .where(and(eq(sessions.experienceId, experienceId), gte(sessions.startLocal, fromLocal), lt(sessions.startLocal, beforeLocal)))
    .orderBy(asc(sessions.startLocal))
    .all();
}
