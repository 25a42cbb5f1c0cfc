import { and, eq, inArray, sql } from 'drizzle-orm';
import type { BookingStatus } from '../../../../domain/shared/values.ts';
import type { BookingToCancel, CancellableBooking, CancellationStore } from '../../../../domain/cancellation/store.ts';
import type { RefundEffectJson } from '../../../../domain/shared/json-types.ts';
import { bookings, experiences, participants, paymentIntents, refunds, sessions, waitlists } from '../../schema/index.ts';
import { recordColumns } from '../bookings/bookings.ts';
import { lockInUnit, preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';

/** What cancelling and refunding one booking needs: its row and the state of its payment. */
const cancellableColumns = {
  id: bookings.id,
  brandId: bookings.brandId,
  sessionId: bookings.sessionId,
  status: bookings.status,
  currency: bookings.currency,
  amountMinor: bookings.amountMinor,
  amountRefundedMinor: bookings.amountRefundedMinor,
  paymentMethod: bookings.paymentMethod,
  publishableHold: bookings.publishableHold,
  intentReference: paymentIntents.processorReference,
  intentStatus: paymentIntents.status,
};

const cancellable = (db: PgExecutor) =>
  db.select(cancellableColumns).from(bookings).leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId));

const bookingToCancel = preparedPerExecutor((db) =>
  db
    .select({
      booking: cancellableColumns,
      pendingRefunds: sql<number>`(SELECT count(*)::integer FROM refunds r WHERE r.booking_id = ${bookings.id} AND r.status = 'pending')`,
      row: bookings,
      ...recordColumns,
      session: sessions,
      waitlistId: waitlists.id,
    })
    .from(bookings)
    .leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId))
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .leftJoin(waitlists, eq(waitlists.experienceId, bookings.experienceId))
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare('booking_to_cancel'),
);

/**
 * Locked first (in a unit of work), then read in one named statement, its refunds, participants and the
 * rest of its view's record beside it.
 */
export async function findBookingToCancel(db: PgExecutor, id: string): Promise<BookingToCancel | undefined> {
  if (!(await lockInUnit(db, bookings, eq(bookings.id, id)))) return undefined;
  const [found] = await bookingToCancel(db).execute({ id });
  if (!found) return undefined;
  const { booking, pendingRefunds, row, experienceTitle, timezone, startLocal, participants, answers, session, waitlistId } = found;
  return {
    booking,
    pendingRefunds,
    session: { session, waitlistId },
    participants: participants.map((p) => ({ id: p.id, cancelledAt: p.cancelledAt })),
    record: { booking: row, experienceTitle, timezone, startLocal, participants, answers },
  };
}

export async function findCancellableBookings(db: PgExecutor, ids: readonly string[]): Promise<Map<string, CancellableBooking>> {
  if (ids.length === 0) return new Map();
  const rows = await cancellable(db).where(inArray(bookings.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row]));
}

/** One statement: the participants' UPDATE is a CTE of the booking's. */
export async function cancelParticipants(
  db: PgExecutor,
  bookingId: string,
  ids: readonly string[],
  status: BookingStatus | null,
  at: string,
): Promise<void> {
  if (ids.length === 0) {
    if (status !== null) await setBookingStatus(db, bookingId, status, at);
    return;
  }
  const set =
    status === null
      ? sql`updated_at = ${at}`
      : status === 'processing'
        ? sql`status = ${status}, updated_at = ${at}`
        : sql`status = ${status}, updated_at = ${at}, hold_expires_at = NULL`;
  await db.execute(sql`
    WITH cancelled AS (
      UPDATE ${participants} SET cancelled_at = ${at}
      WHERE booking_id = ${bookingId} AND id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) AND cancelled_at IS NULL
    )
    UPDATE ${bookings} SET ${set} WHERE id = ${bookingId}`);
}

export async function setBookingStatus(db: PgExecutor, id: string, status: BookingStatus, at: string): Promise<void> {
  await db
    .update(bookings)
    .set(status === 'processing' ? { status, updatedAt: at } : { status, updatedAt: at, holdExpiresAt: null })
    .where(eq(bookings.id, id));
}

/**
 * Racing reservations, on any gateway, wait for the row lock of the UPDATE before them and re-check the total
 * it left.
 */
export async function reserveRefundAmount(db: PgExecutor, bookingId: string, amountMinor: number, at: string): Promise<boolean> {
  const result = await db
    .update(bookings)
    .set({ amountRefundedMinor: sql`${bookings.amountRefundedMinor} + ${amountMinor}`, updatedAt: at })
    .where(and(eq(bookings.id, bookingId), sql`${bookings.amountRefundedMinor} + ${amountMinor} <= ${bookings.amountMinor}`));
  return result.rowCount === 1;
}

/**
 * reserveRefundAmount's guarded UPDATE as a data-modifying CTE, the refund's INSERT reading the row it
 * returned: one named statement, inserting only when the UPDATE matched (the guard passed).
 */
const reserveWithRefund = preparedPerExecutor((db) => {
  const reserved = db.$with('reserved').as(
    db
      .update(bookings)
      .set({
        amountRefundedMinor: sql`${bookings.amountRefundedMinor} + ${sql.placeholder('amount')}::integer`,
        updatedAt: sql`${sql.placeholder('at')}::timestamptz`,
      })
      .where(
        and(
          eq(bookings.id, sql.placeholder('bookingId')),
          sql`${bookings.amountRefundedMinor} + ${sql.placeholder('amount')}::integer <= ${bookings.amountMinor}`,
        ),
      )
      .returning({ bookingId: bookings.id }),
  );
  return db
    .with(reserved)
    .insert(refunds)
    .select(
      db
        .select({
          id: sql`${sql.placeholder('id')}::text`.as('id'),
          bookingId: reserved.bookingId,
          amountMinor: sql`${sql.placeholder('amount')}::integer`.as('amount_minor'),
          status: sql`'pending'`.as('status'),
          processorReference: sql`NULL::text`.as('processor_reference'),
          effect: sql`${sql.placeholder('effect')}::json`.as('effect'),
          attempts: sql`0`.as('attempts'),
          nextAttemptAt: sql`${sql.placeholder('at')}::timestamptz`.as('next_attempt_at'),
          lastError: sql`NULL::text`.as('last_error'),
          createdAt: sql`${sql.placeholder('at')}::timestamptz`.as('created_at'),
          updatedAt: sql`${sql.placeholder('at')}::timestamptz`.as('updated_at'),
        })
        .from(reserved),
    )
    .prepare('reserve_pending_refund');
});

export async function reservePendingRefund(
  db: PgExecutor,
  refund: { id: string; bookingId: string; amountMinor: number; effect: RefundEffectJson; at: string },
): Promise<boolean> {
  const result = await reserveWithRefund(db).execute({
    id: refund.id,
    bookingId: refund.bookingId,
    amount: refund.amountMinor,
    effect: JSON.stringify(refund.effect),
    at: refund.at,
  });
  return result.rowCount === 1;
}

export async function releaseRefundAmount(db: PgExecutor, bookingId: string, amountMinor: number, at: string): Promise<void> {
  await db
    .update(bookings)
    .set({ amountRefundedMinor: sql`${bookings.amountRefundedMinor} - ${amountMinor}`, updatedAt: at })
    .where(eq(bookings.id, bookingId));
}

export const cancellationStore = {
  findBookingToCancel,
  findCancellableBookings,
  cancelParticipants,
  setBookingStatus,
  reserveRefundAmount,
  reservePendingRefund,
  releaseRefundAmount,
} satisfies PostgresStore<CancellationStore>;
