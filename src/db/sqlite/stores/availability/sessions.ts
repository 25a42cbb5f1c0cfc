import { and, asc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import { experiences, sessions, waitlists } from '../../schema/index.ts';
import type { SessionOfExperience, SessionRow, SessionWithWaitlist, SessionsStore } from '../../../../domain/availability/store.ts';
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
        isNull(sessions.cancelledAt),
      ),
    )
    .orderBy(asc(sessions.startLocal))
    .prepare(),
);

export function sessionsInRange(db: Db, experienceId: string, fromLocal: string, beforeLocal: string): SessionWithWaitlist[] {
  return sessionsBetween(db).all({ experienceId, fromLocal, beforeLocal });
}

const sessionsWithIds = preparedPerDb((db) =>
  db
    .select({ session: sessions, waitlistId: waitlists.id, brandId: experiences.brandId, timezoneId: experiences.timezoneId })
    .from(sessions)
    .innerJoin(experiences, eq(experiences.id, sessions.experienceId))
    .leftJoin(waitlists, eq(waitlists.experienceId, sessions.experienceId))
    .where(inIdList(sessions.id, 'ids'))
    .prepare(),
);

export function findSessionsByIds(db: Db, ids: readonly string[]): SessionOfExperience[] {
  return ids.length === 0 ? [] : sessionsWithIds(db).all({ ids: idList(ids) });
}

export const sessionsStore = {
  findSessionAt,
  sessionsInRange,
  findSessionsByIds,
} satisfies SqliteStore<SessionsStore>;
