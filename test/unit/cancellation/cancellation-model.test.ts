/**
 * Model-based test of cancel and refund (fast-check `asyncModelRun`): random command sequences run
 * against the real domain, each run in a world of its own (a new organization and brands in the file's
 * one database, so no run sees another's bookings), and against the model written from the README's
 * rules (test/support/cancellation-model.ts). Commands: cancel requests of 1 to 3 items (whole booking,
 * some participants, possibly another booking's or unknown ids, refunds of part, all, more than the
 * balance, too many decimals, zero), the processor declining the next refund, payment events (through
 * `handlePaymentEvent` and the sandbox's confirm path), holds lapsing under the sweeper. After
 * every command the answer (items, error codes and fields) and the database (statuses, participants'
 * cancelledAt, amountRefunded, the refund ledger, intents, events, places held on every session, the
 * processor's refund calls) must be what the model says.
 *
 * Reproduce a failure with the seed and path fast-check prints (FC_RUNS=2000 searches longer):
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run test/unit/cancellation/cancellation-model.test.ts
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cancelBookings } from '../../../src/domain/cancellation/cancellation.ts';
import { sweepOnce } from '../../../src/domain/checkout/holds.ts';
import { confirmSandboxPayment } from '../../../src/domain/payments/processor-events.ts';
import { handlePaymentEvent } from '../../../src/domain/payments/payments.ts';
import { anyItem, materialize, type ItemSpec } from '../../support/cancellation-items.ts';
import { decimalOf, placesHeld, predictCancel, predictLapse, predictPayment, type Model } from '../../support/cancellation-model.ts';
import { buildWorld, storedBooking, storedReserved, type BookingKind, type World } from '../../support/cancellation-world.ts';
import { freshDb, testEngine } from '../../support/db.ts';

const params = {
  numRuns: Number(process.env.FC_RUNS ?? 100),
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}),
};

type Real = World;

const db = await freshDb();

async function checkDatabase(model: Model, real: Real): Promise<void> {
  for (const b of model.bookings) {
    const stored = await storedBooking(real, b.id);
    expect({ id: b.id, ...stored }).toEqual({
      id: b.id,
      status: b.status,
      refunded: b.refunded,
      intentStatus: b.intent?.status ?? null,
      ledgerSum: b.refunded,
      pendingRefunds: 0,
      failedRefunds: b.declinedRefunds,
      active: b.participants.filter((id) => b.active.has(id)),
      events: b.events.map((e) => ({ type: e.type, status: e.status, amountRefunded: decimalOf(e.refunded, b.exponent) })),
    });
  }
  for (const sessionId of real.sessionIds) expect(await storedReserved(real, sessionId)).toBe(placesHeld(model, sessionId));
  expect(real.payments.refundCalls.map((c) => ({ amountMinor: c.amountMinor, currency: c.currency }))).toEqual(model.refundCalls);
}

class CancelCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly specs: ItemSpec[]) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const items = this.specs.map((spec) => materialize(model, spec));
    const predicted = predictCancel(model, items);
    const input = items.map(({ refundMinor: _, ...sent }) => sent);
    // Items are judged one by one: the request as a whole is never refused (its envelope is always well formed here).
    const answer = await cancelBookings(real.deps, { bookings: input });
    expect(answer.errors.map((e) => ({ index: e.index, code: e.code, ...(e.field ? { field: e.field } : {}) }))).toEqual(
      predicted.errors.map((e) => ({ index: e.index, code: e.code, ...(e.field ? { field: e.field } : {}) })),
    );
    expect(answer.items.map((b) => b.id)).toEqual(predicted.items);
    for (const shown of answer.items) {
      const b = model.bookings.find((m) => m.id === shown.id)!;
      expect({
        status: shown.status,
        amountRefunded: shown.amountRefunded,
        cancelled: shown.participants.map((p) => p.cancelledAt !== null),
      }).toEqual({
        status: b.status,
        amountRefunded: decimalOf(b.refunded, b.exponent),
        cancelled: b.participants.map((id) => !b.active.has(id)),
      });
    }
    await checkDatabase(model, real);
  }
  toString = () => `cancel(${JSON.stringify(this.specs)})`;
}

class DeclineNextRefund implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    model.declineNext = true;
    real.payments.declineNext = true;
  }
  toString = () => 'declineNextRefund';
}

class PaymentEvent implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly outcome: 'succeeded' | 'failed',
    readonly via: 'webhook' | 'sandbox',
  ) {}
  private intent = (model: Model) => {
    const intents = [...new Set(model.bookings.flatMap((b) => (b.intent ? [b.intent] : [])))];
    return intents[this.index % Math.max(intents.length, 1)];
  };
  check = (model: Readonly<Model>) => this.intent(model as Model) !== undefined;
  async run(model: Model, real: Real) {
    const intent = this.intent(model)!;
    const predicted = predictPayment(model, intent, this.outcome);
    const type = this.outcome === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed';
    const outcome =
      this.via === 'webhook'
        ? await handlePaymentEvent(real.deps, { id: `evt_${randomUUID()}`, type, intentReference: intent.reference })
        : (await confirmSandboxPayment(real.deps, { paymentIntentSecret: intent.secret, outcome: this.outcome })).outcome;
    expect({ changed: outcome?.changed, refundErrors: outcome?.refundErrors.map((e) => e.code) }).toEqual(predicted);
    await checkDatabase(model, real);
  }
  toString = () => `payment(${this.index}, ${this.outcome}, ${this.via})`;
}

/** The clock passes the holds' expiry (checkout factories hold until 12:15) and the sweeper runs. */
class HoldsLapse implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    predictLapse(model);
    real.clock.now = new Date('2026-11-25T13:00:00.000Z');
    await sweepOnce({ ...real.deps, log: { error: (details) => expect.fail(`the sweep failed: ${JSON.stringify(details)}`) } });
    await checkDatabase(model, real);
  }
  toString = () => 'holdsLapse';
}

type Cmd = fc.AsyncCommand<Model, Real>;
const cancelRequest: fc.Arbitrary<Cmd> = fc
  // Mostly one item per request; sometimes several (bookings are then judged one after the other).
  .oneof(
    { weight: 4, arbitrary: anyItem.map((item) => [item]) },
    { weight: 1, arbitrary: fc.array(anyItem, { minLength: 2, maxLength: 3 }) },
  )
  .map((items) => new CancelCommand(items));
const paymentEvent: fc.Arbitrary<Cmd> = fc
  .record({
    index: fc.nat(20),
    outcome: fc.constantFrom('succeeded' as const, 'failed' as const),
    via: fc.constantFrom('webhook' as const, 'sandbox' as const),
  })
  .map(({ index, outcome, via }) => new PaymentEvent(index, outcome, via));
const commands = [
  fc.oneof(
    { weight: 6, arbitrary: cancelRequest },
    { weight: 1, arbitrary: fc.constant<Cmd>(new DeclineNextRefund()) },
    { weight: 3, arbitrary: paymentEvent },
    { weight: 1, arbitrary: fc.constant<Cmd>(new HoldsLapse()) },
  ),
];

const kind = fc.constantFrom<BookingKind>('paid', 'paid', 'paid', 'processing', 'processing', 'pair', 'failed', 'free', 'outsider');
const world = fc.record({
  currencies: fc.tuple(fc.constantFrom('JPY', 'KRW', 'CLP', 'VND'), fc.constantFrom('EUR', 'USD'), fc.constantFrom('KWD', 'BHD')),
  bookings: fc.array(
    fc.record({ kind, brand: fc.nat(2), prices: fc.array(fc.integer({ min: 1, max: 20_000 }), { minLength: 1, maxLength: 4 }) }),
    {
      minLength: 2,
      maxLength: 6,
    },
  ),
  slack: fc.nat(3),
});

// A run costs a few hundred statements (its world, then every command and its check): on PostgreSQL each is a
// round trip to the server, and the 100 runs take about four times as long as on SQLite.
const timeout = testEngine === 'postgresql' ? 480_000 : 120_000;

describe('cancel and refund against the model', () => {
  it('keeps the answers and the database where the model says, whatever the sequence', { timeout }, async () => {
    await fc.assert(
      fc.asyncProperty(world, fc.commands(commands, { maxCommands: 25, size: 'max' }), async (spec, cmds) => {
        const setup = async () => {
          const real = await buildWorld(db, spec);
          return { model: real.model, real };
        };
        await fc.asyncModelRun(setup, cmds);
      }),
      params,
    );
  });
});
