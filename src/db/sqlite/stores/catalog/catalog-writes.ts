/** The catalogue writes of src/db/catalog-writes, run synchronously on SQLite's connection. */
import type {
  BrandWritesStore,
  CouponWritesStore,
  CreditCodeWritesStore,
  ExperienceWritesStore,
  HostWritesStore,
  ListingWritesStore,
} from '../../../../domain/catalog/store.ts';
import { brandSettingsWrites } from '../../../catalog-writes/brand-settings.ts';
import { experienceWrites } from '../../../catalog-writes/experiences.ts';
import { couponWrites, creditCodeWrites } from '../../../catalog-writes/coded.ts';
import { hostWrites } from '../../../catalog-writes/hosts.ts';
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

export const experienceWritesStore = bindSteps(experienceWrites(schema), run) as SqliteStore<ExperienceWritesStore>;

export const hostWritesStore = bindSteps(hostWrites(schema), run) as SqliteStore<HostWritesStore>;

export const couponWritesStore = bindSteps(couponWrites(schema), run) as SqliteStore<CouponWritesStore>;

export const creditCodeWritesStore = bindSteps(creditCodeWrites(schema), run) as SqliteStore<CreditCodeWritesStore>;
