import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { idempotencyKeys } from '../schema.ts';

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;

const byKey = (apiKeyId: string, key: string) => and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key));

export function findIdempotencyRecord(db: Db, apiKeyId: string, key: string): IdempotencyRecord | undefined {
  return db.select().from(idempotencyKeys).where(byKey(apiKeyId, key)).get();
}

export function insertRunningRecord(db: Db, row: { apiKeyId: string; key: string; requestHash: string; createdAt: string }): void {
  db.insert(idempotencyKeys).values({ ...row, state: 'running' }).run();
}

export function completeRecord(db: Db, apiKeyId: string, key: string, responseStatus: number, responseBody: string): void {
  db.update(idempotencyKeys).set({ state: 'completed', responseStatus, responseBody }).where(byKey(apiKeyId, key)).run();
}

export function deleteRecord(db: Db, apiKeyId: string, key: string): void {
  db.delete(idempotencyKeys).where(byKey(apiKeyId, key)).run();
}

/** Removes every record created before `cutoff` (ISO 8601); an indexed range delete. */
export function deleteRecordsBefore(db: Db, cutoff: string): void {
  db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).run();
}
