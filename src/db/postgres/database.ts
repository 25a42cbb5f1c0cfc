/**
 * The port on PostgreSQL. A unit of work is one READ COMMITTED transaction on a connection of its own
 * from the pool, and units run at the same time, on this gateway and on every other of the database.
 * What keeps the port's promises (ARCHITECTURE.md, "Concurrency on PostgreSQL"): the guards money and
 * places depend on are single conditional statements, which hold at any isolation level; a unit that
 * reads a row to decide what to write locks that row first (lockInUnit, in the store that reads it), so
 * units acting on the same booking, intent, cart, session or entry run one after the other while all
 * others overlap. A unit that fails with a deadlock (40P01) or a serialization failure (40001) is run
 * again from its start, for up to RETRY_BUDGET_MS; one that fails with a unique violation (23505), which
 * a concurrent unit inserting the same key causes (two first uses of one idempotency key, one new cart
 * id, one confirmation code), is run again up to UNIQUE_RETRIES times and then finds that unit's row.
 * `work` awaits only the transaction's own stores (the port's rule), so running it again is safe. The
 * events a unit records are numbered as it commits (outbox.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Semaphore } from 'async-mutex';
import type { UnitOptions } from '../../domain/shared/database.ts';
import { admission, admissionDefaults, gone, type AdmissionSettings } from '../admission.ts';
import type { Engine } from '../engine.ts';
import { closePostgres, type PgDb } from './client.ts';
import { readConnections } from './defaults.ts';
import { postgresSeeder } from './seeder.ts';
import { postgresStoreBinding, type PgExecutor, type PostgresStores } from './store-binding.ts';
import { postgresStores } from './stores/index.ts';
import { EVENTS_CHANNEL, keepInto, openOutbox, writeOutbox, type Outbox } from './outbox.ts';
import { executorOf, unitTransaction } from './executors.ts';
import type { PooledUnitConnection } from './unit-pipelining.ts';
import { reportingUnavailable } from '../unavailable.ts';
import { eventHints } from './event-hints.ts';
import { DATA_CHANNEL, dataVersion, type DataVersion, KEYS_CHANNEL } from './data-version.ts';
import { listenOn, type Listener, type ListenerOptions } from './listener.ts';
import { ownWritesOf } from './own-writes.ts';

type PostgresSeeder = ReturnType<typeof postgresSeeder>;

/** The stores of one open transaction, and savepoints inside it (the port's `Transaction`, for the stores `S`). */
export type TransactionOf<S> = S & {
  /** Runs `work` in a savepoint: if it throws, what it wrote is undone and the error goes on. */
  savepoint<T>(work: (tx: TransactionOf<S>) => Promise<T>): Promise<T>;
};

/** The port's `Database`, for the stores `S`: once `S` is every store of the port, it is that interface. */
export type DatabaseOf<S> = S & {
  transaction<T>(work: (tx: TransactionOf<S>) => Promise<T>, options?: UnitOptions): Promise<T>;
  dataVersion(receivedAt?: number): Promise<string>;
  keysVersion(receivedAt?: number): Promise<string>;
  onEventsCommitted(listener: () => void): () => void;
  close(): Promise<void>;
};

/** How long a unit of work is run again after deadlocks and serialization failures before the last one is thrown. */
const RETRY_BUDGET_MS = 10_000;
/** The longest pause between two runs; the pause is random below it, so colliding units spread out. */
const MAX_PAUSE_MS = 50;
const RETRYABLE = new Set(['40001', '40P01']);
const UNIQUE_VIOLATION = '23505';
/** Runs again after unique violations: a race of two needs one; a violation that persists is the unit's own. */
const UNIQUE_RETRIES = 2;
/** Each unit's transaction: READ COMMITTED named, whatever the role's default (see the header). */
const BEGIN = 'BEGIN ISOLATION LEVEL READ COMMITTED';

/** The SQLSTATE of a failed statement, through Drizzle's wrapping of the driver's error. */
function sqlState(error: unknown): string | undefined {
  for (let current = error; typeof current === 'object' && current !== null; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** A unit of work's transaction, its Drizzle executor and its connection. */
type UnitWork<S, T> = (tx: TransactionOf<S>, executor: PgExecutor, connection: PooledUnitConnection) => Promise<T>;

/**
 * How many units of work of this gateway hold a connection at once: the pool less its reads' share
 * (`readConnections`, a fifth, one at least) when it has two connections or more, so reads outside units
 * always find a connection while writes queue (they would otherwise wait in the pool's queue behind every unit).
 */
export function unitSlots(poolSize: number): number {
  return poolSize < 2 ? 1 : poolSize - readConnections(poolSize);
}

function unitsOf<S>(
  db: PgDb,
  implementations: PostgresStores<S>,
  settings: AdmissionSettings,
  listenerOptions: ListenerOptions,
): { database: DatabaseOf<S>; runUnit: <T>(work: UnitWork<S, T>, signal?: AbortSignal) => Promise<T> } {
  // The stores of a transaction (or savepoint) whose events wait in `outbox`; a savepoint that is kept
  // hands what it recorded to its parent's.
  const stores = postgresStoreBinding(implementations);
  const transactionOf = (executor: PgExecutor, outbox: Outbox): TransactionOf<S> =>
    Object.assign(stores.unit(executor), {
      savepoint: <T>(work: (tx: TransactionOf<S>) => Promise<T>) =>
        executor.transaction(async (inner) => {
          const recorded = openOutbox(inner);
          const result = await work(transactionOf(inner, recorded));
          keepInto(outbox, recorded);
          return result;
        }),
    }) as TransactionOf<S>;

  // A unit's transaction: its BEGIN goes with its first statement and its COMMIT with its last
  // (unit-pipelining.ts), so the transaction costs no round trip of its own.
  const attempt = async <T>(work: UnitWork<S, T>, signal: AbortSignal | undefined): Promise<T> => {
    const connection = (await db.$client.connect()) as PooledUnitConnection;
    let broken: Error | undefined;
    try {
      if (signal?.aborted) throw gone();
      const tx = unitTransaction(executorOf(connection));
      connection.beginWithNext(BEGIN);
      try {
        const outbox = openOutbox(tx);
        const result = await work(transactionOf(tx, outbox), tx, connection);
        // Nobody waits for this unit's answer any more: it is rolled back rather than committed.
        if (signal?.aborted) throw gone();
        await writeOutbox(tx, outbox, () => connection.commitWithNext());
        await connection.commit();
        return result;
      } catch (error) {
        // A connection whose ROLLBACK failed is not given back to the pool; the unit's own error goes on.
        await connection.rollback().catch((rollback: Error) => (broken = rollback));
        throw error;
      }
    } finally {
      connection.release(broken);
    }
  };

  // A unit waits for a slot (admission: bounded for a request's units), then for a connection of the
  // pool (bounded by its connect timeout), and keeps the slot through its runs again.
  const slots = new Semaphore(unitSlots(db.$client.options.max));
  const units = admission(
    settings,
    () => slots.acquire().then(([, release]) => release),
    (release) => release(),
  );

  const runUnit = async <T>(work: UnitWork<S, T>, signal?: AbortSignal): Promise<T> => {
    const release = await units.take(signal);
    try {
      const deadline = Date.now() + RETRY_BUDGET_MS;
      let uniqueViolations = 0;
      for (let tries = 1; ; tries += 1) {
        try {
          return await attempt(work, signal);
        } catch (error) {
          const state = sqlState(error) ?? '';
          if (state === UNIQUE_VIOLATION) uniqueViolations += 1;
          const again = RETRYABLE.has(state) || (state === UNIQUE_VIOLATION && uniqueViolations <= UNIQUE_RETRIES);
          if (Date.now() >= deadline || !again) throw error;
          // A short random pause, growing with the attempts up to MAX_PAUSE_MS, so the units that collided do not collide again.
          await sleep(Math.random() * Math.min(MAX_PAUSE_MS, 2 ** tries));
        }
      }
    } finally {
      release();
    }
  };

  // One listening connection for the events hint and the data version, opened when either is first asked for.
  const version: DataVersion = dataVersion(db.$client, ownWritesOf(db.$client), () => listener.start());
  const hints = eventHints(() => listener);
  const listener: Listener = listenOn(
    db.$client,
    [EVENTS_CHANNEL, DATA_CHANNEL, KEYS_CHANNEL],
    {
      notified(channel) {
        version.notified(channel);
        hints.notified(channel);
      },
      listening() {
        version.listening();
        hints.listening();
      },
      deaf: () => version.deaf(),
    },
    listenerOptions,
  );
  const database = {
    ...stores.all(db),
    transaction: (work, options) => runUnit((tx) => work(tx), options?.signal),
    /** See data-version.ts: in memory while the gateway listens, the server's snapshot otherwise. */
    dataVersion: () => version.current(),
    keysVersion: () => version.keys(),
    onEventsCommitted: (listener) => hints.onEventsCommitted(listener),
    async close() {
      version.close();
      await listener.close();
      await closePostgres(db);
    },
  } as DatabaseOf<S>;
  return { database, runUnit };
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
/** Node's errors of a connection that could not be made or was cut. */
const NETWORK_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a statement the server stopped because it took too long: cancelled by the statement
 * timeout (57014), a lock waited for past the lock timeout (55P03), a session ended after idling in a
 * transaction past its timeout (25P03).
 */
const TIMED_OUT = new Set(['57014', '55P03', '25P03']);

/**
 * The failures that mean the server cannot take work now: SQLSTATE classes 08 (connection), 53 (out of
 * disk, memory or connections) and 57P (shutting down, restarting, not accepting connections yet), the
 * statements it stopped for taking too long (TIMED_OUT), the network's errors, and node-postgres' own
 * for a connection that ended or could not be had in time.
 */
export function postgresUnavailable(error: object): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (/^(08|53|57P)/.test(code) || TIMED_OUT.has(code) || NETWORK_FAILURES.has(code))) return true;
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(message)
  );
}

/** `listener`: the listening connection's liveness check and reconnect pauses (tests shorten them). */
export function postgresEngine(db: PgDb, settings: AdmissionSettings = admissionDefaults, listener: ListenerOptions = {}): Engine {
  const { database, runUnit } = unitsOf(db, postgresStores, settings, listener);
  return {
    name: 'postgresql',
    database: reportingUnavailable(database, postgresUnavailable),
    seeder: postgresSeeder(db, db.$client, (work) => seederTransaction(db, work)),
    seed: (work) =>
      runUnit((tx, executor, connection) => {
        const inside: PostgresSeeder = postgresSeeder(executor, connection, (nested) => nested(inside));
        return work(inside, tx);
      }),
  };
}
