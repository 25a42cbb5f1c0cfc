/**
 * Rules shared by every paginated read: page sizes, numbered pages (REST) and opaque keyset cursors
 * (GraphQL connections).
 */
import { invalid } from './errors.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Cursors this API issues are far shorter; anything longer is refused before it is decoded. */
export const MAX_CURSOR_LENGTH = 512;

/** Items per page, 1..MAX_PAGE_SIZE; `field` names the parameter in the error. */
export function pageSize(value: number | null | undefined, field: string): number {
  const size = value ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw invalid(field, `${field} must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return size;
}

/** A 1-based page number. */
export function pageNumber(value: number | null | undefined, field: string): number {
  const page = value ?? 1;
  if (!Number.isInteger(page) || page < 1) throw invalid(field, `${field} must be an integer of 1 or more`);
  return page;
}

/** Page numbers a client can follow; all always present, so links never need a null check. */
export interface NumberedPages {
  first: number;
  /** page - 1, clamped to [1, last]. */
  previous: number;
  /** page + 1, clamped to [1, last]: on the last page it equals `last`, which is how clients know to stop. */
  next: number;
  /** The last page holding items; 1 when there are none. */
  last: number;
}

export function numberedPages(page: number, limit: number, total: number): NumberedPages {
  const last = Math.max(1, Math.ceil(total / limit));
  const clamp = (n: number) => Math.min(Math.max(n, 1), last);
  return { first: 1, previous: clamp(page - 1), next: clamp(page + 1), last };
}

/** Relay's page info, shared by every connection. */
export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

/** A Relay connection from its edges: the start and end cursors are the first and last edges'. */
export function connection<T>(edges: Edge<T>[], more: { hasNextPage: boolean; hasPreviousPage: boolean }) {
  const pageInfo: PageInfo = { ...more, startCursor: edges[0]?.cursor ?? null, endCursor: edges[edges.length - 1]?.cursor ?? null };
  return { edges, pageInfo };
}

/** An opaque cursor holding a keyset position: base64url of the JSON array of its parts. */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

/** The parts of a cursor this API issued with `arity` parts; anything else is VALIDATION_FAILED on `field`. */
export function decodeCursor(cursor: string, arity: number, field: string): string[] {
  let parts: unknown = null;
  try {
    if (cursor.length <= MAX_CURSOR_LENGTH) parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  if (Array.isArray(parts) && parts.length === arity && parts.every((p) => typeof p === 'string')) return parts;
  throw invalid(field, `${field} is not a cursor issued by this API`);
}

/**
 * Whether a cursor's instant is one this API writes: ISO 8601 UTC to the millisecond, and a real moment
 * (not month 13 or 30 February, which have the shape but no time: SQLite compares them as text, PostgreSQL
 * refuses to read them as a timestamp).
 */
export function isCursorInstant(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
    !Number.isNaN(Date.parse(value)) &&
    new Date(value).toISOString() === value
  );
}
