/**
 * Finding something to book: search, one experience with its questions and policies, its sessions.
 * Open to publishable keys (uses `catalogue` and `availability`), as the REST routes they mirror.
 */
import { z } from 'zod';
import { listAvailability } from '../../domain/availability/sessions.ts';
import { getCancellationPolicy, getReschedulePolicy } from '../../domain/catalog/brands.ts';
import { getExperience } from '../../domain/catalog/experiences.ts';
import { MAX_GROUP_SIZE, MAX_SEARCH_RESULTS, MAX_SEARCH_TEXT, searchExperiences } from '../../domain/catalog/search.ts';
import { listCustomQuestions } from '../../domain/questions/questions.ts';
import { money } from '../answers.ts';
import { cursorArg, firstArg, pageOf } from '../paging.ts';
import { tool } from '../tool.ts';
import { brandIdArg, brandOf, dateArg, experienceSummary, idArg, languageArg, sessionView } from './shapes.ts';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const searchExperiencesTool = tool({
  name: 'search_experiences',
  title: "Search a brand's experiences",
  description:
    "Finds a brand's bookable experiences (tours, classes, tastings...). Every criterion given must hold: all words of `text` " +
    'appear in the title, headline, description, category, vibes or meeting place (in `language`, any case or accents); with ' +
    '`from` and `to` (both, at most 92 days), only experiences with a session in the range that has places for `groupSize`, ' +
    'and those sessions are listed; `maxPriceMinor` bounds the cheapest price tier. Ordered by id; page with `cursor`.',
  use: 'catalogue',
  writes: false,
  annotations: readOnly,
  input: z.strictObject({
    brandId: brandIdArg,
    text: z.string().max(MAX_SEARCH_TEXT).optional().describe("Words to look for, in the traveller's language, e.g. 'elétrico'."),
    language: languageArg,
    from: dateArg('First day').optional(),
    to: dateArg('Last day, included').optional(),
    groupSize: z.number().int().min(1).max(MAX_GROUP_SIZE).optional().describe('How many guests book together.'),
    maxPriceMinor: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Price ceiling per guest in minor units of the brand's currency (4500 is 45.00 EUR)."),
    first: firstArg(MAX_SEARCH_RESULTS, 10),
    cursor: cursorArg,
  }),
  async run({ caller }, args) {
    const { brand, language } = await brandOf(caller, args.brandId, args.language);
    const page = await searchExperiences(caller, { ...args, brandId: brand.id, language, after: args.cursor });
    return {
      brandId: brand.id,
      items: page.items.map((hit) => ({
        ...experienceSummary(hit.experience, language),
        fromPrice: hit.lowestPriceMinor === null ? null : money(hit.lowestPriceMinor, brand.currency, language),
        ...(hit.sessions ? { sessions: hit.sessions.map(sessionView) } : {}),
      })),
      nextCursor: page.nextCursor,
    };
  },
});

export const getExperienceTool = tool({
  name: 'get_experience',
  title: 'Read one experience',
  description:
    'One experience of the brand in full: description, meeting place and its time zone, what is provided, health and safety, ' +
    'price tiers (the names a booking uses), taxes, group size, the questions a booking must answer (by customQuestionId; ' +
    'config.isRequired, config.scope per booking or per participant) and the cancellation and reschedule policies.',
  use: 'catalogue',
  writes: false,
  annotations: readOnly,
  input: z.strictObject({
    brandId: brandIdArg,
    experienceId: idArg("The experience's id (experienceId of a search result)."),
    language: languageArg,
  }),
  async run({ caller }, args) {
    const { brand, language } = await brandOf(caller, args.brandId, args.language);
    const experience = await getExperience(caller, { brandId: brand.id, experienceId: args.experienceId, language });
    const questions = await listCustomQuestions(caller, { brandId: brand.id, experienceId: experience.id });
    return {
      brandId: brand.id,
      ...experienceSummary(experience, language),
      description: experience.description,
      healthAndSafety: experience.healthAndSafety,
      providedItems: experience.providedItems,
      place: {
        name: experience.location.name,
        additionalInfo: experience.location.additionalInfo,
        latitude: experience.location.latitude,
        longitude: experience.location.longitude,
        timeZone: experience.location.timezoneId,
      },
      host: { firstName: experience.hostedBy.firstName, description: experience.hostedBy.description },
      taxes: experience.taxes.map((tax) => ({ name: tax.name, percent: tax.amount })),
      questions,
      policies: {
        cancellation: await getCancellationPolicy(caller, experience.cancellationPolicyId ?? brand.cancellationPolicyId),
        reschedule: await getReschedulePolicy(caller, brand.reschedulePolicyId),
      },
    };
  },
});

export const checkAvailabilityTool = tool({
  name: 'check_availability',
  title: "Check an experience's sessions",
  description:
    'Sessions of an experience starting from `from` to `to` (local dates, at most 92 days) that have not started, by start: ' +
    'local start with its time zone, places remaining for this key (what a hold can take now), and the waitlist to join when ' +
    'a session is full. Page with `cursor`.',
  use: 'availability',
  writes: false,
  annotations: readOnly,
  input: z.strictObject({
    brandId: brandIdArg,
    experienceId: idArg("The experience's id."),
    from: dateArg('First day'),
    to: dateArg('Last day, included'),
    first: firstArg(100, 50),
    cursor: cursorArg,
  }),
  async run({ caller }, args) {
    const { brand } = await brandOf(caller, args.brandId, undefined);
    const sessions = await listAvailability(caller, { brandId: brand.id, experienceId: args.experienceId, from: args.from, to: args.to });
    const { page, nextCursor } = pageOf(sessions, (s) => `${s.startDateTime}|${s.id}`, args.first ?? 50, args.cursor);
    return { brandId: brand.id, experienceId: args.experienceId, sessions: page.map(sessionView), nextCursor };
  },
});
