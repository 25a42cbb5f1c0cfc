import DataLoader from 'dataloader';
import type { CallerDeps, Deps } from '../domain/shared/deps.ts';
import { findExperience, type Experience, type ExperienceInput } from '../domain/catalog/experiences.ts';
import { customQuestionsByExperience } from '../domain/questions/questions.ts';
import { findSessions } from '../domain/availability/sessions.ts';
import { getFeaturedListings, type FeaturedListingsInput, type Listing } from '../domain/catalog/listings.ts';

/**
 * Per-request DataLoaders: the nested lookups of one request become one query per kind. `caller` gives
 * the authenticated caller's deps (throwing for a request without a valid key), for loads that need them.
 */
export function createLoaders(deps: Deps, caller: () => CallerDeps) {
  return {
    /**
     * Experiences asked for at the root, several per query (aliases): read together, they are all there at
     * the same moment, so what their fields load next (custom questions) is one batch, however long each
     * read took on its own.
     */
    experience: new DataLoader(
      (inputs: readonly ExperienceInput[]) =>
        Promise.all(
          inputs.map(async (input) => {
            try {
              return await findExperience(caller(), input);
            } catch (error) {
              // Each key fails with its own error (an unknown brand, no key), as the field would on its own.
              return error as Error;
            }
          }),
        ),
      { cacheKeyFn: (input) => JSON.stringify([input.brandId ?? null, input.experienceId, input.language ?? null]) },
    ) as DataLoader<ExperienceInput, Experience | null>,
    /** Sessions by id (bookings' sessions, `node`): one read for all of a request's; undefined for one the key may not see. */
    session: new DataLoader(async (ids: readonly string[]) => {
      const found = await findSessions(caller(), ids);
      return ids.map((id) => found.get(id));
    }),
    /** A brand's featured listings per variant, read once however many `nodes` ids name its listings. */
    featuredListings: new DataLoader(
      (inputs: readonly FeaturedListingsInput[]) =>
        Promise.all(inputs.map((input) => getFeaturedListings(caller(), input).catch((error: unknown) => error as Error))),
      { cacheKeyFn: (input) => JSON.stringify([input.brandId, input.unlisted, input.locale, input.version]) },
    ) as DataLoader<FeaturedListingsInput, Listing[]>,
    customQuestions: new DataLoader(
      (experiences: ReadonlyArray<{ id: string; brandId: string }>) => customQuestionsByExperience(deps, experiences),
      {
        cacheKeyFn: (experience) => experience.id,
      },
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
