/**
 * Writing what you read: a client sends back the object it read, whole (create) or as a JSON merge patch
 * (RFC 7396), with the `ETag` it read in `If-Match`. The rules every catalogue write shares live here.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import jsonMergePatch from 'json-merge-patch';
import { DomainError, invalid } from '../shared/errors.ts';

export type JsonObject = { [key: string]: unknown };

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * RFC 7396: `patch` applied to `target` (null removes a member, objects merge, anything else, arrays too,
 * replaces), by the maintained `json-merge-patch` package (which also skips `__proto__`); `target` is
 * left as it was. The one merge patch of every catalogue write.
 */
export const mergePatch = (target: unknown, patch: unknown): unknown => jsonMergePatch.apply(structuredClone(target), patch);

/**
 * Whether `sent` is what a client read of `stored`: equal, objects compared on the members sent (an answer
 * may show fewer than are stored), arrays item by item.
 */
function sameAsRead(sent: unknown, stored: unknown): boolean {
  if (Array.isArray(sent))
    return Array.isArray(stored) && sent.length === stored.length && sent.every((item, i) => sameAsRead(item, stored[i]));
  if (isObject(sent)) return isObject(stored) && Object.entries(sent).every(([key, value]) => sameAsRead(value, stored[key]));
  return isDeepStrictEqual(sent, stored);
}

const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), value);

/**
 * Refuses (VALIDATION_FAILED naming the field) a member of `sent` that `shape` does not have, at any depth
 * of the objects `nested` names; and a read-only field (`readOnly`, dotted paths) whose value in `sent`
 * differs from the one in `current`: the server derives it, so sending it back unchanged is fine.
 */
export function checkWritable(sent: JsonObject, current: JsonObject, readOnly: readonly string[], nested: readonly string[] = []): void {
  for (const prefix of ['', ...nested]) {
    const node = prefix ? at(sent, prefix) : sent;
    const known = prefix ? at(current, prefix) : current;
    if (!isObject(node) || !isObject(known)) continue;
    for (const key of Object.keys(node)) {
      const field = prefix ? `${prefix}.${key}` : key;
      if (!(key in known)) throw invalid(field, `${field} is not a field of this object`);
    }
  }
  for (const field of readOnly) {
    const sentValue = at(sent, field);
    if (sentValue !== undefined && !sameAsRead(sentValue, at(current, field))) {
      throw invalid(field, `${field} is read-only: the server sets it (send it back unchanged, or leave it out)`);
    }
  }
}

/** A strong validator of what is stored (RFC 9110 §8.8.3): the same stored state, the same tag. */
export function etagOf(state: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(state)).digest('base64url').slice(0, 27)}"`;
}

/** What `If-Match` names: no condition (absent or empty), any current version (`*`), or a list of entity tags. */
export type IfMatch = { kind: 'none' } | { kind: 'any' } | { kind: 'tags'; tags: string[] };

const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/**
 * The one parser of `If-Match` (RFC 9110 §13.1.1) for every catalogue write, REST header and GraphQL
 * `ifMatch` alike: `*`, or a comma-separated list of entity tags (`"abc", "def"`). A weak tag (`W/"abc"`)
 * is accepted in the syntax but never matches (If-Match compares strongly, and this API only hands out
 * strong tags); anything else (`abc` unquoted, `*` inside a list) is VALIDATION_FAILED naming `field`.
 */
export function parseIfMatch(ifMatch: string | null | undefined, field = 'If-Match'): IfMatch {
  if (ifMatch === undefined || ifMatch === null || ifMatch.trim() === '') return { kind: 'none' };
  if (ifMatch.trim() === '*') return { kind: 'any' };
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  for (const tag of tags) {
    if (!ENTITY_TAG.test(tag)) throw invalid(field, `${field} must be * or a list of entity tags this API gave, e.g. "3"`);
  }
  return { kind: 'tags', tags: tags.filter((tag) => !tag.startsWith('W/')) };
}

/** PRECONDITION_FAILED (412), the same for every object: `field` names where the tag came from, `etag` is the current one. */
export function preconditionFailed(field: string, etag: string, sent?: string): DomainError {
  return new DomainError(
    'PRECONDITION_FAILED',
    `The object changed since it was read (${field} ${sent ?? ''}; it is now ${etag}): read it again and reapply the change`,
    { field, etag },
  );
}

/**
 * `If-Match` (RFC 9110 §13.1.1, strong comparison): absent, `*`, or a list naming the current tag lets the
 * write go on; anything else is PRECONDITION_FAILED (412) and nothing is written. The client should read
 * the object again and re-apply its change.
 */
export function assertIfMatch(ifMatch: string | null | undefined, etag: string, field = 'If-Match'): void {
  const condition = parseIfMatch(ifMatch, field);
  if (condition.kind === 'tags' && !condition.tags.includes(etag)) throw preconditionFailed(field, etag, ifMatch!);
}
