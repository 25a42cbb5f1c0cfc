import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { apiKeys, brands } from '../schema.ts';

export interface KeyRecord {
  id: string;
  kind: 'brand' | 'organization';
  brandId: string | null;
  organizationId: string | null;
}

/** The active (not revoked) key whose secret hashes to `secretHash`. */
export function findActiveKeyByHash(db: Db, secretHash: string): KeyRecord | undefined {
  return db
    .select({ id: apiKeys.id, kind: apiKeys.kind, brandId: apiKeys.brandId, organizationId: apiKeys.organizationId })
    .from(apiKeys)
    .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.revokedAt)))
    .get();
}

export function brandIdsOfOrganization(db: Db, organizationId: string): string[] {
  return db
    .select({ id: brands.id })
    .from(brands)
    .where(eq(brands.organizationId, organizationId))
    .all()
    .map((r) => r.id);
}

export function insertApiKey(db: Db, row: typeof apiKeys.$inferInsert): void {
  db.insert(apiKeys).values(row).run();
}

export function listApiKeys(db: Db) {
  return db.select().from(apiKeys).all();
}

/** Marks a key revoked; returns false when no active key has that id. */
export function revokeApiKey(db: Db, id: string, at: string): boolean {
  const result = db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .run();
  return result.changes > 0;
}
