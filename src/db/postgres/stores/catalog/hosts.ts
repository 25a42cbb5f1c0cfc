import { asc, eq } from 'drizzle-orm';
import type { HostRow, HostsStore } from '../../../../domain/catalog/store.ts';
import { hosts } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { inByteOrder } from '../sql-parts.ts';

/**
 * The brand's hosts by last name, then first name. Hosts of the same name come by id: SQLite gives those
 * in the order they were written (a PostgreSQL table keeps no such order).
 */
export async function listHostsOfBrand(db: PgExecutor, brandId: string): Promise<HostRow[]> {
  return db
    .select()
    .from(hosts)
    .where(eq(hosts.brandId, brandId))
    .orderBy(asc(inByteOrder(hosts.lastName)), asc(inByteOrder(hosts.firstName)), asc(inByteOrder(hosts.id)));
}

export const hostsStore = {
  listHostsOfBrand,
} satisfies PostgresStore<HostsStore>;
