/**
 * One timed run of autocannon against one target. Every response must be 2xx and carry the body
 * checked before timing: an error answered fast (a 429, a 500, a GraphQL error with status 200) is
 * never counted as throughput, it fails the run.
 */
import autocannon from 'autocannon';
import type { RequestSpec } from './requests.ts';

export const CONNECTIONS = 64;

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
}

export class LoadError extends Error {}

/**
 * autocannon decodes each network chunk to text on its own, so a multi-byte character split between
 * two chunks arrives as replacement characters: compare such a body without its non-ASCII characters.
 * The common case (equal strings) costs one comparison.
 */
function bodyChecker(expected: string): (body: string) => boolean {
  // Keeps the ASCII range, NUL included.
  // eslint-disable-next-line no-control-regex
  const ascii = (text: string) => text.replace(/[^\x00-\x7f]/g, '');
  const expectedAscii = ascii(expected);
  return (body) => body === expected || ascii(body) === expectedAscii;
}

/**
 * Loads `baseUrl` with `spec` for `seconds`; throws a LoadError on any error, timeout, non-2xx or wrong body.
 * Given several base URLs (gateways on one database), the connections are split evenly between them
 * (connection i to the i-th modulo their number), all counted in one histogram.
 */
export async function measure(
  name: string,
  baseUrl: string | readonly string[],
  spec: RequestSpec,
  expected: Buffer,
  seconds: number,
): Promise<Measurement> {
  let sent = 0;
  const vary = spec.varyBody;
  const result = await autocannon({
    url: typeof baseUrl === 'string' ? baseUrl + spec.path : baseUrl.map((url) => url + spec.path),
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    ...(vary ? { requests: [{ setupRequest: (request) => ({ ...request, body: vary((sent += 1)) }) }] } : {}),
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    verifyBody: bodyChecker(expected.toString('utf8')),
  });
  const failures = { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx, 'wrong bodies': result.mismatches };
  const failed = Object.entries(failures).filter(([, n]) => n > 0);
  if (failed.length > 0) {
    const statuses = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}: ${count}`)
      .join(', ');
    throw new LoadError(`${name}: ${failed.map(([what, n]) => `${n} ${what}`).join(', ')} (statuses ${statuses})`);
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
  };
}
