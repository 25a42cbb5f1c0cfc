import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../support/db.ts';
import { AT, contractFixtures, race } from './world.ts';

const db = await freshDb();
const { database } = db;
const fixtures = contractFixtures(db);

describe('store contract: sealed values (key rotation)', () => {
  it('pages through stored answers in key order and swaps one only while it is still the value read', async () => {
    const apiKeyId = randomUUID();
    for (const key of ['c', 'a', 'b', 'running']) {
      await database.idempotency.insertRunningRecord({ apiKeyId, key, requestHash: 'h', leaseExpiresAt: AT, createdAt: AT });
      if (key !== 'running') await database.idempotency.completeRecord(apiKeyId, key, 201, `sealed-${key}`);
    }
    const mine = async (after: { apiKeyId: string; key: string } | null, limit: number) =>
      (await database.idempotency.sealedAnswersPage(after, limit)).filter((row) => row.apiKeyId === apiKeyId);
    // Other tests' records may sort before or after this key's: page from its first record.
    const first = await mine({ apiKeyId, key: '' }, 2);
    expect(first).toEqual([
      { apiKeyId, key: 'a', responseBody: 'sealed-a' },
      { apiKeyId, key: 'b', responseBody: 'sealed-b' },
    ]);
    expect(await mine({ apiKeyId, key: 'b' }, 5)).toEqual([{ apiKeyId, key: 'c', responseBody: 'sealed-c' }]);
    expect(await race(database, 4, (tx, i) => tx.idempotency.replaceSealedAnswer(apiKeyId, 'a', 'sealed-a', `new-${i}`))).toBe(1);
    expect(await database.idempotency.replaceSealedAnswer(apiKeyId, 'b', 'not-what-is-stored', 'new')).toBe(false);
    expect((await database.idempotency.findIdempotencyRecord(apiKeyId, 'b'))!.responseBody).toBe('sealed-b');
    expect((await database.idempotency.findIdempotencyRecord(apiKeyId, 'a'))!.responseBody).toMatch(/^new-\d$/);
  });

  it("pages through endpoints' sealed secrets by id, deleted ones too, and swaps one only while it is still the value read", async () => {
    const brand = await fixtures.brand();
    const ids: string[] = [randomUUID(), randomUUID(), randomUUID()].sort();
    for (const [i, id] of ids.entries()) {
      await database.webhooks.insertWebhookEndpoint({
        id,
        createdAt: AT,
        brandId: brand.id,
        url: 'https://hooks.partner.test/',
        eventTypes: ['booking.created'],
        secretCiphertext: `sealed-${i}`,
        deletedAt: i === 1 ? AT : null,
      });
    }
    const all = [];
    for (let after: string | null = null; ;) {
      const page = await database.webhooks.sealedSecretsPage(after, 2);
      all.push(...page);
      if (page.length < 2) break;
      after = page[page.length - 1]!.id;
    }
    expect(all.filter((row) => ids.includes(row.id))).toEqual(ids.map((id, i) => ({ id, secretCiphertext: `sealed-${i}` })));
    expect(all.map((row) => row.id)).toEqual([...all.map((row) => row.id)].sort());
    expect(await race(database, 4, (tx, i) => tx.webhooks.replaceSealedSecret(ids[0]!, 'sealed-0', `new-${i}`))).toBe(1);
    expect(await database.webhooks.replaceSealedSecret(ids[2]!, 'sealed-0', 'new')).toBe(false);
    expect((await database.webhooks.findWebhookEndpoint(ids[2]!))!.secretCiphertext).toBe('sealed-2');
  });
});
