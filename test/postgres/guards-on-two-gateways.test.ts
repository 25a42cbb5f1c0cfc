/**
 * The guards of the checkout, holds, payments and API keys stores (test/contract/guards.ts) raced on two
 * gateways of one PostgreSQL database: two pools in one process, half the units on each, as gateway
 * processes of one deployment race. The contract races them on one gateway of either engine; two SQLite
 * connections in one process cannot race (better-sqlite3 waits for the file lock on the event loop).
 */
import { afterAll, describe } from 'vitest';
import { connect, type Connection } from '../../src/db/connect.ts';
import { accessGuards, checkoutGuards, guardWorld, paymentGuards, type GuardWorld } from '../contract/guards.ts';
import { freshPostgresDb, type TestDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';

let db: TestDb | undefined;
let second: Connection | undefined;
let w: GuardWorld | undefined;
if (adminUrl) {
  const opened = await freshPostgresDb();
  db = opened;
  second = await connect(opened.url);
  afterAll(() => second!.database.close());
  w = await guardWorld(opened);
}

describePostgres('store guards raced on two PostgreSQL gateways', () => {
  const racing = () => ({ db: db!, gateways: [db!.database, second!.database], w: w! });
  describe('checkout and holds', () => checkoutGuards(racing));
  describe('payments', () => paymentGuards(racing));
  describe('API keys', () => accessGuards(racing));
});
