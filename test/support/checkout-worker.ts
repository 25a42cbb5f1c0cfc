/**
 * A separate OS process for the cross-process race test: opens the database given on the command line
 * (a SQLite file or a PostgreSQL URL), waits for "go" on stdin, runs `count` one-guest checkouts concurrently through the domain, and
 * prints how they ended as JSON `{ "<outcome>": n }` (outcome: `ok` or the error code).
 *
 * Usage: node --import tsx checkout-worker.ts <databaseUrl> <brandId> <experienceId> <sessionTime> <count>
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Principal } from '../../src/domain/access/principal.ts';
import { connect } from '../../src/db/connect.ts';
import { createPaymentIntent } from '../../src/domain/checkout/checkout.ts';
import { DomainError } from '../../src/domain/shared/errors.ts';
import { CheckoutTestProcessor } from './checkout.ts';
import { CHECKOUT_NOW } from './clock.ts';

const [databaseUrl, brandId, experienceId, sessionTime, count] = process.argv.slice(2) as [string, string, string, string, string];
const { database } = await connect(databaseUrl);
const payments = new CheckoutTestProcessor();
payments.delay = () => Math.floor(Math.random() * 50);
const principal: Principal = {
  kind: 'brand',
  keyId: `worker-${process.pid}`,
  organizationId: null,
  brandIds: [brandId],
  headerBrandId: null,
};
// A fixed clock before the raced session, so the test means the same on any day it runs.
const deps = {
  db: database,
  now: () => new Date(CHECKOUT_NOW),
  payments,
  holdTtlSeconds: 900,
  waitlistOfferTtlSeconds: 86_400,
  principal,
};

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();

const outcomes = await Promise.all(
  Array.from({ length: Number(count) }, () =>
    createPaymentIntent(deps, {
      brandId,
      cartId: randomUUID(),
      data: [{ experienceId, sessionTime, participants: [{ firstName: 'Racer', lastName: String(process.pid), priceTierName: 'Adult' }] }],
    }).then(
      () => 'ok',
      (error: unknown) => (error instanceof DomainError ? error.code : `unexpected: ${String(error)}`),
    ),
  ),
);
const tally: Record<string, number> = {};
for (const outcome of outcomes) tally[outcome] = (tally[outcome] ?? 0) + 1;
await database.close();
process.stdout.write(`${JSON.stringify(tally)}\n`);
