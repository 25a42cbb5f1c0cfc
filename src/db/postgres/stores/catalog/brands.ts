import { eq, sql } from 'drizzle-orm';
import type { BrandRow, BrandsStore, CancellationPolicyRow, ReschedulePolicyRow } from '../../../../domain/catalog/store.ts';
import { brands, cancellationPolicies, reschedulePolicies } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';

const brandById = preparedPerExecutor((db) =>
  db
    .select()
    .from(brands)
    .where(eq(brands.id, sql.placeholder('id')))
    .prepare('find_brand'),
);

/** Nearly every request loads its brand: one primary-key seek, a named statement. */
export async function findBrand(db: PgExecutor, id: string): Promise<BrandRow | undefined> {
  const [row] = await brandById(db).execute({ id });
  return row;
}

export async function findCancellationPolicy(db: PgExecutor, id: string): Promise<CancellationPolicyRow | undefined> {
  const [row] = await db.select().from(cancellationPolicies).where(eq(cancellationPolicies.id, id));
  return row;
}

export async function findReschedulePolicy(db: PgExecutor, id: string): Promise<ReschedulePolicyRow | undefined> {
  const [row] = await db.select().from(reschedulePolicies).where(eq(reschedulePolicies.id, id));
  return row;
}

export const brandsStore = {
  findBrand,
  findCancellationPolicy,
  findReschedulePolicy,
} satisfies PostgresStore<BrandsStore>;
