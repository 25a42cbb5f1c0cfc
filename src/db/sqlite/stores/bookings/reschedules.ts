import { asc, eq, sql } from 'drizzle-orm';
import type { ReschedulableBooking, RescheduleRecord, ReschedulesStore } from '../../../../domain/bookings/store.ts';
import type { Db } from '../../client.ts';
import { idList, inIdList, placeholders, preparedPerDb, setTo } from '../../prepared.ts';
import { bookingReschedules, bookings } from '../../schema/index.ts';
import type { SqliteStore } from '../../store-binding.ts';

const reschedulable = preparedPerDb((db) =>
  db
    .select({
      id: bookings.id,
      brandId: bookings.brandId,
      status: bookings.status,
      experienceId: bookings.experienceId,
      sessionId: bookings.sessionId,
      sessionStartLocal: bookings.sessionStartLocal,
      publishableHold: bookings.publishableHold,
      paymentMethod: bookings.paymentMethod,
      // Correlated subqueries written out: Drizzle leaves columns unqualified in a one-table select.
      activeParticipants: sql<number>`(SELECT count(*) FROM participants p WHERE p.booking_id = bookings.id AND p.cancelled_at IS NULL)`,
      reschedules: sql<number>`(SELECT count(*) FROM booking_reschedules r WHERE r.booking_id = bookings.id)`,
    })
    .from(bookings)
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare(),
);

export function findReschedulable(db: Db, bookingId: string): ReschedulableBooking | undefined {
  return reschedulable(db).get({ id: bookingId });
}

const move = preparedPerDb((db) =>
  db
    .update(bookings)
    .set({ sessionId: setTo('sessionId'), sessionStartLocal: setTo('startLocal'), updatedAt: setTo('at'), publishableHold: false })
    .where(eq(bookings.id, sql.placeholder('bookingId')))
    .prepare(),
);

export function moveBooking(db: Db, bookingId: string, to: { sessionId: string; startLocal: string }, at: string): void {
  move(db).run({ bookingId, sessionId: to.sessionId, startLocal: to.startLocal, at });
}

const insert = preparedPerDb((db) =>
  db
    .insert(bookingReschedules)
    .values(placeholders('id', 'bookingId', 'sequence', 'fromSessionId', 'fromStartLocal', 'toSessionId', 'toStartLocal', 'apiKeyId', 'at'))
    .prepare(),
);

export function recordReschedule(db: Db, row: RescheduleRecord): void {
  insert(db).run({ ...row });
}

const ofBookings = preparedPerDb((db) =>
  db
    .select()
    .from(bookingReschedules)
    .where(inIdList(bookingReschedules.bookingId, 'ids'))
    .orderBy(asc(bookingReschedules.bookingId), asc(bookingReschedules.sequence))
    .prepare(),
);

export function reschedulesOfBookings(db: Db, bookingIds: readonly string[]): RescheduleRecord[] {
  return ofBookings(db).all({ ids: idList(bookingIds) });
}

export const reschedulesStore = {
  findReschedulable,
  moveBooking,
  recordReschedule,
  reschedulesOfBookings,
} satisfies SqliteStore<ReschedulesStore>;
