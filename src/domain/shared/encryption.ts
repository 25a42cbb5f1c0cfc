/**
 * Secrets the server must read back (webhook signing secrets, stored idempotent answers that carry a
 * payment intent secret) are kept encrypted at rest: AES-256-GCM with a random 12-byte IV, stored as
 * base64 of iv + tag + ciphertext. `context` is authenticated data: a ciphertext copied to another row
 * (another context) does not decrypt.
 *
 * Keys rotate: a keyring lists them newest first (ENCRYPTION_KEYS). The newest seals; any of them opens,
 * so values sealed before a rotation stay readable until `npm run secrets -- reencrypt` moves them to
 * the newest key and the old one can be retired.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Encryption keys, newest first: the first seals, every one opens. */
export type Keyring = readonly [Buffer, ...Buffer[]];

/** The keyring of base64 keys, newest first (as the configuration holds them). */
export function keyring(keys: readonly [string, ...string[]]): Keyring {
  const [newest, ...older] = keys;
  return [Buffer.from(newest, 'base64'), ...older.map((key) => Buffer.from(key, 'base64'))];
}

export function seal(keys: Keyring, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys[0], iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

function open(key: Buffer, sealed: string, context: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

/** The plaintext `seal` stored, opened with whichever key of the ring sealed it; throws when none does. */
export function unseal(keys: Keyring, sealed: string, context: string): string {
  for (const key of keys) {
    try {
      return open(key, sealed, context);
    } catch {
      // Not this key: try the next one.
    }
  }
  throw new Error('No key of the ring opens this value (or it was sealed for another context)');
}

/** Whether the newest key sealed `sealed` (nothing to re-encrypt). */
export function sealedWithNewest(keys: Keyring, sealed: string, context: string): boolean {
  try {
    open(keys[0], sealed, context);
    return true;
  } catch {
    return false;
  }
}
