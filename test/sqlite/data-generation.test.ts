/**
 * SQLite's data version (src/db/sqlite/generation.ts): a counter the triggers of every table a cached answer
 * may read move (drizzle/sqlite/migrations/0018), and those of the tables no cached answer reads
 * (UNVERSIONED_TABLES) leave alone.
 */
import { describe, expect, it } from 'vitest';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience, createHost } from '../../fixtures/factories/catalog.ts';
import { UNVERSIONED_TABLES } from '../../src/db/unversioned-tables.ts';
import { freshSqliteDb } from '../support/db.ts';

describe('the data generation on SQLite', () => {
  it('has the three triggers on every table but those no cached answer reads, and none on those', () => {
    const { connection } = freshSqliteDb();
    const names = (sql: string) => (connection.$client.prepare(sql).pluck().all() as string[]).sort();
    const tables = names(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('__drizzle_migrations', 'data_generation')",
    );
    expect(tables.filter((table) => UNVERSIONED_TABLES.has(table))).toStrictEqual([...UNVERSIONED_TABLES].sort());
    const versioned = tables.filter((table) => !UNVERSIONED_TABLES.has(table));
    expect(versioned.length).toBe(26);
    const triggers = connection.$client
      .prepare("SELECT tbl_name AS 'table', name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
      .all() as Array<{ table: string; name: string; sql: string }>;
    expect(triggers.map((trigger) => trigger.name)).toStrictEqual(
      versioned.flatMap((table) => ['delete', 'insert', 'update'].map((op) => `data_changed_${table}_${op}`)).sort(),
    );
    for (const { table, name, sql } of triggers) {
      const op = name.slice(`data_changed_${table}_`.length).toUpperCase();
      expect(sql.replace(/\s+/g, ' ')).toBe(
        `CREATE TRIGGER ${name} AFTER ${op} ON ${table} BEGIN INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1; END`,
      );
    }
  });

  it('moves with a write to what cached answers read, by any connection, and not with places taken', async () => {
    const db = freshSqliteDb();
    const { database } = db;
    const brand = await createBrand(db);
    const { experience } = await createExperience(db, brand.id);
    const session = await createSession(db, experience, { capacity: 5 });
    const before = await database.dataVersion();
    expect(await database.capacity.takePlaces(session.id, 2)).toBe(true);
    await database.transaction((tx) => tx.capacity.takePlaces(session.id, 1));
    expect(await database.dataVersion()).toBe(before);
    await createHost(db, brand.id);
    const afterHost = await database.dataVersion();
    expect(Number(afterHost)).toBe(Number(before) + 1);
    // Written past the port, as the sqlite3 shell or another process would; the row deleted by hand comes back
    // with the next write, above any count before it (the time in milliseconds).
    db.connection.$client.prepare("UPDATE brands SET name = 'Elsewhere'").run();
    expect(Number(await database.dataVersion())).toBe(Number(afterHost) + 1);
    db.connection.$client.prepare('DELETE FROM data_generation').run();
    expect(await database.dataVersion()).toBe('none');
    const deletedAt = Date.now();
    db.connection.$client.prepare("UPDATE brands SET name = 'Back'").run();
    expect(Number(await database.dataVersion())).toBeGreaterThanOrEqual(deletedAt - 1);
    expect(Number(await database.dataVersion())).toBeLessThanOrEqual(Date.now());
  });
});
