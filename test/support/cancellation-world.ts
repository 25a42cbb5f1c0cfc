import { portOf } from './db.ts';
/**
 * The real side of the cancellation model test: a fresh database with an organization of three brands
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
import { freshDb } from './db.ts';
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

export function buildWorld(spec: WorldSpec) {
  const db = freshDb();
  const org = createOrganization(db);
  const brands = spec.currencies.map((currency) => createBrand(db, { organizationId: org.id, currency }));
  const outsider = createBrand(db, { currency: 'EUR' });
  const sessions = [...brands, outsider].map((brand) => {
    const { experience } = createExperience(db, brand.id, {}, { pictures: 0 });
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
      const checkout = createCheckout(db, { brandId: brand.id, items, intent: { currency, status: intentStatus } });
      // One intent object for the cart: the model's bookings share it, as the database's do.
      const intent: MBooking['intent'] = { status: intentStatus, secret: checkout.secret, reference: checkout.reference };
      for (const made of checkout.bookings) add(made, status, intent);
    } else if (b.kind === 'free') {
      add(createBooking(db, { brandId: brand.id, ...base }), 'confirmed', null);
    } else {
      const paid = createPaidBooking(db, { brandId: brand.id, ...base });
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
    db: portOf(db),
    now: () => clock.now,
    payments,
    holdTtlSeconds: 900,
    waitlistOfferTtlSeconds: 86_400,
    principal,
  };
  return { db, deps, clock, payments, model, sessionIds: sessions.map((s) => s.id) };
}

export type World = ReturnType<typeof buildWorld>;

/** What the model predicts, read from the database for one booking. */
export function storedBooking(world: World, id: string) {
  const one = <T>(sql: string) => world.db.$client.prepare(sql).get(id) as T;
  const all = <T>(sql: string) => world.db.$client.prepare(sql).all(id) as T[];
  const row = one<{ status: Status; refunded: number; intentStatus: string | null }>(
    `SELECT b.status, b.amount_refunded_minor AS refunded, i.status AS intentStatus
     FROM bookings b LEFT JOIN payment_intents i ON i.id = b.payment_intent_id WHERE b.id = ?`,
  );
  const refunds = all<{ status: string; amountMinor: number }>(
    'SELECT status, amount_minor AS amountMinor FROM refunds WHERE booking_id = ?',
  );
  const events = all<{ type: string; payload: string }>('SELECT type, payload FROM events WHERE resource_id = ? ORDER BY sequence').map(
    (e) => {
      const data = JSON.parse(e.payload) as { status: Status; amountRefunded: number };
      return { type: e.type, status: data.status, amountRefunded: data.amountRefunded };
    },
  );
  const people = all<{ id: string; cancelledAt: string | null }>(
    'SELECT id, cancelled_at AS cancelledAt FROM participants WHERE booking_id = ? ORDER BY position',
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

export function storedReserved(world: World, sessionId: string): number {
  return (world.db.$client.prepare('SELECT reserved FROM sessions WHERE id = ?').get(sessionId) as { reserved: number }).reserved;
}
