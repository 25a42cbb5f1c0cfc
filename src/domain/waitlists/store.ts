import type { WaitlistEntryStatus } from '../shared/values.ts';
import type { WaitlistPerson } from '../shared/json-types.ts';
import type { SessionRow } from '../availability/store.ts';

export interface WaitlistRow {
  id: string;
  experienceId: string;
  brandId: string;
}

/** An entry with what its view needs from its session and experience. */
export interface EntryWithContext {
  entry: WaitlistEntryRow;
  startLocal: string;
  timezone: string;
}

export type { WaitlistEntryStatus } from '../shared/values.ts';

export type EntryExtra = Partial<Pick<WaitlistEntryRow, 'offeredAt' | 'offerExpiresAt' | 'convertedBookingId'>>;

export interface WaitlistEntryRow {
  id: string;
  waitlistId: string;
  sessionId: string;
  brandId: string;
  status: WaitlistEntryStatus;
  /** First come, first served: 1, 2, 3... per session, in joining order. */
  position: number;
  partySize: number;
  purchaser: WaitlistPerson;
  /** Lower-cased purchaser email: one live entry per email and session. */
  purchaserEmailKey: string;
  participants: WaitlistPerson[];
  createdAt: string;
  updatedAt: string;
  offeredAt: string | null;
  /** While `offered`: when the held places go to the next entry. */
  offerExpiresAt: string | null;
  convertedBookingId: string | null;
  /** The publishable key's client that joined (its HMAC, never its address); null for a secret key's entry. */
  holdClient: string | null;
}

export interface WaitlistsStore {
  /** A waitlist with the brand of its experience. */
  findWaitlistRow(id: string): Promise<WaitlistRow | undefined>;
  findSessionById(id: string): Promise<SessionRow | undefined>;
  findEntryWithContext(id: string): Promise<EntryWithContext | undefined>;
  /** Entries of a waitlist by session start then position, optionally of one session and some statuses. */
  entriesOfWaitlist(
    waitlistId: string,
    filter: { sessionId?: string | undefined; statuses?: readonly WaitlistEntryStatus[] | undefined },
  ): Promise<EntryWithContext[]>;
  /** The session's `waiting` entries in line order. */
  waitingEntriesOfSession(sessionId: string): Promise<Array<{ id: string; partySize: number }>>;
  /**
   * The position after the session's last entry (1 for the first). Inside a unit of work the session is
   * the unit's from here on, as after `findSessionById`: racing joiners take positions in turn.
   */
  nextPosition(sessionId: string): Promise<number>;
  /** Inserts an entry; false when the purchaser already has a live entry for the session (a guard: of racing joins by one purchaser, one succeeds). */
  insertEntry(row: {
    id: string;
    createdAt: string;
    brandId: string;
    participants: WaitlistPerson[];
    status: WaitlistEntryStatus;
    updatedAt: string;
    sessionId: string;
    position: number;
    purchaser: WaitlistPerson;
    waitlistId: string;
    partySize: number;
    purchaserEmailKey: string;
    offeredAt?: string | null | undefined;
    offerExpiresAt?: string | null | undefined;
    convertedBookingId?: string | null | undefined;
    /** The publishable key's client that joined (its HMAC, `holderOf`); null or absent for a secret key. */
    holdClient?: string | null | undefined;
  }): Promise<boolean>;
  /**
   * The places `client`'s live entries of `brandId` wait for (`waiting`, and `offered` with an offer running
   * after `at`), among entries whose session starts after `at` (a line for a session that started holds
   * nothing): what its waitlist budget counts. Racing joins of one client are serialized by `checkout.lockHoldClient`, taken first in the unit.
   */
  clientWaitlistPlaces(brandId: string, client: string, at: string): Promise<number>;
  /**
   * Moves an entry from one of `from` to `to` (with the given offer or booking fields); false when it
   * had moved on meanwhile.
   */
  setEntryStatus(
    id: string,
    from: readonly WaitlistEntryStatus[],
    to: WaitlistEntryStatus,
    at: string,
    extra?: EntryExtra,
  ): Promise<boolean>;
  /**
   * `offered` entries whose offer ran out at or before `at`, the first to run out first (then by
   * position). Every checkout and every sweep asks (a hot path, as are the session updates below).
   */
  dueOffers(at: string): Promise<Array<{ id: string; sessionId: string; partySize: number }>>;
  /** Holds `count` places on sale for an offer; false (nothing changed) when fewer are on sale. A guard, as `takePlaces`. */
  holdForOffer(sessionId: string, count: number): Promise<boolean>;
  /** Puts `count` places held for an offer back on sale. */
  releaseOfferHold(sessionId: string, count: number): Promise<void>;
  /**
   * An offer taken by a booking: `held` places leave the offer's hold and `taken` of them (at most
   * `held`) become reserved, atomically; the rest go on sale.
   */
  takeHeldPlaces(sessionId: string, held: number, taken: number): Promise<void>;
  /** What a checkout needs to know of the booking an entry was converted into. */
  findBookingHold(id: string): Promise<{ cartId: string | null; status: string; holdExpiresAt: string | null } | undefined>;
}
