/**
 * Secrets the server must read back (webhook signing secrets, stored idempotent answers that carry a
 * payment intent secret) are kept encrypted at rest: AES-256-GCM under the server's ENCRYPTION_KEY,
 * with a random 12-byte IV, stored as base64 of iv + tag + ciphertext. `context` is authenticated
 * data: a ciphertext copied to another row (another context) does not decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** The plaintext `seal` stored; throws when the key, the context or the bytes differ. */
export function unseal(key: Buffer, sealed: string, context: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
