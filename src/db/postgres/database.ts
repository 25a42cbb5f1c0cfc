/**
 * The port on PostgreSQL. A unit of work is one transaction on a connection of its own from the pool, at
 * SERIALIZABLE isolation, and units run at the same time, on this gateway and on every other of the
 * database: PostgreSQL guarantees that they have the effect of running one after another, which is what
 * the port promises ("what it read cannot change under it before it commits"). A transaction it cannot
 * fit into such an order fails with a serialization failure (SQLSTATE 40001) or a deadlock (40P01) and
 * is run again from its start, for up to RETRY_BUDGET_MS: `work` awaits only the transaction's own
 * stores (the port's rule), so running it again is safe. The guards money and places depend on stay
 * single conditional statements, so they hold at any isolation level. The events a unit records are
 * numbered as it commits (outbox.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PoolClient } from 'pg';
import type { Engine } from '../engine.ts';
import { closePostgres, type PgDb } from './client.ts';
import { postgresSeeder } from './seeder.ts';
import { bindStores, type PgExecutor, type PostgresStores } from './store-binding.ts';
import { postgresStores } from './stores/index.ts';
import { keepInto, openOutbox, writeOutbox, type Outbox } from './outbox.ts';
import { executorOf } from './executors.ts';

type PostgresSeeder = ReturnType<typeof postgresSeeder>;

/** The stores of one open transaction, and savepoints inside it (the port's `Transaction`, for the stores `S`). */
export type TransactionOf<S> = S & {
  /** Runs `work` in a savepoint: if it throws, what it wrote is undone and the error goes on. */
  savepoint<T>(work: (tx: TransactionOf<S>) => Promise<T>): Promise<T>;
};

/** The port's `Database`, for the stores `S`: once `S` is every store of the port, it is that interface. */
export type DatabaseOf<S> = S & {
  transaction<T>(work: (tx: TransactionOf<S>) => Promise<T>): Promise<T>;
  dataVersion(): Promise<string>;
  close(): Promise<void>;
};

/** How long a unit of work is run again after serialization failures before the last one is thrown. */
const RETRY_BUDGET_MS = 10_000;
/** The longest pause between two runs; the pause is random below it, so colliding units spread out. */
const MAX_PAUSE_MS = 50;
const RETRYABLE = new Set(['40001', '40P01']);

/** The SQLSTATE of a failed statement, through Drizzle's wrapping of the driver's error. */
function sqlState(error: unknown): string | undefined {
  for (let current = error; typeof current === 'object' && current !== null; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** A unit of work's transaction, its Drizzle executor and its connection. */
type UnitWork<S, T> = (tx: TransactionOf<S>, executor: PgExecutor, connection: PoolClient) => Promise<T>;

function unitsOf<S>(
  db: PgDb,
  implementations: PostgresStores<S>,
): { database: DatabaseOf<S>; runUnit: <T>(work: UnitWork<S, T>) => Promise<T> } {
  // The stores of a transaction (or savepoint) whose events wait in `outbox`; a savepoint that is kept
  // hands what it recorded to its parent's.
  const transactionOf = (executor: PgExecutor, outbox: Outbox): TransactionOf<S> => ({
    ...bindStores(implementations, executor),
    savepoint: (work) =>
      executor.transaction(async (inner) => {
        const recorded = openOutbox(inner);
        const result = await work(transactionOf(inner, recorded));
        keepInto(outbox, recorded);
        return result;
      }),
  });

  const attempt = async <T>(work: UnitWork<S, T>): Promise<T> => {
    const connection = await db.$client.connect();
    try {
      return await executorOf(connection).transaction(
        async (tx) => {
          const outbox = openOutbox(tx);
          const result = await work(transactionOf(tx, outbox), tx, connection);
          await writeOutbox(tx, outbox);
          return result;
        },
        { isolationLevel: 'serializable' },
      );
    } finally {
      connection.release();
    }
  };

  const runUnit = async <T>(work: UnitWork<S, T>): Promise<T> => {
    const deadline = Date.now() + RETRY_BUDGET_MS;
    for (let tries = 1; ; tries += 1) {
      try {
        return await attempt(work);
      } catch (error) {
        if (Date.now() >= deadline || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
        // A short random pause, growing with the attempts up to MAX_PAUSE_MS, so the units that collided do not collide again.
        await sleep(Math.random() * Math.min(MAX_PAUSE_MS, 2 ** tries));
      }
    }
  };

  const database = {
    ...bindStores(implementations, db),
    transaction: (work) => runUnit((tx) => work(tx)),
    /**
     * The server's current snapshot (`xmin:xmax:in-progress xids`): it changes when a transaction that
     * wrote ends, at the moment its changes become visible (xmax moves past it, or it leaves the list of
     * in-progress ones), and not while one is open. Equal values at two moments thus mean the same
     * committed writes are visible, on every gateway of the database. (The WAL insert position would move
     * when the commit record is written, before the commit is flushed and visible: a response computed in
     * that window would be cached under the new position with the old data.) It also moves for other
     * databases of the cluster and for rolled-back writes, which only costs caches a miss. One round trip,
     * no lock, nothing written.
     */
    async dataVersion() {
      const result = await db.$client.query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
      return result.rows[0]!.snapshot;
    },
    close: () => closePostgres(db),
  } as DatabaseOf<S>;
  return { database, runUnit };
}

export function postgresDatabase<S>(db: PgDb, implementations: PostgresStores<S>): DatabaseOf<S> {
  return unitsOf(db, implementations).database;
}

/** A seeder of its own transaction on one pooled connection: nested transactions are that one. */
async function seederTransaction<T>(db: PgDb, work: (seeder: PostgresSeeder) => Promise<T>): Promise<T> {
  const connection = await db.$client.connect();
  let broken: Error | undefined;
  try {
    await connection.query('BEGIN');
    try {
      const inside: PostgresSeeder = postgresSeeder(executorOf(connection), connection, (nested) => nested(inside));
      const result = await work(inside);
      await connection.query('COMMIT');
      return result;
    } catch (error) {
      await connection.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw error;
    }
  } finally {
    connection.release(broken);
  }
}

/** The port and a seeder on the PostgreSQL database of `db`. */
export function postgresEngine(db: PgDb): Engine {
  const { database, runUnit } = unitsOf(db, postgresStores);
  return {
    name: 'postgresql',
    database,
    seeder: postgresSeeder(db, db.$client, (work) => seederTransaction(db, work)),
    seed: (work) =>
      runUnit((tx, executor, connection) => {
        const inside: PostgresSeeder = postgresSeeder(executor, connection, (nested) => nested(inside));
        return work(inside, tx);
      }),
  };
}
