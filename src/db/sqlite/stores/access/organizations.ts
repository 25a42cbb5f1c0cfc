import { eq } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { organizations } from '../../schema/index.ts';
import type { OrganizationsStore } from '../../../port/access.ts';
import type { SqliteStore } from '../../store-binding.ts';

export function findOrganization(db: Db, id: string) {
  return db.select().from(organizations).where(eq(organizations.id, id)).get();
}

export const organizationsStore = {
  findOrganization,
} satisfies SqliteStore<OrganizationsStore>;
