/**
 * The organizations and API keys stores (src/domain/access/store.ts) as a contract: an organization's
 * brands, and API keys written, listed (oldest first), found by hash and revoked, with the origins of
 * active publishable keys. Revocation is a guard, raced (guards.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ApiKeysStore } from '../../src/domain/access/store.ts';
import { freshDb } from '../support/db.ts';
import { accessReads, catalogWorld, minute } from './catalog-world.ts';
import { accessGuards, guardWorld } from './guards.ts';

const db = await freshDb();
const { database } = db;
const w = await catalogWorld(db);
const racing = await guardWorld(db);

const key = (n: number, fields: Partial<Parameters<ApiKeysStore['insertApiKey']>[0]> = {}) => ({
  id: `key-${n}`,
  kind: 'brand' as const,
  secretHash: `hash-${n}`,
  prefix: `sk_test_${n}`,
  brandId: w.brand.id,
  ...fields,
});

describe('store contract: access', () => {
  accessReads(() => ({ database: db.database, w }));

  it('inserts, lists (oldest first, then id), finds and revokes API keys, and lists the origins of active publishable keys', async () => {
    // Written in none of the orders listed: key-8 and key-1 at one instant, key-0 the oldest, written last.
    const keys = [
      { ...key(3), createdAt: minute(100) },
      { ...key(8), createdAt: minute(101) },
      { ...key(1, { kind: 'organization', brandId: null, organizationId: w.org.id, label: 'Group key' }), createdAt: minute(101) },
      { ...key(2, { kind: 'publishable', allowedOrigins: ['https://b.example', 'https://a.example'] }), createdAt: minute(102) },
      { ...key(5, { kind: 'publishable', allowedOrigins: ['https://a.example', 'https://c.example'] }), createdAt: minute(103) },
      { ...key(4, { kind: 'publishable', allowedOrigins: ['https://gone.example'], revokedAt: minute(200) }), createdAt: minute(104) },
      { ...key(0, { kind: 'publishable', allowedOrigins: ['https://z.example', 'https://a.example'] }), createdAt: minute(99) },
    ];
    for (const row of keys) await database.apiKeys.insertApiKey(row);

    const listed = await database.apiKeys.listApiKeys();
    expect(listed.map((k) => k.id)).toEqual(['key-0', 'key-3', 'key-1', 'key-8', 'key-2', 'key-5', 'key-4']);
    expect(listed[2]).toStrictEqual({
      id: 'key-1',
      kind: 'organization',
      brandId: null,
      organizationId: 'org-1',
      secretHash: 'hash-1',
      prefix: 'sk_test_1',
      label: 'Group key',
      allowedOrigins: null,
      createdAt: minute(101),
      revokedAt: null,
    });
    expect(listed[0]).toStrictEqual({
      id: 'key-0',
      kind: 'publishable',
      brandId: w.brand.id,
      organizationId: null,
      secretHash: 'hash-0',
      prefix: 'sk_test_0',
      label: '',
      allowedOrigins: ['https://z.example', 'https://a.example'],
      createdAt: minute(99),
      revokedAt: null,
    });
    expect(await database.apiKeys.findActiveKeyByHash('hash-2')).toStrictEqual({
      id: 'key-2',
      kind: 'publishable',
      brandId: w.brand.id,
      organizationId: null,
      allowedOrigins: ['https://b.example', 'https://a.example'],
    });
    expect(await database.apiKeys.findActiveKeyByHash('hash-1')).toStrictEqual({
      id: 'key-1',
      kind: 'organization',
      brandId: null,
      organizationId: 'org-1',
      allowedOrigins: null,
    });
    expect(await database.apiKeys.findActiveKeyByHash('hash-4')).toBeUndefined();
    expect(await database.apiKeys.findActiveKeyByHash('missing')).toBeUndefined();
    // The keys' origins in the keys' order, each key's in its own, once each.
    expect(await database.apiKeys.publishableKeyOrigins()).toEqual([
      'https://z.example',
      'https://a.example',
      'https://b.example',
      'https://c.example',
    ]);

    expect(await database.apiKeys.revokeApiKey('key-2', '2026-02-01T00:00:00.000Z')).toBe(true);
    expect(await database.apiKeys.revokeApiKey('key-2', '2026-02-02T00:00:00.000Z')).toBe(false);
    expect(await database.apiKeys.revokeApiKey('missing', '2026-02-02T00:00:00.000Z')).toBe(false);
    expect(await database.apiKeys.findActiveKeyByHash('hash-2')).toBeUndefined();
    expect(await database.apiKeys.publishableKeyOrigins()).toEqual(['https://z.example', 'https://a.example', 'https://c.example']);
    // A revoked key keeps its place in the list.
    const after = await database.apiKeys.listApiKeys();
    expect(after.map((k) => [k.id, k.revokedAt])).toEqual([
      ['key-0', null],
      ['key-3', null],
      ['key-1', null],
      ['key-8', null],
      ['key-2', '2026-02-01T00:00:00.000Z'],
      ['key-5', null],
      ['key-4', minute(200)],
    ]);
  });

  it('writes the default creation time of a key as an ISO instant', async () => {
    const before = Date.now();
    await database.apiKeys.insertApiKey(key(9));
    const written = (await database.apiKeys.listApiKeys()).find((k) => k.id === 'key-9')!;
    expect(written.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(written.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    expect(Date.parse(written.createdAt)).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  accessGuards(() => ({ db, gateways: [database], w: racing }));
});
