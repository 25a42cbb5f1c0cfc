import { type WaitlistEntryStatus } from './store.ts';
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { normalizeSessionTime } from '../availability/sessions.ts';
import { offerFreedPlaces } from './offers.ts';
import { entryFor, entryView, toEntryView, type WaitlistEntry } from './entry-view.ts';

export type { WaitlistEntry } from './entry-view.ts';

/** A waitlist: one per experience, its entries one line per session. */
export interface Waitlist {
  id: string;
  experienceId: string;
  brandId: string;
}

/** Status filters per request: one per status (there are five), with room for repeats. */
export const MAX_STATUS_FILTERS = 10;

export interface EntriesFilter {
  /** Only entries of the session starting then (local, `YYYY-MM-DDTHH:MM[:SS]`, the experience's zone). */
  sessionStartDateTime?: string | null | undefined;
  statuses?: readonly WaitlistEntryStatus[] | null | undefined;
}

/** The brand's waitlist; null when there is none of that id in the brand (403 for a brand the key may not act for). */
export async function findWaitlist(deps: CallerDeps, input: { brandId: string; id: string }): Promise<Waitlist | null> {
  const brand = await loadBrand(deps, input.brandId);
  const waitlist = await deps.db.waitlists.findWaitlistRow(input.id);
  return waitlist && waitlist.brandId === brand.id ? waitlist : null;
}

/** Entries of a waitlist already found (`findWaitlist`), by session start then position. */
export async function entriesOf(deps: CallerDeps, waitlist: Waitlist, filter: EntriesFilter = {}): Promise<WaitlistEntry[]> {
  let sessionId: string | undefined;
  if (filter.sessionStartDateTime != null) {
    const experience = await deps.db.experiences.findExperienceRow(waitlist.experienceId);
    if (!experience) return [];
    const startLocal = normalizeSessionTime(filter.sessionStartDateTime, experience.timezoneId, 'sessionStartDateTime');
    const session = await deps.db.sessions.findSessionAt(experience.id, startLocal);
    if (!session) return [];
    sessionId = session.id;
  }
  if (filter.statuses && filter.statuses.length > MAX_STATUS_FILTERS) {
    throw invalid('statuses', `statuses must name at most ${MAX_STATUS_FILTERS} statuses`);
  }
  const statuses = filter.statuses ? [...new Set(filter.statuses)] : undefined;
  return (await deps.db.waitlists.entriesOfWaitlist(waitlist.id, { sessionId, statuses })).map(toEntryView);
}

/** The entries of the brand's waitlist `waitlistId` (NOT_FOUND when it is not the brand's). */
export async function listWaitlistEntries(
  deps: CallerDeps,
  input: { brandId: string; waitlistId: string } & EntriesFilter,
): Promise<WaitlistEntry[]> {
  const waitlist = await findWaitlist(deps, { brandId: input.brandId, id: input.waitlistId });
  if (!waitlist) throw notFound('Waitlist', input.waitlistId);
  return entriesOf(deps, waitlist, input);
}

/**
 * The entry leaves its line: `waiting` or `offered` -> `cancelled`; an offer's held places go to the
 * next entries that fit, or back on sale. Any other status is WAITLIST_ENTRY_CLOSED. NOT_FOUND for an
 * entry of another brand (or, when `waitlistId` is given, of another waitlist). A publishable key is
 * answered without the entry's contacts (entryFor): its id is all a caller needs to leave it.
 */
export async function leaveWaitlist(
  deps: CallerDeps,
  input: { brandId: string; entryId: string; waitlistId?: string },
): Promise<WaitlistEntry> {
  const brand = await loadBrand(deps, input.brandId);
  return deps.db.transaction(async (tx) => {
    const entry = (await tx.waitlists.findEntryWithContext(input.entryId))?.entry;
    if (!entry || entry.brandId !== brand.id || (input.waitlistId !== undefined && entry.waitlistId !== input.waitlistId)) {
      throw notFound('Waitlist entry', input.entryId);
    }
    const now = deps.now();
    if (!(await tx.waitlists.setEntryStatus(entry.id, ['waiting', 'offered'], 'cancelled', now.toISOString()))) {
      throw new DomainError('WAITLIST_ENTRY_CLOSED', `Waitlist entry ${entry.id} is ${entry.status}: it has already left the line`, {
        status: entry.status,
      });
    }
    if (entry.status === 'offered') {
      await tx.waitlists.releaseOfferHold(entry.sessionId, entry.partySize);
      await offerFreedPlaces(tx, entry.sessionId, now, deps.waitlistOfferTtlSeconds);
    }
    return entryFor(deps.principal, await entryView(tx, entry.id));
  });
}
