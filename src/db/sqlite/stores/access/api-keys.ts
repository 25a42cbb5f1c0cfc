import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { apiKeys, brands } from '../../schema/index.ts';
import type { ApiKeysStore, KeyRecord } from '../../../../domain/access/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const activeKeyByHash = preparedPerDb((db) =>
  db
    .select({
      id: apiKeys.id,
      kind: apiKeys.kind,
      brandId: apiKeys.brandId,
      organizationId: apiKeys.organizationId,
      allowedOrigins: apiKeys.allowedOrigins,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.secretHash, sql.placeholder('secretHash')), isNull(apiKeys.revokedAt)))
    .prepare(),
);

export function findActiveKeyByHash(db: Db, secretHash: string): KeyRecord | undefined {
  return activeKeyByHash(db).get({ secretHash });
}

const organizationBrands = preparedPerDb((db) =>
  db
    .select({ id: brands.id })
    .from(brands)
    .where(eq(brands.organizationId, sql.placeholder('organizationId')))
    .orderBy(asc(brands.createdAt), asc(brands.id))
    .prepare(),
);

export function brandIdsOfOrganization(db: Db, organizationId: string): string[] {
  return organizationBrands(db)
    .all({ organizationId })
    .map((r) => r.id);
}

export function insertApiKey(db: Db, row: typeof apiKeys.$inferInsert): void {
  db.insert(apiKeys).values(row).run();
}

/** Every key, oldest first (creation time, then id). */
export function listApiKeys(db: Db) {
  return db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)).all();
}

export function revokeApiKey(db: Db, id: string, at: string): boolean {
  const result = db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .run();
  return result.changes > 0;
}

/** Every origin an active publishable key lists, once each (what CORS lets in besides CORS_ORIGINS). */
export function publishableKeyOrigins(db: Db): string[] {
  const rows = db
    .select({ origins: apiKeys.allowedOrigins })
    .from(apiKeys)
    .where(and(eq(apiKeys.kind, 'publishable'), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
    .all();
  return [...new Set(rows.flatMap((row) => row.origins ?? []))];
}

export const apiKeysStore = {
  findActiveKeyByHash,
  brandIdsOfOrganization,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  publishableKeyOrigins,
} satisfies SqliteStore<ApiKeysStore>;
