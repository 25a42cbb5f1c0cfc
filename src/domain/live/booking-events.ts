/**
 * Live booking events: the brand's events feed, pushed. A watcher first replays the events after its
 * cursor from the outbox, a page at a time as its consumer reads, then gets each event as the hub reads
 * it, with the feed's cursors, so a client that reconnects with the last cursor it got misses nothing
 * and gets nothing twice.
 *
 * No gap and no duplicate between the two: the watcher listens to the hub before its first page, and
 * keeps what the hub hands it while it replays. Once a page comes back short (nothing more was
 * committed when it was read), every event it did not return commits later, so it has a higher sequence
 * and reaches the hub after the listener was added: the watcher goes live with the kept events above its
 * last replayed sequence, and from then on passes on only events above the last it passed. Sequences
 * grow in commit order (EventRow.sequence). Kept events are bounded: past MAX_UNREAD_EVENTS they are
 * dropped and the replay reads another page, where they are.
 */
import { assertKeyMayUse } from '../access/publishable.ts';
import { loadBrand } from '../catalog/brands.ts';
import { eventCursor, sequenceAfter, typeFilter } from '../outbox/feed.ts';
import { eventEnvelope, type EventEnvelope } from '../outbox/outbox.ts';
import type { EventRow } from '../outbox/store.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError } from '../shared/errors.ts';
import { liveHubOf } from './live-hub-of.ts';
import { LiveStream } from './stream.ts';

/** Events one watcher may have waiting unread before its stream ends with SLOW_CONSUMER. */
export const MAX_UNREAD_EVENTS = 1_000;
/** Events replayed per read of the outbox (the feed's largest page). */
const REPLAY_PAGE_SIZE = 100;

export interface LiveEvent {
  /** The feed's cursor of this event: pass it as `after` to resume after it. */
  cursor: string;
  event: EventEnvelope;
}

export interface BookingEventsWatchInput {
  brandId: string;
  /** Only events of these types (as the feed's filter). */
  types?: readonly string[] | null;
  /** A cursor from the feed or an earlier watch: the events after it first. Without it, only new events. */
  after?: string | null;
}

const live = (row: EventRow): LiveEvent => ({ cursor: eventCursor(row.sequence), event: eventEnvelope(row) });

/**
 * The brand's events after `after`, then each new one as it commits. Checked as the events feed is:
 * secret keys only (FORBIDDEN for a publishable key), the cursor and types (VALIDATION_FAILED on
 * `after` or `types`), then the brand (FORBIDDEN when the key may not act for it). The stream ends with
 * SLOW_CONSUMER when more than MAX_UNREAD_EVENTS wait unread: resume from the last cursor received.
 */
export async function watchBookingEvents(deps: CallerDeps, input: BookingEventsWatchInput): Promise<AsyncIterableIterator<LiveEvent>> {
  assertKeyMayUse(deps.principal, undefined, 'watch booking events');
  const after = input.after == null ? null : sequenceAfter(input.after);
  const types = typeFilter(input.types);
  const brand = await loadBrand(deps, input.brandId);
  const hub = liveHubOf(deps);
  const wanted = (row: EventRow) => row.brandId === brand.id && (types === null || types.includes(row.type));

  // Without a cursor the stream starts at the hub's position: every event it reads from now on.
  let last = after ?? hub.position;
  let replaying = after !== null;
  let kept: EventRow[] = [];
  let droppedSinceRead = false;

  const replay = async (): Promise<boolean> => {
    droppedSinceRead = false;
    const rows = await deps.db.events.findEventPage(brand.id, last, types, REPLAY_PAGE_SIZE);
    for (const row of rows) stream.push(live(row));
    if (rows.length > 0) last = rows[rows.length - 1]!.sequence;
    if (rows.length === REPLAY_PAGE_SIZE || droppedSinceRead) return true;
    replaying = false;
    const caughtUp = kept.filter((row) => row.sequence > last);
    kept = [];
    for (const row of caughtUp) pass(row);
    return false;
  };

  const pass = (row: EventRow) => {
    if (row.sequence <= last) return;
    last = row.sequence;
    if (stream.pending >= MAX_UNREAD_EVENTS) {
      stream.fail(
        new DomainError(
          'SLOW_CONSUMER',
          `More than ${MAX_UNREAD_EVENTS} events waited unread: subscribe again from the last cursor received`,
          {
            maxUnread: MAX_UNREAD_EVENTS,
          },
        ),
      );
      return;
    }
    stream.push(live(row));
  };

  let unlisten = () => {};
  const stream: LiveStream<LiveEvent> = new LiveStream<LiveEvent>(() => unlisten(), replaying ? replay : undefined);
  unlisten = await hub.listen((events) => {
    for (const row of events) {
      if (!wanted(row)) continue;
      if (!replaying) pass(row);
      else if (row.sequence > last) {
        kept.push(row);
        if (kept.length > MAX_UNREAD_EVENTS) {
          kept = [];
          droppedSinceRead = true;
        }
      }
    }
  });
  return stream;
}
