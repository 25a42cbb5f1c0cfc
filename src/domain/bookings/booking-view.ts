/**
 * The spec's Booking resource, built from stored rows. One function serves every operation that
 * returns bookings (checkout, reads, cancellation), in a constant number of statements.
 */
import type { Stores } from '../shared/database.ts';
import type { AnswerValueJson, QuestionSnapshotJson } from '../shared/json-types.ts';
import type { AnswerRow, BookingRecord, ParticipantRow } from './store.ts';
import type { Deps } from '../shared/deps.ts';
import { groupBy } from '../shared/group-by.ts';
import { toDecimal } from '../shared/money.ts';

import type { BookingStatus, PaymentMethod } from '../shared/values.ts';

export type { BookingStatus, PaymentMethod };

export interface CustomQuestionAnswer {
  id: string;
  answer: AnswerValueJson[];
  question: QuestionSnapshotJson;
}

export interface Purchaser {
  id: string;
  firstName: string;
  lastName: string;
  emailAddress: string | null;
  phoneNumber: string | null;
  /** Present when the booking recorded purchaser-scoped answers (the experience asks such questions). */
  customQuestionAnswers?: CustomQuestionAnswer[];
}

export interface Participant {
  id: string;
  firstName: string;
  lastName: string;
  emailAddress: string | null;
  phoneNumber: string | null;
  priceTierName: string;
  cancelledAt: string | null;
  customQuestionAnswers?: CustomQuestionAnswer[];
}

export interface Booking {
  id: string;
  /** Not part of the spec's Booking; used for visibility checks and GraphQL, dropped by the REST schema. */
  brandId: string;
  confirmationCode: string;
  cartId: string | null;
  cartConfirmationCode: string | null;
  amount: number;
  currency: string;
  amountRefunded: number;
  status: BookingStatus;
  purchaser: Purchaser;
  participants: Participant[];
  paymentMethod: PaymentMethod;
  /** Not part of the spec's Booking (GraphQL only): what the guest still owes, collected by the brand. */
  amountDue: number;
  /** Not part of the spec's Booking (GraphQL only): the room or member number charged. */
  chargedTo: string | null;
  createdAt: string;
  notes: string | null;
  internalNotes: string | null;
  event: { timezone: string; startDateTime: string };
  experience: { id: string; title: string };
  /** Not part of the spec's Booking (GraphQL only): the session booked. */
  sessionId: string;
}

const toAnswer = (row: AnswerRow): CustomQuestionAnswer => ({ id: row.id, answer: row.answer, question: row.question });

function withAnswers<T extends object>(base: T, rows: readonly AnswerRow[]): T & { customQuestionAnswers?: CustomQuestionAnswer[] } {
  return rows.length > 0 ? { ...base, customQuestionAnswers: rows.map(toAnswer) } : base;
}

function toParticipant(row: ParticipantRow, answers: readonly AnswerRow[]): Participant {
  return withAnswers(
    {
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      emailAddress: row.emailAddress,
      phoneNumber: row.phoneNumber,
      priceTierName: row.priceTierName,
      cancelledAt: row.cancelledAt,
    },
    answers,
  );
}

export function toBooking({
  booking: b,
  experienceTitle,
  timezone,
  startLocal,
  participants: participantRows,
  answers: answerRows,
}: BookingRecord): Booking {
  const byParticipant = groupBy(answerRows, (a) => a.participantId ?? '');
  return {
    id: b.id,
    brandId: b.brandId,
    confirmationCode: b.confirmationCode,
    cartId: b.cartId,
    cartConfirmationCode: b.cartConfirmationCode,
    amount: toDecimal(b.amountMinor, b.currency),
    currency: b.currency,
    amountRefunded: toDecimal(b.amountRefundedMinor, b.currency),
    status: b.status,
    purchaser: withAnswers(
      {
        id: b.purchaserId,
        firstName: b.purchaserFirstName,
        lastName: b.purchaserLastName,
        emailAddress: b.purchaserEmail,
        phoneNumber: b.purchaserPhone,
      },
      byParticipant.get('') ?? [],
    ),
    participants: participantRows.map((p) => toParticipant(p, byParticipant.get(p.id) ?? [])),
    paymentMethod: b.paymentMethod,
    amountDue: toDecimal(b.amountDueMinor, b.currency),
    chargedTo: b.chargedTo,
    createdAt: b.createdAt,
    notes: b.notes,
    internalNotes: b.internalNotes,
    event: { timezone, startDateTime: startLocal },
    experience: { id: b.experienceId, title: experienceTitle },
    sessionId: b.sessionId,
  };
}

/**
 * Booking views for `ids`, in the order of `ids` (unknown ids are skipped), from one read; a unit of work
 * takes the view of what it just wrote (`db` is then the unit's stores).
 */
export async function bookingViewsIn(db: Stores, ids: readonly string[]): Promise<Booking[]> {
  if (ids.length === 0) return [];
  const found = new Map((await db.bookings.findBookingRecords(ids)).map((record) => [record.booking.id, record]));
  return ids.flatMap((id) => {
    const record = found.get(id);
    return record ? [toBooking(record)] : [];
  });
}

/** Booking views for `ids`, in the order of `ids` (unknown ids are skipped). */
export async function bookingViews(deps: Deps, ids: readonly string[]): Promise<Booking[]> {
  return bookingViewsIn(deps.db, ids);
}
