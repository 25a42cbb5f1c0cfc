import { and, asc, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import type { SessionOfExperience, SessionRow, SessionsStore, SessionWithWaitlist } from '../../../../domain/availability/store.ts';
import { experiences, sessions, waitlists } from '../../schema/index.ts';
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
 * experience's waitlist id, cancelled sessions left out: one range of the (experience_id, start_local) index. Local starts compare
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
    .where(
      and(
        eq(sessions.experienceId, experienceId),
        gte(sessions.startLocal, fromLocal),
        lt(sessions.startLocal, beforeLocal),
        isNull(sessions.cancelledAt),
      ),
    )
    .orderBy(asc(sessions.startLocal));
}

/** The sessions with these ids, with their experience's brand, zone and waitlist: one statement. */
export async function findSessionsByIds(db: PgExecutor, ids: readonly string[]): Promise<SessionOfExperience[]> {
  if (ids.length === 0) return [];
  return db
    .select({ session: sessions, waitlistId: waitlists.id, brandId: experiences.brandId, timezoneId: experiences.timezoneId })
    .from(sessions)
    .innerJoin(experiences, eq(experiences.id, sessions.experienceId))
    .leftJoin(waitlists, eq(waitlists.experienceId, sessions.experienceId))
    .where(inArray(sessions.id, [...ids]));
}

export const sessionsStore = {
  findSessionAt,
  sessionsInRange,
  findSessionsByIds,
} satisfies PostgresStore<SessionsStore>;
