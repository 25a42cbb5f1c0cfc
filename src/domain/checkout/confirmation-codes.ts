/**
 * Confirmation codes of bookings and carts: short, read out over the phone, unique per brand. The
 * alphabet leaves out characters that are easily confused or misheard (0/O, 1/I/L, U/V).
 */
import { randomInt } from 'node:crypto';
import { invalid } from '../shared/errors.ts';

/** 30 characters: digits 2-9 and A-Z without I, L, O, U. */
export const CONFIRMATION_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CONFIRMATION_CODE_LENGTH = 8;

/** A new random code: 30^8 (about 6.6e11) possibilities, so a retry on collision is rare. */
export function generateConfirmationCode(): string {
  return Array.from(
    { length: CONFIRMATION_CODE_LENGTH },
    () => CONFIRMATION_CODE_ALPHABET[randomInt(CONFIRMATION_CODE_ALPHABET.length)],
  ).join('');
}

/**
 * A code spelled from `bytes` (one character per byte, the first CONFIRMATION_CODE_LENGTH bytes), for
 * deterministic codes such as the demo data's. Slightly uneven over the alphabet: not for secrets.
 */
export function confirmationCodeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < CONFIRMATION_CODE_LENGTH) throw new RangeError(`Need ${CONFIRMATION_CODE_LENGTH} bytes, got ${bytes.length}`);
  return Array.from(
    bytes.subarray(0, CONFIRMATION_CODE_LENGTH),
    (b) => CONFIRMATION_CODE_ALPHABET[b % CONFIRMATION_CODE_ALPHABET.length],
  ).join('');
}

const intendedPattern = /^[A-Z0-9]{4,16}$/;

/** A partner's `intendedConfirmationCode`, upper-cased: 4 to 16 letters A-Z and digits, else VALIDATION_FAILED. */
export function normalizeIntendedCode(code: string, field: string): string {
  const upper = code.trim().toUpperCase();
  if (!intendedPattern.test(upper)) throw invalid(field, `${field} must be 4 to 16 letters A-Z and digits`);
  return upper;
}
