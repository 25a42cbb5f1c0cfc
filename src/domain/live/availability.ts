/**
 * Live availability: the sessions of an experience's date range whose places changed, each with its
 * `remaining` as the watcher's key sees it (Session.remaining). Every watcher of a gateway shares one
 * listener on the hub (AvailabilityFeed), which turns each batch of events into the sessions they touch
 * and reads those sessions once, in one statement, for all the watchers of that batch.
 *
 * Which events change places, and the session each names (event payloads carry the session as the
 * experience and its local start, the API's own way to name it):
 * - booking.created (places held), booking.confirmed (a publishable hold leaves the share),
 *   booking.failed (a hold lapsed or a payment failed), booking.cancelled and
 *   booking.participants_cancelled: `experience.id` at `event.startDateTime`;
 * - booking.rescheduled: the same, and the session it left, `rescheduledFrom.startDateTime`;
 * - waitlist.offered, waitlist.expired, waitlist.converted: the waitlist's experience at
 *   `sessionStartDateTime` (places held for or released by an offer).
 * - session.created, session.updated (capacity), session.cancelled: `experienceId` at `startDateTime`.
 * booking.refunded and waitlist.entry_created change no places.
 */
import { availabilityRange, shareOfCaller, toSession, type Session } from '../availability/sessions.ts';
import { loadExperienceOfBrand } from '../catalog/experiences.ts';
import type { EventRow } from '../outbox/store.ts';
import type { Stores } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { notFound } from '../shared/errors.ts';
import type { LiveHub } from './hub.ts';
import { liveHubOf } from './live-hub-of.ts';
import { LiveStream } from './stream.ts';

export interface AvailabilityWatchInput {
  brandId: string;
  experienceId: string;
  /** First local date (`YYYY-MM-DD`), included, as in the availability query. */
  from: string;
  /** Last local date, included. */
  to: string;
}

interface Watcher {
  experienceId: string;
  timezone: string;
  /** [fromLocal, beforeLocal): local starts of the range, compared as text. */
  fromLocal: string;
  beforeLocal: string;
  /** The brand's publishable share for a publishable key, null for secret keys (toSession). */
  sharePercent: number | null;
  now: () => Date;
  stream: LiveStream<Session[]>;
}

/** Events of failed reads carried to the next batch at most (their sessions are read again then). */
const MAX_CARRIED_EVENTS = 1_000;

const BOOKING_PLACES = new Set([
  'booking.created',
  'booking.confirmed',
  'booking.failed',
  'booking.cancelled',
  'booking.participants_cancelled',
  'booking.rescheduled',
]);
const WAITLIST_PLACES = new Set(['waitlist.offered', 'waitlist.expired', 'waitlist.converted']);
const SESSION_CHANGES = new Set(['session.created', 'session.updated', 'session.cancelled']);

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;

/** A session as the API names it: its experience and local start. */
type SessionName = { experienceId: string; startLocal: string };

/** The sessions whose places `event` changed, or for a waitlist event its waitlist and local start. */
function namedSessions(event: EventRow): Array<SessionName | { waitlistId: string; startLocal: string }> {
  const { payload } = event;
  if (SESSION_CHANGES.has(event.type)) {
    const experienceId = text(payload.experienceId);
    const startLocal = text(payload.startDateTime);
    return experienceId && startLocal ? [{ experienceId, startLocal }] : [];
  }
  if (BOOKING_PLACES.has(event.type)) {
    const experienceId = text(field(payload.experience, 'id'));
    if (!experienceId) return [];
    const starts = [text(field(payload.event, 'startDateTime')), text(field(payload.rescheduledFrom, 'startDateTime'))];
    return starts.filter((start) => start !== null).map((startLocal) => ({ experienceId, startLocal }));
  }
  const waitlistId = text(payload.waitlistId);
  const startLocal = text(payload.sessionStartDateTime);
  return WAITLIST_PLACES.has(event.type) && waitlistId && startLocal ? [{ waitlistId, startLocal }] : [];
}

/** Every availability watcher of one hub, behind one listener; present while it has watchers. */
class AvailabilityFeed {
  private readonly watchers = new Map<string, Set<Watcher>>();
  private readonly sessionIds = new Map<string, string>();
  private readonly waitlistExperiences = new Map<string, string | null>();
  /** The hub's listener, registered with the first watcher (a promise: the hub may read first). */
  private listening: Promise<() => void> | null = null;
  /** Events of a batch whose sessions could not be read, read again with the next. */
  private unread: EventRow[] = [];
  // Batches are handled one after the other, so a watcher never gets an older state after a newer one.
  private handling: Promise<void> = Promise.resolve();

  constructor(
    private readonly hub: LiveHub,
    private readonly db: Stores,
    private readonly emptied: () => void,
  ) {}

  async add(watcher: Watcher): Promise<void> {
    let ofExperience = this.watchers.get(watcher.experienceId);
    if (!ofExperience) this.watchers.set(watcher.experienceId, (ofExperience = new Set()));
    ofExperience.add(watcher);
    this.listening ??= this.hub.listen((events) => {
      // handle() catches the database's failures; nothing else may reject the chain and end the process.
      this.handling = this.handling.then(() => this.handle(events)).catch(() => {});
    });
    const listening = this.listening;
    try {
      await listening;
    } catch (error) {
      // The next watcher asks the hub again.
      if (this.listening === listening) this.listening = null;
      throw error;
    }
  }

  remove(watcher: Watcher): void {
    const ofExperience = this.watchers.get(watcher.experienceId);
    ofExperience?.delete(watcher);
    if (ofExperience?.size === 0) this.watchers.delete(watcher.experienceId);
    if (this.watchers.size > 0) return;
    // A listener that failed to register has nothing to remove.
    this.listening?.then((unlisten) => unlisten()).catch(() => {});
    this.listening = null;
    this.emptied();
  }

  private watched(experienceId: string, startLocal: string): boolean {
    for (const w of this.watchers.get(experienceId) ?? []) if (startLocal >= w.fromLocal && startLocal < w.beforeLocal) return true;
    return false;
  }

  private async experienceOfWaitlist(waitlistId: string): Promise<string | null> {
    if (!this.waitlistExperiences.has(waitlistId)) {
      this.waitlistExperiences.set(waitlistId, (await this.db.waitlists.findWaitlistRow(waitlistId))?.experienceId ?? null);
    }
    return this.waitlistExperiences.get(waitlistId)!;
  }

  /** The ids of the watched sessions the batch touched (looked up by name once, then remembered). */
  private async touchedSessionIds(events: readonly EventRow[]): Promise<string[]> {
    const ids = new Set<string>();
    for (const event of events) {
      for (const named of namedSessions(event)) {
        const experienceId = 'experienceId' in named ? named.experienceId : await this.experienceOfWaitlist(named.waitlistId);
        if (!experienceId || !this.watched(experienceId, named.startLocal)) continue;
        const key = `${experienceId} ${named.startLocal}`;
        let id = this.sessionIds.get(key);
        if (id === undefined) {
          id = (await this.db.sessions.findSessionAt(experienceId, named.startLocal))?.id;
          if (id === undefined) continue;
          this.sessionIds.set(key, id);
        }
        ids.add(id);
      }
    }
    return [...ids];
  }

  private async handle(batch: readonly EventRow[]): Promise<void> {
    if (this.watchers.size === 0) return;
    const events = [...this.unread, ...batch];
    this.unread = [];
    let rows: Awaited<ReturnType<Stores['sessions']['findSessionsByIds']>>;
    try {
      const ids = await this.touchedSessionIds(events);
      rows = ids.length === 0 ? [] : await this.db.sessions.findSessionsByIds(ids);
    } catch {
      // The database failed this read: the sessions are read with the next batch (the newest events kept, a bounded number).
      this.unread = events.slice(-MAX_CARRIED_EVENTS);
      return;
    }
    // A batch's sessions go to a watcher as one value.
    const changed = new Map<Watcher, Session[]>();
    for (const { session, waitlistId } of rows) {
      for (const w of this.watchers.get(session.experienceId) ?? []) {
        const inRange = session.startLocal >= w.fromLocal && session.startLocal < w.beforeLocal;
        if (!inRange || Date.parse(session.startsAt) <= w.now().getTime()) continue;
        changed.set(w, [...(changed.get(w) ?? []), toSession(session, w.timezone, waitlistId, w.sharePercent)]);
      }
    }
    for (const [w, views] of changed) w.stream.offer((waiting) => latest(waiting, views));
  }
}

/** The sessions waiting unread with `views` in place of their older states, by start. */
function latest(waiting: Session[] | undefined, views: Session[]): Session[] {
  const ids = new Set(views.map((view) => view.id));
  const merged = [...(waiting ?? []).filter((s) => !ids.has(s.id)), ...views];
  return merged.sort((a, b) => (a.startDateTime < b.startDateTime ? -1 : a.startDateTime > b.startDateTime ? 1 : 0));
}

const feeds = new WeakMap<LiveHub, AvailabilityFeed>();

/**
 * The sessions of the experience's range (as `listAvailability` takes it: same checks, same errors)
 * whose places change from now on, each time with their `remaining`, started sessions left out. A
 * consumer reading late gets each changed session once, in its latest state, by start.
 */
export async function watchSessionAvailability(deps: CallerDeps, input: AvailabilityWatchInput): Promise<AsyncIterableIterator<Session[]>> {
  const found = await loadExperienceOfBrand(deps, input.brandId, input.experienceId);
  if (!found) throw notFound('Experience', input.experienceId);
  const { fromLocal, beforeLocal } = availabilityRange(input.from, input.to);
  const hub = liveHubOf(deps);
  let feed = feeds.get(hub);
  if (!feed) {
    feed = new AvailabilityFeed(hub, deps.db, () => {
      feeds.delete(hub);
    });
    feeds.set(hub, feed);
  }
  const shared = feed;
  const watcher: Watcher = {
    experienceId: found.row.id,
    timezone: found.row.timezoneId,
    fromLocal,
    beforeLocal,
    sharePercent: shareOfCaller(deps, found.brand),
    now: deps.now,
    stream: new LiveStream<Session[]>(() => shared.remove(watcher)),
  };
  try {
    await shared.add(watcher);
  } catch (error) {
    shared.remove(watcher);
    throw error;
  }
  return watcher.stream;
}
