/**
 * Claims on PostgreSQL lock the rows they lease `FOR UPDATE SKIP LOCKED` (src/db/postgres/stores/
 * claims.ts): a due row another transaction holds is passed over, not waited for. The store contract
 * races claims against claims (test/contract); here a raw transaction holds the row lock.
 */
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

describePostgres('PostgreSQL claims of due work', () => {
  const AT = '2026-03-01T11:00:00.000Z';
  const LATER = '2026-03-05T00:00:00.000Z';
  const UNTIL = '2026-03-06T00:00:00.000Z';

  it('passes over a due delivery whose row another transaction holds, instead of waiting for it', async () => {
    const { database, pg } = db!;
    const brand = await createBrand(db!);
    await database.webhooks.insertWebhookEndpoint({
      id: 'ep-1',
      brandId: brand.id,
      url: 'https://ep-1.hooks.test/',
      eventTypes: ['booking.created'],
      secretCiphertext: 'sealed',
      createdAt: AT,
    });
    // Three events of three resources: none waits behind another.
    for (const n of [1, 2, 3]) {
      await database.transaction(async (tx) => {
        await tx.events.insertEvent({
          id: `evt-${n}`,
          brandId: brand.id,
          type: 'booking.created',
          resourceId: `r${n}`,
          payload: {},
          createdAt: AT,
        });
        await tx.events.insertPendingDeliveries([{ id: `d-${n}`, endpointId: 'ep-1', eventId: `evt-${n}`, resourceId: `r${n}`, at: AT }]);
      });
    }
    expect((await database.webhookDispatch.findDueDeliveries(LATER, 10)).map((d) => d.id)).toEqual(['d-1', 'd-2', 'd-3']);
    const claimed = await pg.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM webhook_deliveries WHERE id = 'd-1' FOR UPDATE`);
      return database.webhookDispatch.claimDueDeliveries(LATER, 2, UNTIL);
    });
    expect(claimed.map((d) => [d.id, d.nextAttemptAt])).toEqual([
      ['d-2', UNTIL],
      ['d-3', UNTIL],
    ]);
    expect((await database.webhookDispatch.findDueDeliveries(LATER, 10)).map((d) => d.id)).toEqual(['d-1']);
  });

  it('passes over a due refund whose row another transaction holds, instead of waiting for it', async () => {
    const { database, pg } = db!;
    const brand = await createBrand(db!);
    const { experience } = await createExperience(db!, brand.id);
    const session = await createSession(db!, experience, { capacity: 10 });
    const { booking } = await createPaidBooking(db!, { brandId: brand.id, session });
    for (const id of ['refund-1', 'refund-2', 'refund-3']) {
      await database.refunds.insertPendingRefund({
        id,
        bookingId: booking.id,
        amountMinor: 100,
        effect: { cancel: false, participantIds: null, also: null },
        at: AT,
      });
    }
    const claimed = await pg.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM refunds WHERE id = 'refund-1' FOR UPDATE`);
      return database.refunds.claimDueRefunds(LATER, LATER, 2, UNTIL);
    });
    expect(claimed.map((r) => [r.id, r.nextAttemptAt])).toEqual([
      ['refund-2', UNTIL],
      ['refund-3', UNTIL],
    ]);
    expect((await database.refunds.dueRefunds(LATER, LATER, 10)).map((r) => r.id)).toEqual(['refund-1']);
  });
});
