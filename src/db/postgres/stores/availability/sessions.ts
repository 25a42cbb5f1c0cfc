import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { SessionRow, SessionsStore, SessionWithWaitlist } from '../../../../domain/availability/store.ts';
import { sessions, waitlists } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';

/** The session of an experience starting at `startLocal` (`YYYY-MM-DDTHH:MM:SS`, the experience's zone). */
export async function findSessionAt(db: PgExecutor, experienceId: string, startLocal: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.experienceId, experienceId), eq(sessions.startLocal, startLocal)));
  return row;
}

/**
 * Sessions of an experience whose local start is in [`fromLocal`, `beforeLocal`), by start, with the
 * experience's waitlist id: one range of the (experience_id, start_local) index. Local starts compare
 * correctly as text in any collation: they all have the same fixed-width shape and differ only in digits.
 */
export async function sessionsInRange(
  db: PgExecutor,
  experienceId: string,
  fromLocal: string,
  beforeLocal: string,
): Promise<SessionWithWaitlist[]> {
  return db
    .select({ session: sessions, waitlistId: waitlists.id })
    .from(sessions)
    .leftJoin(waitlists, eq(waitlists.experienceId, sessions.experienceId))
    .where(and(eq(sessions.experienceId, experienceId), gte(sessions.startLocal, fromLocal), lt(sessions.startLocal, beforeLocal)))
    .orderBy(asc(sessions.startLocal));
}

export const sessionsStore = {
  findSessionAt,
  sessionsInRange,
} satisfies PostgresStore<SessionsStore>;
