import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import { answers, bookings, experiences, participants, sessions } from '../../schema/index.ts';
import type {
  AnswerRow,
  BookingFilter,
  BookingKey,
  BookingRecord,
  BookingsStore,
  ParticipantRow,
} from '../../../../domain/bookings/store.ts';
import type { SqliteStore } from '../../store-binding.ts';
import { groupBy } from '../../../../domain/shared/group-by.ts';

const bookingsWithContext = preparedPerDb((db) =>
  db
    .select({
      booking: bookings,
      experienceTitle: experiences.title,
      timezone: experiences.timezoneId,
      startLocal: sessions.startLocal,
    })
    .from(bookings)
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .where(inIdList(bookings.id, 'ids'))
    .orderBy(asc(bookings.id))
    .prepare(),
);

const participantsOf = preparedPerDb((db) =>
  db
    .select()
    .from(participants)
    .where(inIdList(participants.bookingId, 'ids'))
    .orderBy(asc(participants.bookingId), asc(participants.position))
    .prepare(),
);

const answersOf = preparedPerDb((db) =>
  db.select().from(answers).where(inIdList(answers.bookingId, 'ids')).orderBy(asc(answers.bookingId), asc(answers.position)).prepare(),
);

/** Three prepared statements over the sorted id list; the rows grouped here. */
export function findBookingRecords(db: Db, ids: readonly string[]): BookingRecord[] {
  if (ids.length === 0) return [];
  const list = { ids: idList(ids) };
  const participantsByBooking = groupBy<ParticipantRow>(participantsOf(db).all(list), (p) => p.bookingId);
  const answersByBooking = groupBy<AnswerRow>(answersOf(db).all(list), (a) => a.bookingId);
  return bookingsWithContext(db)
    .all(list)
    .map((row) => ({
      ...row,
      participants: participantsByBooking.get(row.booking.id) ?? [],
      answers: answersByBooking.get(row.booking.id) ?? [],
    }));
}

function filterWhere(filter: BookingFilter): SQL | undefined {
  return and(
    eq(bookings.brandId, filter.brandId),
    filter.status ? eq(bookings.status, filter.status) : undefined,
    filter.startFrom ? gte(bookings.sessionStartLocal, filter.startFrom) : undefined,
    filter.startBefore ? lt(bookings.sessionStartLocal, filter.startBefore) : undefined,
  );
}

const olderThan = (key: BookingKey) => sql`(${bookings.createdAt}, ${bookings.id}) < (${key.createdAt}, ${key.id})`;

/**
 * The ids of up to `limit` bookings older than `after` (from the newest without it), newest first: a
 * seek on (brand_id, created_at, id), so inserts while a client pages never shift what it sees next.
 * Returned unexecuted so tests can EXPLAIN it.
 */
export function bookingPageQuery(db: Db, filter: BookingFilter, after: BookingKey | null, limit: number) {
  return db
    .select({ id: bookings.id, createdAt: bookings.createdAt })
    .from(bookings)
    .where(and(filterWhere(filter), after ? olderThan(after) : undefined))
    .orderBy(desc(bookings.createdAt), desc(bookings.id))
    .limit(limit);
}

export function findBookingPage(db: Db, filter: BookingFilter, after: BookingKey | null, limit: number): BookingKey[] {
  return bookingPageQuery(db, filter, after, limit).all();
}

export function countBookings(db: Db, filter: BookingFilter, after: BookingKey | null): { total: number; before: number } {
  const before = after ? sql<number>`coalesce(sum(CASE WHEN ${olderThan(after)} THEN 0 ELSE 1 END), 0)` : sql<number>`0`;
  const row = db
    .select({ total: sql<number>`count(*)`, before })
    .from(bookings)
    .where(filterWhere(filter))
    .get();
  return { total: row?.total ?? 0, before: row?.before ?? 0 };
}

export const bookingsStore = {
  findBookingRecords,
  findBookingPage,
  countBookings,
} satisfies SqliteStore<BookingsStore>;
