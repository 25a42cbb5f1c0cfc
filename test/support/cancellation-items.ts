/**
 * The cancel items the model test sends (test/unit/cancellation/cancellation-model.test.ts): generated as specs
 * (which booking, which participants, what kind of refund amount) and turned into ids and amounts from
 * the model as it stands when the command runs, so they stay meaningful whatever ran before.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { decimalOf, type MBooking, type Model, type ModelItem } from './cancellation-model.ts';

export type Target = { kind: 'booking'; index: number } | { kind: 'unknown' };
export type Stranger = { kind: 'other'; booking: number; participant: number } | { kind: 'unknown' };
export interface ParticipantsSpec {
  mask: boolean[];
  stranger: Stranger | null;
  strangerAt: number;
  duplicate: boolean;
}
export type RefundSpec =
  | { kind: 'part'; of: number }
  | { kind: 'rest' }
  | { kind: 'over'; by: number }
  | { kind: 'tooPrecise'; of: number; digit: number }
  | { kind: 'nonPositive'; value: number };
export interface ItemSpec {
  target: Target;
  cancel: boolean;
  participants: ParticipantsSpec | null;
  refund: RefundSpec | null;
}

const bookingOf = (model: Model, index: number) => model.bookings[index % model.bookings.length]!;

/** Turns a generated item into ids and amounts, from the model as it stands now. */
export function materialize(model: Model, spec: ItemSpec): ModelItem {
  const booking = spec.target.kind === 'booking' ? bookingOf(model, spec.target.index) : null;
  const item: ModelItem = { bookingId: booking?.id ?? randomUUID() };
  if (spec.cancel) item.cancel = true;
  if (spec.participants) item.participants = participantIds(model, booking, spec.participants, spec.target);
  if (spec.refund) Object.assign(item, refundOf(booking, spec.refund));
  return item;
}

function participantIds(model: Model, booking: MBooking | null, spec: ParticipantsSpec, target: Target): string[] {
  const ids = (booking?.participants ?? []).filter((_, j) => spec.mask[j]);
  if (spec.stranger) {
    const self = target.kind === 'booking' ? target.index % model.bookings.length : 0;
    const other =
      model.bookings[
        (self + 1 + ((spec.stranger.kind === 'other' ? spec.stranger.booking : 0) % (model.bookings.length - 1))) % model.bookings.length
      ]!;
    const id = spec.stranger.kind === 'other' ? other.participants[spec.stranger.participant % other.participants.length]! : randomUUID();
    ids.splice(spec.strangerAt % (ids.length + 1), 0, id);
  }
  if (spec.duplicate && ids.length > 0) ids.push(ids[0]!);
  return ids;
}

function refundOf(booking: MBooking | null, spec: RefundSpec): Pick<ModelItem, 'refundAmount' | 'refundMinor'> {
  const exponent = booking?.exponent ?? 2;
  const left = booking ? booking.amount - booking.refunded : 100;
  const minor = (m: number) => ({ refundAmount: decimalOf(m, exponent), refundMinor: m });
  switch (spec.kind) {
    case 'part':
      return minor(1 + (spec.of % Math.max(left, 1)));
    case 'rest':
      return minor(left);
    case 'over':
      return minor(left + spec.by);
    case 'tooPrecise':
      // One decimal more than the currency has, ending in a non-zero digit: 12.345 EUR, 7.5 JPY.
      return { refundAmount: decimalOf((1 + spec.of) * 10 + spec.digit, exponent + 1), refundMinor: null };
    case 'nonPositive':
      return { refundAmount: spec.value, refundMinor: null };
  }
}

/** True about one time in `n + 1`. */
const rarely = (n: number) => fc.oneof({ weight: n, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 12, arbitrary: fc.nat(20).map((index) => ({ kind: 'booking' as const, index })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'unknown' as const }) },
);
const stranger: fc.Arbitrary<Stranger> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('other' as const), booking: fc.nat(20), participant: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'unknown' as const }) },
);
const participantsSpec: fc.Arbitrary<ParticipantsSpec> = fc.record({
  mask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  stranger: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: stranger }),
  strangerAt: fc.nat(4),
  duplicate: rarely(12),
});
const refundSpec: fc.Arbitrary<RefundSpec> = fc.oneof(
  { weight: 4, arbitrary: fc.nat(1_000_000).map((of) => ({ kind: 'part' as const, of })) },
  { weight: 3, arbitrary: fc.constant({ kind: 'rest' as const }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 5000 }).map((by) => ({ kind: 'over' as const, by })) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('tooPrecise' as const), of: fc.nat(5000), digit: fc.integer({ min: 1, max: 9 }) }),
  },
  { weight: 1, arbitrary: fc.constantFrom(0, -1).map((value) => ({ kind: 'nonPositive' as const, value })) },
);
const cancelWhole = target.map((t): ItemSpec => ({ target: t, cancel: true, participants: null, refund: null }));
const cancelSome: fc.Arbitrary<ItemSpec> = fc.record({
  target,
  cancel: rarely(3),
  participants: participantsSpec,
  refund: fc.constant(null),
});
const refundItem: fc.Arbitrary<ItemSpec> = fc.record({
  target,
  cancel: rarely(3),
  participants: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: participantsSpec }),
  refund: refundSpec,
});
export const anyItem = fc.oneof(
  { weight: 1, arbitrary: cancelWhole },
  { weight: 1, arbitrary: cancelSome },
  { weight: 2, arbitrary: refundItem },
);
