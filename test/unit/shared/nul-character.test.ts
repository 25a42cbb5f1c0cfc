import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nulCharacterPath } from '../../../src/http/nul-character.ts';

/** The first unstorable string or key in document order, recursively (the specification the walk keeps). */
function firstUnstorable(value: unknown, path: string[] = []): string | null {
  const bad = (text: string) => text.includes('\0') || !text.isWellFormed();
  if (typeof value === 'string') return bad(value) ? path.join('.') : null;
  if (typeof value !== 'object' || value === null) return null;
  const entries = Object.entries(value);
  for (let i = entries.length - 1; i >= 0; i -= 1) if (bad(entries[i]![0])) return [...path, entries[i]![0]].join('.');
  for (const [key, item] of entries) {
    const found = firstUnstorable(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

describe('nulCharacterPath', () => {
  it('names the first string or key holding NUL or a lone surrogate', () => {
    expect(nulCharacterPath('a\0b')).toBe('');
    expect(nulCharacterPath({ data: [{ participants: [{ firstName: 'Ana', lastName: 'R\0' }] }] })).toBe('data.0.participants.0.lastName');
    expect(nulCharacterPath({ data: [{ note: 'ok' }, { note: '\ud800' }] })).toBe('data.1.note');
    expect(nulCharacterPath({ a: { 'k\0': 1 } })).toBe('a.k\0');
    expect(nulCharacterPath({ a: ['fine', 2, null, { b: true }] })).toBeNull();
  });

  it('finds what a recursive walk finds, for any JSON', () => {
    const text = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('\0', 'x\0', '\ud800', '\udc00y'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        expect(nulCharacterPath(value)).toBe(firstUnstorable(value));
      }),
      { numRuns: 500 },
    );
  });
});
