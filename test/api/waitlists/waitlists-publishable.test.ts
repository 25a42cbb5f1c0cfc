/**
 * Waitlists answer a publishable key (anyone's: it ships in a shop's page) nothing that confirms a
 * fact about someone else (issue 34, item 8): a join with an e-mail address already waiting is answered
 * as a join is, without the existing entry's id; an entry read by its id (leaving it, watching it
 * live) comes without e-mail addresses and phone numbers. Secret keys keep ALREADY_ON_WAITLIST and
 * the contacts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { listen, sseClient, subscribe, subscriptionsRunning, wsClient, type Listening } from '../../support/live.ts';
import { ENTRY_FIELDS, WAITLIST, waitlistWorld } from '../../support/waitlist-world.ts';

const w = await waitlistWorld();
const { db, brand, keys, waitlist } = w;
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
let at: Listening;

beforeAll(async () => {
  at = await listen(w.t().app);
});

const entriesOf = async (email: string) => {
  const res = await w.t().gql(WAITLIST, { brandId: brand.id, id: waitlist.id }, { key: keys.brand });
  return res.body.data.waitlist.entries
    .filter((e: { purchaser: { emailAddress: string } }) => e.purchaser.emailAddress.toLowerCase() === email.toLowerCase())
    .map((e: { id: string; status: string }) => [e.id, e.status]);
};

describe('joining twice with a publishable key', () => {
  it('is answered as a join (201, an entry of its own id, the next place in line), and records nothing', async () => {
    const s = await w.session(2);
    const first = await w.join(w.body(s, 1, 'rita.lobo@example.test'), publishable);
    expect([first.status, first.body.position]).toEqual([201, 1]);

    const again = w.body(s, 2, 'Rita.Lobo@Example.TEST');
    const duplicate = await w.join(again, publishable);
    expect(duplicate.status).toBe(201);
    expect(duplicate.body.id).not.toBe(first.body.id);
    expect(duplicate.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      waitlistId: waitlist.id,
      status: 'waiting',
      position: 2,
      sessionStartDateTime: s.startLocal,
      timezone: w.sail.timezoneId,
      purchaser: { firstName: 'Marta', lastName: 'Reis', emailAddress: 'Rita.Lobo@Example.TEST', phoneNumber: '+351 912 000 111' },
      participants: [
        { firstName: 'Guest1', lastName: 'Reis', priceTierName: 'Adult', emailAddress: null, phoneNumber: null },
        { firstName: 'Guest2', lastName: 'Reis', priceTierName: 'Child', emailAddress: null, phoneNumber: null },
      ],
      createdAt: w.clock.now.toISOString(),
      offerExpiresAt: null,
      convertedBookingId: null,
    });
    // A stranger's real join looks the same: the next place in line is still 2.
    const stranger = await w.join(w.body(s, 2), publishable);
    expect([stranger.status, stranger.body.position, Object.keys(stranger.body)]).toEqual([201, 2, Object.keys(duplicate.body)]);

    // The first entry stands, alone; the answer's id names nothing.
    expect(await entriesOf('rita.lobo@example.test')).toEqual([[first.body.id, 'WAITING']]);
    const leave = await w.t().rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/${duplicate.body.id}`, {
      key: publishable,
    });
    expect([leave.status, leave.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('is answered as a join through GraphQL too', async () => {
    const s = await w.session(2);
    expect((await w.join(w.body(s, 1, 'ines@example.test'), publishable)).status).toBe(201);
    const res = await w.gqlJoin(w.body(s, 1, 'ines@example.test'), publishable);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.joinWaitlist.entry).toMatchObject({ status: 'WAITING', position: 2 });
  });

  it('still answers ALREADY_ON_WAITLIST to a secret key, on both faces', async () => {
    const s = await w.session(2);
    expect((await w.join(w.body(s, 1, 'joao@example.test'), publishable)).status).toBe(201);
    const rest = await w.join(w.body(s, 1, 'joao@example.test'));
    expect([rest.status, rest.body.error.code, rest.body.error.details.field]).toEqual([
      409,
      'ALREADY_ON_WAITLIST',
      'purchaser.emailAddress',
    ]);
    const gql = await w.gqlJoin(w.body(s, 1, 'joao@example.test'));
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'ALREADY_ON_WAITLIST', field: 'purchaser.emailAddress' });
  });
});

const contactsOf = (entry: { purchaser: object; participants: object[] }) =>
  [entry.purchaser, ...entry.participants].map((p) => {
    const { emailAddress, phoneNumber } = p as { emailAddress: string | null; phoneNumber: string | null };
    return [emailAddress, phoneNumber];
  });

describe('an entry read by its id', () => {
  it('leaves the line without its contacts for a publishable key, on both faces', async () => {
    const s = await w.session(2);
    const rest = await w.join(w.body(s, 1, 'ana@example.test'));
    const left = await w.t().rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/${rest.body.id}`, {
      key: publishable,
    });
    expect([left.status, left.body.status, contactsOf(left.body)]).toEqual([
      200,
      'cancelled',
      [
        [null, null],
        [null, null],
      ],
    ]);
    const gqlJoined = await w.join(w.body(s, 1, 'rui@example.test'));
    const LEAVE = `mutation($b: UUID!, $e: UUID!) { leaveWaitlist(brandId: $b, entryId: $e) { entry { ${ENTRY_FIELDS} } } }`;
    const gql = await w.t().gql(LEAVE, { b: brand.id, e: gqlJoined.body.id }, { key: publishable });
    expect(contactsOf(gql.body.data.leaveWaitlist.entry)).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(gql.body.data.leaveWaitlist.entry.purchaser).toMatchObject({ firstName: 'Marta', lastName: 'Reis' });
  });

  it('is sent live without contacts to a publishable key (WebSocket and SSE), with them to a secret key', async () => {
    const s = await w.session(2);
    const joined = await w.join(w.body(s, 1, 'carla@example.test'));
    const UPDATED = `subscription($b: UUID!, $e: UUID!) { waitlistEntryUpdated(brandId: $b, entryId: $e) { uuid status
      purchaser { firstName emailAddress phoneNumber } participants { firstName emailAddress phoneNumber } } }`;
    const variables = { b: brand.id, e: joined.body.id };
    const running = w.t().app.liveConnections.subscriptions;
    const byWs = subscribe(wsClient(at.ws, { key: publishable }), UPDATED, variables);
    const bySse = subscribe(sseClient(at.http, { key: publishable }), UPDATED, variables);
    const bySecret = subscribe(wsClient(at.ws, { key: keys.brand }), UPDATED, variables);
    await subscriptionsRunning(w.t().app, running + 3);

    // A guest cancels: the place goes to the entry as an offer.
    const cancelled = await w.t().rest('POST', '/v1/bookings/cancel', {
      key: keys.brand,
      body: { bookings: [{ bookingId: s.booking!.booking.id, participants: [s.booking!.participants[0]!.id] }] },
    });
    expect(cancelled.status).toBe(200);
    const masked = {
      uuid: joined.body.id,
      status: 'OFFERED',
      purchaser: { firstName: 'Marta', emailAddress: null, phoneNumber: null },
      participants: [{ firstName: 'Guest1', emailAddress: null, phoneNumber: null }],
    };
    expect(await byWs.next()).toEqual({ data: { waitlistEntryUpdated: masked } });
    expect(await bySse.next()).toEqual({ data: { waitlistEntryUpdated: masked } });
    expect(await bySecret.next()).toEqual({
      data: {
        waitlistEntryUpdated: {
          ...masked,
          purchaser: { firstName: 'Marta', emailAddress: 'carla@example.test', phoneNumber: '+351 912 000 111' },
        },
      },
    });
  });
});
