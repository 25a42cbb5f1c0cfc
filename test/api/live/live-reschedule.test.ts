/** Live availability follows a reschedule: one value with both sessions, places given back on one and taken on the other. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { watchSessionAvailability } from '../../../src/domain/live/availability.ts';
import { startLiveHub } from '../../../src/domain/live/hub.ts';
import type { CallerDeps } from '../../../src/domain/shared/deps.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createReschedulePolicy } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';

const NOW = '2027-02-01T12:00:00.000Z';
const db = await freshDb();
const brand = await createBrand(db, { featuresActive: ['priceTiers', 'shoppingCart', 'creditCard', 'enableRescheduleBookings'] });
const policy = await createReschedulePolicy(db, brand.id, { allowedHoursBefore: 24, maxReschedules: 2 });
await db.run('UPDATE brands SET reschedule_policy_id = ? WHERE id = ?', policy.id, brand.id);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const hub = await startLiveHub(db.database, { catchUpIntervalMs: 250 });
afterAll(() => hub.close());
let t: TestApp;
beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(NOW) });
});

const deps: CallerDeps = {
  db: db.database,
  now: () => new Date(NOW),
  payments: new SandboxProcessor({ now: () => new Date(NOW) }),
  holdTtlSeconds: 900,
  waitlistOfferTtlSeconds: 900,
  principal: { kind: 'brand', keyId: randomUUID(), organizationId: null, brandIds: [brand.id], headerBrandId: null },
  live: hub,
};

it('yields both sessions of a reschedule in one value, each with its places', async () => {
  const from = await createSession(db, experience, { startLocal: '2027-03-01T10:00:00', capacity: 10 });
  const to = await createSession(db, experience, { startLocal: '2027-03-02T10:00:00', capacity: 10 });
  const { booking } = await createPaidBooking(db, { brandId: brand.id, session: from, participants: [{}, {}, {}] });
  const stream = await watchSessionAvailability(deps, {
    brandId: brand.id,
    experienceId: experience.id,
    from: '2027-03-01',
    to: '2027-03-31',
  });
  const moved = await t.rest('POST', `/v1/bookings/${booking.id}/reschedule`, { key, body: { sessionTime: '2027-03-02T10:00' } });
  expect(moved.status).toBe(200);
  const result = await Promise.race([
    stream.next(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no value within 2 s')), 2000).unref()),
  ]);
  expect(result.done).toBe(false);
  expect((result.value as Array<{ id: string; remaining: number }>).map((s) => [s.id, s.remaining])).toStrictEqual([
    [from.id, 10],
    [to.id, 7],
  ]);
  await stream.return!();
  expect(hub.listenerCount).toBe(0);
});
