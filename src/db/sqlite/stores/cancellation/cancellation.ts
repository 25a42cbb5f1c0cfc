import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb, setTo } from '../../prepared.ts';
import { bookings, participants, paymentIntents, refunds, sessions, waitlists } from '../../schema/index.ts';
import type { BookingToCancel, CancellableBooking, CancellationStore } from '../../../../domain/cancellation/store.ts';
import type { SqliteStore } from '../../store-binding.ts';
import { findBookingRecords } from '../bookings/bookings.ts';
import type { RefundEffectJson } from '../../../../domain/shared/json-types.ts';
import { insertPendingRefund } from './refunds.ts';

// A cancel request runs these once per item, each in the item's own transaction: prepared once per
// connection, so an item costs the statements' execution, not Drizzle's query building and SQLite's compilation.

export type BookingStatusValue = (typeof bookings.$inferSelect)['status'];

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

const cancellableBooking = preparedPerDb((db) =>
  db
    .select({ booking: cancellableColumns, session: sessions, waitlistId: waitlists.id })
    .from(bookings)
    .leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .leftJoin(waitlists, eq(waitlists.experienceId, bookings.experienceId))
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare(),
);

/**
 * Prepared reads: the booking, its pending refunds, and its view's record (whose participants give their
 * states).
 */
export function findBookingToCancel(db: Db, id: string): BookingToCancel | undefined {
  const found = cancellableBooking(db).get({ id });
  if (!found) return undefined;
  const [record] = findBookingRecords(db, [id]);
  if (!record) return undefined;
  const { booking, session, waitlistId } = found;
  return {
    booking,
    session: { session, waitlistId },
    pendingRefunds: pendingRefundCount(db).get({ bookingId: id })?.n ?? 0,
    participants: record.participants.map((p) => ({ id: p.id, cancelledAt: p.cancelledAt })),
    record,
  };
}

const cancellableBookingList = preparedPerDb((db) =>
  db
    .select(cancellableColumns)
    .from(bookings)
    .leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId))
    .where(inIdList(bookings.id, 'ids'))
    .prepare(),
);

export function findCancellableBookings(db: Db, ids: readonly string[]): Map<string, CancellableBooking> {
  if (ids.length === 0) return new Map();
  return new Map(
    cancellableBookingList(db)
      .all({ ids: idList(ids) })
      .map((row) => [row.id, row]),
  );
}

const cancelActiveParticipants = preparedPerDb((db) =>
  db
    .update(participants)
    .set({ cancelledAt: setTo('at') })
    .where(
      and(eq(participants.bookingId, sql.placeholder('bookingId')), inIdList(participants.id, 'ids'), isNull(participants.cancelledAt)),
    )
    .prepare(),
);

export function cancelParticipants(db: Db, bookingId: string, ids: readonly string[], status: BookingStatusValue | null, at: string): void {
  if (ids.length > 0) cancelActiveParticipants(db).run({ bookingId, ids: idList(ids), at });
  if (status !== null) setBookingStatus(db, bookingId, status, at);
  else if (ids.length > 0) touch(db).run({ id: bookingId, at });
}

// Leaving `processing` also clears the hold; staying in it keeps the hold.
const setStatusKeepingHold = preparedPerDb((db) =>
  db
    .update(bookings)
    .set({ status: setTo('status'), updatedAt: setTo('at') })
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare(),
);
const setStatusClearingHold = preparedPerDb((db) =>
  db
    .update(bookings)
    .set({ status: setTo('status'), updatedAt: setTo('at'), holdExpiresAt: null })
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare(),
);

export function setBookingStatus(db: Db, id: string, status: BookingStatusValue, at: string): void {
  (status === 'processing' ? setStatusKeepingHold : setStatusClearingHold)(db).run({ id, status, at });
}

const touch = preparedPerDb((db) =>
  db
    .update(bookings)
    .set({ updatedAt: setTo('at') })
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare(),
);

const reserveAmount = preparedPerDb((db) =>
  db
    .update(bookings)
    .set({ amountRefundedMinor: sql`${bookings.amountRefundedMinor} + ${sql.placeholder('amount')}`, updatedAt: setTo('at') })
    .where(
      and(
        eq(bookings.id, sql.placeholder('id')),
        sql`${bookings.amountRefundedMinor} + ${sql.placeholder('amount')} <= ${bookings.amountMinor}`,
      ),
    )
    .prepare(),
);

export function reserveRefundAmount(db: Db, bookingId: string, amountMinor: number, at: string): boolean {
  return reserveAmount(db).run({ id: bookingId, amount: amountMinor, at }).changes === 1;
}

/** The two prepared statements in turn: the one writer makes them one step. */
export function reservePendingRefund(
  db: Db,
  refund: { id: string; bookingId: string; amountMinor: number; effect: RefundEffectJson; at: string },
): boolean {
  if (!reserveRefundAmount(db, refund.bookingId, refund.amountMinor, refund.at)) return false;
  insertPendingRefund(db, refund);
  return true;
}

const releaseAmount = preparedPerDb((db) =>
  db
    .update(bookings)
    .set({ amountRefundedMinor: sql`${bookings.amountRefundedMinor} - ${sql.placeholder('amount')}`, updatedAt: setTo('at') })
    .where(eq(bookings.id, sql.placeholder('id')))
    .prepare(),
);

export function releaseRefundAmount(db: Db, bookingId: string, amountMinor: number, at: string): void {
  releaseAmount(db).run({ id: bookingId, amount: amountMinor, at });
}

const pendingRefundCount = preparedPerDb((db) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(refunds)
    .where(and(eq(refunds.bookingId, sql.placeholder('bookingId')), eq(refunds.status, 'pending')))
    .prepare(),
);

export const cancellationStore = {
  findBookingToCancel,
  findCancellableBookings,
  cancelParticipants,
  setBookingStatus,
  reserveRefundAmount,
  reservePendingRefund,
  releaseRefundAmount,
} satisfies SqliteStore<CancellationStore>;
