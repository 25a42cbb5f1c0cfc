import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { ReschedulableBooking, RescheduleRecord, ReschedulesStore } from '../../../../domain/bookings/store.ts';
import { bookingReschedules, bookings } from '../../schema/index.ts';
import { lockInUnit, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { inByteOrder } from '../sql-parts.ts';

export async function findReschedulable(db: PgExecutor, bookingId: string): Promise<ReschedulableBooking | undefined> {
  if (!(await lockInUnit(db, bookings, eq(bookings.id, bookingId)))) return undefined;
  const [row] = await db
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
      activeParticipants: sql<number>`(SELECT count(*)::integer FROM participants p WHERE p.booking_id = "bookings"."id" AND p.cancelled_at IS NULL)`,
      reschedules: sql<number>`(SELECT count(*)::integer FROM booking_reschedules r WHERE r.booking_id = "bookings"."id")`,
    })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  return row;
}

export async function moveBooking(
  db: PgExecutor,
  bookingId: string,
  to: { sessionId: string; startLocal: string },
  at: string,
): Promise<void> {
  await db
    .update(bookings)
    .set({ sessionId: to.sessionId, sessionStartLocal: to.startLocal, updatedAt: at, publishableHold: false })
    .where(eq(bookings.id, bookingId));
}

export async function recordReschedule(db: PgExecutor, row: RescheduleRecord): Promise<void> {
  await db.insert(bookingReschedules).values({ ...row });
}

/** The moves of each booking, in order (bookings by id, compared by their bytes as on SQLite). */
export async function reschedulesOfBookings(db: PgExecutor, bookingIds: readonly string[]): Promise<RescheduleRecord[]> {
  if (bookingIds.length === 0) return [];
  return db
    .select()
    .from(bookingReschedules)
    .where(inArray(bookingReschedules.bookingId, [...bookingIds]))
    .orderBy(asc(inByteOrder(bookingReschedules.bookingId)), asc(bookingReschedules.sequence));
}

export const reschedulesStore = {
  findReschedulable,
  moveBooking,
  recordReschedule,
  reschedulesOfBookings,
} satisfies PostgresStore<ReschedulesStore>;
