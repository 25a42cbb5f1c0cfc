/**
 * Endpoint signing secrets: made once, shown once, kept encrypted (the server must read them back to
 * sign, so a hash will not do), and the signature partners verify.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { seal, unseal, type Keyring } from '../shared/encryption.ts';

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The endpoint id is the context: a ciphertext copied onto another endpoint's row does not decrypt. */
export const encryptSecret = (key: Keyring, secret: string, endpointId: string): string => seal(key, secret, endpointId);

/** The secret `encryptSecret` stored; throws when the key, the endpoint id or the bytes differ. */
export const decryptSecret = (key: Keyring, stored: string, endpointId: string): string => unseal(key, stored, endpointId);

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>`. */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}
