import { and, asc, eq, isNull } from 'drizzle-orm';
import type { ApiKeysStore, KeyRecord } from '../../../../domain/access/store.ts';
import { apiKeys, brands } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { inByteOrder } from '../sql-parts.ts';

/** The active (not revoked) key whose secret hashes to `secretHash`. Every request asks: one index seek. */
export async function findActiveKeyByHash(db: PgExecutor, secretHash: string): Promise<KeyRecord | undefined> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      kind: apiKeys.kind,
      brandId: apiKeys.brandId,
      organizationId: apiKeys.organizationId,
      allowedOrigins: apiKeys.allowedOrigins,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.revokedAt)));
  return row;
}

/** The organization's brand ids, oldest first (creation time, then id in byte order). */
export async function brandIdsOfOrganization(db: PgExecutor, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ id: brands.id })
    .from(brands)
    .where(eq(brands.organizationId, organizationId))
    .orderBy(asc(brands.createdAt), asc(inByteOrder(brands.id)));
  return rows.map((r) => r.id);
}

export async function insertApiKey(db: PgExecutor, row: typeof apiKeys.$inferInsert): Promise<void> {
  await db.insert(apiKeys).values(row);
}

/** Every key, oldest first (creation time, then id in byte order). */
export async function listApiKeys(db: PgExecutor) {
  return db
    .select()
    .from(apiKeys)
    .orderBy(asc(apiKeys.createdAt), asc(inByteOrder(apiKeys.id)));
}

/** One conditional UPDATE. */
export async function revokeApiKey(db: PgExecutor, id: string, at: string): Promise<boolean> {
  const result = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
  return (result.rowCount ?? 0) > 0;
}

/** Every origin an active publishable key lists, once each (what CORS lets in besides CORS_ORIGINS). */
export async function publishableKeyOrigins(db: PgExecutor): Promise<string[]> {
  const rows = await db
    .select({ origins: apiKeys.allowedOrigins })
    .from(apiKeys)
    .where(and(eq(apiKeys.kind, 'publishable'), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(inByteOrder(apiKeys.id)));
  return [...new Set(rows.flatMap((row) => row.origins ?? []))];
}

export const apiKeysStore = {
  findActiveKeyByHash,
  brandIdsOfOrganization,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  publishableKeyOrigins,
} satisfies PostgresStore<ApiKeysStore>;
