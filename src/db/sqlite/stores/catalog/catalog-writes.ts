/** The catalogue writes of src/db/catalog-writes, run synchronously on SQLite's connection. */
import type { BrandWritesStore, ListingWritesStore } from '../../../../domain/catalog/store.ts';
import { brandSettingsWrites } from '../../../catalog-writes/brand-settings.ts';
import { bindSteps, runSteps, type Step, type Steps } from '../../../catalog-writes/kit.ts';
import { listingWrites } from '../../../catalog-writes/listings.ts';
import type { Db } from '../../client.ts';
import * as schema from '../../schema/index.ts';
import type { SqliteStore } from '../../store-binding.ts';
import { findBrand } from './brands.ts';
import { findListingToWrite } from './listings.ts';

/** A unit of work on SQLite holds the one connection: its rows are its own without locks. */
const exec = (db: Db) => (step: Step) => {
  if (step.kind === 'rows') return db.all(step.query);
  if (step.kind === 'count') return db.run(step.query).changes;
  return undefined;
};

const run = (db: Db, steps: Steps<unknown>) => runSteps(steps, exec(db));

export const listingWritesStore = {
  ...(bindSteps(listingWrites(schema), run) as Omit<SqliteStore<ListingWritesStore>, 'findListingToWrite'>),
  findListingToWrite,
} satisfies SqliteStore<ListingWritesStore>;

export const brandWritesStore = {
  ...(bindSteps(brandSettingsWrites(schema), run) as Omit<SqliteStore<BrandWritesStore>, 'findBrandToWrite'>),
  findBrandToWrite: findBrand,
} satisfies SqliteStore<BrandWritesStore>;
