/**
 * The guards of the cancellation, refunds, waitlists, outbox, webhooks and idempotency stores
 * (test/contract/races.ts) raced on two gateways of one PostgreSQL database: two pools in one process,
 * half the units on each, as gateway processes of one deployment race. The contract races them on one
 * gateway of either engine; two SQLite connections in one process cannot race (better-sqlite3 waits for
 * the file lock on the event loop).
 */
import { afterAll, describe } from 'vitest';
import { connect, type Connection } from '../../src/db/connect.ts';
import {
  cancellationRaces,
  cancellationRaceWorld,
  eventRaces,
  eventRaceWorld,
  idempotencyRaces,
  idempotencyRaceWorld,
  waitlistRaces,
  waitlistRaceWorld,
  webhookRaces,
  webhookRaceWorld,
} from '../contract/races.ts';
import { freshPostgresDb, type TestDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';

let db: TestDb | undefined;
let second: Connection | undefined;
// Each area's world is its own: they share the database.
let worlds:
  | {
      cancellation: Awaited<ReturnType<typeof cancellationRaceWorld>>;
      waitlists: Awaited<ReturnType<typeof waitlistRaceWorld>>;
      events: Awaited<ReturnType<typeof eventRaceWorld>>;
      webhooks: Awaited<ReturnType<typeof webhookRaceWorld>>;
      idempotency: Awaited<ReturnType<typeof idempotencyRaceWorld>>;
    }
  | undefined;
if (adminUrl) {
  const opened = await freshPostgresDb();
  db = opened;
  second = await connect(opened.url);
  afterAll(() => second!.database.close());
  worlds = {
    cancellation: await cancellationRaceWorld(opened),
    waitlists: await waitlistRaceWorld(opened),
    events: await eventRaceWorld(opened),
    webhooks: await webhookRaceWorld(opened),
    idempotency: await idempotencyRaceWorld(opened),
  };
}

describePostgres('store races on two PostgreSQL gateways', () => {
  const on =
    <W>(w: () => W) =>
    () => ({ db: db!, gateways: [db!.database, second!.database], w: w() });
  describe('cancellation and refunds', () => cancellationRaces(on(() => worlds!.cancellation)));
  describe('waitlists', () => waitlistRaces(on(() => worlds!.waitlists)));
  describe('events', () => eventRaces(on(() => worlds!.events)));
  describe('webhooks', () => webhookRaces(on(() => worlds!.webhooks)));
  describe('idempotency records', () => idempotencyRaces(on(() => worlds!.idempotency)));
});
