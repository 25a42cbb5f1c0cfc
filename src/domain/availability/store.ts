export interface SessionRow {
  id: string;
  experienceId: string;
  /** Local start in the experience's zone, `YYYY-MM-DDTHH:MM:SS` (no offset). */
  startLocal: string;
  /** The same instant in UTC, ISO 8601, for clocks and ordering across zones. */
  startsAt: string;
  durationMinutes: number;
  capacity: number;
  /**
   * Places taken by active participants of `processing` and `confirmed` bookings. Changed only in the
   * transactions that change those participants; the CHECK makes overselling impossible even for a bug.
   */
  reserved: number;
  /** Places held for waitlist entries that were offered them; only those entries may take them. */
  heldForOffers: number;
  /**
   * Of `reserved`, the places of unpaid holds made with publishable keys (`BookingRow.publishableHold`), which
   * the brand's publishable share bounds.
   */
  publishableHeld: number;
  /** When the brand cancelled the session, ISO 8601 UTC; null while it runs. A cancelled session takes no places. */
  cancelledAt: string | null;
}

export interface SessionWithWaitlist {
  session: SessionRow;
  waitlistId: string | null;
}

/** A session with what showing it needs of its experience: the brand it belongs to and its zone. */
export interface SessionOfExperience extends SessionWithWaitlist {
  brandId: string;
  timezoneId: string;
}

export interface CapacityStore {
  /**
   * Takes `count` places of a session if it is not cancelled and that many remain on sale (capacity less reserved places and places
   * held for waitlist offers); false (and nothing changed) otherwise. A guard: racing takes never sell a
   * place twice, in a unit of work or outside one. Every checkout item takes places (a hot path).
   */
  takePlaces(sessionId: string, count: number): Promise<boolean>;
  /**
   * Takes `count` places as `takePlaces` does, for an unpaid hold made with a publishable key: they must also fit
   * in the session's publishable share, `(publishableHeld + count) * 100 <= capacity * sharePercent`, and count
   * in `publishableHeld` as well as in `reserved`. 'taken'; 'sold-out' when fewer than `count` places are on
   * sale; 'share-exhausted' when they are, but not within the share (nothing changed either way). A guard as
   * `takePlaces` is, the two conditions checked in one step.
   */
  takePublishablePlaces(sessionId: string, count: number, sharePercent: number): Promise<'taken' | 'sold-out' | 'share-exhausted'>;
  /**
   * A checkout item's take: `takePlaces`, or with a `sharePercent` `takePublishablePlaces`, in one guard as they are,
   * answering with the session as the take left it and its experience's waitlist (as `findSessionsByIds` would
   * read them in the unit now), so the checkout shows the session without reading it again; or which limit
   * refused (nothing changed).
   */
  takeItemPlaces(
    sessionId: string,
    count: number,
    sharePercent: number | null,
  ): Promise<{ taken: SessionWithWaitlist } | { refused: 'sold-out' | 'share-exhausted' }>;
  /**
   * Gives `count` places back to a session (every cancellation does: a hot path) and returns the session
   * as it then is (as `findSessionById` reads it in a unit of work: the row stays the unit's until it ends);
   * undefined for an unknown session or when `count` is 0.
   */
  releasePlaces(sessionId: string, count: number): Promise<SessionRow | undefined>;
  /**
   * `count` places of publishable holds leave the share (`publishableHeld`): paid, they stay reserved; failed
   * or cancelled, the caller gives them back with `releasePlaces` too.
   */
  leavePublishableShare(sessionId: string, count: number): Promise<void>;
}

export interface SessionsStore {
  /**
   * The session of an experience starting at `startLocal` (`YYYY-MM-DDTHH:MM:SS`, the experience's zone).
   * Every quote and checkout item asks (a hot path).
   */
  findSessionAt(experienceId: string, startLocal: string): Promise<SessionRow | undefined>;
  /**
   * Sessions of an experience whose local start is in [`fromLocal`, `beforeLocal`), not cancelled, by start, with
   * the experience's waitlist id. Local starts compare correctly as strings because they all have the same
   * fixed-width shape.
   */
  sessionsInRange(experienceId: string, fromLocal: string, beforeLocal: string): Promise<SessionWithWaitlist[]>;
  /**
   * The sessions with these ids (in no particular order; unknown ids are left out), each with its
   * experience's brand, zone and waitlist: a booking's session and `node(id:)` read them, one statement
   * for all of a request's.
   */
  findSessionsByIds(ids: readonly string[]): Promise<SessionOfExperience[]>;
}

/** A session to create: its local start and the same instant in UTC, as `SessionRow` has them. */
export type NewSessionRow = Pick<SessionRow, 'id' | 'experienceId' | 'startLocal' | 'startsAt' | 'durationMinutes' | 'capacity'>;

/** The brand's own writes of its schedule (src/domain/availability/session-writes.ts). */
export interface SessionWritesStore {
  /**
   * Inserts the sessions an experience has no session at yet (by experience and local start: the unique
   * key); returns the ids of those inserted, in no particular order. Of racing inserts of one start, one
   * is inserted and the others skipped, never an error.
   */
  insertSessions(rows: readonly NewSessionRow[]): Promise<string[]>;
  /**
   * Sets a session's capacity if it is not cancelled and the places taken (reserved and held for offers) fit
   * in it; false (nothing changed) otherwise. A guard, as `takePlaces`: a take racing it is checked against
   * the capacity it leaves.
   */
  setCapacity(sessionId: string, capacity: number): Promise<boolean>;
  /** Marks a session cancelled at `at`; false when it already was. From then on no statement takes its places. */
  markCancelled(sessionId: string, at: string): Promise<boolean>;
  /** The ids of the session's bookings that hold places (`processing`, `confirmed`), by id. */
  liveBookingsOfSession(sessionId: string): Promise<string[]>;
}
