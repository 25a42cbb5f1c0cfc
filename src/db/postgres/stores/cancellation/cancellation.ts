import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { BookingStatus } from '../../../../domain/shared/values.ts';
import type { BookingToCancel, CancellableBooking, CancellationStore } from '../../../../domain/cancellation/store.ts';
import type { RefundEffectJson } from '../../../../domain/shared/json-types.ts';
import { bookings, experiences, participants, paymentIntents, refunds, sessions, waitlists } from '../../schema/index.ts';
import { recordColumns } from '../bookings/bookings.ts';
import { anyOfPlaceholder } from '../sql-parts.ts';
import { inUnit, preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';

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

const bookingToCancelColumns = {
  booking: cancellableColumns,
  pendingRefunds: sql<number>`(SELECT count(*)::integer FROM refunds r WHERE r.booking_id = ${bookings.id} AND r.status = 'pending')`,
  row: bookings,
  ...recordColumns,
  session: sessions,
  waitlistId: waitlists.id,
};

const bookingToCancel = preparedPerExecutor((db) =>
  db
    .select(bookingToCancelColumns)
    .from(bookings)
    .leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId))
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .leftJoin(waitlists, eq(waitlists.experienceId, bookings.experienceId))
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare('booking_to_cancel'),
);

/**
 * The same read locking the booking (in a unit of work), with whether the row is the one the statement's
 * snapshot holds (its xmin against the snapshot's own): a locking read that waited for another unit gets
 * the booking as that unit left it, but what it reads from other rows (participants, pending refunds, the
 * intent) as it was when the statement began.
 */
const bookingToCancelLocked = preparedPerExecutor((db) =>
  db
    .select({
      ...bookingToCancelColumns,
      asSnapshot: sql<boolean>`"bookings".xmin = (SELECT b.xmin FROM bookings b WHERE b.id = "bookings"."id")`,
    })
    .from(bookings)
    .leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId))
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .leftJoin(waitlists, eq(waitlists.experienceId, bookings.experienceId))
    .where(eq(bookings.id, sql.placeholder('id')))
    .for('no key update', { of: bookings })
    .prepare('booking_to_cancel_locked'),
);

function toBookingToCancel(found: Awaited<ReturnType<ReturnType<typeof bookingToCancel>['execute']>>[number]): BookingToCancel {
  const { booking, pendingRefunds, row, experienceTitle, timezone, startLocal, participants, answers, session, waitlistId } = found;
  return {
    booking,
    pendingRefunds,
    session: { session, waitlistId },
    participants: participants.map((p) => ({ id: p.id, cancelledAt: p.cancelledAt })),
    record: { booking: row, experienceTitle, timezone, startLocal, participants, answers },
  };
}

/**
 * In a unit of work, locked as it is read: one named statement, its refunds, participants and the rest of
 * its view's record beside it. Every unit that changes what the read takes from other rows writes the
 * booking too (participants cancelled with it; a refund reserved or settled with it: reservePendingRefund,
 * settleRefund; an intent settled with its bookings), so a row newer than the statement's snapshot is the
 * sign that another unit committed while this one waited: only then is the booking, now locked, read again.
 */
export async function findBookingToCancel(db: PgExecutor, id: string): Promise<BookingToCancel | undefined> {
  if (!inUnit(db)) {
    const [found] = await bookingToCancel(db).execute({ id });
    return found && toBookingToCancel(found);
  }
  const [locked] = await bookingToCancelLocked(db).execute({ id });
  if (!locked) return undefined;
  const { asSnapshot, ...found } = locked;
  if (asSnapshot) return toBookingToCancel(found);
  const [again] = await bookingToCancel(db).execute({ id });
  return again && toBookingToCancel(again);
}

export async function findCancellableBookings(db: PgExecutor, ids: readonly string[]): Promise<Map<string, CancellableBooking>> {
  if (ids.length === 0) return new Map();
  const rows = await cancellable(db).where(inArray(bookings.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The participants' UPDATE as a CTE of the booking's: one named statement for any number of ids (one
 * text[] parameter) and any status (null keeps the booking's; a status other than `processing` clears the
 * hold, as setBookingStatus does).
 */
const participantsCancelled = preparedPerExecutor((db) => {
  const cancelled = db.$with('cancelled').as(
    db
      .update(participants)
      .set({ cancelledAt: sql`${sql.placeholder('at')}::timestamptz` })
      .where(
        and(
          eq(participants.bookingId, sql.placeholder('bookingId')),
          anyOfPlaceholder(participants.id, 'ids'),
          isNull(participants.cancelledAt),
        ),
      )
      .returning({ id: participants.id }),
  );
  return db
    .with(cancelled)
    .update(bookings)
    .set({
      status: sql`coalesce(${sql.placeholder('status')}::text, ${bookings.status})`,
      updatedAt: sql`${sql.placeholder('at')}::timestamptz`,
      holdExpiresAt: sql`CASE WHEN ${sql.placeholder('clearHold')}::boolean THEN NULL ELSE ${bookings.holdExpiresAt} END`,
    })
    .where(eq(bookings.id, sql.placeholder('bookingId')))
    .prepare('cancel_participants');
});

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
  await participantsCancelled(db).execute({ bookingId, ids: [...ids], status, at, clearHold: status !== null && status !== 'processing' });
}

const statusSet = preparedPerExecutor((db) =>
  db
    .update(bookings)
    .set({
      status: sql`${sql.placeholder('status')}::text`,
      updatedAt: sql`${sql.placeholder('at')}::timestamptz`,
      holdExpiresAt: sql`CASE WHEN ${sql.placeholder('clearHold')}::boolean THEN NULL ELSE ${bookings.holdExpiresAt} END`,
    })
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare('set_booking_status'),
);

export async function setBookingStatus(db: PgExecutor, id: string, status: BookingStatus, at: string): Promise<void> {
  await statusSet(db).execute({ id, status, at, clearHold: status !== 'processing' });
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

const amountReleased = preparedPerExecutor((db) =>
  db
    .update(bookings)
    .set({
      amountRefundedMinor: sql`${bookings.amountRefundedMinor} - ${sql.placeholder('amount')}::integer`,
      updatedAt: sql`${sql.placeholder('at')}::timestamptz`,
    })
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare('release_refund_amount'),
);

export async function releaseRefundAmount(db: PgExecutor, bookingId: string, amountMinor: number, at: string): Promise<void> {
  await amountReleased(db).execute({ id: bookingId, amount: amountMinor, at });
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
