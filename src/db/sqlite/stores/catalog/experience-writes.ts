import type { ExperienceWritesStore } from '../../../../domain/catalog/store.ts';
import * as writes from '../../../catalog-writes/experiences.ts';
import { runStepsSync, type Row, type Statement, type Steps } from '../../../catalog-writes/statement-steps.ts';
import type { Db } from '../../client.ts';
import {
  categories,
  experienceMedia,
  experienceTranslations,
  experienceVibes,
  experiences,
  media,
  priceTiers,
  taxes,
  vibes,
} from '../../schema/index.ts';
import type { SqliteStore } from '../../store-binding.ts';

const tables: writes.ExperienceTables = {
  experiences,
  experienceTranslations,
  experienceVibes,
  experienceMedia,
  priceTiers,
  taxes,
  media,
  categories,
  vibes,
};

const run =
  <R>(steps: Steps<R>) =>
  (db: Db): R =>
    runStepsSync(steps, ({ query, returns }: Statement): Row[] => {
      if (returns) return db.all<Row>(query);
      db.run(query);
      return [];
    });

/** The SQL of src/db/catalog-writes/experiences.ts, run synchronously. */
export const experienceWritesStore = {
  insertExperience: (db, write) => run(writes.insertExperience(tables, write))(db),
  replaceExperience: (db, write, expectedVersion) => run(writes.replaceExperience(tables, write, expectedVersion))(db),
  archiveExperience: (db, id, at, expectedVersion) => run(writes.archiveExperience(tables, id, at, expectedVersion))(db),
  experienceIdBySlug: (db, brandId, slug) => run(writes.experienceIdBySlug(tables, brandId, slug))(db),
  categoriesOfBrand: (db, brandId) => run(writes.namedOfBrand(categories, brandId))(db),
  vibesOfBrand: (db, brandId) => run(writes.namedOfBrand(vibes, brandId))(db),
  mediaOfBrand: (db, brandId, ids) => run(writes.mediaOfBrand(tables, brandId, ids))(db),
} satisfies SqliteStore<ExperienceWritesStore>;
