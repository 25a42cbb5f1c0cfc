import { describe, expect, it } from 'vitest';
import {
  CONFIRMATION_CODE_ALPHABET,
  confirmationCodeFromBytes,
  generateConfirmationCode,
  normalizeIntendedCode,
} from '../../../src/domain/checkout/confirmation-codes.ts';
import { codeAndField } from '../../support/domain-error.ts';

describe('confirmation codes', () => {
  it('use 30 characters that cannot be confused when read out (no 0/O, 1/I/L, U)', () => {
    expect(CONFIRMATION_CODE_ALPHABET).toHaveLength(30);
    expect(new Set(CONFIRMATION_CODE_ALPHABET).size).toBe(30);
    for (const ambiguous of ['0', 'O', '1', 'I', 'L', 'U']) expect(CONFIRMATION_CODE_ALPHABET).not.toContain(ambiguous);
  });

  it('are 8 characters of the alphabet, and differ from one call to the next', () => {
    const codes = Array.from({ length: 200 }, generateConfirmationCode);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{8}$/);
    expect(new Set(codes).size).toBe(200);
  });

  it('can be derived from bytes, the same bytes giving the same code', () => {
    const bytes = Uint8Array.from([0, 1, 29, 30, 255, 100, 7, 8, 9]);
    // 0 -> '2', 1 -> '3', 29 -> 'Z', 30 -> '2', 255 % 30 = 15 -> 'H', 100 % 30 = 10 -> 'C', 7 -> '9', 8 -> 'A'.
    expect(confirmationCodeFromBytes(bytes)).toBe('23Z2HC9A');
    expect(() => confirmationCodeFromBytes(Uint8Array.from([1, 2]))).toThrow(RangeError);
  });
});

describe('normalizeIntendedCode', () => {
  it.each([
    ['ord4711', 'ORD4711'],
    [' abcd ', 'ABCD'],
    ['A1B2C3D4E5F6G7H8', 'A1B2C3D4E5F6G7H8'],
  ])('accepts %j as %j', (input, expected) => {
    expect(normalizeIntendedCode(input, 'data.0.intendedConfirmationCode')).toBe(expected);
  });

  it.each(['abc', 'A1B2C3D4E5F6G7H8X', 'ORD-1', 'ÖRD1', ''])('refuses %j, naming the field', (input) => {
    expect(codeAndField(() => normalizeIntendedCode(input, 'data.2.intendedConfirmationCode'))).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'data.2.intendedConfirmationCode',
    });
  });
});
