import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnswerRow, BookingRow, CartBookingRow, CartIntentRow, ParticipantRow } from '../../../../domain/bookings/store.ts';
import type {
  IntentBookingRow,
  IntentPayment,
  IntentRow,
  IntentSelector,
  IntentSettling,
  PaymentsStore,
} from '../../../../domain/payments/store.ts';
import type { PaymentIntentStatus } from '../../../../domain/shared/values.ts';
import { bookings, carts, experiences, participants, paymentIntents, sessions } from '../../schema/index.ts';
import { namedSql } from '../../named-sql.ts';
import { recordColumns } from '../bookings/bookings.ts';
import { inUnit, preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { takeCredit } from '../checkout/checkout.ts';
import { cartCheckoutsColumns } from '../bookings/carts.ts';
import { jsonRows, rowOfJson } from '../sql-parts.ts';
import { dueIntentChecks, leaseIntentCheck, setIntentCheck } from './intent-checks.ts';

const intentColumns = {
  id: paymentIntents.id,
  cartId: paymentIntents.cartId,
  processor: paymentIntents.processor,
  processorReference: paymentIntents.processorReference,
  status: paymentIntents.status,
};

const byReference = and(
  eq(paymentIntents.processor, sql.placeholder('processor')),
  eq(paymentIntents.processorReference, sql.placeholder('reference')),
);

/** The intent of a processor's reference, as named statements: locked (in a unit, readOwned) or not. */
const intentByReference = {
  locked: preparedPerExecutor((db) =>
    db.select(intentColumns).from(paymentIntents).where(byReference).for('no key update').prepare('intent_by_reference_locked'),
  ),
  read: preparedPerExecutor((db) => db.select(intentColumns).from(paymentIntents).where(byReference).prepare('intent_by_reference')),
};
const intentBySecretHash = preparedPerExecutor((db) =>
  db
    .select(intentColumns)
    .from(paymentIntents)
    .where(eq(paymentIntents.secretHash, sql.placeholder('secretHash')))
    .prepare('intent_by_secret'),
);
const intentById = preparedPerExecutor((db) =>
  db
    .select(intentColumns)
    .from(paymentIntents)
    .where(eq(paymentIntents.id, sql.placeholder('id')))
    .prepare('intent_by_id'),
);

/** Locked until the unit ends when read in one (as readOwned locks). */
export async function findIntentByReference(db: PgExecutor, processor: string, reference: string): Promise<IntentRow | undefined> {
  const [row] = await (inUnit(db) ? intentByReference.locked : intentByReference.read)(db).execute({ processor, reference });
  return row;
}

export async function findIntentBySecretHash(db: PgExecutor, secretHash: string): Promise<IntentRow | undefined> {
  const [row] = await intentBySecretHash(db).execute({ secretHash });
  return row;
}

export async function findIntentById(db: PgExecutor, id: string): Promise<IntentRow | undefined> {
  const [row] = await intentById(db).execute({ id });
  return row;
}

const intentStatus = namedSql(
  'intent_status',
  sql`UPDATE ${paymentIntents} SET status = ${sql.placeholder('status')}, updated_at = ${sql.placeholder('at')}, processor_check_at = NULL
    WHERE id = ${sql.placeholder('id')}`,
);

/**
 * Sets the intent's status, whatever it was (as on SQLite): the domain decides on the status it read in
 * the same unit of work, where findIntentByReference locked the intent until the unit ends.
 */
export async function setIntentStatus(db: PgExecutor, id: string, status: PaymentIntentStatus, at: string): Promise<void> {
  await intentStatus(db, { id, status, at });
}

const ph = (name: string) => sql.placeholder(name);

/**
 * CTEs `target`, the intent the selector's kind names read locked (FOR NO KEY UPDATE: a unit that settled it
 * first is waited for and its status seen, as findIntentByReference's locking read sees it; `fresh` false
 * when the version locked is newer than the statement's snapshot), and `settled`, its status set when the
 * status read is one of `from`. The read is the intent's newest version, so a second outcome racing the
 * first finds it settled and changes nothing.
 */
const settling = (by: 'reference' | 'secretHash') => sql`
  target AS (
    SELECT id, cart_id, processor, processor_reference, status,
      xmin = (SELECT i.xmin FROM payment_intents i WHERE i.id = payment_intents.id) AS fresh
    FROM ${paymentIntents}
    WHERE processor = ${ph('processor')} AND ${sql.raw(by === 'reference' ? 'processor_reference' : 'secret_hash')} = ${ph('key')}
    FOR NO KEY UPDATE
  ), settled AS (
    UPDATE ${paymentIntents} p SET status = ${ph('status')}, updated_at = ${ph('at')}, processor_check_at = NULL
    FROM target WHERE p.id = target.id AND target.status = ANY(${ph('from')}::text[])
    RETURNING p.id
  )`;

const intentOfTarget = sql`target.id, target.cart_id AS "cartId", target.processor,
  target.processor_reference AS "processorReference", target.status, EXISTS (SELECT 1 FROM settled) AS changed`;

/**
 * CTE `locked`: the ids of the bookings an intent pays for, locked as they are read when `lock` (in the ids'
 * byte order, as every unit locking several bookings does), each with `fresh`: whether the version read is
 * the statement snapshot's. A locking read that had to wait for another unit returns each booking as that
 * unit left it, but its participants and answers as they were when the statement began: every unit that
 * changes a booking's participants also writes the booking, so a booking whose row is newer than the
 * snapshot tells the caller to read again, now that it holds the lock.
 */
const lockedBookings = (intentId: SQL, lock: boolean, when: SQL = sql`true`) => sql`
  locked AS (
    SELECT bookings.id, bookings.xmin = (SELECT b.xmin FROM bookings b WHERE b.id = bookings.id) AS fresh
    FROM ${bookings} WHERE bookings.payment_intent_id = ${intentId} AND ${when}
    ORDER BY bookings.id COLLATE "C"${lock ? sql` FOR NO KEY UPDATE` : sql``}
  )`;

/** The bookings of `locked` as one JSON array, in cart item order, each with its view's record (as findBookingRecords reads it). */
const bookingsOfLocked = jsonRows<BookingJson>(sql`
  SELECT json_agg(json_build_object('row', row_to_json(${bookings}), 'experienceTitle', ${recordColumns.experienceTitle},
    'timezone', ${recordColumns.timezone}, 'startLocal', ${recordColumns.startLocal},
    'participants', ${recordColumns.participants}, 'answers', ${recordColumns.answers}, 'fresh', locked.fresh)
    ORDER BY ${bookings.cartPosition}, ${bookings.id} COLLATE "C")
  FROM locked JOIN ${bookings} ON ${bookings.id} = locked.id
    JOIN ${experiences} ON ${experiences.id} = ${bookings.experienceId} JOIN ${sessions} ON ${sessions.id} = ${bookings.sessionId}`);

interface BookingJson {
  row: Record<string, unknown>;
  experienceTitle: string;
  timezone: string;
  startLocal: string;
  participants: ParticipantRow[];
  answers: AnswerRow[];
  fresh: boolean;
}

const bookingOfJson = rowOfJson<BookingRow>(bookings);

/** The row as the port gives it: its active participants counted, and its view's record beside it. */
function toIntentBooking(json: BookingJson): IntentBookingRow {
  const row = bookingOfJson(json.row);
  const { experienceTitle, timezone, startLocal, participants: people, answers } = json;
  return {
    id: row.id,
    brandId: row.brandId,
    sessionId: row.sessionId,
    status: row.status,
    publishableHold: row.publishableHold,
    currency: row.currency,
    amountMinor: row.amountMinor,
    amountRefundedMinor: row.amountRefundedMinor,
    pricing: row.pricing,
    activeParticipants: people.filter((p) => p.cancelledAt === null).length,
    record: { booking: row, experienceTitle, timezone, startLocal, participants: people, answers },
  };
}

const allFresh = (read: readonly BookingJson[]) => read.every((b) => b.fresh);

/** Statements by kind: locking (in a unit) or not; the intent named by reference or by secret. */
const intentBookings = {
  locked: namedSql<{ bookings: BookingJson[] }>(
    'intent_bookings_locked',
    sql`WITH ${lockedBookings(sql`${ph('intentId')}`, true)} SELECT ${bookingsOfLocked} AS bookings`,
  ),
  read: namedSql<{ bookings: BookingJson[] }>(
    'intent_bookings',
    sql`WITH ${lockedBookings(sql`${ph('intentId')}`, false)} SELECT ${bookingsOfLocked} AS bookings`,
  ),
};

type PaymentJson = { bookings: BookingJson[]; cartIntents: CartIntentRow[]; cartBookings: CartBookingRow[] };

const paymentOf = (lock: boolean) => {
  const checkouts = cartCheckoutsColumns(sql`${ph('cartId')}`);
  return namedSql<PaymentJson>(
    lock ? 'intent_payment_locked' : 'intent_payment',
    sql`WITH ${lockedBookings(sql`${ph('intentId')}`, lock)}
      SELECT ${bookingsOfLocked} AS bookings, ${checkouts.intents} AS "cartIntents", ${checkouts.bookings} AS "cartBookings"`,
  );
};
const intentPayment = { locked: paymentOf(true), read: paymentOf(false) };

type SettlingRow = IntentRow & { changed: boolean };
const settleIntent = (by: 'reference' | 'secretHash') =>
  namedSql<SettlingRow>(
    `settle_intent_by_${by === 'reference' ? 'reference' : 'secret'}`,
    sql`WITH ${settling(by)} SELECT ${intentOfTarget} FROM target`,
  );
const settleIntentBy = { reference: settleIntent('reference'), secretHash: settleIntent('secretHash') };

const settlePaymentOfIntent = (by: 'reference' | 'secretHash') => {
  const checkouts = cartCheckoutsColumns(sql`target.cart_id`);
  const changed = sql`EXISTS (SELECT 1 FROM settled)`;
  return namedSql<SettlingRow & { fresh: boolean } & PaymentJson>(
    `settle_payment_by_${by === 'reference' ? 'reference' : 'secret'}`,
    sql`WITH ${settling(by)}, ${lockedBookings(sql`(SELECT id FROM target)`, true, changed)}
      SELECT ${intentOfTarget}, target.fresh, ${bookingsOfLocked} AS bookings,
        CASE WHEN ${changed} THEN ${checkouts.intents} ELSE '[]'::json END AS "cartIntents",
        CASE WHEN ${changed} THEN ${checkouts.bookings} ELSE '[]'::json END AS "cartBookings"
      FROM target`,
  );
};
const settlePaymentBy = { reference: settlePaymentOfIntent('reference'), secretHash: settlePaymentOfIntent('secretHash') };

const selectorValues = (selector: IntentSelector, status: PaymentIntentStatus, from: readonly PaymentIntentStatus[], at: string) => ({
  processor: selector.processor,
  key: 'reference' in selector ? selector.reference : selector.secretHash,
  status,
  from: [...from],
  at,
});

const settlingOf = ({ changed, ...intent }: SettlingRow): IntentSettling => ({
  intent: {
    id: intent.id,
    cartId: intent.cartId,
    processor: intent.processor,
    processorReference: intent.processorReference,
    status: intent.status,
  },
  changed,
});

/** One named statement: the intent read locked and its status set (CTEs `target` and `settled`). */
export async function settleIntentOf(
  db: PgExecutor,
  selector: IntentSelector,
  status: PaymentIntentStatus,
  from: readonly PaymentIntentStatus[],
  at: string,
): Promise<IntentSettling | undefined> {
  const statement = 'reference' in selector ? settleIntentBy.reference : settleIntentBy.secretHash;
  const [row] = await statement(db, selectorValues(selector, status, from, at));
  return row && settlingOf(row);
}

/**
 * One named statement: settleIntentOf's, then (CTE `locked`, only when the status was set) the intent's
 * bookings locked as paymentOfIntent reads them, and its cart's checkouts, all with the statement's
 * snapshot. The intent is locked before its bookings, as when they are read apart. When the intent locked
 * or a booking is newer than the snapshot (a unit that held its lock committed meanwhile), what the
 * statement read of the rest may be older than it: the payment is read again (paymentOfIntent), now locked.
 */
export async function settleIntentWithPayment(
  db: PgExecutor,
  selector: IntentSelector,
  status: PaymentIntentStatus,
  from: readonly PaymentIntentStatus[],
  at: string,
): Promise<(IntentSettling & { payment?: IntentPayment }) | undefined> {
  const statement = 'reference' in selector ? settlePaymentBy.reference : settlePaymentBy.secretHash;
  const [row] = await statement(db, selectorValues(selector, status, from, at));
  if (!row) return undefined;
  const settled = settlingOf(row);
  if (!settled.changed) return settled;
  if (!row.fresh || !allFresh(row.bookings)) return { ...settled, payment: await paymentOfIntent(db, settled.intent) };
  return { ...settled, payment: paymentOfJson(row) };
}

const paymentOfJson = (row: PaymentJson): IntentPayment => ({
  bookings: row.bookings.map(toIntentBooking),
  checkouts: { intents: row.cartIntents, bookings: row.cartBookings },
});

/**
 * The bookings an intent pays for, in cart item order, each with its active participants counted and its
 * view's record: one named statement. In a unit of work, locked as they are read (`locked`), and read again
 * once when one is newer than the statement's snapshot.
 */
export async function bookingsOfIntent(db: PgExecutor, intentId: string): Promise<IntentBookingRow[]> {
  if (!inUnit(db)) return (await intentBookings.read(db, { intentId }))[0]!.bookings.map(toIntentBooking);
  let [row] = await intentBookings.locked(db, { intentId });
  if (!allFresh(row!.bookings)) [row] = await intentBookings.locked(db, { intentId });
  return row!.bookings.map(toIntentBooking);
}

/** bookingsOfIntent's statement with the cart's checkouts (as checkoutsOfCart aggregates them) beside: one named statement. */
export async function paymentOfIntent(db: PgExecutor, intent: { id: string; cartId: string }): Promise<IntentPayment> {
  const values = { intentId: intent.id, cartId: intent.cartId };
  if (!inUnit(db)) return paymentOfJson((await intentPayment.read(db, values))[0]!);
  let [row] = await intentPayment.locked(db, values);
  if (!allFresh(row!.bookings)) [row] = await intentPayment.locked(db, values);
  return paymentOfJson(row!);
}

export async function cancelActiveParticipants(db: PgExecutor, bookingId: string, at: string): Promise<void> {
  await db
    .update(participants)
    .set({ cancelledAt: at })
    .where(and(eq(participants.bookingId, bookingId), isNull(participants.cancelledAt)));
}

const cartPaid = namedSql('cart_paid', sql`UPDATE ${carts} SET status = 'paid', updated_at = ${ph('at')} WHERE id = ${ph('cartId')}`);

export async function markCartPaid(db: PgExecutor, cartId: string, at: string): Promise<void> {
  await cartPaid(db, { cartId, at });
}

const confirmBookings = sql`UPDATE ${bookings} SET status = 'confirmed', updated_at = ${ph('at')}, hold_expires_at = NULL
  WHERE id = ANY(${ph('ids')}::text[])`;
const bookingsConfirmed = namedSql('bookings_confirmed', confirmBookings);
const bookingsConfirmedCartPaid = namedSql(
  'bookings_confirmed_cart_paid',
  sql`WITH confirmed AS (${confirmBookings}) UPDATE ${carts} SET status = 'paid', updated_at = ${ph('at')} WHERE id = ${ph('cartId')}`,
);

/** One named statement: the bookings' UPDATE is a CTE of the cart's (run whether or not the cart's finds a row). */
export async function settlePayment(db: PgExecutor, confirmIds: readonly string[], paidCartId: string | null, at: string): Promise<void> {
  if (paidCartId === null) {
    if (confirmIds.length > 0) await bookingsConfirmed(db, { ids: [...confirmIds], at });
    return;
  }
  if (confirmIds.length === 0) return markCartPaid(db, paidCartId, at);
  await bookingsConfirmedCartPaid(db, { ids: [...confirmIds], cartId: paidCartId, at });
}

/** The code is found, its balance checked and taken, and the redemption recorded in one statement. */
export async function redeemCreditAgain(
  db: PgExecutor,
  input: { id: string; bookingId: string; brandId: string; code: string; amountMinor: number },
): Promise<boolean> {
  return takeCredit(db, { brandId: input.brandId, code: input.code }, input);
}

export const paymentsStore = {
  dueIntentChecks,
  leaseIntentCheck,
  setIntentCheck,
  findIntentByReference,
  findIntentBySecretHash,
  findIntentById,
  setIntentStatus,
  settleIntentOf,
  settleIntentWithPayment,
  paymentOfIntent,
  bookingsOfIntent,
  cancelActiveParticipants,
  markCartPaid,
  settlePayment,
  redeemCreditAgain,
} satisfies PostgresStore<PaymentsStore>;
