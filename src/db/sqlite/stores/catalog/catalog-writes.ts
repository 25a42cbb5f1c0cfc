/** The catalogue writes of src/db/catalog-writes, run synchronously on SQLite's connection. */
import type { BrandWritesStore, ExperienceWritesStore, ListingWritesStore } from '../../../../domain/catalog/store.ts';
import { brandSettingsWrites } from '../../../catalog-writes/brand-settings.ts';
import * as experienceWrites from '../../../catalog-writes/experiences.ts';
import { bindSteps, runSteps, type Step, type Steps } from '../../../catalog-writes/kit.ts';
import { listingWrites } from '../../../catalog-writes/listings.ts';
import type { Db } from '../../client.ts';
import * as schema from '../../schema/index.ts';
import type { SqliteStore } from '../../store-binding.ts';
import { findBrand } from './brands.ts';
import { findListingToWrite } from './listings.ts';

/** A unit of work on SQLite holds the one connection: its rows are its own without locks. */
const exec = (db: Db) => (step: Step) => (step.kind === 'rows' ? db.all(step.query) : db.run(step.query).changes);

const run = <R>(db: Db, steps: Steps<R>): R => runSteps(steps, exec(db));

export const listingWritesStore = {
  ...(bindSteps(listingWrites(schema), run) as Omit<SqliteStore<ListingWritesStore>, 'findListingToWrite'>),
  findListingToWrite,
} satisfies SqliteStore<ListingWritesStore>;

export const brandWritesStore = {
  ...(bindSteps(brandSettingsWrites(schema), run) as Omit<SqliteStore<BrandWritesStore>, 'findBrandToWrite'>),
  findBrandToWrite: findBrand,
} satisfies SqliteStore<BrandWritesStore>;

/** The tables of src/db/catalog-writes/experiences.ts. */
const experienceTables: experienceWrites.ExperienceTables = schema;

export const experienceWritesStore = {
  insertExperience: (db, write) => run(db, experienceWrites.insertExperience(experienceTables, write)),
  replaceExperience: (db, write, expectedVersion) => run(db, experienceWrites.replaceExperience(experienceTables, write, expectedVersion)),
  archiveExperience: (db, id, at, expectedVersion) =>
    run(db, experienceWrites.archiveExperience(experienceTables, id, at, expectedVersion)),
  experienceIdBySlug: (db, brandId, slug) => run(db, experienceWrites.experienceIdBySlug(experienceTables, brandId, slug)),
  categoriesOfBrand: (db, brandId) => run(db, experienceWrites.namedOfBrand(schema.categories, brandId)),
  vibesOfBrand: (db, brandId) => run(db, experienceWrites.namedOfBrand(schema.vibes, brandId)),
  mediaOfBrand: (db, brandId, ids) => run(db, experienceWrites.mediaOfBrand(experienceTables, brandId, ids)),
} satisfies SqliteStore<ExperienceWritesStore>;
