/**
 * Reading a brand's events, oldest first, so a partner can catch up from where it stopped after
 * downtime. GraphQL pages them as a connection, REST as a feed; both read the same way. Positions are
 * the outbox sequence, which only grows: an event written while a partner pages lands after its
 * cursor, never before, so nothing is skipped or seen twice.
 */
import { type EventRow } from './store.ts';
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { invalid } from '../shared/errors.ts';
import { eventEnvelope, eventTypes, isEventType, type EventEnvelope } from './outbox.ts';
import { connection, decodeCursor, encodeCursor, pageSize, type Edge, type PageInfo } from '../shared/pagination.ts';

export const DEFAULT_EVENT_PAGE_SIZE = 50;
/** `types` filters: at most one entry per type, each no longer than this (longer is no type, and not echoed back). */
export const MAX_EVENT_TYPE_LENGTH = 64;
/** REST sends the filter comma-separated: every type once, at its longest. */
export const MAX_TYPES_PARAMETER_LENGTH = eventTypes.length * (MAX_EVENT_TYPE_LENGTH + 1);

export interface EventConnection {
  edges: Array<Edge<EventEnvelope>>;
  pageInfo: PageInfo;
}

export interface EventFeedPage {
  /** The events after `after`, oldest first. */
  data: EventEnvelope[];
  /**
   * Where to continue: pass it as `after` next time. The position after the last event of `data`; on
   * an empty page the `after` that was sent (null when there was none), so it can always be stored.
   */
  next: string | null;
  /** Whether more events follow `data` already. */
  hasMore: boolean;
}

export interface EventQuery {
  brandId: string;
  /** A cursor from an earlier page: only events after it. */
  after?: string | null;
  /** Only events of these types. */
  types?: readonly string[] | null;
}

export const eventCursor = (sequence: number) => encodeCursor([String(sequence)]);

export function sequenceAfter(cursor: string | null | undefined): number {
  if (cursor == null) return 0;
  const [sequence = ''] = decodeCursor(cursor, 1, 'after');
  if (!/^[1-9]\d{0,14}$/.test(sequence)) throw invalid('after', 'after is not a cursor issued by this API');
  return Number(sequence);
}

export function typeFilter(types: readonly string[] | null | undefined): string[] | null {
  if (types == null) return null;
  if (types.length === 0) throw invalid('types', 'types must name at least one event type');
  if (types.length > eventTypes.length) throw invalid('types', `types must name at most ${eventTypes.length} event types`);
  if (types.some((type) => type.length > MAX_EVENT_TYPE_LENGTH))
    throw invalid('types', `types: an entry is longer than ${MAX_EVENT_TYPE_LENGTH} characters`);
  const unknown = types.find((type) => !isEventType(type));
  if (unknown !== undefined) {
    throw invalid('types', `types: "${unknown}" is not an event type; the types are ${eventTypes.join(', ')}`);
  }
  return [...new Set(types)];
}

interface Page {
  rows: EventRow[];
  hasMore: boolean;
  after: number;
  types: string[] | null;
  brandId: string;
}

/** Input checked first, then the caller's right to the brand; one row more than asked tells whether more follow. */
async function readPage(deps: CallerDeps, input: EventQuery, size: number | null | undefined, sizeField: string): Promise<Page> {
  const limit = pageSize(size ?? DEFAULT_EVENT_PAGE_SIZE, sizeField);
  const after = sequenceAfter(input.after);
  const types = typeFilter(input.types);
  const brand = await loadBrand(deps, input.brandId);
  const rows = await deps.db.events.findEventPage(brand.id, after, types, limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit, after, types, brandId: brand.id };
}

/** The brand's events as a Relay connection (GraphQL), oldest first; `first` is 1..100, 50 by default. */
export async function listEvents(deps: CallerDeps, input: EventQuery & { first?: number | null }): Promise<EventConnection> {
  const page = await readPage(deps, input, input.first, 'first');
  const edges = page.rows.map((row) => ({ cursor: eventCursor(row.sequence), node: eventEnvelope(row) }));
  return connection(edges, {
    hasNextPage: page.hasMore,
    hasPreviousPage: page.after > 0 && (await deps.db.events.hasEventsUpTo(page.brandId, page.after, page.types)),
  });
}

/** The brand's events as a feed page (REST), oldest first; `limit` is 1..100, 50 by default. */
export async function eventFeed(deps: CallerDeps, input: EventQuery & { limit?: number | null }): Promise<EventFeedPage> {
  const page = await readPage(deps, input, input.limit, 'limit');
  const last = page.rows[page.rows.length - 1];
  return {
    data: page.rows.map(eventEnvelope),
    next: last ? eventCursor(last.sequence) : (input.after ?? null),
    hasMore: page.hasMore,
  };
}
