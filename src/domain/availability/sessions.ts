/**
 * Sessions (availability): when an experience runs, how many places each run has left, and the
 * reading of a partner's `sessionTime` as one of those runs.
 */
import { DateTime } from 'luxon';
import type { Stores } from '../shared/database.ts';
import { type BrandRow, type ExperienceRow } from '../catalog/store.ts';
import { type SessionOfExperience, type SessionRow } from './store.ts';
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { canSee } from '../access/principal.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { DAY_MS, dayAfter, localDateStart } from '../shared/local-time.ts';
import { loadExperienceOfBrand } from '../catalog/experiences.ts';

/** One session of an experience, as both faces show it. */
export interface Session {
  id: string;
  /** Local start in `timezone`, `YYYY-MM-DDTHH:MM:SS` without offset (as a booking's `event.startDateTime`). */
  startDateTime: string;
  timezone: string;
  /** Minutes. */
  duration: number;
  capacity: number;
  /**
   * Places the caller can get: on sale (not held by active participants of processing or confirmed bookings, nor
   * for waitlist offers); for a publishable key, no more than its unpaid holds may still take of the brand's
   * publishable share (`publishableRemaining`).
   */
  remaining: number;
  /** The experience's waitlist, where guests can queue for a sold-out session; null when it has none. */
  waitlistId: string | null;
  /** `cancelled` once the brand cancelled it (no longer sold: `remaining` is 0); `scheduled` until then. */
  status: SessionStatus;
}

export type SessionStatus = 'scheduled' | 'cancelled';

/** The longest availability range one request may ask for, in days (both ends included): about a quarter. */
export const MAX_AVAILABILITY_DAYS = 92;

const LOCAL_FORMAT = "yyyy-MM-dd'T'HH:mm:ss";
const SESSION_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?$/;
const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/** Luxon's zone name for `Z` or `+HH:MM`; null for offsets no place on Earth uses (beyond ±14:00). */
function offsetZone(offset: string): string | null {
  if (offset === 'Z') return 'UTC';
  const [, sign, hours, minutes] = OFFSET.exec(offset)!;
  const total = Number(hours) * 60 + Number(minutes);
  return Number(minutes) < 60 && total <= 14 * 60 ? `UTC${sign}${hours}:${minutes}` : null;
}

/**
 * The local start `sessionTime` names whatever the experience's zone, when it gives no offset (what
 * `normalizeSessionTime` returns for it, if it is valid in that zone); null when it has an offset, or is no
 * date-time: only the zone can tell then.
 */
export function localStartAsGiven(sessionTime: string): string | null {
  const match = SESSION_TIME.exec(sessionTime);
  if (!match || match[7]) return null;
  const [, year, month, day, hour, minute, second = '00'] = match;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}`;
}

/**
 * A partner's `sessionTime` as the session's local start in the experience's zone, `YYYY-MM-DDTHH:MM:SS`.
 * Accepts `YYYY-MM-DDTHH:MM[:SS]` (already local) and the same with `Z` or `±HH:MM` (converted into the
 * zone). Impossible dates and local times that do not exist (the hour skipped when clocks go forward)
 * are VALIDATION_FAILED on `field`; a time that happens twice (clocks going back) is one local time.
 */
export function normalizeSessionTime(sessionTime: string, timezone: string, field: string): string {
  const match = SESSION_TIME.exec(sessionTime);
  if (!match) {
    throw invalid(
      field,
      `${field} must be a local date-time YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS, optionally with an offset (Z or +01:00)`,
    );
  }
  const [, year, month, day, hour, minute, second = '00', offset] = match;
  const parts = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  };
  if (offset) {
    const zone = offsetZone(offset);
    const instant = zone ? DateTime.fromObject(parts, { zone }) : null;
    if (!instant?.isValid) throw invalid(field, `${field} ${sessionTime} is not a valid date-time`);
    return instant.setZone(timezone).toFormat(LOCAL_FORMAT);
  }
  const local = DateTime.fromObject(parts, { zone: timezone });
  if (!local.isValid) throw invalid(field, `${field} ${sessionTime} is not a valid date-time`);
  const asked = `${year}-${month}-${day}T${hour}:${minute}:${second}`;
  // Luxon moves a wall-clock time inside a DST gap forward; such a time never happens, so no session starts then.
  if (local.toFormat(LOCAL_FORMAT) !== asked) {
    throw invalid(field, `${field} ${sessionTime} does not exist in ${timezone} (the clocks skip it)`);
  }
  return asked;
}

/** SESSION_NOT_FOUND on `field`: the experience has no session starting at `startLocal`. */
export function sessionNotFound(experience: Pick<ExperienceRow, 'id' | 'timezoneId'>, startLocal: string, field: string): DomainError {
  return new DomainError(
    'SESSION_NOT_FOUND',
    `Experience ${experience.id} has no session starting at ${startLocal} (${experience.timezoneId})`,
    {
      field,
      startDateTime: startLocal,
      timezone: experience.timezoneId,
    },
  );
}

/** The session a partner's `sessionTime` names, or SESSION_NOT_FOUND (SESSION_CANCELLED) on `field`. */
export async function sessionForItem(
  deps: { db: Stores },
  input: { experience: Pick<ExperienceRow, 'id' | 'timezoneId'>; sessionTime: string; field: string },
): Promise<SessionRow> {
  const { experience, sessionTime, field } = input;
  const startLocal = normalizeSessionTime(sessionTime, experience.timezoneId, field);
  const session = await deps.db.sessions.findSessionAt(experience.id, startLocal);
  if (!session) throw sessionNotFound(experience, startLocal, field);
  assertNotCancelled(session, field);
  return session;
}

/** A session the brand cancelled is no longer sold, waited for or changed: SESSION_CANCELLED on `field`. */
export function assertNotCancelled(session: Pick<SessionRow, 'id' | 'startLocal' | 'cancelledAt'>, field: string): void {
  if (session.cancelledAt === null) return;
  throw new DomainError('SESSION_CANCELLED', `The session at ${session.startLocal} was cancelled by its brand`, {
    field,
    sessionId: session.id,
    cancelledAt: session.cancelledAt,
  });
}

/** When a duration is given it must be the session's: SESSION_NOT_FOUND on `field` otherwise. */
export function assertDuration(
  session: Pick<SessionRow, 'startLocal' | 'durationMinutes'>,
  duration: number | null | undefined,
  field: string,
): void {
  if (duration === null || duration === undefined || duration === session.durationMinutes) return;
  throw new DomainError(
    'SESSION_NOT_FOUND',
    `The session at ${session.startLocal} lasts ${session.durationMinutes} minutes, not ${duration}`,
    {
      field,
      duration: session.durationMinutes,
    },
  );
}

/** A session can be sold (or waited for) only until it starts. SESSION_STARTED otherwise. */
export function assertNotStarted(session: Pick<SessionRow, 'startLocal' | 'startsAt'>, now: Date, field: string): void {
  if (Date.parse(session.startsAt) <= now.getTime()) {
    throw new DomainError('SESSION_STARTED', `The session at ${session.startLocal} has already started`, { field });
  }
}

/** `from`..`to` (local dates, inclusive) as the half-open range of local starts [from, day after to). */
export function availabilityRange(from: string, to: string): { fromLocal: string; beforeLocal: string } {
  const start = localDateStart(from, 'from');
  const end = localDateStart(to, 'to');
  if (end < start) throw invalid('to', 'to must be on or after from');
  const days = (end - start) / DAY_MS + 1;
  if (days > MAX_AVAILABILITY_DAYS) throw invalid('to', `A range covers at most ${MAX_AVAILABILITY_DAYS} days; ask again for the rest`);
  return { fromLocal: from, beforeLocal: dayAfter(end) };
}

/** Places on sale: capacity less places taken and places held for waitlist offers. */
export const remainingPlaces = (session: { capacity: number; reserved: number; heldForOffers: number }) =>
  session.capacity - session.reserved - session.heldForOffers;

/**
 * Places an unpaid hold of a publishable key may still take: on sale, and within the brand's publishable share
 * (`sharePercent` of the capacity, less the places such holds have already). Checkout's guard counts the same.
 */
export const publishableRemaining = (
  session: Pick<SessionRow, 'capacity' | 'reserved' | 'heldForOffers' | 'publishableHeld'>,
  sharePercent: number,
) => Math.max(0, Math.min(remainingPlaces(session), Math.floor((session.capacity * sharePercent) / 100) - session.publishableHeld));

/**
 * The brand's publishable share when the caller is a publishable key (its availability is what it can hold);
 * null for secret keys, which see every place on sale.
 */
export const shareOfCaller = (deps: CallerDeps, brand: Pick<BrandRow, 'publishableHoldSharePercent'>) =>
  deps.principal.kind === 'publishable' ? brand.publishableHoldSharePercent : null;

/**
 * The sessions of the range that can still be booked: one that has started is left out (checkout would
 * refuse it with SESSION_STARTED), so availability never offers what cannot be bought.
 */
async function sessionViews(
  deps: CallerDeps,
  experience: ExperienceRow,
  sharePercent: number | null,
  from: string,
  to: string,
): Promise<Session[]> {
  const { fromLocal, beforeLocal } = availabilityRange(from, to);
  const now = deps.now().getTime();
  const sessions = await deps.db.sessions.sessionsInRange(experience.id, fromLocal, beforeLocal);
  return sessions
    .filter(({ session }) => Date.parse(session.startsAt) > now)
    .map(({ session, waitlistId }) => toSession(session, experience.timezoneId, waitlistId, sharePercent));
}

export function toSession(session: SessionRow, timezone: string, waitlistId: string | null, sharePercent: number | null): Session {
  return {
    id: session.id,
    startDateTime: session.startLocal,
    timezone,
    duration: session.durationMinutes,
    capacity: session.capacity,
    remaining:
      session.cancelledAt !== null ? 0 : sharePercent === null ? remainingPlaces(session) : publishableRemaining(session, sharePercent),
    waitlistId,
    status: session.cancelledAt === null ? 'scheduled' : 'cancelled',
  };
}

export interface AvailabilityInput {
  brandId: string;
  experienceId: string;
  /** First local date (`YYYY-MM-DD`, the experience's zone), included. */
  from: string;
  /** Last local date, included; at most MAX_AVAILABILITY_DAYS days after `from` counting both. */
  to: string;
}

/** Sessions of a brand's experience starting on the local dates `from`..`to` and not yet started, by start time. */
export async function listAvailability(deps: CallerDeps, input: AvailabilityInput): Promise<Session[]> {
  const found = await loadExperienceOfBrand(deps, input.brandId, input.experienceId);
  if (!found) throw notFound('Experience', input.experienceId);
  return sessionViews(deps, found.row, shareOfCaller(deps, found.brand), input.from, input.to);
}

/** The same for an experience reached without a brand (a nested field): its own brand's access rules apply. */
export async function sessionsOfExperience(deps: CallerDeps, input: Omit<AvailabilityInput, 'brandId'>): Promise<Session[]> {
  const experience = await deps.db.experiences.findExperienceRow(input.experienceId);
  if (!experience) throw notFound('Experience', input.experienceId);
  const brand = await loadBrand(deps, experience.brandId);
  return sessionViews(deps, experience, shareOfCaller(deps, brand), input.from, input.to);
}

/**
 * Sessions by id, started or not (a booking's session stays its own), of the brands the caller may see;
 * the others are left out, as unknown ids are. One read of the store for all of them, but for those in
 * `known` (as a unit of this request left them: shown as if read now).
 */
export async function findSessions(
  deps: CallerDeps,
  ids: readonly string[],
  known: ReadonlyMap<string, SessionOfExperience> = new Map(),
): Promise<Map<string, Session>> {
  const unknown = ids.filter((id) => !known.has(id));
  const read = unknown.length === 0 ? [] : await deps.db.sessions.findSessionsByIds(unknown);
  const rows = [...ids.flatMap((id) => known.get(id) ?? []), ...read].filter((row: SessionOfExperience) =>
    canSee(deps.principal, row.brandId),
  );
  // A publishable key sees one brand: its share is read once.
  const shares = new Map<string, number | null>();
  for (const brandId of new Set(rows.map((row) => row.brandId))) {
    const brand = deps.principal.kind === 'publishable' ? await deps.db.brands.findBrand(brandId) : undefined;
    shares.set(brandId, brand ? shareOfCaller(deps, brand) : null);
  }
  return new Map(
    rows.map(({ session, timezoneId, waitlistId, brandId }) => [
      session.id,
      toSession(session, timezoneId, waitlistId, shares.get(brandId) ?? null),
    ]),
  );
}
