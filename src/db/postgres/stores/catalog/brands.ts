import { eq } from 'drizzle-orm';
import type { BrandRow, BrandsStore, CancellationPolicyRow, ReschedulePolicyRow } from '../../../../domain/catalog/store.ts';
import { brands, cancellationPolicies, reschedulePolicies } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';

/** Nearly every request loads its brand: one primary-key seek. */
export async function findBrand(db: PgExecutor, id: string): Promise<BrandRow | undefined> {
  const [row] = await db.select().from(brands).where(eq(brands.id, id));
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
