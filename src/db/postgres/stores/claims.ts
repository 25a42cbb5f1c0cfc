import { inArray } from 'drizzle-orm';
import type { refunds, webhookDeliveries } from '../schema/index.ts';
import type { PgExecutor } from '../store-binding.ts';

/** Tables of work done later and leased to one caller by moving its next attempt. */
type LeasedWork = typeof webhookDeliveries | typeof refunds;

/**
 * Claims rows of due work in one read-committed transaction: `lock` selects them `FOR UPDATE ... SKIP
 * LOCKED` (rows another gateway is claiming are passed over, not waited for; a row leased by a claim
 * that committed after this one began is checked again as it now is, and no longer due), and their
 * next attempt moves to `until`, the lease. Returns them so.
 */
export async function claimRows<R extends { id: string }>(
  db: PgExecutor,
  table: LeasedWork,
  lock: (tx: PgExecutor) => Promise<R[]>,
  until: string,
  /** Columns written with the lease besides the next attempt (a delivery's `leasedUntil`). */
  alsoSet: { leasedUntil?: string } = {},
): Promise<Array<R & { nextAttemptAt: string }>> {
  return db.transaction(async (tx) => {
    const rows = await lock(tx);
    if (rows.length > 0) {
      await tx
        .update(table)
        .set({ nextAttemptAt: until, ...alsoSet })
        .where(
          inArray(
            table.id,
            rows.map((row) => row.id),
          ),
        );
    }
    return rows.map((row) => ({ ...row, nextAttemptAt: until }));
  });
}
