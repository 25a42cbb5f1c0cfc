/**
 * The PostgreSQL unit of work with two gateways (two pools) in one process on one database: the guards
 * hold across them, a unit that reads the session it acts on then writes runs as if alone, a unit that throws leaves nothing,
 * savepoints undo only their own writes, and the data version moves when another gateway commits. (Two
 * SQLite connections in one process cannot take turns: better-sqlite3 waits for SQLite's file lock on
 * the event loop. Several processes on one file can, and test/api/operations/gateways.test.ts runs two
 * gateway processes on either engine.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/domain/shared/database.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { connect } from '../../src/db/connect.ts';
import { freshPostgresDb } from '../support/db.ts';
import { describePostgres } from '../support/postgres.ts';
import { waitFor } from '../support/webhook-receiver.ts';

describePostgres('PostgreSQL unit of work on two gateways', () => {
  let db: Awaited<ReturnType<typeof freshPostgresDb>>;
  let gateways: Database[] = [];
  let experience: { id: string; timezoneId: string };
  let lastFour: { id: string; startLocal: string };
  let readThenWrite: typeof lastFour;
  let rolledBack: typeof lastFour;
  let versioned: typeof lastFour;
  beforeAll(async () => {
    db = await freshPostgresDb();
    const second = await connect(db.url);
    gateways = [db.database, second.database];
    const brand = await createBrand(db);
    ({ experience } = await createExperience(db, brand.id));
    const sessionOf = (day: number, capacity: number, reserved = 0) =>
      createSession(db, experience, { startLocal: `2027-03-${String(day).padStart(2, '0')}T10:00:00`, capacity, reserved });
    lastFour = await sessionOf(1, 10, 6);
    readThenWrite = await sessionOf(2, 10);
    rolledBack = await sessionOf(3, 10);
    versioned = await sessionOf(4, 10);
  });
  afterAll(() => gateways[1]?.close());

  const reservedOf = async (session: { startLocal: string }) =>
    (await gateways[0]!.sessions.findSessionAt(experience.id, session.startLocal))!.reserved;

  it('sells exactly the last 4 places when 30 takes race on two gateways', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => gateways[i % 2]!.transaction((tx) => tx.capacity.takePlaces(lastFour.id, 1))),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(4);
    expect(await reservedOf(lastFour)).toBe(10);
  });

  it('runs a unit that reads the session it acts on, then writes, as if it were alone: of 12 racing "take 3 if none is taken", one takes', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        gateways[i % 2]!.transaction(async (tx) => {
          const session = await tx.waitlists.findSessionById(readThenWrite.id);
          if (session!.reserved > 0) return false;
          return tx.capacity.takePlaces(readThenWrite.id, 3);
        }),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await reservedOf(readThenWrite)).toBe(3);
  });

  it('leaves nothing of a unit that throws, and undoes only the savepoint that throws', async () => {
    await expect(
      gateways[0]!.transaction(async (tx) => {
        await tx.capacity.takePlaces(rolledBack.id, 5);
        throw new Error('payment refused');
      }),
    ).rejects.toThrow('payment refused');
    expect(await reservedOf(rolledBack)).toBe(0);

    await gateways[1]!.transaction(async (tx) => {
      await tx.capacity.takePlaces(rolledBack.id, 2);
      await expect(
        tx.savepoint(async (sp) => {
          await sp.capacity.takePlaces(rolledBack.id, 4);
          throw new Error('not honoured');
        }),
      ).rejects.toThrow('not honoured');
      expect(await tx.savepoint((sp) => sp.capacity.takePlaces(rolledBack.id, 1))).toBe(true);
    });
    expect(await reservedOf(rolledBack)).toBe(3);
  });

  it('moves the data version of one gateway when a unit of work on another has committed', async () => {
    // Not asserted: that it stays put while the unit is open (the version may be the server's snapshot,
    // before the gateway listens, which other test files' databases move too). Once the gateway listens,
    // another's commit is heard when its notification arrives (test/postgres/data-version.test.ts).
    let whileOpen = '';
    await gateways[1]!.transaction(async (tx) => {
      await tx.capacity.takePlaces(versioned.id, 1);
      whileOpen = await gateways[0]!.dataVersion();
    });
    await waitFor('the commit heard', async () => (await gateways[0]!.dataVersion()) !== whileOpen, 1000);
    expect(await reservedOf(versioned)).toBe(1);
  });
});
