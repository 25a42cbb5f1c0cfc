/**
 * The WaitlistEntry resource as both faces (and event payloads) show it. Synchronous, so the offer,
 * conversion and expiry transactions can take an entry's view as it is inside them.
 */
import { mayReadContacts } from '../access/personal-data.ts';
import type { Principal } from '../access/principal.ts';
import type { Stores } from '../shared/database.ts';
import { type EntryWithContext, type WaitlistEntryStatus } from './store.ts';

export interface WaitlistEntryPerson {
  firstName: string;
  lastName: string;
  emailAddress: string | null;
  phoneNumber: string | null;
}

export interface WaitlistEntry {
  id: string;
  waitlistId: string;
  /** waiting -> offered -> converted; waiting/offered -> cancelled; offered -> expired. */
  status: WaitlistEntryStatus;
  /** Place in the session's line, from 1, in joining order. */
  position: number;
  /** Local start of the session waited for, `YYYY-MM-DDTHH:MM:SS` in `timezone`. */
  sessionStartDateTime: string;
  timezone: string;
  purchaser: WaitlistEntryPerson;
  participants: Array<WaitlistEntryPerson & { priceTierName: string }>;
  createdAt: string;
  /** When an offer's held places go to the next entry; null until the entry is offered places. */
  offerExpiresAt: string | null;
  /** The booking the entry's offer became; null until converted. */
  convertedBookingId: string | null;
  /** Not shown: the brand, for access checks and events. */
  brandId: string;
}

const person = (p: WaitlistEntryPerson): WaitlistEntryPerson => ({
  firstName: p.firstName,
  lastName: p.lastName,
  emailAddress: p.emailAddress,
  phoneNumber: p.phoneNumber,
});

export function toEntryView({ entry, startLocal, timezone }: EntryWithContext): WaitlistEntry {
  return {
    id: entry.id,
    waitlistId: entry.waitlistId,
    status: entry.status,
    position: entry.position,
    sessionStartDateTime: startLocal,
    timezone,
    purchaser: person(entry.purchaser),
    participants: entry.participants.map((p) => ({ ...person(p), priceTierName: p.priceTierName ?? '' })),
    createdAt: entry.createdAt,
    offerExpiresAt: entry.offerExpiresAt,
    convertedBookingId: entry.convertedBookingId,
    brandId: entry.brandId,
  };
}

const withoutContacts = <T extends WaitlistEntryPerson>(p: T): T => ({ ...p, emailAddress: null, phoneNumber: null });

/**
 * The entry as `principal` may read it: a publishable key, which anyone may hold, reads no e-mail
 * address or phone number (null), since knowing an entry's id must not reveal whose it is
 * (personal-data.ts). Secret keys read the whole entry.
 */
export function entryFor(principal: Principal, entry: WaitlistEntry): WaitlistEntry {
  if (mayReadContacts(principal)) return entry;
  return { ...entry, purchaser: withoutContacts(entry.purchaser), participants: entry.participants.map(withoutContacts) };
}

/** The entry's view as the database (or transaction) `db` has it now. */
export async function entryView(db: Stores, id: string): Promise<WaitlistEntry> {
  const found = await db.waitlists.findEntryWithContext(id);
  if (!found) throw new RangeError(`Waitlist entry ${id} does not exist`);
  return toEntryView(found);
}
