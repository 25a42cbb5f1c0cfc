import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { brands, cancellationPolicies, reschedulePolicies } from '../../schema/index.ts';
import type { BrandRow, BrandsStore, CancellationPolicyRow, ReschedulePolicyRow } from '../../../../domain/catalog/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

/** Nearly every request loads its brand: prepared once. */
const brandById = preparedPerDb((db) =>
  db
    .select()
    .from(brands)
    .where(eq(brands.id, sql.placeholder('id')))
    .prepare(),
);

export function findBrand(db: Db, id: string): BrandRow | undefined {
  return brandById(db).get({ id });
}

const cancellationPolicyById = preparedPerDb((db) =>
  db
    .select()
    .from(cancellationPolicies)
    .where(eq(cancellationPolicies.id, sql.placeholder('id')))
    .prepare(),
);

export function findCancellationPolicy(db: Db, id: string): CancellationPolicyRow | undefined {
  return cancellationPolicyById(db).get({ id });
}

const reschedulePolicyById = preparedPerDb((db) =>
  db
    .select()
    .from(reschedulePolicies)
    .where(eq(reschedulePolicies.id, sql.placeholder('id')))
    .prepare(),
);

export function findReschedulePolicy(db: Db, id: string): ReschedulePolicyRow | undefined {
  return reschedulePolicyById(db).get({ id });
}

export const brandsStore = {
  findBrand,
  findCancellationPolicy,
  findReschedulePolicy,
} satisfies SqliteStore<BrandsStore>;
