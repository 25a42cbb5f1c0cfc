import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type {
  AnswerRow,
  BookingFilter,
  BookingKey,
  BookingRecord,
  BookingsStore,
  ParticipantRow,
} from '../../../../domain/bookings/store.ts';
import { bookings, experiences, sessions } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { anyOfPlaceholder, inByteOrder, isoText, jsonRows } from '../sql-parts.ts';

/**
 * A booking record's columns beside its row (`booking: bookings`), over `bookings` joined to its experience
 * and session: also read by the cancellation unit's locked read (stores/cancellation).
 */
export const recordColumns = {
  experienceTitle: experiences.title,
  timezone: experiences.timezoneId,
  startLocal: sessions.startLocal,
  participants: jsonRows<ParticipantRow>(sql`
    SELECT json_agg(json_build_object('id', p.id, 'bookingId', p.booking_id, 'position', p.position,
      'firstName', p.first_name, 'lastName', p.last_name, 'emailAddress', p.email_address,
      'phoneNumber', p.phone_number, 'priceTierName', p.price_tier_name, 'priceMinor', p.price_minor,
      'cancelledAt', ${isoText('p.cancelled_at')}) ORDER BY p.position)
    FROM participants p WHERE p.booking_id = ${bookings.id}`),
  answers: jsonRows<AnswerRow>(sql`
    SELECT json_agg(json_build_object('id', a.id, 'bookingId', a.booking_id, 'participantId', a.participant_id,
      'question', a.question, 'answer', a.answer, 'position', a.position) ORDER BY a.position)
    FROM answers a WHERE a.booking_id = ${bookings.id}`),
};

const bookingRecords = preparedPerExecutor((db) =>
  db
    .select({
      booking: bookings,
      ...recordColumns,
    })
    .from(bookings)
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .where(anyOfPlaceholder(bookings.id, 'ids'))
    .orderBy(asc(inByteOrder(bookings.id)))
    .prepare('booking_records'),
);

/**
 * The bookings with their session's start, experience's title and zone, and per booking one JSON array
 * each of its participants and answers (JSON columns embedded as written, keys in their order), in one
 * named statement, by id in byte order (as SQLite reads them, through its sorted list of the ids).
 */
export async function findBookingRecords(db: PgExecutor, ids: readonly string[]): Promise<BookingRecord[]> {
  if (ids.length === 0) return [];
  return bookingRecords(db).execute({ ids: [...ids] });
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
  sql`(${bookings.createdAt}, ${inByteOrder(bookings.id)}) < (${key.createdAt}::timestamptz, ${key.id}::text)`;

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
    .orderBy(desc(bookings.createdAt), desc(inByteOrder(bookings.id)))
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
  findBookingRecords,
  findBookingPage,
  countBookings,
} satisfies PostgresStore<BookingsStore>;
