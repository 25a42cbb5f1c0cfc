import { and, asc, eq, isNotNull, isNull, lt, or, sql, type Column } from 'drizzle-orm';
import type { IdempotencyRecord, IdempotencyStore, SealedAnswer, SealedAnswerKey } from '../../../../domain/idempotency/store.ts';
import { idempotencyKeys } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';

const byKey = (apiKeyId: string, key: string) => and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key));
const running = eq(idempotencyKeys.state, 'running');
const leaseIs = (lease: string | null) =>
  lease === null ? isNull(idempotencyKeys.leaseExpiresAt) : eq(idempotencyKeys.leaseExpiresAt, lease);

/** Text keys compared and ordered byte by byte, as SQLite does, whatever the database's collation. */
const bytes = (column: Column) => sql`${column} COLLATE "C"`;

export async function findIdempotencyRecord(db: PgExecutor, apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(byKey(apiKeyId, key));
  return row;
}

/**
 * Inserts the record `running`. A record of the same key already there fails the insert (unique
 * violation), as on SQLite; inside a unit of work that looked for the key first and found none, a
 * concurrent insert of the same key fails it the same way, and the unit runs again and finds the record.
 */
export async function insertRunningRecord(
  db: PgExecutor,
  row: { apiKeyId: string; key: string; requestHash: string; leaseExpiresAt: string; createdAt: string },
): Promise<void> {
  await db.insert(idempotencyKeys).values({ ...row, state: 'running' });
}

/**
 * Gives a running record whose lease ended a new lease, unless someone else (another retry, on this
 * gateway or another) did first: true when this caller now holds it. One conditional UPDATE, a
 * compare-and-set on the lease: racing take-overs wait on the row lock and re-check the condition on
 * the row as the first one left it.
 */
export async function takeOverRecord(
  db: PgExecutor,
  apiKeyId: string,
  key: string,
  seenLease: string | null,
  leaseExpiresAt: string,
): Promise<boolean> {
  const result = await db
    .update(idempotencyKeys)
    .set({ leaseExpiresAt })
    .where(and(byKey(apiKeyId, key), running, leaseIs(seenLease)));
  return result.rowCount === 1;
}

export async function completeRecord(
  db: PgExecutor,
  apiKeyId: string,
  key: string,
  responseStatus: number,
  responseBody: string,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'completed', responseStatus, responseBody, leaseExpiresAt: null })
    .where(and(byKey(apiKeyId, key), running));
}

/** One conditional DELETE. */
export async function deleteRunningRecord(db: PgExecutor, apiKeyId: string, key: string, lease: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(byKey(apiKeyId, key), running, leaseIs(lease)));
}

export async function deleteRecordsBefore(db: PgExecutor, cutoff: string): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
}

/**
 * Up to `limit` stored (sealed) answers after `after` in key order (byte order, as on SQLite): a range
 * of the primary key where the database's collation is C.
 */
export async function sealedAnswersPage(db: PgExecutor, after: SealedAnswerKey | null, limit: number): Promise<SealedAnswer[]> {
  const rest = after
    ? or(
        sql`${bytes(idempotencyKeys.apiKeyId)} > ${after.apiKeyId}`,
        and(eq(idempotencyKeys.apiKeyId, after.apiKeyId), sql`${bytes(idempotencyKeys.key)} > ${after.key}`),
      )
    : undefined;
  const rows = await db
    .select({ apiKeyId: idempotencyKeys.apiKeyId, key: idempotencyKeys.key, responseBody: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(and(isNotNull(idempotencyKeys.responseBody), rest))
    .orderBy(asc(bytes(idempotencyKeys.apiKeyId)), asc(bytes(idempotencyKeys.key)))
    .limit(limit);
  return rows.map((row) => ({ ...row, responseBody: row.responseBody! }));
}

export async function replaceSealedAnswer(db: PgExecutor, apiKeyId: string, key: string, previous: string, next: string): Promise<boolean> {
  const result = await db
    .update(idempotencyKeys)
    .set({ responseBody: next })
    .where(and(byKey(apiKeyId, key), eq(idempotencyKeys.responseBody, previous)));
  return result.rowCount === 1;
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
} satisfies PostgresStore<IdempotencyStore>;
