/**
 * Lists a tool answers whole from the domain (a range of sessions) are handed out a page at a time with
 * an opaque cursor holding the last item's key, so an assistant's context is not flooded and a page
 * follows on from its cursor even if items were added or removed meanwhile.
 */
import { z } from 'zod';
import { decodeCursor, encodeCursor } from '../domain/shared/pagination.ts';

export const firstArg = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).optional().describe(`How many to answer at most (${fallback} when left out, at most ${max}).`);
export const cursorArg = z.string().min(1).max(512).optional().describe('nextCursor of the previous answer, for the page after it.');

/** `items` in the order of `keyOf` (text compared by its bytes); the page after `cursor`. */
export function pageOf<T>(items: readonly T[], keyOf: (item: T) => string, first: number, cursor: string | undefined) {
  const after = cursor ? decodeCursor(cursor, 1, 'cursor')[0]! : null;
  const sorted = [...items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const rest = after === null ? sorted : sorted.filter((item) => keyOf(item) > after);
  const page = rest.slice(0, first);
  const last = page[page.length - 1];
  return { page, nextCursor: rest.length > first && last ? encodeCursor([keyOf(last)]) : null };
}
