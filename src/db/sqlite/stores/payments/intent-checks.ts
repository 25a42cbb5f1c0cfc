import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { paymentIntents } from '../../schema/index.ts';
import type { IntentCheckRow } from '../../../../domain/payments/store.ts';

/** Background work (the intent reconciler), a few rows a pass: plain statements, not prepared. */
export function dueIntentChecks(db: Db, processor: string, now: string, limit: number): IntentCheckRow[] {
  return db
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
    .orderBy(asc(paymentIntents.processorCheckAt), asc(paymentIntents.id))
    .limit(limit)
    .all() as IntentCheckRow[];
}

export function leaseIntentCheck(db: Db, id: string, seen: string, until: string): boolean {
  const result = db
    .update(paymentIntents)
    .set({ processorCheckAt: until })
    .where(and(eq(paymentIntents.id, id), eq(paymentIntents.processorCheckAt, seen)))
    .run();
  return result.changes === 1;
}

export function setIntentCheck(db: Db, id: string, at: string | null): void {
  db.update(paymentIntents).set({ processorCheckAt: at }).where(eq(paymentIntents.id, id)).run();
}
