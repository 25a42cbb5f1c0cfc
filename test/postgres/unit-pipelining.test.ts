/**
 * A unit of work's BEGIN goes to PostgreSQL with its first statement and its COMMIT with its last
 * (src/db/postgres/unit-pipelining.ts): the order of what the gateway sends and what it hears back shows
 * neither waits for an answer. And what that changes when a statement fails: a unit whose last statement
 * fails leaves nothing (the COMMIT behind it ends the transaction as a rollback) and no connection in a
 * failed transaction; a unit that sends nothing starts no transaction; a connection whose BEGIN failed
 * goes back to the pool only once everything sent behind it has been answered.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { LIVENESS_CHECK } from '../../src/db/postgres/listener.ts';
import type { PooledUnitConnection } from '../../src/db/postgres/unit-pipelining.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

describePostgres('a unit of work on PostgreSQL, pipelined', () => {
  let brandId: string;
  let session: { id: string; startLocal: string };
  let experienceId: string;
  beforeAll(async () => {
    brandId = (await createBrand(db!)).id;
    const { experience } = await createExperience(db!, brandId);
    experienceId = experience.id;
    session = await createSession(db!, experience, { startLocal: '2027-04-01T10:00:00', capacity: 100 });
  });

  // What the gateway puts on the wire (a statement's name, or its first word), as node-postgres submits it
  // (at once in pipeline mode, else once the answer before has come), and each answer it hears (a ReadyForQuery,
  // noted before node-postgres handles it and sends what waited for it).
  let timeline: string[] = [];
  const undo: Array<() => void> = [];
  const record = () => {
    timeline = [];
    const prototype = pg.Query.prototype as unknown as { submit(this: { name?: string; text: string }, ...args: unknown[]): unknown };
    const submit = prototype.submit;
    prototype.submit = function (...args) {
      if (this.text !== LIVENESS_CHECK) timeline.push(`send ${this.name ?? this.text.trim().split(/\s+/)[0]!.toUpperCase()}`);
      return submit.apply(this, args);
    };
    undo.push(() => (prototype.submit = submit));
    const pool = db!.pg.$client;
    const heard = () => timeline.push('answer');
    const listen = (client: pg.PoolClient) => {
      const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
      connection.prependListener('readyForQuery', heard);
      undo.push(() => connection.off('readyForQuery', heard));
    };
    pool.on('acquire', listen);
    undo.push(() => pool.off('acquire', listen));
  };
  afterEach(() => {
    for (const done of undo.splice(0)) done();
  });

  const reserved = async () => (await db!.database.sessions.findSessionAt(experienceId, session.startLocal))!.reserved;
  const event = (createdAt: string) => ({
    id: randomUUID(),
    brandId,
    type: 'booking.created',
    resourceId: randomUUID(),
    payload: {},
    createdAt,
  });

  it('sends its BEGIN with its first statement and its COMMIT with its last, waiting for neither answer', async () => {
    const before = await reserved();
    record();
    await db!.database.transaction(async (tx) => {
      expect(await tx.capacity.takePlaces(session.id, 2)).toBe(true);
      await tx.events.insertEvent(event('2027-04-01T09:00:00.000Z'));
    });
    const take = timeline[1]!;
    expect(take).toMatch(/^send /);
    expect(timeline).toStrictEqual(['send BEGIN', take, 'answer', 'answer', 'send write_events', 'send COMMIT', 'answer', 'answer']);
    expect(await reserved()).toBe(before + 2);
  });

  it('leaves nothing of a unit whose last statement fails, and no connection in a failed transaction', async () => {
    const before = await reserved();
    await expect(
      db!.database.transaction(async (tx) => {
        await tx.capacity.takePlaces(session.id, 3);
        // The events' statement fails as the server casts this instant: the unit's last statement.
        await tx.events.insertEvent(event('not an instant'));
      }),
    ).rejects.toThrow();
    expect(await reserved()).toBe(before);
    const stuck = await db!.pg.$client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    );
    expect(stuck.rows[0]!.n).toBe(0);
    // Every connection of the pool takes a unit again.
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => db!.database.transaction((tx) => tx.capacity.takePlaces(session.id, 1))),
    );
    expect(outcomes).toStrictEqual(Array.from({ length: 8 }, () => true));
  });

  it('starts no transaction for a unit that sends no statement', async () => {
    record();
    expect(await db!.database.transaction(async () => 'nothing to do')).toBe('nothing to do');
    expect(timeline).toStrictEqual([]);
  });

  it('hears the answers to everything sent behind a failed BEGIN before the unit ends', async () => {
    record();
    const connection = (await db!.pg.$client.connect()) as unknown as PooledUnitConnection;
    try {
      connection.beginWithNext('BEGIN ISOLATION LEVEL NONE');
      connection.commitWithNext();
      // Runs on (outside any transaction, the BEGIN having failed) and answers well after the BEGIN's error.
      const slow = connection.query('SELECT pg_sleep(0.2)');
      await expect(connection.commit()).rejects.toThrow(/syntax error/);
      expect(timeline).toStrictEqual(['send BEGIN', 'send SELECT', 'send COMMIT', 'answer', 'answer', 'answer']);
      await slow;
    } finally {
      connection.release();
    }
  });
});
