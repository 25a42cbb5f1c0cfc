import DataLoader from 'dataloader';
import type { Deps } from '../domain/shared/deps.ts';
import { hostsByIds } from '../domain/catalog/hosts.ts';
import { customQuestionsByExperience } from '../domain/questions/questions.ts';

/** Per-request DataLoaders: the nested lookups of one request become one query per kind. */
export function createLoaders(deps: Deps) {
  return {
    host: new DataLoader((ids: readonly string[]) => hostsByIds(deps, ids)),
    customQuestions: new DataLoader(
      (experiences: ReadonlyArray<{ id: string; brandId: string }>) => customQuestionsByExperience(deps, experiences),
      {
        cacheKeyFn: (experience) => experience.id,
      },
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
