/**
 * The client a request comes from, as every per-client rule counts it (rate limits, a publishable key's
 * holds): `request.ip` is the proxy header's address only when TRUST_PROXY trusts the peer
 * (src/http/server-options.ts), and an IPv6 client is its /64, since one client holds a whole /64 and
 * could rotate within it.
 */
import { normalizeIP } from '@fastify/rate-limit';

export function clientAddress(request: { ip: string }): string {
  return normalizeIP(request.ip, 64);
}
