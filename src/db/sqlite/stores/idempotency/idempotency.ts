import { and, asc, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idempotencyKeys } from '../../schema/index.ts';
import type { IdempotencyRecord, IdempotencyStore, SealedAnswer, SealedAnswerKey } from '../../../../domain/idempotency/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const byKey = (apiKeyId: string, key: string) => and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key));
const running = eq(idempotencyKeys.state, 'running');
const leaseIs = (lease: string | null) =>
  lease === null ? isNull(idempotencyKeys.leaseExpiresAt) : eq(idempotencyKeys.leaseExpiresAt, lease);

export function findIdempotencyRecord(db: Db, apiKeyId: string, key: string): IdempotencyRecord | undefined {
  return db.select().from(idempotencyKeys).where(byKey(apiKeyId, key)).get();
}

export function insertRunningRecord(
  db: Db,
  row: { apiKeyId: string; key: string; requestHash: string; leaseExpiresAt: string; createdAt: string },
): void {
  db.insert(idempotencyKeys)
    .values({ ...row, state: 'running' })
    .run();
}

export function takeOverRecord(db: Db, apiKeyId: string, key: string, seenLease: string | null, leaseExpiresAt: string): boolean {
  const result = db
    .update(idempotencyKeys)
    .set({ leaseExpiresAt })
    .where(and(byKey(apiKeyId, key), running, leaseIs(seenLease)))
    .run();
  return result.changes === 1;
}

export function completeRecord(db: Db, apiKeyId: string, key: string, responseStatus: number, responseBody: string): void {
  db.update(idempotencyKeys)
    .set({ state: 'completed', responseStatus, responseBody, leaseExpiresAt: null })
    .where(and(byKey(apiKeyId, key), running))
    .run();
}

export function deleteRunningRecord(db: Db, apiKeyId: string, key: string, lease: string): void {
  db.delete(idempotencyKeys)
    .where(and(byKey(apiKeyId, key), running, leaseIs(lease)))
    .run();
}

export function deleteRecordsBefore(db: Db, cutoff: string): void {
  db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).run();
}

/** Up to `limit` stored (sealed) answers after `after` in key order: a range of the primary key. */
export function sealedAnswersPage(db: Db, after: SealedAnswerKey | null, limit: number): SealedAnswer[] {
  const rest = after
    ? or(
        gt(idempotencyKeys.apiKeyId, after.apiKeyId),
        and(eq(idempotencyKeys.apiKeyId, after.apiKeyId), gt(idempotencyKeys.key, after.key)),
      )
    : undefined;
  const rows = db
    .select({ apiKeyId: idempotencyKeys.apiKeyId, key: idempotencyKeys.key, responseBody: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(and(isNotNull(idempotencyKeys.responseBody), rest))
    .orderBy(asc(idempotencyKeys.apiKeyId), asc(idempotencyKeys.key))
    .limit(limit)
    .all();
  return rows.map((row) => ({ ...row, responseBody: row.responseBody! }));
}

export function replaceSealedAnswer(db: Db, apiKeyId: string, key: string, previous: string, next: string): boolean {
  const result = db
    .update(idempotencyKeys)
    .set({ responseBody: next })
    .where(and(byKey(apiKeyId, key), eq(idempotencyKeys.responseBody, previous)))
    .run();
  return result.changes === 1;
}

export const idempotencyStore = {
  findIdempotencyRecord,
  insertRunningRecord,
  takeOverRecord,
  completeRecord,
  deleteRunningRecord,
  deleteRecordsBefore,
  sealedAnswersPage,
  replaceSealedAnswer,
} satisfies SqliteStore<IdempotencyStore>;
