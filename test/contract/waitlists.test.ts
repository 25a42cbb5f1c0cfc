/**
 * The store contract of waitlists (src/domain/waitlists/store.ts): what each method returns and writes,
 * with exact values and orders. Then its guards, raced alone and as the domain's offer sweeps use them
 * (races.ts).
 */
import { describe, expect, it } from 'vitest';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createWaitlistEntry } from '../../fixtures/factories/waitlists.ts';
import type { SessionRow } from '../../src/domain/availability/store.ts';
import type { EntryWithContext, WaitlistEntryRow, WaitlistEntryStatus } from '../../src/domain/waitlists/store.ts';
import { freshDb } from '../support/db.ts';
import { waitlistRaces, waitlistRaceWorld } from './races.ts';

const db = await freshDb();
const { database } = db;

const person = (email: string) => ({ firstName: 'Rita', lastName: 'Lobo', emailAddress: email, phoneNumber: null, answers: [] });

const brand = await createBrand(db);
const otherBrand = await createBrand(db, { name: 'Other Brand' });
const { experience } = await createExperience(db, brand.id);
const { experience: otherExperience } = await createExperience(db, otherBrand.id);
const session = (day: number, capacity: number, overrides: { reserved?: number } = {}) =>
  createSession(db, experience, { startLocal: `2027-03-${String(day).padStart(2, '0')}T10:00:00`, capacity, ...overrides });

// One session sold out with a line, and one that starts earlier (made later) with one entry.
const waitlist = await createWaitlist(db, experience.id);
const otherWaitlist = await createWaitlist(db, otherExperience.id);
const laterSession = await session(2, 10);
const soldOut = await session(5, 6, { reserved: 4 });
const earlier = await session(1, 5, { reserved: 4 });
const entry = (
  s: { id: string },
  position: number,
  spec: { status?: WaitlistEntryStatus; partySize?: number; email?: string; offerExpiresAt?: string; holdClient?: string } = {},
) => createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position, ...spec });
const first = await entry(soldOut, 1, { partySize: 2, email: 'Ana@Example.test' });
const offered = await entry(soldOut, 2, { status: 'offered', partySize: 2, offerExpiresAt: '2027-01-01T09:00:00.000Z' });
const expired = await entry(soldOut, 3, { status: 'expired', email: 'gone@example.test' });
const third = await entry(soldOut, 4, { partySize: 3 });
const earlyEntry = await entry(earlier, 1, { status: 'offered', offerExpiresAt: '2027-01-01T08:30:00.000Z' });

// Offers running out in another order than their positions, and a line written out of its order.
const offersSession = await session(15, 6, { reserved: 2 });
const runsOutLast = await entry(offersSession, 1, { status: 'offered', offerExpiresAt: '2027-01-01T00:00:01.000Z' });
const runsOutFirst = await entry(offersSession, 2, { status: 'offered', partySize: 2, offerExpiresAt: '2027-01-01T00:00:00.500Z' });
const freedSession = await session(16, 6, { reserved: 2 });
const freedWaiting = [
  await entry(freedSession, 1, { partySize: 2 }),
  await entry(freedSession, 3, { partySize: 1 }),
  await entry(freedSession, 2, { partySize: 3 }),
];
// A booking to convert an entry into.
const booking = await createBooking(db, { brandId: brand.id, session: laterSession });

/** An entry as the store gives it: the factory's row, with what the factory leaves unset. */
const stored = (row: Awaited<ReturnType<typeof createWaitlistEntry>>, over: Partial<WaitlistEntryRow> = {}): WaitlistEntryRow => ({
  ...row,
  offeredAt: row.offeredAt ?? null,
  offerExpiresAt: row.offerExpiresAt ?? null,
  convertedBookingId: row.convertedBookingId ?? null,
  holdClient: row.holdClient ?? null,
  ...over,
});
const inContext = (row: WaitlistEntryRow, startLocal: string): EntryWithContext => ({ entry: row, startLocal, timezone: 'Europe/Lisbon' });
const sessionRow = (s: Omit<SessionRow, 'heldForOffers' | 'publishableHeld'>, over: Partial<SessionRow>): SessionRow => ({
  heldForOffers: 0,
  publishableHeld: 0,
  ...s,
  ...over,
});
const entryIds = (rows: EntryWithContext[]) => rows.map((row) => row.entry.id);

describe('store contract: waitlists', () => {
  it('reads waitlists, sessions and entries with their context', async () => {
    expect(await database.waitlists.findWaitlistRow(waitlist.id)).toStrictEqual({
      id: waitlist.id,
      experienceId: experience.id,
      brandId: brand.id,
    });
    expect(await database.waitlists.findWaitlistRow(otherWaitlist.id)).toStrictEqual({
      id: otherWaitlist.id,
      experienceId: otherExperience.id,
      brandId: otherBrand.id,
    });
    expect(await database.waitlists.findWaitlistRow('no-such-waitlist')).toBeUndefined();
    expect(await database.waitlists.findSessionById(soldOut.id)).toStrictEqual({
      id: soldOut.id,
      experienceId: experience.id,
      startLocal: '2027-03-05T10:00:00',
      startsAt: '2027-03-05T10:00:00.000Z',
      durationMinutes: 120,
      capacity: 6,
      reserved: 4,
      heldForOffers: 2,
      publishableHeld: 0,
      cancelledAt: null,
    });
    expect(await database.waitlists.findSessionById('no-such-session')).toBeUndefined();

    expect(await database.waitlists.findEntryWithContext(offered.id)).toStrictEqual(inContext(stored(offered), '2027-03-05T10:00:00'));
    expect(await database.waitlists.findEntryWithContext(offered.id)).toMatchObject({
      entry: { status: 'offered', position: 2, offerExpiresAt: '2027-01-01T09:00:00.000Z', offeredAt: '2026-11-20T10:00:00.000Z' },
    });
    expect(await database.waitlists.findEntryWithContext(first.id)).toStrictEqual(inContext(stored(first), '2027-03-05T10:00:00'));
    expect(first).toMatchObject({ purchaserEmailKey: 'ana@example.test', purchaser: { emailAddress: 'Ana@Example.test' } });
    expect(await database.waitlists.findEntryWithContext('no-such-entry')).toBeUndefined();

    // By session start (the earlier session was made later), then position (freed entries were written out of line).
    const all = await database.waitlists.entriesOfWaitlist(waitlist.id, {});
    expect(entryIds(all)).toStrictEqual([
      earlyEntry.id,
      first.id,
      offered.id,
      expired.id,
      third.id,
      runsOutLast.id,
      runsOutFirst.id,
      freedWaiting[0]!.id,
      freedWaiting[2]!.id,
      freedWaiting[1]!.id,
    ]);
    expect(all[0]).toStrictEqual(inContext(stored(earlyEntry), '2027-03-01T10:00:00'));
    expect(
      entryIds(await database.waitlists.entriesOfWaitlist(waitlist.id, { sessionId: soldOut.id, statuses: ['waiting', 'offered'] })),
    ).toStrictEqual([first.id, offered.id, third.id]);
    expect(entryIds(await database.waitlists.entriesOfWaitlist(waitlist.id, { statuses: ['expired'] }))).toStrictEqual([expired.id]);
    expect(entryIds(await database.waitlists.entriesOfWaitlist(waitlist.id, { sessionId: freedSession.id }))).toStrictEqual([
      freedWaiting[0]!.id,
      freedWaiting[2]!.id,
      freedWaiting[1]!.id,
    ]);
    expect(await database.waitlists.entriesOfWaitlist(waitlist.id, { statuses: [] })).toStrictEqual([]);
    expect(await database.waitlists.entriesOfWaitlist(otherWaitlist.id, { sessionId: undefined, statuses: undefined })).toStrictEqual([]);

    expect(await database.waitlists.waitingEntriesOfSession(soldOut.id)).toStrictEqual([
      { id: first.id, partySize: 2 },
      { id: third.id, partySize: 3 },
    ]);
    expect(await database.waitlists.waitingEntriesOfSession(freedSession.id)).toStrictEqual([
      { id: freedWaiting[0]!.id, partySize: 2 },
      { id: freedWaiting[2]!.id, partySize: 3 },
      { id: freedWaiting[1]!.id, partySize: 1 },
    ]);
    expect(await database.waitlists.waitingEntriesOfSession(laterSession.id)).toStrictEqual([]);
    expect(await database.waitlists.nextPosition(soldOut.id)).toBe(5);
    expect(await database.waitlists.nextPosition(freedSession.id)).toBe(4);
    expect(await database.waitlists.nextPosition(laterSession.id)).toBe(1);
    // Soonest to run out first.
    expect(await database.waitlists.dueOffers('2027-01-01T09:00:00.000Z')).toStrictEqual([
      { id: runsOutFirst.id, sessionId: offersSession.id, partySize: 2 },
      { id: runsOutLast.id, sessionId: offersSession.id, partySize: 1 },
      { id: earlyEntry.id, sessionId: earlier.id, partySize: 1 },
      { id: offered.id, sessionId: soldOut.id, partySize: 2 },
    ]);
    expect(await database.waitlists.dueOffers('2027-01-01T08:59:59.999Z')).toStrictEqual([
      { id: runsOutFirst.id, sessionId: offersSession.id, partySize: 2 },
      { id: runsOutLast.id, sessionId: offersSession.id, partySize: 1 },
      { id: earlyEntry.id, sessionId: earlier.id, partySize: 1 },
    ]);
    expect(await database.waitlists.dueOffers('2026-12-31T23:59:59.999Z')).toStrictEqual([]);
  });

  it('gives offers that run out at the same instant by position', async () => {
    const tied = await session(20, 9);
    const at = '2026-12-30T00:00:00.000Z';
    const later = await entry(tied, 2, { status: 'offered', offerExpiresAt: at });
    const sooner = await entry(tied, 1, { status: 'offered', partySize: 2, offerExpiresAt: at });
    expect(await database.waitlists.dueOffers(at)).toStrictEqual([
      { id: sooner.id, sessionId: tied.id, partySize: 2 },
      { id: later.id, sessionId: tied.id, partySize: 1 },
    ]);
    for (const offer of [sooner, later]) expect(await database.waitlists.setEntryStatus(offer.id, ['offered'], 'cancelled', at)).toBe(true);
    await database.waitlists.releaseOfferHold(tied.id, 3);
    expect(await database.waitlists.dueOffers(at)).toStrictEqual([]);
  });

  it('inserts entries, one live entry per email and session', async () => {
    const row = (id: string, email: string, position: number, status: WaitlistEntryStatus = 'waiting') => ({
      id,
      waitlistId: waitlist.id,
      sessionId: soldOut.id,
      brandId: brand.id,
      status,
      position,
      partySize: 1,
      purchaser: person(email),
      purchaserEmailKey: email.toLowerCase(),
      participants: [{ ...person(email), priceTierName: 'Adult' }],
      createdAt: '2027-01-05T10:00:00.000Z',
      updatedAt: '2027-01-05T10:00:00.000Z',
    });
    expect(await database.waitlists.insertEntry(row('entry-new', 'New@Example.test', 5))).toBe(true);
    // Ana is waiting already (her key is lower-cased); the gone@ entry expired, so that email may join again.
    expect(await database.waitlists.insertEntry(row('entry-ana', 'ana@example.test', 6))).toBe(false);
    expect(await database.waitlists.insertEntry(row('entry-gone', 'gone@example.test', 6))).toBe(true);
    // A finished entry is no live one: it may share the email of a live entry.
    expect(await database.waitlists.insertEntry({ ...row('entry-old', 'ana@example.test', 7, 'cancelled'), offeredAt: null })).toBe(true);
    // Any other conflict is an error (here a position taken).
    await expect(database.waitlists.insertEntry(row('entry-clash', 'clash@example.test', 1))).rejects.toThrow();
    // A refused entry leaves its unit of work usable.
    await expect(
      database.transaction(async (tx) => {
        expect(await tx.waitlists.insertEntry(row('entry-ana-2', 'ANA@example.test', 8))).toBe(false);
        return tx.waitlists.nextPosition(soldOut.id);
      }),
    ).resolves.toBe(8);
    expect(await database.waitlists.nextPosition(soldOut.id)).toBe(8);
    expect(await database.waitlists.findEntryWithContext('entry-new')).toStrictEqual(
      inContext(
        {
          ...row('entry-new', 'New@Example.test', 5),
          purchaserEmailKey: 'new@example.test',
          offeredAt: null,
          offerExpiresAt: null,
          convertedBookingId: null,
          holdClient: null,
        },
        '2027-03-05T10:00:00',
      ),
    );
    expect(await db.count('waitlistEntries', { sessionId: soldOut.id })).toBe(7);
    expect(await db.count('waitlistEntries', { id: 'entry-clash' })).toBe(0);
  });

  it('moves entries only from the statuses given, with their offer or booking fields', async () => {
    const at = '2027-01-06T10:00:00.000Z';
    expect(
      await database.waitlists.setEntryStatus(first.id, ['waiting'], 'offered', at, {
        offeredAt: at,
        offerExpiresAt: '2027-01-06T10:15:00.000Z',
      }),
    ).toBe(true);
    expect(await database.waitlists.setEntryStatus(first.id, ['waiting'], 'offered', at)).toBe(false);
    expect(await database.waitlists.setEntryStatus(first.id, [], 'cancelled', at)).toBe(false);
    expect(await database.waitlists.setEntryStatus('no-such-entry', ['waiting'], 'cancelled', at)).toBe(false);
    // Undefined fields stay as they are.
    expect(
      await database.waitlists.setEntryStatus(first.id, ['offered', 'converted'], 'converted', '2027-01-06T10:05:00.000Z', {
        convertedBookingId: booking.booking.id,
        offerExpiresAt: undefined,
      }),
    ).toBe(true);
    expect((await database.waitlists.findEntryWithContext(first.id))!.entry).toStrictEqual(
      stored(first, {
        status: 'converted',
        updatedAt: '2027-01-06T10:05:00.000Z',
        offeredAt: at,
        offerExpiresAt: '2027-01-06T10:15:00.000Z',
        convertedBookingId: booking.booking.id,
      }),
    );
    expect(await database.waitlists.setEntryStatus(offered.id, ['offered'], 'expired', at, { offerExpiresAt: null })).toBe(true);
    expect((await database.waitlists.findEntryWithContext(offered.id))!.entry).toStrictEqual(
      stored(offered, { status: 'expired', updatedAt: at, offerExpiresAt: null }),
    );
  });

  it("counts a client's live entries' places in a brand, while their sessions have not started", async () => {
    const [a, b] = ['hmac-of-client-a', 'hmac-of-client-b'];
    const s1 = await session(22, 6, { reserved: 2 });
    const s2 = await session(23, 6, { reserved: 6 });
    const otherSession = await createSession(db, otherExperience, { startLocal: '2027-03-22T10:00:00', capacity: 2, reserved: 2 });
    await entry(s1, 1, { partySize: 3, holdClient: a });
    await entry(s1, 2, { partySize: 2, holdClient: b });
    await entry(s1, 3, { status: 'offered', partySize: 2, holdClient: a, offerExpiresAt: '2027-01-01T10:00:00.000Z' });
    await entry(s2, 1, { status: 'cancelled', partySize: 4, holdClient: a });
    await entry(s2, 2, { status: 'expired', partySize: 1, holdClient: a });
    await entry(s2, 3, { status: 'converted', partySize: 1, holdClient: a });
    await entry(s2, 4, { partySize: 5 });
    await createWaitlistEntry(db, {
      waitlist: otherWaitlist,
      session: otherSession,
      brandId: otherBrand.id,
      position: 1,
      partySize: 4,
      holdClient: a,
    });

    const places = (client: string, at: string, brandId = brand.id) => database.waitlists.clientWaitlistPlaces(brandId, client, at);
    // Waiting 3 and offered 2 (running); not b's, not the finished ones, not the secret key's, not the other brand's.
    expect(await places(a, '2027-01-01T09:00:00.000Z')).toBe(5);
    expect(await places(b, '2027-01-01T09:00:00.000Z')).toBe(2);
    expect(await places('hmac-of-nobody', '2027-01-01T09:00:00.000Z')).toBe(0);
    expect(await places(a, '2027-01-01T09:00:00.000Z', otherBrand.id)).toBe(4);
    // An offer that ran out (not yet swept) no longer counts; nor does any entry once its session started.
    expect(await places(a, '2027-01-01T10:00:00.000Z')).toBe(3);
    expect(await places(a, s1.startsAt)).toBe(0);
    // The same inside a unit of work.
    await expect(
      database.transaction(async (tx) => tx.waitlists.clientWaitlistPlaces(brand.id, a, '2027-01-01T09:00:00.000Z')),
    ).resolves.toBe(5);
    // The entry records its client as given.
    const [joined] = await database.waitlists.entriesOfWaitlist(waitlist.id, { sessionId: s1.id, statuses: ['waiting'] });
    expect(joined!.entry.holdClient).toBe(a);
  });

  it('holds, releases and takes places of a session for offers', async () => {
    // soldOut: capacity 6, reserved 4, 2 held for the offer.
    expect(await database.waitlists.holdForOffer(soldOut.id, 1)).toBe(false);
    await database.waitlists.releaseOfferHold(soldOut.id, 2);
    await database.waitlists.releaseOfferHold(soldOut.id, 0);
    expect(await database.waitlists.findSessionById(soldOut.id)).toStrictEqual(sessionRow(soldOut, { heldForOffers: 0 }));
    expect(await database.waitlists.holdForOffer(soldOut.id, 3)).toBe(false);
    expect(await database.waitlists.holdForOffer(soldOut.id, 2)).toBe(true);
    expect(await database.waitlists.holdForOffer('no-such-session', 1)).toBe(false);
    await database.waitlists.takeHeldPlaces(soldOut.id, 2, 1);
    expect(await database.waitlists.findSessionById(soldOut.id)).toStrictEqual(sessionRow(soldOut, { reserved: 5, heldForOffers: 0 }));
  });
});

// The guards, in a database of their own: what they race for is all there is.
const racingDb = await freshDb();
const racing = await waitlistRaceWorld(racingDb);

describe('store contract: waitlists, raced', () => {
  waitlistRaces(() => ({ db: racingDb, gateways: [racingDb.database], w: racing }));
});
