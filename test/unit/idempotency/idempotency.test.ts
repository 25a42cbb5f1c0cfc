import type { Keyring } from '../../../src/domain/shared/encryption.ts';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../../src/domain/shared/deps.ts';
import {
  abandonIdempotentRequest,
  beginIdempotentRequest,
  checkIdempotencyKey,
  completeIdempotentRequest,
  requestFingerprint,
  runIds,
} from '../../../src/domain/idempotency/idempotency.ts';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { freshDb } from '../../support/db.ts';

// Each describe block keeps its records in a database of its own.
const recordsDb = await freshDb();
const leasesDb = await freshDb();

describe('idempotency records', () => {
  let clock = new Date('2026-11-25T12:00:00.000Z');
  const raw = recordsDb;
  const deps: Deps = {
    db: raw.database,
    now: () => clock,
    payments: new SandboxProcessor(),
    holdTtlSeconds: 900,
    waitlistOfferTtlSeconds: 86_400,
  };
  const encryptionKeys: Keyring = [Buffer.alloc(32, 7)];
  const LEASE_MS = 60_000;
  const claim = (key: string, requestHash = 'h1', withKey = encryptionKeys) =>
    beginIdempotentRequest(deps, { apiKeyId: 'k1', key, requestHash }, withKey, LEASE_MS);
  /** The lease a run claiming now holds. */
  const lease = () => new Date(clock.getTime() + LEASE_MS).toISOString();
  const proceed = { outcome: 'proceed', tookOver: false };
  const count = () => raw.count('idempotencyKeys');

  it('drops a 5xx answer so a retry runs again, and keeps a 4xx one', async () => {
    expect(await claim('a')).toMatchObject(proceed);
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 'a', lease: lease(), status: 502, body: '{"error":{}}' }, encryptionKeys);
    expect(await claim('a')).toMatchObject(proceed);
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 'a', lease: lease(), status: 404, body: '{"nope":1}' }, encryptionKeys);
    expect(await claim('a')).toEqual({ outcome: 'replay', status: 404, body: '{"nope":1}' });
  });

  it('frees a running key whose request ended without an answer, but never a completed one', async () => {
    await claim('b');
    await abandonIdempotentRequest(deps, { apiKeyId: 'k1', key: 'b', lease: lease() });
    expect(await claim('b')).toMatchObject(proceed);
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 'b', lease: lease(), status: 200, body: '{}' }, encryptionKeys);
    await abandonIdempotentRequest(deps, { apiKeyId: 'k1', key: 'b', lease: lease() });
    expect(await claim('b')).toEqual({ outcome: 'replay', status: 200, body: '{}' });
  });

  it('stores answers sealed, and refuses (never re-runs) one the current key cannot read', async () => {
    await claim('s');
    await completeIdempotentRequest(
      deps,
      { apiKeyId: 'k1', key: 's', lease: lease(), status: 201, body: '{"paymentIntentSecret":"pi_secret_123"}' },
      encryptionKeys,
    );
    const stored = await raw.value<string>("SELECT response_body FROM idempotency_keys WHERE key = 's'");
    expect(stored).not.toContain('pi_secret_123');
    expect(await claim('s')).toEqual({ outcome: 'replay', status: 201, body: '{"paymentIntentSecret":"pi_secret_123"}' });
    await expect(claim('s', 'h1', [Buffer.alloc(32, 8)])).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    await raw.run("DELETE FROM idempotency_keys WHERE key = 's'");
  });

  it('removes records older than 24 hours', async () => {
    const before = await count();
    expect(before).toBe(2);
    clock = new Date(clock.getTime() + 24 * 3600 * 1000 + 1);
    await claim('c');
    expect(await count()).toBe(1);
  });

  it('fingerprints method, URL and exact body', () => {
    const base = requestFingerprint('POST', '/v1/bookings/cancel', '{"a":1}');
    // Pinned: records written before a deploy are matched by the fingerprint a retry gets after it.
    expect(base).toBe('0b34fd7acb6c8be226184717e6c15286aab2d967bd60433c9a3d64a66e3a01f6');
    expect(requestFingerprint('post', '/v1/bookings/cancel', '{"a":1}')).toBe(base);
    expect(requestFingerprint('POST', '/v1/bookings/cancel?x=1', '{"a":1}')).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/bookings/cancel', '{"a": 1}')).not.toBe(base);
  });

  it.each([['x'.repeat(256)], [''], ['  '], ['tab\there'], ['été']])('refuses the key %j', (key) => {
    expect(() => checkIdempotencyKey(key)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'Idempotency-Key' } }),
    );
  });

  it('refuses the header sent twice', () => {
    expect(() => checkIdempotencyKey(['a', 'b'])).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});

describe('idempotency leases', () => {
  let clock = new Date('2026-11-25T12:00:00.000Z');
  const raw = leasesDb;
  const deps: Deps = {
    db: raw.database,
    now: () => clock,
    payments: new SandboxProcessor(),
    holdTtlSeconds: 900,
    waitlistOfferTtlSeconds: 86_400,
  };
  const encryptionKeys: Keyring = [Buffer.alloc(32, 7)];
  const LEASE_MS = 60_000;
  const claim = (key: string, requestHash = 'h1') =>
    beginIdempotentRequest(deps, { apiKeyId: 'k1', key, requestHash }, encryptionKeys, LEASE_MS);
  const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

  it('refuses a running key until its lease ends, then hands it to one retry, under a new lease', async () => {
    const first = await claim('a');
    expect(first).toMatchObject({ outcome: 'proceed', tookOver: false, lease: new Date(clock.getTime() + LEASE_MS).toISOString() });
    later(LEASE_MS - 1);
    await expect(claim('a')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    later(1);
    const second = await claim('a');
    expect(second).toMatchObject({ outcome: 'proceed', tookOver: true, lease: new Date(clock.getTime() + LEASE_MS).toISOString() });
    await expect(claim('a')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    // Another request under the key is still refused, lease or not.
    later(LEASE_MS);
    await expect(claim('a', 'h2')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('takes a record over only where its lease is still the one read: of two racing takeovers, one wins', async () => {
    await claim('b');
    const seen = (await deps.db.idempotency.findIdempotencyRecord('k1', 'b'))!.leaseExpiresAt;
    later(LEASE_MS);
    // The two takeovers' leases: instants a minute apart, so the stored one tells which won.
    const [won, lost] = [LEASE_MS, 2 * LEASE_MS].map((ms) => new Date(clock.getTime() + ms).toISOString()) as [string, string];
    expect(await deps.db.idempotency.takeOverRecord('k1', 'b', seen, won)).toBe(true);
    expect(await deps.db.idempotency.takeOverRecord('k1', 'b', seen, lost)).toBe(false);
    expect((await deps.db.idempotency.findIdempotencyRecord('k1', 'b'))!.leaseExpiresAt).toBe(won);
  });

  it('lets an overtaken run neither free nor drop the record it lost, but keeps the first answer stored', async () => {
    const first = await claim('c');
    later(LEASE_MS);
    const second = await claim('c');
    if (first.outcome !== 'proceed' || second.outcome !== 'proceed') throw new Error('expected both to proceed');
    await abandonIdempotentRequest(deps, { apiKeyId: 'k1', key: 'c', lease: first.lease });
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 'c', lease: first.lease, status: 503, body: '{}' }, encryptionKeys);
    expect(await deps.db.idempotency.findIdempotencyRecord('k1', 'c')).toMatchObject({ state: 'running', leaseExpiresAt: second.lease });
    await completeIdempotentRequest(deps, { apiKeyId: 'k1', key: 'c', lease: first.lease, status: 200, body: '{"run":1}' }, encryptionKeys);
    await completeIdempotentRequest(
      deps,
      { apiKeyId: 'k1', key: 'c', lease: second.lease, status: 200, body: '{"run":2}' },
      encryptionKeys,
    );
    expect(await claim('c')).toEqual({ outcome: 'replay', status: 200, body: '{"run":1}' });
  });

  it('gives every run of a request the same ids, in order, and other requests other ids', () => {
    const request = { apiKeyId: 'k1', key: 'd', requestHash: 'h1' };
    const [a, b] = [runIds(request), runIds(request)];
    const first = [a(), a(), a()];
    // Pinned: a retry after a deploy names its money movements as the first run did.
    expect(first.slice(0, 2)).toEqual(['7f127bd8-edb6-8df9-ada3-979ad52d67d1', '1d4ec7e8-3943-8d81-9cfb-dcbd1568741e']);
    expect([b(), b(), b()]).toEqual(first);
    expect(new Set(first).size).toBe(3);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(runIds({ ...request, requestHash: 'h2' })()).not.toBe(first[0]);
    expect(runIds({ ...request, key: 'e' })()).not.toBe(first[0]);
    expect(runIds({ ...request, apiKeyId: 'k2' })()).not.toBe(first[0]);
  });
});
