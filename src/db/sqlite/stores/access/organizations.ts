import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { brands, organizations } from '../../schema/index.ts';
import type { BrandSummaryRow, OrganizationsStore } from '../../../../domain/access/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

export function findOrganization(db: Db, id: string) {
  return db.select().from(organizations).where(eq(organizations.id, id)).get();
}

const brandsOf = preparedPerDb((db) =>
  db
    .select({ id: brands.id, name: brands.name, currency: brands.currency })
    .from(brands)
    .where(eq(brands.organizationId, sql.placeholder('organizationId')))
    .orderBy(asc(brands.name), asc(brands.id))
    .prepare(),
);

export function brandsOfOrganization(db: Db, organizationId: string): BrandSummaryRow[] {
  return brandsOf(db).all({ organizationId });
}

const brandsById = preparedPerDb((db) =>
  db
    .select({ id: brands.id, name: brands.name, currency: brands.currency })
    .from(brands)
    .where(eq(brands.id, sql.placeholder('id')))
    .prepare(),
);

export function brandSummary(db: Db, id: string): BrandSummaryRow | undefined {
  return brandsById(db).get({ id });
}

export const organizationsStore = {
  findOrganization,
  brandsOfOrganization,
  brandSummary,
} satisfies SqliteStore<OrganizationsStore>;
