import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/domain/context.ts';
import {
  abandonIdempotentRequest,
  beginIdempotentRequest,
  checkIdempotencyKey,
  completeIdempotentRequest,
  requestFingerprint,
} from '../../src/domain/idempotency.ts';
import { SandboxProcessor } from '../../src/payments/sandbox.ts';
import { freshDb } from '../support/db.ts';

describe('idempotency records', () => {
  let clock = new Date('2026-11-25T12:00:00.000Z');
  const deps: Deps = { db: freshDb(), now: () => clock, payments: new SandboxProcessor(), holdTtlSeconds: 900, waitlistOfferTtlSeconds: 86_400 };
  const encryptionKey = Buffer.alloc(32, 7);
  const claim = (key: string, requestHash = 'h1', withKey = encryptionKey) =>
    beginIdempotentRequest(deps, { apiKeyId: 'k1', key, requestHash }, withKey);
  const count = () => (deps.db.$client.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n;

  it('drops a 5xx answer so a retry runs again, and keeps a 4xx one', async () => {
    expect(await claim('a')).toEqual({ outcome: 'proceed' });
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 'a', status: 502, body: '{"error":{}}' }, encryptionKey);
    expect(await claim('a')).toEqual({ outcome: 'proceed' });
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 'a', status: 404, body: '{"nope":1}' }, encryptionKey);
    expect(await claim('a')).toEqual({ outcome: 'replay', status: 404, body: '{"nope":1}' });
  });

  it('frees a running key whose request ended without an answer, but never a completed one', async () => {
    await claim('b');
    await abandonIdempotentRequest(deps, { apiKeyId: 'k1', key: 'b' });
    expect(await claim('b')).toEqual({ outcome: 'proceed' });
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 'b', status: 200, body: '{}' }, encryptionKey);
    await abandonIdempotentRequest(deps, { apiKeyId: 'k1', key: 'b' });
    expect(await claim('b')).toEqual({ outcome: 'replay', status: 200, body: '{}' });
  });

  it('stores answers sealed, and refuses (never re-runs) one the current key cannot read', async () => {
    await claim('s');
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 's', status: 201, body: '{"paymentIntentSecret":"pi_secret_123"}' }, encryptionKey);
    const stored = deps.db.$client.prepare("SELECT response_body FROM idempotency_keys WHERE key = 's'").pluck().get() as string;
    expect(stored).not.toContain('pi_secret_123');
    expect(await claim('s')).toEqual({ outcome: 'replay', status: 201, body: '{"paymentIntentSecret":"pi_secret_123"}' });
    await expect(claim('s', 'h1', Buffer.alloc(32, 8))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    deps.db.$client.prepare("DELETE FROM idempotency_keys WHERE key = 's'").run();
  });

  it('removes records older than 24 hours', async () => {
    const before = count();
    expect(before).toBe(2);
    clock = new Date(clock.getTime() + 24 * 3600 * 1000 + 1);
    await claim('c');
    expect(count()).toBe(1);
  });

  it('fingerprints method, URL and exact body', () => {
    const base = requestFingerprint('POST', '/v1/bookings/cancel', '{"a":1}');
    expect(requestFingerprint('post', '/v1/bookings/cancel', '{"a":1}')).toBe(base);
    expect(requestFingerprint('POST', '/v1/bookings/cancel?x=1', '{"a":1}')).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/bookings/cancel', '{"a": 1}')).not.toBe(base);
  });

  it.each([['x'.repeat(256)], [''], ['  '], ['tab\there'], ['été']])('refuses the key %j', (key) => {
    expect(() => checkIdempotencyKey(key)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'Idempotency-Key' } }));
  });

  it('refuses the header sent twice', () => {
    expect(() => checkIdempotencyKey(['a', 'b'])).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});
