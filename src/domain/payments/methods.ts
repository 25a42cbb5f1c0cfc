/**
 * How a cart is paid (the spec's Booking.paymentMethod). `credit-card` goes through the payment
 * processor; `pay-upon-arrival`, `pay-later`, `room-charge` and `member-number` take nothing now: the
 * bookings are confirmed at once and the amount is recorded as due, collected by the brand outside
 * Tessera. `loyalty`, `regional-processor` and `cash` are not taken through this gateway.
 */
import type { BrandRow, ExperienceRow } from '../catalog/store.ts';
import { hasFeature, requireFeature, type GoverningFlag } from '../catalog/features.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import type { ApiKeyKind, PaymentMethod } from '../shared/values.ts';
import { keyMayPayWith } from '../checkout/publishable-input.ts';

export interface PaymentChoiceInput {
  paymentMethod?: PaymentMethod | null;
  /** The room charged, with `room-charge`. */
  roomNumber?: string | null;
  /** The membership charged, with `member-number`. */
  memberNumber?: string | null;
}

export interface PaymentChoice {
  method: PaymentMethod;
  /** Whether the processor takes the money now; otherwise the whole amount is due, collected by the brand. */
  charged: boolean;
  /** The room or member number charged. */
  chargedTo: string | null;
}

/** The brand feature each method needs; a method absent here is one the gateway cannot take. */
const flagOf: Partial<Record<PaymentMethod, GoverningFlag | null>> = {
  'credit-card': 'creditCard',
  'pay-upon-arrival': 'payUponArrival',
  'pay-later': null,
  'room-charge': 'roomMemberCharge',
  'member-number': 'roomMemberCharge',
};

/** Whether Tessera can take `method` at all (`loyalty`, `regional-processor` and `cash` it cannot). */
const takenByTessera = (method: string): method is PaymentMethod => Object.hasOwn(flagOf, method);

/** Whether the brand has a room or member charge validated, which Tessera cannot do (PAYMENT_METHOD_NOT_VERIFIABLE). */
const awaitsValidation = (brand: BrandRow, method: PaymentMethod) =>
  (method === 'room-charge' && brand.validateRoomCharge) || (method === 'member-number' && brand.validateMemberCharge);

/**
 * The methods a checkout of `experience` by a key of `keyKind` accepts now, in its own order: those it lists
 * that Tessera takes, the brand enables, no validation blocks and the key may use (a publishable key: methods
 * left unpaid only where the brand allows, checkout/publishable-input.ts). What an experience advertises is
 * this list, so a payment picker built from it offers nothing a checkout would refuse.
 */
export function acceptedPaymentMethods(
  brand: BrandRow,
  experience: Pick<ExperienceRow, 'paymentMethods'>,
  keyKind: ApiKeyKind,
): PaymentMethod[] {
  return experience.paymentMethods.filter((method): method is PaymentMethod => {
    if (!takenByTessera(method)) return false;
    const flag = flagOf[method];
    return (!flag || hasFeature(brand, flag)) && !awaitsValidation(brand, method) && keyMayPayWith(keyKind, brand, method);
  });
}

/** Room and member numbers: letters, digits and dashes, as front desks and loyalty cards print them. */
const accountPattern = /^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/;

function account(value: string | null | undefined, field: string, what: string): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') throw invalid(field, `${field} is required with ${what}`);
  if (!accountPattern.test(trimmed)) throw invalid(field, `${field} must be 1 to 32 letters, digits or dashes`);
  return trimmed;
}

/**
 * The payment of a cart of `experiences`: the method the brand enables (its feature) and every item's
 * experience accepts (its `paymentMethods`). A room or member number is required with its method; where
 * the brand asks for it to be validated (`shouldValidateComplimentaryBooking`) the charge is refused:
 * Tessera has no connection to a property-management or membership system to check it against.
 */
export function choosePayment(brand: BrandRow, experiences: readonly ExperienceRow[], input: PaymentChoiceInput): PaymentChoice {
  const method = input.paymentMethod ?? 'credit-card';
  if (!takenByTessera(method)) {
    throw new DomainError('PAYMENT_METHOD_NOT_SUPPORTED', `Payment method ${method} cannot be taken through Tessera`, {
      field: 'paymentMethod',
      method,
    });
  }
  const flag = flagOf[method];
  if (flag) requireFeature(brand, flag, `Payment method ${method}`, 'paymentMethod');
  experiences.forEach((experience, index) => {
    if (!experience.paymentMethods.includes(method)) {
      throw new DomainError('PAYMENT_METHOD_NOT_ACCEPTED', `Experience ${experience.id} does not accept ${method}`, {
        field: `data.${index}.experienceId`,
        method,
        accepted: experience.paymentMethods,
      });
    }
  });
  if (method === 'room-charge' || method === 'member-number') {
    const room = method === 'room-charge';
    const chargedTo = room ? account(input.roomNumber, 'roomNumber', method) : account(input.memberNumber, 'memberNumber', method);
    if (awaitsValidation(brand, method)) {
      throw new DomainError(
        'PAYMENT_METHOD_NOT_VERIFIABLE',
        `Brand ${brand.id} has ${method} charges validated, and Tessera has no connection to a system that could validate them`,
        { field: room ? 'roomNumber' : 'memberNumber', method },
      );
    }
    return { method, charged: false, chargedTo };
  }
  return { method, charged: method === 'credit-card', chargedTo: null };
}
