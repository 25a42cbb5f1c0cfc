import type { Database } from '../shared/database.ts';
import { type KeyRecord } from './store.ts';
import { keptPerVersion } from '../shared/kept-per-version.ts';

export interface ActiveKey {
  record: KeyRecord;
  /** An organization key's brands; a brand's (secret or publishable) key's one brand. */
  brandIds: readonly string[];
}

/** Keys in use at once; the least recently used beyond this are looked up again. Unknown secrets are never kept. */
const MAX_KEYS = 10_000;

const keptKeys = keptPerVersion<Database, ActiveKey>(MAX_KEYS);

async function read(db: Database, secretHash: string): Promise<ActiveKey | undefined> {
  const record = await db.apiKeys.findActiveKeyByHash(secretHash);
  if (!record) return undefined;
  return {
    record,
    brandIds: record.kind === 'organization' ? await db.apiKeys.brandIdsOfOrganization(record.organizationId!) : [record.brandId!],
  };
}

/**
 * The active key whose secret hashes to `secretHash`, with its brands. Given the request's keys version
 * (`Database.keysVersion`), the answer is remembered while that version holds: revoking a key or moving a
 * brand is a write to what the version watches, so it takes effect from the next request on (on another
 * gateway of PostgreSQL, once its notification arrives); other writes leave the key found.
 */
export async function findActiveKey(db: Database, secretHash: string, generation?: string): Promise<ActiveKey | undefined> {
  if (generation === undefined) return read(db, secretHash);
  return keptKeys(db, secretHash, generation, () => read(db, secretHash));
}
