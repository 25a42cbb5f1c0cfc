/**
 * Searching a brand's listed experiences, as an assistant looks for something to book: words of the
 * traveller's own language, a date range with places left for the group, a price ceiling. Each
 * experience is read as `findExperience` reads it (text in the language asked) and each session as
 * availability shows it to the caller (a publishable key sees its share), so a search never finds what
 * the experience page or availability would not show. A brand's catalogue is read a page of ids at a
 * time until the page of results is full.
 */
import { actingBrand } from '../access/principal.ts';
import { sessionsOfExperience, availabilityRange, type Session } from '../availability/sessions.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { invalid } from '../shared/errors.ts';
import { fromDecimal } from '../shared/money.ts';
import { decodeCursor, encodeCursor } from '../shared/pagination.ts';
import { loadBrand } from './brands.ts';
import { findExperiences, type Experience } from './experiences.ts';

export const DEFAULT_SEARCH_RESULTS = 10;
export const MAX_SEARCH_RESULTS = 50;
export const MAX_SEARCH_TEXT = 200;
export const MAX_GROUP_SIZE = 100;

export interface ExperienceSearchInput {
  /** Without it, the brand the key acts for. */
  brandId?: string | null;
  /** Words that must all appear in the experience's title, headline, description, category, vibes or place (any case, any accents). */
  text?: string | null;
  /** BCP 47 tag of the text to search and answer in (the brand's default locale when absent). */
  language?: string | null;
  /** Local dates `YYYY-MM-DD`, both or neither: only experiences with a session in the range with places for the group. */
  from?: string | null;
  to?: string | null;
  /** Guests booking together: the experience takes a party of this size (and, with dates, a session has places for it). */
  groupSize?: number | null;
  /** In minor units of the brand's currency: the lowest price tier is at most this. */
  maxPriceMinor?: number | null;
  first?: number | null;
  /** `nextCursor` of the page before. */
  after?: string | null;
}

export interface ExperienceSearchHit {
  experience: Experience;
  /** The lowest price tier in minor units; null when the experience offers none. */
  lowestPriceMinor: number | null;
  /** With a date range: its sessions with places for the group, by start; otherwise null. */
  sessions: Session[] | null;
}

export interface ExperienceSearchPage {
  items: ExperienceSearchHit[];
  /** Pass as `after` for the next page; null on the last. */
  nextCursor: string | null;
}

/** Lower case without accents: "Elétrico" and "eletrico" are the same word. */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLocaleLowerCase('en');

function checkInput(input: ExperienceSearchInput): { first: number; words: string[]; range: { from: string; to: string } | null } {
  const first = input.first ?? DEFAULT_SEARCH_RESULTS;
  if (!Number.isInteger(first) || first < 1 || first > MAX_SEARCH_RESULTS) {
    throw invalid('first', `first must be an integer from 1 to ${MAX_SEARCH_RESULTS}`);
  }
  const text = input.text ?? '';
  if (text.length > MAX_SEARCH_TEXT) throw invalid('text', `text is at most ${MAX_SEARCH_TEXT} characters`);
  const group = input.groupSize;
  if (group !== null && group !== undefined && (!Number.isInteger(group) || group < 1 || group > MAX_GROUP_SIZE)) {
    throw invalid('groupSize', `groupSize must be an integer from 1 to ${MAX_GROUP_SIZE}`);
  }
  const ceiling = input.maxPriceMinor;
  if (ceiling !== null && ceiling !== undefined && (!Number.isSafeInteger(ceiling) || ceiling < 0)) {
    throw invalid('maxPriceMinor', 'maxPriceMinor must be a whole number of minor units, 0 or more');
  }
  if (Boolean(input.from) !== Boolean(input.to)) {
    throw invalid(input.from ? 'to' : 'from', 'from and to go together: give both dates, or neither');
  }
  const range = input.from && input.to ? { from: input.from, to: input.to } : null;
  if (range) availabilityRange(range.from, range.to);
  return { first, words: folded(text).split(/\s+/).filter(Boolean), range };
}

const takesParty = (experience: Experience, size: number) =>
  size <= experience.maxParticipantsCount &&
  size <= (experience.maximumAllowedToBook ?? size) &&
  size >= (experience.minimumRequiredToBook ?? 1);

const searchedText = (experience: Experience) =>
  folded(
    [
      experience.title,
      experience.headline,
      experience.description,
      experience.category.name,
      experience.location.name,
      ...experience.vibes.map((vibe) => vibe.name),
    ].join(' '),
  );

/** The brand's listed experiences matching every criterion, by id, a page at a time. */
export async function searchExperiences(deps: CallerDeps, input: ExperienceSearchInput): Promise<ExperienceSearchPage> {
  const { first, words, range } = checkInput(input);
  const brand = await loadBrand(deps, actingBrand(deps.principal, input.brandId));
  let after = input.after ? decodeCursor(input.after, 1, 'after')[0]! : null;
  const group = input.groupSize ?? 1;
  const items: ExperienceSearchHit[] = [];
  for (;;) {
    const ids = await deps.db.experiences.listedExperienceIds(brand.id, after, first);
    const read = await findExperiences(
      deps,
      ids.map((experienceId) => ({ brandId: brand.id, experienceId, language: input.language })),
    );
    for (const experience of read) {
      if (experience instanceof Error) throw experience;
      if (!experience) continue;
      const hit = await matching(deps, experience, { words, range, group, ceiling: input.maxPriceMinor ?? null });
      if (!hit) continue;
      // One more than the page holds: there is a next page, which starts after the page's last item.
      if (items.length === first) return { items, nextCursor: encodeCursor([items[first - 1]!.experience.id]) };
      items.push(hit);
    }
    if (ids.length < first) return { items, nextCursor: null };
    after = ids[ids.length - 1]!;
  }
}

async function matching(
  deps: CallerDeps,
  experience: Experience,
  criteria: { words: string[]; range: { from: string; to: string } | null; group: number; ceiling: number | null },
): Promise<ExperienceSearchHit | null> {
  if (!takesParty(experience, criteria.group)) return null;
  const text = searchedText(experience);
  if (!criteria.words.every((word) => text.includes(word))) return null;
  const prices = experience.priceTiers.map((tier) => fromDecimal(tier.price, experience.currency, 'price'));
  const lowestPriceMinor = prices.length > 0 ? Math.min(...prices) : null;
  if (criteria.ceiling !== null && (lowestPriceMinor === null || lowestPriceMinor > criteria.ceiling)) return null;
  if (!criteria.range) return { experience, lowestPriceMinor, sessions: null };
  const sessions = (await sessionsOfExperience(deps, { experienceId: experience.id, ...criteria.range })).filter(
    (session) => session.remaining >= criteria.group,
  );
  return sessions.length > 0 ? { experience, lowestPriceMinor, sessions } : null;
}
