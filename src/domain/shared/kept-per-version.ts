import { LRUCache } from 'lru-cache';

/**
 * What `read` finds for a key, kept per owner (a database) while the version it was read under holds: asked
 * under another version, it is read again. At most `max` keys an owner, the least recently used beyond that
 * read again too. What a read does not find is never kept (and what was kept for the key is forgotten).
 * The API-key lookup and the brands kept between requests both keep their finds so, under the keys version.
 */
export function keptPerVersion<Owner extends object, Value>(
  max: number,
): (owner: Owner, key: string, version: string, read: () => Promise<Value | undefined>) => Promise<Value | undefined> {
  const kept = new WeakMap<Owner, LRUCache<string, { version: string; value: Value }>>();
  return async (owner, key, version, read) => {
    let cache = kept.get(owner);
    if (!cache) {
      cache = new LRUCache({ max });
      kept.set(owner, cache);
    }
    const cached = cache.get(key);
    if (cached?.version === version) return cached.value;
    const value = await read();
    if (value !== undefined) cache.set(key, { version, value });
    else cache.delete(key);
    return value;
  };
}
