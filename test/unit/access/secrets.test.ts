import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../../src/domain/access/secrets.ts';

describe('hashSecret', () => {
  it('is the SHA-256 of the secret’s UTF-8 bytes, in hex: the stored keys are found by it', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashSecret('sk_test_été')).toBe('6371343da8ceab26bafc18a44232841405f7e26b609a709dee370559eeae86a5');
  });
});
