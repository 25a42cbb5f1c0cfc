/**
 * The real side of the cancellation model test: in `db`, a new organization of three brands
 * (a zero-, a two- and a three-decimal currency), one session each, another organization's brand, and
 * bookings of every starting state (paid and confirmed, processing with an intent awaiting payment,
 * failed with a failed intent, free and confirmed with no intent, and a cart of two processing bookings
 * paid by one intent). Returns the domain deps, the
 * processor double, the model's starting state, and readers of what the model predicts.
 */
import type { Principal } from '../../src/domain/access/principal.ts';
import type { CallerDeps } from '../../src/domain/shared/deps.ts';
import { currencyExponent } from '../../src/domain/shared/money.ts';
import { ProcessorError } from '../../src/domain/payments/processor.ts';
import type { MBooking, Model, Status } from './cancellation-model.ts';
import { CHECKOUT_NOW } from './clock.ts';
import type { TestDb } from './db.ts';
import { inTurn } from '../../fixtures/factories/in-turn.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand, createOrganization } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createCheckout } from '../../fixtures/factories/checkouts.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { TestProcessor, type RefundCall } from './processors.ts';

export type BookingKind = 'paid' | 'processing' | 'pair' | 'failed' | 'free' | 'outsider';

export interface WorldSpec {
  /** The organization's three brands' currencies. */
  currencies: readonly [string, string, string];
  bookings: ReadonlyArray<{ kind: BookingKind; brand: number; prices: readonly number[] }>;
  /** Free places on each session beyond what the starting bookings hold. */
  slack: number;
}

/** The test processor, declining only the next refund when told. */
export class ScriptedProcessor extends TestProcessor {
  declineNext = false;

  override async refund(input: RefundCall) {
    if (!this.declineNext) return super.refund(input);
    this.declineNext = false;
    this.failure = new ProcessorError('card_declined');
    try {
      return await super.refund(input);
    } finally {
      this.failure = null;
    }
  }
}

export async function buildWorld(db: TestDb, spec: WorldSpec) {
  const org = await createOrganization(db);
  const brands = await inTurn(spec.currencies, (currency) => createBrand(db, { organizationId: org.id, currency }));
  const outsider = await createBrand(db, { currency: 'EUR' });
  const sessions = await inTurn([...brands, outsider], async (brand) => {
    const { experience } = await createExperience(db, brand.id, {}, { pictures: 0 });
    const held = spec.bookings.filter((b) => brandOf(b) === brand && b.kind !== 'failed');
    const capacity = held.reduce((sum, b) => sum + b.prices.length * (b.kind === 'pair' ? 2 : 1), 0) + spec.slack;
    return createSession(db, experience, { capacity });
  });
  function brandOf(b: WorldSpec['bookings'][number]) {
    return b.kind === 'outsider' ? outsider : brands[b.brand % brands.length]!;
  }

  const model: Model = { bookings: [], capacity: new Map(sessions.map((s) => [s.id, s.capacity])), declineNext: false, refundCalls: [] };
  for (const b of spec.bookings) {
    const brand = brandOf(b);
    const session = sessions[b.kind === 'outsider' ? brands.length : b.brand % brands.length]!;
    const currency = brand.currency;
    const participants = b.prices.map((priceMinor) => ({ priceMinor: b.kind === 'free' ? 0 : priceMinor }));
    const base = { session, currency, participants };
    const add = (
      made: { booking: { id: string; amountMinor: number }; participants: Array<{ id: string }> },
      status: Status,
      intent: MBooking['intent'],
    ) => {
      const ids = made.participants.map((p) => p.id);
      model.bookings.push({
        id: made.booking.id,
        visible: b.kind !== 'outsider',
        currency,
        exponent: currencyExponent(currency),
        sessionId: session.id,
        amount: made.booking.amountMinor,
        refunded: 0,
        status,
        intent,
        participants: ids,
        active: new Set(ids),
        declinedRefunds: 0,
        events: [],
      });
    };
    if (b.kind === 'processing' || b.kind === 'failed' || b.kind === 'pair') {
      const status: Status = b.kind === 'failed' ? 'failed' : 'processing';
      const items =
        b.kind === 'pair'
          ? [
              { ...base, status },
              { ...base, participants: [...participants].reverse(), status },
            ]
          : [{ ...base, status }];
      const intentStatus = b.kind === 'failed' ? 'failed' : 'requires_payment';
      const checkout = await createCheckout(db, { brandId: brand.id, items, intent: { currency, status: intentStatus } });
      // One intent object for the cart: the model's bookings share it, as the database's do.
      const intent: MBooking['intent'] = { status: intentStatus, secret: checkout.secret, reference: checkout.reference };
      for (const made of checkout.bookings) add(made, status, intent);
    } else if (b.kind === 'free') {
      add(await createBooking(db, { brandId: brand.id, ...base }), 'confirmed', null);
    } else {
      const paid = await createPaidBooking(db, { brandId: brand.id, ...base });
      add(paid, 'confirmed', { status: 'succeeded', secret: `secret-${paid.intent.id}`, reference: paid.intent.processorReference });
    }
  }

  const payments = new ScriptedProcessor();
  const principal: Principal = {
    kind: 'organization',
    keyId: 'model-test',
    organizationId: org.id,
    brandIds: brands.map((b) => b.id),
    headerBrandId: null,
  };
  const clock = { now: new Date(CHECKOUT_NOW) };
  const deps: CallerDeps = {
    db: db.database,
    now: () => clock.now,
    payments,
    holdTtlSeconds: 900,
    waitlistOfferTtlSeconds: 86_400,
    principal,
  };
  return { db, deps, clock, payments, model, sessionIds: sessions.map((s) => s.id) };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;

/** What the model predicts, read from the database for one booking. */
export async function storedBooking(world: World, id: string) {
  const one = async <T>(sql: string) => (await world.db.one<T>(sql, id))!;
  const all = <T>(sql: string) => world.db.all<T>(sql, id);
  const row = await one<{ status: Status; refunded: number; intentStatus: string | null }>(
    `SELECT b.status, b.amount_refunded_minor AS refunded, i.status AS "intentStatus"
     FROM bookings b LEFT JOIN payment_intents i ON i.id = b.payment_intent_id WHERE b.id = ?`,
  );
  const refunds = await all<{ status: string; amountMinor: number }>(
    'SELECT status, amount_minor AS "amountMinor" FROM refunds WHERE booking_id = ?',
  );
  const events = (
    await all<{ type: string; payload: string }>('SELECT type, payload FROM events WHERE resource_id = ? ORDER BY sequence')
  ).map((e) => {
    const data = JSON.parse(e.payload) as { status: Status; amountRefunded: number };
    return { type: e.type, status: data.status, amountRefunded: data.amountRefunded };
  });
  const people = await all<{ id: string; cancelledAt: string | null }>(
    'SELECT id, cancelled_at AS "cancelledAt" FROM participants WHERE booking_id = ? ORDER BY position',
  );
  return {
    status: row.status,
    refunded: row.refunded,
    intentStatus: row.intentStatus,
    ledgerSum: refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amountMinor, 0),
    pendingRefunds: refunds.filter((r) => r.status === 'pending').length,
    failedRefunds: refunds.filter((r) => r.status === 'failed').length,
    active: people.filter((p) => p.cancelledAt === null).map((p) => p.id),
    events,
  };
}

export async function storedReserved(world: World, sessionId: string): Promise<number> {
  return world.db.value<number>('SELECT reserved FROM sessions WHERE id = ?', sessionId);
}
