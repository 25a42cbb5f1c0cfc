import { randomUUID } from 'node:crypto';
import { beforeAll, expect } from 'vitest';
import { SandboxProcessor } from '../../src/adapters/sandbox-processor.ts';
import { startApp, type StartOptions, type TestApp } from './app.ts';
import { CHECKOUT_NOW } from './clock.ts';
import { freshDb, type TestDb } from './db.ts';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrandFamily } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';

/** Offers in these tests last a minute. */
export const OFFER_TTL = 60;

/** An entry as REST shows it: `id: uuid` is the raw id REST answers (GraphQL's own `id` is the global one). */
export const ENTRY_FIELDS = `id: uuid waitlistId status position sessionStartDateTime timezone createdAt offerExpiresAt convertedBookingId
  purchaser { firstName lastName emailAddress phoneNumber }
  participants { firstName lastName priceTierName emailAddress phoneNumber }`;

export const JOIN = /* GraphQL */ `
  mutation Join($brandId: UUID!, $waitlistId: UUID!, $input: JoinWaitlistInput!) {
    joinWaitlist(brandId: $brandId, waitlistId: $waitlistId, input: $input) { entry { ${ENTRY_FIELDS} } }
  }
`;

export const LEAVE = /* GraphQL */ `
  mutation Leave($brandId: UUID!, $entryId: UUID!) { leaveWaitlist(brandId: $brandId, entryId: $entryId) { entry { ${ENTRY_FIELDS} } } }
`;

export const WAITLIST = /* GraphQL */ `
  query Waitlist($brandId: UUID!, $id: UUID!, $at: String, $statuses: [WaitlistEntryStatus!]) {
    waitlist(brandId: $brandId, id: $id) { uuid experienceId entries(sessionStartDateTime: $at, statuses: $statuses) { ${ENTRY_FIELDS} } }
  }
`;

/** The invariants of places: never oversold, `reserved` and `heldForOffers` each equal what holds them. */
export async function placeInvariants(db: TestDb, sessionId: string) {
  const one = (sql: string) => db.value<number>(sql, sessionId);
  const session = (await db.one('SELECT capacity, reserved, held_for_offers AS held FROM sessions WHERE id = ?', sessionId)) as {
    capacity: number;
    reserved: number;
    held: number;
  };
  expect(session.reserved + session.held).toBeLessThanOrEqual(session.capacity);
  expect(session.reserved).toBe(
    await one(`SELECT count(*) FROM participants p JOIN bookings b ON b.id = p.booking_id
         WHERE b.session_id = ? AND b.status IN ('processing', 'confirmed') AND p.cancelled_at IS NULL`),
  );
  expect(session.held).toBe(
    await one("SELECT coalesce(sum(party_size), 0) FROM waitlist_entries WHERE session_id = ? AND status = 'offered'"),
  );
  return session;
}

/**
 * A EUR brand and its organization's sister brand, an outsider, their keys, the Sunset Sail (Adult
 * 45.50, Child 20.00; 1 to 6 guests a booking) with its waitlist, and an app on a settable clock with
 * offers lasting OFFER_TTL seconds (and `appOptions`, e.g. a trusted proxy).
 */
export async function waitlistWorld(appOptions: StartOptions = {}) {
  const clock = { now: new Date(CHECKOUT_NOW) };
  const db = await freshDb();
  const { brand, sister, outsider, keys } = await createBrandFamily(db);
  const sail = (await createExperience(db, brand.id, { title: 'Sunset Sail', minimumRequiredToBook: 1, maximumAllowedToBook: 6 }))
    .experience;
  const waitlist = await createWaitlist(db, sail.id);
  const walk = (await createExperience(db, sister.id, { title: 'Night Walk', timezoneId: 'Asia/Tokyo' })).experience;
  const sisterWaitlist = await createWaitlist(db, walk.id);
  const payments = new SandboxProcessor({ now: () => clock.now });

  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startApp(db, { now: () => clock.now, payments, holdTtlSeconds: 900, waitlistOfferTtlSeconds: OFFER_TTL, ...appOptions });
  });
  const t = () => {
    if (!app) throw new Error('the app starts in beforeAll');
    return app;
  };

  let day = 0;
  return {
    db,
    clock,
    brand,
    sister,
    outsider,
    keys,
    sail,
    waitlist,
    walk,
    sisterWaitlist,
    t,
    /** A fresh session of the sail (its own day), `booked` of its `capacity` places taken by one confirmed booking. */
    async session(capacity = 4, booked = capacity) {
      day += 1;
      const s = await createSession(db, sail, { startLocal: `2027-01-${String(day).padStart(2, '0')}T18:00:00`, capacity });
      const booking =
        booked > 0
          ? await createBooking(db, { brandId: brand.id, session: s, participants: Array.from({ length: booked }, () => ({})) })
          : null;
      return { ...s, booking };
    },
    /** A join body for `s` with a party of `size` (purchaser `email`). */
    body(s: { startLocal: string; durationMinutes: number }, size = 2, email = `guest-${randomUUID().slice(0, 8)}@example.test`) {
      return {
        sessionStartDate: s.startLocal.slice(0, 10),
        sessionStartTime: s.startLocal.slice(11, 16),
        sessionDuration: s.durationMinutes,
        purchaser: { firstName: 'Marta', lastName: 'Reis', emailAddress: email, phoneNumber: '+351 912 000 111' },
        participants: Array.from({ length: size }, (_, i) => ({
          firstName: `Guest${i + 1}`,
          lastName: 'Reis',
          priceTierName: i === 0 ? 'Adult' : 'Child',
        })),
      };
    },
    join: (body: object, key = keys.brand, waitlistId: string = waitlist.id, brandId: string = brand.id) =>
      t().rest('POST', `/v1/brands/${brandId}/waitlists/${waitlistId}/entries`, { key, body }),
    gqlJoin: (input: object, key = keys.brand, waitlistId: string = waitlist.id, brandId: string = brand.id) =>
      t().gql(JOIN, { brandId, waitlistId, input }, { key }),
    entries: async (query = '', key = keys.brand) =>
      (await t().rest('GET', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries${query}`, { key })).body.data as Array<
        Record<string, unknown>
      >,
    checkout: (body: object, cartId: string = randomUUID(), key = keys.brand) =>
      t().rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, { key, body }),
    later: (seconds: number) => new Date(new Date(CHECKOUT_NOW).getTime() + seconds * 1000),
    invariants: (sessionId: string) => placeInvariants(db, sessionId),
    status: (entryId: string) => db.value<string>('SELECT status FROM waitlist_entries WHERE id = ?', entryId),
  };
}
