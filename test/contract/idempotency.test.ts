/**
 * The store contract of Idempotency-Key records (src/domain/idempotency/store.ts): what each method
 * returns and writes, and stored answers paged in key order (byte order). Then the compare-and-set
 * leases, answers and re-encryptions, raced (races.ts).
 */
import { describe, expect, it } from 'vitest';
import { createCutOffRequest } from '../../fixtures/factories/idempotency.ts';
import { requestFingerprint } from '../../src/domain/idempotency/idempotency.ts';
import type { IdempotencyRecord, SealedAnswer, SealedAnswerKey } from '../../src/domain/idempotency/store.ts';
import { freshDb } from '../support/db.ts';
import { idempotencyRaces, idempotencyRaceWorld } from './races.ts';

const db = await freshDb();
const { database } = db;

const T1 = '2026-03-01T11:00:00.000Z';
const T2 = '2026-03-01T12:00:00.000Z';
const T3 = '2026-03-01T13:00:00.000Z';
const T4 = '2026-03-01T14:00:00.000Z';
const T5 = '2026-03-01T15:00:00.000Z';
const OLD = '2026-02-01T00:00:00.000Z';

// Records: answered, running, running from before leases (no lease), old, of other API keys. Keys whose
// byte order ('B' < 'Z' < 'a' < 'old' < 'é') is no dictionary's.
const record = async (apiKeyId: string, key: string, createdAt: string, answer?: string) => {
  await database.idempotency.insertRunningRecord({ apiKeyId, key, requestHash: `h-${key}`, leaseExpiresAt: T2, createdAt });
  if (answer) await database.idempotency.completeRecord(apiKeyId, key, 201, answer);
};
await record('key-1', 'a', T1, 'sealed-a');
await record('key-1', 'B', T1, 'sealed-B');
await record('key-1', 'c', T1);
await record('key-1', 'é', T1, 'sealed-é');
await record('key-1', 'Z', T1, 'sealed-Z');
await record('key-1', 'old', OLD, 'sealed-old');
await record('key-0', 'z', T2, 'sealed-z');
await record('key-2', 'a', T3, 'sealed-2a');
await createCutOffRequest(db, { apiKeyId: 'key-1', key: 'd', url: '/v1/bookings', body: '{}', at: new Date(T1), leaseExpiresAt: null });

const answered = (apiKeyId: string, key: string, createdAt: string, responseBody: string): IdempotencyRecord => ({
  apiKeyId,
  key,
  requestHash: `h-${key}`,
  state: 'completed',
  responseStatus: 201,
  responseBody,
  leaseExpiresAt: null,
  createdAt,
});
const running = (apiKeyId: string, key: string, createdAt: string, leaseExpiresAt: string | null): IdempotencyRecord => ({
  apiKeyId,
  key,
  requestHash: `h-${key}`,
  state: 'running',
  responseStatus: null,
  responseBody: null,
  leaseExpiresAt,
  createdAt,
});

/** What each key of the world holds, as the tests change it (undefined: no record). */
const expected = new Map<string, IdempotencyRecord | undefined>([
  ['key-1/a', answered('key-1', 'a', T1, 'sealed-a')],
  ['key-1/B', answered('key-1', 'B', T1, 'sealed-B')],
  ['key-1/c', running('key-1', 'c', T1, T2)],
  ['key-1/d', { ...running('key-1', 'd', T1, null), requestHash: requestFingerprint('POST', '/v1/bookings', '{}') }],
  ['key-1/é', answered('key-1', 'é', T1, 'sealed-é')],
  ['key-1/Z', answered('key-1', 'Z', T1, 'sealed-Z')],
  ['key-1/old', answered('key-1', 'old', OLD, 'sealed-old')],
  ['key-0/z', answered('key-0', 'z', T2, 'sealed-z')],
  ['key-2/a', answered('key-2', 'a', T3, 'sealed-2a')],
  ['key-1/missing', undefined],
]);
const readAll = async () => {
  for (const [name, record] of expected) {
    const [apiKeyId, key] = name.split('/') as [string, string];
    expect({ name, record: await database.idempotency.findIdempotencyRecord(apiKeyId, key) }).toStrictEqual({ name, record });
  }
};
const sealed = (apiKeyId: string, key: string): SealedAnswer => ({
  apiKeyId,
  key,
  responseBody: expected.get(`${apiKeyId}/${key}`)!.responseBody!,
});

describe('store contract: idempotency records', () => {
  it('finds records and pages stored answers in key order (byte order)', async () => {
    await readAll();
    expect(await database.idempotency.findIdempotencyRecord('key-1', 'c')).toStrictEqual({
      apiKeyId: 'key-1',
      key: 'c',
      requestHash: 'h-c',
      state: 'running',
      responseStatus: null,
      responseBody: null,
      leaseExpiresAt: T2,
      createdAt: T1,
    });
    // Answered records only (not c, nor the cut-off d).
    const answers = [
      sealed('key-0', 'z'),
      sealed('key-1', 'B'),
      sealed('key-1', 'Z'),
      sealed('key-1', 'a'),
      sealed('key-1', 'old'),
      sealed('key-1', 'é'),
      sealed('key-2', 'a'),
    ];
    expect(await database.idempotency.sealedAnswersPage(null, 100)).toStrictEqual(answers);
    expect(answers.map((row) => `${row.apiKeyId}/${row.key}:${row.responseBody}`)).toStrictEqual([
      'key-0/z:sealed-z',
      'key-1/B:sealed-B',
      'key-1/Z:sealed-Z',
      'key-1/a:sealed-a',
      'key-1/old:sealed-old',
      'key-1/é:sealed-é',
      'key-2/a:sealed-2a',
    ]);
    for (const limit of [1, 2, 3]) {
      let after: SealedAnswerKey | null = null;
      for (let start = 0; ; start += limit) {
        const page = await database.idempotency.sealedAnswersPage(after, limit);
        expect({ limit, start, page }).toStrictEqual({ limit, start, page: answers.slice(start, start + limit) });
        if (page.length < limit) break;
        after = { apiKeyId: page[limit - 1]!.apiKeyId, key: page[limit - 1]!.key };
      }
    }
    // Keys that are no record's: the first answers after each.
    expect(await database.idempotency.sealedAnswersPage({ apiKeyId: 'key-1', key: '' }, 3)).toStrictEqual(answers.slice(1, 4));
    expect(await database.idempotency.sealedAnswersPage({ apiKeyId: 'key-1', key: 'b' }, 3)).toStrictEqual(answers.slice(4, 7));
    expect(await database.idempotency.sealedAnswersPage({ apiKeyId: 'key-1', key: 'zzz' }, 3)).toStrictEqual(answers.slice(5, 7));
    expect(await database.idempotency.sealedAnswersPage({ apiKeyId: 'key-', key: 'zzz' }, 3)).toStrictEqual(answers.slice(0, 3));
    expect(await database.idempotency.sealedAnswersPage({ apiKeyId: 'key-9', key: '' }, 3)).toStrictEqual([]);
  });

  it('inserts, takes over, completes, deletes and swaps records only as their conditions allow', async () => {
    const row = { apiKeyId: 'key-3', key: 'new', requestHash: 'h-new', leaseExpiresAt: T3, createdAt: T2 };
    await database.idempotency.insertRunningRecord(row);
    await expect(database.idempotency.insertRunningRecord({ ...row, requestHash: 'h-other' })).rejects.toThrow();
    expect(await database.idempotency.findIdempotencyRecord('key-3', 'new')).toStrictEqual(running('key-3', 'new', T2, T3));

    expect(await database.idempotency.takeOverRecord('key-3', 'new', T2, T4)).toBe(false); // not its lease
    expect(await database.idempotency.takeOverRecord('key-3', 'new', null, T4)).toBe(false);
    expect(await database.idempotency.takeOverRecord('key-3', 'new', T3, T4)).toBe(true);
    expect(await database.idempotency.takeOverRecord('key-3', 'new', T3, T5)).toBe(false); // taken over already
    expect(await database.idempotency.takeOverRecord('key-1', 'd', null, T4)).toBe(true); // no lease yet
    expect(await database.idempotency.takeOverRecord('key-1', 'a', null, T4)).toBe(false); // completed
    expect(await database.idempotency.takeOverRecord('key-1', 'missing', null, T4)).toBe(false);
    expect(await database.idempotency.findIdempotencyRecord('key-1', 'd')).toMatchObject({ state: 'running', leaseExpiresAt: T4 });

    // The run that was taken over no longer owns it; the new one does.
    await database.idempotency.deleteRunningRecord('key-3', 'new', T3);
    expect(await database.idempotency.findIdempotencyRecord('key-3', 'new')).toStrictEqual(running('key-3', 'new', T2, T4));
    await database.idempotency.deleteRunningRecord('key-3', 'new', T4);
    expect(await database.idempotency.findIdempotencyRecord('key-3', 'new')).toBeUndefined();
    await database.idempotency.deleteRunningRecord('key-1', 'a', T2); // completed: stays

    // The first answer wins; no answer makes a record.
    await database.idempotency.completeRecord('key-1', 'd', 409, 'sealed-d');
    await database.idempotency.completeRecord('key-1', 'd', 201, 'sealed-later');
    await database.idempotency.completeRecord('key-1', 'missing', 201, 'x');
    expected.set('key-1/d', {
      ...expected.get('key-1/d')!,
      state: 'completed',
      responseStatus: 409,
      responseBody: 'sealed-d',
      leaseExpiresAt: null,
    });

    expect(await database.idempotency.replaceSealedAnswer('key-1', 'a', 'sealed-B', 'x')).toBe(false);
    expect(await database.idempotency.replaceSealedAnswer('key-1', 'a', 'sealed-a', 'resealed-a')).toBe(true);
    expect(await database.idempotency.replaceSealedAnswer('key-1', 'a', 'sealed-a', 'again')).toBe(false);
    expect(await database.idempotency.replaceSealedAnswer('key-1', 'c', 'sealed-c', 'x')).toBe(false); // no answer
    expected.set('key-1/a', answered('key-1', 'a', T1, 'resealed-a'));
    await readAll();

    await database.idempotency.deleteRecordsBefore(T1); // strictly before: only 'old'
    expected.set('key-1/old', undefined);
    await readAll();
    await database.idempotency.deleteRecordsBefore(T2);
    for (const key of ['a', 'B', 'c', 'd', 'é', 'Z']) expected.set(`key-1/${key}`, undefined);
    await readAll();
    expect(await database.idempotency.sealedAnswersPage(null, 100)).toStrictEqual([sealed('key-0', 'z'), sealed('key-2', 'a')]);
  });
});

// The races, in a database of their own: what they race for is all there is.
const racingDb = await freshDb();
const racing = await idempotencyRaceWorld(racingDb);

describe('store contract: idempotency records, raced', () => {
  idempotencyRaces(() => ({ db: racingDb, gateways: [racingDb.database], w: racing }));
});
