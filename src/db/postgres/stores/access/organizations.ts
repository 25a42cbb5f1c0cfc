import { asc, eq } from 'drizzle-orm';
import type { BrandSummaryRow, OrganizationsStore } from '../../../../domain/access/store.ts';
import { brands, organizations } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { inByteOrder } from '../sql-parts.ts';

export async function findOrganization(db: PgExecutor, id: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

/** The organization's brands, by name (then id), byte order as on SQLite. */
export async function brandsOfOrganization(db: PgExecutor, organizationId: string): Promise<BrandSummaryRow[]> {
  return db
    .select({ id: brands.id, name: brands.name, currency: brands.currency })
    .from(brands)
    .where(eq(brands.organizationId, organizationId))
    .orderBy(asc(inByteOrder(brands.name)), asc(inByteOrder(brands.id)));
}

export async function brandSummary(db: PgExecutor, id: string): Promise<BrandSummaryRow | undefined> {
  const [row] = await db.select({ id: brands.id, name: brands.name, currency: brands.currency }).from(brands).where(eq(brands.id, id));
  return row;
}

export const organizationsStore = {
  findOrganization,
  brandsOfOrganization,
  brandSummary,
} satisfies PostgresStore<OrganizationsStore>;
