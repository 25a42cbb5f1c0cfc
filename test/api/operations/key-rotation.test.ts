/**
 * Rotating the encryption key as docs/operations.md tells: gateways run with ENCRYPTION_KEYS=new,old,
 * `npm run secrets -- reencrypt` moves every sealed value to the new key, then the old key is dropped.
 * Webhook deliveries stay signed with each endpoint's secret and stored idempotent answers still
 * replay, at every step; dropping the old key before re-encrypting is shown to break both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyTesseraSignature } from '../../../examples/webhook-receiver/verify-signature.ts';
import { runSecretsCli } from '../../../src/cli/secrets.ts';
import type { Keyring } from '../../../src/domain/shared/encryption.ts';
import { decryptSecret } from '../../../src/domain/webhooks/secrets.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { deliveriesOf, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshSharedDb } from '../../support/db.ts';
import { startReceiver, waitFor } from '../../support/webhook-receiver.ts';

const oldKey = Buffer.alloc(32, 11);
const newKey = Buffer.alloc(32, 22);
const b64 = (key: Buffer) => key.toString('base64');

// The CLI opens the database itself, from DATABASE_URL, as `npm run secrets` does.
const { db, url } = await freshSharedDb();
let brandId: string;
let apiKey: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  brandId = (await createBrand(db)).id;
  apiKey = (await createApiKey(db, { brandId })).secret;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
  delete process.env.ENCRYPTION_KEYS;
  return receiver.close();
});

/** A gateway running with `keys`, delivering webhooks; stopped with `stop`. */
async function gateway(keys: Keyring): Promise<TestApp> {
  const t = await startApp(db, { webhooks: { dispatch: true, tickMs: 20, encryptionKeys: keys } });
  await t.app.ready();
  return t;
}

async function secretsCli(keys: Buffer[], command: string) {
  process.env.DATABASE_URL = url;
  process.env.ENCRYPTION_KEYS = keys.map(b64).join(',');
  const lines: string[] = [];
  const code = await runSecretsCli([command], (line) => lines.push(line));
  return { code, lines };
}

const registration = (path: string) => ({ url: receiver.url(path), events: ['booking.confirmed'] });
const register = (t: TestApp, path: string, idempotencyKey: string) =>
  t.rest('POST', `/v1/brands/${brandId}/webhooks`, {
    key: apiKey,
    headers: { 'idempotency-key': idempotencyKey },
    body: registration(path),
  });

/** Records a booking.confirmed event and waits for `path` to receive it; returns the request. */
async function deliveredTo(path: string, endpointId: string) {
  const event = await recordTestEvent(db, {
    brandId,
    type: 'booking.confirmed',
    payload: { id: crypto.randomUUID(), status: 'confirmed' },
  });
  await waitFor(`the delivery of ${event.id} to ${path}`, () => receiver.at(path).some((r) => r.headers['tessera-event-id'] === event.id));
  await waitFor(
    'the delivery recorded',
    async () => (await deliveriesOf(db, endpointId)).find((d) => d.eventId === event.id)?.status === 'delivered',
  );
  return receiver.at(path).find((r) => r.headers['tessera-event-id'] === event.id)!;
}

const sealedSecretOf = async (id: string) => (await db.row('webhookEndpoints', { id })).secretCiphertext;

describe('rotating ENCRYPTION_KEYS', () => {
  it('keeps deliveries signed and idempotent answers replayable before, during and after the rotation', async () => {
    // Before: one key.
    const before = await gateway([oldKey]);
    const first = await register(before, '/first', 'register-first');
    expect(first.status).toBe(201);
    const { id: firstId } = first.body.endpoint;
    const firstSecret: string = first.body.secret;
    const signedBefore = await deliveredTo('/first', firstId);
    expect(verifyTesseraSignature(signedBefore.body, String(signedBefore.headers['tessera-signature']), firstSecret)).toBe(true);
    await before.app.close();

    // During: the new key first, the old one still listed. Old values open; new ones are sealed with the new key.
    const during = await gateway([newKey, oldKey]);
    const replayDuring = await register(during, '/first', 'register-first');
    expect(replayDuring.status).toBe(201);
    expect(replayDuring.headers['idempotent-replayed']).toBe('true');
    expect(replayDuring.body).toEqual(first.body);
    const signedDuring = await deliveredTo('/first', firstId);
    expect(verifyTesseraSignature(signedDuring.body, String(signedDuring.headers['tessera-signature']), firstSecret)).toBe(true);
    const second = await register(during, '/second', 'register-second');
    expect(second.status).toBe(201);
    const { id: secondId } = second.body.endpoint;
    const secondSecret: string = second.body.secret;
    expect(decryptSecret([newKey], await sealedSecretOf(secondId), secondId)).toBe(secondSecret);

    expect(await secretsCli([newKey, oldKey], 'status')).toEqual({
      code: 0,
      lines: [
        'Keys: 2 (the first seals, every one opens)',
        'webhook signing secrets: 2 sealed, 1 with the newest key, 1 with an older key',
        'stored idempotent answers: 2 sealed, 1 with the newest key, 1 with an older key',
        'Run `npm run secrets -- reencrypt` before removing older keys from ENCRYPTION_KEYS.',
      ],
    });
    const sealedBefore = await sealedSecretOf(firstId);
    expect(await secretsCli([newKey, oldKey], 'reencrypt')).toEqual({
      code: 0,
      lines: [
        'Keys: 2 (the first seals, every one opens)',
        'webhook signing secrets: 2 sealed, 1 with the newest key, 1 moved to it',
        'stored idempotent answers: 2 sealed, 1 with the newest key, 1 moved to it',
        'Every sealed value opens with the newest key: older keys can be removed from ENCRYPTION_KEYS.',
      ],
    });
    const sealedAfter = await sealedSecretOf(firstId);
    expect(sealedAfter).not.toBe(sealedBefore);
    expect(() => decryptSecret([oldKey], sealedAfter, firstId)).toThrow();
    expect(decryptSecret([newKey], sealedAfter, firstId)).toBe(firstSecret);
    // Running it again finds nothing left to move.
    expect((await secretsCli([newKey, oldKey], 'reencrypt')).lines.slice(1, 3)).toEqual([
      'webhook signing secrets: 2 sealed, 2 with the newest key',
      'stored idempotent answers: 2 sealed, 2 with the newest key',
    ]);
    await during.app.close();

    // After: the old key is gone; everything still opens.
    const after = await gateway([newKey]);
    for (const [path, idempotencyKey, answer] of [
      ['/first', 'register-first', first],
      ['/second', 'register-second', second],
    ] as const) {
      const replay = await register(after, path, idempotencyKey);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect({ status: replay.status, body: replay.body }).toEqual({ status: 201, body: answer.body });
    }
    const firstAfter = await deliveredTo('/first', firstId);
    expect(verifyTesseraSignature(firstAfter.body, String(firstAfter.headers['tessera-signature']), firstSecret)).toBe(true);
    const secondAfter = await deliveredTo('/second', secondId);
    expect(verifyTesseraSignature(secondAfter.body, String(secondAfter.headers['tessera-signature']), secondSecret)).toBe(true);
    expect(await secretsCli([newKey], 'status')).toEqual({
      code: 0,
      lines: [
        'Keys: 1 (the first seals, every one opens)',
        'webhook signing secrets: 2 sealed, 2 with the newest key',
        'stored idempotent answers: 2 sealed, 2 with the newest key',
        'Every sealed value opens with the newest key: older keys can be removed from ENCRYPTION_KEYS.',
      ],
    });
    await after.app.close();
  });

  it('breaks replays and deliveries when a key is dropped before its values were moved, and says which', async () => {
    const third = await gateway([oldKey, newKey]);
    const registered = await register(third, '/third', 'register-third');
    expect(registered.status).toBe(201);
    const { id: thirdId } = registered.body.endpoint;
    await third.app.close();

    const status = await secretsCli([newKey], 'status');
    expect(status.code).toBe(1);
    expect(status.lines.slice(1)).toEqual([
      `webhook signing secrets: 3 sealed, 2 with the newest key, 1 no key opens (${thirdId})`,
      `stored idempotent answers: 3 sealed, 2 with the newest key, 1 no key opens (${await apiKeyIdOf()}/register-third)`,
      '2 value(s) no key of ENCRYPTION_KEYS opens: add back the key that sealed them, or register those webhook endpoints again (stored answers expire within 24 hours).',
    ]);

    const newOnly = await gateway([newKey]);
    const replay = await register(newOnly, '/third', 'register-third');
    expect(replay.status).toBe(422);
    expect(replay.body.error).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      details: { field: 'Idempotency-Key' },
      message:
        "The stored answer for this Idempotency-Key can no longer be read (no key of the server's ENCRYPTION_KEYS opens it); check the resource and use a new key",
    });
    await recordTestEvent(db, { brandId, type: 'booking.confirmed', payload: { id: crypto.randomUUID(), status: 'confirmed' } });
    await waitFor('a failed attempt', async () => ((await deliveriesOf(db, thirdId))[0]?.attempts ?? 0) >= 1);
    expect((await deliveriesOf(db, thirdId))[0]?.lastError).toBe(
      'signing secret cannot be decrypted: no key in ENCRYPTION_KEYS opens it (was the key that sealed it removed?)',
    );
    expect(receiver.at('/third')).toEqual([]);
    await newOnly.app.close();
  });
});

async function apiKeyIdOf(): Promise<string> {
  return (await db.value('SELECT id FROM api_keys WHERE brand_id = ?', brandId)) as string;
}
