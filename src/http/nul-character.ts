/**
 * The NUL character (U+0000) in input. No text Tessera keeps may hold it: PostgreSQL refuses it in `text`
 * and `json` columns, C libraries and log pipelines cut strings at it, and nothing a partner sends (a
 * name, a note, an answer) needs it. Both faces refuse it as a validation failure naming the field,
 * before anything runs, so it is the same 400 on either engine rather than a database error on one.
 */

/**
 * The dot path (`data.0.participants.0.firstName`; `''` for `value` itself) of the first string or key
 * holding NUL, or null. Iterative: a body nested thousands deep (refused later, by depth) must not
 * overflow the stack here.
 */
export function nulCharacterPath(value: unknown): string | null {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value === 'string') {
      if (next.value.includes('\0')) return next.path;
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) continue;
    const entries = Object.entries(next.value);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, item] = entries[i]!;
      const path = next.path ? `${next.path}.${key}` : key;
      if (key.includes('\0')) return path;
      pending.push({ value: item, path });
    }
  }
  return null;
}

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
