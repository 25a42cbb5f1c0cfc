import type { IncomingMessage } from 'node:http';
import type { Database } from '../domain/shared/database.ts';

const versions = new WeakMap<object, Promise<string>>();
const keysVersions = new WeakMap<object, Promise<string>>();
/** When each HTTP request arrived (`performance.now()`), stamped as the server makes its id. */
const arrivals = new WeakMap<IncomingMessage, number>();

/** Notes that `raw` arrived now: called when the server receives it (Fastify's `genReqId`). */
export function markArrival(raw: IncomingMessage): void {
  arrivals.set(raw, performance.now());
}

/** `read` once per request, told when the request arrived; later callers get the same promise. */
function once(
  versions: WeakMap<object, Promise<string>>,
  request: object,
  read: (receivedAt?: number) => Promise<string>,
): Promise<string> {
  let version = versions.get(request);
  if (version === undefined) {
    const raw = (request as { raw?: IncomingMessage }).raw;
    version = read(raw === undefined ? undefined : arrivals.get(raw));
    versions.set(request, version);
  }
  return version;
}

/**
 * The data version as first read for `request`: the caches a request consults (answers, and API keys on
 * an engine without a keys version of its own) all judge freshness against the one version the request
 * started from, read once. A write that commits while the request runs is concurrent with it; any request
 * starting after the write sees the new version. The database is told when the request arrived, so a
 * version it read since may serve (see `dataVersion`).
 */
export function dataVersionFor(db: Database, request: object): Promise<string> {
  return once(versions, request, (receivedAt) => db.dataVersion(receivedAt));
}

/**
 * The keys version (`Database.keysVersion`) as first read for `request`, which the API-key cache judges
 * against: it moves only when a key, a brand or an organization may have been written, so a request after
 * a booking finds its key without a statement. Where the engine's keys version is its data version
 * (SQLite), the request's one data-version read serves both.
 */
export function keysVersionFor(db: Database, request: object): Promise<string> {
  if (db.keysVersion === db.dataVersion) return dataVersionFor(db, request);
  return once(keysVersions, request, (receivedAt) => db.keysVersion(receivedAt));
}
