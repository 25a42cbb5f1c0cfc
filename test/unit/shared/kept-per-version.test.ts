import { describe, expect, it } from 'vitest';
import { keptPerVersion } from '../../../src/domain/shared/kept-per-version.ts';

describe('keptPerVersion', () => {
  const counting = (values: Record<string, string | undefined>) => {
    const reads: string[] = [];
    const read = (key: string) => async () => {
      reads.push(key);
      return values[key];
    };
    return { reads, read };
  };

  it('reads a key once while its version holds, and again under another version', async () => {
    const kept = keptPerVersion<object, string>(10);
    const db = {};
    const { reads, read } = counting({ a: 'A' });
    expect(await kept(db, 'a', 'v1', read('a'))).toBe('A');
    expect(await kept(db, 'a', 'v1', read('a'))).toBe('A');
    expect(reads).toStrictEqual(['a']);
    expect(await kept(db, 'a', 'v2', read('a'))).toBe('A');
    expect(await kept(db, 'a', 'v2', read('a'))).toBe('A');
    expect(reads).toStrictEqual(['a', 'a']);
  });

  it('keeps each owner apart', async () => {
    const kept = keptPerVersion<object, string>(10);
    const { reads, read } = counting({ a: 'A' });
    await kept({}, 'a', 'v1', read('a'));
    await kept({}, 'a', 'v1', read('a'));
    expect(reads).toStrictEqual(['a', 'a']);
  });

  it('never keeps what a read did not find, and forgets what it kept for that key', async () => {
    const kept = keptPerVersion<object, string>(10);
    const db = {};
    const values: Record<string, string | undefined> = { a: 'A' };
    const { reads, read } = counting(values);
    expect(await kept(db, 'a', 'v1', read('a'))).toBe('A');
    values['a'] = undefined;
    expect(await kept(db, 'a', 'v2', read('a'))).toBeUndefined();
    expect(await kept(db, 'a', 'v2', read('a'))).toBeUndefined();
    values['a'] = 'A again';
    expect(await kept(db, 'a', 'v1', read('a'))).toBe('A again');
    expect(reads).toStrictEqual(['a', 'a', 'a', 'a']);
  });

  it('reads again the least recently used key beyond its size', async () => {
    const kept = keptPerVersion<object, string>(2);
    const db = {};
    const { reads, read } = counting({ a: 'A', b: 'B', c: 'C' });
    for (const key of ['a', 'b', 'a', 'c', 'a', 'b']) await kept(db, key, 'v1', read(key));
    expect(reads).toStrictEqual(['a', 'b', 'c', 'b']);
  });
});
