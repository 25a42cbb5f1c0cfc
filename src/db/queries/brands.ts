import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { brands, cancellationPolicies, reschedulePolicies } from '../schema.ts';

export type BrandRow = typeof brands.$inferSelect;
export type CancellationPolicyRow = typeof cancellationPolicies.$inferSelect;
export type ReschedulePolicyRow = typeof reschedulePolicies.$inferSelect;

export function findBrand(db: Db, id: string): BrandRow | undefined {
  return db.select().from(brands).where(eq(brands.id, id)).get();
}

export function findCancellationPolicy(db: Db, id: string): CancellationPolicyRow | undefined {
  return db.select().from(cancellationPolicies).where(eq(cancellationPolicies.id, id)).get();
}

export function findReschedulePolicy(db: Db, id: string): ReschedulePolicyRow | undefined {
  return db.select().from(reschedulePolicies).where(eq(reschedulePolicies.id, id)).get();
}
