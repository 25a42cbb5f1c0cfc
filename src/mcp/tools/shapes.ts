/**
 * Argument schemas several tools share, and the shapes answers share: the brand (the key's own by
 * default), languages, dates, and an experience or a session as an assistant reads them.
 */
import { z } from 'zod';
import { actingBrand } from '../../domain/access/principal.ts';
import type { Session } from '../../domain/availability/sessions.ts';
import { loadBrand } from '../../domain/catalog/brands.ts';
import type { Experience } from '../../domain/catalog/experiences.ts';
import type { CallerDeps } from '../../domain/shared/deps.ts';
import { brandLocale, MAX_LOCALE_LENGTH } from '../../domain/shared/locale.ts';
import { localTime, moneyOfDecimal } from '../answers.ts';

export const brandIdArg = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe("The brand's id; leave it out to use the brand the API key belongs to (a brand's keys act for one brand).");
export const languageArg = z
  .string()
  .min(2)
  .max(MAX_LOCALE_LENGTH)
  .optional()
  .describe(
    "BCP 47 language of the traveller, e.g. 'pt' or 'ja-JP': texts come translated where the brand has them, amounts are written in it.",
  );
export const dateArg = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
    .describe(`${what}: a local date YYYY-MM-DD where the experience takes place.`);
export const idArg = (what: string) => z.string().min(1).max(100).describe(what);

/** The brand a call acts for, checked as every operation checks it, and the language its answer is written in. */
export async function brandOf(caller: CallerDeps, brandId: string | undefined, language: string | undefined) {
  const brand = await loadBrand(caller, actingBrand(caller.principal, brandId));
  return { brand, language: language ?? brandLocale(brand) };
}

export const sessionView = (session: Session) => ({
  sessionId: session.id,
  start: localTime(session.startDateTime, session.timezone),
  durationMinutes: session.duration,
  capacity: session.capacity,
  remaining: session.remaining,
  waitlistId: session.waitlistId,
});

/** What a search result shows of an experience; `get_experience` adds the rest. */
export function experienceSummary(experience: Experience, language: string) {
  return {
    experienceId: experience.id,
    title: experience.title,
    headline: experience.headline,
    contentLanguage: experience.contentLanguage,
    category: experience.category.name,
    vibes: experience.vibes.map((vibe) => vibe.name),
    place: { name: experience.location.name, timeZone: experience.location.timezoneId },
    durationMinutes: experience.sessionDurationMinutes,
    groupSize: { min: experience.minimumRequiredToBook ?? 1, max: experience.maximumAllowedToBook ?? experience.maxParticipantsCount },
    priceTiers: experience.priceTiers.map((tier) => ({
      name: tier.name,
      price: moneyOfDecimal(tier.price, experience.currency, language),
    })),
    isBookable: experience.isBookable,
  };
}
