/**
 * The connection settings durability rests on: WAL, synchronous=FULL (a committed booking survives
 * power loss), a busy timeout (a writer waits for another process's lock instead of failing) and
 * foreign keys enforced.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../src/db/sqlite/client.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-db-settings-'));
const file = join(dir, 'tessera.sqlite');
const db = openDatabase(file);

afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

/** Another thread with its own connection takes the write lock, signals, holds it `holdMs`, then commits. */
function holdWriteLock(holdMs: number): { locked: Promise<void>; done: Promise<void> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.module);
     const db = new Database(workerData.file);
     db.exec('BEGIN IMMEDIATE');
     db.prepare("UPDATE organizations SET name = 'held' WHERE 0").run();
     parentPort.postMessage('locked');
     setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released'); }, workerData.holdMs);`,
    { eval: true, workerData: { file, holdMs, module: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  const message = (expected: string) =>
    new Promise<void>((resolve, reject) => {
      worker.on('message', (m) => m === expected && resolve());
      worker.on('error', reject);
    });
  return { locked: message('locked'), done: message('released') };
}

const pragma = (name: string) => db.$client.pragma(name, { simple: true });

describe('openDatabase', () => {
  it('runs in WAL mode with synchronous=FULL, a 5 s busy timeout and foreign keys on', () => {
    expect(pragma('journal_mode')).toBe('wal');
    expect(pragma('synchronous')).toBe(2); // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
    expect(pragma('busy_timeout')).toBe(5000);
    expect(pragma('foreign_keys')).toBe(1);
  });

  it('keeps the same settings on a second connection to the file (they are per connection, not stored)', () => {
    const second = openDatabase(file);
    try {
      expect(second.$client.pragma('synchronous', { simple: true })).toBe(2);
      expect(second.$client.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(second.$client.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      closeDatabase(second);
    }
  });

  it('refuses a row pointing at nothing', () => {
    expect(() =>
      db.$client
        .prepare(
          "INSERT INTO participants (id, booking_id, position, first_name, last_name, price_tier_name, price_minor) VALUES ('p', 'no-such-booking', 0, 'A', 'B', 'Adult', 100)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY constraint failed/);
  });

  it('waits for another connection holding the write lock instead of failing with SQLITE_BUSY', async () => {
    const other = holdWriteLock(300);
    await other.locked;
    const started = Date.now();
    // Synchronous: this thread blocks inside SQLite's busy handler until the other thread commits.
    db.$client.prepare("INSERT INTO organizations (id, name) VALUES ('waited', 'Waited')").run();
    const waited = Date.now() - started;
    await other.done;
    expect(waited).toBeGreaterThanOrEqual(200);
    expect(waited).toBeLessThan(5000);
    expect(db.$client.prepare("SELECT name FROM organizations WHERE id = 'waited'").pluck().get()).toBe('Waited');
  });
});
