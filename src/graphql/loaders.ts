import DataLoader from 'dataloader';
import type { CallerDeps, Deps } from '../domain/shared/deps.ts';
import { findExperience, findExperiences, type Experience, type ExperienceInput } from '../domain/catalog/experiences.ts';
import { findBookings } from '../domain/bookings/bookings.ts';
import { findReviews } from '../domain/catalog/reviews.ts';
import { customQuestionsByExperience } from '../domain/questions/questions.ts';
import { addOnsOfExperiences } from '../domain/catalog/experience-writes.ts';
import { findSessions } from '../domain/availability/sessions.ts';
import type { SessionOfExperience } from '../domain/availability/store.ts';
import { getFeaturedListings, type FeaturedListingsInput, type Listing } from '../domain/catalog/listings.ts';

/**
 * Per-request DataLoaders: the nested lookups of one request become one query per kind. `caller` gives
 * the authenticated caller's deps (throwing for a request without a valid key), for loads that need them.
 */
export function createLoaders(deps: Deps, caller: () => CallerDeps) {
  /**
   * Experiences asked for at the root (aliases), a list's bookings' or reviews', or a router's references:
   * read together, so what their fields load next (custom questions) is one batch too. Each key fails with
   * its own error (an unknown brand, no key), as the field would on its own. One alone takes the single
   * read, whose statements are prepared once (the experience page's hot path).
   */
  const experience: DataLoader<ExperienceInput, Experience | null> = new DataLoader(
    async (inputs: readonly ExperienceInput[]) => {
      const found =
        inputs.length > 1
          ? await findExperiences(caller(), inputs)
          : [await findExperience(caller(), inputs[0]!).catch((error: unknown) => error as Error)];
      // An experience found is the same answer with its brand named or not (its own brand, checked the
      // same way): a review's experience on the page of that experience is not read again.
      found.forEach((result, i) => {
        if (!result || result instanceof Error) return;
        const { language } = inputs[i]!;
        for (const brandId of [null, result.brandId]) experience.prime({ brandId, experienceId: result.id, language }, result);
      });
      return found;
    },
    { cacheKeyFn: (input) => JSON.stringify([input.brandId ?? null, input.experienceId, input.language ?? null]) },
  );
  const knownSessions = new Map<string, SessionOfExperience>();
  return {
    /**
     * Sessions as a write of this request left them (`session` then shows them without reading them again,
     * the view built as a read's); before the first load of their ids.
     */
    knowSessions(sessions: readonly SessionOfExperience[]): void {
      for (const row of sessions) knownSessions.set(row.session.id, row);
    },
    experience,
    /** Bookings by id (`node`, a router's references): one read for all of a request's; undefined for one the key may not see. */
    booking: new DataLoader(async (ids: readonly string[]) => {
      const found = await findBookings(caller(), ids);
      return ids.map((id) => found.get(id));
    }),
    /** Reviews by id (a router's references): one read for all of a request's; undefined for one the key may not see. */
    review: new DataLoader(async (ids: readonly string[]) => {
      const found = await findReviews(caller(), ids);
      return ids.map((id) => found.get(id));
    }),
    /** Sessions by id (bookings' sessions, `node`): one read for all of a request's; undefined for one the key may not see. */
    session: new DataLoader(async (ids: readonly string[]) => {
      const found = await findSessions(caller(), ids, knownSessions);
      return ids.map((id) => found.get(id));
    }),
    /** A brand's featured listings per variant, read once however many `nodes` ids name its listings. */
    featuredListings: new DataLoader(
      (inputs: readonly FeaturedListingsInput[]) =>
        Promise.all(inputs.map((input) => getFeaturedListings(caller(), input).catch((error: unknown) => error as Error))),
      { cacheKeyFn: (input) => JSON.stringify([input.brandId, input.unlisted, input.locale, input.version]) },
    ) as DataLoader<FeaturedListingsInput, Listing[]>,
    addOns: new DataLoader((experiences: ReadonlyArray<{ id: string; currency: string }>) => addOnsOfExperiences(deps, experiences), {
      cacheKeyFn: (experience) => experience.id,
    }),
    customQuestions: new DataLoader(
      (experiences: ReadonlyArray<{ id: string; brandId: string }>) => customQuestionsByExperience(deps, experiences),
      {
        cacheKeyFn: (experience) => experience.id,
      },
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
