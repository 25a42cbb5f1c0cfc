/**
 * The checkout request (spec operation 4) as both faces hand it to the domain, with the limits both
 * enforce. REST's JSON Schema states the same limits (it imports them from here), so malformed input is
 * refused alike: VALIDATION_FAILED naming the field, a dotted path into the body.
 */
import type { QuestionResponse } from '../questions/answers.ts';
import { invalid } from '../shared/errors.ts';
import type { PaymentMethod } from '../shared/values.ts';

/** Cart items per request. */
export const MAX_CART_ITEMS = 50;
/** Participants per item. */
export const MAX_PARTICIPANTS = 100;
/** Add-on lines and credit codes per item. */
export const MAX_ADD_ONS = 50;
export const MAX_CREDIT_CODES = 20;
/** Largest add-on quantity and resource quantity. */
export const MAX_QUANTITY = 1000;
/** Question responses per respondent, and answer entries per response. */
export const MAX_RESPONSES = 100;
export const MAX_ANSWER_VALUES = 50;
/** Longest `metadata`, as JSON text, and its deepest nesting (objects and arrays within it). */
export const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_METADATA_DEPTH = 10;

/** Longest strings, in characters. */
export const maxLength = {
  name: 200,
  email: 320,
  phone: 50,
  code: 64,
  notes: 5000,
  questionId: 100,
  answerValue: 5000,
  sessionTime: 40,
  id: 100,
} as const;

/** Loose email shape (something@host.tld), the same on both faces. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
const emailPattern = new RegExp(EMAIL_PATTERN);

type Opt<T> = T | null | undefined;

export interface CheckoutParticipantInput {
  firstName: string;
  lastName: string;
  priceTierName: string;
  emailAddress?: Opt<string>;
  phoneNumber?: Opt<string>;
  customQuestionResponses?: Opt<readonly QuestionResponse[]>;
}

export type PurchaserInput = Omit<CheckoutParticipantInput, 'priceTierName'>;

export interface CartItemInput {
  sessionTime: string;
  participants: readonly CheckoutParticipantInput[];
  experienceId: string;
  sessionDuration?: Opt<number>;
  couponCode?: Opt<string>;
  discountAmount?: Opt<number>;
  discountPercentage?: Opt<number>;
  accessCode?: Opt<string>;
  notes?: Opt<string>;
  metadata?: Opt<Record<string, unknown>>;
  internalNotes?: Opt<string>;
  listingAddOns?: Opt<ReadonlyArray<{ addOnId: string; quantity: number }>>;
  appliedCreditCodes?: Opt<ReadonlyArray<{ code: string; appliedValue: number; sequence: number }>>;
  intendedConfirmationCode?: Opt<string>;
  waitlistEntryId?: Opt<string>;
  resourceGroupId?: Opt<string>;
  resourceQuantity?: Opt<number>;
}

export interface CreatePaymentIntentInput {
  brandId: string;
  cartId: string;
  data: readonly CartItemInput[];
  /** A quote: price the cart, hold and write nothing. */
  getOnlyTotalNetAmount?: Opt<boolean>;
  purchaser?: Opt<PurchaserInput>;
  /** How the cart is paid (`credit-card` when absent), and the room or member number charged. */
  paymentMethod?: Opt<PaymentMethod>;
  roomNumber?: Opt<string>;
  memberNumber?: Opt<string>;
}

function text(value: Opt<string>, field: string, limit: number, required = false): void {
  if (value === null || value === undefined) {
    if (required) throw invalid(field, `${field} is required`);
    return;
  }
  if (required && value.trim() === '') throw invalid(field, `${field} must not be empty`);
  if (value.length > limit) throw invalid(field, `${field} must be at most ${limit} characters`);
}

function count(length: number, field: string, min: number, max: number): void {
  if (length < min || length > max) throw invalid(field, `${field} must have ${min} to ${max} entries`);
}

function integer(value: Opt<number>, field: string, min: number, max: number): void {
  if (value === null || value === undefined) return;
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(field, `${field} must be an integer from ${min} to ${max}`);
}

/**
 * How deeply `value` nests, walked without recursion and given up past `limit`: a body can hold JSON
 * nested a hundred thousand levels, which would overflow the stack of any recursive walk (JSON.stringify's too).
 */
function nestingBeyond(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > limit) return true;
    level = level.flatMap((v) => (v !== null && typeof v === 'object' ? Object.values(v) : []));
  }
  return false;
}

function checkMetadata(metadata: Opt<Record<string, unknown>>, field: string): void {
  if (!metadata) return;
  if (nestingBeyond(metadata, MAX_METADATA_DEPTH)) throw invalid(field, `${field} must nest at most ${MAX_METADATA_DEPTH} levels`);
  if (JSON.stringify(metadata).length > MAX_METADATA_BYTES)
    throw invalid(field, `${field} must be at most ${MAX_METADATA_BYTES} characters of JSON`);
}

function checkResponses(responses: Opt<readonly QuestionResponse[]>, field: string): void {
  count(responses?.length ?? 0, field, 0, MAX_RESPONSES);
  responses?.forEach((response, i) => {
    text(response.questionId, `${field}.${i}.questionId`, maxLength.questionId, true);
    count(response.answer?.length ?? 0, `${field}.${i}.answer`, 0, MAX_ANSWER_VALUES);
    response.answer?.forEach((entry, j) => {
      text(entry.value, `${field}.${i}.answer.${j}.value`, maxLength.answerValue);
      text(entry.key, `${field}.${i}.answer.${j}.key`, maxLength.id);
    });
  });
}

/** Names, contact details and answer lists of a purchaser or participant (the waitlist entry's too). */
export function checkPerson(person: PurchaserInput, field: string): void {
  text(person.firstName, `${field}.firstName`, maxLength.name, true);
  text(person.lastName, `${field}.lastName`, maxLength.name, true);
  text(person.emailAddress, `${field}.emailAddress`, maxLength.email);
  if (person.emailAddress != null && !emailPattern.test(person.emailAddress))
    throw invalid(`${field}.emailAddress`, `${field}.emailAddress must be an email address`);
  text(person.phoneNumber, `${field}.phoneNumber`, maxLength.phone);
  checkResponses(person.customQuestionResponses, `${field}.customQuestionResponses`);
}

function checkItem(item: CartItemInput, field: string): void {
  text(item.sessionTime, `${field}.sessionTime`, maxLength.sessionTime, true);
  count(item.participants.length, `${field}.participants`, 1, MAX_PARTICIPANTS);
  item.participants.forEach((p, j) => {
    checkPerson(p, `${field}.participants.${j}`);
    text(p.priceTierName, `${field}.participants.${j}.priceTierName`, maxLength.name, true);
  });
  integer(item.sessionDuration, `${field}.sessionDuration`, 1, 100_000);
  for (const key of ['couponCode', 'accessCode', 'intendedConfirmationCode', 'resourceGroupId'] as const) {
    text(item[key], `${field}.${key}`, maxLength.code);
  }
  text(item.notes, `${field}.notes`, maxLength.notes);
  text(item.internalNotes, `${field}.internalNotes`, maxLength.notes);
  checkMetadata(item.metadata, `${field}.metadata`);
  count(item.listingAddOns?.length ?? 0, `${field}.listingAddOns`, 0, MAX_ADD_ONS);
  item.listingAddOns?.forEach((line, j) => integer(line.quantity, `${field}.listingAddOns.${j}.quantity`, 1, MAX_QUANTITY));
  count(item.appliedCreditCodes?.length ?? 0, `${field}.appliedCreditCodes`, 0, MAX_CREDIT_CODES);
  item.appliedCreditCodes?.forEach((credit, j) => text(credit.code, `${field}.appliedCreditCodes.${j}.code`, maxLength.code, true));
  integer(item.resourceQuantity, `${field}.resourceQuantity`, 0, MAX_QUANTITY);
}

/** The request's shape: counts, lengths and integer fields. Business rules come after, item by item. */
export function checkCheckoutShape(input: CreatePaymentIntentInput): void {
  count(input.data.length, 'data', 1, MAX_CART_ITEMS);
  if (input.purchaser) checkPerson(input.purchaser, 'purchaser');
  input.data.forEach((item, i) => checkItem(item, `data.${i}`));
}
