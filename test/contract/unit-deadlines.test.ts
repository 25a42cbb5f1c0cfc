/**
 * A unit of work given a deadline (UnitOptions.signal: its request's) writes nothing once the deadline
 * has passed, whether it passed while the unit waited for its turn or while the unit ran, and waits for
 * its turn a bounded time; each of these rejects with DatabaseOverloadedError. A unit without a deadline
 * waits as long as it takes.
 */
import { describe, expect, it } from 'vitest';
import { admissionDefaults } from '../../src/db/admission.ts';
import { DatabaseOverloadedError } from '../../src/domain/shared/database.ts';
import { freshDb } from '../support/db.ts';
import { holdEveryTurn } from '../support/turns.ts';
import { contractFixtures } from './world.ts';

const db = await freshDb();
const { database } = db;
const fixtures = contractFixtures(db);

/** Places taken of a session, read back through the seeder. */
const reserved = async (sessionId: string) => (await db.row('sessions', { id: sessionId }))!.reserved;

describe('store contract: units of work with a deadline', () => {
  it('does not run a unit whose deadline has already passed', async () => {
    const session = await fixtures.session(3);
    let ran = false;
    const unit = database.transaction(
      async (tx) => {
        ran = true;
        return tx.capacity.takePlaces(session.id, 1);
      },
      { signal: AbortSignal.abort() },
    );
    await expect(unit).rejects.toBeInstanceOf(DatabaseOverloadedError);
    expect(ran).toBe(false);
    expect(await reserved(session.id)).toBe(0);
  });

  it('undoes what a unit wrote when its deadline passes before it commits', async () => {
    const session = await fixtures.session(3);
    const client = new AbortController();
    const unit = database.transaction(
      async (tx) => {
        const taken = await tx.capacity.takePlaces(session.id, 2);
        client.abort();
        return taken;
      },
      { signal: client.signal },
    );
    await expect(unit).rejects.toBeInstanceOf(DatabaseOverloadedError);
    expect(await reserved(session.id)).toBe(0);
    // The next unit, without a deadline, finds every place.
    expect(await database.transaction((tx) => tx.capacity.takePlaces(session.id, 3))).toBe(true);
  });

  it('leaves the queue at once when its deadline passes while it waits for its turn, and never runs', async () => {
    const session = await fixtures.session(3);
    const turns = await holdEveryTurn(db);
    const client = new AbortController();
    let ran = false;
    const waiting = database.transaction(
      async (tx) => {
        ran = true;
        return tx.capacity.takePlaces(session.id, 1);
      },
      { signal: client.signal },
    );
    client.abort();
    // Rejected while every turn is still held: it did not wait for one.
    await expect(waiting).rejects.toBeInstanceOf(DatabaseOverloadedError);
    await turns.release();
    expect(ran).toBe(false);
    expect(await reserved(session.id)).toBe(0);
  });

  it(`waits for its turn ${admissionDefaults.queueTimeoutMs} ms at most with a deadline, and as long as it takes without one`, async () => {
    const session = await fixtures.session(3);
    const turns = await holdEveryTurn(db);
    const started = Date.now();
    const bounded = database.transaction((tx) => tx.capacity.takePlaces(session.id, 1), { signal: new AbortController().signal });
    const patient = database.transaction((tx) => tx.capacity.takePlaces(session.id, 2));
    await expect(bounded).rejects.toThrow(
      `A unit of work waited ${admissionDefaults.queueTimeoutMs} ms for its turn (WRITE_QUEUE_TIMEOUT_MS)`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(admissionDefaults.queueTimeoutMs - 5);
    await turns.release();
    expect(await patient).toBe(true);
    expect(await reserved(session.id)).toBe(2);
  });
});
