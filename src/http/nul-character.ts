/**
 * Text no store can keep: the NUL character (U+0000) and unpaired UTF-16 surrogates (`"\ud800"` in
 * JSON), which are not Unicode text at all. PostgreSQL refuses both in `text` and `json` columns (it
 * cannot encode a lone surrogate as UTF-8), C libraries and log pipelines cut strings at NUL, and nothing
 * a partner sends (a name, a note, an answer) needs either. Both faces refuse them as a validation
 * failure naming the field, before anything runs: the same 400 on either engine, not a database error.
 */

const unstorable = (text: string) => text.includes('\0') || !text.isWellFormed();

/**
 * The dot path (`data.0.participants.0.firstName`; `''` for `value` itself) of the first string or key
 * holding NUL or a lone surrogate, or null. Iterative: a body nested thousands deep (refused later, by depth) must not
 * overflow the stack here.
 */
export function nulCharacterPath(value: unknown): string | null {
  // Each pending value with its key and its parent's entry: the path is spelled only for the one found.
  const pending: Visit[] = [{ value, key: '', parent: null }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value === 'string') {
      if (unstorable(next.value)) return pathOf(next);
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) continue;
    const object = next.value as Record<string, unknown>;
    const keys = Object.keys(object);
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i]!;
      const visit = { value: object[key], key, parent: next };
      if (unstorable(key)) return pathOf(visit);
      pending.push(visit);
    }
  }
  return null;
}

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | null;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

export const NUL_MESSAGE = 'must be Unicode text without the NUL character (U+0000) or unpaired surrogates';
