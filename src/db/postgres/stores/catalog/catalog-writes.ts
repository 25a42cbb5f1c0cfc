/** The catalogue writes of src/db/catalog-writes, each statement awaited on the unit's client. */
import { eq, type AnyColumn } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type {
  BrandWritesStore,
  CodedWritesStore,
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
import { bindSteps, runStepsAsync, type Step, type Steps } from '../../../catalog-writes/kit.ts';
import { listingWrites } from '../../../catalog-writes/listings.ts';
import * as schema from '../../schema/index.ts';
import { lockInUnit, readOwned, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { findBrand } from './brands.ts';
import { findListingToWrite } from './listings.ts';

const exec = (db: PgExecutor) => async (step: Step) => {
  const result = await db.execute(step.query);
  return step.kind === 'rows' ? result.rows : (result.rowCount ?? 0);
};

const run = <R>(db: PgExecutor, steps: Steps<R>): Promise<R> => runStepsAsync(steps, exec(db));

export const listingWritesStore = {
  ...(bindSteps(listingWrites(schema), run) as Omit<PostgresStore<ListingWritesStore>, 'findListingToWrite'>),
  findListingToWrite,
} satisfies PostgresStore<ListingWritesStore>;

/** The brand's row is locked first in a unit of work, so an `If-Match` checked on this read holds until it commits. */
async function findBrandToWrite(db: PgExecutor, brandId: string) {
  if (!(await lockInUnit(db, schema.brands, eq(schema.brands.id, brandId)))) return undefined;
  return findBrand(db, brandId);
}

export const brandWritesStore = {
  ...(bindSteps(brandSettingsWrites(schema), run) as Omit<PostgresStore<BrandWritesStore>, 'findBrandToWrite'>),
  findBrandToWrite,
} satisfies PostgresStore<BrandWritesStore>;

export const experienceWritesStore = bindSteps(experienceWrites(schema), run) as PostgresStore<ExperienceWritesStore>;

const hostWriteSteps = bindSteps(hostWrites(schema), run) as PostgresStore<HostWritesStore>;

/** The host's row is locked first in a unit of work, so an `If-Match` checked on this read holds until it commits. */
async function findHostToWrite(db: PgExecutor, hostId: string) {
  if (!(await lockInUnit(db, schema.hosts, eq(schema.hosts.id, hostId)))) return undefined;
  return hostWriteSteps.findHostToWrite(db, hostId);
}

export const hostWritesStore = { ...hostWriteSteps, findHostToWrite } satisfies PostgresStore<HostWritesStore>;

/**
 * A coded object's row (coupon, credit code) is read and locked in one statement in a unit of work, so an
 * `If-Match` checked on it holds until the unit commits. The table's columns are the row's.
 */
function lockingCodedStore<Row, Fields>(table: PgTable & { id: AnyColumn }, steps: PostgresStore<CodedWritesStore<Row, Fields>>) {
  const findToWrite = async (db: PgExecutor, id: string) => {
    const [row] = await readOwned(db, db.select().from(table).where(eq(table.id, id)));
    return row as Row | undefined;
  };
  return { ...steps, findToWrite } satisfies PostgresStore<CodedWritesStore<Row, Fields>>;
}

export const couponWritesStore = lockingCodedStore(
  schema.coupons,
  bindSteps(couponWrites(schema), run) as PostgresStore<CouponWritesStore>,
);
export const creditCodeWritesStore = lockingCodedStore(
  schema.creditCodes,
  bindSteps(creditCodeWrites(schema), run) as PostgresStore<CreditCodeWritesStore>,
);
