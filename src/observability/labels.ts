/**
 * Label values must come from small, fixed sets: every distinct value is a time series kept forever by
 * the monitoring system. Whatever a client chooses (a GraphQL operation name) is checked and capped.
 */

/** How many distinct GraphQL operation names become labels; later newcomers are counted as `other`. */
export const MAX_OPERATION_NAMES = 100;

const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export const methodLabel = (method: string) => (METHODS.has(method) ? method : 'OTHER');

/** The route pattern (`/v1/bookings/:bookingId`), never the path: requests that matched no route are `unmatched`. */
export const routeLabel = (pattern: string | undefined) => pattern ?? 'unmatched';

/** Codes are the server's own, but a code passed through from a library is checked all the same. */
export const errorCodeLabel = (code: unknown) => (typeof code === 'string' && ERROR_CODE.test(code) ? code : 'OTHER');

/**
 * `anonymous` for unnamed operations; a name of at most 64 word characters while fewer than
 * MAX_OPERATION_NAMES distinct names have been seen (or this one already was); `other` otherwise.
 */
export function operationNameLabels(limit = MAX_OPERATION_NAMES): (name: string | null | undefined) => string {
  const seen = new Set<string>();
  return (name) => {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME.test(name)) return 'other';
    if (seen.has(name)) return name;
    if (seen.size >= limit) return 'other';
    seen.add(name);
    return name;
  };
}
