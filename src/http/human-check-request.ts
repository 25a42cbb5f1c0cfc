/**
 * What a request carries for the human check (src/domain/checkout/human-check.ts), read the same way on
 * both faces: the token from the `Tessera-Human-Check` header (a header, so the REST body stays the
 * spec's and a GraphQL mutation reads it unchanged) and the client's address as Fastify resolved it
 * (X-Forwarded-For only from a TRUST_PROXY; without the port or brackets a proxy may write), which the
 * provider compares with the challenge's.
 */
import { HUMAN_CHECK_HEADER, type HumanCheckRequest } from '../domain/checkout/human-check.ts';
import { exactClientAddress } from './client-address.ts';

const headerName = HUMAN_CHECK_HEADER.toLowerCase();

export function humanCheckRequestOf(request: { ip?: string; headers: Record<string, string | string[] | undefined> }): HumanCheckRequest {
  const token = request.headers[headerName];
  const remoteAddress = exactClientAddress(request);
  return {
    ...(remoteAddress ? { remoteAddress } : {}),
    // Sent twice, it is no single token: treated as none.
    ...(typeof token === 'string' && token.trim() !== '' ? { token: token.trim() } : {}),
  };
}
