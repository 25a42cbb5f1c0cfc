import type { Keyring } from '../../../src/domain/shared/encryption.ts';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, newSigningSecret, signatureHeader } from '../../../src/domain/webhooks/secrets.ts';
import { verifyTesseraSignature } from '../../../examples/webhook-receiver/verify-signature.ts';

const key: Keyring = [Buffer.alloc(32, 9)];
const at = new Date('2026-11-25T12:00:00.000Z');
const body = '{"id":"e1","type":"booking.confirmed","createdAt":"2026-11-25T12:00:00.000Z","data":{"id":"b1"}}';

describe('signing secrets', () => {
  it('are whsec_ and 32 random bytes, base64url', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(6), 'base64url')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('round-trip through AES-256-GCM with a fresh IV each time, bound to their endpoint', () => {
    const secret = newSigningSecret();
    const stored = encryptSecret(key, secret, 'endpoint-1');
    expect(encryptSecret(key, secret, 'endpoint-1')).not.toBe(stored);
    expect(Buffer.from(stored, 'base64')).toHaveLength(12 + 16 + secret.length);
    expect(decryptSecret(key, stored, 'endpoint-1')).toBe(secret);
    expect(() => decryptSecret(key, stored, 'endpoint-2')).toThrow();
    expect(() => decryptSecret([Buffer.alloc(32, 8)], stored, 'endpoint-1')).toThrow();
    const tampered = Buffer.from(stored, 'base64');
    tampered[30] = tampered[30]! ^ 1;
    expect(() => decryptSecret(key, tampered.toString('base64'), 'endpoint-1')).toThrow();
  });
});

describe('the signature and the documented verifier', () => {
  const header = signatureHeader('whsec_test', body, at);

  it('signs "<t>.<body>" with HMAC-SHA256', () => {
    const expected = createHmac('sha256', 'whsec_test').update(`1795608000.${body}`).digest('hex');
    expect(header).toBe(`t=1795608000,v1=${expected}`);
  });

  it('accepts a genuine signature within 5 minutes either way', () => {
    expect(verifyTesseraSignature(body, header, 'whsec_test', at.getTime())).toBe(true);
    expect(verifyTesseraSignature(body, header, 'whsec_test', at.getTime() + 300_000)).toBe(true);
    expect(verifyTesseraSignature(body, header, 'whsec_test', at.getTime() - 300_000)).toBe(true);
  });

  it.each([
    ['an older timestamp', body, header, at.getTime() + 301_000],
    ['another body', body.replace('b1', 'b2'), header, at.getTime()],
    ['another secret', body, signatureHeader('whsec_other', body, at), at.getTime()],
    ['a timestamp changed in the header', body, header.replace('t=1795608000', 't=1795608001'), at.getTime()],
    ['a truncated signature', body, header.slice(0, -2), at.getTime()],
    ['no v1', body, 't=1795608000', at.getTime()],
    ['no t', body, header.slice(header.indexOf(',') + 1), at.getTime()],
    ['garbage', body, 'nonsense', at.getTime()],
  ])('rejects %s', (_, rawBody, signature, now) => {
    expect(verifyTesseraSignature(rawBody, signature, 'whsec_test', now)).toBe(false);
  });

  it('is the very code docs/rest.md shows', () => {
    const readme = readFileSync(new URL('../../../docs/rest.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../../../examples/webhook-receiver/verify-signature.ts', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example.trimEnd() + '\n```');
  });
});
