import type { ExperienceWritesStore } from '../../../../domain/catalog/store.ts';
import * as writes from '../../../catalog-writes/experiences.ts';
import { runSteps, type Row, type Statement, type Steps } from '../../../catalog-writes/statement-steps.ts';
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
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';

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

const run = <R>(db: PgExecutor, steps: Steps<R>): Promise<R> =>
  runSteps(steps, async ({ query }: Statement) => (await db.execute<Row>(query)).rows);

/** The SQL of src/db/catalog-writes/experiences.ts, each statement awaited. */
export const experienceWritesStore = {
  insertExperience: (db, write) => run(db, writes.insertExperience(tables, write)),
  replaceExperience: (db, write, expectedVersion) => run(db, writes.replaceExperience(tables, write, expectedVersion)),
  archiveExperience: (db, id, at, expectedVersion) => run(db, writes.archiveExperience(tables, id, at, expectedVersion)),
  experienceIdBySlug: (db, brandId, slug) => run(db, writes.experienceIdBySlug(tables, brandId, slug)),
  categoriesOfBrand: (db, brandId) => run(db, writes.namedOfBrand(categories, brandId)),
  vibesOfBrand: (db, brandId) => run(db, writes.namedOfBrand(vibes, brandId)),
  mediaOfBrand: (db, brandId, ids) => run(db, writes.mediaOfBrand(tables, brandId, ids)),
} satisfies PostgresStore<ExperienceWritesStore>;
