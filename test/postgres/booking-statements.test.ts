/**
 * What a T6 booking (the bench's write mix: hold two places, pay, cancel a guest, refund part; see
 * bench/lib/write-mix.ts) sends PostgreSQL, request by request: the statements, and the transactions
 * they make (each BEGIN ... COMMIT one, each statement outside one a transaction of its own). The API-key
 * lookup is left out (statementsSent): it runs when the data version moved, which other test files'
 * commits on the same server move too. A ceiling, so a change that adds a statement to the booking path
 * is seen (issue 38 aimed at 30 statements in 12 transactions), and the name each statement is sent under:
 * every one but BEGIN and COMMIT is named, prepared once per connection, one text per name.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { startApp } from '../support/app.ts';
import { guest } from '../support/checkout.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { statementsSent, tally } from '../support/statements.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { cancelMutation, holdMutation } from '../../fixtures/graphql/documents.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

describePostgres('a T6 booking on PostgreSQL', () => {
  it('sends 29 statements in 6 transactions over its four requests, each named but BEGIN and COMMIT', async () => {
    const brand = await createBrand(db!);
    const key = (await createApiKey(db!, { brandId: brand.id })).secret;
    const sail = (await createExperience(db!, brand.id)).experience;
    await createSession(db!, sail, { startLocal: '2027-01-05T18:00:00', capacity: 1000 });
    const t = await startApp(db!, { now: () => new Date('2026-11-25T12:00:00.000Z') });

    const steps = {
      hold: async (guests: string[]): Promise<{ secret: string; bookingId: string; guestId: string }> => {
        const input = {
          data: [{ experienceId: sail.id, sessionTime: '2027-01-05T18:00:00', participants: guests.map((name) => guest(name)) }],
        };
        const res = await t.gql(holdMutation, { brandId: brand.id, cartId: randomUUID(), input }, { key });
        const answer = res.body.data.createPaymentIntent;
        return {
          secret: answer.paymentIntentSecret,
          bookingId: answer.cart.bookings[0].uuid,
          guestId: answer.cart.bookings[0].participants[1].uuid,
        };
      },
      pay: async (secret: string) => {
        const res = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
          body: { paymentIntentSecret: secret, outcome: 'succeeded' },
        });
        expect(res.body.paymentIntentStatus).toBe('succeeded');
      },
      cancel: async (item: Record<string, unknown>) => {
        const res = await t.gql(cancelMutation, { input: { bookings: [item] } }, { key });
        expect(res.body.data.cancelBookings.errors).toStrictEqual([]);
        return res.body.data.cancelBookings.items[0];
      },
    };
    type Sent = { sql: string[]; names: Array<string | undefined> };
    // Every text sent under each name, over both bookings: a name keeps one text (PostgreSQL refuses another).
    const texts = new Map<string, Set<string>>();
    const booking = async (guests: string[], count: (name: string, sent: Sent) => void) => {
      const seen = (name: string, sent: Sent) => {
        sent.names.forEach((statement, i) => statement && texts.set(statement, (texts.get(statement) ?? new Set()).add(sent.sql[i]!)));
        count(name, sent);
      };
      const hold = await statementsSent(db!, () => steps.hold(guests));
      seen('hold', hold);
      const { secret, bookingId, guestId } = hold.result;
      seen('pay', await statementsSent(db!, () => steps.pay(secret)));
      seen('cancel a guest', await statementsSent(db!, () => steps.cancel({ bookingId, participants: [guestId] })));
      const refund = await statementsSent(db!, () => steps.cancel({ bookingId, refundAmount: 10 }));
      expect(refund.result.amountRefunded).toBe(10);
      seen('refund part', refund);
    };
    // Warm: named statements prepared, caches filled; three guests, so a statement whose text varies with
    // the number of rows shows as two texts of one name.
    await booking(['Ana', 'Rui', 'Eva'], () => {});
    const perRequest: Record<string, { statements: number; transactions: number }> = {};
    const named: Record<string, string[]> = {};
    await booking(['Ana', 'Rui'], (name, { sql, names }) => {
      perRequest[name] = tally(sql);
      named[name] = names.map((n, i) => n ?? 'unnamed: ' + sql[i]!.trim().split(/\s+/)[0]!.toLowerCase());
      if (process.env.PRINT_SQL) console.log('=== ' + name + '\n' + sql.map((q) => q.replace(/\s+/g, ' ').slice(0, 400)).join('\n'));
    });
    // Every statement named (parsed and planned once per connection), but the transactions' BEGIN and COMMIT.
    const [begin, commit] = ['unnamed: begin', 'unnamed: commit'];
    expect(named).toStrictEqual({
      hold: [
        // Its lists (one experience, one start) sent one element long: planned once per connection.
        'checkout_reads_1',
        begin,
        'checkout_checks',
        'create_cart_with_intent',
        'take_item_places',
        'insert_booking',
        'write_events',
        commit,
      ],
      pay: [begin, 'settle_payment_by_secret', 'bookings_confirmed_cart_paid', 'write_events', commit],
      'cancel a guest': [
        begin,
        'booking_to_cancel_locked',
        'cancel_participants',
        'release_places',
        'waiting_entries_of_session',
        'write_events',
        commit,
      ],
      // Two units: the refund reserved, then (the processor called between them) settled.
      'refund part': [
        begin,
        'booking_to_cancel_locked',
        'reserve_pending_refund',
        commit,
        begin,
        'settle_refund',
        'booking_to_cancel_locked',
        'write_events',
        commit,
      ],
    });
    expect([...texts].filter(([, shapes]) => shapes.size > 1).map(([name]) => name)).toStrictEqual([]);
    const total = Object.values(perRequest).reduce(
      (sum, r) => ({ statements: sum.statements + r.statements, transactions: sum.transactions + r.transactions }),
      {
        statements: 0,
        transactions: 0,
      },
    );
    if (process.env.PRINT_SQL) console.log('COUNTS ' + JSON.stringify(perRequest));
    // 80 statements before the outbox became one statement a unit (issue 38's first step), 72 after; 71 with
    // the cart created held; 69 with the payment settling the cart from what it wrote; 68 with participants
    // and booking cancelled in one statement; 67 (25 transactions) with the released session returned by its
    // UPDATE; 62 in 20 transactions with the GraphQL answers of the hold (its new cart) and of each cancel
    // item taken from what their units wrote instead of read again after them; 61 with a checkout's fresh
    // confirmation codes (cart and booking) checked in one statement; 60 with one question (sweepDue)
    // instead of the two sweeps' reads when nothing has lapsed; 58 in 18 with a cancel item's booking read
    // once, locked in its unit (which also checks visibility), not before the unit too; 57 with the bookings
    // a payment settles locked as they are read (test/postgres/locking-reads.test.ts); 56 with the hold's
    // booking.created made from the rows its unit inserted instead of reading them back; 55 with the booking
    // and its participants inserted in one statement (data-modifying CTEs); 51 in 14 with the data version
    // kept in memory (heard on the listening connection) instead of read with a statement of its own at
    // each request; 49 with a cancel or refund unit's events (and answer) built from the booking it read
    // locked and what it wrote, not read again; 48 with a payment's booking.confirmed built so too (its
    // bookings' records read with them, locked); 47 with a payment's confirmations and its cart written in
    // one statement; 44 in 13 with a payment's intent read once, locked, in its unit (the sandbox's confirm
    // names it by its secret's hash there, instead of reading it before the unit), its status set in that
    // same statement (a CTE of the locking read), and the cart's checkouts read with the locked bookings;
    // 42 in 11 with GraphQL's session { remaining } of a cancel or refund taken from its units (the session
    // read with the booking, or as its release returned it) instead of read after COMMIT; 38 in 7 with the
    // hold's five reads before its unit (brand, questions, the cart's holds, experiences, sessions) made one
    // statement (CheckoutStore.readCheckout: subqueries giving JSON); 37 with a payment's bookings and cart's
    // checkouts read, locked, in the statement that locks and settles its intent (settleIntentWithPayment: the
    // payment read again when the intent or a booking is newer than the statement's snapshot), and every
    // statement of the payment's unit but BEGIN, COMMIT and the outbox's named;
    // 36 with a refund's reservation on the booking and its pending row written in one named statement
    // (CancellationStore.reservePendingRefund: a data-modifying CTE, the INSERT only when the guarded UPDATE
    // matched); 33 with a cancel or refund unit's booking locked as it is read (findBookingToCancel, with the
    // xmin re-read check: every settled refund writes its booking too, so a count of pending refunds that went
    // stale while the read waited shows; test/postgres/cancel-locking-read.test.ts); 32 in 6 with GraphQL's
    // session { remaining } of a hold taken from its unit (the row its places guard returned,
    // CapacityStore.takeItemPlaces) instead of read after COMMIT; 31 with a checkout unit's first question
    // (sweepDue) asking about its fresh confirmation codes too (CheckoutStore.checkoutChecks); 29 with a new cart
    // inserted first (ON CONFLICT (id) DO NOTHING, the lock and read of the cart only when it exists) with its
    // payment intent in the same statement (a data-modifying CTE); still 29 with the outbox's statement named
    // (its rows passed as arrays, unnested: one text whatever the number of events and deliveries).
    // Per request, statements/transactions: hold 8/2, pay 5/1, cancel a guest 7/1, refund part 9/2.
    // PRINT_SQL=1 prints each request's statements and these counts.
    expect(perRequest['hold']!.statements).toBeGreaterThan(0);
    expect(total.statements).toBeLessThanOrEqual(29);
    expect(total.transactions).toBeLessThanOrEqual(6);
  });
});
