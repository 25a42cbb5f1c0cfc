import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type {
  AnswerRow,
  BookingFilter,
  BookingKey,
  BookingsStore,
  BookingWithContext,
  ParticipantRow,
} from '../../../../domain/bookings/store.ts';
import { answers, bookings, experiences, participants, sessions } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { bytewise } from '../checkout/checkout.ts';

/**
 * Bookings with what their view needs from the session and experience, in one statement, by id (as
 * SQLite reads them, through its sorted list of the ids asked for).
 */
export async function findBookingsWithContext(db: PgExecutor, ids: readonly string[]): Promise<BookingWithContext[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      booking: bookings,
      experienceTitle: experiences.title,
      timezone: experiences.timezoneId,
      startLocal: sessions.startLocal,
    })
    .from(bookings)
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .where(inArray(bookings.id, [...ids]))
    .orderBy(asc(bytewise(bookings.id)));
}

export async function participantsOfBookings(db: PgExecutor, bookingIds: readonly string[]): Promise<ParticipantRow[]> {
  if (bookingIds.length === 0) return [];
  return db
    .select()
    .from(participants)
    .where(inArray(participants.bookingId, [...bookingIds]))
    .orderBy(asc(bytewise(participants.bookingId)), asc(participants.position));
}

export async function answersOfBookings(db: PgExecutor, bookingIds: readonly string[]): Promise<AnswerRow[]> {
  if (bookingIds.length === 0) return [];
  return db
    .select()
    .from(answers)
    .where(inArray(answers.bookingId, [...bookingIds]))
    .orderBy(asc(bytewise(answers.bookingId)), asc(answers.position));
}

/**
 * The filter's conditions. Local start times compare correctly as text in any collation: they all have
 * the same fixed-width shape and differ only in digits.
 */
function filterWhere(filter: BookingFilter): SQL | undefined {
  return and(
    eq(bookings.brandId, filter.brandId),
    filter.status ? eq(bookings.status, filter.status) : undefined,
    filter.startFrom ? gte(bookings.sessionStartLocal, filter.startFrom) : undefined,
    filter.startBefore ? lt(bookings.sessionStartLocal, filter.startBefore) : undefined,
  );
}

/** Strictly after `key` in newest-first order; ids compared by their bytes, as on SQLite. */
const olderThan = (key: BookingKey) =>
  sql`(${bookings.createdAt}, ${bytewise(bookings.id)}) < (${key.createdAt}::timestamptz, ${key.id}::text)`;

/**
 * The ids of up to `limit` bookings older than `after` (from the newest without it), newest first: a
 * seek on (brand_id, created_at, id), so inserts while a client pages never shift what it sees next.
 * Ids tie-break by their bytes (`COLLATE "C"`), as on SQLite, in the order and in the cursor alike.
 */
export function bookingPageQuery(db: PgExecutor, filter: BookingFilter, after: BookingKey | null, limit: number) {
  return db
    .select({ id: bookings.id, createdAt: bookings.createdAt })
    .from(bookings)
    .where(and(filterWhere(filter), after ? olderThan(after) : undefined))
    .orderBy(desc(bookings.createdAt), desc(bytewise(bookings.id)))
    .limit(limit);
}

export async function findBookingPage(
  db: PgExecutor,
  filter: BookingFilter,
  after: BookingKey | null,
  limit: number,
): Promise<BookingKey[]> {
  return bookingPageQuery(db, filter, after, limit);
}

export async function countBookings(
  db: PgExecutor,
  filter: BookingFilter,
  after: BookingKey | null,
): Promise<{ total: number; before: number }> {
  const before = after ? sql<number>`coalesce(sum(CASE WHEN ${olderThan(after)} THEN 0 ELSE 1 END), 0)` : sql<number>`0`;
  const [row] = await db
    .select({ total: sql<number>`count(*)`.mapWith(Number), before: before.mapWith(Number) })
    .from(bookings)
    .where(filterWhere(filter));
  return { total: row?.total ?? 0, before: row?.before ?? 0 };
}

export const bookingsStore = {
  findBookingsWithContext,
  participantsOfBookings,
  answersOfBookings,
  findBookingPage,
  countBookings,
} satisfies PostgresStore<BookingsStore>;
