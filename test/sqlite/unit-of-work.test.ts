/**
 * The SQLite unit of work: better-sqlite3 cannot hold a transaction across an `await`, so the adapter
 * runs each transaction on the one connection behind an async lock. These tests interleave requests on
 * purpose and prove that none sees or joins another's open transaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { closeDatabase } from '../../src/db/sqlite/client.ts';
import { startApp } from '../support/app.ts';
import { freshSqliteDb } from '../support/db.ts';

async function world() {
  const db = freshSqliteDb();
  const brand = await createBrand(db);
  const { experience } = await createExperience(db, brand.id);
  const session = await createSession(db, experience, { capacity: 10 });
  const reserved = () => db.connection.$client.prepare('SELECT reserved FROM sessions WHERE id = ?').pluck().get(session.id) as number;
  return { db, database: db.database, session, reserved, brandId: brand.id };
}

type SqliteTestDb = ReturnType<typeof freshSqliteDb>;

/** A promise and the function that settles it: lets a test hold a transaction open at a point of its choosing. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Two connections to one fresh database file, closed and removed once `use` settles. */
async function withTwoConnections(use: (one: SqliteTestDb, other: SqliteTestDb) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-uow-'));
  const one = freshSqliteDb(join(dir, 'db.sqlite'));
  const other = freshSqliteDb(join(dir, 'db.sqlite'));
  try {
    await use(one, other);
  } finally {
    closeDatabase(one.connection);
    closeDatabase(other.connection);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('SQLite unit of work', () => {
  it('keeps an open transaction to itself: a read outside waits for it and never sees what it rolls back', async () => {
    const { database, session, reserved } = await world();
    const held = gate();
    const log: string[] = [];
    const first = database
      .transaction(async (tx) => {
        await tx.capacity.takePlaces(session.id, 4);
        log.push('written, not committed');
        await held.opened;
        throw new Error('changed its mind');
      })
      .catch((error: Error) => log.push(`rolled back: ${error.message}`));
    await tick();
    // Another request reads the session while the first one's write is uncommitted on the same connection.
    const read = database.sessions.sessionsInRange(session.experienceId, '2026-01-01T00:00:00', '2027-01-01T00:00:00').then((rows) => {
      log.push(`read ${rows[0]!.session.reserved} reserved`);
    });
    await tick();
    expect(log).toEqual(['written, not committed']);
    held.open();
    await Promise.all([first, read]);
    expect(log).toEqual(['written, not committed', 'rolled back: changed its mind', 'read 0 reserved']);
    expect(reserved()).toBe(0);
  });

  it('runs two transactions that await between their steps one after the other, never interleaved', async () => {
    const { database, session, reserved } = await world();
    const log: string[] = [];
    const run = (name: string, count: number) =>
      database.transaction(async (tx) => {
        log.push(`${name} begins`);
        const took = await tx.capacity.takePlaces(session.id, count);
        await tick();
        log.push(`${name} took ${count}: ${took}`);
        await tx.capacity.releasePlaces(session.id, 1);
        log.push(`${name} ends`);
      });
    await Promise.all([run('A', 6), run('B', 6)]);
    // B's check saw A's committed 6 (5 after its release): 5 + 6 > 10, so B took nothing.
    expect(log).toEqual(['A begins', 'A took 6: true', 'A ends', 'B begins', 'B took 6: false', 'B ends']);
    expect(reserved()).toBe(4);
  });

  it('lets a write outside any transaction wait for the open one, and keeps it when that one rolls back', async () => {
    const { database, session, reserved } = await world();
    const held = gate();
    const open = database
      .transaction(async (tx) => {
        await tx.capacity.takePlaces(session.id, 3);
        await held.opened;
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await tick();
    const outside = database.capacity.takePlaces(session.id, 2);
    await tick();
    held.open();
    expect(await outside).toBe(true);
    await open;
    expect(reserved()).toBe(2);
  });

  it('refuses a transaction’s stores once it has ended, so a stray call cannot join the next transaction', async () => {
    const { database, session, reserved } = await world();
    let leaked: Parameters<Parameters<typeof database.transaction>[0]>[0] | undefined;
    await database.transaction(async (tx) => {
      leaked = tx;
    });
    const held = gate();
    const next = database.transaction(async () => {
      await held.opened;
    });
    await expect(leaked!.capacity.takePlaces(session.id, 1)).rejects.toThrow('used after the transaction ended');
    held.open();
    await next;
    expect(reserved()).toBe(0);
  });

  it('undoes a savepoint that throws while the transaction keeps what it did before', async () => {
    const { database, session, reserved } = await world();
    await database.transaction(async (tx) => {
      await tx.capacity.takePlaces(session.id, 2);
      await expect(
        tx.savepoint(async (sp) => {
          await sp.capacity.takePlaces(session.id, 5);
          throw new Error('not honoured');
        }),
      ).rejects.toThrow('not honoured');
      expect(await tx.savepoint(async (sp) => sp.capacity.takePlaces(session.id, 1))).toBe(true);
    });
    expect(reserved()).toBe(3);
  });

  it('changes its data version when another connection to the same file commits', async () => {
    await withTwoConnections(async (one, other) => {
      const database = one.database;
      const before = await database.dataVersion();
      expect(await database.dataVersion()).toBe(before);
      await createBrand(other);
      expect(await database.dataVersion()).not.toBe(before);
    });
  });

  it("gives a request that arrived after another process's commit the version that shows it", async () => {
    await withTwoConnections(async (one, other) => {
      await createBrand(other);
      const before = await one.database.dataVersion(performance.now());
      // Written as another process would: on the other connection, past this process's port.
      other.connection.$client.prepare("UPDATE brands SET name = 'Elsewhere'").run();
      expect(await one.database.dataVersion(performance.now())).not.toBe(before);
    });
  });

  /** Counts the reads of the data version statement on `db` (watched on the class of every statement). */
  function countVersionReads(db: SqliteTestDb) {
    const client = db.connection.$client;
    const statements = Object.getPrototypeOf(client.prepare('SELECT 1')) as { get: (...args: unknown[]) => unknown };
    const get = statements.get;
    const counter = { reads: 0 };
    statements.get = function (this: { database: unknown; source: string }, ...args: unknown[]) {
      if (this.database === client && this.source === 'SELECT version FROM data_generation') counter.reads += 1;
      return get.apply(this, args);
    };
    onTestFinished(() => {
      statements.get = get;
    });
    return counter;
  }

  it('reads its data version once for the requests that arrived before the read, and again after a write of its own', async () => {
    const { db, database, brandId } = await world();
    await tick();
    const counter = countVersionReads(db);
    const arrived = performance.now();
    const before = await database.dataVersion(arrived);
    expect(await Promise.all([database.dataVersion(arrived), database.dataVersion(arrived - 5)])).toEqual([before, before]);
    expect(counter.reads).toBe(1);
    // A request that arrived after the read, and a caller that does not say when: each read again.
    expect(await database.dataVersion(performance.now())).toBe(before);
    expect(counter.reads).toBe(2);
    expect(await database.dataVersion()).toBe(before);
    expect(counter.reads).toBe(3);
    // A write outside a transaction, then one in a unit of work: each seen by a request that arrived before it.
    // (Renaming the brand: places taken move no version, src/db/unversioned-tables.ts.)
    const early = performance.now();
    await database.dataVersion(early);
    await database.brandWrites.updateBrand(brandId, { name: 'Renamed' });
    const afterCall = await database.dataVersion(early);
    expect(afterCall).not.toBe(before);
    await database.transaction((tx) => tx.brandWrites.updateBrand(brandId, { name: 'Renamed again' }));
    expect(await database.dataVersion(early)).not.toBe(afterCall);
  });

  it('shares a read not yet begun with every caller who asks before it begins, and begins it after them', async () => {
    const { db, database } = await world();
    await tick();
    const counter = countVersionReads(db);
    const before = await database.dataVersion();
    expect(counter.reads).toBe(1);
    // Three callers in one turn of the event loop, one telling when its request arrived: one read.
    const versions = await Promise.all([database.dataVersion(), database.dataVersion(performance.now()), database.dataVersion()]);
    expect(versions).toEqual([before, before, before]);
    expect(counter.reads).toBe(2);
    // A write after the ask but before the read began (the same turn): the read, and so the answer, shows it.
    const asked = database.dataVersion();
    db.connection.$client.prepare("UPDATE brands SET name = 'Renamed'").run();
    expect(await asked).not.toBe(before);
    expect(counter.reads).toBe(3);
  });

  it('through HTTP: requests received together share one read, a request received after it reads again', async () => {
    const db = freshSqliteDb();
    const { app } = await startApp(db);
    await tick();
    const counter = countVersionReads(db);
    const ask = () => app.inject({ method: 'GET', url: '/v3/listings/featured', headers: { authorization: 'Bearer sk_test_nobody' } });
    const together = await Promise.all(Array.from({ length: 20 }, ask));
    expect(together.map((res) => res.statusCode)).toEqual(Array(20).fill(401));
    expect(counter.reads).toBe(1);
    await ask();
    expect(counter.reads).toBe(2);
  });

  describe('group commit', () => {
    /**
     * Counts the COMMITs the port runs on `db`, until the test ends. Its statements are prepared when the
     * port is built, which `freshSqliteDb` already did: the runs are watched on the class of every statement.
     */
    function countCommits(db: SqliteTestDb) {
      const client = db.connection.$client;
      const statements = Object.getPrototypeOf(client.prepare('SELECT 1')) as { run: (...args: unknown[]) => unknown };
      const run = statements.run;
      const counter = { commits: 0 };
      statements.run = function (this: { database: unknown; source: string }, ...args: unknown[]) {
        if (this.database === client && this.source === 'COMMIT') counter.commits += 1;
        return run.apply(this, args);
      };
      onTestFinished(() => {
        statements.run = run;
      });
      return counter;
    }

    async function groupWorld() {
      const db = freshSqliteDb();
      const counter = countCommits(db);
      const brand = await createBrand(db);
      const { experience } = await createExperience(db, brand.id);
      const session = await createSession(db, experience, { capacity: 10 });
      const reserved = () => db.connection.$client.prepare('SELECT reserved FROM sessions WHERE id = ?').pluck().get(session.id) as number;
      return { db, database: db.database, session, reserved, counter };
    }

    it('commits units that queue behind each other once, and answers each with its own result', async () => {
      const { database, session, reserved, counter } = await groupWorld();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => database.transaction(async (tx) => tx.capacity.takePlaces(session.id, 2))),
      );
      // 5 x 2 places fit in 10; each unit saw the ones before it.
      expect(results).toEqual([true, true, true, true, true, false, false, false]);
      expect(reserved()).toBe(10);
      expect(counter.commits).toBe(1);
    });

    it('undoes only the unit that throws; the rest of its group commits', async () => {
      const { database, session, reserved, counter } = await groupWorld();
      const outcomes = await Promise.allSettled([
        database.transaction(async (tx) => tx.capacity.takePlaces(session.id, 1)),
        database.transaction(async (tx) => {
          await tx.capacity.takePlaces(session.id, 4);
          throw new Error('payment refused');
        }),
        database.transaction(async (tx) => tx.capacity.takePlaces(session.id, 2)),
      ]);
      expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
        true,
        'payment refused',
        true,
      ]);
      expect(reserved()).toBe(3);
      expect(counter.commits).toBe(1);
    });

    it('serves a read outside any transaction before the units queued for the writer, once the running one committed', async () => {
      const { database, session, counter } = await groupWorld();
      const held = gate();
      const log: string[] = [];
      const running = database.transaction(async (tx) => {
        await tx.capacity.takePlaces(session.id, 1);
        await held.opened;
        log.push('running unit');
      });
      const queued = Array.from({ length: 3 }, (_, i) =>
        database.transaction(async (tx) => {
          await tx.capacity.takePlaces(session.id, 1);
          log.push(`queued unit ${i}`);
        }),
      );
      await tick();
      const read = database.sessions
        .sessionsInRange(session.experienceId, '2026-01-01T00:00:00', '2027-01-01T00:00:00')
        .then((rows) => log.push(`read ${rows[0]!.session.reserved} reserved after ${counter.commits} commit`));
      held.open();
      await Promise.all([running, ...queued, read]);
      expect(log).toEqual(['running unit', 'read 1 reserved after 1 commit', 'queued unit 0', 'queued unit 1', 'queued unit 2']);
    });

    it('gives the writer on when a unit whose deadline passed while it queued gets its turn: the group still commits', async () => {
      const { database, session, reserved } = await groupWorld();
      const held = gate();
      const client = new AbortController();
      const first = database.transaction(async (tx) => {
        await tx.capacity.takePlaces(session.id, 1);
        await held.opened;
      });
      const gone = database.transaction(async (tx) => tx.capacity.takePlaces(session.id, 5), { signal: client.signal });
      const next = database.transaction(async (tx) => tx.capacity.takePlaces(session.id, 2));
      await tick();
      client.abort();
      await expect(gone).rejects.toThrow('The request ended (its client left, or it ran out of time) before its unit of work committed');
      held.open();
      await Promise.all([first, next]);
      expect(reserved()).toBe(3);
    });

    it('keeps a read outside any transaction away from an uncommitted group: it runs after the COMMIT', async () => {
      const { database, session, counter } = await groupWorld();
      const write = database.transaction(async (tx) => tx.capacity.takePlaces(session.id, 3));
      await Promise.resolve();
      const read = database.sessions
        .sessionsInRange(session.experienceId, '2026-01-01T00:00:00', '2027-01-01T00:00:00')
        .then((rows) => ({ reserved: rows[0]!.session.reserved, commitsBefore: counter.commits }));
      await write;
      expect(await read).toEqual({ reserved: 3, commitsBefore: 1 });
    });

    it('answers a unit only once its group is on disk: another connection already sees its write', async () => {
      await withTwoConnections(async (one, other) => {
        const brand = await createBrand(one);
        const { experience } = await createExperience(one, brand.id);
        const session = await createSession(one, experience, { capacity: 10 });
        const seenByOther = () => other.connection.$client.prepare('SELECT reserved FROM sessions WHERE id = ?').pluck().get(session.id);
        const database = one.database;
        const seen = await Promise.all(
          [1, 2, 3].map((count) => database.transaction(async (tx) => tx.capacity.takePlaces(session.id, count)).then(() => seenByOther())),
        );
        expect(seen).toEqual([6, 6, 6]);
      });
    });

    it('fails every unit of a group whose COMMIT fails, and keeps none of their writes', async () => {
      const { db, database, session, reserved } = await groupWorld();
      const outcomes = await Promise.allSettled([
        database.transaction(async (tx) => tx.capacity.takePlaces(session.id, 2)),
        database.transaction(async (tx) => {
          await tx.capacity.takePlaces(session.id, 1);
          // A foreign key checked only at COMMIT, broken: SQLite refuses the COMMIT itself.
          db.connection.$client.exec(
            "PRAGMA defer_foreign_keys = ON; INSERT INTO categories (id, brand_id, name) VALUES ('c', 'no-such-brand', 'x')",
          );
          return true;
        }),
      ]);
      expect(outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message)).toEqual([
        'FOREIGN KEY constraint failed',
        'FOREIGN KEY constraint failed',
      ]);
      expect(reserved()).toBe(0);
      expect(db.connection.$client.inTransaction).toBe(false);
      expect(await database.transaction(async (tx) => tx.capacity.takePlaces(session.id, 4))).toBe(true);
      expect(reserved()).toBe(4);
    });
  });
});
