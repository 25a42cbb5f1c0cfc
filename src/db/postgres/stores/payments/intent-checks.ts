import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { paymentIntents } from '../../schema/index.ts';
import type { IntentCheckRow } from '../../../../domain/payments/store.ts';
import { preparedPerExecutor, type PgExecutor } from '../../store-binding.ts';
import { inByteOrder } from '../sql-parts.ts';

// The intent reconciler's statements, named (prepared once per connection) as a payment's are.
const dueChecks = preparedPerExecutor((db) =>
  db
    .select({
      id: paymentIntents.id,
      processorReference: paymentIntents.processorReference,
      status: paymentIntents.status,
      processorCheckAt: paymentIntents.processorCheckAt,
    })
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.processor, sql.placeholder('processor')),
        lte(paymentIntents.processorCheckAt, sql.placeholder('now')),
        inArray(paymentIntents.status, ['requires_payment', 'canceled']),
      ),
    )
    .orderBy(asc(paymentIntents.processorCheckAt), inByteOrder(paymentIntents.id))
    .limit(sql.placeholder('limit'))
    .prepare('due_intent_checks'),
);

const leaseCheck = preparedPerExecutor((db) =>
  db
    .update(paymentIntents)
    .set({ processorCheckAt: sql`${sql.placeholder('until')}` })
    .where(and(eq(paymentIntents.id, sql.placeholder('id')), eq(paymentIntents.processorCheckAt, sql.placeholder('seen'))))
    .returning({ id: paymentIntents.id })
    .prepare('lease_intent_check'),
);

const setCheck = preparedPerExecutor((db) =>
  db
    .update(paymentIntents)
    .set({ processorCheckAt: sql`${sql.placeholder('at')}` })
    .where(eq(paymentIntents.id, sql.placeholder('id')))
    .prepare('set_intent_check'),
);

/** Background work (the intent reconciler), a few rows a pass. */
export async function dueIntentChecks(db: PgExecutor, processor: string, now: string, limit: number): Promise<IntentCheckRow[]> {
  return (await dueChecks(db).execute({ processor, now, limit })) as IntentCheckRow[];
}

/** One conditional UPDATE: of two gateways leasing the same check, the second finds it moved and takes nothing. */
export async function leaseIntentCheck(db: PgExecutor, id: string, seen: string, until: string): Promise<boolean> {
  const rows = await leaseCheck(db).execute({ id, seen, until });
  return rows.length === 1;
}

export async function setIntentCheck(db: PgExecutor, id: string, at: string | null): Promise<void> {
  await setCheck(db).execute({ id, at });
}
