import { createHmac, timingSafeEqual } from 'node:crypto';

/** True when `header` (Tessera-Signature) signs `rawBody` with `secret` and is at most 5 minutes old. */
export function verifyTesseraSignature(rawBody: string, header: string, secret: string, nowMs = Date.now()): boolean {
  const fields = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(fields.get('t'));
  if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(fields.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
