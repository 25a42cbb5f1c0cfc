import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb, setTo } from '../../prepared.ts';
import { bookings, experiences, sessions, waitlistEntries, waitlists } from '../../schema/index.ts';
import type { SessionRow } from '../../../../domain/availability/store.ts';
import type {
  EntryWithContext,
  WaitlistEntryRow,
  WaitlistEntryStatus,
  WaitlistRow,
  WaitlistsStore,
} from '../../../../domain/waitlists/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

export function findWaitlistRow(db: Db, id: string): WaitlistRow | undefined {
  return db
    .select({ id: waitlists.id, experienceId: waitlists.experienceId, brandId: experiences.brandId })
    .from(waitlists)
    .innerJoin(experiences, eq(experiences.id, waitlists.experienceId))
    .where(eq(waitlists.id, id))
    .get();
}

// Freed places look at the session and its line every time (each cancellation): both prepared once.
const sessionById = preparedPerDb((db) =>
  db
    .select()
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare(),
);

export function findSessionById(db: Db, id: string): SessionRow | undefined {
  return sessionById(db).get({ id });
}

const withContext = (db: Db) =>
  db
    .select({ entry: waitlistEntries, startLocal: sessions.startLocal, timezone: experiences.timezoneId })
    .from(waitlistEntries)
    .innerJoin(sessions, eq(sessions.id, waitlistEntries.sessionId))
    .innerJoin(experiences, eq(experiences.id, sessions.experienceId));

// Every offer, conversion and expiry records the entry's view: prepared once.
const entryWithContext = preparedPerDb((db) =>
  withContext(db)
    .where(eq(waitlistEntries.id, sql.placeholder('id')))
    .prepare(),
);

export function findEntryWithContext(db: Db, id: string): EntryWithContext | undefined {
  return entryWithContext(db).get({ id });
}

export function entriesOfWaitlist(
  db: Db,
  waitlistId: string,
  filter: { sessionId?: string | undefined; statuses?: readonly WaitlistEntryStatus[] | undefined },
): EntryWithContext[] {
  return withContext(db)
    .where(
      and(
        eq(waitlistEntries.waitlistId, waitlistId),
        filter.sessionId === undefined ? undefined : eq(waitlistEntries.sessionId, filter.sessionId),
        filter.statuses === undefined ? undefined : inArray(waitlistEntries.status, [...filter.statuses]),
      ),
    )
    .orderBy(asc(sessions.startLocal), asc(waitlistEntries.position))
    .all();
}

const waitingEntries = preparedPerDb((db) =>
  db
    .select({ id: waitlistEntries.id, partySize: waitlistEntries.partySize })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.sessionId, sql.placeholder('sessionId')), eq(waitlistEntries.status, 'waiting')))
    .orderBy(asc(waitlistEntries.position))
    .prepare(),
);

export function waitingEntriesOfSession(db: Db, sessionId: string): Array<{ id: string; partySize: number }> {
  return waitingEntries(db).all({ sessionId });
}

export function nextPosition(db: Db, sessionId: string): number {
  const last = db
    .select({ position: waitlistEntries.position })
    .from(waitlistEntries)
    .where(eq(waitlistEntries.sessionId, sessionId))
    .orderBy(desc(waitlistEntries.position))
    .limit(1)
    .get();
  return (last?.position ?? 0) + 1;
}

function isLiveEmailViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE' && e.message.includes('purchaser_email_key')) return true;
  }
  return false;
}

export function insertEntry(db: Db, row: typeof waitlistEntries.$inferInsert): boolean {
  try {
    db.insert(waitlistEntries).values(row).run();
    return true;
  } catch (error) {
    if (isLiveEmailViolation(error)) return false;
    throw error;
  }
}

const clientPlaces = preparedPerDb((db) =>
  db
    .select({ places: sql<number>`coalesce(sum(${waitlistEntries.partySize}), 0)` })
    .from(waitlistEntries)
    .innerJoin(sessions, eq(sessions.id, waitlistEntries.sessionId))
    .where(
      and(
        eq(waitlistEntries.brandId, sql.placeholder('brandId')),
        eq(waitlistEntries.holdClient, sql.placeholder('client')),
        sql`(${waitlistEntries.status} = 'waiting' OR (${waitlistEntries.status} = 'offered' AND ${waitlistEntries.offerExpiresAt} > ${sql.placeholder('at')}))`,
        sql`${sessions.startsAt} > ${sql.placeholder('at')}`,
      ),
    )
    .prepare(),
);

export function clientWaitlistPlaces(db: Db, brandId: string, client: string, at: string): number {
  return clientPlaces(db).get({ brandId, client, at })?.places ?? 0;
}

type EntryExtra = Partial<Pick<WaitlistEntryRow, 'offeredAt' | 'offerExpiresAt' | 'convertedBookingId'>>;

// Offers, expiries, conversions and departures move entries, each with its own fixed fields: one
// prepared statement per set of fields, the statuses moved from bound as one JSON list.
const entryStatusUpdate = (fields: ReadonlyArray<keyof EntryExtra>) =>
  preparedPerDb((db) =>
    db
      .update(waitlistEntries)
      .set({ status: setTo('to'), updatedAt: setTo('at'), ...Object.fromEntries(fields.map((field) => [field, setTo(field)])) })
      .where(and(eq(waitlistEntries.id, sql.placeholder('id')), inIdList(waitlistEntries.status, 'from')))
      .prepare(),
  );
const entryStatusUpdates = new Map<string, ReturnType<typeof entryStatusUpdate>>();

export function setEntryStatus(
  db: Db,
  id: string,
  from: readonly WaitlistEntryStatus[],
  to: WaitlistEntryStatus,
  at: string,
  extra: EntryExtra = {},
): boolean {
  // As Drizzle's `set` did, a field given as undefined is left as it is.
  const fields = (Object.keys(extra) as Array<keyof EntryExtra>).filter((field) => extra[field] !== undefined).sort();
  const shape = fields.join();
  let update = entryStatusUpdates.get(shape);
  if (!update) entryStatusUpdates.set(shape, (update = entryStatusUpdate(fields)));
  return update(db).run({ ...extra, id, from: idList(from), to, at }).changes === 1;
}

const due = preparedPerDb((db) =>
  db
    .select({ id: waitlistEntries.id, sessionId: waitlistEntries.sessionId, partySize: waitlistEntries.partySize })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.status, 'offered'), lte(waitlistEntries.offerExpiresAt, sql.placeholder('at'))))
    .orderBy(asc(waitlistEntries.offerExpiresAt), asc(waitlistEntries.position))
    .prepare(),
);

export function dueOffers(db: Db, at: string): Array<{ id: string; sessionId: string; partySize: number }> {
  return due(db).all({ at });
}

const hold = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({ heldForOffers: sql`${sessions.heldForOffers} + ${sql.placeholder('count')}` })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        sql`${sessions.reserved} + ${sessions.heldForOffers} + ${sql.placeholder('count')} <= ${sessions.capacity}`,
      ),
    )
    .prepare(),
);

export function holdForOffer(db: Db, sessionId: string, count: number): boolean {
  return hold(db).run({ sessionId, count }).changes === 1;
}

const releaseHold = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({ heldForOffers: sql`${sessions.heldForOffers} - ${sql.placeholder('count')}` })
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare(),
);

export function releaseOfferHold(db: Db, sessionId: string, count: number): void {
  if (count === 0) return;
  releaseHold(db).run({ sessionId, count });
}

const takeHeld = preparedPerDb((db) =>
  db
    .update(sessions)
    .set({
      heldForOffers: sql`${sessions.heldForOffers} - ${sql.placeholder('held')}`,
      reserved: sql`${sessions.reserved} + ${sql.placeholder('taken')}`,
    })
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare(),
);

export function takeHeldPlaces(db: Db, sessionId: string, held: number, taken: number): void {
  takeHeld(db).run({ sessionId, held, taken });
}

const bookingHold = preparedPerDb((db) =>
  db
    .select({ cartId: bookings.cartId, status: bookings.status, holdExpiresAt: bookings.holdExpiresAt })
    .from(bookings)
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare(),
);

export function findBookingHold(db: Db, id: string): { cartId: string | null; status: string; holdExpiresAt: string | null } | undefined {
  return bookingHold(db).get({ id });
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
} satisfies SqliteStore<WaitlistsStore>;
