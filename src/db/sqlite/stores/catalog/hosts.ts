import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import { hosts } from '../../schema/index.ts';
import type { HostRow, HostsStore } from '../../../../domain/catalog/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const hostsOfBrand = preparedPerDb((db) =>
  db
    .select()
    .from(hosts)
    .where(eq(hosts.brandId, sql.placeholder('brandId')))
    .orderBy(asc(hosts.lastName), asc(hosts.firstName), asc(hosts.id))
    .prepare(),
);

export function listHostsOfBrand(db: Db, brandId: string): HostRow[] {
  return hostsOfBrand(db).all({ brandId });
}

/** Every experience read asks: prepared once, one statement for any number of ids. */
const hostsById = preparedPerDb((db) => db.select().from(hosts).where(inIdList(hosts.id, 'ids')).orderBy(asc(hosts.id)).prepare());

export function findHostsByIds(db: Db, ids: readonly string[]): HostRow[] {
  return ids.length === 0 ? [] : hostsById(db).all({ ids: idList(ids) });
}

export const hostsStore = {
  listHostsOfBrand,
} satisfies SqliteStore<HostsStore>;
