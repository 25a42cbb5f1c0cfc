/**
 * The brand settings' `features.active` flags that change what the API does. Each is read here and only
 * here; a refusal names the flag (`FEATURE_NOT_ENABLED`, `details.flag`). The other flags the spec lists
 * (notifications, dashboard and page features) are shown in the settings and change nothing in the API.
 */
import { DomainError } from '../shared/errors.ts';

export const governingFlags = [
  /** Unlisted listings (`unlisted=true`) and unlisted experiences (read, booked, waited for by id). */
  'unlistedExperience',
  /** Carts of more than one item. */
  'shoppingCart',
  /** Custom questions: asked (listed, required) and answered at checkout and on waitlists. */
  'customQuestions',
  /** Reviews and the ratings drawn from them. */
  'reviews',
  /** Price tiers beyond an experience's first one. */
  'priceTiers',
  /** The credit-card payment method (through the payment processor). */
  'creditCard',
  /** The pay-upon-arrival payment method. */
  'payUponArrival',
  /** The room-charge and member-number payment methods. */
  'roomMemberCharge',
  /** Moving a confirmed booking to another session of its experience. */
  'enableRescheduleBookings',
] as const;

export type GoverningFlag = (typeof governingFlags)[number];

/**
 * A flag that asks for more rather than allowing more: publishable-key checkouts and waitlist joins of
 * the brand must carry a human check's token (src/domain/checkout/human-check.ts). Off unless listed.
 */
export const HUMAN_CHECK_FLAG = 'requireHumanCheck';

interface Featured {
  id: string;
  featuresActive: readonly string[];
}

export const hasFeature = (brand: Featured, flag: GoverningFlag): boolean => brand.featuresActive.includes(flag);

/** Throws FEATURE_NOT_ENABLED naming `flag` (and `field`, the input that asked for it) when the brand lacks it. */
export function requireFeature(brand: Featured, flag: GoverningFlag, what: string, field?: string): void {
  if (hasFeature(brand, flag)) return;
  throw new DomainError('FEATURE_NOT_ENABLED', `${what} needs the brand feature ${flag}, which brand ${brand.id} does not have`, {
    flag,
    ...(field ? { field } : {}),
  });
}

/** The price tiers a brand sells: all of them with `priceTiers`, else only the experience's first. */
export function offeredTiers<T>(brand: Featured, tiers: readonly T[]): T[] {
  return hasFeature(brand, 'priceTiers') ? [...tiers] : tiers.slice(0, 1);
}

/**
 * The price of tier `name` among the experience's `tiers` (in order): UNKNOWN_PRICE_TIER when it has no
 * such tier, FEATURE_NOT_ENABLED (`priceTiers`) when it has one the brand does not sell.
 */
export function tierPrice(
  brand: Featured,
  experienceId: string,
  tiers: ReadonlyArray<{ name: string; priceMinor: number }>,
  name: string,
  field: string,
): number {
  const sold = offeredTiers(brand, tiers);
  const tier = sold.find((t) => t.name === name);
  if (tier) return tier.priceMinor;
  if (tiers.some((t) => t.name === name)) requireFeature(brand, 'priceTiers', `Price tier "${name}"`, field);
  throw new DomainError('UNKNOWN_PRICE_TIER', `Experience ${experienceId} has no price tier "${name}"`, {
    field,
    tiers: sold.map((t) => t.name),
  });
}
