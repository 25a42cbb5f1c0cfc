import type { Database } from '../domain/shared/database.ts';

const versions = new WeakMap<object, Promise<string>>();

/**
 * The data version as first read for `request`: the caches a request consults (API keys, answers) all
 * judge freshness against the one version the request started from, read once. A write that commits
 * while the request runs is concurrent with it; any request starting after the write sees the new version.
 */
export function dataVersionFor(db: Database, request: object): Promise<string> {
  let version = versions.get(request);
  if (version === undefined) {
    version = db.dataVersion();
    versions.set(request, version);
  }
  return version;
}
