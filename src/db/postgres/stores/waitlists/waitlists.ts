import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { SessionRow } from '../../../../domain/availability/store.ts';
import type { EntryExtra, EntryWithContext, WaitlistEntryStatus, WaitlistRow, WaitlistsStore } from '../../../../domain/waitlists/store.ts';
import { bookings, experiences, sessions, waitlistEntries, waitlists } from '../../schema/index.ts';
import { lockInUnit, preparedPerExecutor, readOwned, type PgExecutor, type PostgresStore } from '../../store-binding.ts';

export async function findWaitlistRow(db: PgExecutor, id: string): Promise<WaitlistRow | undefined> {
  const [row] = await db
    .select({ id: waitlists.id, experienceId: waitlists.experienceId, brandId: experiences.brandId })
    .from(waitlists)
    .innerJoin(experiences, eq(experiences.id, waitlists.experienceId))
    .where(eq(waitlists.id, id));
  return row;
}

export async function findSessionById(db: PgExecutor, id: string): Promise<SessionRow | undefined> {
  const [row] = await readOwned(db, db.select().from(sessions).where(eq(sessions.id, id)));
  return row;
}

const withContext = (db: PgExecutor) =>
  db
    .select({ entry: waitlistEntries, startLocal: sessions.startLocal, timezone: experiences.timezoneId })
    .from(waitlistEntries)
    .innerJoin(sessions, eq(sessions.id, waitlistEntries.sessionId))
    .innerJoin(experiences, eq(experiences.id, sessions.experienceId));

export async function findEntryWithContext(db: PgExecutor, id: string): Promise<EntryWithContext | undefined> {
  if (!(await lockInUnit(db, waitlistEntries, eq(waitlistEntries.id, id)))) return undefined;
  const [row] = await withContext(db).where(eq(waitlistEntries.id, id));
  return row;
}

/** Local starts compare the same in any collation (one fixed-width shape, differing only in digits). */
export async function entriesOfWaitlist(
  db: PgExecutor,
  waitlistId: string,
  filter: { sessionId?: string | undefined; statuses?: readonly WaitlistEntryStatus[] | undefined },
): Promise<EntryWithContext[]> {
  return withContext(db)
    .where(
      and(
        eq(waitlistEntries.waitlistId, waitlistId),
        filter.sessionId === undefined ? undefined : eq(waitlistEntries.sessionId, filter.sessionId),
        filter.statuses === undefined ? undefined : inArray(waitlistEntries.status, [...filter.statuses]),
      ),
    )
    .orderBy(asc(sessions.startLocal), asc(waitlistEntries.position));
}

const waitingEntries = preparedPerExecutor((db) =>
  db
    .select({ id: waitlistEntries.id, partySize: waitlistEntries.partySize })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.sessionId, sql.placeholder('sessionId')), eq(waitlistEntries.status, 'waiting')))
    .orderBy(asc(waitlistEntries.position))
    .prepare('waiting_entries_of_session'),
);

/** One named statement: every release of places (a cancel among them) asks it. */
export async function waitingEntriesOfSession(db: PgExecutor, sessionId: string): Promise<Array<{ id: string; partySize: number }>> {
  return waitingEntries(db).execute({ sessionId });
}

/** The session is locked first (in a unit of work), so racing joiners take positions in turn. */
export async function nextPosition(db: PgExecutor, sessionId: string): Promise<number> {
  await lockInUnit(db, sessions, eq(sessions.id, sessionId));
  const [last] = await db
    .select({ position: waitlistEntries.position })
    .from(waitlistEntries)
    .where(eq(waitlistEntries.sessionId, sessionId))
    .orderBy(desc(waitlistEntries.position))
    .limit(1);
  return (last?.position ?? 0) + 1;
}

/**
 * ON CONFLICT on the live-entry index alone, rather than catching the violation as SQLite does: a failed statement
 * would abort the caller's whole PostgreSQL transaction. Any other conflict still throws. The predicate is
 * literal SQL, as PostgreSQL matches it against the index's own to pick the arbiter.
 */
export async function insertEntry(db: PgExecutor, row: Parameters<WaitlistsStore['insertEntry']>[0]): Promise<boolean> {
  const result = await db
    .insert(waitlistEntries)
    .values(row)
    .onConflictDoNothing({
      target: [waitlistEntries.sessionId, waitlistEntries.purchaserEmailKey],
      where: sql`status IN ('waiting', 'offered')`,
    });
  return result.rowCount === 1;
}

/** The sum of a client's live entries' parties (one range of the hold client index, then their sessions). */
export async function clientWaitlistPlaces(db: PgExecutor, brandId: string, client: string, at: string): Promise<number> {
  const [row] = await db
    .select({ places: sql<number>`coalesce(sum(${waitlistEntries.partySize}), 0)::int` })
    .from(waitlistEntries)
    .innerJoin(sessions, eq(sessions.id, waitlistEntries.sessionId))
    .where(
      and(
        eq(waitlistEntries.brandId, brandId),
        eq(waitlistEntries.holdClient, client),
        sql`(${waitlistEntries.status} = 'waiting' OR (${waitlistEntries.status} = 'offered' AND ${waitlistEntries.offerExpiresAt} > ${at}::timestamptz))`,
        sql`${sessions.startsAt} > ${at}::timestamptz`,
      ),
    );
  return row?.places ?? 0;
}

/**
 * One conditional UPDATE: of racing moves (an offer converted while it expires), the later waits for the
 * earlier's row lock and then finds the entry in a status it does not move from.
 */
export async function setEntryStatus(
  db: PgExecutor,
  id: string,
  from: readonly WaitlistEntryStatus[],
  to: WaitlistEntryStatus,
  at: string,
  extra: EntryExtra = {},
): Promise<boolean> {
  // As on SQLite, a field given as undefined is left as it is.
  const fields = Object.fromEntries(Object.entries(extra).filter(([, value]) => value !== undefined)) as EntryExtra;
  const result = await db
    .update(waitlistEntries)
    .set({ ...fields, status: to, updatedAt: at })
    .where(and(eq(waitlistEntries.id, id), inArray(waitlistEntries.status, [...from])));
  return result.rowCount === 1;
}

/** `offered` entries whose offer ran out at or before `at` (one range of the offer expiry index). */
export async function dueOffers(db: PgExecutor, at: string): Promise<Array<{ id: string; sessionId: string; partySize: number }>> {
  return db
    .select({ id: waitlistEntries.id, sessionId: waitlistEntries.sessionId, partySize: waitlistEntries.partySize })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.status, 'offered'), lte(waitlistEntries.offerExpiresAt, at)))
    .orderBy(asc(waitlistEntries.offerExpiresAt), asc(waitlistEntries.position));
}

/**
 * Check and write are one statement, as `takePlaces`: racing holds and takes wait for each other's row lock
 * and re-check; the table's CHECK (reserved + held_for_offers <= capacity) backs it.
 */
export async function holdForOffer(db: PgExecutor, sessionId: string, count: number): Promise<boolean> {
  const result = await db
    .update(sessions)
    .set({ heldForOffers: sql`${sessions.heldForOffers} + ${count}` })
    .where(and(eq(sessions.id, sessionId), sql`${sessions.reserved} + ${sessions.heldForOffers} + ${count} <= ${sessions.capacity}`));
  return result.rowCount === 1;
}

export async function releaseOfferHold(db: PgExecutor, sessionId: string, count: number): Promise<void> {
  if (count === 0) return;
  await db
    .update(sessions)
    .set({ heldForOffers: sql`${sessions.heldForOffers} - ${count}` })
    .where(eq(sessions.id, sessionId));
}

export async function takeHeldPlaces(db: PgExecutor, sessionId: string, held: number, taken: number): Promise<void> {
  await db
    .update(sessions)
    .set({ heldForOffers: sql`${sessions.heldForOffers} - ${held}`, reserved: sql`${sessions.reserved} + ${taken}` })
    .where(eq(sessions.id, sessionId));
}

export async function findBookingHold(
  db: PgExecutor,
  id: string,
): Promise<{ cartId: string | null; status: string; holdExpiresAt: string | null } | undefined> {
  const [row] = await db
    .select({ cartId: bookings.cartId, status: bookings.status, holdExpiresAt: bookings.holdExpiresAt })
    .from(bookings)
    .where(eq(bookings.id, id));
  return row;
}

export const waitlistsStore = {
  findWaitlistRow,
  findSessionById,
  findEntryWithContext,
  entriesOfWaitlist,
  waitingEntriesOfSession,
  nextPosition,
  insertEntry,
  clientWaitlistPlaces,
  setEntryStatus,
  dueOffers,
  holdForOffer,
  releaseOfferHold,
  takeHeldPlaces,
  findBookingHold,
} satisfies PostgresStore<WaitlistsStore>;
