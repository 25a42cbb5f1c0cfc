import { describe, expect, it } from 'vitest';
import { actingBrand, canSee, type Principal } from '../../../src/domain/access/principal.ts';
import { type DomainError } from '../../../src/domain/shared/errors.ts';

const brandKey: Principal = { kind: 'brand', keyId: 'k1', organizationId: null, brandIds: ['A'], headerBrandId: null };
const orgKey: Principal = { kind: 'organization', keyId: 'k2', organizationId: 'O', brandIds: ['A', 'B'], headerBrandId: null };
const orgKeyNamingB: Principal = { ...orgKey, headerBrandId: 'B' };

const codeOf = (fn: () => unknown) => {
  try {
    return fn();
  } catch (error) {
    return (error as DomainError).code;
  }
};

describe('actingBrand', () => {
  it.each([
    ['brand key, no brand asked', brandKey, undefined, 'A'],
    ['brand key, its brand', brandKey, 'A', 'A'],
    ['brand key, another brand', brandKey, 'B', 'FORBIDDEN'],
    ['org key, no brand asked, no header', orgKey, undefined, 'VALIDATION_FAILED'],
    ['org key, a brand of the org', orgKey, 'B', 'B'],
    ['org key, a brand outside the org', orgKey, 'C', 'FORBIDDEN'],
    ['org key with header, no brand asked', orgKeyNamingB, undefined, 'B'],
    ['org key with header, the same brand asked', orgKeyNamingB, 'B', 'B'],
    ['org key with header, another brand of the org asked', orgKeyNamingB, 'A', 'FORBIDDEN'],
  ] as const)('%s -> %s', (_, principal, requested, expected) => {
    expect(codeOf(() => actingBrand(principal, requested))).toBe(expected);
  });
});

describe('canSee', () => {
  it.each([
    [brandKey, 'A', true],
    [brandKey, 'B', false],
    [orgKey, 'B', true],
    [orgKey, 'C', false],
    [orgKeyNamingB, 'A', false],
    [orgKeyNamingB, 'B', true],
  ] as const)('%#: brand %s visible -> %s', (principal, brandId, expected) => {
    expect(canSee(principal, brandId)).toBe(expected);
  });
});
