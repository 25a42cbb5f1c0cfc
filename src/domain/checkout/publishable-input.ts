/**
 * What a publishable key (a key in every shop's page source, so anyone's) may send to checkout: only what
 * a shopper chooses. The server sets prices; staff and partners set the rest, with a secret key. Both
 * faces reach checkout through `createPaymentIntent`, which calls `refusePublishableInput` first, before
 * anything is priced or held (quotes too: a quote must show what the shopper will pay).
 *
 * A shopper chooses: items (experience, session, duration to match), participants with their price tiers,
 * contact details and answers, add-ons, coupon and credit codes the brand issued (their values are the
 * brand's, checked against the stored coupon and balance), access codes, resource choices, a waitlist offer
 * it holds (by the entry's id), notes meant for the brand, the purchaser, a quote, and the payment method
 * with the room or member number it charges (unpaid methods only where the brand allows, below).
 */
import type { Principal } from '../access/principal.ts';
import { DomainError } from '../shared/errors.ts';
import type { ApiKeyKind, PaymentMethod } from '../shared/values.ts';
import type { CartItemInput, CreatePaymentIntentInput } from './input.ts';

/**
 * Cart item fields only staff or partners set (secret keys), with why:
 * - `discountAmount`, `discountPercentage`: a price the caller sets; a shopper's discount is a coupon or a credit code the brand issued.
 * - `internalNotes`: staff notes, hidden from the guest.
 * - `intendedConfirmationCode`: a code chosen by a partner moving bookings from another system; in a browser
 *   it would also tell which codes of the brand exist (CONFIRMATION_CODE_TAKEN).
 * - `metadata`: a partner's own data, kept with the booking and delivered in its webhooks, which partners' systems trust.
 */
export const staffOnlyItemFields = [
  'discountAmount',
  'discountPercentage',
  'internalNotes',
  'intendedConfirmationCode',
  'metadata',
] as const satisfies ReadonlyArray<keyof CartItemInput>;

/**
 * A flag of the brand's `features.active` that lets its publishable key check out with a method paid
 * outside Tessera (below). Off unless listed.
 */
export const PUBLISHABLE_UNPAID_METHODS_FLAG = 'publishableUnpaidMethods';

/**
 * Methods that take no money now: the bookings are confirmed with the whole amount due, collected by the
 * brand. With a publishable key anyone could confirm a session's places this way, so a brand offers them
 * to its publishable key only with PUBLISHABLE_UNPAID_METHODS_FLAG, and then those places count against the
 * client's hold budget and the publishable share while unpaid, as card holds do.
 */
export const unpaidMethods: readonly PaymentMethod[] = ['pay-upon-arrival', 'pay-later', 'room-charge', 'member-number'];

interface Brand {
  id: string;
  featuresActive: readonly string[];
}

const sent = (value: unknown) => value !== undefined && value !== null;

/**
 * Whether a key of `kind` may check out of `brand` with `method`: a publishable key an unpaid method only with
 * the brand's flag. What an experience advertises to the key (`paymentMethods`) follows the same rule.
 */
export const keyMayPayWith = (kind: ApiKeyKind, brand: Brand, method: PaymentMethod): boolean =>
  kind !== 'publishable' || !unpaidMethods.includes(method) || brand.featuresActive.includes(PUBLISHABLE_UNPAID_METHODS_FLAG);

/**
 * Throws FORBIDDEN (`details.field`: the first field refused, `details.keyKind: "publishable"`) when a
 * publishable key sends a staff-only field, or an unpaid payment method its brand does not allow it.
 * A field sent as null is not set, and passes. Secret keys may send everything.
 */
export function refusePublishableInput(principal: Principal, brand: Brand, input: CreatePaymentIntentInput): void {
  if (principal.kind !== 'publishable') return;
  input.data.forEach((item, i) => {
    const field = staffOnlyItemFields.find((name) => sent(item[name]));
    if (field) {
      throw new DomainError(
        'FORBIDDEN',
        `A publishable key may not set data.${i}.${field}: the server sets prices, and staff-only fields need a secret key (sk_...) from a server`,
        { field: `data.${i}.${field}`, keyKind: 'publishable' },
      );
    }
  });
  const method = input.paymentMethod;
  if (method && !keyMayPayWith(principal.kind, brand, method)) {
    throw new DomainError(
      'FORBIDDEN',
      `Brand ${brand.id} does not offer ${method} to its publishable key (it confirms places without payment): pay by card, or book through the brand`,
      { field: 'paymentMethod', keyKind: 'publishable', method },
    );
  }
}
