import { createHash } from 'node:crypto';

/**
 * What is stored of a secret (an API key, a payment intent's client secret): its SHA-256, hex. Found again
 * by a unique index on the hash, never compared byte by byte.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
