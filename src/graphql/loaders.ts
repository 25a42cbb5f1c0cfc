import type { Deps } from '../domain/context.ts';

/** Per-request DataLoaders: nested lookups of one request are batched into one query each. */
export function createLoaders(_deps: Deps) {
  return {};
}

export type Loaders = ReturnType<typeof createLoaders>;
