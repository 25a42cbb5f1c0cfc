/**
 * The port on SQLite. better-sqlite3 is synchronous and its transactions cannot span an `await`, so a
 * unit of work here runs inside BEGIN IMMEDIATE ... COMMIT on the one connection, with an async lock
 * around it: while a unit runs, every other call (another unit, or a store call outside one) waits, so
 * no request ever sees or joins another's unfinished work. Units that follow each other closely share
 * one COMMIT (group commit, below), each in a savepoint of its own; a call outside any transaction
 * never runs while a group is uncommitted. Calls made while nothing is open run at once. Other
 * processes on the same file are kept apart by SQLite's own locking (BEGIN IMMEDIATE takes the write
 * lock; WAL readers see only committed data).
 */
import { Mutex } from 'async-mutex';
import type { Database, Transaction } from '../../domain/shared/database.ts';
import { admission, admissionDefaults, gone, type AdmissionSettings } from '../admission.ts';
import type { Engine } from '../engine.ts';
import { sqliteSeeder } from './seeder.ts';
import { closeDatabase, openDatabase, type Db } from './client.ts';
import { dataGeneration } from './generation.ts';
import { settled, sqliteStoreBinding, type CallRunner, type SqliteStores } from './store-binding.ts';
import { sqliteStores } from './stores/index.ts';
import { reportingUnavailable } from '../unavailable.ts';

class TransactionEnded extends Error {
  constructor() {
    super('A store of a transaction was used after the transaction ended');
  }
}

/** Counts the calls and units that may have written, on every connection of this process (see dataVersion). */
let writesInProcess = 0;

/** At most this many units of work share one COMMIT, so the first of a group waits for few others. */
const MAX_GROUP = 32;

/** A unit of work that finished inside the open SQLite transaction and waits for its COMMIT. */
interface Finished {
  resolve: () => void;
  reject: (error: unknown) => void;
}

function sqliteDatabaseOver(db: Db, settings: AdmissionSettings): { database: Database; outside: CallRunner } {
  const client = db.$client;
  const lock = new Mutex();
  const begin = client.prepare('BEGIN IMMEDIATE');
  const commit = client.prepare('COMMIT');
  const rollback = client.prepare('ROLLBACK');
  const unitBegins = client.prepare('SAVEPOINT unit');
  const unitKept = client.prepare('RELEASE unit');
  const unitUndone = client.prepare('ROLLBACK TO unit');
  const generation = dataGeneration(db);

  // The data version as last read, answered without another statement (a tenth of a cached answer's
  // time) to a request received before that read began: any commit, by this process or another, that
  // such a request could have known of was already visible to the read. Anything that may write on any
  // connection of this process (every call outside a transaction, a unit of work's start and end, every
  // COMMIT and ROLLBACK) counts in writesInProcess, and a version read before is not reused; nor is one
  // while a group holds the lock. A caller that does not say when its request arrived is not served one.
  let known: { version: string; readAt: number; writes: number } | null = null;
  const mayHaveWritten = () => {
    writesInProcess += 1;
  };
  const readGeneration = () => {
    const readAt = performance.now();
    const version = generation();
    known = { version, readAt, writes: writesInProcess };
    return version;
  };
  // Otherwise the read waits for the end of this turn of the event loop (setImmediate), and serves every
  // caller until it begins: each asked, so its request had arrived, before the read. Under load one
  // read then serves the requests that arrived together (every socket the turn read) instead of each
  // reading in turn, as the request before it was answered.
  let nextRead: Promise<string> | null = null;
  const readSoon = () =>
    new Promise<string>((resolve, reject) => {
      setImmediate(() => {
        nextRead = null;
        outside(readGeneration).then(resolve, reject);
      });
    });

  // onEventsCommitted: events recorded since the last COMMIT (or autocommitted call) mark the connection,
  // and the listeners hear of it once that COMMIT is on disk. A unit rolled back after recording one
  // leaves the mark for the next COMMIT: a hint for nothing, which the port allows. Commits of other
  // processes on the same file are not heard of here: the live hub's timer finds them.
  const eventListeners = new Set<() => void>();
  let eventsRecorded = false;
  const stores: SqliteStores = {
    ...sqliteStores,
    events: {
      ...sqliteStores.events,
      insertEvent: (connection, event) => {
        eventsRecorded = true;
        sqliteStores.events.insertEvent(connection, event);
      },
      insertEventForSubscribers: (connection, event) => {
        eventsRecorded = true;
        sqliteStores.events.insertEventForSubscribers(connection, event);
      },
    },
  };
  const announceEvents = () => {
    if (!eventsRecorded || client.inTransaction) return;
    eventsRecorded = false;
    // After the caller's promise settles, never inside the commit: a listener's failure is its own.
    setImmediate(() => {
      for (const listener of [...eventListeners]) {
        try {
          listener();
        } catch {
          // A hint: the listener reads on its own timer too.
        }
      }
    });
  };

  // Group commit. With synchronous=FULL every COMMIT waits for the disk on the event loop (a fifth of
  // the loop's time under the write mix); units of work queued behind the lock therefore run one after
  // the other inside one SQLite transaction, each in a savepoint of its own (a unit that throws undoes
  // only its writes), and one COMMIT makes the whole group durable. A unit's promise settles only after
  // that COMMIT: nothing is answered before it is on disk, and if the COMMIT fails every unit of the
  // group fails, as none of them was written. The group commits as soon as no other unit waits, as soon
  // as a call outside any transaction waits (it must never see uncommitted writes), or at MAX_GROUP.
  let group: Finished[] | null = null;
  let callsWaiting = 0;
  // Units wait for the lock through admission (src/db/admission.ts): a request's unit is refused when
  // too many wait, and leaves the queue when its deadline passes. A unit that gave up and gets the lock
  // later hands it straight on, through handOver when a group is open, so that group still commits.
  const units = admission(
    settings,
    () => lock.acquire(),
    (release) => (group ? handOver(group, release) : release()),
  );

  // Outside a transaction: at once when the connection is free, else after the open group commits, and
  // before the units waiting (a higher priority): reads are served even while writes queue.
  const outside: CallRunner = (call) => {
    const announced = () => {
      mayHaveWritten();
      try {
        return call();
      } finally {
        announceEvents();
      }
    };
    if (!lock.isLocked()) return settled(announced);
    callsWaiting += 1;
    return lock.runExclusive(() => {
      callsWaiting -= 1;
      return announced();
    }, 1);
  };
  const binding = sqliteStoreBinding(stores);
  const root = binding.all({ db, run: outside });

  function openTransaction(): { tx: Transaction; end: () => void } {
    let open = true;
    let savepoints = 0;
    const inside: CallRunner = (call) => (open ? settled(call) : Promise.reject(new TransactionEnded()));
    const tx: Transaction = Object.assign(binding.unit({ db, run: inside }), {
      async savepoint<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
        if (!open) throw new TransactionEnded();
        const name = `sp${++savepoints}`;
        client.exec(`SAVEPOINT ${name}`);
        try {
          const result = await work(tx);
          client.exec(`RELEASE ${name}`);
          return result;
        } catch (error) {
          client.exec(`ROLLBACK TO ${name}`);
          client.exec(`RELEASE ${name}`);
          throw error;
        }
      },
    });
    return { tx, end: () => (open = false) };
  }

  /** Rolls the whole SQLite transaction back, if the connection still has one. */
  function abandon(): void {
    mayHaveWritten();
    try {
      if (client.inTransaction) rollback.run();
    } catch {
      // A connection that cannot roll back is closed or broken: SQLite drops the uncommitted transaction itself.
    }
  }

  /** Ends the group: COMMIT, then every finished unit of it learns its outcome. */
  function commitGroup(finished: Finished[]): void {
    group = null;
    try {
      commit.run();
    } catch (error) {
      mayHaveWritten();
      abandon();
      for (const unit of finished) unit.reject(error);
      return;
    }
    mayHaveWritten();
    for (const unit of finished) unit.resolve();
    announceEvents();
  }

  /** Undoes what one unit wrote: its savepoint, or the whole transaction when the unit was the group's first. */
  function undoUnit(first: boolean): void {
    if (!client.inTransaction) return;
    if (first) return abandon();
    try {
      unitUndone.run();
      unitKept.run();
    } catch {
      abandon();
    }
  }

  /**
   * After a unit: the group commits now when a call outside any transaction waits (it must not see
   * uncommitted writes) or the group is full; stays open for the units waiting for the lock; and when
   * nobody waits yet, stays open for one turn of the event loop, so the writes of requests already
   * received join this COMMIT instead of each paying for their own.
   */
  function handOver(current: Finished[], release: () => void): void {
    const next = () => {
      if (units.waiting === 0 || callsWaiting > 0 || current.length >= MAX_GROUP) commitGroup(current);
      release();
    };
    if (units.waiting === 0 && callsWaiting === 0 && current.length < MAX_GROUP) setImmediate(next);
    else next();
  }

  const dataVersion = (receivedAt?: number): Promise<string> =>
    known !== null && receivedAt !== undefined && receivedAt <= known.readAt && known.writes === writesInProcess && !lock.isLocked()
      ? Promise.resolve(known.version)
      : (nextRead ??= readSoon());

  const database: Database = {
    ...root,
    async transaction(work, options) {
      const signal = options?.signal;
      const release = await units.take(signal);
      mayHaveWritten();
      let current: Finished[];
      try {
        if (group === null) {
          begin.run();
          group = [];
        }
        current = group;
      } catch (error) {
        release();
        throw error;
      }
      // The first unit of a group needs no savepoint: if it throws, the whole transaction is its own.
      const first = current.length === 0;
      const { tx, end } = openTransaction();
      let outcome: { ok: true; value: Awaited<ReturnType<typeof work>> } | { ok: false; error: unknown };
      try {
        if (!first) unitBegins.run();
        const value = await work(tx);
        // Nobody waits for this unit's answer any more: what it wrote is undone rather than committed.
        if (signal?.aborted) throw gone();
        if (!first) unitKept.run();
        outcome = { ok: true, value };
      } catch (error) {
        outcome = { ok: false, error };
        undoUnit(first);
      } finally {
        end();
        mayHaveWritten();
      }
      const durable = outcome.ok ? new Promise<void>((resolve, reject) => current.push({ resolve, reject })) : null;
      if (client.inTransaction) handOver(current, release);
      else {
        // Rolled back (the group's first unit threw, or an undo failed), or ended by SQLite itself (an
        // I/O error, a full disk): nothing the group held was written.
        group = null;
        const error = outcome.ok ? new Error('The database ended the transaction before its COMMIT') : outcome.error;
        for (const unit of current) unit.reject(error);
        release();
      }
      if (!outcome.ok) throw outcome.error;
      await durable;
      return outcome.value;
    },
    dataVersion,
    // The whole file's version: reading it costs no statement that matters here, and the lookup it saves is cheap.
    keysVersion: dataVersion,
    onEventsCommitted(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    async close() {
      eventListeners.clear();
      await lock.waitForUnlock();
      closeDatabase(db);
    },
  };
  return { database, outside };
}

const engines = new WeakMap<Db, Engine>();

/**
 * The port and a seeder over an open connection: one per connection, so everything using that
 * connection shares its lock (the tests seed the connection the app runs on).
 */
/** SQLite's failures that mean the file cannot take work now: full, locked past the busy timeout, I/O, out of memory, read-only. */
export function sqliteUnavailable(error: object): boolean {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && /^SQLITE_(FULL|BUSY|LOCKED|IOERR|CANTOPEN|NOMEM|READONLY)/.test(code);
}

export function sqliteEngine(db: Db, settings: AdmissionSettings = admissionDefaults): Engine {
  let engine = engines.get(db);
  if (!engine) {
    const { database, outside } = sqliteDatabaseOver(db, settings);
    // Inside a unit of work the connection is the unit's: seeder calls run at once, in its transaction.
    const inside: ReturnType<typeof sqliteSeeder> = sqliteSeeder(db, settled, (work) => work(inside));
    engine = {
      name: 'sqlite',
      database: reportingUnavailable(database, sqliteUnavailable),
      seeder: sqliteSeeder(db, outside, (work) => database.transaction(() => work(inside))),
      seed: (work) => database.transaction((tx) => work(inside, tx)),
    };
    engines.set(db, engine);
  }
  return engine;
}

/** Opens (creating and migrating when needed) the SQLite database at `url`, a file path or `:memory:`. */
export function openSqliteDatabase(url: string, settings?: AdmissionSettings): Engine & { connection: Db } {
  const connection = openDatabase(url);
  return { ...sqliteEngine(connection, settings), connection };
}
