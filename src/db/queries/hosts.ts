import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { hosts } from '../schema.ts';

export type HostRow = typeof hosts.$inferSelect;

export function listHostsOfBrand(db: Db, brandId: string): HostRow[] {
  return db.select().from(hosts).where(eq(hosts.brandId, brandId)).orderBy(asc(hosts.lastName), asc(hosts.firstName)).all();
}

export function findHostsByIds(db: Db, ids: readonly string[]): HostRow[] {
  return ids.length === 0 ? [] : db.select().from(hosts).where(inArray(hosts.id, [...ids])).all();
}
