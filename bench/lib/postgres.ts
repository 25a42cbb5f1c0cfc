/**
 * PostgreSQL for the bench: `BENCH_POSTGRES_URL` (else `TEST_POSTGRES_URL`) names a role that may
 * create databases. The bench creates a database of its own (lib/data.ts builds the main world in it,
 * as in the main SQLite file), and drops it when it ends, however it ends.
 * It also reads what PostgreSQL says about that database: transactions committed and rolled back, and
 * the CPU of the backends serving it when the server runs on this machine.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { redactDatabaseUrl } from '../../src/db/engine.ts';
import { asAdmin, databaseUrl, dropDatabase, dropDatabaseStatements } from '../../fixtures/postgres/admin.ts';
import { cpuSeconds } from './proc.ts';
import { root } from './processes.ts';

/** The admin URL to use, or why the PostgreSQL rows are skipped. */
export function postgresAdminUrl(env: NodeJS.ProcessEnv = process.env): { url: string } | { skipped: string } {
  const url = env.BENCH_POSTGRES_URL || env.TEST_POSTGRES_URL;
  if (url) return { url };
  return {
    skipped: 'BENCH_POSTGRES_URL is not set (a postgres:// URL of a role with CREATEDB; TEST_POSTGRES_URL is used when it is)',
  };
}

export interface BenchDatabase {
  name: string;
  /** The database's URL: the admin URL with its path replaced. */
  url: string;
  /** Drops it, closing whatever connections of the role are left. Once; later calls do nothing. */
  drop(): Promise<void>;
}

/**
 * Drops the database from an 'exit' handler, where nothing asynchronous runs: a short node process
 * does it (the URL goes through its environment, not its command line, so `ps` shows no password).
 */
function dropSynchronously(adminUrl: string, name: string): void {
  const script = `const pg = require('pg');
const client = new pg.Client({ connectionString: process.env.BENCH_ADMIN_URL });
client.connect()
  .then(async () => { for (const statement of JSON.parse(process.env.BENCH_DROP)) await client.query(statement); })
  .finally(() => client.end());`;
  spawnSync(process.execPath, ['-e', script], {
    cwd: root,
    env: { ...process.env, BENCH_ADMIN_URL: adminUrl, BENCH_DROP: JSON.stringify(dropDatabaseStatements(name)) },
    stdio: 'ignore',
    timeout: 15_000,
  });
}

/** A new empty database, dropped on every way out of the bench (Ctrl-C included) if `drop` has not run. */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `tessera_bench_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  let dropped = false;
  process.on('exit', () => {
    if (!dropped) dropSynchronously(adminUrl, name);
  });
  return {
    name,
    url: databaseUrl(adminUrl, name),
    async drop() {
      if (dropped) return;
      dropped = true;
      await asAdmin(adminUrl, (client) => dropDatabase(client, name));
    },
  };
}

export interface TransactionCounts {
  committed: number;
  rolledBack: number;
  deadlocks: number;
}

/** PostgreSQL's own view of the bench database, through one admin connection. */
export interface DatabaseProbe {
  /** Whether the server's backends are processes of this machine (their CPU can then be read). */
  local: boolean;
  /** CPU seconds used so far by each backend connected to the database, by process id; empty when not local. */
  backendCpu(): Promise<Map<number, number>>;
  /**
   * Transactions of the database (pg_stat_database). A backend reports its counts at most once a second
   * while busy and when it ends: exact once the gateways have stopped.
   */
  transactions(): Promise<TransactionCounts>;
  /** Resolves once no backend is connected to the database any more (each has reported its counts as it ended), or after `timeoutMs`. */
  disconnected(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The command name /proc gives a process (`postgres` for PostgreSQL's backends), or null. */
function processName(pid: number): string | null {
  try {
    return /^\d+ \((.*)\) /.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

export async function probeDatabase(adminUrl: string, name: string): Promise<DatabaseProbe> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const own = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  // The admin connection's backend is a process of this machine exactly when the server runs here.
  const local = processName(own.rows[0]!.pid) === 'postgres';
  return {
    local,
    async backendCpu() {
      if (!local) return new Map();
      const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
      return new Map(rows.map(({ pid }) => [pid, cpuSeconds(pid)]));
    },
    async transactions() {
      const { rows } = await client.query<{ committed: string; rolled_back: string; deadlocks: string }>(
        'SELECT xact_commit AS committed, xact_rollback AS rolled_back, deadlocks FROM pg_stat_database WHERE datname = $1',
        [name],
      );
      const row = rows[0];
      return { committed: Number(row?.committed ?? 0), rolledBack: Number(row?.rolled_back ?? 0), deadlocks: Number(row?.deadlocks ?? 0) };
    },
    async disconnected(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (Number(rows[0]!.n) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => client.end(),
  };
}

/** CPU seconds the database's backends used between two `backendCpu()` readings (a backend that started in between counts from 0). */
export function backendCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += Math.max(0, seconds - (before.get(pid) ?? 0));
  return total;
}

export const describeUrl = redactDatabaseUrl;
