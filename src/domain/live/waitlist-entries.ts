/**
 * Live waitlist entries: the entry after each of its events (offered places, the offer expired, the
 * offer converted into a booking), as the event recorded it, so a shop page learns of an offer at once.
 */
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { notFound } from '../shared/errors.ts';
import { entryFor, type WaitlistEntry } from '../waitlists/entry-view.ts';
import { liveHubOf } from './live-hub-of.ts';
import { LiveStream } from './stream.ts';

/**
 * The entry after each of its events from now on (a consumer reading late gets the latest). Checked
 * as leaving the waitlist is: any key acting for the brand, publishable keys included (the entry's id,
 * which only its joiner was given, is what the page knows); FORBIDDEN for another brand, NOT_FOUND for
 * an entry that is not the brand's. A publishable key reads it without contacts (entryFor).
 */
export async function watchWaitlistEntry(
  deps: CallerDeps,
  input: { brandId: string; entryId: string },
): Promise<AsyncIterableIterator<WaitlistEntry>> {
  const brand = await loadBrand(deps, input.brandId);
  const found = await deps.db.waitlists.findEntryWithContext(input.entryId);
  if (!found || found.entry.brandId !== brand.id) throw notFound('Waitlist entry', input.entryId);
  const hub = liveHubOf(deps);
  let unlisten = () => {};
  const stream = new LiveStream<WaitlistEntry>(() => unlisten());
  unlisten = await hub.listen((events) => {
    for (const event of events) {
      if (event.resourceId !== found.entry.id || !event.type.startsWith('waitlist.')) continue;
      // The payload is the entry's view as its change left it, without the brand (entryPayload).
      const entry = entryFor(deps.principal, { ...event.payload, brandId: event.brandId } as unknown as WaitlistEntry);
      stream.offer(() => entry);
    }
  });
  return stream;
}
