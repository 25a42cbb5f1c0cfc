import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { paymentIntents } from '../../schema/index.ts';
import type { IntentCheckRow } from '../../../../domain/payments/store.ts';
import type { PgExecutor } from '../../store-binding.ts';
import { inByteOrder } from '../sql-parts.ts';

/** Background work (the intent reconciler), a few rows a pass. */
export async function dueIntentChecks(db: PgExecutor, processor: string, now: string, limit: number): Promise<IntentCheckRow[]> {
  return (await db
    .select({
      id: paymentIntents.id,
      processorReference: paymentIntents.processorReference,
      status: paymentIntents.status,
      processorCheckAt: paymentIntents.processorCheckAt,
    })
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.processor, processor),
        lte(paymentIntents.processorCheckAt, now),
        inArray(paymentIntents.status, ['requires_payment', 'canceled']),
      ),
    )
    .orderBy(asc(paymentIntents.processorCheckAt), inByteOrder(paymentIntents.id))
    .limit(limit)) as IntentCheckRow[];
}

/** One conditional UPDATE: of two gateways leasing the same check, the second finds it moved and takes nothing. */
export async function leaseIntentCheck(db: PgExecutor, id: string, seen: string, until: string): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ processorCheckAt: until })
    .where(and(eq(paymentIntents.id, id), eq(paymentIntents.processorCheckAt, seen)))
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}

export async function setIntentCheck(db: PgExecutor, id: string, at: string | null): Promise<void> {
  await db.update(paymentIntents).set({ processorCheckAt: at }).where(eq(paymentIntents.id, id));
}
