/**
 * One cart item checked against the catalogue and turned into what checkout writes: the session, the
 * participants with their tier prices, the answers, the price breakdown and the credit to redeem. The
 * items' experiences and sessions are read for the whole cart first (`readItemCatalogue`); the first
 * problem found is thrown (`details.field` points into the body), in the order below.
 *
 * Order of the checks: experience (NOT_FOUND, EXPERIENCE_NOT_BOOKABLE), intended confirmation code
 * format, session (sessionTime, then sessionDuration), price tiers, the waitlist offer named, participant
 * count (bounds, then places left), add-ons, discounts, coupon, credit codes, answers.
 */
import type { Stores } from '../shared/database.ts';
import type { PricingBreakdown } from '../shared/json-types.ts';
import type { BrandRow } from '../catalog/store.ts';
import { type ExperienceRow } from '../catalog/store.ts';
import type { SessionRow } from '../availability/store.ts';
import type { ValidatedAnswers } from '../questions/answers.ts';
import type { CartItemInput } from './input.ts';
import type { CheckoutExperience, CheckoutReads, ItemSession, ItemStart } from './store.ts';
import { normalizeIntendedCode } from './confirmation-codes.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { fromDecimal } from '../shared/money.ts';
import {
  checkParticipantCount,
  creditRedemptions,
  parsePercentage,
  priceItem,
  resolveCoupon,
  resolveCredits,
  type PriceItemInput,
  type ResolvedCredit,
} from './pricing.ts';
import {
  assertDuration,
  assertNotCancelled,
  assertNotStarted,
  localStartAsGiven,
  normalizeSessionTime,
  remainingPlaces,
  sessionNotFound,
} from '../availability/sessions.ts';
import { placesHeldForItem } from '../waitlists/conversion.ts';
import { requireFeature, tierPrice } from '../catalog/features.ts';

export interface PreparedParticipant {
  firstName: string;
  lastName: string;
  emailAddress: string | null;
  phoneNumber: string | null;
  priceTierName: string;
  priceMinor: number;
}

export interface PreparedItem {
  /** Position in the cart, from 0. */
  index: number;
  experience: ExperienceRow;
  session: SessionRow;
  participants: PreparedParticipant[];
  answers: ValidatedAnswers;
  pricing: PricingBreakdown;
  /** Credit to take from each code; `field` is the applied credit code's `appliedValue`. */
  redemptions: Array<{ creditCodeId: string; code: string; amountMinor: number; field: string }>;
  intendedConfirmationCode: string | null;
  notes: string | null;
  internalNotes: string | null;
  metadata: Record<string, unknown> | null;
  /** The waitlist entry whose offered places the item takes. */
  waitlistEntryId: string | null;
}

/** What the cart's items read of the catalogue, read for all of them at once. */
export interface ItemCatalogue {
  /** By experience id. */
  experiences: Map<string, CheckoutExperience>;
  /** By `sessionKey`. */
  sessions: Map<string, ItemSession>;
}

const sessionKey = (experienceId: string, startLocal: string) => `${experienceId}\n${startLocal}`;

/**
 * The items' experiences and sessions, from what the checkout read before (`CheckoutReads`: the sessions of
 * `starts`, those whose local start the items give without an offset); the sessions only the experience's
 * zone locates are read here, in one more read. An item whose experience or session time is wrong is
 * skipped here: `prepareItem` throws its error in turn.
 */
export async function readItemCatalogue(
  db: Stores,
  items: readonly CartItemInput[],
  now: Date,
  read: Pick<CheckoutReads, 'experiences' | 'sessions'> & { starts: readonly ItemStart[] },
): Promise<ItemCatalogue> {
  const experiences = new Map(read.experiences.map((row) => [row.experience.id, row]));
  const starts = items.flatMap(({ experienceId, sessionTime }) => {
    const experience = experiences.get(experienceId)?.experience;
    if (!experience) return [];
    try {
      return [{ experienceId, startLocal: normalizeSessionTime(sessionTime, experience.timezoneId, 'sessionTime') }];
    } catch {
      return [];
    }
  });
  const asked = new Set(read.starts.map((start) => sessionKey(start.experienceId, start.startLocal)));
  const missing = starts.filter((start) => !asked.has(sessionKey(start.experienceId, start.startLocal)));
  const sessions =
    missing.length > 0 ? [...read.sessions, ...(await db.checkout.findItemSessions(missing, now.toISOString()))] : read.sessions;
  return {
    experiences,
    sessions: new Map(sessions.map((row) => [sessionKey(row.session.experienceId, row.session.startLocal), row])),
  };
}

/** The sessions the items name by a local start (no offset), read before their experiences are known (`readItemCatalogue`). */
export function startsAsGiven(items: readonly CartItemInput[]): ItemStart[] {
  return items.flatMap(({ experienceId, sessionTime }) => {
    const startLocal = localStartAsGiven(sessionTime);
    return startLocal === null ? [] : [{ experienceId, startLocal }];
  });
}

/** What the items of one cart share while they are checked one after the other. */
export interface CartContext {
  db: Stores;
  catalogue: ItemCatalogue;
  brand: BrandRow;
  cartId: string;
  now: Date;
  /**
   * Places asked for by the items checked so far, per session, less the places this cart's current
   * holds take (a new checkout releases them first).
   */
  placesAsked: Map<string, number>;
  /** Credit used by the items checked so far, per credit code id, less what this cart's holds redeemed. */
  creditUsed: Map<string, number>;
}

const add = (map: Map<string, number>, key: string, amount: number) => map.set(key, (map.get(key) ?? 0) + amount);
const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

function bookableExperience(ctx: CartContext, item: CartItemInput, field: string): CheckoutExperience {
  const found = ctx.catalogue.experiences.get(item.experienceId);
  if (!found || found.experience.brandId !== ctx.brand.id) {
    throw new DomainError('NOT_FOUND', `Experience ${item.experienceId} was not found`, {
      field: `${field}.experienceId`,
      id: item.experienceId,
    });
  }
  const { experience } = found;
  if (experience.isUnlisted)
    requireFeature(ctx.brand, 'unlistedExperience', `Experience ${experience.id} is unlisted: booking it`, `${field}.experienceId`);
  if (experience.archivedAt) {
    throw new DomainError('EXPERIENCE_ARCHIVED', `Experience ${experience.id} is archived: it is no longer sold`, {
      field: `${field}.experienceId`,
    });
  }
  if (!experience.isBookable) {
    throw new DomainError('EXPERIENCE_NOT_BOOKABLE', `Experience ${experience.id} is not bookable`, { field: `${field}.experienceId` });
  }
  return found;
}

function itemSession(ctx: CartContext, experience: ExperienceRow, item: CartItemInput, field: string): ItemSession {
  const startLocal = normalizeSessionTime(item.sessionTime, experience.timezoneId, `${field}.sessionTime`);
  const found = ctx.catalogue.sessions.get(sessionKey(experience.id, startLocal));
  if (!found) throw sessionNotFound(experience, startLocal, `${field}.sessionTime`);
  assertNotCancelled(found.session, `${field}.sessionTime`);
  assertNotStarted(found.session, ctx.now, `${field}.sessionTime`);
  assertDuration(found.session, item.sessionDuration, `${field}.sessionDuration`);
  return found;
}

/** Places held for the item's waitlist offer (checked), which only this item may take; 0 without one. */
async function offerPlaces(ctx: CartContext, session: SessionRow, item: CartItemInput, field: string): Promise<number> {
  if (item.waitlistEntryId == null) return 0;
  const claim = {
    entryId: item.waitlistEntryId,
    brandId: ctx.brand.id,
    sessionId: session.id,
    cartId: ctx.cartId,
    count: item.participants.length,
    now: ctx.now,
    field,
  };
  return placesHeldForItem(ctx.db, claim);
}

async function itemParticipants(
  ctx: CartContext,
  { experience, priceTiers }: CheckoutExperience,
  { session, lapsedPlaces }: ItemSession,
  item: CartItemInput,
  field: string,
): Promise<PreparedParticipant[]> {
  const participants = item.participants.map((p, j) => {
    const priceMinor = tierPrice(ctx.brand, experience.id, priceTiers, p.priceTierName, `${field}.participants.${j}.priceTierName`);
    const { firstName, lastName, priceTierName } = p;
    return { firstName, lastName, emailAddress: orNull(p.emailAddress), phoneNumber: orNull(p.phoneNumber), priceTierName, priceMinor };
  });
  // Lapsed holds not swept yet are free: the checkout transaction sweeps them before taking places.
  // Places held for waitlist offers are not on sale, except the item's own offer's.
  const free = remainingPlaces(session) + (await offerPlaces(ctx, session, item, field)) + lapsedPlaces;
  const remaining = free - (ctx.placesAsked.get(session.id) ?? 0);
  const limits = { min: experience.minimumRequiredToBook, max: experience.maximumAllowedToBook, remaining };
  checkParticipantCount(participants.length, limits, `${field}.participants`);
  add(ctx.placesAsked, session.id, participants.length);
  return participants;
}

function itemAddOns({ experience, addOns }: CheckoutExperience, item: CartItemInput, field: string): PriceItemInput['addOns'] {
  const known = new Map(addOns.map((row) => [row.id, row]));
  const seen = new Set<string>();
  return (item.listingAddOns ?? []).map(({ addOnId, quantity }, j) => {
    const row = known.get(addOnId);
    if (!row)
      throw new DomainError('UNKNOWN_ADD_ON', `Experience ${experience.id} has no add-on ${addOnId}`, {
        field: `${field}.listingAddOns.${j}.addOnId`,
      });
    if (seen.has(addOnId))
      throw invalid(`${field}.listingAddOns.${j}.addOnId`, `Add-on ${addOnId} is listed twice; give one line with its quantity`);
    seen.add(addOnId);
    return { addOnId, name: row.name, unitPriceMinor: row.priceMinor, quantity };
  });
}

async function itemCredits(ctx: CartContext, item: CartItemInput, field: string): Promise<ResolvedCredit[]> {
  const applied = item.appliedCreditCodes ?? [];
  if (applied.length === 0) return [];
  const rows = await ctx.db.checkout.creditCodesByCode(ctx.brand.id, [
    ...new Set(applied.map((credit) => credit.code.trim().toUpperCase())),
  ]);
  const available = rows.map((row) => ({ ...row, balanceMinor: row.balanceMinor - (ctx.creditUsed.get(row.id) ?? 0) }));
  return resolveCredits(applied, available, ctx.brand.currency, `${field}.appliedCreditCodes`);
}

async function itemPricing(
  ctx: CartContext,
  item: CartItemInput,
  field: string,
): Promise<Omit<PriceItemInput, 'tierPricesMinor' | 'addOns' | 'taxes'>> {
  const { currency } = ctx.brand;
  const discountAmountMinor =
    item.discountAmount == null ? undefined : fromDecimal(item.discountAmount, currency, `${field}.discountAmount`);
  const discountPercentBasisPoints =
    item.discountPercentage == null ? undefined : parsePercentage(item.discountPercentage, `${field}.discountPercentage`);
  const code = item.couponCode?.trim();
  const coupon = code
    ? resolveCoupon(await ctx.db.checkout.findCoupon(ctx.brand.id, code.toUpperCase()), code, ctx.now, `${field}.couponCode`)
    : undefined;
  return { currency, discountAmountMinor, discountPercentBasisPoints, coupon, credits: await itemCredits(ctx, item, field) };
}

/** Checkout extras kept as given until a later issue gives them rules; the partner's own metadata under `partner`. */
function itemMetadata(item: CartItemInput): Record<string, unknown> | null {
  const extras = { accessCode: item.accessCode, resourceGroupId: item.resourceGroupId, resourceQuantity: item.resourceQuantity };
  const kept: Record<string, unknown> = Object.fromEntries(
    Object.entries(extras).filter(([, value]) => value !== null && value !== undefined),
  );
  if (item.metadata) kept.partner = item.metadata;
  return Object.keys(kept).length > 0 ? kept : null;
}

/**
 * Checks item `index` and prices it. `answersOf` validates its custom-question answers (how the
 * purchaser answers depends on the whole cart).
 */
export async function prepareItem(
  ctx: CartContext,
  item: CartItemInput,
  index: number,
  answersOf: (experience: ExperienceRow) => ValidatedAnswers,
): Promise<PreparedItem> {
  const field = `data.${index}`;
  const catalogued = bookableExperience(ctx, item, field);
  const { experience } = catalogued;
  const code = item.intendedConfirmationCode;
  const intendedConfirmationCode = code == null ? null : normalizeIntendedCode(code, `${field}.intendedConfirmationCode`);
  const booked = itemSession(ctx, experience, item, field);
  const participants = await itemParticipants(ctx, catalogued, booked, item, field);
  const addOns = itemAddOns(catalogued, item, field);
  const rules = await itemPricing(ctx, item, field);
  const answers = answersOf(experience);
  const pricing = priceItem({
    ...rules,
    tierPricesMinor: participants.map((p) => p.priceMinor),
    addOns,
    taxes: catalogued.taxes,
  });
  const redemptions = creditRedemptions(pricing, rules.credits ?? []).map((redemption) => {
    const j = (item.appliedCreditCodes ?? []).findIndex((credit) => credit.code.trim().toUpperCase() === redemption.code.toUpperCase());
    return { ...redemption, field: `${field}.appliedCreditCodes.${j}.appliedValue` };
  });
  for (const redemption of redemptions) add(ctx.creditUsed, redemption.creditCodeId, redemption.amountMinor);
  return {
    index,
    experience,
    session: booked.session,
    participants,
    answers,
    pricing,
    redemptions,
    intendedConfirmationCode,
    notes: orNull(item.notes),
    internalNotes: orNull(item.internalNotes),
    metadata: itemMetadata(item),
    waitlistEntryId: orNull(item.waitlistEntryId),
  };
}
