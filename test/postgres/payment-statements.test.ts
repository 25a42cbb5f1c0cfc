/**
 * A payment's request (the sandbox's confirm) sends its statements named, so each connection parses and
 * plans them once: every statement but BEGIN, COMMIT and the outbox's write (shared by every unit). And
 * one name is always one text (PostgreSQL refuses a second text under a name a connection prepared).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { startApp } from '../support/app.ts';
import { guest } from '../support/checkout.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { holdMutation } from '../../fixtures/graphql/documents.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

/** The statements `fn` sends, each with the name it is sent under (undefined: unnamed). */
async function sentWithNames(fn: () => Promise<void>): Promise<Array<{ name: string | undefined; text: string }>> {
  const sent: Array<{ name: string | undefined; text: string }> = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    if (typeof config === 'string') sent.push({ name: undefined, text: config });
    else sent.push({ name: (config as { name?: string }).name, text: (config as { text: string }).text });
    return (original as (...a: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}

describePostgres('a payment’s statements on PostgreSQL', () => {
  it('are named, but for BEGIN, COMMIT and the outbox’s write, each name with one text', async () => {
    const brand = await createBrand(db!);
    const key = (await createApiKey(db!, { brandId: brand.id })).secret;
    const sail = (await createExperience(db!, brand.id)).experience;
    await createSession(db!, sail, { startLocal: '2027-01-05T18:00:00', capacity: 100 });
    const t = await startApp(db!, { now: () => new Date('2026-11-25T12:00:00.000Z') });
    const pay = async (places: number) => {
      const input = {
        data: [
          {
            experienceId: sail.id,
            sessionTime: '2027-01-05T18:00:00',
            participants: Array.from({ length: places }, (_, i) => guest(`G${i}`)),
          },
        ],
      };
      const hold = await t.gql(holdMutation, { brandId: brand.id, cartId: randomUUID(), input }, { key });
      const secret = hold.body.data.createPaymentIntent.paymentIntentSecret;
      return sentWithNames(async () => {
        const res = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
          body: { paymentIntentSecret: secret, outcome: 'succeeded' },
        });
        expect(res.body.paymentIntentStatus).toBe('succeeded');
      });
    };
    const sent = [...(await pay(1)), ...(await pay(3))];
    const unnamed = sent
      .filter((s) => s.name === undefined)
      .map((s) => s.text.trim().split(/\s+/).slice(0, 3).join(' ').toLowerCase())
      .filter((head) => !head.includes('"api_keys"'));
    expect(unnamed).toStrictEqual([
      'begin isolation level',
      'with events_lock as',
      'commit',
      'begin isolation level',
      'with events_lock as',
      'commit',
    ]);
    const texts = new Map<string, Set<string>>();
    for (const { name, text } of sent) if (name) texts.set(name, (texts.get(name) ?? new Set()).add(text));
    expect([...texts].filter(([, shapes]) => shapes.size > 1).map(([name]) => name)).toStrictEqual([]);
    expect([...texts.keys()]).toContain('settle_payment_by_secret');
  });
});
