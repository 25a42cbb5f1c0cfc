/**
 * What every database adapter must do, whatever its engine: the guards money and places depend on hold
 * when requests race, a transaction is all or nothing, savepoints undo only their own writes. Each adapter
 * runs this suite with fixtures of its own (an adapter's test setup writes rows the port never creates).
 * The races are real for the adapter: N transactions started together, each doing its check and write.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/shared/database.ts';

export interface ContractFixtures {
  /** A session of a new brand's experience with `capacity` places, none taken. */
  session(capacity: number): Promise<{ id: string; experienceId: string }>;
  /** A confirmed booking of a new brand whose payment of `amountMinor` succeeded. */
  paidBooking(amountMinor: number): Promise<{ id: string; brandId: string }>;
  /** A credit code of a new brand with `balanceMinor` left, and a booking of that brand to redeem it for. */
  creditCode(balanceMinor: number): Promise<{ id: string; brandId: string; bookingId: string }>;
  /** A new brand. */
  brand(): Promise<{ id: string }>;
}

export interface ContractSubject {
  database: Database;
  fixtures: ContractFixtures;
}

const AT = '2026-11-24T12:00:00.000Z';
/** An instant `seconds` after AT. */
const later = (seconds: number) => new Date(Date.parse(AT) + seconds * 1000).toISOString();

/** Runs `count` transactions at once, each calling `work`; how many `work` calls answered true. */
async function race(
  database: Database,
  count: number,
  work: (tx: Parameters<Parameters<Database['transaction']>[0]>[0], i: number) => Promise<boolean>,
) {
  const outcomes = await Promise.all(Array.from({ length: count }, (_, i) => database.transaction((tx) => work(tx, i))));
  return outcomes.filter(Boolean).length;
}

export function describeStoreContract(adapter: string, open: () => Promise<ContractSubject>): void {
  describe(`store contract: ${adapter}`, () => {
    describe('places', () => {
      it('takes places only while they remain: 20 racing takes of 1 for 5 places, exactly 5 succeed', async () => {
        const { database, fixtures } = await open();
        const session = await fixtures.session(5);
        expect(await race(database, 20, (tx) => tx.capacity.takePlaces(session.id, 1))).toBe(5);
        expect(await database.capacity.takePlaces(session.id, 1)).toBe(false);
        await database.capacity.releasePlaces(session.id, 2);
        expect(await database.capacity.takePlaces(session.id, 2)).toBe(true);
        expect(await database.capacity.takePlaces(session.id, 1)).toBe(false);
      });

      it('never sells places held for a waitlist offer, and gives them back when the offer ends', async () => {
        const { database, fixtures } = await open();
        const session = await fixtures.session(4);
        expect(await database.waitlists.holdForOffer(session.id, 3)).toBe(true);
        expect(await database.capacity.takePlaces(session.id, 2)).toBe(false);
        expect(await database.waitlists.holdForOffer(session.id, 2)).toBe(false);
        expect(await database.capacity.takePlaces(session.id, 1)).toBe(true);
        await database.waitlists.releaseOfferHold(session.id, 3);
        expect(await race(database, 6, (tx) => tx.capacity.takePlaces(session.id, 1))).toBe(3);
      });
    });

    describe('money', () => {
      it('reserves refunds only up to the amount paid: 15 racing 10.00 reservations on 100.00, exactly 10 succeed', async () => {
        const { database, fixtures } = await open();
        const booking = await fixtures.paidBooking(10_000);
        expect(await race(database, 15, (tx) => tx.cancellation.reserveRefundAmount(booking.id, 1_000, AT))).toBe(10);
        expect(await database.cancellation.reserveRefundAmount(booking.id, 1, AT)).toBe(false);
        await database.cancellation.releaseRefundAmount(booking.id, 2_500, AT);
        expect(await database.cancellation.reserveRefundAmount(booking.id, 2_501, AT)).toBe(false);
        expect(await database.cancellation.reserveRefundAmount(booking.id, 2_500, AT)).toBe(true);
      });

      it('redeems credit only while the balance covers it: 8 racing redemptions of 20.00 from 50.00, exactly 2 succeed', async () => {
        const { database, fixtures } = await open();
        const credit = await fixtures.creditCode(5_000);
        const redeemed = await race(database, 8, (tx) =>
          tx.checkout.redeemCredit({ id: randomUUID(), bookingId: credit.bookingId, creditCodeId: credit.id, amountMinor: 2_000 }),
        );
        expect(redeemed).toBe(2);
        const [code] = await database.checkout.creditCodesByCode(credit.brandId, ['CONTRACT-CREDIT']);
        expect(code?.balanceMinor).toBe(1_000);
      });
    });

    describe('leases and idempotency records', () => {
      it('lets exactly one of racing takeovers have an Idempotency-Key record whose lease it read', async () => {
        const { database } = await open();
        const apiKeyId = randomUUID();
        await database.idempotency.insertRunningRecord({ apiKeyId, key: 'k', requestHash: 'h', leaseExpiresAt: AT, createdAt: AT });
        const seen = (await database.idempotency.findIdempotencyRecord(apiKeyId, 'k'))!.leaseExpiresAt;
        expect(await race(database, 6, (tx, i) => tx.idempotency.takeOverRecord(apiKeyId, 'k', seen, later(i + 1)))).toBe(1);
        expect(await database.idempotency.takeOverRecord(apiKeyId, 'k', seen, later(60))).toBe(false);
      });

      it('refuses a second running record for the same key', async () => {
        const { database } = await open();
        const row = { apiKeyId: randomUUID(), key: 'k', requestHash: 'h', leaseExpiresAt: AT, createdAt: AT };
        await database.idempotency.insertRunningRecord(row);
        await expect(database.idempotency.insertRunningRecord(row)).rejects.toThrow();
      });

      it('leases a pending refund to exactly one of racing reconcilers', async () => {
        const { database, fixtures } = await open();
        const booking = await fixtures.paidBooking(5_000);
        const id = randomUUID();
        await database.transaction(async (tx) => {
          expect(await tx.cancellation.reserveRefundAmount(booking.id, 1_000, AT)).toBe(true);
          await tx.refunds.insertPendingRefund({
            id,
            bookingId: booking.id,
            amountMinor: 1_000,
            effect: { cancel: false, participantIds: null, also: null },
            at: AT,
          });
        });
        const seen = (await database.refunds.findRefund(id))!.nextAttemptAt!;
        expect(await race(database, 5, (tx, i) => tx.refunds.leaseRefund(id, seen, `2026-11-25T12:0${i}:00.000Z`))).toBe(1);
      });
    });

    describe('sealed values (key rotation)', () => {
      it('pages through stored answers in key order and swaps one only while it is still the value read', async () => {
        const { database } = await open();
        const apiKeyId = randomUUID();
        for (const key of ['c', 'a', 'b', 'running']) {
          await database.idempotency.insertRunningRecord({ apiKeyId, key, requestHash: 'h', leaseExpiresAt: AT, createdAt: AT });
          if (key !== 'running') await database.idempotency.completeRecord(apiKeyId, key, 201, `sealed-${key}`);
        }
        const mine = async (after: { apiKeyId: string; key: string } | null, limit: number) =>
          (await database.idempotency.sealedAnswersPage(after, limit)).filter((row) => row.apiKeyId === apiKeyId);
        // Other tests' records may sort before or after this key's: page from its first record.
        const first = await mine({ apiKeyId, key: '' }, 2);
        expect(first).toEqual([
          { apiKeyId, key: 'a', responseBody: 'sealed-a' },
          { apiKeyId, key: 'b', responseBody: 'sealed-b' },
        ]);
        expect(await mine({ apiKeyId, key: 'b' }, 5)).toEqual([{ apiKeyId, key: 'c', responseBody: 'sealed-c' }]);
        expect(await race(database, 4, (tx, i) => tx.idempotency.replaceSealedAnswer(apiKeyId, 'a', 'sealed-a', `new-${i}`))).toBe(1);
        expect(await database.idempotency.replaceSealedAnswer(apiKeyId, 'b', 'not-what-is-stored', 'new')).toBe(false);
        expect((await database.idempotency.findIdempotencyRecord(apiKeyId, 'b'))!.responseBody).toBe('sealed-b');
        expect((await database.idempotency.findIdempotencyRecord(apiKeyId, 'a'))!.responseBody).toMatch(/^new-\d$/);
      });

      it("pages through endpoints' sealed secrets by id, deleted ones too, and swaps one only while it is still the value read", async () => {
        const { database, fixtures } = await open();
        const brand = await fixtures.brand();
        const ids: string[] = [randomUUID(), randomUUID(), randomUUID()].sort();
        for (const [i, id] of ids.entries()) {
          await database.webhooks.insertWebhookEndpoint({
            id,
            createdAt: AT,
            brandId: brand.id,
            url: 'https://hooks.partner.test/',
            eventTypes: ['booking.created'],
            secretCiphertext: `sealed-${i}`,
            deletedAt: i === 1 ? AT : null,
          });
        }
        const all = [];
        for (let after: string | null = null; ;) {
          const page = await database.webhooks.sealedSecretsPage(after, 2);
          all.push(...page);
          if (page.length < 2) break;
          after = page[page.length - 1]!.id;
        }
        expect(all.filter((row) => ids.includes(row.id))).toEqual(ids.map((id, i) => ({ id, secretCiphertext: `sealed-${i}` })));
        expect(all.map((row) => row.id)).toEqual([...all.map((row) => row.id)].sort());
        expect(await race(database, 4, (tx, i) => tx.webhooks.replaceSealedSecret(ids[0]!, 'sealed-0', `new-${i}`))).toBe(1);
        expect(await database.webhooks.replaceSealedSecret(ids[2]!, 'sealed-0', 'new')).toBe(false);
        expect((await database.webhooks.findWebhookEndpoint(ids[2]!))!.secretCiphertext).toBe('sealed-2');
      });
    });

    describe('units of work', () => {
      it('commits all of a transaction or, when it throws, none of it: events, deliveries and places alike', async () => {
        const { database, fixtures } = await open();
        const session = await fixtures.session(3);
        const { id: brandId } = await fixtures.brand();
        const event = { brandId, type: 'booking.created', resourceId: randomUUID(), payload: { n: 1 }, createdAt: AT };
        await expect(
          database.transaction(async (tx) => {
            await tx.capacity.takePlaces(session.id, 3);
            await tx.events.insertEvent({ ...event, id: randomUUID() });
            throw new Error('the change failed');
          }),
        ).rejects.toThrow('the change failed');
        expect(await database.events.findEventPage(brandId, 0, null, 10)).toEqual([]);
        expect(await database.capacity.takePlaces(session.id, 3)).toBe(true);

        const stored = await database.transaction(async (tx) => tx.events.insertEvent({ ...event, id: randomUUID() }));
        expect((await database.events.findEventPage(brandId, 0, null, 10)).map((e) => e.id)).toEqual([stored.id]);
      });

      it('numbers events in the order their transactions commit', async () => {
        const { database, fixtures } = await open();
        const { id: brandId } = await fixtures.brand();
        const stored = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            database.transaction((tx) =>
              tx.events.insertEvent({
                id: randomUUID(),
                brandId,
                type: 'booking.created',
                resourceId: `r${i}`,
                payload: {},
                createdAt: AT,
              }),
            ),
          ),
        );
        const page = await database.events.findEventPage(brandId, 0, null, 10);
        expect(page.map((e) => e.sequence)).toEqual([...stored.map((e) => e.sequence)].sort((a, b) => a - b));
        expect(new Set(page.map((e) => e.sequence)).size).toBe(5);
      });

      it('undoes only a failed savepoint’s writes', async () => {
        const { database, fixtures } = await open();
        const session = await fixtures.session(5);
        await database.transaction(async (tx) => {
          expect(await tx.capacity.takePlaces(session.id, 2)).toBe(true);
          await expect(
            tx.savepoint(async (sp) => {
              await sp.capacity.takePlaces(session.id, 3);
              throw new Error('not honoured');
            }),
          ).rejects.toThrow('not honoured');
        });
        expect(await database.capacity.takePlaces(session.id, 4)).toBe(false);
        expect(await database.capacity.takePlaces(session.id, 3)).toBe(true);
      });

      it('changes the data version when something is committed, and only then', async () => {
        const { database, fixtures } = await open();
        const before = await database.dataVersion();
        expect(await database.dataVersion()).toBe(before);
        const session = await fixtures.session(2);
        const afterSetup = await database.dataVersion();
        await database.capacity.takePlaces(session.id, 1);
        expect(await database.dataVersion()).not.toBe(afterSetup);
      });
    });
  });
}
