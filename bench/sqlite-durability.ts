/**
 * What `synchronous=FULL` costs. The same write workload runs on a fresh SQLite file in WAL mode with
 * synchronous=FULL (what Tessera uses: every commit is fsynced, so a confirmed booking survives power
 * loss) and with synchronous=NORMAL (commits reach the disk only at checkpoints), several rounds,
 * alternating, and prints the ratio of the medians and the per-transaction latency.
 *
 * Two workloads. `checkout` is the real domain code, one transaction per call as in production: a
 * checkout (cart, payment intent, booking, participants, places taken, `booking.created` event)
 * followed by its payment confirmation (intent, booking confirmed, cart paid, `booking.confirmed`
 * event). `bare commit` is a one-row UPDATE per transaction: the upper bound of what FULL can cost.
 *
 * Run: npm run bench:durability [-- <checkouts per round> <rounds per mode>]   (defaults 200 and 5)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../src/domain/access/principal.ts';
import { closeDatabase, inTransaction, openDatabase } from '../src/db/sqlite/client.ts';
import { openSqliteDatabase } from '../src/db/sqlite/database.ts';
import type { Seeder } from '../src/db/tables.ts';
import { createPaymentIntent } from '../src/domain/checkout/checkout.ts';
import type { CallerDeps } from '../src/domain/shared/deps.ts';
import { handlePaymentEvent } from '../src/domain/payments/payments.ts';
import { SandboxProcessor } from '../src/adapters/sandbox-processor.ts';
import { createSession } from '../fixtures/factories/bookings.ts';
import { createBrand } from '../fixtures/factories/brands.ts';
import { createExperience } from '../fixtures/factories/catalog.ts';

type Mode = 'FULL' | 'NORMAL';
type SqliteEngine = ReturnType<typeof openSqliteDatabase>;

const checkouts = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 5);
const SESSIONS = 20;

/** A brand, an experience and sessions a month ahead, large enough for every checkout of a round. */
async function world(seed: Seeder) {
  const brand = await createBrand(seed);
  const { experience } = await createExperience(seed, brand.id);
  const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  // Hours 04:00 to 23:00 of one day: no daylight-saving gap falls in them.
  const sessions = [];
  for (let i = 0; i < SESSIONS; i += 1) {
    sessions.push(
      await createSession(seed, experience, { startLocal: `${day}T${String(4 + i).padStart(2, '0')}:00:00`, capacity: 10_000 }),
    );
  }
  return { brand, experience, sessionIds: sessions.map((s) => s.id), sessionTimes: sessions.map((s) => s.startLocal.slice(0, 16)) };
}

/** Checkouts (two guests) each followed by its confirmation, through the domain: what production does. */
async function checkoutWorkload(engine: SqliteEngine, timed: Timed): Promise<void> {
  const { brand, experience, sessionTimes } = await world(engine.seeder);
  const principal: Principal = { kind: 'brand', keyId: 'bench', organizationId: null, brandIds: [brand.id], headerBrandId: null };
  const deps: CallerDeps = {
    db: engine.database,
    now: () => new Date(),
    payments: new SandboxProcessor(),
    holdTtlSeconds: 900,
    waitlistOfferTtlSeconds: 86_400,
    principal,
  };
  for (let i = 0; i < checkouts; i += 1) {
    let secret = '';
    await timed(async () => {
      const result = await createPaymentIntent(deps, {
        brandId: brand.id,
        cartId: randomUUID(),
        data: [
          {
            experienceId: experience.id,
            sessionTime: sessionTimes[i % SESSIONS]!,
            participants: [
              { firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult', emailAddress: 'ana@example.com' },
              { firstName: 'Rui', lastName: 'Silva', priceTierName: 'Child' },
            ],
          },
        ],
      });
      secret = result.paymentIntentSecret!;
    });
    const intentReference = secret.slice(0, secret.indexOf('_secret_'));
    await timed(() => handlePaymentEvent(deps, { id: randomUUID(), type: 'payment_intent.succeeded', intentReference }));
  }
}

/** As many transactions of a single one-row UPDATE: nearly nothing but the commit, the worst case for FULL. */
async function commitWorkload(engine: SqliteEngine, timed: Timed): Promise<void> {
  const { sessionIds } = await world(engine.seeder);
  const db = engine.connection;
  const take = db.$client.prepare('UPDATE sessions SET reserved = reserved + 1 WHERE id = ?');
  for (let i = 0; i < 2 * checkouts; i += 1) await timed(async () => inTransaction(db, () => take.run(sessionIds[i % SESSIONS])));
}

type Timed = (fn: () => Promise<unknown>) => Promise<void>;
const workloads = { checkout: checkoutWorkload, 'bare commit': commitWorkload } as const;

/** One round on a fresh file; returns each transaction's milliseconds. */
async function round(mode: Mode, workload: keyof typeof workloads): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  const engine = openSqliteDatabase(join(dir, 'bench.sqlite'));
  try {
    engine.connection.$client.pragma(`synchronous = ${mode}`);
    const latencies: number[] = [];
    await workloads[workload](engine, async (fn) => {
      const start = process.hrtime.bigint();
      await fn();
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    });
    return latencies;
  } finally {
    await engine.database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const low = sorted[Math.floor(at)]!;
  return low + (sorted[Math.ceil(at)]! - low) * (at - Math.floor(at));
}
const ms = (value: number) => `${value.toFixed(3)} ms`;

/** statfs magic numbers of the file systems a temp directory is usually on. */
const fileSystems: Record<number, string> = {
  0xef53: 'ext4',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x01021994: 'tmpfs (memory: no fsync cost)',
  0x794c7630: 'overlayfs',
};

function machine(): string {
  const fs = statfsSync(tmpdir());
  const sqlite = openDatabase(':memory:');
  const version = sqlite.$client.prepare('SELECT sqlite_version()').pluck().get();
  closeDatabase(sqlite);
  return [
    `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
    `${platform()} ${release()}, Node ${process.version}, SQLite ${String(version)}`,
    `temp files in ${tmpdir()} on ${fileSystems[fs.type] ?? `file system 0x${fs.type.toString(16)}`}`,
  ].join('\n  ');
}

async function compare(workload: keyof typeof workloads): Promise<void> {
  console.log(`\n== ${workload}: ${2 * checkouts} transactions a round, ${rounds} rounds a mode, alternating`);
  await round('NORMAL', workload); // warm-up: module loading, JIT, the file system's caches
  const totals: Record<Mode, number[]> = { FULL: [], NORMAL: [] };
  const each: Record<Mode, number[]> = { FULL: [], NORMAL: [] };
  for (let r = 0; r < rounds; r += 1) {
    for (const mode of (r % 2 === 0 ? ['FULL', 'NORMAL'] : ['NORMAL', 'FULL']) as Mode[]) {
      const latencies = await round(mode, workload);
      totals[mode].push(sum(latencies));
      each[mode].push(...latencies);
      console.log(
        `round ${r + 1} ${mode.padEnd(6)} ${ms(sum(latencies)).padStart(12)}  (${ms(sum(latencies) / latencies.length)} a transaction)`,
      );
    }
  }
  for (const mode of ['FULL', 'NORMAL'] as Mode[]) {
    const all = each[mode];
    console.log(
      `${mode.padEnd(6)} round median ${ms(quantile(totals[mode], 0.5))}; a transaction: median ${ms(quantile(all, 0.5))}, p95 ${ms(quantile(all, 0.95))}, p99 ${ms(quantile(all, 0.99))}`,
    );
  }
  const [full, normal] = [quantile(totals.FULL, 0.5), quantile(totals.NORMAL, 0.5)];
  console.log(
    `FULL / NORMAL (ratio of round medians): ${(full / normal).toFixed(2)}x; FULL adds ${ms((full - normal) / (2 * checkouts))} a transaction`,
  );
}

async function main() {
  console.log(`Machine:\n  ${machine()}`);
  await compare('checkout');
  await compare('bare commit');
}

await main();
